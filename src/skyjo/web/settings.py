"""The settings of a web server: pace, limits and where the database is."""

from __future__ import annotations

import os
from dataclasses import dataclass

from skyjo.persistence.location import database_url
from skyjo.web.origins import parse_hosts, parse_origins

#: The largest WebSocket message the transport reads (uvicorn's ws_max_size, and a
#: relay's to a room's owner: skyjo.web.cluster): far above the protocol's own limits,
#: so that the app reads an oversized message and answers it (`too_large`, naming the
#: limit) before it closes the connection (1009). A message larger still is cut by the
#: transport (1009, its reason naming the size).
WS_MAX_SIZE = 1024 * 1024

#: The bots a room may seat: the package's ladder, weakest first (never `external`,
#: which runs a command on the server).
LADDER: tuple[str, ...] = ("random", "greedy", "basic", "expected", "best", "search")
#: The level a page offers first for the bots of a new room (an easy one, of `LADDER`).
DEFAULT_BOT = "greedy"


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server behaves. Every duration is in seconds."""

    #: SQLAlchemy URL of the database (see `database_url`).
    database_url: str = "sqlite://"
    #: Pause before each bot move, so that humans can follow the game.
    bot_delay: float = 0.8
    #: A human seat with no connection for this long has its turns played by a stand-in bot.
    absent_after: float = 60.0
    #: The largest client message, in bytes of UTF-8: a larger one is answered `too_large`.
    max_message: int = 4096
    #: A message over this many bytes is answered `too_large` and its connection closed
    #: (1009); the transport takes frames up to `WS_MAX_SIZE`.
    oversize_close: int = 64 * 1024
    #: Messages a connection may send in a burst, and the sustained rate per second: a
    #: message over them is answered `rate_limited` and dropped; as many again at once
    #: (a flood) and the connection is closed (1008).
    burst: int = 30
    rate: float = 10.0
    #: Messages the connections of one address may send together: a burst, and per second.
    ip_burst: int = 120
    ip_rate: float = 40.0
    #: Per client address: rooms created, game records uploaded, scoresheets created
    #: (new or imported), each an hour (a burst of as many, refilled evenly; 0: no limit).
    rooms_per_hour: int = 30
    #: ... and seats taken (joins, by HTTP or WebSocket): enough for a class behind one
    #: address joining at once, too few for a script to take every listed room's seats.
    joins_per_hour: int = 60
    replays_per_hour: int = 30
    sheets_per_hour: int = 30
    #: ... and unknown room codes tried (a room's facts, join or WebSocket for a code
    #: with no room): past them every lookup of the address is refused a while, a hit
    #: too, so that guessing codes learns nothing (`api.codes_counted`).
    codes_per_hour: int = 60
    #: The proxies whose X-Forwarded-For names the client (comma-separated addresses or
    #: networks, "*" for any, "" for none): uvicorn's forwarded-allow-ips (docs/deploy.md).
    trusted_proxies: str = "127.0.0.1"
    #: Origins besides the server's own whose pages may change things here (create,
    #: join, play: `skyjo.web.origins`), normalised (`origins.parse_origins`).
    allowed_origins: tuple[str, ...] = ()
    #: Host names besides the always-allowed ones (`skyjo.web.origins.host_allowed`: IP
    #: addresses, localhost, the cluster address, the allowed origins' hosts) that a
    #: request's `Host` may name: the public names of a server behind a proxy
    #: (`SKYJO_ALLOWED_HOSTS`, comma-separated; a name starting with "." covers its
    #: subdomains); any other name is refused, which stops DNS rebinding.
    allowed_hosts: tuple[str, ...] = ()
    #: Chat messages in a burst and per second; the longest chat message in characters.
    chat_burst: int = 5
    chat_rate: float = 0.5
    max_chat: int = 300
    #: A WebSocket that has not said `hello` this long after it opened is closed (4408;
    #: 0: never).
    hello_within: float = 10.0
    #: The most WebSockets open at once from one client address (0: no cap), and in all:
    #: fewer still when the open-file limit asks it (`sockets.socket_caps`).
    sockets_per_address: int = 64
    max_sockets: int = 4096
    #: The most connections (players and spectators) one room accepts.
    max_connections: int = 64
    #: Messages queued for one slow client before it is disconnected.
    send_queue: int = 512
    #: How many recent updates a `state` message repeats as the game's log.
    log_length: int = 30
    #: Worker processes the bots think in (`skyjo.web.thinking`); 0: threads of this process.
    bot_processes: int = 0
    #: A finished game's room leaves the server's memory once nobody has been connected
    #: to it for this long (its game stays in the database, watched as a replay) ...
    finished_linger: float = 60.0
    #: ... and at once when more finished rooms than this have nobody connected.
    finished_kept: int = 100
    #: (PostgreSQL) Where the other processes of the cluster reach this one ("host:port",
    #: its own listener: `skyjo.web.cluster`); None: no cluster, the rooms are this
    #: process's alone.
    cluster_address: str | None = None

    @classmethod
    def from_env(cls, db: str | None = None) -> Settings:
        """Settings for `skyjo serve`: the database from `db`, else `$SKYJO_DB`,
        else a SQLite file in the user's data folder; `$SKYJO_BOT_DELAY`,
        `$SKYJO_ABSENT_AFTER`, `$SKYJO_FINISHED_LINGER`, `$SKYJO_HELLO_WITHIN` and `$SKYJO_RATE`
        (messages a second a connection may send, the burst three times that; an
        address four times as many) override the pace (tests and benchmarks set
        them); `$SKYJO_ROOMS_PER_HOUR`, `$SKYJO_JOINS_PER_HOUR`, `$SKYJO_REPLAYS_PER_HOUR`,
        `$SKYJO_SHEETS_PER_HOUR` and `$SKYJO_CODES_PER_HOUR` the per-address limits (0: none);
        `$SKYJO_SOCKETS_PER_ADDRESS` and `$SKYJO_MAX_SOCKETS` the caps of open WebSockets;
        `$SKYJO_TRUSTED_PROXIES` the proxies trusted to name the client;
        `$SKYJO_ALLOWED_ORIGINS` (comma-separated) the other origins whose pages
        may change things (an `OriginError` names one that is not an origin);
        `$SKYJO_ALLOWED_HOSTS` (comma-separated) the host names a request may be
        addressed to beside the always-allowed ones;
        `$SKYJO_BOT_PROCESSES` the bots' worker processes (0: threads; default
        `default_bot_processes()`)."""
        values: dict[str, float | str | tuple[str, ...]] = {}
        for name, key in (
            ("bot_delay", "SKYJO_BOT_DELAY"),
            ("absent_after", "SKYJO_ABSENT_AFTER"),
            ("finished_linger", "SKYJO_FINISHED_LINGER"),
            ("hello_within", "SKYJO_HELLO_WITHIN"),
        ):
            if os.environ.get(key):
                values[name] = float(os.environ[key])
        for name, key in (
            ("rooms_per_hour", "SKYJO_ROOMS_PER_HOUR"),
            ("joins_per_hour", "SKYJO_JOINS_PER_HOUR"),
            ("replays_per_hour", "SKYJO_REPLAYS_PER_HOUR"),
            ("sheets_per_hour", "SKYJO_SHEETS_PER_HOUR"),
            ("codes_per_hour", "SKYJO_CODES_PER_HOUR"),
            ("sockets_per_address", "SKYJO_SOCKETS_PER_ADDRESS"),
            ("max_sockets", "SKYJO_MAX_SOCKETS"),
        ):
            if os.environ.get(key):
                values[name] = int(os.environ[key])
        if os.environ.get("SKYJO_RATE"):
            rate = float(os.environ["SKYJO_RATE"])
            values.update(rate=rate, burst=max(30, int(3 * rate)))
            values.update(ip_rate=max(40.0, 4 * rate), ip_burst=max(120, int(12 * rate)))
        if "SKYJO_TRUSTED_PROXIES" in os.environ:
            values["trusted_proxies"] = os.environ["SKYJO_TRUSTED_PROXIES"]
        if os.environ.get("SKYJO_ALLOWED_ORIGINS"):
            values["allowed_origins"] = parse_origins(os.environ["SKYJO_ALLOWED_ORIGINS"])
        if os.environ.get("SKYJO_ALLOWED_HOSTS"):
            values["allowed_hosts"] = parse_hosts(os.environ["SKYJO_ALLOWED_HOSTS"])
        processes = os.environ.get("SKYJO_BOT_PROCESSES")
        bot_processes = int(processes) if processes else default_bot_processes()
        return cls(database_url=database_url(db), bot_processes=bot_processes, **values)  # type: ignore[arg-type]


def default_bot_processes() -> int:
    """Worker processes for the bots of `skyjo serve`: one per core but one, at
    least one, at most four."""
    return max(1, min(4, (os.cpu_count() or 1) - 1))

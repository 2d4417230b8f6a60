"""Cross-site requests refused: no other website acts through a visitor's browser.

A page on another site can make the visitor's browser send a "simple" request
(a form, or `fetch` with `Content-Type: text/plain`, no preflight) to this
server, and open a WebSocket to it. `OriginGuard` refuses, before any route
runs:

- a state-changing request (any method but GET, HEAD and OPTIONS) or a
  WebSocket handshake whose `Origin` is neither the server's own (the scheme
  and `Host` the request reached it under, after a trusted proxy's headers) nor
  one of `Settings.allowed_origins` (`SKYJO_ALLOWED_ORIGINS`): 403, kind
  `cross_origin` (origin);
- such a request with no `Origin` whose `Sec-Fetch-Site` says it comes from
  another site: 403, kind `cross_site` (site);
- a state-changing request with a body whose `Content-Type` is not
  `application/json` (every body this server reads is JSON): 415, kind
  `body_content_type` (type), so that a browser always asks first (preflight).

A request with neither header (a script, `curl`) is not a browser acting for
someone else and passes.

Before those, every request (any method, and a WebSocket) whose `Host` names
a host this server does not answer to is refused: 400, kind `host_not_allowed`
(host). A page of an attacker's domain whose name it then points at this
server's address (DNS rebinding) would otherwise be same-origin with it, and
read and change everything. The hosts answered to (`host_allowed`): any IP
address, `localhost` and its subdomains, and the names given
(`Settings.allowed_hosts`, `SKYJO_ALLOWED_HOSTS`; ".example.org" covers its
subdomains), to which `allowed_names` adds the cluster address's host and the
allowed origins' hosts. A request without a `Host` (HTTP/1.0: no browser)
passes.

The answer is the documented error shape (docs/web-protocol.md); a WebSocket
is refused with that answer as its handshake's status where the server can
send one, else closed (1008) unopened.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skyjo.web.protocol import ProtocolError

#: The methods that change nothing (RFC 9110's safe methods): never refused.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: `Sec-Fetch-Site` values of a request the server's own pages (or the user) made.
OWN_SITE = frozenset({"same-origin", "none"})
DEFAULT_PORTS = {"http": 80, "https": 443}


class OriginError(ValueError):
    """An allowed origin that is not one (`SKYJO_ALLOWED_ORIGINS`)."""


def normalize_origin(origin: str) -> str:
    """`origin` as browsers send it: lower-case scheme and host, the port only when it
    is not the scheme's default, no path (`OriginError` when it is not an http(s)
    origin)."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        raise OriginError(
            f"{origin!r} is not an origin: write it as scheme://host[:port], "
            "e.g. https://skyjo.example.org"
        )
    if parts.query or parts.fragment or parts.username or parts.password:
        raise OriginError(f"{origin!r} is not an origin: it holds more than scheme://host[:port]")
    try:
        port = parts.port
    except ValueError:
        raise OriginError(f"{origin!r} is not an origin: its port is not a number") from None
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    if port is None or port == DEFAULT_PORTS[parts.scheme]:
        return f"{parts.scheme}://{host}"
    return f"{parts.scheme}://{host}:{port}"


def parse_origins(text: str) -> tuple[str, ...]:
    """The allowed origins of a comma-separated list (`SKYJO_ALLOWED_ORIGINS`)."""
    return tuple(normalize_origin(part) for part in text.split(",") if part.strip())


def parse_hosts(text: str) -> tuple[str, ...]:
    """The allowed host names of a comma-separated list (`SKYJO_ALLOWED_HOSTS`):
    lower case, without a port (`OriginError` for one with a port, a scheme or a
    path)."""
    names = []
    for part in text.split(","):
        name = part.strip().lower().rstrip(".")
        if not name:
            continue
        if any(c in name for c in ":/@ ") or name.strip(".") == "":
            raise OriginError(f"{part.strip()!r} is not a host name: write it as skyjo.example.org")
        names.append(name)
    return tuple(names)


def host_name(host: str) -> str | None:
    """The name of a `Host` header, lower case, without its port or brackets."""
    host = host.strip().lower()
    if not host:
        return None
    if host.startswith("["):  # an IPv6 address, perhaps with a port
        return host[1 : host.index("]")] if "]" in host else None
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(host: str, allowed: frozenset[str]) -> bool:
    """Whether this server answers to `host` (a `Host` header): an IP address,
    localhost, or a name of `allowed` (".name" also covers its subdomains)."""
    name = host_name(host)
    if name is None:
        return False
    name = name.rstrip(".")
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name == "localhost" or name.endswith(".localhost") or name in allowed:
        return True
    return any(a.startswith(".") and (name.endswith(a) or name == a[1:]) for a in allowed)


def allowed_names(
    hosts: Iterable[str], origins: Iterable[str], cluster_address: str | None
) -> frozenset[str]:
    """The host names a server answers to beside IP addresses and localhost: the
    ones given, the allowed origins' hosts and the cluster address's host."""
    names = {h.lower() for h in hosts}
    names |= {urlsplit(origin).hostname or "" for origin in origins}
    if cluster_address:
        names.add(host_name(cluster_address) or "")
    return frozenset(names - {""})


def own_origin(scope: Scope, host: str) -> str | None:
    """The origin a request reached this server under: its scheme (ws counts as http)
    and its `Host` header (None without one)."""
    scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
    if not host:
        return None
    try:
        return normalize_origin(f"{scheme}://{host}")
    except OriginError:
        return None


def refusal(
    scope: Scope,
    headers: dict[str, str],
    allowed: frozenset[str],
    hosts: frozenset[str] | None = None,
) -> tuple[int, ProtocolError] | None:
    """Why the request of `scope` must be refused, with the status of the answer,
    or None when it may go on. `hosts`: the names answered to (`allowed_names`);
    None: any."""
    host = headers.get("host")
    if hosts is not None and host is not None and not host_allowed(host, hosts):
        shown = f"{host:.200}"
        return 400, ProtocolError(
            "bad_request",
            f"this server does not answer to the host {shown}: its operator lists the "
            "names it is reached under (SKYJO_ALLOWED_HOSTS)",
            "host_not_allowed",
            {"host": shown},
        )
    if scope["type"] == "http" and scope["method"] in SAFE_METHODS:
        return None
    origin = headers.get("origin")
    if origin is not None:
        try:
            seen = normalize_origin(origin)
        except OriginError:
            seen = None
        own = own_origin(scope, headers.get("host", ""))
        if seen is None or (seen not in allowed and seen != own):
            shown = f"{origin:.200}"
            return 403, ProtocolError(
                "forbidden",
                f"requests from the page at {shown} are not accepted: this server "
                "takes changes from its own pages only",
                "cross_origin",
                {"origin": shown},
            )
    else:
        site = headers.get("sec-fetch-site")
        if site is not None and site not in OWN_SITE:
            shown = f"{site:.40}"
            return 403, ProtocolError(
                "forbidden",
                f"a request made by another site ({shown}) is not accepted: this server "
                "takes changes from its own pages only",
                "cross_site",
                {"site": shown},
            )
    if scope["type"] == "http" and _has_body(headers):
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            shown = f"{kind or 'none'!s:.80}"
            return 415, ProtocolError(
                "unsupported_media_type",
                f"a request body is JSON, sent as Content-Type: application/json, not {shown}",
                "body_content_type",
                {"type": shown},
            )
    return None


def _has_body(headers: dict[str, str]) -> bool:
    """Whether the request says it carries a body."""
    length = headers.get("content-length")
    if length is not None:
        return length.strip() not in ("", "0")
    return "transfer-encoding" in headers


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the first of a repeated one)."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


class OriginGuard:
    """ASGI middleware: the refusals of `refusal`, before the app sees the request."""

    def __init__(
        self, app: ASGIApp, allowed: Iterable[str] = (), hosts: Iterable[str] | None = None
    ) -> None:
        self.app = app
        self.allowed = frozenset(allowed)
        self.hosts = None if hosts is None else frozenset(hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = refusal(scope, _headers(scope), self.allowed, self.hosts)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, failure = refused
        body = json.dumps({"error": failure.fields()}).encode()
        start: Message = {
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
        if scope["type"] == "http":
            await send({"type": "http.response.start", **start})
            await send({"type": "http.response.body", "body": body})
            return
        await receive()  # the handshake's websocket.connect, answered with a refusal
        if "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", **start})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": failure.kind})

"""An undo survives a restart: the real server (`skyjo serve`, tests/web/liveserver.py)
killed with SIGKILL after an undo comes back at the game undone, never playing the
undone steps again from its move log (`Store.save` with `RoomRecord.rewound`)."""

from __future__ import annotations

from pathlib import Path

from liveserver import Server
from saved import saved_game
from webclient import Conn, settle, to_my_turn

from skyjo.engine import DRAW, SWAP

BOTS = [{"name": "Ana"}, {"bot": "greedy"}, {"bot": "greedy"}]


def _turn(ana: Conn, place: int) -> None:
    """Ana draws and exchanges the card at `place`; the bots reply."""
    ana.move(DRAW)
    ana.until_number(ana.number + 1)
    ana.move(SWAP + place)
    ana.until_number(ana.number + 1)
    settle(ana, [ana])


def test_a_restart_after_an_undo_comes_back_at_the_game_undone(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'skyjo.db'}"
    server = Server(database)
    try:
        host = server.post("/api/rooms", {"seats": BOTS, "rules": {"target_score": 1000}})
        ana = server.conn(host["code"])
        ana.hello(host["token"])
        to_my_turn(ana)
        _turn(ana, 0)  # steps in the move log before the undone ones
        ana.move(DRAW)
        ana.until_number(ana.number + 1)
        number = ana.number
        ana.move(SWAP + 1)
        ana.until_number(number + 1)
        settle(ana, [ana])
        assert ana.number > number + 1  # the bots replied: their steps are in the log
        ana.send({"type": "undo"})
        undone = ana.until(lambda m: m["type"] in ("state", "error"))
        assert undone["type"] == "state" and undone["number"] == number
        _, steps, actions = saved_game(database, host["code"])
        assert steps == number  # the undone steps are not played again on load
        ana.move(SWAP + 2)  # numbered on from the undo: its number is free in the log
        ana.until_number(number + 1)
        settle(ana, [ana])
        ana.send({"type": "resync"})
        before = ana.until(lambda m: m["type"] == "state")
        server.kill()
        server = Server(database, port=server.port)
        again = server.conn(host["code"])
        state = again.hello(host["token"])
        assert state["number"] == before["number"]
        assert state["observation"] == before["observation"]
        _, steps, history = saved_game(database, host["code"])
        assert history[:number] == actions[:number] and history[number] == SWAP + 2
    finally:
        Conn.close_all()
        server.kill()

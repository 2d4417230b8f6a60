"""A database error never shows a statement's parameters (issue: secrets in the
log): they hold a match's secret seed and decks, and the seats' token hashes."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from skyjo.match import Match, Seat
from skyjo.persistence.engine import engine_for
from skyjo.web.storage import RoomRecord, Store

SECRET = 987654321987


def test_a_failed_save_names_neither_the_seed_nor_the_deck(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    store = Store(url)
    match = Match([Seat("Ana"), Seat("Bot", "greedy")], seed=SECRET)
    deck = match.record()["rounds"][0]["deck"]
    tokens = {"a-secret-token-hash": 0}
    with engine_for(url).begin() as connection:
        connection.execute(text("DROP TABLE rooms"))  # the next save fails
    caplog.set_level(logging.DEBUG)
    with pytest.raises(SQLAlchemyError) as failure:
        store.save(RoomRecord("ABCDEF", "t", False, "h", tokens, match.to_dict()))
    shown = str(failure.value) + caplog.text
    assert "rooms" in shown  # the error says what failed
    assert str(SECRET) not in shown
    assert "a-secret-token-hash" not in shown
    assert ", ".join(map(str, deck[:12])) not in shown
    assert "parameters hidden" in str(failure.value)
    store.close()

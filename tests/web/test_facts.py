"""The facts the server gives its pages (skyjo.web.facts): the bots a seat may be
given, the rule variants and the limits, written once on the server and read by
the client's scripts from the page (static/facts.js) instead of written again."""

from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.testclient import TestClient
from webapp import serving

from skyjo.names import MAX_NAME
from skyjo.rules import (
    ENDER_PENALTIES,
    MAX_PLAYERS,
    MAX_TARGET_SCORE,
    MIN_TARGET_SCORE,
    Rules,
)
from skyjo.web.facts import SLOT
from skyjo.web.settings import DEFAULT_BOT, LADDER

STATIC = Path(__file__).resolve().parents[2] / "src" / "skyjo" / "web" / "static"
BLOCK = re.compile(r'<script type="application/json" id="skyjo-facts">(.*?)</script>', re.S)


def facts_of(client: TestClient, path: str) -> dict[str, object]:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    blocks = BLOCK.findall(response.text)
    assert len(blocks) == 1, f"{path} holds one facts block"
    return json.loads(blocks[0])


def test_every_page_holds_the_servers_facts() -> None:
    with serving(max_chat=120) as client:
        for path in ("/", "/r/ABCDEF", "/replay", "/scorepad", "/scorepad/abc"):
            facts = facts_of(client, path)
            assert facts["bots"] == list(LADDER)
            assert facts["players"] == {"min": 2, "max": MAX_PLAYERS}
            assert facts["variants"] == [
                {
                    "name": "target_score",
                    "key": "target",
                    "default": 100,
                    "min": MIN_TARGET_SCORE,
                    "max": MAX_TARGET_SCORE,
                },
                {
                    "name": "ender_penalty",
                    "key": "penalty",
                    "default": Rules().ender_penalty,
                    "choices": list(ENDER_PENALTIES),
                },
            ]
            # what a page offers first: the server's, one of the lists it gives
            assert facts["default_bot"] == DEFAULT_BOT and DEFAULT_BOT in facts["bots"]
            assert facts["max_name"] == MAX_NAME
            assert facts["bot_speeds"] == ["slow", "normal", "fast"]
            assert facts["default_bot_speed"] == "normal"
            assert facts["max_chat"] == 120  # the server's settings, not a constant


def test_the_page_files_keep_an_empty_slot_the_server_fills() -> None:
    for page in ("index.html", "scorepad.html"):
        assert (STATIC / page).read_text(encoding="utf-8").count(SLOT) == 1


def test_the_client_writes_no_list_of_bots_nor_the_bounds_again() -> None:
    ladder = ", ".join(f'"{bot}"' for bot in LADDER)
    penalties = ", ".join(f'"{p}"' for p in ENDER_PENALTIES)
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        assert ladder not in text, f"{script.name} writes the bots again"
        assert penalties not in text, f"{script.name} writes the penalties again"
        assert "maxlength: 40" not in text, f"{script.name} writes the longest name again"
        assert "max: 1000" not in text, f"{script.name} writes the target's bound again"


def test_the_options_and_summaries_of_the_rules_name_no_variant() -> None:
    """The pages that offer the variants (the front page, the scorepad) or sum them up
    (the lobby, the board) build it from the facts' `variants` (static/variants.js):
    none names the ender's penalty, nor words it by its key itself."""
    for page in ("front.js", "scorepad.js", "lobby.js", "board.js"):
        text = (STATIC / page).read_text(encoding="utf-8")
        assert "ender_penalty" not in text, f"{page} names a variant itself"
        assert "penalty.${" not in text, f"{page} words a variant's choice itself"
        assert "target_score:" not in text, f"{page} writes a variant of a request itself"


def test_the_client_chooses_no_bot_level_nor_penalty_itself() -> None:
    """No script names a bot level or a penalty in a string of its own: the default
    level of the front page and the lobby, and the default penalty of the front page
    and the scorepad, are the server's (`default_bot`, the variants' `default`). ("none" is
    also an ordinary word of the page, and "basic" a kind of fetch response: those
    two are looked for where a choice is made, `level: "..."`, `penalty: "..."`, `||`.)"""
    common = {"none", "basic"}
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        for word in (*LADDER, *ENDER_PENALTIES):
            quote = r"[\"'`]"
            anywhere = rf"{quote}{word}{quote}"
            chosen = rf"(?:level|penalty|Level|Penalty)\w*\s*(?::|=|\|\|)\s*{quote}{word}{quote}"
            quoted = re.search(chosen if word in common else anywhere, text)
            assert not quoted, f"{script.name} writes {quoted.group()} itself"
            assert not re.search(rf"\|\|\s*{quote}{word}{quote}", text), (script.name, word)

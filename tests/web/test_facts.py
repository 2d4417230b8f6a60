"""The facts the server gives its pages (skyjo.web.facts): the bots a seat may be
given, the rules' bounds and the limits, written once on the server and read by
the client's scripts from the page (static/facts.js) instead of written again."""

from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.testclient import TestClient
from webapp import serving

from skyjo.names import MAX_NAME
from skyjo.rules import ENDER_PENALTIES, MAX_PLAYERS, MAX_TARGET_SCORE, MIN_TARGET_SCORE
from skyjo.web.facts import SLOT
from skyjo.web.settings import LADDER

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
            assert facts["target_score"]["min"] == MIN_TARGET_SCORE
            assert facts["target_score"]["max"] == MAX_TARGET_SCORE
            assert facts["penalties"] == list(ENDER_PENALTIES)
            assert facts["max_name"] == MAX_NAME
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

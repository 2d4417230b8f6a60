"""What the server knows that the client's pages need, said once: the bots a room
may seat (and the level offered first), the rules' variants (their defaults,
choices and bounds), and the limits of names, titles and chat.

The server writes these facts into each page it serves (`page`), as a JSON
block `<script type="application/json" id="skyjo-facts">` that static/facts.js
reads; the pages' scripts take their lists and bounds from it instead of
writing them again. Being in the page, the facts are kept with it by the
service worker (the page shells of `skyjo.web.pwa`), so a page opened offline
has them too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse

from skyjo.names import MAX_NAME
from skyjo.rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from skyjo.scorepad.sheet import MAX_TITLE as MAX_SHEET_TITLE
from skyjo.web.pace import DEFAULT_SPEED, SPEEDS
from skyjo.web.room_config import MAX_TITLE, MAX_TURN_SECONDS, MIN_TURN_SECONDS
from skyjo.web.settings import DEFAULT_BOT, LADDER, Settings

#: The empty block of a page as written in static/, which `page` fills.
SLOT = '<script type="application/json" id="skyjo-facts">{}</script>'


def client_facts(settings: Settings) -> dict[str, Any]:
    """The facts a page is given. `bots`: the levels a seat may be given, weakest
    first (each page names level `x` by its language table's `level.x`), and
    `default_bot` the one a page offers first; `variants`: the rule variants
    (`skyjo.rules.VARIANTS`, `Variant.facts`), from which static/variants.js
    builds the options and summaries, each worded by its `key`; `bot_speeds`: the
    bots' paces, slowest first (`speed.x`, `skyjo.web.pace`), and `default_bot_speed`."""
    return {
        "bots": list(LADDER),
        "default_bot": DEFAULT_BOT,
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "variants": [variant.facts() for variant in VARIANTS],
        "turn_seconds": {"min": MIN_TURN_SECONDS, "max": MAX_TURN_SECONDS},
        "bot_speeds": list(SPEEDS),
        "default_bot_speed": DEFAULT_SPEED,
        "max_name": MAX_NAME,
        "max_title": MAX_TITLE,
        "max_sheet_title": MAX_SHEET_TITLE,
        "max_chat": settings.max_chat,
    }


def facts_json(settings: Settings) -> str:
    """`client_facts` as JSON safe inside a `<script>` element (no `<`, `>` or `&`)."""
    text = json.dumps(client_facts(settings), separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page(path: Path, settings: Settings) -> HTMLResponse:
    """The page of `path` with the facts in its slot, never cached without asking."""
    html = path.read_text(encoding="utf-8")
    filled = SLOT.replace("{}", facts_json(settings))
    return HTMLResponse(html.replace(SLOT, filled, 1), headers={"Cache-Control": "no-cache"})


__all__ = ["SLOT", "client_facts", "facts_json", "page"]

"""The client's pages: the game's (static/index.html), the scorepad's
(static/scorepad.html) and the rules' (static/rules.html), each with the server's
facts (`facts.page`).

    GET /, /r/{code}, /r/{code}/replay, /replay, /replay/{key}   the game's page
    GET /scorepad, /scorepad/{sheet_id}                          the scorepad's page
    GET /rules                                                   the rules (docs/RULES.md)

Pages, not the API: /openapi.json leaves them out (as the static files and the
installed app's: `pwa`).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from skyjo.web.api import SettingsOf
from skyjo.web.facts import page as facts_page

STATIC = Path(__file__).parent / "static"


#: The pages' routes: every address a page of the client is reached under.
router = APIRouter(include_in_schema=False)


@router.get("/")
@router.get("/r/{code}")
@router.get("/r/{code}/replay")
@router.get("/replay")
@router.get("/replay/{key}")
async def page(settings: SettingsOf, code: str = "", key: str = "") -> HTMLResponse:
    return facts_page(STATIC / "index.html", settings)


@router.get("/scorepad")
@router.get("/scorepad/{sheet_id}")
async def scorepad_page(settings: SettingsOf, sheet_id: str = "") -> HTMLResponse:
    return facts_page(STATIC / "scorepad.html", settings)


@router.get("/rules")
async def rules_page(settings: SettingsOf) -> HTMLResponse:
    return facts_page(STATIC / "rules.html", settings)

"""The client's pages: the game's (static/index.html), the scorepad's
(static/scorepad.html) and the rules' (static/rules.html), each with the server's
facts (`facts.page`).

    GET /, /r/{code}, /r/{code}/replay, /replay, /replay/{key}   the game's page
    GET /scorepad, /scorepad/{sheet_id}                          the scorepad's page
    GET /rules                                                   the rules (docs/RULES.md)

Pages, not the API: /openapi.json leaves them out (as the static files and the
installed app's: `pwa`). A browser that asks for a page at an address where there
is none (a GET that accepts HTML, outside /api/, /ws/ and /static/) gets the game's
page with status 404, which says so in the page's language (`missing_page`); any
other request there keeps the API's JSON answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException

from skyjo.web.api import SettingsOf
from skyjo.web.facts import page as facts_page

STATIC = Path(__file__).parent / "static"
#: Addresses under which a missing thing is never a page: the API's, the sockets', the files'.
NOT_PAGES = ("/api/", "/ws/", "/static/")
ErrorHandler = Callable[[Request, Exception], Awaitable[Response]]


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


def missing_page(otherwise: ErrorHandler) -> ErrorHandler:
    """An HTTP error handler: a browser's GET of a page address where there is none
    gets the game's page with status 404 (static/main.js says there is no page
    there, in the page's language); every other error goes to `otherwise`."""

    async def handle(request: Request, failure: Exception) -> Response:
        if isinstance(failure, HTTPException) and failure.status_code == 404:
            path = request.url.path
            browsing = "text/html" in request.headers.get("accept", "")
            if request.method == "GET" and browsing and not path.startswith(NOT_PAGES):
                shown = facts_page(STATIC / "index.html", request.app.state.settings)
                shown.status_code = 404
                return shown
        return await otherwise(request, failure)

    return handle

"""The web app installed and offline: its manifest, its favicon, its service worker.

    GET /manifest.webmanifest   the web app manifest (name, icons, colours, start_url), English
    GET /manifest.LANG.webmanifest   the same in Spanish, French and German (es, fr, de)
    GET /favicon.ico            static/icons/favicon.ico (16, 32 and 48 px)
    GET /sw.js                  the service worker (static/sw.js), with its build

The service worker is served from the root so that its scope is the whole app. The
server puts its build before its text: `const BUILD = {version, shells, files};` where
`files` is every file of static/ (the pages' scripts, styles and icons) and the manifest
and favicon, `shells` the four pages' addresses, and `version` a hash of every file
of static/ (sw.js's own text too). Any change to a file changes the version, which
makes the browser install the new worker: it fills a new cache and drops the old one.
No one bumps a number by hand. tools/make_icons.py draws the icons.

The app's name, "Skyjo", is the game's in every language; its description and the
scorepad shortcut's name are in the page's language: each page links its language's
manifest (static/i18n.js, `setLanguage`), and all of them have the same `id`, so the app
installed in French is the one installed in English.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, JSONResponse, Response

STATIC = Path(__file__).parent / "static"
WORKER = STATIC / "sw.js"
#: The pages a visit keeps for offline use: the front page (also a room's and a replay's
#: page: the same file), the scorepad (also a sheet's page), the replay viewer and the rules.
SHELLS = ["/", "/scorepad", "/replay", "/rules"]
#: The manifest's words in each language of the pages (as static/i18n.js and
#: static/scorepad-i18n.js write them): its description, the scorepad's name.
WORDS = {
    "en": ("The card game Skyjo: against bots, with friends, and a scorepad.", "Scorepad"),
    "es": (
        "El juego de cartas Skyjo: contra bots, con amigos y una hoja de puntos.",
        "Hoja de puntos",
    ),
    "fr": (
        "Le jeu de cartes Skyjo\u00a0: contre des bots, entre amis, et une feuille de score.",
        "Feuille de score",
    ),
    "de": ("Das Kartenspiel Skyjo: gegen Bots, mit Freunden, und ein Punkteblock.", "Punkteblock"),
}


def manifest_path(language: str) -> str:
    """Where the manifest in `language` is served: English's at the usual address."""
    return "/manifest.webmanifest" if language == "en" else f"/manifest.{language}.webmanifest"


#: The files outside static/ that the pages load.
ROOT_FILES = [*(manifest_path(language) for language in WORDS), "/favicon.ico"]
THEME = "#1f5f4f"  # the top bar's felt (style.css)
BACKGROUND = "#f4f1ea"  # the page's background (style.css)

MANIFEST: dict[str, Any] = {
    "name": "Skyjo",
    "short_name": "Skyjo",
    "description": "The card game Skyjo: against bots, with friends, and a scorepad.",
    "id": "/",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": BACKGROUND,
    "theme_color": THEME,
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
    ],
    "shortcuts": [{"name": "Scorepad", "url": "/scorepad"}],
}


def manifest_in(language: str) -> dict[str, Any]:
    """The manifest in `language` (a key of WORDS): its `lang`, description and shortcut."""
    description, scorepad = WORDS[language]
    return {
        **MANIFEST,
        "lang": language,
        "dir": "ltr",
        "description": description,
        "shortcuts": [{"name": scorepad, "url": "/scorepad"}],
    }


def static_files() -> list[Path]:
    """Every file of static/ but the worker itself, in a stable order."""
    return sorted(p for p in STATIC.rglob("*") if p.is_file() and p != WORKER)


def build() -> dict[str, Any]:
    """What the worker keeps: its version (a hash of static/'s files, its own text
    too), the page shells and the files."""
    kept = static_files()
    digest = hashlib.sha256()
    for path in [*kept, WORKER]:
        digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    files = [f"/static/{p.relative_to(STATIC).as_posix()}" for p in kept]
    return {"version": digest.hexdigest()[:16], "shells": SHELLS, "files": files + ROOT_FILES}


def worker_text() -> str:
    """The service worker as served: its build, then static/sw.js."""
    return f"const BUILD = {json.dumps(build())};\n" + WORKER.read_text(encoding="utf-8")


#: The app's files outside static/: the manifests, the icon and the service worker.
router = APIRouter(include_in_schema=False)


@router.get("/manifest.webmanifest")
async def manifest() -> JSONResponse:
    """The manifest in English, at the usual address."""
    return _manifest("en")


@router.get("/manifest.{language}.webmanifest")
async def manifest_of(language: str) -> JSONResponse:
    """The manifest in `language` (`manifest_path`); no other language has one."""
    if language not in WORDS or language == "en":
        raise HTTPException(404)
    return _manifest(language)


def _manifest(language: str) -> JSONResponse:
    return JSONResponse(
        manifest_in(language),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "icons" / "favicon.ico", media_type="image/x-icon")


@router.get("/sw.js")
async def worker() -> Response:
    # A fresh build on each request (a few hundred KB hashed, in a thread): an edited
    # file is a new version at once, with no restart. A browser asks once a page load.
    text = await asyncio.to_thread(worker_text)
    return Response(
        text,
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )

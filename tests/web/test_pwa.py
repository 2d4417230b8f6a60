"""The web app installable and offline (skyjo.web.pwa) with Starlette's TestClient:
the manifest and its icons (PNGs of the stated sizes, drawn by tools/make_icons.py),
the favicon, and the service worker served from the root with its build (a version
hashed from static/'s files, the page shells and every file the pages load).
tests/web/test_offline_browser.py runs the worker in a real browser."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from skyjo.web import pwa

PAGES = ("/", "/scorepad", "/rules")


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG, from its IHDR chunk (the first, right after the signature)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_its_colours_start_and_icons(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Skyjo" and manifest["short_name"] == "Skyjo"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    for colour in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[colour]), manifest[colour]
    sizes = set()
    for icon in manifest["icons"]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon["src"]
        assert answer.headers["content-type"].split(";")[0] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(answer.content)
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes.add(width)
        else:
            assert answer.text.startswith("<svg") and icon["sizes"] == "any"
    assert {192, 512} <= sizes
    assert [i for i in manifest["icons"] if i.get("purpose") == "maskable"]


#: Each language's manifest: its address, and words of its description and shortcut.
MANIFESTS = {
    "en": ("/manifest.webmanifest", "The card game Skyjo", "Scorepad"),
    "es": ("/manifest.es.webmanifest", "El juego de cartas Skyjo", "Hoja de puntos"),
    "fr": ("/manifest.fr.webmanifest", "Le jeu de cartes Skyjo", "Feuille de score"),
    "de": ("/manifest.de.webmanifest", "Das Kartenspiel Skyjo", "Punkteblock"),
}


def test_each_language_has_its_manifest_with_the_same_app_in_its_words(
    client: TestClient,
) -> None:
    """Issue 46: the name is the game's ("Skyjo") everywhere, the description and the
    scorepad's shortcut in the page's language; one app (`id`) whatever the language."""
    english = client.get("/manifest.webmanifest").json()
    for language, (path, description, scorepad) in MANIFESTS.items():
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].split(";")[0] == "application/manifest+json"
        manifest = response.json()
        assert manifest["lang"] == language and manifest["name"] == "Skyjo"
        assert manifest["description"].startswith(description), manifest["description"]
        assert manifest["shortcuts"] == [{"name": scorepad, "url": "/scorepad"}]
        same = ("id", "start_url", "scope", "icons", "theme_color", "background_color")
        assert {k: manifest[k] for k in same} == {k: english[k] for k in same}
    assert client.get("/manifest.it.webmanifest").status_code == 404


def test_the_favicon_is_an_ico_of_16_and_32_pixels(client: TestClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/x-icon"
    data = response.content
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)  # an icon file
    # each ICONDIRENTRY is 16 bytes; its first two bytes are the width and height (0: 256)
    sizes = {(data[6 + 16 * i], data[7 + 16 * i]) for i in range(count)}
    assert {(16, 16), (32, 32)} <= sizes


def test_both_pages_link_the_manifest_the_icons_and_the_status_style(client: TestClient) -> None:
    for path in PAGES:
        page = client.get(path).text
        assert 'rel="manifest" href="/manifest.webmanifest"' in page
        assert 'rel="icon" href="/favicon.ico"' in page
        assert 'href="data:,"' not in page
        assert 'name="theme-color" content="#1f5f4f"' in page
        for link in re.findall(r'(?:href|src)="(/[^"]*)"', page):
            assert client.get(link).status_code == 200, link


def worker_build(text: str) -> dict:
    first, _, rest = text.partition("\n")
    assert first.startswith("const BUILD = ") and first.endswith(";")
    assert rest == pwa.WORKER.read_text(encoding="utf-8")  # the worker's own text follows
    return json.loads(first.removeprefix("const BUILD = ").removesuffix(";"))


def test_the_worker_is_served_from_the_root_with_the_files_it_keeps(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] == "text/javascript"
    assert response.headers["cache-control"] == "no-cache"  # a new version is seen at once
    assert "script-src 'self'" in response.headers["content-security-policy"]
    build = worker_build(response.text)
    assert re.fullmatch(r"[0-9a-f]{16}", build["version"])
    assert build["shells"] == ["/", "/scorepad", "/replay", "/rules"]
    static = pwa.STATIC
    every = {
        f"/static/{p.relative_to(static).as_posix()}" for p in static.rglob("*") if p.is_file()
    }
    assert set(build["files"]) == (every - {"/static/sw.js"}) | {
        "/manifest.webmanifest",
        "/manifest.es.webmanifest",
        "/manifest.fr.webmanifest",
        "/manifest.de.webmanifest",
        "/favicon.ico",
    }
    kept = ("main.js", "game.js", "scorepad.js", "replay.js", "offline.js", "style.css", "rules.js")
    for name in kept:
        assert f"/static/{name}" in build["files"]
    for url in build["shells"] + build["files"]:
        assert client.get(url).status_code == 200, url


def test_the_version_changes_with_any_file_and_only_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "static"
    shutil.copytree(pwa.STATIC, copy)
    monkeypatch.setattr(pwa, "STATIC", copy)
    monkeypatch.setattr(pwa, "WORKER", copy / "sw.js")
    first = pwa.build()
    assert pwa.build() == first  # the same files: the same version
    (copy / "style.css").write_text((copy / "style.css").read_text() + "\n/* edited */\n")
    edited = pwa.build()
    assert edited["version"] != first["version"]
    (copy / "sw.js").write_text((copy / "sw.js").read_text() + "\n// edited\n")
    assert pwa.build()["version"] != edited["version"]
    (copy / "icons" / "new.png").write_bytes(b"\x89PNG")
    grown = pwa.build()
    assert "/static/icons/new.png" in grown["files"] and grown["version"] != edited["version"]

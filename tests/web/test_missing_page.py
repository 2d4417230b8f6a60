"""An address where there is nothing: a browser asking for a page there gets the app's
page (status 404) saying so in the page's language, with the way home; the API's
addresses, the files' and any request that is not a browser's page keep the JSON
error (docs/web-protocol.md). A scoresheet that does not exist is said so, its
title too, in the page's language, and stays said when the language changes.
Every wait is on a condition of the page, never on time."""

from __future__ import annotations

import pytest
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from starlette.testclient import TestClient

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("path", ["/nowhere", "/r/ABCD/more", "/scorepad/abc/def", "/r/"])
def test_a_browser_s_page_address_where_there_is_none_gets_the_app_s_page(
    client: TestClient, path: str
) -> None:
    answer = client.get(path, headers=HTML)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert '<main id="main"' in answer.text and 'id="skyjo-facts">{"' in answer.text


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("GET", "/api/nowhere", HTML),  # the API keeps JSON, whoever asks
        ("GET", "/ws/nowhere", HTML),
        ("GET", "/static/nowhere.js", HTML),
        ("GET", "/nowhere", {"Accept": "application/json"}),  # a program, not a browser
        ("GET", "/nowhere", {}),
        ("POST", "/nowhere", HTML),
    ],
)
def test_any_other_missing_address_keeps_the_json_error(
    client: TestClient, method: str, path: str, headers: dict[str, str]
) -> None:
    answer = client.request(method, path, headers=headers)
    assert answer.status_code in (404, 405)
    error = answer.json()["error"]
    assert error["kind"] in ("no_route", "method_not_allowed")
    assert error["params"]["path"] == path


def localized(browser: Browser, locale: str, problems: list[str]) -> Page:
    """A page in a fresh context whose browser speaks `locale`; script errors noted,
    the 404s it asks for left out."""
    page = browser.new_context(locale=locale).new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda m: m.type == "error" and "status of 404" not in m.text and problems.append(m.text),
    )
    return page


@pytest.mark.parametrize(
    ("locale", "title", "text"),
    [
        ("fr-FR", "Page introuvable", "Il n'y a pas de page à l'adresse /nulle/part."),
        ("es-ES", "Esta página no existe", "No hay ninguna página en /nulle/part."),
        ("en-GB", "No such page", "There is no page at /nulle/part."),
    ],
)
def test_a_wrong_address_says_so_in_the_page_s_language(
    server: Server, browser: Browser, problems: list[str], locale: str, title: str, text: str
) -> None:
    page = localized(browser, locale, problems)
    answer = page.goto(f"{server.base}/nulle/part")
    assert answer is not None and answer.status == 404
    expect(page.locator("[data-key=missing] h1")).to_have_text(title)
    expect(page.locator("[data-key=missing] p").first).to_have_text(text)
    assert page.title() == f"Skyjo · {title}"
    assert '"error"' not in page.content()  # no JSON shown
    page.click("[data-key=missing-home]")
    page.wait_for_url(f"{server.base}/")
    page.wait_for_selector("[data-key=missing]", state="detached")
    assert problems == []


def test_a_missing_scoresheet_is_said_in_the_page_s_language_title_included(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = localized(browser, "es-ES", problems)
    page.goto(f"{server.base}/scorepad/nosuchsheet")
    expect(page.locator("main .error")).to_have_text("No existe la hoja nosuchsheet.")
    expect(page).to_have_title("Skyjo · Hoja de puntos")
    # another language: the same sheet said missing again, in it, never the list of sheets
    page.select_option("#language", "fr")
    expect(page.locator("main .error")).to_have_text("Il n'y a pas de feuille nosuchsheet.")
    expect(page).to_have_title("Skyjo · Feuille de score")
    assert page.locator("[data-key=new-title]").count() == 0
    assert problems == []

"""Seats in a real browser: hot-seat hides the board between two players of one
device; a friend joins under a name of their own; the host removes a player, who
comes back; the turn timer counts down."""

from __future__ import annotations

import re
from pathlib import Path

from browsing import DESKTOP, MY_TURN, PHONE, click_and_wait, open_lobby, open_page
from liveserver import Server
from playwright.sync_api import Browser, Page, expect

PASS_OR_TURN = f".pass, {MY_TURN}"


def drop_refusals(problems: list[str], status: int) -> None:
    """Forget the console's note of a refusal the test asked for."""
    problems[:] = [p for p in problems if f"status of {status} " not in p]


def my_name(page: Page) -> str:
    return page.get_attribute(".mine .seat", "aria-label") or ""


def test_hot_seat_hides_the_board_between_players(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, PHONE, problems)
    page.goto(server.base)
    page.fill("#your-name", "Zoë")
    page.click("[data-key=count-2]")
    page.click(".more summary")
    page.select_option("[data-key=seat-0]", "here")
    page.fill("[data-key=seat-name-0]", "Ben")
    page.select_option("[data-key=seat-1]", "greedy")
    page.screenshot(path=artifacts / "hotseat-front-phone.png", full_page=True)
    page.click("[data-key=start]")
    page.wait_for_selector(".mine .grid.large")
    assert my_name(page) == "Zoë"
    passes, draws_before_pass, turns = 0, 0, 0
    drew = False
    while passes < 4 or draws_before_pass < 1:
        turns += 1
        assert turns < 120, "no hand-over came"
        page.wait_for_selector(PASS_OR_TURN)
        if page.locator(".pass").count():
            passes += 1
            draws_before_pass += drew
            drew = False
            # the pass screen shows no board at all: no card, no seat, no log
            assert page.locator("main .card, main .seat, main .log").count() == 0
            title = page.inner_text(".pass h1")
            name = re.fullmatch(r"Pass the device to (Zoë|Ben)", title)
            assert name, title
            if passes == 1:
                page.screenshot(path=artifacts / "hotseat-pass-phone.png", full_page=True)
                page.set_viewport_size(DESKTOP)
                page.screenshot(path=artifacts / "hotseat-pass-desktop.png", full_page=True)
                page.set_viewport_size(PHONE)
            assert page.evaluate("document.activeElement.dataset.key") == "hot-ready"
            page.keyboard.press("Enter")  # "I am Ben: show my cards"
            page.wait_for_selector(".mine .grid.large")
            assert my_name(page) == name.group(1)
            continue
        if page.locator(".round-over").count():  # "Next round" for both of the device's seats
            click_and_wait(page, "[data-key=choice-next]")
            continue
        if page.locator("[data-key=choice-next]").count():
            click_and_wait(page, "[data-key=choice-next]")
        elif page.locator("[data-key=choice-draw]").count():
            click_and_wait(page, "[data-key=choice-draw]")
            assert page.locator(".held .card").first.inner_text().strip()  # I see my card
            if passes >= 2 and not drew:
                page.screenshot(path=artifacts / "hotseat-holding-phone.png", full_page=True)
            drew = True
            click_and_wait(page, ".mine button.card.playable")
        else:
            click_and_wait(page, ".mine button.card.playable")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width} px)"


def test_a_friend_names_themselves_and_the_host_removes_and_readmits_them(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    host = open_page(browser, DESKTOP, problems)
    open_lobby(host, server.base, "Ana", 1, friends=(0,), timer=60)  # the room waits for them
    link = host.input_value("[data-key=lobby-link]")
    guest = open_page(browser, PHONE, problems)
    guest.goto(link)
    guest.wait_for_selector("[data-key=join-name]")
    guest.fill("[data-key=join-name]", "Ana")
    guest.click("[data-key=take-seat]")
    guest.wait_for_selector("[data-key=join-error]:not(:empty)")
    assert "the name Ana is taken" in guest.inner_text("[data-key=join-error]")
    drop_refusals(problems, 400)
    guest.fill("[data-key=join-name]", "Dana")
    guest.screenshot(path=artifacts / "join-name-phone.png", full_page=True)
    guest.click("[data-key=take-seat]")
    guest.wait_for_selector("[data-key=lobby-wait]")
    assert guest.inner_text("[data-key=lobby-wait]") == "Waiting for Ana to start the game."
    host.wait_for_selector("[data-key=lobby-seat-1]:has-text('Dana')")
    host.click("[data-key=lobby-start]")
    host.wait_for_selector(".mine .grid.large")
    assert re.fullmatch(r"(60|59|58) s left", host.inner_text("[data-key=timer]"))
    guest.wait_for_selector(".mine .grid.large")
    assert my_name(guest) == "Dana"
    host.wait_for_selector(".seat[aria-label=Dana]")
    host.click(".host summary")
    host.wait_for_selector("[data-key=host-remove-1]")
    assert host.locator("[data-key=host-remove-0]").count() == 0  # not the host's own seat
    host.screenshot(path=artifacts / "host-seats-desktop.png", full_page=True)
    host.click("[data-key=host-remove-1]")
    guest.wait_for_selector(".spectating")  # the removed player only watches now
    assert guest.locator(".mine").count() == 0
    # nobody holds the seat now: the host's panel and the board say it is free
    expect(host.locator(".host-seat label").nth(1)).to_have_text("Seat 2, free")
    expect(host.locator(".seat[aria-label='Seat 2, free']")).to_have_count(1)
    host.screenshot(path=artifacts / "host-removed-desktop.png", full_page=True)
    guest.goto(link)  # back through the link: the seat is free again
    guest.wait_for_selector("[data-key=join-name]")
    guest.fill("[data-key=join-name]", "Dana")
    guest.click("[data-key=take-seat]")
    guest.wait_for_selector(".mine .grid.large")
    assert my_name(guest) == "Dana"
    host.wait_for_selector(".seat[aria-label=Dana] >> text=Dana")

"""The table when the server cannot save the game (a real full disk: a tmpfs the test
mounts and fills), in a real browser: the board says so in its language, a move tried
meanwhile is said not played, and once the disk has room the board says the game goes
on and the move is played, with no reload. Screenshots go to tests/web/artifacts/."""

from __future__ import annotations

from pathlib import Path

from browsing import SCREENS, click_and_wait, open_page, start_against_bots
from faults import fill, small_disk
from liveserver import Server
from playwright.sync_api import Browser, expect

BANNER = "[data-key=net-banner]"
CARD = ".mine button.card.playable"


def test_the_table_says_the_server_cannot_save_and_goes_on_once_it_can(
    browser: Browser, problems: list[str], artifacts: Path
) -> None:
    with small_disk() as disk:
        # the bot never moves: the only step is this page's
        server = Server(f"sqlite:///{disk / 'skyjo.db'}", SKYJO_BOT_DELAY="3600")
        try:
            for name in ("phone", "desktop"):
                page = open_page(browser, SCREENS[name], problems)
                start_against_bots(page, server.base, 1)
                filler = fill(disk)
                page.locator(CARD).first.click()
                banner = page.locator(BANNER)
                expect(banner).to_have_attribute("data-state", "unavailable")
                expect(banner).to_contain_text("disk is full")
                expect(page.locator("#announce")).to_contain_text("disk is full")
                expect(page.locator(".prompt")).to_have_text("Your turn, once the game goes on")
                page.locator(CARD).first.focus()  # marked unavailable: a press is not sent
                page.keyboard.press("Enter")
                expect(page.locator("[data-key=net-refused]")).to_contain_text("Not played")
                page.screenshot(path=artifacts / f"storage-full-{name}.png")
                filler.unlink()
                expect(banner).to_contain_text("The server saves again")
                page.screenshot(path=artifacts / f"storage-back-{name}.png")
                click_and_wait(page, CARD)
                page.context.close()
        finally:
            server.process.terminate()
            server.process.wait(timeout=30)

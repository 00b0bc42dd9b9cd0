"""The hand reader in a real browser: phone and desktop, with and without JavaScript, he and ru.

Each test saves screenshots under tests/e2e/artifacts/ so a person can look at the layout.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

OMAHA_HAND = "Ah Kc Qd Js"
OMAHA_BOARD = "2h 5h 9h Th 3c"
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _no_sideways_scroll(page) -> None:
    """Nothing sticks out to the side: the page is as wide as the screen."""
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the screen"


def _enter_omaha(page) -> None:
    page.select_option("#id_game", "omaha")
    page.fill("#id_hand", OMAHA_HAND)
    page.fill("#id_board", OMAHA_BOARD)
    page.click(".handform button[type=submit]")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_home_then_hand_reader_with_htmx(browser, live_server_url, screenshot, size) -> None:
    context = browser.new_context(viewport=SIZES[size], locale="en-US")
    page = context.new_page()
    try:
        page.goto(live_server_url + "/")
        assert page.locator("html").get_attribute("dir") == "ltr"
        _no_sideways_scroll(page)
        screenshot(page, "home")

        page.click("a.button[href='/hand/']")
        page.wait_for_url(re.compile(r"/hand/$"))
        page.wait_for_selector("#id_hand")
        _no_sideways_scroll(page)

        # A marker on the window survives an htmx swap, but not a page load.
        page.evaluate("window.__still_here = true")
        _enter_omaha(page)
        verdict = page.locator("#hand-result .verdict__name").first
        verdict.wait_for()
        assert verdict.inner_text() == "High card"
        note = page.locator("#hand-result .rulenote").inner_text()
        assert "Without the two-plus-three rule these cards would make: Flush." in note
        assert "In Omaha you must use exactly two cards from your hand" in note
        assert page.evaluate("window.__still_here === true"), "the form reloaded the page"
        # The address follows the answer, so it can be shared.
        assert "game=omaha" in page.url and "hand=Ah" in page.url
        # The five cards are drawn, the ace of hearts bright and the rest dimmed as kickers.
        best = page.locator("#hand-result .verdict ul.cards").first
        assert best.get_attribute("dir") == "ltr"
        assert best.locator("li").count() == 5
        assert best.locator("li.card--kicker").count() == 4
        color = page.eval_on_selector(
            "#hand-result .verdict li[data-card='Ah'] .card__face", "e => getComputedStyle(e).color"
        )
        assert color == "rgb(198, 40, 40)"  # hearts are red
        _no_sideways_scroll(page)
        screenshot(page, "omaha-answer")

        # A mistake answers next to the form, in place.
        page.fill("#id_board", "2h 5h 1h")
        page.click(".handform button[type=submit]")
        alert = page.locator("#hand-result [role=alert]")
        alert.wait_for()
        assert "“1h” is not a card." in alert.inner_text()
        assert page.evaluate("window.__still_here === true")
        screenshot(page, "error")
    finally:
        context.close()


def test_hand_reader_without_javascript(browser, live_server_url, screenshot) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="en-US")
    page = context.new_page()
    try:
        page.goto(live_server_url + "/hand/")
        _enter_omaha(page)
        page.wait_for_url(re.compile(r"/hand/\?game=omaha"))
        assert page.locator(".verdict__name").first.inner_text() == "High card"
        assert "would make: Flush." in page.locator(".rulenote").inner_text()
        _no_sideways_scroll(page)
        screenshot(page, "omaha-answer")

        # An example link is a plain link too.
        page.click("text=Patch-Patch: three boards")
        page.wait_for_url(re.compile(r"game=patchpatch"))
        assert page.locator(".board-reading").count() == 3
        _no_sideways_scroll(page)
        screenshot(page, "patchpatch")
    finally:
        context.close()


def test_hebrew_with_the_language_switcher(browser, live_server_url, screenshot) -> None:
    """Pick Hebrew in the switcher: the page turns right to left, and stays Hebrew after."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    try:
        page.goto(live_server_url + "/hand/")
        with page.expect_navigation():
            page.select_option("#lang-select", "he")
        assert page.locator("html").get_attribute("dir") == "rtl"
        assert page.locator("html").get_attribute("lang") == "he"
        assert any(c["name"] == "lang" and c["value"] == "he" for c in context.cookies())
        assert page.url.endswith("/hand/")

        _enter_omaha(page)
        note = page.locator("#hand-result .rulenote")
        note.wait_for()
        assert "בלי חוק השניים-ועוד-שלושה" in note.inner_text()
        # Cards still read left to right: the ace comes first, on the left.
        xs = page.eval_on_selector_all(
            "#hand-result .verdict ul.cards li", "els => els.map(e => e.getBoundingClientRect().x)"
        )
        assert xs == sorted(xs)
        _no_sideways_scroll(page)
        screenshot(page, "omaha-answer")

        # The choice is remembered on the next visit.
        page.goto(live_server_url + "/")
        assert page.locator("html").get_attribute("dir") == "rtl"
        screenshot(page, "home")
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_russian_without_javascript(browser, live_server_url, screenshot, size) -> None:
    context = browser.new_context(viewport=SIZES[size], java_script_enabled=False, locale="en-US")
    page = context.new_page()
    try:
        page.goto(live_server_url + "/")
        # Without JavaScript the switcher has its own button.
        page.select_option("#lang-select", "ru")
        page.click(".langswitch button[type=submit]")
        page.wait_for_load_state()
        assert page.locator("html").get_attribute("lang") == "ru"
        page.click(".mainnav a[href='/hand/']")
        page.wait_for_url(re.compile(r"/hand/$"))
        _enter_omaha(page)
        page.wait_for_url(re.compile(r"game=omaha"))
        text = page.locator(".rulenote").inner_text()
        assert "Без правила «две плюс три»" in text
        assert "Для неё нужны 4 карты с борда" in text
        _no_sideways_scroll(page)
        screenshot(page, "omaha-answer")

        page.fill("#id_hand", "Ah Kc Qd")
        page.click(".handform button[type=submit]")
        page.wait_for_load_state()
        assert "Вы ввели 3 карты." in page.locator("[role=alert]").inner_text()
        screenshot(page, "error")
    finally:
        context.close()

"""The rules pages in a real browser: Patch-Patch rules and hand rankings in English, Hebrew and
Russian, on a phone (360x740) and a desktop (1280x900), plus the htmx table of contents and the
print view. Screenshots land in tests/e2e/artifacts/ for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "desktop": {"width": 1280, "height": 900}}
LANGS = {"en": "ltr", "he": "rtl", "ru": "ltr"}


def _context(browser, live_server_url: str, lang: str, size: str):
    context = browser.new_context(viewport=SIZES[size], locale="en-US")
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server_url}])
    return context


def _no_sideways_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the screen"


def _tables_fit(page) -> None:
    """Every table fits its box: nothing to scroll sideways, even on a phone."""
    overflowing = page.evaluate(
        """() => [...document.querySelectorAll('.doc .table-wrap')]
               .filter(w => w.scrollWidth - w.clientWidth > 1)
               .map(w => w.querySelector('table').dataset.table || w.querySelector('table').dataset.example || 'table')"""
    )
    assert overflowing == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("slug", ["patchpatch", "rankings"])
def test_rules_page_looks_right(browser, live_server_url, screenshot, slug, lang, size) -> None:
    context = _context(browser, live_server_url, lang, size)
    page = context.new_page()
    try:
        page.goto(f"{live_server_url}/rules/{slug}/")
        assert page.locator("html").get_attribute("dir") == LANGS[lang]
        assert page.locator("html").get_attribute("lang") == lang
        _no_sideways_scroll(page)
        _tables_fit(page)
        # Card rows read left to right even on a Hebrew page.
        directions = page.eval_on_selector_all(".doc ul.cards", "els => els.map(e => getComputedStyle(e).direction)")
        assert directions and set(directions) == {"ltr"}
        screenshot(page, f"{slug}-{lang}-{size}")
    finally:
        context.close()


def test_toc_link_loads_the_section_with_htmx(browser, live_server_url) -> None:
    context = _context(browser, live_server_url, "he", "desktop")
    page = context.new_page()
    try:
        page.goto(f"{live_server_url}/rules/patchpatch/")
        page.evaluate("window.__still_here = true")
        with page.expect_response(lambda r: "section=betting" in r.url) as response:
            page.click(".doc-toc a[href='#betting']")
        assert response.value.status == 200
        assert response.value.headers.get("vary", "").lower().count("hx-request") == 1
        page.wait_for_selector("#betting tr[data-example='P7']")
        assert page.evaluate("window.__still_here === true"), "the link reloaded the page"
        assert page.locator("section#betting").count() == 1
        assert page.url.endswith("/rules/patchpatch/#betting")
    finally:
        context.close()


def test_print_view_is_black_on_white_without_navigation(browser, live_server_url, screenshot) -> None:
    context = _context(browser, live_server_url, "ru", "desktop")
    page = context.new_page()
    try:
        page.goto(f"{live_server_url}/rules/rankings/")
        page.emulate_media(media="print")
        for selector in (".topbar", ".langswitch", ".doc-toc", ".doc-pages"):
            assert not page.locator(selector).first.is_visible(), selector
        colors = page.evaluate(
            "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]"
        )
        assert colors == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]
        screenshot(page, "rankings-ru-print")
    finally:
        context.close()

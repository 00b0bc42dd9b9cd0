"""A full hand of each classic layout in the browser: community cards (no-limit Hold'em, with
the bet-sizing slider), hi-lo results (pot-limit Omaha Hi-Lo), stud (up and down cards) and
draw (pick discards, then draw). Two players each, playing to the showdown."""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, daphne_server
from tests.e2e.test_table_browser import _sign_up, _try_click

pytestmark = pytest.mark.browser

CARD_RE = re.compile(r"^[2-9TJQKA][cdhs]$")


@pytest.fixture(scope="module")
def classic_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir: Path = tmp_path_factory.mktemp("classic-server")
    with daphne_server(
        workdir, TABLE_DECISION_SECONDS="15", TABLE_SHOWDOWN_SECONDS="30", TABLE_DEAL_SECONDS="0.5"
    ) as url:
        yield url


def _open_table(page: Any, base: str, game: str, name: str) -> str:
    page.goto(base + "/tables/new/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", game)
    page.select_option("select[name=max_seats]", "2")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    return page.url


def _play_to_showdown(pages: list[Any], draw_pick: bool = False, size_bet: bool = False) -> dict[str, bool]:
    seen = {"drew": False, "sized": False}
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if all(p.locator(".phase-over").count() for p in pages):
            return seen
        for page in pages:
            if page.locator(".act--draw").count():
                if draw_pick and not seen["drew"]:
                    cards = page.locator("[data-discard]")
                    with contextlib.suppress(Exception):
                        cards.nth(0).click(timeout=2000)
                        cards.nth(1).click(timeout=2000)
                        assert page.locator('[data-discard][aria-pressed="true"]').count() == 2
                seen["drew"] = _try_click(page, ".act--draw") or seen["drew"]
                continue
            if size_bet and not seen["sized"] and page.locator("[data-sized]").count():
                box = page.locator("[data-sized]")
                low = int(box.locator("[data-size-input]").get_attribute("min"))
                box.locator("[data-size-input]").fill(str(low + 10))
                box.locator("[data-size-input]").dispatch_event("input")
                seen["sized"] = _try_click(page, "[data-sized-go]")
                continue
            for sel in (".act--check", ".act--call", ".act--bring_in"):
                if page.locator(sel).count():
                    _try_click(page, sel)
                    break
        time.sleep(0.15)
    raise AssertionError("the hand did not reach its end in time")


@pytest.mark.parametrize(
    ("game", "layout"),
    [("NT", "flop"), ("PO/8", "flop"), ("F7S", "stud"), ("F5D", "draw")],
)
def test_a_full_hand_in_each_layout(browser: Any, classic_server: str, screenshot: Any, game: str, layout: str) -> None:
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("ivy", PHONE), ("joe", DESKTOP))]
    url = _open_table(pages[1], classic_server, game, f"{game} {tag}")
    for page in pages:
        if page.url != url:
            page.goto(url)
        page.click("form.sit button")
        page.wait_for_load_state()
    for page in pages:
        page.wait_for_selector(f".family-{layout}", timeout=15_000)
    screenshot(pages[0], f"{layout}-phone-start")
    if layout == "stud":
        # Each player sees their own down cards and only the backs of the other's.
        for page in pages:
            assert page.locator(".seat--me .card--back").count() == 0
            assert page.locator(".seat:not(.seat--me) .card--back").count() >= 2
    if layout == "flop":
        assert pages[0].locator(".board--single").count() == 1
    seen = _play_to_showdown(pages, draw_pick=layout == "draw", size_bet=game == "NT")
    for page in pages:
        page.wait_for_selector(".phase-over .win", timeout=10_000)
    screenshot(pages[0], f"{layout}-phone-showdown")
    screenshot(pages[1], f"{layout}-desktop-showdown")
    wins = pages[1].locator(".wins .win").all_inner_texts()
    assert wins, "the showdown names its winners"
    nets = [int(t.replace("+", "").replace("±", "")) for t in pages[1].locator(".seat__net").all_inner_texts()]
    assert sum(nets) == 0  # a public 5-10 table takes no rake
    if layout == "draw":
        assert seen["drew"]
    if game == "NT":
        assert seen["sized"], "a no-limit bet was sized with the amount box"
    for page in pages:
        page.context.close()

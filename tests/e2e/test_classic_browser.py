"""A full hand of each classic layout in the browser: community cards (no-limit Hold'em, with
the bet-sizing slider and its quick sizes), hi-lo results (pot-limit Omaha Hi-Lo), stud (up and
down cards) and draw (pick discards, then draw). Two players each, playing to the showdown."""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, daphne_server
from tests.e2e.test_table_browser import _sign_up, _try_click, _whose_turn, row_lines

pytestmark = pytest.mark.browser

CARD_RE = re.compile(r"^[2-9TJQKA][cdhs]$")


_SERVER_DB: list[Path] = []


@pytest.fixture(scope="module")
def classic_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir: Path = tmp_path_factory.mktemp("classic-server")
    _SERVER_DB[:] = [workdir / "e2e.sqlite3"]  # a test moves a table's level clock on by hand
    with daphne_server(
        workdir, TABLE_DECISION_SECONDS="15", TABLE_SHOWDOWN_SECONDS="30", TABLE_DEAL_SECONDS="0.5"
    ) as url:
        yield url


def _open_table(page: Any, base: str, game: str, name: str, seats: int = 2, private: bool = False) -> str:
    """Open a table from the new-table form; its address (a private table's without the invite,
    which the page shown after the form gives: ``page`` is left there)."""
    page.goto(base + "/tables/new/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", game)
    # The game sets its usual seats (a full ring but for Patch-Patch and Baseball) until the
    # host picks a number; a public table shows none of the private tables' options.
    usual = {"PP": "3", "BB": "6", "NT": "9", "F7S": "8"}.get(game)
    if usual:
        assert page.locator("select[name=max_seats]").input_value() == usual
    assert not page.locator(".chipoptions").is_visible()  # public, the form's first choice
    page.select_option("select[name=max_seats]", str(seats))
    if private:
        page.check("input[name=visibility][value=private]")
        assert page.locator(".chipoptions").is_visible() == (game != "BB")
    page.click("main form button[type=submit]")
    if private:
        page.wait_for_url(re.compile(r".*/tables/\d+/invite/$"))  # the invite link, to send to friends
        return str(page.locator("main input[readonly]").first.input_value()).split("?", 1)[0]
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    return page.url


def _sit_everyone(pages: list[Any], url: str) -> None:
    """Each player opens the table (the one who opened it is there) and takes a seat."""
    for page in pages:
        if page.url != url:
            page.goto(url)
        page.click("form.sit button")
        page.wait_for_load_state()


def _digits(text: str) -> str:
    """An amount as drawn ("1,500", "1 500") back to its digits."""
    return re.sub(r"\D", "", text)


def _size_with_the_pot_preset(page: Any) -> int:
    """Type an amount, then tap "Pot": it fills the box, the slider and the button's amount and
    sends nothing; the Bet/Raise button then sends it. Returns the amount sent."""
    box = page.locator("[data-sized]")
    low = int(box.locator("[data-size-input]").get_attribute("min"))
    box.locator("[data-size-input]").fill(str(low + 10))
    box.locator("[data-size-input]").dispatch_event("input")
    assert _digits(box.locator("[data-size-show]").inner_text()) == str(low + 10)
    labels = box.locator("[data-size-preset]").all_inner_texts()
    # Heads-up before the flop half a pot raise is the minimum raise, so it is left out.
    assert labels[-2:] == ["Pot", "All-in"] and "¾ pot" in labels, labels
    preset = box.locator("[data-size-preset]").nth(len(labels) - 2)
    amount = preset.get_attribute("data-size-preset")
    assert amount and int(amount) > low
    version = page.locator("#table-root").get_attribute("data-version")
    preset.click()
    assert box.locator("[data-size-input]").input_value() == amount
    assert box.locator("[data-size-range]").input_value() == amount
    assert _digits(box.locator("[data-size-show]").inner_text()) == amount
    assert _digits(box.locator("[data-sized-go]").inner_text().split("to")[-1]) == amount
    assert preset.get_attribute("aria-pressed") == "true"
    assert not box.locator("[data-size-allin]").is_visible()  # the pot is not all of the stack
    # "All-in" fills in the whole stack, and the button says it is all-in (an audit).
    box.locator("[data-size-preset]").nth(len(labels) - 1).click()
    assert box.locator("[data-size-allin]").is_visible() and "all-in" in box.locator("[data-sized-go]").inner_text()
    preset.click()
    assert not box.locator("[data-size-allin]").is_visible()
    time.sleep(0.5)
    # Tapping a preset sent nothing: the table has not moved and the player is still to act.
    assert page.locator("#table-root").get_attribute("data-version") == version
    assert box.locator("[data-size-input]").input_value() == amount
    page.click("[data-sized-go]", timeout=3000)
    # The server applied it: the player's bet is the Pot amount.
    page.wait_for_selector(f'.seat--me .seat__bet:has-text("{amount}")', timeout=5000)
    return int(amount)


def _play_to_showdown(
    pages: list[Any], draw_pick: bool = False, size_bet: bool = False, shot: Any = None
) -> dict[str, bool]:
    seen: dict[str, bool] = {"drew": False, "sized": False}
    shown: set[int] = set()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if all(p.locator(".phase-over").count() for p in pages):
            return seen
        for i, page in enumerate(pages):
            if i == 0 and not seen.get("phone_turn") and page.locator(
                    ".panel [data-action]:not([data-action=sit_out]):not([data-action=im_back])").count():
                # A phone player whose turn came sees their own cards above the pinned bar.
                seen["phone_turn"] = True
                time.sleep(0.8)  # the smooth scroll
                gap = page.evaluate(
                    "() => { const c = ['.board__mine', '.seat--me .seat__stud', '.board--single .cards']"
                    ".map(q => document.querySelector(q)).find(Boolean);"
                    " const p = document.querySelector('.panel'); if (!c || !p) return null;"
                    " return p.getBoundingClientRect().top - c.getBoundingClientRect().bottom; }")
                assert gap is None or gap >= -1, f"the bar covers the phone player's cards by {-gap:.0f} px"
                # In a tab behind another, the title says the player is to act.
                title = page.evaluate(
                    "() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                    " document.dispatchEvent(new Event('visibilitychange')); const t = document.title;"
                    " delete document.hidden; document.dispatchEvent(new Event('visibilitychange'));"
                    " return [t, document.title]; }")
                assert title[0].startswith("\u25cf ") and not title[1].startswith("\u25cf "), title
            if shot and i not in shown and page.locator("[data-size-preset]").count():
                shown.add(i)
                shot(page, f"presets-{'phone' if i == 0 else 'desktop'}")
            if page.locator(".act--draw").count():
                if draw_pick and not seen["drew"]:
                    cards = page.locator("[data-discard]")
                    with contextlib.suppress(Exception):
                        cards.nth(0).click(timeout=2000)
                        cards.nth(1).click(timeout=2000)
                    # The button says what it will do: "Stand pat" with nothing picked, "Draw 2"
                    # with two (read at once with the picks: a redraw may clear them meanwhile).
                    picked, label = page.evaluate(
                        "() => [document.querySelectorAll('[data-discard][aria-pressed=true]').length,"
                        " document.querySelector('[data-draw-label]')?.textContent]")
                    if label is not None:
                        assert label == (f"Draw {picked}" if picked else "Stand pat"), (picked, label)
                        seen["labelled"] = seen.get("labelled", False) or picked > 0
                seen["drew"] = _try_click(page, ".act--draw") or seen["drew"]
                continue
            if size_bet and not seen["sized"] and page.locator("[data-sized]").count():
                _size_with_the_pot_preset(page)
                seen["sized"] = True
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
    _sit_everyone(pages, _open_table(pages[1], classic_server, game, f"{game} {tag}"))
    for page in pages:
        page.wait_for_selector(f".family-{layout}", timeout=15_000)
    screenshot(pages[0], f"{layout}-phone-start")
    if layout == "stud":
        # Each player sees their own down cards and only the backs of the other's.
        for page in pages:
            assert page.locator(".seat--me .card--back").count() == 0
            assert page.locator(".seat:not(.seat--me) .card--back").count() >= 2
        # What a screen reader is told, kept as it is said (each picture replaces the words).
        pages[0].evaluate("""() => { window.__said = []; const a = document.getElementById('table-announce');
            new MutationObserver(() => window.__said.push(a.textContent)).observe(a, {childList: true, characterData: true, subtree: true}); }""")
    if layout == "flop":
        assert pages[0].locator(".board--single").count() == 1
    seen = _play_to_showdown(
        pages, draw_pick=layout == "draw", size_bet=game == "NT",
        shot=screenshot if game == "NT" else None,
    )
    for page in pages:
        page.wait_for_selector(".phase-over .win", timeout=10_000)
    screenshot(pages[0], f"{layout}-phone-showdown")
    if game == "PO/8":  # the phone's two seats side by side each keep their four cards on one line
        lines = row_lines(pages[0], ".seat__hole .cards")
        assert len(lines) == 2 and set(lines) == {1}, lines
    if layout == "draw":  # and five: the phone's own hand and the other's shown hand, a line each
        lines = row_lines(pages[0], ":is(.seat__hole, .seat__shown) .cards")
        assert len(lines) == 2 and set(lines) == {1}, lines
    if layout == "stud":  # seven cards: the down ones on a line, the four up ones on the next
        lines = row_lines(pages[0], ".seat__stud > .cards")
        assert len(lines) == 2 and set(lines) == {1}, lines
        # Each street's up cards were said, the other player's too (an audit: they never were).
        other = pages[1].locator(".seat--me .seat__name").inner_text().strip()
        said = " | ".join(pages[0].evaluate("() => window.__said"))
        assert re.search(re.escape(other) + r" is dealt \w+ of \w+", said), said[:1500]
        tops = pages[0].evaluate("""() => [...document.querySelectorAll('.seat__stud')].map(s =>
            new Set([...s.querySelectorAll('.card')].map(c => Math.round(c.getBoundingClientRect().top))).size)""")
        assert tops == [2, 2], tops
    screenshot(pages[1], f"{layout}-desktop-showdown")
    wins = pages[1].locator(".wins .win").all_inner_texts()
    assert wins, "the showdown names its winners"
    nets = [int(t.replace("+", "").replace("±", "").replace(",", "")) for t in pages[1].locator(".seat__net").all_inner_texts()]
    assert sum(nets) == 0  # a public 5-10 table takes no rake
    if layout == "draw":
        assert seen["drew"] and seen.get("labelled"), seen
        drew = pages[1].locator(".seat__drawn").all_inner_texts()
        assert drew and all(t == "stood pat" or re.fullmatch(r"drew \d cards?", t) for t in drew), drew
        # "Your hands" on the phone: each hand two lines (the hand and its result, then when),
        # every cell on screen.
        pages[0].goto(classic_server + "/accounts/me/hands/")
        rows = pages[0].evaluate("""() => [...document.querySelectorAll('table.statement tbody tr')].map(tr => {
            const cells = [...tr.children].map(c => c.getBoundingClientRect());
            return {off: cells.filter(r => r.width === 0 || r.left < 0 || r.right > window.innerWidth).length,
                    when_below: tr.querySelector('time') ? tr.querySelector('time').getBoundingClientRect().top
                                > tr.querySelector('.my-hands__hand').getBoundingClientRect().bottom - 1 : null}; })""")
        assert rows and all(r["off"] == 0 for r in rows), rows
        assert [r["when_below"] for r in rows if r["when_below"] is not None] == [True], rows
        screenshot(pages[0], "phone-your-hands")
    if game == "NT":
        assert seen["sized"], "a no-limit bet was sized with the amount box and the Pot preset"
    for page in pages:
        page.context.close()


def test_players_chat_at_the_table(browser: Any, classic_server: str, screenshot: Any) -> None:
    """Two players write to each other in the table's chat: each line shows on both pages, as
    text (markup typed in stays text), and a phone player who is looking at the table is shown
    the other's line for a moment."""
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("kim", PHONE), ("lou", DESKTOP))]
    _sit_everyone(pages, _open_table(pages[1], classic_server, "NT", f"chat {tag}"))
    for page in pages:
        page.wait_for_selector(".family-flop", timeout=15_000)
        assert page.locator("[data-chat-form]").count() == 1
    phone, desk = pages
    desk.fill("[data-chat-form] input[name=text]", "hi <b>kim</b>, good luck")
    desk.click("[data-chat-form] button[type=submit]")
    for page in pages:
        page.wait_for_selector('.chat__line:has-text("good luck")', timeout=10_000)
        line = page.locator(".chat__line").last
        assert line.locator(".chat__text").inner_text() == "hi <b>kim</b>, good luck"
        assert line.locator("b").count() == 0  # drawn as text, never as markup
        assert line.locator(".chat__name").inner_text().lower() == f"lou{tag}"  # the display name
    assert desk.locator("[data-chat-form] input[name=text]").input_value() == ""  # sent, so cleared
    assert desk.locator(".chat__line--mine").count() == 1 and phone.locator(".chat__line--mine").count() == 0
    # The phone player is looking at the table, the chat out of sight below it: a new line from
    # the other player is shown for a moment.
    phone.evaluate("() => window.scrollTo(0, 0)")
    out_of_sight = phone.evaluate(
        "() => document.querySelector('[data-chat-lines]').getBoundingClientRect().top > window.innerHeight")
    desk.fill("[data-chat-form] input[name=text]", "your turn")
    desk.press("[data-chat-form] input[name=text]", "Enter")
    phone.wait_for_selector('.chat__line:has-text("your turn")', timeout=10_000)
    if out_of_sight:
        assert "your turn" in phone.locator("#table-toast").inner_text()
    phone.fill("[data-chat-form] input[name=text]", "ty")
    phone.press("[data-chat-form] input[name=text]", "Enter")
    desk.wait_for_selector('.chat__line:has-text("ty")', timeout=10_000)
    assert desk.locator(".chat__line").count() == 3
    # Each player may take their own lines out (a public table has no host to take others').
    assert phone.locator("[data-chat-delete]").count() == 1 and desk.locator("[data-chat-delete]").count() == 2
    desk.locator('.chat__line:has-text("your turn") [data-chat-delete]').click()
    for page in pages:
        page.wait_for_selector('.chat__line:has-text("your turn")', state="detached", timeout=10_000)
        assert page.locator(".chat__line").count() == 2
    phone.locator("#table-chat").scroll_into_view_if_needed()
    screenshot(phone, "chat-phone")
    # A player who wants no chat hides it: no lines, no box, no pop-up; this browser remembers.
    phone.click("[data-chat-toggle]")
    assert not phone.locator("[data-chat-lines]").is_visible() and not phone.locator("[data-chat-form]").is_visible()
    assert phone.locator("[data-chat-hidden-note]").is_visible()
    phone.evaluate("() => window.scrollTo(0, 0)")
    desk.fill("[data-chat-form] input[name=text]", "anyone there?")
    desk.press("[data-chat-form] input[name=text]", "Enter")
    phone.wait_for_selector('.chat__line:has-text("anyone there?")', state="attached", timeout=10_000)
    assert "anyone there?" not in phone.locator("#table-toast").inner_text()
    phone.reload()
    phone.wait_for_selector("[data-chat-hidden-note]", state="visible", timeout=10_000)
    assert phone.locator("[data-chat-toggle]").get_attribute("aria-pressed") == "true"
    phone.click("[data-chat-toggle]")  # shown again, with every line
    phone.wait_for_selector('.chat__line:has-text("anyone there?")', timeout=10_000)
    assert phone.locator("[data-chat-form]").is_visible()
    # One player hides what the other writes, for themselves alone (an audit: at a public table
    # nobody moderates); this browser remembers, and "show" brings the lines back.
    others = phone.locator(".chat__line:not(.chat__line--mine)")
    others.first.locator("[data-chat-ignore]").click()
    assert others.count() >= 2 and all(others.nth(i).locator(".chat__text").is_hidden() for i in range(others.count()))
    assert phone.locator(".chat__line--mine .chat__text").first.is_visible()
    assert all(desk.locator(".chat__text").nth(i).is_visible() for i in range(desk.locator(".chat__text").count()))
    screenshot(phone, "chat-hidden-player-phone")
    phone.reload()
    phone.wait_for_selector(".chat__line:not(.chat__line--mine)", state="attached", timeout=10_000)
    assert phone.locator(".chat__line:not(.chat__line--mine) .chat__text").first.is_hidden()
    phone.locator(".chat__line:not(.chat__line--mine) [data-chat-ignore]").first.click()
    assert phone.locator(".chat__line:not(.chat__line--mine) .chat__text").first.is_visible()
    screenshot(desk, "chat-desktop")
    for page in pages:
        page.context.close()


def test_the_add_chips_box_follows_the_stack(browser: Any, classic_server: str, screenshot: Any) -> None:
    """A player who bought in for the table's most finds the "Add chips" box off, saying why. A
    player short of the most finds it off while dealt into a hand, saying chips wait for its end;
    when the hand is over it offers to fill the stack up, by exactly what it is short of the most,
    and keeps an amount typed in while it fits."""
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("max", PHONE), ("ned", DESKTOP))]
    phone, desk = pages
    url = _open_table(desk, classic_server, "NT", f"chips {tag}")
    high = int(desk.locator("#buy-in").get_attribute("max"))
    desk.fill("#buy-in", str(high))
    with desk.expect_navigation():
        desk.click("form.sit button")
    # Alone at the table, at its most: the box is off and says why.
    assert desk.locator("#add-chips").is_disabled()
    assert desk.locator("form.add-chips button[type=submit]").is_disabled()
    assert desk.locator(".add-chips__full").is_visible()
    screenshot(desk, "add-chips-full-desktop")
    # The phone player buys in for 50 less: whatever the hand, they end it short of the most.
    phone.goto(url)
    phone.fill("#buy-in", str(high - 50))
    with phone.expect_navigation():
        phone.click("form.sit button")
    box = phone.locator("#add-chips")
    assert box.get_attribute("data-high") == str(high)
    # Dealt in (the blinds are in): off until the hand is over, saying so.
    phone.wait_for_selector(".seat--me[data-dealt]", timeout=15_000)
    phone.wait_for_selector(".add-chips__wait", state="visible", timeout=10_000)
    assert box.is_disabled() and not phone.locator(".add-chips__full").is_visible()
    # Whoever is to act folds: the hand is over, and both stacks are below the most.
    deadline = time.monotonic() + 15
    while not any(p.locator("#table-root [data-action='fold']").count() for p in pages):
        assert time.monotonic() < deadline, "nobody's turn"
        time.sleep(0.1)
    next(p for p in pages if p.locator("#table-root [data-action='fold']").count()).click(
        "#table-root [data-action='fold']")
    phone.wait_for_selector(".phase-over", timeout=10_000)
    phone.wait_for_function("() => !document.getElementById('add-chips').disabled", timeout=10_000)
    stack = int(phone.locator(".seat--me").get_attribute("data-stack"))
    assert 0 < stack < high
    assert box.input_value() == str(high - stack) and box.get_attribute("max") == str(high - stack)
    assert not phone.locator(".add-chips__full").is_visible() and not phone.locator(".add-chips__wait").is_visible()
    box.fill("3")
    assert box.input_value() == "3"
    phone.locator("#add-chips").scroll_into_view_if_needed()
    screenshot(phone, "add-chips-phone")
    for page in pages:
        page.context.close()


def test_a_chime_when_the_turn_comes_and_near_the_end_of_the_clock(browser: Any, classic_server: str) -> None:
    """The page chimes when its player's turn comes, and again when their own clock is down to
    its last five seconds; a player who turned the sound off hears nothing. (The page counts the
    chimes it plays on #table-app: headless Chromium has no speakers to listen to.)"""
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("ora", PHONE), ("pia", DESKTOP))]
    _sit_everyone(pages, _open_table(pages[1], classic_server, "NT", f"sound {tag}"))
    for page in pages:
        page.wait_for_selector(".family-flop", timeout=15_000)
        assert page.locator("#table-sound").is_checked()

    def chimes(page: Any) -> int:
        return int(page.locator("#table-app").get_attribute("data-chimes") or 0)

    def acting() -> Any:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for page in pages:
                if page.locator("#table-root [data-action='call'], #table-root [data-action='check']").count():
                    return page
            time.sleep(0.1)
        raise AssertionError("nobody's turn")

    first = acting()
    other = pages[1] if first is pages[0] else pages[0]
    assert chimes(first) == 1 and first.locator("#table-app").get_attribute("data-last-chime") == "turn"
    # The page was reached by a tap ("Take a seat"): the chime has its audio without another tap
    # (found by an audit: the first turns were silent until the page was touched).
    assert first.locator("#table-app").get_attribute("data-audio") == "made"
    assert chimes(other) == 0
    # The switch is one for every tab: turned off in a second tab of the same browser, it is off
    # in this one too without a reload.
    second_tab = other.context.new_page()
    second_tab.goto(other.url)
    second_tab.locator("#table-sound").uncheck()
    other.wait_for_function("() => !document.getElementById('table-sound').checked", timeout=5_000)
    second_tab.close()
    other.locator("#table-sound").check()  # ticked again: it plays once, what it sounds like
    other.locator("#table-sound").uncheck()  # turning it off plays nothing
    quiet = chimes(other)
    first.locator("#table-root [data-action='call'], #table-root [data-action='check']").first.click()
    other.wait_for_selector("#table-root [data-action='check'], #table-root [data-action='call']", timeout=10_000)
    assert chimes(other) == quiet  # the turn came, the sound is off
    before = int(other.locator("#table-root").get_attribute("data-version"))
    other.locator("#table-root [data-action='check'], #table-root [data-action='call']").first.click()
    for page in pages:  # both hold the flop's picture before anyone's turn is looked for
        page.wait_for_function(f"() => +document.getElementById('table-root').dataset.version > {before}",
                               timeout=10_000)
    # The flop. Heads-up the big blind acts first after it: when that is the player with the
    # sound off, they check (no chime); then it is the first player's turn, and their clock runs
    # down (15 s here).
    if acting() is other:
        assert chimes(other) == quiet
        other.locator("#table-root [data-action='check']").first.click()
    first.wait_for_function("() => +document.getElementById('table-app').getAttribute('data-chimes') >= 2",
                            timeout=10_000)
    first.wait_for_function(
        "() => document.getElementById('table-app').getAttribute('data-last-chime') === 'hurry'", timeout=20_000)
    assert chimes(first) == 3 and chimes(other) == quiet
    # The choice is kept in this browser: a reload finds the sound still off.
    other.reload()
    assert not other.locator("#table-sound").is_checked()
    for page in pages:
        page.context.close()


def test_a_tap_on_an_empty_seat_chooses_where_to_sit(browser: Any, classic_server: str, screenshot: Any) -> None:
    """At a three-seat table with one player, a newcomer taps the last empty seat in the picture:
    the "Seat" box picks it, the seat is marked, and sitting down puts them there."""
    tag = uuid.uuid4().hex[:5]
    phone, desk = (_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("sue", PHONE), ("tom", DESKTOP)))
    url = _open_table(desk, classic_server, "NT", f"seats {tag}", seats=3)
    with desk.expect_navigation():
        desk.click("form.sit button")
    phone.goto(url)
    empty = phone.locator(".seat--empty[data-seat]")
    assert empty.count() == 2
    last = empty.nth(1)
    wanted = last.get_attribute("data-seat")
    last.click()
    assert phone.locator("#seat-choice").input_value() == wanted
    assert "seat--chosen" in (last.get_attribute("class") or "")
    screenshot(phone, "seat-chosen-phone")
    with phone.expect_navigation():
        phone.click("form.sit button")
    seats = phone.locator("#table-root .seats > li")
    mine = [i for i in range(seats.count()) if "seat--me" in (seats.nth(i).get_attribute("class") or "")]
    assert mine == [int(wanted)]
    # Seated, the phone's page opens at the table (the site's header is a scroll up); the
    # desktop's, with room for both, stays at the top.
    phone.wait_for_function("window.scrollY > 100")
    top = phone.evaluate("document.querySelector('.flash, #table-root').getBoundingClientRect().top")
    assert abs(top) < 5
    desk.reload()
    desk.wait_for_load_state("load")
    assert desk.evaluate("window.scrollY") == 0
    for page in (phone, desk):
        page.context.close()


def test_the_seat_box_follows_who_sits_where(browser: Any, classic_server: str) -> None:
    """A watcher's "Seat" box names each seat by who sits before it; when someone sits down, the
    box greys their seat and renames the seats after it, without a reload."""
    tag = uuid.uuid4().hex[:5]
    host, watcher, late = (_sign_up(browser, classic_server, f"{n}{tag}", size)
                           for n, size in (("ria", DESKTOP), ("sam", PHONE), ("ted", DESKTOP)))
    url = _open_table(host, classic_server, "NT", f"box {tag}", seats=3)
    with host.expect_navigation():
        host.click("form.sit button")
    watcher.goto(url)
    box = watcher.locator("#seat-choice")
    label = lambda no: box.locator(f"option[value='{no}']").inner_text().strip()  # noqa: E731
    assert label(1) == f"seat 2, after Ria{tag}" and label(2) == f"seat 3, after Ria{tag}"
    assert box.locator("option[value='0']").is_disabled()
    late.goto(url)
    late.select_option("#seat-choice", "1")
    with late.expect_navigation():
        late.click("form.sit button")
    watcher.wait_for_function(
        "() => document.querySelector('#seat-choice option[value=\"1\"]').disabled")
    assert label(2) == f"seat 3, after Ted{tag}"
    assert not box.locator("option[value='2']").is_disabled()
    for page in (host, watcher, late):
        page.context.close()


def test_a_full_table_brings_back_the_sit_form_when_a_seat_opens(browser: Any, classic_server: str, screenshot: Any) -> None:
    """A watcher at a full two-seat table is told every seat is taken (no sit form); when one of
    the players leaves, the watcher's page offers the seat without a reload."""
    tag = uuid.uuid4().hex[:5]
    a, b = (_sign_up(browser, classic_server, f"{n}{tag}", DESKTOP) for n in ("una", "vic"))
    watcher = _sign_up(browser, classic_server, f"wes{tag}", PHONE)
    url = _open_table(a, classic_server, "NT", f"full {tag}", seats=2)
    _sit_everyone([a, b], url)
    watcher.goto(url)
    assert watcher.locator("[data-table-full]").is_visible()
    assert not watcher.locator("form[data-needs-free-seat]").is_visible()
    screenshot(watcher, "full-table-phone")
    title = watcher.title()
    # The watcher looks at another tab meanwhile.
    watcher.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    # Dealt into the hand: the page asks first (leaving folds it).
    b.wait_for_selector(".seat--me[data-dealt]", timeout=15_000)
    asked: list[str] = []
    b.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    with b.expect_navigation():
        b.click("form.leave button")
    assert asked and "Your cards are folded" in asked[0]
    # The hand ends (the leaver's turns are played at once) and the seat is free: the picture
    # shows it empty and the form comes back, the note goes; the page says so in a toast and
    # in its tab's title until it is looked at.
    watcher.wait_for_selector("form[data-needs-free-seat]", state="visible", timeout=30_000)
    assert not watcher.locator("[data-table-full]").is_visible()
    assert "A seat is open" in watcher.locator("#table-toast").inner_text()
    assert watcher.title() == "\u25cf " + title
    watcher.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
                     "document.dispatchEvent(new Event('visibilitychange'))")
    assert watcher.title() == title
    assert watcher.locator("#table-root .seat--empty[data-seat]").count() == 1
    # One free seat, so no box to choose in: a tap on it brings the buy-in into view (found by an
    # audit: on a phone the form was far below and the tap did nothing).
    watcher.evaluate("window.scrollTo(0, 0)")
    watcher.click("#table-root .seat--empty[data-seat]")
    assert watcher.evaluate("document.activeElement && document.activeElement.id") == "buy-in"
    assert watcher.locator("#buy-in").is_visible() and watcher.evaluate(
        "(() => { const r = document.getElementById('buy-in').getBoundingClientRect(); "
        "return r.top >= 0 && r.bottom <= window.innerHeight; })()")
    # The player who stood up from this public table keeps watching: what only a seated player
    # has is gone from their page, the chat's box among it (a line would be refused).
    b.wait_for_selector("[data-unseated]", state="visible", timeout=30_000)
    assert not b.locator("[data-chat-needs-seat]").is_visible()
    assert b.locator("[data-chat-seat-note]").is_visible()
    assert not b.locator("#table-sound").is_visible() and not b.locator("#table-keys").is_visible()
    assert a.locator("[data-chat-needs-seat]").is_visible() and a.locator("#table-sound").is_visible()
    with watcher.expect_navigation():
        watcher.click("form[data-needs-free-seat] button")
    assert watcher.locator("#table-root .seat--me").count() == 1
    for page in (a, b, watcher):
        page.context.close()


def test_the_lobby_filters_its_tables_in_place(browser: Any, classic_server: str, screenshot: Any) -> None:
    """Choosing a game in the lobby narrows the list without a reload and puts the choice in the
    address; the list's own refresh keeps it, and a reload of that address shows the same."""
    tag = uuid.uuid4().hex[:5]
    page = _sign_up(browser, classic_server, f"lou{tag}", PHONE)
    _open_table(page, classic_server, "NT", f"Hold {tag}", seats=3)
    _open_table(page, classic_server, "PP", f"Patch {tag}", seats=3)
    page.goto(classic_server + "/lobby/")
    names = page.locator("#lobby-list .tablerow__name")
    assert {f"Hold {tag}", f"Patch {tag}"} <= set(names.all_inner_texts())
    page.evaluate("window.__sameDocument = true")  # gone if the page were loaded again
    page.select_option(".lobbyfilter select[name=game]", "NT")
    page.wait_for_url(re.compile(r".*/lobby/\?game=NT(&|$)"))
    page.wait_for_function("t => ![...document.querySelectorAll('#lobby-list .tablerow__name')]"
                           ".some(a => a.textContent === 'Patch ' + t)", arg=tag)
    shown = set(names.all_inner_texts())
    assert f"Hold {tag}" in shown and not any(n.startswith("Patch ") for n in shown)
    assert page.evaluate("window.__sameDocument === true")
    assert page.locator("#lobby-list").get_attribute("hx-get") == "/lobby/?game=NT"
    screenshot(page, "lobby-filtered-phone")
    page.reload()
    assert page.locator(".lobbyfilter select[name=game]").input_value() == "NT"
    assert f"Patch {tag}" not in names.all_inner_texts() and f"Hold {tag}" in names.all_inner_texts()
    # Back after two choices in place shows the choice and the list of that address together
    # (found by an audit: htmx's saved copy of the page put back the list without the choice).
    page.select_option(".lobbyfilter select[name=game]", "PP")
    page.wait_for_url(re.compile(r".*/lobby/\?game=PP(&|$)"))
    page.select_option(".lobbyfilter select[name=game]", "")
    page.wait_for_url(re.compile(r".*/lobby/\?game=(&|$)"))
    page.go_back()
    page.wait_for_url(re.compile(r".*/lobby/\?game=PP(&|$)"))
    page.wait_for_function("t => [...document.querySelectorAll('#lobby-list .tablerow__name')]"
                           ".some(a => a.textContent === 'Patch ' + t)", arg=tag)
    assert page.locator(".lobbyfilter select[name=game]").input_value() == "PP"
    assert f"Hold {tag}" not in names.all_inner_texts()
    page.context.close()


def test_times_are_shown_in_the_browsers_time_zone(browser: Any, classic_server: str) -> None:
    """A browser in Jerusalem gets the statement's times in Jerusalem's time (the page's script
    names the zone to the server in a cookie), and a change of name shows at once."""
    from tests.e2e.test_table_browser import PASSWORD

    tag = uuid.uuid4().hex[:5]
    ctx = browser.new_context(viewport=PHONE, timezone_id="Asia/Jerusalem")
    page = ctx.new_page()
    page.goto(classic_server + "/accounts/signup/")
    page.fill("input[name=username]", f"tz{tag}")
    page.fill("input[name=display_name]", f"Tz{tag}")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    assert any(c["name"] == "tz" and c["value"] == "Asia/Jerusalem" for c in ctx.cookies())
    page.goto(classic_server + "/accounts/me/")
    stamp = page.locator(".statement time").first.get_attribute("datetime") or ""
    assert stamp.endswith(("+02:00", "+03:00")), stamp
    page.click("a:has-text('Change your name at the tables')")
    page.fill("input[name=display_name]", f"Renamed {tag}")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert page.locator("h1").inner_text() == f"Renamed {tag}"
    # A first visit from another browser in Jerusalem, straight to a page with times (no page
    # before it named the zone): that page is loaded again at once, in Jerusalem's time.
    session = [c for c in ctx.cookies() if c["name"] == "sessionid"]
    ctx.close()
    fresh = browser.new_context(viewport=PHONE, timezone_id="Asia/Jerusalem")
    fresh.add_cookies(session)
    first = fresh.new_page()
    first.goto(classic_server + "/accounts/me/")
    first.wait_for_function("() => (document.querySelector('.statement time') || {}).dateTime &&"
                            " !document.querySelector('.statement time').dateTime.endsWith('+00:00')")
    stamp = first.locator(".statement time").first.get_attribute("datetime") or ""
    assert stamp.endswith(("+02:00", "+03:00")), stamp
    assert first.locator('meta[name="utc-offset"]').get_attribute("content") in ("7200", "10800")
    fresh.close()


def test_a_page_back_in_sight_replaces_a_socket_that_carries_nothing(browser: Any, classic_server: str) -> None:
    """A phone that slept may come back to a socket that looks open and carries nothing. Back in
    sight, the page asks for a fresh picture; when none comes it opens a new socket, and the
    table's news flows again."""
    tag = uuid.uuid4().hex[:5]
    host, watcher = (_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("ola", DESKTOP), ("pam", PHONE)))
    url = _open_table(host, classic_server, "NT", f"wake {tag}", seats=3)
    sockets: list[Any] = []
    deaf = {"on": False}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        first = not sockets
        sockets.append(ws)
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: None if (first and deaf["on"]) else ws.send(m))

    watcher.route_web_socket(re.compile(r".*/ws/tables/\d+/.*"), route)
    watcher.goto(url)
    watcher.wait_for_function("() => +document.getElementById('table-root').dataset.version >= 0")
    assert len(sockets) == 1
    deaf["on"] = True  # the first socket now carries nothing from the server
    with host.expect_navigation():
        host.click("form.sit button")
    watcher.wait_for_timeout(1500)
    assert watcher.locator("#table-root .seat__name", has_text=f"Ola{tag}").count() == 0  # the news is lost
    watcher.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # back in sight
    watcher.locator("#table-root .seat__name", has_text=f"Ola{tag}").wait_for(timeout=15_000)
    assert len(sockets) == 2
    watcher.context.close()
    host.context.close()


def _wait_for_the_turn(page: Any, other: Any) -> str:
    """Heads-up before the flop: ``other`` checks or calls until it is ``page``'s turn. Returns
    the selector of the check-or-call button."""
    turn = '.panel [data-action="check"], .panel [data-action="call"]'
    page.wait_for_selector(".phase-preflop", timeout=20_000)
    deadline = time.monotonic() + 30
    while not page.locator(turn).count() and time.monotonic() < deadline:
        if other.locator(turn).count():
            _try_click(other, turn)
        time.sleep(0.2)
    assert page.locator(turn).count(), "the turn came"
    return turn


def test_a_phone_player_scrolled_away_from_the_table_is_brought_back_to_the_bar(browser: Any, classic_server: str) -> None:
    """A phone player reads far below the table (a long chat) while the other player acts: when
    their turn comes, the bar, out of sight above the screen, is brought back to its foot."""
    tag = uuid.uuid4().hex[:5]
    phone, desk = (_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("rae", PHONE), ("sam", DESKTOP)))
    url = _open_table(desk, classic_server, "NT", f"away {tag}", seats=2)
    _sit_everyone([desk, phone], url)
    turn = _wait_for_the_turn(desk, phone)
    # The phone player scrolls far below the table (a long chat, here a tall block).
    phone.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<div style=\"height:3000px\"></div>');"
                   "window.scrollTo(0, document.documentElement.scrollHeight)")
    assert phone.evaluate("document.querySelector('.felt').getBoundingClientRect().bottom") < 0
    desk.click(turn)
    phone.wait_for_selector(turn, timeout=15_000)
    phone.wait_for_function("() => { const r = document.querySelector('.panel').getBoundingClientRect();"
                            " return r.top >= 0 && r.bottom <= window.innerHeight + 1; }", timeout=5_000)
    for page in (phone, desk):
        page.context.close()


def test_a_table_that_grows_during_a_phone_turn_keeps_the_cards_above_the_bar(browser: Any, classic_server: str) -> None:
    """Four players sit down at a six-seat table while a phone player decides: the table grows
    under them, and the page follows so their own cards stay above the pinned bar."""
    tag = uuid.uuid4().hex[:5]
    phone, desk = (_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("tia", PHONE), ("uli", DESKTOP)))
    url = _open_table(desk, classic_server, "NT", f"grow {tag}", seats=6)
    _sit_everyone([desk, phone], url)
    turn = _wait_for_the_turn(phone, desk)
    time.sleep(0.8)  # the smooth scroll
    tall = phone.evaluate("document.querySelector('.felt').offsetHeight")
    others = [_sign_up(browser, classic_server, f"v{i}{tag}", DESKTOP) for i in range(4)]
    _sit_everyone(others, url)
    phone.wait_for_function(f"() => document.querySelector('.felt').offsetHeight > {tall} + 40", timeout=10_000)
    assert phone.locator(turn).count(), "still the phone player's turn"
    time.sleep(0.8)
    gap = phone.evaluate(
        "() => { const c = document.querySelector('.board__mine');"
        " const p = document.querySelector('.panel');"
        " return p.getBoundingClientRect().top - c.getBoundingClientRect().bottom; }")
    assert gap >= -1, f"the bar covers the phone player's cards by {-gap:.0f} px"
    for page in (phone, desk, *others):
        page.context.close()


def test_a_phone_turned_sideways_shows_the_board_the_cards_and_the_bar_at_the_turn(
        browser: Any, classic_server: str, screenshot: Any) -> None:
    """Found by an audit: on a phone turned sideways (844 x 390) the turn left the page at its
    top and the bar, pinned over the bottom 40% of the screen, hid the player's own cards. It now
    opens at the table and scrolls so that the board, the player's cards and the bar are all in
    sight, the bar under the cards."""
    tag = uuid.uuid4().hex[:5]
    side, desk = (_sign_up(browser, classic_server, f"{n}{tag}", size)
                  for n, size in (("wes", {"width": 844, "height": 390}), ("xan", DESKTOP)))
    url = _open_table(desk, classic_server, "NT", f"sideways {tag}", seats=2)
    _sit_everyone([desk, side], url)
    turn = _wait_for_the_turn(side, desk)
    time.sleep(0.8)  # the smooth scroll
    box = side.evaluate(
        "() => { const r = s => document.querySelector(s).getBoundingClientRect();"
        " return {board: r('.board--single .cards').top, mine: r('.board__mine').bottom,"
        " panelTop: r('.panel').top, panelBottom: r('.panel').bottom, h: window.innerHeight}; }")
    assert box["board"] >= -1, box  # the board's cards in sight
    assert box["mine"] <= box["panelTop"] + 1, box  # the bar does not cover the player's cards
    assert box["panelBottom"] <= box["h"] + 1, box  # the bar itself in sight
    assert side.locator(turn).first.is_visible()
    screenshot(side, "nt-turn-phone-sideways")
    for page in (side, desk):
        page.context.close()


def _private_heads_up(browser: Any, base: str, names: tuple[str, str], title: str) -> tuple[Any, Any, str]:
    """A host (desktop) opens a private Hold'em table and sits; a friend (phone) comes in by the
    invite link and sits; the first hand is dealt. Returns both pages and the table's address."""
    tag = uuid.uuid4().hex[:5]
    host, friend = (_sign_up(browser, base, f"{n}{tag}", size) for n, size in zip(names, (DESKTOP, PHONE), strict=True))
    url = _open_table(host, base, "NT", f"{title} {tag}", private=True)
    invite = host.locator("main input[readonly]").first.input_value()
    host.goto(url)
    with host.expect_navigation():
        host.click("form.sit button")
    friend.goto(invite)
    friend.wait_for_url(re.compile(r".*/tables/\d+/.*"))
    with friend.expect_navigation():
        friend.click("form.sit button")
    friend.wait_for_selector(".felt.phase-preflop", timeout=15_000)  # the first hand is dealt
    return host, friend, url


def _fold_until_over(host: Any, friend: Any) -> None:
    """Whoever is to act folds, until the friend's page shows the hand over (at most 30 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not friend.locator(".phase-over").count():
        for page in (host, friend):
            _try_click(page, ".act--fold")
        time.sleep(0.2)


def test_a_host_changes_the_stakes_and_the_other_page_follows(browser: Any, classic_server: str, screenshot: Any) -> None:
    """A private table's host raises the blinds while a hand is played: the friend's picture says
    what comes next, and when the hand ends the friend's header and Add chips box follow the new
    blinds without a reload; the next hand posts them."""
    host, friend, url = _private_heads_up(browser, classic_server, ("hal", "fay"), "kitchen")
    assert "10" in friend.locator("[data-table-stakes]").inner_text()
    # The host's panel: new blinds and a faster clock, while the first hand is being played.
    host.goto(url)
    host.fill("#host-panel input[name=small_blind]", "25")
    host.fill("#host-panel input[name=big_blind]", "50")
    host.select_option("#host-panel select[name=speed]", "fast")
    with host.expect_navigation():
        host.click("#host-panel .hostpanel__terms button[type=submit]")
    assert host.locator(".flash__item--success").count() == 1
    friend.wait_for_selector(".next-terms", timeout=10_000)
    assert "25/50" in friend.locator(".next-terms").inner_text()
    assert "5/10" in friend.locator("[data-table-stakes]").inner_text()
    screenshot(friend, "next-stakes-phone")
    # Whoever is to act folds: the hand ends, the new stakes are in play on both pages.
    _fold_until_over(host, friend)
    friend.wait_for_function(
        "() => (document.querySelector('[data-table-stakes]') || {}).textContent.includes('25/50')", timeout=10_000)
    assert friend.locator(".next-terms").count() == 0
    assert friend.locator("[data-table-speed]").inner_text() == host.locator("#host-panel select[name=speed] option[value=fast]").inner_text()
    chips = friend.locator("#add-chips")
    assert chips.get_attribute("data-high") == str(150 * 50) and chips.get_attribute("data-big-blind") == "50"
    # The next hand (after this server's 30 s showdown pause) posts the new blinds.
    friend.wait_for_function(
        "() => [...document.querySelectorAll('.seat__bet')].some(e => e.textContent.replace(/\\D/g, '') === '50')",
        timeout=60_000)
    screenshot(friend, "new-stakes-phone")
    for page in (host, friend):
        page.context.close()


def test_blinds_up_is_said_when_the_level_rises_and_the_whole_ladder_is_a_tap_away(
        browser: Any, classic_server: str, screenshot: Any) -> None:
    """A host starts the blinds' clock mid-hand; its five minutes are moved on in the server's
    database, and the next hand is dealt at level 2: the friend's page says "Blinds up" (a toast,
    and the screen reader's live region) without a reload, and "all levels" opens the ladder with
    level 2 marked as the one in play."""
    import sqlite3

    host, friend, url = _private_heads_up(browser, classic_server, ("lev", "lia"), "ladder")
    host.goto(url)
    host.select_option("#host-panel select[name=minutes]", "5")
    with host.expect_navigation():
        host.click("#host-panel .hostpanel__levels button[type=submit]")
    friend.wait_for_selector('.levels[data-level="1"]', timeout=10_000)
    assert friend.locator("#table-toast").is_hidden()
    table_id = int(re.search(r"/tables/(\d+)/", url).group(1))  # type: ignore[union-attr]
    with contextlib.closing(sqlite3.connect(_SERVER_DB[0], timeout=10)) as db, db:
        # Run out a moment ago (long ago would climb one level per five minutes since).
        ran_out = (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=2)).strftime("%Y-%m-%d %H:%M:%S")
        db.execute("UPDATE tables_table SET level_ends_at = ? WHERE id = ?", (ran_out, table_id))
    _fold_until_over(host, friend)
    # The next hand (after this server's 30 s showdown pause) is dealt at level 2.
    friend.wait_for_selector('.levels[data-level="2"]', timeout=60_000)
    toast = friend.locator("#table-toast")
    assert toast.is_visible() and "Blinds up: level 2" in toast.inner_text() and "8/15" in toast.inner_text()
    assert "toast--news" in (toast.get_attribute("class") or "")  # news, not a refusal's red
    assert "Blinds up: level 2" in friend.locator("#table-announce").inner_text()
    screenshot(friend, "blinds-up-phone")
    friend.click(".levels__all")
    friend.wait_for_url(re.compile(r".*/levels/$"))
    now = friend.locator('tr[aria-current="true"]')
    assert now.get_attribute("data-level") == "2" and "8/15" in now.inner_text()
    screenshot(friend, "levels-phone")
    for page in (host, friend):
        page.context.close()


def _heads_up_dealt(browser: Any, base: str, names: tuple[str, str], title: str) -> list[Any]:
    """Two new players (a phone, then a desktop) at a new heads-up Hold'em table, its first hand dealt."""
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, base, f"{n}{tag}", size) for n, size in zip(names, (PHONE, DESKTOP), strict=True)]
    _sit_everyone(pages, _open_table(pages[1], base, "NT", f"{title} {tag}"))
    for page in pages:
        page.wait_for_selector(".felt.phase-preflop", timeout=15_000)
    return pages


def test_a_winner_nobody_called_shows_their_cards(browser: Any, classic_server: str, screenshot: Any) -> None:
    """Heads-up Hold'em: the first to act folds. The winner taps "Show my cards" and the other
    player's page turns the winner's two cards face up at once; the button is then gone."""
    pages = _heads_up_dealt(browser, classic_server, ("ivy", "joe"), "show")
    deadline = time.monotonic() + 20
    folded = None
    while folded is None and time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if _try_click(page, ".act--fold"):
                folded = i
                break
        time.sleep(0.2)
    assert folded is not None
    winner, loser = pages[1 - folded], pages[folded]
    for page in pages:
        page.wait_for_selector(".felt.phase-over", timeout=10_000)
    mine = sorted(winner.locator(".board__mine [data-card], .seat--me [data-card]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-card'))"))
    theirs = ".seat:not(.seat--me) [data-card]"
    assert loser.locator(theirs).count() == 0
    winner.click(".act--show")
    loser.wait_for_function(f"() => document.querySelectorAll({theirs!r}).length === 2", timeout=10_000)
    shown = sorted(loser.locator(theirs).evaluate_all("els => els.map(e => e.getAttribute('data-card'))"))
    assert shown == sorted(set(mine)), (shown, mine)
    winner.wait_for_selector(".act--show", state="detached", timeout=10_000)
    assert loser.locator(".act--show").count() == 1  # the folder may still show theirs
    screenshot(loser, f"shown-{'phone' if folded == 0 else 'desktop'}")
    for page in pages:
        page.context.close()


def test_check_or_fold_picked_before_the_turn_is_sent_when_it_comes(browser: Any, classic_server: str, screenshot: Any) -> None:
    """Heads-up Hold'em. The big blind picks "Check" while the small blind decides: the call comes
    and the big blind's check goes by itself. On the flop the small blind picks "Check/fold"; the
    big blind bets, and the small blind's fold goes by itself."""
    pages = _heads_up_dealt(browser, classic_server, ("kim", "lou"), "pre")
    page_sb = next(p for p in pages if p.locator(".seat--me.seat--acting").count())
    page_bb = next(p for p in pages if p is not page_sb)
    # A screen reader hears the choices' caption once, as the group's name (the drawn caption
    # is not read again).
    tree = page_bb.locator(".pre").aria_snapshot()
    assert tree.count("Before your turn") == 1 and 'group "Before your turn"' in tree, tree
    assert page_bb.locator(".pre").evaluate("e => getComputedStyle(e, '::before').content").startswith('"Before your turn"')
    page_bb.click('[data-pre="check"]')
    assert page_bb.locator('[data-pre="check"]').get_attribute("aria-pressed") == "true"
    screenshot(page_bb, "pre-check")
    page_sb.click(".act--call")
    for page in pages:  # nobody clicked for the big blind: its check dealt the flop
        page.wait_for_selector(".felt.phase-flop", timeout=10_000)
    # The flop: the big blind acts first heads-up; the small blind picks check/fold meanwhile.
    page_sb.click('[data-pre="check_fold"]')
    page_bb.wait_for_selector("[data-sized-go]", timeout=10_000)
    page_bb.click("[data-sized-go]")  # a bet of the smallest size
    for page in pages:
        page.wait_for_selector(".felt.phase-over", timeout=10_000)
    assert "folded" in page_sb.locator(".seat--me").inner_text()
    for page in pages:
        page.context.close()


def test_a_choice_picked_on_a_device_that_was_away_is_not_sent_on_a_later_street(browser: Any, classic_server: str) -> None:
    """Heads-up Hold'em, the small blind on a laptop and a phone. On the flop the phone picks
    "Check/fold" while the big blind decides; the phone's socket then carries nothing, and the
    player calls the flop bet from the laptop. On the turn the big blind bets; the phone's socket
    is replaced (a reconnect) and its picture shows the turn's bet: the old choice was for the
    flop's decision, taken on the laptop, so nothing is sent and the player decides (found by an
    audit: the phone folded the hand)."""
    pages = _heads_up_dealt(browser, classic_server, ("ada", "bea"), "away")
    sb = next(p for p in pages if p.locator(".seat--me.seat--acting").count())
    bb = next(p for p in pages if p is not sb)
    phone_ctx = browser.new_context(viewport=PHONE)
    phone_ctx.add_cookies(sb.context.cookies())
    phone = phone_ctx.new_page()
    routes: list[Any] = []
    deaf = {"on": False}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        first = not routes
        routes.append(ws)
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: None if (first and deaf["on"]) else ws.send(m))

    phone.route_web_socket(re.compile(r".*/ws/tables/\d+/.*"), route)
    phone.goto(sb.url)
    phone.wait_for_selector(".felt.phase-preflop")
    sb.click(".panel .act--call")
    bb.wait_for_selector(".panel .act--check", timeout=10_000)
    bb.click(".panel .act--check")
    for page in (sb, bb, phone):
        page.wait_for_selector(".felt.phase-flop", timeout=10_000)
    phone.click('[data-pre="check_fold"]')
    assert phone.locator('[data-pre="check_fold"]').get_attribute("aria-pressed") == "true"
    deaf["on"] = True  # the phone hears nothing more on this socket
    bb.wait_for_selector("[data-sized-go]", timeout=10_000)
    bb.click("[data-sized-go]")
    sb.wait_for_selector(".panel .act--call", timeout=10_000)
    sb.click(".panel .act--call")
    bb.wait_for_selector(".felt.phase-turn [data-sized-go]", timeout=10_000)
    bb.click("[data-sized-go]")
    sb.wait_for_selector(".felt.phase-turn .panel .act--call", timeout=10_000)
    assert phone.locator(".felt.phase-flop").count() == 1  # still the flop: it heard nothing
    routes[0].close()  # the socket drops; the page opens a new one
    phone.wait_for_selector(".felt.phase-turn .panel .act--call", timeout=15_000)
    time.sleep(1.5)  # time for a wrongly kept choice to have been sent
    assert len(routes) >= 2
    assert sb.locator(".seat--me.seat--acting").count() == 1, "the player still decides on the turn"
    assert "folded" not in sb.locator(".seat--me").inner_text()
    # The browser knows it is offline: a tap is not sent into a dead socket, the page says so.
    sb.context.set_offline(True)
    sb.click(".panel .act--call")
    assert sb.locator("#table-toast").inner_text() == "Reconnecting…"
    time.sleep(1.0)
    assert bb.locator(".felt.phase-turn").count() == 1 and sb.locator(".seat--me.seat--acting").count() == 1
    sb.context.set_offline(False)
    for page in (*pages, phone):
        page.context.close()


def test_a_table_page_shows_the_players_other_tables_and_where_it_is_their_turn(browser: Any, classic_server: str, screenshot: Any) -> None:
    """Two players at two heads-up tables. Each table's page lists the player's other table, in
    gold with "Your turn" while that table waits for them, plain once they have acted there."""
    pages = _heads_up_dealt(browser, classic_server, ("cid", "dot"), "first")
    first_url = pages[0].url
    second_url = _open_table(pages[1], classic_server, "NT", f"second {uuid.uuid4().hex[:5]}")
    pages[1].goto(first_url)  # opening the second table took this page away from the first
    seconds = [p.context.new_page() for p in pages]
    _sit_everyone(seconds, second_url)
    for page in seconds:
        page.wait_for_selector(".felt.phase-preflop", timeout=15_000)
    waiting = next(p for p in seconds if p.locator(".seat--me.seat--acting").count())
    player_first = pages[seconds.index(waiting)]  # the same player's page at the first table
    player_first.bring_to_front()
    strip = player_first.locator("#other-tables")
    strip.locator(".othertables__table--turn").wait_for(timeout=10_000)
    link = strip.locator(".othertables__table--turn")
    assert link.get_attribute("href") == second_url[len(classic_server):] and "Your turn" in link.inner_text()
    assert strip.locator(".othertables__table").count() == 1  # not the table it is on
    screenshot(player_first, "other-tables-your-turn")
    waiting.bring_to_front()
    waiting.click(".panel .act--call")
    player_first.bring_to_front()
    strip.locator(".othertables__table--turn").wait_for(state="detached", timeout=10_000)
    assert strip.locator(".othertables__table").count() == 1
    assert first_url.endswith(waiting.locator("#other-tables .othertables__table").get_attribute("href"))
    for page in pages:
        page.context.close()


def test_call_picked_before_the_turn_is_sent_only_while_the_call_is_the_same(browser: Any, classic_server: str, screenshot: Any) -> None:
    """Three-handed Hold'em. Before the flop the small blind, facing the big blind, picks "Call 5"
    while the button decides; the button calls and the small blind's call goes by itself. On the
    flop the button picks "Call 10" against the small blind's bet; the big blind raises, so the
    button's choice goes (the call is 20 now) and nothing is sent for it: the button decides."""
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, classic_server, f"{n}{tag}", DESKTOP) for n in ("nia", "oto", "pia")]
    url = _open_table(pages[0], classic_server, "NT", f"call {tag}", seats=3)
    # All three sit within a moment of each other: the first hand is dealt half a second after
    # the second player sits, and a third who was still opening the page then was dealt out of
    # it (a slow hour's CI: the hand went heads-up and no page was "the button").
    for page in pages[1:]:
        page.goto(url)
    for page in pages:
        page.click("form.sit button", no_wait_after=True)
    for page in pages:
        page.wait_for_load_state()
    for page in pages:
        page.wait_for_selector(".felt.phase-preflop .seat--acting", timeout=15_000)

    def role(title: str) -> Any:
        return next(p for p in pages if p.locator(f'.seat--me abbr[title="{title}"]').count())

    sb, bb = role("Small blind"), role("Big blind")
    button = next(p for p in pages if p is not sb and p is not bb)
    assert button.locator(".seat--me.seat--acting").count() == 1
    call = sb.locator('[data-pre="call"]')
    assert call.inner_text().strip() == "Call 5" and sb.locator('[data-pre="check_fold"]').inner_text().strip() == "Fold"
    call.click()
    assert call.get_attribute("aria-pressed") == "true"
    screenshot(sb, "pre-call")
    button.click(".act--call")
    # Nobody clicks for the small blind: its call of 5 goes, and the turn is the big blind's.
    bb.wait_for_selector(".seat--me.seat--acting .act--check, .panel .act--check", timeout=10_000)
    for page in pages:
        page.wait_for_function("() => [...document.querySelectorAll('.seat__bet')].map(e => e.textContent.replace(/\\D/g, '')).join() === '10,10,10'",
                               timeout=10_000)
    bb.click(".panel .act--check")
    for page in pages:
        page.wait_for_selector(".felt.phase-flop", timeout=10_000)
    # The flop: the small blind bets 10; the button picks "Call 10" while the big blind decides.
    sb.wait_for_selector("[data-sized-go]", timeout=10_000)
    sb.click("[data-sized-go]")
    bb.wait_for_selector("[data-sized-go]", timeout=10_000)
    later = button.locator('[data-pre="call"]')
    button.wait_for_function("() => { const b = document.querySelector('[data-pre=\"call\"]'); return b && b.dataset.amount === '10'; }",
                             timeout=10_000)
    later.click()
    assert later.get_attribute("aria-pressed") == "true"
    bb.click("[data-sized-go]")  # the smallest raise: to 20
    button.wait_for_selector(".panel .act--call", timeout=10_000)
    assert button.locator(".panel .act--call").get_attribute("data-amount") == "20"
    time.sleep(1.0)  # time for a wrongly kept choice to have been sent
    assert button.locator(".seat--me.seat--acting").count() == 1, "the button still decides"
    assert "folded" not in button.locator(".seat--me").inner_text()
    for page in pages:
        page.context.close()


def test_the_four_colour_deck_is_chosen_once_for_every_page(browser: Any, classic_server: str, screenshot: Any) -> None:
    """A watcher ticks "Four-colour deck" at a table: diamonds turn blue and clubs green there and
    on the other pages with cards (the hand reader), and the choice is still on after a reload;
    unticked, the deck is red and black again."""
    tag = uuid.uuid4().hex[:5]
    host, watcher = (_sign_up(browser, classic_server, f"{n}{tag}", size) for n, size in (("qin", DESKTOP), ("ray", PHONE)))
    url = _open_table(host, classic_server, "NT", f"deck {tag}", seats=2)
    watcher.goto(url)
    box = watcher.locator("#deck-four")
    assert not box.is_checked()
    box.check()
    assert watcher.evaluate("document.documentElement.classList.contains('deck-four')")
    watcher.reload()
    assert watcher.locator("#deck-four").is_checked()
    colour = "sel => getComputedStyle(document.querySelector(sel)).color"
    watcher.goto(classic_server + "/hand/?game=omaha&hand=AdKcQhJs&board=2d3c4h5s9d")
    watcher.wait_for_selector('.card[data-card="Ad"] .card__face')
    assert watcher.evaluate(colour, '.card[data-card="Ad"] .card__face') == "rgb(31, 95, 196)"
    assert watcher.evaluate(colour, '.card[data-card="Kc"] .card__face') == "rgb(30, 123, 52)"
    assert watcher.evaluate(colour, '.card[data-card="Qh"] .card__face') == "rgb(198, 40, 40)"
    screenshot(watcher, "four-colour-deck")
    watcher.goto(url)
    watcher.locator("#deck-four").uncheck()
    watcher.goto(classic_server + "/hand/?game=omaha&hand=AdKcQhJs&board=2d3c4h5s9d")
    assert watcher.evaluate(colour, '.card[data-card="Ad"] .card__face') == "rgb(198, 40, 40)"
    assert watcher.evaluate(colour, '.card[data-card="Kc"] .card__face') == "rgb(27, 27, 27)"
    for page in (host, watcher):
        page.context.close()


def test_dealers_choice_the_host_picks_the_next_game(browser: Any, classic_server: str, screenshot: Any) -> None:
    """A private Hold'em table: during the first hand the host picks five-card draw; the friend's
    picture says it comes next while Hold'em is finished. Once that hand is over the friend's
    header says five-card draw without a reload, and the next hand is a draw hand."""
    host, friend, url = _private_heads_up(browser, classic_server, ("dee", "eli"), "choice")
    assert friend.locator("[data-table-game]").inner_text() == "No-limit Hold'em"
    host.goto(url)
    host.select_option("#host-panel select[name=game]", "F5D")
    with host.expect_navigation():
        host.click("#host-panel .hostpanel__game button[type=submit]")
    assert "from the next hand" in host.locator(".flash__item--success").inner_text()
    friend.wait_for_selector(".next-terms", timeout=10_000)
    assert "Five-card draw" in friend.locator(".next-terms").inner_text()
    assert friend.locator(".felt.family-flop").count() == 1  # Hold'em is finished by its own rules
    screenshot(friend, "next-game-phone")
    _fold_until_over(host, friend)
    # The next hand (after this server's 30 s showdown pause) is five-card draw, on both pages.
    for page in (friend, host):
        page.wait_for_selector(".felt.family-draw", timeout=60_000)
    assert friend.locator("[data-table-game]").inner_text().startswith("Five-card draw")
    assert friend.locator(".next-terms").count() == 0
    screenshot(friend, "draw-dealt-phone")
    for page in (host, friend):
        page.context.close()


def test_a_newcomer_chooses_to_post_a_big_blind(browser: Any, classic_server: str, screenshot: Any) -> None:
    """A four-seat Hold'em table where three sit: a fourth player sits down during a hand and
    waits for the big blind. Their bar offers "Post a big blind to play now"; tapping it, every
    page's seat says so, and the bar offers to wait instead, which takes it back."""
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, classic_server, f"{n}{tag}", size)
             for n, size in (("ada", DESKTOP), ("ben", DESKTOP), ("dan", DESKTOP))]
    url = _open_table(pages[0], classic_server, "NT", f"post {tag}", seats=4)
    _sit_everyone(pages, url)
    pages[0].wait_for_selector(".felt.phase-preflop", timeout=15_000)
    newcomer = _sign_up(browser, classic_server, f"cy{tag}", PHONE)
    _sit_everyone([newcomer], url)
    mine = newcomer.locator(".seat--me")
    assert "waits for the big blind" in mine.inner_text()
    newcomer.click('button[data-action="post_bb"]')
    newcomer.wait_for_selector('button[data-action="wait_bb"]', timeout=10_000)
    assert "posts a big blind to come in" in newcomer.locator(".seat--me").inner_text()
    pages[0].wait_for_function(
        "() => document.querySelector('#table-root').innerText.includes('posts a big blind to come in')",
        timeout=10_000)
    screenshot(newcomer, "post-big-blind-phone")
    newcomer.click('button[data-action="wait_bb"]')
    newcomer.wait_for_selector('button[data-action="post_bb"]', timeout=10_000)
    assert "waits for the big blind" in newcomer.locator(".seat--me").inner_text()
    for page in (*pages, newcomer):
        page.context.close()


def test_a_full_six_seat_table_on_phones_shows_each_player_their_cards(browser: Any, classic_server: str, screenshot: Any) -> None:
    """Six phone players at a six-seat Hold'em table: the table is taller than the screen, and
    when a player's turn comes the page shows them their own cards above the pinned betting bar
    (the top row of seats may go out of sight, never the player's cards)."""
    tag = uuid.uuid4().hex[:5]
    pages = [_sign_up(browser, classic_server, f"s{i}{tag}", PHONE) for i in range(6)]
    url = _open_table(pages[0], classic_server, "NT", f"six {tag}", seats=6)
    _sit_everyone(pages, url)
    turn = '.panel [data-action="fold"], .panel [data-action="check"]'
    # A turn that came while the others were still sitting down came to a shorter table.
    stale = {i for i, page in enumerate(pages) if page.locator(turn).count()}
    gaps: list[float] = []
    deadline = time.monotonic() + 120
    while len(gaps) < 4 and time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if not page.locator(turn).count():
                stale.discard(i)
                continue
            time.sleep(0.8)  # the smooth scroll
            if i not in stale and page.locator(turn).count():
                felt = page.evaluate("document.querySelector('.felt').getBoundingClientRect().height")
                gap = page.evaluate(
                    "() => { const c = document.querySelector('.board__mine');"
                    " const p = document.querySelector('.panel');"
                    " return p.getBoundingClientRect().top - c.getBoundingClientRect().bottom; }")
                if felt > PHONE["height"]:  # what the test is about: a table taller than the screen
                    gaps.append(gap)
                    if len(gaps) == 1:
                        screenshot(page, "six-seats-turn-phone")
            for action in ("check", "call", "fold"):
                if page.locator(f'.panel [data-action="{action}"]').count() and _try_click(page, f'.panel [data-action="{action}"]'):
                    break
    assert len(gaps) >= 2, "no turn came at a table taller than the screen"
    assert min(gaps) >= -1, f"the bar covered a player's cards by {-min(gaps):.0f} px"
    for page in pages:
        page.context.close()


def _version(page: Any) -> int:
    return int(page.locator("#table-root").get_attribute("data-version") or "-1")


def test_a_keyboard_player_keeps_the_focus_and_a_typed_amount_through_other_players_moves(
        browser: Any, classic_server: str, screenshot: Any) -> None:
    """Found by a keyboard and screen-reader audit: every picture replaced the table, dropping the
    focus to the page and an amount being typed back to the smallest (a Tab and Enter then raised
    the wrong amount). Now the box keeps the focus and the amount through another player's move,
    Enter in it raises that amount, "Your turn" names the raise too, and the shortcut keys can be
    turned off (kept in the browser)."""
    pages = _heads_up_dealt(browser, classic_server, ("kim", "kai"), "keys")
    actor = _whose_turn(tuple(pages), ".panel [data-sized-go]")
    other = pages[1] if actor is pages[0] else pages[0]
    said = actor.locator("#table-announce").inner_text()
    # "New hand. Your cards: nine of hearts, ten of diamonds. Your turn: Fold, Call 5, Raise to 20, ..."
    assert said.startswith("New hand. Your cards: ") and "Your turn: Fold" in said and "Raise to" in said, said
    box = actor.locator(".panel [data-size-input]")
    box.focus()
    box.fill("77")
    before = _version(actor)
    other.click(".panel [data-action=sit_out]")  # the other player asks for a break: a new picture
    actor.wait_for_function(f"() => +document.getElementById('table-root').getAttribute('data-version') > {before}",
                            timeout=10_000)
    assert box.input_value() == "77"
    assert actor.evaluate("() => document.activeElement.hasAttribute('data-size-input')")
    assert "77" in actor.locator(".panel [data-sized-go]").inner_text()
    box.press("Enter")  # Enter in the box raises what it says
    other.wait_for_function(
        "() => [...document.querySelectorAll('.seat__bet')].some(e => e.textContent.replace(/\\D/g, '') === '77')",
        timeout=10_000)
    screenshot(actor, "typed-raise-sent")
    # The desktop player turns the single-key shortcuts off: "f" on their turn folds nothing.
    desk = pages[1]
    deadline = time.monotonic() + 20
    while not desk.locator(".panel .act--fold").count():
        assert time.monotonic() < deadline, "the desktop player's turn never came"
        for kind in ("call", "check"):
            if pages[0].locator(f".panel .act--{kind}").count() and _try_click(pages[0], f".panel .act--{kind}"):
                break
        time.sleep(0.3)
    desk.uncheck("#table-keys")
    assert desk.evaluate("() => localStorage.getItem('pp-keys')") == "off"
    assert desk.locator(".panel .act--fold kbd").first.is_hidden()
    desk.evaluate("() => document.activeElement && document.activeElement.blur()")
    before = _version(desk)
    desk.keyboard.press("f")
    time.sleep(1.5)
    assert _version(desk) == before and desk.locator(".panel .act--fold").count()
    desk.check("#table-keys")
    desk.evaluate("() => document.activeElement && document.activeElement.blur()")
    desk.keyboard.press("f")
    desk.wait_for_function(f"() => +document.getElementById('table-root').getAttribute('data-version') > {before}",
                           timeout=10_000)
    for page in pages:
        page.context.close()

"""Three people in three browsers play a whole Baseball session (issue #8): eight pots, then the
standings on the table and on the standings page, which must add up from the ledger's lines.

A server of its own with short clocks (decision 6 s, a 1 s pause after each hand). Players click
check, call, bet and fold; once a player lets the clock run out, goes on a break and comes back
with "I'm back". Screenshots of the table mid-hand and of the standings, at phone and desktop
sizes, go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, daphne_server

pytestmark = pytest.mark.browser

PASSWORD = "diamond-and-units-2026"
DECISION_SECONDS = 6


@pytest.fixture(scope="module")
def bb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with daphne_server(
        tmp_path_factory.mktemp("baseball-server"),
        TABLE_DECISION_SECONDS=str(DECISION_SECONDS), TABLE_SHOWDOWN_SECONDS="1", TABLE_DEAL_SECONDS="4",
    ) as url:
        yield url


def _sign_up(browser: Any, base: str, name: str, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=display_name]", name.capitalize())
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    return page


def _click(page: Any, selector: str) -> bool:
    """Click if the button is still there: the table may redraw while we look."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        if not page.locator(selector).count():
            return False
        page.click(selector, timeout=1500)
        return True
    except PlaywrightError:
        return False


def _pots_done(page: Any) -> int:
    text = page.locator(".bb[data-bb-pots]").first.get_attribute("data-bb-pots") if page.locator(".bb").count() else "0"
    return int(text or 0)


def test_three_players_play_a_whole_session_and_the_standings_match_the_ledger(
    browser: Any, bb_server: str, screenshot: Any,
) -> None:
    tag = uuid.uuid4().hex[:5]
    names = [f"amy{tag}", f"bo{tag}", f"cy{tag}"]
    pages = [_sign_up(browser, bb_server, n, size) for n, size in zip(names, [PHONE, DESKTOP, DESKTOP], strict=True)]

    # Amy opens a Baseball table: no stakes to choose (the field is hidden for Baseball).
    host = pages[1]
    host.goto(bb_server + "/tables/new/")
    host.fill("input[name=name]", f"Diamond {tag}")
    host.select_option("select[name=game]", "BB")
    assert not host.locator("select[name=stakes]").is_visible()
    assert host.locator(".units-note").is_visible()
    host.select_option("select[name=max_seats]", "3")
    host.check("input[name=speed][value=fast]")
    host.click("main form button[type=submit]")
    host.wait_for_url(re.compile(r".*/tables/\d+/$"))
    url = host.url
    table_id = int(url.rstrip("/").rsplit("/", 1)[1])
    for page in pages:
        if page.url != url:
            page.goto(url)
        assert page.locator("form.sit input[name=buy_in]").count() == 0  # no buy-in for units
        page.click("form.sit button")
        page.wait_for_load_state()
    # Nothing is dealt until a player starts the session, with everyone seated.
    for page in pages:
        page.wait_for_selector(".bb-start button[data-action=new_session]", timeout=10_000)
    assert pages[0].locator(".phase-third").count() == 0
    screenshot(pages[0], "phone-waiting-for-the-start")
    pages[2].click(".bb-start button[data-action=new_session]")
    pages[0].wait_for_selector(".family-stud.game-bb.phase-third", timeout=20_000)
    assert pages[0].locator(".seat").count() == 3
    assert "pot 1 of 8" in pages[0].locator(".bb__count").inner_text()

    timed_out = False  # Bo lets one decision run out, in the second pot
    came_back = False
    shot_mid_hand = False
    saw_fraction_or_negative = False
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        if all(p.locator(".bb-standings").count() for p in pages):
            break
        acted = False
        for i, page in enumerate(pages):
            done = _pots_done(page)
            if i == 1 and page.locator(".act--back").count():
                acted = _click(page, ".act--back") or acted
                came_back = came_back or acted
                continue
            if not page.locator(".seat--me.seat--acting").count():
                continue
            if i == 1 and done == 1 and not timed_out:
                # Bo waits: the clock checks or folds for him and puts him on a break.
                page.wait_for_selector(".act--back", timeout=(DECISION_SECONDS + 8) * 1000)
                timed_out = True
                continue
            if not shot_mid_hand and done == 2 and page.locator(".phase-fifth, .phase-sixth").count():
                screenshot(pages[0], "phone-mid-hand")
                screenshot(pages[1], "desktop-mid-hand")
                shot_mid_hand = True
            # Amy bets whenever she may; Cy folds to a bet in odd pots; everyone else calls or checks.
            bets = i == 0 and _click(page, ".act--bet")
            folds = not bets and i == 2 and done % 2 == 1 and _click(page, ".act--fold")
            acted = bets or folds or _click(page, ".act--check") or _click(page, ".act--call") or acted
        for page in pages:
            stacks = " ".join(page.locator(".seat__stack").all_inner_texts())
            saw_fraction_or_negative = saw_fraction_or_negative or "/" in stacks or "-" in stacks
        if not acted:
            time.sleep(0.15)
    else:
        pytest.fail("the session did not reach its eighth pot in time")
    assert timed_out and came_back, "a player timed out, went on a break and came back"
    assert saw_fraction_or_negative, "balances below zero (or in fractions) were shown"

    for page in pages:
        page.wait_for_selector(".bb-standings", timeout=10_000)
        assert "8 of 8 pots" in page.locator(".bb__count").inner_text()
    pages[1].wait_for_timeout(700)  # the standings pop in (a half-second animation)
    screenshot(pages[0], "phone-standings")
    screenshot(pages[1], "desktop-standings")
    live = {
        row.get_attribute("data-player"): (int(row.locator("[data-place]").inner_text()), Fraction(row.get_attribute("data-net")))
        for row in pages[1].locator(".bb-standings tbody tr").all()
    }
    assert set(live) == {n.capitalize() for n in names}
    assert sum(net for _place, net in live.values()) == 0  # units only change hands

    # The standings page: eight ledger lines per player add up to the standings.
    page = pages[2]
    page.goto(f"{bb_server}/tables/{table_id}/standings/")
    session = page.locator("article.bb-session[data-session='1']")
    lines = session.locator("tbody tr[data-pot]")
    assert lines.count() == 8
    players = session.locator(".bb-ledger thead th[data-player]").all_inner_texts()
    totals = [Fraction(t.get_attribute("data-total")) for t in session.locator(".bb-ledger tfoot td").all()]
    sums = [Fraction(0)] * len(players)
    for k in range(8):
        cells = lines.nth(k).locator("td").all()
        for col, cell in enumerate(cells):
            raw = cell.get_attribute("data-net")
            sums[col] += Fraction(raw) if raw else 0
    assert sums == totals
    for name, total in zip(players, totals, strict=True):
        assert live[name][1] == total
    ranked = sorted(totals, reverse=True)
    for name, (place, net) in live.items():
        assert place == 1 + sum(1 for x in ranked if x > net), name  # equal nets share a place
    standings = {
        row.get_attribute("data-player"): Fraction(row.get_attribute("data-net"))
        for row in session.locator("table.bb-table:not(.bb-ledger) tbody tr").all()
    }
    assert standings == {n: net for n, (_p, net) in live.items()}
    screenshot(page, "desktop-standings-page")
    pages[0].goto(f"{bb_server}/tables/{table_id}/standings/")
    screenshot(pages[0], "phone-standings-page")
    # The same in Hebrew, right to left: numbers keep their signs on the correct side.
    pages[0].context.add_cookies([{"name": "lang", "value": "he", "url": bb_server}])
    pages[0].reload()
    assert pages[0].locator("html[dir=rtl]").count() == 1
    screenshot(pages[0], "phone-standings-page-he")
    pages[0].goto(url)
    pages[0].wait_for_selector(".bb-standings")
    pages[0].wait_for_timeout(700)
    screenshot(pages[0], "phone-standings-he")

    # A new session can start at once, from the table.
    pages[0].goto(url)
    pages[0].click(".act--new-session")
    pages[0].wait_for_selector(".bb[data-bb-session='2']", timeout=10_000)
    pages[1].wait_for_selector(".bb[data-bb-session='2'] .bb__count", timeout=10_000)
    # Before its first pot is dealt, or while it is played.
    assert pages[1].locator(".bb__count").inner_text().strip() in ("0 of 8 pots", "pot 1 of 8")
    pages[1].wait_for_selector(".phase-third", timeout=15_000)
    for p in pages:
        p.context.close()


# A phone seat holding five or six up cards (free cards for open 4s): the ★ and +1 badges must
# not cover a card's rank, its own or its neighbour's (they did, out over the narrow gap).
_BADGE_RECTS = """() => {
  const rect = (el, pseudo) => {
    const s = getComputedStyle(el, pseudo), r = el.getBoundingClientRect();
    if (s.content === 'none' || s.content === 'normal') return null;
    const px = (...names) => names.reduce((sum, n) => sum + parseFloat(s[n]), 0);
    const border = s.boxSizing === 'border-box';
    const height = px('height') + (border ? 0 : px('paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'));
    const width = px('width') + (border ? 0 : px('paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'));
    const top = r.top + parseFloat(s.top), left = r.left + parseFloat(s.left);
    return {top, left, bottom: top + height, right: left + width};
  };
  const out = [];
  for (const row of document.querySelectorAll('.seat__stud > .cards')) {
    const cards = [...row.children];
    const ranks = cards.map(c => c.querySelector('.card__rank').getBoundingClientRect());
    cards.forEach((c, i) => {
      for (const pseudo of ['::before', '::after']) {
        const b = rect(c, pseudo);
        if (b) out.push({card: i, n: cards.length, pseudo, badge: b, ranks});
      }
    });
  }
  return out;
}"""


@pytest.mark.parametrize("width", [360, 390, 430])
def test_wild_and_free_card_badges_leave_every_rank_readable_on_a_phone(browser: Any, width: int) -> None:
    from rules_engine.cards import parse_cards
    from tables.handreader import CardPicture
    from tables.presenter import SeatRow
    from tables.templatetags.table_cards import seat_list

    root = Path(__file__).resolve().parents[2]

    def row(spec: str) -> list[dict[str, Any]]:
        return [{"pic": CardPicture(card=parse_cards(t.rstrip("*+"))[0], wild=t.endswith("*")), "extra": t.endswith("+")}
                for t in spec.split()]

    seats = [SeatRow(no=n, name=name, empty=False, stack=-12, in_hand=True, showing="pair",
                     down=[{"hidden": True}] * 2, up=row(up))
             for n, (name, up) in enumerate([("Alexandra", "4h 5c+ 3d* 4s 9c* Kd+"), ("Bo", "4c Ah+ 9d* 4d Qs+"),
                                             ("Cy", "4s 2c+ Jd 4h 7c+ Ks")], 1)]
    css = "".join((root / "static/css" / f).read_text() for f in ("site.css", "table.css"))
    page = browser.new_page(viewport={"width": width, "height": 800})
    try:
        page.set_content(f'<!doctype html><html><head><meta name="viewport" content="width=device-width">'
                         f'<style>{css}</style></head><body><main><section class="felt family-stud phase-betting '
                         f'game-bb"><ul class="seats">{seat_list(seats, phase="betting", bb=True)}</ul></section>'
                         f'</main></body></html>')
        badges = page.evaluate(_BADGE_RECTS)
    finally:
        page.close()
    assert len(badges) == 9  # Alexandra's two +1 and two ★, Bo's two +1 and a ★, Cy's two +1
    for b in badges:
        box = b["badge"]
        for j, rank in enumerate(b["ranks"]):
            apart = (box["right"] <= rank["left"] or box["left"] >= rank["right"]
                     or box["bottom"] <= rank["top"] or box["top"] >= rank["bottom"])
            assert apart, f"{width}px: the {b['pseudo']} badge of card {b['card'] + 1} of {b['n']} covers card {j + 1}'s rank"

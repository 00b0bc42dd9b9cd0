"""A home game from start to finish in real browsers: an owner creates a club and sends an invite
link, a second player signs up through it and joins, the owner (a host) gives both club chips,
starts a session and opens a private Patch-Patch table; both play a few hands; the session page
and the leaderboard show the same net results as the stacks; a non-member gets a 404 on the table
and the websocket refuses them.

Its own server with short clocks. Screenshots of the club pages (phone and desktop, English and
Hebrew) go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, daphne_server

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-chips-2026"
BUY_IN = 1000
HANDS = 3

WS_PROBE = """async (url) => await new Promise((resolve) => {
  const seen = [];
  const ws = new WebSocket(url);
  ws.onopen = () => seen.push("open");
  ws.onmessage = (e) => { seen.push(JSON.parse(e.data).type); ws.close(); };
  ws.onclose = (e) => resolve({code: e.code, seen});
  setTimeout(() => resolve({code: -1, seen}), 8000);
})"""


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with daphne_server(
        tmp_path_factory.mktemp("club-server"),
        TABLE_DECISION_SECONDS="15", TABLE_ARRANGE_SECONDS="40", TABLE_SHOWDOWN_SECONDS="1", TABLE_DEAL_SECONDS="1",
    ) as url:
        yield url


def _context(browser: Any, viewport: dict[str, int], base: str, lang: str = "en") -> Any:
    ctx = browser.new_context(viewport=viewport, locale="en-US")
    ctx.add_cookies([{"name": "lang", "value": lang, "url": base}])
    return ctx


def _sign_up(page: Any, name: str) -> None:
    page.fill("input[name=username]", name)
    page.fill("input[name=display_name]", name.capitalize())
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()


def _number(text: str) -> int:
    return int(text.strip().replace(",", "").replace("+", "").replace("\u2212", "-"))


def _no_sideways_scroll(page: Any) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{page.url} is {overflow}px wider than the screen"


def _standings_fit(page: Any, phone: bool) -> None:
    """Every figure of every standings table is on screen, none behind a sideways scroll; on a
    phone the figures after the net carry their names (each player takes two lines), on a
    desktop they sit under the column heads."""
    tables = page.evaluate("""() => [...document.querySelectorAll('table.standings')].map(t => {
        const wrap = t.closest('.statement-wrap'), cells = [...t.querySelectorAll('tbody td')];
        return {scroll: wrap.scrollWidth - wrap.clientWidth, cells: cells.length,
                off: cells.filter(c => { const r = c.getBoundingClientRect();
                                         return r.width === 0 || r.left < 0 || r.right > window.innerWidth; }).length,
                labels: cells.filter(c => c.dataset.label).map(c => getComputedStyle(c, '::before').content)};
    })""")
    assert tables, f"no standings on {page.url}"
    for t in tables:
        assert t["scroll"] <= 0 and t["off"] == 0, (page.url, t)
        assert t["labels"], t
        if phone:
            assert all(label not in ("none", "normal") for label in t["labels"]), t
        else:
            assert set(t["labels"]) <= {"none", "normal"}, t


def _finished_hands(page: Any) -> int:
    return page.locator(".history__list li").count()


def _play(pages: list[Any], until: Any, timeout: float = 240) -> None:
    """Both players check, call and arrange as they stand until ``until()`` is true."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if until():
            return
        acted = False
        for page in pages:
            for sel in (".act--done", ".act--check", ".act--call"):
                if page.locator(sel).count():
                    try:
                        page.click(sel, timeout=2000)
                        acted = True
                    except PlaywrightTimeout:
                        pass
                    break
        if not acted:
            time.sleep(0.2)
    raise AssertionError("the hands did not finish in time")


def test_a_club_night_from_invite_to_leaderboard(browser: Any, club_server: str, screenshot: Any) -> None:
    base = club_server
    tag = uuid.uuid4().hex[:5]
    olga_name, boris_name, nina_name = f"olga{tag}", f"boris{tag}", f"nina{tag}"

    # The owner signs up on a phone and creates the club.
    owner = _context(browser, PHONE, base).new_page()
    owner.goto(base + "/accounts/signup/")
    _sign_up(owner, olga_name)
    owner.goto(base + "/clubs/")
    owner.click("main a:has-text('Create a club')")
    owner.wait_for_url(base + "/clubs/new/")
    screenshot(owner, "phone-new-club")
    owner.fill("input[name=name]", f"Thursday {tag}")
    owner.fill("textarea[name=description]", "Cards at Olga's kitchen, Thursdays from eight.")
    owner.select_option("main select[name=language]", "en")  # not the language switcher
    owner.click("main form button[type=submit]")
    owner.wait_for_url(re.compile(r".*/clubs/\d+/invites/$"))
    club_url = owner.url.rsplit("invites/", 1)[0]
    assert owner.locator(".inviterow__url").count() == 1  # made with the club
    owner.select_option("select[name=expires_in]", "7")
    owner.fill("input[name=max_uses]", "5")
    with owner.expect_navigation():
        owner.click("text=Make a link")
    invite_link = owner.locator(".inviterow__url").first.input_value()
    assert "/clubs/join/" in invite_link
    screenshot(owner, "phone-invites")
    _no_sideways_scroll(owner)

    # The second player opens the link, signs up from it, comes back and joins.
    boris = _context(browser, DESKTOP, base).new_page()
    boris.goto(invite_link)
    assert f"Thursday {tag}" in boris.inner_text("h1")
    screenshot(boris, "desktop-join-anonymous")
    boris.click("main a.button:has-text('Sign up')")
    _sign_up(boris, boris_name)
    boris.wait_for_url(invite_link)
    boris.click("main form button[type=submit]")
    boris.wait_for_url(club_url)
    assert boris.locator(".clubhead__me").count() == 1

    # The owner gives both players club chips, with a reason, on the members page.
    owner.goto(club_url + "members/")
    for name in (olga_name, boris_name):
        row = owner.locator(f".memberrow[data-member='{name.capitalize()}']")
        row.locator("summary").click()
        row.locator("input[name=amount]").fill("5000")
        row.locator("input[name=reason]").fill("chips for the night")
        with owner.expect_navigation():
            if name == olga_name:  # a double tap on a slow phone: the second is not sent
                row.locator(".chipsform").evaluate(
                    "f => { f.requestSubmit(); setTimeout(() => f.requestSubmit(), 5); }")
            else:
                row.locator(".chipsform button").click()
    owner.wait_for_load_state()
    balances = owner.locator("[data-balance]").all_inner_texts()
    assert [_number(b) for b in balances] == [5000, 5000]
    # Taking more than a member has is refused and changes nothing; the page comes back with
    # the member's tools open and what was typed still in them.
    row = owner.locator(f".memberrow[data-member='{boris_name.capitalize()}']")
    row.locator("summary").click()
    row.locator("input[name=direction][value=take]").check()
    row.locator("input[name=amount]").fill("999999")
    row.locator("input[name=reason]").fill("too much")
    with owner.expect_navigation():
        row.locator(".chipsform button").click()
    assert owner.locator(".message--error").count() == 1
    assert "has 5,000 club chips; you cannot take 999,999" in owner.locator(".message--error").inner_text()
    row = owner.locator(f".memberrow[data-member='{boris_name.capitalize()}']")
    assert row.locator("details").get_attribute("open") is not None
    assert row.locator("input[name=amount]").input_value() == "999999"
    assert row.locator("input[name=reason]").input_value() == "too much"
    assert row.locator("input[name=direction][value=take]").is_checked()
    assert [_number(b) for b in owner.locator("[data-balance]").all_inner_texts()] == [5000, 5000]
    owner.reload()  # a later visit starts empty
    assert owner.locator(f".memberrow[data-member='{boris_name.capitalize()}'] input[name=reason]").input_value() == ""
    screenshot(owner, "phone-members")
    _no_sideways_scroll(owner)

    # A session, then a private Patch-Patch table with blinds of the club's own choosing.
    owner.goto(club_url)
    owner.click("main button:has-text('Start a session')")
    owner.wait_for_url(re.compile(r".*/sessions/\d+/$"))
    session_url = owner.url
    owner.goto(club_url + "tables/new/")
    screenshot(owner, "phone-new-club-table")
    _no_sideways_scroll(owner)
    owner.fill("input[name=name]", "Kitchen")
    owner.select_option("select[name=game]", "PP")
    owner.fill("input[name=small_blind]", "5")
    owner.fill("input[name=big_blind]", "10")
    owner.fill("input[name=max_seats]", "2")
    owner.click("main form button[type=submit]")
    owner.wait_for_url(re.compile(r".*/tables/\d+/$"))
    table_url = owner.url
    assert "club table, no rake" in owner.inner_text(".table-meta")
    assert owner.locator("#host-panel").count() == 1

    # Both sit down with club chips and play a few hands.
    boris.goto(club_url)
    boris.click("a.tablerow__name:has-text('Kitchen')")
    boris.wait_for_url(table_url)
    assert boris.locator("#host-panel.hostpanel").count() == 0  # only the hidden slot
    for page in (owner, boris):
        page.fill("#buy-in", str(BUY_IN))
        with page.expect_navigation():
            page.click("form.sit button")
    owner.wait_for_selector(".phase-preflop, .phase-arrange, .phase-flop", timeout=20_000)
    screenshot(owner, "phone-club-table")
    _play([owner, boris], until=lambda: _finished_hands(owner) >= HANDS)
    # The host pauses after the hand being played, so the stacks are settled when we compare.
    with owner.expect_navigation():
        owner.click("#host-panel button:has-text('Pause after this hand')")
    _play([owner, boris], until=lambda: owner.locator("#host-panel button:has-text('Resume')").count() > 0)
    owner.reload()
    screenshot(owner, "phone-club-table-paused")
    hands = _finished_hands(owner)
    assert hands >= HANDS
    stacks = {}
    for name in (olga_name, boris_name):
        seat = owner.locator(".seat", has=owner.locator(".seat__name", has_text=name.capitalize()))
        stacks[name.capitalize()] = _number(seat.locator(".seat__stack").inner_text())
    assert sum(stacks.values()) == 2 * BUY_IN  # a club table takes no rake
    expected = {name: stack - BUY_IN for name, stack in stacks.items()}

    # The host mutes a member in the table's chat: the member's box goes off at once and says
    # why; unmuted, they write again. Nobody mutes the host, and a member mutes nobody.
    owner.fill("[data-chat-form] input[name=text]", "gl all")
    owner.press("[data-chat-form] input[name=text]", "Enter")
    boris.fill("[data-chat-form] input[name=text]", "nice pot")
    boris.press("[data-chat-form] input[name=text]", "Enter")
    for page in (owner, boris):
        page.wait_for_selector('.chat__line:has-text("nice pot")', timeout=10_000)
        page.wait_for_selector('.chat__line:has-text("gl all")', timeout=10_000)
    assert boris.locator("[data-chat-mute]").count() == 0
    assert owner.locator('.chat__line:has-text("gl all") [data-chat-mute]').count() == 0
    owner.locator('.chat__line:has-text("nice pot") [data-chat-mute]').click()
    boris.wait_for_selector("[data-chat-form] input[name=text]:disabled", timeout=10_000)
    assert boris.locator("[data-chat-muted]").is_visible()
    owner.wait_for_selector('[data-chat-mute][aria-pressed="true"]', timeout=10_000)
    assert boris.locator(".chat__line").count() == 2  # their line stays
    owner.locator("#table-chat").scroll_into_view_if_needed()
    screenshot(owner, "phone-chat-host-muted-someone")
    boris.locator("#table-chat").scroll_into_view_if_needed()
    screenshot(boris, "desktop-chat-muted")
    owner.locator('.chat__line:has-text("nice pot") [data-chat-mute]').click()
    boris.wait_for_selector("[data-chat-form] input[name=text]:enabled", timeout=10_000)
    assert not boris.locator("[data-chat-muted]").is_visible()
    boris.fill("[data-chat-form] input[name=text]", "thanks")
    boris.press("[data-chat-form] input[name=text]", "Enter")
    owner.wait_for_selector('.chat__line:has-text("thanks")', timeout=10_000)

    # The owner names Boris a host on the members page: Boris's open table page gets the host
    # controls without a reload (its hidden slot asks every 15 s), and loses them when the role
    # is taken back.
    owner.goto(club_url + "members/")
    boris_row = owner.locator(f".memberrow[data-member='{boris_name.capitalize()}']")
    boris_row.locator("summary").click()
    with owner.expect_navigation():
        boris_row.locator("button:has-text('Make host')").click()
    boris.wait_for_selector("#host-panel.hostpanel button:has-text('Resume')", timeout=30_000)
    assert boris.url == table_url
    # The chat's powers come with it: a host may take anyone's line out (the owner's here; the
    # owner, a host too, is never offered to be muted).
    owner_line = boris.locator('.chat__line:has-text("gl all")')
    owner_line.locator("[data-chat-delete]").wait_for(timeout=5_000)
    assert owner_line.locator("[data-chat-mute]").count() == 0
    boris_row = owner.locator(f".memberrow[data-member='{boris_name.capitalize()}']")
    boris_row.locator("summary").click()
    with owner.expect_navigation():
        boris_row.locator("button:has-text('No longer host')").click()
    boris.wait_for_selector("#host-panel.hostpanel", state="detached", timeout=30_000)
    owner_line.locator("[data-chat-delete]").wait_for(state="detached", timeout=5_000)
    assert boris.locator('.chat__line:has-text("thanks") [data-chat-delete]').count() == 1  # his own line

    # The session page and the leaderboard show the same nets.
    boris.goto(session_url)
    for name, net in expected.items():
        row = boris.locator(f"tr[data-player='{name}']")
        assert _number(row.locator("[data-net]").inner_text()) == net
    assert boris.locator(".tag--live").count() == 1
    _standings_fit(boris, phone=False)
    screenshot(boris, "desktop-session")
    boris.goto(club_url + "leaderboard/?period=month")
    for name, net in expected.items():
        assert _number(boris.locator(f"tr[data-player='{name}'] [data-net]").inner_text()) == net
    # The period switch swaps the board in place (htmx) and keeps the same all-time numbers here.
    boris.click(".periods a:has-text('All time')")
    boris.wait_for_selector(".periods a[aria-current]:has-text('All time')")
    for name, net in expected.items():
        assert _number(boris.locator(f"tr[data-player='{name}'] [data-net]").inner_text()) == net
    screenshot(boris, "desktop-leaderboard")
    boris.goto(club_url + "ledger/")
    assert "chips for the night" in boris.inner_text("main")
    screenshot(boris, "desktop-ledger")
    boris.goto(base + "/clubs/")
    screenshot(boris, "desktop-my-clubs")
    owner.goto(club_url)
    screenshot(owner, "phone-club-home")
    _no_sideways_scroll(owner)
    # Following the links (htmx swaps the body and pushes the address) keeps the pages styled.
    owner.goto(base + "/lobby/")
    owner.click(".mainnav a:has-text('Clubs')")
    owner.wait_for_url(base + "/clubs/")
    owner.click(".clubcard__name")
    owner.wait_for_url(club_url)
    assert owner.evaluate("getComputedStyle(document.querySelector('.clubtabs')).flexWrap") == "wrap"
    owner.click(".clubtabs a:has-text('Members')")
    owner.wait_for_url(club_url + "members/")
    assert owner.locator(".memberrow").count() == 2

    # A member's websocket opens; a non-member gets a 404 page and a refused websocket.
    ws_url = base.replace("http", "ws", 1) + table_url[len(base):].replace("/tables/", "/ws/tables/")
    member_probe = boris.evaluate(WS_PROBE, ws_url)
    assert member_probe["seen"][:2] == ["open", "state"]
    nina = _context(browser, DESKTOP, base).new_page()
    nina.goto(base + "/accounts/signup/")
    _sign_up(nina, nina_name)
    response = nina.goto(table_url)
    assert response is not None and response.status == 404
    probe = nina.evaluate(WS_PROBE, ws_url)
    assert probe["code"] != -1 and "open" not in probe["seen"] and "state" not in probe["seen"]
    assert nina.goto(club_url + "members/").status == 404
    assert nina.goto(session_url).status == 404
    nina.goto(club_url)  # the front page: the club's name and "Ask to join", nothing else
    assert "Kitchen" not in nina.inner_text("main")
    screenshot(nina, "desktop-outsider-club-page")

    # The host ends the session; its page then offers the results as text for the group's chat,
    # and "Copy" puts that text on the clipboard.
    owner.goto(session_url)
    # It asks first: dismissed, nothing ends; accepted, the session ends.
    asked: list[str] = []
    owner.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    owner.click("main button:has-text('End the session')")
    owner.wait_for_timeout(500)
    assert asked == ["End the session now? Its results are then final."]
    assert owner.locator(".tag--live").count() == 1
    owner.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    with owner.expect_navigation():
        owner.click("main button:has-text('End the session')")
    assert len(asked) == 2
    owner.goto(session_url)
    assert owner.locator(".tag--live").count() == 0
    owner.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    owner.click(".sharebox summary")
    owner.click(".sharebox [data-copy]")
    owner.wait_for_selector(".sharebox [data-copy]:has-text('Copied')", timeout=5_000)
    copied = owner.evaluate("navigator.clipboard.readText()")
    assert copied == owner.locator("[data-share-text]").input_value()
    for name, net in expected.items():
        assert f"{name} {'+' if net > 0 else ''}{net:,}" in copied
    screenshot(owner, "phone-session-ended-share")
    _standings_fit(owner, phone=True)
    owner.goto(club_url + "leaderboard/?period=all")
    _standings_fit(owner, phone=True)
    screenshot(owner, "phone-leaderboard")
    # The ledger (a host's view has five columns): every entry's cells on screen, none sideways.
    owner.goto(club_url + "ledger/")
    fit = owner.evaluate("""() => { const wrap = document.querySelector('.statement-wrap'),
        cells = [...wrap.querySelectorAll('tbody td')];
        return [wrap.scrollWidth - wrap.clientWidth, cells.length, cells.filter(c => { const r = c.getBoundingClientRect();
                return r.width === 0 || r.left < 0 || r.right > window.innerWidth; }).length]; }""")
    assert fit[0] <= 0 and fit[1] >= 10 and fit[2] == 0, fit
    screenshot(owner, "phone-ledger")

    # The same pages in Hebrew, right to left, on a phone.
    he = _context(browser, PHONE, base, lang="he")
    he.add_cookies(owner.context.cookies())
    he.add_cookies([{"name": "lang", "value": "he", "url": base}])
    he_page = he.new_page()
    for path, name in ((club_url, "club-home"), (session_url, "session"), (club_url + "members/", "members"),
                       (club_url + "invites/", "invites"), (table_url, "table")):
        he_page.goto(path)
        assert he_page.get_attribute("html", "dir") == "rtl"
        screenshot(he_page, f"phone-he-{name}")
        _no_sideways_scroll(he_page)
        if name == "session":
            _standings_fit(he_page, phone=True)
    # The owner removes Boris while his table page is open: the page stops following the table
    # (no endless "Reconnecting…", no live-looking buttons) and says where to go; the invite
    # link no longer lets him back in.
    boris.goto(table_url)
    boris.wait_for_selector("#table-root .felt")
    owner.goto(club_url + "members/")
    boris_row = owner.locator(f".memberrow[data-member='{boris_name.capitalize()}']")
    boris_row.locator("summary").click()
    owner.once("dialog", lambda d: d.accept())
    with owner.expect_navigation():
        boris_row.locator("button:has-text('Remove from the club')").click()
    assert "come back only if a host says yes" in owner.inner_text(".messages")
    ended = boris.wait_for_selector(".table-ended", timeout=15_000)
    assert "no longer a member" in ended.inner_text()
    assert ended.query_selector("a").get_attribute("href") == club_url[len(base):]
    boris.wait_for_timeout(3000)
    assert "offline" not in (boris.get_attribute("#table-app", "class") or "")
    assert boris.evaluate("[...document.querySelectorAll('#table-app button')].every(b => b.disabled)")
    assert boris.locator("#host-panel").count() == 0  # nothing asks the server for host controls any more
    screenshot(boris, "desktop-removed-from-the-club")
    boris.goto(invite_link)
    assert "removed you from this club" in boris.inner_text("main")
    assert boris.locator("main form button[type=submit]").count() == 0
    # A long name with no space (an e-mail address as a name) wraps on a phone: the members page
    # and the club's page keep to the screen's width (found by an audit: 748 px on 390).
    owner.goto(base + "/accounts/me/name/")
    owner.fill("input[name=display_name]", f"olga.{tag}.petrovna.kuznetsova@example.org"[:40])
    with owner.expect_navigation():
        owner.click("main form button[type=submit]")
    for path in (club_url + "members/", club_url):
        owner.goto(path)
        _no_sideways_scroll(owner)
    for page in (owner, boris, nina, he_page):
        page.context.close()

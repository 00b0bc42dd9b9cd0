"""Blinds on a clock (tables.levels): a host starts it, the blinds in play are level 1, and the
first hand dealt after a level's time is up plays the next level's blinds (a hand being played
keeps its own). Pausing the table stops the clock; stopping it keeps the blinds. Only hosts,
never at Baseball or with a bad pace; a hand-set change of blinds waits until the clock stops."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from tables import hosting, levels, selectors, services
from tables.fragment import render_table
from tables.models import LIVE_GAMES, Hand, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, play_passively, seated_table
from tests.tables.test_host_terms import _blinds_posted, _next_deal, _private

pytestmark = pytest.mark.django_db


def _time_up(table: Table, ago: dt.timedelta = dt.timedelta(seconds=1)) -> dt.datetime:
    """The level's time ran out ``ago``; returns the moment it did."""
    ends = timezone.now() - ago
    Table.objects.filter(pk=table.pk).update(level_ends_at=ends)
    table.refresh_from_db()
    return ends


def _html(table: Table, viewer: Any = None) -> str:
    return str(render_table(selectors.table_context(table_id=table.id, user=viewer)))


def test_the_next_level_is_dealt_after_its_time_and_a_hand_keeps_its_own_blinds() -> None:
    table, host, friend = _private()
    assert hosting.table_host_levels(table_id=table.id, by=host, minutes=10) == "started"
    table.refresh_from_db()
    # Started on a paused table: the clock waits with its ten minutes.
    assert (table.level, table.level_minutes, table.level_ends_at, table.level_left_s) == (1, 10, None, 600)
    assert (table.level_base_small, table.level_base_big) == (5, 10)
    before = timezone.now()
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    assert table.level_left_s is None
    assert before + dt.timedelta(minutes=10) <= table.level_ends_at <= timezone.now() + dt.timedelta(minutes=10)
    hand, _state = current_state(table)
    assert _blinds_posted(hand) == [5, 10]
    html = _html(table, friend)
    assert 'class="muted levels"' in html and "Level 1 · blinds 5/10 · <span" in html and "next: blinds 8/15 in" in html
    assert f'data-level-ends="{int(table.level_ends_at.timestamp())}"' in html
    # Time is up during the hand: this hand keeps 5/10; the next is dealt at 8/15.
    ends = _time_up(table)
    play_passively(table)
    table.refresh_from_db()
    assert (table.small_blind, table.big_blind, table.level) == (5, 10, 1)
    nxt = _next_deal(table)
    assert _blinds_posted(nxt) == [8, 15]
    table.refresh_from_db()
    assert (table.small_blind, table.big_blind, table.level) == (8, 15, 2)
    assert table.level_ends_at == ends + dt.timedelta(minutes=10)  # the clock keeps its rhythm
    assert "Level 2 · blinds 8/15" in _html(table, host) and "next: blinds 10/20" in _html(table, host)


def test_a_table_left_idle_goes_up_as_many_levels_as_the_clock_ran() -> None:
    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=5)
    services.table_resume(table_id=table.id)
    _time_up(table, dt.timedelta(minutes=11))  # the level ended 11 minutes ago: three levels on
    play_passively(table)
    nxt = _next_deal(table)
    table.refresh_from_db()
    assert table.level == 4 and _blinds_posted(nxt) == [15, 30]


def test_pausing_stops_the_clock_and_resuming_goes_on_from_there() -> None:
    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=10)
    services.table_resume(table_id=table.id)
    Table.objects.filter(pk=table.pk).update(level_ends_at=timezone.now() + dt.timedelta(seconds=185))
    services.table_pause(table_id=table.id, now=True)
    table.refresh_from_db()
    assert table.level_ends_at is None and 183 <= table.level_left_s <= 185
    html = _html(table)
    assert "once play resumes" in html and "3:0" in html  # 3:04 or 3:05 left, standing
    before = timezone.now()
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    left = (table.level_ends_at - before).total_seconds()
    assert 182 <= left <= 186 and table.level_left_s is None
    # "Pause after this hand": the clock runs until the hand ends, then stops.
    hand = Hand.objects.filter(table=table, ended__isnull=True).first()
    if hand is None:
        services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(minutes=1))
    services.table_pause(table_id=table.id)
    table.refresh_from_db()
    assert table.level_ends_at is not None and table.status == "open"
    play_passively(table)
    table.refresh_from_db()
    assert table.status == "paused" and table.level_ends_at is None and table.level_left_s > 0


def test_stopping_keeps_the_blinds_and_hand_set_blinds_wait_for_the_clock_to_stop() -> None:
    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=15)
    _time_up(table)
    Table.objects.filter(pk=table.pk).update(level_ends_at=None, level_left_s=0)  # paused with none left
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    assert (table.small_blind, table.big_blind, table.level) == (8, 15, 2)
    with pytest.raises(TableError, match="on a clock"):
        hosting.table_host_terms(table_id=table.id, by=host, small_blind=50, big_blind=100)
    assert hosting.table_host_terms(table_id=table.id, by=host, small_blind=8, big_blind=15, speed="fast") in ("now", "next")
    assert hosting.table_host_levels(table_id=table.id, by=host, minutes=30) == "changed"
    table.refresh_from_db()
    assert table.level_minutes == 30 and table.level == 2
    assert hosting.table_host_levels(table_id=table.id, by=host, minutes=0) == "stopped"
    table.refresh_from_db()
    assert (table.level, table.level_ends_at, table.small_blind, table.big_blind) == (0, None, 8, 15)
    assert "Level" not in _html(table, host)
    with pytest.raises(TableError, match="not on a clock"):
        hosting.table_host_levels(table_id=table.id, by=host, minutes=0)
    hosting.table_host_terms(table_id=table.id, by=host, small_blind=50, big_blind=100)


def test_a_change_of_stakes_waiting_for_the_hand_is_level_one() -> None:
    table, host, _friend = _private()
    services.table_resume(table_id=table.id)
    assert hosting.table_host_terms(table_id=table.id, by=host, small_blind=10, big_blind=20) == "next"
    hosting.table_host_levels(table_id=table.id, by=host, minutes=20)
    table.refresh_from_db()
    assert (table.level_base_small, table.level_base_big) == (10, 20)
    assert "next: blinds 15/30" in _html(table, host)


@pytest.mark.parametrize("minutes", [7, -1, 1000, "10", True, 10.0, None])
def test_a_bad_pace_is_refused_and_changes_nothing(minutes: Any) -> None:
    table, host, _friend = _private()
    version = table.version
    with pytest.raises(TableError, match="how often"):
        hosting.table_host_levels(table_id=table.id, by=host, minutes=minutes)
    table.refresh_from_db()
    assert (table.version, table.level, table.level_minutes) == (version, 0, 0)


def test_only_hosts_start_the_clock_and_never_at_baseball() -> None:
    table, _host, friend = _private()
    with pytest.raises(TableError):
        hosting.table_host_levels(table_id=table.id, by=friend, minutes=10)
    public, users = seated_table(n=2)
    with pytest.raises(TableError):
        hosting.table_host_levels(table_id=public.id, by=users[0], minutes=10)
    bb_host = make_user("bb-levels-host")
    bb = services.table_create(creator=bb_host, name="Baseball", small_blind=5, big_blind=10, max_seats=3,
                               is_public=False, game="BB")
    with pytest.raises(TableError, match="units"):
        hosting.table_host_levels(table_id=bb.id, by=bb_host, minutes=10)
    table.refresh_from_db()
    assert table.level == 0


def test_the_host_panel_starts_and_stops_the_clock() -> None:
    table, host, friend = _private()
    c = Client()
    c.force_login(host)
    page = c.get(f"/tables/{table.id}/").content.decode()
    assert f'action="/tables/{table.id}/host/levels/"' in page and "Start the clock" in page
    res = c.post(f"/tables/{table.id}/host/levels/", {"minutes": "15"}, follow=True)
    assert "every 15 minutes" in res.content.decode()
    table.refresh_from_db()
    assert table.level == 1 and table.level_minutes == 15
    for odd in ("fifteen", "²", "1²"):
        res = c.post(f"/tables/{table.id}/host/levels/", {"minutes": odd}, follow=True)
        assert res.status_code == 200 and "how often" in res.content.decode()
    table.refresh_from_db()
    assert table.level_minutes == 15
    assert re.search(r'<option value="15" selected>', c.get(f"/tables/{table.id}/").content.decode())
    other = Client()
    other.force_login(friend)
    other.post(f"/tables/{table.id}/host/levels/", {"minutes": "0"})
    table.refresh_from_db()
    assert table.level == 1  # not their table to host
    c.post(f"/tables/{table.id}/host/levels/", {"minutes": "0"})
    table.refresh_from_db()
    assert table.level == 0 and (table.small_blind, table.big_blind) == (5, 10)


def test_the_level_line_is_in_every_language() -> None:
    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=10)
    services.table_resume(table_id=table.id)
    for lang in ("he", "ru"):
        with translation.override(lang):
            html = _html(table, host)
            line = html.split('class="muted levels"', 1)[1].split(">", 1)[1].split("</p>", 1)[0]
            assert "Level" not in line and "next:" not in line and "8/15" in line and "all levels" not in line
            up = re.search(r'data-level-up="([^"]*)"', html)
            assert up and "Blinds up" not in up.group(1) and "5/10" in up.group(1)


def test_levels_go_no_higher_than_the_last() -> None:
    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=5)
    services.table_resume(table_id=table.id)
    _time_up(table, dt.timedelta(days=2))
    play_passively(table)
    nxt = _next_deal(table)
    table.refresh_from_db()
    assert table.level == levels.LAST_LEVEL
    nxt.refresh_from_db()
    assert nxt.state["setup"]["big_blind"] == levels.blinds_at(levels.LAST_LEVEL, 5, 10)[1] == 5000
    # Both stacks are under the big blind: dealt in all the same, all-in, as in a tournament.
    assert all(0 < int(p[2]) < 5000 for p in nxt.players)
    assert "the last level" in _html(table, host)


@pytest.mark.parametrize("game", sorted(LIVE_GAMES - {"BB"}))
def test_short_stacks_are_dealt_in_all_in_at_every_game(game: str) -> None:
    """With the blinds on a clock a stack smaller than the blinds (or the ante, the bring-in) is
    dealt in and plays for what it has; the chips add up."""
    from tables.models import Seat

    table, users = seated_table(n=3, game=game, buy_in=1000, small_blind=10, big_blind=20)
    services.table_pause(table_id=table.id, now=True)
    play_passively(table)
    Table.objects.filter(pk=table.pk).update(level=1, level_minutes=60, level_base_small=10, level_base_big=20,
                                             level_ends_at=timezone.now() + dt.timedelta(hours=1))
    seats = list(Seat.objects.filter(table=table).order_by("seat_no"))
    before = sum(s.stack for s in seats)
    # Two players left with less than a big blind: chips moved to the third (the total kept).
    Seat.objects.filter(pk=seats[0].pk).update(stack=3)
    Seat.objects.filter(pk=seats[1].pk).update(stack=7)
    Seat.objects.filter(pk=seats[2].pk).update(stack=before - 10)
    services.table_resume(table_id=table.id)
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(minutes=1))  # the pause after the hand
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None and hand.number == 2 and hand.ended is None, "a hand is dealt to the short stacks"
    assert sorted(int(p[2]) for p in hand.players) == sorted([3, 7, before - 10])
    done = play_passively(table)
    rake = int(done.result.get("rake", 0)) if done.result else 0
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) + rake == before


def test_the_levels_modules_examples_hold() -> None:
    import doctest

    assert doctest.testmod(levels).failed == 0
    assert doctest.testmod(levels).attempted >= 2


def test_the_lobby_and_the_clubs_page_say_the_blinds_rise() -> None:
    from tests.club.helpers import club_with_people

    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=15)
    c = Client()
    c.force_login(host)
    assert "level 1, blinds up every 15 minutes" in c.get("/lobby/").content.decode()
    p = club_with_people("lv")
    club_table = services.table_create(creator=p.host, name="Back room", small_blind=100, big_blind=200,
                                       max_seats=3, club=p.club)
    club = Client()
    club.force_login(p.member)
    assert "blinds up every" not in club.get(f"/clubs/{p.club.pk}/").content.decode()
    hosting.table_host_levels(table_id=club_table.id, by=p.host, minutes=20)
    assert "level 1, blinds up every 20 minutes" in club.get(f"/clubs/{p.club.pk}/").content.decode()


def test_the_clock_waits_for_players_and_starts_with_the_first_deal() -> None:
    host, friend = make_user("wait-host"), make_user("wait-friend")
    table = services.table_create(creator=host, name="Early", small_blind=5, big_blind=10, max_seats=3, is_public=False)
    services.table_take_seat(table_id=table.id, user=host, buy_in=1000)
    assert hosting.table_host_levels(table_id=table.id, by=host, minutes=10) == "started"
    table.refresh_from_db()
    assert (table.level_ends_at, table.level_left_s) == (None, 600)  # nobody to deal to yet
    assert "once play resumes" in _html(table, host)
    services.table_take_seat(table_id=table.id, user=friend, buy_in=1000)
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(seconds=30))  # the first deal
    table.refresh_from_db()
    assert Hand.objects.filter(table=table).exists()
    assert table.level_left_s is None
    assert timezone.now() + dt.timedelta(seconds=590) < table.level_ends_at <= timezone.now() + dt.timedelta(seconds=600)
    # The friend leaves during the hand: once it ends there is nobody to deal to, and the clock waits.
    services.table_leave_seat(table_id=table.id, user=friend)
    play_passively(table)
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(minutes=1))
    table.refresh_from_db()
    assert table.level_ends_at is None and 0 < table.level_left_s <= 600 and table.level == 1


def _levels_page(client: Client, table: Table) -> str:
    res = client.get(f"/tables/{table.id}/levels/")
    assert res.status_code == 200
    return res.content.decode()


def _rows(page: str) -> dict[int, str]:
    return {int(n): row for n, row in re.findall(r'<tr data-level="(\d+)"(.*?)</tr>', page, re.S)}


def test_the_level_line_links_the_whole_ladder_and_carries_what_a_rise_says() -> None:
    table, host, friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=10)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    html = _html(table, friend)
    assert f'<a class="levels__all" href="/tables/{table.id}/levels/">all levels</a>' in html
    assert 'data-level="1" data-level-up="Blinds up: level 1, blinds 5/10"' in html
    _time_up(table)
    play_passively(table)
    _next_deal(table)
    table.refresh_from_db()
    assert 'data-level="2" data-level-up="Blinds up: level 2, blinds 8/15"' in _html(table, friend)
    table.level = 0
    assert "levels__all" not in str(render_table({"table": table}))


def test_the_whole_ladder_says_each_levels_blinds_and_when_it_starts() -> None:
    table, host, friend = _private()
    c = Client()
    c.force_login(friend)
    page = _levels_page(c, table)
    assert "not on a clock" in page and "<tr data-level" not in page
    hosting.table_host_levels(table_id=table.id, by=host, minutes=10)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    page = _levels_page(c, table)
    rows = _rows(page)
    assert list(rows) == list(range(1, levels.LAST_LEVEL + 1))
    assert "every 10 minutes" in page and "paused" not in page
    assert 'aria-current="true"' in rows[1] and "5/10" in rows[1] and "now" in rows[1]
    assert "8/15" in rows[2] and "(in 10 minutes)" in rows[2]
    assert "10/20" in rows[3] and "(in 20 minutes)" in rows[3]
    assert "2500/5000" in rows[levels.LAST_LEVEL]
    ends = table.level_ends_at
    assert f'<time datetime="{timezone.localtime(ends).isoformat()}"' in rows[2]
    # The level rises with the next deal: level 1 was played, level 2 is now.
    _time_up(table)
    play_passively(table)
    _next_deal(table)
    rows = _rows(_levels_page(c, table))
    assert "played" in rows[1] and 'class="muted"' in rows[1]
    assert 'aria-current="true"' in rows[2] and "(in 10 minutes)" in rows[3]
    # Paused: the clock stands, so only the minutes of play are known.
    services.table_pause(table_id=table.id, now=True)
    page = _levels_page(c, table)
    rows = _rows(page)
    assert "the clock stands until play resumes" in page
    assert "minutes of play from now" in rows[3] and "<time" not in rows[3]


def test_the_ladder_is_for_whoever_may_watch_the_table_and_in_every_language() -> None:
    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=15)
    assert Client().get(f"/tables/{table.id}/levels/").status_code == 404
    stranger = Client()
    stranger.force_login(make_user("levels-stranger"))
    assert stranger.get(f"/tables/{table.id}/levels/").status_code == 404
    assert stranger.get("/tables/999999/levels/").status_code == 404
    c = Client()
    c.force_login(host)
    for lang, words in (("he", "שלבי הבליינדים"), ("ru", "Уровни блайндов")):
        c.cookies["lang"] = lang
        page = _levels_page(c, table)
        assert words in page and "Blind levels" not in page and "minutes of play" not in page


def test_the_ladder_stops_at_the_largest_blind_and_marks_a_freeze_outs_late_entry() -> None:
    import types

    row = types.SimpleNamespace(level=3, level_minutes=20, level_base_small=50_000, level_base_big=100_000,
                                level_ends_at=None, level_left_s=300)
    ladder = levels.schedule(row)
    assert [r["big"] for r in ladder][-2:] == [1_500_000, 2_000_000]
    assert len(ladder) == 12 < levels.LAST_LEVEL
    assert [r["starts_in_s"] for r in ladder[2:5]] == [None, 300, 300 + 1200]
    assert [(r["past"], r["now"]) for r in ladder[:3]] == [(True, False), (True, False), (False, True)]
    table, host, _friend = _private()
    hosting.table_host_levels(table_id=table.id, by=host, minutes=15)
    Table.objects.filter(pk=table.pk).update(freezeout={"on": True, "late": 2, "entrants": []})
    c = Client()
    c.force_login(host)
    page = _levels_page(c, table)
    assert "late entry and re-entry through level 2" in page
    assert "last level of late entry" in _rows(page)[2] and "last level of late entry" not in _rows(page)[1]

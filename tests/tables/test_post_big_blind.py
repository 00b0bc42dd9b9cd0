"""GAMES.md section 3: a player joining a running blind game (Hold'em, Omaha, draw) "posts a big
blind to be dealt in at once, or waits until the big blind reaches their seat". Waiting is the
default; a waiting player may choose to post instead. The post is live, made from any seat but
the small blind's (there the player waits for the button to pass), and a post that lands on the
big blind's own seat is just the big blind."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules_engine.notation import replay_phh
from tables import selectors, services
from tables.fragment import render_table
from tables.models import Hand, Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, play_passively, seated_table

pytestmark = pytest.mark.django_db


def _next_deal(table: Table) -> None:
    finished = Hand.objects.filter(table=table).order_by("-number").first()
    assert finished is not None and finished.ended is not None and finished.deadline is not None
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()


def _dealt(table: Table) -> list[int]:
    hand, _state = current_state(table)
    return [p[0] for p in hand.players]


def _blinds(table: Table) -> tuple[int, int, int]:
    hand, state = current_state(table)
    seat_of = [p[0] for p in hand.players]
    return seat_of[state.button], seat_of[state.small_blind_seat], seat_of[state.big_blind_seat]


def _say(table: Table, user: Any, action: str) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": action, "version": table.version})


def _html(table: Table, user: Any) -> str:
    return str(render_table(selectors.table_context(table_id=table.id, user=user)))


def state_after(hand: Hand) -> Any:
    from rules_engine.games import get_variant

    return get_variant(hand.table.game).from_json(hand.state)


def _hand_page_and_phh(table: Table, user: Any, hand: Hand) -> tuple[str, str]:
    """A finished hand's page and its PHH download, as a seated player gets them."""
    client = Client()
    client.force_login(user)
    page = client.get(reverse("hand_history", args=[table.id, hand.number])).content.decode()
    phh = client.get(reverse("hand_history_phh", args=[table.id, hand.number])).content.decode()
    return page, phh


def _chips(table: Table) -> int:
    return sum(int(s.stack) for s in Seat.objects.filter(table=table))


@pytest.mark.parametrize("game", ["NT", "PO", "F5D"])
def test_a_newcomer_who_posts_comes_in_on_the_next_hand_that_is_not_their_small_blind(game: str) -> None:
    table, users = seated_table(n=3, game=game, max_seats=6)
    play_passively(table)
    _next_deal(table)
    assert _blinds(table)[0] == 1
    newcomer = make_user(f"poster{table.id}")
    services.table_take_seat(table_id=table.id, user=newcomer, buy_in=1000, seat_no=3)
    seat = Seat.objects.get(table=table, user=newcomer)
    assert seat.wait_bb and not seat.post_bb
    assert "Post a big blind to play now" in _html(table, newcomer)
    _say(table, newcomer, "post_bb")
    seat.refresh_from_db()
    assert seat.post_bb
    html = _html(table, newcomer)
    assert "Wait for the big blind instead" in html and "Post a big blind to play now" not in html
    assert "posts a big blind to come in" in _html(table, None)

    # With the button on seat 2 the newcomer's seat would be the small blind: it waits.
    play_passively(table)
    _next_deal(table)
    assert _blinds(table) == (2, 0, 1) and _dealt(table) == [0, 1, 2]
    seat.refresh_from_db()
    assert seat.wait_bb and seat.post_bb

    # With the button on seat 0 the blinds are seats 1 and 2: it comes in with a live big blind.
    play_passively(table)
    before = _chips(table)
    _next_deal(table)
    assert _blinds(table) == (0, 1, 2) and _dealt(table) == [0, 1, 2, 3]
    hand, state = current_state(table)
    assert state.setup.posts == (3,)
    assert state._bet.bets == [0, 5, 10, 10]
    assert [(e.kind, e.seat, e.amount) for e in state.start_events if e.kind == "post"] == [("post", 3, 10)]
    seat.refresh_from_db()
    assert not seat.wait_bb and not seat.post_bb
    # The post is live: when everyone calls, the newcomer checks rather than pays again.
    play_passively(table)
    hand.refresh_from_db()
    log = hand.state["log"]
    assert {"seat": 3, "kind": "check"} in log[:4]
    assert _chips(table) == before
    # The hand's page tells it, and its PHH file holds it as a third forced bet, negative as
    # PokerKit reads a live post (p1 is left of the button: seats 1, 2, 3), and reads back.
    page, phh = _hand_page_and_phh(table, users[0], hand)
    assert "posts a big blind 10 to come in" in page
    assert "blinds_or_straddles = [5, 10, -10, 0]" in phh
    replayed = replay_phh(phh)
    assert replayed.setup.posts == (3,) and list(replayed.stacks) == list(state_after(hand).stacks)
    # From then on an ordinary player: dealt in every hand, the blinds in turn.
    _next_deal(table)
    assert _dealt(table) == [0, 1, 2, 3] and _blinds(table) == (1, 2, 3)
    assert current_state(table)[1].setup.posts == ()


def test_a_post_on_the_big_blinds_own_seat_is_just_the_big_blind() -> None:
    table, users = seated_table(n=3, game="NT", max_seats=6)
    newcomer = make_user(f"bbpost{table.id}")
    services.table_take_seat(table_id=table.id, user=newcomer, buy_in=1000, seat_no=3)
    _say(table, newcomer, "post_bb")
    play_passively(table)
    _next_deal(table)  # the button moves to seat 1: seat 3 is the big blind
    assert _blinds(table) == (1, 2, 3)
    assert current_state(table)[1].setup.posts == ()


def test_changing_ones_mind_and_refusals() -> None:
    table, users = seated_table(n=3, game="NT", max_seats=6)
    newcomer = make_user(f"mind{table.id}")
    services.table_take_seat(table_id=table.id, user=newcomer, buy_in=1000, seat_no=4)
    _say(table, newcomer, "post_bb")
    _say(table, newcomer, "wait_bb")
    seat = Seat.objects.get(table=table, user=newcomer)
    assert seat.wait_bb and not seat.post_bb
    assert "Post a big blind to play now" in _html(table, newcomer)
    # A player already dealt in has no big blind to post; nothing changes, not even the version.
    table.refresh_from_db()
    version = table.version
    with pytest.raises(TableError):
        services.table_act(table_id=table.id, user=users[0], message={"action": "post_bb", "version": version})
    table.refresh_from_db()
    assert table.version == version
    assert not Seat.objects.get(table=table, user=users[0]).post_bb
    # Where posting cannot bring anyone in sooner (three players: a newcomer is always the
    # button, a blind or the big blind), it is not offered: two others at a six-seat table...
    small, small_users = seated_table(n=2, game="NT", max_seats=6)
    third = make_user(f"third{small.id}")
    services.table_take_seat(table_id=small.id, user=third, buy_in=1000, seat_no=3)
    assert Seat.objects.get(table=small, user=third).wait_bb
    assert "Post a big blind" not in _html(small, third)
    # ... until a third other sits down (waiting for the big blind too: it comes in as well).
    fourth = make_user(f"fourth{small.id}")
    services.table_take_seat(table_id=small.id, user=fourth, buy_in=1000, seat_no=5)
    assert "Post a big blind to play now" in _html(small, third)
    # A break takes a seat out of the count.
    _say(small, fourth, "sit_out")
    assert "Post a big blind" not in _html(small, third)


def _sit_out_now(table: Table, user: Any) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": "sit_out", "version": table.version})


def test_a_break_that_passed_only_the_small_blind_pays_it_dead_on_return() -> None:
    """Card rooms: a player whose small blind passed during a break posts it dead when dealt in
    again (it is no part of their bet), unless that hand's blinds are their own."""
    table, users = seated_table(n=4, game="NT", max_seats=6)
    by_seat = {s.seat_no: s.user for s in Seat.objects.filter(table=table)}
    assert _blinds(table) == (0, 1, 2)
    play_passively(table)
    _sit_out_now(table, by_seat[2])  # the big blind of hand 1
    _next_deal(table)  # button seat 1: with seat 2 in, the small blind would be seat 2's
    assert _dealt(table) == [0, 1, 3] and _blinds(table) == (1, 3, 0)
    seat = Seat.objects.get(table=table, seat_no=2)
    assert seat.missed_sb and not seat.wait_bb and not seat.missed_bb
    _say(table, by_seat[2], "im_back")
    play_passively(table)
    before = _chips(table)
    # The button moves on to seat 2: the blinds are seats 3 and 0, and seat 2 pays 5 dead.
    _next_deal(table)
    assert _dealt(table) == [0, 1, 2, 3] and _blinds(table) == (2, 3, 0)
    hand, state = current_state(table)
    assert state.setup.dead == (2,) and state.setup.posts == ()
    assert state._bet.bets == [10, 0, 0, 5]  # the dead chips are no part of seat 2's bet
    assert [(e.kind, e.seat, e.amount) for e in state.start_events if e.kind == "dead"] == [("dead", 2, 5)]
    seat.refresh_from_db()
    assert not seat.missed_sb
    play_passively(table)
    assert _chips(table) == before
    page, phh = _hand_page_and_phh(table, users[0], hand)
    assert "dead small blind 5, owed for one missed" in page
    assert "antes = [0, 0, 0, 5]" in phh  # p1 is seat 3 (left of the button): seat 2 is p4
    assert replay_phh(phh).setup.dead == (2,)
    # Paid once: the next hand deals it in as anyone.
    _next_deal(table)
    assert current_state(table)[1].setup.dead == ()


def test_a_break_that_passed_both_blinds_posts_both_or_waits() -> None:
    table, users = seated_table(n=4, game="NT", max_seats=6)
    by_seat = {s.seat_no: s.user for s in Seat.objects.filter(table=table)}
    play_passively(table)
    _sit_out_now(table, by_seat[3])
    _next_deal(table)  # button seat 1: the big blind would have been seat 3's
    seat = Seat.objects.get(table=table, seat_no=3)
    assert seat.wait_bb and seat.missed_bb and not seat.missed_sb
    play_passively(table)
    _next_deal(table)  # button seat 2: and now the small blind
    seat.refresh_from_db()
    assert seat.missed_sb
    _say(table, by_seat[3], "im_back")
    html = _html(table, by_seat[3])
    assert "Post the blinds you missed to play now" in html
    _say(table, by_seat[3], "post_bb")
    play_passively(table)
    before = _chips(table)
    _next_deal(table)  # button seat 0: blinds seats 1 and 2; seat 3 posts 10 live and 5 dead
    assert _dealt(table) == [0, 1, 2, 3] and _blinds(table) == (0, 1, 2)
    hand, state = current_state(table)
    assert state.setup.posts == (3,) and state.setup.dead == (3,)
    assert state._bet.bets == [0, 5, 10, 10]
    seat.refresh_from_db()
    assert not (seat.wait_bb or seat.missed_bb or seat.missed_sb or seat.post_bb)
    play_passively(table)
    assert _chips(table) == before


def test_a_player_back_on_their_big_blind_owes_nothing_more() -> None:
    table, users = seated_table(n=4, game="NT", max_seats=6)
    by_seat = {s.seat_no: s.user for s in Seat.objects.filter(table=table)}
    play_passively(table)
    _sit_out_now(table, by_seat[3])
    for _ in range(2):  # its big blind, then its small blind, go by
        _next_deal(table)
        play_passively(table)
    seat = Seat.objects.get(table=table, seat_no=3)
    assert seat.missed_bb and seat.missed_sb
    _say(table, by_seat[3], "im_back")
    for _ in range(4):
        _next_deal(table)
        if 3 in _dealt(table):
            break
        play_passively(table)
    assert _blinds(table)[2] == 3
    assert current_state(table)[1].setup.dead == ()
    seat.refresh_from_db()
    assert not (seat.wait_bb or seat.missed_bb or seat.missed_sb)

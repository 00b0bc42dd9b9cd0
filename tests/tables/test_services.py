"""Table services on the real database: seats, versions, hands, timers, and the ledger."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db.models import Sum
from django.utils import timezone

from club.models import LedgerEntry, Profile
from tables import services
from tables.models import Hand, Seat, Table
from tests.tables.helpers import (
    current_state,
    make_user,
    play_passively,
    seated_table,
    user_for_index,
)

pytestmark = pytest.mark.django_db


def _total_chips() -> int:
    bankrolls = Profile.objects.aggregate(s=Sum("bankroll"))["s"] or 0
    stacks = Seat.objects.aggregate(s=Sum("stack"))["s"] or 0
    rake = LedgerEntry.objects.filter(kind=LedgerEntry.Kind.RAKE).aggregate(s=Sum("amount"))["s"] or 0
    # Chips in a hand being played are still counted in the stacks at its start.
    return bankrolls + stacks + rake


def _granted() -> int:
    kinds = [LedgerEntry.Kind.GRANT, LedgerEntry.Kind.TOP_UP]
    return LedgerEntry.objects.filter(kind__in=kinds).aggregate(s=Sum("amount"))["s"] or 0


def test_public_table_must_use_the_ladder() -> None:
    with pytest.raises(services.TableError):
        services.table_create(creator=None, name="x", small_blind=7, big_blind=14)
    t = services.table_create(creator=None, name="x", small_blind=7, big_blind=14, is_public=False)
    assert t.stakes == "7-14"


def test_a_patch_patch_table_seats_two_or_three() -> None:
    with pytest.raises(services.TableError):
        services.table_create(creator=None, name="x", small_blind=5, big_blind=10, max_seats=4)


def test_buy_in_limits_and_bankroll() -> None:
    table = services.table_create(creator=None, name="x", small_blind=5, big_blind=10)
    user = make_user("amy")
    for bad in (49, 1501, -5, 0):
        with pytest.raises(services.TableError):
            services.table_take_seat(table_id=table.id, user=user, buy_in=bad)
    assert not Seat.objects.filter(table=table).exists()
    assert Profile.objects.get(user=user).bankroll == 20_000
    services.table_take_seat(table_id=table.id, user=user, buy_in=1500)
    assert Profile.objects.get(user=user).bankroll == 18_500
    with pytest.raises(services.TableError):
        services.table_take_seat(table_id=table.id, user=user, buy_in=500)


def test_two_players_start_a_hand_and_button_moves() -> None:
    table, users = seated_table(n=2)
    hand, state = current_state(table)
    assert hand.number == 1
    assert state.actors()
    first_button = table.button_seat
    play_passively(table)
    table.refresh_from_db()
    assert Hand.objects.filter(table=table, ended__isnull=False).count() == 1
    # The showdown pause ends through the timer; pretend its deadline passed.
    later = timezone.now() + dt.timedelta(seconds=60)
    assert services.table_expire(table_id=table.id, now=later) is True
    table.refresh_from_db()
    assert Hand.objects.filter(table=table).count() == 2
    assert table.button_seat != first_button


def test_stale_version_is_refused_and_changes_nothing() -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    idx = state.actors()[0]
    user = user_for_index(hand, idx)
    before = (table.version, hand.state)
    with pytest.raises(services.StaleVersion):
        services.table_act(table_id=table.id, user=user, message={"action": "call", "version": table.version - 1})
    table.refresh_from_db()
    hand.refresh_from_db()
    assert (table.version, hand.state) == before


def test_out_of_turn_and_illegal_actions_change_nothing() -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    actor = state.actors()[0]
    other = next(i for i in range(3) if i != actor)
    before = (table.version, hand.state)
    with pytest.raises(ValueError):
        services.table_act(table_id=table.id, user=user_for_index(hand, other), message={"action": "call", "version": table.version})
    with pytest.raises(ValueError):
        services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "check", "version": table.version})
    for junk in ({"action": "raise_pot"}, {"action": "nonsense", "version": table.version}, {"version": table.version}):
        with pytest.raises(ValueError):
            services.table_act(table_id=table.id, user=user_for_index(hand, actor), message=junk)
    table.refresh_from_db()
    hand.refresh_from_db()
    assert (table.version, hand.state) == before


def test_decision_timeout_folds_and_puts_player_on_break() -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    actor = state.actors()[0]
    user = user_for_index(hand, actor)
    # A timer carrying an old version, or firing before the deadline, does nothing.
    assert services.table_expire(table_id=table.id, version=table.version - 1, now=timezone.now() + dt.timedelta(hours=1)) is False
    assert services.table_expire(table_id=table.id, version=table.version) is False
    assert services.table_expire(table_id=table.id, version=table.version, now=hand.deadline + dt.timedelta(seconds=1)) is True
    table.refresh_from_db()
    hand, state = current_state(table)
    view = state.view_for(None)
    assert view["players"][actor]["folded"] is True
    # Their panel says why "I'm back" is there; the others' panels do not.
    from tables import selectors

    def panel(u: object) -> str:
        return str(selectors.table_snapshot(table_id=table.id, user=u)["html"])

    assert "Your time ran out, so you are on a break from the next hand." in panel(user)
    assert 'data-action="im_back"' in panel(user)
    other = user_for_index(hand, next(i for i in range(3) if i != actor))
    assert "panel__hint--timeout" not in panel(other) and 'data-action="im_back"' not in panel(other)
    # Firing the same timer twice changes nothing the second time.
    assert services.table_expire(table_id=table.id, version=table.version - 1, now=timezone.now() + dt.timedelta(hours=1)) is False
    play_passively(table)
    seat = Seat.objects.get(table=table, user=user)
    assert seat.sitting_out is True
    services.table_act(table_id=table.id, user=user, message={"action": "im_back", "version": Table.objects.get(id=table.id).version})
    seat.refresh_from_db()
    assert seat.sitting_out is False
    assert "panel__hint--timeout" not in panel(user)


def test_a_player_away_after_a_timeout_gets_a_short_clock_for_the_rest_of_the_hand() -> None:
    """Found by an audit: after one timeout, every later decision of that player in the hand
    waited a whole clock (25 s at a medium table) while the others sat there."""
    table, users = seated_table(n=3, game="NT")

    def step(kind: str | None = None) -> tuple[Hand, Any]:
        table.refresh_from_db()
        hand, state = current_state(table)
        idx = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        choice = kind or ("check" if "check" in kinds else "call")
        services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                           message={"action": choice, "version": table.version})
        table.refresh_from_db()
        return current_state(table)

    hand, state = current_state(table)
    while state.view_for(None)["phase"] == "preflop":
        hand, state = step()
    # On the flop the first to act lets the clock run out: a check, and a break from the next hand.
    away = state.actors()[0]
    whole = services._clock_seconds("decision", table.speed)
    assert services.table_expire(table_id=table.id, version=table.version, now=hand.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    hand, state = current_state(table)
    assert away in state.breaks and not state.view_for(None)["players"][away]["folded"]
    while state.actors()[0] != away:  # the others check round to the turn, where `away` acts first
        hand, state = step()
    left = (hand.deadline - timezone.now()).total_seconds()
    assert left <= services.AWAY_DECISION_SECONDS and whole > services.AWAY_DECISION_SECONDS
    # "I'm back" gives them a whole clock, once: a break asked for and taken back adds nothing more.
    user = user_for_index(hand, away)
    services.table_act(table_id=table.id, user=user, message={"action": "im_back", "version": table.version})
    hand.refresh_from_db()
    first = hand.deadline
    assert (first - timezone.now()).total_seconds() > whole - 2
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": "sit_out", "version": table.version})
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": "im_back", "version": table.version})
    hand.refresh_from_db()
    assert hand.deadline == first
    # Back, their next decision is a whole clock again; a player who never timed out always was.
    hand, state = step()
    assert (hand.deadline - timezone.now()).total_seconds() > whole - 2


def test_sweep_applies_missed_deadlines() -> None:
    table, users = seated_table(n=2)
    hand, _ = current_state(table)
    version = table.version
    assert services.table_sweep(now=hand.deadline + dt.timedelta(seconds=1)) == 1
    table.refresh_from_db()
    assert table.version == version + 1


def test_ledger_balances_after_many_hands() -> None:
    table, users = seated_table(n=3, buy_in=300)
    start = _total_chips()
    assert start == _granted()
    for _ in range(12):
        play_passively(table)
        services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(minutes=5))
        table.refresh_from_db()
        if not Hand.objects.filter(table=table, ended__isnull=True).exists():
            break
    assert Hand.objects.filter(table=table, ended__isnull=False).count() >= 2
    assert _total_chips() == _granted()
    for u in users:
        services.table_leave_seat(table_id=table.id, user=u)
    assert Seat.objects.filter(table=table).count() == 0
    assert _total_chips() == _granted()
    # Every hand's ledger entries net to zero with the rake.
    for hand in Hand.objects.filter(table=table, ended__isnull=False):
        total = LedgerEntry.objects.filter(hand_id=hand.id).aggregate(s=Sum("amount"))["s"] or 0
        assert total == 0


def test_private_table_needs_the_invite_or_a_seat() -> None:
    from tables.selectors import can_watch

    owner = make_user("olga")
    stranger = make_user("sam")
    table = services.table_create(creator=owner, name="home", small_blind=1, big_blind=2, is_public=False, min_buy_in_bb=5)
    assert can_watch(table_id=table.id, user=owner)
    assert not can_watch(table_id=table.id, user=stranger)
    assert can_watch(table_id=table.id, user=stranger, invite_code=table.invite_code)
    assert not can_watch(table_id=table.id, user=stranger, invite_code="wrong")
    assert not can_watch(table_id=table.id, user=None)


def test_first_deal_waits_so_a_third_player_can_sit() -> None:
    table = services.table_create(creator=None, name="x", small_blind=5, big_blind=10)
    a, b, c = make_user("wa"), make_user("wb"), make_user("wc")
    services.table_take_seat(table_id=table.id, user=a, buy_in=500)
    services.table_take_seat(table_id=table.id, user=b, buy_in=500)
    table.refresh_from_db()
    assert table.next_hand_at is not None and not Hand.objects.filter(table=table).exists()
    services.table_take_seat(table_id=table.id, user=c, buy_in=500)
    # Not yet: a timer firing early does nothing. Early by the table's own clock, not the wall
    # clock's: the deal is due 4 s after the second player sat, and a CI machine that pauses
    # that long between the two lines would see the deal due and made.
    assert services.table_expire(table_id=table.id, now=table.next_hand_at - dt.timedelta(seconds=1)) is False
    assert services.table_sweep(now=table.next_hand_at + dt.timedelta(seconds=1)) == 1
    hand, state = current_state(table)
    assert len(hand.players) == 3
    table.refresh_from_db()
    assert table.next_hand_at is None


def _to_the_arrangement(table: Table) -> tuple[Any, Any]:
    """Three players call or check to the flops: the arrangement begins."""
    for _ in range(3):
        hand, state = current_state(table)
        actor = state.actors()[0]
        kind = "call" if any(la.kind == "call" for la in state.legal_actions(actor)) else "check"
        table.refresh_from_db()
        services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": kind, "version": table.version})
    hand, state = current_state(table)
    assert state.phase == "arrange"
    return hand, state


def test_players_arranging_at_once_do_not_refuse_each_other() -> None:
    table, users = seated_table(n=3)
    hand, state = _to_the_arrangement(table)
    table.refresh_from_db()
    seen = table.version  # all three look at the same picture and swap at once
    for i in range(3):
        a, b = (str(c) for c in state.hand_of(i)[:2])
        services.table_act(table_id=table.id, user=user_for_index(hand, i), message={"action": "swap", "cards": [a, b], "version": seen})
    hand, after = current_state(table)
    for i in range(3):
        assert after.hand_of(i)[:2] == tuple(reversed(state.hand_of(i)[:2]))
    # A betting action on an old picture is still refused, and so is a version from the future.
    with pytest.raises(services.StaleVersion):
        services.table_act(table_id=table.id, user=user_for_index(hand, 0), message={"action": "done", "version": 10**6})


def test_a_bet_on_a_picture_older_than_another_players_break_is_taken() -> None:
    """Found by an audit: a "Call" tapped while another player chose a break from the next hand
    was refused as stale. Only a change to the hand itself makes a picture stale for a bet."""
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    actor = state.actors()[0]
    other = next(i for i in range(3) if i != actor)
    seen = table.version
    services.table_act(table_id=table.id, user=user_for_index(hand, other), message={"action": "sit_out", "version": seen})
    table.refresh_from_db()
    assert table.version == seen + 1
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "call", "version": seen})
    hand, after = current_state(table)
    assert len(after.log) == len(state.log) + 1 and after.log[-1].kind == "call"
    # Now the hand moved: a bet on a picture from before that step is refused, and changes nothing.
    table.refresh_from_db()
    nxt = after.actors()[0]
    before = (table.version, hand.state)
    with pytest.raises(services.StaleVersion):
        services.table_act(table_id=table.id, user=user_for_index(hand, nxt), message={"action": "call", "version": seen + 1})
    table.refresh_from_db()
    hand.refresh_from_db()
    assert (table.version, hand.state) == before
    # A player's own seat choices mean the same on any picture; one from the future is refused.
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "sit_out", "version": seen})
    with pytest.raises(services.StaleVersion):
        services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "im_back", "version": 10**6})


def test_the_arrangement_note_asks_only_those_still_arranging() -> None:
    """Found by an audit: "Arrange your cards" stayed beside the pot after a player's Done. Once
    their arrangement is in, the note says the arrangement is under way (clock and all)."""
    from tables import selectors

    table, users = seated_table(n=3)
    hand, state = _to_the_arrangement(table)

    def note(i: int) -> str:
        html = selectors.table_snapshot(table_id=table.id, user=user_for_index(hand, i))["html"]
        return html.split('<span class="phase-note">', 1)[1].split(" <span", 1)[0]

    assert [note(i) for i in range(3)] == ["Arrange your cards"] * 3
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user_for_index(hand, 0), message={"action": "done", "version": table.version})
    assert [note(i) for i in range(3)] == ["Arrangement under way", "Arrange your cards", "Arrange your cards"]
    outsider = selectors.table_snapshot(table_id=table.id, user=make_user("rail"))["html"]
    assert '<span class="phase-note">Arrangement under way <span' in outsider

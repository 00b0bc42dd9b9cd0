"""Between two hands: a host's resume during the showdown pause, and a player's break asked for
then (found by an audit)."""

from __future__ import annotations

import datetime as dt

import pytest

from tables import services
from tables.models import Hand, Seat, Table
from tests.tables.helpers import current_state, play_passively, seated_table

pytestmark = pytest.mark.django_db


def _latest(table: Table) -> Hand:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return hand


def test_resume_during_the_showdown_pause_keeps_the_pause_and_deals_after_it() -> None:
    table, _users = seated_table(n=3)
    services.table_pause(table_id=table.id)  # after this hand
    finished = play_passively(table)
    table.refresh_from_db()
    assert table.status == Table.Status.PAUSED and finished.deadline is not None
    version = services.table_resume(table_id=table.id)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and version == table.version
    assert _latest(table).number == finished.number  # not dealt yet: the pause runs on
    # A second click on the open table changes nothing.
    assert services.table_resume(table_id=table.id) == version
    # When the pause ends, its timer deals, and no clock is left on the finished hand.
    assert services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    assert _latest(table).number == finished.number + 1
    assert Hand.objects.get(id=finished.id).deadline is None
    assert not Hand.objects.filter(table=table, ended__isnull=False, deadline__isnull=False).exists()


def test_resume_after_the_pause_ran_out_deals_at_once() -> None:
    table, _users = seated_table(n=3)
    services.table_pause(table_id=table.id)
    finished = play_passively(table)
    # The pause's timer came while the table was paused: nothing dealt.
    assert services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    assert _latest(table).number == finished.number
    services.table_resume(table_id=table.id)
    assert _latest(table).number == finished.number + 1
    assert Hand.objects.get(id=finished.id).deadline is None


def test_a_break_asked_for_between_hands_leaves_the_player_out_of_the_next() -> None:
    table, _users = seated_table(n=3)
    finished = play_passively(table)
    table.refresh_from_db()
    seat_no, user_id, _ = finished.players[0]
    seat = Seat.objects.get(table=table, seat_no=seat_no)
    services.table_act(table_id=table.id, user=seat.user, message={"action": "sit_out", "version": table.version})
    seat.refresh_from_db()
    assert seat.sitting_out
    assert services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    hand, _state = current_state(table)
    assert hand.number == finished.number + 1
    assert user_id not in [p[1] for p in hand.players] and len(hand.players) == 2


def test_a_table_nobody_is_dealt_at_waits_for_players_instead_of_showing_the_last_hand() -> None:
    from tables.selectors import table_snapshot

    table, users = seated_table(n=2, game="NT")
    finished = play_passively(table)
    during_pause = table_snapshot(table_id=table.id, user=None)["html"]
    assert 'phase-over' in during_pause  # the result stays up during the showdown pause
    services.table_leave_seat(table_id=table.id, user=users[0])
    assert services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    assert _latest(table).number == finished.number  # nobody to deal to
    after = table_snapshot(table_id=table.id, user=users[1])
    assert "phase-waiting" in after["html"] and "Waiting for players" in after["html"]
    assert "phase-over" not in after["html"] and after["deadline"] is None


def test_a_paused_table_says_the_host_paused_it_not_that_it_waits_for_players() -> None:
    from django.utils import translation

    from tables.selectors import table_snapshot

    table, _users = seated_table(n=2)
    services.table_pause(table_id=table.id)
    finished = play_passively(table)
    # The finished hand is still shown: no "next hand in a moment" while the table is paused.
    html = table_snapshot(table_id=table.id, user=None)["html"]
    assert "The host has paused this table" in html and "Next hand in a moment" not in html
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    html = table_snapshot(table_id=table.id, user=None)["html"]
    assert "The host has paused this table" in html and "Waiting for players" not in html
    with translation.override("ru"):
        assert "Ведущий приостановил стол" in table_snapshot(table_id=table.id, user=None)["html"]
    services.table_resume(table_id=table.id)
    assert "The host has paused this table" not in table_snapshot(table_id=table.id, user=None)["html"]


def test_a_finished_hands_pot_says_it_was_paid_out_and_the_stacks_hold_it() -> None:
    """Found by a look at the felt: after a showdown the pot still read "Pot 20" beside stacks
    that already held it, so the chips on the felt added up to more than were in play."""
    import re

    from django.utils import translation

    from tables.selectors import table_snapshot

    table, users = seated_table(n=2, game="NT")
    hand, _state = current_state(table)
    during = table_snapshot(table_id=table.id, user=users[0])["html"]
    assert "pot__paid" not in during
    play_passively(table)
    html = table_snapshot(table_id=table.id, user=users[0])["html"]
    pot = re.search(r'<p class="pot">.*?</p>', html, re.S)
    assert pot is not None and 'class="pot__paid">paid out<' in pot.group(0)
    with translation.override("he"):
        assert "שולמה" in table_snapshot(table_id=table.id, user=users[0])["html"]
    # What it says is true: every chip is back in a stack.
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == sum(p[2] for p in hand.players)

"""A player who leaves during a hand goes when it ends; meanwhile their turns are played at once
(a fold where one is allowed, else a check; an arrangement as it stands), so the others never
wait for a clock nobody is watching."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Hand, Seat
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index

pytestmark = pytest.mark.django_db


def _html(table, viewer) -> str:
    from tables import selectors
    from tables.fragment import render_table

    return str(render_table(selectors.table_context(table_id=table.id, user=viewer)))


def _act(table, hand, idx: int, kind: str) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user_for_index(hand, idx), message={"action": kind, "version": table.version})


def test_a_leavers_turn_is_folded_at_once_when_it_comes() -> None:
    table, users = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    first = state.actors()[0]
    leaver = next(i for i in range(3) if i != first and i != (first + 1) % 3)  # acts last before the flop
    leaver_user = user_for_index(hand, leaver)
    services.table_leave_seat(table_id=table.id, user=leaver_user)
    hand, state = current_state(table)
    assert hand.leavers == [leaver] and not state.folded[leaver]  # not their turn yet
    assert Seat.objects.get(table=table, user=leaver_user).leaving
    # The leaver's panel says they go when the hand ends, with no "Keep playing" (it kept nobody,
    # found by an audit) and no "Check/fold" to pick; the others read it on the seat.
    own = _html(table, leaver_user)
    assert "You leave the table when this hand ends." in own
    assert 'data-action="im_back"' not in own and "data-pre=" not in own and 'data-action="sit_out"' not in own
    other = _html(table, user_for_index(hand, first))
    assert "leaves after this hand" in other and "break after this hand" not in other
    _act(table, hand, first, "call")
    second = current_state(table)[1].actors()[0]
    if second != leaver:
        _act(table, hand, second, "call")
    # The big blind's option came to the leaver: a check (folding is not allowed where checking
    # is free), played at once, and the flop is out.
    hand, state = current_state(table)
    assert state.phase == "flop" and leaver not in state.actors() and not state.folded[leaver]
    # Facing a bet on the flop (the small blind's, first to act), the leaver's turn is a fold.
    bettor = state.actors()[0]
    assert bettor != leaver
    bet = next(a for a in state.legal_actions(bettor) if a.kind == "bet")
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user_for_index(hand, bettor),
                       message={"action": "bet", "amount": bet.min_amount, "version": table.version})
    hand, state = current_state(table)
    assert state.folded[leaver] and leaver not in state.actors()
    assert state.actors()  # the hand goes on, with whoever is next to act, on their own clock
    ended = play_passively(table)
    assert ended.ended is not None
    assert not Seat.objects.filter(table=table, user=leaver_user).exists()
    # While the finished hand is on the felt, the seat is free at once for whoever wants it, and
    # the winners' lines name everyone (an audit saw "? +20" for a player who had left and won).
    html = _html(table, None)
    assert f'data-seat="{hand.players[leaver][0]}"' in html and "? +" not in html


def test_leaving_on_ones_own_turn_folds_at_once() -> None:
    table, users = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    actor = state.actors()[0]
    services.table_leave_seat(table_id=table.id, user=user_for_index(hand, actor))
    hand, state = current_state(table)
    assert state.folded[actor] and actor not in state.actors()
    assert hand.deadline is not None and hand.clock == "decision"


def test_a_leaver_in_the_arrangement_hands_it_in_as_it_stands() -> None:
    table, users = seated_table(n=3, game="PP")
    hand, state = current_state(table)
    while state.phase != "arrange":
        idx = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        _act(table, hand, idx, "check" if "check" in kinds else "call")
        hand, state = current_state(table)
    leaver = 0
    services.table_leave_seat(table_id=table.id, user=user_for_index(hand, leaver))
    hand, state = current_state(table)
    assert leaver not in state.actors()
    view = state.view_for(leaver)
    assert view["players"][leaver].get("arranged") or view["players"][leaver]["folded"]
    assert Hand.objects.get(pk=hand.pk).leavers == [leaver]

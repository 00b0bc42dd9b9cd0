"""An all-in's run-out, dealt on the felt street by street: the engine says how many board cards
were out when the betting ended (public), the felt marks the cards still to come and the stacks
before the pot was paid, and the next hand waits the run-out's seconds on top of the usual pause.
(The staging itself is the style sheet's; tests/e2e/test_table_browser.py checks it in Chromium.)"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.utils import translation

from rules_engine.games import Action, HandSetup, get_variant
from tables import selectors, services
from tables.fragment import render_table
from tables.templatetags.table_cards import chips
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index


def _play(state: Any, choose: Any) -> Any:
    while state.result is None:
        seat = state.actors()[0]
        state.apply(choose(state, seat, {a.kind: a for a in state.legal_actions(seat)}))
    return state


def _shove_on(street_cards: int) -> Any:
    """Three players: checked and called until ``street_cards`` board cards are out, then all in."""
    def choose(state: Any, seat: int, legal: dict[str, Any]) -> Action:
        if len(state.board) < street_cards:
            return Action(seat, "check" if "check" in legal else "call")
        for kind in ("all_in", "raise", "bet"):  # every chip in (pot limit: as much as it allows)
            if kind in legal:
                return Action(seat, kind, legal[kind].max_amount)
        return Action(seat, "call" if "call" in legal else "check")
    return choose


@pytest.mark.parametrize(("street_cards", "game"), [(0, "NT"), (3, "NT"), (4, "NT"), (0, "PO"), (3, "PO/8")])
def test_the_engine_says_how_many_board_cards_were_out_when_the_betting_ended(street_cards: int, game: str) -> None:
    state = _play(get_variant(game).start(HandSetup(stacks=(500, 500, 500), button=0, small_blind=5, big_blind=10)),
                  _shove_on(street_cards))
    assert state.result.showdown and len(state.board) == 5
    assert state.runout_from == street_cards
    for viewer in (None, 0, 1, 2):  # public: every viewer is told the same
        assert state.view_for(viewer)["runout_from"] == street_cards
    # Copied and read again (the server's way), the same.
    assert get_variant(game).from_json(state.to_json()).runout_from == street_cards


def test_a_hand_bet_to_the_river_has_no_run_out() -> None:
    state = _play(get_variant("NT").start(HandSetup(stacks=(500, 500, 500), button=0, small_blind=5, big_blind=10)),
                  lambda s, seat, legal: Action(seat, "check" if "check" in legal else "call"))
    assert state.runout_from == 5
    assert services.runout_seconds(state.view_for(None)["result"], state) == 0


@pytest.mark.parametrize(("street_cards", "twice", "streets"), [(0, False, 3), (3, False, 2), (4, False, 1), (0, True, 6),
                                                                (3, True, 4), (5, False, 0)])
def test_the_run_out_takes_a_second_a_street_and_each_run_counts(street_cards: int, twice: bool, streets: int) -> None:
    setup = HandSetup(stacks=(500, 500, 500), button=0, small_blind=5, big_blind=10,
                      run_twice=(0, 1, 2) if twice else ())
    state = _play(get_variant("NT").start(setup), _shove_on(street_cards))
    assert (state.second_board is not None) == twice
    assert state.runout_streets() == streets == state.view_for(None)["runout_streets"]
    assert services.runout_seconds(state.view_for(None)["result"], state) == streets * services.RUNOUT_STEP_SECONDS
    assert services.runout_seconds({"showdown": False}, state) == 0  # everyone else folded: nothing to deal


def _stud(code: str, shove_round: int) -> Any:
    """Three players at fixed-limit stud: bring-in, checks and calls until ``shove_round``, then
    every chip in (60 each: at fixed limit that takes a round or two)."""
    setup = HandSetup(stacks=(60, 60, 60), button=0, small_blind=5, big_blind=10, ante=1, bring_in=2,
                      small_bet=10, big_bet=20)
    state = get_variant(code).start(setup)
    while state.result is None:
        seat = state.actors()[0]
        legal = {a.kind: a for a in state.legal_actions(seat)}
        order = (("all_in", "raise", "bet", "complete", "call", "bring_in", "check") if state.round >= shove_round
                 else ("bring_in", "check", "call"))
        kind = next(k for k in order if k in legal)
        sized = kind in ("raise", "bet", "complete", "all_in")
        state.apply(Action(seat, kind, legal[kind].max_amount) if sized else Action(seat, kind))
    return state


@pytest.mark.parametrize("code", ["F7S", "F7S/8", "FR", "F5S"])
def test_a_stud_run_out_marks_each_card_dealt_after_the_betting_with_its_street(code: str) -> None:
    from tables.presenter import present

    last = len(get_variant(code).LATER_STREETS)
    seen = set()
    for shove in range(last + 1):
        state = _stud(code, shove)
        streets = state.runout_streets()
        seen.add(streets)
        assert streets == last - state.runout_round == state.view_for(None)["runout_streets"]
        seats = [{"no": i + 1, "name": f"P{i}", "empty": False, "me": i == 0, "stack": p["stack"],
                  "sitting_out": False, "user_id": 10 + i} for i, p in enumerate(state.view_for(None)["players"])]
        context = present(view=state.view_for(0), seats=seats, players=[[i + 1, 10 + i, 60] for i in range(3)])
        html = render_table({**context, "table": None})
        if not streets:
            assert "data-runout" not in html and "data-street" not in html
            continue
        assert f'data-runout="stud" data-runout-steps="{streets}"' in html
        # Each seat still in got one card a street after the betting ended, up or down.
        live = sum(1 for p in state.view_for(None)["players"] if not p["folded"])
        for street in range(1, streets + 1):
            assert html.count(f'data-street="{street}"') == live, (code, shove, street)
        assert f'data-street="{streets + 1}"' not in html
    assert len(seen) >= 2, seen  # the shoves ended the betting on different streets


def _felt(table: Any, user: Any, lang: str = "en") -> str:
    with translation.override(lang):
        context = selectors.table_context(table_id=table.id, user=user)
        assert context is not None
        return render_table(context)


@pytest.mark.django_db(transaction=True)
def test_an_all_in_before_the_flop_is_dealt_on_the_felt_and_waits_for_it() -> None:
    table, users = seated_table(n=2, max_seats=2, game="NT")
    hand, state = current_state(table)
    while hand.ended is None:
        idx = state.actors()[0]
        legal = {a.kind: a for a in state.legal_actions(idx)}
        message: dict[str, Any] = {"action": "call" if "call" in legal else "check", "version": table.version}
        if "raise" in legal:  # every chip in
            message = {"action": "raise", "amount": legal["raise"].max_amount, "version": table.version}
        services.table_act(table_id=table.id, user=user_for_index(hand, idx), message=message)
        table.refresh_from_db()
        hand, state = current_state(table)
    assert hand.result["showdown"] and state.runout_from == 0
    # The next hand waits the usual pause and the run-out's three streets.
    waited = (hand.deadline - hand.ended).total_seconds()
    assert waited == pytest.approx(services._clock_seconds("next", table.speed) + 3 * services.RUNOUT_STEP_SECONDS)
    for user in [*users, None]:
        for lang in ("en", "he", "ru"):
            html = _felt(table, user, lang)
            assert 'data-runout="0" data-runout-steps="3"' in html
            # Each winner's seat shows its stack before the pot was paid, then the stack paid.
            was = re.findall(r'class="runout-was">([^<]*)<', html)
            payouts = [p for p in hand.result["payouts"] if p]
            assert len(was) == len(payouts) >= 1
            stacks = {s.seat_no: s.stack for s in table.seats.all()}
            expected = sorted(chips(stacks[hand.players[i][0]] - p) for i, p in enumerate(hand.result["payouts"]) if p)
            if lang == "en":
                assert sorted(was) == expected


@pytest.mark.django_db(transaction=True)
def test_a_hand_checked_down_to_the_river_is_shown_at_once() -> None:
    table, users = seated_table(n=2, max_seats=2, game="NT")
    hand = play_passively(table)
    assert hand.result["showdown"]
    assert (hand.deadline - hand.ended).total_seconds() == pytest.approx(services._clock_seconds("next", table.speed))
    html = _felt(table, users[0])
    assert "data-runout" not in html and "runout-was" not in html


@pytest.mark.django_db(transaction=True)
def test_a_patch_patch_showdown_stays_up_longer(settings: Any) -> None:
    """Three boards' winners and every hand's fours take longer to read (an audit, on a phone);
    a hand nobody contested, and a table given its own pause (TABLE_SHOWDOWN_SECONDS), do not."""
    settings.TABLE_SHOWDOWN_SECONDS = None
    table, _users = seated_table(n=2, max_seats=2, game="PP")
    hand = play_passively(table)
    assert hand.result["showdown"]
    assert (hand.deadline - hand.ended).total_seconds() == pytest.approx(
        services._clock_seconds("next", table.speed) + services.PP_SHOWDOWN_EXTRA_SECONDS)
    settings.TABLE_SHOWDOWN_SECONDS = 2.0
    services.table_expire(table_id=table.id, now=hand.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    hand = play_passively(table)
    assert (hand.deadline - hand.ended).total_seconds() == pytest.approx(2.0)

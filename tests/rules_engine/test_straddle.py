"""A straddle (``HandSetup.straddle``): the seat left of the big blind posts twice the big blind,
live, before the cards, in no-limit and pot-limit Hold'em and Omaha (rules_engine.games.flop)."""

from __future__ import annotations

import random

import pytest

from rules_engine.errors import RulesError
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.notation import replay_phh, to_phh


def _start(code: str = "NT", n: int = 4, button: int = 0, straddle: int = 20, seed: int = 1, **kw):
    stacks = kw.pop("stacks", (1000,) * n)
    return get_variant(code).start(HandSetup(stacks, button, 5, 10, straddle=straddle, **kw),
                                   rng=random.Random(seed))


def _legal(state, seat=None):
    seat = state.to_act if seat is None else seat
    return {a.kind: (a.min_amount, a.max_amount) for a in state.legal_actions(seat)}


def test_the_straddle_is_a_live_third_blind_and_the_seat_after_it_opens() -> None:
    state = _start()  # button 0: blinds 1 and 2, the straddle seat 3
    forced = [(e.kind, e.seat, e.amount) for e in state.start_events if e.kind in ("blind", "straddle")]
    assert forced == [("blind", 1, 5), ("blind", 2, 10), ("straddle", 3, 20)]
    assert state.bets == (0, 5, 10, 20) and state.pot == 35
    assert state.to_act == 0
    # To call is the straddle; the smallest raise is to twice it (a raise the straddle's size).
    assert _legal(state)["raise"] == (40, 1000)
    view = state.view_for(None)
    assert view["straddle_seat"] == 3 and view["straddle"] == 20
    assert [p["act"] for p in view["players"]] == [None, None, None, "straddle"]


def test_the_straddler_acts_last_with_the_option() -> None:
    state = _start()
    for seat in (0, 1, 2):
        assert state.to_act == seat
        state.apply(Action(seat, "call"))
    assert state.to_act == 3 and state.phase == "preflop"
    assert set(_legal(state)) == {"check", "raise"}  # the option, as a big blind has it
    assert state.view_for(3)["players"][3]["act"] == "straddle"
    state.apply(Action(3, "check"))
    assert state.phase == "flop" and state.pot == 80
    # After the flop the smallest bet is the big blind again.
    assert _legal(state)["bet"][0] == 10


def test_a_raise_brings_the_action_back_to_the_straddler() -> None:
    state = _start()
    state.apply(Action(0, "raise", 40))
    state.apply(Action(1, "fold"))
    state.apply(Action(2, "fold"))
    assert state.to_act == 3
    assert _legal(state)["call"] is not None
    assert _legal(state)["raise"][0] == 60  # the last raise was 20: to 40 + 20
    state.apply(Action(3, "call"))
    assert state.phase == "flop" and state.pot == 95


def test_three_handed_the_button_straddles_and_pot_limit_counts_it() -> None:
    state = _start("PO", n=3)
    assert [e.seat for e in state.start_events if e.kind == "straddle"] == [0]
    assert state.to_act == 1  # the small blind opens
    # Pot limit: call 15 to 20, then raise by the pot after the call (35 + 15): to 70.
    assert _legal(state)["raise"] == (40, 70)


def test_a_newcomer_posting_elsewhere_calls_the_straddle() -> None:
    state = _start(n=5, posts=(4,))
    assert state.bets == (0, 5, 10, 20, 10)
    assert state.to_act == 4
    assert "call" in _legal(state) and "check" not in _legal(state)


@pytest.mark.parametrize(("code", "n", "kw", "words"), [
    ("NT", 2, {}, "heads-up nobody straddles"),
    ("FT", 4, {"small_bet": 10, "big_bet": 20}, "has no straddle"),
    ("P5D", 4, {}, "has no straddle"),
    ("NT", 4, {"straddle": 30}, "twice the big blind"),
    ("NT", 5, {"posts": (3,)}, "cannot straddle too"),
    ("NT", 4, {"stacks": (1000, 1000, 1000, 20)}, "needs more than 20"),
    ("NT", 4, {"stacks": (1000, 1000, 1000, 24), "ante": 5}, "needs more than 25"),
    ("PP", 3, {}, "no straddle"),
])
def test_straddles_that_cannot_be_are_refused(code: str, n: int, kw: dict, words: str) -> None:
    kw = {"straddle": 20, **kw}
    with pytest.raises(RulesError, match=words):
        _start(code, n=n, **kw)


def test_a_straddled_hand_survives_its_json_and_its_history() -> None:
    state = _start(seed=5)
    state.apply(Action(0, "raise", 45))
    for seat in (1, 2, 3):
        state.apply(Action(seat, "call"))
    while not state.is_over:
        seat = state.to_act
        state.apply(Action(seat, "check" if "check" in _legal(state, seat) else "call"))
    setup = state.setup
    assert HandSetup.from_json(setup.to_json()) == setup
    assert "straddle" not in _start(straddle=0).setup.to_json()
    text = to_phh(state)
    assert "blinds_or_straddles = [5, 10, 20, 0]" in text  # p1 left of the button: p3 straddles
    again = replay_phh(text)
    assert again.setup.straddle == 20 and again.stacks == state.stacks


def test_pokerkit_reads_a_straddled_history_as_the_same_hand() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    state = _start(button=2, seed=3)
    state.apply(Action(state.to_act, "raise", 40))
    while not state.is_over:
        seat = state.to_act
        state.apply(Action(seat, "check" if "check" in _legal(state, seat) else "call"))
    text = "\n".join(line for line in to_phh(state).splitlines() if not line.startswith("_"))
    *_, last = pokerkit.HandHistory.loads(text)
    assert list(last.stacks) == [state.stacks[s] for s in (3, 0, 1, 2)]
    assert sorted(set(state.stacks)) != [1000]


def test_a_history_with_a_straddle_anywhere_but_p3_is_refused() -> None:
    text = to_phh(_start(n=5))
    assert "blinds_or_straddles = [5, 10, 20, 0, 0]" in text
    for forced in ("[5, 10, 0, 20, 0]", "[5, 10, 30, 0, 0]"):
        with pytest.raises(RulesError, match="p3 may straddle"):
            replay_phh(text.replace("blinds_or_straddles = [5, 10, 20, 0, 0]", f"blinds_or_straddles = {forced}"))

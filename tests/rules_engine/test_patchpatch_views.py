"""What each seat (and a spectator) may see of a Patch-Patch hand."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

from rules_engine.cards import Card, CardParseError
from rules_engine.errors import MalformedAction
from rules_engine.games import Action
from rules_engine.games.patchpatch import PatchPatchState
from tests.rules_engine.conftest import play, random_action, stacked
from tests.rules_engine.test_patchpatch import s2_hand


def card_strings(value: Any) -> set[str]:
    """Every string in a view that is a card."""
    found: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= card_strings(v)
    elif isinstance(value, list):
        for v in value:
            found |= card_strings(v)
    elif isinstance(value, str) and len(value) == 2:
        with contextlib.suppress(CardParseError):
            found.add(str(Card.parse(value)))
    return found


def allowed_cards(state: PatchPatchState, viewer: int | None) -> set[str]:
    allowed = {str(c) for b in state.boards for c in b}
    if viewer is not None:
        allowed |= {str(c) for c in state.hand_of(viewer)}
    if state.result is not None:
        for seat in state.result.shown:
            allowed |= {str(c) for c in state.hand_of(seat)}
    return allowed


def assert_no_leak(state: PatchPatchState) -> None:
    for viewer in [None, *range(state.n)]:
        view = state.view_for(viewer)
        json.dumps(view)  # plain data only
        leaked = card_strings(view) - allowed_cards(state, viewer)
        assert not leaked, (viewer, state.phase, leaked)


def test_preflop_view_own_cards_only() -> None:
    s = stacked([1000, 800, 1200], button=0)
    v = s.view_for(1)
    assert v["phase"] == "preflop" and v["viewer"] == 1 and v["to_act"] == 0
    assert v["you"]["cards"] == [str(c) for c in s.hand_of(1)]
    assert [h["cards"] for h in v["you"]["hands"]] == [
        [str(c) for c in s.hand_of(1)[4 * b : 4 * b + 4]] for b in range(3)
    ]
    assert all(h["made"] is None for h in v["you"]["hands"])
    assert v["players"][0]["cards"] is None and v["players"][2]["cards"] is None
    assert v["players"][1]["cards"] == v["you"]["cards"]
    assert v["legal_actions"] == []  # not seat 1's turn
    assert [p["stack"] for p in v["players"]] == [1000, 795, 1190]
    assert [p["bet"] for p in v["players"]] == [0, 5, 10]
    assert v["pot"] == 15 and v["button"] == 0 and v["small_blind_seat"] == 1
    assert (v["clock"], v["clock_seconds"]) == ("decision", 25.0)
    actor = s.view_for(0)
    assert [(a["kind"], a["amount"], a["label"]) for a in actor["legal_actions"]] == [
        ("fold", 0, "Fold"),
        ("call", 10, "Call 10"),
        ("raise_pot", 35, "Raise to 35"),
    ]
    assert_no_leak(s)


def test_spectator_sees_no_hole_cards() -> None:
    s = stacked([1000, 1000, 1000])
    v = s.view_for(None)
    assert v["you"] is None and v["legal_actions"] == []
    assert all(p["cards"] is None and p["hands"] is None for p in v["players"])
    assert card_strings(v) == set()


def test_arrangement_view_shows_what_each_hand_makes_and_hides_others_arrangements() -> None:
    s = stacked([1000, 1000, 1000])
    play(s, "call", "call", "check")
    v = s.view_for(0)
    assert v["phase"] == "arrange" and v["clock"] == "arrange" and v["you"]["arranging"]
    made = [h["made"] for h in v["you"]["hands"]]
    assert all(m is not None and len(m["cards"]) == 5 and m["category"] for m in made)
    assert [k["kind"] for k in v["legal_actions"]] == ["swap", "arrange", "done"]
    # A swap changes what the seat sees of its own hands, and nothing others see.
    before_other = s.view_for(1)
    h = s.hand_of(0)
    s.apply(Action.swap(0, h[0], h[4]))
    after = s.view_for(0)
    assert after["you"]["hands"][0]["cards"][0] == str(h[4])
    assert s.view_for(1) == before_other
    s.apply(Action(0, "done"))
    v1 = s.view_for(1)
    assert [p["arranged"] for p in v1["players"]] == [True, False, False]
    assert v1["players"][0]["cards"] is None
    assert_no_leak(s)


def test_showdown_reveals_hands_still_in_and_never_folded_ones() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "call", "call", "check", "done", "check", "bet_pot", "fold", "call")
    play(s, "check", "check", "check", "check")
    assert s.is_over
    for viewer in (None, 0, 1, 2):
        v = s.view_for(viewer)
        assert v["players"][1]["cards"] == [str(c) for c in s.hand_of(1)]
        assert v["players"][2]["hands"][0]["made"] is not None
        if viewer != 0:
            assert v["players"][0]["cards"] is None  # folded: never shown
        assert v["result"]["showdown"] is True and v["result"]["shown"] == [1, 2]
        assert len(v["result"]["pots"][0]["boards"]) == 3
    assert_no_leak(s)


def test_all_fold_reveals_nothing() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "call", "call", "check", "done", "bet_pot", "fold", "fold")
    for viewer in (None, 0, 2):
        v = s.view_for(viewer)
        assert v["players"][1]["cards"] is None
        assert v["result"]["showdown"] is False
        assert v["result"]["pots"][0]["boards"] == []
    assert_no_leak(s)


def test_s2_result_in_the_view() -> None:
    s = s2_hand()
    v = s.view_for(None)
    boards = v["result"]["pots"][0]["boards"]
    assert [[w["seat"] for w in b["winners"]] for b in boards] == [[0], [1, 0], [1]]
    assert boards[0]["winners"][0]["category"] == "flush"
    assert v["result"]["payouts"] == [150, 150]


def test_view_for_a_seat_that_does_not_exist() -> None:
    s = stacked([1000, 1000])
    with pytest.raises(MalformedAction):
        s.view_for(5)


def test_no_view_ever_leaks_on_random_hands() -> None:
    rng = random.Random(5)
    for _ in range(150):
        s = stacked([rng.randint(1, 400) for _ in range(rng.choice((2, 3)))], button=0)
        assert_no_leak(s)
        while not s.is_over:
            if rng.random() < 0.05:
                s.timeout()
            else:
                s.apply(random_action(s, rng))
            assert_no_leak(s)


def test_events_carry_no_hidden_cards() -> None:
    rng = random.Random(8)
    for _ in range(100):
        s = stacked([rng.randint(20, 400) for _ in range(3)], button=1)
        events = list(s.start_events)
        while not s.is_over:
            events += s.apply(random_action(s, rng))
        public = allowed_cards(s, None)
        for e in events:
            assert {str(c) for c in e.cards} <= public, e


def test_side_pots_in_the_view_after_a_short_all_in() -> None:
    """Patch-Patch shows its main and side pots as the other games do (found by an audit: the
    felt showed one total until the hand was over)."""
    state = stacked([1000, 30, 1000])
    seat = state.actors()[0]
    state.apply(Action(seat, "raise_pot"))
    play(state, "call", "call")
    # The pre-flop bets are gathered in for the arrangement (the seats show no bets then).
    assert state.phase == "arrange" and state.view_for(None)["side_pots"] == [90, 10]
    play(state, "done")
    assert state.phase == "flop"
    assert state.view_for(None)["side_pots"] == [90, 10]
    assert state.view_for(2)["side_pots"] == [90, 10]
    assert state.view_for(1)["side_pots"] == [90, 10]

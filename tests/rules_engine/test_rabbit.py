"""The rabbit hunt (``state.rabbit()``): after a hand that ended before its board(s) were out, the
cards that would have come, as the deck lay. A house rule the server offers after the hand; the
engine only answers what the deck held, and a hand that goes on, or runs out, has none."""

from __future__ import annotations

import random

from rules_engine.cards import parse_cards
from rules_engine.games import Action, HandSetup, get_variant
from tests.rules_engine.conftest import play, random_hand, stacked


def _flop(hands, board, code="NT", stacks=(1000, 1000, 1000), **kw):
    game = get_variant(code)
    deck = game.stacked_deck([parse_cards(h) for h in hands], 0, board=parse_cards(board))
    return game.start(HandSetup(tuple(stacks), 0, 5, 10, deck=deck, **kw))


def _strs(boards):
    return None if boards is None else [[str(c) for c in b] for b in boards]


def test_a_hand_folded_before_the_flop_hunts_the_whole_board_past_the_burn_cards() -> None:
    state = _flop(["AhKh", "7c2d", "QsQd"], "QhJhTh2c3d")
    assert state.rabbit() is None  # not before the hand is over
    state.apply(Action(0, "raise", amount=40))
    state.apply(Action(1, "fold"))
    state.apply(Action(2, "fold"))
    assert state.is_over and state.board == []
    assert _strs(state.rabbit()) == [["Qh", "Jh", "Th", "2c", "3d"]]
    # Asking changes nothing: the result, the stacks and the view stay as they were.
    assert state.board == [] and state.view_for(None)["board"] == []


def test_a_hand_folded_on_the_turn_hunts_the_river_only() -> None:
    state = _flop(["AhKh", "7c2d", "QsQd"], "QhJhTh2c3d", code="PO")
    # Pre-flop everyone calls round to the big blind's check; the flop and turn are bet and folded.
    state.apply(Action(0, "call"))
    state.apply(Action(1, "call"))
    state.apply(Action(2, "check"))
    for _ in range(3):
        state.apply(Action(state.to_act, "check"))
    assert [str(c) for c in state.board] == ["Qh", "Jh", "Th", "2c"]
    state.apply(Action(state.to_act, "bet", amount=30))
    state.apply(Action(state.to_act, "fold"))
    state.apply(Action(state.to_act, "fold"))
    assert state.is_over
    assert _strs(state.rabbit()) == [["3d"]]


def test_a_board_dealt_out_has_nothing_to_hunt() -> None:
    state = _flop(["AhKh", "7c2d", "QsQd"], "QhJhTh2c3d")
    while not state.is_over:
        kinds = {a.kind for a in state.legal_actions(state.to_act)}
        state.apply(Action(state.to_act, "check" if "check" in kinds else "call"))
    assert len(state.board) == 5 and state.rabbit() is None


def test_an_all_in_run_out_and_a_hand_run_twice_have_nothing_to_hunt() -> None:
    state = _flop(["AhKh", "7c2d"], "QhJhTh2c3d", stacks=(100, 100), run_twice=(0, 1))
    state.apply(Action(0, "raise", amount=100))
    state.apply(Action(1, "call"))
    assert state.is_over and state.second_board is not None and state.rabbit() is None


def test_patch_patch_hunts_each_board_in_its_own_order() -> None:
    boards = ["2c3c4c5c6c", "2d3d4d5d6d", "2h3h4h5h6h"]
    state = stacked([1000, 1000, 1000], hands=None, boards=boards)
    assert state.rabbit() is None
    play(state, "fold", "fold")  # the button and the small blind fold to the big blind
    assert state.is_over and state.boards == [[], [], []]
    assert _strs(state.rabbit()) == [[f"{r}{s}" for r in "23456"] for s in "cdh"]


def test_patch_patch_folded_on_the_turn_hunts_the_three_rivers() -> None:
    boards = ["2c3c4c5c6c", "2d3d4d5d6d", "2h3h4h5h6h"]
    state = stacked([1000, 1000], hands=None, boards=boards)
    play(state, "call", "check", "done")  # heads-up: the button calls, the big blind checks; arrange
    play(state, "check", "check")  # the flops are checked through
    assert all(len(b) == 4 for b in state.boards)
    play(state, "bet_pot", "fold")
    assert state.is_over
    assert _strs(state.rabbit()) == [["6c"], ["6d"], ["6h"]]


def test_rabbit_cards_are_never_cards_anyone_held_or_saw() -> None:
    rng = random.Random(7)
    hunted = 0
    for _ in range(200):
        state = random_hand(rng)
        boards = state.rabbit()
        if boards is None:
            assert not state.is_over or all(len(b) == 5 for b in state.boards)
            continue
        hunted += 1
        held = {c for s in range(state.n) for c in state.hand_of(s)}
        out = {c for b in state.boards for c in b}
        flat = [c for b in boards for c in b]
        assert len(set(flat)) == len(flat) and not set(flat) & (held | out)
        assert [len(b) + len(r) for b, r in zip(state.boards, boards, strict=True)] == [5, 5, 5]
    assert hunted > 20

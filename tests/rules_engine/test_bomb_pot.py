"""A bomb pot (``HandSetup.bomb``, rules_engine.games.flop): everyone puts the bomb in, no blinds,
no betting before the flop, and the flop's betting opens left of the button."""

from __future__ import annotations

import random

import pytest

from rules_engine.errors import SetupError
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.notation import HistoryError, replay_phh, to_phh


def _start(code: str = "NT", stacks=(1000, 1000, 1000), button: int = 0, bomb: int = 20, seed: int = 1, **kw):
    return get_variant(code).start(HandSetup(tuple(stacks), button, 5, 10, bomb=bomb, **kw), rng=random.Random(seed))


def test_everyone_puts_the_bomb_in_and_the_flop_comes_at_once() -> None:
    state = _start()
    kinds = [(e.kind, e.seat, e.amount) for e in state.start_events if e.kind in ("bomb", "blind", "straddle")]
    assert kinds == [("bomb", 1, 20), ("bomb", 2, 20), ("bomb", 0, 20)]
    assert state.phase == "flop" and len(state.board) == 3 and state.pot == 60
    assert state.bets == (0, 0, 0)  # dead money, nobody's bet
    assert state.to_act == 1  # the first seat left of the button
    legal = {a.kind: a for a in state.legal_actions(1)}
    assert set(legal) == {"check", "bet"} and legal["bet"].min_amount == 10
    view = state.view_for(None)
    assert view["bomb"] == 20 and view["small_blind_seat"] is None and view["big_blind_seat"] is None
    # The flop came after one burn card: hole cards, burn, three.
    assert list(state.board) == list(state.setup.deck[2 * 3 + 1: 2 * 3 + 4])


def test_it_plays_on_to_the_showdown_and_keeps_every_chip() -> None:
    state = _start()
    for _ in range(3):
        for _seat in range(3):
            state.apply(Action(state.to_act, "check"))
    assert state.is_over and state.result.showdown
    assert sum(state.stacks) == 3000 and sum(state.result.payouts) == 60


def test_pot_limit_counts_the_bombs_in_the_pot() -> None:
    state = _start("PO")
    legal = {a.kind: a for a in state.legal_actions(state.to_act)}
    assert legal["bet"].max_amount == 60  # a pot-sized bet on a pot of 60


def test_fixed_limit_bets_the_small_bet_on_the_flop() -> None:
    state = get_variant("FT").start(HandSetup((1000, 1000), 0, 5, 10, small_bet=10, big_bet=20, bomb=10),
                                    rng=random.Random(2))
    legal = {a.kind: a for a in state.legal_actions(state.to_act)}
    assert legal["bet"].to == 10


def test_a_short_stack_is_all_in_for_what_it_has_and_a_side_pot_forms() -> None:
    state = _start(stacks=(1000, 15, 1000))
    assert state.all_in[1] and state.contributed == (20, 15, 20)
    pots = state._bet.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(45, (0, 1, 2)), (10, (0, 2))]
    assert state.to_act == 2  # seat 1 is all-in: the next seat opens


def test_everyone_all_in_from_the_bomb_runs_out_at_once() -> None:
    state = _start(stacks=(20, 20, 20))
    assert state.is_over and state.result.showdown and len(state.board) == 5
    assert state.showdown_after == 0
    assert sum(state.stacks) == 60


def test_a_dead_small_blind_owed_is_still_paid() -> None:
    state = _start(stacks=(1000,) * 4, dead=(3,))
    assert state.contributed == (20, 20, 20, 25)
    assert [e.kind for e in state.start_events if e.seat == 3 and e.kind in ("bomb", "dead")] == ["bomb", "dead"]


def test_only_hold_em_and_omaha_have_bomb_pots() -> None:
    for code in ("F7S", "F5D", "PP"):
        game = get_variant(code)
        setup = HandSetup((1000, 1000), 0, 5, 10, bomb=20)
        if code != "PP":
            setup = game.setup_for_table(stacks=(1000, 1000), button=0, small_blind=5, big_blind=10)
            setup = type(setup)(**{**{f: getattr(setup, f) for f in setup.__dataclass_fields__}, "bomb": 20})
        with pytest.raises(SetupError, match="bomb pot"):
            game.start(setup)
    with pytest.raises(SetupError, match="no blinds"):
        _start(stacks=(1000,) * 4, straddle=20)
    with pytest.raises(SetupError, match="no blinds"):
        _start(stacks=(1000,) * 4, posts=(3,))
    with pytest.raises(SetupError, match="bomb must be a whole number"):
        _start(bomb=-5)
    setup = HandSetup((1000, 1000), 0, 5, 10, bomb=30)
    assert HandSetup.from_json(setup.to_json()) == setup


@pytest.mark.parametrize("code,seed", [("NT", 1), ("PO/8", 2), ("FT", 3)])
def test_a_bomb_pot_survives_its_hand_history(code, seed) -> None:
    rng = random.Random(seed)
    game = get_variant(code)
    for _ in range(12):
        n = rng.randint(2, 6)
        state = game.start(HandSetup(tuple(rng.choice((15, 200, 1000)) for _ in range(n)), 0, 5, 10,
                                     small_bet=10, big_bet=20, bomb=rng.choice((10, 20)),
                                     run_twice=tuple(range(n)) if rng.random() < 0.5 else ()), rng=rng)
        while state.to_act is not None:
            legal = state.legal_actions(state.to_act)
            la = rng.choice(legal)
            state.apply(Action(state.to_act, la.kind))
        text = to_phh(state)
        assert f"_bomb_pot = {state.setup.bomb}" in text
        again = replay_phh(text)
        assert again.result == state.result and again.stacks == state.stacks and again.board == state.board
    with pytest.raises(HistoryError, match="_bomb_pot is"):
        replay_phh(text.replace(f"_bomb_pot = {state.setup.bomb}", "_bomb_pot = -3"))

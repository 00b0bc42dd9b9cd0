"""The seven-deuce bounty (``HandSetup.seven_deuce``, rules_engine.games.flop): a seat holding a
seven and a deuce that takes every pot it played for whole is paid the bounty by every other seat
dealt in, and its cards are shown."""

from __future__ import annotations

import random

import pytest

from rules_engine.cards import parse_cards
from rules_engine.errors import SetupError
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.notation import HistoryError, replay_phh, to_phh


def _deck(hands, board="", second="", button=0, code="NT"):
    game = get_variant(code)
    return game.stacked_deck([parse_cards(h) if h else None for h in hands], button,
                             board=parse_cards(board) if board else (), second=parse_cards(second) if second else ())


def _start(hands, board="", stacks=(1000, 1000, 1000), bounty=20, code="NT", **kw):
    deck = _deck(hands, board, kw.pop("second", ""), code=code)
    return get_variant(code).start(HandSetup(tuple(stacks), 0, 5, 10, deck=deck, seven_deuce=bounty, **kw))


def _check_down(state) -> None:
    while not state.is_over:
        seat = state.to_act
        kinds = {a.kind for a in state.legal_actions(seat)}
        state.apply(Action(seat, "check" if "check" in kinds else "call"))


def test_a_fold_to_the_seven_deuce_pays_the_bounty_and_shows_the_cards() -> None:
    # Seat 0 (button) raises with 7-2 offsuit; both blinds fold.
    state = _start(["7c2d", "AhKh", "QsQd"])
    state.apply(Action(0, "raise", amount=40))
    state.apply(Action(1, "fold"))
    events = state.apply(Action(2, "fold"))
    r = state.result
    assert not r.showdown and r.shown == (0,)
    assert r.bounty == (40, -20, -20)
    # The pot: the blinds 5 and 10 and 10 of the raise, 30 of it returned uncalled.
    assert r.payouts == (25, 0, 0) and r.net == (55, -25, -30)
    assert state.stacks == (1055, 975, 970) and sum(state.stacks) == 3000
    kinds = [(e.kind, e.seat, e.amount) for e in events if e.kind in ("show", "bounty", "win")]
    assert kinds == [("win", 0, 25), ("show", 0, 0), ("bounty", 0, 40)]
    # Everyone now sees the winner's cards; the folded hands stay hidden.
    view = state.view_for(1)
    assert view["players"][0]["cards"] == ["7c", "2d"] and view["players"][2]["cards"] is None
    assert view["result"]["bounty"] == [40, -20, -20]


def test_a_seven_deuce_that_wins_the_showdown_is_paid_by_folded_seats_too() -> None:
    state = _start(["7h2h", "AsKd", "9c8c", "QdJd"], board="7d7s2c4h5s", stacks=(1000,) * 4)
    # Seat 3 (left of the big blind) folds; the rest check it down.
    state.apply(Action(3, "fold"))
    _check_down(state)
    r = state.result
    assert r.showdown and 0 in r.shown and r.payouts[0] == 30
    assert r.bounty == (60, -20, -20, -20)
    assert sum(state.stacks) == 4000


def test_a_split_pot_or_a_lost_run_wins_no_bounty() -> None:
    # Both play the board's straight: a split, no bounty.
    state = _start(["7c2d", "7h2s", "KcKd"], board="3c4d5h6sTs")
    _check_down(state)
    assert state.result.bounty == () and state.result.payouts[0] == state.result.payouts[1]
    # Run twice, all-in before the flop: the seven-deuce wins the first run and loses the second.
    state = _start(["7c2d", "KsKh", "4c4d"], board="7d2hAc9s4s", second="KdJs8h3c4h",
                   stacks=(100, 100, 100), run_twice=(0, 1, 2))
    state.apply(Action(0, "raise", amount=100))
    state.apply(Action(1, "call"))
    state.apply(Action(2, "fold"))
    r = state.result
    assert state.second_board is not None and r.payouts[0] > 0 and r.payouts[1] > 0
    assert r.bounty == () and sum(state.stacks) == 300


def test_seven_deuce_that_wins_both_runs_is_paid() -> None:
    state = _start(["7c2d", "KsKh", "4c4d"], board="7d2hAc9s4s", second="7s2s8hJcQd",
                   stacks=(100, 100, 100), run_twice=(0, 1, 2))
    state.apply(Action(0, "raise", amount=100))
    state.apply(Action(1, "call"))
    state.apply(Action(2, "fold"))
    r = state.result
    assert r.payouts[0] == 210 and r.bounty == (20, 0, -20)  # seat 1 was all-in and has nothing left
    assert state.stacks == (230, 0, 70)


def test_a_short_stack_pays_what_it_has_left() -> None:
    state = _start(["7c2d", "AhKh", "QsQd"], stacks=(1000, 1000, 30))
    state.apply(Action(0, "raise", amount=40))
    state.apply(Action(1, "fold"))
    state.apply(Action(2, "fold"))  # the big blind has 20 left after its 10
    assert state.result.bounty == (40, -20, -20)
    state = _start(["7c2d", "AhKh", "QsQd"], stacks=(1000, 1000, 25))
    state.apply(Action(0, "raise", amount=40))
    state.apply(Action(1, "fold"))
    state.apply(Action(2, "fold"))  # 15 left
    assert state.result.bounty == (35, -20, -15) and state.stacks[2] == 0


def test_a_winning_seven_deuce_at_a_table_without_the_bounty_is_an_ordinary_win() -> None:
    state = _start(["7c2d", "AhKh", "QsQd"], bounty=0)
    state.apply(Action(0, "raise", amount=40))
    state.apply(Action(1, "fold"))
    state.apply(Action(2, "fold"))
    assert state.result.bounty == () and state.result.shown == () and state.view_for(1)["players"][0]["cards"] is None


def test_other_hands_win_no_bounty() -> None:
    for hand in ("7c7d", "2c2d", "7c3d", "8c2d"):
        state = _start([hand, "AhKh", "QsQd"])
        state.apply(Action(0, "raise", amount=40))
        state.apply(Action(1, "fold"))
        state.apply(Action(2, "fold"))
        assert state.result.bounty == () and state.result.shown == (), hand


@pytest.mark.parametrize("code", ["PO", "FO/8", "F7S", "F5D"])
def test_only_holdem_has_the_bounty(code) -> None:
    game = get_variant(code)
    with pytest.raises(SetupError, match="seven-deuce"):
        game.validate_setup(HandSetup((1000, 1000, 1000), 0, 5, 10, small_bet=10, big_bet=20, bring_in=5,
                                      seven_deuce=20))


def test_patch_patch_refuses_it() -> None:
    with pytest.raises(SetupError, match="seven-deuce"):
        get_variant("PP").start(HandSetup((1000, 1000, 1000), 0, 5, 10, seven_deuce=20))


@pytest.mark.parametrize("code", ["NT", "PT", "FT"])
def test_random_hands_keep_every_chip_and_the_history_replays(code) -> None:
    rng = random.Random(72)
    game = get_variant(code)
    paid = 0
    for _ in range(300):
        n = rng.randint(2, 6)
        stacks = tuple(rng.choice((60, 200, 1000)) for _ in range(n))
        # Deal a seven-deuce to someone now and then.
        hands = [None] * n
        if rng.random() < 0.5:
            hands[rng.randrange(n)] = parse_cards(rng.choice(("7c2d", "2h7h", "7s2c")))
        deck = game.stacked_deck(hands, 0)
        setup = HandSetup(stacks, 0, 5, 10, small_bet=10, big_bet=20, deck=deck, seven_deuce=rng.choice((10, 20, 50)))
        state = game.start(setup)
        while not state.is_over:
            seat = state.to_act
            legal = state.legal_actions(seat)
            la = rng.choice(legal)
            amount = la.amount if la.kind in ("bet", "raise", "all_in") else None
            state.apply(Action(seat, la.kind, amount=amount))
        r = state.result
        assert sum(state.stacks) + r.rake == sum(stacks)
        assert sum(r.bounty) == 0 and all(s >= 0 for s in state.stacks)
        assert all(n_ == p - c + (r.bounty[i] if r.bounty else 0)
                   for i, (n_, p, c) in enumerate(zip(r.net, r.payouts, r.contributions, strict=True)))
        paid += bool(r.bounty)
        text = to_phh(state)
        again = replay_phh(text)
        assert again.stacks == state.stacks and again.result.bounty == r.bounty
    assert paid > 10


def test_the_history_names_the_bounty_and_refuses_a_bad_one() -> None:
    state = _start(["7c2d", "AhKh", "QsQd"])
    state.apply(Action(0, "raise", amount=40))
    state.apply(Action(1, "fold"))
    state.apply(Action(2, "fold"))
    text = to_phh(state)
    assert "_seven_deuce = 20" in text
    # The public history (hidden cards hidden) shows the bounty winner's cards.
    public = to_phh(state, hide_unshown=True)
    assert "7c2d" in public and "AhKh" not in public
    with pytest.raises(HistoryError, match="_seven_deuce"):
        replay_phh(text.replace("_seven_deuce = 20", "_seven_deuce = -3"))
    with pytest.raises(HistoryError, match="_seven_deuce"):
        replay_phh(text.replace("_seven_deuce = 20", '_seven_deuce = "lots"'))

"""Running it twice (``HandSetup.run_twice``, rules_engine.games.flop): when the betting ends for
good before the river and every seat still in agrees, the cards to come are dealt twice and each
pot is split between the two boards, the odd chip to the first."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules_engine.cards import parse_cards
from rules_engine.errors import RulesError, SetupError
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.notation import HistoryError, replay_phh, replay_summary, to_phh


def _cards(text: str):
    return list(parse_cards(text))


def _setup(code: str, hands, board: str, *, button: int, agree, stacks=None, second: str = "", **kw) -> HandSetup:
    game = get_variant(code)
    n = len(hands)
    deck = game.stacked_deck([None if h is None else _cards(h) for h in hands], button,
                             _cards(board), _cards(second) if second else ())
    return HandSetup(stacks or (1000,) * n, button, 5, 10, deck=deck, run_twice=tuple(agree), **kw)


def _all_in_preflop(state) -> None:
    """Everyone still to act goes all-in or calls it."""
    while state.to_act is not None:
        seat = state.to_act
        legal = {a.kind: a for a in state.legal_actions(seat)}
        if "all_in" in legal or "raise" in legal:
            la = legal.get("raise") or legal["all_in"]
            state.apply(Action(seat, la.kind, la.max_amount or la.to))
        else:
            state.apply(Action(seat, "call"))


def _chips_kept(state) -> None:
    r = state.result
    assert sum(r.payouts) + r.rake == sum(r.contributions)
    assert sum(state.stacks) == sum(state.setup.stacks)


def test_an_all_in_before_the_flop_deals_two_whole_boards_from_the_same_deck() -> None:
    # Seat 0 (aces) and seat 1 (kings); the first run gives the kings a set, the second run is
    # dealt from the cards after the first river, a burn before each street.
    setup = _setup("NT", ["Ah Ad", "Kh Kd", None], "2c 7d 9s Ks 3h", button=2, agree=(0, 1),
                   second="4c 4d 4h 5c 5h")
    state = get_variant("NT").start(setup)
    state.apply(Action(2, "fold"))
    state.apply(Action(0, "raise", 1000))
    events = state.apply(Action(1, "call"))
    kinds = [(e.kind, e.board) for e in events if e.kind in ("flop", "turn", "river", "run_twice")]
    assert kinds == [("flop", None), ("turn", None), ("river", None), ("run_twice", None),
                     ("flop", 1), ("turn", 1), ("river", 1)]
    assert [str(c) for c in state.board] == ["2c", "7d", "9s", "Ks", "3h"]
    assert [str(c) for c in state.second_board] == ["4c", "4d", "4h", "5c", "5h"]
    deck = setup.deck
    hole = 2 * 3
    # First run: burn, 3, burn, 1, burn, 1 (8 cards); second run the same from there.
    assert [str(deck[hole + 8 + i]) for i in (1, 2, 3, 5, 7)] == ["4c", "4d", "4h", "5c", "5h"]
    pot = state.result.pots[0]
    assert pot.amount == 2000
    assert [(b.board, b.share, [w.seat for w in b.winners]) for b in pot.boards] == [(0, 1000, [1]), (1, 1000, [0])]
    assert state.result.payouts == (1000, 1000, 0)
    wins = [(e.seat, e.amount, e.board) for e in events if e.kind == "win"]
    assert wins == [(1, 1000, 0), (0, 1000, 1)]
    _chips_kept(state)
    view = state.view_for(None)
    assert view["second_board"] == ["4c", "4d", "4h", "5c", "5h"] and view["shared_cards"] == 0


def test_an_all_in_on_the_flop_shares_the_flop_and_runs_the_turn_and_river_twice() -> None:
    setup = _setup("NT", ["Ah Ad", "Kh Kd"], "Ac 7d 9s 2h 3h", button=0, agree=(0, 1), second="Kc 8c")
    state = get_variant("NT").start(setup)
    state.apply(Action(0, "call"))  # heads-up the button is the small blind and acts first
    state.apply(Action(1, "check"))
    assert state.phase == "flop"
    state.apply(Action(1, "bet", 990))
    state.apply(Action(0, "call"))
    assert [str(c) for c in state.second_board] == ["Ac", "7d", "9s", "Kc", "8c"]
    assert state.view_for(1)["shared_cards"] == 3
    # Aces take the first run (a set); the second: aces' set against kings' set, aces again.
    assert state.result.payouts == (2000, 0)
    assert [b.board for b in state.result.pots[0].boards] == [0, 1]
    _chips_kept(state)


def test_the_odd_chip_goes_to_the_first_run() -> None:
    # Blinds 5/10 and a caller for 1005 in all: an odd pot run twice.
    setup = _setup("NT", ["Ah Ad", "Kh Kd", None], "Ks 7d 9s 2c 3h", button=2, agree=(0, 1),
                   stacks=(1000, 1000, 1000), second="Ac 4d 4h 5c 5h")
    state = get_variant("NT").start(setup)
    state.apply(Action(2, "call"))
    state.apply(Action(0, "raise", 1000))
    state.apply(Action(1, "call"))
    state.apply(Action(2, "fold"))
    pot = state.result.pots[0]
    assert pot.amount == 2010
    assert [(b.board, b.share) for b in pot.boards] == [(0, 1005), (1, 1005)]
    setup = _setup("NT", ["Ah Ad", "Kh Kd", None], "Ks 7d 9s 2c 3h", button=2, agree=(0, 1),
                   stacks=(1000, 1000, 1000), second="Ac 4d 4h 5c 5h", ante=1)
    state = get_variant("NT").start(setup)
    state.apply(Action(2, "fold"))
    state.apply(Action(0, "raise", 999))
    state.apply(Action(1, "call"))
    pot = state.result.pots[0]
    assert pot.amount == 2001
    assert [(b.board, b.share, b.winners[0].seat) for b in pot.boards] == [(0, 1001, 1), (1, 1000, 0)]
    assert state.result.payouts == (1000, 1001, 0)
    _chips_kept(state)


@pytest.mark.parametrize("agree", [(0,), (1,), ()])
def test_it_runs_once_unless_every_seat_still_in_agrees(agree) -> None:
    setup = _setup("NT", ["Ah Ad", "Kh Kd", None], "2c 7d 9s Ks 3h", button=2, agree=agree)
    state = get_variant("NT").start(setup)
    state.apply(Action(2, "fold"))
    state.apply(Action(0, "raise", 1000))
    events = state.apply(Action(1, "call"))
    assert state.second_board is None
    assert not any(e.kind == "run_twice" or e.board for e in events)
    assert state.result.payouts == (0, 2000, 0)
    assert state.view_for(0)["second_board"] is None


def test_a_folded_seat_has_no_say() -> None:
    # Seat 2 folded without agreeing; the two still in agree.
    setup = _setup("NT", ["Ah Ad", "Kh Kd", None], "2c 7d 9s Ks 3h", button=2, agree=(0, 1))
    state = get_variant("NT").start(setup)
    state.apply(Action(2, "fold"))
    _all_in_preflop(state)
    assert state.second_board is not None


def test_nothing_runs_twice_when_the_betting_reaches_the_river() -> None:
    setup = _setup("NT", ["Ah Ad", "Kh Kd"], "2c 7d 9s Ks 3h", button=0, agree=(0, 1))
    state = get_variant("NT").start(setup)
    state.apply(Action(0, "call"))
    state.apply(Action(1, "check"))
    for _ in range(2):
        state.apply(Action(1, "check"))
        state.apply(Action(0, "check"))
    assert state.phase == "river"
    state.apply(Action(1, "bet", 990))
    state.apply(Action(0, "call"))
    assert state.second_board is None and len(state.result.pots[0].boards) == 1


def test_side_pots_are_each_split_between_the_runs() -> None:
    # Three all-in preflop with different stacks: a main pot of three and a side pot of two.
    setup = _setup("NT", ["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7d 9s Ks 3h", button=2, agree=(0, 1, 2),
                   stacks=(500, 1000, 1000), second="Qc 4d 4h 5c 5h")
    state = get_variant("NT").start(setup)
    _all_in_preflop(state)
    main, side = state.result.pots
    assert main.amount == 1500 and side.amount == 1000
    # Run 1: kings' set wins both; run 2: queens' set wins both halves it is in.
    assert [(b.board, b.share, b.winners[0].seat) for b in main.boards] == [(0, 750, 1), (1, 750, 2)]
    assert [(b.board, b.share, b.winners[0].seat) for b in side.boards] == [(0, 500, 1), (1, 500, 2)]
    assert state.result.payouts == (0, 1250, 1250)
    _chips_kept(state)


def test_omaha_hi_lo_splits_each_run_high_and_low() -> None:
    setup = _setup("PO/8", ["Ah 2d 3c Kd", "Kh Kc 6d 8d", None], "2c 7d 9s 4d 4s", button=2,
                   agree=(0, 1, 2), stacks=(1000, 1001, 1000), second="5d 5s")
    state = get_variant("PO/8").start(setup)
    state.apply(Action(2, "call"))
    state.apply(Action(0, "call"))
    state.apply(Action(1, "check"))
    state.apply(Action(0, "bet", 30))
    state.apply(Action(1, "raise", 120))
    state.apply(Action(2, "fold"))
    _all_in_preflop(state)
    pot = state.result.pots[0]
    parts = [(b.board, b.half, b.share, b.winners[0].seat) for b in pot.boards]
    assert parts == [(0, "high", 503, 1), (0, "low", 502, 0), (1, "high", 503, 1), (1, "low", 502, 0)]
    assert state.result.scoop is None
    _chips_kept(state)


def test_ten_omaha_players_all_in_before_the_flop_run_once_for_want_of_cards() -> None:
    game = get_variant("PO")
    for n, twice in ((10, False), (9, True)):
        state = game.start(HandSetup((10,) * n, 0, 5, 10, run_twice=tuple(range(n))), rng=random.Random(3))
        _all_in_preflop(state)
        assert (state.second_board is not None) is twice
        _chips_kept(state)


def test_only_hold_em_and_omaha_run_twice() -> None:
    for code in ("F7S", "F5D", "P5D", "PP"):
        game = get_variant(code)
        setup = HandSetup((1000, 1000), 0, 5, 10, run_twice=(0, 1))
        if code != "PP":
            setup = game.setup_for_table(stacks=(1000, 1000), button=0, small_blind=5, big_blind=10)
            setup = dataclasses.replace(setup, run_twice=(0, 1))
        with pytest.raises(SetupError, match="run twice"):
            game.start(setup)
    with pytest.raises(SetupError, match="different seats"):
        get_variant("NT").validate_setup(HandSetup((1000, 1000), 0, 5, 10, run_twice=(0, 0)))
    with pytest.raises(SetupError, match="different seats"):
        get_variant("NT").validate_setup(HandSetup((1000, 1000), 0, 5, 10, run_twice=(2,)))
    setup = HandSetup((1000, 1000), 0, 5, 10, run_twice=(1, 0))
    assert HandSetup.from_json(setup.to_json()) == setup
    assert "run_twice" not in HandSetup((1000, 1000), 0, 5, 10).to_json()


@pytest.mark.parametrize("code,seed", [("NT", 1), ("NT", 2), ("PO", 3), ("PO/8", 4), ("FT", 5), ("FO/8", 6)])
def test_a_hand_run_twice_survives_its_hand_history(code, seed) -> None:
    rng = random.Random(seed)
    game = get_variant(code)
    twice = 0
    for _ in range(15):
        n = rng.randint(2, 6)
        state = game.start(HandSetup(tuple(rng.choice((30, 60, 200, 1000)) for _ in range(n)), 0, 5, 10,
                                     small_bet=10, big_bet=20, run_twice=tuple(range(n))), rng=rng)
        while state.to_act is not None:
            legal = state.legal_actions(state.to_act)
            la = rng.choice(legal)
            amount = la.max_amount if la.kind in ("raise", "bet", "all_in") and rng.random() < 0.5 else None
            state.apply(Action(state.to_act, la.kind, amount))
        text = to_phh(state)
        again = replay_phh(text)
        assert again.result == state.result and again.board == state.board
        assert again.second_board == state.second_board and again.stacks == state.stacks
        if state.second_board is not None:
            twice += 1
            assert "_run_twice" in text and "# second run" in text
    assert twice


def test_a_history_with_a_bad_second_run_is_refused() -> None:
    setup = _setup("NT", ["Ah Ad", "Kh Kd", None], "2c 7d 9s Ks 3h", button=2, agree=(0, 1))
    state = get_variant("NT").start(setup)
    state.apply(Action(2, "fold"))
    _all_in_preflop(state)
    text = to_phh(state)
    assert replay_phh(text).result.payouts == state.result.payouts
    summary = replay_summary(text, verbose=True)
    assert summary["second_board"] == "".join(map(str, state.second_board))
    assert [h["run"] for h in summary["pots"][0]["halves"]] == [1, 2]
    # The second run's last card left out: four cards is no run.
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if "second run" in line)
    with pytest.raises(HistoryError, match="5, 2 or 1"):
        replay_phh("\n".join(lines[:last] + lines[last + 1:]))
    # The agreement left out: ten board cards are too many.
    with pytest.raises(HistoryError, match="five cards at most"):
        replay_phh(text.replace("_run_twice = [1, 2]\n", ""))
    with pytest.raises(HistoryError, match="_run_twice lists"):
        replay_phh(text.replace("_run_twice = [1, 2]", "_run_twice = [1, 9]"))
    with pytest.raises(RulesError):
        replay_phh(text.replace("_run_twice = [1, 2]", '_run_twice = "yes"'))

"""The betting core and its structures; GAMES.md test vectors P1-P7 (pot-only)."""

from __future__ import annotations

import pytest

from rules_engine.betting import Betting, FixedLimit, NoLimit, PotLimit, PotOnly, Wager
from rules_engine.errors import IllegalAction
from rules_engine.games import Action
from tests.rules_engine.conftest import options, play, stacked


def preflop(stacks: list[int], structure: object = None, sb: int = 5, bb: int = 10, button: int = 0) -> Betting:
    """Post blinds like a button game and open the pre-flop round."""
    b = Betting(stacks, structure or PotOnly(), big_blind=bb)  # type: ignore[arg-type]
    n = len(stacks)
    sb_seat = button if n == 2 else (button + 1) % n
    bb_seat = (sb_seat + 1) % n
    b.post(sb_seat, sb)
    b.post(bb_seat, bb)
    b.open_round((bb_seat + 1) % n, preflop=True)
    return b


# -- P1-P7 on the core ------------------------------------------------------------------------


def test_p1_three_handed_button_first_preflop() -> None:
    b = preflop([1000, 1000, 1000])
    assert b.to_act == 0 and b.pot == 15
    o = b.options(0)
    assert (o.can_fold, o.call, o.min_to, o.max_to) == (True, 10, 35, 35)


def test_p2_small_blind_facing_the_raise_to_35() -> None:
    b = preflop([1000, 1000, 1000])
    b.bet_or_raise_to(0, 35)
    assert b.to_act == 1 and b.pot == 50
    o = b.options(1)
    assert (o.call, o.min_to) == (30, 115)


def test_p3_heads_up_small_blind_is_the_button_and_acts_first() -> None:
    b = preflop([1000, 1000], button=0)
    assert b.to_act == 0 and b.pot == 15
    o = b.options(0)
    assert (o.call, o.min_to) == (5, 30)


def test_p4_big_blind_option_after_everyone_called() -> None:
    b = preflop([1000, 1000, 1000])
    b.check_or_call(0)
    b.check_or_call(1)
    assert b.to_act == 2 and b.pot == 30
    o = b.options(2)
    assert (o.can_check, o.min_to, o.min_to - o.bet) == (True, 40, 30)


def test_p5_p6_p7_flop() -> None:
    b = preflop([5000, 5000], button=0)
    b.bet_or_raise_to(0, 30)
    b.check_or_call(1)
    assert b.to_act is None and b.pot == 60
    b.open_round(1)
    o = b.options(1)
    assert (o.can_check, o.min_to) == (True, 60)  # P5
    b.bet_or_raise_to(1, 60)
    o = b.options(0)
    assert (b.pot, o.call, o.min_to) == (120, 60, 240)  # P6
    b.bet_or_raise_to(0, 240)
    o = b.options(1)
    assert (b.pot, o.call, o.min_to) == (360, 180, 780)  # P7


# -- the same vectors through the Patch-Patch engine ------------------------------------------


def test_p1_p2_engine() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    assert s.pot == 15 and s.actors() == (0,)
    assert options(s) == [("fold", 0), ("call", 10), ("raise_pot", 35)]
    play(s, "raise_pot")
    assert s.pot == 50 and s.actors() == (1,)
    assert options(s) == [("fold", 0), ("call", 30), ("raise_pot", 115)]
    labels = [la.label for la in s.legal_actions(1)]
    assert labels == ["Fold", "Call 30", "Raise to 115"]


def test_p3_engine() -> None:
    s = stacked([1000, 1000], button=1)
    assert s.small_blind_seat == 1 and s.big_blind_seat == 0
    assert s.actors() == (1,) and s.pot == 15
    assert options(s) == [("fold", 0), ("call", 5), ("raise_pot", 30)]


def test_p4_engine() -> None:
    s = stacked([1000, 1000, 1000], button=2)
    play(s, "call", "call")
    assert s.actors() == (1,) and s.pot == 30  # the big blind (seat 1)
    legal = s.legal_actions(1)
    assert [(la.kind, la.amount, la.adds) for la in legal] == [("check", 0, 0), ("raise_pot", 40, 30)]


@pytest.mark.parametrize("players", [2, 3])
def test_p5_p6_p7_engine(players: int) -> None:
    s = stacked([5000] * players, button=0)
    if players == 3:
        play(s, "fold", "raise_pot", "call")  # button folds, SB raises to 30, BB calls
    else:
        play(s, "raise_pot", "call")
    play(s, "done")
    assert s.phase == "flop" and s.pot == 60
    assert options(s) == [("check", 0), ("bet_pot", 60)]  # P5
    assert [la.label for la in s.legal_actions(s.actors()[0])] == ["Check", "Bet pot 60"]
    play(s, "bet_pot")
    assert s.pot == 120 and options(s) == [("fold", 0), ("call", 60), ("raise_pot", 240)]  # P6
    play(s, "raise_pot")
    assert s.pot == 360 and options(s) == [("fold", 0), ("call", 180), ("raise_pot", 780)]  # P7


# -- pot-only rules ---------------------------------------------------------------------------


def test_every_bet_is_exactly_the_pot_no_other_size() -> None:
    s = stacked([1000, 1000, 1000])
    with pytest.raises(IllegalAction, match="one size"):
        s.apply(Action(0, "raise_pot", amount=30))
    s.apply(Action(0, "raise_pot", amount=35))
    b = Betting([1000, 1000], PotOnly(), 10)
    b.post(0, 5)
    b.post(1, 10)
    b.open_round(0, preflop=True)
    with pytest.raises(IllegalAction):
        b.bet_or_raise_to(0, 31)


def test_short_stack_goes_all_in_instead_of_the_pot() -> None:
    s = stacked([25, 1000, 1000])
    assert options(s) == [("fold", 0), ("call", 10), ("all_in", 25)]
    la = s.legal_actions(0)[-1]
    assert (la.all_in, la.adds, la.label) == (True, 25, "All-in 25")


def test_stack_exactly_the_pot_raise_is_a_pot_raise_that_is_all_in() -> None:
    s = stacked([35, 1000, 1000])
    la = s.legal_actions(0)[-1]
    assert (la.kind, la.amount, la.all_in) == ("raise_pot", 35, True)


def test_a_stack_larger_than_the_pot_cannot_go_all_in() -> None:
    s = stacked([1000, 1000, 1000])
    with pytest.raises(IllegalAction, match="cannot go all-in"):
        s.apply(Action(0, "all_in"))


def test_call_for_less_is_an_all_in_call() -> None:
    s = stacked([1000, 1000, 20], button=0)  # seat 2 is the big blind with 10 behind
    play(s, "raise_pot")  # to 35
    play(s, "fold")
    la = s.legal_actions(2)
    assert [(x.kind, x.amount, x.all_in) for x in la] == [("fold", 0, False), ("call", 10, True)]


def test_short_all_in_does_not_reopen_betting_for_those_who_acted() -> None:
    # Flop, three-handed: seat 1 bets pot, seat 2 (short) moves all-in for less than a raise,
    # seat 0 may still raise (has not acted), then seat 1 may only call or fold.
    s = stacked([1000, 1000, 95], button=0)
    play(s, "call", "call", "check", "done")  # pot 30, seat 2 has 85 behind
    assert s.phase == "flop" and s.actors() == (1,)
    play(s, "bet_pot")  # 30
    assert options(s) == [("fold", 0), ("call", 30), ("all_in", 85)]  # pot raise would be 120
    play(s, "all_in")
    assert s.actors() == (0,)
    assert options(s)[-1] == ("raise_pot", 85 + (145 + 85))  # level 85 + pot after the call
    play(s, "call")
    assert s.actors() == (1,)
    assert options(s) == [("fold", 0), ("call", 55)]  # no raise: the all-in was short


def test_short_all_in_bet_does_not_reopen_for_a_player_who_checked() -> None:
    s = stacked([1000, 50, 1000], button=0)
    play(s, "call", "call", "check", "done")  # pot 30; seat 1 (SB) has 40 behind
    play(s, "check")  # seat 1 checks... it is first: SB
    assert s.actors() == (2,)
    play(s, "bet_pot")  # seat 2 bets 30
    assert s.actors() == (0,)
    play(s, "call")
    assert s.actors() == (1,)
    assert options(s) == [("fold", 0), ("call", 30), ("all_in", 40)]
    play(s, "all_in")  # 40 < 120: short
    assert s.actors() == (2,)
    assert options(s) == [("fold", 0), ("call", 10)]
    play(s, "call")
    assert s.actors() == (0,)
    assert options(s) == [("fold", 0), ("call", 10)]


def test_full_raise_reopens_betting_and_check_raise_is_allowed_after_the_flops() -> None:
    s = stacked([5000, 5000, 5000], button=0)
    play(s, "call", "call", "check", "done")
    play(s, "check")  # SB checks
    play(s, "bet_pot")  # BB bets 30
    play(s, "call")  # button calls
    assert s.actors() == (1,)
    assert options(s)[-1] == ("raise_pot", 30 + 90 + 30)  # check-raise
    play(s, "raise_pot")
    assert options(s) == [("fold", 0), ("call", 120), ("raise_pot", 150 + (240 + 120))]


def test_preflop_big_blind_check_ends_the_round() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "call", "call", "check")
    assert s.phase == "arrange"


def test_fold_is_not_offered_when_checking_is_possible() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "call", "call")
    with pytest.raises(IllegalAction, match="check instead"):
        s.apply(Action(2, "fold"))


def test_nobody_raises_when_everyone_else_is_all_in() -> None:
    s = stacked([1000, 20, 1000], button=0)
    play(s, "fold")  # button folds
    play(s, "all_in")  # SB all-in to 20
    assert options(s) == [("fold", 0), ("call", 10)]


def test_short_big_blind_still_has_to_be_called_in_full() -> None:
    s = stacked([1000, 1000, 4], button=0)  # big blind all-in for 4
    assert s.all_in[2]
    assert options(s) == [("fold", 0), ("call", 10), ("raise_pot", 10 + 9 + 10)]


def test_heads_up_blind_all_in_ends_the_betting_and_returns_the_excess() -> None:
    s = stacked([1000, 3], button=0)  # seat 1 is the big blind with 3 chips
    assert s.phase == "arrange"  # nobody can bet: straight to the flops
    assert s.contributed == (3, 3)
    assert s.stacks == (997, 0)


# -- other structures (the same core) ---------------------------------------------------------


def w(**kw: int) -> Wager:
    base = dict(pot=0, level=0, bet=0, stack=10_000, last_raise=0, raises=0, street=1, big_blind=10)
    base.update(kw)
    return Wager(**base)


def test_pot_limit_seed_example_raise_to_at_most_800() -> None:
    # Active pot 200, first bets 150, second calls 150: the third may raise to at most 800.
    assert PotLimit().raise_range(w(pot=500, level=150, last_raise=150, raises=1)) == (300, 800)


def test_no_limit_min_raise_is_the_last_bet_or_raise() -> None:
    assert NoLimit().raise_range(w(pot=300, level=100, last_raise=100, raises=1)) == (200, 10_000)
    assert NoLimit().raise_range(w(pot=30)) == (10, 10_000)


def test_fixed_limit_sizes_and_cap() -> None:
    fl = FixedLimit(10, 20)
    assert fl.raise_range(w(street=0, level=10, raises=1)) == (20, 20)
    assert fl.raise_range(w(street=2, level=0)) == (20, 20)
    assert fl.raise_range(w(street=1, level=40, raises=4)) is None


def test_no_limit_game_through_the_core() -> None:
    b = preflop([1000, 1000, 1000], NoLimit())
    o = b.options(0)
    assert (o.call, o.min_to, o.max_to) == (10, 20, 1000)
    b.bet_or_raise_to(0, 50)
    o = b.options(1)
    assert (o.call, o.min_to, o.max_to) == (45, 90, 1000)
    with pytest.raises(IllegalAction):
        b.bet_or_raise_to(1, 60)


def test_no_limit_short_all_in_keeps_the_min_raise_and_does_not_reopen() -> None:
    b = Betting([1000, 130, 1000], NoLimit(), 10)
    b.open_round(0)
    b.bet_or_raise_to(0, 100)
    assert b.bet_or_raise_to(1, 130) is False  # all-in, less than a full raise (to 200)
    o = b.options(2)
    assert (o.call, o.min_to) == (130, 230)  # the min raise is still 100 over the level
    b.check_or_call(2)
    o = b.options(0)
    assert (o.call, o.min_to) == (30, None)


def test_fixed_limit_game_caps_at_four_bets() -> None:
    b = preflop([1000, 1000, 1000], FixedLimit(10, 20))
    b.bet_or_raise_to(0, 20)
    b.bet_or_raise_to(1, 30)
    b.bet_or_raise_to(2, 40)  # big blind + 3 raises = the cap
    o = b.options(0)
    assert (o.call, o.min_to) == (20, None)


def test_antes_are_dead_money() -> None:
    b = Betting([100, 100, 100], NoLimit(), 10)
    for seat in range(3):
        b.post(seat, 1, live=False)
    b.open_round(0)
    assert b.pot == 3 and b.level == 0
    assert b.options(0).can_check

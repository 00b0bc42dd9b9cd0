"""Patch-Patch rules, sentence by sentence (GAMES.md section 2), and test vector S2."""

from __future__ import annotations

import random

import pytest

from rules_engine.cards import FULL_DECK
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, RulesError, SetupError
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.games.patchpatch import (
    ARRANGE_SECONDS,
    DECISION_SECONDS,
    PatchPatch,
    PatchPatchState,
)
from tests.rules_engine.conftest import cards, options, play, random_hand, stacked

PP = get_variant("PP")

# -- S2: the tutorial hand --------------------------------------------------------------------

ME = ["Ah Kh Tc Td", "Qc 9d 5c 6s", "Ks Kc 3h 3s"]
DANA = ["8d 8s Qh Qs", "Qd 9c 5d 5s", "Ad 6d 7c 7h"]
S2_BOARDS = ["9h 5h 8c 2h 3d", "Jc Ts 8h 2d 4c", "Kd 7d 4d 2s Jh"]


def s2_hand() -> PatchPatchState:
    """Me (seat 0, button) and Dana (seat 1), 150 each, all-in pre-flop: a pot of 300.

    Both are dealt their cards scrambled (reversed) and arrange them after the flops.
    """
    me = " ".join(ME).split()[::-1]
    dana = " ".join(DANA).split()[::-1]
    s = stacked([150, 150], button=0, hands=[" ".join(me), " ".join(dana)], boards=S2_BOARDS)
    play(s, "raise_pot")  # me to 30
    play(s, "raise_pot")  # Dana to 90
    assert options(s) == [("fold", 0), ("call", 60), ("all_in", 150)]
    play(s, "all_in")
    play(s, "call")
    assert s.phase == "arrange" and s.pot == 300 and s.all_in == (True, True)
    s.apply(Action.arrange(0, cards(" ".join(ME))))
    s.apply(Action(0, "done"))
    s.apply(Action.arrange(1, cards(" ".join(DANA))))
    s.apply(Action(1, "done"))
    return s


def test_s2_tutorial_hand_win_split_lose() -> None:
    s = s2_hand()
    assert s.is_over
    r = s.result
    assert r is not None and r.showdown
    assert r.payouts == (150, 150) and r.net == (0, 0) and r.rake == 0 and r.scoop is None
    (pot,) = r.pots
    assert pot.amount == 300 and [b.share for b in pot.boards] == [100, 100, 100]
    b1, b2, b3 = pot.boards
    assert [(w.seat, w.amount, w.category) for w in b1.winners] == [(0, 100, "flush")]
    assert set(b1.winners[0].cards) == set(cards("Ah Kh 9h 5h 2h"))
    assert b1.winners[0].description == "Flush, ace high"
    assert sorted((w.seat, w.amount, w.category) for w in b2.winners) == [
        (0, 50, "straight"),
        (1, 50, "straight"),
    ]
    assert all("queen" in w.description for w in b2.winners)
    assert [(w.seat, w.amount, w.category) for w in b3.winners] == [(1, 100, "flush")]
    assert set(b3.winners[0].cards) == set(cards("Ad 6d Kd 7d 4d"))
    assert s.stacks == (150, 150)


# -- setup ------------------------------------------------------------------------------------


def setup(**kw: object) -> HandSetup:
    base: dict[str, object] = dict(stacks=(1000, 1000, 1000), button=0, small_blind=5, big_blind=10)
    base.update(kw)
    return HandSetup(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (dict(stacks=(1000,)), "2 or 3 players, not 1"),
        (dict(stacks=(1000,) * 4), "2 or 3 players, not 4"),
        (dict(stacks=(1000, -5, 1000)), "below zero"),
        (dict(stacks=(1000, 0, 1000)), "no chips"),
        (dict(stacks=(1000, 10.5, 1000)), "whole number"),
        (dict(button=3), "button"),
        (dict(small_blind=0), "blinds"),
        (dict(small_blind=20, big_blind=10), "blinds"),
        (dict(speed="ludicrous"), "speed"),
        (dict(stacks=(1000, 40, 1000), check_buy_in=True), "5 to 150 big blinds"),
        (dict(stacks=(1000, 1501, 1000), check_buy_in=True), "5 to 150 big blinds"),
        (dict(deck=tuple(FULL_DECK[:50])), "need 51 cards"),
        (dict(deck=(FULL_DECK[0],) * 52), "same card twice"),
    ],
)
def test_impossible_setups_are_refused_with_a_clear_error(kw: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        PP.start(setup(**kw), rng=random.Random(1))


def test_buy_in_limits_are_inclusive_and_only_checked_when_asked() -> None:
    PP.start(setup(stacks=(50, 1500, 1000), check_buy_in=True), rng=random.Random(1))
    PP.start(setup(stacks=(40, 1501, 1000)), rng=random.Random(1))


def test_rng_only_when_no_deck_and_the_state_keeps_the_deck() -> None:
    a = PP.start(setup(), rng=random.Random(5))
    b = PP.start(setup(), rng=random.Random(5))
    c = PP.start(setup(), rng=random.Random(6))
    assert a == b and a != c
    assert a.setup.deck is not None and len(a.setup.deck) == 52
    deck = tuple(reversed(FULL_DECK))
    d = PP.start(setup(deck=deck), rng=random.Random(5))
    assert d.setup.deck == deck


def test_without_rng_the_deck_comes_from_the_system_csprng() -> None:
    a = PP.start(setup())
    b = PP.start(setup())
    assert a.setup.deck != b.setup.deck


def test_clock_constants_per_speed() -> None:
    assert ARRANGE_SECONDS == {"slow": 180.0, "medium": 120.0, "fast": 100.0}
    assert DECISION_SECONDS == {"slow": 37.5, "medium": 25.0, "fast": 12.0}
    s = stacked([1000, 1000], speed="fast")
    assert (s.clock(), s.clock_seconds()) == ("decision", 12.0)
    play(s, "call", "check")
    assert (s.clock(), s.clock_seconds()) == ("arrange", 100.0)


# -- deck and seats ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "used"), [(3, 51), (2, 39)])
def test_a_hand_uses_51_cards_three_handed_and_39_heads_up(players: int, used: int) -> None:
    s = PP.start(setup(stacks=(1000,) * players), rng=random.Random(2))
    play(s, *(["call"] * (players - 1)), "check", "done", *(["check"] * (3 * players)))
    assert s.is_over and s.result is not None and s.result.showdown
    seen = [c for seat in range(players) for c in s.hand_of(seat)] + [c for b in s.boards for c in b]
    assert len(seen) == len(set(seen)) == used


def test_no_burns_cards_are_dealt_round_the_table_then_flops_turns_rivers() -> None:
    deck = tuple(FULL_DECK)
    s = PP.start(setup(button=1, deck=deck))
    # Dealing starts left of the button (seat 2), one card at a time.
    assert s.dealt[2] == deck[0:36:3] and s.dealt[0] == deck[1:36:3] and s.dealt[1] == deck[2:36:3]
    play(s, "call", "call", "check")
    assert [tuple(b) for b in s.boards] == [deck[36:39], deck[39:42], deck[42:45]]
    play(s, "done", "check", "check", "check")
    assert [b[3] for b in s.boards] == list(deck[45:48])
    play(s, "check", "check", "check")
    assert [b[4] for b in s.boards] == list(deck[48:51])


def test_three_handed_seats_are_button_small_blind_big_blind() -> None:
    s = stacked([1000, 1000, 1000], button=1)
    assert (s.small_blind_seat, s.big_blind_seat) == (2, 0)
    assert s.bets == (10, 0, 5) and s.stacks == (990, 1000, 995)
    assert s.actors() == (1,)  # the button acts first pre-flop


def test_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    s = stacked([1000, 1000], button=0)
    assert (s.small_blind_seat, s.big_blind_seat) == (0, 1)
    assert s.bets == (5, 10) and s.actors() == (0,)


def test_short_blinds_post_all_in() -> None:
    s = stacked([1000, 3, 1000], button=0)
    assert s.bets == (0, 3, 10) and s.all_in == (False, True, False)


# -- the hand step by step --------------------------------------------------------------------


def test_dealt_cards_sit_by_the_boards_in_the_order_dealt() -> None:
    s = PP.start(setup(), rng=random.Random(3))
    for seat in range(3):
        dealt = s.dealt[seat]
        assert s.hand_of(seat) == dealt
        assert s.hands_of(seat) == (dealt[0:4], dealt[4:8], dealt[8:12])


def test_phases_in_order_and_flops_dealt_at_once() -> None:
    s = stacked([1000, 1000, 1000])
    assert s.phase == "preflop" and s.boards == [[], [], []]
    s.apply(Action(0, "call"))
    s.apply(Action(1, "call"))
    events = s.apply(Action(2, "check"))
    assert s.phase == "arrange"
    assert [e.kind for e in events if e.kind == "flop"] == ["flop"] * 3
    assert [len(b) for b in s.boards] == [3, 3, 3]
    assert s.actors() == (0, 1, 2) and s.clock() == "arrange"
    play(s, "done")
    assert s.phase == "flop" and s.actors() == (1,)  # small blind first after the flops
    play(s, "check", "check", "check")
    assert s.phase == "turn" and [len(b) for b in s.boards] == [4, 4, 4]
    play(s, "check", "check", "check")
    assert s.phase == "river" and [len(b) for b in s.boards] == [5, 5, 5]
    play(s, "check", "check")
    assert s.actors() == (0,)  # the button acts last
    play(s, "check")
    assert s.phase == "over" and s.is_over and s.actors() == () and s.clock() is None


def test_after_the_flops_first_to_act_is_the_first_player_in_hand_left_of_the_button() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "call", "fold", "check", "done")  # the small blind folded
    assert s.actors() == (2,)
    hu = stacked([1000, 1000], button=0)
    play(hu, "call", "check", "done")
    assert hu.actors() == (1,)  # heads-up: the big blind
    play(hu, "check")
    assert hu.actors() == (0,)


def test_the_pot_includes_chips_of_players_who_folded() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "raise_pot", "call", "fold", "done")  # 35 + 35 + the folded big blind's 10
    assert s.pot == 80
    assert options(s) == [("check", 0), ("bet_pot", 80)]


def test_fold_gives_up_all_three_boards() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "call", "call", "check", "done", "check", "bet_pot", "fold", "call")
    assert s.folded == (True, False, False)
    play(s, "check", "check", "check", "check")
    r = s.result
    assert r is not None and r.showdown and r.shown == (1, 2)
    assert all(0 not in pot.eligible for pot in r.pots)
    assert r.payouts[0] == 0


def test_everyone_folds_the_last_player_takes_the_pot_unseen() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    events = []
    events += s.apply(Action(0, "fold"))
    events += s.apply(Action(1, "fold"))
    assert s.is_over
    r = s.result
    assert r is not None and not r.showdown and r.shown == ()
    assert r.payouts == (0, 0, 10) and r.net == (0, -5, 5) and r.returned == (0, 0, 5)
    assert r.stacks == (1000, 995, 1005)
    assert not any(e.kind == "show" for e in events)
    assert s.boards == [[], [], []]


# -- arrangement ------------------------------------------------------------------------------


def test_arrangement_swap_arrange_and_done() -> None:
    s = stacked([1000, 1000, 1000])
    play(s, "call", "call", "check")
    h = list(s.hand_of(0))
    s.apply(Action.swap(0, h[0], h[11]))
    assert s.hand_of(0) == (h[11], *h[1:11], h[0])
    new = tuple(reversed(h))
    s.apply(Action.arrange(0, new))
    assert s.hand_of(0) == new
    s.apply(Action(0, "done"))
    assert s.actors() == (1, 2) and s.submitted == [True, False, False]
    with pytest.raises(OutOfTurn, match="already submitted"):
        s.apply(Action.swap(0, h[0], h[1]))
    play(s, "done")
    assert s.phase == "flop"
    with pytest.raises(IllegalAction, match="fixed"):
        s.apply(Action.swap(1, *s.hand_of(1)[:2]))


def test_arrangement_errors() -> None:
    s = stacked([1000, 1000, 1000])
    h0 = s.hand_of(0)
    with pytest.raises(IllegalAction, match="once the three flops"):
        s.apply(Action.swap(0, h0[0], h0[1]))
    play(s, "call", "call", "check")
    h1 = s.hand_of(1)
    with pytest.raises(IllegalAction, match="does not hold"):
        s.apply(Action.swap(0, h0[0], h1[0]))
    with pytest.raises(MalformedAction, match="two different"):
        s.apply(Action.swap(0, h0[0], h0[0]))
    with pytest.raises(MalformedAction):
        s.apply(Action(0, "swap", cards=(h0[0],)))
    with pytest.raises(MalformedAction):
        s.apply(Action.arrange(0, h0[:11]))
    with pytest.raises(IllegalAction, match="exactly"):
        s.apply(Action.arrange(0, (*h0[:11], h1[0])))
    with pytest.raises(IllegalAction, match="every arrangement"):
        s.apply(Action(1, "check"))


def test_all_in_players_arrange_too_and_folded_players_do_not() -> None:
    s = stacked([30, 1000, 1000], button=0)
    play(s, "all_in", "fold", "call")
    assert s.phase == "arrange" and s.actors() == (0, 2)
    assert s.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="folded"):
        s.apply(Action(1, "done"))
    assert [la.kind for la in s.legal_actions(0)] == ["swap", "arrange", "done"]


def test_everyone_all_in_before_the_flops_still_arranges_then_the_boards_run_out() -> None:
    s = stacked([100, 100, 100], button=0)
    play(s, "raise_pot", "all_in", "call", "call")
    assert s.phase == "arrange" and s.actors() == (0, 1, 2)
    play(s, "done")
    assert s.is_over and all(len(b) == 5 for b in s.boards)


def test_arrangement_timeout_submits_as_it_stands_without_a_break() -> None:
    s = stacked([1000, 1000, 1000])
    play(s, "call", "call", "check")
    h = s.hand_of(2)
    s.apply(Action.swap(2, h[0], h[5]))
    arranged = s.hand_of(2)
    s.apply(Action(1, "done"))
    events = s.timeout()
    assert [e.kind for e in events if e.kind in ("timeout", "done")] == ["timeout", "done"] * 2
    assert s.phase == "flop" and s.hand_of(2) == arranged and s.breaks == set()
    assert [a.timeout for a in s.log[-2:]] == [True, True]


# -- timeouts ---------------------------------------------------------------------------------


def test_decision_timeout_checks_if_it_can_else_folds_and_the_seat_takes_a_break() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    events = s.timeout()  # the button faces the big blind: fold
    assert s.folded[0] and s.breaks == {0}
    assert [e.kind for e in events][:3] == ["timeout", "break", "fold"]
    play(s, "call")
    s.timeout()  # the big blind can check
    assert not s.folded[2] and s.breaks == {0, 2} and s.phase == "arrange"
    assert s.log[-1] == Action(2, "check", timeout=True)


def test_timeout_when_over_is_refused() -> None:
    s = stacked([1000, 1000], button=0)
    play(s, "fold")
    with pytest.raises(IllegalAction):
        s.timeout()


def test_a_timeout_action_must_be_what_the_timeout_does() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    with pytest.raises(IllegalAction):
        s.apply(Action(0, "call", timeout=True))


# -- showdown, splits, side pots, scoops ------------------------------------------------------

SIDE_HANDS = [
    "Qd Td 5h 9h Jc 2c 6c 7d As 8c Ad 9s",
    "6d 3d Tc 7c Th 4h Ac 4c 6s Ts 2s Kc",
    "3s Js 7s 2h Qs Jd Kh 7h 8h 5c 5d 3c",
]
SIDE_BOARDS = ["4d 9c Jh 8d Kd", "5s Qh 4s 3h Ks", "8s Ah 9d Qc 2d"]


def test_side_pots_each_split_across_the_three_boards() -> None:
    # Seat 0 (short) has the best hand on every board; seat 1 beats seat 2 on boards 1 and 2.
    s = stacked([30, 1000, 1000], button=0, hands=SIDE_HANDS, boards=SIDE_BOARDS)
    play(s, "all_in", "call", "call", "done", "bet_pot", "call")
    play(s, "check", "check", "check", "check")
    r = s.result
    assert r is not None and r.showdown
    main, side = r.pots
    assert (main.amount, main.eligible, side.amount, side.eligible) == (90, (0, 1, 2), 180, (1, 2))
    assert [[w.seat for w in b.winners] for b in main.boards] == [[0], [0], [0]]
    assert [b.share for b in main.boards] == [30, 30, 30]
    assert [[w.seat for w in b.winners] for b in side.boards] == [[1], [1], [2]]
    assert [b.share for b in side.boards] == [60, 60, 60]
    assert main.scoop == 0 and side.scoop is None and r.scoop == 0
    assert r.payouts == (90, 120, 60) and r.net == (60, 0, -60)


TIE_HANDS = ["7s 2h As Qd 8d 3h 3c 5h Tc 6h 3d 7d", "Jd Ts 2s Ad Ac 5s Ah Ks Qh 5d 2c 6s"]
TIE_BOARDS = ["Th Kd 7c Js Qs", "3s 8c 6d Td 8s", "5c 9d 9h 9c Kc"]


@pytest.mark.parametrize(("button", "payouts"), [(0, (49, 51)), (1, (50, 50))])
def test_split_board_odd_chip_to_first_tied_player_clockwise_from_the_button(
    button: int, payouts: tuple[int, int]
) -> None:
    # Pot 100 (blinds 25-50): boards take 33, 33 and 34; board 1 is a tie (ace-high straights
    # of different suits), seat 0 wins board 2, seat 1 wins board 3.
    s = stacked([1000, 1000], button=button, hands=TIE_HANDS, boards=TIE_BOARDS, small_blind=25, big_blind=50)
    play(s, "call", "check", "done", *["check"] * 6)
    r = s.result
    assert r is not None
    (pot,) = r.pots
    assert [b.share for b in pot.boards] == [33, 33, 34]  # S1
    first = pot.boards[0]
    assert sorted(w.seat for w in first.winners) == [0, 1]
    odd = {w.seat: w.amount for w in first.winners}
    assert odd[1 - button] == 17 and odd[button] == 16
    assert r.payouts == payouts
    assert r.scoop is None and pot.scoop is None


SCOOP_HANDS = ["5d 9c 2s 6s 9d 8h As 7h Jc 4h Tc 3h", "4s 6d Td Ac 8c 9s 2d 6h 3d 2h 7d Kc"]
SCOOP_BOARDS = ["Ks Qs Qd 8s Qh", "7c 3s 4d 8d Ad", "Js 5c 5h Ts 6c"]


def test_scoop_winning_all_three_boards_alone_takes_the_whole_pot() -> None:
    s = stacked([1000, 1000], button=0, hands=SCOOP_HANDS, boards=SCOOP_BOARDS)
    events = []
    for kind in ("call", "check"):
        events += s.apply(Action(s.actors()[0], kind))
    events += s.apply(Action(0, "done")) + s.apply(Action(1, "done"))
    while not s.is_over:
        events += s.apply(Action(s.actors()[0], "check"))
    r = s.result
    assert r is not None and r.scoop == 0 and r.pots[0].scoop == 0
    assert r.payouts == (20, 0)
    assert ("scoop", 0) in [(e.kind, e.seat) for e in events]


def test_suits_never_break_a_tie() -> None:
    # Both hold the same ranks in different suits on every board: every board is split.
    hands = ["Ah Kd 2c 3d Qh Jd 2s 3s Th 9d 4h 4d", "Ac Ks 2d 3c Qc Js 2h 3h Tc 9s 4c 4s"]
    boards = ["7s 7c 8d 6h 5c", "Ts 9h 5s 6d 7d", "Qs Kh Jc 6c 6s"]
    s = stacked([1000, 1000], button=0, hands=hands, boards=boards)
    play(s, "call", "check", "done", *["check"] * 6)
    r = s.result
    assert r is not None
    assert all(len(b.winners) == 2 for b in r.pots[0].boards)
    # Pot 20: boards 6, 7, 7, each split; the odd chips go to seat 1 (left of the button).
    assert r.payouts == (9, 11) and r.scoop is None


# -- rake -------------------------------------------------------------------------------------


def showdown_pot(stacks: list[int], bb: int, public: bool, flop_bet: bool = True) -> PatchPatchState:
    s = stacked(stacks, button=0, small_blind=bb // 2, big_blind=bb, public=public)
    play(s, "call", "call", "check", "done")
    if flop_bet:
        play(s, "bet_pot", "call", "call")
    while not s.is_over:
        play(s, "check")
    return s


def test_rake_three_percent_of_the_pot_rounded_down_on_public_tables_from_10_20() -> None:
    s = showdown_pot([5000, 5000, 5000], 20, public=True)
    r = s.result
    assert r is not None
    pot = 60 + 3 * 60
    assert r.pots[0].amount == pot and r.rake == pot * 3 // 100 == 7
    assert sum(r.payouts) + r.rake == sum(r.contributions)


def test_rake_is_capped_at_three_big_blinds_a_hand() -> None:
    s = stacked([5000, 5000, 5000], button=0, small_blind=10, big_blind=20, public=True)
    play(s, "raise_pot", "call", "call", "done", "bet_pot", "call", "call", "bet_pot", "call", "call")
    while not s.is_over:
        play(s, "check")
    r = s.result
    assert r is not None and r.pots[0].amount == 3360 and r.rake == 60  # 3% would be 100


def test_no_rake_at_5_10_or_on_private_tables_or_without_a_flop() -> None:
    assert (showdown_pot([5000] * 3, 10, public=True).result or pytest.fail()).rake == 0
    assert (showdown_pot([5000] * 3, 20, public=False).result or pytest.fail()).rake == 0
    s = stacked([5000] * 3, button=0, small_blind=10, big_blind=20, public=True)
    play(s, "raise_pot", "fold", "fold")
    r = s.result
    assert r is not None and not s.flops_dealt and r.rake == 0


def test_rake_applies_when_everyone_folds_after_the_flops() -> None:
    s = stacked([5000] * 3, button=0, small_blind=10, big_blind=20, public=True)
    play(s, "call", "call", "check", "done", "bet_pot", "fold", "fold")
    r = s.result
    assert r is not None and not r.showdown
    assert r.pots[0].amount == 60 and r.rake == 1 and r.payouts == (0, 59, 0)
    assert r.returned == (0, 60, 0)


def test_rake_on_each_pot_main_first() -> None:
    s = stacked([400, 5000, 5000], button=0, small_blind=10, big_blind=20, public=True)
    play(s, "call", "call", "check", "done")
    play(s, "bet_pot", "call", "call", "bet_pot", "call", "call", "bet_pot", "call", "call")
    r = s.result
    assert r is not None
    main, side = r.pots
    assert (main.amount, side.amount) == (1200, 1760)
    assert (main.rake, side.rake) == (36, 24)  # 36 + 52 would pass the cap of 60


# -- errors leave the state unchanged ---------------------------------------------------------


def test_rejected_actions_change_nothing() -> None:
    s = stacked([1000, 1000, 1000])
    before = s.snapshot()
    bad = [
        Action(1, "call"),  # out of turn
        Action(0, "check"),  # a bet to call
        Action(0, "bet_pot"),
        Action(0, "raise_pot", amount=36),
        Action(0, "all_in"),
        Action(0, "swap", cards=s.hand_of(0)[:2]),
        Action(0, "jump"),
        Action(7, "fold"),
        Action(0, "call", amount=-1),
        Action(0, "fold", cards=s.hand_of(0)[:1]),
    ]
    for action in bad:
        with pytest.raises(RulesError):
            s.apply(action)
        assert s.snapshot() == before
    with pytest.raises(MalformedAction):
        s.apply("fold")  # type: ignore[arg-type]
    assert s.snapshot() == before


def test_out_of_turn_and_messages_are_readable() -> None:
    s = stacked([1000, 1000, 1000])
    with pytest.raises(OutOfTurn, match="seat 0's turn"):
        s.apply(Action(2, "check"))
    with pytest.raises(IllegalAction, match=r"a bet to call \(10 more\).*fold, call 10, raise to 35"):
        s.apply(Action(0, "check"))
    with pytest.raises(MalformedAction, match="not a Patch-Patch action"):
        s.apply(Action(0, "muck"))
    play(s, "fold", "fold")
    with pytest.raises(IllegalAction, match="over"):
        s.apply(Action(2, "check"))


# -- storage: JSON and replay -----------------------------------------------------------------


def test_json_round_trip_and_replay_reach_the_identical_state() -> None:
    rng = random.Random(11)
    for _ in range(30):
        s = random_hand(rng)
        again = PatchPatch.from_json(s.to_json())
        assert again == s and again.snapshot() == s.snapshot()
        assert PatchPatch.replay(s.setup, s.log) == s


def test_from_json_refuses_other_data() -> None:
    with pytest.raises(SetupError):
        PatchPatch.from_json({"variant": "NT"})
    with pytest.raises(SetupError):
        PatchPatch.replay(setup(), [])


def test_get_variant_registry() -> None:
    assert get_variant("PP") is PatchPatch
    with pytest.raises(SetupError, match="unknown game"):
        get_variant("XX")

"""Hold'em and Omaha (NT, PT, FT, PO, FO, FO/8, PO/8): GAMES.md section 3 as tests.

Helpers here (``deal``, ``opts``, ``act``, ``random_hand``) are shared by the other classic-game
test modules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from rules_engine.cards import Card, parse_cards
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, SetupError
from rules_engine.games import Action, HandSetup, get_variant, variant_codes

FLOP_CODES = ("NT", "PT", "FT", "PO", "FO", "FO/8", "PO/8")
CLASSIC_CODES = FLOP_CODES + ("F7S", "F7S/8", "FR", "F5S", "F5D", "P5D")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def deal(
    code: str,
    stacks: Sequence[int],
    button: int = 0,
    *,
    hands: Sequence[str | None] | None = None,
    board: str = "",
    small_blind: int = 5,
    big_blind: int = 10,
    public: bool = False,
    **extra: Any,
) -> Any:
    """A flop-game hand dealt from a deck that gives ``hands`` (by seat) and ``board``."""
    V = get_variant(code)
    n = len(stacks)
    hand_cards = [None if h is None else parse_cards(h) for h in (hands or [None] * n)]
    deck = V.stacked_deck(hand_cards, button, parse_cards(board))
    setup = V.setup_for_table(
        stacks=stacks, button=button, small_blind=small_blind, big_blind=big_blind,
        public=public, deck=deck,
    )  # fmt: skip
    if extra:
        fields = setup.to_json()
        fields.update(extra)
        fields["deck"] = [str(c) for c in deck]
        setup = HandSetup.from_json(fields)
    return V.start(setup)


def opts(state: Any, seat: int | None = None) -> list[tuple[Any, ...]]:
    """``(kind, amount)`` or ``(kind, min, max)`` for a range, for the seat to act."""
    seat = state.actors()[0] if seat is None else seat
    out: list[tuple[Any, ...]] = []
    for la in state.legal_actions(seat):
        if la.min_amount is not None and la.max_amount != la.min_amount and la.kind != "draw":
            out.append((la.kind, la.min_amount, la.max_amount))
        else:
            out.append((la.kind, la.amount))
    return out


def act(state: Any, *moves: str | tuple[str, int]) -> None:
    """Apply moves for whoever is to act: ``"call"`` or ``("raise", 300)``."""
    for move in moves:
        seat = state.actors()[0]
        if isinstance(move, tuple):
            state.apply(Action(seat, move[0], amount=move[1]))
        else:
            state.apply(Action(seat, move))


def random_action(state: Any, rng: random.Random) -> Action:
    """A random legal action for the seat the hand waits for (folds made rarer)."""
    seat = state.actors()[0]
    legal = state.legal_actions(seat)
    if legal[0].kind == "fold" and rng.random() < 0.75:
        legal = legal[1:]
    la = rng.choice(legal)
    if la.kind == "draw":
        hand = state.hand_of(seat)
        k = rng.choice((0, 1, 2, 3, 3, 5))
        return Action(seat, "draw", cards=tuple(rng.sample(hand, k)))
    amount = None
    ranged = la.min_amount is not None and la.max_amount is not None and la.kind != "bring_in"
    if ranged and rng.random() < 0.5:
        assert la.min_amount is not None and la.max_amount is not None
        amount = rng.choice((la.min_amount, la.max_amount, rng.randint(la.min_amount, la.max_amount)))
        if state._bet.structure.discrete:
            amount = la.amount
    return Action(seat, la.kind, amount=amount)


def random_setup(code: str, rng: random.Random, players: int | None = None) -> HandSetup:
    V = get_variant(code)
    n = players or rng.randint(V.MIN_PLAYERS, min(V.MAX_PLAYERS, 6))
    bb = rng.choice((2, 10, 20, 50))
    stacks = [
        rng.choice((rng.randint(1, 4 * bb), rng.randint(5 * bb, 150 * bb), rng.randint(1, 400 * bb)))
        for _ in range(n)
    ]
    return V.setup_for_table(  # type: ignore[no-any-return]
        stacks=stacks, button=rng.randrange(n), small_blind=bb // 2, big_blind=bb,
        public=rng.random() < 0.5, speed=rng.choice(("slow", "medium", "fast")),
    )  # fmt: skip


def random_hand(code: str, rng: random.Random, players: int | None = None, timeouts: float = 0.03) -> Any:
    V = get_variant(code)
    state = V.start(random_setup(code, rng, players), rng=rng)
    steps = 0
    while not state.is_over:
        if rng.random() < timeouts:
            state.timeout()
        else:
            state.apply(random_action(state, rng))
        steps += 1
        assert steps < 400
    return state


# -- the registry -----------------------------------------------------------------------------


def test_every_classic_code_is_registered() -> None:
    assert set(CLASSIC_CODES) <= set(variant_codes())
    for code in FLOP_CODES:
        V = get_variant(code)
        assert (V.code, V.CODE, V.FAMILY) == (code, code, "flop")
        assert V.name == V.NAME and V.MIN_PLAYERS == 2 and V.MAX_PLAYERS == 10


def test_unknown_code_is_a_setup_error() -> None:
    with pytest.raises(SetupError, match="NT"):
        get_variant("XX")


def test_setup_for_table_derives_the_bets_from_the_blinds() -> None:
    nl = get_variant("NT").setup_for_table(stacks=[500, 500], button=0, small_blind=5, big_blind=10)
    assert (nl.ante, nl.small_bet, nl.big_bet) == (0, 0, 0)
    fl = get_variant("FO/8").setup_for_table(stacks=[500, 500], button=0, small_blind=5, big_blind=10)
    assert (fl.small_bet, fl.big_bet) == (10, 20)


# -- blinds and order -------------------------------------------------------------------------


def test_three_handed_blinds_left_of_the_button_and_first_to_act_left_of_the_big_blind() -> None:
    s = deal("NT", [1000, 1000, 1000, 1000], button=1)
    assert (s.small_blind_seat, s.big_blind_seat) == (2, 3)
    assert s.bets == (0, 0, 5, 10)
    assert s.actors() == (0,)
    assert opts(s) == [("fold", 0), ("call", 10), ("raise", 20, 1000)]
    act(s, "call", "call", "call")
    assert opts(s) == [("check", 0), ("raise", 20, 1000)]  # the big blind's option
    act(s, "check")
    assert s.phase == "flop" and s.actors() == (2,)  # first seat still in left of the button


def test_heads_up_button_posts_the_small_blind_acts_first_preflop_and_last_after() -> None:
    s = deal("NT", [1000, 1000], button=1)
    assert (s.small_blind_seat, s.big_blind_seat) == (1, 0)
    assert s.actors() == (1,)
    act(s, "call", "check")
    assert s.phase == "flop" and s.actors() == (0,)
    act(s, "check")
    assert s.actors() == (1,)


def test_blinds_are_live_and_a_raise_comes_back_to_them() -> None:
    s = deal("NT", [1000, 1000, 1000], button=0)
    act(s, ("raise", 30), "call")
    assert opts(s) == [("fold", 0), ("call", 20), ("raise", 50, 1000)]


# -- no limit ---------------------------------------------------------------------------------


def test_no_limit_min_raise_is_the_last_bet_or_raise() -> None:
    s = deal("NT", [5000, 5000, 5000], button=0)
    act(s, "call", "call", "check")
    act(s, ("bet", 100))  # GAMES.md: a bet of 100 means the minimum raise is to 200
    assert opts(s) == [("fold", 0), ("call", 100), ("raise", 200, 4990)]
    act(s, ("raise", 350))
    assert opts(s) == [("fold", 0), ("call", 350), ("raise", 600, 4990)]
    with pytest.raises(IllegalAction):
        s.apply(Action(s.actors()[0], "raise", amount=599))


def test_no_limit_bet_below_the_big_blind_is_refused() -> None:
    s = deal("NT", [5000, 5000], button=0)
    act(s, "call", "check")
    assert opts(s) == [("check", 0), ("bet", 10, 4990)]
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="10 to 4990"):
        s.apply(Action(s.actors()[0], "bet", amount=9))
    assert s.snapshot() == before


def test_short_all_in_raise_does_not_reopen_for_the_bettor() -> None:
    s = deal("NT", [5000, 260, 5000], button=0)  # seat 1 is the small blind
    act(s, "call", "call", "check")  # pot 30
    act(s, ("bet", 200))  # seat 1 bets 200 of its 250
    act(s, "call")  # seat 2 calls
    act(s, ("raise", 400))  # seat 0 raises to 400
    assert opts(s) == [("fold", 0), ("call", 50)]  # seat 1: all it has is a call
    act(s, "call")
    assert opts(s) == [("fold", 0), ("call", 200), ("raise", 600, 4990)]


def test_incomplete_all_in_raise_leaves_only_call_or_fold_to_those_who_acted() -> None:
    s = deal("NT", [5000, 5000, 330], button=0)  # seat 2 is the big blind with 320 behind
    act(s, "call", "call", "check")
    act(s, ("bet", 200), "call", "call")  # seat 1 bets, seats 2 and 0 call
    assert s.phase == "turn"
    act(s, ("bet", 100))  # seat 1 bets 100
    act(s, ("all_in", 120))  # seat 2 all-in for 120: 20 more, not a full raise (to 200)
    assert opts(s) == [("fold", 0), ("call", 120), ("raise", 220, 4790)]  # seat 0 has not acted
    act(s, "call")
    assert opts(s) == [("fold", 0), ("call", 20)]  # seat 1 already acted: call or fold


def test_one_short_all_in_does_not_reopen_for_the_bettor() -> None:
    s = deal("NT", [5000, 5000, 1150, 1140], button=0)
    act(s, "call", "call", "call", "check")  # pot 40; seat 1 acts first post-flop
    act(s, "check", ("bet", 1000))  # seat 2 bets 1000
    act(s, ("all_in", 1130))  # seat 3 all-in: 130 more, short
    act(s, "call", "call")  # seats 0 and 1 call 1130
    assert opts(s) == [("fold", 0), ("call", 130)]  # seat 2 faces 130 < 1000: no raise


def test_two_short_all_ins_reaching_a_full_raise_reopen_for_the_first_bettor() -> None:
    s = deal("NT", [5000, 5000, 170, 230], button=0)
    act(s, "call", "call", "call", "check")  # pot 40; everyone has 10 in
    act(s, ("bet", 100))  # seat 1 bets 100
    act(s, ("all_in", 160))  # seat 2: +60, short of a full raise (to 200)
    act(s, ("all_in", 220))  # seat 3: +60 more, still short on its own
    act(s, "call")  # seat 0 (not acted yet) calls 220
    # Seat 1 faces 120 more since it bet: two short all-ins add up to more than a full raise.
    assert opts(s) == [("fold", 0), ("call", 120), ("raise", 320, 4990)]


def test_pot_limit_seed_example_raise_to_at_most_800() -> None:
    # Active pot 200; the first player bets 150, the second calls: the third may raise to 800.
    s = deal("PO", [5000, 5000, 5000, 5000], button=0, small_blind=25, big_blind=50)
    act(s, "call", "call", "call", "check")
    assert s.pot == 200 and s.phase == "flop"
    act(s, ("bet", 150), "call")
    assert opts(s) == [("fold", 0), ("call", 150), ("raise", 300, 800)]
    with pytest.raises(IllegalAction):
        s.apply(Action(s.actors()[0], "raise", amount=801))
    act(s, ("raise", 800))
    assert s.pot == 1300


def test_pot_limit_preflop_pot_raise_counts_the_call_first() -> None:
    s = deal("PT", [1000, 1000, 1000], button=0)
    assert opts(s) == [("fold", 0), ("call", 10), ("raise", 20, 35)]  # like Patch-Patch's P1
    act(s, ("raise", 35))
    assert opts(s) == [("fold", 0), ("call", 30), ("raise", 60, 115)]  # P2


def test_pot_limit_short_stack_goes_all_in_for_less() -> None:
    s = deal("PO", [1000, 1000, 25], button=1)  # seat 0 is the big blind... button 1: sb 2, bb 0
    assert (s.small_blind_seat, s.big_blind_seat) == (2, 0)
    act(s, ("raise", 35))  # seat 1 raises pot
    assert opts(s) == [("fold", 0), ("call", 20)]  # seat 2 has 20 behind: call all-in only


# -- fixed limit ------------------------------------------------------------------------------


def test_fixed_limit_sizes_the_cap_and_the_big_bet_on_the_turn() -> None:
    s = deal("FT", [1000, 1000, 1000], button=0)
    assert opts(s) == [("fold", 0), ("call", 10), ("raise", 20)]
    act(s, "raise", "raise", "raise")  # the big blind and three raises: 40 is the cap
    assert opts(s) == [("fold", 0), ("call", 20)]
    act(s, "call", "call")
    assert s.phase == "flop"
    act(s, "check")
    assert opts(s) == [("check", 0), ("bet", 10)]
    act(s, "bet", "raise", "call", "raise")  # check-raise is allowed
    act(s, "call", "call")
    assert s.phase == "turn"
    assert opts(s) == [("check", 0), ("bet", 20)]
    with pytest.raises(IllegalAction, match="20"):
        s.apply(Action(s.actors()[0], "bet", amount=30))


def test_fixed_limit_short_stack_raises_all_in_for_less() -> None:
    s = deal("FO", [1000, 1000, 1000, 25], button=0)
    act(s, "raise")  # seat 3 (utg... seat 3 is left of the bb) raises to 20
    assert s.bets[3] == 20
    s = deal("FT", [1000, 1000, 1000, 15], button=0)
    assert opts(s) == [("fold", 0), ("call", 10), ("all_in", 15)]


# -- the board, burns and showdowns -----------------------------------------------------------


def test_a_card_is_burnt_before_the_flop_the_turn_and_the_river() -> None:
    V = get_variant("NT")
    deck = V.stacked_deck([cards("Ah Kh"), cards("2c 3c")], button=0, board=cards("Qh Jh Th 9s 8s"))
    s = V.start(HandSetup(stacks=(100, 100), button=0, small_blind=5, big_blind=10, deck=deck))
    # Heads-up the big blind (seat 1) gets the first card.
    assert s.hand_of(1) == (deck[0], deck[2]) and s.hand_of(0) == (deck[1], deck[3])
    act(s, "call", "check")
    assert s.board == list(deck[5:8])  # deck[4] was burnt
    act(s, "check", "check")
    assert s.board[3] == deck[9]
    act(s, "check", "check")
    assert s.board[4] == deck[11]
    act(s, "check", "check")
    assert s.is_over and s.result.payouts == (20, 0)
    [pot] = s.result.pots
    [high] = pot.boards
    assert high.half == "high" and high.winners[0].category == "royal_flush"


def test_holdem_board_plays_is_a_split_with_the_odd_chip_left_of_the_button() -> None:
    s = deal(
        "NT", [100, 100, 100], button=0,
        hands=["2c 3d", "2d 3c", "4h 5h"], board="As Ks Qs Js Ts",
    )  # fmt: skip
    act(s, "call", "call", "check")  # pot 30
    for _ in range(3):
        act(s, "check", "check", "check")
    assert s.result.payouts == (10, 10, 10)


def test_odd_chip_goes_to_the_first_tied_seat_left_of_the_button() -> None:
    s = deal(
        "NT", [100, 100, 100], button=1,
        hands=["2c 3d", "2d 3c", "Kd Kc"], board="As Ks Qs Js Ts",
    )  # fmt: skip
    # Button 1: seat 2 posts the small blind, seat 0 the big blind, seat 1 acts first.
    act(s, ("raise", 25), "fold", "call")  # pot 25 + 5 + 25 = 55, seats 0 and 1 tie
    while not s.is_over:
        act(s, "check")
    # The odd chip goes to the first tied seat clockwise from the button: seat 0 (2 folded).
    assert s.result.payouts == (28, 27, 0)


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # Four hearts on the board and one heart in the hand: no flush.
    s = deal(
        "PO", [100, 100], button=0,
        hands=["Ah Kc Kd 2s", "9c 9d 3c 4d"], board="Qh Jh 7h 6h 2d",
    )  # fmt: skip
    act(s, "call", "check")
    while not s.is_over:
        act(s, "check")
    [pot] = s.result.pots
    [win] = pot.boards[0].winners
    assert (win.seat, win.category) == (0, "one_pair")  # kings, not an ace-high flush
    # A board of four sevens: nobody has four of a kind.
    s = deal(
        "PO", [100, 100], button=0,
        hands=["Ah Kd 2d 2h", "Qc Qd 3c 4d"], board="7c 7d 7h 7s 9c",
    )  # fmt: skip
    act(s, "call", "check")
    while not s.is_over:
        act(s, "check")
    [pot] = s.result.pots
    [win] = pot.boards[0].winners
    assert (win.seat, win.description) == (1, "Full house, sevens full of queens")


def test_omaha_hi_lo_halves_odd_chip_high_and_scoop() -> None:
    s = deal(
        "PO/8", [100, 100, 100], button=0,
        hands=["Ac 2c Kd Kh", "3d 4d Qs Qc", "Qd Qh Js Jd"], board="5h 6s 7c Kc 8d",
    )  # fmt: skip
    act(s, ("raise", 25), "fold", "call")  # pot 25 + 5 + 25 = 55: an odd pot
    while not s.is_over:
        act(s, "check")
    [pot] = s.result.pots
    high, low = pot.boards
    assert (high.half, high.share, low.half, low.share) == ("high", 28, "low", 27)
    assert [(w.seat, w.category) for w in high.winners] == [(0, "three_of_a_kind")]
    assert [(w.seat, w.description) for w in low.winners] == [(0, "7-6-5-2-A")]
    assert pot.scoop == 0 and s.result.scoop == 0
    assert s.result.payouts == (55, 0, 0)


def test_omaha_hi_lo_no_qualifying_low_high_takes_all() -> None:
    s = deal(
        "FO/8", [100, 100], button=0,
        hands=["Ac 2c Kd Kh", "3d 4d Qs Qc"], board="9h Ts Jc Kc Qd",
    )  # fmt: skip
    act(s, "call", "check")
    while not s.is_over:
        act(s, "check")
    [pot] = s.result.pots
    assert [b.half for b in pot.boards] == ["high"]
    assert pot.boards[0].winners[0].description == "Straight, ace high"
    assert s.result.payouts == (20, 0)


def test_omaha_hi_lo_split_low_and_quartering() -> None:
    s = deal(
        "PO/8", [100, 100, 100], button=2,
        hands=["Ac 2c Kd Kh", "Ad 2d Qs Qc", "9s 9d 3s 3d"], board="5h 6s 7c Ks 8d",
    )  # fmt: skip
    act(s, "call", "call", "check")  # pot 30
    while not s.is_over:
        act(s, "check")
    [pot] = s.result.pots
    high, low = pot.boards
    assert [w.seat for w in high.winners] == [0]
    assert sorted(w.seat for w in low.winners) == [0, 1]  # both 7-6-5-2-A: quartered
    assert (high.share, low.share) == (15, 15)
    assert s.result.payouts == (15 + 8, 7, 0)  # the low's odd chip goes left of the button first
    assert pot.scoop is None


def test_side_pots_are_settled_one_by_one() -> None:
    s = deal(
        "NT", [50, 1000, 1000], button=0,
        hands=["Ah Ad", "Kh Kd", "Qh Qd"], board="2c 3c 8s 9s Jd",
    )  # fmt: skip
    act(s, ("raise", 50), "call", ("raise", 300), "call")
    while not s.is_over:
        act(s, "check")
    r = s.result
    assert [(p.amount, p.eligible) for p in r.pots] == [(150, (0, 1, 2)), (500, (1, 2))]
    assert r.payouts == (150, 500, 0)
    assert r.stacks == (150, 1200, 700)


def test_uncalled_bet_is_returned_and_the_last_seat_wins_unseen() -> None:
    s = deal("NT", [1000, 1000, 1000], button=0)
    act(s, ("raise", 300), "fold", "fold")
    r = s.result
    assert r is not None and not r.showdown and r.shown == ()
    assert r.returned == (290, 0, 0) and r.payouts == (25, 0, 0)
    assert s.stacks == (1015, 995, 990)


def test_all_in_preflop_runs_the_board_out() -> None:
    s = deal("NT", [100, 100], button=0, hands=["Ah Ad", "Kh Kd"], board="2c 3c 8s 9s Jd")
    act(s, ("raise", 100), "call")
    assert s.is_over and len(s.board) == 5 and s.result.payouts == (200, 0)
    assert s.showdown_after == 2  # the hands are shown once nobody can bet


def test_rake_only_when_the_flop_is_dealt() -> None:
    s = deal("NT", [1000, 1000], button=0, small_blind=10, big_blind=20, public=True)
    act(s, ("raise", 60), "fold")
    assert s.result.rake == 0
    s = deal("NT", [1000, 1000], button=0, small_blind=10, big_blind=20, public=True)
    act(s, ("raise", 100), "call")
    act(s, ("bet", 100), "fold")
    assert s.result.rake == 6  # 3% of the 200 pot; the uncalled 100 came back first


# -- errors and timeouts ----------------------------------------------------------------------


def test_illegal_out_of_turn_and_malformed_leave_the_state_unchanged() -> None:
    s = deal("NT", [1000, 1000, 1000], button=0)
    before = s.snapshot()
    for action, error in [
        (Action(1, "call"), OutOfTurn),
        (Action(0, "check"), IllegalAction),
        (Action(0, "bet", amount=50), IllegalAction),
        (Action(0, "raise", amount=5000), IllegalAction),
        (Action(0, "fly"), MalformedAction),
        (Action(9, "fold"), MalformedAction),
        (Action(0, "call", amount=-1), MalformedAction),
        (Action(0, "draw"), IllegalAction),
        (Action(0, "bring_in"), IllegalAction),
    ]:
        with pytest.raises(error):
            s.apply(action)
        assert s.snapshot() == before


def test_timeout_checks_or_folds_and_puts_the_seat_on_a_break() -> None:
    s = deal("NT", [1000, 1000, 1000], button=0)
    s.timeout()
    assert s.folded[0] and s.breaks == {0} and s.log[-1] == Action(0, "fold", timeout=True)
    act(s, "call")
    s.timeout()  # the big blind checks its option
    assert s.phase == "flop" and s.breaks == {0, 2}


# -- views ------------------------------------------------------------------------------------


def test_views_hide_other_hands_until_the_showdown() -> None:
    s = deal("NT", [100, 100, 100], button=0, hands=["Ah Ad", "Kh Kd", "Qh Qd"])
    v = s.view_for(1)
    assert v["family"] == "flop" and v["board"] == []
    assert [p["cards"] for p in v["players"]] == [None, ["Kh", "Kd"], None]
    assert v["you"]["cards"] == ["Kh", "Kd"] and v["you"]["made"] is None
    assert s.view_for(None)["you"] is None
    assert all(p["cards"] is None for p in s.view_for(None)["players"])
    act(s, "fold", ("raise", 100), "call")
    v = s.view_for(None)
    assert v["result"]["showdown"] and [p["cards"] for p in v["players"]] == [
        None, ["Kh", "Kd"], ["Qh", "Qd"],
    ]  # fmt: skip


def test_json_round_trip_and_replay() -> None:
    rng = random.Random(3)
    for code in FLOP_CODES:
        for _ in range(20):
            state = random_hand(code, rng)
            V = get_variant(code)
            assert V.from_json(state.to_json()) == state
            assert V.replay(state.setup, state.log) == state


def test_the_docstring_examples_of_the_classic_modules_hold() -> None:
    import doctest

    from rules_engine import betting
    from rules_engine.games import classic, draw, flop, stud

    for module in (betting, classic, flop, stud, draw):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, module.__name__


def _shown(events: Sequence[Any]) -> list[int]:
    return [e.seat for e in events if e.kind == "show"]


def test_showdown_order_starts_with_the_first_bettor_of_the_final_round() -> None:
    # GAMES.md: "the player who bet first on the final round shows first (if nobody bet, the
    # player who checked first)". Seat 2 bets the river, seat 0 raises: seat 2 shows first.
    s = deal("NT", [1000] * 3, 0, hands=["Ah Ad", "Kh Kd", "Qh Qd"], board="2c 3d 7s 8c 9h")
    act(s, "call", "call", "check", *["check"] * 6, "check", ("bet", 10), ("raise", 20), "call")
    assert _shown(s.apply(Action(s.actors()[0], "call"))) == [2, 0, 1]
    # Nobody bets the river: the first to check (seat 1, left of the button) shows first.
    s = deal("NT", [1000] * 3, 0, hands=["Ah Ad", "Kh Kd", "Qh Qd"], board="2c 3d 7s 8c 9h")
    act(s, "call", "call", "check", *["check"] * 6, "check", "check")
    assert _shown(s.apply(Action(s.actors()[0], "check"))) == [1, 2, 0]


def test_side_pots_on_the_felt_once_a_round_with_an_all_in_is_over() -> None:
    """A short all-in makes a main pot and a side pot; the felt shows them from the next round
    on, this round's bets left out (still in front of the players), and nothing once it is over."""
    state = deal("NT", [1000, 50, 1000])
    act(state, ("raise", 100), "call")
    assert state.side_pots() == []  # the bets are still in front of the players
    act(state, "call")
    assert state.phase == "flop"
    assert state.side_pots() == [150, 100]
    assert state.view_for(None)["side_pots"] == [150, 100]
    act(state, ("bet", 200))
    assert state.side_pots() == [150, 100] and state.pot == 450
    act(state, "call")
    assert state.side_pots() == [150, 500]
    act(state, "check", "check", "check", "check")
    assert state.result is not None and state.view_for(0)["side_pots"] == []


def test_one_pot_is_not_split_on_the_felt() -> None:
    state = deal("NT", [1000, 1000, 1000])
    act(state, ("raise", 100), "call", "call")
    assert state.phase == "flop" and state.pot == 300
    assert state.side_pots() == []
    # A player who folds after putting chips in makes no side pot of their own.
    act(state, ("bet", 100), "fold", "call")
    assert state.side_pots() == []

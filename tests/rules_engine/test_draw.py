"""Five-card draw (F5D fixed limit, P5D pot limit): GAMES.md section 3 as tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from rules_engine.cards import FULL_DECK, parse_cards
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, SetupError
from rules_engine.games import Action, HandSetup, get_variant, variant_codes
from tests.rules_engine.test_flop_games import act, opts, random_hand

DRAW_CODES = ("F5D", "P5D")


def deal(
    code: str,
    stacks: Sequence[int],
    button: int = 0,
    *,
    hands: Sequence[str | None] | None = None,
    draws: str = "",
    reshuffle: Sequence[Any] | None = None,
) -> Any:
    V = get_variant(code)
    n = len(stacks)
    hand_cards = [None if h is None else parse_cards(h) for h in (hands or [None] * n)]
    deck = V.stacked_deck(hand_cards, button, parse_cards(draws))
    setup = V.setup_for_table(stacks=stacks, button=button, small_blind=5, big_blind=10, deck=deck)
    if reshuffle is not None:
        data = setup.to_json()
        data["reshuffle"] = [str(c) for c in reshuffle]
        setup = HandSetup.from_json(data)
    return V.start(setup)


def draw(state: Any, cards: str = "", *, seat: int | None = None) -> None:
    seat = state.actors()[0] if seat is None else seat
    state.apply(Action(seat, "draw", cards=parse_cards(cards)))


def test_draw_codes_are_registered() -> None:
    assert set(DRAW_CODES) <= set(variant_codes())
    for code in DRAW_CODES:
        V = get_variant(code)
        assert V.FAMILY == "draw" and V.MAX_PLAYERS == 8
    s = get_variant("F5D").setup_for_table(stacks=[100, 100], button=0, small_blind=5, big_blind=10)
    assert (s.small_bet, s.big_bet, s.ante) == (10, 20, 0)


def test_first_round_call_raise_or_fold_then_the_draw_in_order_from_the_button() -> None:
    s = deal("F5D", [500, 500, 500], button=0)
    assert s.phase == "predraw" and s.actors() == (0,)
    assert opts(s) == [("fold", 0), ("call", 10), ("raise", 20)]  # no check facing the blind
    act(s, "call", "call")
    assert opts(s) == [("check", 0), ("raise", 20)]  # the big blind's option
    act(s, "check")
    assert s.phase == "draw" and s.actors() == (1,) and s.to_act is None
    assert [la.kind for la in s.legal_actions(1)] == ["draw"]
    assert s.legal_actions(1)[0].max_amount == 5 and s.legal_actions(0) == []
    hand = s.hand_of(1)
    draw(s, f"{hand[0]} {hand[1]}")
    assert s.hand_of(1)[:3] == hand[2:] and len(set(s.hand_of(1)) & set(hand[:2])) == 0
    draw(s)  # seat 2 stands pat
    s.timeout()  # seat 0's clock runs out: it stands pat and goes on a break
    assert s.breaks == {0} and s.log[-1] == Action(0, "draw", timeout=True)
    assert s.phase == "postdraw" and s.actors() == (1,)
    assert opts(s) == [("check", 0), ("bet", 20)]  # the big bet after the draw
    v = s.view_for(2)
    assert [p["drawn"] for p in v["players"]] == [0, 2, 0]
    assert [p["cards"] is None for p in v["players"]] == [True, True, False]


def test_draw_mistakes_are_refused_and_change_nothing() -> None:
    s = deal("P5D", [500, 500, 500], button=0, hands=["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", None])
    act(s, "call", "call", "check")
    before = s.snapshot()
    for action, error in [
        (Action(1, "draw", cards=parse_cards("2c")), IllegalAction),  # not its card
        (Action(1, "draw", cards=(parse_cards("2d")[0],) * 2), MalformedAction),
        (Action(2, "draw"), OutOfTurn),
        (Action(1, "check"), IllegalAction),
        (Action(1, "draw", amount=2), MalformedAction),
        (Action(1, "draw", cards=parse_cards("2d"), timeout=True), IllegalAction),
    ]:
        with pytest.raises(error):
            s.apply(action)
        assert s.snapshot() == before


def test_pot_limit_draw_sizes() -> None:
    s = deal("P5D", [500, 500, 500], button=0)
    assert opts(s) == [("fold", 0), ("call", 10), ("raise", 20, 35)]


def test_all_in_seats_still_draw_and_the_best_hand_wins() -> None:
    s = deal(
        "F5D", [15, 500], button=0,
        hands=["2c 3d 9h Jh Ks", "Ac Ad 7s 8s 9c"], draws="Kh Kd",
    )  # fmt: skip
    act(s, "all_in")  # the button (small blind) raises all-in for 15 (short of 20)
    act(s, "call")
    assert s.phase == "draw" and s.actors() == (1,)  # heads-up the big blind draws first
    draw(s, "7s 8s")
    assert s.hand_of(1)[-2:] == parse_cards("Kh Kd")
    draw(s, "2c 3d")
    assert s.is_over and s.result.showdown
    assert s.result.payouts == (0, 30) and s.showdown_after == len(s.log)


def test_the_discards_are_reshuffled_when_the_stub_runs_out() -> None:
    # Eight players hold 40 cards; 12 are left. Everyone throws away five.
    rev = tuple(reversed(FULL_DECK))
    s = deal("F5D", [500] * 8, button=7, reshuffle=rev)
    for _ in range(8):
        act(s, "check" if s.legal_actions(s.actors()[0])[0].kind == "check" else "call")
    assert s.phase == "draw" and s.actors() == (0,)
    stub = list(s._stub)
    thrown: list[Any] = []
    for seat in range(3):
        old = s.hand_of(seat)
        draw(s, " ".join(map(str, old)))
        thrown.append(old)
    # Seat 0 got stub cards 1-5, seat 1 cards 6-10; seat 2 the last two, then the first three
    # of seats 0 and 1's discards in the reshuffle order (here: highest card first).
    assert s.hand_of(0) == tuple(stub[0:5]) and s.hand_of(1) == tuple(stub[5:10])
    pile = sorted(thrown[0] + thrown[1], key=rev.index)
    assert s.hand_of(2) == tuple(stub[10:12]) + tuple(pile[:3])
    assert not set(s.hand_of(2)) & set(thrown[2]) and s.reshuffles == 1
    for _ in range(5):
        old = s.hand_of(s.actors()[0])
        draw(s, " ".join(map(str, old)))
    held = [c for h in s.hole for c in h]
    assert len(set(held)) == 40 and s.phase == "postdraw"


def test_bad_reshuffle_order_is_a_setup_error() -> None:
    V = get_variant("P5D")
    setup = V.setup_for_table(stacks=[100, 100], button=0, small_blind=5, big_blind=10)
    data = setup.to_json()
    data["deck"] = [str(c) for c in FULL_DECK]
    data["reshuffle"] = [str(c) for c in FULL_DECK[:51]]
    with pytest.raises(SetupError, match="reshuffle"):
        V.start(HandSetup.from_json(data))


def test_a_shuffled_hand_carries_its_reshuffle_order_and_replays() -> None:
    V = get_variant("F5D")
    s = V.start(V.setup_for_table(stacks=[100] * 3, button=0, small_blind=5, big_blind=10), rng=random.Random(1))
    assert s.setup.reshuffle is not None and len(s.setup.reshuffle) == 52
    assert V.from_json(s.to_json()) == s


def test_random_draw_hands_conserve_chips_and_replay() -> None:
    rng = random.Random(12)
    for code in DRAW_CODES:
        V = get_variant(code)
        for _ in range(60):
            state = random_hand(code, rng, players=rng.randint(2, 8))
            r = state.result
            assert sum(r.payouts) + r.rake == sum(r.contributions)
            assert V.replay(state.setup, state.log) == state


def test_side_pots_while_the_players_draw() -> None:
    """Between the betting rounds of a draw game the bets are gathered in: the felt shows the
    main and side pots while the players draw."""
    from tests.rules_engine.test_flop_games import act, deal

    state = deal("F5D", [1000, 15, 1000])
    act(state, ("raise", 20), "call", "call")  # the small blind calls its last 10
    assert state.phase == "draw"
    assert state.view_for(None)["side_pots"] == [45, 10]

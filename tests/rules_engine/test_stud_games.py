"""Stud games (F7S, F7S/8, FR, F5S): GAMES.md section 3 and seed 003 as tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from rules_engine.cards import parse_cards
from rules_engine.errors import IllegalAction, SetupError
from rules_engine.games import Action, HandSetup, get_variant, variant_codes
from rules_engine.games.stud import bring_in_key
from tests.rules_engine.test_flop_games import act, opts, random_hand

STUD_CODES = ("F7S", "F7S/8", "FR", "F5S")


def deal(
    code: str,
    stacks: Sequence[int],
    button: int = 0,
    *,
    hands: Sequence[str | None] | None = None,
    board: str = "",
    big_blind: int = 10,
    public: bool = False,
) -> Any:
    """A stud hand from a deck that deals ``hands`` (by seat, in dealt order) if nobody folds."""
    V = get_variant(code)
    n = len(stacks)
    hand_cards = [None if h is None else parse_cards(h) for h in (hands or [None] * n)]
    deck = V.stacked_deck(hand_cards, button, parse_cards(board))
    setup = V.setup_for_table(
        stacks=stacks, button=button, small_blind=big_blind // 2, big_blind=big_blind,
        public=public, deck=deck,
    )  # fmt: skip
    return V.start(setup)


def check_down(state: Any) -> None:
    """Everyone calls or checks to the end (the bring-in is posted if pending)."""
    while not state.is_over:
        kinds = [la.kind for la in state.legal_actions(state.actors()[0])]
        for kind in ("bring_in", "check", "call"):
            if kind in kinds:
                act(state, kind)
                break


def test_stud_codes_are_registered_with_their_family() -> None:
    assert set(STUD_CODES) <= set(variant_codes())
    for code in STUD_CODES:
        V = get_variant(code)
        assert V.FAMILY == "stud" and V.STRUCTURE == "fixed-limit"
    assert get_variant("F7S").MAX_PLAYERS == 8 and get_variant("F5S").MAX_PLAYERS == 10


def test_setup_for_table_derives_ante_bring_in_and_bets() -> None:
    s = get_variant("FR").setup_for_table(stacks=[500] * 3, button=0, small_blind=25, big_blind=50)
    assert (s.ante, s.bring_in, s.small_bet, s.big_bet) == (10, 25, 50, 100)
    s = get_variant("F5S").setup_for_table(stacks=[500] * 3, button=0, small_blind=1, big_blind=2)
    assert (s.ante, s.bring_in, s.small_bet, s.big_bet) == (1, 1, 2, 4)


def test_bad_bring_in_is_a_setup_error() -> None:
    V = get_variant("F7S")
    setup = V.setup_for_table(stacks=[500] * 3, button=0, small_blind=5, big_blind=10)
    data = setup.to_json()
    data["bring_in"] = 11
    with pytest.raises(SetupError, match="bring-in"):
        V.start(HandSetup.from_json(data))


# -- the bring-in ------------------------------------------------------------------------------


def test_bring_in_suit_orders() -> None:
    c = parse_cards
    # Stud: lowest card, clubs < diamonds < hearts < spades, aces high.
    assert sorted(c("2s 2c Ah 2h 2d"), key=bring_in_key)[0] == c("2c")[0]
    assert bring_in_key(c("Ah")[0]) > bring_in_key(c("Kc")[0])
    # Razz: highest card brings in, aces low; between two kings the king of clubs.
    razz = sorted(c("Ks Kc Kh Ah Qd"), key=lambda x: bring_in_key(x, razz=True))
    assert [str(x) for x in razz] == ["Kc", "Kh", "Ks", "Qd", "Ah"]


def test_lowest_up_card_brings_in_and_may_complete() -> None:
    s = deal("F7S", [500, 500, 500], button=0, hands=["Kd Kh Ah", "3c 4c 2c", "3d 4d 2s"])
    assert s.bring_in_seat == 1 and s.actors() == (1,)
    assert s.contributed == (2, 2, 2)  # antes
    assert opts(s) == [("bring_in", 5), ("complete", 10)]
    for kind in ("fold", "check", "call"):
        with pytest.raises(IllegalAction):
            s.apply(Action(1, kind))
    act(s, "bring_in")
    assert opts(s) == [("fold", 0), ("call", 5), ("complete", 10)]
    act(s, "complete")
    assert opts(s) == [("fold", 0), ("call", 10), ("raise", 20)]
    act(s, "raise", "raise", "raise")  # completion plus three raises: the cap
    assert opts(s) == [("fold", 0), ("call", 20)]
    v = s.view_for(None)
    assert v["bring_in"] == 1 and v["family"] == "stud"


def test_when_everyone_calls_the_bring_in_the_round_ends_without_an_option() -> None:
    s = deal("F7S", [500, 500, 500], button=0, hands=["Kd Kh Ah", "3c 4c 2c", "3d 4d 2s"])
    act(s, "bring_in", "call", "call")
    assert s.phase == "fourth" and s.pot == 6 + 15


def test_ace_is_high_for_the_stud_hi_lo_bring_in() -> None:
    s = deal("F7S/8", [500, 500, 500], button=2, hands=["9d 8d Ac", "9h 8h 2d", "9s 8s 5h"])
    assert s.bring_in_seat == 1


def test_razz_highest_card_brings_in_king_of_clubs_before_king_of_spades() -> None:
    s = deal("FR", [500, 500, 500], button=0, hands=["2d 3d 5h", "2h 3h Kc", "2s 3s Ks"])
    assert s.bring_in_seat == 1
    s = deal("FR", [500, 500, 500], button=0, hands=["2d 3d Ah", "4h 5h 2c", "6s 7s 3h"])
    assert s.bring_in_seat == 2  # the ace is the lowest card in Razz


def test_bring_in_passes_left_when_the_low_card_is_all_in_from_the_ante() -> None:
    s = deal("F7S", [500, 2, 500], button=0, hands=["Kd Kh Ah", "3c 4c 2c", "3d 4d 2s"])
    assert s.all_in[1] and s.bring_in_seat == 2


def test_timeout_posts_the_bring_in_and_puts_the_seat_on_a_break() -> None:
    s = deal("F7S", [500, 500, 500], button=0, hands=["Kd Kh Ah", "3c 4c 2c", "3d 4d 2s"])
    s.timeout()
    assert s.log[-1] == Action(1, "bring_in", timeout=True) and s.breaks == {1}
    assert s.bets[1] == 5


# -- later streets --------------------------------------------------------------------------


HANDS_7 = [
    "Kd Kh Ah 3h 9c Jd 2h",  # seat 0 (the button): A, 3, 9, J showing
    "3c 4c 2c 2d 8s 7h 5c",  # seat 1: 2, 2 (pair showing on fourth street)
    "Qd Qc 2s As 9d Td 6h",  # seat 2: 2, A
]


def test_best_showing_hand_opens_later_streets_and_the_limit_doubles_on_fifth() -> None:
    s = deal("F7S", [500, 500, 500], button=0, hands=HANDS_7)
    act(s, "bring_in", "call", "call")
    assert s.phase == "fourth" and s.actors() == (1,)  # the pair of twos
    assert opts(s) == [("check", 0), ("bet", 10)]
    act(s, "check", "check", "check")
    assert s.phase == "fifth"
    assert opts(s)[-1] == ("bet", 20)


def test_showing_hands_tie_goes_to_the_seat_left_of_the_button() -> None:
    hands = ["Kd Kh Ah 7c", "3c 4c 2c Qd", "Qh Jd As 7d"]
    s = deal("F7S", [500, 500, 500], button=0, hands=hands)
    act(s, "bring_in", "call", "call")
    # Seats 0 and 2 both show A-7; seat 2 is nearer the button's left (order 1, 2, 0).
    assert s.actors() == (2,)


def test_razz_lowest_showing_hand_opens() -> None:
    hands = ["Kd Kh 5h 6c", "3c 4c Kc Qd", "2h 3d 7s 8d"]
    s = deal("FR", [500, 500, 500], button=0, hands=hands)
    assert s.bring_in_seat == 1
    act(s, "bring_in", "call", "call")
    assert s.actors() == (0,)  # 6-5 is the lowest showing hand


def test_up_cards_are_public_and_down_cards_private() -> None:
    s = deal("F7S", [500, 500, 500], button=0, hands=HANDS_7)
    v = s.view_for(2)
    p0, p1, p2 = v["players"]
    assert p0["up"] == ["Ah"] and p0["down"] == [None, None] and p0["cards"] is None
    assert p2["down"] == ["Qd", "Qc"] and p2["cards"] == ["Qd", "Qc", "2s"]
    act(s, "bring_in", "call", "call")
    for _ in range(3):
        act(s, "check", "check", "check")
    assert s.phase == "seventh"
    v = s.view_for(None)
    assert [len(p["down"]) for p in v["players"]] == [3, 3, 3]
    assert all(d is None for p in v["players"] for d in p["down"])
    assert v["players"][0]["up"] == ["Ah", "3h", "9c", "Jd"]
    act(s, "check", "check", "check")
    v = s.view_for(None)
    assert v["players"][0]["down"] == ["Kd", "Kh", "2h"]


def test_seven_card_stud_showdown_best_five_of_seven() -> None:
    s = deal("F7S", [500, 500, 500], button=0, hands=HANDS_7)
    check_down(s)
    # Seat 0 holds a pair of kings, seat 1 twos, seat 2 queens: the kings win.
    assert s.result.payouts == (s.result.pots[0].amount, 0, 0)
    [pot] = s.result.pots
    [high] = pot.boards
    assert high.half == "high" and high.winners[0].description.startswith("Pair of kings")


def test_razz_showdown_lowest_wins_pairs_count_against() -> None:
    hands = [
        "Ah 2h 3h 4h 4c 4d 4s",  # only four ranks: the best five is paired, 4-4-3-2-A
        "Kc Qc Jc 9c 8c 7c 6d",  # J-9-8-7-6 (the flush does not count)
        "2c 3c 5s 6s 7h 8h Kd",  # 7-6-5-3-2
    ]
    s = deal("FR", [500, 500, 500], button=0, hands=hands)
    check_down(s)
    [pot] = s.result.pots
    [low] = pot.boards
    assert low.half == "low" and [(w.seat, w.description) for w in low.winners] == [(2, "7-6-5-3-2")]


def test_stud_hi_lo_split_and_no_low() -> None:
    hands = [
        "Ah 2h 3h 5c 8d Kd Kc",  # low 8-5-3-2-A; high pair of kings
        "Qc Qd Qh 9s 9d Ts Js",  # full house queens over nines, no low
        "Tc Td Th 4s Jd Jh Jc",  # full house jacks over tens? (J J J T T) no low
    ]
    s = deal("F7S/8", [500, 500, 500], button=0, hands=hands)
    check_down(s)
    [pot] = s.result.pots
    high, low = pot.boards
    assert [w.seat for w in high.winners] == [1] and [w.seat for w in low.winners] == [0]
    assert high.share == pot.amount - pot.amount // 2 and low.share == pot.amount // 2
    hands[0] = "Ah 9h 7s 5c Qs Kd Ks"  # no low for anyone now
    s = deal("F7S/8", [500, 500, 500], button=0, hands=hands)
    check_down(s)
    [pot] = s.result.pots
    assert [b.half for b in pot.boards] == ["high"] and pot.scoop == 1 and s.result.scoop == 1


def test_eight_players_to_seventh_street_share_a_community_card() -> None:
    V = get_variant("F7S")
    hands = [None] * 8
    s = deal("F7S", [500] * 8, button=0, hands=hands, board="As")
    check_down(s)
    assert s.board == list(parse_cards("As"))
    assert all(len(h) == 6 for h in s.hole)  # six cards each, the seventh is the board card
    assert s.result.showdown and V.MAX_PLAYERS == 8
    assert all(w.cards for p in s.result.pots for b in p.boards for w in b.winners)


# -- five-card stud ---------------------------------------------------------------------------


def test_five_card_stud_streets_bring_in_and_big_bet_on_the_last_two() -> None:
    s = deal("F5S", [500, 500, 500], button=0, hands=["Kd Ah 9c 2h 3s", "3c 2c 5d 7h 8s", "Qd 4s Jc 6d Ts"])
    assert s.phase == "second" and s.bring_in_seat == 1  # 2c
    assert opts(s) == [("bring_in", 5), ("complete", 10)]
    act(s, "bring_in", "call", "call")
    assert s.phase == "third" and opts(s)[-1] == ("bet", 10)
    act(s, "check", "check", "check")
    assert s.phase == "fourth" and opts(s)[-1] == ("bet", 20)


def test_five_card_stud_open_pair_on_third_street_allows_the_big_bet() -> None:
    hands = ["Kd Ah Ac 2h 3s", "3c 2c 5d 7h 8s", "Qd 4s Jc 6d Ts"]
    s = deal("F5S", [500, 500, 500], button=0, hands=hands)
    act(s, "bring_in", "call", "call")
    assert s.phase == "third" and s.actors() == (0,)  # the open pair of aces
    assert opts(s) == [("check", 0), ("bet", 10), ("bet", 20)]
    act(s, ("bet", 20))
    assert opts(s) == [("fold", 0), ("call", 20), ("raise", 40)]  # raises follow the big bet
    s = deal("F5S", [500, 500, 500], button=0, hands=hands)
    act(s, "bring_in", "call", "call", ("bet", 10))
    # After a small bet anyone may still raise by either (card rooms' rule; found by an audit:
    # the small opening bet used to fix the round's size) ...
    assert opts(s) == [("fold", 0), ("call", 10), ("raise", 20), ("raise", 30)]
    with pytest.raises(IllegalAction):
        s.apply(Action(s.actors()[0], "raise", amount=25))
    act(s, ("raise", 20))
    assert opts(s) == [("fold", 0), ("call", 20), ("raise", 30), ("raise", 40)]  # a small raise too
    act(s, ("raise", 40))
    assert opts(s) == [("fold", 0), ("call", 30), ("raise", 60)]  # ... until one goes big


def test_random_stud_hands_conserve_chips_and_replay() -> None:
    rng = random.Random(11)
    for code in STUD_CODES:
        V = get_variant(code)
        for _ in range(40):
            state = random_hand(code, rng)
            r = state.result
            assert sum(r.payouts) + r.rake == sum(r.contributions)
            assert V.from_json(state.to_json()) == state


def test_a_later_street_never_offers_to_complete() -> None:
    # Third street: the bring-in only called. Fourth street: a short all-in bets 8 of the 10;
    # the next seat raises (to 10), it does not "complete" a bring-in that was on another street.
    s = deal("F7S", [500, 500, 15], 0, hands=["Kd Ah 9c Qs", "3c 4c 2c 5d", "Qd 4s Jc As"])
    act(s, "bring_in", "call", "call", ("all_in", 8))
    kinds = {la.kind for la in s.legal_actions(s.actors()[0])}
    assert "raise" in kinds and "complete" not in kinds


def test_the_bring_in_is_less_than_the_small_bet() -> None:
    # Equal to it, "completing" would raise by nothing and the round would hold five bets.
    V = get_variant("F7S")
    setup = V.setup_for_table(stacks=[500] * 3, button=0, small_blind=5, big_blind=10)
    for bring_in in (0, 10, 11):
        with pytest.raises(SetupError, match="bring-in"):
            V.start(HandSetup.from_json({**setup.to_json(), "bring_in": bring_in}))
    V.start(HandSetup.from_json({**setup.to_json(), "bring_in": 9}))

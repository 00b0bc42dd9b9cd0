"""Baseball (GAMES.md section 4): the deal and its free cards, betting, openers, showdown,
exact fractions, views, storage and the session."""

from __future__ import annotations

import doctest
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest

import rules_engine.games.baseball as baseball_module
from rules_engine.cards import Card, parse_cards
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, RulesError, SetupError
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.games.baseball import (
    Baseball,
    BaseballSession,
    BaseballState,
    session_standings,
    units_display,
)

BB = Baseball


def units(*values: int | Fraction) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


def c(text: str) -> Card:
    return Card.parse(text)


def stacked(
    hands: Sequence[str | None],
    dealer: int = 0,
    stacks: Sequence[Fraction | int | str] | None = None,
) -> BaseballState:
    """A hand dealt from a deck that gives each seat ``hands[seat]`` (in the order received,
    free cards included) when nobody folds."""
    deck = Baseball.stacked_deck([None if h is None else parse_cards(h) for h in hands], dealer)
    setup = Baseball.setup_for_table(
        stacks=stacks if stacks is not None else [20] * len(hands), button=dealer, deck=deck
    )
    return BB.start(setup)


def by_rounds(
    streets: Sequence[Mapping[int, str]], dealer: int, stacks: Sequence[int]
) -> BaseballState:
    """A hand dealt round by round: ``streets[r][seat]`` is what the seat gets in round r+1."""
    deck = Baseball.deck_for_streets(
        [{s: [None if t == "??" else c(t) for t in text.split()] for s, text in street.items()}
         for street in streets],
        dealer,
        len(stacks),
    )
    return BB.start(Baseball.setup_for_table(stacks=stacks, button=dealer, deck=deck))


def play(state: BaseballState, *kinds: str) -> None:
    """Apply actions for whoever is to act, in order."""
    for kind in kinds:
        assert state.to_act is not None
        state.apply(Action(state.to_act, kind))


def check_round(state: BaseballState) -> None:
    """Everyone checks the current round."""
    r = state.round
    while not state.is_over and state.round == r:
        play(state, "check")


def options(state: BaseballState) -> list[tuple[str, int]]:
    assert state.to_act is not None
    return [(la.kind, la.amount) for la in state.legal_actions(state.to_act)]


def up(state: BaseballState, seat: int) -> list[str]:
    return [str(x) for x in state.up_cards(seat)]


# -- the game and its setup -------------------------------------------------------------------


def test_the_variant_is_registered_with_its_table_facts() -> None:
    assert get_variant("BB") is Baseball
    assert (BB.code, BB.NAME, BB.FAMILY, BB.MIN_PLAYERS, BB.MAX_PLAYERS) == (
        "BB", "Baseball", "stud", 2, 6,
    )
    assert sorted(BB.WILD_RANKS) == [3, 9]


def test_setup_for_table_ignores_blinds_and_keeps_exact_possibly_negative_balances() -> None:
    setup = BB.setup_for_table(
        stacks=[Fraction(5, 3), -4, "7/2"], button=2, small_blind=50, big_blind=100,
        speed="fast", public=True,
    )
    stored: tuple[object, ...] = setup.stacks
    assert stored == (Fraction(5, 3), Fraction(-4), Fraction(7, 2))
    assert (setup.button, setup.speed, setup.public) == (2, "fast", True)
    state = BB.start(setup)
    assert state.pot == 3  # an ante of 1 each, whatever the blinds
    assert state.stacks == units(Fraction(2, 3), Fraction(-5), Fraction(5, 2))
    assert state.clock() == "decision" and state.clock_seconds() == 12.0


@pytest.mark.parametrize(
    ("stacks", "button", "speed", "message"),
    [
        ([10], 0, "medium", "2 to 6 players, not 1"),
        ([10] * 7, 0, "medium", "2 to 6 players, not 7"),
        ([10, 1.5], 0, "medium", "exact fraction"),
        ([10, True], 0, "medium", "exact fraction"),
        ([10, "x"], 0, "medium", "written like"),
        ([10, 10], 2, "medium", "dealer must be one of the seats 0 to 1"),
        ([10, 10], 0, "warp", "slow, medium or fast"),
    ],
)
def test_bad_setups_are_refused_with_a_reason(
    stacks: list[object], button: int, speed: str, message: str
) -> None:
    with pytest.raises(SetupError, match=message):
        BB.setup_for_table(stacks=stacks, button=button, speed=speed)  # type: ignore[arg-type]


def test_a_deck_must_be_all_52_cards() -> None:
    deck = Baseball.stacked_deck([None, None], 0)
    with pytest.raises(SetupError, match="all 52 cards"):
        BB.setup_for_table(stacks=[1, 1], button=0, deck=deck[:46])
    with pytest.raises(SetupError, match="twice"):
        BB.setup_for_table(stacks=[1, 1], button=0, deck=(deck[0], *deck[:51]))
    with pytest.raises(SetupError, match="HandSetup"):
        BB.start("a setup")  # type: ignore[arg-type]


def test_dealer_helpers_deal_left_of_the_dealer_first_and_pass_the_deal_left() -> None:
    assert Baseball.deal_order(2, 4) == (3, 0, 1, 2)
    assert Baseball.next_dealer(3, 4) == 0
    import random

    draws = {Baseball.first_dealer(5, random.Random(s)) for s in range(40)}
    assert draws == set(range(5))


# -- the deal ---------------------------------------------------------------------------------


def test_first_deal_is_two_rounds_down_then_one_up_starting_left_of_the_dealer() -> None:
    state = stacked(["2c 5c 6c", "2d 5d 6d", "2h 5h 6h"], dealer=1)
    deals = [(e.kind, e.seat) for e in state.start_events if e.kind in ("ante", "down", "up")]
    assert deals == [
        ("ante", 2), ("ante", 0), ("ante", 1),
        ("down", 2), ("down", 0), ("down", 1),
        ("down", 2), ("down", 0), ("down", 1),
        ("up", 2), ("up", 0), ("up", 1),
    ]
    assert [str(d.card) for d in state.cards_of(0)] == ["2c", "5c", "6c"]
    assert [d.up for d in state.cards_of(0)] == [False, False, True]
    # Public events never carry a down card's face.
    assert all(not e.cards for e in state.start_events if e.kind == "down")
    assert (state.phase, state.round, state.pot) == ("third", 1, 3)


def test_b1_an_open_four_earns_a_free_up_card_at_once_a_down_four_earns_nothing() -> None:
    # A (seat 0) has a down 4 (nothing), shows 6c, then gets 4h face up on the next round:
    # the dealer adds Kd to A at once, before B's card.
    state = stacked(["2c 4s 6c 4h Kd", "2d 5d 7d 8h", "2h 5h 7h 8d"], dealer=2)
    assert up(state, 0) == ["6c"]
    assert [d.card for d in state.cards_of(0) if not d.up] == [c("2c"), c("4s")]
    assert not any(d.extra for d in state.cards_of(0))
    paid = state.contributed[0]
    events = []
    while state.round == 1:
        assert state.to_act is not None
        events += state.apply(Action(state.to_act, "check"))
    dealt = [(e.kind, e.seat, [str(x) for x in e.cards]) for e in events if e.kind in ("up", "extra")]
    assert dealt == [
        ("up", 0, ["4h"]), ("extra", 0, ["Kd"]), ("up", 1, ["8h"]), ("up", 2, ["8d"]),
    ]
    assert up(state, 0) == ["6c", "4h", "Kd"]
    assert [d.extra for d in state.cards_of(0) if d.up] == [False, False, True]
    assert state.contributed[0] == paid  # the free card costs nothing
    view = state.view_for(1)
    assert view["players"][0]["up"] == [
        {"card": "6c", "extra": False, "wild": False},
        {"card": "4h", "extra": False, "wild": False},
        {"card": "Kd", "extra": True, "wild": False},
    ]
    # The extra card stays to the showdown and counts there.
    for _ in range(4):
        check_round(state)
    assert state.result is not None and state.result.showdown
    assert c("Kd") in state.hand_of(0) and len(state.hand_of(0)) == 8


def test_a_free_card_that_is_a_four_earns_another() -> None:
    state = stacked(["2c 5c 4d 4s Ks", "2d 5d 7d"], dealer=1)
    assert up(state, 0) == ["4d", "4s", "Ks"]
    assert [d.extra for d in state.cards_of(0) if d.up] == [False, True, True]
    assert up(state, 1) == ["7d"]


def test_a_down_four_in_the_last_round_earns_nothing() -> None:
    state = stacked(["2c 5c 6c 7c 8c Tc 4s", "2d 5d 6d 7d 8d Td Jd"], dealer=1)
    for _ in range(4):
        check_round(state)
    assert state.round == 5
    assert [str(d.card) for d in state.dealt_in(0, 5)] == ["4s"]
    assert not state.dealt_in(0, 5)[0].up


def test_the_deck_never_runs_out_even_six_handed_with_every_four_face_up() -> None:
    hands: list[str | None] = [None] * 6
    hands[0] = "2c 2d 4c 4d 4h 4s Kd"  # all four 4s on the first up round
    state = stacked(hands, dealer=5)
    assert len(state.up_cards(0)) == 5
    for _ in range(5):
        check_round(state)
    assert state.result is not None and state.result.showdown
    assert sum(len(state.hand_of(s)) for s in range(6)) == 46


def test_folded_players_get_no_more_cards() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d", "2h 5h 7h"], dealer=2)
    assert state.to_act == 0  # the king opens
    play(state, "bet", "fold", "call")
    assert state.round == 2
    assert len(state.hand_of(1)) == 3
    assert len(state.hand_of(0)) == len(state.hand_of(2)) == 4


def test_stacked_decks_refuse_impossible_deals() -> None:
    with pytest.raises(SetupError, match="missing"):
        Baseball.deck_for_streets([{0: parse_cards("2c 2d 4h"), 1: parse_cards("3c 3d 5h")}], 0, 2)
    with pytest.raises(SetupError, match="only an open 4"):
        Baseball.deck_for_streets([{0: parse_cards("2c 2d 5h 6h"), 1: parse_cards("3c 3d 5c")}], 0, 2)
    with pytest.raises(SetupError, match="twice"):
        Baseball.deck_for_streets([{0: parse_cards("2c 2d 5h"), 1: parse_cards("2c 3d 5c")}], 0, 2)
    with pytest.raises(SetupError, match="no seat"):
        Baseball.deck_for_streets([{5: parse_cards("2c 2d 5h")}], 0, 2)
    with pytest.raises(SetupError, match="more cards"):
        Baseball.stacked_deck([parse_cards("2c 2d 5h 6h 7h 8h Th Jh"), None], 0)


# -- betting ----------------------------------------------------------------------------------


def test_limit_betting_bet_one_then_three_raises_of_one() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d", "2h 5h 7h"], dealer=2)
    assert options(state) == [("check", 0), ("bet", 1)]
    play(state, "bet")
    assert options(state) == [("fold", 0), ("call", 1), ("raise", 2)]
    play(state, "raise")
    assert options(state) == [("fold", 0), ("call", 2), ("raise", 3)]
    play(state, "raise")
    # The bettor has paid 1 and pays the difference: 2 to call, 3 more to raise to 4.
    assert options(state) == [("fold", 0), ("call", 2), ("raise", 4)]
    play(state, "raise")
    assert state.raises == 3 and state.level == 4
    assert options(state) == [("fold", 0), ("call", 2)]  # the cap: no fourth raise
    with pytest.raises(IllegalAction, match="3 raises"):
        state.apply(Action(state.to_act or 0, "raise"))
    play(state, "call", "call")
    assert state.round == 2
    assert state.contributed == (5, 5, 5) and state.pot == 15


def test_a_round_ends_when_everyone_checks_or_has_matched_since_the_last_raise() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d", "2h 5h 7h"], dealer=2)
    play(state, "check", "check")
    assert state.round == 1
    play(state, "check")
    assert state.round == 2
    # Check-raise: seat 0 checks, seat 1 bets, seat 2 calls, seat 0 raises; both call.
    opener = state.to_act
    play(state, "check", "bet", "call", "raise", "call", "call")
    assert state.round == 3 and opener is not None


def test_folding_is_offered_only_against_a_bet() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d"], dealer=1)
    with pytest.raises(IllegalAction, match="nothing to fold to"):
        state.apply(Action(0, "fold"))
    with pytest.raises(IllegalAction, match="nothing to call"):
        state.apply(Action(0, "call"))
    with pytest.raises(IllegalAction, match="bet instead"):
        state.apply(Action(0, "raise"))
    play(state, "bet")
    with pytest.raises(IllegalAction, match="a bet to call"):
        state.apply(Action(1, "check"))
    with pytest.raises(IllegalAction, match="already a bet"):
        state.apply(Action(1, "bet"))


def test_rejected_actions_change_nothing() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d"], dealer=1)
    before = state.snapshot()
    with pytest.raises(OutOfTurn, match="seat 0's turn"):
        state.apply(Action(1, "check"))
    with pytest.raises(MalformedAction, match="not a Baseball action"):
        state.apply(Action(0, "bet_pot"))
    with pytest.raises(MalformedAction, match="no seat"):
        state.apply(Action(7, "check"))
    with pytest.raises(MalformedAction, match="whole number"):
        state.apply(Action(0, "bet", amount=-1))
    with pytest.raises(IllegalAction, match="one size"):
        state.apply(Action(0, "bet", amount=2))
    with pytest.raises(MalformedAction, match="no cards"):
        state.apply(Action(0, "check", cards=(c("2c"),)))
    with pytest.raises(MalformedAction):
        state.apply("check")  # type: ignore[arg-type]
    assert state.snapshot() == before
    state.apply(Action(0, "bet", amount=1))
    assert state.log[-1] == Action(0, "bet", amount=1)


def test_balances_may_go_below_zero_and_nobody_is_ever_all_in() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d"], dealer=1, stacks=[0, -3])
    assert state.stacks == units(-1, -4)
    play(state, "bet", "raise", "raise", "raise", "call")
    assert state.stacks == units(-5, -8)
    view = state.view_for(None)
    assert [p["stack"] for p in view["players"]] == ["-5", "-8"]
    assert not any(p["all_in"] for p in view["players"])


# -- who opens --------------------------------------------------------------------------------


def test_each_round_is_opened_by_the_best_open_hand_with_wilds_counted() -> None:
    # Round 1: a wild 9 showing counts as an ace and beats a king.
    state = stacked(["2c 5c Kc Qh", "2d 5d 9d 6h"], dealer=1)
    assert state.opener == 1 and state.to_act == 1
    check_round(state)
    # Round 2: K-Q against 9-6: the wild pairs the six, and a pair beats king high.
    assert state.opener == 1
    view = state.view_for(None)
    assert view["opener"] == 1 and view["round"] == 2
    assert view["players"][1]["showing"] == "one_pair"


def test_equal_open_hands_go_to_the_nearest_left_of_the_dealer_suits_never_count() -> None:
    hands = ["2c 5c Kc", "2d 5d Kd", "2h 5h Ks", "2s 5s Kh"]
    for dealer in range(4):
        state = stacked(hands, dealer=dealer)
        assert state.opener == (dealer + 1) % 4
    # A folded player's hand no longer counts.
    state = stacked(["2c 5c Kc Tc", "2d 5d Qd Td", "2h 5h 6h 7h"], dealer=2)
    play(state, "bet", "call", "call")
    assert state.opener == 0
    play(state, "bet", "fold", "raise")  # seat 2 raises, seat 0 calls
    play(state, "call")
    assert state.round == 3 and state.folded == (False, True, False)


# -- showdown and splitting -------------------------------------------------------------------


def test_b2_five_eights_beat_a_natural_royal_flush() -> None:
    state = stacked(["8s 8h 8c 8d 3c 2c 5c", "As Ks Qs Js Ts 2d 5h"], dealer=1)
    for _ in range(5):
        check_round(state)
    result = state.result
    assert result is not None and result.showdown
    assert result.payouts == units(2, 0)
    hands = {h.seat: h.best for h in result.hands}
    assert hands[0].describe() == "Five of a kind, eights"
    assert hands[1].category.label == "royal_flush"
    assert hands[0] > hands[1]
    assert state.stacks == units(21, 19)


def test_a_natural_hand_does_not_beat_the_same_hand_made_with_a_wild_card() -> None:
    # A natural royal in spades against K-Q-J-T of hearts and a wild 9 standing for the ace.
    state = stacked(["As Ks Qs Js Ts 2d 5h", "Ah Kh Qh Jh 9h 2c 5c"], dealer=1)
    for _ in range(5):
        check_round(state)
    assert state.result is not None
    assert state.result.payouts == units(1, 1)
    assert state.result.net == units(0, 0)


def test_an_exact_tie_splits_the_pot_in_exact_fractions() -> None:
    # Three broadway straights (no flush, no pair, no wild) and a fourth player who folds to
    # the first bet: a pot of 7 split three ways, 7/3 each.
    streets = [
        {0: "As Kh Qd", 1: "Ah Kd Qc", 2: "Ad Kc Qs", 3: "?? ?? 2s"},
        {0: "Jc", 1: "Js", 2: "Jh"},
        {0: "Ts", 1: "Th", 2: "Td"},
        {0: "2h", 1: "2d", 2: "2c"},
        {0: "5d", 1: "6c", 2: "7s"},
    ]
    state = by_rounds(streets, dealer=3, stacks=[10, 10, 10, 10])
    assert state.opener == 0  # three queens showing: the nearest the dealer's left opens
    play(state, "bet", "call", "call", "fold")
    for _ in range(4):
        check_round(state)
    result = state.result
    assert result is not None and result.showdown and result.pot == 7
    third = Fraction(7, 3)
    assert result.payouts == units(third, third, third, 0)
    assert sum(result.payouts) == 7
    assert result.net == units(Fraction(1, 3), Fraction(1, 3), Fraction(1, 3), -1)
    assert state.stacks == units(Fraction(31, 3), Fraction(31, 3), Fraction(31, 3), 9)
    assert sum(state.stacks) == 40
    data = result.to_json()
    assert data["payouts"] == ["7/3", "7/3", "7/3", "0"]
    assert data["payouts_display"] == ["2 1/3", "2 1/3", "2 1/3", "0"]
    assert data["stacks_display"][0] == "10 1/3"
    assert data["shown"] == [0, 1, 2] and data["winners"] == [0, 1, 2]
    assert {h["description"] for h in data["hands"]} == {"Straight, ace high"}
    json.dumps(state.view_for(None))


def test_a_pot_of_five_split_three_ways_pays_one_and_two_thirds() -> None:
    assert units_display(Fraction(5, 3)) == "1 2/3"
    assert units_display(Fraction(-5, 3)) == "-1 2/3"
    assert baseball_module.units_json(Fraction(5, 3)) == "5/3"


def test_everyone_else_folding_ends_the_hand_unseen() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d", "2h 5h 7h"], dealer=2)
    events: list[object] = []
    for kind in ("bet", "fold", "fold"):
        assert state.to_act is not None
        events += state.apply(Action(state.to_act, kind))
    result = state.result
    assert result is not None and not result.showdown
    assert result.payouts == units(4, 0, 0) and result.net == units(2, -1, -1)
    assert result.shown == () and result.hands == ()
    assert state.is_over and state.phase == "over" and state.pot == 0
    assert state.legal_actions(0) == [] and state.actors() == () and state.clock() is None
    for viewer in (None, 1, 2):
        assert state.view_for(viewer)["players"][0]["down"] == [None, None]
    with pytest.raises(IllegalAction, match="over"):
        state.apply(Action(0, "check"))
    with pytest.raises(IllegalAction, match="over"):
        state.timeout()


# -- timeouts ---------------------------------------------------------------------------------


def test_a_timeout_checks_if_it_can_else_folds_and_puts_the_seat_on_a_break() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d", "2h 5h 7h"], dealer=2)
    events = state.timeout()
    assert [e.kind for e in events] == ["timeout", "break", "check"]
    assert state.breaks == {0}
    play(state, "bet")
    events = state.timeout()
    assert [e.kind for e in events] == ["timeout", "break", "fold"]
    assert state.breaks == {0, 2} and state.folded[2]
    assert state.log[0] == Action(0, "check", timeout=True)
    with pytest.raises(IllegalAction, match="a timeout folds"):
        state.apply(Action(0, "call", timeout=True))
    assert state.view_for(None)["players"][2]["on_break"]


# -- views ------------------------------------------------------------------------------------


def test_views_show_up_cards_to_all_and_down_cards_only_to_their_owner() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 9d", "2h 5h 7h"], dealer=2)
    me = state.view_for(0)
    for key in ("variant", "game", "family", "viewer", "phase", "pot", "button", "actors",
                "to_act", "clock", "players", "opener", "round", "legal_actions", "result",
                "you"):
        assert key in me
    assert (me["variant"], me["family"], me["button"], me["round"]) == ("BB", "stud", 2, 1)
    assert me["players"][0]["down"] == ["2c", "5c"]
    assert me["players"][0]["cards"] == ["2c", "5c", "Kc"]
    assert me["players"][1]["down"] == [None, None] and me["players"][1]["cards"] is None
    assert me["players"][1]["up"] == [{"card": "9d", "extra": False, "wild": True}]
    assert me["you"]["down"] == ["2c", "5c"] and me["you"]["best"] is None
    assert me["wild_ranks"] == [3, 9]
    spectator = state.view_for(None)
    assert spectator["you"] is None and spectator["legal_actions"] == []
    text = json.dumps(spectator)
    for card in ("2c", "5c", "2d", "5d", "2h", "5h"):
        assert f'"{card}"' not in text
    with pytest.raises(MalformedAction):
        state.view_for(3)


def test_after_the_showdown_everyone_still_in_is_shown_but_a_folded_hand_never() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d", "2h 5h 7h"], dealer=2)
    play(state, "bet", "fold", "call")
    for _ in range(4):
        check_round(state)
    view = state.view_for(None)
    assert [p["shown"] for p in view["players"]] == [True, False, True]
    assert view["players"][0]["down"][:2] == ["2c", "5c"]
    assert view["players"][1]["down"] == [None, None]
    assert '"2d"' not in json.dumps(view) and '"5d"' not in json.dumps(view)
    assert view["result"]["pots"][0]["winners"][0]["category"] is not None


# -- storage ----------------------------------------------------------------------------------


def test_json_round_trip_and_replay_rebuild_the_same_state() -> None:
    state = stacked(["2c 5c Kc", "2d 5d 6d", "2h 5h 7h"], dealer=2, stacks=["5/3", -2, 0])
    play(state, "bet", "raise", "fold", "call")
    state.timeout()
    data = json.loads(json.dumps(state.to_json()))
    assert data["setup"]["stacks"] == ["5/3", "-2", "0"]
    assert BB.from_json(data) == state
    assert BB.replay(state.setup, state.log) == state
    with pytest.raises(SetupError, match="not a saved Baseball hand"):
        BB.from_json({"variant": "PP"})
    with pytest.raises(SetupError, match="needs the deck"):
        BB.replay(HandSetup((1, 1), 0, 1, 1), [])


# -- the session ------------------------------------------------------------------------------


def test_session_standings_share_places_1_1_3() -> None:
    nets: dict[str, Fraction | int] = {
        "ann": Fraction(4, 3), "bob": Fraction(4, 3), "cy": 0, "dee": -2, "eve": -2,
    }
    assert session_standings(nets) == [
        (1, "ann", Fraction(4, 3)),
        (1, "bob", Fraction(4, 3)),
        (3, "cy", Fraction(0)),
        (4, "dee", Fraction(-2)),
        (4, "eve", Fraction(-2)),
    ]
    assert session_standings({}) == []


def test_a_session_counts_eight_completed_pots() -> None:
    session: BaseballSession[str] = BaseballSession()
    names = ["ann", "bob"]
    for k in range(8):
        assert not session.is_over and session.pots_left == 8 - k
        state = stacked(["2c 5c Kc", "2d 5d 6d"], dealer=k % 2)
        with pytest.raises(RulesError, match="finished hand"):
            session.record_hand(state, names)
        play(state, "bet", "fold")
        session = session.record_hand(state, names)
    assert session.is_over and session.pots == 8
    assert session.net_of("ann") == -session.net_of("bob")
    assert session.net_of("nobody") == 0
    with pytest.raises(RulesError, match="session is over"):
        session.record({"ann": 1})
    places = [place for place, _, _ in session.standings()]
    assert places in ([1, 2], [1, 1])


def test_the_docstring_examples_hold() -> None:
    result = doctest.testmod(baseball_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0

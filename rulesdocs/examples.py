"""Worked examples for the rules pages, computed by the engine rather than typed in.

Every number a rules page quotes about a hand comes from here: the pot-only table (GAMES.md P1-P7)
is read off real Patch-Patch hand states, the board split (S1, S2) and side pots come from the
engine's showdown and ``rules_engine.pots``, the hand pictures from the evaluator. The pages only
supply the words around them. Results are plain frozen values, computed once per process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from urllib.parse import urlencode

from rules_engine import pots
from rules_engine.cards import Card, parse_cards
from rules_engine.evaluation import best_hand, evaluate5, omaha_best
from rules_engine.games import Action, HandSetup, LegalAction, get_variant
from rules_engine.games import patchpatch as pp
from rules_engine.lowball import omaha_low_8, razz_low
from rules_engine.wild import BASEBALL_WILDS, best_wild_hand
from tables.handreader import CardPicture, ShownHand, shown_high, shown_low


def pictures(cards: Sequence[Card] | str, used: Sequence[Card] = ()) -> tuple[CardPicture, ...]:
    """Plain card pictures; with ``used``, the cards among them that play are marked."""
    if isinstance(cards, str):
        cards = parse_cards(cards)
    marked = set(used)
    return tuple(CardPicture(c, used=c in marked) for c in cards)


def hand_link(game: str, hand: Sequence[Card] | str, board: str = "") -> str:
    """The query string that opens the hand reader on these cards."""
    text = hand if isinstance(hand, str) else " ".join(map(str, hand))
    query = {"game": game, "hand": text}
    if board:
        query["board"] = board
    return urlencode(query)


# ---------------------------------------------------------------------------------------------
# Patch-Patch: pot-only betting, P1-P7


@dataclass(frozen=True)
class PotOnlyExample:
    """One row of the pot-only table: a real hand state and what the seat to act may do."""

    id: str
    players: int
    phase: str
    pot: int  # everything in the middle before the seat acts
    facing: int  # the bet the seat faces this round (0: nobody has bet)
    own_bet: int  # what the seat already has in this round
    options: tuple[LegalAction, ...]

    def _amount(self, kind: str) -> int | None:
        return next((o.amount for o in self.options if o.kind == kind), None)

    @property
    def call(self) -> int | None:
        return self._amount("call")

    @property
    def bet(self) -> int | None:
        return self._amount("bet_pot")

    @property
    def raise_to(self) -> int | None:
        return self._amount("raise_pot")

    @property
    def pot_after_call(self) -> int:
        return self.pot + (self.call or 0)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(o.kind for o in self.options)


POT_ONLY_STACK = 1000
POT_ONLY_BLINDS = (5, 10)


def _pp_hand(players: int) -> pp.PatchPatchState:
    setup = HandSetup(
        stacks=(POT_ONLY_STACK,) * players, button=0,
        small_blind=POT_ONLY_BLINDS[0], big_blind=POT_ONLY_BLINDS[1],
    )
    # The cards do not matter to the amounts; a fixed seed keeps the example reproducible.
    return get_variant("PP").start(setup, random.Random(2026))


def _act(state: pp.PatchPatchState, kind: str) -> None:
    seat = state.to_act
    assert seat is not None, f"nobody to act in {state.phase}"
    state.apply(Action(seat, kind))


def _arrange_all(state: pp.PatchPatchState) -> None:
    for seat in state.actors():
        state.apply(Action(seat, "done"))


def _row(id: str, state: pp.PatchPatchState) -> PotOnlyExample:
    seat = state.to_act
    assert seat is not None
    return PotOnlyExample(
        id=id,
        players=state.n,
        phase=state.phase,
        pot=state.pot,
        facing=max(state.bets),
        own_bet=state.bets[seat],
        options=tuple(state.legal_actions(seat)),
    )


@cache
def pot_only_examples() -> dict[str, PotOnlyExample]:
    """GAMES.md P1-P7 at blinds 5-10 with 1,000 chips each, read off the Patch-Patch engine."""
    rows: dict[str, PotOnlyExample] = {}
    three = _pp_hand(3)
    rows["P1"] = _row("P1", three)  # the button opens the betting
    _act(three, "raise_pot")
    rows["P2"] = _row("P2", three)  # the small blind faces the raise

    heads_up = _pp_hand(2)
    rows["P3"] = _row("P3", heads_up)

    limped = _pp_hand(3)
    _act(limped, "call")
    _act(limped, "call")
    rows["P4"] = _row("P4", limped)  # the big blind's option

    flop = _pp_hand(2)
    _act(flop, "raise_pot")  # small blind to 30
    _act(flop, "call")  # 60 in the middle
    _arrange_all(flop)
    rows["P5"] = _row("P5", flop)
    _act(flop, "bet_pot")
    rows["P6"] = _row("P6", flop)
    _act(flop, "raise_pot")
    rows["P7"] = _row("P7", flop)
    return rows


# ---------------------------------------------------------------------------------------------
# Patch-Patch: arranging, the three boards, side pots, rake


@dataclass(frozen=True)
class BoardHand:
    """One player's four cards on one board and what they make."""

    cards: tuple[CardPicture, ...]
    made: ShownHand
    category: str
    wins: int = 0  # chips won on this board
    winner: bool = False
    split: bool = False


@dataclass(frozen=True)
class BoardOutcome:
    number: int  # 1, 2, 3
    board: tuple[CardPicture, ...]
    share: int
    hands: tuple[BoardHand, ...]  # by seat


@dataclass(frozen=True)
class Showdown:
    """A Patch-Patch hand played to the showdown by the engine, board by board."""

    pot: int
    shares: tuple[int, ...]
    boards: tuple[BoardOutcome, ...]
    payouts: tuple[int, ...]
    net: tuple[int, ...]
    scoop: int | None


# S2: "me" (seat 0, the button) against Dana; 25-50 blinds, a pot raise and a call make a pot of
# 300, then everybody checks. Board 1: my ace-high flush beats Dana's set of eights; board 2: a
# queen-high straight each; board 3: Dana's ace-high flush beats my set of kings.
SPLIT_BOARDS = ("8h 6h 2h Jc Kd", "Qd 9s 8d 3h 2s", "Kc 7c 4c Ts 6d")
SPLIT_HANDS = (
    "Ah 4h Qc 3c  Jh Td 5c 7s  Ks Kh Qs Jd",  # me
    "8s 8c 5s 3d  Js Th 4d 2d  Ac 9c Qh 5h",  # Dana
)


def _play_to_showdown(
    hands: Sequence[str], boards: Sequence[str], blinds: tuple[int, int], preflop: Sequence[str]
) -> pp.PatchPatchState:
    PatchPatch = get_variant("PP")
    hand_cards = [parse_cards(h) for h in hands]
    board_cards = [parse_cards(b) for b in boards]
    deck = PatchPatch.stacked_deck(hand_cards, button=0, boards=board_cards)
    setup = HandSetup(
        stacks=(10_000,) * len(hands), button=0, small_blind=blinds[0], big_blind=blinds[1],
        deck=deck,
    )
    state = PatchPatch.start(setup)
    for kind in preflop:
        _act(state, kind)
    _arrange_all(state)
    while not state.is_over:
        _act(state, "check")
    return state


@cache
def split_board_example() -> Showdown:
    """GAMES.md S2, dealt from a stacked deck and played to the showdown by the engine."""
    state = _play_to_showdown(SPLIT_HANDS, SPLIT_BOARDS, (25, 50), ["raise_pot", "call"])
    result = state.result
    assert result is not None
    (pot,) = result.pots
    outcomes = []
    for b, board_result in enumerate(pot.boards):
        won = {w.seat: w.amount for w in board_result.winners}
        hands = []
        for seat in range(state.n):
            four = state.hands_of(seat)[b]
            value = omaha_best(four, state.boards[b])
            hands.append(
                BoardHand(
                    cards=pictures(four, used=value.cards),
                    made=shown_high(value),
                    category=value.category.label,
                    wins=won.get(seat, 0),
                    winner=seat in won,
                    split=len(won) > 1 and seat in won,
                )
            )
        outcomes.append(
            BoardOutcome(b + 1, pictures(state.boards[b]), board_result.share, tuple(hands))
        )
    return Showdown(
        pot=pot.amount,
        shares=tuple(br.share for br in pot.boards),
        boards=tuple(outcomes),
        payouts=result.payouts,
        net=result.net,
        scoop=result.scoop,
    )


@dataclass(frozen=True)
class Arrangement:
    """Twelve cards before and after arranging, against three flops."""

    flops: tuple[tuple[CardPicture, ...], ...]
    dealt: tuple[BoardHand, ...]
    arranged: tuple[BoardHand, ...]


ARRANGE_FLOPS = ("Qh 8h 3h", "Ks 7d 7h", "Ts 9d 6c")
ARRANGE_DEALT = "Ah 2c Kd 8d  5h Jc Kc 4s  7s Qd 2d Jd"
ARRANGE_ORDER = "Ah 5h 2c 4s  Kd Kc Jc Qd  8d 7s 2d Jd"


def _board_hands(state: pp.PatchPatchState, seat: int) -> tuple[BoardHand, ...]:
    out = []
    for b, value in enumerate(state.made_hands(seat)):
        assert value is not None
        four = state.hands_of(seat)[b]
        out.append(
            BoardHand(
                cards=pictures(four, used=value.cards),
                made=shown_high(value),
                category=value.category.label,
            )
        )
    return tuple(out)


@cache
def arrangement_example() -> Arrangement:
    """The same twelve cards as dealt and after arranging, as the engine reads them on the flops."""
    PatchPatch = get_variant("PP")
    deck = PatchPatch.stacked_deck(
        [parse_cards(ARRANGE_DEALT), None], button=0, boards=[parse_cards(f) for f in ARRANGE_FLOPS]
    )
    state = PatchPatch.start(HandSetup(stacks=(1000, 1000), button=0, small_blind=5, big_blind=10, deck=deck))
    _act(state, "call")
    _act(state, "check")
    assert state.phase == "arrange"
    dealt = _board_hands(state, 0)
    state.apply(Action.arrange(0, parse_cards(ARRANGE_ORDER)))
    arranged = _board_hands(state, 0)
    return Arrangement(
        flops=tuple(pictures(f) for f in ARRANGE_FLOPS), dealt=dealt, arranged=arranged
    )


@dataclass(frozen=True)
class SidePotExample:
    """Three players, one of them all-in for less: the pots and how each splits into thirds."""

    contributions: tuple[int, ...]
    pots: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]  # amount, eligible, shares


@cache
def side_pot_example() -> SidePotExample:
    contributions = (100, 300, 300)
    built = pots.build_pots(contributions, [False, False, False])
    return SidePotExample(
        contributions,
        tuple((p.amount, p.eligible, pots.split_shares(p.amount, pp.BOARDS)) for p in built),
    )


@dataclass(frozen=True)
class RakeExample:
    stakes: tuple[int, int]
    pot: int
    rake: int
    cap: int


@cache
def rake_examples() -> tuple[RakeExample, ...]:
    """The house rake on a few pots, with the engine's percentage and cap."""
    out = []
    for (sb, bb), pot in (((10, 20), 600), ((10, 20), 3000), ((5, 10), 3000)):
        cap = pp.RAKE_CAP_BB * bb
        rake = 0
        if bb >= pp.RAKE_FROM_BIG_BLIND:
            (rake,) = pots.rake_pots([pot], pp.RAKE_PERCENT, cap)
        out.append(RakeExample((sb, bb), pot, rake, cap))
    return tuple(out)


@dataclass(frozen=True)
class PatchPatchFacts:
    """Numbers the Patch-Patch page quotes, taken from the engine's constants."""

    decision_seconds: dict[str, float]
    arrange_seconds: dict[str, float]
    buy_in: tuple[int, int]
    rake_percent: int
    rake_cap_bb: int
    rake_from: int
    s1: tuple[int, ...]
    cards_three_handed: int
    cards_heads_up: int


@cache
def patchpatch_facts() -> PatchPatchFacts:
    board_cards = pp.BOARDS * 5
    return PatchPatchFacts(
        decision_seconds=dict(pp.DECISION_SECONDS),
        arrange_seconds=dict(pp.ARRANGE_SECONDS),
        buy_in=(pp.BUY_IN_MIN_BB, pp.BUY_IN_MAX_BB),
        rake_percent=pp.RAKE_PERCENT,
        rake_cap_bb=pp.RAKE_CAP_BB,
        rake_from=pp.RAKE_FROM_BIG_BLIND,
        s1=pots.split_shares(100, pp.BOARDS),
        cards_three_handed=3 * pp.HAND_SIZE + board_cards,
        cards_heads_up=2 * pp.HAND_SIZE + board_cards,
    )


# ---------------------------------------------------------------------------------------------
# Rankings: the ten hands and the two-plus-three traps


@dataclass(frozen=True)
class RankedExample:
    category: str
    hand: ShownHand


TEN_HANDS = (
    "Ad Kd Qd Jd Td",
    "9c 8c 7c 6c 5c",
    "Js Jh Jd Jc 4h",
    "Qs Qh Qc 8d 8s",
    "Ah Jh 8h 6h 2h",
    "Ts 9d 8c 7h 6s",
    "7s 7h 7d Kc 2d",
    "Ks Kd 3c 3h 9s",
    "As Ac Qd 8h 5c",
    "Ad Jc 9h 6s 3d",
)


@cache
def ten_hands() -> tuple[RankedExample, ...]:
    """One example of each category, best first, as the evaluator reads it."""
    out = []
    for text in TEN_HANDS:
        value = evaluate5(parse_cards(text))
        out.append(RankedExample(value.category.label, shown_high(value)))
    return tuple(out)


@dataclass(frozen=True)
class Trap:
    """An Omaha hand that looks better than it is: what counts, and what a Hold'em eye sees."""

    id: str
    hole: tuple[CardPicture, ...]
    board: tuple[CardPicture, ...]
    made: ShownHand
    category: str
    misread: str  # the category with any five of the nine cards
    link: str


TRAPS = {
    "flush": ("Ah Kc 8d 4s", "Qh 9h 6h 2h Jc"),
    "quads": ("As Kd Qc 2h", "7c 7d 7h 7s 5c"),
    "set": ("Js Jd 6c 4h", "Jc 9h 5d 2s Kc"),
    "trips-in-hand": ("9s 9h 9d Ac", "Ks 7d 4c 2h Qd"),
    "straight": ("6c 7d 8s 9h", "Tc 9d 4s 2h Kc"),
}


@cache
def traps() -> dict[str, Trap]:
    out = {}
    for key, (hole_text, board_text) in TRAPS.items():
        hole, board = parse_cards(hole_text), parse_cards(board_text)
        value = omaha_best(hole, board)
        out[key] = Trap(
            key,
            pictures(hole, used=value.cards),
            pictures(board, used=value.cards),
            shown_high(value),
            value.category.label,
            best_hand(hole + board).category.label,
            hand_link("omaha", hole_text, board_text),
        )
    return out


@dataclass(frozen=True)
class HiLoExample:
    """Omaha Hi-Lo: one hand that plays different hole cards for the high and for the low."""

    hole: tuple[CardPicture, ...]
    board: tuple[CardPicture, ...]
    high: ShownHand
    high_category: str
    low: ShownHand | None
    link: str


HILO_HOLE, HILO_BOARD = "Ah 2d Ks Qs", "7s 5s 4h 9s Jd"


@cache
def hilo_example() -> HiLoExample:
    hole, board = parse_cards(HILO_HOLE), parse_cards(HILO_BOARD)
    high = omaha_best(hole, board)
    low = omaha_low_8(hole, board)
    return HiLoExample(
        pictures(hole),
        pictures(board),
        shown_high(high),
        high.category.label,
        shown_low(low) if low else None,
        hand_link("omaha8", HILO_HOLE, HILO_BOARD),
    )


@dataclass(frozen=True)
class LowCompare:
    """Two Razz hands side by side: the better low wins."""

    better: ShownHand
    worse: ShownHand


@cache
def razz_examples() -> tuple[LowCompare, ...]:
    """Lows compared from the top card down (GAMES.md section 1), read by the engine."""
    pairs = (("8h 6c 4d 3s 2c", "8d 7s 3c 2h Ah"), ("6s 5h 4c 3d 2s Kc Kd", "7c 5d 4h 3c As Qs Js"))
    out = []
    for a, b in pairs:
        x, y = razz_low(parse_cards(a)), razz_low(parse_cards(b))
        better, worse = (x, y) if x > y else (y, x)
        out.append(LowCompare(shown_low(better), shown_low(worse)))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Baseball


@dataclass(frozen=True)
class BaseballFacts:
    five_eights: ShownHand
    five_eights_cards: tuple[CardPicture, ...]
    royal: ShownHand
    five_beats_royal: bool
    b1_cards: tuple[CardPicture, ...]
    split: tuple[int, int, Fraction]  # pot, players, each


@cache
def baseball_facts() -> BaseballFacts:
    eights = parse_cards("8s 8h 8c 8d 3c")
    five = best_wild_hand(eights)
    royal = best_wild_hand(parse_cards("As Ks Qs Js Ts"))
    return BaseballFacts(
        five_eights=shown_high(five, BASEBALL_WILDS),
        five_eights_cards=tuple(CardPicture(c, wild=c.rank in BASEBALL_WILDS) for c in eights),
        royal=shown_high(royal, BASEBALL_WILDS),
        five_beats_royal=five > royal,
        b1_cards=pictures("6c 4h Kd"),
        split=(5, 3, Fraction(5, 3)),
    )


# ---------------------------------------------------------------------------------------------
# Betting structures of the other games


@dataclass(frozen=True)
class PotLimitRaise:
    """The largest raise in pot limit, step by step."""

    pot: int  # in the middle before this round's bets
    bets: tuple[int, ...]  # this round's bets and calls before the player acts
    call: int  # what the player must put in to call
    pot_after_call: int  # the pot the raise may add
    raise_to: int  # the player's total for the round after the largest raise


def pot_limit_max_raise(pot: int, bets: Sequence[int], own_bet: int = 0) -> PotLimitRaise:
    """Pot limit: the most a player may raise to. First call, then raise by the pot as it is then.

    >>> r = pot_limit_max_raise(200, [150, 150])   # GAMES.md section 3
    >>> r.call, r.pot_after_call, r.raise_to
    (150, 650, 800)
    """
    facing = max([*bets, own_bet])
    call = facing - own_bet
    pot_after_call = pot + sum(bets) + own_bet + call
    return PotLimitRaise(pot, tuple(bets), call, pot_after_call, facing + pot_after_call)


def no_limit_min_raise(facing: int, last_raise: int) -> int:
    """No limit and pot limit: the smallest raise-to facing a bet of ``facing``, when the last
    bet or raise of the round added ``last_raise`` (for an opening bet, the bet itself).

    >>> no_limit_min_raise(100, 100)   # GAMES.md section 3: a bet of 100, a raise to 200
    200
    """
    return facing + last_raise


@dataclass(frozen=True)
class FixedLimitRound:
    bet: int
    cap_bets: int
    most_per_round: int


def fixed_limit_rounds(small_bet: int, cap_bets: int = 4) -> tuple[FixedLimitRound, FixedLimitRound]:
    """The small-bet and big-bet rounds of fixed limit, with the cap (a bet and three raises)."""
    big_bet = 2 * small_bet
    return (
        FixedLimitRound(small_bet, cap_bets, small_bet * cap_bets),
        FixedLimitRound(big_bet, cap_bets, big_bet * cap_bets),
    )

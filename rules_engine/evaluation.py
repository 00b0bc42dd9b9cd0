"""High-hand evaluation: the best five cards of a hand, as one comparable integer.

Every five-card hand belongs to one of 7,462 equivalence classes (suits never decide, so two
hands in the same class tie). A hand's :attr:`HandValue.value` is the index of its class, from
``0`` (7-5-4-3-2 of mixed suits) to ``7461`` (a royal flush); Baseball's five of a kind, made
only with wild cards, takes ``7462`` (five deuces) to ``7474`` (five aces). Every evaluator in
the engine (Hold'em, Omaha 2+3, stud, draw, wild cards) reports on this one scale, so values
compare across them and an equal value is an exact tie.

>>> from rules_engine.cards import parse_cards
>>> best_hand(parse_cards("Ah Kh 7h 2h 9h 9c 9d")).describe()
'Flush, ace high'
>>> omaha_best(parse_cards("Ah 2c 9s 9d"), parse_cards("Kh Qh Jh Th 3c")).describe()
'Pair of nines'
>>> hand_value_int(parse_cards("As Ks Qs Js Ts")) == VALUE_ROYAL_FLUSH
True

Two paths compute the same numbers. The plain functions (:func:`evaluate5`, :func:`best_hand`,
:func:`omaha_best`) return a :class:`HandValue` with the five cards used. The fast paths
(:func:`hand_value_int`, :func:`omaha_value_int`) return only the integer: a card's index picks a
precomputed key, the keys of a hand add up to one integer that identifies both the multiset of
its ranks and how many cards of each suit it has, and one dictionary lookup gives the value.
:mod:`rules_engine.batch` runs the same idea over numpy arrays.

The low evaluators (:mod:`rules_engine.lowball`), wild cards (:mod:`rules_engine.wild`) and open
stud hands (:mod:`rules_engine.openhand`) are re-exported here so callers have one place to import
from.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from rules_engine.cards import RANK_NAMES, Card

__all__ = [
    "RANK_KEYS",
    "VALUE_COUNT",
    "VALUE_ROYAL_FLUSH",
    "Category",
    "HandValue",
    "LowValue",
    "best_hand",
    "best_wild_hand",
    "category_of",
    "compare_open_hands",
    "compare_open_lows",
    "evaluate5",
    "hand_value_int",
    "low_8_or_better",
    "omaha_best",
    "omaha_low_8",
    "omaha_value_int",
    "open_hand_key",
    "open_low_key",
    "razz_low",
    "value_ranks",
]


class Category(enum.IntEnum):
    """Hand categories; a higher number beats a lower one."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_OF_A_KIND = 10

    @property
    def label(self) -> str:
        """The snake_case name used in JSON and templates, e.g. ``'full_house'``."""
        return self.name.lower()

    @property
    def title(self) -> str:
        """``'Full house'``."""
        return self.name.replace("_", " ").capitalize()


Ranks = tuple[int, ...]
Shape = tuple[Category, Ranks]

# ---------------------------------------------------------------------------------------------
# The 7,462 classes (plus five of a kind), worst first. A shape is (category, ranks): the five
# ranks in order of importance, e.g. (FULL_HOUSE, (8, 8, 8, 3, 3)); the wheel is (5, 4, 3, 2, 14).

_STRAIGHT_TOPS = range(5, 15)


def _straight_ranks(top: int) -> Ranks:
    return (5, 4, 3, 2, 14) if top == 5 else tuple(range(top, top - 5, -1))


def _build_shapes() -> list[Shape]:
    desc = range(14, 1, -1)
    straights = {frozenset(_straight_ranks(t)) for t in _STRAIGHT_TOPS}
    # combinations() of a descending sequence yields descending tuples in reverse-lexicographic
    # order, so reversing each list puts it worst first.
    distinct = [c for c in combinations(desc, 5) if frozenset(c) not in straights][::-1]

    def kickers(n: int, *exclude: int) -> list[Ranks]:
        return list(combinations([r for r in desc if r not in exclude], n))[::-1]

    shapes: list[Shape] = [(Category.HIGH_CARD, c) for c in distinct]
    for p in range(2, 15):
        shapes += [(Category.ONE_PAIR, (p, p, *k)) for k in kickers(3, p)]
    for hi in range(3, 15):
        for lo in range(2, hi):
            shapes += [(Category.TWO_PAIR, (hi, hi, lo, lo, *k)) for k in kickers(1, hi, lo)]
    for t in range(2, 15):
        shapes += [(Category.THREE_OF_A_KIND, (t, t, t, *k)) for k in kickers(2, t)]
    shapes += [(Category.STRAIGHT, _straight_ranks(t)) for t in _STRAIGHT_TOPS]
    shapes += [(Category.FLUSH, c) for c in distinct]
    for t in range(2, 15):
        shapes += [(Category.FULL_HOUSE, (t, t, t, *k, *k)) for k in kickers(1, t)]
    for q in range(2, 15):
        shapes += [(Category.FOUR_OF_A_KIND, (q, q, q, q, *k)) for k in kickers(1, q)]
    shapes += [(Category.STRAIGHT_FLUSH, _straight_ranks(t)) for t in range(5, 14)]
    shapes.append((Category.ROYAL_FLUSH, _straight_ranks(14)))
    shapes += [(Category.FIVE_OF_A_KIND, (r,) * 5) for r in range(2, 15)]
    return shapes


#: ``VALUE_SHAPES[value]`` is the (category, ranks) of that class.
VALUE_SHAPES: tuple[Shape, ...] = tuple(_build_shapes())
#: Number of distinct values (naturals and five of a kind).
VALUE_COUNT = len(VALUE_SHAPES)
VALUE_ROYAL_FLUSH = VALUE_COUNT - 14
_SHAPE_VALUE: dict[Shape, int] = {s: v for v, s in enumerate(VALUE_SHAPES)}
_CATEGORY_OF: tuple[Category, ...] = tuple(s[0] for s in VALUE_SHAPES)
#: ``CATEGORY_OF_VALUE[value]`` as a numpy array, for the batch evaluators.
CATEGORY_OF_VALUE: npt.NDArray[np.uint8] = np.array(_CATEGORY_OF, dtype=np.uint8)


def category_of(value: int) -> Category:
    """The category of a value on the common scale.

    >>> category_of(VALUE_ROYAL_FLUSH).label
    'royal_flush'
    """
    return _CATEGORY_OF[value]


def value_ranks(value: int) -> Ranks:
    """The five ranks a value stands for, most important first (the wheel is 5-4-3-2-A)."""
    return VALUE_SHAPES[value][1]


# ---------------------------------------------------------------------------------------------
# Keys. Each rank gets a constant such that the sums over any multiset of at most seven ranks
# (at most four of each) are all different: SKPokerEval's constants. Sums of different sizes can
# coincide (the deuce's constant is 0), so the fast path adds the card count in bits 32+ and keys
# a multiset by (sum, count). Suits get 0, 1, 8, 57: a seven-card sum n_d + 8 n_h + 57 n_s can be
# decoded back into the four suit counts, so (suit sum, card count) tells whether there is a
# flush and in which suit.

#: ``RANK_KEYS[rank - 2]``: the additive key of a rank.
RANK_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
SUIT_KEYS: tuple[int, ...] = (0, 1, 8, 57)
_SUIT_SHIFT = 23  # rank sums stay below 2**23 (4 aces + 3 kings = 7,825,759)
_COUNT_SHIFT = 32
_RANK_PART = (1 << _SUIT_SHIFT) - 1 | (0xF << _COUNT_SHIFT)

#: Per card index: rank key + suit key + one card, packed as described above.
_CARD_KEY: tuple[int, ...] = tuple(
    RANK_KEYS[i >> 2] + (SUIT_KEYS[i & 3] << _SUIT_SHIFT) + (1 << _COUNT_SHIFT) for i in range(52)
)
_CARD_RANK_KEY: tuple[int, ...] = tuple(RANK_KEYS[i >> 2] for i in range(52))


def _build_flush_suit() -> list[int]:
    """``table[(count << 9) + suit_sum]``: the suit index holding five or more cards, else -1."""
    table = [-1] * (8 << 9)
    for n in range(8):
        for counts in _suit_splits(n):
            if max(counts) >= 5:
                key = sum(c * k for c, k in zip(counts, SUIT_KEYS, strict=True))
                table[(n << 9) + key] = counts.index(max(counts))
    return table


def _suit_splits(n: int) -> list[tuple[int, int, int, int]]:
    return [
        (n - a - b - c, a, b, c)
        for a in range(n + 1)
        for b in range(n + 1 - a)
        for c in range(n + 1 - a - b)
    ]


def _straight_top(mask: int, wilds: int = 0) -> int:
    """Top card of the best straight in a rank bit mask (bit r = rank r), or 0.

    ``wilds`` missing ranks may be filled. The ace also plays as 1, below the deuce.
    """
    if mask >> 14 & 1:
        mask |= 2
    for top in range(14, 4, -1):
        window = 0b11111 << (top - 4)
        if 5 - (mask & window).bit_count() <= wilds:
            return top
    return 0


def _build_flush_values() -> list[int]:
    """``table[m]`` for a 13-bit mask of one suit's ranks (bit 0 = deuce): the best value
    of those cards when five or more of them make a flush; -1 below five cards."""
    table = [-1] * 8192
    for m in range(8192):
        if m.bit_count() < 5:
            continue
        top = _straight_top(m << 2)
        if top:
            cat = Category.ROYAL_FLUSH if top == 14 else Category.STRAIGHT_FLUSH
            table[m] = _SHAPE_VALUE[(cat, _straight_ranks(top))]
        else:
            ranks = tuple(r for r in range(14, 1, -1) if m >> (r - 2) & 1)[:5]
            table[m] = _SHAPE_VALUE[(Category.FLUSH, ranks)]
    return table


def rank_multisets(size: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """All multisets of ``size`` ranks with at most four of each: (counts [M, 13], keys [M]),
    keys ascending. Built by adding one rank at a time, keeping each key once.
    """
    counts = np.zeros((1, 13), dtype=np.int64)
    for _ in range(size):
        counts = _grow(counts)
    return counts, counts @ _KEY_OF


_KEY_OF = np.array(RANK_KEYS, dtype=np.int64)


def _grow(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The multisets one rank larger than ``counts``, each once, in ascending key order."""
    grown = (counts[:, None, :] + np.eye(13, dtype=np.int64)[None, :, :]).reshape(-1, 13)
    grown = grown[grown.max(axis=1) <= 4]
    _, first = np.unique(grown @ _KEY_OF, return_index=True)
    return grown[first]


@functools.cache
def rank_values() -> dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    """For 5, 6 and 7 cards: (keys, values) of every rank multiset, keys ascending.

    The value ignores flushes (a rank multiset says nothing of suits). The best five of a
    multiset lie inside one of the multisets one card smaller, so sizes 6 and 7 take the best
    over those.
    """
    shapes = [(v, s) for v, s in enumerate(VALUE_SHAPES) if s[0] not in _NOT_RANK_ONLY]
    keys = np.array([sum(RANK_KEYS[r - 2] for r in s[1]) for _, s in shapes], dtype=np.int64)
    values = np.array([v for v, _ in shapes], dtype=np.int64)
    order = np.argsort(keys)
    out = {5: (keys[order], values[order])}
    counts, keys = rank_multisets(5)
    for n in (6, 7):
        smaller_keys, smaller_values = out[n - 1]
        counts = _grow(counts)
        keys = counts @ _KEY_OF
        drop = keys[:, None] - _KEY_OF[None, :]
        where = np.searchsorted(smaller_keys, drop).clip(0, len(smaller_keys) - 1)
        out[n] = keys, np.where(counts > 0, smaller_values[where], -1).max(axis=1)
    return out


_SUITED = frozenset({Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH})
_NOT_RANK_ONLY = _SUITED | {Category.FIVE_OF_A_KIND}


def _build_rank_value() -> dict[int, int]:
    table: dict[int, int] = {}
    for n, (keys, values) in rank_values().items():
        table.update(zip((keys + (n << _COUNT_SHIFT)).tolist(), values.tolist(), strict=True))
    return table


#: ``FLUSH_SUIT[(card count << 9) + suit key sum]``: the suit index with 5+ cards, or -1.
FLUSH_SUIT: list[int] = _build_flush_suit()
#: 13-bit suit mask -> value (flush, straight flush or royal).
FLUSH_VALUES: list[int] = _build_flush_values()
_RANK_VALUE: dict[int, int] = _build_rank_value()
# Five-card rank sums are unique among themselves: the Omaha fast path needs no count bits.
_RANK_VALUE_5: dict[int, int] = {
    k & ((1 << _SUIT_SHIFT) - 1): v for k, v in _RANK_VALUE.items() if k >> _COUNT_SHIFT == 5
}


# ---------------------------------------------------------------------------------------------
# The result type.


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """A high hand: its category, its value on the common scale and the five cards used.

    Hands compare by value only: equal values tie, whatever the cards or suits.

    >>> from rules_engine.cards import parse_cards
    >>> a = evaluate5(parse_cards("Ah Kd Qc Js Th"))
    >>> b = evaluate5(parse_cards("As Kc Qd Jh Tc"))
    >>> a == b, a.category.label, [str(c) for c in a.cards]
    (True, 'straight', ['Ah', 'Kd', 'Qc', 'Js', 'Th'])
    """

    category: Category
    value: int
    cards: tuple[Card, ...]

    @property
    def ranks(self) -> Ranks:
        """The ranks the five cards stand for, most important first (wild cards resolved)."""
        return VALUE_SHAPES[self.value][1]

    def describe(self) -> str:
        """Short English, e.g. ``'Full house, kings full of sevens'``."""
        return describe_value(self.value)

    def __lt__(self, other: HandValue) -> bool:
        return self.value < other.value

    def __le__(self, other: HandValue) -> bool:
        return self.value <= other.value

    def __gt__(self, other: HandValue) -> bool:
        return self.value > other.value

    def __ge__(self, other: HandValue) -> bool:
        return self.value >= other.value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __str__(self) -> str:
        return self.describe()


_PLURAL = {r: ("sixes" if r == 6 else RANK_NAMES[r] + "s") for r in range(2, 15)}


def describe_value(value: int) -> str:
    """English for a value.

    >>> describe_value(0)
    'High card, seven'
    """
    cat, r = VALUE_SHAPES[value]
    name = RANK_NAMES
    match cat:
        case Category.HIGH_CARD:
            return f"High card, {name[r[0]]}"
        case Category.ONE_PAIR:
            return f"Pair of {_PLURAL[r[0]]}"
        case Category.TWO_PAIR:
            return f"Two pair, {_PLURAL[r[0]]} and {_PLURAL[r[2]]}"
        case Category.THREE_OF_A_KIND:
            return f"Three of a kind, {_PLURAL[r[0]]}"
        case Category.STRAIGHT:
            return f"Straight, {name[r[0]]} high"
        case Category.FLUSH:
            return f"Flush, {name[r[0]]} high"
        case Category.FULL_HOUSE:
            return f"Full house, {_PLURAL[r[0]]} full of {_PLURAL[r[3]]}"
        case Category.FOUR_OF_A_KIND:
            return f"Four of a kind, {_PLURAL[r[0]]}"
        case Category.STRAIGHT_FLUSH:
            return f"Straight flush, {name[r[0]]} high"
        case Category.ROYAL_FLUSH:
            return "Royal flush"
        case _:
            return f"Five of a kind, {_PLURAL[r[0]]}"


# ---------------------------------------------------------------------------------------------
# Fast paths.


def hand_value_int(cards: Sequence[Card]) -> int:
    """The value of the best five of 5 to 7 cards (more are accepted, more slowly).

    Nothing is checked beyond the count: the cards must be distinct. Well under a
    microsecond for seven cards (dictionary lookups on precomputed keys).

    >>> from rules_engine.cards import parse_cards
    >>> hand_value_int(parse_cards("2c 2d 2h 2s 3c 3d 3h")) > hand_value_int(parse_cards("Ah Kh Qh Jh 9h"))
    True
    """
    key = 0
    for card in cards:
        key += _CARD_KEY[card.index]
    try:
        suit = FLUSH_SUIT[key >> _SUIT_SHIFT]
        if suit < 0:
            return _RANK_VALUE[key & _RANK_PART]
    except (IndexError, KeyError):
        return best_hand(cards).value
    # A flush with at most seven cards leaves no room for quads or a full house, so the flush
    # suit alone decides.
    mask = 0
    for card in cards:
        i = card.index
        if i & 3 == suit:
            mask |= 1 << (i >> 2)
    return FLUSH_VALUES[mask]


_HOLE_PAIRS: dict[int, tuple[tuple[int, int], ...]] = {
    n: tuple(combinations(range(n), 2)) for n in range(2, 8)
}
_BOARD_TRIPLES: dict[int, tuple[tuple[int, int, int], ...]] = {
    n: tuple(combinations(range(n), 3)) for n in range(3, 6)
}


def omaha_value_int(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The value of the best hand using exactly two hole cards and exactly three board cards.

    >>> from rules_engine.cards import parse_cards
    >>> board = parse_cards("7c 7d 7h 7s 9c")
    >>> describe_value(omaha_value_int(parse_cards("Ah Kd 2d 2h"), board))
    'Full house, sevens full of twos'
    """
    hi = [c.index for c in hole]
    bi = [c.index for c in board]
    rk = _CARD_RANK_KEY
    pair_keys: Sequence[int]
    triple_keys: Sequence[int]
    if len(hi) == 4 and len(bi) == 5:
        # The usual deal, unrolled: a third of the time of the general loops below.
        h0, h1, h2, h3 = [rk[i] for i in hi]
        b0, b1, b2, b3, b4 = [rk[i] for i in bi]
        pair_keys = (h0 + h1, h0 + h2, h0 + h3, h1 + h2, h1 + h3, h2 + h3)
        b01, b23, b24, b34 = b0 + b1, b2 + b3, b2 + b4, b3 + b4
        triple_keys = (
            b01 + b2, b01 + b3, b01 + b4, b0 + b23, b0 + b24,
            b0 + b34, b1 + b23, b1 + b24, b1 + b34, b2 + b34,
        )  # fmt: skip
    else:
        hk = [rk[i] for i in hi]
        bk = [rk[i] for i in bi]
        pairs = _HOLE_PAIRS.get(len(hk)) or tuple(combinations(range(len(hk)), 2))
        pair_keys = [hk[a] + hk[b] for a, b in pairs]
        triple_keys = [bk[a] + bk[b] + bk[c] for a, b, c in _BOARD_TRIPLES[len(bk)]]
    table = _RANK_VALUE_5
    best = max([table[p + t] for p in pair_keys for t in triple_keys])
    # A flush needs both hole cards and all three board cards in one suit.
    board_suits = [i & 3 for i in bi]
    for s in set(board_suits):
        if board_suits.count(s) < 3:
            continue
        hole_s = [i >> 2 for i in hi if i & 3 == s]
        board_s = [i >> 2 for i in bi if i & 3 == s]
        for a, b in combinations(hole_s, 2):
            for t in combinations(board_s, 3):
                v = FLUSH_VALUES[(1 << a) | (1 << b) | (1 << t[0]) | (1 << t[1]) | (1 << t[2])]
                if v > best:
                    best = v
    return best


# ---------------------------------------------------------------------------------------------
# Hands with their cards.


def _check(cards: Sequence[Card], low: int, high: int | None, what: str) -> None:
    n = len(cards)
    if n < low or (high is not None and n > high):
        want = f"{low}" if high == low else f"{low} to {high}" if high else f"at least {low}"
        raise ValueError(f"{what} needs {want} cards, got {n}")
    if len({c.index for c in cards}) != n:
        raise ValueError(f"{what}: the same card appears twice")


def evaluate5(cards: Sequence[Card]) -> HandValue:
    """A hand of exactly five cards.

    >>> from rules_engine.cards import parse_cards
    >>> h = evaluate5(parse_cards("3c 5d 4h As 2c"))
    >>> h.describe(), [str(c) for c in h.cards]
    ('Straight, five high', ['5d', '4h', '3c', '2c', 'As'])
    """
    _check(cards, 5, 5, "a five-card hand")
    return _with_cards(hand_value_int(cards), cards)


def best_hand(cards: Sequence[Card]) -> HandValue:
    """The best five of five or more cards (Hold'em's seven, stud, Baseball without wilds).

    >>> from rules_engine.cards import parse_cards
    >>> h = best_hand(parse_cards("Kd Kc 7s 7h 2d 2c Ah"))
    >>> h.describe(), [str(c) for c in h.cards]
    ('Two pair, kings and sevens', ['Kd', 'Kc', '7s', '7h', 'Ah'])
    """
    _check(cards, 5, None, "a hand")
    if len(cards) <= 7:
        return _with_cards(hand_value_int(cards), cards)
    cat, ranks, suit = best_shape(cards, 0)
    value = shape_value(cat, ranks)
    return HandValue(cat, value, pick_cards(cat, ranks, suit, cards, ()))


def omaha_best(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """Omaha and Patch-Patch: exactly two of the hole cards and exactly three of the board.

    ``hole`` has 2 or more cards (four in Omaha), ``board`` 3 to 5 (flop, turn, river).

    >>> from rules_engine.cards import parse_cards
    >>> omaha_best(parse_cards("Ah 2c 3d 4s"), parse_cards("Kh Qh Jh 8h 7c")).describe()
    'High card, ace'
    """
    if len(hole) < 2:
        raise ValueError(f"Omaha needs at least 2 hole cards, got {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise ValueError(f"an Omaha board has 3 to 5 cards, got {len(board)}")
    key = (tuple([c.index for c in hole]), tuple([c.index for c in board]))
    found = _OMAHA_SEEN.get(key)
    if found is not None:
        return found
    _check([*hole, *board], 5, None, "an Omaha hand")
    value = omaha_value_int(hole, board)
    # The first two-plus-three (in the order combinations() gives) that makes the value.
    five = next(
        pair + triple
        for pair in combinations(hole, 2)
        for triple in combinations(board, 3)
        if hand_value_int(pair + triple) == value
    )
    made = _with_cards(value, five)
    if len(_OMAHA_SEEN) >= OMAHA_SEEN_MAX:
        _OMAHA_SEEN.clear()
    _OMAHA_SEEN[key] = made
    return made


# The hands omaha_best made lately, by (hole, board) card indices in the order given: a live
# Patch-Patch table asks for the same three hands of each player at every action of a street
# (every viewer's picture shows what their hands make), and the showdown asks again. A HandValue
# is frozen, so one can be handed out twice. Emptied when full; only checked hands get in.
OMAHA_SEEN_MAX = 20_000
_OMAHA_SEEN: dict[tuple[tuple[int, ...], tuple[int, ...]], HandValue] = {}


# ---------------------------------------------------------------------------------------------
# Shapes: the general evaluator behind hands of more than seven cards and wild cards.


def shape_value(category: Category, ranks: Ranks) -> int:
    """The value of a (category, ranks) shape, e.g. ``(Category.ONE_PAIR, (9, 9, 14, 8, 7))``."""
    return _SHAPE_VALUE[(category, ranks)]


def best_shape(naturals: Sequence[Card], wilds: int) -> tuple[Category, Ranks, int | None]:
    """The best (category, ranks, flush suit index) from natural cards plus ``wilds`` jokers.

    A joker stands for any card the hand does not already use, or for a fifth card of a rank
    (five of a kind). Category by category, from the best down, the first one the cards can
    make is the answer; inside it the choice is greedy from the top rank down, which is exactly
    how the category's tie-break reads.
    """
    if len(naturals) + wilds < 5:
        raise ValueError("five cards are needed")
    count = [0] * 15
    suit_mask = [0, 0, 0, 0]
    for c in naturals:
        count[c.rank] += 1
        suit_mask[c.index & 3] |= 1 << c.rank
    held = [r for r in range(14, 1, -1) if count[r]]
    w = wilds

    if w >= 5:
        return Category.FIVE_OF_A_KIND, (14,) * 5, None
    for r in held:
        if count[r] + w >= 5:
            return Category.FIVE_OF_A_KIND, (r,) * 5, None

    sf_top, sf_suit = 0, -1
    for s in range(4):
        if suit_mask[s].bit_count() + w >= 5:
            top = _straight_top(suit_mask[s], w)
            if top > sf_top:
                sf_top, sf_suit = top, s
    if sf_top:
        cat = Category.ROYAL_FLUSH if sf_top == 14 else Category.STRAIGHT_FLUSH
        return cat, _straight_ranks(sf_top), sf_suit

    for r in held:
        if count[r] + w >= 4:
            kicker = next(k for k in held if k != r)
            return Category.FOUR_OF_A_KIND, (r, r, r, r, kicker), None

    for x in held:
        need = max(0, 3 - count[x])
        if need > w:
            continue
        for y in held:
            if y != x and max(0, 2 - count[y]) + need <= w:
                return Category.FULL_HOUSE, (x, x, x, y, y), None

    flush: Ranks = ()
    flush_suit = -1
    for s in range(4):
        if suit_mask[s].bit_count() + w < 5:
            continue
        spare = w
        ranks: list[int] = []
        for r in range(14, 1, -1):
            if suit_mask[s] >> r & 1:
                ranks.append(r)
            elif spare:
                ranks.append(r)
                spare -= 1
            if len(ranks) == 5:
                break
        if tuple(ranks) > flush:
            flush, flush_suit = tuple(ranks), s
    if flush:
        return Category.FLUSH, flush, flush_suit

    present = 0
    for r in held:
        present |= 1 << r
    top = _straight_top(present, w)
    if top:
        return Category.STRAIGHT, _straight_ranks(top), None

    for r in held:
        if count[r] + w >= 3:
            k = [x for x in held if x != r][:2]
            return Category.THREE_OF_A_KIND, (r, r, r, *k), None

    pairs = [r for r in held if count[r] >= 2]
    if len(pairs) >= 2:
        hi, lo = pairs[:2]
        kicker = next(x for x in held if x not in (hi, lo))
        return Category.TWO_PAIR, (hi, hi, lo, lo, kicker), None
    if pairs or w:
        p = pairs[0] if pairs else held[0]
        k = [x for x in held if x != p][:3]
        return Category.ONE_PAIR, (p, p, *k), None
    return Category.HIGH_CARD, tuple(held[:5]), None


def pick_cards(
    category: Category,
    ranks: Ranks,
    suit: int | None,
    naturals: Sequence[Card],
    wild_cards: Sequence[Card],
) -> tuple[Card, ...]:
    """The held cards that make a shape, in the shape's order; a wild card fills each place no
    natural card can. Among cards of one rank the higher suit comes first, so the answer does
    not depend on the order the cards were given in."""
    pool = sorted(naturals, key=lambda c: c.index, reverse=True)
    spare = list(wild_cards)
    out: list[Card] = []
    for r in ranks:
        for i, c in enumerate(pool):
            if c.rank == r and (suit is None or c.index & 3 == suit):
                out.append(pool.pop(i))
                break
        else:
            out.append(spare.pop(0))
    return tuple(out)


def _with_cards(value: int, cards: Sequence[Card]) -> HandValue:
    cat, ranks = VALUE_SHAPES[value]
    suit: int | None = None
    if cat in _SUITED:
        per_suit = [0, 0, 0, 0]
        for c in cards:
            per_suit[c.index & 3] += 1
        suit = per_suit.index(max(per_suit))
    return HandValue(cat, value, pick_cards(cat, ranks, suit, cards, ()))


# Re-exported at the end: these modules import the tables above.
from rules_engine.lowball import (  # noqa: E402
    LowValue,
    low_8_or_better,
    omaha_low_8,
    razz_low,
)
from rules_engine.openhand import (  # noqa: E402
    compare_open_hands,
    compare_open_lows,
    open_hand_key,
    open_low_key,
)
from rules_engine.wild import best_wild_hand  # noqa: E402

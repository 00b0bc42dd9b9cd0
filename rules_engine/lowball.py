"""Low hands, ace to five: Razz, and the eight-or-better low of Omaha Hi-Lo and stud Hi-Lo.

The ace is the lowest card; straights and flushes do not count against a low. Hands compare by
their highest card first, then the next, and so on; the best low is 5-4-3-2-A. Razz may force a
pair: a paired hand is worse than any unpaired one, two pair worse than one pair, and so on, with
the lower pair better.

Every :class:`LowValue` is on one scale where a HIGHER value is a BETTER low, so the eight-or-
better and Razz results compare with each other and with ``max`` like the high hands.

>>> from rules_engine.cards import parse_cards
>>> low_8_or_better(parse_cards("Ah 2c 4d 6s 8h Kd Kc")).describe()
'8-6-4-2-A'
>>> low_8_or_better(parse_cards("Ah 2c 4d 9s Th Kd Kc")) is None
True
>>> razz_low(parse_cards("Kh Kd Qs Qc 2h 2d 3s")).describe()
'2-2-K-Q-3'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from rules_engine.cards import Card

__all__ = ["LowValue", "low_8_or_better", "omaha_low_8", "razz_low"]

_LOW_CHAR = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
# Groups of a low hand: no pair, pair, two pair, trips, full house, quads (straights and
# flushes do not exist for a low).
_GROUP_CATEGORIES = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
}
_TOP = 6 << 20


def _low_rank(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


@dataclass(frozen=True, slots=True, eq=False)
class LowValue:
    """A low hand: ``value`` (higher is a better low) and the five ``cards`` in the order they
    compare: highest first, or for a paired Razz hand the pair first."""

    value: int
    cards: tuple[Card, ...]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks with the ace as 1, in the order they compare (pairs first)."""
        packed = (_TOP - self.value) & 0xFFFFF
        return tuple((packed >> (4 * (4 - i))) & 0xF for i in range(5))

    @property
    def qualifies_8(self) -> bool:
        """True for five unpaired cards of eight or lower."""
        return self.value >= _TOP - 0x87654  # 8-7-6-5-4, the worst qualifying low

    def describe(self) -> str:
        """``'8-6-4-2-A'``."""
        return "-".join(_LOW_CHAR.get(r, str(r)) for r in self.ranks)

    def __lt__(self, other: LowValue) -> bool:
        return self.value < other.value

    def __le__(self, other: LowValue) -> bool:
        return self.value <= other.value

    def __gt__(self, other: LowValue) -> bool:
        return self.value > other.value

    def __ge__(self, other: LowValue) -> bool:
        return self.value >= other.value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LowValue):
            return NotImplemented
        return self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __str__(self) -> str:
        return self.describe()


def _low_of_five(five: Sequence[Card]) -> LowValue:
    """Value five cards as a low; the cards come back in comparing order."""
    count: dict[int, int] = {}
    for c in five:
        r = _low_rank(c)
        count[r] = count.get(r, 0) + 1
    # Bigger groups first, then higher ranks: the order in which two lows compare.
    order = sorted(five, key=lambda c: (count[_low_rank(c)], _low_rank(c), c.index), reverse=True)
    groups = tuple(sorted(count.values(), reverse=True))
    packed = 0
    for c in order:
        packed = packed << 4 | _low_rank(c)
    return LowValue(_TOP - (_GROUP_CATEGORIES[groups] << 20 | packed), tuple(order))


def _lowest_unpaired(cards: Sequence[Card], limit: int) -> tuple[Card, ...] | None:
    """The five lowest cards of different ranks (at most ``limit``), or None."""
    by_rank: dict[int, Card] = {}
    for c in sorted(cards, key=lambda c: c.index, reverse=True):
        r = _low_rank(c)
        if r <= limit:
            by_rank.setdefault(r, c)
    if len(by_rank) < 5:
        return None
    return tuple(by_rank[r] for r in sorted(by_rank)[:5])


def low_8_or_better(cards: Sequence[Card]) -> LowValue | None:
    """The best eight-or-better low among any five of the cards, or None if none qualifies.

    >>> from rules_engine.cards import parse_cards
    >>> low_8_or_better(parse_cards("5c 4c 3c 2c Ac")).describe()  # a straight flush, and a perfect low
    '5-4-3-2-A'
    """
    if len(cards) < 5:
        raise ValueError(f"a low needs at least 5 cards, got {len(cards)}")
    five = _lowest_unpaired(cards, 8)
    return None if five is None else _low_of_five(five)


def razz_low(cards: Sequence[Card]) -> LowValue:
    """The best ace-to-five low among any five of the cards (Razz); pairs when forced.

    >>> from rules_engine.cards import parse_cards
    >>> razz_low(parse_cards("Kc Kd 9s 8h 7c 6d 5s")).describe()
    '9-8-7-6-5'
    """
    if len(cards) < 5:
        raise ValueError(f"a low needs at least 5 cards, got {len(cards)}")
    five = _lowest_unpaired(cards, 13)
    if five is not None:
        return _low_of_five(five)
    # Fewer than five ranks: few enough cards (Razz has seven) to try every five.
    return max(_low_of_five(f) for f in combinations(cards, 5))


def omaha_low_8(hole: Sequence[Card], board: Sequence[Card]) -> LowValue | None:
    """Omaha Hi-Lo's low: exactly two hole cards and three board cards, five different ranks
    of eight or lower; None when no such five exist.

    >>> from rules_engine.cards import parse_cards
    >>> omaha_low_8(parse_cards("Ah 2h Kc Kd"), parse_cards("3c 4d 8s Qh Jh")).describe()
    '8-4-3-2-A'
    >>> omaha_low_8(parse_cards("Ah Kh Kc Kd"), parse_cards("2c 3d 4s 5h Jh")) is None
    True
    """
    if len(hole) < 2 or not 3 <= len(board) <= 5:
        raise ValueError("Omaha needs at least 2 hole cards and 3 to 5 board cards")
    # A set of five different low ranks as a bit mask (bit r = rank r, ace = 1): the lower
    # the mask, the better the low, because the highest card is the most significant bit.
    best_mask = 1 << 10
    best: tuple[Card, ...] = ()
    for pair in combinations(hole, 2):
        pm = _low_mask(pair)
        if pm is None:
            continue
        for triple in combinations(board, 3):
            tm = _low_mask(triple)
            if tm is None or pm & tm:
                continue
            if pm | tm < best_mask:
                best_mask, best = pm | tm, pair + triple
    return _low_of_five(best) if best else None


def _low_mask(cards: Sequence[Card]) -> int | None:
    mask = 0
    for c in cards:
        r = _low_rank(c)
        if r > 8 or mask >> r & 1:
            return None
        mask |= 1 << r
    return mask

"""Cards and decks.

A card is a frozen value with a rank (2..14, ace high) and a suit (``c d h s``). The 52 cards are
interned: :meth:`Card.parse` and :meth:`Card.from_index` always return the same object for the
same card, so identity, equality and hashing are all cheap.

Every card has an ``index`` in ``0..51`` (``(rank - 2) * 4 + suit``) which the fast evaluators use.

>>> Card.parse("Ah")
Card.parse('Ah')
>>> str(Card.parse("10d")), str(Card.parse("A♥")), Card.parse("td").pretty
('Td', 'Ah', 'T♦')
>>> [str(c) for c in parse_cards("Ah Kh 2c")]
['Ah', 'Kh', '2c']
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
# Outline symbols are accepted too, since people paste them.
_SYMBOL_TO_SUIT.update({"♧": "c", "♢": "d", "♡": "h", "♤": "s"})
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}


class CardParseError(ValueError):
    """Text that is not a card (or not a list of cards). The message names the bad token."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Use :meth:`parse` or :meth:`from_index`; instances are interned."""

    rank: int  # 2..14
    suit: str  # one of "cdhs"
    index: int = field(compare=False, repr=False, default=-1)

    _BY_INDEX: ClassVar[tuple[Card, ...]] = ()
    _BY_TEXT: ClassVar[dict[str, Card]] = {}

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0..51)."""
        if not 0 <= index < 52:
            raise CardParseError(f"card index {index!r} is not between 0 and 51")
        return Card._BY_INDEX[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card: ``Ah``, ``td``, ``10d``, ``A♥`` (rank first, then suit).

        >>> Card.parse("qS").pretty
        'Q♠'
        """
        token = text.strip()
        card = Card._BY_TEXT.get(token)
        if card is not None:
            return card
        norm = token.upper()
        if norm.startswith("10"):
            norm = "T" + norm[2:]
        if len(norm) == 2:
            suit = _SYMBOL_TO_SUIT.get(norm[1], norm[1].lower())
            key = norm[0] + suit
            card = Card._BY_TEXT.get(key)
            if card is not None:
                return card
        raise CardParseError(
            f"{text!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
            f"followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠), e.g. Ah or 10♦"
        )

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank - 2]

    @property
    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``A♥``."""
        return self.rank_char + SUIT_SYMBOLS[self.suit]

    @property
    def suit_index(self) -> int:
        return SUITS.index(self.suit)

    def __str__(self) -> str:
        return self.rank_char + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


def _intern() -> None:
    cards = []
    for r in range(2, 15):
        for s in SUITS:
            cards.append(Card(r, s, (r - 2) * 4 + SUITS.index(s)))
    Card._BY_INDEX = tuple(cards)
    Card._BY_TEXT = {str(c): c for c in cards}


_intern()

FULL_DECK: tuple[Card, ...] = Card._BY_INDEX

_SPLIT = re.compile(r"[\s,]+")


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas, or written together (``AhKh2c``).

    Raises :class:`CardParseError` naming the bad token, and on a repeated card.

    >>> [str(c) for c in parse_cards("AhKd,10c")]
    ['Ah', 'Kd', 'Tc']
    """
    if isinstance(text, str):
        tokens: list[str] = []
        for chunk in _SPLIT.split(text.strip()):
            if not chunk:
                continue
            tokens.extend(_split_run(chunk))
    else:
        tokens = list(text)
    cards = tuple(Card.parse(t) for t in tokens)
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise CardParseError(f"{c} appears twice")
        seen.add(c)
    return cards


def _split_run(chunk: str) -> list[str]:
    """Split ``AhKd10c`` into ``['Ah', 'Kd', '10c']``; leave a lone token alone."""
    out = []
    i = 0
    while i < len(chunk):
        step = 3 if chunk.startswith("10", i) else 2
        out.append(chunk[i : i + step])
        i += step
    if any(len(t) < 2 for t in out):
        raise CardParseError(f"{chunk!r} is not a card or a run of cards")
    return out


def format_cards(cards: Iterable[Card], pretty: bool = False) -> str:
    """Print cards separated by spaces; ``parse_cards(format_cards(x)) == x``."""
    return " ".join(c.pretty if pretty else str(c) for c in cards)


class Deck:
    """An ordered deck to deal from the top.

    In play the order comes from :func:`secrets.SystemRandom`; tests and replays pass a seeded
    ``random.Random`` or an explicit order.
    """

    __slots__ = ("_cards", "_pos")

    def __init__(self, order: Sequence[Card]):
        if len(set(order)) != len(order):
            raise CardParseError("a deck cannot hold the same card twice")
        self._cards = tuple(order)
        self._pos = 0

    @classmethod
    def shuffled(cls, rng: random.Random | None = None) -> Deck:
        """A full deck in random order (a CSPRNG unless a generator is given)."""
        cards = list(FULL_DECK)
        (rng if rng is not None else secrets.SystemRandom()).shuffle(cards)
        return cls(cards)

    @property
    def order(self) -> tuple[Card, ...]:
        return self._cards

    @property
    def dealt(self) -> int:
        return self._pos

    def remaining(self) -> int:
        return len(self._cards) - self._pos

    def deal(self, n: int = 1) -> tuple[Card, ...]:
        if n > self.remaining():
            raise ValueError(f"the deck has {self.remaining()} cards left, {n} were asked for")
        out = self._cards[self._pos : self._pos + n]
        self._pos += n
        return out

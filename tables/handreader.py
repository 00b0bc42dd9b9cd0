"""The hand reader: what a hand makes in each game, ready for a page to draw.

Pure helper behind the ``/hand/`` page. It reads the text a person typed (cards, a board), asks
``rules_engine.evaluation`` for the best hand (and the low, where the game has one) and returns
plain values: which cards to draw, which of them make the hand and which are only kickers, and,
for Omaha and Patch-Patch, what the best five would have been without the two-plus-three rule.
It decides nothing about poker itself, writes nothing and builds no HTML; the template draws it.

Input mistakes raise :class:`HandInputError` with a message in the reader's language that names
the bad token or says how many cards the game wants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import (
    get_language,
    get_language_bidi,
    gettext_lazy,
    ngettext,
    pgettext_lazy,
)
from django.utils.translation import gettext as _

from rules_engine import evaluation
from rules_engine.cards import RANKS, Card, CardParseError, parse_cards
from rules_engine.wild import BASEBALL_WILDS

# Patch-Patch boards may be typed on one line, separated by one of these (or on several lines).
_BOARD_SEPARATORS = re.compile(r"\s*(?:[/|;]|\r?\n)\s*")
_WHITESPACE_OR_COMMA = re.compile(r"[\s,]+")

# ---------------------------------------------------------------------------------------------
# Games


@dataclass(frozen=True)
class GameRules:
    """What the reader expects for one game: how many cards in the hand and on the board."""

    code: str
    name: Promise
    how_to: Promise  # one line: what to type for this game
    hand: tuple[int, int]  # fewest and most cards in the hand
    # Fewest and most cards on a board; None: no board, every card is the player's (stud, draw).
    board: tuple[int, int] | None = None
    two_plus_three: bool = False
    high: bool = True
    low: str | None = None  # None, "8" (eight-or-better) or "razz"
    wild_ranks: frozenset[int] = frozenset()

    @property
    def has_board(self) -> bool:
        return self.board is not None


_BOARD_CARDS = (3, 5)  # flop, turn, river

GAMES: dict[str, GameRules] = {
    g.code: g
    for g in (
        GameRules(
            "holdem",
            gettext_lazy("Texas Hold'em"),
            gettext_lazy("Two cards in your hand, three to five on the board."),
            hand=(2, 2),
            board=_BOARD_CARDS,
        ),
        GameRules(
            "omaha",
            gettext_lazy("Omaha"),
            gettext_lazy("Four cards in your hand, three to five on the board."),
            hand=(4, 4),
            board=_BOARD_CARDS,
            two_plus_three=True,
        ),
        GameRules(
            "omaha8",
            gettext_lazy("Omaha Hi-Lo"),
            gettext_lazy("Four cards in your hand, three to five on the board."),
            hand=(4, 4),
            board=_BOARD_CARDS,
            two_plus_three=True,
            low="8",
        ),
        GameRules(
            "patchpatch",
            gettext_lazy("Patch-Patch"),
            gettext_lazy(
                "Four cards and one board, or all twelve cards and the three boards "
                "separated by a slash (/): cards 1-4 play board 1, 5-8 board 2, 9-12 board 3."
            ),
            hand=(4, 12),
            board=_BOARD_CARDS,
            two_plus_three=True,
        ),
        GameRules(
            "stud",
            gettext_lazy("Stud"),
            gettext_lazy("Five to seven cards, all of them yours; no board."),
            hand=(5, 7),
        ),
        GameRules(
            "stud8",
            gettext_lazy("Stud Hi-Lo"),
            gettext_lazy("Five to seven cards, all of them yours; no board."),
            hand=(5, 7),
            low="8",
        ),
        GameRules(
            "razz",
            gettext_lazy("Razz"),
            gettext_lazy("Five to seven cards, all of them yours; no board."),
            hand=(5, 7),
            high=False,
            low="razz",
        ),
        GameRules(
            "draw",
            gettext_lazy("Five-card draw"),
            gettext_lazy("Exactly five cards; no board."),
            hand=(5, 5),
        ),
        GameRules(
            "baseball",
            gettext_lazy("Baseball"),
            gettext_lazy(
                "Five to eleven cards (seven, plus one for every four dealt face up); "
                "threes and nines are wild."
            ),
            hand=(5, 11),
            wild_ranks=BASEBALL_WILDS,
        ),
    )
}
DEFAULT_GAME = "omaha"

# ---------------------------------------------------------------------------------------------
# Words for categories and cards

CATEGORY_NAMES: dict[str, Promise] = {
    "five_of_a_kind": gettext_lazy("Five of a kind"),
    "royal_flush": gettext_lazy("Royal flush"),
    "straight_flush": gettext_lazy("Straight flush"),
    "four_of_a_kind": gettext_lazy("Four of a kind"),
    "full_house": gettext_lazy("Full house"),
    "flush": gettext_lazy("Flush"),
    "straight": gettext_lazy("Straight"),
    "three_of_a_kind": gettext_lazy("Three of a kind"),
    "two_pair": gettext_lazy("Two pair"),
    "one_pair": gettext_lazy("One pair"),
    "high_card": gettext_lazy("High card"),
}

RANK_WORDS: dict[int, Promise] = {
    2: pgettext_lazy("card rank", "two"),
    3: pgettext_lazy("card rank", "three"),
    4: pgettext_lazy("card rank", "four"),
    5: pgettext_lazy("card rank", "five"),
    6: pgettext_lazy("card rank", "six"),
    7: pgettext_lazy("card rank", "seven"),
    8: pgettext_lazy("card rank", "eight"),
    9: pgettext_lazy("card rank", "nine"),
    10: pgettext_lazy("card rank", "ten"),
    11: pgettext_lazy("card rank", "jack"),
    12: pgettext_lazy("card rank", "queen"),
    13: pgettext_lazy("card rank", "king"),
    14: pgettext_lazy("card rank", "ace"),
}

SUIT_WORDS: dict[str, Promise] = {
    "c": pgettext_lazy("card suit, as in 'ace of clubs'", "clubs"),
    "d": pgettext_lazy("card suit, as in 'ace of diamonds'", "diamonds"),
    "h": pgettext_lazy("card suit, as in 'ace of hearts'", "hearts"),
    "s": pgettext_lazy("card suit, as in 'ace of spades'", "spades"),
}

# Category -> how many of its five cards make it; the rest are kickers (five when not listed).
_MAKING: dict[str, int] = {
    "four_of_a_kind": 4,
    "three_of_a_kind": 3,
    "two_pair": 4,
    "one_pair": 2,
    "high_card": 1,
}


_CARD_NAMES: dict[tuple[str, Card], str] = {}


def card_name(card: Card) -> str:
    """The card in words, for screen readers: "ace of hearts" (kept per language: every table
    render names every card it draws)."""
    key = (get_language() or "", card)
    name = _CARD_NAMES.get(key)
    if name is None:
        name = _("%(rank)s of %(suit)s") % {"rank": RANK_WORDS[card.rank], "suit": SUIT_WORDS[card.suit]}
        _CARD_NAMES[key] = name
    return name


# ---------------------------------------------------------------------------------------------
# What the template draws


@dataclass(frozen=True)
class CardPicture:
    """One card as the page draws it."""

    card: Card
    kicker: bool = False  # in the hand but not part of what makes it: drawn dimmed
    wild: bool = False  # a Baseball wild card
    used: bool = False  # in a row of the player's cards: one of the five that play
    plays_as: int | None = None  # the rank a wild card stands for in the best hand
    idle: bool = False  # at the table: not one of the cards that play (drawn dimmed)

    # The table's drawing looks every card up by its picture (``card_row``'s markup cache): the
    # hash a frozen dataclass makes anew from its fields at each lookup is made once here.
    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.card, self.kicker, self.wild, self.used, self.plays_as, self.idle)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # A copy or an unpickled picture makes its hash again (a string's hash differs between
        # processes), rather than carry this one's.
        return (CardPicture, (self.card, self.kicker, self.wild, self.used, self.plays_as, self.idle))

    @property
    def rank(self) -> str:
        return "10" if self.card.rank == 10 else self.card.rank_char

    @property
    def suit(self) -> str:
        return self.card.pretty[-1]

    @property
    def plays_as_text(self) -> str:
        if self.plays_as is None:
            return ""
        return "10" if self.plays_as == 10 else RANKS[self.plays_as - 2]

    @property
    def color(self) -> str:
        return "red" if self.card.suit in "hd" else "black"

    @property
    def text(self) -> str:
        return str(self.card)

    @property
    def label(self) -> str:
        name = card_name(self.card)
        if self.wild and self.plays_as:
            return _("%(card)s, wild, plays as %(rank)s") % {
                "card": name,
                "rank": RANK_WORDS[self.plays_as],
            }
        if self.wild:
            return _("%(card)s, wild") % {"card": name}
        if self.kicker:
            return _("%(card)s, kicker") % {"card": name}
        if self.idle:  # not a kicker, which is one of the five (found by an audit)
            return _("%(card)s, unused") % {"card": name}
        return name


@dataclass(frozen=True)
class ShownHand:
    """A five-card hand: its category (or low) and the cards in the order they count."""

    cards: tuple[CardPicture, ...]
    category: str = ""  # the evaluator's label, e.g. "flush"; empty for a low
    low: bool = False

    @property
    def name(self) -> str:
        if self.low:
            return "-".join(_low_rank_text(p.card) for p in self.cards)
        return str(CATEGORY_NAMES.get(self.category, self.category))

    @property
    def text(self) -> str:
        """The five cards as plain text (``A♥ K♥ 9♥ 5♥ 2♥``)."""
        return " ".join(p.card.pretty for p in self.cards)


@dataclass(frozen=True)
class RuleNote:
    """What the best five of all the cards would be if the two-plus-three rule did not apply."""

    without_rule: ShownHand
    from_hand: int  # how many of those five come from the player's hand (never 2)

    @property
    def from_board(self) -> int:
        return 5 - self.from_hand

    @property
    def too_many_from_hand(self) -> bool:
        return self.from_hand > 2


@dataclass(frozen=True)
class BoardReading:
    """One hand on one board (Patch-Patch has three of these; every other game one)."""

    number: int  # 1-based; only shown when there are several boards
    hole: tuple[CardPicture, ...]
    board: tuple[CardPicture, ...]
    high: ShownHand | None
    low: ShownHand | None = None
    no_low: bool = False  # the game has an eight-or-better low and this hand has none
    rule_note: RuleNote | None = None


@dataclass(frozen=True)
class Reading:
    game: GameRules
    boards: tuple[BoardReading, ...]

    @property
    def several_boards(self) -> bool:
        return len(self.boards) > 1


class HandInputError(ValueError):
    """Text the reader cannot use. ``field`` is "hand" or "board"; the message is translated.

    ``card_help`` asks the page to show how cards are written next to the message.
    """

    def __init__(self, field: str, message: str, *, card_help: bool = False):
        super().__init__(message)
        self.field = field
        self.message = message
        self.card_help = card_help


def _isolate(text: str) -> str:
    """Card text inside a right-to-left sentence keeps its own order (Unicode isolates).

    Only for Hebrew pages; English and Russian messages stay plain text.
    """
    return f"\u2068{text}\u2069" if get_language_bidi() else text


# ---------------------------------------------------------------------------------------------
# Reading


def read_hand(game_code: str, hand_text: str, board_text: str = "") -> Reading:
    """Read the typed cards for ``game_code`` and work out the best hand (and low) for each board.

    Raises :class:`HandInputError` for unknown cards, a card entered twice, or a count the game
    does not allow.
    """
    game = GAMES[game_code]
    if not game.has_board:
        # Every card is the player's: if some were typed in the board box, read them too.
        own = _parse("hand", hand_text)
        cards = own + _parse("board", board_text)
        _check_duplicates(cards, hand_count=len(own))
        if not cards:
            raise HandInputError("hand", _("Enter your cards."))
        _check_count("hand", game, len(cards), *game.hand)
        return Reading(game, (_read_own_cards(game, cards),))

    hole = _parse("hand", hand_text)
    board_texts = _BOARD_SEPARATORS.split(board_text.strip()) if board_text.strip() else []
    boards = [_parse("board", t) for t in board_texts]
    _check_duplicates(hole + tuple(c for b in boards for c in b), hand_count=len(hole))
    if not hole:
        raise HandInputError("hand", _("Enter the cards in your hand."))

    if game.code == "patchpatch" and len(hole) == 12:
        if len(boards) != 3:
            raise HandInputError(
                "board",
                _("Twelve cards play three boards: enter all three, separated by a slash (/)."),
            )
        hands = [hole[0:4], hole[4:8], hole[8:12]]
    else:
        if game.code == "patchpatch" and len(hole) != 4:
            rule = _("Patch-Patch reads four cards (one hand) or twelve (all three).")
            raise HandInputError("hand", rule + " " + _count_message(len(hole)))
        _check_count("hand", game, len(hole), *game.hand)
        if len(boards) > 1:
            raise HandInputError(
                "board",
                _(
                    "This hand plays one board; a slash (/) separates boards only for twelve "
                    "Patch-Patch cards."
                ),
            )
        hands = [hole]
    if not boards:
        raise HandInputError("board", _("Enter the board: three to five cards."))
    for board in boards:
        _check_count("board", game, len(board), *_BOARD_CARDS)

    return Reading(
        game,
        tuple(
            _read_board(game, number, h, b)
            for number, (h, b) in enumerate(zip(hands, boards, strict=True), start=1)
        ),
    )


def _parse(field_name: str, text: str) -> tuple[Card, ...]:
    """Read cards, naming the first token that is not a card."""
    cards: list[Card] = []
    for chunk in _WHITESPACE_OR_COMMA.split(text.strip()):
        if not chunk:
            continue
        try:
            # A chunk may be several cards written together (AhKd); duplicates are checked later.
            cards.extend(parse_cards([t for t in _split_run(chunk)]))
        except CardParseError:
            raise HandInputError(
                field_name,
                _("“%(token)s” is not a card.") % {"token": _isolate(_bad_token(chunk))},
                card_help=True,
            ) from None
    return tuple(cards)


def _split_run(chunk: str) -> list[str]:
    """``AhKd10c`` -> ``['Ah', 'Kd', '10c']``; a chunk that does not split evenly stays whole."""
    out = []
    i = 0
    while i < len(chunk):
        step = 3 if chunk.startswith("10", i) else 2
        out.append(chunk[i : i + step])
        i += step
    return out if all(len(t) >= 2 for t in out) else [chunk]


def _bad_token(chunk: str) -> str:
    """The first piece of ``chunk`` that is not a card (the whole chunk if it does not split)."""
    for token in _split_run(chunk):
        try:
            Card.parse(token)
        except CardParseError:
            return token if len(chunk) <= 12 else chunk[:12] + "…"
    return chunk


def _check_duplicates(cards: Sequence[Card], hand_count: int | None = None) -> None:
    """A card typed twice; the error points at the box where it appears the second time."""
    seen: set[Card] = set()
    for i, c in enumerate(cards):
        if c in seen:
            raise HandInputError(
                "board" if hand_count is not None and i >= hand_count else "hand",
                _("%(card)s is entered twice; a deck has only one of each card.")
                % {"card": _isolate(c.pretty)},
            )
        seen.add(c)


def _count_message(count: int) -> str:
    return ngettext("You entered %(count)s card.", "You entered %(count)s cards.", count) % {
        "count": count
    }


def _check_count(field_name: str, game: GameRules, count: int, low: int, high: int) -> None:
    if low <= count <= high:
        return
    if field_name == "board":
        rule = _("The board has three to five cards (flop, turn, river).")
    else:
        rule = str(game.how_to)
    raise HandInputError(field_name, rule + " " + _count_message(count))


def _read_own_cards(game: GameRules, cards: tuple[Card, ...]) -> BoardReading:
    high = None
    if game.high:
        if game.wild_ranks:
            high = shown_high(evaluation.best_wild_hand(cards, wild_ranks=game.wild_ranks), game.wild_ranks)
        else:
            high = shown_high(evaluation.best_hand(cards))
    low = None
    no_low = False
    if game.low == "razz":
        low = shown_low(evaluation.razz_low(cards))
    elif game.low == "8":
        value = evaluation.low_8_or_better(cards)
        low = shown_low(value) if value is not None else None
        no_low = value is None
    wild = game.wild_ranks
    used = _used(high, low)
    return BoardReading(
        1,
        hole=tuple(CardPicture(c, wild=c.rank in wild, used=c in used) for c in cards),
        board=(),
        high=high,
        low=low,
        no_low=no_low,
    )


def _read_board(game: GameRules, number: int, hole: tuple[Card, ...], board: tuple[Card, ...]) -> BoardReading:
    if game.two_plus_three:
        best = evaluation.omaha_best(hole, board)
        free = evaluation.best_hand(hole + board)
        rule_note = None
        if free > best:
            rule_note = RuleNote(shown_high(free), sum(1 for c in free.cards if c in hole))
    else:
        best = evaluation.best_hand(hole + board)
        rule_note = None
    high = shown_high(best)
    low = None
    no_low = False
    if game.low == "8":
        value = evaluation.omaha_low_8(hole, board)
        low = shown_low(value) if value is not None else None
        no_low = value is None
    used = _used(high, low)
    return BoardReading(
        number,
        hole=tuple(CardPicture(c, used=c in used) for c in hole),
        board=tuple(CardPicture(c, used=c in used) for c in board),
        high=high,
        low=low,
        no_low=no_low,
        rule_note=rule_note,
    )


def _used(*hands: ShownHand | None) -> set[Card]:
    return {p.card for h in hands if h is not None for p in h.cards}


# ---------------------------------------------------------------------------------------------
# Which cards make the hand, in the order they count


def shown_high(value: evaluation.HandValue, wild_ranks: Iterable[int] = ()) -> ShownHand:
    """The five cards of a high hand, making cards first, kickers dimmed, wild cards marked.

    The evaluator gives the five cards in the order they count (trips before the pair, the
    wheel's ace last, a wild card in the place it fills); the first ones make the category and
    the rest are kickers.
    """
    wild_set = frozenset(wild_ranks)
    label = value.category.label
    making = _MAKING.get(label, 5)
    stands_for = value.ranks
    pics = []
    for i, c in enumerate(value.cards):
        wild = c.rank in wild_set
        pics.append(
            CardPicture(
                c,
                kicker=i >= making,
                wild=wild,
                plays_as=stands_for[i] if wild and i < len(stands_for) else None,
            )
        )
    return ShownHand(tuple(pics), label)


def _low_rank_text(card: Card) -> str:
    return "A" if card.rank == 14 else ("10" if card.rank == 10 else card.rank_char)


def _low_key(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def shown_low(value: evaluation.LowValue) -> ShownHand:
    """A low hand: its five cards, highest first, ace counted as one."""
    cards = sorted(value.cards, key=lambda c: -_low_key(c))
    return ShownHand(tuple(CardPicture(c) for c in cards), low=True)


@dataclass(frozen=True)
class GameChoice:
    code: str
    name: Promise
    how_to: Promise
    selected: bool = False


def game_choices(selected: str) -> list[GameChoice]:
    return [GameChoice(g.code, g.name, g.how_to, g.code == selected) for g in GAMES.values()]

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
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext
from django.utils.translation import pgettext_lazy

from rules_engine import evaluation
from rules_engine.cards import Card, CardParseError, parse_cards

BASEBALL_WILD_RANKS = frozenset({3, 9})

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
    hand_min: int
    hand_max: int
    # None: the game has no board; every card is the player's (stud, draw, Baseball).
    board_min: int | None
    board_max: int | None
    how_to: Promise  # one line: what to type for this game
    two_plus_three: bool = False
    high: bool = True
    low: str | None = None  # None, "8" (eight-or-better) or "razz"
    wild_ranks: frozenset[int] = frozenset()

    @property
    def has_board(self) -> bool:
        return self.board_min is not None


GAMES: dict[str, GameRules] = {
    g.code: g
    for g in (
        GameRules(
            "holdem", gettext_lazy("Texas Hold'em"), 2, 2, 3, 5,
            gettext_lazy("Two cards in your hand, three to five on the board."),
        ),
        GameRules(
            "omaha", gettext_lazy("Omaha"), 4, 4, 3, 5,
            gettext_lazy("Four cards in your hand, three to five on the board."),
            two_plus_three=True,
        ),
        GameRules(
            "omaha8", gettext_lazy("Omaha Hi-Lo"), 4, 4, 3, 5,
            gettext_lazy("Four cards in your hand, three to five on the board."),
            two_plus_three=True, low="8",
        ),
        GameRules(
            "patchpatch", gettext_lazy("Patch-Patch"), 4, 12, 3, 5,
            gettext_lazy(
                "Four cards and one board, or all twelve cards and the three boards "
                "separated by a slash (/): cards 1-4 play board 1, 5-8 board 2, 9-12 board 3."
            ),
            two_plus_three=True,
        ),
        GameRules(
            "stud", gettext_lazy("Stud"), 5, 7, None, None,
            gettext_lazy("Five to seven cards, all of them yours; no board."),
        ),
        GameRules(
            "stud8", gettext_lazy("Stud Hi-Lo"), 5, 7, None, None,
            gettext_lazy("Five to seven cards, all of them yours; no board."),
            low="8",
        ),
        GameRules(
            "razz", gettext_lazy("Razz"), 5, 7, None, None,
            gettext_lazy("Five to seven cards, all of them yours; no board."),
            high=False, low="razz",
        ),
        GameRules(
            "draw", gettext_lazy("Five-card draw"), 5, 5, None, None,
            gettext_lazy("Exactly five cards; no board."),
        ),
        GameRules(
            "baseball", gettext_lazy("Baseball"), 5, 11, None, None,
            gettext_lazy(
                "Five to eleven cards (seven, plus one for every four dealt face up); "
                "threes and nines are wild."
            ),
            wild_ranks=BASEBALL_WILD_RANKS,
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

# Category -> how many rank groups make it (the rest are kickers). None: all five cards make it.
_GROUPS: dict[str, int | None] = {
    "four_of_a_kind": 1,
    "three_of_a_kind": 1,
    "two_pair": 2,
    "one_pair": 1,
}
_ALL_FIVE = {"five_of_a_kind", "royal_flush", "straight_flush", "full_house", "flush", "straight"}


def card_name(card: Card) -> str:
    """The card in words, for screen readers: "ace of hearts"."""
    return _("%(rank)s of %(suit)s") % {"rank": RANK_WORDS[card.rank], "suit": SUIT_WORDS[card.suit]}


# ---------------------------------------------------------------------------------------------
# What the template draws


@dataclass(frozen=True)
class CardPicture:
    """One card as the page draws it."""

    card: Card
    kicker: bool = False  # in the hand but not part of what makes it: drawn dimmed
    wild: bool = False  # a Baseball wild card
    used: bool = False  # in a row of the player's cards: one of the five that play

    @property
    def rank(self) -> str:
        return "10" if self.card.rank == 10 else self.card.rank_char

    @property
    def suit(self) -> str:
        return self.card.pretty[-1]

    @property
    def color(self) -> str:
        return "red" if self.card.suit in "hd" else "black"

    @property
    def text(self) -> str:
        return str(self.card)

    @property
    def label(self) -> str:
        name = card_name(self.card)
        if self.wild:
            return _("%(card)s, wild") % {"card": name}
        if self.kicker:
            return _("%(card)s, kicker") % {"card": name}
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
    """Text the reader cannot use. ``field`` is "hand" or "board"; the message is translated."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


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
        cards = _parse("hand", hand_text) + _parse("board", board_text)
        _check_duplicates(cards)
        if not cards:
            raise HandInputError("hand", _("Enter your cards."))
        _check_count("hand", game, len(cards), game.hand_min, game.hand_max)
        return Reading(game, (_read_own_cards(game, cards),))

    hole = _parse("hand", hand_text)
    board_texts = [t for t in _BOARD_SEPARATORS.split(board_text.strip())] if board_text.strip() else []
    boards = [_parse("board", t) for t in board_texts]
    _check_duplicates(hole + tuple(c for b in boards for c in b))
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
            raise HandInputError(
                "hand", _count_message(game, len(hole)) + " " + _("Patch-Patch reads four cards (one hand) or twelve (all three).")
            )
        _check_count("hand", game, len(hole), game.hand_min, game.hand_max)
        if len(boards) > 1:
            raise HandInputError(
                "board", _("This hand plays one board; a slash (/) separates boards only for twelve Patch-Patch cards.")
            )
        hands = [hole]
    if not boards:
        raise HandInputError("board", _("Enter the board: three to five cards."))
    for board in boards:
        assert game.board_min is not None and game.board_max is not None
        _check_count("board", game, len(board), game.board_min, game.board_max)

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
                _(
                    "“%(token)s” is not a card. Write the rank (2-9, T or 10, J, Q, K, A) and then "
                    "the suit (c, d, h, s or ♣ ♦ ♥ ♠), for example Ah or 10♦."
                )
                % {"token": _bad_token(chunk)},
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


def _check_duplicates(cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise HandInputError(
                "hand",
                _("%(card)s is entered twice; a deck has only one of each card.") % {"card": c.pretty},
            )
        seen.add(c)


def _count_message(game: GameRules, count: int) -> str:
    return ngettext("You entered %(count)s card.", "You entered %(count)s cards.", count) % {
        "count": count
    }


def _check_count(field_name: str, game: GameRules, count: int, low: int, high: int) -> None:
    if low <= count <= high:
        return
    if field_name == "board":
        rule = _("The board has three to five cards (flop, turn, river).")
    else:
        rule = _("%(game)s: %(how_to)s") % {"game": game.name, "how_to": game.how_to}
    raise HandInputError(field_name, rule + " " + _count_message(game, count))


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
        if (free.category, free.value) != (best.category, best.value):
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
    """The five cards of a high hand, making cards first, kickers dimmed, wild cards marked."""
    wild_set = frozenset(wild_ranks)
    label = value.category.label
    cards = list(value.cards)
    wilds = [c for c in cards if c.rank in wild_set]
    naturals = sorted((c for c in cards if c.rank not in wild_set), key=lambda c: -c.rank)

    if label in ("straight", "straight_flush", "royal_flush"):
        ordered = _straight_order(naturals, wilds)
        return ShownHand(tuple(CardPicture(c, wild=c in wilds) for c in ordered), label)
    if label in _ALL_FIVE:
        counts = Counter(c.rank for c in naturals)
        by_group = sorted(naturals, key=lambda c: (-counts[c.rank], -c.rank))
        # A wild card joins the biggest group (five of a kind, the trips of a full house).
        ordered = _insert_wilds_after_group(by_group, wilds, counts)
        return ShownHand(tuple(CardPicture(c, wild=c in wilds) for c in ordered), label)
    if label == "high_card":
        return ShownHand(
            tuple(CardPicture(c, kicker=i > 0) for i, c in enumerate(naturals)), label
        )

    groups = _GROUPS.get(label, 1) or 1
    counts = Counter(c.rank for c in naturals)
    ranks = sorted(counts, key=lambda r: (-counts[r], -r))[:groups]
    making = [c for r in ranks for c in naturals if c.rank == r]
    kickers = [c for c in naturals if c.rank not in ranks]
    # Wild cards always belong to what makes the hand: with one, a pair becomes trips, and so on.
    pics = (
        [CardPicture(c) for c in making[: len(making) - 0]][: _first_group_len(making)]
        + [CardPicture(c, wild=True) for c in wilds]
        + [CardPicture(c) for c in making[_first_group_len(making) :]]
        + [CardPicture(c, kicker=True) for c in kickers]
    )
    return ShownHand(tuple(pics), label)


def _first_group_len(making: list[Card]) -> int:
    if not making:
        return 0
    first = making[0].rank
    return sum(1 for c in making if c.rank == first)


def _insert_wilds_after_group(by_group: list[Card], wilds: list[Card], counts: Counter[int]) -> list[Card]:
    if not wilds or not by_group:
        return wilds + by_group
    first = by_group[0].rank
    n = counts[first]
    return by_group[:n] + wilds + by_group[n:]


def _straight_order(naturals: list[Card], wilds: list[Card]) -> list[Card]:
    """Top card first; the wheel (5-4-3-2-A) puts the ace last; wild cards fill the gaps."""
    have = {c.rank: c for c in naturals}
    for top in range(14, 4, -1):
        window = [top - i for i in range(5)]
        if top == 5:
            window = [5, 4, 3, 2, 14]
        if all(r in window for r in have) and len(window) - len(have) == len(wilds):
            spare = list(wilds)
            return [have[r] if r in have else spare.pop(0) for r in window]
    return naturals + wilds


def _low_rank_text(card: Card) -> str:
    return "A" if card.rank == 14 else ("10" if card.rank == 10 else card.rank_char)


def _low_key(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def shown_low(value: object) -> ShownHand:
    """A low hand: its five cards, highest first, ace counted as one."""
    cards = sorted(getattr(value, "cards"), key=lambda c: -_low_key(c))
    return ShownHand(tuple(CardPicture(c) for c in cards), low=True)


@dataclass(frozen=True)
class GameChoice:
    code: str
    name: Promise
    how_to: Promise
    selected: bool = field(default=False)


def game_choices(selected: str) -> list[GameChoice]:
    return [GameChoice(g.code, g.name, g.how_to, g.code == selected) for g in GAMES.values()]

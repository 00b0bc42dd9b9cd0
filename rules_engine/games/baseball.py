"""Baseball poker: stud with wild 3s and 9s and a free card for every open 4 (GAMES.md section 4).

The club's house profile: 2 to 6 players, ante 1, a bet of 1 and at most three raises of 1 a
round, all 3s and 9s wild, a face-up 4 earns a free face-up card, balances in exact fractions
that may go below zero.

A hand is a pure state machine, driven exactly like Patch-Patch: :meth:`Baseball.start` deals from
a setup, the server feeds :class:`~rules_engine.games.Action` values to
:meth:`BaseballState.apply` (or calls :meth:`BaseballState.timeout` when the clock runs out) and
reads :meth:`BaseballState.view_for` for each viewer. The setup plus the action log rebuild the
state exactly (:meth:`Baseball.replay`); :meth:`BaseballState.to_json` stores exactly that.

Phases (``state.phase``) are named like stud's streets, by the regular cards each player holds:
``third`` (two down and one up), ``fourth``, ``fifth``, ``sixth`` (one more up card each),
``seventh`` (the last card, face down), then ``over``. Each of the first five is one betting
round; ``state.round`` counts them 1 to 5. The deal of the next round and the showdown happen
inside the action that ends a round, so every phase but ``over`` waits for a decision.

Actions (``Action.kind``) and what ``legal_actions`` lists, in this order, for the one seat to
act: with nothing to call ``check`` and ``bet`` (amount 1); facing a bet ``fold``, ``call``
(amount: the units still owed this round) and ``raise`` (amount: the raise-to total for the
round) while fewer than three raises have been made. An ``amount`` on an action is optional; when
given it must be the listed one.

>>> import random
>>> state = Baseball.start(Baseball.setup_for_table(stacks=[10, 10, 10], button=0),
...                        rng=random.Random(7))
>>> state.phase, state.round, state.pot, [la.label for la in state.legal_actions(state.to_act)]
('third', 1, 3, ['Check', 'Bet 1'])

Decisions where the rulebook is silent:

* Seats are numbered 0..n-1 clockwise; ``setup.button`` is the dealer. Cards go out clockwise
  from the dealer's left, the dealer last (:meth:`Baseball.deal_order`). Choosing the first dealer
  at random and passing the deal to the left between hands is the server's job;
  :meth:`Baseball.first_dealer` and :meth:`Baseball.next_dealer` say how.
* The first deal goes one card at a time: a round of down cards, a second round of down cards,
  then a round of up cards. A player whose up card is a 4 gets the free card right after it,
  before the next player's up card (and another one if the free card is a 4 too). The same holds
  for the three later up rounds. The last round is one down card each. Folded players get nothing.
* The deck never runs out, so no card-room fallback (a shared last card, reshuffled discards) is
  needed: six players take at most 6 x 7 = 42 regular cards, and each free card is earned by a
  different 4 dealt face up, so there are at most four of them: 46 cards at most. A setup's deck
  is therefore always the whole 52-card deck.
* Antes are dead money, posted before the deal by every player whatever the balance (a balance
  may go below zero: there is no all-in and no side pot). The setup's blinds and bet sizes are
  ignored: :meth:`Baseball.setup_for_table` writes the ante and the bet, 1 each, into ``ante``,
  ``small_bet`` and ``big_bet`` (and into ``small_blind``/``big_blind``, for code that reads a
  table's stakes there). ``check_buy_in`` (units are never bought in) and ``public`` (play units
  pay no rake) are only reported.
* Each round's opener is fixed when its cards are out: the best open hand among the players still
  in, every up card counted (free cards included), wild cards counted, suits never
  (:func:`rules_engine.openhand.open_hand_key`); equal open hands go to the first of them in deal
  order, i.e. the nearest the dealer's left. The turn then passes clockwise.
* Fixed limit: a bet is 1, a raise adds 1 to the round's bet, at most three raises after the bet
  (so nobody puts in more than 4 a round). Folding is offered only when facing a bet; with nothing
  to call a player checks, so a timeout checks whenever it can. A player who checked may call,
  raise or fold when a bet comes round (check-raise is allowed: the rules let anyone facing a bet
  raise). A player pays what is owed whatever the balance.
* Everyone but one folds: the hand ends at once and the last player takes the whole pot unseen,
  its own unanswered bet included (the same net as returning it first); nothing is revealed and
  no further cards are dealt.
* Showdown: everyone still in is shown (no mucking); each plays the best five of every card
  received (:func:`rules_engine.wild.best_wild_hand`). Equal values split the pot exactly:
  ``Fraction(pot, winners)`` each, so there are no odd units and no seat order for them.
* A decision timeout checks if it can, else folds, and puts the seat in ``state.breaks`` (sits
  out from the next hand); it is logged as an ordinary action with ``timeout=True``.
* Units: bets, antes, the pot and every contribution are whole; balances and payouts are
  :class:`fractions.Fraction`. In JSON (views, results, saved states) a value that may be a
  fraction is a string in exact form, ``"5/3"`` or ``"-2"`` (:func:`units_json`), with a
  ``*_display`` sibling for people, ``"1 2/3"`` (:func:`units_display`); whole-only values (pot,
  bets, contributions, legal-action amounts) stay JSON integers.
* Views: a seat sees every up card (in the order received, each flagged ``extra`` when it was
  the free card for an open 4 and ``wild`` when it is a 3 or a 9), its own down cards, and
  anyone's down cards only after they are shown at the showdown. A folded hand's down cards are
  never shown; the deck never appears.
* Session (:class:`BaseballSession`): every hand ends with a winner (a showdown or everyone else
  folding), so every finished hand is a completed pot; the session is over after eight. Players
  are then ranked by their net change with shared places, 1, 1, 3 (:func:`session_standings`).
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar, cast

from rules_engine.cards import FULL_DECK, Card, Deck
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, RulesError, SetupError
from rules_engine.evaluation import Category, HandValue, best_wild_hand, open_hand_key
from rules_engine.games import SPEEDS, Action, HandSetup, LegalAction, note_acts
from rules_engine.games.patchpatch import DECISION_SECONDS
from rules_engine.pots import clockwise_from_button
from rules_engine.wild import BASEBALL_WILDS

__all__ = [
    "Baseball",
    "BaseballEvent",
    "BaseballResult",
    "BaseballSession",
    "BaseballState",
    "DealtCard",
    "ShownHand",
    "parse_units",
    "session_standings",
    "units_display",
    "units_json",
]

ANTE = 1
BET = 1
MAX_RAISES = 3
ROUNDS = 5
SESSION_POTS = 8
FREE_CARD_RANK = 4
WILD_RANKS: frozenset[int] = BASEBALL_WILDS
PHASES = ("third", "fourth", "fifth", "sixth", "seventh", "over")
KINDS = ("fold", "check", "call", "bet", "raise")


# -- units ------------------------------------------------------------------------------------


def units_json(value: Fraction | int) -> str:
    """Exact text for a balance or payout: ``"5/3"``, ``"-2"``, ``"0"``.

    >>> units_json(Fraction(10, 6)), units_json(-2)
    ('5/3', '-2')
    """
    return str(Fraction(value))


def units_display(value: Fraction | int) -> str:
    """A balance as people write it: a whole number and a proper fraction.

    >>> units_display(Fraction(5, 3)), units_display(Fraction(-5, 3)), units_display(Fraction(2, 3))
    ('1 2/3', '-1 2/3', '2/3')
    >>> units_display(7), units_display(0)
    ('7', '0')
    """
    f = Fraction(value)
    if f.denominator == 1:
        return str(f.numerator)
    sign = "-" if f < 0 else ""
    whole, rest = divmod(abs(f.numerator), f.denominator)
    part = f"{rest}/{f.denominator}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


def parse_units(value: object, what: str = "a balance") -> Fraction:
    """Read a balance: an ``int``, a ``Fraction`` or exact text (``"5/3"``, ``"-2"``).

    Floats and booleans are refused: units are never rounded.

    >>> parse_units("5/3"), parse_units(4)
    (Fraction(5, 3), Fraction(4, 1))
    """
    if isinstance(value, bool) or not isinstance(value, int | Fraction | str):
        raise SetupError(
            f"{what} is a whole number or an exact fraction such as '5/3', not {value!r}"
        )
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise SetupError(f"{what} is written like '7', '-2' or '5/3', not {value!r}") from None
    return Fraction(value)


# -- values -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealtCard:
    """A card as a player received it: face up or down, in which round, free or not."""

    card: Card
    up: bool
    extra: bool  # the free card earned by the open 4 dealt just before it
    round: int  # 1..5

    @property
    def wild(self) -> bool:
        return self.card.rank in WILD_RANKS

    def to_json(self) -> dict[str, Any]:
        return {"card": str(self.card), "extra": self.extra, "wild": self.wild}


@dataclass(frozen=True, slots=True)
class BaseballEvent:
    """Something that happened, public information only (a down card's face is never in it).

    Kinds: ``ante``; ``down`` (a face-down card reached ``seat``), ``up`` (a face-up card,
    ``cards`` holds it), ``extra`` (the free face-up card for an open 4); ``street`` (a betting
    round starts: ``seat`` is the opener, ``amount`` the round); ``check``, ``bet``, ``call``,
    ``raise`` (``amount``: the raise-to total), ``fold``, ``timeout``, ``break``; ``show``
    (``cards``: the whole hand), ``win`` (``amount`` may be a fraction), ``hand_over``.
    """

    kind: str
    seat: int | None = None
    amount: Fraction | int = 0
    cards: tuple[Card, ...] = ()
    pot: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.amount:
            out["amount"] = units_json(self.amount)
        if self.cards:
            out["cards"] = [str(c) for c in self.cards]
        if self.pot is not None:
            out["pot"] = self.pot
        return out


def _made_json(best: HandValue) -> dict[str, Any]:
    """A best five: its category, its cards and the ranks they stand for (wild cards resolved)."""
    return {"category": best.category.label, "cards": [str(c) for c in best.cards], "ranks": list(best.ranks)}


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at the showdown: every card received and the best five of them."""

    seat: int
    cards: tuple[Card, ...]
    best: HandValue

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "best": [str(c) for c in self.best.cards],
            "category": self.best.category.label,
            "description": self.best.describe(),
            # The ranks the five stand for, wild cards resolved (the site names the hand with them).
            "ranks": list(self.best.ranks),
        }


@dataclass(frozen=True, slots=True)
class BaseballResult:
    """How a finished hand paid out; tuples are indexed by seat. Like
    :class:`~rules_engine.games.HandResult`, with exact fractions and a single pot.

    ``payouts`` sum to ``pot`` exactly; ``net = payouts - contributions``; ``stacks`` are the
    balances after the hand. ``hands`` are the shown hands (empty without a showdown).
    """

    showdown: bool
    pot: int
    contributions: tuple[int, ...]
    payouts: tuple[Fraction, ...]
    net: tuple[Fraction, ...]
    stacks: tuple[Fraction, ...]
    shown: tuple[int, ...]
    hands: tuple[ShownHand, ...]
    rake: int = 0
    scoop: int | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that collected from the pot."""
        return tuple(i for i, p in enumerate(self.payouts) if p > 0)

    @property
    def returned(self) -> tuple[int, ...]:
        return tuple(0 for _ in self.payouts)

    def _winner_json(self, seat: int) -> dict[str, Any]:
        hand = next((h for h in self.hands if h.seat == seat), None)
        return {
            "seat": seat,
            "amount": units_json(self.payouts[seat]),
            "amount_display": units_display(self.payouts[seat]),
            "category": None if hand is None else hand.best.category.label,
            "description": None if hand is None else hand.best.describe(),
            "cards": [] if hand is None else [str(c) for c in hand.best.cards],
            "ranks": [] if hand is None else list(hand.best.ranks),
        }

    def to_json(self) -> dict[str, Any]:
        n = len(self.payouts)
        eligible = [s for s in range(n) if s in self.shown] if self.showdown else list(self.winners)
        return {
            "showdown": self.showdown,
            "pot": self.pot,
            "pots": [
                {
                    "index": 0,
                    "amount": self.pot,
                    "rake": 0,
                    "eligible": eligible,
                    "boards": [],
                    "payouts": [units_json(p) for p in self.payouts],
                    "winners": [self._winner_json(s) for s in self.winners],
                    "scoop": None,
                }
            ],
            "contributions": list(self.contributions),
            "returned": list(self.returned),
            "payouts": [units_json(p) for p in self.payouts],
            "payouts_display": [units_display(p) for p in self.payouts],
            "net": [units_json(x) for x in self.net],
            "net_display": [units_display(x) for x in self.net],
            "rake": self.rake,
            "stacks": [units_json(s) for s in self.stacks],
            "stacks_display": [units_display(s) for s in self.stacks],
            "scoop": self.scoop,
            "shown": list(self.shown),
            "winners": list(self.winners),
            "hands": [h.to_json() for h in self.hands],
        }


# -- the game ---------------------------------------------------------------------------------


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _setup(
    stacks: Sequence[Fraction],
    button: int,
    *,
    speed: str,
    public: bool,
    deck: tuple[Card, ...] | None,
) -> HandSetup:
    # HandSetup types stacks as int; Baseball keeps exact Fractions there (the dataclass does not
    # check, and every reader here goes through Fraction()).
    return HandSetup(
        stacks=cast("tuple[int, ...]", tuple(stacks)),
        button=button,
        small_blind=ANTE,
        big_blind=BET,
        speed=speed,
        public=public,
        deck=deck,
        ante=ANTE,
        small_bet=BET,
        big_bet=BET,
    )


def _up_chain(cards: Sequence[Card | None], where: str) -> None:
    """One up card and its free cards: every card but the last is a 4, the last is not."""
    if not cards:
        raise SetupError(f"{where}: an up round gives each player at least one card")
    for k, card in enumerate(cards):
        last = k == len(cards) - 1
        if card is None:
            if not last:
                raise SetupError(
                    f"{where}: a face-up card followed by a free card must be a known 4"
                )
            continue
        if not last and card.rank != FREE_CARD_RANK:
            raise SetupError(
                f"{where}: only an open 4 earns a free card, but {card} is followed by another"
            )
        if last and card.rank == FREE_CARD_RANK:
            raise SetupError(f"{where}: the open {card} earns a free card, which is missing")


class Baseball:
    """The Baseball game: start, replay and restore hands (all class and static methods)."""

    code: ClassVar[str] = "BB"
    name: ClassVar[str] = "Baseball"
    NAME: ClassVar[str] = "Baseball"
    FAMILY: ClassVar[str] = "stud"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 6
    ANTE: ClassVar[int] = ANTE
    BET: ClassVar[int] = BET
    MAX_RAISES: ClassVar[int] = MAX_RAISES
    ROUNDS: ClassVar[int] = ROUNDS
    WILD_RANKS: ClassVar[frozenset[int]] = WILD_RANKS
    FREE_CARD_RANK: ClassVar[int] = FREE_CARD_RANK
    DECISION_SECONDS: ClassVar[dict[str, float]] = DECISION_SECONDS

    @classmethod
    def setup_for_table(
        cls,
        *,
        stacks: Sequence[Fraction | int | str],
        button: int,
        small_blind: int = ANTE,
        big_blind: int = BET,
        speed: str = "medium",
        public: bool = False,
        deck: Sequence[Card] | None = None,
    ) -> HandSetup:
        """The setup of a hand at a table: balances (exact, possibly negative) and the dealer.

        The blinds are accepted for a common signature and ignored: Baseball antes 1 and bets 1.

        >>> Baseball.setup_for_table(stacks=["5/3", -2], button=1).stacks
        (Fraction(5, 3), Fraction(-2, 1))
        """
        balances = [parse_units(s, f"seat {i}'s balance") for i, s in enumerate(stacks)]
        setup = _setup(
            balances,
            button,
            speed=speed,
            public=public,
            deck=None if deck is None else tuple(deck),
        )
        validate_setup(setup)
        return setup

    @classmethod
    def start(cls, setup: HandSetup, rng: random.Random | None = None) -> BaseballState:
        """Deal a new hand: validate the setup, shuffle unless it has a deck, ante, deal round 1.

        ``rng`` is used only when ``setup.deck`` is ``None``; without it the deck comes from the
        operating system's CSPRNG. The state's ``setup`` carries the full deck order, so
        ``Baseball.replay(state.setup, state.log)`` rebuilds it. The antes and the first deal
        are in ``state.start_events``.
        """
        validate_setup(setup)
        if setup.deck is None:
            setup = dataclasses.replace(setup, deck=Deck.shuffled(rng).order)
        return BaseballState(setup)

    @classmethod
    def replay(cls, setup: HandSetup, log: Iterable[Action]) -> BaseballState:
        """Rebuild a hand from its setup (with its deck) and its action log."""
        if setup.deck is None:
            raise SetupError("replaying a hand needs the deck order it was dealt from")
        state = cls.start(setup)
        for action in log:
            state.apply(action)
        return state

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BaseballState:
        """Restore a state saved by :meth:`BaseballState.to_json` (by replaying its log)."""
        if not isinstance(data, Mapping) or data.get("variant") != cls.code:
            raise SetupError("this is not a saved Baseball hand")
        setup = setup_from_json(data.get("setup"))
        log = data.get("log", [])
        if not isinstance(log, list):
            raise SetupError("a saved hand's log is a list of actions")
        return cls.replay(setup, [Action.from_json(a) for a in log])

    @staticmethod
    def deal_order(dealer: int, players: int) -> tuple[int, ...]:
        """Seats in the order cards are dealt: left of the dealer first, the dealer last."""
        return clockwise_from_button(dealer, players)

    @staticmethod
    def next_dealer(dealer: int, players: int) -> int:
        """The deal passes to the left (the next seat clockwise) after every hand."""
        return (dealer + 1) % players

    @staticmethod
    def first_dealer(players: int, rng: random.Random | None = None) -> int:
        """The first dealer, drawn at random (the CSPRNG unless a generator is given)."""
        return (rng if rng is not None else secrets.SystemRandom()).randrange(players)

    @classmethod
    def deck_for_streets(
        cls,
        streets: Sequence[Mapping[int, Sequence[Card | None]]],
        dealer: int,
        players: int,
    ) -> tuple[Card, ...]:
        """A 52-card deck order that deals ``streets``: for each round dealt, what each seat got.

        Round 1 gives a seat its two down cards, then its up card and any free cards; rounds 2
        to 4 the up card and its free cards; round 5 the down card. A seat missing from a round
        gets nothing in it (it has folded). ``None`` is a card nobody saw: it becomes an unused
        card that is not a 4 (so it earns nothing), as does the rest of the deck.

        >>> from rules_engine.cards import format_cards, parse_cards
        >>> deck = Baseball.deck_for_streets(
        ...     [{0: parse_cards("2c 2d 6c"), 1: parse_cards("Ah Ad 4h Kd")}], dealer=0, players=2)
        >>> format_cards(deck[:7])   # seat 1 sits left of the dealer and is dealt first
        'Ah 2c Ad 2d 4h Kd 6c'
        """
        order = clockwise_from_button(dealer, players)
        slots: list[Card | None] = []
        up_slot: list[bool] = []
        if len(streets) > ROUNDS:
            raise SetupError(f"a Baseball hand has {ROUNDS} deals, not {len(streets)}")
        for r, street in enumerate(streets, 1):
            for seat in street:
                if not _is_int(seat) or not 0 <= seat < players:
                    raise SetupError(f"round {r}: there is no seat {seat!r}")
            seats = [s for s in order if s in street]
            parts = {s: list(street[s]) for s in seats}
            if r == 1:
                for s in seats:
                    if len(parts[s]) < 3:
                        raise SetupError(f"round 1: seat {s} gets two down cards and an up card")
                for k in (0, 1):
                    for s in seats:
                        slots.append(parts[s][k])
                        up_slot.append(False)
                for s in seats:
                    _up_chain(parts[s][2:], f"round 1, seat {s}")
                    slots.extend(parts[s][2:])
                    up_slot.extend([True] * (len(parts[s]) - 2))
            elif r < ROUNDS:
                for s in seats:
                    _up_chain(parts[s], f"round {r}, seat {s}")
                    slots.extend(parts[s])
                    up_slot.extend([True] * len(parts[s]))
            else:
                for s in seats:
                    if len(parts[s]) != 1:
                        raise SetupError(f"round {ROUNDS}: seat {s} gets one down card")
                    slots.append(parts[s][0])
                    up_slot.append(False)
        known = [c for c in slots if c is not None]
        if len(set(known)) != len(known):
            raise SetupError("a stacked deck cannot hold the same card twice")
        used = set(known)
        plain = [c for c in FULL_DECK if c not in used and c.rank != FREE_CARD_RANK]
        fours = [c for c in FULL_DECK if c not in used and c.rank == FREE_CARD_RANK]
        filled: list[Card] = []
        for card, up in zip(slots, up_slot, strict=True):
            if card is not None:
                filled.append(card)
            elif plain:
                filled.append(plain.pop(0))
            elif not up and fours:
                filled.append(fours.pop(0))
            else:  # pragma: no cover - 46 slots at most leave at least two plain cards
                raise SetupError("no card is left to stand for an unknown up card")
        return tuple(filled) + tuple(plain) + tuple(fours)

    @classmethod
    def stacked_deck(
        cls, hands: Sequence[Sequence[Card | None] | None], dealer: int
    ) -> tuple[Card, ...]:
        """A deck order that deals ``hands`` (by seat: cards in the order received, free cards
        included) when nobody folds. ``None`` or a missing card is "any card" (never a 4).

        >>> from rules_engine.cards import parse_cards
        >>> deck = Baseball.stacked_deck([parse_cards("2c 2d 6c 4h Kd"), None], dealer=1)
        >>> state = Baseball.start(Baseball.setup_for_table(stacks=[10, 10], button=1, deck=deck))
        >>> state.phase, [str(d.card) for d in state.cards_of(0)]
        ('third', ['2c', '2d', '6c'])
        """
        n = len(hands)
        streets: list[dict[int, list[Card | None]]] = [{} for _ in range(ROUNDS)]
        for seat, hand in enumerate(hands):
            cards = iter(hand or ())
            for r in range(ROUNDS):
                got: list[Card | None] = []
                if r == 0:
                    got += [next(cards, None), next(cards, None)]
                if r < ROUNDS - 1:
                    # an up card, then a free card for as long as the last one is a 4
                    got.append(next(cards, None))
                    while (last := got[-1]) is not None and last.rank == FREE_CARD_RANK:
                        got.append(next(cards, None))
                else:
                    got.append(next(cards, None))
                streets[r][seat] = got
            if next(cards, None) is not None:
                raise SetupError(f"seat {seat} is given more cards than a hand receives")
        return cls.deck_for_streets(streets, dealer, n)


def validate_setup(setup: HandSetup) -> None:
    """Raise :class:`SetupError` with a readable reason if the hand cannot be dealt."""
    if not isinstance(setup, HandSetup):
        raise SetupError("a hand starts from a HandSetup")
    n = len(setup.stacks)
    if not Baseball.MIN_PLAYERS <= n <= Baseball.MAX_PLAYERS:
        raise SetupError(f"Baseball is dealt to 2 to 6 players, not {n}")
    for i, s in enumerate(setup.stacks):
        value: object = s
        if isinstance(value, bool) or not isinstance(value, int | Fraction):
            raise SetupError(
                f"seat {i}'s balance is a whole number or an exact fraction, not {value!r}"
            )
    if not _is_int(setup.button) or not 0 <= setup.button < n:
        raise SetupError(f"the dealer must be one of the seats 0 to {n - 1}, not {setup.button!r}")
    if setup.speed not in SPEEDS:
        raise SetupError(f"the table speed is slow, medium or fast, not {setup.speed!r}")
    if setup.straddle or setup.posts or setup.dead or setup.run_twice or setup.bomb or setup.seven_deuce:
        raise SetupError("Baseball has no straddle, bomb pot or seven-deuce bounty, is not run twice and nobody posts "
                         "a blind out of turn")
    if setup.deck is not None:
        deck = setup.deck
        if not all(isinstance(c, Card) for c in deck):
            raise SetupError("a deck order is a sequence of cards")
        if len(set(deck)) != len(deck):
            raise SetupError("a deck cannot hold the same card twice")
        if len(deck) != len(FULL_DECK):
            raise SetupError(f"Baseball deals from all 52 cards, the deck has {len(deck)}")


def setup_to_json(setup: HandSetup) -> dict[str, Any]:
    """A setup as JSON, balances in exact text (``HandSetup.to_json`` would keep Fractions)."""
    return {
        "stacks": [units_json(Fraction(s)) for s in setup.stacks],
        "button": setup.button,
        "small_blind": setup.small_blind,
        "big_blind": setup.big_blind,
        "speed": setup.speed,
        "public": setup.public,
        "deck": None if setup.deck is None else [str(c) for c in setup.deck],
        "ante": ANTE,
        "small_bet": BET,
        "big_bet": BET,
    }


def setup_from_json(data: object) -> HandSetup:
    """Read :func:`setup_to_json` (balances as exact text or integers)."""
    if not isinstance(data, Mapping) or "stacks" not in data or "button" not in data:
        raise SetupError("a Baseball setup needs stacks and a button (the dealer)")
    stacks = data["stacks"]
    if not isinstance(stacks, list):
        raise SetupError("stacks is a list of balances")
    base = HandSetup.from_json({**data, "stacks": [0] * len(stacks), "small_blind": ANTE,
                                "big_blind": BET})
    setup = _setup(
        [parse_units(s, f"seat {i}'s balance") for i, s in enumerate(stacks)],
        base.button,
        speed=base.speed,
        public=base.public,
        deck=base.deck,
    )
    validate_setup(setup)
    return setup


class BaseballState:
    """One Baseball hand in progress (or over). Create it with :meth:`Baseball.start`."""

    variant: ClassVar[str] = "BB"

    def __init__(self, setup: HandSetup) -> None:
        assert setup.deck is not None
        self.setup = setup
        n = len(setup.stacks)
        self.n = n
        self.button = setup.button
        self._order = clockwise_from_button(setup.button, n)
        self._deck = setup.deck
        self._top = 0
        self.start_stacks: tuple[Fraction, ...] = tuple(Fraction(s) for s in setup.stacks)
        self._cards: list[list[DealtCard]] = [[] for _ in range(n)]
        self._folded = [False] * n
        self._contributed = [0] * n
        self._bets = [0] * n
        self._acted = [False] * n
        self.level = 0  # the bet to match this round
        self.raises = 0  # raises after the bet this round
        self.round = 0
        self.phase = PHASES[0]
        self.opener: int | None = None
        self.to_act: int | None = None
        self.breaks: set[int] = set()
        self.log: list[Action] = []
        self.acts: dict[int, str] = {}  # each seat's last act in the betting round under way
        self.result: BaseballResult | None = None
        self.start_events: list[BaseballEvent] = self._begin()

    # -- dealing ------------------------------------------------------------------------------

    def _begin(self) -> list[BaseballEvent]:
        ev: list[BaseballEvent] = []
        for seat in self._order:
            self._contributed[seat] += ANTE
            ev.append(BaseballEvent("ante", seat=seat, amount=ANTE))
        self._next_round(ev)
        return ev

    def _draw(self) -> Card:
        # Cannot run out: 46 cards at most are dealt (see the module docstring).
        card = self._deck[self._top]
        self._top += 1
        return card

    def _give(self, seat: int, up: bool, extra: bool, ev: list[BaseballEvent]) -> Card:
        card = self._draw()
        self._cards[seat].append(DealtCard(card, up, extra, self.round))
        if up:
            ev.append(BaseballEvent("extra" if extra else "up", seat=seat, cards=(card,)))
        else:
            ev.append(BaseballEvent("down", seat=seat))
        return card

    def _give_up(self, seat: int, ev: list[BaseballEvent]) -> None:
        card = self._give(seat, True, False, ev)
        while card.rank == FREE_CARD_RANK:
            card = self._give(seat, True, True, ev)

    def _next_round(self, ev: list[BaseballEvent]) -> None:
        self.round += 1
        self.phase = PHASES[self.round - 1]
        live = [s for s in self._order if not self._folded[s]]
        if self.round == 1:
            for _ in range(2):
                for s in live:
                    self._give(s, False, False, ev)
            for s in live:
                self._give_up(s, ev)
        elif self.round < ROUNDS:
            for s in live:
                self._give_up(s, ev)
        else:
            for s in live:
                self._give(s, False, False, ev)
        self._bets = [0] * self.n
        self._acted = [False] * self.n
        self.level = 0
        self.raises = 0
        self.opener = self.best_showing()
        self.to_act = self.opener
        ev.append(BaseballEvent("street", seat=self.opener, amount=self.round, pot=self.pot))

    def best_showing(self) -> int:
        """The seat still in with the best open hand; equal hands: nearest the dealer's left."""
        best_key: tuple[int, tuple[int, ...]] | None = None
        best = -1
        for s in self._order:
            if self._folded[s]:
                continue
            key = self.showing(s)
            if best_key is None or key > best_key:
                best_key, best = key, s
        return best

    # -- questions ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def dealer(self) -> int:
        return self.button

    @property
    def stacks(self) -> tuple[Fraction, ...]:
        """Each balance right now (after the hand: the final balances)."""
        if self.result is not None:
            return self.result.stacks
        # Balances are exact fractions; what was put in is whole, so subtract it only when asked.
        return tuple(s - c for s, c in zip(self.start_stacks, self._contributed, strict=True))

    @property
    def pot(self) -> int:
        """Every unit in the middle, this round's bets included (0 once paid out)."""
        return 0 if self.result is not None else sum(self._contributed)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's bet in the current round."""
        return tuple(self._bets)

    @property
    def contributed(self) -> tuple[int, ...]:
        """Units each seat has put in the hand so far, ante included."""
        return tuple(self._contributed)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(i for i in range(self.n) if not self._folded[i])

    def cards_of(self, seat: int) -> tuple[DealtCard, ...]:
        """Every card the seat received, in order (hidden information: server only)."""
        return tuple(self._cards[seat])

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards, in the order received (hidden information: server only)."""
        return tuple(d.card for d in self._cards[seat])

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's face-up cards (public), free cards included, in the order received."""
        return tuple(d.card for d in self._cards[seat] if d.up)

    def dealt_in(self, seat: int, round_: int) -> tuple[DealtCard, ...]:
        """The cards the seat received in one round (1..5)."""
        return tuple(d for d in self._cards[seat] if d.round == round_)

    def showing(self, seat: int) -> tuple[int, tuple[int, ...]]:
        """The seat's open-hand key (:func:`~rules_engine.openhand.open_hand_key`, wilds in)."""
        return open_hand_key(self.up_cards(seat), WILD_RANKS)

    def best_hand(self, seat: int) -> HandValue | None:
        """The best five of the seat's cards so far, or None before it has five."""
        cards = self.hand_of(seat)
        return best_wild_hand(cards, WILD_RANKS) if len(cards) >= 5 else None

    def actors(self) -> tuple[int, ...]:
        """Seats whose input the hand waits for: the one to act, or nobody."""
        return () if self.to_act is None else (self.to_act,)

    def clock(self) -> str | None:
        """Which clock the server should run: ``decision``, or ``None`` when the hand is over."""
        return None if self.is_over else "decision"

    def clock_seconds(self) -> float | None:
        """The length of the decision clock at this table's speed."""
        return None if self.is_over else DECISION_SECONDS[self.setup.speed]

    def legal_actions(self, seat: int) -> list[LegalAction]:
        """Every action the seat may take now, with exact amounts (empty if none)."""
        if self.is_over or not _is_int(seat) or seat != self.to_act:
            return []
        bet = self._bets[seat]
        owe = self.level - bet
        out: list[LegalAction] = []
        if owe == 0:
            out.append(LegalAction("check", 0, bet, 0))
            if self.level == 0:
                out.append(LegalAction("bet", BET, BET, BET, min_amount=BET, max_amount=BET))
        else:
            out.append(LegalAction("fold", 0, bet, 0))
            out.append(LegalAction("call", owe, self.level, owe))
        if self.level > 0 and self.raises < MAX_RAISES:
            to = self.level + BET
            out.append(LegalAction("raise", to, to, to - bet, min_amount=to, max_amount=to))
        return out

    # -- doing --------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[BaseballEvent]:
        """Apply one action and return what happened.

        Raises :class:`MalformedAction` (unreadable), :class:`OutOfTurn` (not this seat's turn)
        or :class:`IllegalAction` (against the rules now); the state is then unchanged.
        """
        if not isinstance(action, Action):
            raise MalformedAction("an action must be an Action value")
        seat, kind = action.seat, action.kind
        if not _is_int(seat) or not 0 <= seat < self.n:
            raise MalformedAction(f"there is no seat {seat!r} at this {self.n}-player hand")
        if kind not in KINDS:
            raise MalformedAction(
                f"{kind!r} is not a Baseball action: use fold, check, call, bet or raise"
            )
        amount: object = action.amount
        if amount is not None and (
            isinstance(amount, bool) or not isinstance(amount, int | Fraction) or amount < 0
        ):
            raise MalformedAction(f"an amount is a whole number of units, not {amount!r}")
        if action.cards or action.order:
            raise MalformedAction(f"{kind} takes no cards")
        if self.is_over:
            raise IllegalAction("the hand is over")
        if seat != self.to_act:
            raise OutOfTurn(f"it is seat {self.to_act}'s turn to act, not seat {seat}'s")
        legal = self.legal_actions(seat)
        match = next((la for la in legal if la.kind == kind), None)
        if match is None:
            raise IllegalAction(_why_not(kind, legal))
        if amount is not None and amount != match.amount:
            if kind in ("fold", "check"):
                raise IllegalAction(f"{kind} takes no amount")
            raise IllegalAction(f"the limit allows one size: {match.label}, not {amount}")
        if action.timeout:
            expected = "check" if legal[0].kind == "check" else "fold"
            if kind != expected:
                raise IllegalAction(f"a timeout {expected}s, it does not {kind}")
        events: list[BaseballEvent] = []
        if action.timeout:
            events.append(BaseballEvent("timeout", seat=seat))
            if seat not in self.breaks:
                self.breaks.add(seat)
                events.append(BaseballEvent("break", seat=seat))
        self._act(seat, match, events)
        self.log.append(
            Action(seat, kind, amount=None if amount is None else match.amount,
                   timeout=action.timeout)
        )
        note_acts(self.acts, events)
        return events

    def timeout(self) -> list[BaseballEvent]:
        """The decision clock ran out: check if possible, else fold; the seat goes on a break."""
        if self.is_over or self.to_act is None:
            raise IllegalAction("the hand is over: there is no clock to run out")
        seat = self.to_act
        kind = self.legal_actions(seat)[0].kind  # check, or fold when facing a bet
        return self.apply(Action(seat=seat, kind=kind, timeout=True))

    def _act(self, seat: int, la: LegalAction, ev: list[BaseballEvent]) -> None:
        kind = la.kind
        if kind == "fold":
            self._folded[seat] = True
            ev.append(BaseballEvent("fold", seat=seat))
        elif kind == "check":
            ev.append(BaseballEvent("check", seat=seat))
        else:
            self._contributed[seat] += la.adds
            self._bets[seat] += la.adds
            if kind == "call":
                ev.append(BaseballEvent("call", seat=seat, amount=la.adds))
            else:
                if kind == "raise":
                    self.raises += 1
                self.level = la.to
                self._acted = [False] * self.n
                ev.append(BaseballEvent(kind, seat=seat, amount=la.to))
        self._acted[seat] = True
        live = [s for s in self._order if not self._folded[s]]
        if len(live) == 1:
            self._settle_uncontested(live[0], ev)
            return
        self.to_act = self._next_from(seat)
        if self.to_act is not None:
            return
        if self.round == ROUNDS:
            self._showdown(ev)
        else:
            self._next_round(ev)

    def _next_from(self, seat: int) -> int | None:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if not self._folded[s] and (not self._acted[s] or self._bets[s] < self.level):
                return s
        return None

    # -- the end ------------------------------------------------------------------------------

    def _settle_uncontested(self, winner: int, ev: list[BaseballEvent]) -> None:
        pot = sum(self._contributed)
        payouts = [Fraction(0)] * self.n
        payouts[winner] = Fraction(pot)
        ev.append(BaseballEvent("win", seat=winner, amount=pot, pot=pot))
        self._finish(payouts, showdown=False, hands=(), ev=ev)

    def _showdown(self, ev: list[BaseballEvent]) -> None:
        pot = sum(self._contributed)
        live = [s for s in self._order if not self._folded[s]]
        hands = []
        for s in live:
            best = best_wild_hand(self.hand_of(s), WILD_RANKS)
            hands.append(ShownHand(s, self.hand_of(s), best))
            ev.append(BaseballEvent("show", seat=s, cards=self.hand_of(s)))
        top = max(h.best.value for h in hands)
        winners = [h.seat for h in hands if h.best.value == top]
        share = Fraction(pot, len(winners))
        payouts = [Fraction(0)] * self.n
        for s in winners:
            payouts[s] = share
            ev.append(BaseballEvent("win", seat=s, amount=share, pot=pot))
        self._finish(payouts, showdown=True, hands=tuple(hands), ev=ev)

    def _finish(
        self,
        payouts: list[Fraction],
        *,
        showdown: bool,
        hands: tuple[ShownHand, ...],
        ev: list[BaseballEvent],
    ) -> None:
        contributions = tuple(self._contributed)
        self.result = BaseballResult(
            showdown=showdown,
            pot=sum(contributions),
            contributions=contributions,
            payouts=tuple(payouts),
            net=tuple(p - c for p, c in zip(payouts, contributions, strict=True)),
            stacks=tuple(
                s - c + p
                for s, c, p in zip(self.start_stacks, contributions, payouts, strict=True)
            ),
            shown=tuple(sorted(h.seat for h in hands)),
            hands=hands,
        )
        self.phase = "over"
        self.to_act = None
        ev.append(BaseballEvent("hand_over"))

    # -- what a seat sees ---------------------------------------------------------------------

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as plain JSON-able data.

        Every up card (free and wild ones flagged), the seat's own down cards, every balance and
        bet, the round, its opener, whose turn it is, the seat's legal actions and, after the
        hand, the result with the hands shown. Never another seat's unshown down card, a folded
        hand's down cards, or the deck.
        """
        if seat is not None and (not _is_int(seat) or not 0 <= seat < self.n):
            raise MalformedAction(f"there is no seat {seat!r} at this {self.n}-player hand")
        result = self.result
        shown = set(result.shown) if result is not None else set()
        players = []
        hands = {h.seat: h for h in result.hands} if result is not None else {}
        for i in range(self.n):
            visible = i == seat or i in shown
            dealt = self._cards[i]
            stack = self.stacks[i]
            showing = None if self._folded[i] else self.showing(i)
            players.append(
                {
                    "seat": i,
                    "stack": units_json(stack),
                    "stack_display": units_display(stack),
                    "bet": 0 if result is not None else self._bets[i],
                    "contributed": self._contributed[i],
                    "folded": self._folded[i],
                    "act": None if result is not None else self.acts.get(i),
                    "in_hand": not self._folded[i],
                    "all_in": False,
                    "button": i == self.button,
                    "small_blind": False,
                    "big_blind": False,
                    "dealer": i == self.button,
                    "opener": i == self.opener and result is None,
                    "on_break": i in self.breaks,
                    "shown": i in shown,
                    "showing": None if showing is None else Category(showing[0]).label,
                    # What the open cards stand for ("a pair of aces" from A + a wild three).
                    "showing_ranks": None if showing is None else list(showing[1]),
                    # A hand turned over at the showdown, named as the other stud games name it.
                    "made": _made_json(hands[i].best) if i in hands and not self._folded[i] else None,
                    "cards": [str(d.card) for d in dealt] if visible else None,
                    "up": [d.to_json() for d in dealt if d.up],
                    "down": [str(d.card) if visible else None for d in dealt if not d.up],
                }
            )
        legal = [la.to_json() for la in self.legal_actions(seat)] if seat is not None else []
        view: dict[str, Any] = {
            "variant": "BB",
            "game": "Baseball",
            "family": "stud",
            "viewer": seat,
            "phase": self.phase,
            "round": self.round,
            "speed": self.setup.speed,
            "public": self.setup.public,
            "structure": "fixed-limit",
            "ante": ANTE,
            "bet_size": BET,
            "small_bet": BET,
            "big_bet": BET,
            "max_raises": MAX_RAISES,
            "raises": self.raises,
            "level": self.level,
            "wild_ranks": sorted(WILD_RANKS),
            "pot": self.pot,
            "button": self.button,
            "dealer": self.button,
            "opener": None if result is not None else self.opener,
            "actors": list(self.actors()),
            "to_act": self.to_act,
            "clock": self.clock(),
            "clock_seconds": self.clock_seconds(),
            "players": players,
            "you": None,
            "legal_actions": legal,
            "result": None if result is None else result.to_json(),
        }
        if seat is not None:
            best = self.best_hand(seat)
            view["you"] = {
                "seat": seat,
                "cards": [str(d.card) for d in self._cards[seat]],
                "up": [d.to_json() for d in self._cards[seat] if d.up],
                "down": [str(d.card) for d in self._cards[seat] if not d.up],
                "best": None if best is None else {**_made_json(best), "description": best.describe()},
                # The same, as the other games' views call it: what the player's cards make so far.
                "made": None if best is None or self._folded[seat] else _made_json(best),
                "legal_actions": legal,
            }
        return view

    # -- storage ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The hand's truth: its setup (with the deck) and its action log. Server-side only."""
        return {
            "variant": "BB",
            "version": 1,
            "setup": setup_to_json(self.setup),
            "log": [a.to_json() for a in self.log],
        }

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data (hidden cards included): for equality tests."""
        return {
            "setup": setup_to_json(self.setup),
            "phase": self.phase,
            "round": self.round,
            "cards": [
                [(str(d.card), d.up, d.extra, d.round) for d in cards] for cards in self._cards
            ],
            "stacks": [units_json(s) for s in self.stacks],
            "bets": list(self._bets),
            "contributed": list(self._contributed),
            "folded": list(self._folded),
            "acted": list(self._acted),
            "level": self.level,
            "raises": self.raises,
            "opener": self.opener,
            "to_act": self.to_act,
            "breaks": sorted(self.breaks),
            "log": [a.to_json() for a in self.log],
            "result": None if self.result is None else self.result.to_json(),
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseballState):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        stacks = ", ".join(units_display(s) for s in self.stacks)
        return f"<BaseballState {self.phase} pot={self.pot} stacks=[{stacks}]>"


def _why_not(kind: str, legal: list[LegalAction]) -> str:
    options = ", ".join(la.label.lower() for la in legal)
    kinds = {la.kind for la in legal}
    if kind == "fold":
        reason = "nobody has bet, so there is nothing to fold to: check instead"
    elif kind == "check":
        call = next((la for la in legal if la.kind == "call"), None)
        reason = f"there is a bet to call ({call.amount} more)" if call else "you cannot check now"
    elif kind == "call":
        reason = "there is nothing to call"
    elif kind == "bet":
        reason = "there is already a bet: call or raise instead"
    elif "call" in kinds:
        reason = f"the round already has its {MAX_RAISES} raises: call or fold"
    else:
        reason = "nobody has bet: bet instead"
    return f"{reason} (you may: {options})"


# -- the session ------------------------------------------------------------------------------

P = TypeVar("P", bound=Hashable)


def session_standings(nets: Mapping[P, Fraction | int]) -> list[tuple[int, P, Fraction]]:
    """Players ranked by net change, best first, as ``(place, player, net)``.

    Equal nets share a place and the next place counts everyone above it (1, 1, 3: "standard
    competition" ranking, as sports tables do); players with equal nets keep the mapping's order.

    >>> nets = {"ann": Fraction(5, 3), "bob": -3, "cy": Fraction(5, 3), "dee": 0}
    >>> [(place, player) for place, player, _ in session_standings(nets)]
    [(1, 'ann'), (1, 'cy'), (3, 'dee'), (4, 'bob')]
    """
    ordered = sorted(((p, Fraction(x)) for p, x in nets.items()), key=lambda px: -px[1])
    out: list[tuple[int, P, Fraction]] = []
    for k, (player, net) in enumerate(ordered):
        place = out[-1][0] if out and out[-1][2] == net else k + 1
        out.append((place, player, net))
    return out


@dataclass(frozen=True)  # no slots: a slotted frozen generic cannot be built as Session[str]()
class BaseballSession(Generic[P]):
    """A session of :data:`SESSION_POTS` (8) completed pots and each player's net change so far.

    A frozen value: :meth:`record` returns the next one. Every finished hand is a completed pot
    (it always has a winner); a hand that is not over cannot be recorded, nor a ninth pot.

    >>> s = BaseballSession[str]()
    >>> for _ in range(8):
    ...     s = s.record({"ann": Fraction(2, 3), "bob": Fraction(-2, 3)})
    >>> s.is_over, s.pots, units_display(s.net_of("ann")), s.standings()[0][:2]
    (True, 8, '5 1/3', (1, 'ann'))
    """

    POTS: ClassVar[int] = SESSION_POTS
    pots: int = 0
    nets: tuple[tuple[P, Fraction], ...] = ()

    @property
    def is_over(self) -> bool:
        return self.pots >= self.POTS

    @property
    def pots_left(self) -> int:
        return max(self.POTS - self.pots, 0)

    def net_of(self, player: P) -> Fraction:
        """The player's net change so far (0 for a player not yet in a recorded pot)."""
        return next((net for p, net in self.nets if p == player), Fraction(0))

    def record(self, nets: Mapping[P, Fraction | int]) -> BaseballSession[P]:
        """The session after one more completed pot with these nets (by player)."""
        if self.is_over:
            raise RulesError(f"the session is over: {self.POTS} pots have been played")
        totals = dict(self.nets)
        for player, net in nets.items():
            totals[player] = totals.get(player, Fraction(0)) + Fraction(net)
        return BaseballSession(self.pots + 1, tuple(totals.items()))

    def record_hand(self, state: BaseballState, players: Sequence[P]) -> BaseballSession[P]:
        """Record a finished hand; ``players[seat]`` names who sat in each seat."""
        result = state.result
        if result is None:
            raise RulesError("only a finished hand is a completed pot")
        if len(players) != state.n:
            raise RulesError(f"the hand had {state.n} seats, {len(players)} players were named")
        return self.record(dict(zip(players, result.net, strict=True)))

    def standings(self) -> list[tuple[int, P, Fraction]]:
        """The ranking by net change so far (see :func:`session_standings`)."""
        return session_standings(dict(self.nets))



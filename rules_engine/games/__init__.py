"""The games, found by code, and the values every game shares.

>>> get_variant("PP").name
'Patch-Patch'

Values are frozen dataclasses: :class:`HandSetup` (what a hand starts from), :class:`Action`
(what a seat does, as the server hands it to the engine), :class:`LegalAction` (one option with
its exact amount, for the bet panel), :class:`Event` (what happened, public information only) and
the result types (:class:`HandResult`, :class:`PotResult`, :class:`BoardResult`,
:class:`BoardWin`). Chips are ``int``; board and seat numbers are 0-based.

Variants register here by code and are imported on first use, so a game module may import this
one without a cycle.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

from rules_engine.cards import Card, CardParseError, parse_cards
from rules_engine.errors import MalformedAction, SetupError

if TYPE_CHECKING:
    from rules_engine.games.patchpatch import PatchPatch

SPEEDS = ("slow", "medium", "fast")

# code -> "module:Class"; imported lazily by get_variant.
_REGISTRY: dict[str, str] = {
    "PP": "rules_engine.games.patchpatch:PatchPatch",
    "BB": "rules_engine.games.baseball:Baseball",
    # Hold'em and Omaha (rules_engine.games.flop). The codes are PHH's (uoftcprg/phh-std) where
    # the standard has the game, ours (docs/hand-histories.md) where it does not.
    "NT": "rules_engine.games.flop:NoLimitHoldem",
    "PT": "rules_engine.games.flop:PotLimitHoldem",  # ours
    "FT": "rules_engine.games.flop:FixedLimitHoldem",
    "PO": "rules_engine.games.flop:PotLimitOmaha",
    "FO": "rules_engine.games.flop:FixedLimitOmaha",  # ours
    "FO/8": "rules_engine.games.flop:FixedLimitOmahaHiLo",
    "PO/8": "rules_engine.games.flop:PotLimitOmahaHiLo",  # ours
    # Stud (rules_engine.games.stud)
    "F7S": "rules_engine.games.stud:SevenCardStud",
    "F7S/8": "rules_engine.games.stud:SevenCardStudHiLo",
    "FR": "rules_engine.games.stud:Razz",
    "F5S": "rules_engine.games.stud:FiveCardStud",  # ours
    # Five-card draw (rules_engine.games.draw)
    "F5D": "rules_engine.games.draw:FixedLimitFiveCardDraw",  # ours
    "P5D": "rules_engine.games.draw:PotLimitFiveCardDraw",  # ours
}


@overload
def get_variant(code: Literal["PP"]) -> type[PatchPatch]: ...
@overload
def get_variant(code: str) -> type[Any]: ...
def get_variant(code: str) -> type[Any]:
    """The game class registered under ``code`` ("PP" for Patch-Patch, "NT" for no-limit
    Hold'em, ...: see :func:`variant_codes`).

    Raises :class:`SetupError` for an unknown code.
    """
    target = _REGISTRY.get(code)
    if target is None:
        known = ", ".join(sorted(_REGISTRY))
        raise SetupError(f"unknown game {code!r}: the engine knows {known}")
    module_name, _, cls_name = target.partition(":")
    cls: type[Any] = getattr(importlib.import_module(module_name), cls_name)
    return cls


def variant_codes() -> tuple[str, ...]:
    """Every registered game code."""
    return tuple(sorted(_REGISTRY))


_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in (Card.from_index(i) for i in range(52))}


def _cards_json(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _read_cards(value: object, what: str) -> tuple[Card, ...]:
    if type(value) is list:
        # Saved hands write each card as ``str(card)`` (``_cards_json``): one lookup a card. Any
        # other spelling, and anything that is not a card, goes the long way below.
        try:
            cards = tuple(map(_CARD_BY_TEXT.get, value))
        except TypeError:  # an unhashable entry
            cards = (None,)
        if None not in cards:
            return cards  # type: ignore[return-value]
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise MalformedAction(f"{what} must be a list of cards such as ['Ah', 'Td']")
    try:
        return tuple(Card.parse(v) for v in value)
    except CardParseError as exc:
        raise MalformedAction(f"{what}: {exc}") from None


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything a hand starts from.

    ``stacks`` are in table seat order, clockwise; seats are numbered ``0..n-1`` in that order.
    ``deck`` is an explicit deck order (top card first) or ``None`` to shuffle with the ``rng``
    given to the game's ``start``. ``speed`` is ``slow``, ``medium`` or ``fast`` (the engine only
    reports it: clocks live in the server). Rake needs ``public`` and a big blind of 20 or more.
    With ``check_buy_in`` every stack must be a buy-in the game allows.

    The other games add a few optional fields, all 0 (or ``None``) by default so that a
    Patch-Patch setup is unchanged; each game's ``setup_for_table`` fills them from the table's
    two blinds:

    * ``ante``: a dead ante every seat posts before the deal (stud; Hold'em histories may have one);
    * ``bring_in``: the stud bring-in; ``small_bet``/``big_bet``: the fixed-limit bet sizes;
    * ``reshuffle``: five-card draw only, a second card order that ranks the discards when the
      stub runs out and they are shuffled into a new stub (see ``rules_engine.games.draw``);
    * ``posts``: blind games only (Hold'em, Omaha, five-card draw), seats that post a big blind
      out of turn to be dealt in at once (a player who joined a running table, GAMES.md section
      3). The post is live: it counts as the seat's bet pre-flop, and when the action comes back
      to it the seat may check, raise or fold like the big blind. Never the small or big blind's
      own seat;
    * ``dead``: blind games only, seats that post a dead small blind, owed for one missed
      during a break (card-room rule): it goes into the pot and is no part of the seat's bet.
      Never the small or big blind's own seat.
    * ``straddle``: no-limit and pot-limit Hold'em and Omaha only, chips (twice the big blind,
      or 0 for none) posted live by the seat left of the big blind before the cards are dealt,
      three players or more. That seat then acts last before the flop, with the big blind's
      option, and the smallest raise is to twice the straddle (rules_engine.games.flop).
    * ``run_twice``: Hold'em and Omaha only, the seats that agree to run the board twice. When
      the betting ends for good before the river and every seat still in the hand is among them,
      the cards still to come are dealt twice and each pot is split between the two boards
      (rules_engine.games.flop).
    * ``bomb``: Hold'em and Omaha only, chips (0 for none): a bomb pot. Every seat puts this in
      the pot (dead, like an ante; a shorter stack all it has), nobody posts a blind or a
      straddle, and the flop comes at once: the first betting round is the flop's.
    * ``seven_deuce``: Hold'em only, chips (0 for none): the seven-deuce bounty. A seat holding a
      seven and a deuce that takes every pot it played for whole (both runs when run twice) is
      paid this by every other seat dealt in (a shorter stack all it has left), and its cards are
      shown, a fold to it or not (rules_engine.games.classic).
    """

    stacks: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int
    speed: str = "medium"
    public: bool = False
    deck: tuple[Card, ...] | None = None
    check_buy_in: bool = False
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    reshuffle: tuple[Card, ...] | None = None
    posts: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    straddle: int = 0
    run_twice: tuple[int, ...] = ()
    bomb: int = 0
    seven_deuce: int = 0

    def __post_init__(self) -> None:
        # Accept lists from callers; store tuples so the value stays hashable and frozen.
        if not isinstance(self.stacks, tuple):
            object.__setattr__(self, "stacks", tuple(self.stacks))
        if self.deck is not None and not isinstance(self.deck, tuple):
            object.__setattr__(self, "deck", tuple(self.deck))
        if self.reshuffle is not None and not isinstance(self.reshuffle, tuple):
            object.__setattr__(self, "reshuffle", tuple(self.reshuffle))
        if not isinstance(self.posts, tuple):
            object.__setattr__(self, "posts", tuple(self.posts))
        if not isinstance(self.dead, tuple):
            object.__setattr__(self, "dead", tuple(self.dead))
        if not isinstance(self.run_twice, tuple):
            object.__setattr__(self, "run_twice", tuple(self.run_twice))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stacks": list(self.stacks),
            "button": self.button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "speed": self.speed,
            "public": self.public,
            "deck": None if self.deck is None else _cards_json(self.deck),
            "check_buy_in": self.check_buy_in,
        }
        # The optional fields only when set, so a Patch-Patch setup reads as it always did.
        for name in ("ante", "bring_in", "small_bet", "big_bet", "straddle", "bomb", "seven_deuce"):
            value = getattr(self, name)
            if value:
                out[name] = value
        if self.reshuffle is not None:
            out["reshuffle"] = _cards_json(self.reshuffle)
        if self.posts:
            out["posts"] = list(self.posts)
        if self.dead:
            out["dead"] = list(self.dead)
        if self.run_twice:
            out["run_twice"] = list(self.run_twice)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandSetup:
        try:
            deck = data.get("deck")
            reshuffle = data.get("reshuffle")
            return cls(
                stacks=tuple(data["stacks"]),
                button=data["button"],
                small_blind=data["small_blind"],
                big_blind=data["big_blind"],
                speed=data.get("speed", "medium"),
                public=bool(data.get("public", False)),
                deck=None if deck is None else _read_cards(deck, "deck"),
                check_buy_in=bool(data.get("check_buy_in", False)),
                ante=data.get("ante", 0),
                bring_in=data.get("bring_in", 0),
                small_bet=data.get("small_bet", 0),
                big_bet=data.get("big_bet", 0),
                reshuffle=None if reshuffle is None else _read_cards(reshuffle, "reshuffle"),
                posts=tuple(data.get("posts") or ()),
                dead=tuple(data.get("dead") or ()),
                straddle=data.get("straddle", 0),
                run_twice=tuple(data.get("run_twice") or ()),
                bomb=data.get("bomb", 0),
                seven_deuce=data.get("seven_deuce", 0),
            )
        except (KeyError, TypeError) as exc:
            raise SetupError(f"a hand setup needs stacks, button and blinds ({exc})") from None


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat does.

    Betting: ``fold``, ``check``, ``call``, ``bet_pot``, ``raise_pot``, ``all_in`` (``amount`` is
    optional; when given it must equal the amount :class:`LegalAction` shows). Arranging:
    ``swap`` with ``cards=(a, b)``, ``arrange`` with ``order`` (all of the seat's cards) and
    ``done``. ``timeout=True`` marks an action the server applied when a clock ran out.

    The other games (Hold'em, Omaha, stud, draw) bet with ``fold``, ``check``, ``call``,
    ``bet``, ``raise``, ``complete``, ``bring_in`` and ``all_in``: for ``bet``, ``raise``,
    ``complete`` and ``all_in`` the amount is the raise-to total (the seat's whole bet in the
    round), anywhere from the option's ``min_amount`` to its ``max_amount`` in no-limit and
    pot-limit; left out, it is the minimum. Five-card draw adds ``draw`` with ``cards`` = the
    cards discarded (none: stand pat).
    """

    seat: int
    kind: str
    amount: int | None = None
    cards: tuple[Card, ...] = ()
    order: tuple[Card, ...] = ()
    timeout: bool = False

    @classmethod
    def swap(cls, seat: int, a: Card, b: Card) -> Action:
        return cls(seat=seat, kind="swap", cards=(a, b))

    @classmethod
    def arrange(cls, seat: int, order: tuple[Card, ...]) -> Action:
        return cls(seat=seat, kind="arrange", order=tuple(order))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.amount is not None:
            out["amount"] = self.amount
        if self.cards:
            out["cards"] = _cards_json(self.cards)
        if self.order:
            out["order"] = _cards_json(self.order)
        if self.timeout:
            out["timeout"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping) or "seat" not in data or "kind" not in data:
            raise MalformedAction("an action needs a seat and a kind")
        seat, kind, amount = data["seat"], data["kind"], data.get("amount")
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(kind, str):
            raise MalformedAction("an action's seat is a number and its kind a word")
        if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
            raise MalformedAction("an amount is a whole number of chips")
        return cls(
            seat=seat,
            kind=kind,
            amount=amount,
            cards=_read_cards(data.get("cards", []), "cards"),
            order=_read_cards(data.get("order", []), "order"),
            timeout=bool(data.get("timeout", False)),
        )

    def __str__(self) -> str:
        parts = [f"seat {self.seat}", self.kind]
        if self.amount is not None:
            parts.append(str(self.amount))
        if self.cards:
            parts.append(" ".join(map(str, self.cards)))
        if self.order:
            parts.append(" ".join(map(str, self.order)))
        if self.timeout:
            parts.append("(timeout)")
        return " ".join(parts)


_LABELS = {
    "fold": "Fold",
    "check": "Check",
    "call": "Call {amount}",
    "bet_pot": "Bet pot {amount}",
    "raise_pot": "Raise to {amount}",
    "all_in": "All-in {amount}",
    "swap": "Swap",
    "arrange": "Arrange",
    "done": "Done",
    "bet": "Bet {amount}",
    "raise": "Raise to {amount}",
    "complete": "Complete to {amount}",
    "bring_in": "Bring in {amount}",
    "draw": "Draw",
}


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One option, exactly as the bet panel shows it.

    ``amount`` is the number on the button: chips to call for ``call``; the bet for ``bet_pot``;
    the raise-to total for ``raise_pot`` and ``all_in``; 0 for the rest. ``adds`` is the chips
    the action takes from the stack, ``to`` the seat's bet in the round afterwards, ``all_in``
    whether it empties the stack.

    In the other games ``bet``, ``raise``, ``complete``, ``bring_in`` and ``all_in`` show the
    smallest raise-to total as ``amount`` (the chips for ``bring_in``); ``min_amount`` and
    ``max_amount`` bound the raise-to total a seat may send (equal in fixed limit, where a
    five-card-stud open pair may list ``bet`` twice, once per size). ``draw`` has ``max_amount``
    = the most cards a seat may discard. Both stay ``None`` for Patch-Patch.
    """

    kind: str
    amount: int = 0
    to: int = 0
    adds: int = 0
    all_in: bool = False
    min_amount: int | None = None
    max_amount: int | None = None

    @property
    def label(self) -> str:
        """English button text, e.g. ``Raise to 240`` (the site translates from ``kind``)."""
        return _LABELS[self.kind].format(amount=self.amount)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "amount": self.amount,
            "to": self.to,
            "adds": self.adds,
            "all_in": self.all_in,
            "label": self.label,
        }
        if self.min_amount is not None:
            out["min_amount"] = self.min_amount
        if self.max_amount is not None:
            out["max_amount"] = self.max_amount
        return out


#: Events that are a seat's act in a betting round (what a table shows on the seat until the round
#: ends), and the events that open a new round and clear them.
ACT_EVENTS = frozenset({"check", "call", "bet", "raise", "all_in", "complete", "bring_in"})
ROUND_EVENTS = frozenset({"street", "arrange", "draw_round"})


def note_acts(acts: dict[int, str], events: Iterable[Any]) -> None:
    """Keep each seat's last act of the betting round under way (``view_for``'s ``act``), from
    the events one step made: a new round (or the arrangement, or the draw) clears them."""
    for ev in events:
        if ev.kind in ROUND_EVENTS:
            acts.clear()
        elif ev.kind in ACT_EVENTS and ev.seat is not None:
            acts[ev.seat] = ev.kind


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. Events carry public information only (board cards, cards shown
    at showdown), so a server may broadcast them; a seat's own cards are in its view.

    Kinds: ``blind``, ``deal`` (a seat got its cards), ``fold``, ``check``, ``call``, ``bet``,
    ``raise``, ``all_in``, ``return`` (uncalled chips back), ``flop``/``turn``/``river`` (one per
    board, ``board`` set), ``arrange`` (arrangement starts), ``swap``, ``done``, ``timeout``,
    ``break``, ``street`` (a betting round starts, ``cards`` empty), ``show``, ``rake``, ``win``
    (``board`` set when it is a board's share, ``amount`` chips), ``scoop``, ``bounty`` (Hold'em's
    seven-deuce bounty: ``seat`` took ``amount`` from the others, after a ``show`` of its cards),
    ``hand_over``.

    The classic games add ``ante``, ``bring_in``, ``complete`` (``amount``: the raise-to total,
    as for ``bet``/``raise``/``all_in``), ``deal`` with ``amount`` = how many cards and, in stud,
    ``cards`` = the ones dealt face up (down cards never travel in events), ``board`` (a stud
    community card), ``draw_round`` (the draw starts), ``draw`` (``amount``: how many cards the
    seat threw away and drew) and ``reshuffle`` (the discards became the new stub). Their
    ``flop``/``turn``/``river`` have ``board`` unset (there is one board).
    """

    kind: str
    seat: int | None = None
    amount: int = 0
    cards: tuple[Card, ...] = ()
    board: int | None = None
    pot: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.amount:
            out["amount"] = self.amount
        if self.cards:
            out["cards"] = _cards_json(self.cards)
        if self.board is not None:
            out["board"] = self.board
        if self.pot is not None:
            out["pot"] = self.pot
        return out


@dataclass(frozen=True, slots=True)
class BoardWin:
    """A seat's part of one board's share of one pot, with the five cards that won it."""

    seat: int
    amount: int
    cards: tuple[Card, ...]
    category: str
    description: str

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "amount": self.amount,
            "cards": _cards_json(self.cards),
            "category": self.category,
            "description": self.description,
        }


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board's share of one pot and who took it (several winners: a split).

    In the games with one board (Hold'em, Omaha, stud, draw) ``board`` is 0 and ``half`` says
    which part of the pot this is: ``"high"`` or ``"low"`` (hi-lo games have one of each when
    a low qualifies; Razz has only ``"low"``). It stays ``None`` for Patch-Patch.
    """

    board: int
    share: int
    winners: tuple[BoardWin, ...]
    half: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "board": self.board,
            "share": self.share,
            "winners": [w.to_json() for w in self.winners],
        }
        if self.half is not None:
            out["half"] = self.half
        return out


@dataclass(frozen=True, slots=True)
class PotResult:
    """A main or side pot: its chips, rake, who could win it and how it was shared.

    ``boards`` is empty when the pot was won without a showdown (everyone else folded).
    ``scoop`` is the seat that won every board of this pot alone, if any.
    """

    index: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    boards: tuple[BoardResult, ...]
    payouts: tuple[int, ...]
    scoop: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "amount": self.amount,
            "rake": self.rake,
            "eligible": list(self.eligible),
            "boards": [b.to_json() for b in self.boards],
            "payouts": list(self.payouts),
            "scoop": self.scoop,
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand paid out. Every tuple is indexed by seat.

    ``contributions`` are the chips each seat left in the pots (uncalled bets already returned,
    see ``returned``); ``payouts`` what each collected from them; ``payouts`` plus ``rake`` equal
    ``contributions`` in total. ``bounty`` is empty, or (Hold'em with a seven-deuce bounty that
    was won) what each seat got (+) or paid (-) outside the pots, adding up to 0.
    ``net = payouts - contributions + bounty``; ``stacks`` are the stacks after the hand.
    ``scoop`` is the seat that won every board of every pot it played for, alone. ``shown`` are
    the seats whose hands were revealed (empty without a showdown, unless a bounty was won).
    """

    showdown: bool
    pots: tuple[PotResult, ...]
    contributions: tuple[int, ...]
    returned: tuple[int, ...]
    payouts: tuple[int, ...]
    net: tuple[int, ...]
    rake: int
    stacks: tuple[int, ...]
    scoop: int | None
    shown: tuple[int, ...] = field(default=())
    bounty: tuple[int, ...] = field(default=())

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that collected chips from a pot."""
        return tuple(i for i, p in enumerate(self.payouts) if p > 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "showdown": self.showdown,
            "pots": [p.to_json() for p in self.pots],
            "contributions": list(self.contributions),
            "returned": list(self.returned),
            "payouts": list(self.payouts),
            "net": list(self.net),
            "rake": self.rake,
            "stacks": list(self.stacks),
            "scoop": self.scoop,
            "shown": list(self.shown),
            "winners": list(self.winners),
            **({"bounty": list(self.bounty)} if self.bounty else {}),
        }


def parse_card_list(text: str) -> tuple[Card, ...]:
    """Cards for an action, read like :func:`parse_cards` but raising :class:`MalformedAction`."""
    try:
        return parse_cards(text)
    except CardParseError as exc:
        raise MalformedAction(str(exc)) from None

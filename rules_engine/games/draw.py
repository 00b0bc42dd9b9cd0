"""Five-card draw, fixed limit (``F5D``) or pot limit (``P5D``): GAMES.md section 3.

A hand: blinds, five cards down to each of up to eight players, a betting round (the seat left of
the big blind first: each in turn calls, raises or folds; the big blind may check its option),
then every seat still in discards none to five cards and is dealt as many, in turn from the seat
left of the button, then a second betting round (checks and check-raises allowed) opened by the
first seat still in left of the button, and the showdown: the best five-card hand wins.

Decisions where the rulebook is silent (see also :mod:`rules_engine.games.classic`):

* Codes: phh-std has no five-card draw for the high hand, so ``F5D`` (fixed limit) and ``P5D``
  (pot limit) are ours (``docs/hand-histories.md``).
* Phases: ``predraw`` (betting), ``draw`` (one seat at a time: ``state.actors()`` is the seat
  drawing), ``postdraw`` (betting), ``over``.
* From a table's two blinds: fixed limit bets the big blind before the draw and twice it after;
  pot limit has the big blind as its minimum bet.
* The draw: ``Action(seat, "draw", cards=(...))`` names the cards thrown away (none: stand pat).
  A seat all-in still draws. How many cards each seat drew is public (``players[i]["drawn"]``);
  which cards is not. A draw timeout stands pat (and the seat goes on a break).
* No burn cards. When the stub runs out in the middle of a seat's draw, the seat first gets what
  is left of the stub, then the discards so far (the earlier drawers' discards and the folded
  hands, never the cards the seat itself just threw away) are shuffled into a new stub, as card
  rooms do. The engine reads no random source mid-hand: the shuffle orders those cards by their
  place in ``setup.reshuffle``, a second random card order drawn with the deck at the start
  (sorting a set by an independent random permutation is a uniform shuffle of it). A setup with
  an explicit deck and no reshuffle order uses the natural card order (the live tables always
  give one: ``rules_engine.fairness.reshuffle_order``, fixed by the committed deck and salts,
  so it is as secret and as committed as the deck). Eight players drawing
  five each can never run out: at most 40 cards are held and at most 5 set aside.
* Up to 8 players (seed 003).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from rules_engine.cards import FULL_DECK, Card, Deck
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, SetupError
from rules_engine.evaluation import HandValue, evaluate5, hand_value_int
from rules_engine.games import Action, Event, HandSetup, LegalAction
from rules_engine.games.classic import ClassicGame, ClassicState, _replace, cards_json, fill_deck
from rules_engine.pots import clockwise_from_button

__all__ = ["DrawGame", "DrawState", "FixedLimitFiveCardDraw", "PotLimitFiveCardDraw"]

HAND = 5


class DrawState(ClassicState):
    """One five-card draw hand."""

    PHASES: ClassVar[tuple[str, ...]] = ("predraw", "draw", "postdraw")
    game: type[DrawGame]

    def _begin(self) -> list[Event]:
        ev: list[Event] = []
        n = self.n
        if n == 2:
            sb, bb = self.button, (self.button + 1) % n
        else:
            sb, bb = (self.button + 1) % n, (self.button + 2) % n
        self.small_blind_seat, self.big_blind_seat = sb, bb
        self.drawn: list[int | None] = [None] * n
        self.discards: list[tuple[Card, ...]] = [() for _ in range(n)]
        self._drawers: list[int] = []
        self._draw_index = 0
        self._muck: list[Card] = []
        self.reshuffles = 0
        # Cards dealt out of the reshuffled discards. Each one's place in the deck is where
        # another seat was first dealt it, so a hand history must never open that place: it would
        # tell which seat threw the card away (tables.selectors.hand_history_text, fairness).
        self.recycled: list[Card] = []
        order = self._order
        for r in range(HAND):
            for j, seat in enumerate(order):
                self.hole[seat].append(self._deck[r * n + j])
        self._pos = HAND * n
        self._stub: list[Card] = list(self._deck[self._pos :])
        reshuffle = self.setup.reshuffle or FULL_DECK
        self._rank = {c: k for k, c in enumerate(reshuffle)}
        for seat in order:
            ev.append(Event("deal", seat=seat, amount=HAND))
        self._post_antes(ev)
        bet = self._bet
        for seat, amount in ((sb, self.setup.small_blind), (bb, self.setup.big_blind)):
            paid = bet.post(seat, amount)
            ev.append(Event("blind", seat=seat, amount=paid))
        self._post_big_blinds(ev)
        self._open_round((bb + 1) % n, ev, preflop=True)
        self._start_over(ev)
        return ev

    # -- the draw -----------------------------------------------------------------------------

    def _decisions_remain(self) -> bool:
        return self.round == 0

    def _advance(self, ev: list[Event]) -> None:
        if self.round == 0:
            self.round = 1
            self.phase = "draw"
            self._drawers = [s for s in self._order if not self._bet.folded[s]]
            self._draw_index = 0
            ev.append(Event("draw_round"))
            return
        self._showdown(ev)

    def _waiting_for_draw(self) -> bool:
        return self.phase == "draw"

    def _drawer(self) -> int | None:
        if self.phase != "draw":
            return None
        return self._drawers[self._draw_index]

    def _draw_legal(self, seat: int) -> list[LegalAction]:
        return [LegalAction("draw", 0, 0, 0, False, 0, HAND)]

    def _draw(self, action: Action) -> list[Event]:
        seat = action.seat
        drawer = self._drawer()
        if drawer is None:
            raise IllegalAction("the draw comes after the first betting round")
        if seat != drawer:
            raise OutOfTurn(f"it is seat {drawer}'s turn to draw, not seat {seat}'s")
        if action.amount is not None:
            raise MalformedAction("a draw names the cards thrown away, not an amount")
        discards = action.cards
        if not all(isinstance(c, Card) for c in discards):
            raise MalformedAction("a draw names cards")
        if len(set(discards)) != len(discards):
            raise MalformedAction("a draw names each card thrown away once")
        if len(discards) > HAND:
            raise IllegalAction(f"a seat throws away at most {HAND} cards")
        hand = self.hole[seat]
        for c in discards:
            if c not in hand:
                raise IllegalAction(f"seat {seat} does not hold {c}")
        if action.timeout and discards:
            raise IllegalAction("a draw timeout stands pat")
        ev: list[Event] = []
        if action.timeout:
            self._break(seat, ev)
        kept = [c for c in hand if c not in discards]
        new = self._replacements(len(discards), ev)
        self.hole[seat] = kept + new
        self._muck.extend(discards)
        self.discards[seat] = tuple(discards)
        self.drawn[seat] = len(discards)
        ev.append(Event("draw", seat=seat, amount=len(discards)))
        self._draw_index += 1
        if self._draw_index == len(self._drawers):
            self.phase = "postdraw"
            if not self._open_round((self.button + 1) % self.n, ev):
                self._showdown(ev)
        return ev

    def _replacements(self, k: int, ev: list[Event]) -> list[Card]:
        out: list[Card] = []
        while len(out) < k:
            if not self._stub:
                if not self._muck:  # pragma: no cover - impossible with at most 8 seats
                    raise SetupError("no cards are left to draw")
                self._stub = sorted(self._muck, key=self._rank.__getitem__)
                self._muck = []
                self.reshuffles += 1
                ev.append(Event("reshuffle", amount=len(self._stub)))
            card = self._stub.pop(0)
            if self.reshuffles:
                self.recycled.append(card)
            out.append(card)
        return out

    def _wager(self, action: Action) -> list[Event]:
        events = super()._wager(action)
        if action.kind == "fold":
            self._muck.extend(self.hole[action.seat])
        return events

    # -- values -------------------------------------------------------------------------------

    def _high_value(self, seat: int) -> int:
        return hand_value_int(self.hole[seat])

    def _high_hand(self, seat: int) -> HandValue:
        return evaluate5(self.hole[seat])

    def made_hand(self, seat: int) -> dict[str, Any] | None:
        high = evaluate5(self.hole[seat])
        return {
            "category": high.category.label,
            "description": high.describe(),
            "cards": cards_json(high.cards),
        }

    # -- views --------------------------------------------------------------------------------

    def _player_view(self, i: int, visible: bool) -> dict[str, Any]:
        return {"drawn": self.drawn[i]}

    def _table_view(self) -> dict[str, Any]:
        return {"drawing": self._drawer(), "reshuffles": self.reshuffles}

    def _snapshot_extra(self) -> dict[str, Any]:
        return {
            "drawn": list(self.drawn),
            "stub": [str(c) for c in self._stub],
            "muck": sorted(str(c) for c in self._muck),
            "draw_index": self._draw_index,
        }


class DrawGame(ClassicGame):
    """Five-card draw: what both structures share."""

    FAMILY: ClassVar[str] = "draw"
    MAX_PLAYERS: ClassVar[int] = 8
    state_class: ClassVar[type[ClassicState]] = DrawState

    @classmethod
    def big_bet_from(cls) -> int:
        return 1  # fixed limit: the big bet after the draw

    @classmethod
    def validate_extra(cls, setup: HandSetup) -> None:
        if setup.deck is not None and len(setup.deck) != 52:
            raise SetupError(f"five-card draw deals from a full deck of 52 cards, not {len(setup.deck)}")
        if setup.reshuffle is not None and set(setup.reshuffle) != set(FULL_DECK):
            raise SetupError("the reshuffle order lists each of the 52 cards once")

    @classmethod
    def complete_setup(cls, setup: HandSetup, rng: random.Random | None) -> HandSetup:
        """Shuffle the deck and, for the discards, a second order (unless the setup has one)."""
        if setup.deck is not None:
            return setup
        deck = Deck.shuffled(rng).order
        return _replace(setup, deck=deck, reshuffle=Deck.shuffled(rng).order)

    @classmethod
    def stacked_deck(
        cls, hands: Sequence[Sequence[Card | None] | None], button: int, draws: Sequence[Card] = ()
    ) -> tuple[Card, ...]:
        """A 52-card deck order that deals ``hands`` (by seat) and then ``draws`` as the first
        replacement cards; ``None`` stands for any card.

        >>> from rules_engine.cards import parse_cards, format_cards
        >>> deck = FixedLimitFiveCardDraw.stacked_deck([parse_cards("Ah Kh Qh Jh Th"), None], 0)
        >>> format_cards(deck[1:10:2])   # heads-up the big blind (seat 1) is dealt first
        'Ah Kh Qh Jh Th'
        """
        n = len(hands)
        order = clockwise_from_button(button, n)
        slots: list[Card | None] = [None] * (HAND * n) + list(draws)
        for r in range(HAND):
            for j, seat in enumerate(order):
                hand = hands[seat]
                if hand is not None and r < len(hand):
                    slots[r * n + j] = hand[r]
        return fill_deck(slots)


class FixedLimitFiveCardDraw(DrawGame):
    """Five-card draw, fixed limit (``F5D``, our code)."""

    code: ClassVar[str] = "F5D"
    name: ClassVar[str] = "Limit Five-card Draw"
    STRUCTURE: ClassVar[str] = "fixed-limit"


class PotLimitFiveCardDraw(DrawGame):
    """Five-card draw, pot limit (``P5D``, our code)."""

    code: ClassVar[str] = "P5D"
    name: ClassVar[str] = "Pot-limit Five-card Draw"
    STRUCTURE: ClassVar[str] = "pot-limit"

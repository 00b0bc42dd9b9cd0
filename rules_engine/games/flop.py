"""Hold'em and Omaha: two or four hole cards, one board, blinds (GAMES.md section 3).

Games (PHH variant codes; ours where phh-std has none, see ``docs/hand-histories.md``):

====== =================================== ==========================
code   game                                structure
====== =================================== ==========================
NT     No-limit Texas Hold'em              no limit
PT     Pot-limit Texas Hold'em (ours)      pot limit
FT     Fixed-limit Texas Hold'em           small bet, big bet
PO     Pot-limit Omaha                     pot limit
FO     Fixed-limit Omaha (ours)            small bet, big bet
FO/8   Fixed-limit Omaha Hi-Lo 8 or better small bet, big bet
PO/8   Pot-limit Omaha Hi-Lo 8 or better   pot limit (ours)
====== =================================== ==========================

A hand: the small blind (left of the button; heads-up the button) and the big blind post, two
(Hold'em) or four (Omaha) cards each, pre-flop betting from the seat left of the big blind
(heads-up the button), then burn and flop, burn and turn, burn and river, each followed by a
betting round opened by the first seat still in left of the button, and the showdown. Hold'em
plays the best five of seven; Omaha exactly two hole cards and three board cards; Omaha Hi-Lo
splits each pot between the best high and the best eight-or-better low (each made 2 + 3, with
any two hole cards), the odd chip to the high half, the high taking all without a low.

Decisions where the rulebook is silent (see also :mod:`rules_engine.games.classic`):

* Phases: ``preflop``, ``flop``, ``turn``, ``river``, ``over``; the showdown happens inside the
  action that ends the river betting (or the run-out).
* Deck use: hole cards one at a time clockwise from the seat left of the button (the big blind
  heads-up), then a burn card before the flop, the turn and the river (seed 003), so a hand
  uses ``2n + 8`` (Omaha ``4n + 8``) cards. :meth:`FlopGame.stacked_deck` builds a deck order.
* From a table's two blinds (:meth:`ClassicGame.setup_for_table`): no-limit and pot-limit use
  the big blind as the minimum bet; fixed limit bets the big blind (small bet) on the first two
  rounds and twice it (big bet) on the turn and river, as seed 003 sets the blinds to half the
  small bet and the small bet. No ante (a hand history may bring one: it is dead money).
* Pre-flop the big blind has the option: when everyone has called it may check (the round
  ends) or raise. Check-raising is allowed on every street.
* Up to 10 players (Omaha uses at most 48 cards with ten).
* A straddle (``HandSetup.straddle``, no-limit and pot-limit only, three players or more): the
  seat left of the big blind posts twice the big blind, live, before the cards. Pre-flop the
  seat after it acts first and the straddler last, with the option when everyone has called; the
  straddle counts as a raise of its own size, so the smallest raise is to twice the straddle (the
  card-room practice; PokerKit allows a raise by the big blind's size, a smaller one). After the
  flop the smallest bet is the big blind again.
* Running it twice (``HandSetup.run_twice``: the seats that agree, from each player's standing
  choice at a table that allows it). When the betting ends for good before the river with two
  or more seats in, all of them among those seats, the cards still to come are dealt once, then
  again from the cards after them (a burn before each street, as the first time), so the board's
  shared cards are those out when the betting ended. Each pot is split in two, the odd chip to
  the first run, and each half is won on its own board (in Hi-Lo each half is split high and
  low again). A deck too short for the second run (ten Omaha players all-in before the flop)
  runs once. The decision is the engine's alone: nobody is asked during the hand, so it never
  waits on anyone.
* A bomb pot (``HandSetup.bomb``): every seat puts the bomb in the pot, dead, after the cards are
  dealt (a shorter stack all it has, all-in); no blinds, straddle or post to come in (a dead small
  blind owed is still paid), no betting before the flop. The flop is dealt at once and its
  betting opens with the first seat still in left of the button, the smallest bet the big blind
  (fixed limit: the small bet), as on any flop. The button moves as usual.
* The seven-deuce bounty (``HandSetup.seven_deuce``, Hold'em only): a seat holding a seven and a
  deuce (any suits) that takes every pot it played for whole, on both runs when the hand is run
  twice, is paid the bounty by every other seat dealt in, folded or not, from what that seat has
  after the pots (a shorter stack pays all it has left; a seat with nothing left pays nothing).
  A share of a split pot wins no bounty. Claiming it shows the cards, after a fold to it too: the
  engine shows them and pays at once, so nobody is asked and nothing waits. The bounty is outside
  the pots: no rake on it, and ``HandResult.bounty`` says who paid what.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rules_engine.cards import FULL_DECK, Card
from rules_engine.errors import SetupError
from rules_engine.evaluation import (
    HandValue,
    LowValue,
    best_hand,
    hand_value_int,
    omaha_best,
    omaha_low_8,
    omaha_value_int,
)
from rules_engine.games import Event
from rules_engine.games.classic import ClassicGame, ClassicState, cards_json, fill_deck
from rules_engine.pots import clockwise_from_button

__all__ = [
    "FixedLimitHoldem",
    "FixedLimitOmaha",
    "FixedLimitOmahaHiLo",
    "FlopGame",
    "FlopState",
    "NoLimitHoldem",
    "PotLimitHoldem",
    "PotLimitOmaha",
    "PotLimitOmahaHiLo",
]

_STREETS = ("flop", "turn", "river")


class FlopState(ClassicState):
    """One Hold'em or Omaha hand."""

    PHASES: ClassVar[tuple[str, ...]] = ("preflop", "flop", "turn", "river", "over")
    game: type[FlopGame]
    straddle_seat: int | None = None
    #: The second run's board (the shared cards then its own) when the hand runs twice.
    second_board: list[Card] | None = None
    _shared = 0  # board cards out when the betting ended, shared by both runs
    #: Board cards out when the betting ended for good with two or more players in (None before
    #: then, or if it never did). Under 5 at the showdown: the rest came as a run-out, which the
    #: table deals street by street for the players to watch.
    runout_from: int | None = None
    _eval: list[Card] | None = None

    def _begin(self) -> list[Event]:
        ev: list[Event] = []
        n = self.n
        game = self.game
        if n == 2:
            sb, bb = self.button, (self.button + 1) % n
        else:
            sb, bb = (self.button + 1) % n, (self.button + 2) % n
        self.small_blind_seat, self.big_blind_seat = sb, bb
        order = self._order
        deck = self._deck
        k = game.HOLE
        for r in range(k):
            for j, seat in enumerate(order):
                self.hole[seat].append(deck[r * n + j])
        self._pos = k * n
        for seat in order:
            ev.append(Event("deal", seat=seat, amount=k))
        if self.setup.bomb:
            return self._bomb_pot(ev)
        self._post_antes(ev)
        bet = self._bet
        for seat, amount in ((sb, self.setup.small_blind), (bb, self.setup.big_blind)):
            paid = bet.post(seat, amount)
            ev.append(Event("blind", seat=seat, amount=paid))
        first = (bb + 1) % n
        straddle = self.setup.straddle
        if straddle:
            # A live third blind (validated: three players or more, twice the big blind, a seat
            # with more chips): it counts as a raise the size of the straddle, so the smallest
            # raise is to twice it; the seat after it opens and the straddler acts last.
            self.straddle_seat = first
            paid = bet.post(first, straddle)
            bet.last_raise = straddle
            ev.append(Event("straddle", seat=first, amount=paid))
            first = (first + 1) % n
        self._post_big_blinds(ev)
        self._open_round(first, ev, preflop=True)
        if self.straddle_seat is not None and not bet.all_in[self.straddle_seat]:
            self.acts[self.straddle_seat] = "straddle"  # the seat says so until it acts
        self._start_over(ev)
        return ev

    def _bomb_pot(self, ev: list[Event]) -> list[Event]:
        self.small_blind_seat = self.big_blind_seat = None
        self._post_antes(ev)
        for seat in self._order:
            paid = self._bet.post(seat, self.setup.bomb, live=False)
            ev.append(Event("bomb", seat=seat, amount=paid))
        self._post_big_blinds(ev)  # only a dead small blind owed: validated, no posts
        # No betting before the flop: the first round is over before it began.
        self._in_start = True
        try:
            self._round_over(ev)
        finally:
            self._in_start = False
        return ev

    def _at_showdown(self) -> None:
        first = self.showdown_after is None
        super()._at_showdown()
        if first:
            self.runout_from = len(self.board)
        if not first or self.round >= 3 or not self.setup.run_twice:
            return
        live = self._bet.in_hand()
        if len(live) < 2 or not set(live) <= set(self.setup.run_twice):
            return
        to_come = 5 - len(self.board)
        streets = 3 - self.round  # each with a burn card
        if self._pos + 2 * (to_come + streets) > len(self._deck):
            return  # no cards for a second run (ten Omaha players): it runs once
        self._shared = len(self.board)
        self.second_board = list(self.board)

    def _deal_second_run(self, ev: list[Event]) -> None:
        second = self.second_board
        assert second is not None
        ev.append(Event("run_twice", amount=len(second)))
        while len(second) < 5:
            self._pos += 1  # the burn card
            cards = self._draw_cards(3 if not second else 1)
            name = _STREETS[{0: 0, 3: 1, 4: 2}[len(second)]]
            second.extend(cards)
            ev.append(Event(name, cards=cards, board=1))

    def _runs(self) -> int:
        return 1 if self.second_board is None else 2

    def _use_run(self, run: int) -> None:
        self._eval = self.second_board if run == 1 else None

    def _advance(self, ev: list[Event]) -> None:
        while True:
            if self.round >= 3:
                if self.second_board is not None and len(self.second_board) < 5:
                    self._deal_second_run(ev)
                self._showdown(ev)
                return
            self.round += 1
            self._pos += 1  # the burn card
            count = 3 if self.round == 1 else 1
            cards = self._draw_cards(count)
            self.board.extend(cards)
            name = _STREETS[self.round - 1]
            self.phase = name
            ev.append(Event(name, cards=cards))
            if self._open_round((self.button + 1) % self.n, ev):
                return

    def _table_view(self) -> dict[str, Any]:
        second = self.second_board
        return {"straddle_seat": self.straddle_seat, "straddle": self.setup.straddle, "bomb": self.setup.bomb,
                "seven_deuce": self.setup.seven_deuce,
                # Both runs are dealt in the action that ends the betting, so the second board
                # is never seen before its cards are out.
                "second_board": None if second is None or len(second) < 5 else cards_json(second),
                "shared_cards": self._shared if second is not None else None,
                # Public: how many board cards were out when the betting ended.
                "runout_from": self.runout_from, "runout_streets": self.runout_streets()}

    def runout_streets(self) -> int:
        """The streets dealt after the betting ended for good (both runs of a hand run twice)."""
        streets = {0: 3, 3: 2, 4: 1}.get(self.runout_from if self.runout_from is not None else 5, 0)
        return streets * (2 if self.second_board is not None else 1)

    def _snapshot_extra(self) -> dict[str, Any]:
        second = self.second_board
        return {} if second is None else {"second_board": [str(c) for c in second]}

    # -- values -------------------------------------------------------------------------------

    def rabbit(self) -> list[list[Card]] | None:
        """The rabbit hunt (a house rule asked for after the hand, never part of it): the board
        cards that would have come had the hand gone on, each street after its burn card as the
        deck lay, in one list (one board). None unless the hand is over with the board short of
        five cards and run once."""
        if not self.is_over or len(self.board) >= 5 or self.second_board is not None:
            return None
        deck, pos = self._deck, self._pos
        out: list[Card] = []
        while len(self.board) + len(out) < 5:
            pos += 1  # the burn card
            k = 3 if not self.board and not out else 1
            if pos + k > len(deck):
                return None  # a short deck (a test's): no cards to hunt
            out.extend(deck[pos : pos + k])
            pos += k
        return [out]

    def _values_board(self) -> list[Card]:
        return self.board if self._eval is None else self._eval

    def _high_value(self, seat: int) -> int:
        if self.game.OMAHA:
            return omaha_value_int(self.hole[seat], self._values_board())
        return hand_value_int(self.hole[seat] + self._values_board())

    def _high_hand(self, seat: int) -> HandValue:
        if self.game.OMAHA:
            return omaha_best(self.hole[seat], self._values_board())
        return best_hand(self.hole[seat] + self._values_board())

    def _low_hand(self, seat: int) -> LowValue | None:
        return omaha_low_8(self.hole[seat], self._values_board())

    def made_hand(self, seat: int) -> dict[str, Any] | None:
        """The seat's best hand on the board so far (and its low in Omaha Hi-Lo); None pre-flop.
        A hand run twice adds ``second``: the same on the second run's board."""
        if len(self.board) < 3:
            return None
        out = self._made_on_board(seat)
        second = self.second_board
        if second is not None and len(second) == 5:
            self._use_run(1)
            try:
                out["second"] = self._made_on_board(seat)
            finally:
                self._use_run(0)
        return out

    def _made_on_board(self, seat: int) -> dict[str, Any]:
        high = self._high_hand(seat)
        out: dict[str, Any] = {
            "category": high.category.label,
            "description": high.describe(),
            "cards": cards_json(high.cards),
        }
        if self.game.HI_LO:
            low = self._low_hand(seat)
            out["low"] = None if low is None else {
                "description": low.describe(),
                "cards": cards_json(low.cards),
            }
        return out


class FlopGame(ClassicGame):
    """Hold'em and Omaha: the settings they share."""

    FAMILY: ClassVar[str] = "flop"
    HOLE: ClassVar[int] = 2
    OMAHA: ClassVar[bool] = False
    MAX_PLAYERS: ClassVar[int] = 10
    state_class: ClassVar[type[ClassicState]] = FlopState

    @classmethod
    def cards_needed(cls, players: int) -> int:
        return cls.HOLE * players + 8

    @classmethod
    def stacked_deck(
        cls,
        hands: Sequence[Sequence[Card | None] | None],
        button: int,
        board: Sequence[Card | None] = (),
        second: Sequence[Card | None] = (),
    ) -> tuple[Card, ...]:
        """A 52-card deck order that deals ``hands`` (by seat) and ``board`` (up to 5 cards),
        then, for a hand run twice, ``second``: the second run's own cards (5, 2 or 1: those not
        shared with the first run), each street after a burn card.

        ``None`` (or a missing card) stands for any card: the lowest unused cards fill the gaps
        (burn cards included) and follow at the end.

        >>> from rules_engine.cards import parse_cards, format_cards
        >>> deck = NoLimitHoldem.stacked_deck([parse_cards("Ah Kh"), None, None], button=0,
        ...                                   board=parse_cards("Qh Jh Th 2c 3d"))
        >>> format_cards(deck[2:6:3]), format_cards(deck[7:10]), str(deck[11]), str(deck[13])
        ('Ah Kh', 'Qh Jh Th', '2c', '3d')
        """
        n = len(hands)
        k = cls.HOLE
        order = clockwise_from_button(button, n)
        slots: list[Card | None] = [None] * (k * n + 8)
        for r in range(k):
            for j, seat in enumerate(order):
                hand = hands[seat]
                if hand is not None and r < len(hand):
                    slots[r * n + j] = hand[r]
        base = k * n
        for i, card in enumerate(board):
            # burn, flop 3, burn, turn, burn, river
            slots[base + (1 + i if i < 3 else 2 * i - 1)] = card
        if second:
            layout = {5: (1, 2, 3, 5, 7), 2: (1, 3), 1: (1,)}.get(len(second))
            if layout is None:
                raise SetupError("a second run deals 5, 2 or 1 cards (those the first run did not share)")
            slots.extend([None] * (layout[-1] + 1))
            for i, card in zip(layout, second, strict=True):
                slots[base + 8 + i] = card
        if len(slots) > len(FULL_DECK):
            raise SetupError(f"{n} players have no cards for a second run")
        return fill_deck(slots)


class NoLimitHoldem(FlopGame):
    """No-limit Texas Hold'em (``NT``)."""

    code: ClassVar[str] = "NT"
    name: ClassVar[str] = "No-limit Hold'em"
    STRUCTURE: ClassVar[str] = "no-limit"


class PotLimitHoldem(FlopGame):
    """Pot-limit Texas Hold'em (``PT``, our code)."""

    code: ClassVar[str] = "PT"
    name: ClassVar[str] = "Pot-limit Hold'em"
    STRUCTURE: ClassVar[str] = "pot-limit"


class FixedLimitHoldem(FlopGame):
    """Fixed-limit Texas Hold'em (``FT``)."""

    code: ClassVar[str] = "FT"
    name: ClassVar[str] = "Limit Hold'em"
    STRUCTURE: ClassVar[str] = "fixed-limit"


class PotLimitOmaha(FlopGame):
    """Pot-limit Omaha (``PO``), the site's main Omaha."""

    code: ClassVar[str] = "PO"
    name: ClassVar[str] = "Pot-limit Omaha"
    STRUCTURE: ClassVar[str] = "pot-limit"
    HOLE: ClassVar[int] = 4
    OMAHA: ClassVar[bool] = True


class FixedLimitOmaha(FlopGame):
    """Fixed-limit Omaha (``FO``, our code): the seed's structure."""

    code: ClassVar[str] = "FO"
    name: ClassVar[str] = "Limit Omaha"
    STRUCTURE: ClassVar[str] = "fixed-limit"
    HOLE: ClassVar[int] = 4
    OMAHA: ClassVar[bool] = True


class FixedLimitOmahaHiLo(FlopGame):
    """Fixed-limit Omaha Hi-Lo eight or better (``FO/8``)."""

    code: ClassVar[str] = "FO/8"
    name: ClassVar[str] = "Limit Omaha Hi-Lo"
    STRUCTURE: ClassVar[str] = "fixed-limit"
    HOLE: ClassVar[int] = 4
    OMAHA: ClassVar[bool] = True
    HI_LO: ClassVar[bool] = True


class PotLimitOmahaHiLo(FlopGame):
    """Pot-limit Omaha Hi-Lo eight or better (``PO/8``, our code)."""

    code: ClassVar[str] = "PO/8"
    name: ClassVar[str] = "Pot-limit Omaha Hi-Lo"
    STRUCTURE: ClassVar[str] = "pot-limit"
    HOLE: ClassVar[int] = 4
    OMAHA: ClassVar[bool] = True
    HI_LO: ClassVar[bool] = True

"""Patch-Patch: 12 cards, three 4-card hands, three boards, pot-only betting (GAMES.md section 2).

A hand is a pure state machine: :meth:`PatchPatch.start` deals from a setup, the server feeds
:class:`~rules_engine.games.Action` values to :meth:`PatchPatchState.apply` (or calls
:meth:`PatchPatchState.timeout` when a clock runs out), and reads :meth:`PatchPatchState.view_for`
for each viewer. The setup plus the action log rebuild the state exactly
(:meth:`PatchPatch.replay`); :meth:`PatchPatchState.to_json` stores exactly that.

Phases (``state.phase``): ``preflop`` (betting after the blinds), ``arrange`` (the three flops
are out; every seat still in the hand arranges at the same time), ``flop``, ``turn``, ``river``
(betting rounds; the phase names the cards on the boards) and ``over`` (``state.result`` is set).
The showdown happens inside the action that ends the river betting (or the run-out), so there is
no separate showdown phase: ``state.result.showdown`` says whether hands were shown.

Actions (``Action.kind``) and what ``legal_actions`` lists, in this order:

* betting, for the one seat to act: ``fold`` (only when there is something to call), ``check``,
  ``call`` (amount: the chips added), then one of ``bet_pot`` (amount: the bet), ``raise_pot``
  (amount: the raise-to total) or ``all_in`` (amount: the raise-to total, when the stack is short
  of the pot-sized bet or raise);
* arranging, for every seat that has not submitted: ``swap`` (``cards=(a, b)``, any two of its
  cards), ``arrange`` (``order``: all 12 cards in a new order) and ``done`` (submit; final).

Decisions where the rulebook is silent (the seed and GAMES.md agree on everything else):

* Seats are numbered 0..n-1 clockwise in table order. Three-handed the small blind sits left of
  the button and the big blind left of that; heads-up the button posts the small blind.
* Deck use: 12 cards to each seat, dealt one at a time clockwise starting left of the button
  (heads-up: the big blind first), then the three flops (board 1, 2, 3, three cards each), then
  the three turns, then the three rivers. No burns: 51 cards three-handed, 39 heads-up.
  :meth:`PatchPatch.stacked_deck` builds a deck order from chosen hands and boards.
* A stack below a blind posts all-in for what it has; the amount to call stays the full big
  blind while another seat can still match it, and a seat alone with chips never has to call
  more than its opponents have in.
* Pre-flop the big blind has the option: when everyone has called, it may check (which ends the
  round: there is no pre-flop check-raise) or raise pot. After the flops a seat that checked may
  raise pot when a bet comes back to it (check-raise), since a pot bet is a full bet.
* Folding is offered only when facing a bet; with nothing to call a seat checks. A timeout
  therefore checks whenever it can.
* A short all-in bet or raise (less than the pot) does not reopen the betting for seats that have
  already acted in the round, checks included; several short all-ins never add up to a reopening.
  Nobody may raise when everyone else still in the hand is all-in.
* Uncalled chips are returned at the end of each betting round, so they are never in a pot and
  never raked.
* All-in before or during the arrangement: the flops are still dealt and every seat still in the
  hand arranges, all-in seats included; betting rounds happen only while two or more seats have
  chips behind, otherwise the boards run out to the showdown.
* Everyone but one folds: the hand ends at once, the last seat takes every pot unseen, nothing is
  revealed; the rake still applies if the flops had been dealt.
* Showdown: every seat still in the hand is shown at once (no mucking); each pot is split into
  thirds (``pots.split_shares``) and each board's third goes to the best 2+3 hand on that board
  among the pot's eligible seats; ties share, odd chips to the first tied seat clockwise from the
  button. A seat *scoops* a pot when it alone wins all three boards of a pot contested by two or
  more seats; ``result.scoop`` is the seat that scooped every contested pot it was eligible for.
* Rake: public tables with a big blind of 20 or more, only when the flops were dealt: 3% of each
  pot rounded down, main pot first, at most three big blinds a hand.
* A decision timeout checks if it can, else folds, and puts the seat in ``state.breaks`` (sit out
  from the next hand). An arrangement timeout submits every unsubmitted arrangement as it stands
  and puts nobody on a break. Both are logged as ordinary actions with ``timeout=True``.
* Setup: 2 or 3 seats, every stack a whole number of at least one chip (a seat with no chips is
  not dealt in; the table seats the others), 0 < small blind <= big blind, a known speed, a deck
  of distinct cards long enough for the hand. With ``check_buy_in`` every stack must be from 5 to
  150 big blinds inclusive. When a seat busts, the next hand is the server's business: it deals
  the next hand to the seats that still have chips (heads-up if two remain).
* Views: a seat sees its own 12 cards in its current arrangement and what each of its hands makes
  on its board, the boards, every stack and bet, who has submitted an arrangement (not what it
  is), and its legal actions. Other seats' cards appear only once they are shown at the showdown;
  folded hands never appear; the deck never appears.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from rules_engine.betting import Betting, Options, PotOnly
from rules_engine.cards import FULL_DECK, Card, Deck, format_cards
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, SetupError
from rules_engine.evaluation import HandValue, omaha_best, omaha_value_int
from rules_engine.games import (
    SPEEDS,
    Action,
    BoardResult,
    BoardWin,
    Event,
    HandResult,
    HandSetup,
    LegalAction,
    PotResult,
    note_acts,
)
from rules_engine.pots import build_pots, clockwise_from_button, rake_pots, split_even, split_shares

HAND_SIZE = 12
BOARDS = 3
PER_BOARD = 4
ARRANGE_SECONDS: dict[str, float] = {"slow": 180.0, "medium": 120.0, "fast": 100.0}
DECISION_SECONDS: dict[str, float] = {"slow": 37.5, "medium": 25.0, "fast": 12.0}
BUY_IN_MIN_BB = 5
BUY_IN_MAX_BB = 150
RAKE_PERCENT = 3
RAKE_CAP_BB = 3
RAKE_FROM_BIG_BLIND = 20

PHASES = ("preflop", "arrange", "flop", "turn", "river", "over")
BET_KINDS = frozenset({"fold", "check", "call", "bet_pot", "raise_pot", "all_in"})
ARRANGE_KINDS = frozenset({"swap", "arrange", "done"})
KINDS = BET_KINDS | ARRANGE_KINDS
_NEXT = {"arrange": "flop", "flop": "turn", "turn": "river"}
_EVENT_OF = {"bet_pot": "bet", "raise_pot": "raise"}


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class PatchPatch:
    """The Patch-Patch game: start, replay and restore hands (all classmethods)."""

    code: ClassVar[str] = "PP"
    name: ClassVar[str] = "Patch-Patch"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 3
    HAND_SIZE: ClassVar[int] = HAND_SIZE
    BOARDS: ClassVar[int] = BOARDS
    ARRANGE_SECONDS: ClassVar[dict[str, float]] = ARRANGE_SECONDS
    DECISION_SECONDS: ClassVar[dict[str, float]] = DECISION_SECONDS

    @classmethod
    def start(cls, setup: HandSetup, rng: random.Random | None = None) -> PatchPatchState:
        """Deal a new hand: validate the setup, shuffle unless it has a deck, post the blinds.

        ``rng`` is used only when ``setup.deck`` is ``None``; without it the deck comes from the
        operating system's CSPRNG. The returned state's ``setup`` carries the full deck order, so
        ``PatchPatch.replay(state.setup, state.log)`` rebuilds it. The events of the deal (the
        blinds, and the flops when the blinds already put everyone all-in) are in
        ``state.start_events``.
        """
        validate_setup(setup)
        if setup.deck is None:
            order = Deck.shuffled(rng).order
            setup = HandSetup(
                stacks=setup.stacks,
                button=setup.button,
                small_blind=setup.small_blind,
                big_blind=setup.big_blind,
                speed=setup.speed,
                public=setup.public,
                deck=order,
                check_buy_in=setup.check_buy_in,
            )
        return PatchPatchState(setup)

    @classmethod
    def replay(cls, setup: HandSetup, log: Iterable[Action]) -> PatchPatchState:
        """Rebuild a hand from its setup (with its deck) and its action log."""
        if setup.deck is None:
            raise SetupError("replaying a hand needs the deck order it was dealt from")
        state = cls.start(setup)
        for action in log:
            state.apply(action)
        return state

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PatchPatchState:
        """Restore a state saved by :meth:`PatchPatchState.to_json` (by replaying its log)."""
        if not isinstance(data, Mapping) or data.get("variant") != cls.code:
            raise SetupError("this is not a saved Patch-Patch hand")
        setup = HandSetup.from_json(data["setup"])
        log = [Action.from_json(a) for a in data.get("log", [])]
        return cls.replay(setup, log)

    @staticmethod
    def deal_order(button: int, players: int) -> tuple[int, ...]:
        """Seats in the order cards are dealt: left of the button first, the button last."""
        return clockwise_from_button(button, players)

    @classmethod
    def stacked_deck(
        cls,
        hands: Sequence[Sequence[Card | None] | None],
        button: int,
        boards: Sequence[Sequence[Card | None]] = (),
    ) -> tuple[Card, ...]:
        """A 52-card deck order that deals ``hands`` (by seat, in dealt order) and ``boards``.

        ``boards`` are up to three boards of up to five cards. ``None`` (or a missing card)
        stands for "any card": it is filled with the lowest unused cards, as is the rest of the
        deck.

        >>> from rules_engine.cards import parse_cards
        >>> h = [parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"), None]
        >>> deck = PatchPatch.stacked_deck(h, button=0)
        >>> format_cards(deck[1:24:2])   # heads-up the big blind (seat 1) is dealt first
        '2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc'
        """
        n = len(hands)
        order = clockwise_from_button(button, n)
        slots: list[Card | None] = [None] * (HAND_SIZE * n + BOARDS * 5)
        for t in range(HAND_SIZE * n):
            hand = hands[order[t % n]]
            k = t // n
            if hand is not None and k < len(hand):
                slots[t] = hand[k]
        base = HAND_SIZE * n
        for b, board in enumerate(boards):
            for k, card in enumerate(board):
                slots[base + _board_slot(b, k)] = card
        used = [c for c in slots if c is not None]
        if len(set(used)) != len(used):
            raise SetupError("a stacked deck cannot hold the same card twice")
        spare = iter([c for c in FULL_DECK if c not in set(used)])
        filled = [c if c is not None else next(spare) for c in slots]
        return tuple(filled) + tuple(spare)


def _board_slot(board: int, k: int) -> int:
    """Position of board ``board``'s card ``k`` among the 15 board cards (flops, turns, rivers)."""
    if k < 3:
        return board * 3 + k
    return 9 + (k - 3) * 3 + board


def validate_setup(setup: HandSetup) -> None:
    """Raise :class:`SetupError` with a readable reason if the hand cannot be dealt."""
    if not isinstance(setup, HandSetup):
        raise SetupError("a hand starts from a HandSetup")
    stacks = setup.stacks
    n = len(stacks)
    if not PatchPatch.MIN_PLAYERS <= n <= PatchPatch.MAX_PLAYERS:
        raise SetupError(
            f"Patch-Patch is dealt to 2 or 3 players, not {n}: three hands of 12 cards and "
            "three boards use 51 of the 52 cards"
        )
    for i, s in enumerate(stacks):
        if not _is_int(s):
            raise SetupError(f"seat {i}'s stack must be a whole number of chips, not {s!r}")
        if s < 0:
            raise SetupError(f"seat {i}'s stack cannot be below zero ({s})")
        if s == 0:
            raise SetupError(f"seat {i} has no chips and cannot be dealt in")
    if not _is_int(setup.button) or not 0 <= setup.button < n:
        raise SetupError(f"the button must be one of the seats 0 to {n - 1}, not {setup.button!r}")
    sb, bb = setup.small_blind, setup.big_blind
    if not _is_int(sb) or not _is_int(bb) or not 0 < sb <= bb:
        raise SetupError(
            f"the blinds must be whole numbers with 0 < small blind <= big blind, not {sb!r}-{bb!r}"
        )
    if setup.speed not in SPEEDS:
        raise SetupError(f"the table speed is slow, medium or fast, not {setup.speed!r}")
    if setup.straddle or setup.posts or setup.dead or setup.run_twice or setup.bomb or setup.seven_deuce:
        raise SetupError("Patch-Patch has no straddle, bomb pot or seven-deuce bounty, is not run twice and nobody posts "
                         "a blind out of turn")
    if setup.check_buy_in:
        for i, s in enumerate(stacks):
            if not BUY_IN_MIN_BB * bb <= s <= BUY_IN_MAX_BB * bb:
                raise SetupError(
                    f"seat {i} brings {s} chips: the buy-in is {BUY_IN_MIN_BB} to {BUY_IN_MAX_BB} "
                    f"big blinds ({BUY_IN_MIN_BB * bb} to {BUY_IN_MAX_BB * bb})"
                )
    if setup.deck is not None:
        deck = setup.deck
        if not all(isinstance(c, Card) for c in deck):
            raise SetupError("a deck order is a sequence of cards")
        if len(set(deck)) != len(deck):
            raise SetupError("a deck cannot hold the same card twice")
        need = HAND_SIZE * n + BOARDS * 5
        if len(deck) < need:
            raise SetupError(f"{n} players need {need} cards, the deck has {len(deck)}")


class PatchPatchState:
    """One Patch-Patch hand in progress (or over). Create it with :meth:`PatchPatch.start`."""

    variant: ClassVar[str] = "PP"

    def __init__(self, setup: HandSetup) -> None:
        assert setup.deck is not None
        self.setup = setup
        n = len(setup.stacks)
        self.n = n
        self.button = setup.button
        if n == 2:
            self.small_blind_seat = setup.button
            self.big_blind_seat = (setup.button + 1) % n
        else:
            self.small_blind_seat = (setup.button + 1) % n
            self.big_blind_seat = (setup.button + 2) % n
        self._order = clockwise_from_button(setup.button, n)
        deck = setup.deck
        hands: list[list[Card]] = [[] for _ in range(n)]
        for t in range(HAND_SIZE * n):
            hands[self._order[t % n]].append(deck[t])
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self._hands = hands
        self._board_cards = deck[HAND_SIZE * n : HAND_SIZE * n + BOARDS * 5]
        self.boards: list[list[Card]] = [[], [], []]
        self._bet = Betting(setup.stacks, PotOnly(), setup.big_blind)
        self.phase = "preflop"
        self.submitted = [False] * n
        self.breaks: set[int] = set()
        self.log: list[Action] = []
        self.acts: dict[int, str] = {}  # each seat's last act in the betting round under way
        self.result: HandResult | None = None
        self._returned = [0] * n
        self._values: list[list[int]] | None = None
        self.start_events: list[Event] = self._begin()

    # -- dealing ------------------------------------------------------------------------------

    def _begin(self) -> list[Event]:
        ev: list[Event] = []
        bet = self._bet
        for seat in self._order:
            ev.append(Event("deal", seat=seat))
        for seat, amount in (
            (self.small_blind_seat, self.setup.small_blind),
            (self.big_blind_seat, self.setup.big_blind),
        ):
            paid = bet.post(seat, amount)
            ev.append(Event("blind", seat=seat, amount=paid))
        bet.open_round((self.big_blind_seat + 1) % self.n, preflop=True)
        ev.append(Event("street", pot=bet.pot))
        if bet.to_act is None:
            self._round_over(ev)
        return ev

    def _deal_street(self, street: int, ev: list[Event]) -> None:
        cards = self._board_cards
        if street == 0:
            for b in range(BOARDS):
                flop = cards[3 * b : 3 * b + 3]
                self.boards[b].extend(flop)
                ev.append(Event("flop", board=b, cards=tuple(flop)))
        else:
            name = "turn" if street == 1 else "river"
            for b in range(BOARDS):
                card = cards[9 + (street - 1) * 3 + b]
                self.boards[b].append(card)
                ev.append(Event(name, board=b, cards=(card,)))

    # -- questions ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind each seat right now (after the hand: final stacks)."""
        if self.result is not None:
            return self.result.stacks
        return tuple(self._bet.stacks)

    @property
    def behind(self) -> tuple[int, ...]:
        """Chips behind each seat before the end's payouts: 0 for a seat that is all-in, also after
        the action that ended the hand (``stacks`` are then the final stacks)."""
        return tuple(self._bet.stacks)

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return 0 if self.result is not None else self._bet.pot

    def side_pots(self) -> list[int]:
        """The main pot and the side pots of the finished rounds while a hand with an all-in is
        played (empty when there is one pot, or once the hand is over)."""
        if self.result is not None:
            return []
        # Between betting rounds the felt shows no bets in front of the seats: they are in.
        pots = self._bet.collected_pots(between_rounds=self.phase in ("arrange",))
        return [p.amount for p in pots] if len(pots) > 1 else []

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's bet in the current round."""
        return tuple(self._bet.bets)

    @property
    def contributed(self) -> tuple[int, ...]:
        """Chips each seat has put in the hand so far (uncalled chips returned)."""
        return tuple(self._bet.contributed)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._bet.folded)

    @property
    def all_in(self) -> tuple[bool, ...]:
        return tuple(self._bet.all_in)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(self._bet.in_hand())

    @property
    def to_act(self) -> int | None:
        """The seat whose bet decision the hand waits for (``None`` outside betting)."""
        return self._bet.to_act if self.phase in ("preflop", "flop", "turn", "river") else None

    @property
    def flops_dealt(self) -> bool:
        return bool(self.boards[0])

    def rabbit(self) -> list[list[Card]] | None:
        """The rabbit hunt (a house rule asked for after the hand, never part of it): for each
        board, the cards that would have come had the hand gone on, as the deck lay (the three
        flops, turns and rivers in their dealing order). None unless the hand is over with the
        boards short of five cards."""
        cards = self._board_cards
        if not self.is_over or all(len(b) == 5 for b in self.boards) or len(cards) < 5 * BOARDS:
            return None
        full = [[*cards[3 * b : 3 * b + 3], cards[9 + b], cards[12 + b]] for b in range(BOARDS)]
        return [full[b][len(self.boards[b]) :] for b in range(BOARDS)]

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """A seat's 12 cards in their current arrangement (hidden information: server only)."""
        return tuple(self._hands[seat])

    def hands_of(self, seat: int) -> tuple[tuple[Card, ...], ...]:
        """A seat's three 4-card hands, for boards 1, 2 and 3 (hidden information)."""
        h = self._hands[seat]
        return tuple(tuple(h[PER_BOARD * b : PER_BOARD * b + PER_BOARD]) for b in range(BOARDS))

    def actors(self) -> tuple[int, ...]:
        """Seats whose input the hand waits for: the bettor, or every seat still arranging."""
        if self.phase == "over":
            return ()
        if self.phase == "arrange":
            return tuple(
                i for i in range(self.n) if not self._bet.folded[i] and not self.submitted[i]
            )
        to_act = self._bet.to_act
        return () if to_act is None else (to_act,)

    def clock(self) -> str | None:
        """Which clock the server should run: ``decision``, ``arrange`` or ``None``."""
        if self.phase == "over":
            return None
        return "arrange" if self.phase == "arrange" else "decision"

    def clock_seconds(self) -> float | None:
        """The length of the current clock at this table's speed."""
        kind = self.clock()
        if kind is None:
            return None
        table = ARRANGE_SECONDS if kind == "arrange" else DECISION_SECONDS
        return table[self.setup.speed]

    def legal_actions(self, seat: int) -> list[LegalAction]:
        """Every action the seat may take now, with exact amounts (empty if none)."""
        if self.phase == "over" or not _is_int(seat) or not 0 <= seat < self.n:
            return []
        if self.phase == "arrange":
            if self._bet.folded[seat] or self.submitted[seat]:
                return []
            return [LegalAction("swap"), LegalAction("arrange"), LegalAction("done")]
        if seat != self._bet.to_act:
            return []
        return self._betting_legal(self._bet.options(seat))

    @staticmethod
    def _betting_legal(o: Options) -> list[LegalAction]:
        out: list[LegalAction] = []
        if o.call == 0:
            out.append(LegalAction("check", 0, o.bet, 0, False))
        else:
            out.append(LegalAction("fold"))
            out.append(LegalAction("call", o.call, o.bet + o.call, o.call, o.call_all_in))
        if o.min_to is not None and o.full_to is not None:
            to = o.min_to
            adds = to - o.bet
            all_in = adds == o.stack
            if to < o.full_to:
                out.append(LegalAction("all_in", to, to, adds, True))
            elif o.level == 0:
                out.append(LegalAction("bet_pot", to, to, adds, all_in))
            else:
                out.append(LegalAction("raise_pot", to, to, adds, all_in))
        return out

    # -- doing --------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
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
                f"{kind!r} is not a Patch-Patch action: use fold, check, call, bet_pot, "
                "raise_pot, all_in, swap, arrange or done"
            )
        if action.amount is not None and (not _is_int(action.amount) or action.amount < 0):
            raise MalformedAction(f"an amount is a whole number of chips, not {action.amount!r}")
        if self.phase == "over":
            raise IllegalAction("the hand is over")
        events = self._arrange(action) if kind in ARRANGE_KINDS else self._wager(action)
        self.log.append(action)
        note_acts(self.acts, events)
        return events

    def timeout(self) -> list[Event]:
        """Apply the timeout for the current clock (the server calls this when it runs out).

        Decision: check if possible, else fold, and the seat goes on a break from the next hand.
        Arrangement: every unsubmitted arrangement is submitted as it stands.
        """
        if self.phase == "over":
            raise IllegalAction("the hand is over: there is no clock to run out")
        if self.phase == "arrange":
            events: list[Event] = []
            for waiting in self.actors():
                events.extend(self.apply(Action(seat=waiting, kind="done", timeout=True)))
            return events
        seat = self._bet.to_act
        assert seat is not None
        kind = "check" if self._bet.options(seat).call == 0 else "fold"
        return self.apply(Action(seat=seat, kind=kind, timeout=True))

    def _arrange(self, action: Action) -> list[Event]:
        seat, kind = action.seat, action.kind
        if action.amount or (action.timeout and kind != "done"):
            raise MalformedAction(f"{kind} takes no amount and is not a timeout")
        if self.phase != "arrange":
            if self.flops_dealt:
                raise IllegalAction("the arrangement is over: the three hands are fixed")
            raise IllegalAction("cards are arranged once the three flops are dealt")
        if self._bet.folded[seat]:
            raise IllegalAction(f"seat {seat} has folded")
        if self.submitted[seat]:
            raise OutOfTurn(f"seat {seat} has already submitted its arrangement")
        hand = self._hands[seat]
        if kind == "swap":
            if action.order or len(action.cards) != 2:
                raise MalformedAction("a swap names exactly two cards: cards=(a, b)")
            a, b = action.cards
            if not isinstance(a, Card) or not isinstance(b, Card):
                raise MalformedAction("a swap names two cards")
            if a == b:
                raise MalformedAction(f"a swap needs two different cards, not {a} twice")
            for c in (a, b):
                if c not in hand:
                    raise IllegalAction(f"seat {seat} does not hold {c}")
            i, j = hand.index(a), hand.index(b)
            hand[i], hand[j] = b, a
            return [Event("swap", seat=seat)]
        if kind == "arrange":
            order = action.order
            if action.cards or len(order) != HAND_SIZE or not all(isinstance(c, Card) for c in order):
                raise MalformedAction(f"an arrangement lists all {HAND_SIZE} of the seat's cards")
            if set(order) != set(hand) or len(set(order)) != HAND_SIZE:
                raise IllegalAction(
                    f"an arrangement must use exactly seat {seat}'s {HAND_SIZE} cards, each once"
                )
            hand[:] = order
            return [Event("swap", seat=seat)]
        # done
        if action.cards or action.order:
            raise MalformedAction("done takes no cards")
        events = []
        if action.timeout:
            events.append(Event("timeout", seat=seat))
        self.submitted[seat] = True
        events.append(Event("done", seat=seat))
        if not self.actors():
            self._continue(events)
        return events

    def _wager(self, action: Action) -> list[Event]:
        seat, kind = action.seat, action.kind
        if action.cards or action.order:
            raise MalformedAction(f"{kind} takes no cards")
        if self.phase == "arrange":
            raise IllegalAction("the betting resumes when every arrangement is in")
        bet = self._bet
        if seat != bet.to_act:
            raise OutOfTurn(f"it is seat {bet.to_act}'s turn to act, not seat {seat}'s")
        opts = bet.options(seat)
        legal = self._betting_legal(opts)
        match = None
        for la in legal:
            if la.kind == kind:
                match = la
                break
        if match is None:
            raise IllegalAction(_why_not(kind, legal))
        if action.amount is not None and action.amount != match.amount:
            if kind in ("fold", "check"):
                raise IllegalAction(f"{kind} takes no amount")
            raise IllegalAction(
                f"pot-only betting has one size: {match.label}, not {action.amount}"
            )
        if action.timeout:
            expected = "check" if opts.call == 0 else "fold"
            if kind != expected:
                raise IllegalAction(f"a timeout {expected}s, it does not {kind}")
        events: list[Event] = []
        if action.timeout:
            events.append(Event("timeout", seat=seat))
            if seat not in self.breaks:
                self.breaks.add(seat)
                events.append(Event("break", seat=seat))
        if kind == "fold":
            bet.fold(seat)
            events.append(Event("fold", seat=seat))
        elif kind == "check" or kind == "call":
            paid = bet.check_or_call(seat)
            events.append(Event(kind, seat=seat, amount=paid))
        else:
            bet.bet_or_raise_to(seat, match.to)
            events.append(Event(_EVENT_OF.get(kind, kind), seat=seat, amount=match.to))
        if bet.to_act is None or len(bet.in_hand()) == 1:
            self._round_over(events)
        return events

    # -- moving on ----------------------------------------------------------------------------

    def _round_over(self, ev: list[Event]) -> None:
        bet = self._bet
        back = bet.return_uncalled()
        if back is not None:
            seat, chips = back
            self._returned[seat] += chips
            ev.append(Event("return", seat=seat, amount=chips))
        live = bet.in_hand()
        if len(live) == 1:
            self._settle_uncontested(live[0], ev)
            return
        if self.phase == "preflop":
            self._deal_street(0, ev)
            self.phase = "arrange"
            ev.append(Event("arrange"))
            return
        self._continue(ev)

    def _continue(self, ev: list[Event]) -> None:
        """After the arrangement or a betting round: next street, or the showdown."""
        bet = self._bet
        while True:
            nxt = _NEXT.get(self.phase)
            if nxt is None:
                self._showdown(ev)
                return
            if nxt == "turn":
                self._deal_street(1, ev)
            elif nxt == "river":
                self._deal_street(2, ev)
            self.phase = nxt
            bet.open_round((self.button + 1) % self.n)
            if bet.to_act is not None:
                ev.append(Event("street", pot=bet.pot))
                return

    def _rake(self, amounts: Sequence[int]) -> tuple[int, ...]:
        s = self.setup
        if not (s.public and s.big_blind >= RAKE_FROM_BIG_BLIND and self.flops_dealt):
            return tuple(0 for _ in amounts)
        return rake_pots(amounts, RAKE_PERCENT, RAKE_CAP_BB * s.big_blind)

    def _settle_uncontested(self, winner: int, ev: list[Event]) -> None:
        bet = self._bet
        pots = build_pots(bet.contributed, bet.folded)
        rakes = self._rake([p.amount for p in pots])
        payouts = [0] * self.n
        results = []
        for k, (pot, rake) in enumerate(zip(pots, rakes, strict=True)):
            won = pot.amount - rake
            payouts[winner] += won
            per = [0] * self.n
            per[winner] = won
            results.append(PotResult(k, pot.amount, rake, pot.eligible, (), tuple(per), None))
            ev.append(Event("win", seat=winner, amount=won, pot=k))
        self._finish(results, payouts, showdown=False, scoop=None, shown=(), ev=ev)

    def _showdown(self, ev: list[Event]) -> None:
        bet = self._bet
        n = self.n
        live = bet.in_hand()
        hands = self._hands
        boards = self.boards
        values: list[list[int]] = [[0, 0, 0] for _ in range(n)]
        for s in live:
            h = hands[s]
            values[s] = [
                omaha_value_int(h[0:4], boards[0]),
                omaha_value_int(h[4:8], boards[1]),
                omaha_value_int(h[8:12], boards[2]),
            ]
        self._values = values
        for s in live:
            ev.append(Event("show", seat=s, cards=tuple(hands[s])))
        pots = build_pots(bet.contributed, bet.folded)
        rakes = self._rake([p.amount for p in pots])
        payouts = [0] * n
        results: list[PotResult] = []
        rich: dict[tuple[int, int], HandValue] = {}
        order = self._order
        for k, (pot, rake) in enumerate(zip(pots, rakes, strict=True)):
            shares = split_shares(pot.amount - rake, BOARDS)
            per = [0] * n
            board_results = []
            solo: set[int] = set()
            for b in range(BOARDS):
                best = max(values[s][b] for s in pot.eligible)
                winners = [s for s in pot.eligible if values[s][b] == best]
                split = split_even(shares[b], winners, order)
                wins = []
                for s, amount in split.items():
                    per[s] += amount
                    hv = rich.get((s, b))
                    if hv is None:
                        hv = omaha_best(hands[s][PER_BOARD * b : PER_BOARD * b + PER_BOARD], boards[b])
                        rich[(s, b)] = hv
                    wins.append(BoardWin(s, amount, hv.cards, hv.category.label, hv.describe()))
                    ev.append(Event("win", seat=s, amount=amount, board=b, pot=k))
                if len(winners) == 1:
                    solo.add(winners[0])
                else:
                    solo.add(-1)
                board_results.append(BoardResult(b, shares[b], tuple(wins)))
            scoop = None
            if len(pot.eligible) > 1 and len(solo) == 1 and -1 not in solo:
                scoop = next(iter(solo))
            for s in range(n):
                payouts[s] += per[s]
            results.append(
                PotResult(k, pot.amount, rake, pot.eligible, tuple(board_results), tuple(per), scoop)
            )
        hand_scoop = None
        for s in live:
            contested = [p for p in results if s in p.eligible and len(p.eligible) > 1]
            if contested and all(p.scoop == s for p in contested):
                hand_scoop = s
        self._finish(results, payouts, showdown=True, scoop=hand_scoop, shown=tuple(live), ev=ev)

    def _finish(
        self,
        pots: list[PotResult],
        payouts: list[int],
        *,
        showdown: bool,
        scoop: int | None,
        shown: tuple[int, ...],
        ev: list[Event],
    ) -> None:
        bet = self._bet
        rake = sum(p.rake for p in pots)
        if rake:
            ev.append(Event("rake", amount=rake))
        if scoop is not None:
            ev.append(Event("scoop", seat=scoop))
        contributions = tuple(bet.contributed)
        stacks = tuple(s + p for s, p in zip(bet.stacks, payouts, strict=True))
        self.result = HandResult(
            showdown=showdown,
            pots=tuple(pots),
            contributions=contributions,
            returned=tuple(self._returned),
            payouts=tuple(payouts),
            net=tuple(p - c for p, c in zip(payouts, contributions, strict=True)),
            rake=rake,
            stacks=stacks,
            scoop=scoop,
            shown=shown,
        )
        self.phase = "over"
        ev.append(Event("hand_over"))

    # -- what a seat sees ---------------------------------------------------------------------

    def made_hands(self, seat: int) -> list[HandValue | None]:
        """What each of a seat's three hands makes on its board so far (None before the flops)."""
        if not self.flops_dealt:
            return [None, None, None]
        h = self._hands[seat]
        return [
            omaha_best(h[PER_BOARD * b : PER_BOARD * b + PER_BOARD], self.boards[b])
            for b in range(BOARDS)
        ]

    def _hands_json(self, seat: int) -> list[dict[str, Any]]:
        made = self.made_hands(seat)
        out = []
        for b in range(BOARDS):
            four = self._hands[seat][PER_BOARD * b : PER_BOARD * b + PER_BOARD]
            m = made[b]
            out.append(
                {
                    "board": b,
                    "cards": [str(c) for c in four],
                    "made": None
                    if m is None
                    else {
                        "category": m.category.label,
                        "description": m.describe(),
                        "cards": [str(c) for c in m.cards],
                    },
                }
            )
        return out

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as plain JSON-able data.

        Contains the seat's own cards and hands, the boards, every stack and bet, whose turn it
        is, the seat's legal actions and, after a showdown, the hands shown and the result.
        Never another seat's unshown cards or arrangement, a folded hand, or the deck.
        """
        if seat is not None and (not _is_int(seat) or not 0 <= seat < self.n):
            raise MalformedAction(f"there is no seat {seat!r} at this {self.n}-player hand")
        bet = self._bet
        result = self.result
        shown = set(result.shown) if result is not None else set()
        # The viewer's own hands appear twice (their seat, and "you"): evaluated once.
        own_hands = self._hands_json(seat) if seat is not None else None
        players = []
        for i in range(self.n):
            visible = i == seat or i in shown
            players.append(
                {
                    "seat": i,
                    "stack": self.stacks[i],
                    "bet": 0 if result is not None else bet.bets[i],
                    "contributed": bet.contributed[i],
                    "folded": bet.folded[i],
                    "act": None if result is not None else self.acts.get(i),
                    "all_in": bet.all_in[i] and result is None,
                    "in_hand": not bet.folded[i],
                    "arranged": self.submitted[i],
                    "button": i == self.button,
                    "small_blind": i == self.small_blind_seat,
                    "big_blind": i == self.big_blind_seat,
                    "on_break": i in self.breaks,
                    "shown": i in shown,
                    "cards": [str(c) for c in self._hands[i]] if visible else None,
                    "hands": (own_hands if i == seat else self._hands_json(i)) if visible else None,
                }
            )
        legal = [la.to_json() for la in self.legal_actions(seat)] if seat is not None else []
        view: dict[str, Any] = {
            "variant": "PP",
            "game": "Patch-Patch",
            "viewer": seat,
            "phase": self.phase,
            "speed": self.setup.speed,
            "public": self.setup.public,
            "button": self.button,
            "small_blind": self.setup.small_blind,
            "big_blind": self.setup.big_blind,
            "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat,
            "pot": self.pot,
            "side_pots": self.side_pots(),
            "boards": [[str(c) for c in board] for board in self.boards],
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
            view["you"] = {
                "seat": seat,
                "cards": [str(c) for c in self._hands[seat]],
                "hands": own_hands,
                "arranging": self.phase == "arrange" and seat in self.actors(),
                "legal_actions": legal,
            }
        return view

    # -- storage ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The hand's truth: its setup (with the deck) and its action log. Server-side only."""
        return {
            "variant": "PP",
            "version": 1,
            "setup": self.setup.to_json(),
            "log": [a.to_json() for a in self.log],
        }

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data (hidden cards included): for equality tests."""
        return {
            "setup": self.setup.to_json(),
            "phase": self.phase,
            "hands": [format_cards(h) for h in self._hands],
            "boards": [format_cards(b) for b in self.boards],
            "betting": self._bet.to_json(),
            "submitted": list(self.submitted),
            "breaks": sorted(self.breaks),
            "returned": list(self._returned),
            "log": [a.to_json() for a in self.log],
            "result": None if self.result is None else self.result.to_json(),
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PatchPatchState):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<PatchPatchState {self.phase} pot={self.pot} stacks={list(self.stacks)}>"


def _why_not(kind: str, legal: list[LegalAction]) -> str:
    options = ", ".join(la.label.lower() for la in legal)
    kinds = {la.kind for la in legal}
    if kind == "fold" and "check" in kinds:
        reason = "nobody has bet, so there is nothing to fold to: check instead"
    elif kind == "check":
        call = next((la for la in legal if la.kind == "call"), None)
        reason = f"there is a bet to call ({call.amount} more)" if call else "you cannot check now"
    elif kind == "call":
        reason = "there is nothing to call"
    elif kind == "bet_pot":
        reason = "there is already a bet: raise pot instead" if "raise_pot" in kinds or "call" in kinds else "you cannot bet now"
    elif kind == "raise_pot":
        if "all_in" in kinds:
            reason = "your stack is short of a pot-sized raise: go all-in instead"
        elif "bet_pot" in kinds:
            reason = "nobody has bet: bet pot instead"
        else:
            reason = "the betting is not open to a raise from you"
    elif kind == "all_in":
        reason = "a stack larger than the pot cannot go all-in: the pot is the only size"
        if not any(k in kinds for k in ("bet_pot", "raise_pot")):
            reason = "the betting is not open to a raise from you"
    else:
        reason = "that is not possible now"
    return f"{reason} (you may: {options})"

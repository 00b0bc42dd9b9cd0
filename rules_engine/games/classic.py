"""What every game but Patch-Patch shares: seats, forced bets, betting rounds, showdowns, views.

The games in :mod:`rules_engine.games.flop` (Hold'em, Omaha), :mod:`rules_engine.games.stud`
(seven- and five-card stud, Razz) and :mod:`rules_engine.games.draw` (five-card draw) are small
classes on top of two bases defined here:

* :class:`ClassicGame`, the variant (a class with class-level settings and classmethods:
  ``setup_for_table``, ``start``, ``replay``, ``from_json``), found with
  ``rules_engine.games.get_variant(code)``;
* :class:`ClassicState`, one hand in progress. It owns one :class:`~rules_engine.betting.Betting`
  (the betting core shared with Patch-Patch) and asks its family only how cards are dealt, who
  opens each round and what a seat's hand is worth.

The server drives every game through the same calls as Patch-Patch: ``state.phase``,
``state.actors()``, ``state.clock()``, ``state.legal_actions(seat)``, ``state.apply(action)``,
``state.timeout()``, ``state.is_over``, ``state.result``, ``state.stacks``,
``state.view_for(seat)``, ``state.to_json()``, ``V.from_json(data)``, ``V.replay(setup, log)``.

Decisions shared by every game here (GAMES.md sections 3 and 5, and where they are silent):

* Seats are numbered 0..n-1 clockwise. Cards are dealt one at a time clockwise starting left of
  the button (heads-up too: the big blind, left of the button, gets the first card).
* Forced bets: every seat posts the ante first (dead money), then the blinds (live) or, in stud,
  the bring-in as the first action of the first round. In blind games a seat may also post a
  small blind it missed, dead (``setup.dead``: main pot only, never returned as uncalled), and a
  big blind to come in, live (``setup.posts``). A stack too small for a forced bet posts
  all it has; the amount to call stays the full blind (or bring-in) while another seat can still
  match it.
* Betting goes through the one core with the game's structure (no limit, pot limit, fixed
  limit). Amounts sent with ``bet``/``raise``/``complete``/``all_in`` are raise-to totals; a
  seat short of a full bet or raise may only go all-in. A short all-in does not reopen the
  betting for seats that have acted, but several short all-ins that together reach a full raise
  do reopen it for a seat facing at least a full raise since its own last action (the card-room
  "cumulative all-ins" rule). Folding is offered only when facing a bet.
* Fixed limit: a bet and three raises cap a round (four bets), heads-up too; pre-flop the big
  blind is the bet, in stud the completion is; a bring-in is not a bet. After an all-in for less
  than a full bet (or a bring-in) the next full bet *completes* it to the bet size.
* Nobody may raise when no other seat still in could put in more than the bet to match.
* Uncalled chips go back to their owner at the end of each round, so they are never in a pot.
* When at most one seat still in the hand has chips, the remaining cards are dealt without
  betting (draws still happen: a seat all-in still draws).
* Showdown: every hand still in at the end is shown, all at once, as the site's convention (no
  mucking, no order of showing; the hand history lists them starting with the first bettor of
  the final round, or the first seat to act when nobody bet). Each pot (main, then side pots)
  is settled on its own among the seats eligible for it.
* Split pots: tied hands share a pot or a half equally; odd chips go one at a time to the tied
  seats in order clockwise from the button (the seat left of the button first).
* Hi-lo: each pot is split into a high half and a low half when at least one seat eligible for
  that pot has a qualifying eight-or-better low; the odd chip of an odd pot goes to the high
  half; with no qualifying low the high hand takes the whole pot. A seat *scoops* a pot contested
  by two or more seats when it alone takes all of it (both halves, or the high when no low
  qualified); ``result.scoop`` is the seat that scooped every contested pot it played for.
* Rake (public tables, big blind 20 or more): 3% of each pot rounded down, main pot first, at
  most three big blinds a hand, and only when the hand went past its first betting round (the
  flop was dealt, fourth street was dealt, the draw began): "no flop, no drop".
* Decision timeout: check if possible, else fold (a bring-in pending: post it; a draw: stand
  pat), and the seat goes on a break from the next hand (``state.breaks``). Logged as an
  ordinary action with ``timeout=True``.
* Views: a seat sees its own cards, every public card (boards, stud up cards, how many cards
  each seat drew), stacks, bets and its legal actions; other seats' hidden cards appear only
  once shown at the showdown; folded hands never appear; the deck never appears.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from rules_engine.betting import Betting, FixedLimit, NoLimit, Options, PotLimit, Structure
from rules_engine.cards import FULL_DECK, Card, Deck, format_cards
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, SetupError
from rules_engine.evaluation import HandValue, LowValue
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
from rules_engine.pots import clockwise_from_button, rake_pots, split_even

DECISION_SECONDS: dict[str, float] = {"slow": 37.5, "medium": 25.0, "fast": 12.0}
BUY_IN_MIN_BB = 5
BUY_IN_MAX_BB = 150
RAKE_PERCENT = 3
RAKE_CAP_BB = 3
RAKE_FROM_BIG_BLIND = 20

BET_KINDS = frozenset({"fold", "check", "call", "bet", "raise", "complete", "bring_in", "all_in"})
RAISE_KINDS = frozenset({"bet", "raise", "complete", "all_in"})
KINDS = BET_KINDS | {"draw"}


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def cards_json(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


class ClassicGame:
    """A game other than Patch-Patch: class-level settings and the classmethods the server uses.

    Subclasses set ``code`` (the PHH variant code), ``name``, ``FAMILY`` (``flop``, ``stud`` or
    ``draw``), ``STRUCTURE`` (``no-limit``, ``pot-limit`` or ``fixed-limit``), the player range
    and ``state_class``. ``CODE``/``NAME`` repeat ``code``/``name`` for callers that prefer
    capitals.
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    CODE: ClassVar[str] = ""
    NAME: ClassVar[str] = ""
    FAMILY: ClassVar[str] = ""
    STRUCTURE: ClassVar[str] = "no-limit"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 10
    HI_LO: ClassVar[bool] = False  # split high/low eight-or-better
    LOW_ONLY: ClassVar[bool] = False  # Razz
    DECISION_SECONDS: ClassVar[dict[str, float]] = DECISION_SECONDS
    state_class: ClassVar[type[ClassicState]]

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.CODE = cls.code
        cls.NAME = cls.name

    # -- setups -------------------------------------------------------------------------------

    @classmethod
    def setup_for_table(
        cls,
        *,
        stacks: Sequence[int],
        button: int,
        small_blind: int,
        big_blind: int,
        speed: str = "medium",
        public: bool = False,
        check_buy_in: bool = False,
        deck: Sequence[Card] | None = None,
    ) -> HandSetup:
        """A setup from what a table knows (its two blinds): the game derives the rest.

        The base version uses the blinds as they are, with no ante; fixed-limit games set the
        small bet to the big blind and the big bet to twice it; stud games add an ante and a
        bring-in (see each family's docstring).
        """
        small_bet = big_bet = 0
        if cls.STRUCTURE == "fixed-limit":
            small_bet, big_bet = big_blind, 2 * big_blind
        return HandSetup(
            stacks=tuple(stacks),
            button=button,
            small_blind=small_blind,
            big_blind=big_blind,
            speed=speed,
            public=public,
            check_buy_in=check_buy_in,
            deck=None if deck is None else tuple(deck),
            small_bet=small_bet,
            big_bet=big_bet,
        )

    @classmethod
    def structure(cls, setup: HandSetup) -> Structure:
        """The betting structure for this setup."""
        if cls.STRUCTURE == "no-limit":
            return NoLimit()
        if cls.STRUCTURE == "pot-limit":
            return PotLimit()
        return FixedLimit(setup.small_bet, setup.big_bet, big_from=cls.big_bet_from())

    @classmethod
    def big_bet_from(cls) -> int:
        """The first betting round (0-based) played with the big bet in fixed limit."""
        return 2

    @classmethod
    def cards_needed(cls, players: int) -> int:
        """How many cards a deck order must have for a hand of ``players``."""
        return 52

    @classmethod
    def validate_setup(cls, setup: HandSetup) -> None:
        """Raise :class:`SetupError` with a readable reason if the hand cannot be dealt."""
        if not isinstance(setup, HandSetup):
            raise SetupError("a hand starts from a HandSetup")
        stacks = setup.stacks
        n = len(stacks)
        if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
            raise SetupError(
                f"{cls.name} is dealt to {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players, not {n}"
            )
        for i, s in enumerate(stacks):
            if not _is_int(s):
                raise SetupError(f"seat {i}'s stack must be a whole number of chips, not {s!r}")
            if s <= 0:
                raise SetupError(f"seat {i} has no chips and cannot be dealt in")
        if not _is_int(setup.button) or not 0 <= setup.button < n:
            raise SetupError(
                f"the button must be one of the seats 0 to {n - 1}, not {setup.button!r}"
            )
        sb, bb = setup.small_blind, setup.big_blind
        if not _is_int(sb) or not _is_int(bb) or not 0 < sb <= bb:
            raise SetupError(
                "the blinds must be whole numbers with 0 < small blind <= big blind, "
                f"not {sb!r}-{bb!r}"
            )
        for name in ("ante", "bring_in", "small_bet", "big_bet", "straddle", "bomb", "seven_deuce"):
            value = getattr(setup, name)
            if not _is_int(value) or value < 0:
                raise SetupError(f"{name.replace('_', ' ')} must be a whole number of chips, not {value!r}")
        if cls.STRUCTURE == "fixed-limit" and not 0 < setup.small_bet <= setup.big_bet:
            raise SetupError(
                "fixed limit needs 0 < small bet <= big bet, "
                f"not {setup.small_bet}/{setup.big_bet}"
            )
        if setup.speed not in SPEEDS:
            raise SetupError(f"the table speed is slow, medium or fast, not {setup.speed!r}")
        if setup.check_buy_in:
            for i, s in enumerate(stacks):
                if not BUY_IN_MIN_BB * bb <= s <= BUY_IN_MAX_BB * bb:
                    raise SetupError(
                        f"seat {i} brings {s} chips: the buy-in is {BUY_IN_MIN_BB} to "
                        f"{BUY_IN_MAX_BB} big blinds ({BUY_IN_MIN_BB * bb} to {BUY_IN_MAX_BB * bb})"
                    )
        for what, order in (("deck", setup.deck), ("reshuffle", setup.reshuffle)):
            if order is None:
                continue
            if not all(isinstance(c, Card) for c in order):
                raise SetupError(f"a {what} order is a sequence of cards")
            if len(set(order)) != len(order):
                raise SetupError(f"a {what} cannot hold the same card twice")
        if setup.deck is not None:
            need = cls.cards_needed(n)
            if len(setup.deck) < need:
                raise SetupError(f"{n} players need {need} cards, the deck has {len(setup.deck)}")
        cls._validate_posts(setup, n)
        cls._validate_straddle(setup, n)
        if setup.bomb:
            if cls.FAMILY != "flop":
                raise SetupError(f"{cls.name} has no bomb pot (Hold'em and Omaha only)")
            if setup.straddle or setup.posts:
                raise SetupError("a bomb pot has no blinds: nobody straddles or posts one to come in")
        if setup.seven_deuce and (cls.FAMILY != "flop" or getattr(cls, "HOLE", 0) != 2):
            raise SetupError(f"{cls.name} has no seven-deuce bounty (Hold'em only)")
        if setup.run_twice:
            if cls.FAMILY != "flop":
                raise SetupError(f"{cls.name} is not run twice (Hold'em and Omaha only)")
            agreed = setup.run_twice
            if not all(_is_int(p) and 0 <= p < n for p in agreed) or len(set(agreed)) != len(agreed):
                raise SetupError(f"the seats agreeing to run it twice are different seats 0 to {n - 1}, not {list(agreed)}")
        cls.validate_extra(setup)

    @classmethod
    def _validate_posts(cls, setup: HandSetup, n: int) -> None:
        """Big blinds posted to come in (``setup.posts``) and dead small blinds (``setup.dead``):
        blind games only, distinct seats that are not the blinds' own, three players or more."""
        for posts, what in ((setup.posts, "posted big blinds"), (setup.dead, "dead small blinds")):
            if not posts:
                continue
            if cls.FAMILY not in ("flop", "draw"):
                raise SetupError(f"{cls.name} has no blinds: nobody posts one out of turn")
            if not all(_is_int(p) and 0 <= p < n for p in posts) or len(set(posts)) != len(posts):
                raise SetupError(f"{what} come from different seats 0 to {n - 1}, not {list(posts)}")
            if n < 3:
                raise SetupError("heads-up nobody posts a blind out of turn")
            blinds = ((setup.button + 1) % n, (setup.button + 2) % n)
            if any(p in blinds for p in posts):
                raise SetupError("the small and big blind's seats post their own blinds, not another")

    @classmethod
    def _validate_straddle(cls, setup: HandSetup, n: int) -> None:
        """A straddle: twice the big blind, from the seat left of the big blind, in no-limit or
        pot-limit Hold'em and Omaha with three players or more, a seat that is not also posting
        to come in and has more chips than the straddle."""
        if not setup.straddle:
            return
        if cls.FAMILY != "flop" or cls.STRUCTURE == "fixed-limit":
            raise SetupError(f"{cls.name} has no straddle (no-limit and pot-limit Hold'em and Omaha only)")
        if setup.straddle != 2 * setup.big_blind:
            raise SetupError(f"a straddle is twice the big blind ({2 * setup.big_blind}), not {setup.straddle}")
        if n < 3:
            raise SetupError("heads-up nobody straddles")
        seat = (setup.button + 3) % n
        if seat in setup.posts or seat in setup.dead:
            raise SetupError("the seat left of the big blind posts to come in this hand: it cannot straddle too")
        need = setup.straddle + setup.ante  # the ante goes in first
        if setup.stacks[seat] <= need:
            raise SetupError(f"seat {seat} has {setup.stacks[seat]} chips: a straddle needs more than {need}")

    @classmethod
    def validate_extra(cls, setup: HandSetup) -> None:
        """Family-specific checks (bring-in, reshuffle order)."""

    # -- hands --------------------------------------------------------------------------------

    @classmethod
    def complete_setup(cls, setup: HandSetup, rng: random.Random | None) -> HandSetup:
        """The setup with a deck order (shuffled with ``rng``, else the OS CSPRNG) if it has none."""
        if setup.deck is not None:
            return setup
        return _replace(setup, deck=Deck.shuffled(rng).order)

    @classmethod
    def start(cls, setup: HandSetup, rng: random.Random | None = None) -> Any:
        """Deal a new hand: validate the setup, shuffle unless it has a deck, post forced bets.

        ``rng`` is used only when ``setup.deck`` is ``None``; without it the deck comes from the
        operating system's CSPRNG. The returned state's ``setup`` carries the deck order, so
        ``V.replay(state.setup, state.log)`` rebuilds it. The events of the deal are in
        ``state.start_events``.
        """
        cls.validate_setup(setup)
        return cls.state_class(cls, cls.complete_setup(setup, rng))

    @classmethod
    def replay(cls, setup: HandSetup, log: Iterable[Action]) -> Any:
        """Rebuild a hand from its setup (with its deck) and its action log."""
        if setup.deck is None:
            raise SetupError("replaying a hand needs the deck order it was dealt from")
        state = cls.start(setup)
        for action in log:
            state.apply(action)
        return state

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Any:
        """Restore a state saved by ``state.to_json()`` (by replaying its log)."""
        if not isinstance(data, Mapping) or data.get("variant") != cls.code:
            raise SetupError(f"this is not a saved {cls.name} hand")
        setup = HandSetup.from_json(data["setup"])
        log = [Action.from_json(a) for a in data.get("log", [])]
        return cls.replay(setup, log)

    @staticmethod
    def deal_order(button: int, players: int) -> tuple[int, ...]:
        """Seats in the order cards are dealt: left of the button first, the button last."""
        return clockwise_from_button(button, players)


def _replace(setup: HandSetup, **changes: Any) -> HandSetup:
    return dataclasses.replace(setup, **changes)


def fill_deck(slots: Sequence[Card | None], rest: Sequence[Card] = FULL_DECK) -> tuple[Card, ...]:
    """A full deck order from ``slots`` (``None``: any card), the unused cards filling the gaps
    (lowest first) and following at the end."""
    used = [c for c in slots if c is not None]
    if len(set(used)) != len(used):
        raise SetupError("a stacked deck cannot hold the same card twice")
    taken = set(used)
    spare = iter([c for c in rest if c not in taken])
    filled = [c if c is not None else next(spare) for c in slots]
    return tuple(filled) + tuple(spare)


class ClassicState:
    """One hand of a classic game. Create it with ``V.start(setup)``.

    Family subclasses implement :meth:`_begin` (deal and post, open the first round),
    :meth:`_advance` (after a betting round: the next street, the draw or the showdown) and the
    hand values used at the showdown.
    """

    PHASES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: type[ClassicGame], setup: HandSetup) -> None:
        assert setup.deck is not None
        self.game = game
        self.variant = game.code
        self.setup = setup
        n = len(setup.stacks)
        self.n = n
        self.button = setup.button
        self._order = clockwise_from_button(setup.button, n)
        self._deck = setup.deck
        self._pos = 0
        self.hole: list[list[Card]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self._bet = Betting(
            setup.stacks, game.structure(setup), setup.big_blind, short_all_ins_add_up=True
        )
        self.round = 0  # betting round index, 0 for the first
        self.phase = self._phase_names()[0]
        self.breaks: set[int] = set()
        self.log: list[Action] = []
        self.acts: dict[int, str] = {}  # each seat's last act in the betting round under way
        self.result: HandResult | None = None
        self._returned = [0] * n
        self._bring_in_pending = False
        self._completing = False  # a bring-in is in and nobody has completed it yet
        self.bring_in_seat: int | None = None
        self.small_blind_seat: int | None = None
        self.big_blind_seat: int | None = None
        #: Number of actions applied when the betting ended for good with two or more seats in
        #: (the runout and showdown follow); the hand history shows the hands there.
        self.showdown_after: int | None = None
        self._legal_key: tuple[int, int] | None = None
        self._legal_cache: list[LegalAction] = []
        self._first_bettor: int | None = None
        self._round_first: int | None = None
        self.start_events: list[Event] = self._begin()

    # -- dealing helpers ----------------------------------------------------------------------

    def _draw_cards(self, k: int) -> tuple[Card, ...]:
        cards = self._deck[self._pos : self._pos + k]
        if len(cards) < k:
            raise SetupError("the deck ran out of cards")  # validated setups never get here
        self._pos += k
        return cards

    def _post_antes(self, ev: list[Event]) -> None:
        ante = self.setup.ante
        if not ante:
            return
        for seat in self._order:
            paid = self._bet.post(seat, ante, live=False)
            ev.append(Event("ante", seat=seat, amount=paid))

    def _post_big_blinds(self, ev: list[Event]) -> None:
        """Seats coming in out of turn post, clockwise: a dead small blind owed for one missed
        (``setup.dead``) into the pot, then a live big blind (``setup.posts``)."""
        posts, dead = set(self.setup.posts), set(self.setup.dead)
        for seat in self._order:
            if seat in dead:
                paid = self._bet.post_dead_blind(seat, self.setup.small_blind)
                ev.append(Event("dead", seat=seat, amount=paid))
            if seat in posts and not self._bet.all_in[seat]:
                paid = self._bet.post(seat, self.setup.big_blind)
                ev.append(Event("post", seat=seat, amount=paid))

    def _open_round(self, first: int, ev: list[Event], **kw: Any) -> bool:
        """Open a betting round; True when a seat must act (else the caller deals on)."""
        self._bet.open_round(first, **kw)
        self._first_bettor = None
        self._completing = False  # only third street's bring-in is ever completed
        self._round_first = self._bet.to_act
        if self._bet.to_act is None:
            return False
        ev.append(Event("street", pot=self._bet.pot))
        return True

    # -- family hooks -------------------------------------------------------------------------

    def _phase_names(self) -> tuple[str, ...]:
        """The betting phases in order (``over`` follows the last)."""
        return self.PHASES

    def _begin(self) -> list[Event]:
        raise NotImplementedError

    def _advance(self, ev: list[Event]) -> None:
        """A betting round is over with two or more seats in the hand: move the hand on."""
        raise NotImplementedError

    def _high_value(self, seat: int) -> int:
        raise NotImplementedError

    def _high_hand(self, seat: int) -> HandValue:
        raise NotImplementedError

    def _low_hand(self, seat: int) -> LowValue | None:
        return None

    def _passed_first_round(self) -> bool:
        """Whether the hand went past its first betting round (for the rake)."""
        return self.round >= 1

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
        pots = self._bet.collected_pots(between_rounds=self._waiting_for_draw())
        return [p.amount for p in pots] if len(pots) > 1 else []

    @property
    def bets(self) -> tuple[int, ...]:
        return tuple(self._bet.bets)

    @property
    def contributed(self) -> tuple[int, ...]:
        return tuple(self._bet.contributed)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._bet.folded)

    @property
    def all_in(self) -> tuple[bool, ...]:
        return tuple(self._bet.all_in)

    @property
    def in_hand(self) -> tuple[int, ...]:
        return tuple(self._bet.in_hand())

    @property
    def to_act(self) -> int | None:
        """The seat whose betting decision the hand waits for (``None`` otherwise)."""
        if self.phase == "over" or self._waiting_for_draw():
            return None
        return self._bet.to_act

    def _waiting_for_draw(self) -> bool:
        return False

    def _drawer(self) -> int | None:
        return None

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards in the order dealt (hidden information: server only)."""
        return tuple(self.hole[seat])

    def actors(self) -> tuple[int, ...]:
        """Seats whose input the hand waits for (one at a time in these games)."""
        if self.phase == "over":
            return ()
        drawer = self._drawer()
        if drawer is not None:
            return (drawer,)
        to_act = self._bet.to_act
        return () if to_act is None else (to_act,)

    def clock(self) -> str | None:
        """Which clock the server should run: ``decision`` or ``None`` (hand over)."""
        return None if self.phase == "over" else "decision"

    def clock_seconds(self) -> float | None:
        return None if self.clock() is None else DECISION_SECONDS[self.setup.speed]

    def legal_actions(self, seat: int) -> list[LegalAction]:
        """Every action the seat may take now, with exact amounts (empty if none)."""
        if self.phase == "over" or not _is_int(seat) or not 0 <= seat < self.n:
            return []
        drawer = self._drawer()
        if drawer is not None:
            return self._draw_legal(seat) if seat == drawer else []
        if seat != self._bet.to_act:
            return []
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[LegalAction]:
        """The betting options of the seat to act, computed once per state (the server and the
        engine both ask for them on every action)."""
        key = (len(self.log), seat)
        if self._legal_key != key:
            self._legal_cache = self._betting_legal(seat, self._bet.options(seat))
            self._legal_key = key
        return self._legal_cache

    def _draw_legal(self, seat: int) -> list[LegalAction]:
        return []

    def _raise_kind(self, o: Options) -> str:
        """``bet`` with nothing to match, ``complete`` over a bare bring-in, else ``raise``."""
        if o.level == 0:
            return "bet"
        if self._completing:
            return "complete"
        return "raise"

    def _betting_legal(self, seat: int, o: Options) -> list[LegalAction]:
        out: list[LegalAction] = []
        if self._bring_in_pending:
            amount = min(self.setup.bring_in, o.stack)
            out.append(
                LegalAction("bring_in", amount, amount, amount, amount == o.stack, amount, amount)
            )
        elif o.call == 0:
            out.append(LegalAction("check", 0, o.bet, 0, False))
        else:
            out.append(LegalAction("fold"))
            out.append(LegalAction("call", o.call, o.bet + o.call, o.call, o.call_all_in))
        if o.min_to is None or o.max_to is None or o.full_to is None:
            return out
        lo, hi = o.min_to, o.max_to
        most = o.bet + o.stack
        if lo < o.full_to:
            # Short of a full bet or raise: the only raise is all of it.
            out.append(LegalAction("all_in", hi, hi, hi - o.bet, True, hi, hi))
            return out
        kind = "complete" if self._bring_in_pending else self._raise_kind(o)
        if self._bet.structure.discrete:
            for to in (lo, hi) if hi != lo else (lo,):
                out.append(LegalAction(kind, to, to, to - o.bet, to == most, to, to))
        else:
            out.append(LegalAction(kind, lo, lo, lo - o.bet, lo == most, lo, hi))
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
                f"{kind!r} is not a {self.game.name} action: use fold, check, call, bet, raise, "
                "complete, bring_in, all_in" + (" or draw" if self.game.FAMILY == "draw" else "")
            )
        if action.amount is not None and (not _is_int(action.amount) or action.amount < 0):
            raise MalformedAction(f"an amount is a whole number of chips, not {action.amount!r}")
        if action.order:
            raise MalformedAction(f"{kind} takes no card order")
        if self.phase == "over":
            raise IllegalAction("the hand is over")
        events = self._draw(action) if kind == "draw" else self._wager(action)
        self.log.append(action)
        note_acts(self.acts, events)
        return events

    def timeout(self) -> list[Event]:
        """Apply the timeout for the running clock: check if possible, else fold (post a pending
        bring-in; stand pat in a draw). The seat goes on a break from the next hand."""
        if self.phase == "over":
            raise IllegalAction("the hand is over: there is no clock to run out")
        drawer = self._drawer()
        if drawer is not None:
            return self.apply(Action(seat=drawer, kind="draw", timeout=True))
        seat = self._bet.to_act
        assert seat is not None
        return self.apply(Action(seat=seat, kind=self._timeout_kind(seat), timeout=True))

    def _timeout_kind(self, seat: int) -> str:
        if self._bring_in_pending:
            return "bring_in"
        return "check" if any(la.kind == "check" for la in self._legal_now(seat)) else "fold"

    def _break(self, seat: int, events: list[Event]) -> None:
        events.append(Event("timeout", seat=seat))
        if seat not in self.breaks:
            self.breaks.add(seat)
            events.append(Event("break", seat=seat))

    def _draw(self, action: Action) -> list[Event]:
        raise IllegalAction(f"{self.game.name} has no draw")

    def _wager(self, action: Action) -> list[Event]:
        seat, kind = action.seat, action.kind
        if action.cards:
            raise MalformedAction(f"{kind} takes no cards")
        bet = self._bet
        if self._drawer() is not None:
            raise IllegalAction("the betting resumes when every seat has drawn")
        if seat != bet.to_act:
            if bet.to_act is None:
                raise IllegalAction("nobody can bet now")
            raise OutOfTurn(f"it is seat {bet.to_act}'s turn to act, not seat {seat}'s")
        legal = self._legal_now(seat)
        matches = [la for la in legal if la.kind == kind]
        if not matches:
            raise IllegalAction(_why_not(kind, legal))
        match = matches[0]
        amount = action.amount
        to = match.to
        if kind in RAISE_KINDS:
            if amount is not None:
                lo = match.min_amount if match.min_amount is not None else match.to
                hi = matches[-1].max_amount if matches[-1].max_amount is not None else match.to
                allowed = (
                    {la.to for la in matches} if bet.structure.discrete or kind == "all_in" else None
                )
                if (allowed is not None and amount not in allowed) or not lo <= amount <= hi:
                    sizes = " or ".join(str(x) for x in sorted(allowed)) if allowed else f"{lo} to {hi}"
                    raise IllegalAction(f"seat {seat} may {kind.replace('_', ' ')} to {sizes}, not {amount}")
                to = amount
        elif amount is not None and amount != match.amount:
            if kind in ("fold", "check"):
                raise IllegalAction(f"{kind} takes no amount")
            raise IllegalAction(f"{match.label.lower()} is the only amount, not {amount}")
        if action.timeout:
            expected = self._timeout_kind(seat)
            if kind != expected:
                raise IllegalAction(f"a timeout {expected.replace('_', ' ')}s here, it does not {kind}")
        events: list[Event] = []
        if action.timeout:
            self._break(seat, events)
        if kind == "fold":
            bet.fold(seat)
            events.append(Event("fold", seat=seat))
        elif kind == "check" or kind == "call":
            paid = bet.check_or_call(seat)
            events.append(Event(kind, seat=seat, amount=paid))
        elif kind == "bring_in":
            paid = bet.bring_in(seat, self.setup.bring_in)
            self._bring_in_pending = False
            self._completing = True
            events.append(Event("bring_in", seat=seat, amount=paid))
        else:
            if bet.bet_or_raise_to(seat, to):
                self._completing = False
            self._bring_in_pending = False
            if self._first_bettor is None:
                self._first_bettor = seat
            events.append(Event(kind, seat=seat, amount=to))
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
        if bet.can_bet_count() <= 1 and not self._decisions_remain():
            # Nobody can bet again: the rest is dealt out to the showdown.
            self._at_showdown()
        self._advance(ev)

    def _decisions_remain(self) -> bool:
        """Whether seats still decide something when nobody can bet (a draw)."""
        return False

    _in_start = False

    def _start_over(self, ev: list[Event]) -> None:
        """After the forced bets: if nobody can act in the first round, move on at once."""
        if self._bet.to_act is None and self._drawer() is None:
            self._in_start = True
            try:
                self._round_over(ev)
            finally:
                self._in_start = False

    def _at_showdown(self) -> None:
        if self.showdown_after is None:
            self.showdown_after = len(self.log) + (0 if self._in_start else 1)

    def _rake(self, amounts: Sequence[int]) -> tuple[int, ...]:
        s = self.setup
        if not (s.public and s.big_blind >= RAKE_FROM_BIG_BLIND and self._passed_first_round()):
            return tuple(0 for _ in amounts)
        return rake_pots(amounts, RAKE_PERCENT, RAKE_CAP_BB * s.big_blind)

    def _settle_uncontested(self, winner: int, ev: list[Event]) -> None:
        bet = self._bet
        pots = bet.pots()
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

    def _runs(self) -> int:
        """How many times the board was run (Hold'em and Omaha may run it twice)."""
        return 1

    def _use_run(self, run: int) -> None:
        """Make the hand values read run ``run``'s board (only Hold'em and Omaha have two)."""

    def _showdown(self, ev: list[Event]) -> None:
        bet = self._bet
        n = self.n
        game = self.game
        self._at_showdown()
        live = bet.in_hand()
        for s in self._show_order(live):
            ev.append(Event("show", seat=s, cards=tuple(self.hole[s])))
        runs = self._runs()
        highs: list[dict[int, int]] = []
        lows: list[dict[int, LowValue | None]] = []
        rich: list[dict[int, HandValue]] = []
        for r in range(runs):
            self._use_run(r)
            highs.append({s: self._high_value(s) for s in live} if not game.LOW_ONLY else {})
            lows.append({s: self._low_hand(s) for s in live} if game.HI_LO or game.LOW_ONLY else {})
            rich.append({})
        pots = bet.pots()
        rakes = self._rake([p.amount for p in pots])
        payouts = [0] * n
        results: list[PotResult] = []
        order = self._order
        for k, (pot, rake) in enumerate(zip(pots, rakes, strict=True)):
            amount = pot.amount - rake
            elig = pot.eligible
            per = [0] * n
            parts = []
            takers: set[int] = set()
            for r in range(runs):
                self._use_run(r)
                # Run twice: each run plays for half of every pot, the odd chip to the first.
                run_amount = amount - amount // 2 if runs == 2 and r == 0 else amount // runs
                halves: list[tuple[str, int, list[int]]] = []
                hi, lo = highs[r], lows[r]
                if game.LOW_ONLY:
                    best_low = max(lo[s].value for s in elig)  # type: ignore[union-attr]
                    halves.append(("low", run_amount, [s for s in elig if lo[s].value == best_low]))  # type: ignore[union-attr]
                else:
                    best = max(hi[s] for s in elig)
                    high_winners = [s for s in elig if hi[s] == best]
                    qualified = [s for s in elig if lo.get(s) is not None]
                    if game.HI_LO and qualified:
                        best_low = max(lo[s].value for s in qualified)  # type: ignore[union-attr]
                        low_winners = [s for s in qualified if lo[s].value == best_low]  # type: ignore[union-attr]
                        low_share = run_amount // 2
                        halves.append(("high", run_amount - low_share, high_winners))
                        halves.append(("low", low_share, low_winners))
                    else:
                        halves.append(("high", run_amount, high_winners))
                for half, share, winners in halves:
                    split = split_even(share, winners, order)
                    wins = []
                    for s, won in split.items():
                        per[s] += won
                        if half == "high":
                            hv = rich[r].get(s)
                            if hv is None:
                                hv = rich[r][s] = self._high_hand(s)
                            wins.append(BoardWin(s, won, hv.cards, hv.category.label, hv.describe()))
                        else:
                            lv = lo[s]
                            assert lv is not None
                            wins.append(BoardWin(s, won, lv.cards, "low", lv.describe()))
                        ev.append(Event("win", seat=s, amount=won, pot=k, board=r if runs > 1 else None))
                    takers.update(winners if len(winners) == 1 else (-1,))
                    parts.append(BoardResult(r, share, tuple(wins), half))
            self._use_run(0)
            scoop = None
            if game.HI_LO and len(elig) > 1 and len(takers) == 1 and -1 not in takers:
                scoop = next(iter(takers))
            for s in range(n):
                payouts[s] += per[s]
            results.append(PotResult(k, pot.amount, rake, elig, tuple(parts), tuple(per), scoop))
        hand_scoop = None
        if game.HI_LO:
            for s in live:
                contested = [p for p in results if s in p.eligible and len(p.eligible) > 1]
                if contested and all(p.scoop == s for p in contested):
                    hand_scoop = s
        self._finish(results, payouts, showdown=True, scoop=hand_scoop, shown=tuple(live), ev=ev)

    def _show_order(self, live: Sequence[int]) -> list[int]:
        """The order the hands are listed: from the final round's first bettor (or, when nobody
        bet, its first seat to act, who checked first), clockwise, as GAMES.md's showdown order
        says. Every hand is shown at once; this only orders the history."""
        start = self._first_bettor if self._first_bettor is not None else self._round_first
        if start is None:
            start = self._order[0]
        return [s for k in range(self.n) if (s := (start + k) % self.n) in live]

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
        stacks = [s + p for s, p in zip(bet.stacks, payouts, strict=True)]
        bounty: tuple[int, ...] = ()
        taker = self._bounty_taker(pots, payouts)
        if taker is not None:
            # Every other seat pays the seven-deuce bounty from what it has left after the pots.
            paid = [0 if s == taker else min(self.setup.seven_deuce, stacks[s]) for s in range(self.n)]
            bounty = tuple(sum(paid) if s == taker else -paid[s] for s in range(self.n))
            stacks = [st + b for st, b in zip(stacks, bounty, strict=True)]
            if taker not in shown:
                shown = (*shown, taker)
                ev.append(Event("show", seat=taker, cards=tuple(self.hole[taker])))
            ev.append(Event("bounty", seat=taker, amount=sum(paid)))
        self.result = HandResult(
            showdown=showdown,
            pots=tuple(pots),
            contributions=contributions,
            returned=tuple(self._returned),
            payouts=tuple(payouts),
            net=tuple(p - c + (bounty[i] if bounty else 0)
                      for i, (p, c) in enumerate(zip(payouts, contributions, strict=True))),
            rake=rake,
            stacks=tuple(stacks),
            scoop=scoop,
            shown=shown,
            bounty=bounty,
        )
        self.phase = "over"
        ev.append(Event("hand_over"))

    def _bounty_taker(self, pots: Sequence[PotResult], payouts: Sequence[int]) -> int | None:
        """The seat that wins the seven-deuce bounty: it holds a seven and a deuce and took every
        pot it played for whole (on both runs), or None."""
        if not self.setup.seven_deuce:
            return None
        for s in range(self.n):
            if payouts[s] <= 0 or self._bet.folded[s] or sorted(c.rank for c in self.hole[s]) != [2, 7]:
                continue
            if all(p.payouts[s] == p.amount - p.rake for p in pots if s in p.eligible):
                return s
        return None

    # -- what a seat sees ---------------------------------------------------------------------

    def made_hand(self, seat: int) -> dict[str, Any] | None:
        """What the seat's cards make so far (high and, where the game has one, low), or None."""
        return None

    def _player_view(self, i: int, visible: bool) -> dict[str, Any]:
        return {}

    def _table_view(self) -> dict[str, Any]:
        return {}

    def runout_streets(self) -> int:
        """The streets dealt at once after the betting ended for good (a run-out): none here."""
        return 0

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as plain JSON-able data.

        Never another seat's unshown hidden cards, a folded hand, or the deck.
        """
        if seat is not None and (not _is_int(seat) or not 0 <= seat < self.n):
            raise MalformedAction(f"there is no seat {seat!r} at this {self.n}-player hand")
        bet = self._bet
        result = self.result
        shown = set(result.shown) if result is not None else set()
        players = []
        for i in range(self.n):
            visible = i == seat or i in shown
            p: dict[str, Any] = {
                "seat": i,
                "stack": self.stacks[i],
                "bet": 0 if result is not None else bet.bets[i],
                "contributed": bet.contributed[i],
                "folded": bet.folded[i],
                "act": None if result is not None else self.acts.get(i),
                "all_in": bet.all_in[i] and result is None,
                "in_hand": not bet.folded[i],
                "button": i == self.button,
                "small_blind": i == self.small_blind_seat,
                "big_blind": i == self.big_blind_seat,
                "on_break": i in self.breaks,
                "shown": i in shown,
                "cards": cards_json(self.hole[i]) if visible else None,
                # How many cards the seat holds is public (their backs are on the table).
                "hole_count": len(self.hole[i]),
            }
            p.update(self._player_view(i, visible))
            if result is not None and i in shown and not bet.folded[i]:
                # A hand turned over at the showdown is named, winner or not, as card rooms do
                # (found by an audit: only the winners' hands were). Its cards are public now.
                p["made"] = self.made_hand(i)
            players.append(p)
        legal = [la.to_json() for la in self.legal_actions(seat)] if seat is not None else []
        setup = self.setup
        view: dict[str, Any] = {
            "variant": self.game.code,
            "game": self.game.name,
            "family": self.game.FAMILY,
            "structure": self.game.STRUCTURE,
            "viewer": seat,
            "phase": self.phase,
            "speed": setup.speed,
            "public": setup.public,
            "button": self.button,
            "small_blind": setup.small_blind,
            "big_blind": setup.big_blind,
            "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat,
            "ante": setup.ante,
            "bring_in": self.bring_in_seat,
            "bring_in_amount": setup.bring_in,
            "small_bet": setup.small_bet,
            "big_bet": setup.big_bet,
            "pot": self.pot,
            "side_pots": self.side_pots(),
            "board": cards_json(self.board),
            "actors": list(self.actors()),
            "to_act": self.to_act,
            "clock": self.clock(),
            "clock_seconds": self.clock_seconds(),
            "players": players,
            "you": None,
            "legal_actions": legal,
            "result": None if result is None else result.to_json(),
        }
        view.update(self._table_view())
        if seat is not None:
            view["you"] = {
                "seat": seat,
                "cards": cards_json(self.hole[seat]),
                "made": None if bet.folded[seat] else self.made_hand(seat),
                "legal_actions": legal,
            }
        return view

    # -- storage ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The hand's truth: its setup (with the deck) and its action log. Server-side only."""
        return {
            "variant": self.game.code,
            "version": 1,
            "setup": self.setup.to_json(),
            "log": [a.to_json() for a in self.log],
        }

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data (hidden cards included): for equality tests."""
        return {
            "variant": self.game.code,
            "setup": self.setup.to_json(),
            "phase": self.phase,
            "round": self.round,
            "hole": [format_cards(h) for h in self.hole],
            "board": format_cards(self.board),
            "dealt": self._pos,
            "betting": self._bet.to_json(),
            "breaks": sorted(self.breaks),
            "returned": list(self._returned),
            "log": [a.to_json() for a in self.log],
            "result": None if self.result is None else self.result.to_json(),
            **self._snapshot_extra(),
        }

    def _snapshot_extra(self) -> dict[str, Any]:
        return {}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassicState):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.code} {self.phase} pot={self.pot} "
            f"stacks={list(self.stacks)}>"
        )


def _why_not(kind: str, legal: list[LegalAction]) -> str:
    options = ", ".join(la.label.lower() for la in legal)
    kinds = {la.kind for la in legal}
    if kind == "fold" and "check" in kinds:
        reason = "nobody has bet, so there is nothing to fold to: check instead"
    elif kind == "fold" and "bring_in" in kinds:
        reason = "the bring-in is forced: bring in or complete"
    elif kind == "check":
        call = next((la for la in legal if la.kind == "call"), None)
        reason = f"there is a bet to call ({call.amount} more)" if call else "you cannot check now"
    elif kind == "call":
        reason = "there is nothing to call"
    elif kind == "bet":
        reason = "there is already a bet: raise instead" if "call" in kinds else "you cannot bet now"
    elif kind in ("raise", "complete"):
        if "all_in" in kinds:
            reason = "your stack is short of a full raise: go all-in instead"
        elif "bet" in kinds:
            reason = "nobody has bet: bet instead"
        elif "complete" in kinds:
            reason = "the bring-in is completed first: complete instead"
        elif "raise" in kinds:
            reason = "the bet is already completed: raise instead"
        else:
            reason = "the betting is not open to a raise from you"
    elif kind == "all_in":
        reason = "you can make a full bet or raise: choose its size (the most is all-in)"
        if not kinds & RAISE_KINDS:
            reason = "the betting is not open to a raise from you"
    elif kind == "bring_in":
        reason = "only the seat that brings in posts a bring-in, at the start of the first round"
    elif kind == "draw":
        reason = "the draw comes after the first betting round"
    else:
        reason = "that is not possible now"
    return f"{reason} (you may: {options})"

"""The betting core: one round-by-round state machine, many betting structures.

:class:`Betting` knows seats, stacks, who has folded or is all-in, the chips each seat has put in
this round and in the hand, whose turn it is and when a round is over. It knows nothing about
cards. How big a bet or raise may be is asked of a pluggable :class:`Structure`:

* :class:`PotOnly` (Patch-Patch): every bet and raise is exactly the pot;
* :class:`PotLimit`: from a minimum raise up to the pot;
* :class:`NoLimit`: from a minimum raise up to the whole stack;
* :class:`FixedLimit`: a small bet, then a big bet from a given round on, with a cap.

A game (``rules_engine.games.*``) posts forced bets with :meth:`Betting.post` (blinds are live,
antes are dead), opens each round with :meth:`Betting.open_round`, asks :meth:`Betting.options`
for a seat's choices and applies :meth:`Betting.fold`, :meth:`Betting.check_or_call` or
:meth:`Betting.bet_or_raise_to`. A stud bring-in is :meth:`Betting.bring_in`: a live post made
as the first action of the round by the seat the game picks; it is not a full bet, so the next
full bet *completes* it to the small bet (:class:`FixedLimit` sizes a first bet as the bet size
itself, not the level plus the bet size), and stud games need no second copy of this module.

Rules every structure shares (GAMES.md sections 2 and 3), as decided here:

* Raise-to amounts are totals for the round (a seat's bet after raising), as in PHH ``cbr``.
* A seat with fewer chips than a full bet or raise may go all-in instead; the structure's own
  limits still apply (a pot-only stack larger than the pot cannot go all-in).
* A bet or raise is *full* when it reaches the structure's minimum (for pot-only: the pot). A
  full bet or raise reopens the betting for everyone; a short all-in does not reopen it for
  seats that have already acted in the round (a check counts as acting): they may call or fold.
  By default (Patch-Patch) several short all-ins never add up to a reopening. With
  ``short_all_ins_add_up=True`` (every other game) a seat that has acted may raise again once
  the chips it faces since its own last action reach a full raise (the last full bet or raise
  of the round, at least the minimum bet): the card-room rule that "cumulative short all-ins
  totalling a full raise reopen the betting".
* Folding is offered only when there is something to call: with nothing to call a seat checks.
* Nobody may raise when no other seat still in the hand could put in more than the bet to match
  (everyone else is all-in, or would be by calling); a seat alone with chips never has to call
  more than the most any opponent has in the round.
* A forced bet that the stack cannot cover is posted all-in for what is there; the amount to
  call stays the full big blind while another seat can still match it.
* At the end of each round the unmatched top of the largest contribution is returned to its
  owner (:meth:`Betting.return_uncalled`).

>>> b = Betting([1000, 1000, 1000], PotOnly(), big_blind=10)
>>> b.post(1, 5); b.post(2, 10); b.open_round(0, preflop=True)
5
10
>>> o = b.options(0)
>>> (o.call, o.min_to, o.max_to, b.pot)   # P1: call 10 or raise to 35
(10, 35, 35, 15)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rules_engine.errors import IllegalAction
from rules_engine.pots import Pot, build_pots, uncalled


@dataclass(frozen=True, slots=True)
class Wager:
    """What a structure needs to size a bet or raise for the seat to act."""

    pot: int  # every chip in the middle, this round's bets included
    level: int  # the bet to match this round
    bet: int  # the seat's own bet this round
    stack: int  # the seat's chips behind
    last_raise: int  # the size of the last full bet or raise this round (the big blind pre-flop)
    raises: int  # full bets and raises so far this round (a live big blind counts as one)
    street: int  # 0 for the first betting round
    big_blind: int
    bet_size: int = 0  # fixed limit: the size every full bet takes this round (0: by street)
    choice: tuple[int, int] | None = None  # fixed limit: the opening bet may be either size


class Structure:
    """How big a bet or raise may be. Subclasses override :meth:`raise_range`."""

    code: ClassVar[str] = ""

    #: Only the two ends of :meth:`raise_range` are legal sizes (fixed limit), not every amount
    #: between them.
    discrete: ClassVar[bool] = False

    def raise_range(self, w: Wager) -> tuple[int, int] | None:
        """``(smallest full raise-to, largest raise-to)`` before looking at the stack.

        ``None`` when no bet or raise is allowed at all (a fixed-limit cap).
        """
        raise NotImplementedError

    def full_raise(self, w: Wager) -> int:
        """The chips a full bet or raise adds over the level now (the reopening yardstick)."""
        return max(w.last_raise, w.big_blind)


class PotOnly(Structure):
    """Patch-Patch: every bet and every raise is exactly the pot.

    raise-to = the bet faced + the pot after the call (with nothing to call, a bet of the pot).

    >>> PotOnly().raise_range(Wager(pot=120, level=60, bet=0, stack=999, last_raise=60,
    ...                             raises=1, street=1, big_blind=10))
    (240, 240)
    """

    code = "pot-only"

    def raise_range(self, w: Wager) -> tuple[int, int]:
        to = w.level + w.pot + (w.level - w.bet)
        return to, to


class PotLimit(Structure):
    """Pot limit: at least the last bet or raise again (or a big blind), at most the pot.

    Seed example (GAMES.md section 3): pot 200, a bet of 150 and a call of 150: the next seat
    may raise to at most 800.

    >>> PotLimit().raise_range(Wager(pot=500, level=150, bet=0, stack=9999, last_raise=150,
    ...                              raises=1, street=1, big_blind=10))
    (300, 800)
    """

    code = "pot-limit"

    def raise_range(self, w: Wager) -> tuple[int, int]:
        largest = w.level + w.pot + (w.level - w.bet)
        smallest = w.level + max(w.last_raise, w.big_blind)
        return min(smallest, largest), largest


class NoLimit(Structure):
    """No limit: at least the last bet or raise again (or a big blind), at most the stack.

    >>> NoLimit().raise_range(Wager(pot=250, level=100, bet=0, stack=5000, last_raise=100,
    ...                             raises=1, street=1, big_blind=10))
    (200, 5000)
    """

    code = "no-limit"

    def raise_range(self, w: Wager) -> tuple[int, int]:
        return w.level + max(w.last_raise, w.big_blind), w.bet + w.stack


@dataclass(frozen=True, slots=True)
class FixedLimit(Structure):
    """Fixed limit: the small bet, then the big bet from round ``big_from`` on; ``cap`` bets.

    The cap counts the opening bet (or a live big blind, or a stud completion) and the raises:
    4 means a bet and three raises. After the cap, only call or fold. A stud bring-in is not a
    bet: with no full bet yet in the round the first bet goes *to* the bet size (completing the
    bring-in), later raises add the bet size to the level.

    Five-card stud's open pair (GAMES.md section 3) gives the round a ``choice``: any bet or
    raise may be by the small or the big bet until one is by the big bet; every raise after that
    is by the big bet (``bet_size``). Only the two ends of the range are legal (``discrete``).

    >>> FixedLimit(10, 20).raise_range(Wager(pot=30, level=10, bet=0, stack=500, last_raise=10,
    ...                                      raises=1, street=0, big_blind=10))
    (20, 20)
    >>> FixedLimit(10, 20).raise_range(Wager(pot=20, level=5, bet=0, stack=500, last_raise=5,
    ...                                      raises=0, street=0, big_blind=10))  # completion
    (10, 10)
    """

    small_bet: int
    big_bet: int
    big_from: int = 2
    cap: int = 4
    code: ClassVar[str] = "fixed-limit"
    discrete: ClassVar[bool] = True

    def _size(self, w: Wager) -> int:
        if w.bet_size:
            return w.bet_size
        return self.big_bet if w.street >= self.big_from else self.small_bet

    def raise_range(self, w: Wager) -> tuple[int, int] | None:
        if w.raises >= self.cap:
            return None
        if w.choice is not None and not w.bet_size:
            lo, hi = w.choice
            if w.raises == 0 and w.level < lo:
                return lo, hi
            return w.level + lo, w.level + hi
        size = self._size(w)
        if w.raises == 0 and w.level < size:
            return size, size
        return w.level + size, w.level + size

    def full_raise(self, w: Wager) -> int:
        return self._size(w)


@dataclass(frozen=True, slots=True)
class Options:
    """A seat's choices right now, with exact amounts.

    ``call`` is the chips a call puts in (0: the seat may check); ``call_all_in`` says the call
    takes the whole stack. ``min_to``/``max_to`` bound a bet or raise (totals for the round),
    already cut to the stack, or are ``None`` when the seat may not bet or raise. ``full_to`` is
    the smallest full bet or raise: a raise-to below it is a short all-in.
    """

    seat: int
    pot: int
    level: int
    bet: int
    stack: int
    call: int
    call_all_in: bool
    min_to: int | None
    max_to: int | None
    full_to: int | None

    @property
    def can_check(self) -> bool:
        return self.call == 0

    @property
    def can_fold(self) -> bool:
        return self.call > 0


class Betting:
    """Chips and turns for one hand, round by round. Seats are ``0..n-1`` clockwise."""

    __slots__ = (
        "acted",
        "acted_level",
        "add_up",
        "all_in",
        "bet_size",
        "big_blind",
        "bets",
        "choice",
        "contributed",
        "dead_blinds",
        "folded",
        "last_raise",
        "level",
        "n",
        "raises",
        "stacks",
        "street",
        "structure",
        "to_act",
    )

    def __init__(
        self,
        stacks: Sequence[int],
        structure: Structure,
        big_blind: int,
        *,
        short_all_ins_add_up: bool = False,
    ) -> None:
        self.n = len(stacks)
        self.structure = structure
        self.big_blind = big_blind
        self.add_up = short_all_ins_add_up
        self.acted_level = [0] * self.n
        self.bet_size = 0
        self.choice: tuple[int, int] | None = None
        self.stacks = list(stacks)
        self.bets = [0] * self.n
        self.contributed = [0] * self.n
        # Dead small blinds (owed for one missed): in ``contributed`` but never "uncalled".
        self.dead_blinds = [0] * self.n
        self.folded = [False] * self.n
        self.all_in = [False] * self.n
        self.acted = [False] * self.n
        self.level = 0
        self.last_raise = 0
        self.raises = 0
        self.street = 0
        self.to_act: int | None = None

    # -- snapshots -------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        """Every field, for equality checks and debugging (not a public view)."""
        out: dict[str, object] = {
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "contributed": list(self.contributed),
            "folded": list(self.folded),
            "all_in": list(self.all_in),
            "acted": list(self.acted),
            "level": self.level,
            "last_raise": self.last_raise,
            "raises": self.raises,
            "street": self.street,
            "to_act": self.to_act,
            "structure": self.structure.code,
        }
        if self.add_up:
            out["acted_level"] = list(self.acted_level)
        if self.bet_size or self.choice:
            out["bet_size"] = self.bet_size
            out["choice"] = None if self.choice is None else list(self.choice)
        return out

    # -- questions ---------------------------------------------------------------------------

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return sum(self.contributed)

    def in_hand(self) -> list[int]:
        """Seats that have not folded."""
        return [i for i in range(self.n) if not self.folded[i]]

    def can_bet_count(self) -> int:
        """Seats still in the hand with chips behind (not all-in)."""
        return sum(1 for i in range(self.n) if not self.folded[i] and not self.all_in[i])

    def _others_with_chips(self, seat: int) -> bool:
        # A plain loop: this runs several times per action and any() over a generator is slower.
        for j in range(self.n):  # noqa: SIM110
            if j != seat and not self.folded[j] and not self.all_in[j]:
                return True
        return False

    def _others_can_match_more(self, seat: int) -> bool:
        """Whether another seat still in could put in more than the level: else a raise could
        never be called (everyone else is all-in, or will be by calling)."""
        level = self.level
        for j in range(self.n):
            if j != seat and not self.folded[j] and not self.all_in[j] and self.stacks[j] + self.bets[j] > level:
                return True
        return False

    def _target(self, seat: int) -> int:
        """The bet this seat must reach: the level, or what opponents can still put in."""
        if self._others_with_chips(seat):
            return self.level
        most = 0
        for j in range(self.n):
            if j != seat and not self.folded[j] and self.bets[j] > most:
                most = self.bets[j]
        return min(self.level, most)

    def needs_action(self, seat: int) -> bool:
        """Whether the round must wait for this seat."""
        if self.folded[seat] or self.all_in[seat]:
            return False
        if not self._others_with_chips(seat):
            return self.bets[seat] < self._target(seat)
        return not self.acted[seat] or self.bets[seat] < self.level

    def options(self, seat: int) -> Options:
        """The seat's choices with exact amounts (whoever's turn it is)."""
        bet = self.bets[seat]
        stack = self.stacks[seat]
        need = max(self._target(seat) - bet, 0)
        call = min(need, stack)
        min_to = max_to = full_to = None
        if stack > need and self._others_can_match_more(seat):
            wager = self._wager(seat)
            rng = self.structure.raise_range(wager) if self._reopened(seat, wager) else None
            if rng is not None:
                lo, hi = rng
                most = bet + stack
                full_to = lo
                min_to = min(lo, most)
                max_to = min(hi, most)
        return Options(
            seat=seat,
            pot=self.pot,
            level=self.level,
            bet=bet,
            stack=stack,
            call=call,
            call_all_in=call == stack and call > 0,
            min_to=min_to,
            max_to=max_to,
            full_to=full_to,
        )

    def _wager(self, seat: int) -> Wager:
        return Wager(
            pot=self.pot,
            level=self.level,
            bet=self.bets[seat],
            stack=self.stacks[seat],
            last_raise=self.last_raise,
            raises=self.raises,
            street=self.street,
            big_blind=self.big_blind,
            bet_size=self.bet_size,
            choice=self.choice,
        )

    def _reopened(self, seat: int, wager: Wager) -> bool:
        """Whether the betting is open to a raise from this seat (see the module docstring)."""
        if not self.acted[seat]:
            return True
        if not self.add_up:
            return False
        return self.level - self.acted_level[seat] >= self.structure.full_raise(wager)

    # -- doing -------------------------------------------------------------------------------

    def post(self, seat: int, amount: int, *, live: bool = True) -> int:
        """Post a forced bet (all-in for less if short); return the chips actually posted.

        A live post (blind, bring-in) counts as a bet in the round and sets the level to its full
        amount; a dead post (ante) goes straight into the pot.
        """
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.contributed[seat] += paid
        if live:
            self.bets[seat] += paid
            if amount > self.level:
                self.last_raise = max(self.last_raise, amount - self.level)
                self.level = amount
        if self.stacks[seat] == 0:
            self.all_in[seat] = True
        return paid

    def open_round(
        self,
        first: int,
        *,
        preflop: bool = False,
        raises: int | None = None,
        choice: tuple[int, int] | None = None,
    ) -> None:
        """Start a betting round with ``first`` (or the next seat that can act) to act.

        Before the first round the forced bets are already in: pass ``preflop=True`` to keep them.
        ``raises`` overrides the count of full bets already made (fixed-limit caps; a stud
        bring-in round passes 0). ``choice`` lets the opening bet be either of two fixed-limit
        sizes (five-card stud's open pair).
        """
        self.bet_size = 0
        self.choice = choice
        if not preflop:
            self.bets = [0] * self.n
            self.level = 0
            self.last_raise = 0
            self.raises = 0
            self.street += 1
        else:
            self.raises = 1 if self.level > 0 else 0
        if raises is not None:
            self.raises = raises
        self.acted = [False] * self.n
        self.acted_level = [0] * self.n
        self.to_act = self._next_from(first)

    def bring_in(self, seat: int, amount: int) -> int:
        """The stud bring-in: ``seat`` opens the round with a live post that is not a full bet
        (all-in for less if short); return the chips posted. The seat has acted: if everyone
        just calls, the round ends without coming back to it."""
        paid = self.post(seat, amount)
        self._after(seat)
        return paid

    def _next_from(self, start: int) -> int | None:
        for k in range(self.n):
            seat = (start + k) % self.n
            if self.needs_action(seat):
                return seat
        return None

    def _after(self, seat: int) -> None:
        self.acted[seat] = True
        self.acted_level[seat] = self.level
        self.to_act = self._next_from(seat + 1)

    def fold(self, seat: int) -> None:
        self.folded[seat] = True
        self._after(seat)

    def check_or_call(self, seat: int) -> int:
        """Check or call (all-in for less if short); return the chips put in."""
        need = max(self._target(seat) - self.bets[seat], 0)
        paid = min(need, self.stacks[seat])
        self._move(seat, paid)
        self._after(seat)
        return paid

    def bet_or_raise_to(self, seat: int, to: int) -> bool:
        """Bet or raise to ``to`` (a total for the round); return whether it was a full raise.

        Raises :class:`IllegalAction` if ``to`` is outside the seat's options.
        """
        opts = self.options(seat)
        if opts.min_to is None or opts.max_to is None or opts.full_to is None:
            raise IllegalAction(f"seat {seat} may not bet or raise now")
        if not opts.min_to <= to <= opts.max_to:
            raise IllegalAction(
                f"seat {seat} may raise to between {opts.min_to} and {opts.max_to}, not {to}"
            )
        if self.structure.discrete and to not in (opts.min_to, opts.max_to):
            raise IllegalAction(
                f"fixed limit: seat {seat} may raise to {opts.min_to} or {opts.max_to}, not {to}"
            )
        full = to >= opts.full_to
        if full and self.choice is not None and not self.bet_size:
            # A bet or raise of the big bet fixes the round's size for every raise after it; a
            # small one leaves the choice open (anyone may still raise by the big bet).
            rng = self.structure.raise_range(self._wager(seat))
            lo, hi = self.choice
            if rng is not None and to >= rng[1] and hi > lo:
                self.bet_size = hi
        self._move(seat, to - self.bets[seat])
        if full:
            self.last_raise = to - self.level
            self.raises += 1
            for j in range(self.n):
                self.acted[j] = False
        if to > self.level:
            self.level = to
        self._after(seat)
        return full

    def _move(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] += chips
        self.contributed[seat] += chips
        if self.stacks[seat] == 0:
            self.all_in[seat] = True

    def post_dead_blind(self, seat: int, amount: int) -> int:
        """A dead small blind (owed for one missed): straight into the pot like an ante, and
        left out when uncalled chips go back (they were never a bet anyone could call)."""
        paid = self.post(seat, amount, live=False)
        self.dead_blinds[seat] += paid
        return paid

    def live_contributions(self) -> list[int]:
        """What each seat put in, less dead small blinds."""
        dead = self.dead_blinds
        if not any(dead):
            return self.contributed
        return [c - d for c, d in zip(self.contributed, dead, strict=True)]

    def pots(self) -> tuple[Pot, ...]:
        """Main pot first, then side pots. Dead small blinds are dead money: in the main pot,
        and no part of the contribution that makes a seat eligible for a side pot."""
        pots = build_pots(self.live_contributions(), self.folded)
        dead = sum(self.dead_blinds)
        if dead and pots:
            pots = (Pot(pots[0].amount + dead, pots[0].eligible), *pots[1:])
        return pots

    def collected_pots(self, *, between_rounds: bool = False) -> tuple[Pot, ...]:
        """The pots as a card room's felt shows them during a hand: every chip of the finished
        rounds, this round's bets left out while it is played (they are still in front of the
        players; ``between_rounds``: they have been gathered in). A layer only one seat can win is
        chips nobody matched, going back to their owner, and is left out."""
        live = self.live_contributions()
        collected = live if between_rounds else [c - b for c, b in zip(live, self.bets, strict=True)]
        if not any(collected) or all(self.folded):
            return ()
        pots = build_pots(collected, self.folded)
        dead = sum(self.dead_blinds)
        if dead and pots:
            pots = (Pot(pots[0].amount + dead, pots[0].eligible), *pots[1:])
        return tuple(p for p in pots if len(p.eligible) > 1)

    def return_uncalled(self) -> tuple[int, int] | None:
        """Give back the unmatched top of the largest contribution: ``(seat, chips)`` or None."""
        top = uncalled(self.live_contributions())
        if top is None:
            return None
        seat, chips = top
        self.contributed[seat] -= chips
        self.bets[seat] -= chips
        self.stacks[seat] += chips
        if self.stacks[seat] > 0:
            self.all_in[seat] = False
        return top

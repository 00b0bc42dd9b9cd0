"""Pots: uncalled bets, main and side pots, shares, odd chips and rake.

Everything here is plain integer arithmetic on per-seat contributions, shared by every game:

* :func:`uncalled` finds the part of the largest contribution that nobody matched; it goes back
  to its owner and is never part of a pot (so it is never raked).
* :func:`build_pots` layers what is left into a main pot and side pots. Each layer is bounded by
  the contribution of a player still in the hand who is all-in; folded players' chips count in
  every layer they reach but folded players are eligible for none.
* :func:`split_shares` cuts a pot into equal shares (Patch-Patch: three boards; hi-lo: two
  halves) with the remainder going to the later shares, so a pot of 100 pays 33, 33 and 34
  (GAMES.md, test vector S1).
* :func:`split_even` shares an amount among tied winners; odd chips go one each to the first
  tied players clockwise from the button (the seat left of the button first, the button last).
* :func:`rake_pots` takes a percentage of each pot, rounded down, up to a cap per hand.

>>> split_shares(100, 3)
(33, 33, 34)
>>> split_even(101, (0, 2), clockwise_from_button(button=0, players=3))
{2: 51, 0: 50}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips and the seats that can win it (in seat order)."""

    amount: int
    eligible: tuple[int, ...]


def uncalled(contributions: Sequence[int]) -> tuple[int, int] | None:
    """``(seat, chips)`` of the unmatched top of the largest contribution, or ``None``.

    >>> uncalled([100, 30, 300])
    (2, 200)
    >>> uncalled([100, 100, 30]) is None
    True
    """
    if len(contributions) < 2:
        return None
    top = max(contributions)
    seat = contributions.index(top)
    second = max(c for i, c in enumerate(contributions) if i != seat)
    if top > second:
        return seat, top - second
    return None


def build_pots(contributions: Sequence[int], folded: Sequence[bool]) -> tuple[Pot, ...]:
    """Main pot first, then side pots, from what each seat put in.

    Layers are cut at the contributions of the seats still in the hand; everything above the
    highest of them (chips of folded players that out-bet every remaining player, which only
    happens when an uncalled bet was not returned first) joins the top pot. Empty layers are
    dropped and adjacent layers with the same eligible seats are merged.

    >>> build_pots([100, 30, 100], [False, False, False])
    (Pot(amount=90, eligible=(0, 1, 2)), Pot(amount=140, eligible=(0, 2)))
    >>> build_pots([50, 20, 20], [True, False, False])
    (Pot(amount=90, eligible=(1, 2)),)
    """
    live = sorted({c for c, f in zip(contributions, folded, strict=True) if not f})
    if not live:
        raise ValueError("a pot needs at least one player still in the hand")
    pots: list[Pot] = []
    prev = 0
    for k, level in enumerate(live):
        top = k == len(live) - 1
        amount = 0
        for c in contributions:
            if top:
                amount += max(c - prev, 0)
            else:
                amount += min(c, level) - min(c, prev)
        eligible = tuple(
            i for i, (c, f) in enumerate(zip(contributions, folded, strict=True)) if not f and c >= level
        )
        prev = level
        if amount == 0:
            continue
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
    return tuple(pots)


def split_shares(amount: int, parts: int) -> tuple[int, ...]:
    """Cut ``amount`` into ``parts`` shares: each takes its fair part of what remains, rounded down.

    Share k takes ``remaining // (parts - k)``, so the later shares get the odd chips: three
    boards from 100 are 33, then 67 // 2 = 33, then 34.

    >>> split_shares(100, 3), split_shares(101, 3), split_shares(2, 3), split_shares(7, 2)
    ((33, 33, 34), (33, 34, 34), (0, 1, 1), (3, 4))
    """
    if parts < 1:
        raise ValueError("a pot is split into at least one share")
    out = []
    remaining = amount
    for k in range(parts):
        share = remaining // (parts - k)
        out.append(share)
        remaining -= share
    return tuple(out)


def clockwise_from_button(button: int, players: int) -> tuple[int, ...]:
    """Seats in the order the odd chip travels: left of the button first, the button last.

    >>> clockwise_from_button(1, 3), clockwise_from_button(0, 2)
    ((2, 0, 1), (1, 0))
    """
    return tuple((button + 1 + k) % players for k in range(players))


def split_even(amount: int, winners: Sequence[int], order: Sequence[int]) -> dict[int, int]:
    """Share ``amount`` equally among ``winners``; odd chips to the earliest winners in ``order``.

    ``order`` is :func:`clockwise_from_button`. The result is keyed by seat, in that order.

    >>> split_even(100, (0, 1, 2), (1, 2, 0))
    {1: 34, 2: 33, 0: 33}
    """
    tied = [s for s in order if s in winners]
    if len(tied) != len(set(winners)) or not tied:
        raise ValueError("every winner must be a seat in the clockwise order")
    each, odd = divmod(amount, len(tied))
    return {s: each + (1 if k < odd else 0) for k, s in enumerate(tied)}


def rake_pots(amounts: Sequence[int], percent: int, cap: int) -> tuple[int, ...]:
    """The rake taken from each pot: ``percent`` % of it rounded down, at most ``cap`` in all.

    The main pot is raked first, then each side pot, until the cap is reached.

    >>> rake_pots([1000, 500], 3, 60), rake_pots([1000, 2000], 3, 60), rake_pots([33], 3, 60)
    ((30, 15), (30, 30), (0,))
    """
    out = []
    left = cap
    for amount in amounts:
        take = min(amount * percent // 100, left)
        out.append(take)
        left -= take
    return tuple(out)

"""Writers for people and chips. Every balance change goes through here and leaves a ledger entry.

``tables`` calls these when a player buys in, cashes out or a hand settles; ``club`` never
imports ``tables``.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import LedgerEntry, Profile

STARTING_BANKROLL = getattr(settings, "STARTING_BANKROLL", 20_000)
DAILY_TOP_UP_TO = getattr(settings, "DAILY_TOP_UP_TO", 5_000)


class ChipsError(ValueError):
    """A chip movement that cannot happen (not enough chips, bad amount)."""


def profile_ensure(*, user: AbstractBaseUser, display_name: str = "") -> Profile:
    """The user's profile; a new one comes with the starting bankroll (a ledger grant)."""
    try:
        return Profile.objects.get(user=user)
    except Profile.DoesNotExist:
        pass
    with transaction.atomic():
        profile, created = Profile.objects.get_or_create(
            user=user, defaults={"display_name": (display_name or user.get_username())[:40]}
        )
        if created:
            _bankroll_change(
                profile=profile, amount=STARTING_BANKROLL, kind=LedgerEntry.Kind.GRANT,
                note="welcome chips",
            )
        return profile


def _bankroll_change(
    *, profile: Profile, amount: int, kind: str, note: str = "",
    table_id: int | None = None, hand_id: int | None = None,
) -> LedgerEntry:
    profile.bankroll += amount
    profile.save(update_fields=["bankroll"])
    return LedgerEntry.objects.create(
        user=profile.user, kind=kind, account="bankroll", amount=amount,
        balance_after=profile.bankroll, table_id=table_id, hand_id=hand_id, note=note,
    )


def bankroll_top_up(*, user: AbstractBaseUser, today: dt.date | None = None) -> int:
    """Once a day a player below the top-up level is brought back up to it. Returns chips added."""
    today = today or timezone.localdate()
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        if profile.last_top_up == today or profile.bankroll >= DAILY_TOP_UP_TO:
            return 0
        amount = DAILY_TOP_UP_TO - profile.bankroll
        profile.last_top_up = today
        profile.save(update_fields=["last_top_up"])
        _bankroll_change(profile=profile, amount=amount, kind=LedgerEntry.Kind.TOP_UP)
        return amount


def bankroll_to_table(*, user: AbstractBaseUser, amount: int, table_id: int) -> None:
    """Take a buy-in from the bankroll (the caller puts it on the seat in the same transaction)."""
    if amount <= 0:
        raise ChipsError(_("A buy-in must be a positive number of chips."))
    profile = Profile.objects.select_for_update().get(user=user)
    if profile.bankroll < amount:
        raise ChipsError(_("You have %(have)s chips; the buy-in is %(amount)s.") % {"have": profile.bankroll, "amount": amount})
    _bankroll_change(profile=profile, amount=-amount, kind=LedgerEntry.Kind.BUY_IN, table_id=table_id)
    LedgerEntry.objects.create(
        user=user, kind=LedgerEntry.Kind.BUY_IN, account=f"table:{table_id}", amount=amount,
        table_id=table_id,
    )


def table_to_bankroll(*, user: AbstractBaseUser, amount: int, table_id: int) -> None:
    """Return a stack to the bankroll when a player stands up."""
    if amount < 0:
        raise ChipsError(_("Cannot cash out a negative stack."))
    profile = Profile.objects.select_for_update().get(user=user)
    LedgerEntry.objects.create(
        user=user, kind=LedgerEntry.Kind.CASH_OUT, account=f"table:{table_id}", amount=-amount,
        table_id=table_id,
    )
    _bankroll_change(profile=profile, amount=amount, kind=LedgerEntry.Kind.CASH_OUT, table_id=table_id)


def hand_settled(
    *, table_id: int, hand_id: int, nets: list[tuple[AbstractBaseUser, int]], rake: int
) -> None:
    """Record a finished hand: each player's net on the table account, and the house's rake.

    The nets plus the rake sum to zero: chips only moved between the players and the house.
    """
    if sum(n for _, n in nets) + rake != 0:
        raise ChipsError(_("A hand's results must sum to zero with the rake."))
    entries = [
        LedgerEntry(
            user=user, kind=LedgerEntry.Kind.HAND, account=f"table:{table_id}", amount=net,
            table_id=table_id, hand_id=hand_id,
        )
        for user, net in nets
        if net
    ]
    if rake:
        entries.append(
            LedgerEntry(kind=LedgerEntry.Kind.RAKE, account="house", amount=rake, table_id=table_id, hand_id=hand_id)
        )
    LedgerEntry.objects.bulk_create(entries)

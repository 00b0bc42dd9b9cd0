"""People and chips: a player's profile with the site bankroll, and the chip ledger.

Clubs, memberships and sessions arrive with issue #5. Every change of a balance is a
:class:`LedgerEntry`; balances are never changed any other way (see ``club.services``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=40)
    bankroll = models.BigIntegerField(_("bankroll"), default=0)
    last_top_up = models.DateField(null=True, blank=True)
    language = models.CharField(max_length=8, blank=True, default="")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class LedgerEntry(models.Model):
    """One movement of play chips between an account and somewhere else.

    ``amount`` is what the account gained (negative when it paid). ``balance_after`` is the
    account's balance right after, so a member's statement reads like a bank statement.
    Table chips are referred to by id only: ``club`` never imports ``tables``.
    """

    class Kind(models.TextChoices):
        GRANT = "grant", _("Starting chips")
        TOP_UP = "top_up", _("Daily top-up")
        BUY_IN = "buy_in", _("Buy-in")
        CASH_OUT = "cash_out", _("Cash-out")
        HAND = "hand", _("Hand result")
        RAKE = "rake", _("Rake")
        ADJUST = "adjust", _("Adjustment")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ledger", null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    account = models.CharField(max_length=32, default="bankroll")  # bankroll | table:<id> | house
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField(null=True, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)
    hand_id = models.BigIntegerField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "account"]), models.Index(fields=["table_id"])]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount:+d} ({self.account})"

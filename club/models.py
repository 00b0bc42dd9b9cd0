"""People and chips: a player's profile with the site bankroll, the chip ledger, and clubs.

A club (issue #5) has memberships with roles and club chips, invitations, join requests and
sessions (nights of play) with per-player results. Every change of a balance, site bankroll or
club chips, is a :class:`LedgerEntry`; balances are never changed any other way (see
``club.services``).
"""

from __future__ import annotations

import datetime as dt
import secrets
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

ASKED_NOTE = "chip-request:"  # a ledger note's mark: a grant that answered a member's chip request


def ledger_note(note: str) -> str:
    """A ledger entry's note as the reader reads it: a grant that answered a chip request is
    stored as ``ASKED_NOTE`` and the member's words, and said here in the page's
    language; any other note (a host's reason) as written."""
    from django.utils.translation import gettext

    if note.startswith(ASKED_NOTE):
        words = note[len(ASKED_NOTE):]
        return gettext("Asked for chips") + (f": {words}" if words else "")
    return note

class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=40)
    # What the name is compared by when another player picks one (club.names.name_key): kept
    # with the name on every save, so that a look-alike is found with one indexed query.
    name_key = models.CharField(max_length=255, blank=True, default="", db_index=True, editable=False)
    bankroll = models.BigIntegerField(_("bankroll"), default=0)
    last_top_up = models.DateField(null=True, blank=True)
    language = models.CharField(max_length=8, blank=True, default="")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()

    def save(self, *args: Any, **kwargs: Any) -> None:
        from club.names import name_key

        self.name_key = name_key(self.display_name)
        fields = kwargs.get("update_fields")
        if fields is not None and "display_name" in fields and "name_key" not in fields:
            kwargs["update_fields"] = [*fields, "name_key"]
        super().save(*args, **kwargs)


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
        HOST_GRANT = "host_grant", _("Chips from a host")
        HOST_TAKE = "host_take", _("Chips taken by a host")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ledger", null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    account = models.CharField(max_length=32, default="bankroll")  # bankroll | club | table:<id> | house
    # Set on club chips ("club") and on a club table's entries; null for the site bankroll.
    club = models.ForeignKey("club.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="ledger")
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField(null=True, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)
    hand_id = models.BigIntegerField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "account"]), models.Index(fields=["table_id"]),
                   models.Index(fields=["club", "user"])]
        ordering = ["id"]
        verbose_name_plural = "ledger entries"

    def __str__(self) -> str:
        return f"{self.kind} {self.amount:+d} ({self.account})"

    @property
    def note_text(self) -> str:
        return ledger_note(self.note)


# ---------------------------------------------------------------------------------------------
# Clubs (issue #5)


class Club(models.Model):
    """A home game: its people, their club chips, its nights of play.

    A club's chips are its own (``Membership.balance``), never mixed with the site bankroll.
    """

    class Language(models.TextChoices):
        HE = "he", "עברית"
        RU = "ru", "Русский"
        EN = "en", "English"

    class Speed(models.TextChoices):
        SLOW = "slow", _("Slow")
        MEDIUM = "medium", _("Medium")
        FAST = "fast", _("Fast")

    name = models.CharField(_("name"), max_length=60)
    description = models.CharField(_("short description"), max_length=300, blank=True, default="")
    language = models.CharField(_("default language"), max_length=8, choices=Language.choices, default=Language.EN)
    default_game = models.CharField(_("default game"), max_length=8, default="PP")
    default_speed = models.CharField(_("default speed"), max_length=8, choices=Speed.choices, default=Speed.MEDIUM)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A person in a club: their role and their club chips.

    Leaving or being removed clears ``active`` but keeps the row, so the balance (and the
    history) waits for them if they come back: chips are never lost with a membership.
    """

    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        HOST = "host", _("Host")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(_("role"), max_length=8, choices=Role.choices, default=Role.MEMBER)
    balance = models.BigIntegerField(_("club chips"), default=0)
    active = models.BooleanField(_("active"), default=True)
    joined = models.DateTimeField(auto_now_add=True)
    left = models.DateTimeField(null=True, blank=True)
    # A host took them out (not left of their own accord): an invite link does not bring them
    # back, only a host's yes to a request to join (found by an audit: a removed player walked
    # straight back in through the club's first link).
    removed = models.BooleanField(default=False)

    class Meta:
        ordering = ["club", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club"),
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="club_balance_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    @property
    def is_host(self) -> bool:
        return self.active and self.role in (self.Role.OWNER, self.Role.HOST)


def new_club_invite_code() -> str:
    return secrets.token_urlsafe(18)


class ClubInvite(models.Model):
    """A link with a secret code that lets whoever holds it join the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    code = models.CharField(max_length=40, unique=True, default=new_club_invite_code)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(_("expires"), null=True, blank=True)
    max_uses = models.PositiveIntegerField(_("use limit"), null=True, blank=True)
    uses = models.PositiveIntegerField(_("uses"), default=0)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"invite to {self.club} ({self.uses}/{self.max_uses or '∞'})"

    def usable(self, now: dt.datetime) -> bool:
        if self.revoked is not None:
            return False
        if self.expires is not None and self.expires <= now:
            return False
        return self.max_uses is None or self.uses < self.max_uses


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    message = models.CharField(_("message"), max_length=200, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    decided = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], condition=models.Q(status="pending"), name="one_pending_request_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.club} ({self.status})"


class ClubSession(models.Model):
    """A club's night of play. Every hand settled at the club's tables while it is open belongs
    to it. ``end_rule`` is ``manual`` (a host ends it) or ``pots:N`` (it ends by itself after N
    completed pots, as a Baseball session does after 8)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    started = models.DateTimeField(default=timezone.now, db_index=True)
    ended = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    game = models.CharField(_("game"), max_length=8, blank=True, default="")
    end_rule = models.CharField(_("end rule"), max_length=16, default="manual")
    pots_completed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-started", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club"], condition=models.Q(ended__isnull=True), name="one_open_session_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.club} session of {self.started:%Y-%m-%d}"

    @property
    def is_open(self) -> bool:
        return self.ended is None

    @property
    def pot_limit(self) -> int | None:
        """The number of completed pots that ends the session, or None for a manual end."""
        kind, _sep, n = self.end_rule.partition(":")
        return int(n) if kind == "pots" and n.isascii() and n.isdigit() and len(n) <= 4 else None


class ClubSessionResult(models.Model):
    """One player's night: sums over the session's hands they were dealt into."""

    session = models.ForeignKey(ClubSession, on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    net = models.BigIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    pots_won = models.PositiveIntegerField(default=0)
    biggest_pot = models.BigIntegerField(default=0)
    boards_won = models.PositiveIntegerField(default=0)
    scoops = models.PositiveIntegerField(default=0)
    # Baseball's play units (not chips), in sixtieths of a unit: a pot is whole and is split
    # among at most six players, so every share is a whole number of sixtieths (60 = lcm 1..6);
    # sums stay exact and the database can add them. ``units`` gives the exact Fraction.
    units_net = models.BigIntegerField(default=0)

    UNITS_DENOMINATOR = 60

    class Meta:
        ordering = ["session", "-net", "id"]
        constraints = [models.UniqueConstraint(fields=["session", "user"], name="one_result_per_player_and_session")]

    def __str__(self) -> str:
        return f"{self.user} {self.net:+d} in {self.session_id}"

    @property
    def units(self) -> Fraction:
        return Fraction(self.units_net, self.UNITS_DENOMINATOR)


class ClubSessionHand(models.Model):
    """A hand counted in a session (a table's hand is counted once, whatever calls twice)."""

    session = models.ForeignKey(ClubSession, on_delete=models.CASCADE, related_name="hands")
    table_id = models.BigIntegerField()
    hand_id = models.BigIntegerField(unique=True)
    game = models.CharField(max_length=8)
    pot = models.BigIntegerField(default=0)
    recorded = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "id"]

    def __str__(self) -> str:
        return f"hand {self.hand_id} at table {self.table_id}"


class ChipRequest(models.Model):
    """A member asks the club's hosts for club chips ("can I have 2,000 for tonight?"), as a home
    game's players ask the banker; a host grants it (a grant on the member's statement) or
    declines it. One request waits per member and club; asking again changes it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        GRANTED = "granted", _("Granted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="chip_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    amount = models.PositiveBigIntegerField()
    message = models.CharField(max_length=200, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    decided = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], condition=models.Q(status="pending"), name="one_pending_chip_request_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks {self.club} for {self.amount} ({self.status})"


class GameNight(models.Model):
    """A night a club's host puts on the calendar ahead ("Thursday 20:00, Patch-Patch 5/10"),
    for members to say whether they are coming. It plans a night; a :class:`ClubSession` is the
    night being played, and the two are not linked (a host starts a session as before)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="game_nights")
    starts_at = models.DateTimeField()
    note = models.CharField(max_length=200, blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    cancelled = models.BooleanField(default=False)

    class Meta:
        ordering = ["starts_at", "id"]
        indexes = [models.Index(fields=["club", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.club} night of {self.starts_at:%Y-%m-%d %H:%M}"


class GameNightReply(models.Model):
    """A member's answer to a game night: coming, maybe, or not coming. One per member and night;
    changing it rewrites the row."""

    class Answer(models.TextChoices):
        YES = "yes", _("Coming")
        MAYBE = "maybe", _("Maybe")
        NO = "no", _("Not coming")

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="replies")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    answer = models.CharField(max_length=8, choices=Answer.choices)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["night", "updated", "id"]
        constraints = [models.UniqueConstraint(fields=["night", "user"], name="one_reply_per_member_and_night")]

    def __str__(self) -> str:
        return f"{self.user} {self.answer} for {self.night_id}"

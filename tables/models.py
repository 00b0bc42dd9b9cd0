"""Tables, seats and hands.

The hand's truth is the engine state stored as JSON on :class:`Hand` (setup + action log inside
it). :attr:`Table.version` orders every event of a table: each accepted action bumps it by one.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# The public stakes ladder (GAMES.md section 2): (small blind, big blind).
STAKES_LADDER: tuple[tuple[int, int], ...] = (
    (5, 10), (10, 20), (25, 50), (50, 100), (100, 200), (250, 500), (500, 1000),
)


# Games the live table can draw today. Any game in ``rules_engine.games`` may be registered, but
# a club host can only open tables of these (extend it when a game's live layout lands).
LIVE_GAMES: frozenset[str] = frozenset(
    {"PP", "NT", "PT", "FT", "PO", "FO", "FO/8", "PO/8", "F7S", "FR", "F7S/8", "F5S", "F5D", "P5D", "BB"}
)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Speed(models.TextChoices):
        SLOW = "slow", _("Slow")
        MEDIUM = "medium", _("Medium")
        FAST = "fast", _("Fast")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        PAUSED = "paused", _("Paused")
        CLOSED = "closed", _("Closed")

    name = models.CharField(_("name"), max_length=60)
    game = models.CharField(_("game"), max_length=8, default="PP")
    small_blind = models.PositiveIntegerField(_("small blind"))
    big_blind = models.PositiveIntegerField(_("big blind"))
    speed = models.CharField(_("speed"), max_length=8, choices=Speed.choices, default=Speed.MEDIUM)
    max_seats = models.PositiveSmallIntegerField(_("seats"), default=3)
    is_public = models.BooleanField(_("public"), default=True)
    min_buy_in_bb = models.PositiveIntegerField(default=5)
    max_buy_in_bb = models.PositiveIntegerField(default=150)
    invite_code = models.CharField(max_length=32, default=new_invite_code, unique=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    pause_after_hand = models.BooleanField(default=False)
    # Club tables (issue #5): private to the club's members, no rake, chips from club balances.
    club = models.ForeignKey("club.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="tables")
    seat_approval = models.BooleanField(_("a host approves every seat"), default=False)
    close_after_hand = models.BooleanField(default=False)
    # A host's change of stakes or speed made while a hand is played: it takes effect when that
    # hand ends (tables.hosting.table_host_terms); between hands a change takes effect at once.
    next_small_blind = models.PositiveIntegerField(null=True, blank=True)
    next_big_blind = models.PositiveIntegerField(null=True, blank=True)
    next_speed = models.CharField(max_length=8, blank=True, default="")
    # A host's choice of the next game (dealer's choice), dealt from the next hand on.
    next_game = models.CharField(max_length=8, blank=True, default="")
    # Blinds that rise on a clock (tables.levels): every ``level_minutes`` the next level's
    # blinds are dealt from the next hand. ``level`` 0: off. The clock stops while the table is
    # paused (``level_left_s`` holds what was left) and runs again when it resumes.
    level_minutes = models.PositiveSmallIntegerField(default=0)
    level = models.PositiveSmallIntegerField(default=0)
    level_base_small = models.PositiveIntegerField(null=True, blank=True)
    level_base_big = models.PositiveIntegerField(null=True, blank=True)
    level_ends_at = models.DateTimeField(null=True, blank=True)
    level_left_s = models.PositiveIntegerField(null=True, blank=True)
    # A freeze-out being played, or the last one's places (tables.freezeout); None: none.
    freezeout = models.JSONField(null=True, blank=True, default=None)
    # The host lets players straddle: in no-limit and pot-limit Hold'em and Omaha the seat left of
    # the big blind may post twice it before the cards (Seat.straddle; rules_engine.games.flop).
    straddles = models.BooleanField(default=False)
    # The host lets players run the board twice: in Hold'em and Omaha, when the betting ends for
    # good before the river and everyone still in has "Run it twice" on (Seat.run_twice).
    run_twice = models.BooleanField(default=False)
    # A host's bomb pot for the next Hold'em or Omaha hand dealt: everyone puts this many big
    # blinds in, no blinds, the flop at once (rules_engine.games.flop); 0: none asked for.
    bomb_next_bb = models.PositiveSmallIntegerField(default=0)
    # The host's seven-deuce bounty, in big blinds (0: none): in Hold'em a player who takes a pot
    # whole with a seven and a deuce is paid this by every other player dealt in
    # (rules_engine.games.flop).
    seven_deuce_bb = models.PositiveSmallIntegerField(default=0)
    # The host lets players hunt the rabbit: after a hand that ended before its board was out, a
    # player dealt in may ask to see the cards that would have come (Hand.rabbit; Hold'em, Omaha
    # and Patch-Patch).
    rabbit_hunt = models.BooleanField(default=False)
    version = models.BigIntegerField(default=0)
    button_seat = models.SmallIntegerField(default=-1)
    hands_played = models.PositiveIntegerField(default=0)
    # Baseball (tables.baseball): the session being played and its completed pots (8 end it).
    bb_session_no = models.PositiveIntegerField(default=1)
    bb_pots_done = models.PositiveSmallIntegerField(default=0)
    # A new Baseball table deals nothing until a player starts its first session, so everyone who
    # came for it plays its eight pots (found by an audit: pot 1 was dealt to the first two seated).
    bb_waiting = models.BooleanField(default=False)
    # When the first hand (or the first after a lull) will be dealt: a short wait lets the
    # others sit down before the first two are dealt in heads-up.
    next_hand_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the table's pending clock timer fires (tables.services.table_timer): one timer is kept
    # pending per table rather than one sent per action.
    timer_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.game} {self.small_blind}-{self.big_blind})"

    @property
    def stakes(self) -> str:
        return f"{self.small_blind}-{self.big_blind}"

    @property
    def takes_rake(self) -> bool:
        return self.is_public and self.club_id is None and self.big_blind >= 20


TIME_BANK_SECONDS = 60  # a full time bank (a new seat's)
TIME_BANK_STEP = 20  # what one "More time" adds to the clock
TIME_BANK_REFILL = 5  # what each hand the table plays puts back


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat_no = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    stack = models.BigIntegerField(default=0)
    # Baseball: the exact balance in play units ("5/3", "-2"); no chips are bought in there.
    units = models.CharField(max_length=40, default="0")
    sitting_out = models.BooleanField(default=False)  # on a break: not dealt in
    break_next = models.BooleanField(default=False)  # asked for a break from the next hand
    leaving = models.BooleanField(default=False)  # stands up when the current hand ends
    # Joined a running blind game: dealt in when the big blind reaches the seat (GAMES.md 3;
    # tables.services._deal_in_waiting).
    wait_bb = models.BooleanField(default=False)
    # ... or chose to post a big blind instead, to be dealt in on the next hand that allows it
    # (any seat but the small blind's; tables.services._deal_in_waiting). A player whose big
    # blind passed during a break (``missed_bb``) pays the small blind they missed too, dead.
    post_bb = models.BooleanField(default=False)
    missed_bb = models.BooleanField(default=False)
    # A small blind passed the seat during a break: owed dead when it is next dealt in, unless
    # that hand's own blinds are its (tables.services._mark_missed_blinds).
    missed_sb = models.BooleanField(default=False)
    # The time bank (tables.services._more_time): seconds a player may add to their own clock,
    # ``time_bank`` of them when the table had played ``time_bank_at`` hands; it fills up again by
    # TIME_BANK_REFILL seconds a hand played since, up to TIME_BANK_SECONDS (tables.models.time_bank_left).
    time_bank = models.PositiveIntegerField(default=TIME_BANK_SECONDS)
    time_bank_at = models.PositiveIntegerField(default=0)
    # "Straddle": post a straddle whenever this seat is left of the big blind, at a table that
    # allows them (Table.straddles), until turned off.
    straddle = models.BooleanField(default=False)
    # "Run it twice": this player agrees to run the board twice whenever an all-in ends the
    # betting before the river, at a table that allows it (Table.run_twice), until turned off.
    run_twice = models.BooleanField(default=False)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seat_no"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat_no"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "user"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat_no} at {self.table_id}"


def time_bank_left(seat: Seat, hands_played: int) -> int:
    """The seconds left in ``seat``'s time bank at a table that has played ``hands_played`` hands."""
    refilled = TIME_BANK_REFILL * max(0, hands_played - seat.time_bank_at)
    return min(TIME_BANK_SECONDS, seat.time_bank + refilled)


class SeatRequest(models.Model):
    """A member asks for a seat at a club table where a host approves every seat."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    buy_in = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["table", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], condition=models.Q(status="pending"),
                                    name="one_pending_seat_request"),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks for a seat at {self.table_id} ({self.status})"


class Hand(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    # The game this hand was dealt (a hosted table may change its game between hands: dealer's
    # choice); its state and history are read with this game's rules, not the table's current one.
    game = models.CharField(max_length=8, default="PP")
    # engine seat index -> [table seat_no, user id, stack at the start of the hand]
    players = models.JSONField()
    state = models.JSONField()
    clock = models.CharField(max_length=12, blank=True, default="")  # decision | arrange | ""
    deadline = models.DateTimeField(null=True, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    phh = models.TextField(blank=True, default="")
    # Fair shuffle (rules_engine.fairness): the commitment is public from the deal on. The salts
    # stay on the server; after the hand only the positions of cards the rules showed are
    # revealed, so folded hands stay hidden. ``phh`` is the full record, never served as is.
    deck_commitment = models.CharField(max_length=64, blank=True, default="")
    deck_salts = models.JSONField(default=list, blank=True)
    # Engine indexes of the players who chose to show their cards after the hand (before the
    # next deal), as a winner who was not called may: tables.services._show_cards.
    shown_after = models.JSONField(default=list, blank=True)
    # A player asked to see the board cards that would have come (the rabbit hunt, after the
    # hand, before the next deal): every viewer sees them from then on (tables.services._hunt_rabbit).
    rabbit = models.BooleanField(default=False)
    # Engine indexes of the players who left the table during the hand: their turns are answered
    # at once (a fold where one is allowed) instead of waiting for their clock.
    leavers = models.JSONField(default=list, blank=True)
    # The clock running now and its time bank (tables.services._more_time): ``{"after": V}``, the
    # table's version before the action that started it, and ``"took": [[engine index, version],
    # ...]`` for each "More time" on it, with the version that made. Empty between clocks.
    banked = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique")]
        indexes = [models.Index(fields=["deadline"])]

    @property
    def is_over(self) -> bool:
        return self.ended is not None


class UnitsEntry(models.Model):
    """Baseball's ledger: one player's exact net, in play units, from one completed pot.

    Units are not chips (no money value, no buy-in, a balance may go below zero), so they never
    touch the chip ledger (``club.LedgerEntry``). A player's balance at a table is the sum of
    their entries in its session; a session's standings rank the sums of its entries
    (``tables.baseball``).
    Amounts are exact fractions written as text (``"5/3"``, ``"-1"``).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="units_entries")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="units_entries")
    session_no = models.PositiveIntegerField()
    pot_no = models.PositiveSmallIntegerField()  # 1..8 within the session
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amount = models.CharField(max_length=40)
    balance_after = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]
        constraints = [models.UniqueConstraint(fields=["hand", "user"], name="one_units_entry_per_hand_and_player")]
        indexes = [models.Index(fields=["table", "session_no"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.amount} in hand {self.hand_id}"


class ChatLine(models.Model):
    """One line of a table's chat (``tables.chat``): who wrote it, as they were named then, and
    what. Chat is not part of the table's state: it has no version and changes no hand."""

    MAX_CHARS = 200

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    name = models.CharField(max_length=40)
    text = models.CharField(max_length=MAX_CHARS)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "-id"])]

    def __str__(self) -> str:
        return f"{self.name}: {self.text[:40]}"


class ChatMute(models.Model):
    """Someone a table's host has silenced in its chat (``tables.chat.mute``): their lines stay
    (the host may take them out), they write no new one at this table until unmuted."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_mutes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="chat_mute_once_per_table")]

    def __str__(self) -> str:
        return f"{self.user_id} muted at table {self.table_id}"


class FreezeoutResult(models.Model):
    """A freeze-out played to its end at a table (tables.freezeout): when, and everyone's place.
    ``places``: ``[[user_id, name, place, stood_up], ...]`` from the best place down."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="freezeouts")
    started = models.DateTimeField()
    ended = models.DateTimeField()
    entrants = models.PositiveSmallIntegerField()
    places = models.JSONField(default=list)
    # Buy-ins again by players who were out, during late entry (found by an audit: a freeze-out
    # of four players and five buy-ins said only "4 players").
    reentries = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["table", "-ended"])]

    def __str__(self) -> str:
        return f"freeze-out at table {self.table_id}, {self.ended:%Y-%m-%d}"

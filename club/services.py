"""Writers for people and chips. Every balance change goes through here and leaves a ledger entry.

``tables`` calls these when a player buys in, cashes out or a hand settles; ``club`` never
imports ``tables``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club import selectors
from club.models import (
    ASKED_NOTE,
    ChipRequest,
    Club,
    ClubInvite,
    ClubSession,
    ClubSessionHand,
    ClubSessionResult,
    GameNight,
    GameNightReply,
    JoinRequest,
    LedgerEntry,
    Membership,
    Profile,
)
from club.ports import tables_port

STARTING_BANKROLL = getattr(settings, "STARTING_BANKROLL", 20_000)
DAILY_TOP_UP_TO = getattr(settings, "DAILY_TOP_UP_TO", 5_000)


def chips_text(n: int) -> str:
    """Chips in a message as the table writes them ("5,000"; Russian "5 000"; grouped in Hebrew
    too, where Django's number format does not group)."""
    from tables.templatetags.table_cards import chips

    return chips(int(n))


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


def profile_rename(*, user: AbstractBaseUser, display_name: str) -> Profile:
    """The name other players see; the tables and pages show it from their next picture on."""
    name = " ".join(str(display_name).split())[:40]
    if not name:
        raise ValueError("a display name cannot be empty")
    profile = profile_ensure(user=user)
    from club.names import name_key

    Profile.objects.filter(pk=profile.pk).update(display_name=name, name_key=name_key(name))
    profile.display_name = name
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
    """Once a day a player below the top-up level is brought back up to it. Returns chips added.

    The level counts the bankroll plus the chips in the player's seats at site tables (club
    tables hold club chips and do not count). The profile row is locked first: every move
    between the bankroll and a site seat (sit down, add chips, stand up) locks it too before it
    commits, so the seats read here agree with the bankroll read here.
    """
    today = today or timezone.localdate()
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        amount = selectors.top_up_due(profile=profile, top_up_to=DAILY_TOP_UP_TO, today=today)
        if not amount:
            return 0
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
        # Grouped as everywhere else, and worded for adding chips too (an audit: "the buy-in is 1000").
        raise ChipsError(_("Your bankroll has %(have)s chips; %(amount)s are needed.")
                         % {"have": chips_text(profile.bankroll), "amount": chips_text(amount)})
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
    *, table_id: int, hand_id: int, nets: list[tuple[AbstractBaseUser, int]], rake: int,
    club_id: int | None = None,
) -> None:
    """Record a finished hand: each player's net on the table account, and the house's rake.

    The nets plus the rake sum to zero: chips only moved between the players and the house.
    A club table (``club_id``) never takes rake.
    """
    if sum(n for _, n in nets) + rake != 0:
        raise ChipsError(_("A hand's results must sum to zero with the rake."))
    if club_id is not None and rake:
        raise ChipsError(_("Club tables take no rake."))
    entries = [
        LedgerEntry(
            user=user, kind=LedgerEntry.Kind.HAND, account=f"table:{table_id}", amount=net,
            table_id=table_id, hand_id=hand_id, club_id=club_id,
        )
        for user, net in nets
        if net
    ]
    if rake:
        entries.append(
            LedgerEntry(kind=LedgerEntry.Kind.RAKE, account="house", amount=rake, table_id=table_id, hand_id=hand_id)
        )
    LedgerEntry.objects.bulk_create(entries)


# ---------------------------------------------------------------------------------------------
# Clubs (issue #5): who may do what is checked here, in the services, for every use case.
#
# Roles: the owner names hosts; hosts (and the owner) run tables, approve people and move club
# chips; members play. An outsider or an anonymous visitor may only create a club, ask to join
# one, or join with an invite link.


class ClubError(ValueError):
    """A club request that is refused, with a message a person can read. Nothing was changed."""


class NotAllowed(ClubError):
    """The person's role (or lack of one) does not allow this."""


# Games whose sessions end by themselves: GAMES.md section 4, a Baseball session is 8 completed
# pots. Any other game's session ends when a host ends it.
GAME_END_RULES = {"BB": "pots:8"}
MAX_SESSION_POTS = 1000


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def _membership(club: Club | int, user: Any, *, lock: bool = False) -> Membership | None:
    if not _signed_in(user):
        return None
    club_id = club if isinstance(club, int) else club.pk
    qs = Membership.objects.filter(club_id=club_id, user_id=user.pk, active=True)
    if lock:
        qs = qs.select_for_update()
    return qs.first()


def _require_member(club: Club | int, user: Any, *, lock: bool = False) -> Membership:
    m = _membership(club, user, lock=lock)
    if m is None:
        raise NotAllowed(_("Only members of this club can do that."))
    return m


def _require_host(club: Club | int, user: Any) -> Membership:
    m = _membership(club, user)
    if m is None or not m.is_host:
        raise NotAllowed(_("Only the club's hosts can do that."))
    return m


def _require_owner(club: Club | int, user: Any) -> Membership:
    m = _membership(club, user)
    if m is None or m.role != Membership.Role.OWNER:
        raise NotAllowed(_("Only the club's owner can do that."))
    return m


def _whole_positive(amount: Any) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ClubError(_("The number of chips must be a whole number above zero."))
    return amount


def club_create(
    *, user: Any, name: str, description: str = "", language: str = "en",
    default_game: str = "PP", default_speed: str = "medium",
) -> Club:
    """Anyone signed in may found a club; they become its owner."""
    if not _signed_in(user):
        raise NotAllowed(_("Log in to create a club."))
    name, description = _club_fields(name, description, language, default_game, default_speed)
    with transaction.atomic():
        club = Club.objects.create(
            name=name, description=description, language=language, default_game=default_game,
            default_speed=default_speed, created_by=user,
        )
        Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    return club


def club_update(
    *, club: Club, by: Any, name: str, description: str = "", language: str = "en",
    default_game: str = "PP", default_speed: str = "medium",
) -> Club:
    """The owner renames the club or changes its description, language and usual game and
    speed (found by an audit: none of it could be changed after the club was made)."""
    _require_owner(club, by)
    name, description = _club_fields(name, description, language, default_game, default_speed)
    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(name=name, description=description, language=language,
                                               default_game=default_game, default_speed=default_speed)
    club.refresh_from_db()
    return club


def club_deletable(club: Club) -> bool:
    """A club nobody else ever joined, with no table and no chip ever moved: one made by
    mistake or to try the site. Any other club keeps its history for good."""
    from club.models import LedgerEntry

    return (not Membership.objects.filter(club=club).exclude(role=Membership.Role.OWNER).exists()
            and not LedgerEntry.objects.filter(club=club).exists()
            and not Club.objects.filter(pk=club.pk, tables__isnull=False).exists())


def club_delete(*, club: Club, by: Any) -> None:
    """The owner deletes a club made by mistake (``club_deletable``; found by an audit: a trial
    club stayed in "My clubs" for good)."""
    _require_owner(club, by)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if not club_deletable(club):
            raise ClubError(_("Only a club nobody else has joined, with no tables and no chips ever given, can be "
                              "deleted."))
        club.delete()


def _club_fields(name: str, description: str, language: str, default_game: str, default_speed: str) -> tuple[str, str]:
    name = (name or "").strip()
    description = (description or "").strip()
    if not name:
        raise ClubError(_("A club needs a name."))
    if len(name) > 60:
        raise ClubError(_("A club name has at most 60 characters."))
    if len(description) > 300:
        raise ClubError(_("The description has at most 300 characters."))
    if language not in Club.Language.values:
        raise ClubError(_("Choose Hebrew, Russian or English."))
    if default_speed not in Club.Speed.values:
        raise ClubError(_("Speed must be slow, medium or fast."))
    if default_game not in {code for code, _name in tables_port().games()}:
        raise ClubError(_("Unknown game %(game)s.") % {"game": default_game})
    return name, description


def club_invite_create(
    *, club: Club, by: Any, expires: dt.datetime | None = None, max_uses: int | None = None,
) -> ClubInvite:
    """A new invite link (hosts). ``expires`` and ``max_uses`` are optional limits."""
    _require_host(club, by)
    if expires is not None and expires <= timezone.now():
        raise ClubError(_("An invite cannot expire in the past."))
    if max_uses is not None and (not isinstance(max_uses, int) or isinstance(max_uses, bool) or max_uses < 1):
        raise ClubError(_("A use limit is a whole number, 1 or more."))
    return ClubInvite.objects.create(club=club, created_by=by, expires=expires, max_uses=max_uses)


def club_invite_revoke(*, invite: ClubInvite, by: Any) -> ClubInvite:
    """The link stops working at once (hosts). Revoking twice is harmless."""
    _require_host(invite.club_id, by)
    if invite.revoked is None:
        invite.revoked = timezone.now()
        invite.save(update_fields=["revoked"])
    return invite


def _admit(club: Club | int, user: Any) -> Membership:
    """Make the user an active member (a new row, or the old one back with its chips)."""
    club_id = club if isinstance(club, int) else club.pk
    m = Membership.objects.select_for_update().filter(club_id=club_id, user=user).first()
    if m is None:
        m = Membership.objects.create(club_id=club_id, user=user, role=Membership.Role.MEMBER)
    elif not m.active:
        m.active = True
        m.role = Membership.Role.MEMBER
        m.left = None
        m.removed = False
        m.save(update_fields=["active", "role", "left", "removed"])
    # Whoever asked to join and came in by a link is in: their request is settled.
    JoinRequest.objects.filter(club_id=club_id, user=user, status=JoinRequest.Status.PENDING).update(
        status=JoinRequest.Status.APPROVED, decided=timezone.now(),
    )
    return m


def club_join_by_invite(*, code: str, user: Any) -> Membership:
    """Join with an invite link. A member who follows a link again uses nothing up."""
    if not _signed_in(user):
        raise NotAllowed(_("Log in to join a club."))
    with transaction.atomic():
        invite = ClubInvite.objects.select_for_update().filter(code=code or "").first()
        if invite is None or not invite.usable(timezone.now()):
            raise ClubError(_("This invite link is not valid any more. Ask the club's host for a new one."))
        existing = _membership(invite.club_id, user)
        if existing is not None:
            return existing
        if Membership.objects.filter(club_id=invite.club_id, user=user, active=False, removed=True).exists():
            raise ClubError(_("A host removed you from this club, so an invite link does not bring you back. "
                              "Ask to join: a host will answer."))
        membership = _admit(invite.club_id, user)
        invite.uses += 1
        invite.save(update_fields=["uses"])
        return membership


def club_request_join(*, club: Club, user: Any, message: str = "") -> JoinRequest:
    """Ask the hosts to let you in. Asking again while a request waits returns that request."""
    if not _signed_in(user):
        raise NotAllowed(_("Log in to ask to join a club."))
    message = (message or "").strip()[:200]
    with transaction.atomic():
        if _membership(club, user) is not None:
            raise ClubError(_("You are already a member of this club."))
        pending = JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).first()
        if pending is not None:
            return pending
        return JoinRequest.objects.create(club=club, user=user, message=message)


def _answer_pending(model: Any, pk: int, by: Any, status: str, act: Callable[[Any], None] | None = None) -> Any:
    """Answer a request that waits (to join, or for chips): its row locked, still waiting, what
    the answer does (``act``, in the same transaction), and who answered it when."""
    with transaction.atomic():
        req = model.objects.select_for_update().get(pk=pk)
        if req.status != "pending":
            raise ClubError(_("This request has already been answered."))
        if act is not None:
            act(req)
        req.status = status
        req.decided_by = by
        req.decided = timezone.now()
        req.save(update_fields=["status", "decided_by", "decided"])
    return req


def _decide(join_request: JoinRequest, by: Any, status: str) -> JoinRequest:
    _require_host(join_request.club_id, by)
    admit = (lambda req: _admit(req.club_id, req.user)) if status == JoinRequest.Status.APPROVED else None
    return _answer_pending(JoinRequest, join_request.pk, by, status, admit)  # type: ignore[no-any-return]


def club_request_approve(*, join_request: JoinRequest, by: Any) -> JoinRequest:
    return _decide(join_request, by, JoinRequest.Status.APPROVED)


def club_request_decline(*, join_request: JoinRequest, by: Any) -> JoinRequest:
    return _decide(join_request, by, JoinRequest.Status.DECLINED)


def club_set_role(*, club: Club, by: Any, user: Any, role: str) -> Membership:
    """The owner names hosts (``host``), takes it back (``member``), or hands the club to
    another member (``owner``; the old owner stays on as a host)."""
    mine = _require_owner(club, by)
    if role not in Membership.Role.values:
        raise ClubError(_("A role is owner, host or member."))
    with transaction.atomic():
        target = _membership(club, user, lock=True)
        if target is None:
            raise ClubError(_("That person is not a member of this club."))
        if target.pk == mine.pk:
            raise ClubError(_("The owner keeps the owner's role until handing the club to someone else."))
        target.role = role
        target.save(update_fields=["role"])
        if role == Membership.Role.OWNER:
            Membership.objects.filter(pk=mine.pk).update(role=Membership.Role.HOST)
    return target


class _SeatedMeanwhile(Exception):
    """A sit-down at one of the club's tables committed after the seats were settled: the
    leave or removal runs again (``_stepping_out``)."""


def _stepping_out(step: Any) -> None:
    """Run a leave or a removal (its own transaction), again if a seat arrived meanwhile."""
    for _attempt in range(3):
        try:
            step()
            return
        except _SeatedMeanwhile:
            continue
    raise ClubError(_("A seat was being taken at that moment; try again."))


def _step_out(club: Club, membership: Membership, *, removed: bool = False) -> None:
    # Seats first: every stack goes back to the club balance (now, or when the hand the player
    # is in ends), so leaving never loses a chip. The balance stays on the inactive membership.
    # The seats are settled before the membership row is locked: a table writer locks its table
    # and then the membership (a cash-out), so locking in the other order could deadlock.
    tables_port().settle_member(club_id=club.pk, user_id=membership.user_id)
    Membership.objects.select_for_update().filter(pk=membership.pk).update(
        active=False, left=timezone.now(), role=Membership.Role.MEMBER, removed=removed,
    )
    # A sit-down at a club table takes its buy-in under this membership's row lock, so the
    # UPDATE above waited for any sit-down under way; one that committed after the seats were
    # settled left a seat the settling did not see (found by reading: a removed member kept
    # playing at the club's table). Start again, and the next pass settles it.
    if tables_port().seated_to_stay(club_id=club.pk, user_id=membership.user_id):
        raise _SeatedMeanwhile


def club_leave(*, club: Club, user: Any) -> None:
    """Leave the club. The owner hands the club to someone else first."""
    def step() -> None:
        with transaction.atomic():
            mine = _require_member(club, user)
            if mine.role == Membership.Role.OWNER:
                raise ClubError(_("The owner cannot leave; hand the club to another member first."))
            _step_out(club, mine)

    _stepping_out(step)


def club_remove_member(*, club: Club, by: Any, user: Any) -> None:
    """A host removes a member; the owner may also remove a host. Seats and chips are settled
    first. Nobody removes the owner."""
    mine = _require_host(club, by)

    def step() -> None:
        with transaction.atomic():
            target = _membership(club, user)
            if target is None:
                raise ClubError(_("That person is not a member of this club."))
            if target.pk == mine.pk:
                raise ClubError(_("To leave the club yourself, use Leave."))
            if target.role == Membership.Role.OWNER:
                raise NotAllowed(_("Nobody can remove the club's owner."))
            if target.role == Membership.Role.HOST and mine.role != Membership.Role.OWNER:
                raise NotAllowed(_("Only the owner can remove a host."))
            _step_out(club, target, removed=True)

    _stepping_out(step)


# -- Club chips --------------------------------------------------------------------------------


def _club_change(
    *, membership: Membership, amount: int, kind: str, note: str = "",
    table_id: int | None = None, hand_id: int | None = None,
) -> LedgerEntry:
    membership.balance += amount
    membership.save(update_fields=["balance"])
    return LedgerEntry.objects.create(
        user_id=membership.user_id, club_id=membership.club_id, kind=kind, account="club", amount=amount,
        balance_after=membership.balance, table_id=table_id, hand_id=hand_id, note=note,
    )


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ClubError(_("Say why: every chip change needs a reason."))
    if len(reason) > 200:
        raise ClubError(_("A reason has at most 200 characters."))
    return reason


def club_chips_grant(*, club: Club, by: Any, user: Any, amount: int, reason: str) -> LedgerEntry:
    """A host gives a member club chips, with a reason the member sees on their statement."""
    _require_host(club, by)
    amount = _whole_positive(amount)
    reason = _reason(reason)
    with transaction.atomic():
        target = _membership(club, user, lock=True)
        if target is None:
            raise ClubError(_("That person is not a member of this club."))
        return _club_change(membership=target, amount=amount, kind=LedgerEntry.Kind.HOST_GRANT, note=reason)


CHIP_REQUEST_MAX = 10**9  # what a host's grant form takes at most


def chips_request(*, club: Club, user: Any, amount: Any, message: str = "") -> ChipRequest:
    """A member asks the hosts for ``amount`` club chips, with an optional word. Asking again
    while a request waits changes that request (the amount and the word)."""
    _require_member(club, user)
    amount = _whole_positive(amount)
    if amount > CHIP_REQUEST_MAX:
        raise ClubError(_("Ask for at most %(max)s chips at a time.") % {"max": f"{CHIP_REQUEST_MAX:,}"})
    message = (message or "").strip()
    if len(message) > 200:
        raise ClubError(_("A word to the hosts has at most 200 characters."))
    with transaction.atomic():
        _require_member(club, user, lock=True)  # one member's requests never cross
        pending = ChipRequest.objects.select_for_update().filter(
            club=club, user=user, status=ChipRequest.Status.PENDING).first()
        if pending is not None:
            pending.amount, pending.message = amount, message
            pending.save(update_fields=["amount", "message"])
            return pending
        return ChipRequest.objects.create(club=club, user=user, amount=amount, message=message)


def _give_asked(req: ChipRequest) -> None:
    target = _membership(req.club_id, req.user, lock=True)
    if target is None:
        raise ClubError(_("That person is not a member of this club."))
    # Stored without words of any language (an audit saw a Russian host's words on an English
    # statement): club.models.ledger_note says it in the reader's.
    note = ASKED_NOTE + req.message
    _club_change(membership=target, amount=req.amount, kind=LedgerEntry.Kind.HOST_GRANT, note=note[:200])


def chips_request_grant(*, chip_request: ChipRequest, by: Any) -> ChipRequest:
    """A host gives the member what they asked for: a grant on their statement, with their word."""
    _require_host(chip_request.club_id, by)
    return _answer_pending(ChipRequest, chip_request.pk, by, ChipRequest.Status.GRANTED, _give_asked)  # type: ignore[no-any-return]


def chips_request_decline(*, chip_request: ChipRequest, by: Any) -> ChipRequest:
    _require_host(chip_request.club_id, by)
    return _answer_pending(ChipRequest, chip_request.pk, by, ChipRequest.Status.DECLINED)  # type: ignore[no-any-return]


def chips_request_withdraw(*, chip_request: ChipRequest, user: Any) -> ChipRequest:
    """The member takes back their own request while it waits."""
    if not _signed_in(user) or chip_request.user_id != user.pk:
        raise NotAllowed(_("Only the member who asked can take the request back."))
    return _answer_pending(ChipRequest, chip_request.pk, user, ChipRequest.Status.WITHDRAWN)  # type: ignore[no-any-return]


def club_chips_take(*, club: Club, by: Any, user: Any, amount: int, reason: str) -> LedgerEntry:
    """A host takes club chips back (never more than the member has off the tables)."""
    _require_host(club, by)
    amount = _whole_positive(amount)
    reason = _reason(reason)
    with transaction.atomic():
        target = _membership(club, user, lock=True)
        if target is None:
            raise ClubError(_("That person is not a member of this club."))
        if target.balance < amount:
            raise ClubError(_("The member has %(have)s club chips; you cannot take %(amount)s.") % {"have": chips_text(target.balance), "amount": chips_text(amount)})
        return _club_change(membership=target, amount=-amount, kind=LedgerEntry.Kind.HOST_TAKE, note=reason)


def club_chips_to_table(*, club_id: int, user: Any, amount: int, table_id: int) -> None:
    """Take a buy-in at a club table from the member's club chips (the caller puts it on the
    seat in the same transaction)."""
    if amount <= 0:
        raise ChipsError(_("A buy-in must be a positive number of chips."))
    m = _membership(club_id, user, lock=True)
    if m is None:
        raise ChipsError(_("Only members of this club can do that."))
    if m.balance < amount:
        raise ChipsError(_("You have %(have)s club chips; the buy-in is %(amount)s.") % {"have": chips_text(m.balance), "amount": chips_text(amount)})
    _club_change(membership=m, amount=-amount, kind=LedgerEntry.Kind.BUY_IN, table_id=table_id)
    LedgerEntry.objects.create(
        user=user, club_id=club_id, kind=LedgerEntry.Kind.BUY_IN, account=f"table:{table_id}", amount=amount,
        table_id=table_id,
    )


def club_chips_from_table(*, club_id: int, user: Any, amount: int, table_id: int) -> None:
    """Return a stack from a club table to the club chips (a member who left the club too:
    the chips wait on their membership)."""
    if amount < 0:
        raise ChipsError(_("Cannot cash out a negative stack."))
    m = Membership.objects.select_for_update().get(club_id=club_id, user_id=user.pk)
    LedgerEntry.objects.create(
        user=user, club_id=club_id, kind=LedgerEntry.Kind.CASH_OUT, account=f"table:{table_id}", amount=-amount,
        table_id=table_id,
    )
    _club_change(membership=m, amount=amount, kind=LedgerEntry.Kind.CASH_OUT, table_id=table_id)


# -- Sessions ----------------------------------------------------------------------------------


def _check_end_rule(rule: str) -> str:
    if rule == "manual":
        return rule
    kind, _sep, n = rule.partition(":")
    if kind == "pots" and n.isascii() and n.isdigit() and len(n) <= 4 and 1 <= int(n) <= MAX_SESSION_POTS:
        return f"pots:{int(n)}"
    raise ClubError(_("A session ends by hand or after a number of pots."))


def club_session_start(*, club: Club, by: Any, game: str = "", end_rule: str | None = None) -> ClubSession:
    """A host starts the club's night. Its end rule comes from the game (Baseball: 8 pots)
    unless given."""
    _require_host(club, by)
    game = game or club.default_game
    rule = _check_end_rule(end_rule if end_rule is not None else GAME_END_RULES.get(game, "manual"))
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if ClubSession.objects.filter(club=club, ended__isnull=True).exists():
            raise ClubError(_("A session is already running; end it first."))
        return ClubSession.objects.create(club=club, started_by=by, game=game, end_rule=rule)


def club_session_end(*, session: ClubSession, by: Any) -> ClubSession:
    _require_host(session.club_id, by)
    with transaction.atomic():
        s = ClubSession.objects.select_for_update().get(pk=session.pk)
        if s.ended is not None:
            raise ClubError(_("This session has already ended."))
        s.ended = timezone.now()
        s.ended_by = by
        s.save(update_fields=["ended", "ended_by"])
    return s


def club_hand_played(
    *, club_id: int, table_id: int, hand_id: int, results: list[dict[str, Any]], game: str, pot: int = 0,
) -> ClubSession | None:
    """Count a hand settled at one of the club's tables into the club's running session.

    ``results`` has one dict per player dealt in: ``user`` (a user or a user id), ``net`` (chips
    won minus chips put in), ``won`` (chips collected from the pots; 0 when nothing),
    ``boards_won`` (Patch-Patch: boards on which they took a share, splits included) and
    ``scoop`` (won every board alone). Baseball's play units are not chips: a Baseball table
    passes ``net`` 0 and ``units``, the exact net in units (a ``Fraction`` or text like
    ``"-5/3"``), kept apart in :attr:`ClubSessionResult.units_net`. A hand that came in already
    is ignored. When the session has a pot limit (Baseball: 8) and this hand reaches it, the
    session ends here. Returns the session the hand went into, or None when no session is running.
    """
    with transaction.atomic():
        session = ClubSession.objects.select_for_update().filter(club_id=club_id, ended__isnull=True).first()
        if session is None or ClubSessionHand.objects.filter(hand_id=hand_id).exists():
            return None
        ClubSessionHand.objects.create(session=session, table_id=table_id, hand_id=hand_id, game=game, pot=pot)
        for r in results:
            user_id = r["user"] if isinstance(r["user"], int) else r["user"].pk
            row, _created = ClubSessionResult.objects.select_for_update().get_or_create(session=session, user_id=user_id)
            won = int(r.get("won", 0))
            row.net += int(r.get("net", 0))
            row.hands += 1
            row.pots_won += 1 if won > 0 else 0
            row.biggest_pot = max(row.biggest_pot, won)
            row.boards_won += int(r.get("boards_won", 0))
            row.scoops += 1 if r.get("scoop") else 0
            row.units_net += _sixtieths(r.get("units", 0))
            row.save()
        session.pots_completed += 1
        fields = ["pots_completed"]
        limit = session.pot_limit
        if limit is not None and session.pots_completed >= limit:
            session.ended = timezone.now()
            fields.append("ended")
        session.save(update_fields=fields)
    return session


def _sixtieths(units: Any) -> int:
    """Units as a whole number of sixtieths (see ``ClubSessionResult.units_net``).

    >>> _sixtieths("-5/3"), _sixtieths(Fraction(1, 4)), _sixtieths(2)
    (-100, 15, 120)
    """
    scaled = Fraction(units) * ClubSessionResult.UNITS_DENOMINATOR
    if scaled.denominator != 1:
        raise ClubError(f"{units} units is not a share of a pot among at most six players")
    return int(scaled)


# -- Game nights ------------------------------------------------------------------------------
#
# A host puts a night on the calendar ahead; members say yes, maybe or no until it starts. A
# cancelled night keeps its replies and stays listed (as cancelled) as long as any night does.

NIGHT_MAX_AHEAD = dt.timedelta(days=365)
NIGHT_MIN_APART = dt.timedelta(hours=2)
NIGHT_NOTE_MAX = 200
# Nights a club may have ahead at once, as many as its page lists: a night scheduled beyond
# them would be invisible to everyone.
NIGHTS_AHEAD_MAX = 10


def game_night_schedule(*, club: Club, by: Any, starts_at: dt.datetime, note: str = "") -> GameNight:
    """A host puts a night on the club's calendar: in the future, at most a year ahead."""
    _require_host(club, by)
    if timezone.is_naive(starts_at):
        raise ClubError("a game night's start needs a time zone")
    now = timezone.now()
    if starts_at <= now:
        raise ClubError(_("That time has already passed. Choose a time in the future."))
    if starts_at > now + NIGHT_MAX_AHEAD:
        raise ClubError(_("A night can be scheduled at most a year ahead."))
    note = (note or "").strip()
    if len(note) > NIGHT_NOTE_MAX:
        raise ClubError(_("The note has at most 200 characters."))
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        ahead = GameNight.objects.filter(club=club, cancelled=False, starts_at__gt=now).count()
        if ahead >= NIGHTS_AHEAD_MAX:
            raise ClubError(_("The club already has 10 nights ahead. Schedule more once some of them have been played."))
        # The same night twice (a second tap, or a time typed again) splits the members' answers
        # between two nights (found by an audit): refused, as is one within two hours of another.
        near = GameNight.objects.filter(
            club=club, cancelled=False,
            starts_at__gt=starts_at - NIGHT_MIN_APART, starts_at__lt=starts_at + NIGHT_MIN_APART,
        )
        if near.exists():
            raise ClubError(_("The club already has a night within two hours of that time. To move it, cancel it and schedule it again."))
        return GameNight.objects.create(club=club, starts_at=starts_at, note=note, created_by=by)


def game_night_cancel(*, night: GameNight, by: Any) -> GameNight:
    """A host calls a night off before it starts. The replies stay, and so does the night, marked
    as cancelled, so that nobody who said yes turns up wondering where everyone is."""
    _require_host(night.club_id, by)
    with transaction.atomic():
        n = GameNight.objects.select_for_update().get(pk=night.pk)
        if n.cancelled:
            raise ClubError(_("This night is already cancelled."))
        if n.starts_at <= timezone.now():
            raise ClubError(_("This night has already started; it can no longer be cancelled."))
        n.cancelled = True
        n.save(update_fields=["cancelled"])
    return n


def game_night_reply(*, night: GameNight, user: Any, answer: str) -> GameNightReply:
    """A member says whether they are coming: ``yes``, ``maybe`` or ``no``. They may change
    their answer as often as they like until the night starts."""
    _require_member(night.club_id, user)
    if answer not in GameNightReply.Answer.values:
        raise ClubError(_("Answer yes, maybe or no."))
    with transaction.atomic():
        # The night's row is locked, so a reply and a cancellation never cross.
        n = GameNight.objects.select_for_update().get(pk=night.pk)
        if n.cancelled:
            raise ClubError(_("This night is cancelled."))
        if n.starts_at <= timezone.now():
            raise ClubError(_("This night has already started; replies are closed."))
        reply = GameNightReply.objects.filter(night=n, user_id=user.pk).first()
        if reply is None:
            return GameNightReply.objects.create(night=n, user=user, answer=answer)
        # The same answer again changes nothing, not even its time: the names are listed in
        # the order people answered.
        if reply.answer != answer:
            reply.answer = answer
            reply.save(update_fields=["answer", "updated"])
        return reply


# -- Checks other apps use (tables asks these before a club table's host control) --------------


def club_require_member(*, club: Club | int, user: Any) -> Membership:
    """The user's active membership; :class:`NotAllowed` for outsiders and anonymous visitors."""
    return _require_member(club, user)


def club_require_host(*, club: Club | int, user: Any) -> Membership:
    """The membership of a host or the owner; :class:`NotAllowed` for everyone else."""
    return _require_host(club, user)

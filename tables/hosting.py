"""A host's controls at a table: pause and resume, seat requests, sitting a player out, the
stakes and speed, the game dealt next (dealer's choice), closing the table. A club table's hosts
are its club's hosts (and owner); a private table's host is whoever opened it; a public table has
none. Each checks that ``by`` hosts the table, then does one thing.

The table's own writers (``tables.services``) do the work; these add who may ask for it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club import services as club_services
from tables import freezeout, hotsql, levels, services
from tables.models import LIVE_GAMES, Seat, SeatRequest, Table, new_invite_code
from tables.services import TableError


def hosts(*, table: Table, user: Any) -> bool:
    """Whether ``user`` hosts ``table`` (see the module's docstring)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if table.club_id is None:
        return not table.is_public and table.created_by_id == user.pk
    from club.selectors import membership_of

    membership = membership_of(club=table.club_id, user=user)
    return bool(membership is not None and membership.is_host)


def _host_table(table_id: int, by: Any) -> Table:
    table = Table.objects.filter(id=table_id).first()
    if table is None:
        raise TableError(_("No such table."))
    if table.club_id is None:
        if not hosts(table=table, user=by):
            raise TableError(_("Only whoever opened this table can do that."))
        return table
    try:
        club_services.club_require_host(club=table.club_id, user=by)
    except club_services.ClubError as exc:
        raise TableError(str(exc)) from exc
    return table


def table_host_pause(*, table_id: int, by: Any) -> int:
    """Pause after the hand being played (at once between hands)."""
    _host_table(table_id, by)
    return services.table_pause(table_id=table_id)


def table_host_resume(*, table_id: int, by: Any) -> int:
    _host_table(table_id, by)
    return services.table_resume(table_id=table_id)


def table_host_close(*, table_id: int, by: Any) -> int:
    """Close after the hand being played; every stack goes back to its owner's club chips."""
    _host_table(table_id, by)
    return services.table_close(table_id=table_id)


MAX_BLIND = levels.MAX_BLIND


@services.retry_when_busy
def table_host_terms(*, table_id: int, by: Any, small_blind: Any = None, big_blind: Any = None, speed: Any = None) -> str:
    """Change the table's blinds and speed (each left as it is when not given). Between hands the
    change takes effect at once; while a hand is played, when it ends (the hand keeps what it was
    dealt with). Baseball plays for units whatever the blinds say: only its speed changes.
    Returns ``"now"`` or ``"next"``."""
    _host_table(table_id, by)
    with transaction.atomic():
        table = services._lock_table(table_id)
        if table.status == Table.Status.CLOSED or table.close_after_hand:
            raise TableError(_("This table is closed."))
        current = (table.next_small_blind, table.next_big_blind) if table.next_big_blind is not None \
            else (table.small_blind, table.big_blind)
        small, big = current
        if small_blind is not None or big_blind is not None:
            if table.game == "BB":
                raise TableError(_("Baseball plays for units: its stakes do not change."))
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in (small_blind, big_blind)):
                raise TableError(_("Give both the small and the big blind, in whole chips."))
            if not 0 < small_blind < big_blind <= MAX_BLIND:
                raise TableError(_("The small blind must be positive and smaller than the big blind."))
            small, big = small_blind, big_blind
        new_speed = (table.next_speed or table.speed) if speed is None else speed
        if new_speed not in Table.Speed.values:
            raise TableError(_("Speed must be slow, medium or fast."))
        if (small, big, new_speed) == (table.small_blind, table.big_blind, table.speed) \
                and table.next_big_blind is None and not table.next_speed:
            raise TableError(_("The table already plays these stakes at this speed."))
        changes_blinds = (small, big) != (table.small_blind, table.big_blind)
        if changes_blinds and levels.on(table):
            raise TableError(_("The blinds rise on a clock at this table: stop the clock to set them by hand."))
        table.next_small_blind, table.next_big_blind = (small, big) if changes_blinds else (None, None)
        table.next_speed = new_speed if new_speed != table.speed else ""
        when = "next"
        if services._current_hand(table) is None:
            services.apply_next_terms(table)
            when = "now"
        else:
            hotsql.save(table, services._TERMS)
        services._bump(table)
    return when


def _check_minutes(table_id: int, by: Any, minutes: Any) -> None:
    """``by`` hosts the table, and ``minutes`` is 0 or one of ``levels.MINUTES``."""
    _host_table(table_id, by)
    if type(minutes) is not int or (minutes != 0 and minutes not in levels.MINUTES):
        raise TableError(_("Pick how often the blinds go up."))


def _lock_open_chips_table(table_id: int, at_baseball: str) -> Table:
    """The table's row, locked; refused when it is closed (or closing), or plays Baseball's units."""
    table = services._lock_table(table_id)
    if table.status == Table.Status.CLOSED or table.close_after_hand:
        raise TableError(_("This table is closed."))
    if table.game == "BB":
        raise TableError(at_baseball)
    return table


@services.retry_when_busy
def table_host_levels(*, table_id: int, by: Any, minutes: Any) -> str:
    """Blinds that rise every ``minutes`` (one of ``levels.MINUTES``), from the blinds in play
    (or a host's change of them waiting for the hand to end); 0 stops the clock, the blinds in
    play staying. Changing the minutes while it runs starts the level in play again. Baseball
    plays for units: no levels. Returns ``"started"``, ``"changed"`` or ``"stopped"``."""
    _check_minutes(table_id, by, minutes)
    with transaction.atomic():
        table = _lock_open_chips_table(table_id, _("Baseball plays for units: its stakes do not change."))
        # The clock runs while hands are dealt: on a paused table, or one between hands (waiting
        # for players, or in a showdown's pause), it starts with the next deal.
        now = timezone.now()
        paused = table.status == Table.Status.PAUSED or services._current_hand(table) is None
        if minutes == 0:
            if not levels.on(table):
                raise TableError(_("The blinds are not on a clock."))
            levels.stop(table)
            done = "stopped"
        elif levels.on(table):
            if minutes == table.level_minutes:
                raise TableError(_("The blinds already go up at that pace."))
            levels.change_minutes(table, minutes, now, paused=paused)
            done = "changed"
        else:
            levels.start(table, minutes, now, paused=paused)
            if table.next_big_blind is not None and table.next_small_blind is not None:
                # A change of stakes waiting for the hand to end is where level 1 starts.
                table.level_base_small, table.level_base_big = table.next_small_blind, table.next_big_blind
            done = "started"
        hotsql.save(table, levels.FIELDS)
        services._bump(table)
    return done


@services.retry_when_busy
def table_host_freezeout(*, table_id: int, by: Any, minutes: Any, late: Any = 0) -> str:
    """Start a freeze-out with the blinds going up every ``minutes`` (one of ``levels.MINUTES``),
    from the blinds in play, or call the one being played off (``minutes`` 0). Started between
    hands only (a paused table, or one waiting), with two players or more holding chips; never
    at Baseball. ``late`` (one of ``freezeout.LATE_CHOICES``): players may sit down, or sit down
    again after going out, until that level is over (0: nobody). Returns ``"started"`` or
    ``"called off"`` (tables.freezeout)."""
    _check_minutes(table_id, by, minutes)
    if type(late) is not int or late not in freezeout.LATE_CHOICES:
        raise TableError(_("Late entry lasts through level 1, 2, 3 or 4, or there is none."))
    with transaction.atomic():
        table = _lock_open_chips_table(table_id, _("Baseball plays for units: there is no freeze-out."))
        now = timezone.now()
        if minutes == 0:
            if not freezeout.running(table):
                raise TableError(_("No freeze-out is being played here."))
            freezeout.call_off(table)
            hotsql.save(table, freezeout.FIELDS)
            services._bump(table)
            return "called off"
        if freezeout.running(table):
            raise TableError(_("A freeze-out is being played here already."))
        if services._current_hand(table) is not None:
            raise TableError(_("A freeze-out starts between hands: pause the table, then start it."))
        seats = [s for s in Seat.objects.filter(table=table).select_related("user", "user__profile").order_by("seat_no")
                 if s.stack > 0 and not s.leaving]
        if len(seats) < 2:
            raise TableError(_("A freeze-out needs two players or more with chips at the table."))
        from club.selectors import display_name

        if table.next_big_blind is not None and table.next_small_blind is not None:
            services.apply_next_terms(table)  # a change of stakes waiting for the hand: level 1
        levels.start(table, minutes, now, paused=True)  # the clock starts with the first deal
        freezeout.start(table, [(s.user_id, display_name(s.user)) for s in seats], now, late=late)
        # Everyone is dealt in from the first hand: nobody waits for the big blind or owes one.
        Seat.objects.filter(table=table).update(wait_bb=False, post_bb=False, missed_bb=False, missed_sb=False)
        hotsql.save(table, (*freezeout.FIELDS, *levels.FIELDS))
        services._bump(table)
    return "started"


def games_for(table: Table) -> list[str]:
    """The games a host may deal next at ``table`` (dealer's choice): every live game but
    Baseball (it plays for units, in sessions of its own) that seats as many as the table has
    seats. Baseball's own tables keep their game."""
    if table.game == "BB":
        return []
    out = []
    from tables.selectors import GAME_NAMES

    # In the order the new-table form lists them (found by an audit: sorted by code, the host's
    # list started with five-card draw and ended with Patch-Patch).
    for code in [c for c in GAME_NAMES if c in LIVE_GAMES] + sorted(set(LIVE_GAMES) - set(GAME_NAMES)):
        if code == "BB":
            continue
        if code == "PP":
            fits = table.max_seats in (2, 3)
        else:
            variant = services._variant_or_none(code)
            fits = variant is not None and getattr(variant, "MIN_PLAYERS", 2) <= table.max_seats <= getattr(variant, "MAX_PLAYERS", 3)
        if fits:
            out.append(code)
    return out


@services.retry_when_busy
def table_host_game(*, table_id: int, by: Any, game: Any) -> str:
    """Deal ``game`` from the next hand on (at once between hands): dealer's choice. The stakes,
    speed, seats and stacks stay; a hand being played finishes by its own game. Returns ``"now"``
    or ``"next"``."""
    _host_table(table_id, by)
    with transaction.atomic():
        table = services._lock_table(table_id)
        if table.status == Table.Status.CLOSED or table.close_after_hand:
            raise TableError(_("This table is closed."))
        if table.game == "BB":
            raise TableError(_("A Baseball table keeps its game: its sessions and units belong to it."))
        if not isinstance(game, str) or game not in LIVE_GAMES or game == "BB":
            raise TableError(_("Choose a game from the list."))  # "", "XX": not a seat count's fault
        if game not in games_for(table):
            raise TableError(_("This table cannot deal that game (it does not seat as many players)."))
        if game == (table.next_game or table.game):
            raise TableError(_("That game is already the one dealt next."))
        table.next_game = "" if game == table.game else game
        when = "next"
        if services._current_hand(table) is None:
            if table.next_game:
                services._switch_game(table)
            else:
                hotsql.save(table, ["next_game"])
            when = "now"
        else:
            hotsql.save(table, ["next_game"])
        services._bump(table)
    return when


@services.retry_when_busy
def table_host_straddles(*, table_id: int, by: Any, on: bool) -> None:
    """Let the players straddle (in no-limit and pot-limit Hold'em and Omaha), or stop it. A hand
    being played keeps the straddle it was dealt with; the next deal follows the setting."""
    _host_flag(table_id, by, "straddles", on, _("Public tables play without straddles."))


@services.retry_when_busy
def table_host_run_twice(*, table_id: int, by: Any, on: bool) -> None:
    """Let the players agree to run the board twice (Hold'em and Omaha), or stop it. A hand
    being played keeps what it was dealt with; the next deal follows the setting."""
    _host_flag(table_id, by, "run_twice", on, _("Public tables run the board once."))


@services.retry_when_busy
def table_host_rabbit(*, table_id: int, by: Any, on: bool) -> None:
    """Let the players hunt the rabbit after a hand (Hold'em, Omaha and Patch-Patch), or stop it.
    A hand over and still shown follows the setting at once: the button comes or goes with it."""
    _host_flag(table_id, by, "rabbit_hunt", on, _("Public tables hunt no rabbits."))


@services.retry_when_busy
def table_host_bomb(*, table_id: int, by: Any, big_blinds: Any) -> None:
    """A bomb pot for the next Hold'em or Omaha hand: everyone puts ``big_blinds`` big blinds in
    (one of ``services.BOMB_CHOICES``), no blinds, the flop at once; 0 calls off one asked for.
    A hand being played is not changed."""
    _host_big_blinds(table_id, by, "bomb_next_bb", big_blinds, services.BOMB_CHOICES, services.game_has_bomb,
                     _("Choose a bomb pot of %(choices)s big blinds."), _("Public tables have no bomb pots."),
                     _("Bomb pots are dealt in Hold'em and Omaha only."))


@services.retry_when_busy
def table_host_seven_deuce(*, table_id: int, by: Any, big_blinds: Any) -> None:
    """The seven-deuce bounty in Hold'em: a player who takes a pot whole with a seven and a deuce
    is paid ``big_blinds`` big blinds (one of ``services.SEVEN_DEUCE_CHOICES``) by every other
    player dealt in; 0 stops it. A hand being played keeps the bounty it was dealt with."""
    _host_big_blinds(table_id, by, "seven_deuce_bb", big_blinds, services.SEVEN_DEUCE_CHOICES,
                     services.game_has_seven_deuce, _("Choose a seven-deuce bounty of %(choices)s big blinds."),
                     _("Public tables pay no seven-deuce bounty."), _("The seven-deuce bounty is paid in Hold'em only."))


def _host_big_blinds(table_id: int, by: Any, field: str, big_blinds: Any, choices: tuple[int, ...], game_takes: Any,
                     bad_choice: str, public_refusal: str, wrong_game: str) -> None:
    """Set one of a hosted table's house rules counted in big blinds (a column): 0 or one of
    ``choices``, and only where the game dealt next ``game_takes`` it (0 is always allowed)."""
    if type(big_blinds) is not int or big_blinds not in (0, *choices):
        raise TableError(bad_choice % {"choices": ", ".join(str(c) for c in choices)})
    _host_table(table_id, by)
    with transaction.atomic():
        table = _lock_house_rules(table_id, public_refusal)
        if big_blinds and not game_takes(table.next_game or table.game):
            raise TableError(wrong_game)
        if getattr(table, field) == big_blinds:
            return
        setattr(table, field, big_blinds)
        hotsql.save(table, [field])
        services._bump(table)


def _lock_house_rules(table_id: int, public_refusal: str) -> Table:
    """The table, locked, for a change of its house rules: an open table with a host (public
    tables have none; ``public_refusal`` says what they do instead)."""
    table = services._lock_table(table_id)
    if table.status == Table.Status.CLOSED or table.close_after_hand:
        raise TableError(_("This table is closed."))
    if table.is_public and table.club_id is None:
        raise TableError(public_refusal)
    return table


def _host_flag(table_id: int, by: Any, field: str, on: bool, public_refusal: str) -> None:
    """Turn one of a hosted table's house rules (a boolean column) on or off."""
    _host_table(table_id, by)
    with transaction.atomic():
        table = _lock_house_rules(table_id, public_refusal)
        if getattr(table, field) == on:
            return
        setattr(table, field, on)
        hotsql.save(table, [field])
        services._bump(table)


@services.retry_when_busy
def table_host_new_invite(*, table_id: int, by: Any) -> str:
    """A private table's new invite link (its code), for a host whose link went further than
    meant: the old one opens nothing from now on, not even in a browser that came by it before.
    Whoever sits here or ever bought in keeps their way in (selectors.can_watch). Club tables
    have no link: the club's members are its players."""
    table = _host_table(table_id, by)
    if table.club_id is not None or table.is_public:
        raise TableError(_("Only a private table has an invite link."))
    code = new_invite_code()
    Table.objects.filter(pk=table.pk).update(invite_code=code)
    from tables.live import broadcast_link_changed

    transaction.on_commit(lambda: broadcast_link_changed(table.id))  # its watchers check again
    return code


@services.retry_when_busy
def table_host_sit_out(*, table_id: int, by: Any, user_id: int) -> None:
    """Put a player on a break from the next hand (they come back with "I'm back")."""
    _host_table(table_id, by)
    with transaction.atomic():
        table = services._lock_table(table_id)
        seat = Seat.objects.filter(table=table, user_id=user_id).first()
        if seat is None:
            raise TableError(_("That player has no seat at this table."))
        if services._current_hand(table) is None:
            seat.sitting_out = True
        else:
            seat.break_next = True
        seat.save(update_fields=["sitting_out", "break_next"])
        services._bump(table)


def table_host_stand_up(*, table_id: int, by: Any, user_id: int) -> bool:
    """Stand a player up (a player gone quiet, or one the host will not have), as if they left
    themselves: in a hand their turns are played at once (``services._answer_leavers``) and
    they go when it ends. Their stack goes back where it came from (club chips, or the site
    bankroll). Returns True when they are gone already, False when they go at the hand's end."""
    _host_table(table_id, by)
    seat = Seat.objects.filter(table_id=table_id, user_id=user_id).select_related("user").first()
    if seat is None:
        raise TableError(_("That player has no seat at this table."))
    services.table_leave_seat(table_id=table_id, user=seat.user)
    return not Seat.objects.filter(pk=seat.pk).exists()


@services.retry_when_busy
def table_seat_request(*, table_id: int, user: Any, buy_in: int) -> SeatRequest:
    """A member asks for a seat where a host approves every seat; the buy-in is taken from their
    club chips when a host says yes. Asking again replaces the buy-in of the waiting request."""
    with transaction.atomic():
        table = services._lock_table(table_id)
        if table.club_id is None or not table.seat_approval:
            raise TableError(_("Just take a seat: nobody needs to approve it here."))
        if table.status == Table.Status.CLOSED or table.close_after_hand:
            raise TableError(_("This table is closed."))
        if freezeout.running(table) and not freezeout.entry_open(table):
            raise TableError(_("A freeze-out is being played here: new players join the next one."))
        try:
            club_services.club_require_member(club=table.club_id, user=user)
        except club_services.ClubError as exc:
            raise TableError(str(exc)) from exc
        low, high = table.min_buy_in_bb * table.big_blind, table.max_buy_in_bb * table.big_blind
        if table.game == "BB":  # play units: nothing is bought in (tables.baseball)
            low, high = 0, 0
        if not isinstance(buy_in, int) or isinstance(buy_in, bool) or not low <= buy_in <= high:
            raise TableError(_("The buy-in here is between %(low)s and %(high)s chips.") % {"low": club_services.chips_text(low), "high": club_services.chips_text(high)})
        if Seat.objects.filter(table=table, user=user).exists():
            raise TableError(_("You already have a seat at this table."))
        req, created = SeatRequest.objects.get_or_create(
            table=table, user=user, status=SeatRequest.Status.PENDING, defaults={"buy_in": buy_in},
        )
        if not created and req.buy_in != buy_in:
            req.buy_in = buy_in
            req.save(update_fields=["buy_in"])
        services._bump(table)
    return req


def _seat_request(request_id: int, by: Any, table_id: int | None) -> SeatRequest:
    """A seat request for a host of its table to answer. With ``table_id`` (the page it was
    answered on) the host is checked first and the request must be that table's: a member who
    is not a host, or an id from elsewhere, learns nothing about other requests (found by
    probing: "already answered" came before "hosts only", for any id)."""
    if table_id is not None:
        _host_table(table_id, by)
    req = SeatRequest.objects.filter(id=request_id).first()
    if req is None or (table_id is not None and req.table_id != table_id):
        raise TableError(_("There is no such request."))
    if table_id is None:
        _host_table(req.table_id, by)
    return req


@services.retry_when_busy
def table_seat_request_approve(*, request_id: int, by: Any, table_id: int | None = None) -> Seat:
    """Seat the player who asked, with the buy-in they asked for."""
    req = _seat_request(request_id, by, table_id)
    with transaction.atomic():
        services._lock_table(req.table_id)  # the table first, as every table writer does
        req = SeatRequest.objects.select_for_update().get(id=request_id)
        if req.status != SeatRequest.Status.PENDING:
            raise TableError(_("This request has already been answered."))
        seat = services.table_take_seat(table_id=req.table_id, user=req.user, buy_in=int(req.buy_in), approved=True)
        req.status = SeatRequest.Status.APPROVED
        req.decided_by = by
        req.save(update_fields=["status", "decided_by"])
    return seat


@services.retry_when_busy
def table_seat_request_decline(*, request_id: int, by: Any, table_id: int | None = None) -> None:
    req = _seat_request(request_id, by, table_id)
    with transaction.atomic():
        table = services._lock_table(req.table_id)
        req = SeatRequest.objects.select_for_update().get(id=request_id)
        if req.status != SeatRequest.Status.PENDING:
            raise TableError(_("This request has already been answered."))
        req.status = SeatRequest.Status.DECLINED
        req.decided_by = by
        req.save(update_fields=["status", "decided_by"])
        services._bump(table)

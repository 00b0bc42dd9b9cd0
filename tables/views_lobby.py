"""The lobby, the new-table form, the table page's access check, and sitting down / standing up.

Views only translate: parse a form, call one service or selector, render or redirect. A private
table is a 404 to anyone who may not watch it, exactly like a table that does not exist.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from club import selectors as club_selectors
from club.forms import OneLineField
from club.models import Profile
from tables import chat, hosting, selectors, services, stakes, views_club
from tables.models import STAKES_LADDER, Seat, SeatRequest, Table

INVITED_KEEP = 50  # the most recent invitations a session remembers
DEFAULT_BUY_IN_BB = 100


def _chips(n: int) -> str:
    from club.services import chips_text

    return chips_text(n)


# ---------------------------------------------------------------------------------------------
# Lobby


LOBBY_LIST_TARGET = "lobby-list"
TABLE_TARGET = "table-root"
HOST_PANEL_TARGET = "host-panel"


def _htmx_target(request: HttpRequest) -> str | None:
    htmx = getattr(request, "htmx", None)
    return htmx.target if htmx else None


# The rungs as form choices: "5-10" sent, "5/10" shown (without spaces it stays one
# left-to-right run inside Hebrew text).
LADDER_CHOICES = [(f"{sb}-{bb}", f"{sb}/{bb}") for sb, bb in STAKES_LADDER]


class LobbyFilter(forms.Form):
    """What the public list shows: one game, one rung of the stakes ladder, only tables with a
    free seat. Anything it cannot read is said under the form and the list stays whole."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), required=False, choices=())
    stakes = forms.ChoiceField(
        label=gettext_lazy("Stakes"), required=False,
        choices=[("", gettext_lazy("All stakes")), *LADDER_CHOICES],
    )
    free = forms.BooleanField(label=gettext_lazy("With a free seat"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("All games")), *selectors.live_games()]

    def keep(self, tables: list[Any]) -> list[Any]:
        if not self.is_valid():
            return tables
        game, stakes, free = self.cleaned_data["game"], self.cleaned_data["stakes"], self.cleaned_data["free"]
        if game:
            tables = [t for t in tables if t.game == game]
        if stakes:
            sb, bb = (int(x) for x in stakes.split("-"))
            # Baseball plays for units, not blinds: it is on no rung.
            tables = [t for t in tables if t.game != "BB" and (t.small_blind, t.big_blind) == (sb, bb)]
        if free:
            tables = [t for t in tables if t.taken < t.max_seats]
        return tables


def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby page; the htmx refresh of the list (``HX-Target: lobby-list``) gets only the list.
    The filter's choices travel in the address, so a refresh, a reload or a shared link keeps them."""
    names = selectors.GAME_NAMES
    everything = selectors.lobby_tables()
    asked = {k: v[:40] for k, v in request.GET.items() if k in LobbyFilter.base_fields and v}
    lobby_filter = LobbyFilter(asked or None)
    stacks = selectors.seats_of(user=request.user)
    if asked:
        # The player's own seats stay whatever the filter (found by an audit: filtering for
        # Hold'em hid the stud table where it was their turn).
        kept = {t.id for t in lobby_filter.keep(everything)}
        tables = [t for t in everything if t.id in kept or t.id in stacks]
    else:
        tables = everything
    mine = selectors.private_tables_for(user=request.user)
    clubs = selectors.club_tables_seated(user=request.user)
    turns = selectors.turns_of(user=request.user, table_ids=list(stacks))
    breaks = selectors.breaks_of(user=request.user) if stacks else set()
    for t in [*tables, *mine, *clubs]:
        t.game_name = names.get(t.game, t.game)
        t.my_stack = stacks.get(t.id)
        t.my_turn = t.id in turns
        t.my_break = t.id in breaks
    context = {"tables": tables, "my_private": mine, "my_club_tables": clubs, "lobby_filter": lobby_filter,
               "filtered": len(tables) != len(everything), "public_count": len(everything),
               "filter_query": urlencode(asked)}
    partial = _htmx_target(request) == LOBBY_LIST_TARGET
    template = "lobby.html#lobby-list" if partial else "lobby.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


# ---------------------------------------------------------------------------------------------
# New table


class TableForm(forms.Form):
    VISIBILITY = (("public", gettext_lazy("Public: listed in the lobby")),
                  ("private", gettext_lazy("Private: only people with the invite link")))

    name = OneLineField(label=gettext_lazy("Table name"), max_length=60)
    game = forms.ChoiceField(label=gettext_lazy("Game"), initial="PP", choices=(), required=False)
    stakes = forms.ChoiceField(
        # A rung of the ladder, named by its blinds; what it means in the chosen game (an ante and
        # a bring-in in stud) is shown under it (tables/_stakes_help.html).
        label=gettext_lazy("Stakes"),
        choices=LADDER_CHOICES,
        required=False,
    )
    small_blind = forms.IntegerField(label=gettext_lazy("Small blind"), min_value=1, max_value=1_000_000, required=False)
    big_blind = forms.IntegerField(label=gettext_lazy("Big blind"), min_value=2, max_value=2_000_000, required=False)
    speed = forms.ChoiceField(label=gettext_lazy("Speed"), choices=Table.Speed.choices, initial="medium",
                              help_text=lazy(services.speed_help, str)(),
                              widget=forms.RadioSelect)
    max_seats = forms.TypedChoiceField(
        label=gettext_lazy("Seats"), coerce=int, initial=3,
        choices=[(n, n) for n in range(2, 11)],
        help_text=gettext_lazy("Patch-Patch seats 2 or 3; Hold'em, Omaha and five-card stud up to 10; seven-card stud, Razz and draw up to 8; Baseball 2 to 6."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = selectors.live_games()
    visibility = forms.ChoiceField(label=gettext_lazy("Who can join"), choices=VISIBILITY, initial="public",
                                   widget=forms.RadioSelect)
    straddles = forms.BooleanField(
        label=gettext_lazy("Straddles allowed (private tables)"), required=False,
        help_text=gettext_lazy("No-limit and pot-limit Hold'em and Omaha: a player may post twice the big blind from the seat left of it. The host can change it at the table."),
    )
    run_twice = forms.BooleanField(
        label=gettext_lazy("Running it twice allowed (private tables)"), required=False,
        help_text=gettext_lazy("Hold'em and Omaha: when an all-in ends the betting before the river and every player still in has “Run it twice” on, the rest of the board is dealt twice and each pot split between the two. The host can change it at the table."),
    )

    seven_deuce_bb = views_club.seven_deuce_field(gettext_lazy("Seven-deuce bounty (private tables)"))
    rabbit_hunt = forms.BooleanField(
        label=gettext_lazy("Rabbit hunting allowed (private tables)"), required=False,
        help_text=gettext_lazy("Hold'em, Omaha and Patch-Patch: after a hand that ended before the board was all out, a player dealt in may ask to see the cards that would have come. They change nothing. The host can change it at the table."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["game"] = data.get("game") or "PP"  # the flagship unless another game is chosen
        seats = data.get("max_seats")
        if seats is not None:
            from rules_engine.games import get_variant

            variant = get_variant(data["game"])
            if not variant.MIN_PLAYERS <= seats <= variant.MAX_PLAYERS:
                self.add_error("max_seats", _("%(game)s seats %(low)s to %(high)s players.") % {
                    "game": selectors.game_name(data["game"]), "low": variant.MIN_PLAYERS, "high": variant.MAX_PLAYERS})
        public = data.get("visibility") == "public"
        sb, bb = data.get("small_blind"), data.get("big_blind")
        if data["game"] == "BB":
            # Baseball plays for units with an ante of 1 and bets of 1: the stakes and blinds
            # fields are hidden for it (table_new.html) and ignored if sent.
            self.errors.pop("stakes", None)
            data["blinds"] = (1, 1)
        elif sb is not None or bb is not None:
            # Own blinds: both are needed, and public tables still play the ladder.
            if sb is None or bb is None:
                raise forms.ValidationError(_("Give both the small and the big blind."))
            if sb >= bb:
                raise forms.ValidationError(_("The small blind must be smaller than the big blind."))
            if public and (sb, bb) not in STAKES_LADDER:
                raise forms.ValidationError(
                    _("Public tables play the stakes ladder (%(ladder)s). Pick one, or make the table private.")
                    % {"ladder": ", ".join(f"{s}/{b}" for s, b in STAKES_LADDER)}
                )
            data["blinds"] = (sb, bb)
        elif data.get("stakes"):
            small, big = data["stakes"].split("-")
            data["blinds"] = (int(small), int(big))
        elif "stakes" not in self.errors:
            self.add_error("stakes", _("Choose the stakes."))
        return data

    @property
    def custom_blinds_used(self) -> bool:
        return bool(self.data.get("small_blind") or self.data.get("big_blind"))


@login_required
def table_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            small_blind, big_blind = data["blinds"]
            try:
                table = services.table_create(
                    creator=request.user, name=data["name"], small_blind=small_blind, big_blind=big_blind,
                    speed=data["speed"], max_seats=data["max_seats"], is_public=data["visibility"] == "public",
                    game=data["game"], straddles=data.get("straddles", False),
                    run_twice=data.get("run_twice", False), seven_deuce_bb=data.get("seven_deuce_bb") or 0,
                    rabbit_hunt=data.get("rabbit_hunt", False),
                )
            except services.TableError as exc:
                form.add_error(None, str(exc))
            else:
                if table.is_public:
                    return redirect("table", table_id=table.id)
                return redirect("table_invite", table_id=table.id)
    else:
        form = TableForm()
    help_ = stakes.stakes_help_for_form(form, games=selectors.live_games())
    return render(request, "tables/table_new.html", {"form": form, "stakes_help": help_, "seat_defaults": selectors.seat_defaults()})


@require_GET
def stakes_help(request: HttpRequest) -> HttpResponse:
    """The help line under a new-table form's stakes, for the game and stakes now chosen: htmx
    asks for it again whenever the form changes (without JavaScript the page's own copy stays)."""
    small, big = stakes.blinds_from(request.GET)
    help_ = stakes.stakes_help(games=selectors.live_games(), game=request.GET.get("game") or "PP",
                               small_blind=small, big_blind=big)
    return render(request, "tables/_stakes_help_inner.html",
                  {"stakes_help": help_, "stakes_help_open": request.GET.get("open") == "1"})


def _invite_url(request: HttpRequest, table: Table) -> str:
    path = reverse("table", kwargs={"table_id": table.id}) + "?" + urlencode({"invite": table.invite_code})
    return request.build_absolute_uri(path)


@login_required
def table_invite(request: HttpRequest, table_id: int) -> HttpResponse:
    """The secret link of a private table, shown to the player who created it."""
    table = Table.objects.filter(id=table_id, is_public=False, created_by=request.user).first()
    if table is None:
        raise Http404
    return render(request, "tables/table_invite.html", {"table": table, "invite_url": _invite_url(request, table)})


# ---------------------------------------------------------------------------------------------
# The table page and its seats


def _may_watch(request: HttpRequest, table_id: int) -> bool:
    return selectors.can_watch(table_id=table_id, user=request.user, invited=selectors.invited_tables(request.session))


def _table_url(table_id: int) -> str:
    return reverse("table", kwargs={"table_id": table_id})


def my_tables(request: HttpRequest) -> JsonResponse:
    """The tables the viewer sits at, each with whether it waits for them: what a table page
    shows of the player's other tables, asked every few seconds (found by an audit: a
    multi-tabler on a phone learnt of a turn at another table only from the lobby, 6-12 s late)."""
    if not request.user.is_authenticated:
        return JsonResponse({"tables": []})
    rows = selectors.seated_tables(user=request.user)
    response = JsonResponse({"tables": [
        {"id": t.id, "name": t.name, "url": _table_url(t.id), "turn": bool(t.my_turn), "away": bool(t.my_break)}
        for t in rows
    ]})
    response["Cache-Control"] = "no-store"
    return response


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    invite = request.GET.get("invite", "")[:64]
    if invite:
        table = Table.objects.filter(id=table_id).only("is_public").first()
        # Checked without the user: the link itself must be right for this table.
        if table is not None and not table.is_public and selectors.can_watch(table_id=table_id, user=None, invite_code=invite):
            kept = [[t, code] for t, code in selectors.invited_tables(request.session).items() if t != table_id]
            request.session[selectors.INVITED_KEY] = (kept + [[table_id, invite]])[-INVITED_KEEP:]
            # The session remembers the invitation (the websocket reads it from there), so the
            # secret leaves the address bar and never reaches another site in a Referer header.
            return redirect(_table_url(table_id))
    if not _may_watch(request, table_id):
        raise Http404
    if _htmx_target(request) == HOST_PANEL_TARGET:
        return _host_panel_response(request, table_id)
    context = selectors.table_context(table_id=table_id, user=request.user)
    if context is None:
        raise Http404
    table = context["table"]
    context["ws_url"] = f"/ws/tables/{table.id}/"
    context["messages_inline"] = True  # table.html shows sit/leave messages next to the seats
    context.update(_buy_in_context(request, table))
    # The free seats, for a player who wants to choose where to sit (next to a friend, or after
    # the big hitter); the picture's empty seats choose one too (static/js/table.js).
    context["seat_options"] = _seat_options(context.get("seat_rows") or [])
    context["free_seats"] = [o for o in context["seat_options"] if o["free"]]
    context["straddles_on"] = services.straddles_on(table)  # the header says so
    context["run_twice_on"] = services.runs_twice(table)
    context["seven_deuce"] = services.seven_deuce_chips(table)
    context["rabbit_on"] = services.rabbit_on(table)
    context["chat_may_write"] = chat.may_write(table=table, user=request.user)
    context["chat_moderates"] = chat.moderates(table=table, user=request.user)
    context["chat_muted"] = context["chat_may_write"] and chat.is_muted(table_id=table.id, user=request.user)
    if context["chat_moderates"]:
        context["chat_hosts"] = " ".join(str(i) for i in chat.moderator_ids(table=table))
    if table.club_id is not None:
        context.update(_club_context(request, table))
    elif not table.is_public and request.user.is_authenticated and table.created_by_id == request.user.pk:
        context["invite_url"] = _invite_url(request, table)
    if hosting.hosts(table=table, user=request.user):
        context["host_panel"] = _host_panel_context(table, viewer_id=request.user.pk)
    template = "table.html#table" if _htmx_target(request) == TABLE_TARGET else "table.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _seat_options(rows: list[Any]) -> list[dict[str, Any]]:
    """Every seat's number, whether it is free, and who sits before it, clockwise ("seat 3,
    after Alice"). The "Seat" box lists them all, the taken ones greyed: the page's script
    keeps both the greying and the names current as players come and go (table.js)."""
    out = []
    for i, row in enumerate(rows):
        before = next((rows[(i - k) % len(rows)] for k in range(1, len(rows)) if not rows[(i - k) % len(rows)].empty), None)
        out.append({"no": row.no, "free": row.empty, "after": before.name if before is not None else ""})
    return out


def _club_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    """A club table's page: its club, whether the viewer hosts it, and their seat request."""
    membership = club_selectors.membership_of(club=table.club_id, user=request.user)
    is_host = bool(membership and membership.is_host)
    info: dict[str, Any] = {"club": table.club, "is_host": is_host, "needs_approval": table.seat_approval and not is_host}
    if request.user.is_authenticated:
        info["my_request"] = SeatRequest.objects.filter(table=table, user=request.user, status=SeatRequest.Status.PENDING).first()
    return {"club_table": info}


def _host_panel_response(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host controls' own refresh (HX-Target: host-panel): the panel for a host; for anyone
    else an empty, hidden slot that keeps asking, so a member named host meanwhile gets the
    controls without a reload, and one who stopped hosting loses them."""
    table = Table.objects.filter(id=table_id).first()
    if table is None:
        raise Http404
    if hosting.hosts(table=table, user=request.user):
        context = {"table": table, "host_panel": _host_panel_context(table, viewer_id=request.user.pk),
                   "chat_hosts": " ".join(str(i) for i in chat.moderator_ids(table=table))}
        response = render(request, "tables/_host_panel.html", context)
    else:
        response = render(request, "tables/_host_panel_slot.html", {"table": table})
    patch_vary_headers(response, ("HX-Request",))
    return response


def _host_panel_context(table: Table, viewer_id: int | None = None) -> dict[str, Any]:
    """What a table's host controls show (``tables/_host_panel.html``): seat requests waiting for
    a yes (club tables that approve seats) and the seated players, to sit one out."""
    requests = list(SeatRequest.objects.filter(table=table, status=SeatRequest.Status.PENDING).select_related("user", "user__profile"))
    for r in requests:
        r.name = club_selectors.display_name(r.user)  # type: ignore[attr-defined]
    seated = list(Seat.objects.filter(table=table).select_related("user", "user__profile").order_by("seat_no"))
    players = [{"user_id": st.user_id, "name": club_selectors.display_name(st.user),
                "out": st.sitting_out or st.break_next} for st in seated]
    pending = table.next_big_blind is not None or bool(table.next_speed)
    terms = {
        "small": table.next_small_blind if table.next_big_blind is not None else table.small_blind,
        "big": table.next_big_blind if table.next_big_blind is not None else table.big_blind,
        "speed": table.next_speed or table.speed, "speeds": Table.Speed.choices,
        "units": table.game == "BB", "pending": pending,
    }
    if table.game != "BB":
        # Stud and limit games play terms that follow from the blinds (ante, bring-in, bets):
        # said under the boxes, as the new-table form's help says them (found by an audit: a
        # Razz host was asked for blinds with nothing saying what they make).
        from tables.stakes import stakes_terms, stakes_text

        try:
            kind = stakes_terms(table.game, terms["small"], terms["big"]).kind
        except (KeyError, ValueError):
            kind = "blinds"
        if kind != "blinds":
            terms["plays"] = stakes_text(table.game, terms["small"], terms["big"])
    others = [p for p in players if p["user_id"] != viewer_id]  # whom the host may stand up
    games = [(code, selectors.game_name(code)) for code in hosting.games_for(table)]
    choice = {"games": games, "next": table.next_game or table.game, "pending": bool(table.next_game)} if len(games) > 1 else None
    from tables import levels

    level_choice = None if table.game == "BB" else {
        "minutes": table.level_minutes if levels.on(table) else 0, "choices": levels.MINUTES, "on": levels.on(table),
    }
    from tables import freezeout

    fo_choice = None if table.game == "BB" else {
        "on": freezeout.running(table), "choices": levels.MINUTES, "late_choices": freezeout.LATE_CHOICES,
        "late_open": (table.freezeout or {}).get("late") if freezeout.entry_open(table) else 0,
        "minutes": table.level_minutes if levels.on(table) else 15,
    }
    # Straddles: for the games that take one (no-limit and pot-limit Hold'em and Omaha), offered
    # at every table whose games a host picks, so that dealer's choice may turn to one.
    straddles = None if table.game == "BB" or (table.is_public and table.club_id is None) else {
        "on": table.straddles, "game_takes": services.game_takes_straddle(table.game)}
    run_twice = None if straddles is None else {"on": table.run_twice, "game_takes": services.game_runs_twice(table.game)}
    rabbit = None if straddles is None else {"on": table.rabbit_hunt, "game_takes": services.game_has_rabbit(table.game)}
    # A bomb pot for the next hand: offered where Hold'em or Omaha is dealt (or comes next).
    bomb = None if straddles is None or not services.game_has_bomb(table.next_game or table.game) else {
        "next": table.bomb_next_bb, "choices": services.BOMB_CHOICES, "big_blind": table.big_blind}
    # The seven-deuce bounty: offered where Hold'em is dealt (or comes next), or while it is on.
    takes_bounty = services.game_has_seven_deuce(table.game) or services.game_has_seven_deuce(table.next_game or table.game)
    seven_deuce = None if straddles is None or not (takes_bounty or table.seven_deuce_bb) else {
        "bb": table.seven_deuce_bb, "choices": services.SEVEN_DEUCE_CHOICES,
        "game_takes": services.game_has_seven_deuce(table.game)}
    # At a club table: members' requests for club chips wait on the club's page; say how many.
    chip_requests = len(club_selectors.pending_chip_requests(club=table.club)) if table.club_id is not None else 0
    # Only a running session counts a club table's hands into the club's results: without one the
    # panel says so and starts one (found by an audit: a host played a night without a session,
    # and its leaderboard stayed empty with nothing having said why).
    from club.models import ClubSession

    no_session = (table.club_id is not None and table.status != Table.Status.CLOSED
                  and not ClubSession.objects.filter(club_id=table.club_id, ended__isnull=True).exists())
    return {"requests": requests, "players": players, "others": others, "club": table.club_id is not None, "terms": terms,
            "game_choice": choice, "levels": level_choice, "freezeout": fo_choice,
            "chip_requests": chip_requests, "straddles": straddles, "run_twice": run_twice, "bomb": bomb,
            "seven_deuce": seven_deuce, "rabbit": rabbit, "no_session": no_session}


def _buy_in_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    low, high = table.min_buy_in_bb * table.big_blind, table.max_buy_in_bb * table.big_blind
    bankroll = None
    if request.user.is_authenticated and table.club_id is not None:
        # A club table's buy-in comes from the member's club chips, not the site bankroll.
        membership = club_selectors.membership_of(club=table.club_id, user=request.user)
        bankroll = membership.balance if membership is not None else 0
    elif request.user.is_authenticated:
        bankroll = Profile.objects.filter(user=request.user).values_list("bankroll", flat=True).first()
    default = DEFAULT_BUY_IN_BB * table.big_blind
    if bankroll is not None:
        default = min(default, bankroll)
    # Back at a public table within half an hour: at least what was taken away (services).
    back = services.rejoin_minimum(table, request.user)
    low = max(low, back)
    default = max(low, min(high, default))
    add_chips = None
    seat = Seat.objects.filter(table=table, user=request.user).first() if request.user.is_authenticated else None
    from tables import freezeout

    frozen = freezeout.running(table)
    if seat is not None and table.game != "BB" and not seat.leaving and bankroll:
        # The form is part of the page, not of the live fragment: it stays while the stack
        # changes, and the service checks the amount against the stack when it is sent.
        # The page's script keeps the box in step with the live stack (``data-stack`` on the
        # viewer's seat): up to the table's most, or a buy-in after going broke; at the most,
        # the box is off and says why.
        room = min(max(0, high - int(seat.stack)), bankroll)
        broke = int(seat.stack) < table.big_blind
        need = max(1, table.min_buy_in_bb * table.big_blind - int(seat.stack))
        add_chips = {"room": room, "default": max(need, min(room, default)) if broke else room, "need": need,
                     "high": high, "bankroll": bankroll, "buy_in": default, "big_blind": table.big_blind,
                     "low": table.min_buy_in_bb * table.big_blind,  # under it, chips bring a stack back to it
                     "max_bb": table.max_buy_in_bb}
    return {
        "bankroll": bankroll,
        "buy_in": {"min": low, "max": high, "default": default, "default_bb": DEFAULT_BUY_IN_BB,
                   "affordable": bankroll is None or bankroll >= low,
                   # The minimum raised by a recent stand-up: said beside the box (found by an
                   # audit: "1,500–1,500" with no reason, or "your bankroll is below the minimum").
                   "back": back if back > table.min_buy_in_bb * table.big_blind else 0},
        "add_chips": add_chips,
        "freezeout_on": frozen,
        # Late entry: a player not seated may sit down in the freeze-out being played.
        "freezeout_closed": frozen and not freezeout.entry_open(table),
        "late_entry": (table.freezeout or {}).get("late") if frozen and freezeout.entry_open(table) else 0,
    }


class SitForm(forms.Form):
    buy_in = forms.IntegerField(label=gettext_lazy("Buy-in"))
    seat = forms.IntegerField(required=False, min_value=0, max_value=9)


def _login_then(table_id: int) -> HttpResponseRedirect:
    return redirect(f"{reverse('login')}?{urlencode({'next': _table_url(table_id)})}")


@require_POST
def table_sit(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    if not request.user.is_authenticated:
        return _login_then(table_id)
    if not _may_watch(request, table_id):
        raise Http404
    table = Table.objects.get(id=table_id)
    if table.game == "BB":
        return _sit_for_units(request, table)
    form = SitForm(request.POST)
    if not form.is_valid():
        if "buy_in" in form.errors:
            messages.error(request, _("Enter your buy-in as a whole number of chips."))
        else:  # the seat: "-1", "10", "x" (the buy-in was blamed for it, found by probing)
            messages.error(request, _("There is no such seat."))
        return redirect(_table_url(table_id))
    buy_in = form.cleaned_data["buy_in"]
    info = _buy_in_context(request, table)
    low, high = info["buy_in"]["min"], info["buy_in"]["max"]
    bankroll = info["bankroll"]
    # The service checks all of this again under the table lock; checking here first gives the
    # player the reason in their own language.
    if not low <= buy_in <= high:
        if info["buy_in"]["back"] and buy_in < low:  # the minimum is the chips taken away: say so (an audit)
            messages.error(request, _("You left this table with %(chips)s chips less than half an hour ago: come back with at least as many.")
                           % {"chips": _chips(info["buy_in"]["back"])})
        else:
            messages.error(request, _("The buy-in at this table is between %(low)s and %(high)s chips.")
                           % {"low": _chips(low), "high": _chips(high)})
        return redirect(_table_url(table_id))
    if bankroll is not None and buy_in > bankroll:
        if table.club_id is not None:
            messages.error(request, _("You have %(chips)s club chips; the buy-in was %(buy_in)s.")
                           % {"chips": _chips(bankroll), "buy_in": _chips(buy_in)})
        else:
            messages.error(request, _("You have %(bankroll)s chips in your bankroll; the buy-in was %(buy_in)s.")
                           % {"bankroll": _chips(bankroll), "buy_in": _chips(buy_in)})
        return redirect(_table_url(table_id))
    member = club_selectors.membership_of(club=table.club_id, user=request.user) if table.seat_approval else None
    if member is not None and not member.is_host:  # a host approves every seat here: ask for one
        try:
            hosting.table_seat_request(table_id=table_id, user=request.user, buy_in=buy_in)
        except services.TableError as exc:
            messages.error(request, str(exc))
        else:
            messages.info(request, _("You asked for a seat. A host will seat you with %(chips)s chips.") % {"chips": _chips(buy_in)})
        return redirect(_table_url(table_id))
    try:
        services.table_take_seat(table_id=table_id, user=request.user, buy_in=buy_in,
                                 seat_no=form.cleaned_data.get("seat"))
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You sat down with %(chips)s chips.") % {"chips": _chips(buy_in)})
    return redirect(_table_url(table_id))


def _sit_for_units(request: HttpRequest, table: Table) -> HttpResponseRedirect:
    """Baseball plays for units, not chips: a seat needs no buy-in (``tables.baseball``)."""
    member = club_selectors.membership_of(club=table.club_id, user=request.user) if table.seat_approval else None
    try:
        if member is not None and not member.is_host:
            hosting.table_seat_request(table_id=table.id, user=request.user, buy_in=0)
            messages.info(request, _("You asked for a seat. A host will seat you."))
        else:
            services.table_take_seat(table_id=table.id, user=request.user, buy_in=0)
            messages.success(request, _("You sat down. Baseball plays for units: no chips are bought in."))
    except services.TableError as exc:
        messages.error(request, str(exc))
    return redirect(_table_url(table.id))


class AddChipsForm(forms.Form):
    amount = forms.IntegerField(label=gettext_lazy("Chips to add"), min_value=1, max_value=10**9)


@require_POST
def table_add_chips(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """A rebuy or a top-up between hands (``services.table_add_chips``)."""
    if not request.user.is_authenticated:
        return _login_then(table_id)
    if not _may_watch(request, table_id):
        raise Http404
    form = AddChipsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter the chips to add as a whole number, 1 or more."))
        return redirect(_table_url(table_id))
    amount = form.cleaned_data["amount"]
    try:
        stack = services.table_add_chips(table_id=table_id, user=request.user, amount=amount)
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        from django.utils.translation import ngettext

        messages.success(request, ngettext("You added %(chips)s chip; your stack is %(stack)s.",
                                           "You added %(chips)s chips; your stack is %(stack)s.", amount)
                         % {"chips": _chips(amount), "stack": _chips(stack)})
    return redirect(_table_url(table_id))


@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    if not request.user.is_authenticated:
        return _login_then(table_id)
    if not _may_watch(request, table_id):
        raise Http404
    seat = Seat.objects.filter(table_id=table_id, user=request.user).first()
    try:
        services.table_leave_seat(table_id=table_id, user=request.user)
    except services.TableError as exc:
        messages.error(request, str(exc))
        return redirect(_table_url(table_id))
    club_table = Table.objects.filter(id=table_id, club__isnull=False).exists()
    if Table.objects.filter(id=table_id, game="BB").exists():
        # Units are not chips: nothing goes back anywhere; the balance waits in the table's ledger.
        if seat is None or Seat.objects.filter(id=seat.id).exists():
            messages.info(request, _("You will stand up when this hand ends. Your balance stays at this table."))
        else:
            messages.success(request, _("You stood up. Your balance stays at this table if you come back."))
    elif seat is None or Seat.objects.filter(id=seat.id).exists():
        if club_table:
            messages.info(request, _("You will stand up when this hand ends; your chips then go back to your club chips."))
        else:
            messages.info(request, _("You will stand up when this hand ends; your chips then go back to your bankroll."))
        return redirect(_table_url(table_id))
    else:
        # What was cashed out, not the stack read before: leaving mid-hand folds at once, and the
        # hand it ended settled first (found by an audit: the blind in the pot was counted back).
        from club.models import LedgerEntry

        out = LedgerEntry.objects.filter(user=request.user, table_id=table_id, kind=LedgerEntry.Kind.CASH_OUT,
                                         account=f"table:{table_id}") \
            .order_by("-id").values_list("amount", flat=True).first()
        amount = -out if out is not None else seat.stack
        if not amount:
            messages.success(request, _("You stood up with no chips left."))
        elif club_table:
            messages.success(request, _("You stood up; %(chips)s chips are back in your club chips.") % {"chips": _chips(amount)})
        else:
            messages.success(request, _("You stood up; %(chips)s chips are back in your bankroll.") % {"chips": _chips(amount)})
    if _may_watch(request, table_id):
        return redirect(_table_url(table_id))
    return redirect("lobby")

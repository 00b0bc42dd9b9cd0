"""Club tables: a host opens one, and runs it from the host panel on the table page.

Views only translate: the services (``tables.services``, ``tables.hosting``) check that the user
hosts the table's club. Pages of a club a visitor is not a member of are a 404.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from club import selectors as club_selectors
from club.forms import OneLineField
from club.models import Club
from tables import hosting, selectors, services, stakes
from tables.models import LIVE_GAMES, Table


def _seven_deuce_choices() -> list[tuple[int, str]]:
    return [(0, _("None")), *((n, ngettext("%(n)s big blind from each player", "%(n)s big blinds from each player", n)
                                  % {"n": n}) for n in services.SEVEN_DEUCE_CHOICES)]


def seven_deuce_field(label: str) -> forms.TypedChoiceField:
    """The creation forms' choice of a seven-deuce bounty (Hold'em; the host can change it)."""
    return forms.TypedChoiceField(
        label=label, choices=_seven_deuce_choices, coerce=int, empty_value=0, required=False,
        help_text=gettext_lazy("Hold'em: a player who takes a pot whole with a seven and a deuce shows them and is paid this by every other player dealt in. The host can change it at the table."),
    )


class ClubTableForm(forms.Form):
    name = OneLineField(label=gettext_lazy("Table name"), max_length=60)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    small_blind = forms.IntegerField(label=gettext_lazy("Small blind"), min_value=1, max_value=1_000_000)
    big_blind = forms.IntegerField(label=gettext_lazy("Big blind"), min_value=2, max_value=2_000_000)
    speed = forms.ChoiceField(label=gettext_lazy("Speed"), choices=Table.Speed.choices, widget=forms.RadioSelect,
                              help_text=lazy(services.speed_help, str)())
    max_seats = forms.IntegerField(label=gettext_lazy("Seats"), min_value=2, max_value=10, initial=3,
                                   help_text=gettext_lazy("Patch-Patch seats 2 or 3; Hold'em, Omaha and five-card stud up to 10; seven-card stud, Razz and draw up to 8; Baseball 2 to 6."))
    min_buy_in_bb = forms.IntegerField(label=gettext_lazy("Smallest buy-in, in big blinds"), min_value=1, max_value=10_000, initial=5)
    max_buy_in_bb = forms.IntegerField(label=gettext_lazy("Largest buy-in, in big blinds"), min_value=1, max_value=10_000, initial=150)
    straddles = forms.BooleanField(
        label=gettext_lazy("Straddles allowed"), required=False,
        help_text=gettext_lazy("No-limit and pot-limit Hold'em and Omaha: a player may post twice the big blind from the seat left of it. The host can change it at the table."),
    )
    run_twice = forms.BooleanField(
        label=gettext_lazy("Running it twice allowed"), required=False,
        help_text=gettext_lazy("Hold'em and Omaha: when an all-in ends the betting before the river and every player still in has “Run it twice” on, the rest of the board is dealt twice and each pot split between the two. The host can change it at the table."),
    )
    seven_deuce_bb = seven_deuce_field(gettext_lazy("Seven-deuce bounty"))
    rabbit_hunt = forms.BooleanField(
        label=gettext_lazy("Rabbit hunting allowed"), required=False,
        help_text=gettext_lazy("Hold'em, Omaha and Patch-Patch: after a hand that ended before the board was all out, a player dealt in may ask to see the cards that would have come. They change nothing. The host can change it at the table."),
    )
    seat_approval = forms.BooleanField(
        label=gettext_lazy("A host approves every seat"), required=False,
        help_text=gettext_lazy("Members ask for a seat and a host lets them sit. Hosts sit down directly."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = selectors.live_games()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        sb, bb = data.get("small_blind"), data.get("big_blind")
        if sb is not None and bb is not None and sb >= bb:
            raise forms.ValidationError(_("The small blind must be smaller than the big blind."))
        low, high = data.get("min_buy_in_bb"), data.get("max_buy_in_bb")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(_("The smallest buy-in cannot be larger than the largest."))
        return data


def _club_for_host(request: HttpRequest, club_id: int) -> Club:
    club = get_object_or_404(Club, pk=club_id)
    membership = club_selectors.membership_of(club=club, user=request.user)
    if membership is None:
        raise Http404
    if not membership.is_host:
        raise PermissionDenied
    return club


@login_required
def club_table_new(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club_for_host(request, club_id)
    if request.method == "POST":
        form = ClubTableForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table = services.table_create(creator=request.user, club=club, **data)
            except services.TableError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect("table", table_id=table.id)
    else:
        form = ClubTableForm(initial={
            "name": _("%(club)s table") % {"club": club.name}, "game": club.default_game if club.default_game in LIVE_GAMES else "PP",
            "small_blind": 5, "big_blind": 10, "speed": club.default_speed,
        })
    return render(request, "tables/club_table_new.html",
                  {"form": form, "club": club, "stakes_help": stakes.stakes_help_for_form(form, games=selectors.live_games()),
                   "seat_defaults": selectors.seat_defaults()})


def _back(table_id: int) -> HttpResponseRedirect:
    return redirect(reverse("table", kwargs={"table_id": table_id}))


def _hosted_table(request: HttpRequest, table_id: int) -> Table:
    """A table that has hosts (a club's, or a private one), which ``request.user`` may watch."""
    table = Table.objects.filter(id=table_id).filter(Q(club__isnull=False) | Q(is_public=False)).first()
    if table is None or not (hosting.hosts(table=table, user=request.user)
                             or selectors.can_watch(table_id=table_id, user=request.user)):
        raise Http404
    return table


HOST_ACTIONS = {
    "pause": (hosting.table_host_pause, gettext_lazy("The table pauses after this hand.")),
    "resume": (hosting.table_host_resume, gettext_lazy("The table is open again.")),
    "close": (hosting.table_host_close, gettext_lazy("The table closes after this hand; every stack goes back to its player's club chips.")),
}
CLOSED_PRIVATE = gettext_lazy("The table closes after this hand; every stack goes back to its player's bankroll.")


@require_POST
@login_required
def table_host_action(request: HttpRequest, table_id: int, action: str) -> HttpResponseRedirect:
    table = _hosted_table(request, table_id)
    if action not in HOST_ACTIONS:
        raise Http404
    call, done = HOST_ACTIONS[action]
    if action == "close" and table.club_id is None:
        done = CLOSED_PRIVATE
    try:
        call(table_id=table.id, by=request.user)
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, str(done))
    if action == "close":
        table.refresh_from_db()
        if table.status == Table.Status.CLOSED:
            if table.club_id is None:
                return redirect("lobby")
            return redirect("club_home", club_id=table.club_id)
    return _back(table.id)


def _on_player(request: HttpRequest, table_id: int, call: Any, done: Any) -> HttpResponseRedirect:
    """A host's control aimed at one seated player (the form's ``user``): ``call`` does it,
    ``done(result)`` says what happened."""
    table = _hosted_table(request, table_id)
    raw = request.POST.get("user", "")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):  # "²" and 10**30 are no user id
        messages.error(request, _("Choose a player."))
        return _back(table.id)
    try:
        result = call(table_id=table.id, by=request.user, user_id=int(raw))
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, str(done(result)))
    return _back(table.id)


@require_POST
@login_required
def table_host_sit_out(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    return _on_player(request, table_id, hosting.table_host_sit_out,
                      lambda _r: _("The player sits out from the next hand until they tap “I'm back”."))


@require_POST
@login_required
def table_host_stand_up(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    return _on_player(request, table_id, hosting.table_host_stand_up,
                      lambda gone: _("The player has left the table; their chips went back to them.") if gone
                      else _("The player leaves the table when this hand ends; their chips go back to them."))


class TermsForm(forms.Form):
    """A host's change of a table's stakes and speed (the host panel). Baseball's form has no
    blinds: it plays for units."""

    small_blind = forms.IntegerField(label=gettext_lazy("Small blind"), min_value=1, max_value=1_000_000, required=False)
    big_blind = forms.IntegerField(label=gettext_lazy("Big blind"), min_value=2, max_value=hosting.MAX_BLIND, required=False)
    speed = forms.ChoiceField(label=gettext_lazy("Speed"), choices=Table.Speed.choices)


@require_POST
@login_required
def table_host_terms(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    table = _hosted_table(request, table_id)
    form = TermsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return _back(table.id)
    data = form.cleaned_data
    small, big = data.get("small_blind"), data.get("big_blind")
    if table.game == "BB":
        small = big = None
    elif small is None or big is None:
        messages.error(request, _("Give both the small and the big blind, in whole chips."))
        return _back(table.id)
    try:
        when = hosting.table_host_terms(table_id=table.id, by=request.user, small_blind=small, big_blind=big,
                                        speed=data["speed"])
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, str(_("The new stakes and speed are in play.") if when == "now"
                                      else _("The new stakes and speed start with the next hand.")))
    return _back(table.id)


@require_POST
@login_required
def table_host_game(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """Dealer's choice: the host picks the game dealt from the next hand on."""
    table = _hosted_table(request, table_id)
    game = request.POST.get("game", "")
    try:
        when = hosting.table_host_game(table_id=table.id, by=request.user, game=game)
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        name = selectors.game_name(game)
        messages.success(request, str((_("%(game)s is dealt now.") if when == "now"
                                       else _("%(game)s is dealt from the next hand.")) % {"game": name}))
    return _back(table.id)


def _minutes(request: HttpRequest) -> int:
    """The form's "every N minutes" (0: stop); -1 for anything that is not a small number."""
    raw = request.POST.get("minutes", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else -1


@require_POST
@login_required
def table_host_levels(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """Blinds on a clock: every N minutes the next level, from the next hand; 0 stops it."""
    table = _hosted_table(request, table_id)
    minutes = _minutes(request)
    try:
        done = hosting.table_host_levels(table_id=table.id, by=request.user, minutes=minutes)
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        said = {"started": _("The blinds go up every %(n)s minutes, from the blinds in play."),
                "changed": _("The blinds go up every %(n)s minutes; this level starts again."),
                "stopped": _("The blinds stay where they are now.")}
        messages.success(request, str(said[done]) % {"n": minutes})
    return _back(table.id)


@require_POST
@login_required
def table_host_freezeout(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """A freeze-out: start one with the blinds going up every N minutes, or call it off (0)."""
    table = _hosted_table(request, table_id)
    minutes = _minutes(request)
    try:
        late = request.POST.get("late", "0")
        done = hosting.table_host_freezeout(table_id=table.id, by=request.user, minutes=minutes, late=_small_number(late))
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        if done == "started":
            messages.success(request, _("The freeze-out is on: the blinds go up every %(n)s minutes, and no chips "
                                        "are added. Resume the table to deal.") % {"n": minutes})
        else:
            messages.success(request, _("The freeze-out is called off: chips may be added again."))
    return _back(table.id)


@require_POST
@login_required
def table_host_new_invite(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """A new invite link for a private table: the old one stops working."""
    table = _hosted_table(request, table_id)
    try:
        hosting.table_host_new_invite(table_id=table.id, by=request.user)
    except services.TableError as exc:
        messages.error(request, str(exc))
        return _back(table.id)
    messages.success(request, _("Here is the new invite link. The old one no longer opens the table."))
    return redirect("table_invite", table_id=table.id)


@require_POST
@login_required
def table_host_straddles(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """Straddles allowed or not (no-limit and pot-limit Hold'em and Omaha)."""
    return _host_flag(request, table_id, hosting.table_host_straddles, _("Say whether straddles are allowed."),
                      _("Players may straddle from the next hand."), _("No more straddles from the next hand."))


@require_POST
@login_required
def table_host_run_twice(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """Running it twice allowed or not (Hold'em and Omaha)."""
    return _host_flag(request, table_id, hosting.table_host_run_twice, _("Say whether running it twice is allowed."),
                      _("Players may run it twice from the next hand."), _("The board runs once from the next hand."))


@require_POST
@login_required
def table_host_rabbit(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """The rabbit hunt allowed or not (Hold'em, Omaha and Patch-Patch)."""
    return _host_flag(request, table_id, hosting.table_host_rabbit, _("Say whether the rabbit hunt is allowed."),
                      _("Players may hunt the rabbit after a hand."), _("No more rabbit hunts."))


@require_POST
@login_required
def table_host_bomb(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """A bomb pot for the next hand (``bb``: big blinds each), or called off (``bb=0``)."""
    return _host_big_blinds(request, table_id, hosting.table_host_bomb, _("The next hand is a bomb pot."),
                            _("No bomb pot next hand."))


@require_POST
@login_required
def table_host_seven_deuce(request: HttpRequest, table_id: int) -> HttpResponseRedirect:
    """The seven-deuce bounty (``bb``: big blinds from each player), or none (``bb=0``)."""
    return _host_big_blinds(request, table_id, hosting.table_host_seven_deuce,
                            _("The seven-deuce bounty is paid from the next hand."),
                            _("No seven-deuce bounty from the next hand."))


def _host_big_blinds(request: HttpRequest, table_id: int, write: Any, said_on: str, said_off: str) -> HttpResponseRedirect:
    """A house rule counted in big blinds (``bb``) set by ``write``, or turned off (``bb=0``),
    said back to the host."""
    table = _hosted_table(request, table_id)
    raw = request.POST.get("bb", "")
    try:
        write(table_id=table.id, by=request.user, big_blinds=_small_number(raw))
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, said_on if raw != "0" else said_off)
    return _back(table.id)


def _small_number(raw: str) -> int:
    """A form's small whole number (a few ASCII digits), or -1 for anything else."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 4 else -1


def _host_flag(request: HttpRequest, table_id: int, write: Any, unclear: str, said_on: str, said_off: str) -> HttpResponseRedirect:
    """A house rule turned on (``on=1``) or off (``on=0``) by ``write``, said back to the host."""
    table = _hosted_table(request, table_id)
    on = request.POST.get("on", "")
    if on not in ("0", "1"):
        messages.error(request, unclear)
        return _back(table.id)
    try:
        write(table_id=table.id, by=request.user, on=on == "1")
    except services.TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, said_on if on == "1" else said_off)
    return _back(table.id)


@require_POST
@login_required
def table_seat_request_answer(request: HttpRequest, table_id: int, request_id: int, answer: str) -> HttpResponseRedirect:
    table = _hosted_table(request, table_id)
    if answer not in ("approve", "decline"):
        raise Http404
    call = hosting.table_seat_request_approve if answer == "approve" else hosting.table_seat_request_decline
    try:
        call(request_id=request_id, by=request.user, table_id=table.id)
    except services.TableError as exc:
        messages.error(request, str(exc))
    return _back(table.id)

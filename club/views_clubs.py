"""Club pages: my clubs, a club's home, members, invites, ledger, sessions, leaderboard, game
nights, joining.

Views only translate: parse a form, call one service or selector, render or redirect. Every
page works without JavaScript; with htmx, the parts that change (the leaderboard's period, a
session's live results) come back alone (``page.html#part``, chosen by ``HX-Target``).

Who sees what: a club's pages other than its front page are a 404 to anyone who is not a member
(as if the club had no such page); a member who asks for a host's page gets a 403. The front page
shows outsiders the club's name and description and lets them ask to join.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from club import selectors, services
from club.forms import (
    ChipRequestForm,
    ChipsForm,
    ClubForm,
    GameNightForm,
    InviteForm,
    JoinRequestForm,
)
from club.models import (
    ChipRequest,
    Club,
    ClubInvite,
    ClubSession,
    ClubSessionHand,
    GameNight,
    JoinRequest,
    Membership,
)
from club.views import _safe_next

LEADERBOARD_TARGET = "leaderboard"
SESSION_TARGET = "session-results"


def _chips(n: int) -> str:
    from club.services import chips_text

    return chips_text(n)


def _htmx_target(request: HttpRequest) -> str | None:
    htmx = getattr(request, "htmx", None)
    return htmx.target if htmx else None


def _render(request: HttpRequest, template: str, context: dict[str, Any], parts: tuple[str, ...] = ()) -> HttpResponse:
    """The page, or only the part named by the htmx target (``page.html#part``)."""
    target = _htmx_target(request)
    name = f"{template}#{target}" if target in parts else template
    response = render(request, name, context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _club(club_id: int) -> Club:
    return get_object_or_404(Club, pk=club_id)


def _member(request: HttpRequest, club: Club) -> Membership:
    m = selectors.membership_of(club=club, user=request.user)
    if m is None:
        raise Http404
    return m


def _host(request: HttpRequest, club: Club) -> Membership:
    m = _member(request, club)
    if not m.is_host:
        raise PermissionDenied
    return m


def _base(request: HttpRequest, club: Club, membership: Membership | None, tab: str) -> dict[str, Any]:
    return {"club": club, "membership": membership, "is_host": bool(membership and membership.is_host),
            "is_owner": bool(membership and membership.role == Membership.Role.OWNER), "tab": tab}


def _refused(request: HttpRequest, exc: Exception) -> None:
    messages.error(request, str(exc))


# -- My clubs and a new club -----------------------------------------------------------------


@login_required
def my_clubs(request: HttpRequest) -> HttpResponse:
    waiting = list(
        JoinRequest.objects.filter(user=request.user, status=JoinRequest.Status.PENDING).select_related("club")
    )
    return _render(request, "club/my_clubs.html", {"memberships": selectors.clubs_for(user=request.user), "waiting": waiting})


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = ClubForm(request.POST)
        if form.is_valid():
            try:
                club = services.club_create(user=request.user, **form.cleaned_data)
            except services.ClubError as exc:
                form.add_error(None, str(exc))
            else:
                # Its first link is made at once, with no limits (found by an audit: a new club's
                # page said "invite your players with a link" over "no invite links yet").
                services.club_invite_create(club=club, by=request.user)
                messages.success(request, _("Your club is open. Send your players the link below; you can revoke it or make others with limits."))
                return redirect("club_invites", club_id=club.pk)
    else:
        lang = getattr(request, "LANGUAGE_CODE", "en")
        form = ClubForm(initial={"language": lang if lang in ("he", "ru", "en") else "en"})
    return render(request, "club/club_new.html", {"form": form})


@login_required
def club_settings(request: HttpRequest, club_id: int) -> HttpResponse:
    """The owner's page for the club's name, description, language and usual game and speed."""
    club = _club(club_id)
    membership = _member(request, club)
    if membership.role != Membership.Role.OWNER:
        raise PermissionDenied
    if request.method == "POST":
        form = ClubForm(request.POST)
        if form.is_valid():
            try:
                services.club_update(club=club, by=request.user, **form.cleaned_data)
            except services.ClubError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("The club's settings are saved."))
                return redirect("club_home", club_id=club.pk)
    else:
        form = ClubForm(initial={"name": club.name, "description": club.description, "language": club.language,
                                 "default_game": club.default_game, "default_speed": club.default_speed})
    context = _base(request, club, membership, "settings")
    context["form"] = form
    context["deletable"] = services.club_deletable(club)
    return render(request, "club/settings.html", context)


@require_POST
@login_required
def club_delete(request: HttpRequest, club_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    membership = _member(request, club)
    if membership.role != Membership.Role.OWNER:
        raise PermissionDenied
    name = club.name
    try:
        services.club_delete(club=club, by=request.user)
    except services.ClubError as exc:
        _refused(request, exc)
        return redirect("club_settings", club_id=club_id)
    messages.success(request, _("%(club)s is deleted.") % {"club": name})
    return redirect("my_clubs")


# -- A club's front page ---------------------------------------------------------------------


def club_home(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(club_id)
    membership = selectors.membership_of(club=club, user=request.user)
    context = _base(request, club, membership, "home")
    if membership is None:
        context.update({
            "pending": selectors.my_pending_request(club=club, user=request.user),
            "removed": selectors.removed_from(club=club, user=request.user),
            "declined": selectors.my_declined_request(club=club, user=request.user),
            "member_count": Membership.objects.filter(club=club, active=True).count(),
            "request_form": JoinRequestForm(),
        })
        return render(request, "club/club_about.html", context)
    context.update(_leaderboard_context(request, club))
    session = selectors.current_session(club=club)
    context.update({
        "tables": selectors.club_tables(club=club),
        "session": session,
        "standings": selectors.session_standings(session=session) if session else [],
        "members": selectors.club_members(club=club),
        "requests": selectors.pending_requests(club=club) if membership.is_host else [],
        "chip_requests": selectors.pending_chip_requests(club=club) if membership.is_host else [],
        "my_chip_request": selectors.my_chip_request(club=club, user=request.user),
        "chip_request_form": ChipRequestForm(),
        "nights": selectors.upcoming_game_nights(club=club, user=request.user),
        "freezeouts": selectors.recent_freezeouts(club=club),
        "freezeout_wins": selectors.freezeout_wins(club=club),
        "night_form": GameNightForm() if membership.is_host else None,
    })
    return _render(request, "club/club_home.html", context, parts=(LEADERBOARD_TARGET,))


@require_POST
def club_request_join(request: HttpRequest, club_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?{urlencode({'next': reverse('club_home', args=[club.pk])})}")
    form = JoinRequestForm(request.POST)
    if not form.is_valid():  # a message too long, or with a NUL: said, not dropped (found by probing)
        messages.error(request, _form_refusal(form))
        return redirect("club_home", club_id=club.pk)
    try:
        services.club_request_join(club=club, user=request.user, message=form.cleaned_data["message"])
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("Your request is with the club's hosts. You will see the club in My clubs once they let you in."))
    return redirect("club_home", club_id=club.pk)


@require_POST
@login_required
def club_leave(request: HttpRequest, club_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _member(request, club)
    try:
        services.club_leave(club=club, user=request.user)
    except services.ClubError as exc:
        _refused(request, exc)
        return redirect("club_home", club_id=club.pk)
    messages.success(request, _("You left %(club)s. Your club chips stay with the club if you come back.") % {"club": club.name})
    return redirect("my_clubs")


# -- Members ---------------------------------------------------------------------------------


@login_required
def club_members(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(club_id)
    membership = _member(request, club)
    context = _base(request, club, membership, "members")
    members = selectors.club_members(club=club)
    former = selectors.former_members(club=club) if membership.is_host else []
    context.update({
        "members": members,
        "former": former,
        "members_chips": sum(m.balance for m in members),
        "former_chips": sum(m.balance for m in former),
        "requests": selectors.pending_requests(club=club) if membership.is_host else [],
        "chip_requests": selectors.pending_chip_requests(club=club) if membership.is_host else [],
        "chips_form": ChipsForm(),
    })
    return render(request, "club/members.html", context)


def _back(request: HttpRequest, club: Club) -> HttpResponseRedirect:
    """Back to the club page the form was on: its members' page, else its front page."""
    if request.POST.get("back") == "members":
        return redirect("club_members", club_id=club.pk)
    return redirect(f"{reverse('club_home', args=[club.pk])}#chips")


@require_POST
@login_required
def chips_ask(request: HttpRequest, club_id: int) -> HttpResponseRedirect:
    """A member asks the hosts for club chips (``services.chips_request``)."""
    club = _club(club_id)
    _member(request, club)
    form = ChipRequestForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_refusal(form))
        return _back(request, club)
    try:
        services.chips_request(club=club, user=request.user, amount=form.cleaned_data["amount"],
                               message=form.cleaned_data["message"])
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("Your request is with the club's hosts."))
    return _back(request, club)


@require_POST
@login_required
def chips_answer(request: HttpRequest, club_id: int, request_id: int, answer: str) -> HttpResponseRedirect:
    """A host grants or declines a member's request for chips; the member may withdraw it."""
    club = _club(club_id)
    _member(request, club)
    chip_request = get_object_or_404(ChipRequest, pk=request_id, club=club)
    calls = {"grant": services.chips_request_grant, "decline": services.chips_request_decline}
    try:
        if answer == "withdraw":
            services.chips_request_withdraw(chip_request=chip_request, user=request.user)
        elif answer in calls:
            calls[answer](chip_request=chip_request, by=request.user)
        else:
            raise Http404
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        done = {"grant": _("The chips are on the member's statement."), "decline": _("The request is declined."),
                "withdraw": _("Your request is taken back.")}
        messages.success(request, done[answer])
    return _back(request, club)


def _form_refusal(form: Any) -> str:
    """What is wrong with a form posted from a box on a page, one field at a time and named by its
    label ("Chips: Ensure this value is greater than or equal to 1."): the page shows it as a
    message, not beside the field."""
    parts = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = f"{field.label}: " if field is not None and field.label else ""
        parts.extend(f"{label}{e}" for e in errors)
    return " ".join(parts)


def _target_user(user_id: int) -> Any:
    return get_object_or_404(get_user_model(), pk=user_id)


@require_POST
@login_required
def member_chips(request: HttpRequest, club_id: int, user_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _host(request, club)
    user = _target_user(user_id)
    form = ChipsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_refusal(form))
        return redirect("club_members", club_id=club.pk)
    data = form.cleaned_data
    call = services.club_chips_grant if data["direction"] == "grant" else services.club_chips_take
    try:
        entry = call(club=club, by=request.user, user=user, amount=data["amount"], reason=data["reason"])
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(name)s now has %(chips)s club chips.") % {
            "name": selectors.display_name(user), "chips": _chips(int(entry.balance_after or 0))})
    return redirect("club_members", club_id=club.pk)


@require_POST
@login_required
def member_role(request: HttpRequest, club_id: int, user_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _member(request, club)
    user = _target_user(user_id)
    role = request.POST.get("role", "")
    if role == Membership.Role.OWNER and request.POST.get("sure") != "yes":
        messages.error(request, _("Tick “I'm sure” to hand the club over."))
        return redirect("club_members", club_id=club.pk)
    try:
        services.club_set_role(club=club, by=request.user, user=user, role=role)
    except services.ClubError as exc:  # a refusal said on the members page, a stale form's too
        # (found by an audit: a former owner's form from before the handover got a bare 403)
        _refused(request, exc)
    else:
        said = {
            Membership.Role.OWNER: _("%(name)s owns the club now; you stay on as one of its hosts."),
            Membership.Role.HOST: _("%(name)s is a host now."),
        }.get(role, _("%(name)s is a member now, no longer a host."))
        messages.success(request, said % {"name": selectors.display_name(user)})
    return redirect("club_members", club_id=club.pk)


@require_POST
@login_required
def member_remove(request: HttpRequest, club_id: int, user_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _host(request, club)
    user = _target_user(user_id)
    try:
        services.club_remove_member(club=club, by=request.user, user=user)
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(name)s is no longer a member. Their seats were settled into their club chips; they come back only if a host says yes to their request.")
                         % {"name": selectors.display_name(user)})
    return redirect("club_members", club_id=club.pk)


@require_POST
@login_required
def request_answer(request: HttpRequest, club_id: int, request_id: int, answer: str) -> HttpResponseRedirect:
    if answer not in ("approve", "decline"):
        raise Http404
    club = _club(club_id)
    _host(request, club)
    join_request = get_object_or_404(JoinRequest, pk=request_id, club=club)
    call = services.club_request_approve if answer == "approve" else services.club_request_decline
    try:
        call(join_request=join_request, by=request.user)
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        name = selectors.display_name(join_request.user)
        if answer == "approve":
            messages.success(request, _("%(name)s is now a member.") % {"name": name})
        else:
            messages.info(request, _("You declined %(name)s's request.") % {"name": name})
    return redirect("club_home" if request.POST.get("back") == "home" else "club_members", club_id=club.pk)


# -- Game nights ----------------------------------------------------------------------------


def _night(club: Club, night_id: int) -> GameNight:
    return get_object_or_404(GameNight, pk=night_id, club=club)


@require_POST
@login_required
def game_night_schedule(request: HttpRequest, club_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _host(request, club)
    form = GameNightForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_refusal(form))
        return redirect("club_home", club_id=club.pk)
    try:
        night = services.game_night_schedule(club=club, by=request.user, **form.cleaned_data)
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("The night of %(day)s is on the club's page. Members can now say whether they are coming.")
                         # The day as the list writes it, without the year ("Dec. 4", "4 декабря").
                         % {"day": formats.date_format(timezone.localtime(night.starts_at), pgettext(
                             "date format (Django's date filter) for the day of a game night", "N j"))})
    return redirect("club_home", club_id=club.pk)


@require_POST
@login_required
def game_night_cancel(request: HttpRequest, club_id: int, night_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _host(request, club)
    night = _night(club, night_id)
    try:
        services.game_night_cancel(night=night, by=request.user)
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.info(request, _("The night is cancelled. It stays on the club's page, marked as cancelled."))
    return redirect("club_home", club_id=club.pk)


@require_POST
@login_required
def game_night_reply(request: HttpRequest, club_id: int, night_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _member(request, club)
    night = _night(club, night_id)
    try:
        services.game_night_reply(night=night, user=request.user, answer=request.POST.get("answer", ""))
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("Your answer is saved. You can change it until the night starts."))
    if request.POST.get("back") == "home":  # answered on the front page (tables.views.home)
        return redirect("home")
    return redirect("club_home", club_id=club.pk)


@login_required
def game_night_ics(request: HttpRequest, club_id: int, night_id: int) -> HttpResponse:
    """"Add to calendar": the night as an .ics file, for the club's members."""
    from club.calendar import night_ics

    club = _club(club_id)
    _member(request, club)
    night = _night(club, night_id)
    text = night_ics(night, club_url=request.build_absolute_uri(reverse("club_home", args=[club.pk])),
                     host=request.get_host().split(":")[0], now=timezone.now())
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-night-{night.pk}.ics"'
    return response


# -- Invites ---------------------------------------------------------------------------------


def _invite_url(request: HttpRequest, invite: ClubInvite) -> str:
    return request.build_absolute_uri(reverse("club_join", kwargs={"code": invite.code}))


@login_required
def club_invites(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(club_id)
    membership = _host(request, club)
    if request.method == "POST":
        form = InviteForm(request.POST)
        if form.is_valid():
            days = form.cleaned_data["expires_in"]
            expires = timezone.now() + dt.timedelta(days=int(days)) if days else None
            try:
                services.club_invite_create(club=club, by=request.user, expires=expires, max_uses=form.cleaned_data["max_uses"])
            except services.ClubError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("A new invite link is ready: copy it and send it to your players."))
                return redirect("club_invites", club_id=club.pk)
    else:
        form = InviteForm()
    invites = selectors.club_invites(club=club)
    for inv in invites:
        inv.url = _invite_url(request, inv)  # type: ignore[attr-defined]
    context = _base(request, club, membership, "invites")
    context.update({"form": form, "invites": invites})
    return render(request, "club/invites.html", context)


@require_POST
@login_required
def invite_revoke(request: HttpRequest, club_id: int, invite_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _host(request, club)
    invite = get_object_or_404(ClubInvite, pk=invite_id, club=club)
    services.club_invite_revoke(invite=invite, by=request.user)
    messages.info(request, _("The link no longer works."))
    return redirect("club_invites", club_id=club.pk)


def club_join(request: HttpRequest, code: str) -> HttpResponse:
    """The page an invite link opens: who invites you, and a button to join."""
    invite = selectors.invite_by_code(code=code[:64])
    if invite is None:
        raise Http404
    club = invite.club
    membership = selectors.membership_of(club=club, user=request.user)
    removed = selectors.removed_from(club=club, user=request.user) if membership is None else None
    if request.method == "POST" and request.user.is_authenticated:
        try:
            services.club_join_by_invite(code=invite.code, user=request.user)
        except services.ClubError as exc:
            invite.refresh_from_db()
            if invite.usable(timezone.now()) and removed is None:
                _refused(request, exc)  # else the page says why, once (found by an audit: twice)
        else:
            if membership is None:
                messages.success(request, _("Welcome to %(club)s!") % {"club": club.name})
            return redirect("club_home", club_id=club.pk)
    context = {
        "club": club, "invite": invite, "membership": membership, "usable": invite.usable(timezone.now()),
        "removed": removed,
        "member_count": Membership.objects.filter(club=club, active=True).count(),
        "next": reverse("club_join", kwargs={"code": invite.code}),
    }
    return render(request, "club/join.html", context)


# -- Ledger ----------------------------------------------------------------------------------


@login_required
def club_ledger(request: HttpRequest, club_id: int) -> HttpResponse:
    """A member sees their own club-chip statement; hosts see everyone's (or one member's)."""
    club = _club(club_id)
    membership = _member(request, club)
    context = _base(request, club, membership, "ledger")
    who: Any = request.user
    if membership.is_host:
        raw = request.GET.get("member", "")
        who = get_user_model().objects.filter(pk=int(raw)).first() if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None
        context["members"] = selectors.club_members(club=club)
        context["former"] = selectors.former_members(club=club)
        context["member_filter"] = who.pk if who is not None else None
    context["entries"] = selectors.club_ledger(club=club, user=who)
    context["whose"] = who
    return render(request, "club/ledger.html", context)


# -- Sessions and leaderboard ----------------------------------------------------------------


@login_required
def club_sessions(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(club_id)
    membership = _member(request, club)
    context = _base(request, club, membership, "sessions")
    context.update({"sessions": selectors.club_sessions(club=club), "current": selectors.current_session(club=club)})
    return render(request, "club/sessions.html", context)


@login_required
def session_page(request: HttpRequest, club_id: int, session_id: int) -> HttpResponse:
    club = _club(club_id)
    membership = _member(request, club)
    session = get_object_or_404(ClubSession, pk=session_id, club=club)
    context = _base(request, club, membership, "sessions")
    standings = selectors.session_standings(session=session)
    context.update({"session": session, "standings": standings,
                    # "Boards won" and "Scoops" only where Patch-Patch was played (an audit saw
                    # them, all zeros, on a Hold'em night).
                    "patch_patch": session.hands.filter(game="PP").exists(),
                    "tables": selectors.club_tables(club=club) if session.is_open else []})
    if standings and not session.is_open:
        # The night's results as plain text, to paste into the group's chat.
        context["share_text"] = render_to_string(
            "club/_session_text.txt", {"club": club, "session": session, "rows": standings}, request=request).strip()
    return _render(request, "club/session.html", context, parts=(SESSION_TARGET,))


@login_required
def session_csv(request: HttpRequest, club_id: int, session_id: int) -> HttpResponse:
    """A session's results as a spreadsheet (``club.csvfile``), for the club's members."""
    from club.csvfile import csv_response, filename

    club = _club(club_id)
    _member(request, club)
    session = get_object_or_404(ClubSession, pk=session_id, club=club)
    standings = selectors.session_standings(session=session)
    units = bool(standings and standings[0].units_col)
    pp = session.hands.filter(game="PP").exists()
    header = [_("Place"), _("Player"), _("Net"), *([_("Units")] if units else []), _("Hands"), _("Pots won"),
              _("Biggest pot"), *([_("Boards won"), _("Scoops")] if pp else [])]
    rows = [[r.place, r.name, r.net, *([round(float(r.units), 4)] if units else []), r.hands, r.pots_won,
             r.biggest_pot, *([r.boards_won, r.scoops] if pp else [])] for r in standings]
    day = timezone.localtime(session.started).date().isoformat()
    return csv_response(filename(club.name, _("Session"), day), header, rows)


@login_required
def club_ledger_csv(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club-chip statement as a spreadsheet: a member's own; a host's, everyone's (or the
    member picked, ``?member=``), every entry, oldest first, times in the reader's zone."""
    from club.csvfile import csv_response, filename

    club = _club(club_id)
    membership = _member(request, club)
    who: Any = request.user
    if membership.is_host:
        raw = request.GET.get("member", "")
        who = get_user_model().objects.filter(pk=int(raw)).first() if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None
    entries = selectors.club_ledger(club=club, user=who, limit=None)
    entries.reverse()
    header = [_("When"), _("Member"), _("What"), _("Table"), _("Note"), _("Chips"), _("Balance")]
    rows = [[timezone.localtime(e.created).strftime("%Y-%m-%d %H:%M"), e.name,  # type: ignore[attr-defined]
             e.get_kind_display(), getattr(e, "table_name", "") or e.table_id or "",  # its name, as the page says
             e.note_text, e.amount, e.balance_after] for e in entries]
    whose = [] if who is None else [selectors.display_name(who)]
    return csv_response(filename(club.name, _("Ledger"), *whose, timezone.localdate().isoformat()), header, rows)


@require_POST
@login_required
def session_start(request: HttpRequest, club_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _host(request, club)
    try:
        session = services.club_session_start(club=club, by=request.user)
    except services.ClubError as exc:
        _refused(request, exc)
        return redirect("club_home", club_id=club.pk)
    messages.success(request, _("The session has started: every hand at the club's tables counts now."))
    # Started from a table's host controls: back to the table.
    back = _safe_next(request)
    if back:
        return redirect(back)
    return redirect("club_session", club_id=club.pk, session_id=session.pk)


@require_POST
@login_required
def session_end(request: HttpRequest, club_id: int, session_id: int) -> HttpResponseRedirect:
    club = _club(club_id)
    _host(request, club)
    session = get_object_or_404(ClubSession, pk=session_id, club=club)
    try:
        services.club_session_end(session=session, by=request.user)
    except services.ClubError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("The session has ended. Its results are in the leaderboard."))
    return redirect("club_session", club_id=club.pk, session_id=session.pk)


def _leaderboard_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    period = request.GET.get("period", "month")
    if period not in selectors.PERIODS:
        period = "month"
    return {"period": period, "leaderboard": selectors.club_leaderboard(club=club, period=period),
            "patch_patch": ClubSessionHand.objects.filter(session__club=club, game="PP").exists()}


@login_required
def club_leaderboard(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(club_id)
    membership = _member(request, club)
    context = _base(request, club, membership, "leaderboard")
    context.update(_leaderboard_context(request, club))
    return _render(request, "club/leaderboard.html", context, parts=(LEADERBOARD_TARGET,))

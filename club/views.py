"""Account pages: sign up, log in, log out, and the player's own page (bankroll and statement).

Views only translate: parse a form, call one service, render or redirect.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club import selectors, services
from club.forms import (
    DisplayNameForm,
    SignupForm,
    ThrottledAuthenticationForm,
    ThrottledPasswordChangeForm,
)
from club.models import LedgerEntry
from club.ports import tables_port

STATEMENT_ROWS = 100


def _chips(n: int) -> str:
    from club.services import chips_text

    return chips_text(n)


def _safe_next(request: HttpRequest) -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return nxt
    return ""


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("profile")
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            with transaction.atomic():
                user = form.save()
                profile = services.profile_ensure(user=user, display_name=form.cleaned_data["display_name"])
            login(request, user)
            messages.success(
                request,
                _("Welcome, %(name)s! You have %(chips)s chips to play with.")
                % {"name": profile.display_name, "chips": _chips(profile.bankroll)},
            )
            return redirect(_safe_next(request) or "lobby")
    else:
        form = SignupForm()
    nxt = _safe_next(request)
    return render(
        request, "club/signup.html",
        {"form": form, "next": nxt, "starting_chips": services.STARTING_BANKROLL,
         # "Already have an account? Log in" keeps where the visitor was going, as sign-up does.
         "login_url": reverse("login") + (f"?{urlencode({'next': nxt})}" if nxt else "")},
    )


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True
    extra_context = {"starting_chips": services.STARTING_BANKROLL}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        # "New here? Sign up" keeps where the visitor was going (a friend's table invite, a
        # club): found by an audit, a newcomer who signed up from there landed in the lobby.
        context = super().get_context_data(**kwargs)
        nxt = context.get("next") or ""
        context["signup_url"] = reverse("signup") + (f"?{urlencode({'next': nxt})}" if nxt else "")
        return context

    def form_invalid(self, form: ThrottledAuthenticationForm) -> HttpResponse:  # type: ignore[override]
        response = super().form_invalid(form)
        if form.throttled:
            response.status_code = 429
        return response


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    profile = services.profile_ensure(user=request.user)
    entries = selectors.name_tables(list(
        LedgerEntry.objects.filter(user=request.user, account="bankroll").order_by("-id")[:STATEMENT_ROWS]
    ))
    today = timezone.localdate()
    can_top_up = bool(selectors.top_up_due(profile=profile, top_up_to=services.DAILY_TOP_UP_TO, today=today))
    return render(
        request,
        "club/profile.html",
        {
            "profile": profile,
            "entries": entries,
            "can_top_up": can_top_up,
            "topped_up_today": profile.last_top_up == today,
            "top_up_to": services.DAILY_TOP_UP_TO,
            "at_tables": selectors.site_chips_at_tables(user_id=profile.user_id),
        },
    )


@login_required
def rename(request: HttpRequest) -> HttpResponse:
    """Change the name other players see (a GET shows the form; the profile page has it too)."""
    profile = services.profile_ensure(user=request.user)
    if request.method == "POST":
        form = DisplayNameForm(request.POST, user_id=request.user.pk)
        if form.is_valid():
            profile = services.profile_rename(user=request.user, display_name=form.cleaned_data["display_name"])
            messages.success(request, _("Your name at the tables is now “%(name)s”.") % {"name": profile.display_name})
            return redirect("profile")
        status = 400
    else:
        form = DisplayNameForm(initial={"display_name": profile.display_name})
        status = 200
    return render(request, "club/account_form.html",
                  {"form": form, "title": _("Your name at the tables"), "action": "rename"}, status=status)


@login_required
def password_change(request: HttpRequest) -> HttpResponse:
    """Change the password, with the old one; the player stays logged in on this device."""
    if request.method == "POST":
        form = ThrottledPasswordChangeForm(request.user, request.POST, request=request)
        if form.is_valid():
            user = form.save()
            # This device's table sockets opened with the session key as it is before the
            # change gives the session a new one: they stay, every other session's close (those
            # sessions are no longer valid for pages; a socket opened before would go on).
            keep = request.session.session_key or ""
            update_session_auth_hash(request, user)
            tables_port().end_other_sessions(user_id=user.pk, keep_session=keep)
            messages.success(request, _("Your password is changed."))
            return redirect("profile")
        status = 400
    else:
        form = ThrottledPasswordChangeForm(request.user, request=request)
        status = 200
    for name, auto in (("old_password", "current-password"), ("new_password1", "new-password"), ("new_password2", "new-password")):
        form.fields[name].widget.attrs["autocomplete"] = auto
    return render(request, "club/account_form.html",
                  {"form": form, "title": _("Change your password"), "action": "password_change"}, status=status)


@require_POST
@login_required
def top_up(request: HttpRequest) -> HttpResponseRedirect:
    services.profile_ensure(user=request.user)
    added = services.bankroll_top_up(user=request.user)
    if added:
        messages.success(
            request,
            ngettext("%(chips)s chip added to your bankroll.", "%(chips)s chips added to your bankroll.", added)
            % {"chips": _chips(added)},
        )
    else:
        messages.info(
            request,
            _("No top-up now: it comes once a day, when you have fewer than %(chips)s chips.")
            % {"chips": _chips(services.DAILY_TOP_UP_TO)},
        )
    return redirect("profile")

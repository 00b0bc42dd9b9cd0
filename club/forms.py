"""Forms for accounts: sign-up (with a display name) and a login form that throttles guessing."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club import throttle


def clean_name(value: str) -> str:
    """A display name on one line (``club.names.one_line``: runs of spaces, tabs and line breaks
    become one space; characters that print nothing are refused), and not empty."""
    from club.names import one_line

    try:
        name = one_line(value)
    except ValidationError:
        name = ""
    if not name:
        raise ValidationError(_("A name is letters, digits and the like, on one line."))
    return name


def name_free(name: str, user_id: int | None = None) -> str:
    """Refuse a display name another player already has, or one that only looks like it
    ("alice", "ＡＬＩＣＥ", "Аlice" with a Cyrillic А, "Alicé", "A l i c e": ``club.names.name_key``):
    at a table, and in hand histories, a name is who a player is (found by an audit and by
    probing: anyone could call themselves the club owner's name)."""
    from club.models import Profile
    from club.names import name_key

    others = Profile.objects.exclude(user_id=user_id) if user_id is not None else Profile.objects.all()
    if others.filter(name_key=name_key(name)).exists():
        raise ValidationError(_("Another player already has that name. Choose another."))
    return name


class PlainTextField(forms.CharField):
    """Text of a few lines for others to read (``club.names.plain_text``)."""

    def clean(self, value: Any) -> str:
        from club.names import plain_text

        return plain_text(super().clean(value))


class OneLineField(forms.CharField):
    """A name or short note typed for others to read (``club.names.one_line``)."""

    def clean(self, value: Any) -> str:
        from club.names import one_line

        text = super().clean(value)
        return one_line(text) if text else text


def display_name_field() -> forms.CharField:
    """The name other players see, as sign-up and the account page ask for it."""
    return forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("The name other players see at the tables."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )


class SignupForm(UserCreationForm):
    display_name = display_name_field()

    field_order = ["username", "display_name", "password1", "password2"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs["autocomplete"] = "username"
        _left_to_right(self, "username", "password1", "password2")
        # Two names: found by an audit, a newcomer logged in with their display name.
        self.fields["username"].help_text = _(
            "What you log in with: letters, digits and @ . + - _ only. The tables show your display name.")
        self.order_fields(self.field_order)

    def clean_display_name(self) -> str:
        return name_free(clean_name(self.cleaned_data["display_name"]))

    def validate_password_for_user(self, user: Any, password_field_name: str = "password2") -> None:
        # What is wrong with a password (too short, too common) is said under the password, not
        # under its confirmation (found by an audit); a mismatch stays under the confirmation.
        super().validate_password_for_user(user, password_field_name="password1")


class DisplayNameForm(forms.Form):
    display_name = display_name_field()

    def __init__(self, *args: Any, user_id: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user_id = user_id

    def clean_display_name(self) -> str:
        return name_free(clean_name(self.cleaned_data["display_name"]), self.user_id)


def client_ip(request: HttpRequest | None) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is whatever the client says unless a trusted proxy sets
    # it, and a throttle keyed on a header the attacker writes throttles nothing.
    if request is None:
        return ""
    return str(request.META.get("REMOTE_ADDR", ""))


def _throttled(wait: int) -> ValidationError:
    minutes = max(1, math.ceil(wait / 60))
    return ValidationError(
        ngettext(
            "Too many failed logins. Please wait %(minutes)d minute and try again.",
            "Too many failed logins. Please wait %(minutes)d minutes and try again.",
            minutes,
        ) % {"minutes": minutes},
        code="throttled",
    )


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change, its old-password guesses counted with failed logins (found by
    an audit: a borrowed session could guess the old password without end, then take the
    account)."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        username, ip = self.user.get_username(), client_ip(self.request)
        wait = throttle.retry_after(username=username, ip=ip)
        if wait:
            raise _throttled(wait)
        try:
            return str(super().clean_old_password())
        except ValidationError:
            throttle.record_failure(username=username, ip=ip)
            raise


class _Throttled:
    """A login form's ``clean`` that refuses attempts after too many failures (``club.throttle``)."""

    throttled = False
    request: HttpRequest | None
    user_cache: Any
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        ip = client_ip(self.request)
        wait = throttle.retry_after(username=username, ip=ip)
        if wait:
            self.throttled = True
            raise _throttled(wait)
        try:
            cleaned = super().clean()  # type: ignore[misc]
        except ValidationError:
            if self.user_cache is None:  # a wrong password, not an inactive account
                throttle.record_failure(username=username, ip=ip)
            raise
        throttle.forget_failures(username=username, ip=ip)
        return cleaned  # type: ignore[no-any-return]


class ThrottledAuthenticationForm(_Throttled, AuthenticationForm):
    """Django's login form, refusing attempts after too many failures."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _left_to_right(self, "username", "password")


def _left_to_right(form: forms.Form, *names: str) -> None:
    """A username and a password are typed left to right on a Hebrew page too (found by an
    audit: "bad user!" showed as "!bad user" in a right-to-left box)."""
    for name in names:
        form.fields[name].widget.attrs["dir"] = "ltr"


class ThrottledAdminAuthenticationForm(_Throttled, AdminAuthenticationForm):
    """The admin's login form, throttled the same way and counting the same failures (the
    admin's login page took guesses while the site's refused them, found by probing)."""


# -- Clubs (issue #5) --------------------------------------------------------------------------


def _game_choices() -> list[tuple[str, str]]:
    from club.ports import tables_port

    return tables_port().games()


class ClubForm(forms.Form):
    name = OneLineField(label=_("Club name"), max_length=60)
    description = PlainTextField(
        label=_("Short description"), max_length=300, required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Where and when you play, in a sentence or two."),
    )
    language = forms.ChoiceField(label=_("Club language"), choices=(("he", "עברית"), ("ru", "Русский"), ("en", "English")),
                                 initial="he")
    default_game = forms.ChoiceField(label=_("Usual game"), choices=())
    default_speed = forms.ChoiceField(
        label=_("Usual speed"), widget=forms.RadioSelect, initial="medium",
        choices=(("slow", _("Slow")), ("medium", _("Medium")), ("fast", _("Fast"))),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["default_game"].choices = _game_choices()


class InviteForm(forms.Form):
    EXPIRY = (("", _("Never")), ("1", _("In a day")), ("7", _("In a week")), ("30", _("In a month")))

    expires_in = forms.ChoiceField(label=_("The link expires"), choices=EXPIRY, required=False)
    max_uses = forms.IntegerField(label=_("How many people can use it"), min_value=1, max_value=1000, required=False,
                                  help_text=_("Leave empty for no limit."))


class ChipsForm(forms.Form):
    direction = forms.ChoiceField(choices=(("grant", _("Give")), ("take", _("Take"))), widget=forms.RadioSelect,
                                  initial="grant", label=_("Give or take"))
    amount = forms.IntegerField(label=_("Chips"), min_value=1, max_value=10**9)
    reason = OneLineField(label=_("Reason"), max_length=200)


class ChipRequestForm(forms.Form):
    amount = forms.IntegerField(label=_("Chips"), min_value=1, max_value=10**9)
    message = OneLineField(label=_("A word to the hosts (optional)"), max_length=200, required=False)


class JoinRequestForm(forms.Form):
    message = OneLineField(label=_("A word to the hosts (optional)"), max_length=200, required=False)


class GameNightForm(forms.Form):
    """A host's new night. The browser's date-and-time box sends the reader's local time
    ("2026-06-04T20:00"); the field reads it in the zone the page was drawn in (the reader's,
    ``club.middleware``). Whether the time is in the future, and the note's length, are the
    service's to say."""

    starts_at = forms.DateTimeField(
        label=_("Day and time"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        error_messages={"required": _("Choose the day and time of the night."),
                        "invalid": _("That day and time could not be read. Choose them again.")},
    )
    note = forms.CharField(
        label=_("Game and stakes (optional)"), required=False, strip=False,
        widget=forms.TextInput(attrs={"maxlength": 200, "placeholder": _("Patch-Patch 5/10 at the club table")}),
    )

    def clean_note(self) -> str:
        from club.names import plain_text

        return plain_text(self.cleaned_data["note"])  # as typed: its length is the service's to say

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The browser's picker offers only days from now to a year ahead (the service's limits).
        now = timezone.localtime()
        attrs = self.fields["starts_at"].widget.attrs
        attrs["min"] = now.strftime("%Y-%m-%dT%H:%M")
        attrs["max"] = (now + dt.timedelta(days=365)).strftime("%Y-%m-%dT%H:%M")

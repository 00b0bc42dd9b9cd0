"""Forms for accounts: sign-up (with a display name) and a login form that throttles guessing."""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club import throttle


class SignupForm(UserCreationForm):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("The name other players see at the tables."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    field_order = ["username", "display_name", "password1", "password2"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs["autocomplete"] = "username"
        self.order_fields(self.field_order)


def client_ip(request: HttpRequest | None) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is whatever the client says unless a trusted proxy sets
    # it, and a throttle keyed on a header the attacker writes throttles nothing.
    if request is None:
        return ""
    return str(request.META.get("REMOTE_ADDR", ""))


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing attempts after too many failures (see ``club.throttle``)."""

    throttled = False

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        ip = client_ip(self.request)
        wait = throttle.retry_after(username=username, ip=ip)
        if wait:
            self.throttled = True
            minutes = max(1, math.ceil(wait / 60))
            raise ValidationError(
                ngettext(
                    "Too many failed logins. Please wait %(minutes)d minute and try again.",
                    "Too many failed logins. Please wait %(minutes)d minutes and try again.",
                    minutes,
                ) % {"minutes": minutes},
                code="throttled",
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            if self.user_cache is None:  # a wrong password, not an inactive account
                throttle.record_failure(username=username, ip=ip)
            raise
        throttle.forget_failures(username=username)
        return cleaned

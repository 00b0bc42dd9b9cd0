"""``{% lan_hint %}``: beside an invite link a host copies on a `make run` laptop browsed at
127.0.0.1, a line saying a phone cannot open it and where to get one that works (README,
"Friends on the same Wi-Fi"; found by an audit: every copied link named the phone itself)."""

from __future__ import annotations

import os
from typing import Any

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()

@register.simple_tag(takes_context=True)
def lan_hint(context: Any) -> SafeString | str:
    request = context.get("request")
    if request is None or os.environ.get("DATABASE_URL"):
        return ""  # a real site's links are made from its real name
    from django.http.request import split_domain_port

    from config.lan import is_loopback, lan_address

    name, port = split_domain_port(request.get_host())
    if not is_loopback(name):
        return ""

    lan = lan_address()
    if not lan:
        return ""
    there = f"{request.scheme}://{lan}{':' + port if port else ''}{request.get_full_path()}"
    text = _("A phone cannot open a link to this computer's own name (127.0.0.1 is the phone itself). "
             "For friends on the same Wi-Fi, start the site with %(command)s, open this page at "
             "this computer's network address and copy the link there:")
    # The command kept left to right in a Hebrew sentence.
    said = mark_safe(escape(text) % {"command": format_html('<code dir="ltr">{}</code>', "make run HOST=0.0.0.0")})  # noqa: S308
    return format_html('<p class="muted invite-hint">{} <a href="{}" dir="ltr">{}</a></p>', said, there, there)

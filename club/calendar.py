"""A game night as an iCalendar file (RFC 5545), for "Add to calendar": one event, its start in
UTC, four hours long, the host's note and the club page's address; a cancelled night says so
(STATUS:CANCELLED), so a calendar that imported it before marks it off when it is opened again."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _

from club.models import GameNight

# How long a night is put down for: a home game's evening. The site does not ask the host.
NIGHT_LENGTH = dt.timedelta(hours=4)


def _text(value: str) -> str:
    """A TEXT value: backslashes, semicolons, commas and line breaks escaped (RFC 5545 3.3.11)."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")


def _fold(line: str) -> str:
    """A content line folded at 75 octets, never inside a character (RFC 5545 3.1)."""
    out, part, size = [], "", 0
    for ch in line:
        n = len(ch.encode())
        if size + n > 75:
            out.append(part)
            part, size = " ", 1
        part += ch
        size += n
    out.append(part)
    return "\r\n".join(out)


def _stamp(when: dt.datetime) -> str:
    return when.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def night_ics(night: GameNight, *, club_url: str, host: str, now: dt.datetime) -> str:
    """The night as a calendar with one event; ``club_url`` is the club page's full address and
    ``host`` the site's host name (the event's UID is unique to it)."""
    summary = _("%(club)s: game night") % {"club": night.club.name}
    description = "\n".join(x for x in (night.note, club_url) if x)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Patch-Patch Club//Game nights//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:game-night-{night.pk}@{host}",
        f"DTSTAMP:{_stamp(now)}",
        f"DTSTART:{_stamp(night.starts_at)}",
        f"DTEND:{_stamp(night.starts_at + NIGHT_LENGTH)}",
        f"SUMMARY:{_text(summary)}",
        f"DESCRIPTION:{_text(description)}",
        f"URL:{club_url}",
        f"STATUS:{'CANCELLED' if night.cancelled else 'CONFIRMED'}",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "".join(_fold(line) + "\r\n" for line in lines)

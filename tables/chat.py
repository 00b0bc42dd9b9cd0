"""A table's chat: short lines from the people at the table, sent to everyone watching it.

Who may write: anyone logged in who may watch the table, except at a public table, where only
the players seated there may (strangers watching a public game read along but do not talk to
its players). A line is plain text, 1 to ``ChatLine.MAX_CHARS`` characters after control
characters are taken out; the browser puts it on the page as text, never as markup.

Whoever moderates the table (``moderates``) may take any line out and mute anyone but another
host: a muted person's lines stay, they write no new one at that table until unmuted.

Chat is kept apart from the table's state: a line has no table version, changes no hand, and a
refused line changes nothing. Lines are kept (the last ``HISTORY`` are sent to a socket when it
connects) and each new one is sent to every socket watching the table, through the same fan-out
as the table's versions (``tables.consumers``).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import ChatLine, ChatMute, Seat, Table

HISTORY = 30
# At most this many lines from one player at one table in WINDOW_S seconds, however many sockets
# (tabs) they write from: each socket has its own allowance too (tables.consumers), but an audit
# opened six sockets and flooded the table's last 30 lines away.
PER_WINDOW = 5
WINDOW_S = 10


class ChatError(ValueError):
    """A line that cannot be sent; the message says why, in the writer's language."""


def clean_text(raw: Any) -> str:
    """The text of a line as it is kept: control and format characters out (a line break becomes
    a space; a right-to-left override cannot turn the next line around), runs of spaces made one,
    trimmed. Raises :class:`ChatError` for anything but a string of 1 to MAX_CHARS characters."""
    if not isinstance(raw, str):
        raise ChatError(_("A chat line is text."))
    kept = []
    for ch in raw[: ChatLine.MAX_CHARS * 4]:
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp"):
            kept.append(" ")
        elif category in ("Cf", "Cs", "Co", "Cn") and ch != "\u200d":  # keep the emoji joiner
            continue
        else:
            kept.append(ch)
    text = " ".join("".join(kept).split())
    if not text:
        raise ChatError(_("Write something first."))
    if len(text) > ChatLine.MAX_CHARS or len(raw) > ChatLine.MAX_CHARS * 4:
        raise ChatError(_("A chat line is at most %(n)s characters.") % {"n": ChatLine.MAX_CHARS})
    return text


def may_write(*, table: Table, user: Any) -> bool:
    """Whether ``user`` (who may watch ``table``) may write in its chat."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if table.club_id is not None:  # a club's members (one just removed may still hold a socket)
        from club.selectors import is_member

        return bool(is_member(club_id=table.club_id, user=user))
    if not table.is_public:  # its invite link or a seat let them watch (checked at connect)
        return True
    return Seat.objects.filter(table=table, user=user).exists()


def moderates(*, table: Table, user: Any) -> bool:
    """Whether ``user`` may take anyone's line out of the table's chat and mute people in it: a
    club table's hosts (and its owner), a private table's creator. At a public table nobody but
    staff (in the admin)."""
    from tables.hosting import hosts

    return hosts(table=table, user=user)


def moderator_ids(*, table: Table) -> list[int]:
    """The users who moderate ``table``'s chat: its hosts (``tables.hosting.hosts``), as a list;
    nobody mutes them."""
    if table.club_id is not None:
        from club.models import Membership

        return sorted(Membership.objects.filter(
            club_id=table.club_id, active=True, role__in=(Membership.Role.OWNER, Membership.Role.HOST),
        ).values_list("user_id", flat=True))
    if not table.is_public and table.created_by_id is not None:
        return [table.created_by_id]
    return []


def is_muted(*, table_id: int, user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if not ChatMute.objects.filter(table_id=table_id, user_id=user.pk).exists():
        return False
    # A host is never muted: one muted as a member and made a host since writes again (found by
    # an audit: muted for good, as nobody may unmute a host).
    table = Table.objects.filter(id=table_id).first()
    return table is None or not moderates(table=table, user=user)


def muted_ids(*, table_id: int) -> list[int]:
    return sorted(ChatMute.objects.filter(table_id=table_id).values_list("user_id", flat=True))


def mute(*, table_id: int, user: Any, target: Any, muted: Any) -> dict[str, Any]:
    """Mute (``muted`` true) or unmute ``target`` (a user id of someone seated at the table or
    who has written in its chat) in the table's chat; only whoever ``moderates`` the table, never
    themselves nor another host. Every socket watching the table
    is told (``{"user_id", "muted"}``, which is also what this returns). Muting twice, or
    unmuting someone who is not muted, changes nothing and is not an error."""
    from django.contrib.auth import get_user_model

    if not isinstance(target, int) or isinstance(target, bool) or not isinstance(muted, bool):
        raise ChatError(_("That message could not be read."))
    table = Table.objects.filter(id=table_id).first()
    if table is None:
        raise ChatError(_("No such table."))
    if not moderates(table=table, user=user):
        raise ChatError(_("Only the table's host can mute someone in its chat."))
    if target == user.pk:
        raise ChatError(_("You cannot mute yourself."))
    if muted and target in moderator_ids(table=table):
        raise ChatError(_("A host of this table cannot be muted."))
    if not get_user_model().objects.filter(pk=target).exists():
        raise ChatError(_("No such player."))
    # Someone this table knows: seated here, who has written in its chat, or muted here already.
    # Any user id on the site was accepted, and every watcher was told (found by probing).
    if not (Seat.objects.filter(table=table, user_id=target).exists()
            or ChatLine.objects.filter(table=table, user_id=target).exists()
            or ChatMute.objects.filter(table=table, user_id=target).exists()):
        raise ChatError(_("No such player."))
    with transaction.atomic():
        if muted:
            ChatMute.objects.get_or_create(table=table, user_id=target, defaults={"by": user})
        else:
            ChatMute.objects.filter(table=table, user_id=target).delete()
        out = {"user_id": target, "muted": muted}
        transaction.on_commit(lambda: _broadcast_muted(table_id, out))
    return out


def delete(*, table_id: int, user: Any, line_id: Any) -> int:
    """Take one line out of the chat: one's own line, or any line for whoever ``moderates`` the
    table; every socket watching the table is told to take it off the page. Returns its id."""
    if not isinstance(line_id, int) or isinstance(line_id, bool):
        raise ChatError(_("That chat line is not there any more."))
    line = ChatLine.objects.filter(id=line_id, table_id=table_id).select_related("table").first()
    if line is None:
        raise ChatError(_("That chat line is not there any more."))
    if user is None or not getattr(user, "is_authenticated", False) or (
            line.user_id != user.pk and not moderates(table=line.table, user=user)):
        raise ChatError(_("Only its writer or the table's host can take a chat line out."))
    with transaction.atomic():
        ChatLine.objects.filter(id=line_id).delete()
        transaction.on_commit(lambda: _broadcast_deleted(table_id, line_id))
    return line_id


def post(*, table_id: int, user: Any, text: Any) -> dict[str, Any]:
    """Keep one line from ``user`` at the table and send it to every socket watching the table
    once it is saved. The caller has checked that ``user`` may watch the table. Returns the line
    as sent (``line_dict``)."""
    from tables.selectors import _display_name

    cleaned = clean_text(text)
    table = Table.objects.filter(id=table_id).first()
    if table is None:
        raise ChatError(_("No such table."))
    if not may_write(table=table, user=user):
        if table.club_id is not None:
            raise ChatError(_("Only members of this club can do that."))
        raise ChatError(_("Only the players seated at a public table write in its chat."))
    if is_muted(table_id=table_id, user=user):
        raise ChatError(_("A host has muted you in this table's chat."))
    with transaction.atomic():
        # The writer's row is locked while their recent lines are counted, so two sockets of one
        # player are counted one after the other.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        since = timezone.now() - dt.timedelta(seconds=WINDOW_S)
        if ChatLine.objects.filter(table_id=table_id, user=user, created__gte=since).count() >= PER_WINDOW:
            raise ChatError(_("One chat line every two seconds, please."))
        line = ChatLine.objects.create(table=table, user=user, name=_display_name(user), text=cleaned)
        out = line_dict(line)
        transaction.on_commit(lambda: _broadcast(table_id, out))
    return out


def recent(*, table_id: int) -> list[dict[str, Any]]:
    """The table's last ``HISTORY`` lines, oldest first."""
    lines = list(ChatLine.objects.filter(table_id=table_id).order_by("-id")[:HISTORY])
    return [line_dict(line) for line in reversed(lines)]


def line_dict(line: ChatLine) -> dict[str, Any]:
    return {"id": line.pk, "user_id": line.user_id, "name": line.name, "text": line.text,
            "at": line.created.isoformat() if line.created else None}


def _broadcast(table_id: int, line: dict[str, Any]) -> None:
    from tables.live import broadcast_table_chat

    broadcast_table_chat(table_id, line)


def _broadcast_muted(table_id: int, change: dict[str, Any]) -> None:
    from tables.live import broadcast_table_chat_muted

    broadcast_table_chat_muted(table_id, change)


def _broadcast_deleted(table_id: int, line_id: int) -> None:
    from tables.live import broadcast_table_chat_deleted

    broadcast_table_chat_deleted(table_id, line_id)

"""Django admin for tables, seats, hands and seat requests. Stacks are read-only: chips move only
through ``tables.services``. A hand's stored state holds every card; the admin is staff-only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest

from tables import live
from tables.models import ChatLine, ChatMute, Hand, Seat, SeatRequest, Table


class SeatInline(admin.TabularInline):
    """Seats are shown, never added, edited or deleted here: a seat holds chips (its stack came
    from a bankroll through the ledger) and may be in a hand (found by an audit: deleting one lost
    its chips and left its hand unable to settle)."""

    model = Seat
    extra = 0
    fields = ("seat_no", "user", "stack", "sitting_out", "break_next", "leaving")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """The name, the speed and whether it is public may be edited; what a hand in play depends on
    (the game, the blinds, the seats, the clocks, the status: hosts pause and close through the
    site) may not, and a table
    is never deleted here (its seats hold chips; a host closes it, which cashes everyone out)."""

    list_display = ("name", "game", "small_blind", "big_blind", "speed", "max_seats", "is_public", "club", "status", "hands_played")
    list_filter = ("status", "game", "speed", "is_public", "club")
    search_fields = ("name", "club__name", "created_by__username")
    inlines = [SeatInline]
    EDITABLE = ("name", "speed", "is_public")

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Sequence[str]:
        return [f.name for f in Table._meta.get_fields() if f.concrete and not f.auto_created and f.name not in self.EDITABLE]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    """Read-only, for the reason SeatInline gives."""

    list_display = ("table", "seat_no", "user", "stack", "sitting_out", "break_next", "leaving")
    list_filter = ("sitting_out", "leaving", "table__club")
    search_fields = ("user__username", "table__name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Seat | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Seat | None = None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    """Read-only: a hand is written by ``tables.services`` alone (an edited ``ended`` would serve
    a hand still in play as history; edited salts would break its deck's proof). While the hand
    is played, its state (the whole deck, every hole card), salts and full history are not shown
    at all, not even to staff, who may be sitting at that table."""

    list_display = ("table", "number", "started", "ended", "clock")
    list_filter = ("table__game", ("ended", admin.EmptyFieldListFilter), "table__club")
    search_fields = ("table__name", "=number")
    date_hierarchy = "started"
    SECRET_WHILE_PLAYED = ("state", "deck_salts", "phh")

    def get_fields(self, request: HttpRequest, obj: Hand | None = None) -> Sequence[Any]:
        fields = list(super().get_fields(request, obj))
        if obj is None or obj.ended is None:
            fields = [f for f in fields if f not in self.SECRET_WHILE_PLAYED]
        return fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return False


@admin.register(SeatRequest)
class SeatRequestAdmin(admin.ModelAdmin):
    list_display = ("table", "user", "buy_in", "status", "created", "decided_by")
    list_filter = ("status", "table__club")
    search_fields = ("user__username", "table__name")


@admin.register(ChatLine)
class ChatLineAdmin(admin.ModelAdmin):
    """A table's chat lines: staff read them and may delete an abusive one, which leaves every
    page showing it at once, as a line taken out on the site does; nobody writes or edits a line
    here."""

    list_display = ("table", "name", "text", "created")
    list_filter = ("table__club",)
    search_fields = ("text", "name", "table__name")
    date_hierarchy = "created"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ChatLine | None = None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: ChatLine) -> None:
        gone = (obj.table_id, obj.pk)
        super().delete_model(request, obj)
        transaction.on_commit(lambda: live.broadcast_table_chat_deleted(*gone))

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        gone = list(queryset.values_list("table_id", "id"))
        super().delete_queryset(request, queryset)
        transaction.on_commit(lambda: [live.broadcast_table_chat_deleted(*g) for g in gone])


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    """Who a table's host muted in its chat. Staff may lift a mute here (the table's open pages
    learn it at once); hosts mute and unmute at the table."""

    list_display = ("table", "user", "by", "created")
    search_fields = ("user__username", "table__name")
    readonly_fields = ("table", "user", "by", "created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ChatMute | None = None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: ChatMute) -> None:
        change = (obj.table_id, {"user_id": obj.user_id, "muted": False})
        super().delete_model(request, obj)
        transaction.on_commit(lambda: live.broadcast_table_chat_muted(*change))

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        changes = [(t, {"user_id": u, "muted": False}) for t, u in queryset.values_list("table_id", "user_id")]
        super().delete_queryset(request, queryset)
        transaction.on_commit(lambda: [live.broadcast_table_chat_muted(*c) for c in changes])

"""Django admin for tables, seats, hands and seat requests. Stacks are read-only: chips move only
through ``tables.services``. A hand's stored state holds every card; the admin is staff-only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tables.models import Hand, Seat, SeatRequest, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("seat_no", "user", "stack", "sitting_out", "break_next", "leaving")
    readonly_fields = ("stack",)
    raw_id_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "small_blind", "big_blind", "speed", "max_seats", "is_public", "club", "status", "hands_played")
    list_filter = ("status", "game", "speed", "is_public", "club")
    search_fields = ("name", "club__name", "created_by__username")
    readonly_fields = ("version", "hands_played", "invite_code")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "seat_no", "user", "stack", "sitting_out", "break_next", "leaving")
    list_filter = ("sitting_out", "leaving", "table__club")
    search_fields = ("user__username", "table__name")
    readonly_fields = ("stack",)


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

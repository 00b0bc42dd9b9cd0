"""Django admin for people, chips and clubs. Balances are read-only here: chips move only through
``club.services`` (every change a ledger entry), never by editing a number in a form."""

from __future__ import annotations

from django.contrib import admin

from club.models import (
    ChipRequest,
    Club,
    ClubInvite,
    ClubSession,
    ClubSessionHand,
    ClubSessionResult,
    GameNight,
    GameNightReply,
    JoinRequest,
    LedgerEntry,
    Membership,
    Profile,
)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("display_name", "user", "bankroll", "last_top_up", "language")
    search_fields = ("display_name", "user__username")
    list_filter = ("language",)
    readonly_fields = ("bankroll", "last_top_up")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("created", "user", "kind", "account", "club", "amount", "balance_after", "table_id", "hand_id", "note")
    list_filter = ("kind", "club", ("created", admin.DateFieldListFilter))
    search_fields = ("user__username", "user__profile__display_name", "account", "note", "club__name")
    date_hierarchy = "created"
    list_select_related = ("user", "club")

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ("user", "role", "balance", "active", "joined", "left")
    readonly_fields = ("balance", "joined", "left")
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "language", "default_game", "default_speed", "created_by", "created")
    list_filter = ("language", "default_game", "default_speed")
    search_fields = ("name", "description", "created_by__username")
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "role", "balance", "active", "joined", "left")
    list_filter = ("role", "active", "club")
    search_fields = ("user__username", "user__profile__display_name", "club__name")
    readonly_fields = ("balance",)
    raw_id_fields = ("user",)
    list_select_related = ("user", "club")


@admin.register(ClubInvite)
class ClubInviteAdmin(admin.ModelAdmin):
    list_display = ("club", "created_by", "created", "expires", "max_uses", "uses", "revoked")
    list_filter = ("club", ("revoked", admin.EmptyFieldListFilter), ("expires", admin.EmptyFieldListFilter))
    search_fields = ("club__name", "code", "created_by__username")
    readonly_fields = ("code", "uses")


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "status", "created", "decided_by", "decided")
    list_filter = ("status", "club")
    search_fields = ("user__username", "club__name", "message")


@admin.register(ChipRequest)
class ChipRequestAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "amount", "status", "created", "decided_by", "decided")
    list_filter = ("status", "club")
    search_fields = ("user__username", "club__name", "message")


class ClubSessionResultInline(admin.TabularInline):
    model = ClubSessionResult
    extra = 0
    readonly_fields = ("user", "net", "hands", "pots_won", "biggest_pot", "boards_won", "scoops")
    can_delete = False


@admin.register(ClubSession)
class ClubSessionAdmin(admin.ModelAdmin):
    list_display = ("club", "started", "ended", "game", "end_rule", "pots_completed", "started_by")
    list_filter = ("club", "game", "end_rule", ("ended", admin.EmptyFieldListFilter))
    search_fields = ("club__name", "started_by__username")
    date_hierarchy = "started"
    inlines = [ClubSessionResultInline]


@admin.register(ClubSessionResult)
class ClubSessionResultAdmin(admin.ModelAdmin):
    list_display = ("session", "user", "net", "hands", "pots_won", "biggest_pot", "boards_won", "scoops")
    list_filter = ("session__club",)
    search_fields = ("user__username", "user__profile__display_name", "session__club__name")
    list_select_related = ("session__club", "user")


@admin.register(ClubSessionHand)
class ClubSessionHandAdmin(admin.ModelAdmin):
    list_display = ("session", "table_id", "hand_id", "game", "pot", "recorded")
    list_filter = ("game", "session__club")
    search_fields = ("=table_id", "=hand_id", "session__club__name")


class GameNightReplyInline(admin.TabularInline):
    model = GameNightReply
    extra = 0
    readonly_fields = ("user", "answer", "updated")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ("club", "starts_at", "note", "cancelled", "created_by", "created")
    list_filter = ("cancelled", "club")
    search_fields = ("club__name", "note", "created_by__username")
    date_hierarchy = "starts_at"
    list_select_related = ("club", "created_by")
    inlines = [GameNightReplyInline]

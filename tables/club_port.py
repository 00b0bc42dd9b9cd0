"""The tables app's answers to the questions ``club`` asks about tables (``club.ports``).

Registered when Django starts (``TablesConfig.ready``), so that ``club`` never imports ``tables``.
"""

from __future__ import annotations

import contextlib

from django.db.models import Count, Sum
from django.urls import reverse

from club.ports import ClubFreezeout, ClubTable
from tables.models import Seat, SeatRequest, Table
from tables.stakes import stakes_text


class TablesForClubs:
    def games(self) -> list[tuple[str, str]]:
        from tables.selectors import live_games

        return live_games()

    def club_tables(self, *, club_id: int) -> list[ClubTable]:
        from tables import freezeout
        from tables.services import rabbit_on, runs_twice, seven_deuce_chips, straddles_on

        names = dict(self.games())
        rows = (
            Table.objects.filter(club_id=club_id).exclude(status=Table.Status.CLOSED)
            .annotate(taken=Count("seats")).order_by("-id")
        )
        return [
            ClubTable(
                id=t.id, name=t.name, game=t.game, game_name=names.get(t.game, t.game),
                small_blind=t.small_blind, big_blind=t.big_blind, speed=t.speed,
                speed_name=str(t.get_speed_display()), seats_taken=t.taken, max_seats=t.max_seats,
                status=t.status, url=reverse("table", kwargs={"table_id": t.id}),
                stakes=stakes_text(t.game, t.small_blind, t.big_blind),
                level=t.level, level_minutes=t.level_minutes,
                freezeout=bool(t.freezeout and t.freezeout.get("on")),
                late_entry=int(t.freezeout.get("late") or 0) if freezeout.entry_open(t) else 0,
                seven_deuce=seven_deuce_chips(t), rabbit=rabbit_on(t),
                straddles=straddles_on(t), run_twice=runs_twice(t),
            )
            for t in rows
        ]

    def freezeouts(self, *, club_id: int, limit: int = 10) -> list[ClubFreezeout]:
        from tables.selectors import freezeout_results

        return [
            ClubFreezeout(table_name=r["table_name"], table_url=r["table_url"], ended=r["ended"],
                          entrants=r["entrants"], places=r["places"], reentries=r["reentries"])
            for r in freezeout_results(club_id=club_id, limit=limit)
        ]

    def freezeout_wins(self, *, club_id: int, limit: int = 5) -> list[tuple[str, int]]:
        from tables.selectors import freezeout_wins

        return freezeout_wins(club_id=club_id, limit=limit)

    def end_other_sessions(self, *, user_id: int, keep_session: str) -> None:
        from tables.live import broadcast_access_changed

        for table_id in sorted(set(Seat.objects.filter(user_id=user_id).values_list("table_id", flat=True))):
            broadcast_access_changed(table_id, user_id, keep_session=keep_session)

    def settle_member(self, *, club_id: int, user_id: int) -> None:
        from django.contrib.auth import get_user_model

        from tables import services

        user = get_user_model().objects.get(pk=user_id)
        table_ids = Seat.objects.filter(table__club_id=club_id, user_id=user_id).values_list("table_id", flat=True)
        for table_id in sorted(set(table_ids)):
            # A seat gone meanwhile (they left it themselves) has nothing left to settle.
            with contextlib.suppress(services.TableError):
                services.table_leave_seat(table_id=table_id, user=user)
        SeatRequest.objects.filter(
            table__club_id=club_id, user_id=user_id, status=SeatRequest.Status.PENDING,
        ).update(status=SeatRequest.Status.DECLINED)
        # Once the membership is closed (this same transaction), their open table sockets
        # check again and close: a club's tables are for its members only.
        from django.db import transaction

        from tables.live import broadcast_access_changed

        open_tables = list(Table.objects.filter(club_id=club_id).exclude(status=Table.Status.CLOSED)
                           .values_list("id", flat=True))
        transaction.on_commit(lambda: [broadcast_access_changed(t, user_id) for t in open_tables])

    def chips_on_tables(self, *, club_id: int) -> dict[int, int]:
        rows = Seat.objects.filter(table__club_id=club_id).values("user_id").annotate(chips=Sum("stack"))
        return {r["user_id"]: int(r["chips"] or 0) for r in rows}

    def site_chips_at_tables(self, *, user_id: int) -> int:
        # Club tables hold club chips, not the bankroll's; Baseball seats hold units (stack 0).
        total = Seat.objects.filter(user_id=user_id, table__club__isnull=True).aggregate(s=Sum("stack"))["s"]
        return int(total or 0)

    def seated_to_stay(self, *, club_id: int, user_id: int) -> bool:
        return Seat.objects.filter(table__club_id=club_id, user_id=user_id, leaving=False).exists()

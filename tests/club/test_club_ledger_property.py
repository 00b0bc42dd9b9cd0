"""Ledger property: after any sequence of grants, takes, buy-ins, hands and cash-outs at a club's
tables, the members' club balances plus the chips on the club's tables equal the chips hosts
granted minus the chips they took; every balance equals the sum of its ledger entries."""

from __future__ import annotations

import contextlib
import datetime as dt

import pytest
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from club import services as club_services
from club.models import LedgerEntry, Membership
from tables import hosting, services
from tables.models import Hand, Seat
from tables.services import TableError
from tests.club.helpers import club_with_people
from tests.tables.helpers import current_state, user_for_index

pytestmark = pytest.mark.django_db

OPS = ("grant", "take", "sit", "leave", "act", "act", "act", "act", "timeout", "next_hand", "close", "remove")


class _Rollback(Exception):
    pass


def _check(club, tables) -> None:
    balances = Membership.objects.filter(club=club).aggregate(s=Sum("balance"))["s"] or 0
    on_tables = Seat.objects.filter(table__in=tables).aggregate(s=Sum("stack"))["s"] or 0
    granted = LedgerEntry.objects.filter(club=club, kind="host_grant").aggregate(s=Sum("amount"))["s"] or 0
    taken = LedgerEntry.objects.filter(club=club, kind="host_take").aggregate(s=Sum("amount"))["s"] or 0
    assert balances + on_tables == granted + taken  # takes are negative amounts
    for m in Membership.objects.filter(club=club):
        entries = LedgerEntry.objects.filter(club=club, user_id=m.user_id, account="club").aggregate(s=Sum("amount"))["s"] or 0
        assert m.balance == entries >= 0
    assert not LedgerEntry.objects.filter(kind="rake").exists()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_club_chips_are_never_created_or_lost(data) -> None:
    try:
        with transaction.atomic():
            _run(data)
            raise _Rollback  # each example starts from an empty database
    except _Rollback:
        pass


def _run(data) -> None:
    p = club_with_people()
    people = [p.owner, p.host, p.member]
    table = services.table_create(creator=p.host, name="Prop", small_blind=5, big_blind=10, club=p.club)
    tables = [table]
    # Most sequences start with chips and players at the table, so that hands get played.
    for who in people:
        if data.draw(st.integers(min_value=0, max_value=3), label="start") > 0:
            amount = data.draw(st.integers(min_value=1, max_value=3000), label="first grant")
            club_services.club_chips_grant(club=p.club, by=p.owner, user=who, amount=amount, reason="start")
            with contextlib.suppress(TableError):
                services.table_take_seat(table_id=table.id, user=who, buy_in=min(max(amount, 50), 1500))
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(seconds=300))
    for _ in range(data.draw(st.integers(min_value=5, max_value=40), label="steps")):
        op = data.draw(st.sampled_from(OPS), label="op")
        who = data.draw(st.sampled_from(people), label="who")
        table.refresh_from_db()
        try:
            if op == "grant":
                amount = data.draw(st.integers(min_value=1, max_value=3000), label="amount")
                club_services.club_chips_grant(club=p.club, by=p.owner, user=who, amount=amount, reason="prop")
            elif op == "take":
                amount = data.draw(st.integers(min_value=1, max_value=3000), label="amount")
                club_services.club_chips_take(club=p.club, by=p.host, user=who, amount=amount, reason="prop")
            elif op == "sit":
                amount = data.draw(st.integers(min_value=40, max_value=1600), label="buy_in")
                services.table_take_seat(table_id=table.id, user=who, buy_in=amount)
            elif op == "leave":
                services.table_leave_seat(table_id=table.id, user=who)
            elif op in ("act", "timeout"):
                hand, state = current_state(table) if Hand.objects.filter(table=table).exists() else (None, None)
                if hand is None or hand.ended is not None:
                    continue
                if op == "timeout":
                    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
                    services.table_expire(table_id=table.id)
                else:
                    for _step in range(data.draw(st.integers(min_value=1, max_value=8), label="actions")):
                        table.refresh_from_db()
                        hand, state = current_state(table)
                        if hand.ended is not None:
                            break
                        idx = state.actors()[0]
                        kinds = [a.kind for a in state.legal_actions(idx) if a.kind not in ("swap", "arrange")]
                        kind = data.draw(st.sampled_from(kinds), label="action")
                        services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                                           message={"action": kind, "version": table.version})
            elif op == "next_hand":
                services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(seconds=300))
            elif op == "close":
                hosting.table_host_close(table_id=table.id, by=p.host)
                table = services.table_create(creator=p.host, name="Prop again", small_blind=5, big_blind=10, club=p.club)
                tables.append(table)
            elif op == "remove" and who == p.member:
                club_services.club_remove_member(club=p.club, by=p.owner, user=who)
                invite = club_services.club_invite_create(club=p.club, by=p.host)
                club_services.club_join_by_invite(code=invite.code, user=who)
        except (TableError, club_services.ClubError):
            pass  # a refused step changes nothing; the invariant must still hold
        _check(p.club, tables)
    settled = Hand.objects.filter(table__in=tables, ended__isnull=False).count()
    event(f"hands settled: {min(settled, 3)}{'+' if settled >= 3 else ''}")

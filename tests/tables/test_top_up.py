"""The daily top-up counts the chips a player has at site tables (not club tables), stays
race-safe against sitting down and standing up, and keeps the ledger balanced."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db.models import Sum
from django.urls import reverse

from club import services as club_services
from club.models import LedgerEntry, Profile
from tables import services
from tables.models import Seat
from tests.club.helpers import club_with_people
from tests.services import fresh_postgres_database
from tests.tables.helpers import make_user

ROOT = Path(__file__).resolve().parent.parent.parent
TOP = club_services.DAILY_TOP_UP_TO


def _site_table(name: str = "Site") -> int:
    # 50/100: buy-ins of 500 to 15,000.
    return services.table_create(creator=None, name=name, small_blind=50, big_blind=100).id


def _bankroll(user: object) -> int:
    return Profile.objects.get(user=user).bankroll


def _held_and_issued(burned: int) -> tuple[int, int]:
    """Bankrolls + stacks + rake + chips sent to a table id with no table (``burned``), and what
    was ever issued (starting chips and top-ups)."""
    bankrolls = Profile.objects.aggregate(s=Sum("bankroll"))["s"] or 0
    stacks = Seat.objects.aggregate(s=Sum("stack"))["s"] or 0
    kinds = [LedgerEntry.Kind.GRANT, LedgerEntry.Kind.TOP_UP]
    issued = LedgerEntry.objects.filter(account="bankroll", kind__in=kinds).aggregate(s=Sum("amount"))["s"] or 0
    return bankrolls + stacks + burned, issued


@pytest.mark.django_db
def test_chips_at_a_site_table_count_so_no_top_up(client) -> None:
    user = make_user("tessa")
    club_services.bankroll_to_table(user=user, amount=10_000, table_id=9_999)  # lost elsewhere
    table_id = _site_table()
    services.table_take_seat(table_id=table_id, user=user, buy_in=10_000)
    assert _bankroll(user) == 0

    assert club_services.bankroll_top_up(user=user) == 0
    assert _bankroll(user) == 0
    assert not LedgerEntry.objects.filter(user=user, kind=LedgerEntry.Kind.TOP_UP).exists()
    # Not even used up for the day: the top-up is still there once the chips are really gone.
    assert Profile.objects.get(user=user).last_top_up is None

    client.force_login(user)
    res = client.get(reverse("profile"))
    assert res.context["can_top_up"] is False
    assert "10,000 now" in res.content.decode()


@pytest.mark.django_db
def test_top_up_brings_bankroll_plus_site_stacks_to_the_level() -> None:
    user = make_user("tomas")
    club_services.bankroll_to_table(user=user, amount=17_000, table_id=9_999)
    table_id = _site_table()
    services.table_take_seat(table_id=table_id, user=user, buy_in=2_000)
    assert _bankroll(user) == 1_000

    assert club_services.bankroll_top_up(user=user) == TOP - 3_000
    assert _bankroll(user) == 3_000
    top_up = LedgerEntry.objects.get(user=user, kind=LedgerEntry.Kind.TOP_UP)
    assert (top_up.account, top_up.amount, top_up.balance_after) == ("bankroll", 2_000, 3_000)

    # Standing up returns the stack; every chip is accounted for on the ledger.
    services.table_leave_seat(table_id=table_id, user=user)
    assert _bankroll(user) == TOP
    held, issued = _held_and_issued(burned=17_000)
    assert held == issued
    bankroll_entries = LedgerEntry.objects.filter(user=user, account="bankroll").aggregate(s=Sum("amount"))["s"]
    assert bankroll_entries == TOP


@pytest.mark.django_db
def test_club_table_chips_do_not_count() -> None:
    people = club_with_people("tu", chips=10_000)
    club_table = services.table_create(
        creator=people.owner, name="Club night", small_blind=50, big_blind=100, club=people.club,
    )
    services.table_take_seat(table_id=club_table.id, user=people.member, buy_in=10_000)
    club_services.bankroll_to_table(user=people.member, amount=19_000, table_id=9_999)
    assert _bankroll(people.member) == 1_000

    assert club_services.bankroll_top_up(user=people.member) == TOP - 1_000
    assert _bankroll(people.member) == TOP


@pytest.mark.django_db
def test_next_day_counts_the_tables_again() -> None:
    user = make_user("tilda")
    club_services.bankroll_to_table(user=user, amount=16_000, table_id=9_999)
    assert club_services.bankroll_top_up(user=user) == 1_000  # 4,000 -> 5,000
    table_id = _site_table()
    services.table_take_seat(table_id=table_id, user=user, buy_in=4_500)
    tomorrow = Profile.objects.get(user=user).last_top_up + dt.timedelta(days=1)  # type: ignore[operator]
    assert club_services.bankroll_top_up(user=user, today=tomorrow) == 0  # 500 + 4,500 at the table


# ---------------------------------------------------------------------------------------------
# Races, on PostgreSQL's row locks (SQLite's IMMEDIATE transactions never interleave at all)

RACE = r"""
import json, threading, time
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Sum

from club import selectors, services as club_services
from club.models import LedgerEntry, Profile
from tables import services
from tables.models import Seat

out = {}


from tests.services import run_reporting as run


def user(name, burn):
    u = get_user_model().objects.create_user(username=name, password=None)
    club_services.profile_ensure(user=u)
    with transaction.atomic():
        club_services.bankroll_to_table(user=u, amount=burn, table_id=9999)
    return u


table_id = services.table_create(creator=None, name="Race", small_blind=50, big_blind=100).id

# 1. A sit-down has taken 4,000 of 5,000 from the bankroll and is still in its transaction when
#    the top-up starts: the top-up waits for it and then sees the stack (no top-up).
u1 = user("r1", 15_000)
real_to_table = club_services.bankroll_to_table
started = threading.Event()


def slow_to_table(**kw):
    real_to_table(**kw)
    started.set()
    time.sleep(1.0)  # holds the profile row while the top-up asks for it


club_services.bankroll_to_table = slow_to_table
res = {}
sit = threading.Thread(target=run, args=(lambda: services.table_take_seat(table_id=table_id, user=u1, buy_in=4_000).stack, res, "sit"))
sit.start()
started.wait(10)
club_services.bankroll_to_table = real_to_table
top = threading.Thread(target=run, args=(lambda: club_services.bankroll_top_up(user=u1), res, "top"))
top.start()
sit.join(); top.join()
out["sit_then_top"] = res

# 2. The top-up holds the profile row while the player stands up with 4,000: nothing is added
#    (1,000 + 4,000 at the table) and the stack comes back whole.
u2 = user("r2", 15_000)
services.table_take_seat(table_id=table_id, user=u2, buy_in=4_000)  # bankroll 5,000 -> 1,000
real_due = selectors.site_chips_at_tables
counted = threading.Event()


def slow_due(**kw):
    n = real_due(**kw)
    counted.set()
    time.sleep(1.0)
    return n


selectors.site_chips_at_tables = slow_due
res = {}
top = threading.Thread(target=run, args=(lambda: club_services.bankroll_top_up(user=u2), res, "top"))
top.start()
counted.wait(10)
selectors.site_chips_at_tables = real_due
leave = threading.Thread(target=run, args=(lambda: services.table_leave_seat(table_id=table_id, user=u2), res, "leave"))
leave.start()
top.join(); leave.join()
out["top_then_leave"] = res

out["bankrolls"] = {u.get_username(): Profile.objects.get(user=u).bankroll for u in (u1, u2)}
out["stacks"] = {s.user.get_username(): s.stack for s in Seat.objects.select_related("user")}
held = (Profile.objects.aggregate(s=Sum("bankroll"))["s"] or 0) + (Seat.objects.aggregate(s=Sum("stack"))["s"] or 0)
issued = LedgerEntry.objects.filter(account="bankroll", kind__in=["grant", "top_up"]).aggregate(s=Sum("amount"))["s"] or 0
out["held_plus_burned"] = held + 15_000 + 15_000
out["issued"] = issued
out["top_ups"] = LedgerEntry.objects.filter(kind="top_up").count()
print(json.dumps(out))
"""


@pytest.mark.services
def test_top_up_racing_a_sit_down_and_a_leave_on_postgresql() -> None:
    with fresh_postgres_database() as url:
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        env.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings", CELERY_EMBEDDED_WORKER="0")
        res = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=180)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["sit_then_top"] == {"sit": 4_000, "top": 0}
    assert out["top_then_leave"] == {"top": 0, "leave": None}
    assert out["bankrolls"] == {"r1": 1_000, "r2": 5_000}
    assert out["stacks"] == {"r1": 4_000}
    assert out["top_ups"] == 0
    assert out["held_plus_burned"] == out["issued"]

"""A member removed from a club (or leaving it) while sitting down at one of its tables ends up
with no seat: the sit-down that commits after the seats were settled is settled on a second pass.
On PostgreSQL, where two transactions really interleave (SQLite's IMMEDIATE transactions never
do)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.services import fresh_postgres_database

ROOT = Path(__file__).resolve().parent.parent.parent

RACE = r"""
import json, sys, threading, time
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)

from django.db.models import Sum

from club import services as club_services
from club.models import LedgerEntry, Membership
from tables import services
from tables.models import Seat
from tests.club.helpers import club_with_people

how = sys.argv[1]  # "remove" or "leave"
p = club_with_people("r", chips=5_000)
table_id = services.table_create(creator=p.host, name="Race", small_blind=5, big_blind=10, club=p.club).id

real = club_services.club_chips_to_table
holding = threading.Event()


def slow_buy_in(**kw):
    real(**kw)  # the membership row is locked from here to the sit-down's commit
    holding.set()
    time.sleep(1.0)


from tests.services import run_reporting as run


res = {}
club_services.club_chips_to_table = slow_buy_in
sit = threading.Thread(target=run, args=(lambda: services.table_take_seat(table_id=table_id, user=p.member, buy_in=500).stack, res, "sit"))
sit.start()
holding.wait(10)
club_services.club_chips_to_table = real
if how == "remove":
    step = lambda: club_services.club_remove_member(club=p.club, by=p.host, user=p.member)
else:
    step = lambda: club_services.club_leave(club=p.club, user=p.member)
out_thread = threading.Thread(target=run, args=(step, res, "out"))
out_thread.start()
sit.join(); out_thread.join()

m = Membership.objects.get(club=p.club, user=p.member)
chips = LedgerEntry.objects.filter(club=p.club)
print(json.dumps({
    "results": res,
    "seats": Seat.objects.filter(user=p.member).count(),
    "active": m.active,
    "balance": m.balance,
    "club_entries_sum": chips.filter(account="club").aggregate(s=Sum("amount"))["s"],
}))
"""


@pytest.mark.services
@pytest.mark.parametrize("how", ["remove", "leave"])
def test_a_member_who_sits_down_while_being_removed_keeps_no_seat(how: str) -> None:
    with fresh_postgres_database() as url:
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        env.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings", CELERY_EMBEDDED_WORKER="0")
        res = subprocess.run([sys.executable, "-c", RACE, how], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=180)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["results"] == {"sit": 500, "out": None}, out
    assert out["seats"] == 0 and out["active"] is False
    # The buy-in went back: the whole grant is on the (inactive) membership.
    assert out["balance"] == 5_000

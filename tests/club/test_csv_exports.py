"""Spreadsheet downloads: a table's ledger, a club session's results and a club's chip
statement, as CSV files that open right in a spreadsheet (UTF-8 with a BOM, headers in the
reader's language, plain numbers that sum) and never carry a formula; for those who may see the
page they come from, and nobody else."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client
from django.utils import timezone

from club import services as club_services
from club.csvfile import cell, filename
from club.models import Profile
from club.selectors import display_name
from tables import selectors, services
from tests.club.helpers import club_with_people, make_user
from tests.tables.helpers import play_passively, seated_table

pytestmark = pytest.mark.django_db


def _client(user=None, lang: str | None = None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    if lang:
        c.cookies["lang"] = lang
    return c


def _rows(res) -> list[list[str]]:
    assert res.status_code == 200
    assert res["Content-Type"] == "text/csv; charset=utf-8"
    assert res["Content-Disposition"].startswith("attachment;")
    body = res.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


def _next_hand(table) -> None:
    finished = play_passively(table)
    if finished.deadline is not None:
        services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()


def test_cells_that_a_spreadsheet_would_run_are_written_as_text() -> None:
    for evil in ("=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"):
        assert cell(evil) == "'" + evil
    assert cell("Dana") == "Dana" and cell("a=b") == "a=b"
    assert cell(-40) == -40 and cell(0) == 0 and cell(None) == ""
    assert filename("Ledger", "Friday / game!", "2026-12-02") == "ledger-friday-game-2026-12-02.csv"
    assert filename("Леджер", "שולחן") == "леджер-שולחן.csv"
    assert filename("", "!!") == "export.csv"


def test_a_tables_ledger_downloads_with_the_rake_so_the_nets_sum_to_zero() -> None:
    table, users = seated_table(n=3, buy_in=1000, small_blind=10, big_blind=20)  # raked
    Profile.objects.filter(user=users[0]).update(display_name="=cmd|' /C calc'!A0")
    for _ in range(3):
        _next_hand(table)
    ledger = selectors.table_ledger(table=table)
    rows = _rows(_client(users[1]).get(f"/tables/{table.id}/ledger.csv"))
    assert rows[0] == ["Player", "Net", "Bought in", "Took away", "On the table"]
    body = rows[1:]
    players = body[:-1] if ledger["rake"] else body
    assert len(players) == 3
    assert [int(r[1]) for r in players] == [r["net"] for r in ledger["rows"]]
    assert all(int(r[2]) == 1000 for r in players)
    assert [r[0] for r in players if "calc" in r[0]] == ["'=cmd|' /C calc'!A0"]
    assert ledger["rake"] > 0 and body[-1][:2] == ["Rake", str(ledger["rake"])]
    assert sum(int(r[1]) for r in body) == 0
    # In Hebrew, the headers are.
    he = _rows(_client(users[1], "he").get(f"/tables/{table.id}/ledger.csv"))
    assert he[0][0] != "Player" and len(he[0]) == 5
    # The ledger page links the file.
    page = _client(users[1]).get(f"/tables/{table.id}/ledger/").content.decode()
    assert f'href="/tables/{table.id}/ledger.csv"' in page


def test_a_private_tables_ledger_file_is_for_those_who_may_watch_it() -> None:
    host = make_user("csvhost")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, is_public=False)
    services.table_take_seat(table_id=table.id, user=host, buy_in=500)
    assert _client(make_user("csvstranger")).get(f"/tables/{table.id}/ledger.csv").status_code == 404
    assert _client().get(f"/tables/{table.id}/ledger.csv").status_code == 404
    rows = _rows(_client(host).get(f"/tables/{table.id}/ledger.csv"))
    assert rows[1] == [display_name(host), "0", "500", "0", "500"]
    assert _client(host).get("/tables/999999/ledger.csv").status_code == 404


def _club_night(p):
    session = club_services.club_session_start(club=p.club, by=p.host)
    t = services.table_create(creator=p.host, name="Back room", small_blind=100, big_blind=200, max_seats=3, club=p.club)
    services.table_pause(table_id=t.id, now=True)
    for u in (p.owner, p.host, p.member):
        services.table_take_seat(table_id=t.id, user=u, buy_in=4000)
    services.table_resume(table_id=t.id)
    t.refresh_from_db()
    for _ in range(2):
        play_passively(t)
        services.table_expire(table_id=t.id, now=timezone.now() + dt.timedelta(seconds=60))
        t.refresh_from_db()
    return session


def test_a_sessions_results_download_for_members_only() -> None:
    p = club_with_people("csv1", chips=10_000)
    session = _club_night(p)
    url = f"/clubs/{p.club.pk}/sessions/{session.pk}/results.csv"
    rows = _rows(_client(p.member).get(url))
    assert rows[0] == ["Place", "Player", "Net", "Hands", "Pots won", "Biggest pot", "Boards won", "Scoops"]
    assert len(rows) == 4 and sum(int(r[2]) for r in rows[1:]) == 0
    assert all(r[3] == "2" for r in rows[1:])
    assert [int(r[0]) for r in rows[1:]] == sorted(int(r[0]) for r in rows[1:])
    assert _client(p.outsider).get(url).status_code in (403, 404)
    assert _client().get(url).status_code == 302  # to the login page
    assert _client(p.member).get(f"/clubs/{p.club.pk}/sessions/999999/results.csv").status_code == 404
    other = club_with_people("csv2")
    assert _client(other.owner).get(url).status_code in (403, 404)
    page = _client(p.member).get(f"/clubs/{p.club.pk}/sessions/{session.pk}/").content.decode()
    assert url in page


def test_the_club_statement_downloads_whole_own_rows_for_members_everyones_for_hosts() -> None:
    p = club_with_people("csv3", chips=1000)
    for i in range(205):  # more than the page's 200
        club_services.club_chips_grant(club=p.club, by=p.owner, user=p.member, amount=1, reason=f"grant {i}")
    url = f"/clubs/{p.club.pk}/ledger.csv"
    mine = _rows(_client(p.member).get(url))
    assert mine[0] == ["When", "Member", "What", "Table", "Note", "Chips", "Balance"]
    assert len(mine) == 1 + 206 and {r[1] for r in mine[1:]} == {display_name(p.member)}
    assert [int(r[6]) for r in mine[1:]] == list(range(1000, 1206))  # oldest first, balances in step
    assert mine[-1][4] == "grant 204"
    hosts = _rows(_client(p.host).get(url))
    assert len(hosts) == 1 + 3 + 205
    one = _rows(_client(p.host).get(f"{url}?member={p.owner.pk}"))
    assert {r[1] for r in one[1:]} == {display_name(p.owner)}
    # A buy-in's row names its table as the page does (found by an audit: it gave the id).
    from tables import services as table_services

    table = table_services.table_create(creator=p.host, name="Friday NLH", small_blind=5, big_blind=10, club=p.club)
    table_services.table_take_seat(table_id=table.id, user=p.member, buy_in=400)
    assert _rows(_client(p.member).get(url))[-1][3] == "Friday NLH"
    assert _client(p.outsider).get(url).status_code in (403, 404)
    page = _client(p.member).get(f"/clubs/{p.club.pk}/ledger/").content.decode()
    assert f'href="{url}"' in page and "the file has them all" in page

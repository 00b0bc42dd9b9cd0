"""A player's own hands at every table ("Your hands", linked from the account page): newest first,
each with its table, its game when they differ, a link to the hand's page and the player's own
result; nobody else's hands; a page of 50 at a time; for the logged-in player only."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from tables import services, views_hands
from tables.models import Hand, Seat
from tests.tables.helpers import make_user, play_passively, seated_table

pytestmark = pytest.mark.django_db


def _play(table, hands: int) -> list[Hand]:
    played = []
    for _ in range(hands):
        finished = play_passively(table)
        played.append(finished)
        if finished.deadline is not None:  # the showdown pause runs out: the next hand is dealt
            services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
        table.refresh_from_db()
    return played


def _rows(html: str) -> list[tuple[str, str]]:
    """(table id-hand number, result as shown) for each line of the list."""
    return re.findall(r'<tr data-hand="(\d+-\d+)">.*?<td class="num-col">(?:<bdi[^>]*>([^<]*)</bdi>)?</td>', html, re.S)


def test_a_player_reads_their_hands_at_every_table_with_their_own_results(client: Client) -> None:
    holdem, users = seated_table(n=3, game="NT")
    me = users[0]
    pp, others = seated_table(n=2, game="PP")
    services.table_take_seat(table_id=pp.id, user=me, buy_in=1000)  # joins the next hand
    stranger_table, _strangers = seated_table(n=2, game="NT")  # never sat there
    played = _play(holdem, 2) + _play(pp, 2) + _play(stranger_table, 1)
    mine = [h for h in played if any(int(p[1]) == me.pk for p in h.players)]
    assert len(mine) >= 3  # both Hold'em hands, and Patch-Patch once dealt in

    client.force_login(me)
    html = client.get("/accounts/me/hands/").content.decode()
    rows = _rows(html)
    expected = sorted(mine, key=lambda h: (h.ended, h.id), reverse=True)
    assert [key for key, _net in rows] == [f"{h.table_id}-{h.number}" for h in expected]
    for (_key, shown), h in zip(rows, expected, strict=True):
        h.refresh_from_db()
        i = next(i for i, p in enumerate(h.players) if int(p[1]) == me.pk)
        net = h.result["net"][i]
        assert shown == (f"+{net:,}" if net > 0 else "±0" if net == 0 else f"{net:,}")
        assert f'href="/tables/{h.table_id}/hands/{h.number}/"' in html
    assert f"{len(mine)} hands played" in html
    # Two games: a Game column names each hand's.
    assert '<th scope="col" class="statement__more">Game</th>' in html
    games = re.findall(r'<tr data-hand="(\d+)-\d+">.*?<td class="statement__more">([^<]*)</td>\s*<td class="num-col">', html, re.S)
    assert games == [(str(h.table_id), "Patch-Patch" if h.table_id == pp.id else "No-limit Hold&#x27;em") for h in expected]
    assert f"/tables/{stranger_table.id}/" not in html

    # The account page links it; a newcomer reads that they have played nothing yet.
    account = client.get("/accounts/me/").content.decode()
    assert 'href="/accounts/me/hands/"' in account
    # A buy-in names its table by its name, linked (it said "table 13" before an audit).
    assert f'href="/tables/{holdem.id}/"><bdi>{holdem.name}</bdi></a>' in account
    client.force_login(make_user("newcomer"))
    page = client.get("/accounts/me/hands/").content.decode()
    assert "You have not played a hand yet." in page and "<tr data-hand" not in page


def test_the_list_comes_a_page_at_a_time_and_is_for_the_player_only(client: Client, monkeypatch) -> None:
    table, users = seated_table(n=2, game="NT")
    _play(table, 3)
    assert client.get("/accounts/me/hands/").status_code == 302  # log in first
    monkeypatch.setattr(views_hands, "HANDS_PER_PAGE", 2)
    client.force_login(users[1])
    first = client.get("/accounts/me/hands/").content.decode()
    second = client.get("/accounts/me/hands/?page=2").content.decode()
    assert [k for k, _ in _rows(first)] == [f"{table.id}-3", f"{table.id}-2"]
    assert [k for k, _ in _rows(second)] == [f"{table.id}-1"]
    assert 'href="?page=2" rel="next"' in first and 'href="?page=1" rel="prev"' in second
    assert "Page 1 of 2" in first
    # A page that is not a number, or past the end, shows a page that exists: nothing breaks.
    assert _rows(client.get("/accounts/me/hands/?page=abc").content.decode()) == _rows(first)
    assert _rows(client.get("/accounts/me/hands/?page=99").content.decode()) == _rows(second)


def test_baseball_hands_show_their_exact_units(client: Client) -> None:
    table, users = seated_table(n=3, game="BB")
    (hand,) = _play(table, 1)
    hand.refresh_from_db()
    client.force_login(users[0])
    rows = _rows(client.get("/accounts/me/hands/").content.decode())
    assert [k for k, _ in rows] == [f"{table.id}-{hand.number}"]
    i = next(i for i, p in enumerate(hand.players) if int(p[1]) == users[0].pk)
    shown = hand.result["net_display"][i]
    assert rows[0][1].lstrip("+±") == shown.lstrip("+")


def test_a_player_who_lost_sight_of_a_private_table_still_reads_their_own_hands(client: Client) -> None:
    table, users = seated_table(n=3, game="NT", is_public=False)
    me = users[0]
    first, second = _play(table, 2)
    services.table_leave_seat(table_id=table.id, user=me)  # a private table: now a stranger to it
    play_passively(table)  # the hand being played when they stood up ends: their seat goes
    assert not Seat.objects.filter(table=table, user=me).exists()
    client.force_login(me)
    assert client.get(f"/tables/{table.id}/").status_code == 404
    page = client.get(f"/tables/{table.id}/hands/{first.number}/")
    assert page.status_code == 200
    html = page.content.decode()
    # No way on to what is no longer theirs: the table, the hands before and after.
    assert f'href="/tables/{table.id}/"' not in html
    assert f"/tables/{table.id}/hands/{second.number}/" not in html
    assert 'href="/accounts/me/hands/"' in html
    assert client.get(f"/tables/{table.id}/hands/{first.number}.phh").status_code == 200
    listing = client.get("/accounts/me/hands/").content.decode()
    assert f'href="/tables/{table.id}/hands/{first.number}/"' in listing
    assert f'href="/tables/{table.id}/"' not in listing  # the table named, not linked
    # A player still seated there gets the table's links; a stranger gets nothing.
    client.force_login(users[1])
    html = client.get(f"/tables/{table.id}/hands/{first.number}/").content.decode()
    assert f'href="/tables/{table.id}/"' in html and f"/tables/{table.id}/hands/{second.number}/" in html
    client.force_login(make_user("outsider"))
    assert client.get(f"/tables/{table.id}/hands/{first.number}/").status_code == 404
    assert client.get(f"/tables/{table.id}/hands/{first.number}.phh").status_code == 404


def test_the_hands_add_up_by_game_and_one_game_can_be_picked(client: Client) -> None:
    holdem, users = seated_table(n=3, game="NT")
    me = users[0]
    pp, _others = seated_table(n=2, game="PP")
    services.table_take_seat(table_id=pp.id, user=me, buy_in=1000)
    played = _play(holdem, 2) + _play(pp, 2)
    mine = [h for h in played if any(int(p[1]) == me.pk for p in h.players)]
    client.force_login(me)
    html = client.get("/accounts/me/hands/").content.decode()
    for game in ("NT", "PP"):
        hands = [h for h in mine if h.game == game]
        for h in hands:
            h.refresh_from_db()
        nets = [h.result["net"][next(i for i, p in enumerate(h.players) if int(p[1]) == me.pk)] for h in hands]
        row = html.split(f'<tr data-game="{game}"', 1)[1].split("</tr>", 1)[0]
        cells = re.findall(r'<span class="num">(\d+)</span>', row)
        assert cells == [str(len(hands)), str(sum(1 for n in nets if n > 0))]
        total = sum(nets)
        assert (f"+{total:,}" if total > 0 else f"{total:,}") in row
    # One game picked: only its hands, the table marks it, the pages keep it.
    picked = client.get("/accounts/me/hands/?game=PP").content.decode()
    assert {key for key, _ in _rows(picked)} == {f"{h.table_id}-{h.number}" for h in mine if h.game == "PP"}
    assert '<tr data-game="PP" class="is-me">' in picked and "Every game" in picked
    # A game never played, or nonsense: every hand.
    for bad in ("F7S", "<script>", "x" * 300):
        every = client.get("/accounts/me/hands/", {"game": bad}).content.decode()
        assert len(_rows(every)) == len(mine) and "Every game" not in every

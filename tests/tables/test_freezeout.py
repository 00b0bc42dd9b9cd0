"""A freeze-out (tables.freezeout): a host starts it between hands; no chips are added and nobody
new sits down; a player whose chips run out is out with a place (several in one hand placed by
the stacks they started it with); standing up with chips is out below the others, chips taken
along; the last player with chips wins, the table pauses and the blinds go back to the start."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.db.models import Sum
from django.test import Client

from club.models import Profile
from tables import freezeout, hosting, selectors, services
from tables.fragment import render_table
from tables.models import Hand, Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, play_passively, user_for_index

pytestmark = pytest.mark.django_db


def _kitchen(stacks: tuple[int, ...] = (1000, 1000, 1000), game: str = "NT") -> tuple[Table, list[Any]]:
    """A private table, paused, its host first among the players seated with ``stacks``."""
    users = [make_user(f"fo{i}-{random.randrange(10**9)}") for i in range(len(stacks))]
    table = services.table_create(creator=users[0], name="Kitchen", small_blind=5, big_blind=10,
                                  max_seats=max(2, len(stacks)), is_public=False, game=game)
    services.table_pause(table_id=table.id, now=True)
    for u, stack in zip(users, stacks, strict=True):
        services.table_take_seat(table_id=table.id, user=u, buy_in=stack)
    table.refresh_from_db()
    return table, users


def _chips(users: list[Any], table: Table) -> int:
    """Every chip these players own: their bankrolls and what is on the table."""
    bank = Profile.objects.filter(user__in=users).aggregate(s=Sum("bankroll"))["s"] or 0
    return int(bank) + int(Seat.objects.filter(table=table).aggregate(s=Sum("stack"))["s"] or 0)


def _shove_hand(table: Table) -> Hand:
    """Everyone all in (the biggest bet or raise offered, else a call or check; a Patch-Patch
    arrangement as dealt) to the hand's end."""
    hand, state = current_state(table)
    number = hand.number
    for _ in range(60):
        table.refresh_from_db()
        hand, state = current_state(table)
        if hand.number != number or hand.ended is not None or not state.actors():
            return Hand.objects.get(table=table, number=number)
        idx = state.actors()[0]
        legal = {a.kind: a for a in state.legal_actions(idx)}
        message: dict[str, Any] = {"version": table.version}
        if "done" in legal:  # Patch-Patch: the arrangement as dealt
            message["action"] = "done"
            services.table_act(table_id=table.id, user=user_for_index(hand, idx), message=message)
            continue
        for kind in ("raise", "bet", "raise_pot", "bet_pot"):
            if kind in legal:
                offer = legal[kind].to_json()
                message.update(action=kind, amount=offer.get("max_amount", offer["amount"]))
                break
        else:
            message["action"] = "call" if "call" in legal else "check"
        services.table_act(table_id=table.id, user=user_for_index(hand, idx), message=message)
    raise AssertionError("the hand did not end")


def _shove_to_the_end(table: Table, holds: Any) -> None:
    """All-in hands, one after another, until the freeze-out is won; ``holds()`` is checked
    after every hand."""
    for _ in range(40):
        _shove_hand(table)
        assert holds()
        table.refresh_from_db()
        if not freezeout.running(table):
            return
        assert _next_deal(table)
    raise AssertionError("the freeze-out did not end")


def _next_deal(table: Table) -> bool:
    """Let the showdown pause run out; True when a new hand was dealt."""
    last = Hand.objects.filter(table=table).order_by("-number").first()
    assert last is not None and last.deadline is not None
    services.table_expire(table_id=table.id, now=last.deadline + dt.timedelta(seconds=1))
    latest = Hand.objects.filter(table=table).order_by("-number").first()
    return latest is not None and latest.number == last.number + 1


def _html(table: Table, viewer: Any = None) -> str:
    return str(render_table(selectors.table_context(table_id=table.id, user=viewer)))


def test_the_modules_examples_hold() -> None:
    import doctest

    assert doctest.testmod(freezeout).failed == 0


def test_a_freezeout_is_started_by_a_host_between_hands_with_two_players_holding_chips() -> None:
    table, (host, friend, third) = _kitchen()
    with pytest.raises(TableError, match="whoever opened"):
        hosting.table_host_freezeout(table_id=table.id, by=friend, minutes=10)
    for bad in (7, -1, "10", None, True):
        with pytest.raises(TableError, match="how often"):
            hosting.table_host_freezeout(table_id=table.id, by=host, minutes=bad)
    with pytest.raises(TableError, match="No freeze-out"):
        hosting.table_host_freezeout(table_id=table.id, by=host, minutes=0)
    table.refresh_from_db()
    assert table.freezeout is None and table.level == 0
    # A hand being played: not now.
    services.table_resume(table_id=table.id)
    with pytest.raises(TableError, match="between hands"):
        hosting.table_host_freezeout(table_id=table.id, by=host, minutes=10)
    table.refresh_from_db()
    assert table.freezeout is None

    lonely, (alone,) = _kitchen((500,))
    with pytest.raises(TableError, match="two players"):
        hosting.table_host_freezeout(table_id=lonely.id, by=alone, minutes=10)

    kitchen, players = _kitchen()
    version = kitchen.version
    assert hosting.table_host_freezeout(table_id=kitchen.id, by=players[0], minutes=10) == "started"
    kitchen.refresh_from_db()
    assert kitchen.version == version + 1
    assert freezeout.running(kitchen) and [e[0] for e in kitchen.freezeout["entrants"]] == [u.pk for u in players]
    assert (kitchen.level, kitchen.level_minutes, kitchen.level_left_s) == (1, 10, 600)  # waits for the deal
    with pytest.raises(TableError, match="already"):
        hosting.table_host_freezeout(table_id=kitchen.id, by=players[0], minutes=10)
    assert "Freeze-out: 3 of 3 players left" in _html(kitchen, players[1])


def test_no_chips_are_added_and_nobody_new_sits_down_until_it_is_called_off() -> None:
    table, users = _kitchen((1000, 600, 1000))
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=10)
    newcomer = make_user("fo-newcomer")
    before = _chips([*users, newcomer], table)
    with pytest.raises(TableError, match="during a freeze-out"):
        services.table_add_chips(table_id=table.id, user=users[1], amount=100)
    Table.objects.filter(pk=table.pk).update(max_seats=4)
    with pytest.raises(TableError, match="new players join the next one"):
        services.table_take_seat(table_id=table.id, user=newcomer, buy_in=500)
    assert _chips([*users, newcomer], table) == before
    assert Seat.objects.get(table=table, user=users[1]).stack == 600
    assert hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=0) == "called off"
    table.refresh_from_db()
    assert table.freezeout is None and table.level == 1  # the blinds' clock keeps going
    assert services.table_add_chips(table_id=table.id, user=users[1], amount=100) == 700
    assert "Freeze-out" not in _html(table, users[0])


def test_a_freezeout_plays_to_one_winner_who_holds_every_chip() -> None:
    table, users = _kitchen((1000, 700, 400))
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=20)
    chips = _chips(users, table)
    services.table_resume(table_id=table.id)
    _shove_to_the_end(table, lambda: _chips(users, table) == chips)  # nothing made or lost, hand by hand
    seats = list(Seat.objects.filter(table=table))
    assert len(seats) == 1 and seats[0].stack == 2100  # the winner holds every chip; the others stood up
    places = {row[0]: row[2] for row in table.freezeout["out"]}
    assert places[seats[0].user_id] == 1 and sorted(places) == sorted(u.pk for u in users)
    assert sorted(places.values())[0] == 1 and max(places.values()) <= 3
    assert not any(row[3] for row in table.freezeout["out"])  # nobody stood up with chips
    # Over: the table pauses, the clock stops, the blinds are back where the freeze-out began.
    assert table.status == Table.Status.PAUSED
    assert (table.level, table.small_blind, table.big_blind) == (0, 5, 10)
    html = _html(table, users[1])
    assert "Freeze-out over" in html and 'class="freezeout__places"' in html
    winner_name = next(row[1] for row in table.freezeout["out"] if row[2] == 1)
    assert f'<li value="1"><bdi>{winner_name}</bdi></li>' in html
    # The showdown's pause runs out on the paused table: the places stay.
    assert not _next_deal(table)
    table.refresh_from_db()
    assert "Freeze-out over" in _html(table, users[1])
    # The result is kept, with every place, and the table's ledger page shows it.
    from tables.models import FreezeoutResult

    kept = FreezeoutResult.objects.get(table=table)
    assert kept.entrants == 3 and [p[2] for p in kept.places][0] == 1
    assert sorted(p[0] for p in kept.places) == sorted(u.pk for u in users)
    watcher = Client()
    watcher.force_login(users[0])  # the host, whose private table it is
    ledger = watcher.get(f"/tables/{table.id}/ledger/").content.decode()
    assert 'id="freezeouts"' in ledger and f'<li value="1"><bdi>{winner_name}</bdi></li>' in ledger
    # Chips may be added again; the places stay on the felt until the next hand is dealt.
    loser = next(u for u in users if u.pk != seats[0].user_id)
    services.table_take_seat(table_id=table.id, user=loser, buy_in=500)
    assert "Freeze-out over" in _html(table, users[1])
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    assert current_state(table)[0].ended is None  # a new hand: the places are gone from the felt
    assert "Freeze-out over" not in _html(table, users[1])


def _seeded(seed: int) -> Any:
    return lambda: random.Random(seed)


def test_players_out_in_the_same_hand_are_placed_by_the_stacks_they_started_it_with(monkeypatch: Any) -> None:
    # A shuffle fixed by a seed (the same every run): the first seed whose first all-in hand the
    # biggest stack wins outright, so both others are out in it.
    for seed in range(200):
        monkeypatch.setattr(services.secrets, "SystemRandom", _seeded(seed))
        table, users = _kitchen((1000, 600, 300))
        hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=30)
        services.table_resume(table_id=table.id)
        _shove_hand(table)
        table.refresh_from_db()
        if not freezeout.running(table) and Seat.objects.filter(table=table).count() == 1 \
                and Seat.objects.get(table=table).user_id == users[0].pk:
            break
    else:
        raise AssertionError("no seed made the biggest stack win the first hand")
    places = {row[0]: (row[2], row[3]) for row in table.freezeout["out"]}
    assert places == {users[0].pk: (1, False), users[1].pk: (2, False), users[2].pk: (3, False)}
    assert freezeout.standings(table.freezeout)[1][0] == 2
    # Their seats went back as the hand settled, yet the finished hand stays on the felt with
    # them in it: their names and the cards they were beaten with (found by an audit).
    hand, state = current_state(table)
    for viewer in (users[0], users[1], None):
        html = _html(table, viewer)
        assert 'data-seat="' not in html  # no seat drawn empty while the hand is on the felt
        for i in (1, 2):
            row = html[html.index(f'data-user="{users[i].pk}"'):]
            row = row[:row.find('<li class="seat', 1) if '<li class="seat' in row else row.index('</ol>')]
            assert users[i].username in row and "out of chips" in row, row
            for card in state.view_for(None)["players"][i]["cards"]:
                assert f'data-card="{card}"' in row, (card, row)


def test_standing_up_with_chips_is_out_below_the_others_and_the_chips_go_home() -> None:
    table, users = _kitchen((1000, 800, 600))
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=15)
    bank = int(Profile.objects.get(user=users[2]).bankroll)
    services.table_leave_seat(table_id=table.id, user=users[2])
    assert int(Profile.objects.get(user=users[2]).bankroll) == bank + 600
    table.refresh_from_db()
    assert freezeout.running(table) and table.freezeout["out"] == [[users[2].pk, table.freezeout["entrants"][2][1], 3, True]]
    assert "Freeze-out: 2 of 3 players left" in _html(table, users[0])
    # The host stands the second player up: one player holds chips, and wins.
    hosting.table_host_stand_up(table_id=table.id, by=users[0], user_id=users[1].pk)
    table.refresh_from_db()
    assert not freezeout.running(table)
    assert [(p, gone) for p, _n, gone in freezeout.standings(table.freezeout)] == [(1, False), (2, True), (3, True)]
    assert table.status == Table.Status.PAUSED and table.level == 0
    assert "stood up" in _html(table, users[0])


def test_a_player_leaving_during_a_hand_is_placed_when_it_ends() -> None:
    table, users = _kitchen((1000, 1000, 1000))
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=15)
    services.table_resume(table_id=table.id)
    hand, _state = current_state(table)
    leaver = users[1]
    services.table_leave_seat(table_id=table.id, user=leaver)
    play_passively(table)
    table.refresh_from_db()
    assert not Seat.objects.filter(table=table, user=leaver).exists()
    out = {row[0]: (row[2], row[3]) for row in table.freezeout["out"]}
    assert out == {leaver.pk: (3, True)} and freezeout.running(table)


def test_the_host_panel_starts_and_calls_off_a_freezeout() -> None:
    table, users = _kitchen()
    host, friend = users[0], users[1]
    c = Client()
    c.force_login(host)
    page = c.get(f"/tables/{table.id}/").content.decode()
    assert f'action="/tables/{table.id}/host/freezeout/"' in page and "Start a freeze-out" in page
    res = c.post(f"/tables/{table.id}/host/freezeout/", {"minutes": "often"}, follow=True)
    assert "how often" in res.content.decode()
    table.refresh_from_db()
    assert table.freezeout is None
    other = Client()
    other.force_login(friend)
    other.post(f"/tables/{table.id}/host/freezeout/", {"minutes": "10"})
    table.refresh_from_db()
    assert table.freezeout is None  # not their table to host
    res = c.post(f"/tables/{table.id}/host/freezeout/", {"minutes": "10"}, follow=True)
    assert "The freeze-out is on" in res.content.decode() and "Call it off" in res.content.decode()
    table.refresh_from_db()
    assert freezeout.running(table) and table.level_minutes == 10
    friend_page = other.get(f"/tables/{table.id}/").content.decode()
    # "Add chips" is drawn hidden (the page's script shows it again when the freeze-out ends) and
    # the line saying why is shown.
    assert f'action="/tables/{table.id}/add-chips/" hidden>' in friend_page
    assert '<p class="muted" data-freezeout-note>No chips are added during a freeze-out' in friend_page
    watcher = Client()
    watcher.force_login(make_user("fo-watcher"))
    Table.objects.filter(pk=table.pk).update(max_seats=4)
    assert "new players join the next one" in watcher.get(f"/tables/{table.id}/?invite={table.invite_code}", follow=True).content.decode()
    res = other.post(f"/tables/{table.id}/add-chips/", {"amount": "100"}, follow=True)
    assert Seat.objects.get(table=table, user=friend).stack == 1000
    c.post(f"/tables/{table.id}/host/freezeout/", {"minutes": "0"})
    table.refresh_from_db()
    assert table.freezeout is None


def test_the_freezeout_lines_are_in_every_language() -> None:
    from django.utils import translation

    table, users = _kitchen()
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=10)
    table.refresh_from_db()
    english = _html(table, users[1])
    for lang in ("he", "ru"):
        with translation.override(lang):
            html = _html(table, users[1])
        line = html.split('<p class="freezeout">', 1)[1].split("</p>", 1)[0]
        assert line not in english and "3" in line


def test_a_club_freezeout_keeps_the_club_chips_whole_and_refuses_seat_requests() -> None:
    from tests.club.helpers import balance, club_with_people

    people = club_with_people("fo", chips=5000)
    club = people.club
    table = services.table_create(creator=people.host, club=club, name="Back room", small_blind=5, big_blind=10,
                                  max_seats=3, game="NT")
    services.table_pause(table_id=table.id, now=True)
    players = [people.owner, people.host, people.member]
    for u, stack in zip(players, (1000, 500, 300), strict=True):
        services.table_take_seat(table_id=table.id, user=u, buy_in=stack)
    with pytest.raises(TableError, match="club"):
        hosting.table_host_freezeout(table_id=table.id, by=people.member, minutes=10)  # not a host
    hosting.table_host_freezeout(table_id=table.id, by=people.host, minutes=10)
    member = Client()
    member.force_login(people.member)
    assert "freeze-out under way" in member.get(f"/clubs/{club.id}/").content.decode()

    def whole() -> int:
        return sum(balance(club, u) for u in players) + int(Seat.objects.filter(table=table).aggregate(s=Sum("stack"))["s"] or 0)

    total = whole()
    Table.objects.filter(pk=table.pk).update(seat_approval=True)
    with pytest.raises(TableError, match="new players join the next one"):
        hosting.table_seat_request(table_id=table.id, user=people.outsider, buy_in=500)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    _shove_to_the_end(table, lambda: whole() == total)
    assert Seat.objects.filter(table=table).count() == 1 and whole() == total
    assert sorted(row[2] for row in table.freezeout["out"])[0] == 1
    # The places are kept (a next freeze-out does not overwrite them) and the club's page lists them.
    winner = next(row[1] for row in table.freezeout["out"] if row[2] == 1)
    page = member.get(f"/clubs/{club.id}/").content.decode()
    assert 'id="freezeouts"' in page and f'<li value="1"><bdi>{winner}</bdi></li>' in page and "Back room" in page


def test_a_player_out_is_told_their_place(monkeypatch: Any, django_capture_on_commit_callbacks: Any) -> None:
    from tables import live

    told: list[tuple[int, int | None]] = []
    monkeypatch.setattr(live, "broadcast_access_changed",
                        lambda table_id, user_id, out_place=None, **kw: told.append((user_id, out_place)))
    table, users = _kitchen((1000, 600, 300))
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=30)
    services.table_resume(table_id=table.id)
    for _ in range(40):
        with django_capture_on_commit_callbacks(execute=True):
            _shove_hand(table)
        table.refresh_from_db()
        if table.freezeout["out"] or not _next_deal(table):
            break
    out = {row[0]: row[2] for row in table.freezeout["out"] if row[2] != 1}
    assert out and dict(told) == out
    # While the freeze-out goes on, the felt keeps telling a player who is out their place (found
    # by an audit: the note went away, and a reload said only "Sit down again"); not the others.
    if freezeout.running(table):
        loser = next(u for u in users if u.pk in out)
        assert f"you are out: place {out[loser.pk]} of 3" in _html(table, loser)
        holder = next(u for u in users if u.pk not in out)
        assert "you are out" not in _html(table, holder) and "you are out" not in _html(table, None)


@pytest.mark.django_db(transaction=True)
async def test_the_page_of_a_player_out_says_their_place_in_their_language() -> None:
    import json

    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tables import live
    from tests.tables.test_consumers import _cookie_for, _next_state

    table, users = await database_sync_to_async(_kitchen)()
    cookie = await database_sync_to_async(_cookie_for)(users[2])
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.id}/", headers=[
        (b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie), (b"accept-language", b"ru")])
    connected, _ = await comm.connect()
    assert connected
    await _next_state(comm)
    await database_sync_to_async(live.broadcast_access_changed)(table.id, users[2].pk, out_place=3)
    while True:
        msg = json.loads(await comm.receive_from(timeout=3))
        if msg["type"] == "error":
            break
    assert "3-е место" in msg["message"]
    await comm.disconnect()


def test_a_player_on_a_break_is_dealt_in_and_blinded_away() -> None:
    table, users = _kitchen((1000, 1000, 1000))
    Seat.objects.filter(table=table, user=users[2]).update(wait_bb=True)  # owed nothing once it starts
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=15)
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=users[2], message={"action": "sit_out", "version": table.version})
    assert Seat.objects.get(table=table, user=users[2]).sitting_out
    chips = _chips(users, table)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    away_seat = Seat.objects.get(table=table, user=users[2]).seat_no
    paid = []
    for _ in range(3):  # three hands: the blinds reach the player away
        hand, state = current_state(table)
        idx = next(i for i, p in enumerate(hand.players) if p[0] == away_seat)
        assert hand.leavers == [idx]
        assert idx not in state.actors()  # never waited for: their turns are played at once
        play_passively(table)
        hand, state = current_state(table)
        assert _chips(users, table) == chips
        paid.append(state.view_for(None)["players"][idx]["contributed"])
        assert _next_deal(table)
        table.refresh_from_db()
    assert any(paid)  # blinded (a check at most where the big blind may check), never waited for

    # With nobody playing (everyone on a break), no hand is dealt.
    lonely, pair = _kitchen((500, 500))
    hosting.table_host_freezeout(table_id=lonely.id, by=pair[0], minutes=15)
    for u in pair:
        lonely.refresh_from_db()
        services.table_act(table_id=lonely.id, user=u, message={"action": "sit_out", "version": lonely.version})
    services.table_resume(table_id=lonely.id)
    assert not Hand.objects.filter(table=lonely).exists()


def test_closing_the_table_calls_a_freezeout_off_and_returns_every_stack() -> None:
    table, users = _kitchen((1000, 800))
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=10)
    chips = _chips(users, table)
    hosting.table_host_close(table_id=table.id, by=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.freezeout is None
    assert not Seat.objects.filter(table=table).exists() and _chips(users, table) == chips


def test_a_clubs_page_counts_who_won_the_most_freezeouts() -> None:
    from django.utils import timezone

    from tables.models import FreezeoutResult
    from tests.club.helpers import club_with_people

    people = club_with_people("wins")
    table = services.table_create(creator=people.host, club=people.club, name="Den", small_blind=5, big_blind=10,
                                  max_seats=3, game="NT")
    other = services.table_create(creator=people.host, club=None, name="Elsewhere", small_blind=5, big_blind=10,
                                  max_seats=3, game="NT", is_public=False)
    now = timezone.now()
    a, b = people.owner.pk, people.member.pk
    for t, places in ((table, [[a, "Olga", 1, False], [b, "Misha", 2, False]]),
                      (table, [[b, "Misha", 1, False], [a, "Olga", 2, True]]),
                      (table, [[a, "Olga K", 1, False], [b, "Misha", 2, False]]),
                      (other, [[b, "Misha", 1, False], [a, "Olga", 2, False]])):  # not the club's table
        FreezeoutResult.objects.create(table=t, started=now, ended=now, entrants=2, places=places)
    assert selectors.freezeout_wins(club_id=people.club.id) == [("Olga K", 2), ("Misha", 1)]
    c = Client()
    c.force_login(people.member)
    page = c.get(f"/clubs/{people.club.id}/").content.decode()
    assert "Most won:" in page and "<bdi>Olga K</bdi> × 2" in page and "Elsewhere" not in page

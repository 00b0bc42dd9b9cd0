"""Late entry and re-entry in a freeze-out (tables.freezeout): a host opens the first levels to
new players, and a player who is out may buy in again until then; places stay one per entrant,
every chip is kept, and after the last late level nobody new sits down."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db.models import F
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tables import freezeout, hosting, selectors, services
from tables.models import Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, user_for_index
from tests.tables.test_freezeout import _chips, _html, _kitchen, _next_deal, _shove_to_the_end

pytestmark = pytest.mark.django_db


class _Row:
    def __init__(self, fo: dict[str, Any]) -> None:
        self.freezeout = fo
        self.hands_played = 0


def test_a_new_entrant_moves_those_out_down_one_and_a_reentry_takes_the_place_back() -> None:
    row = _Row({})
    freezeout.start(row, [(1, "A"), (2, "B"), (3, "C")], now=dt.datetime(2026, 12, 3, tzinfo=dt.UTC), late=2)
    freezeout.bust(row, [(1, 500, "A")], still_in=2)
    assert freezeout.standings(row.freezeout) == [(3, "A", False)]
    assert freezeout.enter(row, 4, "D") == "new"
    assert freezeout.standings(row.freezeout) == [(4, "A", False)]  # D will finish above A
    assert freezeout.players_left(row.freezeout) == 3
    assert freezeout.enter(row, 1, "A") == "again"
    assert freezeout.standings(row.freezeout) == [] and freezeout.players_left(row.freezeout) == 4
    assert row.freezeout["reentries"] == 1 and len(row.freezeout["entrants"]) == 4
    # Out again later: placed as anyone out is, by who still holds chips.
    freezeout.bust(row, [(1, 200, "A")], still_in=3)
    assert freezeout.standings(row.freezeout) == [(4, "A", False)]


def test_a_reentry_moves_everyone_out_since_down_one() -> None:
    """Found by an audit: D out 4th, B out 3rd, D back in and out again: "3. B, 3. D" and no
    4th. One more player holds chips again, so everyone out since finishes one place lower."""
    row = _Row({})
    freezeout.start(row, [(1, "A"), (2, "B"), (3, "C"), (4, "D"), (5, "E")],
                    now=dt.datetime(2026, 12, 3, tzinfo=dt.UTC), late=2)
    freezeout.bust(row, [(5, 100, "E")], still_in=4)
    freezeout.bust(row, [(4, 100, "D")], still_in=3)
    freezeout.bust(row, [(2, 100, "B")], still_in=2)
    assert freezeout.standings(row.freezeout) == [(3, "B", False), (4, "D", False), (5, "E", False)]
    assert freezeout.enter(row, 4, "D") == "again"
    # E was out before D: still 5th; B went out after D, with three holding chips now: 4th.
    assert freezeout.standings(row.freezeout) == [(4, "B", False), (5, "E", False)]
    freezeout.bust(row, [(4, 100, "D")], still_in=2)
    assert freezeout.standings(row.freezeout) == [(3, "D", False), (4, "B", False), (5, "E", False)]
    # Two out in one hand share a place; one of them back in: the other is alone one lower.
    row = _Row({})
    freezeout.start(row, [(1, "A"), (2, "B"), (3, "C"), (4, "D")], now=dt.datetime(2026, 12, 3, tzinfo=dt.UTC), late=2)
    freezeout.bust(row, [(3, 100, "C"), (4, 100, "D")], still_in=2)
    assert freezeout.standings(row.freezeout) == [(3, "C", False), (3, "D", False)]
    freezeout.enter(row, 4, "D")
    assert freezeout.standings(row.freezeout) == [(4, "C", False)]


def _short_stack_shoves(table: Table) -> None:
    """One hand: the shortest stack in it goes all-in, everyone else only calls or checks, so at
    most that player goes out."""
    number = current_state(table)[0].number
    for _ in range(60):
        table.refresh_from_db()
        hand, state = current_state(table)
        if hand.number != number or hand.ended is not None or not state.actors():
            return
        seat = state.actors()[0]
        legal = {a.kind: a for a in state.legal_actions(seat)}
        shortest = min(state.in_hand, key=lambda i: state.stacks[i] + state.contributed[i])
        message: dict[str, Any] = {"version": table.version, "action": "call" if "call" in legal else "check"}
        big = legal.get("raise") or legal.get("bet")
        if seat == shortest and big is not None:
            message.update(action=big.kind, amount=big.max_amount)
        services.table_act(table_id=table.id, user=user_for_index(hand, seat), message=message)
    raise AssertionError("the hand did not end")


def test_late_entry_lets_newcomers_in_and_players_out_back_in_until_its_last_level() -> None:
    table, users = _kitchen((1000, 300, 1000))
    Table.objects.filter(pk=table.pk).update(max_seats=5)
    newcomer, latecomer = make_user("fo-late-new"), make_user("fo-late-late")
    everyone = [*users, newcomer, latecomer]
    for bad in (5, -1, "2", None, True):
        with pytest.raises(TableError, match="Late entry lasts"):
            hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=10, late=bad)
    assert Table.objects.get(pk=table.pk).freezeout is None
    hosting.table_host_freezeout(table_id=table.id, by=users[0], minutes=10, late=2)
    chips = _chips(everyone, table)
    services.table_take_seat(table_id=table.id, user=newcomer, buy_in=500)
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, user=newcomer)
    assert not seat.wait_bb and len(table.freezeout["entrants"]) == 4
    assert "Freeze-out: 4 of 4 players left · late entry and re-entry through level 2" in _html(table, users[1])
    # Still no chips added to a stack (no rebuys).
    with pytest.raises(TableError, match="during a freeze-out"):
        services.table_add_chips(table_id=table.id, user=users[1], amount=100)
    services.table_resume(table_id=table.id)
    out: list[int] = []
    for _ in range(40):
        _short_stack_shoves(table)  # one player out at most: the freeze-out goes on
        assert _chips(everyone, table) == chips
        table.refresh_from_db()
        out = [int(r[0]) for r in table.freezeout["out"]]
        if out:
            break
        assert _next_deal(table)
    assert out, "nobody went out"
    gone = next(u for u in everyone if u.pk == out[0])
    assert not Seat.objects.filter(table=table, user=gone).exists()
    services.table_take_seat(table_id=table.id, user=gone, buy_in=400)  # a re-entry
    table.refresh_from_db()
    assert gone.pk not in [int(r[0]) for r in table.freezeout["out"]] and table.freezeout["reentries"] == 1
    assert len(table.freezeout["entrants"]) == 4
    assert _chips(everyone, table) == chips
    # The blinds reach level 3: late entry is over, for newcomers and for those out alike.
    Table.objects.filter(pk=table.pk).update(level=3)
    table.refresh_from_db()
    assert not freezeout.entry_open(table)
    with pytest.raises(TableError, match="new players join the next one"):
        services.table_take_seat(table_id=table.id, user=latecomer, buy_in=500)
    assert "late entry" not in _html(table, users[1])
    assert _chips(everyone, table) == chips
    # Played to its end: the results count the re-entry (found by an audit: "4 players" and
    # nothing about five buy-ins).
    assert _next_deal(table)
    _shove_to_the_end(table, lambda: _chips(everyone, table) == chips)
    result = selectors.freezeout_results(table=table)[0]
    assert (result["entrants"], result["reentries"]) == (4, 1)
    html = render_to_string("tables/_freezeouts.html", {"freezeouts": [result]})
    assert "4 players · 1 re-entry" in html


def test_the_host_panel_opens_late_entry_and_the_page_offers_a_seat(client: Any) -> None:
    table, users = _kitchen((1000, 1000))
    Table.objects.filter(pk=table.pk).update(max_seats=4)
    host = Client()
    host.force_login(users[0])
    page = host.get(reverse("table", args=[table.id])).content.decode()
    assert 'id="freezeout-late"' in page and "through level 2" in page
    response = host.post(reverse("table_host_freezeout", args=[table.id]), {"minutes": "10", "late": "9"}, follow=True)
    assert "Late entry lasts through level 1, 2, 3 or 4" in response.content.decode()
    assert Table.objects.get(pk=table.pk).freezeout is None
    response = host.post(reverse("table_host_freezeout", args=[table.id]), {"minutes": "10", "late": "2"}, follow=True)
    assert "Late entry through level 2." in response.content.decode()
    table.refresh_from_db()
    assert table.freezeout["late"] == 2
    guest = make_user("fo-late-guest")
    client.force_login(guest)
    invite = f"{reverse('table', args=[table.id])}?invite={table.invite_code}"
    for lang in ("en", "he", "ru"):
        client.cookies["lang"] = lang
        with translation.override(lang):
            page = client.get(invite, follow=True).content.decode()
        assert f'action="/tables/{table.id}/sit/"' in page and "late-entry" in page
    client.cookies["lang"] = "en"
    page = client.get(invite, follow=True).content.decode()
    assert "open to late entry through level 2" in page
    Table.objects.filter(pk=table.pk).update(level=3, version=F("version") + 1)  # as a deal raising the level does
    page = client.get(invite, follow=True).content.decode()
    assert "new players join the next one" in page and "late-entry" not in page


def test_at_a_club_table_a_host_seats_a_late_entrant_and_the_club_chips_stay_whole() -> None:
    from django.db.models import Sum

    from tests.club.helpers import balance, club_with_people

    people = club_with_people("fol", chips=5000)
    club = people.club
    table = services.table_create(creator=people.host, club=club, name="Back room", small_blind=5, big_blind=10,
                                  max_seats=3, game="NT", seat_approval=True)
    services.table_pause(table_id=table.id, now=True)
    players = [people.owner, people.host]
    for u in players:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000, approved=True)
    hosting.table_host_freezeout(table_id=table.id, by=people.host, minutes=10, late=1)

    def whole() -> int:
        return (sum(balance(club, u) for u in [*players, people.member])
                + int(Seat.objects.filter(table=table).aggregate(s=Sum("stack"))["s"] or 0))

    total = whole()
    # The club's page tells its members they may still join.
    member = Client()
    member.force_login(people.member)
    page = member.get(f"/clubs/{club.id}/").content.decode()
    assert "freeze-out under way" in page and "late entry through level 1" in page
    request = hosting.table_seat_request(table_id=table.id, user=people.member, buy_in=500)
    hosting.table_seat_request_approve(request_id=request.id, by=people.host)
    table.refresh_from_db()
    assert [e[0] for e in table.freezeout["entrants"]][-1] == people.member.pk
    assert Seat.objects.get(table=table, user=people.member).stack == 500 and whole() == total


def test_a_late_entrant_standing_up_during_a_hand_does_not_end_the_freezeout_before_it_ends() -> None:
    """Found by an audit: two players in a hand, the one all-in standing up (leaving when it
    ends), and a late entrant not dealt in standing up too: the freeze-out was won there and then
    by the other player, who went on to lose the hand and every chip. The hand's end decides."""
    table, (a, b) = _kitchen((300, 300))
    Table.objects.filter(pk=table.pk).update(max_seats=3)
    late = make_user("fo-late-up")
    hosting.table_host_freezeout(table_id=table.id, by=a, minutes=10, late=1)
    services.table_resume(table_id=table.id)
    services.table_take_seat(table_id=table.id, user=late, buy_in=300)  # not dealt into this hand
    table.refresh_from_db()
    hand, state = current_state(table)
    idx = state.actors()[0]
    shover = user_for_index(hand, idx)
    other = b if shover == a else a
    raise_to = next(x for x in state.legal_actions(idx) if x.kind == "raise").max_amount
    services.table_act(table_id=table.id, user=shover, message={"action": "raise", "amount": raise_to,
                                                                 "version": table.version})
    services.table_leave_seat(table_id=table.id, user=shover)  # leaves when the hand ends
    services.table_leave_seat(table_id=table.id, user=late)  # between hands of their own
    table.refresh_from_db()
    assert freezeout.running(table) and table.status == Table.Status.OPEN
    assert [r[1] for r in table.freezeout["out"]] == [late.username] and table.freezeout["out"][0][2] == 3
    hand, state = current_state(table)
    assert hand.ended is None
    call = next(x.kind for x in state.legal_actions(state.actors()[0]) if x.kind in ("call", "check"))
    services.table_act(table_id=table.id, user=other, message={"action": call, "version": table.version})
    table.refresh_from_db()
    hand.refresh_from_db()
    assert hand.ended is not None and not freezeout.running(table)
    result = selectors.freezeout_results(table=table)[0]
    places = {name: place for place, name, _stood_up in result["places"]}
    # One entrant a place: 3rd the late entrant; 1st and 2nd by who holds the chips at the end
    # (the player who stood up from the hand is placed when it ends, as anyone leaving is).
    assert sorted(places.values()) == [1, 2, 3] and places[late.username] == 3
    winner, loser = (shover, other) if hand.result["net"][idx] > 0 else (other, shover)
    assert (places[winner.username], places[loser.username]) == (1, 2)

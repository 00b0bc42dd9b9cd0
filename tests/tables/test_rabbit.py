"""The rabbit hunt at a hosted table: where the host allows it, after a hand that ended before its
board was out a player dealt in may ask to see the cards that would have come. Every viewer then
sees exactly those cards (faded, with a note), the hand's page and its PHH download open them, and
nothing else changes: no chip, no result, no other hidden card. Refused at any other time."""

from __future__ import annotations

import datetime as dt
import tomllib
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules_engine import fairness
from tables import hosting, services
from tables.models import Hand, Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, user_for_index
from tests.tables.test_hidden_cards import cards_in
from tests.tables.test_show_cards import _fold_first, _html

pytestmark = pytest.mark.django_db


def _hosted(game: str = "NT", allow: bool = True) -> tuple[Table, list[Any]]:
    host = make_user(f"rbhost{game.replace('/', '')}{allow}")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, game=game,
                                  max_seats=3, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    users = [host, make_user(f"rbguest{table.id}")]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    if allow:
        hosting.table_host_rabbit(table_id=table.id, by=host, on=True)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    return table, users


def _hunt(table: Table, user: Any) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": "rabbit", "version": table.version})
    table.refresh_from_db()


def _chips(table: Table) -> list[tuple[int, int]]:
    return sorted(Seat.objects.filter(table=table).values_list("user_id", "stack"))


@pytest.mark.parametrize("game", ["NT", "PO", "PP"])
def test_a_player_hunts_the_rabbit_and_everyone_sees_exactly_those_cards(game: str) -> None:
    table, users = _hosted(game)
    hand, state, winner, folder = _fold_first(table)
    hunted = {str(c) for b in state.rabbit() for c in b}
    assert len(hunted) == (15 if game == "PP" else 5)
    stranger = make_user(f"rbrail{table.id}")
    viewers = ((user_for_index(hand, folder), "folder"), (user_for_index(hand, winner), "winner"),
               (stranger, "rail"), (None, "anonymous"))
    client = Client()
    client.force_login(users[1])  # a private table's hands are its players' to read
    page_url = f"/tables/{table.id}/hands/{hand.number}/"
    before = {(name, lang): cards_in(_html(table, u, lang), lang) for u, name in viewers for lang in ("en", "he", "ru")}
    # Before the hunt the rabbit's cards reach nobody: not the table, the hand's page or its PHH.
    for (name, lang), seen in before.items():
        assert not seen & hunted, (name, lang)
    page = client.get(page_url).content.decode()
    assert "Hand #" in page and not cards_in(page, "en") & hunted and "Rabbit hunt" not in page
    # Both players dealt in are offered the hunt; someone watching is not.
    for u, _name in viewers[:2]:
        assert 'data-action="rabbit"' in _html(table, u)
    assert 'data-action="rabbit"' not in _html(table, stranger)
    chips, version, result = _chips(table), table.version, Hand.objects.get(pk=hand.pk).result
    _hunt(table, viewers[0][0])
    assert table.version == version + 1
    # Everyone sees the hunted cards, faded, and nothing else that was hidden.
    for u, name in viewers:
        for lang in ("en", "he", "ru"):
            html = _html(table, u, lang)
            seen = cards_in(html, lang)
            assert hunted <= seen, (name, lang)
            assert seen - before[(name, lang)] == hunted, (name, lang)
            assert html.count("card--rabbit") == len(hunted) and 'class="rabbit-note"' in html
            assert 'data-action="rabbit"' not in html
    # Nothing was won or lost with them.
    assert _chips(table) == chips and Hand.objects.get(pk=hand.pk).result == result
    with pytest.raises(TableError, match="hunted already"):
        _hunt(table, viewers[1][0])
    assert Table.objects.get(pk=table.id).version == version + 1
    # The hand's page says so after the hand; the PHH download keeps the hand as played and
    # opens the rabbit cards' places in the deck, so anyone can check they were the next ones.
    page = client.get(page_url).content.decode()
    assert "Rabbit hunt" in page and hunted <= cards_in(page, "en")
    phh = client.get(f"/tables/{table.id}/hands/{hand.number}.phh").content.decode()
    fields = tomllib.loads(phh)
    revealed = {str(fairness.Revealed.parse(x).card) for x in fields.get(fairness.REVEAL_FIELD, [])}
    assert hunted <= revealed
    assert not hunted & cards_in("\n".join(fields["actions"]), "en")  # the actions are as played


def test_refused_unless_the_host_allows_it() -> None:
    table, users = _hosted(allow=False)
    hand, _state, _w, folder = _fold_first(table)
    version = table.version
    assert 'data-action="rabbit"' not in _html(table, users[0])
    with pytest.raises(TableError, match="does not hunt rabbits"):
        _hunt(table, user_for_index(hand, folder))
    assert Table.objects.get(pk=table.id).version == version and not Hand.objects.get(pk=hand.pk).rabbit


def test_refused_during_a_hand_after_the_next_deal_and_by_someone_not_seated() -> None:
    table, users = _hosted()
    hand, _state = current_state(table)
    version = table.version
    with pytest.raises(TableError, match="after a hand"):
        _hunt(table, users[0])
    outsider = make_user(f"rbout{table.id}")
    with pytest.raises(TableError, match="not seated"):
        _hunt(table, outsider)
    assert Table.objects.get(pk=table.id).version == version
    finished, _s, _w, _f = _fold_first(table)
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    assert current_state(table)[0].number > finished.number and current_state(table)[0].ended is None
    with pytest.raises(TableError, match="after a hand"):
        _hunt(table, users[0])
    assert not Hand.objects.get(pk=finished.pk).rabbit


def test_a_board_dealt_out_has_no_rabbit() -> None:
    table, users = _hosted()
    for _ in range(30):  # check and call it down to the showdown
        table.refresh_from_db()
        hand, state = current_state(table)
        if hand.ended is not None:
            break
        seat = state.actors()[0]
        kinds = {a.kind for a in state.legal_actions(seat)}
        services.table_act(table_id=table.id, user=user_for_index(hand, seat),
                           message={"action": "check" if "check" in kinds else "call", "version": table.version})
    assert len(state.board) == 5
    assert 'data-action="rabbit"' not in _html(table, users[0])
    with pytest.raises(TableError, match="no rabbit to hunt"):
        _hunt(table, users[0])


@pytest.mark.parametrize("game", ["F7S", "F5D"])
def test_games_without_a_board_have_no_rabbit(game: str) -> None:
    table, users = _hosted(game)
    assert not services.rabbit_on(table)
    hand, _state, _w, folder = _fold_first(table)
    assert 'data-action="rabbit"' not in _html(table, user_for_index(hand, folder))
    # Said as it is, in the very moment a hunt would be allowed at a flop table (an audit).
    with pytest.raises(TableError, match="This game has no board: there is no rabbit to hunt."):
        _hunt(table, user_for_index(hand, folder))
    client = Client()
    client.force_login(users[0])
    assert "The game dealt now has no board to hunt." in client.get(reverse("table", args=[table.id])).content.decode()


def test_only_a_host_decides_and_public_tables_hunt_none() -> None:
    table, users = _hosted(allow=False)
    with pytest.raises(TableError):
        hosting.table_host_rabbit(table_id=table.id, by=users[1], on=True)
    assert not Table.objects.get(pk=table.id).rabbit_hunt
    public = services.table_create(creator=None, name="Lobby", small_blind=5, big_blind=10, game="NT",
                                   max_seats=6, is_public=True, rabbit_hunt=True)
    assert not public.rabbit_hunt
    with pytest.raises(TableError):
        hosting.table_host_rabbit(table_id=public.id, by=users[0], on=True)  # no host, and no rabbits


def test_the_host_panel_form_the_header_and_bad_input() -> None:
    table, users = _hosted(allow=False)
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert "hostpanel__rabbit" in page and "Allow rabbit hunting" in page
    assert "<span data-table-rabbit hidden>" in page and 'data-rabbit="off"' in page
    url = reverse("table_host_rabbit", args=[table.id])
    for bad in ({}, {"on": "yes"}, {"on": "2"}):
        response = client.post(url, bad, follow=True)
        assert "Say whether the rabbit hunt is allowed." in response.content.decode()
        assert not Table.objects.get(pk=table.id).rabbit_hunt
    response = client.post(url, {"on": "1"}, follow=True)
    text = response.content.decode()
    assert "Players may hunt the rabbit after a hand." in text and "Stop rabbit hunting" in text
    assert "<span data-table-rabbit>" in text and 'data-rabbit="on"' in text
    guest = Client()
    guest.force_login(users[1])
    guest.post(url, {"on": "0"})
    assert Table.objects.get(pk=table.id).rabbit_hunt
    with translation.override("he"):
        he = client.get(reverse("table", args=[table.id]), HTTP_ACCEPT_LANGUAGE="he")
    assert he.status_code == 200
    response = client.post(url, {"on": "0"}, follow=True)
    assert "No more rabbit hunts." in response.content.decode()
    assert not Table.objects.get(pk=table.id).rabbit_hunt


def test_tables_are_opened_with_rabbit_hunting_allowed() -> None:
    creator = make_user("rbopener")
    client = Client()
    client.force_login(creator)
    form = {"name": "Late game", "game": "PO", "stakes": "5-10", "speed": "medium", "max_seats": "6",
            "rabbit_hunt": "on"}
    client.post(reverse("table_new"), {**form, "visibility": "private"})
    client.post(reverse("table_new"), {**form, "name": "Open game", "visibility": "public"})
    assert Table.objects.get(name="Late game").rabbit_hunt
    assert not Table.objects.get(name="Open game").rabbit_hunt


def test_a_clubs_page_tags_a_table_that_hunts_rabbits_and_its_form_takes_it() -> None:
    from tests.club.helpers import club_with_people

    people = club_with_people("rbclub", chips=5000)
    host = Client()
    host.force_login(people.host)
    form = host.get(reverse("club_table_new", args=[people.club.id])).content.decode()
    assert 'name="rabbit_hunt"' in form and "Rabbit hunting allowed" in form
    table = services.table_create(creator=people.host, club=people.club, name="Back room", small_blind=5,
                                  big_blind=10, max_seats=6, game="PO", rabbit_hunt=True)
    member = Client()
    member.force_login(people.member)
    assert '<span class="tag">rabbit hunting</span>' in member.get(f"/clubs/{people.club.id}/").content.decode()
    hosting.table_host_rabbit(table_id=table.id, by=people.host, on=False)
    assert "rabbit hunting" not in member.get(f"/clubs/{people.club.id}/").content.decode()

"""The seven-deuce bounty at a hosted Hold'em table: the host sets it (at the table or when opening
it), a player who takes a pot whole with a seven and a deuce shows them and every other player
dealt in pays the bounty, chips conserved; public tables and other games have none."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules_engine.cards import FULL_DECK, parse_cards
from rules_engine.games import get_variant
from rules_engine.notation import parse_phh
from tables import hosting, selectors, services
from tables.models import Hand, Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, user_for_index
from tests.tables.test_hidden_cards import cards_in
from tests.tables.test_post_big_blind import _hand_page_and_phh, _html
from tests.tables.test_table_fragment import _same

pytestmark = pytest.mark.django_db

# Every seat of three is dealt a seven and a deuce (one card each, twice round), whoever has the button.
SEVENS_AND_DEUCES = parse_cards("7c7h7d2d2s2h")


class _Stacked:
    def __init__(self, first: tuple) -> None:
        self.order = tuple(first) + tuple(c for c in FULL_DECK if c not in first)


def _stack(monkeypatch: pytest.MonkeyPatch, first: tuple = SEVENS_AND_DEUCES) -> None:
    monkeypatch.setattr(services.Deck, "shuffled", staticmethod(lambda rng: _Stacked(first)))


def _hosted(game: str = "NT", bounty: int = 2) -> tuple[Table, list]:
    host = make_user(f"sdhost{game}{bounty}")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, game=game,
                                  max_seats=3 if game == "PP" else 6, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    users = [host] + [make_user(f"sdguest{table.id}_{i}") for i in range(2)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    if bounty:
        hosting.table_host_seven_deuce(table_id=table.id, by=host, big_blinds=bounty)
    table.refresh_from_db()
    return table, users


def _act(table: Table, kind: str, **kw: Any) -> None:
    table.refresh_from_db()
    hand, state = current_state(table)
    services.table_act(table_id=table.id, user=user_for_index(hand, state.to_act),
                       message={"action": kind, "version": table.version, **kw})


def _chips(table: Table) -> int:
    return sum(int(s.stack) for s in Seat.objects.filter(table=table))


def test_a_fold_to_a_seven_deuce_pays_the_bounty_and_shows_it_to_everyone(monkeypatch: pytest.MonkeyPatch) -> None:
    table, users = _hosted()
    _stack(monkeypatch)
    assert table.seven_deuce_bb == 2
    chips = _chips(table)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    hand, state = current_state(table)
    assert state.setup.seven_deuce == 20
    taker = state.to_act
    taker_user = user_for_index(hand, taker)
    before = {s.user_id: int(s.stack) for s in Seat.objects.filter(table=table)}
    _act(table, "raise", amount=40)
    _act(table, "fold")
    _act(table, "fold")
    hand = Hand.objects.get(pk=hand.pk)
    assert hand.ended is not None
    result = get_variant("NT").from_json(hand.state).result
    assert result.bounty[taker] == 40 and sorted(result.bounty) == [-20, -20, 40]
    after = {s.user_id: int(s.stack) for s in Seat.objects.filter(table=table)}
    assert _chips(table) == chips
    assert after[taker_user.pk] - before[taker_user.pk] == 15 + 40  # the blinds, and the bounty
    taker_cards = {str(c) for c in state.hand_of(taker)}
    for user in users:
        html = _html(table, user)
        assert '<li class="win win--bounty">' in html and "+40</bdi> · 7-2 bounty" in html
        # The taker's seven and deuce are shown to all; the folded hands stay with their owners.
        seen = cards_in(html, "en")
        assert taker_cards <= seen
        mine = next(i for i, p in enumerate(hand.players) if p[1] == user.pk)
        for i in range(3):
            if i not in (taker, mine):
                assert not {str(c) for c in state.hand_of(i)} & seen
        _same(selectors.table_context(table_id=table.id, user=user))
    page, phh = _hand_page_and_phh(table, users[1], hand)
    assert "takes the seven-deuce bounty: 40" in page
    assert "+40</bdi> · 7-2 bounty" in page  # the hand's picture says it too
    assert "_seven_deuce = 20" in phh
    parsed = parse_phh(phh)
    assert parsed.state.result.bounty == result.bounty and parsed.state.stacks == result.stacks


def test_a_split_pot_pays_none_and_the_header_says_the_bounty(monkeypatch: pytest.MonkeyPatch) -> None:
    table, users = _hosted(bounty=1)
    # Everyone holds a seven and a deuce: checked down, they split and nobody takes the bounty.
    _stack(monkeypatch)
    chips = _chips(table)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    for _ in range(12):
        table.refresh_from_db()
        hand, state = current_state(table)
        if hand.ended is not None:
            break
        kinds = {a.kind for a in state.legal_actions(state.to_act)}
        _act(table, "check" if "check" in kinds else "call")
    result = get_variant("NT").from_json(Hand.objects.get(pk=hand.pk).state).result
    assert result.showdown and result.bounty == () and _chips(table) == chips
    client = Client()
    client.force_login(users[1])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert "data-table-seven-deuce>" in page and "7-2 bounty" in page
    assert 'data-seven-deuce="10"' in page
    assert "win--bounty" not in page


def test_the_host_sets_it_and_bad_choices_change_nothing() -> None:
    table, users = _hosted(bounty=0)
    for bad in (3, -1, "2", None, 100, True):
        with pytest.raises(TableError, match="Choose a seven-deuce bounty"):
            hosting.table_host_seven_deuce(table_id=table.id, by=users[0], big_blinds=bad)
    with pytest.raises(TableError):
        hosting.table_host_seven_deuce(table_id=table.id, by=users[1], big_blinds=5)  # not a host
    assert Table.objects.get(pk=table.id).seven_deuce_bb == 0
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert "hostpanel__seven-deuce" in page and "Seven-deuce bounty, big blinds from each player" in page
    assert "data-table-seven-deuce hidden" in page
    url = reverse("table_host_seven_deuce", args=[table.id])
    for bad in ({}, {"bb": "x"}, {"bb": "3"}, {"bb": "9" * 5000}, {"bb": "²"}, {"bb": "-1"}):
        response = client.post(url, bad, follow=True)
        assert response.status_code == 200
        assert "Choose a seven-deuce bounty of 1, 2, 5 big blinds." in response.content.decode()
    assert Table.objects.get(pk=table.id).seven_deuce_bb == 0
    response = client.post(url, {"bb": "5"}, follow=True)
    assert "The seven-deuce bounty is paid from the next hand." in response.content.decode()
    assert Table.objects.get(pk=table.id).seven_deuce_bb == 5
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    assert current_state(table)[1].setup.seven_deuce == 50
    # Turned off mid-hand: the hand keeps its bounty, the next one has none.
    response = client.post(url, {"bb": "0"}, follow=True)
    assert "No seven-deuce bounty from the next hand." in response.content.decode()
    table.refresh_from_db()
    assert table.seven_deuce_bb == 0 and current_state(table)[1].setup.seven_deuce == 50
    assert services.seven_deuce_chips(table) == 0


def test_public_tables_and_other_games_have_none() -> None:
    public = services.table_create(creator=None, name="Lobby", small_blind=5, big_blind=10, game="NT",
                                   max_seats=6, is_public=True, seven_deuce_bb=2)
    assert public.seven_deuce_bb == 0
    host = make_user("sdpublic")
    with pytest.raises(TableError):  # nobody hosts a public table
        hosting.table_host_seven_deuce(table_id=public.id, by=host, big_blinds=2)
    for game in ("PO", "F7S", "PP"):
        table, users = _hosted(game=game, bounty=0)
        with pytest.raises(TableError, match="Hold'em only"):
            hosting.table_host_seven_deuce(table_id=table.id, by=users[0], big_blinds=2)
        client = Client()
        client.force_login(users[0])
        assert "hostpanel__seven-deuce" not in client.get(reverse("table", args=[table.id])).content.decode()


def test_dealers_choice_away_from_holdem_pays_none_and_the_host_can_still_stop_it() -> None:
    table, users = _hosted(bounty=1)
    hosting.table_host_game(table_id=table.id, by=users[0], game="PO")
    table.refresh_from_db()
    assert table.game == "PO" and services.seven_deuce_chips(table) == 0
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    assert current_state(table)[1].setup.seven_deuce == 0
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert "hostpanel__seven-deuce" in page and "The game dealt now pays no bounty." in page
    assert "data-table-seven-deuce hidden" in page


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_the_creation_forms_take_a_bounty(lang: str) -> None:
    user = make_user(f"sdform{lang}")
    client = Client()
    client.force_login(user)
    client.cookies["lang"] = lang
    with translation.override(lang):
        form = client.get(reverse("table_new")).content.decode()
    assert 'name="seven_deuce_bb"' in form
    base = {"name": "Seven-deuce", "game": "NT", "speed": "medium", "max_seats": 6, "visibility": "private",
            "stakes": "5-10"}
    response = client.post(reverse("table_new"), {**base, "seven_deuce_bb": "7"})
    assert response.status_code == 200 and not Table.objects.filter(name="Seven-deuce").exists()
    client.post(reverse("table_new"), {**base, "seven_deuce_bb": "2"})
    assert Table.objects.get(name="Seven-deuce").seven_deuce_bb == 2


def test_a_clubs_page_names_a_tables_bounty() -> None:
    from tests.club.helpers import club_with_people

    people = club_with_people("sdclub", chips=5000)
    table = services.table_create(creator=people.host, club=people.club, name="Back room", small_blind=5,
                                  big_blind=10, max_seats=6, game="NT", seven_deuce_bb=5)
    assert table.seven_deuce_bb == 5
    member = Client()
    member.force_login(people.member)
    assert "7-2 bounty: <bdi dir=\"ltr\">50</bdi>" in member.get(f"/clubs/{people.club.id}/").content.decode()
    hosting.table_host_seven_deuce(table_id=table.id, by=people.host, big_blinds=0)
    assert "7-2 bounty" not in member.get(f"/clubs/{people.club.id}/").content.decode()


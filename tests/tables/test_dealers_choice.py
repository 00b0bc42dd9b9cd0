"""Dealer's choice: a table's host picks the game dealt next. A hand being played finishes by its
own game; the next is dealt by the new one with the same seats, stacks and stakes; every hand
keeps its own game for its page and history. Baseball keeps its game, a game must seat the
table's seats, and only a host may choose."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from tables import hosting, selectors, services
from tables.fragment import render_table
from tables.models import Hand, Seat, Table
from tests.tables.helpers import current_state, make_user, play_passively

pytestmark = pytest.mark.django_db


def _hosted(game: str = "NT", seats: int = 3, players: int = 3) -> tuple[Table, list]:
    host = make_user(f"host{game}{seats}")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, game=game,
                                  max_seats=seats, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    users = [host] + [make_user(f"guest{table.id}_{i}") for i in range(players - 1)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    return table, users


def _finish_and_deal(table: Table) -> Hand:
    finished = play_passively(table)
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    return finished


def test_the_next_hand_is_dealt_by_the_hosts_choice() -> None:
    table, users = _hosted()
    host = users[0]
    first, _state = current_state(table)
    assert first.game == "NT"
    assert hosting.table_host_game(table_id=table.id, by=host, game="PO") == "next"
    table.refresh_from_db()
    assert (table.game, table.next_game) == ("NT", "PO")
    # Every page says what comes, while the hand being played goes on as it was dealt.
    html = render_table(selectors.table_context(table_id=table.id, user=users[1]))
    assert "From the next hand: Pot-limit Omaha." in html and 'data-game="No-limit Hold&#x27;em"' in html
    finished = _finish_and_deal(table)
    assert finished.game == "NT"
    stacks_before = {s.user_id: s.stack for s in Seat.objects.filter(table=table)}
    second, state = current_state(table)
    assert second.number == finished.number + 1
    assert (second.game, table.game, table.next_game) == ("PO", "PO", "")
    assert all(len(state.hand_of(i)) == 4 for i in range(3))  # Omaha's four hole cards
    assert sorted(p[2] for p in second.players) == sorted(stacks_before.values())
    # The hand before is still read by its own game: its page and its history say Hold'em.
    context = selectors.finished_hand_context(hand=Hand.objects.get(id=finished.id), user=None)
    assert context["story"]
    assert 'variant = "NT"' in selectors.hand_history_text(hand=Hand.objects.get(id=finished.id), user=None)
    client = Client()
    client.force_login(host)
    page = client.get(f"/tables/{table.id}/hands/{finished.number}/")
    assert page.status_code == 200 and "· No-limit Hold&#x27;em</span></h1>" in page.content.decode()
    # The Omaha hand plays to its end like any other.
    omaha = play_passively(table)
    assert omaha.game == "PO"
    # With two games among the last hands, the table's list names each hand's game.
    listed = render_table(selectors.table_context(table_id=table.id, user=users[1]))
    assert "(Pot-limit Omaha)" in listed and "(No-limit Hold&#x27;em)" in listed
    assert "· Pot-limit Omaha</span></h1>" in client.get(f"/tables/{table.id}/hands/{omaha.number}/").content.decode()


def test_between_hands_the_choice_is_dealt_at_once_and_a_game_without_blinds_deals_everyone_in() -> None:
    table, users = _hosted(players=2)
    host = users[0]
    _finish_and_deal(table)
    play_passively(table)  # this hand's end leaves no hand being played (the next is not dealt yet)
    table.refresh_from_db()
    late = make_user("latecomer")
    services.table_take_seat(table_id=table.id, user=late, buy_in=1000)
    waiting = Seat.objects.get(table=table, user=late)
    assert waiting.wait_bb  # a newcomer at a running Hold'em game waits for the big blind
    assert services._current_hand(table) is None
    assert hosting.table_host_game(table_id=table.id, by=host, game="F7S") == "now"
    table.refresh_from_db()
    assert (table.game, table.next_game) == ("F7S", "")
    waiting.refresh_from_db()
    assert not waiting.wait_bb and not waiting.post_bb  # stud antes: nobody waits for a big blind
    finished = Hand.objects.filter(table=table).order_by("-number").first()
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    hand, state = current_state(table)
    assert hand.game == "F7S" and len(hand.players) == 3


def test_only_a_host_chooses_and_only_games_the_table_can_deal() -> None:
    table, users = _hosted()
    host, guest = users[0], users[1]
    with pytest.raises(services.TableError):
        hosting.table_host_game(table_id=table.id, by=guest, game="PO")
    for bad in ("ZZ", "BB", "", None, 5, "x" * 100_000):  # unknown, Baseball, nothing, not text
        with pytest.raises(services.TableError, match="from the list"):
            hosting.table_host_game(table_id=table.id, by=host, game=bad)
    with pytest.raises(services.TableError, match="already"):
        hosting.table_host_game(table_id=table.id, by=host, game="NT")  # the same game
    table.refresh_from_db()
    assert (table.game, table.next_game) == ("NT", "")
    # Changing one's mind before the hand ends: back to the game being played clears the choice.
    hosting.table_host_game(table_id=table.id, by=host, game="PP")
    hosting.table_host_game(table_id=table.id, by=host, game="NT")
    table.refresh_from_db()
    assert table.next_game == ""
    # A six-seat table cannot deal Patch-Patch (two or three players); Baseball keeps its game.
    six, six_users = _hosted(seats=6, players=2)
    assert "PP" not in hosting.games_for(six) and "NT" in hosting.games_for(six)
    # Listed as the new-table form lists them (found by an audit: sorted by code, draw came first).
    from tables.selectors import GAME_NAMES

    assert hosting.games_for(six) == [c for c in GAME_NAMES if c in hosting.games_for(six)]
    assert hosting.games_for(six)[:2] == ["NT", "PT"]
    with pytest.raises(services.TableError, match="seat as many"):
        hosting.table_host_game(table_id=six.id, by=six_users[0], game="PP")
    bb_host = make_user("bbhost")
    bb = services.table_create(creator=bb_host, name="Baseball", small_blind=5, big_blind=10, game="BB",
                               max_seats=4, is_public=False)
    assert hosting.games_for(bb) == []
    with pytest.raises(services.TableError):
        hosting.table_host_game(table_id=bb.id, by=bb_host, game="F7S")


def test_the_host_panel_offers_the_games_and_says_what_happened() -> None:
    table, users = _hosted()
    client = Client()
    client.force_login(users[0])
    page = client.get(f"/tables/{table.id}/").content.decode()
    assert f'action="/tables/{table.id}/host/game/"' in page
    assert '<option value="PO">Pot-limit Omaha</option>' in page and '<option value="BB"' not in page
    answer = client.post(f"/tables/{table.id}/host/game/", {"game": "F7S"}, follow=True).content.decode()
    assert "Seven-card stud is dealt from the next hand." in answer
    bad = client.post(f"/tables/{table.id}/host/game/", {"game": "nope"}, follow=True).content.decode()
    assert "Choose a game from the list." in bad
    other = Client()
    other.force_login(users[1])
    assert other.post(f"/tables/{table.id}/host/game/", {"game": "PO"}).status_code in (302, 403, 404)
    table.refresh_from_db()
    assert table.next_game == "F7S"


def test_each_games_rules_link_and_omaha_hi_lo_opens_its_own_section() -> None:
    """The table's header links to its game's rules; Omaha Hi-Lo to the hi-lo section of the Omaha
    page (found by an audit), and the felt carries the link so that the header follows a dealer's
    choice without a reload (table.js)."""
    from tables.templatetags.table_stakes import rules_url

    assert rules_url("PO/8") == "/rules/omaha/#hi-lo" and rules_url("FO/8") == "/rules/omaha/#hi-lo"
    assert rules_url("PO") == "/rules/omaha/" and rules_url("NT") == "/rules/holdem/"
    from rulesdocs.pages import PAGES

    assert "hi-lo" in {section.id for section in PAGES["omaha"].sections}

"""Adding chips: a rebuy after going broke, or a top-up, between hands, from the bankroll (club
chips at a club table), up to the table's maximum; every chip on the ledger."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.models import LedgerEntry, Profile
from tables import services
from tables.models import Hand, Seat, Table
from tests.tables.helpers import make_user, play_passively, seated_table

pytestmark = pytest.mark.django_db


def _bankroll(user: Any) -> int:
    return int(Profile.objects.get(user=user).bankroll)


def _table_ledger(table: Table, user: Any) -> int:
    return sum(int(e.amount) for e in LedgerEntry.objects.filter(account=f"table:{table.id}", user=user))


def _between_hands(table: Table) -> None:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is not None and hand.ended is None:
        play_passively(table)


def test_a_broke_player_buys_in_again_and_is_dealt_the_next_hand() -> None:
    table, users = seated_table(n=2, buy_in=500)
    _between_hands(table)
    broke = users[0]
    seat = Seat.objects.get(table=table, user=broke)
    seat.stack = 3  # below the big blind: not dealt in (what losing it all at the table leaves)
    seat.save(update_fields=["stack"])
    before = _bankroll(broke)
    version = Table.objects.get(id=table.id).version
    stack = services.table_add_chips(table_id=table.id, user=broke, amount=400)
    assert stack == 403
    assert _bankroll(broke) == before - 400
    assert Seat.objects.get(id=seat.id).stack == 403
    assert Table.objects.get(id=table.id).version == version + 1
    entries = LedgerEntry.objects.filter(user=broke, kind=LedgerEntry.Kind.BUY_IN).order_by("-id")[:2]
    assert sorted(int(e.amount) for e in entries) == [-400, 400]


def test_no_chips_are_added_to_a_player_in_the_hand_being_played() -> None:
    table, users = seated_table(n=3, buy_in=500)
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None and hand.ended is None
    before = _bankroll(users[0])
    with pytest.raises(services.TableError, match="once this hand is over"):
        services.table_add_chips(table_id=table.id, user=users[0], amount=100)
    assert _bankroll(users[0]) == before
    assert Seat.objects.get(table=table, user=users[0]).stack == 500


@pytest.mark.parametrize("amount", [0, -5, 1_000_000, "100", True, 1.5])
def test_bad_amounts_change_nothing(amount: Any) -> None:
    table, users = seated_table(n=2, buy_in=500)
    _between_hands(table)
    seat = Seat.objects.get(table=table, user=users[1])
    before = (_bankroll(users[1]), seat.stack, Table.objects.get(id=table.id).version)
    with pytest.raises(services.TableError):
        services.table_add_chips(table_id=table.id, user=users[1], amount=amount)
    assert (_bankroll(users[1]), Seat.objects.get(id=seat.id).stack, Table.objects.get(id=table.id).version) == before


def test_a_stack_grows_at_most_to_the_tables_maximum_buy_in() -> None:
    table, users = seated_table(n=2, buy_in=500)
    _between_hands(table)
    seat = Seat.objects.get(table=table, user=users[1])
    high = table.max_buy_in_bb * table.big_blind
    room = high - seat.stack
    with pytest.raises(services.TableError, match=f"{room:,}"):  # grouped, as the table writes chips
        services.table_add_chips(table_id=table.id, user=users[1], amount=room + 1)
    assert services.table_add_chips(table_id=table.id, user=users[1], amount=room) == high
    with pytest.raises(services.TableError, match="most"):
        services.table_add_chips(table_id=table.id, user=users[1], amount=1)


def test_not_more_than_the_bankroll_and_not_without_a_seat() -> None:
    table, users = seated_table(n=2, buy_in=500)
    _between_hands(table)
    Profile.objects.filter(user=users[1]).update(bankroll=50)
    with pytest.raises(services.TableError):
        services.table_add_chips(table_id=table.id, user=users[1], amount=60)
    assert _bankroll(users[1]) == 50
    stranger = make_user("stranger-add")
    with pytest.raises(services.TableError, match="no seat"):
        services.table_add_chips(table_id=table.id, user=stranger, amount=10)


def test_the_tables_ledger_records_what_was_added() -> None:
    table, users = seated_table(n=2, buy_in=500)
    _between_hands(table)
    before = _table_ledger(table, users[0])
    services.table_add_chips(table_id=table.id, user=users[0], amount=120)
    assert _table_ledger(table, users[0]) == before + 120


def test_the_page_offers_it_and_the_form_works(client: Client) -> None:
    table, users = seated_table(n=2, buy_in=500)
    _between_hands(table)
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.id]))
    assert b'name="amount"' in page.content
    url = reverse("table_add_chips", args=[table.id])
    bad = client.post(url, {"amount": "lots"}, follow=True)
    assert "whole number" in bad.content.decode()
    assert "1 or more" in client.post(url, {"amount": "-5"}, follow=True).content.decode()
    # Refusals write their chips as the table does ("1,000", not "1000").
    high = table.max_buy_in_bb * table.big_blind
    too_many = client.post(url, {"amount": "999999"}, follow=True).content.decode()
    assert f"at most {high:,}" in too_many and (high < 1000 or f"{high}." not in too_many)
    before = Seat.objects.get(table=table, user=users[0]).stack
    ok = client.post(url, {"amount": "25"}, follow=True)
    assert "You added 25 chips" in ok.content.decode()
    assert Seat.objects.get(table=table, user=users[0]).stack == before + 25
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(users[0])
    assert csrf_client.post(url, {"amount": "25"}).status_code == 403
    res = client.get(url)  # a visit is sent to the table, and adds nothing
    assert res.status_code == 302 and res.headers["Location"] == f"/tables/{table.id}/"
    assert Seat.objects.get(table=table, user=users[0]).stack == before + 25


def _box(html: str) -> str:
    import re

    found = re.search(r'<form class="sit add-chips".*?</form>', html, re.S)
    assert found, "no Add chips box on the page"
    return found.group(0)


def test_the_box_offers_what_fits_and_is_off_at_the_tables_most(client: Client) -> None:
    import re

    table, users = seated_table(n=2, buy_in=500)
    _between_hands(table)
    high = table.max_buy_in_bb * table.big_blind
    client.force_login(users[1])
    stack = Seat.objects.get(table=table, user=users[1]).stack
    box = _box(client.get(reverse("table", args=[table.id])).content.decode())
    # Below the most: the box offers to fill the stack up to it, and no more.
    assert f'value="{high - stack}"' in box and f'max="{high - stack}"' in box
    assert "disabled" not in box and 'class="muted add-chips__full" hidden' in box
    services.table_add_chips(table_id=table.id, user=users[1], amount=high - stack)
    box = _box(client.get(reverse("table", args=[table.id])).content.decode())
    # At the most: no amount offered, the box and its button off, and the reason shown.
    assert 'value=""' in box and box.count(" disabled") == 2
    note = re.search(r'<span class="muted add-chips__full"([^>]*)>([^<]*)<', box)
    assert note and "hidden" not in note.group(1) and "most" in note.group(2)
    # The live picture tells the page's script the viewer's own stack, and only theirs.
    from tables import selectors

    html = selectors.table_snapshot(table_id=table.id, user=users[1])["html"]
    assert re.findall(r'data-stack="(\d+)"', html) == [str(high)]
    assert 'data-stack' not in selectors.table_snapshot(table_id=table.id, user=None)["html"]


def test_the_buy_in_range_is_written_as_the_page_writes_amounts(client) -> None:
    """Found by an audit: "Buy-in (50–1500)" beside amounts written "1,000" everywhere else."""
    import re

    from tables import services
    from tests.tables.helpers import make_user

    table = services.table_create(creator=None, name="Range", small_blind=5, big_blind=10, max_seats=3, is_public=True)
    client.force_login(make_user("range-reader"))
    page = client.get(f"/tables/{table.id}/").content.decode()
    shown = re.search(r"data-buy-in-range>([^<]*)<", page)
    assert shown is not None and re.fullmatch(r"\d+–\d{1,3}(,\d{3})+", shown.group(1)), shown


def test_a_stack_under_the_minimum_buy_in_comes_back_to_at_least_the_minimum() -> None:
    """Found by an audit: a broke player added 1 chip (or 100 where the buy-in starts at 500) and
    was dealt in for it. Under the table's minimum, chips added bring the stack to it at least;
    nothing changes when they would not; above it, any top-up goes."""
    table, users = seated_table(n=2, buy_in=1000)  # blinds 5-10: the minimum buy-in is 50
    _between_hands(table)
    low = table.min_buy_in_bb * table.big_blind
    player = users[0]
    seat = Seat.objects.get(table=table, user=player)
    for stack, amount, ok in [(0, 1, False), (0, low - 1, False), (3, low - 4, False), (0, low, True),
                              (3, low - 3, True), (low, 1, True)]:
        seat.stack = stack
        seat.save(update_fields=["stack"])
        before = _bankroll(player), _table_ledger(table, player)
        if ok:
            assert services.table_add_chips(table_id=table.id, user=player, amount=amount) == stack + amount
            assert _bankroll(player) == before[0] - amount
        else:
            with pytest.raises(services.TableError, match=f"Add at least {low - stack} chips"):
                services.table_add_chips(table_id=table.id, user=player, amount=amount)
            assert (_bankroll(player), _table_ledger(table, player)) == before
            assert Seat.objects.get(id=seat.id).stack == stack


def test_the_add_chips_box_asks_a_short_stack_for_the_minimum() -> None:
    table, users = seated_table(n=2, buy_in=1000)
    _between_hands(table)
    low = table.min_buy_in_bb * table.big_blind
    Seat.objects.filter(table=table, user=users[0]).update(stack=3)
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", kwargs={"table_id": table.id})).content.decode()
    box = page[page.index('<input id="add-chips"'):]
    box = box[:box.index(">")]
    assert f'min="{low - 3}"' in box and f'data-low="{low}"' in box
    value = int(box.split('value="', 1)[1].split('"', 1)[0])
    assert value >= low - 3
    assert "add-chips__low" in page  # the words for a bankroll that cannot reach it (shown by the page's script)


def test_a_bankroll_short_of_the_minimum_is_told_the_numbers_and_the_way_to_more() -> None:
    table, _users = seated_table(n=2, buy_in=1000)
    low = table.min_buy_in_bb * table.big_blind
    poor = make_user("poor")
    Profile.objects.filter(user=poor).update(bankroll=low - 1)
    client = Client()
    client.force_login(poor)
    page = client.get(reverse("table", kwargs={"table_id": table.id}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Your bankroll has {low - 1} chips; this table's buy-in starts at {low}." in page
    assert 'href="/accounts/me/"' in page and 'name="buy_in"' not in page
    Profile.objects.filter(user=poor).update(bankroll=low + 7)
    page = client.get(reverse("table", kwargs={"table_id": table.id}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="buy_in"' in page and f"you have {low + 7}" in page  # the sit form says what one has

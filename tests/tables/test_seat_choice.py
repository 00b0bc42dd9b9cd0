"""Choosing where to sit: the sit form lists the free seats (each named by who sits before it),
a tap on an empty seat in the picture picks one (the seat carries its number), and the seat asked
for is the seat taken; a seat taken meanwhile is refused with a reason."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables import selectors, services
from tables.models import Seat
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def _table_with_one_player() -> tuple[object, object]:
    table = services.table_create(creator=None, name="Choice", small_blind=5, big_blind=10, max_seats=3, is_public=True)
    first = make_user("firstsitter")
    services.table_take_seat(table_id=table.id, user=first, buy_in=1000, seat_no=0)
    return table, first


def test_the_form_lists_the_free_seats_and_the_seat_asked_for_is_taken() -> None:
    table, first = _table_with_one_player()
    visitor = make_user("chooser")
    client = Client()
    client.force_login(visitor)
    page = client.get(reverse("table", args=[table.id])).content.decode()
    options = re.findall(r'<option value="(\d+)">([^<]+)</option>', page.split('id="seat-choice"')[1].split("</select>")[0])
    name = first.username.capitalize()
    assert [(no, label.strip().lower()) for no, label in options] == [
        ("1", f"seat 2, after {name}".lower()), ("2", f"seat 3, after {name}".lower())]
    client.post(reverse("table_sit", args=[table.id]), {"buy_in": "500", "seat": "2"})
    assert Seat.objects.get(table=table, user=visitor).seat_no == 2
    # Someone who asks for a seat taken meanwhile is told so, and sits nowhere.
    late = make_user("latecomer")
    other = Client()
    other.force_login(late)
    answer = other.post(reverse("table_sit", args=[table.id]), {"buy_in": "500", "seat": "2"}, follow=True).content.decode()
    assert "That seat is taken" in answer and not Seat.objects.filter(table=table, user=late).exists()
    # One seat left: nothing to choose, so no box.
    assert 'id="seat-choice"' not in other.get(reverse("table", args=[table.id])).content.decode()


def test_the_pictures_empty_seats_carry_their_numbers() -> None:
    table, _first = _table_with_one_player()
    html = selectors.table_snapshot(table_id=table.id, user=None)["html"]
    assert re.findall(r'<li class="seat seat--empty" data-seat="(\d+)">', html) == ["1", "2"]


def _sit_form(page: str) -> str:
    found = re.search(r'<form class="sit"[^>]*>', page)
    assert found, "the page has a sit form"
    return found.group(0)


def _full_note(page: str) -> str:
    found = re.search(r"<p[^>]*data-table-full[^>]*>", page)
    assert found, "the page has the full-table note"
    return found.group(0)


def test_a_full_table_hides_the_sit_form_and_says_a_seat_will_bring_it_back() -> None:
    table, _first = _table_with_one_player()
    for name, seat in (("secondsitter", 1), ("thirdsitter", 2)):
        services.table_take_seat(table_id=table.id, user=make_user(name), buy_in=1000, seat_no=seat)
    watcher = Client()
    watcher.force_login(make_user("watcher"))
    page = watcher.get(reverse("table", args=[table.id])).content.decode()
    assert " hidden" in _sit_form(page) and "data-needs-free-seat" in _sit_form(page)
    assert " hidden" not in _full_note(page) and "Every seat is taken" in page
    # A seat opens: the next page offers it and the note is hidden (the browser does the same
    # live from the picture's empty seats, tests/e2e/test_classic_browser.py).
    services.table_leave_seat(table_id=table.id, user=Seat.objects.get(table=table, seat_no=2).user)
    page = watcher.get(reverse("table", args=[table.id])).content.decode()
    assert " hidden" not in _sit_form(page)
    assert " hidden" in _full_note(page)


def test_a_visitor_not_logged_in_is_told_a_full_table_is_full() -> None:
    """Found by an audit: "Sign up to play" and nothing else, at a table with no seat to take."""
    table, _first = _table_with_one_player()
    page = Client().get(reverse("table", args=[table.id])).content.decode()
    assert "Sign up to play" in page and " hidden" in _full_note(page)
    for name, seat in (("visitorsecond", 1), ("visitorthird", 2)):
        services.table_take_seat(table_id=table.id, user=make_user(name), buy_in=1000, seat_no=seat)
    page = Client().get(reverse("table", args=[table.id])).content.decode()
    assert "Sign up to play" in page and " hidden" not in _full_note(page) and "Every seat is taken" in page

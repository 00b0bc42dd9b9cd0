"""A button's address visited with GET (``club.middleware.ButtonAddressMiddleware``): the page it
belongs to, with a note, instead of a blank 405; and the log-in that leads there."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club import services
from club.middleware import page_above
from club.models import GameNightReply
from tables.models import Seat
from tables.services import table_create
from tests.club.helpers import club_with_people

pytestmark = pytest.mark.django_db

NOTE = "That address is a button's: nothing was done."


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _notes(res) -> list[str]:
    return [str(m) for m in res.context["messages"]]


def _night(p):
    starts = timezone.now() + dt.timedelta(days=3)
    return services.game_night_schedule(club=p.club, by=p.host, starts_at=starts)


def test_page_above_is_the_nearest_address_the_site_answers() -> None:
    assert page_above("/clubs/3/nights/7/reply/") == "/clubs/3/nights/"  # a button's too: one more hop
    assert page_above("/clubs/3/nights/") == "/clubs/3/"
    assert page_above("/tables/5/host/pause/") == "/tables/5/"  # "/tables/5/host/" is no address
    assert page_above("/accounts/me/name/") == "/accounts/me/"
    assert page_above("/i18n/setlang/") == "/"


def test_a_visit_to_a_buttons_address_goes_to_its_page_and_changes_nothing() -> None:
    p = club_with_people()
    night = _night(p)
    c = _client(p.member)
    url = reverse("club_night_reply", args=[p.club.pk, night.pk])
    res = c.get(url)
    assert res.status_code == 302 and res.headers["Location"] == f"/clubs/{p.club.pk}/nights/"
    res = c.get(url, follow=True)
    assert res.status_code == 200
    assert res.redirect_chain[-1][0] == reverse("club_home", args=[p.club.pk])
    notes = _notes(res)
    assert sum(NOTE in n for n in notes) == 1, notes  # two hops, one note
    assert not GameNightReply.objects.exists()
    # Shown once: the next page has no note.
    assert not any(NOTE in n for n in _notes(c.get(reverse("club_home", args=[p.club.pk]))))


def test_a_post_to_the_same_address_still_works() -> None:
    p = club_with_people()
    night = _night(p)
    res = _client(p.member).post(reverse("club_night_reply", args=[p.club.pk, night.pk]), {"answer": "yes"})
    assert res.status_code == 302
    assert GameNightReply.objects.get(night=night).answer == "yes"


def test_other_methods_keep_their_405_and_other_pages_are_untouched() -> None:
    p = club_with_people()
    c = _client(p.member)
    url = reverse("club_night_schedule", args=[p.club.pk])
    assert c.put(url).status_code == 405
    assert c.delete(url).status_code == 405
    assert c.get("/clubs/999999/nights/").status_code == 302  # the address exists, the club need not
    assert c.get("/no/such/page/").status_code == 404
    assert c.get(reverse("club_home", args=[p.club.pk])).status_code == 200


def test_signed_out_before_pressing_a_button_then_logged_in_lands_on_its_page() -> None:
    """The phone's tab outlived its session: "Coming" pressed, the log-in page, then the club."""
    p = club_with_people()
    night = _night(p)
    user = get_user_model().objects.get(pk=p.member.pk)
    user.set_password("felt-and-chips-2026")
    user.save()
    c = Client()
    url = reverse("club_night_reply", args=[p.club.pk, night.pk])
    res = c.post(url, {"answer": "yes"})
    assert res.status_code == 302 and res.headers["Location"].startswith(reverse("login"))
    assert not GameNightReply.objects.exists()  # nothing done while signed out
    res = c.post(res.headers["Location"], {"username": user.username, "password": "felt-and-chips-2026"}, follow=True)
    assert res.status_code == 200
    assert res.redirect_chain[-1][0] == reverse("club_home", args=[p.club.pk])
    assert any(NOTE in n for n in _notes(res))
    assert not GameNightReply.objects.exists()  # the button is pressed again, not for them


def test_a_site_under_a_prefix_is_sent_to_the_page_under_it() -> None:
    p = club_with_people()
    res = _client(p.member).get(f"/clubs/{p.club.pk}/nights/", SCRIPT_NAME="/poker")
    assert res.status_code == 302 and res.headers["Location"] == f"/poker/clubs/{p.club.pk}/"


def test_a_tables_buttons_go_to_the_table() -> None:
    p = club_with_people(chips=1000)
    table = table_create(creator=p.owner, name="Kitchen", small_blind=5, big_blind=10)
    c = _client(p.member)
    res = c.get(reverse("table_sit", args=[table.pk]))
    assert res.status_code == 302 and res.headers["Location"] == reverse("table", args=[table.pk])
    assert not Seat.objects.filter(table=table).exists()


@pytest.mark.parametrize(("lang", "says"), [("he", "הכתובת הזו שייכת לכפתור"), ("ru", "Этот адрес — кнопки")])
def test_the_note_is_in_the_readers_language(lang: str, says: str) -> None:
    p = club_with_people()
    c = _client(p.member)
    c.cookies["lang"] = lang
    res = c.get(reverse("club_night_schedule", args=[p.club.pk]), follow=True)
    assert any(says in n for n in _notes(res)), _notes(res)

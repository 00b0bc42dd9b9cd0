"""A player's language goes with their account (club.middleware.AccountLanguageMiddleware; found
by an audit: a player who chose Russian found English on a new phone)."""

from __future__ import annotations

import pytest
from django.test import Client

from club.models import Profile
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def _lang(page: str) -> str:
    return page.split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_language_chosen_follows_the_player_to_a_new_device() -> None:
    user = make_user("lena")
    phone = Client()
    phone.force_login(user)
    assert _lang(phone.get("/").content.decode()) == "en"
    phone.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert _lang(phone.get("/").content.decode()) == "ru"
    assert Profile.objects.get(user=user).language == "ru"

    # A new browser, nothing chosen on it: the account's language, and the choice kept there.
    laptop = Client()
    laptop.force_login(user)
    page = laptop.get("/")
    assert _lang(page.content.decode()) == "ru"
    assert page.cookies["lang"].value == "ru"
    assert _lang(laptop.get("/").content.decode()) == "ru"  # from its own cookie now

    # A choice made on this device is the latest: it becomes the account's.
    laptop.post("/i18n/setlang/", {"language": "he", "next": "/"})
    assert _lang(laptop.get("/").content.decode()) == "he"
    assert Profile.objects.get(user=user).language == "he"
    # ... and the phone, which chose Russian itself, stays Russian.
    assert _lang(phone.get("/").content.decode()) == "ru"


def test_a_visitor_and_a_player_who_never_chose_are_left_to_their_browser() -> None:
    visitor = Client()
    assert _lang(visitor.get("/", HTTP_ACCEPT_LANGUAGE="he").content.decode()) == "he"
    assert "lang" not in visitor.cookies
    user = make_user("noam")
    player = Client()
    player.force_login(user)
    page = player.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert _lang(page.content.decode()) == "ru" and "lang" not in page.cookies
    assert Profile.objects.get(user=user).language == ""
    # A junk cookie is not a choice: not kept, not trusted.
    player.cookies["lang"] = "xx<script>"
    player.get("/")
    assert Profile.objects.get(user=user).language == ""

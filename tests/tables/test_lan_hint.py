"""Beside an invite link copied on a `make run` laptop browsed at 127.0.0.1, the page says a
phone cannot open it and links the same page at the computer's network address (found by an
audit: every link a host copied named the phone itself)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables import services
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def test_an_invite_link_copied_at_the_loopback_name_says_where_phones_open_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("config.lan.lan_address", lambda: "192.168.1.20")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    host = make_user("lanhost")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, is_public=False)
    client = Client()
    client.force_login(host)
    invite_page = reverse("table_invite", args=[table.id])
    for name in ("127.0.0.1:8000", "localhost:8000"):
        page = client.get(invite_page, HTTP_HOST=name).content.decode()
        assert f'href="http://192.168.1.20:8000{invite_page}"' in page and "make run HOST=0.0.0.0" in page
    table_page = client.get(reverse("table", args=[table.id]), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "invite-hint" in table_page
    # At any other name the links already work; a real site (DATABASE_URL) never says it.
    assert "invite-hint" not in client.get(invite_page).content.decode()
    monkeypatch.setenv("DATABASE_URL", "postgres://example.invalid/x")
    assert "invite-hint" not in client.get(invite_page, HTTP_HOST="127.0.0.1:8000").content.decode()
    monkeypatch.delenv("DATABASE_URL")
    monkeypatch.setattr("config.lan.lan_address", lambda: None)  # no network: nothing to offer
    assert "invite-hint" not in client.get(invite_page, HTTP_HOST="127.0.0.1:8000").content.decode()


def test_a_clubs_invite_links_page_says_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.club.helpers import club_with_people

    monkeypatch.setattr("config.lan.lan_address", lambda: "192.168.1.20")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    p = club_with_people("lan")
    client = Client()
    client.force_login(p.owner)
    url = reverse("club_invites", args=[p.club.pk])
    assert f'href="http://192.168.1.20:8000{url}"' in client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "invite-hint" not in client.get(url).content.decode()

"""The admin shows hands read-only, and nothing of a hand still being played that would give its
cards away (found by an audit: staff could read the whole deck mid-hand, and edit the salts or
``ended``)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tables.helpers import current_state, play_passively, seated_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "a long pass phrase 1")
    c = Client()
    c.force_login(admin)
    return c


def test_a_hand_in_play_shows_no_card_and_no_salt(staff: Client) -> None:
    table, _ = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    url = f"/admin/tables/hand/{hand.pk}/change/"
    page = staff.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert hand.deck_commitment in body  # what is public is there
    assert not any(salt in body for salt in hand.deck_salts)
    assert '"deck"' not in body and "&quot;deck&quot;" not in body
    hole = [str(c) for c in state.hole[0]]
    assert not all(card in body for card in hole)
    # Read-only: no change, no delete, no add.
    before = (hand.ended, list(hand.deck_salts))
    staff.post(url, {"ended_0": "2026-01-01", "ended_1": "00:00"})
    staff.post(f"/admin/tables/hand/{hand.pk}/delete/", {"post": "yes"})
    hand.refresh_from_db()
    assert (hand.ended, list(hand.deck_salts)) == before
    assert staff.get("/admin/tables/hand/add/").status_code == 403


def test_a_finished_hand_shows_its_state(staff: Client) -> None:
    table, _ = seated_table(n=2, game="NT")
    finished = play_passively(table)
    body = staff.get(f"/admin/tables/hand/{finished.pk}/change/").content.decode()
    assert finished.deck_salts[0] in body

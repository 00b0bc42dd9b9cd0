"""Every live hand commits to its deck before the deal and reveals it after."""

from __future__ import annotations

import hashlib

import pytest
from django.test import Client

from rules_engine import fairness
from tables.selectors import table_snapshot
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index

pytestmark = pytest.mark.django_db


def test_commitment_public_during_the_hand_salt_only_after() -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    assert len(hand.deck_commitment) == 64 and len(hand.deck_salt) == 32
    deck = fairness.deck_text(state.setup.deck)
    assert hashlib.sha256(f"{hand.deck_salt}|{deck}".encode()).hexdigest() == hand.deck_commitment
    for i in range(3):
        html = table_snapshot(table_id=table.id, user=user_for_index(hand, i))["html"]
        assert hand.deck_commitment[:16] in html
        assert hand.deck_salt not in html
    finished = play_passively(table)
    page = Client().get(f"/tables/{table.id}/hands/{finished.number}/")
    body = page.content.decode()
    assert page.status_code == 200
    assert finished.deck_commitment in body and finished.deck_salt in body and deck in body
    assert "Checked by the server" in body
    phh = Client().get(f"/tables/{table.id}/hands/{finished.number}.phh").content.decode()
    assert fairness.verify_phh(phh).ok


def test_each_hand_gets_its_own_deck_and_salt() -> None:
    table, users = seated_table(n=2)
    first, _ = current_state(table)
    play_passively(table)
    from django.utils import timezone

    from tables import services

    services.table_expire(table_id=table.id, now=timezone.now() + timezone.timedelta(minutes=1))
    second, _ = current_state(table)
    assert second.number == first.number + 1
    assert second.deck_salt != first.deck_salt and second.deck_commitment != first.deck_commitment

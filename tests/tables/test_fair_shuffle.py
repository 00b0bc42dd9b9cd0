"""Every live hand commits to its deck before the deal; afterwards each viewer's history opens
only the places of the cards that viewer may see, and verifies."""

from __future__ import annotations

import datetime as dt
import tomllib

import pytest
from django.test import Client
from django.utils import timezone

from rules_engine import fairness
from rules_engine.games import get_variant
from tables import services
from tables.selectors import table_snapshot
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index

pytestmark = pytest.mark.django_db


def _client_for(user: object) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_commitment_public_during_the_hand_secrets_never_sent() -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    commit = fairness.ShuffleCommitment(tuple(state.setup.deck), tuple(hand.deck_salts))
    assert commit.commitment == hand.deck_commitment
    for i in range(3):
        html = table_snapshot(table_id=table.id, user=user_for_index(hand, i))["html"]
        assert hand.deck_commitment[:16] in html
        assert not any(salt in html for salt in hand.deck_salts)


def test_each_viewer_gets_a_history_that_verifies_and_hides_the_folded() -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    # The first to act folds; the others see it through.
    actor = state.actors()[0]
    folder = user_for_index(hand, actor)
    services.table_act(table_id=table.id, user=folder, message={"action": "fold", "version": table.version})
    finished = play_passively(table)
    final = get_variant("PP").from_json(finished.state)
    folded_cards = {str(c) for c in final.hand_of(actor)}
    url = f"/tables/{table.id}/hands/{finished.number}"
    for client, sees_folded in ((Client(), False), (_client_for(folder), True), (_client_for(user_for_index(finished, (actor + 1) % 3)), False)):
        text = client.get(url + ".phh").content.decode()
        result = fairness.verify_phh(text)
        assert result.ok, result.message
        named = {str(c) for c in fairness._cards_in_history(tomllib.loads(text)["actions"])}
        assert bool(named & folded_cards) is sees_folded
        page = client.get(url + "/")
        assert page.status_code == 200
        body = page.content.decode()
        assert finished.deck_commitment in body and "Checked by the server" in body


def test_each_hand_gets_its_own_commitment() -> None:
    table, users = seated_table(n=2)
    first, _ = current_state(table)
    play_passively(table)
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(minutes=1))
    second, _ = current_state(table)
    assert second.number == first.number + 1
    assert second.deck_commitment != first.deck_commitment
    assert not set(second.deck_salts) & set(first.deck_salts)

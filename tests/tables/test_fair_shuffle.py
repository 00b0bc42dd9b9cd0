"""Every live hand commits to its deck before the deal; afterwards each viewer's history opens
only the places of the cards that viewer may see, and verifies."""

from __future__ import annotations

import datetime as dt
import re
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


def test_a_draw_table_reshuffles_in_the_committed_order() -> None:
    # Five-card draw's discards, when the stub runs out, are shuffled in an order fixed by the
    # committed deck and salts (the engine alone would use the natural card order).
    table, users = seated_table(n=3, game="F5D")
    hand, state = current_state(table)
    commit = fairness.ShuffleCommitment(tuple(state.setup.deck), tuple(hand.deck_salts))
    assert commit.commitment == hand.deck_commitment
    assert state.setup.reshuffle == fairness.reshuffle_order(commit)
    other, _ = current_state(seated_table(n=2, game="P5D")[0])
    assert get_variant("P5D").from_json(other.state).setup.reshuffle not in (None, state.setup.reshuffle)
    # Not for the other families, which never reshuffle.
    nt_hand, nt_state = current_state(seated_table(n=2, game="NT")[0])
    assert nt_state.setup.reshuffle is None


def test_a_draw_tables_history_keeps_each_seats_discards_to_that_seat() -> None:
    # Everyone throws away two and the hand goes to a showdown: the spectator and each other
    # player read the five cards every hand showed, never what it threw away.
    table, users = seated_table(n=3, game="F5D")
    hand, state = current_state(table)
    number = hand.number
    thrown: dict[int, set[str]] = {}
    for _ in range(60):
        table.refresh_from_db()
        hand, state = current_state(table)
        if hand.number != number or hand.ended is not None:
            break
        idx = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        message: dict[str, object] = {"version": table.version}
        if "draw" in kinds:
            cards = list(state.view_for(idx)["players"][idx]["cards"])[:2]
            thrown[idx] = set(cards)
            message.update(action="draw", cards=cards)
        else:
            message["action"] = next(k for k in ("check", "call") if k in kinds)
        services.table_act(table_id=table.id, user=user_for_index(hand, idx), message=message)
    finished = type(hand).objects.get(table=table, number=number)
    assert finished.ended is not None and len(thrown) == 3
    url = f"/tables/{table.id}/hands/{finished.number}.phh"
    for idx in range(3):
        others = set().union(*(cards for i, cards in thrown.items() if i != idx))
        text = _client_for(user_for_index(finished, idx)).get(url).content.decode()
        named = {str(c) for c in fairness._cards_in_history(tomllib.loads(text)["actions"])}
        assert thrown[idx] <= named and not named & others
        assert fairness.verify_phh(text).ok
    spectator = Client().get(url).content.decode()
    named = {str(c) for c in fairness._cards_in_history(tomllib.loads(spectator)["actions"])}
    assert not named & set().union(*thrown.values())


def test_a_hands_page_says_when_it_was_played_and_keeps_hashes_left_to_right() -> None:
    """Found by an audit: no date or time on a hand's page, and in Hebrew a sealed place's hash
    that starts with digits was reordered around the word "sealed"."""
    table, users = seated_table(n=3)
    finished = play_passively(table)
    c = _client_for(users[0])
    c.cookies["lang"] = "he"
    body = c.get(f"/tables/{table.id}/hands/{finished.number}/").content.decode()
    assert f'<time datetime="{timezone.localtime(finished.started).isoformat()}">' in body
    leaves = re.findall(r'<bdi dir="ltr"><code class="leaf">[0-9a-f]{16}…</code></bdi>', body)
    assert len(leaves) == 52


def test_a_history_saved_with_a_byte_order_mark_is_read() -> None:
    table, users = seated_table(n=3)
    finished = play_passively(table)
    text = _client_for(users[0]).get(f"/tables/{table.id}/hands/{finished.number}.phh").content.decode()
    result = fairness.verify_phh("\ufeff" + text)  # as Windows Notepad saves it
    assert result.ok, result.message


def test_a_history_names_its_table_hand_and_time() -> None:
    """PHH's optional fields say which hand a file is (an audit: a renamed file could not be
    placed): the table's name, the hand's number there, and when it was dealt, in UTC."""
    table, users = seated_table(n=3)
    finished = play_passively(table)
    text = _client_for(users[0]).get(f"/tables/{table.id}/hands/{finished.number}.phh").content.decode()
    fields = tomllib.loads(text)
    when = finished.started.astimezone(dt.UTC)
    assert (fields["table"], fields["hand"]) == (table.name, finished.number)
    assert (fields["year"], fields["month"], fields["day"]) == (when.year, when.month, when.day)
    assert fields["time"] == when.time().replace(microsecond=0) and fields["time_zone"] == "UTC"
    assert fairness.verify_phh(text).ok

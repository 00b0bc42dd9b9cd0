"""The hidden-card scanner: random live hands played through the services; after every action
the exact payload each viewer's socket would receive (and, after the hand, the public hand page)
is scanned for any card the rules have not yet shown to that viewer.

What a viewer may see is worked out here from the engine's full state, independently of the
views: the boards dealt so far, the viewer's own cards, and at the end the hands the showdown
revealed. Cards are looked for both as codes (``Ah``) and as the words screen readers get
("ace of hearts"), in English, Hebrew and Russian.
"""

from __future__ import annotations

import os
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from rules_engine.cards import FULL_DECK
from tables import services
from tables.handreader import card_name
from tables.models import Hand, Table
from tables.selectors import table_snapshot
from tests.tables.helpers import current_state, seated_table, user_for_index

pytestmark = pytest.mark.django_db

HANDS = int(os.environ.get("HIDDEN_SCAN_HANDS", "120"))
CODE_RE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def _names(lang: str) -> dict[str, str]:
    with translation.override(lang):
        return {str(card_name(c)): str(c) for c in FULL_DECK}


NAMES = {lang: _names(lang) for lang in ("en", "he", "ru")}


def cards_in(text: str, lang: str) -> set[str]:
    found = set(CODE_RE.findall(text))
    lowered = text.lower()
    for name, code in NAMES[lang].items():
        if name.lower() in lowered:
            found.add(code)
    return found


def allowed_for(state: Any, viewer: int | None, shown_after: tuple[int, ...] = ()) -> set[str]:
    ok = {str(c) for board in state.boards for c in board}
    if viewer is not None:
        ok |= {str(c) for c in state.hand_of(viewer)}
    if state.result is not None:
        for seat in (*state.result.shown, *shown_after):
            ok |= {str(c) for c in state.hand_of(seat)}
    return ok


def _random_action(rng: random.Random, state: Any) -> tuple[int, dict[str, Any]]:
    actors = list(state.actors())
    seat = rng.choice(actors)
    legal = state.legal_actions(seat)
    kinds = [la.kind for la in legal]
    if "swap" in kinds and rng.random() < 0.6:
        a, b = rng.sample([str(c) for c in state.hand_of(seat)], 2)
        return seat, {"action": "swap", "cards": [a, b]}
    choices = [k for k in kinds if k not in ("swap", "arrange")]
    weights = [{"fold": 1, "check": 5, "call": 5, "done": 5}.get(k, 2) for k in choices]
    return seat, {"action": rng.choices(choices, weights)[0]}


def _scan(table: Table, users: list[Any], hand: Hand, state: Any, lang: str, shown_after: tuple[int, ...] = ()) -> None:
    viewers: list[tuple[Any, int | None]] = [(user_for_index(hand, i), i) for i in range(len(hand.players))]
    viewers.append((None, None))
    with translation.override(lang):
        for user, index in viewers:
            payload = table_snapshot(table_id=table.id, user=user)
            assert payload is not None
            seen = cards_in(payload["html"], lang)
            leaked = seen - allowed_for(state, index, shown_after)
            assert not leaked, f"{lang}: viewer {index} was sent {sorted(leaked)} in phase {state.phase}"
            if shown_after:  # and what was shown after the hand did reach everyone
                for i in shown_after:
                    assert {str(c) for c in state.hand_of(i)} <= seen | {str(c) for b in state.boards for c in b}


def test_no_payload_ever_shows_a_card_before_its_time() -> None:
    rng = random.Random(2911)
    table, users = seated_table(n=3, buy_in=600)
    client = Client()
    scanned_hands = 0
    steps = 0
    shows = 0
    while scanned_hands < HANDS:
        hand, state = current_state(table)
        lang = rng.choice(["en", "he", "ru"])
        _scan(table, users, hand, state, lang)
        if state.is_over:
            # Half the time one player whose cards nobody saw shows them after the hand: from
            # then on everyone sees those, and still nothing else.
            shown_after: tuple[int, ...] = ()
            unseen = [i for i in range(len(hand.players)) if i not in state.result.shown]
            if unseen and rng.random() < 0.5:
                who = rng.choice(unseen)
                services.table_act(table_id=table.id, user=user_for_index(hand, who),
                                   message={"action": "show_cards", "version": table.version})
                table.refresh_from_db()
                shown_after = (who,)
                shows += 1
                _scan(table, users, hand, state, lang, shown_after)
            # The public page of the finished hand shows only what the showdown (and a player
            # showing after it) revealed.
            page = client.get(f"/tables/{table.id}/hands/{hand.number}/", HTTP_ACCEPT_LANGUAGE="en")
            assert page.status_code == 200
            leaked = cards_in(page.content.decode(), "en") - allowed_for(state, None, shown_after)
            assert not leaked, f"hand page leaks {sorted(leaked)}"
            download = client.get(f"/tables/{table.id}/hands/{hand.number}.phh").content.decode()
            named = {str(c) for c in _history_cards(download)}
            assert not named - allowed_for(state, None), f"history leaks {sorted(named - allowed_for(state, None))}"
            scanned_hands += 1
            # Top up anyone short so three keep playing, then end the showdown pause.
            table.refresh_from_db()
            _refill(table)
            services.table_expire(table_id=table.id, now=hand.deadline)
            table.refresh_from_db()
            continue
        seat, message = _random_action(rng, state)
        message["version"] = table.version
        services.table_act(table_id=table.id, user=user_for_index(hand, seat), message=message)
        table.refresh_from_db()
        steps += 1
    assert steps > HANDS * 5
    assert shows > HANDS // 5


def _history_cards(text: str) -> set[Any]:
    import tomllib

    from rules_engine import fairness

    fields = tomllib.loads(text)
    opened = {fairness.Revealed.parse(r).card for r in fields.get(fairness.REVEAL_FIELD, [])}
    return fairness._cards_in_history(fields.get("actions")) | opened


def _refill(table: Table) -> None:
    from tables.models import Seat

    for seat in Seat.objects.filter(table=table):
        changed = False
        if seat.stack < 20 * table.big_blind:
            # Test-only: put chips back on the seat directly so the same three keep playing.
            seat.stack = 600
            changed = True
        if seat.sitting_out:
            seat.sitting_out = False
            changed = True
        if changed:
            seat.save(update_fields=["stack", "sitting_out"])

"""At a flop or draw game the player reads what their cards make, under them, in the page's
language, as each Patch-Patch board says it: from the flop on at Hold'em and Omaha (its five cards
lit on the board and in the hand), always at draw, with the low named too at Omaha Hi-Lo."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tables import services
from tables.models import Table
from tests.tables.helpers import current_state, seated_table, user_for_index
from tests.tables.test_opponent_backs import _picture

pytestmark = pytest.mark.django_db

_JOINED_DASH = "-\u2060"  # a dash with a word joiner after it: no line break there


def _to_the_flop(table: Table) -> tuple[Any, Any]:
    hand, state = current_state(table)
    while len(state.board) < 3:
        actor = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(actor)]
        services.table_act(table_id=table.id, user=user_for_index(hand, actor),
                           message={"action": "check" if "check" in kinds else "call",
                                    "version": Table.objects.get(pk=table.pk).version})
        hand, state = current_state(table)
    return hand, state


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_a_flop_player_reads_what_their_cards_make(lang: str) -> None:
    from django.utils import translation

    from tables.handnames import hand_name
    from tables.presenter import category_name

    table, _users = seated_table(n=3, game="NT")
    hand, state = _to_the_flop(table)
    seat = state.actors()[0]
    made = state.made_hand(seat)
    with translation.override(lang):
        html = _picture(table.id, user_for_index(hand, seat))
        name = hand_name(made["category"], made["cards"], category_name)  # "Pair of nines"
    with translation.override("en"):
        english = hand_name(made["category"], made["cards"], category_name)
    assert english != category_name(made["category"])  # its ranks, not only "One pair"
    assert f'<p class="board__made">{name}</p>' in html
    assert (name == english) == (lang == "en")  # in the page's language
    # Its five cards are lit, on the board and in the hand; the others are not.
    lit = set(re.findall(r'<li class="card[^"]*card--used[^"]*" data-card="(\w\w)"', html))
    assert lit == set(made["cards"])


def test_pre_flop_nothing_is_named_and_a_draw_hand_always_is() -> None:
    table, _users = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    assert 'class="board__made"' not in _picture(table.id, user_for_index(hand, 0))
    table, _users = seated_table(n=3, game="F5D")
    hand, state = current_state(table)
    html = _picture(table.id, user_for_index(hand, 0))
    assert html.count('class="board__made"') == 1


def test_omaha_hi_lo_names_the_low_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seeded decks, so the deals are the same every run: about one deal in six has a low after
    # the flop, and forty shuffles from the OS's generator missed it now and then.
    import random

    decks = random.Random(64)
    monkeypatch.setattr(services.secrets, "SystemRandom", lambda: random.Random(decks.random()))
    table, _users = seated_table(n=3, game="PO/8")
    for _ in range(40):  # deals until one of them has a low after the flop
        hand, state = _to_the_flop(table)
        lows = [i for i in range(3) if (state.made_hand(i) or {}).get("low")]
        if lows:
            break
        table, _users = seated_table(n=3, game="PO/8")
    else:
        pytest.fail("no low in 40 deals")
    seat = lows[0]
    html = _picture(table.id, user_for_index(hand, seat))
    low = state.made_hand(seat)["low"]["description"]
    # Its dashes joined (a word joiner after each), so a narrow seat keeps it on one line.
    assert f" · low {low.replace('-', _JOINED_DASH)}</p>" in html
    # A hi-lo hand lights nothing while it plays: two hands share the cards.
    assert "card--used" not in html.split('class="board__results')[0]


@pytest.mark.parametrize("game", ["F7S", "FR"])
def test_a_stud_player_reads_it_from_the_fifth_card(game: str) -> None:
    from tables.handnames import hand_name
    from tables.presenter import category_name

    table, _users = seated_table(n=2, game=game)
    hand, state = current_state(table)
    watcher = user_for_index(hand, 0)
    assert "made--stud" not in _picture(table.id, watcher)  # three cards: nothing yet
    while state.made_hand(0) is None:
        actor = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(actor)]
        kind = next(k for k in ("check", "call", "bring_in", "complete") if k in kinds)
        services.table_act(table_id=table.id, user=user_for_index(hand, actor),
                           message={"action": kind, "version": Table.objects.get(pk=table.pk).version})
        hand, state = current_state(table)
    made = state.made_hand(0)
    html = _picture(table.id, watcher)
    shown = re.search(r'<p class="board__made made--stud">([^<]*)</p>', html)
    assert shown is not None
    if game == "FR":  # Razz: a low and nothing else
        assert shown.group(1) == f"Your hand: low {made['low']['description'].replace('-', _JOINED_DASH)}"
        # On a Hebrew page the low's ranks keep their order ("6-5-4-2-A", not "A-6-5-4-2"): a
        # left-to-right isolate around them.
        from django.utils import translation

        with translation.override("he"):
            he = _picture(table.id, watcher)
        assert f"\u2066{made['low']['description'].replace('-', _JOINED_DASH)}\u2069</p>" in he
    else:
        assert shown.group(1) == f"Your hand: {hand_name(made['category'], made['cards'], category_name)}"

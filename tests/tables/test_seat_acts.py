"""Each seat shows its last act of the betting round under way ("check", "call", "raise" ...),
as a live table does: cleared when a new round (or the arrangement, or the draw) begins and
gone at the end of the hand."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from rules_engine.games import Action, get_variant
from tables.models import Table
from tables.selectors import table_snapshot
from tests.tables.helpers import current_state, seated_table, user_for_index


def _acts(state) -> list[str | None]:
    return [p["act"] for p in state.view_for(None)["players"]]


def test_holdem_acts_last_for_the_round_and_clear_on_the_next_street() -> None:
    V = get_variant("NT")
    s = V.start(V.setup_for_table(stacks=(500, 500, 500), button=0, small_blind=5, big_blind=10), rng=random.Random(1))
    # Three-handed the button acts first before the flop: seat 0, then the blinds 1 and 2.
    assert _acts(s) == [None, None, None]  # posting a blind is not an act
    s.apply(Action(0, "raise", amount=30))
    s.apply(Action(1, "call"))
    assert _acts(s) == ["raise", "call", None]
    s.apply(Action(2, "call"))
    assert s.phase == "flop" and _acts(s) == [None, None, None]
    s.apply(Action(1, "check"))
    s.apply(Action(2, "bet", amount=40))
    assert _acts(s) == [None, "check", "bet"]
    s.apply(Action(0, "fold"))
    assert _acts(s)[0] is None  # a fold shows as folded, not as an act
    s.apply(Action(1, "fold"))
    assert s.is_over and _acts(s) == [None, None, None]


def test_every_view_agrees_with_the_log_in_every_game() -> None:
    """Replaying a hand (as the server does on every read) gives the same acts as playing it."""
    from tests.rules_engine.test_flop_games import random_hand

    for code in ("NT", "PO", "F7S", "F5D", "FT"):
        for seed in range(10):
            state = random_hand(code, random.Random(seed))
            V = get_variant(code)
            replay = V.start(state.setup)
            for action in state.log:
                replay.apply(action)
                again = V.from_json(replay.to_json())
                assert _acts(again) == _acts(replay), (code, seed)


@pytest.mark.django_db
@pytest.mark.parametrize("lang,word", [("en", ">call<"), ("he", ">השוואה<"), ("ru", ">колл<")])
def test_the_table_shows_a_call_on_the_callers_seat(lang: str, word: str) -> None:
    table, _users = seated_table(n=3, buy_in=600)
    hand, state = current_state(table)
    from tables import services

    actor = state.actors()[0]
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "call", "version": table.version})
    with translation.override(lang):
        html = table_snapshot(table_id=table.id, user=None)["html"]
    assert html.count('class="seat__act"') == 1 and word in html


@pytest.mark.django_db
def test_the_last_hands_list_names_each_hands_winner() -> None:
    from tables import services
    from tables.models import Hand

    table, users = seated_table(n=2, buy_in=500)
    hand, state = current_state(table)
    number = hand.number
    folder = user_for_index(hand, state.actors()[0])
    services.table_act(table_id=table.id, user=folder, message={"action": "fold", "version": table.version})
    done = Hand.objects.get(table=table, number=number)
    net = done.result["net"]
    winner = next(u for u in users if u.pk != folder.pk)
    html = table_snapshot(table_id=table.id, user=None)["html"]
    item = html.split(f"/hands/{number}/")[1].split("</li>")[0]
    assert winner.username in item and f"+{max(net)}" in item and folder.username not in item


@pytest.mark.django_db
@pytest.mark.parametrize("lang,sep,call", [("en", ",", "Call 50"), ("ru", "\u00a0", "Колл 50"), ("he", ",", "השוואה 50")])
def test_big_stacks_are_grouped_as_each_language_writes_them(lang: str, sep: str, call: str) -> None:
    from tables.fragment import render_table
    from tables.selectors import table_context

    table, _users = seated_table(n=2, buy_in=15_000, small_blind=50, big_blind=100, game="NT")
    hand, state = current_state(table)
    user = user_for_index(hand, state.actors()[0])
    with translation.override(lang):
        html = render_table(table_context(table_id=table.id, user=user))
    # The blinds are posted: 14,950 and 14,900 behind. Never ungrouped; looked for outside the
    # deck's fingerprint, a random hex digest that holds "14950" about once in 17,000 deals.
    assert f"14{sep}950" in html and f"14{sep}900" in html
    # (The viewer's own seat carries its stack as a plain number for the page's script.)
    shown = re.sub(r' data-stack="\d+"', "", html)
    assert "14950" not in shown.replace(hand.deck_commitment, "").replace(hand.deck_commitment[:16], "")
    assert call in html
    # Amounts the browser reads stay plain numbers.
    assert 'max="15000"' in html and 'data-size-preset="15000"' in html


@pytest.mark.django_db
def test_a_bet_is_said_once_on_the_seat() -> None:
    """Found by an audit: a seat read "bet 105" and "bet" under it. The chips in front say it;
    a raise or a call still says so beside them."""
    from tables import services

    table, _users = seated_table(n=3, buy_in=600, game="NT")
    hand, state = current_state(table)
    while not any(la.kind == "bet" for la in state.legal_actions(state.actors()[0])):
        actor = state.actors()[0]
        kinds = [la.kind for la in state.legal_actions(actor)]
        kind = next(k for k in ("check", "call") if k in kinds)
        services.table_act(table_id=table.id, user=user_for_index(hand, actor),
                           message={"action": kind, "version": Table.objects.get(pk=table.pk).version})
        hand, state = current_state(table)
    actor = state.actors()[0]  # the first to act on the flop
    services.table_act(table_id=table.id, user=user_for_index(hand, actor),
                       message={"action": "bet", "version": Table.objects.get(pk=table.pk).version})
    html = table_snapshot(table_id=table.id, user=None)["html"]
    seat = html.split('<span class="seat__bet">', 1)[1].split("</li>", 1)[0]
    assert 'class="seat__act"' not in seat and ">bet<" not in seat
    assert re.search(r"^bet <bdi dir=\"ltr\">[\d,]+</bdi>", seat)

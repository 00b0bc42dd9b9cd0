"""After a hand, a player whose cards nobody saw (a winner nobody called, or anyone who folded) may
show them to the table, until the next deal: every viewer then sees them, the hand's page tells
it, and nothing else is revealed. A show at any other time, or a second one, is refused."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tables import selectors, services
from tables.models import Hand, Table
from tables.services import TableError
from tests.tables.helpers import (
    current_state,
    make_user,
    play_passively,
    seated_table,
    user_for_index,
)
from tests.tables.test_hidden_cards import _history_cards, cards_in

pytestmark = pytest.mark.django_db


def _fold_first(table: Table) -> tuple[Hand, Any, int, int]:
    """The first to act folds: the hand is over, nobody's cards shown. Returns the hand, its
    state, the winner's and the folder's engine index."""
    hand, state = current_state(table)
    folder = state.actors()[0]
    kinds = [a.kind for a in state.legal_actions(folder)]
    if "fold" not in kinds:  # stud's forced bring-in (Baseball: a bet) first; then the other folds
        kind = "bring_in" if "bring_in" in kinds else "bet"
        legal = next(a for a in state.legal_actions(folder) if a.kind == kind)
        amount = getattr(legal, "min_amount", None) or getattr(legal, "amount", None)
        services.table_act(table_id=table.id, user=user_for_index(hand, folder),
                           message={"action": kind, "version": table.version, "amount": amount})
        table.refresh_from_db()
        folder = current_state(table)[1].actors()[0]
    services.table_act(table_id=table.id, user=user_for_index(hand, folder),
                       message={"action": "fold", "version": table.version})
    table.refresh_from_db()
    hand, state = current_state(table)
    assert hand.ended is not None and not state.result.shown
    return hand, state, 1 - folder, folder


def _show(table: Table, hand: Hand, idx: int) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                       message={"action": "show_cards", "version": table.version})
    table.refresh_from_db()


def _html(table: Table, user: Any, lang: str = "en") -> str:
    with translation.override(lang):
        snap = selectors.table_snapshot(table_id=table.id, user=user)
    assert snap is not None
    return str(snap["html"])


@pytest.mark.parametrize("game", ["NT", "PO", "F7S", "F5D", "PP", "BB"])
def test_a_winner_nobody_called_shows_and_everyone_sees_exactly_that(game: str) -> None:
    table, users = seated_table(n=2, game=game)
    hand, state, winner, folder = _fold_first(table)
    win_user, fold_user = user_for_index(hand, winner), user_for_index(hand, folder)
    stranger = make_user(f"rail{table.id}")
    winner_cards = {str(c) for c in state.hand_of(winner)}
    viewers = ((fold_user, "folder"), (stranger, "rail"), (None, "anonymous"), (win_user, "winner"))
    client = Client()
    page_url = f"/tables/{table.id}/hands/{hand.number}/"
    before = {(name, lang): cards_in(_html(table, u, lang), lang) for u, name in viewers for lang in ("en", "he", "ru")}
    first_page = client.get(page_url).content.decode()
    page_before = cards_in(first_page, "en")
    assert "every card shown came from its sealed place" in first_page
    # Before: the winner's hidden cards reach nobody else (stud's up cards are everyone's), and
    # both players are offered the button.
    hidden = winner_cards - before[("folder", "en")]
    assert hidden and winner_cards <= before[("winner", "en")]
    assert not hidden & (before[("rail", "en")] | page_before)
    for u in (win_user, fold_user):
        assert 'data-action="show_cards"' in _html(table, u)
    assert 'data-action="show_cards"' not in _html(table, stranger)
    version = table.version
    _show(table, hand, winner)
    assert table.version == version + 1
    for u, name in viewers:
        for lang in ("en", "he", "ru"):
            seen = cards_in(_html(table, u, lang), lang)
            assert winner_cards <= seen, (name, lang)
            assert seen - before[(name, lang)] <= winner_cards, (name, lang)  # nothing else
    # The winner's button is gone; the folder may still show theirs.
    assert 'data-action="show_cards"' not in _html(table, win_user)
    assert 'data-action="show_cards"' in _html(table, fold_user)
    with pytest.raises(TableError, match="already shown"):
        _show(table, hand, winner)
    # The hand's page tells it, after the hand; the PHH download keeps the hand as it was played.
    page = client.get(page_url).content.decode()
    assert "After the hand" in page and hidden <= cards_in(page, "en")
    # ... and the fairness line no longer claims cards it did not check (found by an audit).
    assert "every card shown came from" not in page and "Cards shown after the hand are not in the history" in page
    assert cards_in(page, "en") - page_before <= winner_cards
    with translation.override("ru"):
        assert "После раздачи" in client.get(page_url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    phh = client.get(f"/tables/{table.id}/hands/{hand.number}.phh").content.decode()
    assert not hidden & set(_history_cards(phh))


def test_a_show_is_refused_during_a_hand_after_the_next_deal_and_from_outside_the_hand() -> None:
    table, users = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    who = state.actors()[0]
    with pytest.raises(TableError, match="after a hand"):
        _show(table, hand, who)
    assert Hand.objects.get(pk=hand.pk).shown_after == []
    # A stale version changes nothing either.
    play_passively(table)
    table.refresh_from_db()
    with pytest.raises(TableError):
        services.table_act(table_id=table.id, user=user_for_index(hand, 0),
                           message={"action": "show_cards", "version": table.version - 1})
    # Someone who sat down after the deal was not dealt in.
    late = make_user(f"late{table.id}")
    Table.objects.filter(id=table.id).update(max_seats=4)
    services.table_take_seat(table_id=table.id, user=late, buy_in=500)
    table.refresh_from_db()
    with pytest.raises(TableError, match="not dealt"):
        services.table_act(table_id=table.id, user=late, message={"action": "show_cards", "version": table.version})
    # The next deal closes the window.
    finished = Hand.objects.get(pk=hand.pk)
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    assert Hand.objects.filter(table=table).count() == 2
    with pytest.raises(TableError, match="after a hand"):
        _show(table, hand, 0)
    assert Hand.objects.get(pk=hand.pk).shown_after == []


def test_hands_shown_at_the_showdown_have_no_button_and_cannot_show_again() -> None:
    table, users = seated_table(n=2, game="PP")
    hand = play_passively(table)
    hand, state = current_state(table)
    assert state.result.shown
    shown = state.result.shown[0]
    assert 'data-action="show_cards"' not in _html(table, user_for_index(hand, shown))
    with pytest.raises(TableError, match="already shown"):
        _show(table, hand, shown)

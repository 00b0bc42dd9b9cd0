"""Refusals from the rules reach the player as a sentence in their language, not the engine's
English about engine seats; and nothing changes."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn
from tables import refusals, services
from tables.models import Table
from tests.tables.helpers import current_state, seated_table, user_for_index

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("exc", "expected"), [
    (IllegalAction("the arrangement is over: the three hands are fixed"), "The arrangement is over: your three hands are fixed."),
    (OutOfTurn("it is seat 2's turn to act, not seat 0's"), "It is not your turn."),
    (IllegalAction("seat 1 may raise pot to [40], not 55"), "That amount is not allowed here."),
    (IllegalAction("seat 0 does not hold Ah"), "Those are not your cards."),
    (MalformedAction("an action needs a seat and a kind"), "That action could not be read."),
    (IllegalAction("something new the engine says"), "That is not allowed at this point of the hand."),
])
def test_engine_refusals_become_player_sentences(exc: Exception, expected: str) -> None:
    with translation.override("en"):
        assert refusals.player_message(exc) == expected  # type: ignore[arg-type]
    with translation.override("ru"):
        russian = refusals.player_message(exc)  # type: ignore[arg-type]
    assert russian != expected and any("а" <= ch <= "я" for ch in russian.lower())


def test_an_out_of_turn_action_is_refused_in_the_players_language() -> None:
    table, _users = seated_table()
    hand, state = current_state(table)
    waiting = next(i for i in range(len(hand.players)) if i not in state.actors())
    for lang, words in (("en", "It is not your turn."), ("he", "זה לא התור שלכם."), ("ru", "Сейчас не ваш ход.")):
        with translation.override(lang), pytest.raises(services.TableError) as refused:
            services.table_act(table_id=table.id, user=user_for_index(hand, waiting),
                               message={"action": "call", "version": table.version})
        assert str(refused.value) == words
    assert Table.objects.get(id=table.id).version == table.version

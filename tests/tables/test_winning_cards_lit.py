"""At a showdown the cards that won are lit in each winner's shown hand, as the board's are: the
hole cards a Hold'em or Omaha winner played, the five of a stud winner's seven, the two of each
Patch-Patch four that took a board; the winner's other cards are dimmed and a loser's hand is drawn
plain. Only cards already face up are drawn, so nothing hidden is added."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from tables import selectors
from tables.models import Seat
from tables.selectors import _display_name
from tests.tables.helpers import current_state, play_passively, seated_table

pytestmark = pytest.mark.django_db

_CARD = re.compile(r'<li class="(card[^"]*)" data-card="(\w\w)"')


def _seat_cards(html: str) -> dict[str, list[tuple[str, str]]]:
    """Seat name -> (classes, card) for every card drawn face up at that seat."""
    part = html.split('<ol class="seats">', 1)[1].split("</ol>", 1)[0]
    out = {}
    for chunk in part.split('<li class="seat')[1:]:
        name = re.search(r'<span class="seat__name" title="([^"]*)"', chunk)
        if name:
            out[name.group(1)] = [(c, card) for c, card in _CARD.findall(chunk)]
    return out


def _won(result: dict[str, Any], seat: int) -> list[set[str]]:
    """Each winning hand of ``seat`` (per board), as its cards."""
    hands = []
    for pot in result["pots"]:
        for board in pot.get("boards") or []:
            for w in board["winners"]:
                if w["seat"] == seat:
                    hands.append(set(w["cards"]))
        for w in pot.get("winners") or []:  # Baseball's one pot
            if isinstance(w, dict) and w["seat"] == seat and w["cards"]:
                hands.append(set(w["cards"]))
    return hands


def _showdown(game: str) -> tuple[Any, Any, str]:
    for _ in range(30):
        table, _users = seated_table(n=3, game=game)
        hand = play_passively(table)
        state = current_state(table)[1]
        result = state.result.to_json()
        if result["showdown"]:
            snap = selectors.table_snapshot(table_id=table.id, user=AnonymousUser())
            assert snap is not None
            return hand, result, str(snap["html"])
    pytest.fail(f"no showdown in 30 {game} hands")


@pytest.mark.parametrize("game", ["NT", "PO", "F7S", "F5D", "PP", "BB"])
def test_the_winners_cards_are_lit_and_the_losers_are_plain(game: str) -> None:
    hand, result, html = _showdown(game)
    seats = _seat_cards(html)
    by_name = {i: _display_name(Seat.objects.get(table_id=hand.table_id, seat_no=seat_no).user)
               for i, (seat_no, _user_id, _start) in enumerate(hand.players)}
    lit_somewhere = False
    for i in range(len(hand.players)):
        cards = seats.get(by_name[i], [])
        lit = {card for classes, card in cards if "card--used" in classes}
        dim = {card for classes, card in cards if "card--idle" in classes}
        wins = _won(result, i)
        held = {card for _c, card in cards}
        if not wins or not cards:
            assert not lit and not dim, (game, i, "a seat that won nothing is drawn plain")
            continue
        expected = set().union(*wins) & held
        if not expected:  # the board played: none of the winner's own cards to light, drawn plain
            assert not lit and not dim, (game, i, "a winner whose own cards did not play is drawn plain")
            continue
        assert lit == expected, (game, i)
        lit_somewhere = lit_somewhere or bool(lit)
        if game != "PP":  # Patch-Patch lights per board; its other boards' fours may be plain
            assert dim == held - expected
    assert lit_somewhere, "some winner's own cards were lit"

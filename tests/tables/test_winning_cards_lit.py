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
    # Every showdown is checked; a deal where the board alone played (no winner's own card to
    # light: about one Hold'em showdown in fifty) is checked too and another one is played, so
    # that the lit case is always seen as well.
    for _ in range(10):
        if _check_one_showdown(game):
            return
    pytest.fail(f"in 10 {game} showdowns no winner's own cards played")


def _check_one_showdown(game: str) -> bool:
    """Check one showdown's picture; whether some winner's own cards were lit in it."""
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
    return lit_somewhere


def _showdown_after_a_fold(game: str, seed: int, monkeypatch: Any) -> tuple[Any, Any, Any, int]:
    """Three players, a seeded deck: the first to act folds, the other two check and call to the
    showdown. The table, the finished hand, its state and the folder's engine seat."""
    import random

    from tables import services
    from tests.tables.helpers import user_for_index

    decks = random.Random(seed)
    monkeypatch.setattr(services.secrets, "SystemRandom", lambda: random.Random(decks.random()))
    table, _users = seated_table(n=3, game=game)
    hand, state = current_state(table)
    folder = state.actors()[0]
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user_for_index(hand, folder), message={"action": "fold", "version": table.version})
    play_passively(table)
    done, final = current_state(table)
    assert done.number == hand.number and final.result is not None
    return table, done, final, folder


@pytest.mark.parametrize("seed", range(6))
def test_a_viewers_own_cards_are_lit_only_with_the_hand_the_board_lights(seed: int, monkeypatch: Any) -> None:
    """Found by an audit: under a board lit with the winner's straight, a loser's own four lit
    their pair, and a player who had folded still read their hand's name. Now the viewer's cards
    under a board are lit only when they are (part of) its winning hand; a lost board names their
    hand unlit; a folded hand shows its cards with no name and nothing lit."""
    from tables.presenter import _pp_boards

    _table, _done, final, folder = _showdown_after_a_fold("PP", seed, monkeypatch)
    names = {i: f"p{i}" for i in range(3)}
    for i in range(3):
        rows = _pp_boards(final.view_for(i), names)
        assert len(rows) == 3
        for row in rows:
            lit = {p["pic"].card for p in row.mine if p["pic"].used}
            if i == folder:
                assert row.made == "" and not lit
            elif lit:
                assert any(w["name"] == names[i] for w in row.results), (i, row.index)
            else:
                assert row.made  # a hand still in at the showdown is named on every board


@pytest.mark.parametrize("seed", range(6))
def test_holdem_the_viewers_own_cards_follow_the_same_rule(seed: int, monkeypatch: Any) -> None:
    from tests.tables.helpers import user_for_index

    table, done, final, folder = _showdown_after_a_fold("NT", seed, monkeypatch)
    winners = {w["seat"] for p in final.result.to_json()["pots"] for b in p["boards"] for w in b["winners"]}
    for i in range(3):
        html = str(selectors.table_snapshot(table_id=table.id, user=user_for_index(done, i))["html"])
        row = html.split('<div class="board__mine">', 1)[1].split("</div>", 1)[0]
        lit = [c for classes, c in _CARD.findall(row) if "card--used" in classes]
        if i == folder:
            assert not lit and "board__made" not in row
        elif lit:
            assert i in winners, i

"""A finished hand's page replays it step by step (``?step=k``; htmx asks for the replay alone):
the deal, then each action (an arrangement's single swaps folded into "done"), to the end, drawn
as the live table draws it without buttons, with what the story says of each step. Each step is
what the reader saw then: a player their own cards, nobody a card the table had not shown."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from rules_engine.games import get_variant
from tables.models import Seat
from tables.selectors import _display_name
from tables.story import hand_story
from tests.tables.helpers import play_passively, seated_table

pytestmark = pytest.mark.django_db

CARD = re.compile(r'data-card="(\w\w)"')


def _replay(client: Client, url: str, step: int | str, htmx: bool = True) -> str:
    """The replay at ``step``: as htmx asks for it (the section alone), or the whole page."""
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "replay"} if htmx else {}
    return client.get(f"{url}?step={step}", HTTP_ACCEPT_LANGUAGE="en", **headers).content.decode()


def _steps(html: str) -> tuple[int, int]:
    """(this step, the last step), counted from 0 (the page counts from 1: "Step 1 of 9")."""
    n, last = re.search(r"Step (\d+) of (\d+)", html).groups()
    return int(n) - 1, int(last) - 1


@pytest.mark.parametrize("game", ["NT", "PP", "F7S"])
def test_every_step_shows_only_what_the_reader_saw_then(game: str) -> None:
    table, users = seated_table(n=3, game=game)
    hand = play_passively(table)
    hand.refresh_from_db()
    state = get_variant(hand.game).from_json(hand.state)
    url = f"/tables/{table.id}/hands/{hand.number}/"
    holes = {i: {str(c) for c in state.hand_of(i)} for i in range(3)}
    shown = {i for i in range(3) if state.result.showdown and i in state.result.shown}
    me = 0
    player = Seat.objects.get(table=table, seat_no=hand.players[me][0]).user
    watcher, mine = Client(), Client()
    mine.force_login(player)
    _n, last = _steps(_replay(watcher, url, 0))
    assert last >= 3
    for step in range(last + 1):
        seen = set(CARD.findall(_replay(watcher, url, step)))
        theirs = set(CARD.findall(_replay(mine, url, step)))
        for i in range(3):
            if step < last or i not in shown:
                # Stud's up cards are public as they fall; everything else stays hidden.
                up = {str(c) for c in state.up_cards(i)} if game == "F7S" and hasattr(state, "up_cards") else set()
                assert not (seen & (holes[i] - up)), (game, step, i)
                if i != me:
                    assert not (theirs & (holes[i] - up)), (game, step, i)
        if game != "F7S":  # a stud player's cards come street by street
            assert holes[me] <= theirs, (game, step)  # the player's own cards, at every step


def test_the_steps_tell_the_whole_story_in_order_and_htmx_gets_the_replay_alone() -> None:
    table, users = seated_table(n=3, game="NT")
    hand = play_passively(table)
    hand.refresh_from_db()
    url = f"/tables/{table.id}/hands/{hand.number}/"
    client = Client()
    n, last = _steps(_replay(client, url, 0))
    told = []
    for step in range(last + 1):
        told += re.findall(r"<li(?: class=\"replay__title\")?>([^<]+)</li>", _replay(client, url, step))
    state = get_variant(hand.game).from_json(hand.state)
    names = [_display_name(Seat.objects.get(table=table, seat_no=p[0]).user) for p in hand.players]
    story = []
    for section in hand_story(game=hand.game, state=state, names=names):
        story.append(section.title)
        story += [line.text for line in section.lines]
    from html import unescape

    assert [unescape(t) for t in told] == story
    # Out of range or not a number: the nearest step, nothing breaks.
    assert _steps(_replay(client, url, 999)) == (last, last)
    assert _steps(_replay(client, url, -4)) == (0, last)
    assert _steps(_replay(client, url, "x")) == (0, last)
    # A step's buttons ask htmx for the replay alone; no buttons to act are ever drawn in it.
    partial = _replay(client, url, 1)
    assert partial.startswith('<section id="replay"') and "<html" not in partial
    page = _replay(client, url, 1, htmx=False)  # without htmx: the whole page, at that step
    assert "<html" in page and partial in page
    assert "data-action=" not in partial and _steps(partial) == (1, last)
    assert 'hx-get="?step=2"' in partial and 'hx-get="?step=0"' in partial

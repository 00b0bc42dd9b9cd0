"""Every classic game plays at a live table: a hand dealt, played to its end through the
services, the table fragment rendered for every viewer without a hidden card, stacks settled."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db.models import Sum
from django.utils import timezone

from rules_engine.games import get_variant
from tables import services
from tables.models import LIVE_GAMES, Hand, Seat
from tables.selectors import table_snapshot
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index

pytestmark = pytest.mark.django_db

CLASSIC = sorted(code for code in LIVE_GAMES if code not in ("PP", "BB"))
CODE_RE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def test_the_classic_games_are_live() -> None:
    for code in ("NT", "PO"):
        assert code in LIVE_GAMES


@pytest.mark.parametrize("code", CLASSIC)
def test_a_hand_of_every_classic_game_plays_out(code: str) -> None:
    variant = get_variant(code)
    players = min(4, variant.MAX_PLAYERS)
    table, users = seated_table(n=players, buy_in=1000, game=code, max_seats=players)
    hand, state = current_state(table)
    assert len(hand.players) == players
    # Every viewer's fragment holds only cards that viewer may see.
    for i in range(players):
        html = table_snapshot(table_id=table.id, user=user_for_index(hand, i))["html"]
        mine = set(CODE_RE.findall(str(state.view_for(i))))
        assert set(CODE_RE.findall(html)) <= mine
    spectator = table_snapshot(table_id=table.id, user=None)["html"]
    assert set(CODE_RE.findall(spectator)) <= set(CODE_RE.findall(str(state.view_for(None))))
    # The dealer button is marked where it matters (blinds, first to act); stud has none.
    assert ("badge--button" in spectator) == (variant.FAMILY != "stud")
    finished = play_passively(table, max_steps=400)
    assert finished.ended is not None
    total = Seat.objects.filter(table=table).aggregate(s=Sum("stack"))["s"]
    # A public 5-10 table takes no rake.
    assert total == players * 1000
    assert finished.phh
    # Its history replays and proves the deck was fixed before the deal.
    from rules_engine import fairness
    from tables.selectors import hand_history_text

    check = fairness.verify_phh(hand_history_text(hand=finished, user=None))
    assert check.ok, check.message
    # The next hand is dealt after the pause.
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(minutes=1))
    assert Hand.objects.filter(table=table).count() == 2

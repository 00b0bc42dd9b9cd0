"""A public table's rake is said on the felt once the hand is over ("Pot 60 paid out · rake 1"),
so the winners' lines add up to the pot (found by an audit: the rake was only on the hand's page
and in the ledger). A table with no rake says nothing of it."""

from __future__ import annotations

import re

import pytest

from club.models import LedgerEntry
from tables import selectors
from tables.fragment import render_table
from tests.tables.helpers import play_passively, seated_table

pytestmark = pytest.mark.django_db


def _felt(table, user) -> str:  # type: ignore[no-untyped-def]
    return str(render_table(selectors.table_context(table_id=table.id, user=user)))


def test_the_rake_taken_is_said_beside_the_pot_paid_out() -> None:
    table, (a, b) = seated_table(n=2, game="NT", small_blind=10, big_blind=20)
    assert table.takes_rake
    finished = play_passively(table)  # checked and called down: the flop is seen, rake is taken
    rake = abs(sum(LedgerEntry.objects.filter(kind=LedgerEntry.Kind.RAKE, table_id=table.id).values_list("amount", flat=True)))
    assert rake > 0 and finished.ended is not None
    html = _felt(table, a)
    assert re.search(rf'paid out</span> <span class="pot__paid pot__rake">· rake {rake}</span>', html), html[:2000]


def test_a_table_without_rake_says_nothing_of_it() -> None:
    table, (a, b) = seated_table(n=2, game="NT", is_public=False)
    play_passively(table)
    html = _felt(table, a)
    assert "paid out" in html and "pot__rake" not in html

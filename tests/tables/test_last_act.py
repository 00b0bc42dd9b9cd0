"""A picture names the hand's latest act by another player ("Carol: call"), numbered by the acts
so far: the page's screen-reader announcements say it when the round it ended is cleared from the
seats (static/js/table.js). The acting player's own picture leaves it out."""

from __future__ import annotations

import pytest
from django.utils import translation

from tables import selectors, services
from tests.tables.helpers import current_state, seated_table, user_for_index

pytestmark = pytest.mark.django_db


def test_the_latest_act_is_named_for_the_others_and_not_for_the_actor() -> None:
    table, users = seated_table(3, game="NT")
    snap = selectors.table_snapshot(table_id=table.id, user=users[0])
    assert snap is not None and "last" not in snap  # the blinds are posted, nobody acted yet
    hand, state = current_state(table)
    idx = state.actors()[0]
    actor = user_for_index(hand, idx)
    services.table_act(table_id=table.id, user=actor, message={"action": "call", "version": table.version})
    from club.selectors import display_name

    for u in users:
        snap = selectors.table_snapshot(table_id=table.id, user=u)
        assert snap is not None
        if u.pk == actor.pk:
            assert "last" not in snap
        else:
            assert snap["last"] == f"{display_name(actor)}: call" and snap["last_n"] >= 1
    spectator = selectors.table_snapshot(table_id=table.id, user=None)
    assert spectator is not None and spectator["last"].endswith(": call")
    with translation.override("ru"):
        snap = selectors.table_snapshot(table_id=table.id, user=None)
    assert snap is not None and snap["last"].split(": ")[1] not in ("call", "")

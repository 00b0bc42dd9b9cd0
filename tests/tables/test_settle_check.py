"""Settling a hand checks the chips: the players' nets and the engine's rake must sum to zero.
(The rake used to be taken as the difference of the stacks, so the check could never fail.)"""

from __future__ import annotations

import pytest

from club.models import LedgerEntry
from club.services import ChipsError
from rules_engine.games.patchpatch import PatchPatchState
from tables import services
from tables.models import Hand, Seat
from tests.tables.helpers import current_state, seated_table, user_for_index

pytestmark = pytest.mark.django_db


def test_a_hand_whose_stacks_do_not_add_up_is_refused_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _users = seated_table(n=2, buy_in=500)
    hand, state = current_state(table)
    real = PatchPatchState.stacks

    def one_chip_too_many(self: PatchPatchState) -> tuple[int, ...]:
        stacks = real.fget(self)  # type: ignore[attr-defined]
        return (stacks[0] + 1, *stacks[1:]) if self.result is not None else stacks

    monkeypatch.setattr(PatchPatchState, "stacks", property(one_chip_too_many))
    stacks_before = sorted(Seat.objects.filter(table=table).values_list("stack", flat=True))
    entries_before = LedgerEntry.objects.count()
    actor = state.actors()[0]
    with pytest.raises(ChipsError):
        services.table_act(table_id=table.id, user=user_for_index(hand, actor),
                           message={"action": "fold", "version": table.version})
    # Nothing moved: the hand is still on, the stacks and the ledger as they were.
    assert Hand.objects.get(pk=hand.pk).ended is None
    assert sorted(Seat.objects.filter(table=table).values_list("stack", flat=True)) == stacks_before
    assert LedgerEntry.objects.count() == entries_before
    # With the engine's own stacks the same fold settles.
    monkeypatch.setattr(PatchPatchState, "stacks", real)
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "fold", "version": table.version})
    assert Hand.objects.get(pk=hand.pk).ended is not None

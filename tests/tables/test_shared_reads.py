"""Viewers of one table version share one read of it, and never get an older version's picture
when they ask for the table as it is now."""

from __future__ import annotations

import pytest

from tables import selectors, services
from tests.tables.helpers import current_state, seated_table, user_for_index

pytestmark = pytest.mark.django_db


def test_each_version_is_read_once_and_a_new_version_is_read_again(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    table, users = seated_table()
    first = selectors.table_snapshot(table_id=table.id, user=users[0])
    assert first is not None
    # The other players of the same version: each reads the table row, and nothing else.
    with django_assert_max_num_queries(len(users) - 1):
        for u in users[1:]:
            assert selectors.table_snapshot(table_id=table.id, user=u)["version"] == first["version"]  # type: ignore[index]
    # Told the version by the group message: not even the table row.
    with django_assert_max_num_queries(0):
        selectors.table_snapshot(table_id=table.id, user=users[1], version_hint=first["version"])
    hand, state = current_state(table)
    idx = state.actors()[0]
    kinds = [a.kind for a in state.legal_actions(idx)]
    choice = next(k for k in ("done", "check", "call") if k in kinds)
    new = services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                             message={"action": choice, "version": first["version"]}).version
    # Asked for the table as it is (no hint, or a hint for a version not read yet): the new one.
    assert selectors.table_snapshot(table_id=table.id, user=users[2])["version"] == new  # type: ignore[index]
    selectors.clear_shared_reads()
    assert selectors.table_snapshot(table_id=table.id, user=users[2], version_hint=new)["version"] == new  # type: ignore[index]


def test_a_reused_row_id_never_matches_an_old_entry() -> None:
    table, users = seated_table()
    snap = selectors.table_snapshot(table_id=table.id, user=users[0])
    assert snap is not None
    # Another table that got the same id and version after a rollback has another invite code.
    table.invite_code = "someone-else"
    table.save(update_fields=["invite_code"])
    assert selectors._SHARED[table.id][0] != (snap["version"], "someone-else")
    selectors.table_snapshot(table_id=table.id, user=users[0])
    assert selectors._SHARED[table.id][0] == (snap["version"], "someone-else")


def test_the_last_hands_list_follows_the_hands_ending() -> None:
    from tests.tables.helpers import play_passively

    table, users = seated_table()
    before = selectors.table_context(table_id=table.id, user=users[0])
    assert before is not None and before["recent_hands"] == []
    finished = play_passively(table)
    table.refresh_from_db()
    after = selectors.table_context(table_id=table.id, user=users[0])
    assert after is not None
    assert [h["number"] for h in after["recent_hands"]] == [finished.number]
    assert after["recent_hands"][0]["href"].endswith(f"/{finished.number}/")


@pytest.mark.django_db(transaction=True)
def test_the_writer_hands_its_rows_to_the_viewers_and_they_draw_what_the_database_says(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    table, users = seated_table()
    selectors.clear_shared_reads()
    checked = 0
    for _ in range(6):  # several actions inside hands: arrangement, betting
        first = selectors.table_snapshot(table_id=table.id, user=users[0])
        assert first is not None
        hand, state = current_state(table)
        if hand.ended is not None or not state.actors():
            break
        idx = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        choice = next(k for k in ("done", "check", "call") if k in kinds)
        new = services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                                 message={"action": choice, "version": first["version"]}).version
        hand.refresh_from_db()
        if hand.ended is not None:
            break  # the hand was settled: seats changed, nothing is primed (read as usual)
        with django_assert_max_num_queries(0):
            primed = [selectors.table_snapshot(table_id=table.id, user=u, version_hint=new) for u in users]
        selectors.clear_shared_reads()
        read = [selectors.table_snapshot(table_id=table.id, user=u, version_hint=new) for u in users]
        for a, b in zip(primed, read, strict=True):
            assert a is not None and b is not None
            assert a["version"] == b["version"] == new
            assert a["html"] == b["html"] and a["deadline"] == b["deadline"] and a["clock"] == b["clock"]
        checked += 1
    assert checked >= 3


def test_nothing_is_primed_without_the_version_before() -> None:
    table, users = seated_table()
    selectors.clear_shared_reads()
    hand, state = current_state(table)
    assert not selectors.prime_shared_reads(table=table, hand=hand, state=state)
    assert table.id not in selectors._SHARED


@pytest.mark.django_db(transaction=True)
def test_the_last_hands_list_is_drawn_per_language_and_follows_the_hands() -> None:
    from django.urls import reverse
    from django.utils import translation

    from tests.tables.helpers import play_passively

    table, users = seated_table()
    first = selectors.table_snapshot(table_id=table.id, user=users[0])
    assert first is not None and reverse("hand_history", args=[table.id, 1]) not in first["html"]
    play_passively(table)  # hand 1 ends, hand 2 is dealt
    link = reverse("hand_history", args=[table.id, 1])
    pictures = {}
    for lang in ("en", "he", "ru"):
        with translation.override(lang):
            snap = selectors.table_snapshot(table_id=table.id, user=users[1])
            assert snap is not None and link in snap["html"]
            pictures[lang] = snap["html"]
            with translation.override(lang):
                heading = translation.gettext("Last hands")
            assert heading in snap["html"]
    assert len({pictures["en"], pictures["he"], pictures["ru"]}) == 3

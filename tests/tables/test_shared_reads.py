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


def _act_once(table, version):  # type: ignore[no-untyped-def]
    hand, state = current_state(table)
    idx = state.actors()[0]
    kinds = [a.kind for a in state.legal_actions(idx)]
    choice = next(k for k in ("done", "check", "call") if k in kinds)
    return services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                              message={"action": choice, "version": version}).version


@pytest.mark.django_db(transaction=True)
def test_another_process_told_hand_only_reads_one_row_and_draws_what_the_database_says(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    """The process that did not write holds version V-1; the group message for V says "only the
    hand changed": it reads the table and hand in one statement, reuses V-1's seats, and draws
    exactly what a fresh read draws."""
    table, users = seated_table()
    checked = 0
    for _ in range(6):
        selectors.clear_shared_reads()
        before = selectors.table_snapshot(table_id=table.id, user=users[0])
        assert before is not None
        held = dict(selectors._SHARED)  # what the other process holds: version V-1
        new = _act_once(table, before["version"])
        hand, _state = current_state(table)
        if hand.ended is not None:
            break
        selectors._SHARED.clear()
        selectors._SHARED.update(held)
        with django_assert_max_num_queries(1):
            told = [selectors.table_snapshot(table_id=table.id, user=u, version_hint=new, hand_only=True) for u in users]
        assert selectors._SHARED[table.id][1]["seats"] is held[table.id][1]["seats"]
        selectors.clear_shared_reads()
        fresh = [selectors.table_snapshot(table_id=table.id, user=u) for u in users]
        for a, b in zip(told, fresh, strict=True):
            assert a is not None and b is not None and a["version"] == b["version"] == new
            assert a["html"] == b["html"] and a["deadline"] == b["deadline"]
        checked += 1
    assert checked >= 3


@pytest.mark.django_db(transaction=True)
def test_hand_only_is_not_trusted_for_a_later_version_or_without_the_version_before() -> None:
    table, users = seated_table()
    selectors.clear_shared_reads()
    v0 = selectors.table_snapshot(table_id=table.id, user=users[0])
    assert v0 is not None
    held = dict(selectors._SHARED)
    v1 = _act_once(table, v0["version"])
    # Someone's stack changes outside a hand's action (as a settled hand or added chips would),
    # and the table moves on to v2: a message for v1 that says "hand only" must not make this
    # process reuse v0's seats for v2.
    from tables.models import Seat, Table

    seat = Seat.objects.filter(table=table).order_by("seat_no").first()
    assert seat is not None
    Seat.objects.filter(pk=seat.pk).update(stack=seat.stack + 7)
    Table.objects.filter(pk=table.pk).update(version=v1 + 1)
    selectors._SHARED.clear()
    selectors._SHARED.update(held)
    snap = selectors.table_snapshot(table_id=table.id, user=users[0], version_hint=v1, hand_only=True)
    assert snap is not None and snap["version"] == v1 + 1
    assert selectors._SHARED[table.id][1]["seats"] is not held[table.id][1]["seats"]
    assert [s.stack for s in selectors._SHARED[table.id][1]["seats"]] == \
        [s.stack for s in Seat.objects.filter(table=table).order_by("seat_no")]
    # Without the version before, everything is read.
    selectors.clear_shared_reads()
    again = selectors.table_snapshot(table_id=table.id, user=users[0], version_hint=v1 + 1, hand_only=True)
    assert again is not None and again["version"] == v1 + 1


def test_the_group_message_says_hand_only_for_an_action_inside_a_hand_only(
    django_capture_on_commit_callbacks, monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    from tables import live

    sent: list[tuple[int, bool]] = []
    monkeypatch.setattr(live, "broadcast_table_changed",
                        lambda table_id, version, *, hand_only=False: sent.append((version, hand_only)))
    table, users = seated_table()
    hand, state = current_state(table)
    with django_capture_on_commit_callbacks(execute=True):
        v1 = _act_once(table, table.version)
    assert sent[-1] == (v1, True)
    with django_capture_on_commit_callbacks(execute=True):
        v2 = services.table_act(table_id=table.id, user=users[0], message={"action": "sit_out", "version": v1}).version
    assert sent[-1] == (v2, False)


def test_the_deal_after_a_hand_keeps_the_last_hands_list_and_it_is_what_a_fresh_read_gives(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    import datetime as dt

    from django.utils import timezone

    from tables.models import Hand
    from tests.tables.helpers import play_passively

    table, users = seated_table()
    finished = play_passively(table)
    table.refresh_from_db()
    ended = selectors.table_context(table_id=table.id, user=users[0])
    assert ended is not None and ended["hand"].number == finished.number and ended["hand"].ended is not None
    assert [h["number"] for h in ended["recent_hands"]] == [finished.number]
    # The showdown pause runs out: the next hand is dealt. No hand ended, so the list is kept:
    # drawing the deal reads the table, its latest hand and the seats, not the finished hands.
    assert services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(hours=1))
    table.refresh_from_db()
    with django_assert_max_num_queries(2):
        dealt = selectors.table_context(table_id=table.id, user=users[0])
    assert dealt is not None and dealt["hand"].number == finished.number + 1 and dealt["hand"].ended is None
    assert dealt["recent_hands"] is ended["recent_hands"]
    selectors.clear_shared_reads()
    fresh = selectors.table_context(table_id=table.id, user=users[0])
    assert fresh is not None and fresh["recent_hands"] == dealt["recent_hands"]
    # When that hand ends, the list is read again and has both hands.
    play_passively(table)
    table.refresh_from_db()
    after = selectors.table_context(table_id=table.id, user=users[0])
    assert after is not None
    assert [h["number"] for h in after["recent_hands"]] == [finished.number + 1, finished.number]
    assert Hand.objects.filter(table=table, ended__isnull=False).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_writer_and_the_other_process_read_the_hand_from_the_state_held_not_its_deal(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With this process's viewers holding the version before, the writer of an action and the
    drawing of the next version go on from that state (rules_engine.resume): no replay from the
    deal, the held state left as it was, and the same state a replay of the saved hand gives."""
    from rules_engine.games import get_variant
    from tables.models import Hand
    from tables.services import _is_legal

    table, users = seated_table()
    variant = get_variant(table.game)
    replays: list[int] = []
    real = variant.from_json.__func__

    def counted(cls, data):  # type: ignore[no-untyped-def]
        replays.append(len(data.get("log", [])))
        return real(cls, data)

    checked = 0
    for _ in range(6):
        selectors.clear_shared_reads()
        first = selectors.table_snapshot(table_id=table.id, user=users[0])
        assert first is not None
        held = selectors._SHARED[table.id][1]
        if held["hand"] is None or held["hand"].ended is not None:
            break
        held_state, untouched = held["state"], held["state"].snapshot()
        hand, state = current_state(table)
        idx = state.actors()[0]
        choice = next(k for k in ("done", "check", "call") if _is_legal(state, idx, k))
        # The other process: it holds the version before, its message says "hand only".
        other = dict(selectors._SHARED)
        monkeypatch.setattr(variant, "from_json", classmethod(counted))
        # The writer, with the viewers' state held.
        new = services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                                 message={"action": choice, "version": first["version"]}).version
        assert replays == [], "the writer replayed the hand"
        selectors._SHARED.clear()
        selectors._SHARED.update(other)
        told = selectors.table_snapshot(table_id=table.id, user=users[1], version_hint=new, hand_only=True)
        assert told is not None and told["version"] == new
        hand = Hand.objects.get(pk=held["hand"].pk)
        if hand.ended is None:
            assert replays == [], "the other process replayed the hand"
        monkeypatch.undo()
        assert held_state.snapshot() == untouched  # the viewers' state was not changed
        drawn = selectors._SHARED[table.id][1]["state"]
        assert drawn is not held_state
        assert drawn.snapshot() == variant.from_json(hand.state).snapshot()
        replays.clear()
        checked += 1
    assert checked >= 3


def test_a_writer_with_nothing_held_replays_the_hand() -> None:
    from tables.services import _load_state

    table, users = seated_table()
    selectors.clear_shared_reads()
    hand, state = current_state(table)
    assert _load_state(table, hand).snapshot() == state.snapshot()
    selectors.table_snapshot(table_id=table.id, user=users[0])
    held = selectors._SHARED[table.id][1]["state"]
    loaded = _load_state(table, hand)
    assert loaded is not held and loaded.snapshot() == held.snapshot() == state.snapshot()

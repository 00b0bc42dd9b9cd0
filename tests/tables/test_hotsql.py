"""The writers' hot reads, compiled once, read what the querysets they stand for read."""

from __future__ import annotations

import pytest
from django.db import transaction

from tables import hotsql, services
from tables.models import Hand, Seat, Table
from tests.tables.helpers import play_passively, seated_table

pytestmark = pytest.mark.django_db


def test_the_compiled_reads_match_the_orm() -> None:
    table, users = seated_table()
    play_passively(table)  # a finished hand: its JSON result and end time are read too
    with transaction.atomic():
        locked = services._lock_table(table.id)
    orm = Table.objects.get(id=table.id)
    assert [getattr(locked, f.attname) for f in Table._meta.concrete_fields] == \
        [getattr(orm, f.attname) for f in Table._meta.concrete_fields]
    latest = services._latest_hand(orm)
    expected = Hand.objects.filter(table=orm).order_by("-number").first()
    assert latest is not None and expected is not None and latest.number == expected.number
    assert latest.state == expected.state and latest.players == expected.players  # JSON columns converted
    assert latest.deadline == expected.deadline and latest.ended == expected.ended is not None
    assert latest.result == expected.result and latest.result
    for u in users:
        seat = services._seat_of(orm, u)
        assert seat is not None and seat == Seat.objects.get(table=orm, user=u) and seat.stack == Seat.objects.get(pk=seat.pk).stack


def test_no_row_and_a_missing_table() -> None:
    table, users = seated_table(n=2)
    other, _ = seated_table(n=2)
    assert services._seat_of(other, users[0]) is None
    with pytest.raises(services.TableError), transaction.atomic():
        services._lock_table(10**9)


def test_a_shape_must_take_the_parameters_given() -> None:
    with pytest.raises(ValueError):
        hotsql.first(Table, "test: wrong parameters", lambda: Table.objects.filter(id=1, version=2)[:1], [1])


def test_save_writes_what_the_orm_would_and_refuses_a_missing_row() -> None:
    import datetime as dt

    from django.db import DatabaseError
    from django.utils import timezone

    table, _users = seated_table(n=2)
    hand = services._latest_hand(table)
    assert hand is not None
    hand.state = dict(hand.state, note="ünïcode ✓")
    hand.clock = "decision"
    when = timezone.now().replace(microsecond=123456) + dt.timedelta(seconds=30)
    hand.deadline = when
    hotsql.save(hand, ["state", "clock", "deadline"])
    again = Hand.objects.get(pk=hand.pk)
    assert again.state == hand.state and again.clock == "decision" and again.deadline == when
    hand.deadline = None
    hotsql.save(hand, ["state", "clock", "deadline"])
    assert Hand.objects.get(pk=hand.pk).deadline is None
    ghost = Table(pk=10**9, version=1)
    with pytest.raises(DatabaseError):
        hotsql.save(ghost, ["version"])


def test_the_table_and_its_latest_hand_in_one_read_match_the_orm() -> None:
    table, _users = seated_table()
    first = Hand.objects.filter(table=table).order_by("-number").first()
    assert first is not None
    play_passively(table)  # hand 1 finished (JSON result, end time)
    read = hotsql.table_and_latest_hand(table.id)
    assert read is not None
    got_table, got_hand = read
    orm_table = Table.objects.get(id=table.id)
    assert [getattr(got_table, f.attname) for f in Table._meta.concrete_fields] == \
        [getattr(orm_table, f.attname) for f in Table._meta.concrete_fields]
    latest = Hand.objects.filter(table=table).order_by("-number").first()
    assert got_hand is not None and latest is not None
    assert [getattr(got_hand, f.attname) for f in Hand._meta.concrete_fields] == \
        [getattr(latest, f.attname) for f in Hand._meta.concrete_fields]
    assert got_hand.table is got_table  # no query for it
    finished = Hand.objects.get(table=table, number=first.number)
    assert finished.ended is not None and finished.result


def test_the_one_read_of_a_table_with_no_hand_and_of_no_table() -> None:
    from tests.tables.helpers import make_user

    creator = make_user("solo")
    table = services.table_create(name="Empty", small_blind=5, big_blind=10, creator=creator)
    read = hotsql.table_and_latest_hand(table.id)
    assert read is not None and read[0].id == table.id and read[0].version == table.version and read[1] is None
    assert hotsql.table_and_latest_hand(10**9) is None


def test_a_shape_must_select_the_models_own_columns() -> None:
    table, _users = seated_table(n=2)
    with pytest.raises(ValueError, match="selects"):
        hotsql.first(Table, "test: fewer columns", lambda: Table.objects.only("id").filter(id=table.id)[:1], [table.id])
    assert hotsql.first(Table, "test: no row", lambda: Table.objects.filter(id=10**9)[:1], [10**9]) is None


def test_the_seats_read_is_the_orms_select_related_read() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from club.models import Profile

    table, users = seated_table(n=3)
    play_passively(table)  # stacks moved
    # A seat whose user has no profile: select_related caches None, and so must this.
    bare = Seat.objects.filter(table=table).order_by("seat_no").last()
    assert bare is not None
    Profile.objects.filter(user_id=bare.user_id).delete()
    orm = list(Seat.objects.filter(table=table).select_related("user", "user__profile").order_by("seat_no"))
    def names(seats: list[Seat]) -> list[tuple[int, str, str | None, bool | None]]:
        out = []
        for seat in seats:
            try:
                name = seat.user.profile.display_name
            except Profile.DoesNotExist:
                name = None
            out.append((seat.seat_no, seat.user.username, name, seat.user.profile.user is seat.user if name else None))
        return out

    with CaptureQueriesContext(connection) as queries:
        mine = hotsql.seats_with_users(table.id)
        seen = names(mine)
    assert len(queries) == 1  # the users and profiles came with the seats
    assert [s.seat_no for s in mine] == sorted(s.seat_no for s in mine) == [s.seat_no for s in orm]
    for a, b in zip(mine, orm, strict=True):
        assert [getattr(a, f.attname) for f in Seat._meta.concrete_fields] == \
            [getattr(b, f.attname) for f in Seat._meta.concrete_fields]
        assert [getattr(a.user, f.attname) for f in a.user._meta.concrete_fields] == \
            [getattr(b.user, f.attname) for f in b.user._meta.concrete_fields]
    expected = names(orm)
    assert seen == expected and expected[-1][2] is None and all(e[2] for e in expected[:-1])
    assert hotsql.seats_with_users(10**9) == []


def _timer_row_by_the_orm(table_id: int) -> tuple[int, object, object] | None:
    from django.db.models import OuterRef, Subquery

    latest = Hand.objects.filter(table_id=OuterRef("id")).order_by("-number").values("deadline")[:1]
    return (Table.objects.filter(id=table_id).annotate(latest_deadline=Subquery(latest))
            .values_list("version", "timer_at", "latest_deadline").first())


def test_a_timers_read_is_the_querysets_read() -> None:
    import datetime as dt

    from django.utils import timezone

    empty = services.table_create(creator=None, name="Empty", small_blind=5, big_blind=10, max_seats=3, is_public=True)
    table, users = seated_table(n=3)
    seen = []
    for step in range(4):
        row = hotsql.timer_row(table.id)
        assert row == _timer_row_by_the_orm(table.id)
        seen.append(row)
        if step == 0:  # a pending timer's due time
            Table.objects.filter(id=table.id).update(timer_at=timezone.now() + dt.timedelta(seconds=7))
        elif step == 1:  # no clock running on the latest hand
            latest = Hand.objects.filter(table=table).order_by("-number").first()
            assert latest is not None
            Hand.objects.filter(id=latest.id).update(deadline=None)
        elif step == 2:
            play_passively(table)
    assert seen[0] is not None and seen[0][2] is not None and isinstance(seen[0][2], dt.datetime)
    assert seen[1] is not None and isinstance(seen[1][1], dt.datetime) and seen[1][1].tzinfo is not None
    assert seen[2] is not None and seen[2][2] is None
    # A table that never dealt: no hand, no deadline.
    assert hotsql.timer_row(empty.id) == _timer_row_by_the_orm(empty.id) == (empty.version, None, None)
    assert hotsql.timer_row(10**9) is None


def _play_hands(table: Table, count: int) -> None:
    """``count`` hands played to their end, each after the showdown pause of the one before."""
    import datetime as dt

    from django.utils import timezone

    for k in range(count):
        if k:
            assert services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(hours=1))
        table.refresh_from_db()
        play_passively(table)


def _finished_by_the_orm(table_id: int, limit: int) -> list[dict[str, object]]:
    return list(Hand.objects.filter(table=table_id, ended__isnull=False).order_by("-number")
                .values(*hotsql.RECENT_FIELDS)[:limit])


def test_the_last_hands_read_is_the_querysets_read(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    import datetime as dt

    table, users = seated_table(n=3)
    other, _ = seated_table(n=2)
    assert hotsql.finished_hands(table.id) == [] == _finished_by_the_orm(table.id, 10)
    _play_hands(table, 3)
    _play_hands(other, 1)
    got = hotsql.finished_hands(table.id)
    assert got == _finished_by_the_orm(table.id, 10)
    assert [h["number"] for h in got] == [3, 2, 1]  # newest first, the running hand left out
    assert isinstance(got[0]["ended"], dt.datetime) and got[0]["ended"].tzinfo is not None
    assert isinstance(got[0]["players"], list) and isinstance(got[0]["result"], dict)
    # Another limit is its own statement; one query each.
    with django_assert_num_queries(1):
        two = hotsql.finished_hands(table.id, 2)
    assert two == _finished_by_the_orm(table.id, 2) == got[:2]
    assert hotsql.finished_hands(other.id) == _finished_by_the_orm(other.id, 10) and len(hotsql.finished_hands(other.id)) == 1
    assert hotsql.finished_hands(10**9) == []


def test_the_winners_names_come_from_the_users_known_and_the_rest_are_read(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    from club.models import Profile
    from tables import selectors

    table, users = seated_table(n=3)
    _play_hands(table, 4)
    Profile.objects.filter(user=users[1]).update(display_name="Bella")
    seats = hotsql.seats_with_users(table.id)
    by_the_orm = hotsql.finished_hands(table.id)
    selectors.add_winners(by_the_orm)
    assert any(w for h in by_the_orm for w in h["winners"])
    # Every player is seated: their names come from the seats, with no query.
    known = hotsql.finished_hands(table.id)
    with django_assert_num_queries(0):
        selectors.add_winners(known, known=[s.user for s in seats])
    assert known == by_the_orm
    # One player gone from the seats: only that one is read.
    partly = hotsql.finished_hands(table.id)
    with django_assert_num_queries(1):
        selectors.add_winners(partly, known=[s.user for s in seats if s.user_id != users[1].pk])
    assert partly == by_the_orm
    assert "Bella" in {w["name"] for h in by_the_orm for w in h["winners"]} or all(
        w["name"] != users[1].username for h in by_the_orm for w in h["winners"])

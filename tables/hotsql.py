"""The live tables' few hottest reads and writes, compiled to SQL once per process.

Django builds and compiles a queryset's SQL every time it runs: for the row lock, the player's
seat and the current hand, which every action reads, that was most of the time those reads
took (``bench/bench_hotpath.py --profile``). Each is written here as the queryset it is, compiled
the first time, and then run as that SQL on a cursor, its row made into the model instance with
the converters the ORM applies (``first``). Also here: the writers' two UPDATEs (``save``) and a
viewer's one-statement read of a table and its latest hand (``table_and_latest_hand``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

_SQL: dict[tuple[str, str], str] = {}


def first(model: type[M], name: str, build: Callable[[], QuerySet[M]], params: Sequence[Any]) -> M | None:
    """The first row of ``build()`` (a queryset of ``model`` taking exactly ``params``, in that
    order, selecting the model's own columns); ``name`` names its shape. The row becomes the
    model instance as the ORM makes it (``Model.from_db``, each column through the converters
    the ORM applies), without a RawQuerySet around it."""
    key = (name, connection.vendor)
    sql = _SQL.get(key)
    if sql is None:
        sql, built = build().query.sql_with_params()
        if list(built) != list(params):
            raise ValueError(f"{name}: the queryset takes {built!r}, not {list(params)!r}")
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        if key not in _SQL:
            columns = [d[0] for d in cursor.description or ()]
            wanted = [f.column for f in model._meta.concrete_fields]
            if columns != wanted:
                raise ValueError(f"{name}: the queryset selects {columns!r}, not {model.__name__}'s columns")
            _SQL[key] = sql
        row = cursor.fetchone()
    if row is None:
        return None
    return _build(model, _converters(model), row)


_CONVERTERS: dict[tuple[type[Model], str], list[Any]] = {}


def _converters(model: type[Model]) -> list[Any]:
    key = (model, connection.vendor)
    found = _CONVERTERS.get(key)
    if found is None:
        found = _CONVERTERS[key] = _columns(model, model._meta.db_table)[1]
    return found


_UPDATES: dict[tuple[str, tuple[str, ...], str], tuple[str, list[Any]]] = {}


def save(obj: Model, fields: Sequence[str]) -> None:
    """``obj.save(update_fields=fields)`` as one UPDATE whose SQL is written once per shape.
    Values go through each field's ``get_db_prep_save``, as the ORM's own UPDATE does; there are
    no save signals on these models to miss. Raises ``DatabaseError`` when no row was updated,
    as ``save`` does."""
    from django.db import DatabaseError

    meta = obj._meta
    key = (meta.label, tuple(fields), connection.vendor)
    entry = _UPDATES.get(key)
    if entry is None:
        qn = connection.ops.quote_name
        columns = [meta.get_field(f) for f in fields]
        sql = (f"UPDATE {qn(meta.db_table)} SET {', '.join(f'{qn(f.column)} = %s' for f in columns)} "
               f"WHERE {qn(meta.pk.column)} = %s")
        entry = _UPDATES[key] = (sql, columns)
    sql, columns = entry
    params = [f.get_db_prep_save(getattr(obj, f.attname), connection=connection) for f in columns]
    params.append(obj.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{meta.label} {obj.pk}: the update changed {cursor.rowcount} rows")


_JOINED: dict[str, tuple[str, list[Any], list[Any]]] = {}


def _columns(model: type[Model], alias: str) -> tuple[list[str], list[Any]]:
    """The select list of ``model``'s concrete fields under ``alias``, and for each column the
    converters the ORM would apply to its value (JSON text to objects, SQLite's dates...)."""
    qn = connection.ops.quote_name
    selects, converters = [], []
    for f in model._meta.concrete_fields:
        selects.append(f"{qn(alias)}.{qn(f.column)}")
        converters.append(_converter(f, alias))
    return selects, converters


def _converter(field: Any, alias: str) -> tuple[Any, list[Any], Any]:
    """A column's field, the converters the ORM applies to its value, and the column they take."""
    col = field.get_col(alias)
    return field, connection.ops.get_db_converters(col) + field.get_db_converters(connection), col


def _convert(converters: list[Any], values: Sequence[Any]) -> list[Any]:
    """Each column's value through the converters ``_columns`` found for it."""
    row = []
    for (_field, convs, col), value in zip(converters, values, strict=True):
        for conv in convs:
            value = conv(value, col, connection)
        row.append(value)
    return row


def _build(model: type[M], converters: list[Any], values: Sequence[Any]) -> M:
    return model.from_db(connection.alias, _attnames(model), _convert(converters, values))


def _attnames(model: type[Model]) -> list[str]:
    names = _ATTNAMES.get(model)
    if names is None:
        names = _ATTNAMES[model] = [f.attname for f in model._meta.concrete_fields]
    return names


_ATTNAMES: dict[type[Model], list[str]] = {}


def table_and_latest_hand(table_id: int) -> tuple[Any, Any] | None:
    """The table row and its latest hand (or None), in ONE statement, so both are as of the same
    moment: a hand read after the table could already hold a later version's change. None when
    the table does not exist. What a viewer's read of a new version starts with."""
    from tables.models import Hand, Table

    entry = _JOINED.get(connection.vendor)
    if entry is None:
        qn = connection.ops.quote_name
        t_cols, t_conv = _columns(Table, "t")
        h_cols, h_conv = _columns(Hand, "h")
        hand_table, table_table = qn(Hand._meta.db_table), qn(Table._meta.db_table)
        number, table_fk = qn(Hand._meta.get_field("number").column), qn(Hand._meta.get_field("table").column)
        sql = (f"SELECT {', '.join(t_cols + h_cols)} FROM {table_table} t LEFT JOIN {hand_table} h "
               f"ON h.{table_fk} = t.{qn(Table._meta.pk.column)} AND h.{number} = "
               f"(SELECT MAX(m.{number}) FROM {hand_table} m WHERE m.{table_fk} = t.{qn(Table._meta.pk.column)}) "
               f"WHERE t.{qn(Table._meta.pk.column)} = %s")
        entry = _JOINED[connection.vendor] = (sql, t_conv, h_conv)
    sql, t_conv, h_conv = entry
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    n = len(t_conv)
    table = _build(Table, t_conv, row[:n])
    hand = _build(Hand, h_conv, row[n:]) if row[n] is not None else None
    if hand is not None:
        hand._state.fields_cache["table"] = table
    return table, hand


_SEATS: dict[str, tuple[str, list[Any], list[Any], list[Any]]] = {}


def seats_with_users(table_id: int) -> list[Any]:
    """``Seat.objects.filter(table=table_id).select_related("user", "user__profile")
    .order_by("seat_no")`` in SQL written once per process: the seats as a viewer's read of a
    new version takes them (``tables.selectors._shared_reads``), each seat's user and the user's
    profile joined and cached on it as ``select_related`` caches them (a user with no profile
    has None cached, so ``user.profile`` raises without a query, as there)."""
    from django.contrib.auth import get_user_model

    from club.models import Profile
    from tables.models import Seat

    user_model = get_user_model()
    entry = _SEATS.get(connection.vendor)
    if entry is None:
        qn = connection.ops.quote_name
        s_cols, s_conv = _columns(Seat, "s")
        u_cols, u_conv = _columns(user_model, "u")
        p_cols, p_conv = _columns(Profile, "p")
        seat_user = qn(Seat._meta.get_field("user").column)
        profile_user = qn(Profile._meta.get_field("user").column)
        user_pk = qn(user_model._meta.pk.column)
        sql = (f"SELECT {', '.join(s_cols + u_cols + p_cols)} FROM {qn(Seat._meta.db_table)} s "
               f"INNER JOIN {qn(user_model._meta.db_table)} u ON u.{user_pk} = s.{seat_user} "
               f"LEFT OUTER JOIN {qn(Profile._meta.db_table)} p ON p.{profile_user} = u.{user_pk} "
               f"WHERE s.{qn(Seat._meta.get_field('table').column)} = %s "
               f"ORDER BY s.{qn(Seat._meta.get_field('seat_no').column)} ASC")
        entry = _SEATS[connection.vendor] = (sql, s_conv, u_conv, p_conv)
    sql, s_conv, u_conv, p_conv = entry
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        rows = cursor.fetchall()
    seat_user_field = Seat._meta.get_field("user")
    profile_user_field = Profile._meta.get_field("user")
    s_n, u_n = len(s_conv), len(u_conv)
    seats = []
    for row in rows:
        seat = _build(Seat, s_conv, row[:s_n])
        user = _build(user_model, u_conv, row[s_n:s_n + u_n])
        profile = _build(Profile, p_conv, row[s_n + u_n:]) if row[s_n + u_n] is not None else None
        seat_user_field.set_cached_value(seat, user)
        profile_user_field.remote_field.set_cached_value(user, profile)
        if profile is not None:
            profile_user_field.set_cached_value(profile, user)
        seats.append(seat)
    return seats


_TIMER: dict[str, tuple[str, list[Any]]] = {}


def timer_row(table_id: int) -> tuple[int, Any, Any] | None:
    """A firing timer's read (``tables.services.table_timer``): the table's version, its pending
    timer's due time and its latest hand's deadline, or None when there is no such table. The
    queryset below compiled once per process (most timers find their table moved on, so this read
    is most of what they cost the worker: Django built and compiled it for each one), its two
    times through the converters the ORM applies to them."""
    from django.db.models import OuterRef, Subquery

    from tables.models import Hand, Table

    entry = _TIMER.get(connection.vendor)
    if entry is None:
        latest = Hand.objects.filter(table_id=OuterRef("id")).order_by("-number").values("deadline")[:1]
        qs = (Table.objects.filter(id=table_id).annotate(latest_deadline=Subquery(latest))
              .values_list("version", "timer_at", "latest_deadline"))
        sql, built = qs.query.sql_with_params()
        if list(built) != [table_id]:
            raise ValueError(f"timer_row: the queryset takes {built!r}, not [{table_id!r}]")
        times = [_converter(field, field.model._meta.db_table)
                 for field in (Table._meta.get_field("timer_at"), Hand._meta.get_field("deadline"))]
        entry = _TIMER[connection.vendor] = (sql, times)
    sql, times = entry
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    timer_at, deadline = _convert(times, row[1:])
    return row[0], timer_at, deadline


_RECENT: dict[tuple[str, int], tuple[str, list[str], list[Any]]] = {}
RECENT_FIELDS = ("id", "number", "game", "ended", "players", "result")


def finished_hands(table_id: int, limit: int = 10) -> list[dict[str, Any]]:
    """``Hand.objects.filter(table=table_id, ended__isnull=False).order_by("-number")
    .values(*RECENT_FIELDS)[:limit]``, compiled once per process and limit: the "last hands" list
    a viewer's read takes when a hand ended (``tables.selectors._shared_reads``), each value
    through the converters the ORM applies to it (the JSON columns, SQLite's times)."""
    from tables.models import Hand

    key = (connection.vendor, limit)
    entry = _RECENT.get(key)
    if entry is None:
        qs = (Hand.objects.filter(table=table_id, ended__isnull=False).order_by("-number")
              .values(*RECENT_FIELDS)[:limit])
        sql, built = qs.query.sql_with_params()
        if list(built) != [table_id]:
            raise ValueError(f"finished_hands: the queryset takes {built!r}, not [{table_id!r}]")
        converters = [_converter(Hand._meta.get_field(name), Hand._meta.db_table) for name in RECENT_FIELDS]
        entry = _RECENT[key] = (sql, list(RECENT_FIELDS), converters)
    sql, names, converters = entry
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        rows = cursor.fetchall()
    return [dict(zip(names, _convert(converters, row), strict=True)) for row in rows]

"""The writers' few hottest reads, compiled to SQL once per process.

Django builds and compiles a queryset's SQL every time it runs: for the row lock, the player's
seat and the current hand, which every action reads, that was most of the time those reads
took (``bench/bench_hotpath.py --profile``). Each is written here as the queryset it is, compiled
the first time, and then run as that SQL through ``Model.objects.raw`` (which still converts the
columns as the ORM does).
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
    order); ``name`` names its shape."""
    key = (name, connection.vendor)
    sql = _SQL.get(key)
    if sql is None:
        sql, built = build().query.sql_with_params()
        if list(built) != list(params):
            raise ValueError(f"{name}: the queryset takes {built!r}, not {list(params)!r}")
        _SQL[key] = sql
    for obj in model.objects.raw(sql, list(params)):
        return obj
    return None


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

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

"""Blinds that rise on a clock, as a home tournament (or a night that speeds up) plays them.

A host of a private or club table picks "every N minutes" (``MINUTES``); the blinds in play
become level 1 and a clock starts. When a level's time is up, the next hand is dealt at the next
level's blinds (a hand being played keeps its own), so a level can last a little longer than its
minutes, never a hand shorter. Levels multiply the level-1 blinds (``MULTIPLIERS``: 5/10, 8/15,
10/20, 15/30, 20/40, 25/50, 30/60, 40/80 ...), rounded to whole chips, up to the site's largest
blind. The clock runs while hands are dealt: it stops while the table is paused or waits for
players (fewer than two to deal to) and goes on from where it stood with the next deal; started
between hands it starts with the next deal. The host may stop it (the blinds stay where they
are) or start it again from the blinds then in play. Everything here works on the table row; the caller holds its lock and saves ``FIELDS``.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

MINUTES = (5, 10, 15, 20, 30, 45, 60)
MULTIPLIERS = tuple(Fraction(m) for m in (
    "1", "1.5", "2", "3", "4", "5", "6", "8", "10", "12", "15", "20", "25", "30", "40", "50", "60", "80", "100",
    "120", "150", "200", "250", "300", "400", "500",
))
LAST_LEVEL = len(MULTIPLIERS)
MAX_BLIND = 2_000_000  # tables.hosting.MAX_BLIND
FIELDS = ("level_minutes", "level", "level_base_small", "level_base_big", "level_ends_at", "level_left_s")


def _whole(x: Fraction) -> int:
    """Rounded half up: 7.5 -> 8."""
    return int(x + Fraction(1, 2))


def blinds_at(level: int, small: int, big: int) -> tuple[int, int]:
    """The blinds of ``level`` (1 = ``small``/``big``).

    >>> [blinds_at(n, 5, 10) for n in (1, 2, 3, 4, 8)]
    [(5, 10), (8, 15), (10, 20), (15, 30), (40, 80)]
    >>> blinds_at(2, 1, 2), blinds_at(LAST_LEVEL, 5000, 10000)
    ((2, 3), (1999999, 2000000))
    """
    m = MULTIPLIERS[max(1, min(level, LAST_LEVEL)) - 1]
    b = min(_whole(big * m), MAX_BLIND)
    s = max(1, min(_whole(small * m), b - 1))
    return s, b


def on(table: Any) -> bool:
    return bool(table.level)


def next_blinds(table: Any) -> tuple[int, int] | None:
    """The blinds of the level after the one in play, or None at the last (or when off)."""
    if not table.level or table.level >= LAST_LEVEL:
        return None
    return blinds_at(table.level + 1, table.level_base_small, table.level_base_big)


def start(table: Any, minutes: int, now: dt.datetime, *, paused: bool) -> None:
    """Level 1 is the blinds in play; its clock runs from ``now`` (or from the resume)."""
    table.level_minutes = minutes
    table.level = 1
    table.level_base_small, table.level_base_big = table.small_blind, table.big_blind
    _set_clock(table, minutes * 60, now, paused=paused)


def change_minutes(table: Any, minutes: int, now: dt.datetime, *, paused: bool) -> None:
    """A new length for every level; the level in play starts its clock again."""
    table.level_minutes = minutes
    _set_clock(table, minutes * 60, now, paused=paused)


def stop(table: Any) -> None:
    """No more rises; the blinds in play stay."""
    table.level_minutes = 0
    table.level = 0
    table.level_base_small = table.level_base_big = None
    table.level_ends_at = None
    table.level_left_s = None


def _set_clock(table: Any, seconds: int, now: dt.datetime, *, paused: bool) -> None:
    if paused:
        table.level_ends_at, table.level_left_s = None, seconds
    else:
        table.level_ends_at, table.level_left_s = now + dt.timedelta(seconds=seconds), None


def pause(table: Any, now: dt.datetime) -> None:
    """The table pauses: the clock stops with what it had left."""
    if table.level and table.level_ends_at is not None:
        table.level_left_s = max(0, int((table.level_ends_at - now).total_seconds()))
        table.level_ends_at = None


def resume(table: Any, now: dt.datetime) -> None:
    """The table plays again: the clock goes on from where it stopped."""
    if table.level and table.level_ends_at is None and table.level_left_s is not None:
        table.level_ends_at = now + dt.timedelta(seconds=table.level_left_s)
        table.level_left_s = None


def rise_if_due(table: Any, now: dt.datetime) -> bool:
    """Before a deal: when the level's time is up, the blinds of the level the clock has reached
    (more than one if a hand outlasted several levels), and that level's clock. True when the
    blinds changed."""
    if not table.level or table.level_ends_at is None or now < table.level_ends_at or table.level >= LAST_LEVEL:
        return False
    length = dt.timedelta(minutes=table.level_minutes)
    passed = 1 + int((now - table.level_ends_at) / length)
    table.level = min(LAST_LEVEL, table.level + passed)
    table.level_ends_at += passed * length
    table.small_blind, table.big_blind = blinds_at(table.level, table.level_base_small, table.level_base_big)
    return True


def schedule(table: Any) -> list[dict[str, Any]]:
    """The whole ladder a table's clock climbs, for its "all levels" page: each level's number,
    blinds, and for the levels still to come when they start. ``starts_at`` is the moment (the
    clock is running) and ``starts_in_s`` the seconds of play before it (the clock stands while
    the table is paused, so only the seconds are known then). A level's blinds come with the
    first hand dealt after that moment. The list stops at the first level that reaches the
    site's largest blind (the ones after it would repeat it). Empty when the clock is off."""
    if not table.level:
        return []
    length = int(table.level_minutes or 0) * 60
    ends, left = table.level_ends_at, table.level_left_s
    rows: list[dict[str, Any]] = []
    for n in range(1, LAST_LEVEL + 1):
        small, big = blinds_at(n, table.level_base_small, table.level_base_big)
        row: dict[str, Any] = {"level": n, "small": small, "big": big, "now": n == table.level,
                               "past": n < table.level, "starts_at": None, "starts_in_s": None}
        if n > table.level:
            ahead = (n - table.level - 1) * length
            if ends is not None:
                row["starts_at"] = ends + dt.timedelta(seconds=ahead)
            elif left is not None:
                row["starts_in_s"] = int(left) + ahead
        rows.append(row)
        if big >= MAX_BLIND:
            break
    return rows

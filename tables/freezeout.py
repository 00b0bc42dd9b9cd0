"""A freeze-out: a home tournament at a private or club table.

A host starts one between hands with two or more players holding chips, and picks how often the
blinds go up (``tables.levels`` runs the clock, from the blinds in play). From then on no chips
are added and nobody new sits down (but see late entry below); a player on a break is still
dealt in and blinded away (their turns played at once, as in a tournament) while anyone at the
table plays. A player whose stack runs out in a hand is out, stood up with a finishing place;
several out in the same hand are placed by the stacks they started it with (the bigger stack
finishes higher, equal stacks share the place). A player who stands up with chips is out too, placed below everyone still holding chips, and takes their chips with
them as ever (chips are never taken from anyone). When one player holds chips, they win: the
table pauses, the clock stops and the blinds go back to where the freeze-out started, ready for
the next one. The host may call it off at any time (no places; chips may be added again).

A host may open it to **late entry** for its first levels (``late``: 0 for none, else the last
level a player may sit down in): while the level in play is at most ``late``, a new player may
sit down with a buy-in and is an entrant from the next hand, and a player who is out may sit
down again (a re-entry: their place is taken back). A new entrant finishes above everyone already
out, so their places move down one. Adding chips to a stack stays refused (no rebuys).

Everything works on the table row, ``Table.freezeout``::

    {"on": true, "started": "<iso>", "hands": <hands played when it started>, "late": <levels>,
     "reentries": <how many sat down again after going out>,
     "entrants": [[user_id, name], ...], "out": [[user_id, name, place, left], ...],
     "ended": "<iso>" | null, "ended_at_hand": <the number of its last hand> | null,
     "showing": <its places are on the felt: from its end until the next deal>}

The caller holds the table's lock, saves the table (``FIELDS``) and bumps its version.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

FIELDS = ("freezeout",)


def running(table: Any) -> bool:
    fo = getattr(table, "freezeout", None)
    return bool(fo) and bool(fo.get("on"))


LATE_CHOICES = (0, 1, 2, 3, 4)  # late entry through this level (0: none)


def start(table: Any, entrants: Iterable[tuple[int, str]], now: dt.datetime, late: int = 0) -> None:
    table.freezeout = {
        "on": True, "started": now.isoformat(), "hands": int(table.hands_played), "late": int(late), "reentries": 0,
        "entrants": [[int(uid), name] for uid, name in entrants], "out": [],
        "ended": None, "ended_at_hand": None, "showing": False,
    }


def entry_open(table: Any) -> bool:
    """Whether a player may sit down in the freeze-out being played: late entry is on and the
    level in play is one it covers."""
    fo = getattr(table, "freezeout", None)
    late = int((fo or {}).get("late") or 0)
    return running(table) and late > 0 and int(getattr(table, "level", 0) or 1) <= late


def enter(table: Any, user_id: int, name: str) -> str:
    """A player sat down during late entry: returns ``"new"`` (an entrant more: everyone already
    out finishes one place lower) or ``"again"`` (out before: their place is taken back)."""
    fo = table.freezeout
    uid = int(user_id)
    if any(int(u) == uid for u, _n in fo["entrants"]):
        old = next((int(row[2]) for row in fo["out"] if int(row[0]) == uid), None)
        fo["out"] = [row for row in fo["out"] if int(row[0]) != uid]
        if old is not None:
            # One more player holds chips again: everyone out since (a better place, or the same
            # one shared in the same hand) finishes one place lower (found by an audit: the
            # returner's next bust left two players 3rd and nobody 4th).
            for row in fo["out"]:
                if int(row[2]) <= old:
                    row[2] = int(row[2]) + 1
        fo["reentries"] = int(fo.get("reentries") or 0) + 1
        return "again"
    fo["entrants"].append([uid, name])
    for row in fo["out"]:
        row[2] = int(row[2]) + 1
    return "new"


def call_off(table: Any) -> None:
    table.freezeout = None


def _placed(fo: dict[str, Any]) -> set[int]:
    return {int(row[0]) for row in fo["out"]}


def _name(fo: dict[str, Any], user_id: int, fallback: str) -> str:
    for uid, name in fo["entrants"]:
        if int(uid) == user_id:
            return str(name)
    return fallback


def places_for_busts(busted: list[tuple[int, int]], still_in: int) -> dict[int, int]:
    """Places for the players out in one hand: ``busted`` is (user id, stack at the hand's
    start); ``still_in`` how many players hold chips after it. The bigger starting stack
    finishes higher; equal stacks share the better place.

    >>> places_for_busts([(7, 300), (8, 500), (9, 300)], 2)
    {8: 3, 7: 4, 9: 4}
    >>> places_for_busts([(7, 100)], 1)
    {7: 2}
    """
    out: dict[int, int] = {}
    for uid, start in sorted(busted, key=lambda b: -b[1]):
        bigger = sum(1 for _u, s in busted if s > start)
        out[uid] = still_in + 1 + bigger
    return out


def bust(table: Any, busted: list[tuple[int, int, str]], still_in: int) -> None:
    """Record the players out in the hand just settled: (user id, start stack, name)."""
    fo = table.freezeout
    done = _placed(fo)
    fresh = [(uid, start) for uid, start, _n in busted if uid not in done]
    names = {uid: name for uid, _s, name in busted}
    for uid, place in sorted(places_for_busts(fresh, still_in).items(), key=lambda p: -p[1]):
        fo["out"].append([uid, _name(fo, uid, names[uid]), place, False])


def left(table: Any, user_id: int, name: str, still_in: int) -> None:
    """A player stood up with chips: out, below the ``still_in`` players holding chips (them
    included)."""
    fo = table.freezeout
    if int(user_id) in _placed(fo):
        return
    fo["out"].append([int(user_id), _name(fo, int(user_id), name), int(still_in), True])


def finish_if_won(table: Any, holders: list[tuple[int, str]], now: dt.datetime) -> bool:
    """``holders``: (user id, name) of the seats still holding chips. With one (or none) left,
    the freeze-out is over: returns True, and the caller pauses the table and stops the clock."""
    fo = table.freezeout
    if len(holders) > 1:
        return False
    for uid, name in holders:
        if int(uid) not in _placed(fo):
            fo["out"].append([int(uid), _name(fo, int(uid), name), 1, False])
    fo["on"] = False
    fo["ended"] = now.isoformat()
    fo["showing"] = True  # on the felt until the next deal (``dealt``)
    return True


def dealt(table: Any) -> bool:
    """A hand was dealt: a finished freeze-out's places leave the felt. True when that changed
    the row (the caller saves ``FIELDS``)."""
    fo = getattr(table, "freezeout", None)
    if fo and not fo.get("on") and fo.get("showing"):
        fo["showing"] = False
        return True
    return False


def standings(fo: dict[str, Any] | None) -> list[tuple[int, str, bool]]:
    """(place, name, left) from the best place down.

    >>> standings({"out": [[3, "C", 3, False], [2, "B", 2, True], [1, "A", 1, False]]})
    [(1, 'A', False), (2, 'B', True), (3, 'C', False)]
    """
    if not fo:
        return []
    return sorted(((int(p), str(n), bool(gone)) for _u, n, p, gone in fo["out"]), key=lambda r: (r[0], r[1]))


def players_left(fo: dict[str, Any]) -> int:
    return len(fo["entrants"]) - len(fo["out"])



"""Where a player's action spends its time inside a Daphne process, for ``make bench``.

Off unless ``PP_ACTION_TRACE`` names a directory (``bench/bench_live.py`` sets it for the
processes it starts). Then each action taken by a table socket (``TableConsumer.receive``) is
timed in four parts, and each process appends one JSON line per action to
``<directory>/actions-<pid>.jsonl`` about twice a second:

* ``wait``: from the message read on the event loop to its hop starting on a thread;
* ``writer``: the writer (``services.table_act``: lock, checks, engine, save, commit and what
  runs on commit), of which ``db`` is the wall time of its SQL statements (their count in
  ``statements``; BEGIN and COMMIT are not among them) and ``cpu`` the thread's own CPU time;
* ``draw``: the pictures drawn in the same hop (the player's and the process's other viewers');
* ``send``: from the hop's end to the last of those pictures handed to the sockets.

A process whose players did not act draws the new version when the table's message reaches it
(the fan-out, ``consumers._Fanout``); that drawing is kept too (``fanout``), and ``across``
joins it to the action that made the version: ``heard``, from the action's message read by the
other process to the table's message heard; ``queued``, from then to its drawing starting (a
drawing of that table already under way, or an action of its own, comes first); ``draw`` and
``send`` as above; ``total``, from the action's message read to the last picture handed on.

Python's garbage collector stops every thread of the process while it runs: each collection
over ``GC_MIN_SECONDS`` is kept too (``gc``: when, how long, its CPU and which generation), and
``pauses`` sums them per generation (the thirty-fifth look found the slowest actions of a process
gathered around its longer collections).

Nothing here is read by the site; with the variable unset, the only cost is one test per action.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DIRECTORY = os.environ.get("PP_ACTION_TRACE", "")
ENABLED = bool(DIRECTORY)
FLUSH_SECONDS = 0.5
GC_MIN_SECONDS = 0.001  # shorter collections (most young ones) are not kept
PARTS = ("wait", "writer", "db", "cpu", "draw", "send", "total")
ACROSS = ("heard", "queued", "draw", "send", "total")


@dataclass(slots=True)
class Hop:
    """One action's times (``time.time()`` seconds), filled in as it goes."""

    received: float
    started: float = 0.0
    acted: float = 0.0
    drawn: float = 0.0
    cpu: float = 0.0
    db: float = 0.0
    statements: int = 0


@contextlib.contextmanager
def writer(hop: Hop) -> Iterator[None]:
    """Time the writer that runs inside: wall, thread CPU and its statements' wall."""
    from django.db import connection

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        began = time.time()
        try:
            return execute(sql, params, many, context)
        finally:
            hop.db += time.time() - began
            hop.statements += 1

    hop.started = time.time()
    cpu = time.thread_time()
    try:
        with connection.execute_wrapper(timed):
            yield
    finally:
        hop.cpu = time.thread_time() - cpu
        hop.acted = time.time()


_rows: list[dict[str, Any]] = []
_lock = threading.Lock()
_flusher: threading.Thread | None = None


def record(table_id: int, version: int, hop: Hop, sent: float, others: int) -> None:
    """Keep one finished action's times; a thread writes them out (``flush``)."""
    if not hop.acted:
        return  # refused or failed before the writer finished: nothing to time
    row = {"kind": "action", "table": table_id, "version": version, "received": hop.received, "others": others,
           "wait": hop.started - hop.received, "writer": hop.acted - hop.started, "db": hop.db,
           "cpu": hop.cpu, "statements": hop.statements, "draw": (hop.drawn or hop.acted) - hop.acted,
           "send": sent - (hop.drawn or hop.acted), "total": sent - hop.received}
    _keep(row)


_heard: dict[tuple[int, int], float] = {}


def heard(table_id: int, version: int) -> None:
    """The fan-out heard that ``table_id`` is at ``version`` (called on the event loop)."""
    if len(_heard) > 10_000:
        _heard.clear()  # versions heard and never drawn (drawn with an action, or skipped)
    _heard.setdefault((table_id, version), time.time())


def drawn(table_id: int, version: int, started: float, finished: float, sent: float, viewers: int) -> None:
    """The fan-out drew ``version`` for ``viewers`` sockets between ``started`` and
    ``finished``, and handed the last picture on at ``sent``."""
    at = _heard.pop((table_id, version), None)
    if at is None:
        return  # not announced by a message of its own (a later version heard meanwhile)
    _keep({"kind": "fanout", "table": table_id, "version": version, "heard": at, "started": started,
           "drawn": finished, "sent": sent, "viewers": viewers})


_collecting = [0.0, 0.0]  # the running collection's start: wall and thread CPU


def _on_collection(phase: str, info: dict[str, Any]) -> None:
    """A ``gc.callbacks`` entry: keep each collection that took ``GC_MIN_SECONDS`` or more."""
    if phase == "start":
        _collecting[0], _collecting[1] = time.time(), time.thread_time()
        return
    took = time.time() - _collecting[0]
    if took >= GC_MIN_SECONDS:
        _keep({"kind": "gc", "at": _collecting[0], "took": took, "cpu": time.thread_time() - _collecting[1],
               "gen": int(info.get("generation", 0))})


def watch_collections() -> None:
    """Keep this process's collections (on at import when the trace is)."""
    if _on_collection not in gc.callbacks:
        gc.callbacks.append(_on_collection)


if ENABLED:
    watch_collections()


def pauses(rows: list[dict[str, Any]]) -> dict[int, tuple[int, float, float, float]]:
    """The collections among ``rows``, per generation: how many, their p50 and longest wall time,
    and their CPU time together (milliseconds)."""
    by_gen: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if r.get("kind") == "gc":
            by_gen.setdefault(r["gen"], []).append(r)
    return {gen: (len(kept), _pct([r["took"] for r in kept], 50) * 1000, max(r["took"] for r in kept) * 1000,
                  sum(r["cpu"] for r in kept) * 1000) for gen, kept in sorted(by_gen.items())}


def _keep(row: dict[str, Any]) -> None:
    global _flusher
    with _lock:
        _rows.append(row)
        if _flusher is None:
            flusher = threading.Thread(target=_flush_forever, name="action-trace", daemon=True)
            try:
                flusher.start()
            except RuntimeError:  # the interpreter is ending (its last collection): nothing flushes now
                return
            _flusher = flusher


def flush(directory: str | Path | None = None) -> int:
    """Append the rows kept so far to this process's file; how many were written."""
    with _lock:
        rows = _rows[:]
        _rows.clear()
    if rows:
        path = Path(directory or DIRECTORY) / f"actions-{os.getpid()}.jsonl"
        with path.open("a", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in rows)
    return len(rows)


def _flush_forever() -> None:
    while True:
        time.sleep(FLUSH_SECONDS)
        with contextlib.suppress(OSError):  # the bench removed its directory: nobody waits for them
            flush()


def read(directory: str | Path, since: float, until: float) -> list[dict[str, Any]]:
    """Every process's rows for actions received in [since, until) (``time.time()`` seconds),
    the fan-out's drawings of the versions they made, and the collections that began then."""
    actions, fanout, collections = [], [], []
    for path in sorted(Path(directory).glob("actions-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            kind = row.get("kind", "action")
            if kind == "fanout":
                fanout.append(row)
            elif kind == "gc":
                if since <= row["at"] < until:
                    collections.append(row)
            elif kind == "action" and since <= row["received"] < until:
                actions.append(row)
    made = {(r["table"], r["version"]) for r in actions}
    return actions + [r for r in fanout if (r["table"], r["version"]) in made] + collections


def across(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each fan-out drawing joined to the action that made its version (see the module's doc)."""
    actions = {(r["table"], r["version"]): r for r in rows if r.get("kind", "action") == "action"}
    out = []
    for r in rows:
        action = actions.get((r["table"], r["version"])) if r.get("kind") == "fanout" else None
        if action is not None:
            out.append({"heard": r["heard"] - action["received"], "queued": r["started"] - r["heard"],
                        "draw": r["drawn"] - r["started"], "send": r["sent"] - r["drawn"],
                        "total": r["sent"] - action["received"]})
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]


def summary(rows: list[dict[str, Any]], parts: tuple[str, ...] = PARTS) -> dict[str, tuple[float, float, float]]:
    """Each part's p50 and p99 over ``rows`` (the actions', unless ``parts`` says otherwise), and
    its mean over the slowest 1% of them (by ``total``), in milliseconds."""
    if parts == PARTS:
        rows = [r for r in rows if r.get("kind", "action") == "action"]
    if not rows:
        return {}
    slowest = sorted(rows, key=lambda r: r["total"])[-max(1, len(rows) // 100):]
    return {part: (_pct([r[part] for r in rows], 50) * 1000, _pct([r[part] for r in rows], 99) * 1000,
                   sum(r[part] for r in slowest) / len(slowest) * 1000) for part in parts}

"""A probe of the machine itself, run by ``bench_live`` beside each measured window.

A process at the highest priority it may take does half a millisecond of arithmetic every 20 ms
(about 2.5% of a core) and notes each time that took over 10 ms of wall time, i.e. the process
waited for a CPU while it had work. On this VM such waits come in bursts that nothing of ours
explains (RELIABILITY, "Eighth round"), and every action sent during one waits too.

``python bench/stall_probe.py SECONDS`` prints ``{"nice": N, "gaps": [seconds, ...]}``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time

WORK_S = 0.0005
EVERY_S = 0.02
GAP_S = 0.010


def _work(n: int) -> int:
    s = 0
    for i in range(n):
        s += i
    return s


def _calibrate() -> int:
    """Loop length for about WORK_S of arithmetic."""
    n = 2000
    while True:
        t = time.perf_counter()
        _work(n)
        if time.perf_counter() - t >= WORK_S:
            return n
        n *= 2


def probe(seconds: float) -> dict[str, object]:
    nice = os.nice(0)
    with contextlib.suppress(OSError):  # not allowed: measured at the priority it has
        nice = os.nice(-20)
    n = _calibrate()
    end = time.time() + seconds
    gaps: list[float] = []
    while time.time() < end:
        t = time.perf_counter()
        _work(n)
        d = time.perf_counter() - t
        if d > GAP_S:
            gaps.append(d)
        time.sleep(EVERY_S)
    return {"nice": nice, "gaps": gaps}


if __name__ == "__main__":
    print(json.dumps(probe(float(sys.argv[1]))))

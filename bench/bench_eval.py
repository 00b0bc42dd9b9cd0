"""Hand evaluation speed: ours side by side with phevaluator, eval7, treys and PokerKit.

Measured in one run on the same random hands (seeded), each library given its own card objects
prepared in advance, so only the evaluation call is timed (plus the same list-comprehension
overhead for everyone). ``run()`` prints as it goes and returns a markdown section for
bench/RESULTS.md; ``python bench/bench_eval.py`` prints the section.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from rules_engine.batch import evaluate_batch, omaha_batch  # noqa: E402
from rules_engine.cards import Card  # noqa: E402
from rules_engine.evaluation import hand_value_int, omaha_value_int  # noqa: E402

ALL_SEVEN = 133_784_560
SEED = 20240611

Deal = list[int]


def optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def rate(fn: Callable[[], object], calls: int, repeat: int = 3) -> float:
    """Evaluations per second: the best of ``repeat`` runs of ``fn`` (which makes ``calls``)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return calls / best


def fmt_rate(r: float | None) -> str:
    if r is None:
        return "n/a"
    return f"{r:,.0f}/s ({1e6 / r:.2f} µs)"


def deals(n: int, size: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    deck = list(range(52))
    return [rng.sample(deck, size) for _ in range(n)]


def text_of(deal: Sequence[int]) -> list[str]:
    return [str(Card.from_index(i)) for i in deal]


class Contender:
    """One library: how to prepare hands and evaluate them (None where it has no function)."""

    def __init__(self, name: str, version: str) -> None:
        self.name, self.version = name, version
        self.five: Callable[[list[Deal]], Callable[[], object]] | None = None
        self.seven: Callable[[list[Deal]], Callable[[], object]] | None = None
        self.omaha: Callable[[list[Deal]], Callable[[], object]] | None = None
        self.sample = 1.0  # share of the hands used (the slow pure-Python libraries)


def contenders() -> tuple[list[Contender], list[str]]:
    found: list[Contender] = []
    missing: list[str] = []

    ours = Contender("ours (rules_engine)", "this repo")

    def ours_n(hands: list[Deal]) -> Callable[[], object]:
        cards = [[Card.from_index(i) for i in h] for h in hands]
        return lambda: [hand_value_int(c) for c in cards]

    def ours_omaha(hands: list[Deal]) -> Callable[[], object]:
        split = [([Card.from_index(i) for i in h[:4]], [Card.from_index(i) for i in h[4:]]) for h in hands]
        return lambda: [omaha_value_int(h, b) for h, b in split]

    ours.five = ours.seven = ours_n
    ours.omaha = ours_omaha
    found.append(ours)

    ph = optional("phevaluator")
    if ph is None:
        missing.append("phevaluator")
    else:
        c = Contender("phevaluator (C extension)", _version("phevaluator"))
        ev, evo = ph.evaluate_cards, ph.evaluate_omaha_cards

        def ph_n(hands: list[Deal]) -> Callable[[], object]:
            return lambda: [ev(*h) for h in hands]  # its card ids are our indices

        def ph_omaha(hands: list[Deal]) -> Callable[[], object]:
            flipped = [h[4:] + h[:4] for h in hands]  # board first, then hole cards
            return lambda: [evo(*h) for h in flipped]

        c.five = c.seven = ph_n
        c.omaha = ph_omaha
        found.append(c)

    e7 = optional("eval7")
    if e7 is None:
        missing.append("eval7")
    else:
        c = Contender("eval7 (Cython)", _version("eval7"))

        def e7_n(hands: list[Deal]) -> Callable[[], object]:
            cards = [[e7.Card(t) for t in text_of(h)] for h in hands]
            evaluate = e7.evaluate
            return lambda: [evaluate(h) for h in cards]

        c.five = c.seven = e7_n  # eval7 has no Omaha evaluator
        found.append(c)

    tr = optional("treys")
    if tr is None:
        missing.append("treys")
    else:
        c = Contender("treys (pure Python)", _version("treys"))
        evaluator, plo = tr.Evaluator(), tr.PLOEvaluator()

        def tr_n(hands: list[Deal]) -> Callable[[], object]:
            cards = [[tr.Card.new(t) for t in text_of(h)] for h in hands]
            split = [(h[:2], h[2:]) for h in cards]
            return lambda: [evaluator.evaluate(a, b) for a, b in split]

        def tr_omaha(hands: list[Deal]) -> Callable[[], object]:
            cards = [[tr.Card.new(t) for t in text_of(h)] for h in hands]
            split = [(h[:4], h[4:]) for h in cards]
            return lambda: [plo.evaluate(a, b) for a, b in split]

        c.five = c.seven = tr_n
        c.omaha = tr_omaha
        c.sample = 0.25
        found.append(c)

    pk = optional("pokerkit")
    if pk is None:
        missing.append("pokerkit")
    else:
        c = Contender("PokerKit (pure Python)", _version("pokerkit"))

        def pk_cards(h: Deal) -> tuple[Any, ...]:
            return tuple(pk.Card.parse("".join(text_of(h))))

        def pk_n(hands: list[Deal]) -> Callable[[], object]:
            cards = [pk_cards(h) for h in hands]
            high = pk.StandardHighHand.from_game
            return lambda: [high(h) for h in cards]

        def pk_omaha(hands: list[Deal]) -> Callable[[], object]:
            split = [(pk_cards(h[:4]), pk_cards(h[4:])) for h in hands]
            omaha = pk.OmahaHoldemHand.from_game
            return lambda: [omaha(a, b) for a, b in split]

        c.five = c.seven = pk_n
        c.omaha = pk_omaha
        c.sample = 0.01
        found.append(c)
    return found, missing


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return "?"


def single_calls(n: int) -> tuple[list[list[str]], dict[str, float]]:
    """Rows of the side-by-side table, and each library's 7-card rate."""
    hands = {5: deals(n, 5, SEED), 7: deals(n, 7, SEED + 1), 9: deals(n // 2, 9, SEED + 2)}
    found, missing = contenders()
    rows: list[list[str]] = []
    seven_rates: dict[str, float] = {}
    for c in found:
        cells = [f"{c.name} {c.version}"]
        for kind, size in (("five", 5), ("seven", 7), ("omaha", 9)):
            make = getattr(c, kind)
            if make is None:
                cells.append("n/a")
                continue
            sample = hands[size][: max(100, int(len(hands[size]) * c.sample))]
            r = rate(make(sample), len(sample))
            if kind == "seven":
                seven_rates[c.name] = r
            cells.append(fmt_rate(r))
            print(f"  {c.name:28} {kind:6} {fmt_rate(r)}", flush=True)
        rows.append(cells)
    for name in missing:
        rows.append([f"{name}: not importable, skipped", "", "", ""])
        print(f"  {name}: not importable, skipped", flush=True)
    return rows, seven_rates


_ENUMERATE = """
import json, time
t0 = time.perf_counter()
import rules_engine.evaluation
t1 = time.perf_counter()
from rules_engine.batch import category_counts
out = {"import_s": t1 - t0}
t = time.perf_counter(); counts = category_counts(7, threads=2); out["cold_s"] = time.perf_counter() - t
t = time.perf_counter(); category_counts(7, threads=2); out["warm_s"] = time.perf_counter() - t
t = time.perf_counter(); category_counts(7, threads=1); out["one_thread_s"] = time.perf_counter() - t
out["counts"] = {c.label: n for c, n in counts.items()}
print(json.dumps(out))
"""


def enumerate_all() -> dict[str, Any]:
    """All 133,784,560 seven-card hands, in a fresh process so table building is counted."""
    result = subprocess.run(
        [sys.executable, "-c", _ENUMERATE], capture_output=True, text=True, cwd=ROOT, check=True
    )
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def batch_rates(n: int) -> tuple[float, float]:
    rng = np.random.default_rng(SEED)
    rows = rng.random((n, 52)).argpartition(9, axis=1)[:, :9]
    rng.shuffle(rows, axis=1)
    evaluate_batch(rows[:1000, :7])
    omaha_batch(rows[:1000, :4], rows[:1000, 4:])
    seven = rate(lambda: evaluate_batch(rows[:, :7]), n)
    omaha = rate(lambda: omaha_batch(rows[:, :4], rows[:, 4:]), n)
    return seven, omaha


def run() -> str:
    load_before = os.getloadavg()[0]
    print("single calls (5-card, 7-card, Omaha 4+5):", flush=True)
    rows, seven_rates = single_calls(40_000)
    print("all seven-card hands (fresh process):", flush=True)
    enum = enumerate_all()
    total = sum(enum["counts"].values())
    print(f"  ours: cold {enum['cold_s']:.2f} s, warm {enum['warm_s']:.2f} s, total {total:,}", flush=True)
    print("batch evaluation:", flush=True)
    batch7, batch_omaha = batch_rates(500_000)
    print(f"  7-card {batch7:,.0f}/s, Omaha {batch_omaha:,.0f}/s", flush=True)

    lines = [
        "## Hand evaluation (`bench/bench_eval.py`)",
        "",
        f"Machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs "
        f"({platform.processor() or 'cpu'}), Python {platform.python_version()}, "
        f"numpy {np.__version__}. Load average (1 min) before / after: {load_before:.1f} / "
        f"{os.getloadavg()[0]:.1f}; other work on a shared machine slows every column alike.",
        "",
        "### One hand per call",
        "",
        "Random hands from a seeded generator; each library gets its own card objects, made",
        "before timing. Best of three runs. Omaha is 4 hole cards and a 5-card board, exactly",
        "2 + 3. The pure-Python libraries run on a share of the hands (they are slow).",
        "",
        "| library | 5 cards | 7 cards | Omaha |",
        "|---|---|---|---|",
        *("| " + " | ".join(r) + " |" for r in rows),
        "",
        "### All 133,784,560 seven-card hands",
        "",
        "| evaluator | time | how |",
        "|---|---|---|",
        f"| ours, `rules_engine.batch.category_counts(7)`, 2 threads | {enum['warm_s']:.2f} s "
        f"({enum['cold_s']:.2f} s with first-use tables) | every hand evaluated (numpy) |",
        f"| ours, 1 thread | {enum['one_thread_s']:.2f} s | every hand evaluated (numpy) |",
    ]
    for name, r in seven_rates.items():
        if name.startswith(("phevaluator", "eval7", "ours")):
            how = "one call per hand"
            lines.append(
                f"| {name}, {how} | ~{ALL_SEVEN / r:,.0f} s | extrapolated from the 7-card rate above |"
            )
    lines += [
        "",
        f"Importing `rules_engine.evaluation` (its tables included): {enum['import_s'] * 1000:.0f} ms.",
        "",
        "Exact counts from the enumeration (straight flush excludes royal):",
        "",
        "| category | hands |",
        "|---|---|",
        *(f"| {k} | {v:,} |" for k, v in enum["counts"].items()),
        f"| total | {total:,} |",
        "",
        "### numpy batches",
        "",
        f"- 7-card hands, `evaluate_batch`: {batch7:,.0f} hands/s",
        f"- Omaha 4+5, `omaha_batch`: {batch_omaha:,.0f} hands/s",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())

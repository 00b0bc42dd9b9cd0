"""Is the shuffle fair? Chi-square tests over many decks shuffled the way the live tables do it.

The tables deal from ``Deck.shuffled(secrets.SystemRandom())`` (``tables.services``). This shuffles
``DECKS`` decks that way and tests, with Pearson's chi-square:

* card x position: every card equally likely in every one of the 52 places (52 x 52 cells,
  51 x 51 degrees of freedom);
* the first card dealt: every card equally likely (51 degrees of freedom);
* neighbours: every ordered pair of different cards equally likely to lie next to each other
  (52 x 51 cells), which a shuffle that moves cards in blocks would fail.

A fair shuffle gives p-values spread evenly between 0 and 1; one below 0.001 (counts too uneven)
or above 0.999 (counts too even to be chance) would be a red flag, and would happen by chance
about twice in a thousand runs. The p-values come from the
Wilson-Hilferty approximation, which is accurate to about three decimals at these degrees of
freedom. A deliberately broken shuffle (one riffle, no randomness in where it cuts) is run through
the same test to show the test can fail. In the bench, not in timed tests: it is statistics, and it
takes a few seconds.

``python bench/bench_shuffle.py [decks]``
"""
import math
import os
import random
import secrets
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules_engine.cards import Deck  # noqa: E402

DECKS = int(os.environ.get("BENCH_SHUFFLE_DECKS", "200000"))


def _p_value(chi2: float, df: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty)."""
    z = ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _chi2(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 for c in counts) / expected


def _index(card: object) -> int:
    return _CARD_INDEX[str(card)]


_CARD_INDEX = {str(c): i for i, c in enumerate(Deck.shuffled(random.Random(0)).order)}


def tests(decks: list[list[int]]) -> list[tuple[str, float, int, float]]:
    n = len(decks)
    position = [0] * (52 * 52)
    first = [0] * 52
    pairs = [0] * (52 * 52)
    for order in decks:
        for pos, card in enumerate(order):
            position[card * 52 + pos] += 1
        first[order[0]] += 1
        for a, b in zip(order, order[1:], strict=False):
            pairs[a * 52 + b] += 1
    results = []
    chi = _chi2(position, n / 52)
    results.append(("card x position", chi, 51 * 51, _p_value(chi, 51 * 51)))
    chi = _chi2(first, n / 52)
    results.append(("first card dealt", chi, 51, _p_value(chi, 51)))
    off_diagonal = [pairs[a * 52 + b] for a in range(52) for b in range(52) if a != b]
    # Each deck has 51 neighbouring pairs, spread over 52 x 51 ordered pairs of different cards.
    chi = _chi2(off_diagonal, n * 51 / (52 * 51))
    results.append(("neighbours", chi, 52 * 51 - 1, _p_value(chi, 52 * 51 - 1)))
    return results


def _server_decks(n: int) -> list[list[int]]:
    rng = secrets.SystemRandom()
    return [[_index(c) for c in Deck.shuffled(rng).order] for _ in range(n)]


def _broken_decks(n: int) -> list[list[int]]:
    """One perfect riffle after a random cut: looks shuffled to the eye, fails the test."""
    rng = random.Random(1)
    base = list(range(52))
    out = []
    for _ in range(n):
        cut = rng.randrange(52)
        deck = base[cut:] + base[:cut]
        half = deck[:26], deck[26:]
        out.append([c for pair in zip(*half, strict=True) for c in pair])
    return out


def run(decks: int = DECKS) -> str:
    t0 = time.perf_counter()
    fair = tests(_server_decks(decks))
    seconds = time.perf_counter() - t0
    broken = tests(_broken_decks(min(decks, 20000)))
    lines = [
        "## Fair shuffle: chi-square over shuffled decks (issue #9)",
        "",
        f"{decks:,} decks from `Deck.shuffled(secrets.SystemRandom())`, the live tables' shuffle, "
        f"in {seconds:.1f} s. A fair shuffle gives p-values anywhere between 0 and 1; below 0.001 "
        "(too uneven) or above 0.999 (too even to be chance) would be a red flag. The last column "
        "runs the same tests on a broken shuffle (a random cut and one perfect riffle): every card "
        "is equally likely everywhere, too evenly, and its neighbours give it away.",
        "",
        "| test | cells - 1 (df) | chi-square | p-value | verdict | broken shuffle p-value |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for (name, chi, df, p), (_n, _c, _d, bp) in zip(fair, broken, strict=True):
        verdict = "fair" if 0.001 <= p <= 0.999 else "**suspicious**"
        lines.append(f"| {name} | {df} | {chi:,.1f} | {p:.3f} | {verdict} | {bp:.2g} |")
        print(f"shuffle: {name}: chi2 {chi:,.1f} df {df} p {p:.3f} ({verdict}); broken p {bp:.2g}", flush=True)
    return "\n".join(lines)


if __name__ == "__main__":
    print(run(int(sys.argv[1]) if len(sys.argv) > 1 else DECKS))

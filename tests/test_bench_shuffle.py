"""The shuffle bench's statistics can tell a broken shuffle from a fair one (the bench itself,
over 200,000 decks, runs in ``make bench``, not here)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("bench_shuffle", Path(__file__).parent.parent / "bench" / "bench_shuffle.py")
assert _spec and _spec.loader
bench_shuffle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_shuffle)


@pytest.mark.parametrize(("chi2", "df", "p"), [(2601.0, 2601, 0.5), (2751.0, 2601, 0.021), (67.5, 51, 0.06)])
def test_p_values_match_the_chi_square_tail(chi2: float, df: int, p: float) -> None:
    assert bench_shuffle._p_value(chi2, df) == pytest.approx(p, abs=0.01)


def test_a_broken_shuffle_fails_and_a_seeded_fair_one_passes() -> None:
    broken = {name: p for name, _chi, _df, p in bench_shuffle.tests(bench_shuffle._broken_decks(3000))}
    assert broken["neighbours"] < 0.001
    rng = random.Random(7)
    fair_decks = [rng.sample(range(52), 52) for _ in range(3000)]
    fair = {name: p for name, _chi, _df, p in bench_shuffle.tests(fair_decks)}
    assert all(0.001 <= p <= 0.999 for p in fair.values()), fair

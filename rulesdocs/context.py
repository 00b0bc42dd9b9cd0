"""What each rules page needs besides its words: the engine-computed examples and tables."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from rulesdocs import examples, probabilities


@dataclass(frozen=True)
class OddsRow:
    category: str
    count: int
    share: float  # 0..1
    odds_against: float  # (hands without it) : (hands with it), against one
    digits: int  # significant digits worth showing: 4 for exact counts, fewer for rare simulated ones


@dataclass(frozen=True)
class OddsTable:
    """One column of a probability table: counts per category and how they were obtained."""

    key: str
    method: str  # "exact" or "simulation"
    hands: int
    rows: tuple[OddsRow, ...]

    def row(self, category: str) -> OddsRow:
        return next(r for r in self.rows if r.category == category)


def _digits(method: str, count: int) -> int:
    """Significant digits worth showing: 4 for exact counts; for a simulation as many as its count
    supports (a count's noise is about its square root: 3 digits from 10,000 hits, 2 from 100,
    1 below), so a rare hand seen a few dozen times does not look measured to three digits."""
    if method == "exact":
        return 4
    return 3 if count >= 10_000 else 2 if count >= 100 else 1


def odds_table(key: str) -> OddsTable:
    data = probabilities.load()
    entry = data[key]
    hands = entry["hands"]
    method = entry.get("method", "simulation")
    rows = tuple(
        OddsRow(cat, n, n / hands, (hands - n) / n if n else float("inf"), _digits(method, n))
        for cat, n in zip(data["categories"], entry["counts"], strict=True)
    )
    return OddsTable(key, method, hands, rows)


@dataclass(frozen=True)
class OddsLine:
    """One category across several tables, for side-by-side columns."""

    category: str
    cells: tuple[OddsRow, ...]


def side_by_side(*tables: OddsTable) -> tuple[OddsLine, ...]:
    categories = [r.category for r in tables[0].rows]
    return tuple(OddsLine(c, tuple(t.row(c) for t in tables)) for c in categories)


def _rankings() -> dict[str, Any]:
    data = probabilities.load()
    five = odds_table("five_card")
    seven = odds_table("seven_card")
    omaha = odds_table("omaha")
    dealt = odds_table("patchpatch_dealt")
    plan = odds_table("patchpatch_plan")
    any_two = odds_table("patchpatch_any_two")
    return {
        "ten_hands": examples.ten_hands(),
        "traps": examples.traps(),
        "five": five,
        "seven": seven,
        "omaha": omaha,
        "by_river": side_by_side(seven, omaha),
        "pp_dealt": dealt,
        "pp_plan": plan,
        "pp_any_two": any_two,
        "pp_lines": side_by_side(dealt, plan, any_two),
        "sim": data["simulation"],
    }


def _patchpatch() -> dict[str, Any]:
    return {
        "pot_only": examples.pot_only_examples(),
        "pot_only_blinds": examples.POT_ONLY_BLINDS,
        "pot_only_stack": examples.POT_ONLY_STACK,
        "facts": examples.patchpatch_facts(),
        "arrangement": examples.arrangement_example(),
        "showdown": examples.split_board_example(),
        "side_pots": examples.side_pot_example(),
        "rake": examples.rake_examples(),
        "trap_straight": examples.traps()["straight"],
        "trap_flush": examples.traps()["flush"],
    }


def _baseball() -> dict[str, Any]:
    return {"baseball": examples.baseball_facts()}


def _holdem() -> dict[str, Any]:
    return {
        "pot_limit": examples.pot_limit_max_raise(200, [150, 150]),
        "min_raise": (100, examples.no_limit_min_raise(100, 100)),
        "fixed": examples.fixed_limit_rounds(10),
    }


def _stud() -> dict[str, Any]:
    return {"fixed": examples.fixed_limit_rounds(10)}


def _omaha() -> dict[str, Any]:
    return {"traps": examples.traps(), "hilo": examples.hilo_example(), **_stud()}


def _razz() -> dict[str, Any]:
    return {"lows": examples.razz_examples(), **_stud()}


_BUILDERS: dict[str, Callable[[], dict[str, Any]]] = {
    "patchpatch": _patchpatch,
    "rankings": _rankings,
    "baseball": _baseball,
    "holdem": _holdem,
    "omaha": _omaha,
    "stud5": _stud,
    "stud7": _stud,
    "razz": _razz,
    "stud8": _stud,
}


@cache
def for_page(slug: str) -> dict[str, Any]:
    """The computed context of a page (built once per process; the values are frozen)."""
    builder = _BUILDERS.get(slug)
    return builder() if builder else {}

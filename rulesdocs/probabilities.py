"""How often each hand comes: the numbers behind the rankings page, computed with the engine.

Nothing here is typed in from a book. ``python manage.py build_rankings`` runs :func:`build` once
and writes ``rulesdocs/data/rankings.json`` (committed); the page reads that file
(:func:`load`), and ``tests/rulesdocs`` recompute parts of it to prove the file still matches the
engine.

* Five cards: every one of the 2,598,960 hands, evaluated one by one (exact).
* Seven cards (Hold'em at the river): every one of the 133,784,560 seven-card sets, evaluated by
  the engine's batch enumerator (exact).
* Omaha: ``OMAHA_DEALS`` random deals of four hole cards and a five-card board, best hand with exactly
  two plus three.
* Patch-Patch: ``DEALS`` random deals of twelve cards and three five-card boards; each deal is
  played three ways and every board counts as one hand (three hands a deal):

  - ``patchpatch_dealt``: no arrangement, the four cards dealt next to a board play on it. This
    is a random arrangement, and each board is then an Omaha hand, so the column must agree with
    Omaha's within the noise of the simulation: a check on both.
  - ``patchpatch_plan``: arranged by the simple plan of :func:`plan_arrangement`, looking at the
    three flops only.
  - ``patchpatch_any_two``: each board takes the best two of all twelve cards, as if the other
    boards did not need any: a ceiling no arrangement can reach on all three boards at once.

Simulations run in blocks of ``BLOCK`` deals; block ``k`` of a game draws from
``random.Random(f"{seed}/{game}/{k}")`` (a string seed is stable across Python versions and
machines), and the file keeps every block's counts, so a test can replay any block alone and
find the same numbers.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from rules_engine import batch
from rules_engine.cards import FULL_DECK, Card
from rules_engine.evaluation import (
    VALUE_COUNT,
    Category,
    category_of,
    hand_value_int,
    omaha_value_int,
)

DATA_FILE = Path(__file__).resolve().parent / "data" / "rankings.json"
FORMAT = 1
SEED = 2026
DEALS = 200_000
# Omaha deals are cheap to count (about 12 ms a block) and its rarest hands need many: at 200,000
# the royal flush came 11 times, 0.0055% where GAMES.md says about 0.009% (found by an audit).
OMAHA_DEALS = 2_000_000
BLOCK = 1_000

#: Best first, as the tables list them. Five of a kind needs wild cards and never occurs here.
CATEGORIES: tuple[Category, ...] = tuple(
    c for c in sorted(Category, reverse=True) if c is not Category.FIVE_OF_A_KIND
)
_ROW = {c: i for i, c in enumerate(CATEGORIES)}
# The category of every value on the engine's scale, as a row number of the tables.
_ROW_OF_VALUE: tuple[int, ...] = tuple(_ROW.get(category_of(v), -1) for v in range(VALUE_COUNT))

_NUMBER_LIST = re.compile(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]")

SIMULATED = ("omaha", "patchpatch_dealt", "patchpatch_plan", "patchpatch_any_two")


def _counts_from_values(value_counts: Sequence[int]) -> list[int]:
    rows = [0] * len(CATEGORIES)
    for value, n in enumerate(value_counts):
        if n:
            rows[_ROW_OF_VALUE[value]] += n
    return rows


def five_card_counts() -> list[int]:
    """Category counts over all 2,598,960 five-card hands, best category first (about a second)."""
    per_value = [0] * VALUE_COUNT
    for cards in combinations(FULL_DECK, 5):
        per_value[hand_value_int(cards)] += 1
    return _counts_from_values(per_value)


def seven_card_counts() -> list[int]:
    """Category counts of the best five of all 133,784,560 seven-card sets.

    Every set is evaluated, by the engine's numpy batch enumerator (a few seconds; the scalar
    evaluator used for five cards would take over a minute here).
    """
    counts = batch.category_counts(7)
    return [counts[c] for c in CATEGORIES]


# ---------------------------------------------------------------------------------------------
# Simulations


def block_rng(seed: int, game: str, block: int) -> random.Random:
    """The generator of one block of one simulation."""
    return random.Random(f"{seed}/{game}/{block}")


def omaha_block(seed: int, block: int, deals: int = BLOCK) -> list[int]:
    """Counts for one block of Omaha deals: four hole cards, a five-card board."""
    rng = block_rng(seed, "omaha", block)
    rows = [0] * len(CATEGORIES)
    for _ in range(deals):
        cards = rng.sample(FULL_DECK, 9)
        rows[_ROW_OF_VALUE[omaha_value_int(cards[:4], cards[4:])]] += 1
    return rows


def plan_arrangement(cards: Sequence[Card], flops: Sequence[Sequence[Card]]) -> list[list[Card]]:
    """A simple way to arrange twelve cards for three flops (not the best way).

    Find the strongest hand any two of the cards make with any flop (two plus the flop's three)
    and send those two to that board; repeat with the cards and boards left; the six cards no step
    chose fill the boards two each, in the order dealt. Earlier boards and earlier pairs win ties.

    >>> from rules_engine.cards import parse_cards
    >>> hands = plan_arrangement(
    ...     parse_cards("2c 7d Ah 9s Kh 4c Qd 3s 8h Jc 5d 6s"),
    ...     [parse_cards("Qh Th 3h"), parse_cards("9c 9d 2h"), parse_cards("Ks Kd 8c")])
    >>> [" ".join(map(str, h)) for h in hands]  # kings full, nines full, queens and threes
    ['Qd 3s 7d Ah', '2c 9s 4c Jc', 'Kh 8h 5d 6s']
    """
    free = list(cards)
    open_boards = list(range(len(flops)))
    chosen: dict[int, list[Card]] = {}
    while open_boards:
        best = (-1, 0, (free[0], free[1]))
        for board in open_boards:
            flop = tuple(flops[board])
            for pair in combinations(free, 2):
                value = hand_value_int(pair + flop)
                if value > best[0]:
                    best = (value, board, pair)
        _, board, pair = best
        chosen[board] = list(pair)
        open_boards.remove(board)
        free = [c for c in free if c not in pair]
    for board in range(len(flops)):
        chosen[board] += free[2 * board : 2 * board + 2]
    return [chosen[b] for b in range(len(flops))]


def patchpatch_block(seed: int, block: int, deals: int = BLOCK) -> dict[str, list[int]]:
    """Counts for one block of Patch-Patch deals, played the three ways the module describes."""
    rng = block_rng(seed, "patchpatch", block)
    rows = {k: [0] * len(CATEGORIES) for k in SIMULATED if k.startswith("patchpatch")}
    dealt, plan, any_two = rows["patchpatch_dealt"], rows["patchpatch_plan"], rows["patchpatch_any_two"]
    for _ in range(deals):
        cards = rng.sample(FULL_DECK, 27)
        hand, boards = cards[:12], [cards[12 + 5 * b : 17 + 5 * b] for b in range(3)]
        arranged = plan_arrangement(hand, [b[:3] for b in boards])
        for b, board in enumerate(boards):
            dealt[_ROW_OF_VALUE[omaha_value_int(hand[4 * b : 4 * b + 4], board)]] += 1
            plan[_ROW_OF_VALUE[omaha_value_int(arranged[b], board)]] += 1
            any_two[_ROW_OF_VALUE[omaha_value_int(hand, board)]] += 1
    return rows


def _blocks(deals: int) -> Iterator[tuple[int, int]]:
    for k, start in enumerate(range(0, deals, BLOCK)):
        yield k, min(BLOCK, deals - start)


def simulate(seed: int = SEED, deals: int = DEALS, progress: Callable[[str], None] | None = None,
             omaha_deals: int | None = None) -> dict[str, Any]:
    """Every simulated table, with its blocks: ``deals`` Patch-Patch deals, and Omaha's
    ``omaha_deals`` (by default as many more than ``deals`` as OMAHA_DEALS is than DEALS)."""
    out: dict[str, Any] = {
        k: {"hands": 0, "counts": [0] * len(CATEGORIES), "blocks": []} for k in SIMULATED
    }

    def add(key: str, rows: list[int]) -> None:
        entry = out[key]
        entry["blocks"].append(rows)
        entry["hands"] += sum(rows)
        entry["counts"] = [a + b for a, b in zip(entry["counts"], rows, strict=True)]

    for k, n in _blocks(omaha_deals if omaha_deals is not None else deals * OMAHA_DEALS // DEALS):
        add("omaha", omaha_block(seed, k, n))
    for k, n in _blocks(deals):
        for key, rows in patchpatch_block(seed, k, n).items():
            add(key, rows)
        if progress and k % 20 == 19:
            progress(f"simulated {(k + 1) * BLOCK:,} of {deals:,} deals")
    return out


def build(
    seed: int = SEED, deals: int = DEALS, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Everything the rankings page shows, as a JSON-ready dictionary."""
    say = progress or (lambda _msg: None)
    say("five-card hands: enumerating all of them")
    five = five_card_counts()
    say("seven-card sets: enumerating all of them")
    seven = seven_card_counts()
    say(f"simulating {deals:,} deals with seed {seed}")
    return {
        "format": FORMAT,
        "categories": [c.label for c in CATEGORIES],
        "five_card": {"method": "exact", "hands": comb(52, 5), "counts": five},
        "seven_card": {"method": "exact", "hands": comb(52, 7), "counts": seven},
        "simulation": {"method": "simulation", "seed": seed, "deals": deals, "block": BLOCK,
                       "omaha_deals": deals * OMAHA_DEALS // DEALS},
        **simulate(seed, deals, say),
    }


def write(data: dict[str, Any], path: Path = DATA_FILE) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # One list of counts per line keeps the file readable and its diffs small.
    text = json.dumps(data, indent=1, separators=(",", ": "))
    text = _NUMBER_LIST.sub(
        lambda m: "[" + ", ".join(n.strip() for n in m.group(1).split(",")) + "]", text
    )
    path.write_text(text + "\n", encoding="utf-8")


@cache
def load(path: Path = DATA_FILE) -> dict[str, Any]:
    """The stored tables (read once per process)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path} is in an old format: run `python manage.py build_rankings`")
    return data

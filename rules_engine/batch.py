"""Hand evaluation over numpy arrays: many hands at once, and every hand there is.

Cards are card indices (``Card.index``, 0..51). The values are the ones of
:mod:`rules_engine.evaluation` (the same scale as :attr:`HandValue.value`).

The idea is the fast path's: a card's rank contributes an additive key (unique sums for up to
seven ranks), so a hand's rank multiset is one integer and one gather from a table gives its
value, unless five or more cards share a suit; then a 13-bit mask of that suit's ranks indexes a
second table. With seven cards a flush leaves no room for quads or a full house, so the flush
value simply replaces the rank value.

Enumerating all C(52, 7) hands reuses work: the seven-card hands whose two highest cards are
``a < b`` are the five-card hands of cards below ``a`` plus ``a`` and ``b``. In colexicographic
order those five-card hands are a prefix of the list of all five-card hands, so one array of
five-card keys, sliced, serves every pair; which of them make a flush with ``a`` and ``b`` is a
prefix of a precomputed sorted index list too. Tables are built on first use, in numpy, in a
few tens of milliseconds; nothing is read from disk.

>>> import numpy as np
>>> from rules_engine.evaluation import category_of
>>> from rules_engine.cards import parse_cards
>>> hands = np.array([[c.index for c in parse_cards(h)] for h in ["As Ks Qs Js Ts 2c 2d", "7c 5d 4h 3s 2c 9d Jh"]])
>>> [category_of(int(v)).label for v in evaluate_batch(hands)]
['royal_flush', 'high_card']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from rules_engine.evaluation import (
    CATEGORY_OF_VALUE,
    FLUSH_SUIT,
    FLUSH_VALUES,
    RANK_KEYS,
    SUIT_KEYS,
    VALUE_COUNT,
    Category,
    rank_values,
)

__all__ = [
    "categories",
    "category_counts",
    "evaluate_batch",
    "omaha_batch",
    "value_histogram",
]

IntArray = npt.NDArray[np.int64]
Values = npt.NDArray[np.int32]

_CARDS = np.arange(52)
_RANK_KEY = np.array([RANK_KEYS[i >> 2] for i in range(52)], dtype=np.int32)
_SUIT = (_CARDS & 3).astype(np.int8)
_SUIT_KEY = np.array([SUIT_KEYS[i & 3] for i in range(52)], dtype=np.int32)
_RANK_BIT = (1 << (_CARDS >> 2)).astype(np.uint16)
_FLUSH_VALUE = np.array(FLUSH_VALUES, dtype=np.int32)  # -1 below five cards, never read then
_FLUSH_SUIT = np.array(FLUSH_SUIT, dtype=np.int8)
_POPCOUNT = np.array([m.bit_count() for m in range(1 << 13)], dtype=np.uint8)
_CHUNK = 1 << 16  # rows per step of the Omaha evaluator, to bound temporary memory


@functools.cache
def _rank_table(n_cards: int) -> npt.NDArray[np.uint16]:
    """``table[rank key sum]`` -> value, for hands of ``n_cards`` (5, 6 or 7) cards."""
    keys, values = rank_values()[n_cards]
    table = np.zeros(int(keys[-1]) + 1, dtype=np.uint16)
    table[keys] = values
    return table


def _as_cards(cards: npt.ArrayLike, name: str, low: int, high: int) -> IntArray:
    arr = np.asarray(cards, dtype=np.int64)
    if arr.ndim != 2 or not low <= arr.shape[1] <= high:
        raise ValueError(f"{name} must be an [N, {low}..{high}] array of card indices")
    if arr.size and (int(np.min(arr)) < 0 or int(np.max(arr)) > 51):
        raise ValueError(f"{name}: card indices are 0..51")
    return arr


def evaluate_batch(cards: npt.ArrayLike) -> Values:
    """Values of the best five of each row of an ``[N, k]`` array of card indices, k = 5..7.

    Rows must hold distinct cards (not checked).
    """
    c = _as_cards(cards, "cards", 5, 7)
    values = _rank_table(c.shape[1])[_RANK_KEY[c].sum(axis=1)].astype(np.int32)
    # Suit sums of up to seven cards decode to the four suit counts (see evaluation.py).
    suit = _FLUSH_SUIT[(c.shape[1] << 9) + _SUIT_KEY[c].sum(axis=1)]
    rows = np.flatnonzero(suit >= 0)
    if rows.size:
        in_suit = _SUIT[c[rows]] == suit[rows, None]
        masks = np.where(in_suit, _RANK_BIT[c[rows]], 0).sum(axis=1)
        values[rows] = _FLUSH_VALUE[masks]
    return values


_PAIRS = {n: np.array(list(combinations(range(n), 2))) for n in range(2, 8)}
_TRIPLES = {n: np.array(list(combinations(range(n), 3))) for n in range(3, 6)}


def omaha_batch(hole: npt.ArrayLike, board: npt.ArrayLike) -> Values:
    """Omaha 2+3 values for ``hole`` ``[N, 2..7]`` and ``board`` ``[N, 3..5]`` card indices.

    >>> from rules_engine.cards import parse_cards
    >>> from rules_engine.evaluation import category_of
    >>> hole = [[c.index for c in parse_cards("Ah 2c 9s 9d")]]
    >>> board = [[c.index for c in parse_cards("Kh Qh Jh Th 3c")]]
    >>> category_of(int(omaha_batch(hole, board)[0])).label
    'one_pair'
    """
    h = _as_cards(hole, "hole", 2, 7)
    b = _as_cards(board, "board", 3, 5)
    if len(h) != len(b):
        raise ValueError("hole and board need the same number of rows")
    out = np.empty(len(h), dtype=np.int32)
    for start in range(0, len(h), _CHUNK):
        stop = start + _CHUNK
        out[start:stop] = _omaha_chunk(h[start:stop], b[start:stop])
    return out


def _omaha_chunk(hole: IntArray, board: IntArray) -> Values:
    pa, pb = _PAIRS[hole.shape[1]].T
    ta, tb, tc = _TRIPLES[board.shape[1]].T
    hk, bk = _RANK_KEY[hole], _RANK_KEY[board]
    pair_key = hk[:, pa] + hk[:, pb]
    triple_key = bk[:, ta] + bk[:, tb] + bk[:, tc]
    values = _rank_table(5)[pair_key[:, :, None] + triple_key[:, None, :]].astype(np.int32)
    # Flushes: a suited hole pair with a board triple of its suit.
    hs, bs = _SUIT[hole], _SUIT[board]
    pair_suit = np.where(hs[:, pa] == hs[:, pb], hs[:, pa], -1)
    triple_suit = np.where((bs[:, ta] == bs[:, tb]) & (bs[:, tb] == bs[:, tc]), bs[:, ta], -2)
    flush = pair_suit[:, :, None] == triple_suit[:, None, :]
    if flush.any():
        hm, bm = _RANK_BIT[hole], _RANK_BIT[board]
        pair_mask = hm[:, pa] | hm[:, pb]
        triple_mask = bm[:, ta] | bm[:, tb] | bm[:, tc]
        n, i, j = np.nonzero(flush)
        values[n, i, j] = _FLUSH_VALUE[pair_mask[n, i] | triple_mask[n, j]]
    result: Values = values.max(axis=(1, 2))
    return result


def categories(values: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The :class:`Category` numbers of an array of values."""
    out: npt.NDArray[np.uint8] = CATEGORY_OF_VALUE[np.asarray(values)]
    return out


# ---------------------------------------------------------------------------------------------
# Every hand.


@functools.cache
def _colex_fives() -> tuple[npt.NDArray[np.int32], tuple[npt.NDArray[np.uint16], ...]]:
    """For all C(52, 5) five-card hands in colexicographic order: rank key sums, and per suit
    the mask of the hand's ranks in that suit. The hands of cards below ``a`` are the first
    C(a, 5) entries."""
    keys = np.zeros(1, dtype=np.int32)
    masks = tuple(np.zeros(1, dtype=np.uint16) for _ in range(4))
    for k in range(1, 6):
        spans = [(t, comb(t, k - 1)) for t in range(k - 1, 52)]
        keys = np.concatenate([keys[:n] + _RANK_KEY[t] for t, n in spans])
        masks = tuple(
            np.concatenate([m[:n] | (_RANK_BIT[t] if t & 3 == s else 0) for t, n in spans])
            for s, m in enumerate(masks)
        )
    return keys, masks


@functools.cache
def _suit_at_least(suit: int, count: int) -> npt.NDArray[np.int64]:
    """Sorted indices of the five-card hands with at least ``count`` cards of ``suit``."""
    return np.flatnonzero(_POPCOUNT[_colex_fives()[1][suit]] >= count)


def _flush_groups(sa: int, sb: int) -> list[tuple[int, int]]:
    """(suit, five-card count needed) for which a five-card hand plus two cards of suits
    ``sa`` and ``sb`` holds a flush in that suit. The groups never overlap: seven cards hold at
    most one flush suit."""
    need = {s: 5 - (sa == s) - (sb == s) for s in range(4)}
    return sorted(need.items())


def _seven_card_histogram(pairs: Iterable[tuple[int, int]]) -> IntArray:
    keys, masks = _colex_fives()
    table = _rank_table(7)
    hist = np.zeros(VALUE_COUNT, dtype=np.int64)
    size = comb(51, 5)
    key_buf = np.empty(size, dtype=np.int32)
    value_buf = np.empty(size, dtype=np.uint16)
    for a, b in pairs:
        n = comb(a, 5)
        k, v = key_buf[:n], value_buf[:n]
        np.add(keys[:n], _RANK_KEY[a] + _RANK_KEY[b], out=k)
        np.take(table, k, out=v)
        for s, need in _flush_groups(a & 3, b & 3):
            idx = _suit_at_least(s, need)
            idx = idx[: np.searchsorted(idx, n)]
            if idx.size:
                extra = (_RANK_BIT[a] if a & 3 == s else 0) | (_RANK_BIT[b] if b & 3 == s else 0)
                v[idx] = _FLUSH_VALUE[masks[s][idx] | extra]
        hist += np.bincount(v, minlength=VALUE_COUNT)
    return hist


def value_histogram(n_cards: int = 7, threads: int = 2) -> IntArray:
    """How many of all C(52, n_cards) hands (5 or 7 cards) have each value.

    Every hand is evaluated; with seven cards the work is shared by ``threads`` threads
    (numpy releases the GIL while it works).
    """
    if n_cards == 5:
        keys, masks = _colex_fives()
        values = _rank_table(5)[keys]
        for s in range(4):
            idx = _suit_at_least(s, 5)
            values[idx] = _FLUSH_VALUE[masks[s][idx]]
        return np.bincount(values, minlength=VALUE_COUNT).astype(np.int64)
    if n_cards != 7:
        raise ValueError("all hands can be enumerated for 5 or 7 cards")
    # Build the shared tables once, before the threads would race to build them.
    _colex_fives()
    _rank_table(7)
    for s in range(4):
        for need in (3, 4, 5):
            _suit_at_least(s, need)
    # Largest prefixes first, dealt round-robin, so the threads finish together.
    pairs = sorted(((a, b) for b in range(52) for a in range(5, b)), reverse=True)
    threads = max(1, threads)
    if threads == 1:
        return _seven_card_histogram(pairs)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(_seven_card_histogram, [pairs[i::threads] for i in range(threads)]))
    total: IntArray = np.sum(parts, axis=0)
    return total


def category_counts(n_cards: int = 7, threads: int = 2) -> dict[Category, int]:
    """Exact number of hands per category among all C(52, n_cards) hands (5 or 7 cards).

    STRAIGHT_FLUSH excludes the royal flushes, which are counted under ROYAL_FLUSH.

    >>> counts = category_counts(5)
    >>> counts[Category.ROYAL_FLUSH], counts[Category.STRAIGHT_FLUSH], sum(counts.values())
    (4, 36, 2598960)
    """
    hist = value_histogram(n_cards, threads)
    per_category = np.bincount(CATEGORY_OF_VALUE, weights=hist, minlength=len(Category))
    return {cat: int(per_category[cat]) for cat in Category if cat != Category.FIVE_OF_A_KIND}


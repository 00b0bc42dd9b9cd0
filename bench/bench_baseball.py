"""Baseball engine speed: full random hands per second, showdowns included.

``run()`` prints as it measures and returns a markdown section for ``bench/RESULTS.md``; the file
also runs on its own: ``python bench/bench_baseball.py [seconds-per-figure]``.

Figures:

* full 6-handed hands to a showdown: antes, five deals with free cards for open 4s, random bets,
  raises and calls (nobody folds), the showdown of up to 46 cards with wild 3s and 9s and the
  exact fractional split;
* random 2-6-handed hands with fractional and negative balances, random legal actions (folds
  included) and some timeouts;
* the same hands rebuilt by replaying their logs, through JSON, and through a PHH export;
* ``view_for`` at the showdown.

No target was set for Baseball; Patch-Patch's (issue #3) is 500 full hands a second.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine.games import Action  # noqa: E402
from rules_engine.games.baseball import Baseball, BaseballState  # noqa: E402
from rules_engine.notation import replay_phh, to_phh  # noqa: E402


def showdown_hand(rng: random.Random) -> BaseballState:
    """A 6-handed hand where nobody folds: it always reaches the showdown."""
    setup = Baseball.setup_for_table(
        stacks=[Fraction(rng.randint(-50, 100), rng.choice((1, 3))) for _ in range(6)],
        button=rng.randrange(6),
    )
    state = Baseball.start(setup, rng=rng)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        legal = [la for la in state.legal_actions(seat) if la.kind != "fold"]
        # Mostly check or call, sometimes bet or raise.
        la = legal[-1] if len(legal) > 1 and rng.random() < 0.2 else legal[0]
        state.apply(Action(seat, la.kind))
    return state


def random_hand(rng: random.Random) -> BaseballState:
    """2-6 players, random balances, random legal actions (folds too), some timeouts."""
    n = rng.randint(2, 6)
    setup = Baseball.setup_for_table(
        stacks=[Fraction(rng.randint(-50, 100), rng.choice((1, 2, 3))) for _ in range(n)],
        button=rng.randrange(n),
    )
    state = Baseball.start(setup, rng=rng)
    while not state.is_over:
        if rng.random() < 0.02:
            state.timeout()
            continue
        seat = state.to_act
        assert seat is not None
        state.apply(Action(seat, rng.choice(state.legal_actions(seat)).kind))
    return state


def rate(label: str, make: Callable[[], object], seconds: float) -> float:
    """Calls of ``make`` per second over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        make()
        count += 1
        if count % 20 == 0 and time.perf_counter() >= deadline:
            break
    per_second = count / (time.perf_counter() - start)
    print(f"{label}: {per_second:,.0f}/s ({count} in {seconds:.1f}s)", flush=True)
    return per_second


def run(seconds: float = 3.0) -> str:
    rng = random.Random(20240611)
    for _ in range(50):  # warm up (imports, evaluator tables)
        showdown_hand(rng)
    full = rate("full 6-handed hands with showdown", lambda: showdown_hand(rng), seconds)
    mixed = rate("random 2-6-handed hands", lambda: random_hand(rng), seconds)

    sample = [showdown_hand(random.Random(k)) for k in range(200)]
    assert all(s.result is not None and s.result.showdown for s in sample)
    free_cards = sum(d.extra for s in sample for seat in range(6) for d in s.cards_of(seat))
    it = iter(range(10**9))

    def pick() -> BaseballState:
        return sample[next(it) % len(sample)]

    def rebuild() -> BaseballState:
        hand = pick()
        return Baseball.replay(hand.setup, hand.log)

    replay = rate("replay setup + log", rebuild, seconds / 2)
    js = rate("to_json + from_json", lambda: Baseball.from_json(pick().to_json()), seconds / 2)
    phh = rate("to_phh + replay_phh", lambda: replay_phh(to_phh(pick())), seconds / 2)
    view = rate("view_for (a seat, at showdown)", lambda: pick().view_for(0), seconds / 2)

    return (
        "## Baseball engine (`bench/bench_baseball.py`)\n\n"
        "Pure-Python rules engine (`rules_engine.games.baseball`), one process, one core.\n\n"
        "| what | per second |\n|---|---:|\n"
        f"| full 6-handed hands: five deals, free cards, random bets and raises, showdown "
        f"with wild cards, exact split | {full:,.0f} |\n"
        f"| random 2-6-handed hands (folds, timeouts, fractional balances) | {mixed:,.0f} |\n"
        f"| rebuild a finished hand: replay setup + log | {replay:,.0f} |\n"
        f"| rebuild a finished hand: to_json + from_json | {js:,.0f} |\n"
        f"| PHH: export + replay a finished hand | {phh:,.0f} |\n"
        f"| `view_for(seat)` at showdown | {view:,.0f} |\n\n"
        f"The 200 sample showdowns dealt {free_cards} free cards for open 4s. No target was set "
        "for Baseball (Patch-Patch's, issue #3, is 500 full hands a second).\n"
    )


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(run(secs))

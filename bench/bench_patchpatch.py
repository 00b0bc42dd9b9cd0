"""Patch-Patch engine speed: full random hands per second, showdowns included.

``run()`` prints as it measures and returns a markdown section for ``bench/RESULTS.md``; the file
also runs on its own: ``python bench/bench_patchpatch.py [seconds-per-figure]``.

Figures:

* full 3-handed hands to a showdown: blinds, 12 cards each, random pot bets and calls (nobody
  folds), random swaps in the arrangement, three streets, showdown of the three boards and the
  result with the winners' five cards;
* random 2-3-handed hands as the property tests play them (folds, all-ins, timeouts);
* the same hands rebuilt by replaying their logs, through JSON, and through a PHH export.

Target from issue #3: at least 500 full 3-handed hands a second.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine.games import Action, HandSetup, get_variant  # noqa: E402
from rules_engine.games.patchpatch import PatchPatchState  # noqa: E402
from rules_engine.notation import replay_phh, to_phh  # noqa: E402

PP = get_variant("PP")
TARGET = 500


def showdown_hand(rng: random.Random) -> PatchPatchState:
    """A 3-handed hand where nobody folds: it always reaches the showdown."""
    setup = HandSetup(
        stacks=(rng.randint(500, 15000), rng.randint(500, 15000), rng.randint(500, 15000)),
        button=rng.randrange(3),
        small_blind=10,
        big_blind=20,
        public=True,
    )
    state = PP.start(setup, rng=rng)
    while not state.is_over:
        actors = state.actors()
        if state.phase == "arrange":
            seat = actors[0]
            for _ in range(rng.randrange(4)):
                a, b = rng.sample(state.hand_of(seat), 2)
                state.apply(Action.swap(seat, a, b))
            state.apply(Action(seat, "done"))
            continue
        seat = actors[0]
        legal = [la for la in state.legal_actions(seat) if la.kind != "fold"]
        # Mostly check or call, sometimes bet or raise the pot.
        la = legal[-1] if len(legal) > 1 and rng.random() < 0.25 else legal[0]
        state.apply(Action(seat, la.kind))
    return state


def random_hand(rng: random.Random) -> PatchPatchState:
    """Random stacks, 2-3 players, random legal actions, some timeouts."""
    n = rng.choice((2, 3))
    setup = HandSetup(
        stacks=tuple(rng.randint(1, 4000) for _ in range(n)),
        button=rng.randrange(n),
        small_blind=10,
        big_blind=20,
        public=rng.random() < 0.5,
    )
    state = PP.start(setup, rng=rng)
    while not state.is_over:
        if rng.random() < 0.02:
            state.timeout()
            continue
        seat = rng.choice(state.actors())
        la = rng.choice(state.legal_actions(seat))
        if la.kind == "swap":
            a, b = rng.sample(state.hand_of(seat), 2)
            state.apply(Action.swap(seat, a, b))
        elif la.kind == "arrange":
            order = list(state.hand_of(seat))
            rng.shuffle(order)
            state.apply(Action.arrange(seat, tuple(order)))
        else:
            state.apply(Action(seat, la.kind))
    return state


def rate(label: str, make: Callable[[], object], seconds: float) -> tuple[float, int]:
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
    return per_second, count


def run(seconds: float = 3.0) -> str:
    rng = random.Random(20240611)
    # Warm up (imports, evaluator tables).
    for _ in range(50):
        showdown_hand(rng)
    full, _ = rate("full 3-handed hands with showdown", lambda: showdown_hand(rng), seconds)
    mixed, _ = rate("random 2-3-handed hands", lambda: random_hand(rng), seconds)

    sample = [showdown_hand(random.Random(k)) for k in range(200)]
    assert all(s.result is not None and s.result.showdown for s in sample)
    it = iter(range(10**9))

    def pick() -> PatchPatchState:
        return sample[next(it) % len(sample)]

    def rebuild() -> PatchPatchState:
        hand = pick()
        return PP.replay(hand.setup, hand.log)

    replay, _ = rate("replay setup + log", rebuild, seconds / 2)
    js, _ = rate("to_json + from_json", lambda: PP.from_json(pick().to_json()), seconds / 2)
    phh, _ = rate("to_phh + replay_phh", lambda: replay_phh(to_phh(pick())), seconds / 2)
    view, _ = rate("view_for (a seat, at showdown)", lambda: pick().view_for(0), seconds / 2)

    verdict = "meets" if full >= TARGET else "misses"
    return (
        "## Patch-Patch engine (`bench/bench_patchpatch.py`)\n\n"
        "Pure-Python rules engine (`rules_engine.games.patchpatch`), one process, one core.\n\n"
        "| what | per second |\n|---|---:|\n"
        f"| full 3-handed hands, random pot bets, swaps, showdown of three boards | {full:,.0f} |\n"
        f"| random 2-3-handed hands (folds, all-ins, timeouts) | {mixed:,.0f} |\n"
        f"| rebuild a finished hand: replay setup + log | {replay:,.0f} |\n"
        f"| rebuild a finished hand: to_json + from_json | {js:,.0f} |\n"
        f"| PHH: export + replay a finished hand | {phh:,.0f} |\n"
        f"| `view_for(seat)` at showdown (rich hand names for 3 boards x shown hands) | {view:,.0f} |\n\n"
        f"Target (issue #3): at least {TARGET} full 3-handed hands a second: **{verdict}** it "
        f"({full / TARGET:.1f}x).\n"
    )


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(run(secs))

"""Hold'em and Omaha engine speed, side by side with PokerKit in the same run.

``run()`` prints as it measures and returns a markdown section for ``bench/RESULTS.md``; the file
also runs on its own: ``python bench/bench_games.py [seconds-per-figure]``.

Figures: full random 6-max hands per second, no-limit Hold'em (``NT``) and pot-limit Omaha
(``PO``), for our engine (``rules_engine.games.flop``) and for PokerKit. A full hand is: shuffle,
post the blinds, deal, play random legal actions to the end (folds about one time in eight, a
bet or raise of a random size about one time in four, else check or call) and settle every pot
at the showdown. Both engines play with the same policy and stacks of 50 to 400 big blinds;
PokerKit runs with every automation on (dealing, burning, showing, killing, pushing, pulling),
which is its fastest way through a hand.

Target from issue #7: at least 10x PokerKit's rate.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine.games import Action, get_variant  # noqa: E402

TARGET = 10.0
PLAYERS = 6
SMALL, BIG = 1, 2


def ours_hand(code: str, rng: random.Random) -> Any:
    V = get_variant(code)
    setup = V.setup_for_table(
        stacks=[rng.randint(50 * BIG, 400 * BIG) for _ in range(PLAYERS)],
        button=rng.randrange(PLAYERS),
        small_blind=SMALL,
        big_blind=BIG,
    )
    state = V.start(setup, rng=rng)
    while not state.is_over:
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        r = rng.random()
        if r < 0.125 and legal[0].kind == "fold":
            state.apply(Action(seat, "fold"))
            continue
        raise_ = legal[-1]
        if r < 0.375 and raise_.max_amount is not None and raise_.kind != "call":
            lo, hi = raise_.min_amount, raise_.max_amount
            assert lo is not None
            state.apply(Action(seat, raise_.kind, amount=rng.randint(lo, hi)))
            continue
        kind = "check" if legal[0].kind == "check" else "call"
        state.apply(Action(seat, kind))
    return state


def pokerkit_maker(code: str) -> Callable[[random.Random], Any] | None:
    try:
        import pokerkit
    except ImportError:
        return None
    from pokerkit import Automation, Mode

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    cls = pokerkit.NoLimitTexasHoldem if code == "NT" else pokerkit.PotLimitOmahaHoldem
    game = cls(automations, False, 0, (SMALL, BIG), BIG, mode=Mode.CASH_GAME)

    def hand(rng: random.Random) -> Any:
        state = game(tuple(rng.randint(50 * BIG, 400 * BIG) for _ in range(PLAYERS)), PLAYERS)
        while state.status:
            r = rng.random()
            if r < 0.125 and state.checking_or_calling_amount and state.can_fold():
                state.fold()
            elif r < 0.375 and state.can_complete_bet_or_raise_to():
                lo = state.min_completion_betting_or_raising_to_amount
                hi = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(lo, hi))
            else:
                state.check_or_call()
        return state

    return hand


def _bound(f: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    return lambda: f(*args)


def rate(label: str, make: Callable[[], object], seconds: float) -> float:
    """Calls of ``make`` per second over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        make()
        count += 1
        if count % 5 == 0 and time.perf_counter() >= deadline:
            break
    per_second = count / (time.perf_counter() - start)
    print(f"{label}: {per_second:,.0f} hands/s ({count} in {seconds:.1f}s)", flush=True)
    return per_second


def run(seconds: float = 3.0) -> str:
    warnings.simplefilter("ignore")  # PokerKit warns about cards it is asked to burn
    rows = []
    ratios = []
    for code, name in (("NT", "No-limit Hold'em, 6-max"), ("PO", "Pot-limit Omaha, 6-max")):
        rng = random.Random(7)
        for _ in range(30):
            ours_hand(code, rng)  # warm up the evaluator tables
        ours = rate(f"{code} ours", _bound(ours_hand, code, rng), seconds)
        pk_hand = pokerkit_maker(code)
        if pk_hand is None:
            rows.append(f"| {name} | {ours:,.0f} | (PokerKit not installed) | |")
            continue
        pk = rate(f"{code} PokerKit", _bound(pk_hand, random.Random(7)), seconds)
        ratios.append(ours / pk)
        rows.append(f"| {name} | {ours:,.0f} | {pk:,.0f} | {ours / pk:.1f}x |")
    verdict = ""
    if ratios:
        met = all(r >= TARGET for r in ratios)
        verdict = (
            f"\nTarget (issue #7): at least {TARGET:.0f}x PokerKit's rate: "
            f"**{'meets' if met else 'misses'}** it (lowest {min(ratios):.1f}x).\n"
        )
    return (
        "## Hold'em and Omaha engine vs PokerKit (`bench/bench_games.py`)\n\n"
        "Full random 6-max hands per second (deal, random legal actions with random bet sizes, "
        "showdown and settlement), both engines in the same run, one process, one core; "
        "stacks 50-400 big blinds.\n\n"
        "| game | ours (hands/s) | PokerKit (hands/s) | ratio |\n|---|---:|---:|---:|\n"
        + "\n".join(rows)
        + "\n"
        + verdict
    )


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(run(secs))

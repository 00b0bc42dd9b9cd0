"""Properties of random hands of every classic game (Hypothesis), as issue #3 asks of Patch-Patch:

* chips are conserved (payouts + rake = contributions) and the rake follows the rules;
* every action ``legal_actions`` lists is accepted, anything else is refused without change;
* replaying the log and the JSON round trip reach the identical state;
* no view shows a card its viewer may not see (stud up cards are public, down cards are not;
  how many cards a seat drew is public, which ones are not), and events carry public cards only;
* the PHH export replays to the same result, hidden-card histories to the same payouts;
* settlement agrees with an independent oracle written here from the rulebook.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules_engine.cards import parse_cards
from rules_engine.errors import RulesError
from rules_engine.evaluation import (
    hand_value_int,
    low_8_or_better,
    omaha_low_8,
    omaha_value_int,
    razz_low,
)
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.games.classic import KINDS
from rules_engine.notation import replay_phh, to_phh
from tests.rules_engine.test_flop_games import CLASSIC_CODES, random_hand
from tests.rules_engine.test_patchpatch_views import card_strings

SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, HandSetup, int]:
    code = draw(st.sampled_from(CLASSIC_CODES))
    V = get_variant(code)
    n = draw(st.integers(V.MIN_PLAYERS, V.MAX_PLAYERS))
    bb = draw(st.sampled_from([2, 10, 20, 50]))
    stack = st.one_of(st.integers(1, 4 * bb), st.integers(5 * bb, 150 * bb), st.integers(1, 400 * bb))
    setup = V.setup_for_table(
        stacks=[draw(stack) for _ in range(n)],
        button=draw(st.integers(0, n - 1)),
        small_blind=bb // 2,
        big_blind=bb,
        public=draw(st.booleans()),
        speed=draw(st.sampled_from(["slow", "medium", "fast"])),
    )
    return code, setup, draw(st.integers(0, 2**32 - 1))


def choose(data: st.DataObject, state: Any) -> Action | None:
    """A random legal action (None: let the clock run out)."""
    if data.draw(st.integers(0, 30)) == 0:
        return None
    seat = state.actors()[0]
    legal = state.legal_actions(seat)
    if legal[0].kind == "fold" and data.draw(st.integers(0, 7)) > 0:
        legal = legal[1:]
    la = legal[data.draw(st.integers(0, len(legal) - 1))]
    if la.kind == "draw":
        hand = state.hand_of(seat)
        k = data.draw(st.integers(0, 5))
        return Action(seat, "draw", cards=tuple(data.draw(st.permutations(hand))[:k]))
    amount = None
    if la.min_amount is not None and la.max_amount is not None and data.draw(st.booleans()):
        amount = data.draw(st.integers(la.min_amount, la.max_amount))
        if state._bet.structure.discrete:
            amount = la.amount
    return Action(seat, la.kind, amount=amount)


def play_out(data: st.DataObject, each_step: Any = None) -> Any:
    code, setup, seed = data.draw(setups())
    state = get_variant(code).start(setup, rng=random.Random(seed))
    event(code)
    steps = 0
    while not state.is_over:
        if each_step is not None:
            each_step(state)
        action = choose(data, state)
        if action is None:
            state.timeout()
        else:
            state.apply(action)
        steps += 1
        assert steps < 500
    if each_step is not None:
        each_step(state)
    return state


# -- chips ------------------------------------------------------------------------------------


def check_chips(state: Any) -> None:
    r = state.result
    start = state.setup.stacks
    assert sum(r.payouts) + r.rake == sum(r.contributions)
    assert sum(r.stacks) + r.rake == sum(start)
    assert all(s >= 0 for s in r.stacks)
    for seat in range(state.n):
        assert r.stacks[seat] == start[seat] - r.contributions[seat] + r.payouts[seat]
    assert sum(p.amount for p in r.pots) == sum(r.contributions)
    for pot in r.pots:
        assert sum(pot.payouts) + pot.rake == pot.amount
        assert sum(part.share for part in pot.boards) in (0, pot.amount - pot.rake)
    bb = state.setup.big_blind
    if not state.setup.public or bb < 20 or state.round == 0:
        assert r.rake == 0
    else:
        assert r.rake == min(sum(p.amount * 3 // 100 for p in r.pots), 3 * bb)


@SETTINGS
@given(st.data())
def test_chips_are_conserved(data: st.DataObject) -> None:
    check_chips(play_out(data))


# -- legal actions ----------------------------------------------------------------------------


def probe(state: Any) -> None:
    """Everything outside legal_actions is refused and leaves the state as it was."""
    if state.is_over:
        return
    before = state.snapshot()
    actors = state.actors()
    for seat in range(state.n):
        legal = state.legal_actions(seat)
        assert (seat in actors) == bool(legal)
        kinds = {la.kind for la in legal}
        hand = state.hand_of(seat)
        attempts = [Action(seat, kind) for kind in sorted(KINDS - kinds)]
        attempts.append(Action(seat, "draw", cards=hand[:2]) if "draw" not in kinds else Action(seat, "call"))
        for kind in kinds:
            if kind == "draw":
                attempts.append(Action(seat, "draw", cards=parse_cards("2c 2d 2h 2s 3c 3d")))
                continue
            # A five-card-stud open pair lists "bet" twice: the bounds are over both sizes.
            same = [la for la in legal if la.kind == kind]
            lo = min(la.min_amount if la.min_amount is not None else la.amount for la in same)
            hi = max(la.max_amount if la.max_amount is not None else la.amount for la in same)
            attempts.append(Action(seat, kind, amount=lo - 1 if lo else 10**9))
            attempts.append(Action(seat, kind, amount=hi + 1))
            if len(same) == 2 and same[1].amount - same[0].amount > 1:
                attempts.append(Action(seat, kind, amount=same[0].amount + 1))  # between the sizes
        for attempt in attempts:
            try:
                state.apply(attempt)
            except RulesError:
                pass
            else:
                raise AssertionError(f"{attempt} was accepted; legal: {legal}")
            assert state.snapshot() == before
    V = state.game
    for seat in actors:
        for la in state.legal_actions(seat):
            copy = V.replay(state.setup, state.log)
            if la.kind == "draw":
                copy.apply(Action(seat, "draw", cards=state.hand_of(seat)[1:4]))
            else:
                copy.apply(Action(seat, la.kind, amount=la.amount))
                if la.max_amount is not None and la.max_amount != la.amount:
                    V.replay(state.setup, state.log).apply(Action(seat, la.kind, amount=la.max_amount))


@settings(SETTINGS, max_examples=120)
@given(st.data())
def test_listed_actions_are_accepted_and_others_refused_without_change(data: st.DataObject) -> None:
    play_out(data, probe)


# -- replay, JSON, views, PHH -----------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_replay_and_json_round_trips_reach_the_identical_state(data: st.DataObject) -> None:
    state = play_out(data)
    V = state.game
    assert V.replay(state.setup, state.log) == state
    assert V.from_json(state.to_json()) == state
    cut = data.draw(st.integers(0, len(state.log)))
    partial = V.replay(state.setup, state.log[:cut])
    assert V.from_json(json.loads(json.dumps(partial.to_json()))) == partial


def allowed_cards(state: Any, viewer: int | None) -> set[str]:
    allowed = {str(c) for c in state.board}
    if state.game.FAMILY == "stud":
        for seat in range(state.n):
            allowed |= {str(c) for c in state.up_cards(seat)}
    if viewer is not None:
        allowed |= {str(c) for c in state.hand_of(viewer)}
    if state.result is not None:
        for seat in state.result.shown:
            allowed |= {str(c) for c in state.hand_of(seat)}
    return allowed


def assert_no_leak(state: Any) -> None:
    for viewer in [None, *range(state.n)]:
        view = state.view_for(viewer)
        json.dumps(view)  # plain data only
        leaked = card_strings(view) - allowed_cards(state, viewer)
        assert not leaked, (viewer, state.phase, leaked)
        for p in view["players"]:
            if p["seat"] != viewer and not p["shown"]:
                assert p["cards"] is None
                if "down" in p:
                    assert all(c is None for c in p["down"])


@settings(SETTINGS, max_examples=150)
@given(st.data())
def test_no_view_or_event_leaks_a_hidden_card(data: st.DataObject) -> None:
    public: list[str] = []

    def step(state: Any) -> None:
        assert_no_leak(state)

    code, setup, seed = data.draw(setups())
    state = get_variant(code).start(setup, rng=random.Random(seed))
    events = list(state.start_events)
    while not state.is_over:
        step(state)
        action = choose(data, state)
        events += state.timeout() if action is None else state.apply(action)
    step(state)
    for e in events:
        public += [str(c) for c in e.cards]
    assert set(public) <= allowed_cards(state, None)


@settings(SETTINGS, max_examples=150)
@given(st.data())
def test_phh_export_replays_to_the_same_result(data: st.DataObject) -> None:
    state = play_out(data)
    text = to_phh(state)
    again = replay_phh(text)
    assert again.result == state.result and again.breaks == state.breaks
    assert to_phh(again) == text
    for viewer in (None, data.draw(st.integers(0, state.n - 1))):
        hidden = replay_phh(to_phh(state, hide_unshown=True, viewer=viewer))
        assert hidden.result.payouts == state.result.payouts


# -- an independent settlement oracle ---------------------------------------------------------


def oracle_payouts(state: Any) -> list[int]:
    """Settle a finished hand from the rulebook, without the engine's pot or showdown code."""
    r = state.result
    n = state.n
    game = state.game
    c = list(r.contributions)
    live = [s for s in range(n) if not state.folded[s]]
    setup = state.setup
    raked = setup.public and setup.big_blind >= 20 and state.round >= 1
    cap = 3 * setup.big_blind
    clockwise = [(setup.button + 1 + k) % n for k in range(n)]

    def cards(s: int) -> list[Any]:
        return list(state.hand_of(s)) + list(state.board)

    def high(s: int) -> int:
        if game.FAMILY == "flop" and game.OMAHA:
            return omaha_value_int(state.hand_of(s), state.board)
        return hand_value_int(cards(s))

    def low(s: int) -> int | None:
        if game.LOW_ONLY:
            return razz_low(cards(s)).value
        if game.FAMILY == "flop":
            v = omaha_low_8(state.hand_of(s), state.board)
        else:
            v = low_8_or_better(cards(s))
        return None if v is None else v.value

    payouts = [0] * n
    taken = 0
    prev = 0
    for level in sorted({c[s] for s in live}):
        top = level == max(c[s] for s in live)
        amount = sum(max(0, (x if top else min(x, level)) - prev) for x in c)
        eligible = [s for s in clockwise if s in live and c[s] >= level]
        prev = level
        if not amount:
            continue
        rake = min(amount * 3 // 100, cap - taken) if raked else 0
        taken += rake
        left = amount - rake
        if len(live) == 1:
            payouts[live[0]] += left
            continue
        parts: list[tuple[int, dict[int, int]]] = []
        if game.LOW_ONLY:
            parts.append((left, {s: low(s) for s in eligible}))  # type: ignore[misc]
        else:
            lows = {s: v for s in eligible if (v := low(s)) is not None} if game.HI_LO else {}
            if lows:
                parts.append((left - left // 2, {s: high(s) for s in eligible}))
                parts.append((left // 2, lows))
            else:
                parts.append((left, {s: high(s) for s in eligible}))
        for share, value in parts:
            best = max(value.values())
            winners = [s for s in clockwise if s in value and value[s] == best]
            each, odd = divmod(share, len(winners))
            for k, s in enumerate(winners):
                payouts[s] += each + (1 if k < odd else 0)
    return payouts


@settings(SETTINGS, max_examples=400)
@given(st.data())
def test_settlement_matches_an_independent_oracle(data: st.DataObject) -> None:
    state = play_out(data)
    event(f"{len(state.result.pots)} pot(s), {'showdown' if state.result.showdown else 'no showdown'}")
    assert list(state.result.payouts) == oracle_payouts(state)


def test_seeded_hands_of_every_game_conserve_chips_and_match_the_oracle() -> None:
    rng = random.Random(2025)
    for code in CLASSIC_CODES:
        showdowns = 0
        for _ in range(150):
            state = random_hand(code, rng)
            check_chips(state)
            assert list(state.result.payouts) == oracle_payouts(state)
            showdowns += state.result.showdown
        assert showdowns > 20, code

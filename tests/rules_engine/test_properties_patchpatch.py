"""Properties of random Patch-Patch hands (Hypothesis): random stacks, 2-3 players, random legal
actions, random arrangements and timeouts.

* chips are conserved (payouts + rake = contributions) and the rake follows the rules;
* every action ``legal_actions`` lists is accepted, and any other is rejected without change;
* replaying the log and the JSON round trip reach the identical state;
* no view shows a card its viewer may not see;
* the PHH export replays to the same result;
* settlement agrees with an independent oracle written here from the rulebook.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules_engine.errors import RulesError
from rules_engine.evaluation import omaha_best
from rules_engine.games import Action, HandSetup
from rules_engine.games.patchpatch import KINDS, PatchPatch, PatchPatchState
from rules_engine.notation import replay_phh, to_phh
from tests.rules_engine.conftest import random_hand
from tests.rules_engine.test_patchpatch_views import assert_no_leak

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def setups(draw: st.DrawFn) -> tuple[HandSetup, int]:
    n = draw(st.sampled_from([2, 3]))
    bb = draw(st.sampled_from([10, 20, 50, 100]))
    stack = st.one_of(
        st.integers(1, 3 * bb), st.integers(5 * bb, 150 * bb), st.integers(1, 400 * bb)
    )
    stacks = tuple(draw(stack) for _ in range(n))
    setup = HandSetup(
        stacks=stacks,
        button=draw(st.integers(0, n - 1)),
        small_blind=bb // 2,
        big_blind=bb,
        public=draw(st.booleans()),
        speed=draw(st.sampled_from(["slow", "medium", "fast"])),
    )
    return setup, draw(st.integers(0, 2**32 - 1))


def choose(data: st.DataObject, state: PatchPatchState) -> Action | None:
    """A random legal action (None: let the clock run out)."""
    if data.draw(st.integers(0, 30)) == 0:
        return None
    actors = state.actors()
    seat = actors[data.draw(st.integers(0, len(actors) - 1))]
    legal = state.legal_actions(seat)
    # Fold one time in eight so that most hands reach the later streets and the showdown.
    if legal[0].kind == "fold" and data.draw(st.integers(0, 7)) > 0:
        legal = legal[1:]
    la = legal[data.draw(st.integers(0, len(legal) - 1))]
    if la.kind == "swap":
        hand = state.hand_of(seat)
        i = data.draw(st.integers(0, 11))
        j = data.draw(st.integers(0, 10))
        j += j >= i
        return Action.swap(seat, hand[i], hand[j])
    if la.kind == "arrange":
        order = data.draw(st.permutations(state.hand_of(seat)))
        return Action.arrange(seat, tuple(order))
    amount = la.amount if data.draw(st.booleans()) else None
    return Action(seat, la.kind, amount=amount)


def play_out(data: st.DataObject, each_step: Any = None) -> PatchPatchState:
    setup, seed = data.draw(setups())
    state = PatchPatch.start(setup, rng=random.Random(seed))
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


def check_chips(state: PatchPatchState) -> None:
    r = state.result
    assert r is not None
    start = state.setup.stacks
    assert sum(r.payouts) + r.rake == sum(r.contributions)
    assert sum(r.stacks) + r.rake == sum(start)
    assert all(s >= 0 for s in r.stacks)
    for seat in range(state.n):
        assert r.stacks[seat] == start[seat] - r.contributions[seat] + r.payouts[seat]
        assert r.net[seat] == r.payouts[seat] - r.contributions[seat]
    assert sum(p.amount for p in r.pots) == sum(r.contributions)
    for pot in r.pots:
        assert sum(pot.payouts) + pot.rake == pot.amount
        assert pot.rake <= pot.amount * 3 // 100
    bb = state.setup.big_blind
    if not state.setup.public or bb < 20 or not state.flops_dealt:
        assert r.rake == 0
    else:
        assert r.rake == min(sum(p.amount * 3 // 100 for p in r.pots), 3 * bb)


@SETTINGS
@given(st.data())
def test_chips_are_conserved(data: st.DataObject) -> None:
    check_chips(play_out(data))


# -- legal actions ----------------------------------------------------------------------------


def probe(state: PatchPatchState) -> None:
    """Everything outside legal_actions is rejected and leaves the state as it was."""
    if state.is_over:
        return
    before = state.snapshot()
    actors = state.actors()
    for seat in range(state.n):
        legal = state.legal_actions(seat)
        kinds = {la.kind for la in legal}
        assert (seat in actors) == bool(legal)
        hand = state.hand_of(seat)
        for kind in sorted(KINDS - kinds):
            attempt = Action(seat, kind)
            if kind == "swap":
                attempt = Action.swap(seat, hand[0], hand[1])
            elif kind == "arrange":
                attempt = Action.arrange(seat, hand)
            try:
                state.apply(attempt)
            except RulesError:
                pass
            else:
                raise AssertionError(f"{attempt} was accepted but not listed in {legal}")
            assert state.snapshot() == before
        for la in legal:
            if la.kind in ("call", "bet_pot", "raise_pot", "all_in"):
                for wrong in (la.amount - 1, la.amount + 1):
                    try:
                        state.apply(Action(seat, la.kind, amount=wrong))
                    except RulesError:
                        pass
                    else:
                        raise AssertionError(f"{la.kind} {wrong} accepted; legal is {la.amount}")
                    assert state.snapshot() == before
    # And every listed action is accepted (tried on copies).
    for seat in actors:
        for la in state.legal_actions(seat):
            copy = PatchPatch.replay(state.setup, state.log)
            if la.kind == "swap":
                hand = state.hand_of(seat)
                copy.apply(Action.swap(seat, hand[0], hand[-1]))
            elif la.kind == "arrange":
                copy.apply(Action.arrange(seat, tuple(reversed(state.hand_of(seat)))))
            else:
                copy.apply(Action(seat, la.kind, amount=la.amount))


@settings(SETTINGS, max_examples=150)
@given(st.data())
def test_listed_actions_are_accepted_and_others_rejected_without_change(data: st.DataObject) -> None:
    play_out(data, probe)


# -- replay, JSON, views, PHH -----------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_replay_and_json_round_trips_reach_the_identical_state(data: st.DataObject) -> None:
    state = play_out(data)
    assert PatchPatch.replay(state.setup, state.log) == state
    assert PatchPatch.from_json(state.to_json()) == state
    cut = data.draw(st.integers(0, len(state.log)))
    partial = PatchPatch.replay(state.setup, state.log[:cut])
    again = PatchPatch.from_json(partial.to_json())
    assert again == partial and again.snapshot() == partial.snapshot()


@settings(SETTINGS, max_examples=200)
@given(st.data())
def test_no_view_leaks_a_hidden_card(data: st.DataObject) -> None:
    play_out(data, assert_no_leak)


@settings(SETTINGS, max_examples=200)
@given(st.data())
def test_phh_export_replays_to_the_same_result(data: st.DataObject) -> None:
    state = play_out(data)
    again = replay_phh(to_phh(state))
    assert again.result == state.result and again.breaks == state.breaks
    hidden = replay_phh(to_phh(state, hide_unshown=True))
    assert hidden.result is not None and state.result is not None
    assert hidden.result.payouts == state.result.payouts


# -- an independent settlement oracle ---------------------------------------------------------


def oracle_payouts(state: PatchPatchState) -> list[int]:
    """Settle a finished hand from the rulebook, without the engine's pot code."""
    r = state.result
    assert r is not None
    n = state.n
    c = list(r.contributions)
    live = [s for s in range(n) if not state.folded[s]]
    setup = state.setup
    raked = setup.public and setup.big_blind >= 20 and state.flops_dealt
    cap = 3 * setup.big_blind
    levels = sorted({c[s] for s in live})
    pots = []
    low = 0
    for k, level in enumerate(levels):
        top = k == len(levels) - 1
        amount = sum(max(0, (x if top else min(x, level)) - low) for x in c)
        low = level
        pots.append((amount, [s for s in live if c[s] >= level]))
    payouts = [0] * n
    taken = 0
    clockwise = [(setup.button + 1 + k) % n for k in range(n)]
    for amount, eligible in pots:
        rake = min(amount * 3 // 100, cap - taken) if raked else 0
        taken += rake
        left = amount - rake
        if len(live) == 1:
            payouts[live[0]] += left
            continue
        first = left // 3
        second = (left - first) // 2
        for b, share in enumerate((first, second, left - first - second)):
            value = {
                s: omaha_best(state.hand_of(s)[4 * b : 4 * b + 4], state.boards[b]).value
                for s in eligible
            }
            best = max(value.values())
            winners = [s for s in clockwise if s in eligible and value[s] == best]
            each, odd = divmod(share, len(winners))
            for k, s in enumerate(winners):
                payouts[s] += each + (1 if k < odd else 0)
    return payouts


@settings(SETTINGS, max_examples=500)
@given(st.data())
def test_settlement_matches_an_independent_oracle(data: st.DataObject) -> None:
    state = play_out(data)
    assert state.result is not None
    event(f"{state.n} players, {'showdown' if state.result.showdown else 'no showdown'}")
    event(f"{len(state.result.pots)} pot(s)")
    assert list(state.result.payouts) == oracle_payouts(state)


def test_two_thousand_seeded_hands_conserve_chips_and_match_the_oracle() -> None:
    rng = random.Random(2024)
    showdowns = 0
    for _ in range(2000):
        state = random_hand(rng)
        check_chips(state)
        assert state.result is not None
        assert list(state.result.payouts) == oracle_payouts(state)
        showdowns += state.result.showdown
    assert showdowns > 300

"""Properties of random Baseball hands (Hypothesis): 2-6 players, exact balances that may be
fractional or negative, decks often rigged to bring 4s face up, random legal actions and timeouts.

* units are conserved exactly, fractions included, after every step and at the end;
* no view and no event shows a down card to anyone but its owner before the showdown;
* a free card always follows an open 4 and never a down 4;
* every listed action is accepted, any other is rejected without change;
* the opener, the betting limits and the showdown agree with oracles written here;
* replaying the log and the JSON round trip reach the identical state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules_engine.cards import FULL_DECK, Card
from rules_engine.errors import RulesError
from rules_engine.evaluation import best_wild_hand, compare_open_hands
from rules_engine.games import Action, HandSetup
from rules_engine.games.baseball import KINDS, Baseball, BaseballEvent, BaseballState

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
WILDS = Baseball.WILD_RANKS


@st.composite
def setups(draw: st.DrawFn) -> HandSetup:
    n = draw(st.integers(2, 6))
    balance = st.fractions(min_value=-40, max_value=60, max_denominator=6)
    stacks = [draw(balance) for _ in range(n)]
    deck = list(FULL_DECK)
    random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(deck)
    if draw(st.booleans()):
        # Bring the 4s near the top, where they often land face up (and chain).
        fours = [c for c in deck if c.rank == 4]
        rest = [c for c in deck if c.rank != 4]
        for card in fours:
            rest.insert(draw(st.integers(0, 5 * n)), card)
        deck = rest
    return Baseball.setup_for_table(
        stacks=stacks,
        button=draw(st.integers(0, n - 1)),
        speed=draw(st.sampled_from(["slow", "medium", "fast"])),
        deck=deck,
    )


def choose(data: st.DataObject, state: BaseballState) -> Action | None:
    """A random legal action (None: let the clock run out)."""
    if data.draw(st.integers(0, 25)) == 0:
        return None
    seat = state.to_act
    assert seat is not None
    legal = state.legal_actions(seat)
    # Fold one time in six so that most hands reach the later rounds and the showdown.
    if legal[0].kind == "fold" and data.draw(st.integers(0, 5)) > 0:
        legal = legal[1:]
    la = legal[data.draw(st.integers(0, len(legal) - 1))]
    return Action(seat, la.kind, amount=la.amount if data.draw(st.booleans()) else None)


Step = Callable[[BaseballState, list[BaseballEvent]], None]


def play_out(data: st.DataObject, each_step: Step | None = None) -> BaseballState:
    state = Baseball.start(data.draw(setups()))
    if each_step is not None:
        each_step(state, list(state.start_events))
    while not state.is_over:
        action = choose(data, state)
        events = state.timeout() if action is None else state.apply(action)
        if each_step is not None:
            each_step(state, events)
    return state


@SETTINGS
@given(st.data())
def test_units_are_conserved_exactly(data: st.DataObject) -> None:
    start: list[Fraction] = []

    def step(state: BaseballState, _events: list[BaseballEvent]) -> None:
        if not start:
            start.extend(state.start_stacks)
        assert sum(state.stacks) + state.pot == sum(start)
        for s in range(state.n):
            assert state.stacks[s] == start[s] - state.contributed[s] or state.is_over

    state = play_out(data, step)
    result = state.result
    assert result is not None
    assert sum(result.payouts) == result.pot == sum(result.contributions)
    assert sum(state.stacks) == sum(start)
    for s in range(state.n):
        assert isinstance(result.payouts[s], Fraction)
        assert result.net[s] == result.payouts[s] - result.contributions[s]
        assert state.stacks[s] == start[s] + result.net[s]
    shares = {result.payouts[s] for s in result.winners}
    assert len(shares) == 1  # an exact split: every winner gets the same
    assert json.loads(json.dumps(result.to_json()))["payouts"] == [str(p) for p in result.payouts]


@SETTINGS
@given(st.data())
def test_no_down_card_shows_in_any_other_view_or_any_event(data: st.DataObject) -> None:
    def step(state: BaseballState, events: list[BaseballEvent]) -> None:
        shown = set(state.result.shown) if state.result is not None else set()
        down = {s: [d.card for d in state.cards_of(s) if not d.up] for s in range(state.n)}
        public: set[Card] = {c for s in range(state.n) for c in state.up_cards(s)}
        for s in shown:
            public.update(state.hand_of(s))
        for happened in events:
            assert set(happened.cards) <= public, happened
        for viewer in (None, *range(state.n)):
            text = json.dumps(state.view_for(viewer))
            for s in range(state.n):
                if s == viewer or s in shown:
                    continue
                for card in down[s]:
                    assert f'"{card}"' not in text, (viewer, s, card)

    play_out(data, step)


@SETTINGS
@given(st.data())
def test_a_free_card_always_follows_an_open_four_and_never_a_down_four(
    data: st.DataObject,
) -> None:
    state = play_out(data)
    extras = sum(d.extra for s in range(state.n) for d in state.cards_of(s))
    event(f"free cards dealt: {min(extras, 3)}{'+' if extras >= 3 else ''}")
    event("showdown" if state.result is not None and state.result.showdown else "no showdown")
    for s in range(state.n):
        cards = state.cards_of(s)
        for i, d in enumerate(cards):
            after_open_four = i > 0 and cards[i - 1].up and cards[i - 1].card.rank == 4
            assert d.extra == after_open_four
            if d.extra:
                assert d.up and d.round == cards[i - 1].round
        # Every open 4 got its free card (the deck never runs out).
        assert not (cards[-1].up and cards[-1].card.rank == 4 and state.round > cards[-1].round)
        # A folded player stops receiving cards; a player still in has every round's cards.
        rounds = {d.round for d in cards}
        if not state.folded[s]:
            assert rounds == set(range(1, state.round + 1))


@SETTINGS
@given(st.data())
def test_listed_actions_are_accepted_and_others_refused_without_change(
    data: st.DataObject,
) -> None:
    def step(state: BaseballState, _events: list[BaseballEvent]) -> None:
        if state.is_over:
            return
        seat = state.to_act
        assert seat is not None
        listed = {la.kind for la in state.legal_actions(seat)}
        before = state.snapshot()
        for kind in KINDS:
            if kind not in listed:
                try:
                    state.apply(Action(seat, kind))
                except RulesError:
                    pass
                else:
                    raise AssertionError(f"{kind} was accepted but not listed")
                assert state.snapshot() == before
        other = (seat + 1) % state.n
        assert state.legal_actions(other) == []

    play_out(data, step)


@SETTINGS
@given(st.data())
def test_openers_limits_and_showdown_agree_with_the_rules(data: st.DataObject) -> None:
    def step(state: BaseballState, events: list[BaseballEvent]) -> None:
        assert state.level <= 1 + Baseball.MAX_RAISES and state.raises <= Baseball.MAX_RAISES
        if any(e.kind == "street" for e in events):
            # The best open hand opens; among equals the first in deal order.
            live = [s for s in Baseball.deal_order(state.dealer, state.n) if not state.folded[s]]
            best = live[0]
            for s in live[1:]:
                if compare_open_hands(state.up_cards(s), state.up_cards(best), WILDS) > 0:
                    best = s
            assert state.opener == best == state.to_act

    state = play_out(data, step)
    result = state.result
    assert result is not None
    live = [s for s in range(state.n) if not state.folded[s]]
    if not result.showdown:
        assert len(live) == 1 and result.winners == (live[0],)
        return
    # Every player still in matched every bet, so all put in the same.
    assert len({state.contributed[s] for s in live}) == 1
    values = {s: best_wild_hand(state.hand_of(s), WILDS).value for s in live}
    top = max(values.values())
    assert result.winners == tuple(s for s in live if values[s] == top)
    assert result.shown == tuple(live)


@SETTINGS
@given(st.data())
def test_replay_and_json_rebuild_the_same_state(data: st.DataObject) -> None:
    def step(state: BaseballState, _events: list[BaseballEvent]) -> None:
        if data.draw(st.integers(0, 4)) == 0:
            saved = json.loads(json.dumps(state.to_json()))
            assert Baseball.from_json(saved) == state

    state = play_out(data, step)
    assert Baseball.replay(state.setup, state.log) == state
    assert Baseball.from_json(json.loads(json.dumps(state.to_json()))) == state

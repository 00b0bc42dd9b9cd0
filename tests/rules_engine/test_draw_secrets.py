"""Five-card draw keeps what each seat threw away to that seat, and reshuffles its discards in a
committed, secret order.

Found by an audit: the hand history of a shown hand wrote its first five cards and its
discards in full, and opened their places in the deck; and the live tables reshuffled the
discards in the natural card order (2c 2d 2h 2s 3c ...), so the next drawers' cards could be
worked out from one's own discards.
"""

from __future__ import annotations

import dataclasses
import random
import tomllib
from typing import Any

import pytest

from rules_engine import fairness, notation
from rules_engine.cards import FULL_DECK, Card, Deck
from rules_engine.games import Action, get_variant


def _play(code: str, n: int, seed: int, discard: int | None = None) -> tuple[Any, fairness.ShuffleCommitment]:
    """A hand at ``n`` seats where everyone checks or calls and throws away ``discard`` cards
    (random counts when None), with the deck and reshuffle order a live table would use."""
    rng = random.Random(seed)
    deck = Deck.shuffled(rng).order
    commit = fairness.ShuffleCommitment.create(deck, rng=random.Random(seed + 1))
    variant = get_variant(code)
    setup = variant.setup_for_table(stacks=tuple([1000] * n), button=0, small_blind=5, big_blind=10)
    state = variant.start(dataclasses.replace(setup, deck=deck, reshuffle=fairness.reshuffle_order(commit)))
    while not state.is_over:
        seat = state.actors()[0]
        kinds = [la.kind for la in state.legal_actions(seat)]
        if "draw" in kinds:
            k = rng.randint(0, 3) if discard is None else discard
            hand = list(state.view_for(seat)["players"][seat]["cards"])
            state.apply(Action(seat=seat, kind="draw", cards=tuple(Card.parse(c) for c in rng.sample(hand, k))))
        else:
            state.apply(Action(seat=seat, kind=next(k for k in ("check", "call") if k in kinds)))
    return state, commit


def _history(state: Any, commit: fairness.ShuffleCommitment, viewer: int | None) -> str:
    # As tables.selectors.hand_history_text builds it.
    plain = notation.to_phh(state, hide_unshown=True, viewer=viewer)
    shown = fairness._cards_in_history(tomllib.loads(plain)["actions"]) - set(state.recycled)
    return notation.to_phh(state, hide_unshown=True, viewer=viewer, fields=fairness.public_fields(commit, shown))


def _held(state: Any, seat: int) -> set[Card]:
    """Every card ``seat`` held during the hand: the first five and what it drew."""
    discards = next((a.cards for a in state.log if a.kind == "draw" and a.seat == seat), ())
    return set(state.hole[seat]) | set(discards)


@pytest.mark.parametrize("code", ["F5D", "P5D"])
@pytest.mark.parametrize("n", [2, 4, 6, 8])
def test_a_history_names_only_what_its_viewer_saw(code: str, n: int) -> None:
    for seed in range(6):
        state, commit = _play(code, n, seed=100 * n + seed)
        shown = set(state.result.shown)
        for viewer in [None, *range(n)]:
            text = _history(state, commit, viewer)
            fields = tomllib.loads(text)
            named = fairness._cards_in_history(fields["actions"])
            may_see = set().union(*(set(state.hole[s]) for s in shown)) if shown else set()
            if viewer is not None:
                may_see |= _held(state, viewer)
            assert named <= may_see, (seed, viewer, sorted(map(str, named - may_see)))
            opened = {fairness.Revealed.parse(r).card for r in fields[fairness.REVEAL_FIELD]}
            assert opened <= named and not opened & set(state.recycled)
            result = fairness.verify_phh(text)
            assert result.ok, result.message


def test_discards_of_a_shown_hand_stay_hidden_from_the_others() -> None:
    state, commit = _play("F5D", 3, seed=7, discard=2)
    assert state.result.showdown and len(state.result.shown) >= 2
    seat = state.result.shown[0]
    discards = next(a.cards for a in state.log if a.kind == "draw" and a.seat == seat)
    assert len(discards) == 2
    for viewer in [None, *[s for s in range(3) if s != seat]]:
        named = fairness._cards_in_history(tomllib.loads(_history(state, commit, viewer))["actions"])
        assert not named & set(discards)
        assert set(state.hole[seat]) <= named  # the five it showed are there
    own = fairness._cards_in_history(tomllib.loads(_history(state, commit, seat))["actions"])
    assert set(discards) <= own


def test_the_reshuffle_is_in_the_committed_order_and_its_places_stay_sealed() -> None:
    # Eight seats each throwing away three: 40 dealt, a stub of 12, 24 wanted.
    state, commit = _play("F5D", 8, seed=3, discard=3)
    assert state.reshuffles == 1 and len(state.recycled) == 12
    order = fairness.reshuffle_order(commit)
    rank = {c: i for i, c in enumerate(order)}
    assert state.recycled == sorted(state.recycled, key=rank.__getitem__)
    for viewer in [None, *range(8)]:
        fields = tomllib.loads(_history(state, commit, viewer))
        opened = {fairness.Revealed.parse(r).card for r in fields[fairness.REVEAL_FIELD]}
        assert not opened & set(state.recycled)


def test_reshuffle_order_is_a_secret_permutation_fixed_by_the_commitment() -> None:
    deck = Deck.shuffled(random.Random(5)).order
    a = fairness.ShuffleCommitment.create(deck, rng=random.Random(6))
    b = fairness.ShuffleCommitment.create(deck, rng=random.Random(7))
    order = fairness.reshuffle_order(a)
    assert sorted(order) == sorted(FULL_DECK) and order == fairness.reshuffle_order(a)
    assert order not in (tuple(FULL_DECK), tuple(deck))
    assert fairness.reshuffle_order(b) != order  # other salts, another order
    # Over many salts, each card leads the order about equally often (a rough uniformity check).
    firsts = [fairness.reshuffle_order(fairness.ShuffleCommitment.create(deck, rng=random.Random(s)))[0]
              for s in range(2600)]
    counts = [firsts.count(c) for c in FULL_DECK]
    assert min(counts) > 20 and max(counts) < 90


def test_a_setup_without_a_reshuffle_order_still_plays() -> None:
    # The engine alone (tests, replays of old histories) falls back to the natural order.
    state, commit = _play("F5D", 8, seed=3, discard=3)
    plain = get_variant("F5D").start(dataclasses.replace(state.setup, reshuffle=None))
    for action in state.log:
        plain.apply(action)
    assert plain.is_over and plain.recycled == sorted(plain.recycled, key=list(FULL_DECK).index)


def test_hidden_discards_replay_when_the_deck_runs_out_for_every_viewer() -> None:
    """Eight-handed draw hands that reshuffle the discards: the history each viewer gets (other
    players' discards hidden) replays. The reader took a hand's first cards as its hidden
    discards, which could be cards a later showdown named as kept, and then found no hidden
    discard to be a card dealt after the reshuffle (found by the Hypothesis property)."""
    import random

    from rules_engine.notation import replay_phh, to_phh
    from tests.rules_engine.test_flop_games import random_hand

    for seed in range(40):
        state = random_hand("F5D", random.Random(seed), players=8, timeouts=0.0)
        for viewer in range(8):
            replayed = replay_phh(to_phh(state, hide_unshown=True, viewer=viewer))
            assert replayed.stacks == state.stacks, (seed, viewer)

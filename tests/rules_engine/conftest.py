"""Helpers for the rules-engine tests: stacked Patch-Patch hands and a random player."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rules_engine.cards import Card, parse_cards
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.games.patchpatch import PatchPatch, PatchPatchState

PP = get_variant("PP")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def stacked(
    stacks: Sequence[int],
    button: int = 0,
    *,
    hands: Sequence[str | None] | None = None,
    boards: Sequence[str] = (),
    small_blind: int = 5,
    big_blind: int = 10,
    public: bool = False,
    speed: str = "medium",
) -> PatchPatchState:
    """A hand dealt from a deck that gives ``hands`` (by seat, dealt order) and ``boards``."""
    n = len(stacks)
    hand_cards = [None if h is None else parse_cards(h) for h in (hands or [None] * n)]
    board_cards = [parse_cards(b) for b in boards]
    deck = PatchPatch.stacked_deck(hand_cards, button, board_cards)
    setup = HandSetup(
        stacks=tuple(stacks),
        button=button,
        small_blind=small_blind,
        big_blind=big_blind,
        public=public,
        speed=speed,
        deck=deck,
    )
    return PP.start(setup)


def play(state: PatchPatchState, *kinds: str) -> None:
    """Apply betting actions for whoever is to act, in order (``done`` submits every arrangement)."""
    for kind in kinds:
        if kind == "done":
            for seat in state.actors():
                state.apply(Action(seat, "done"))
            continue
        seat = state.actors()[0]
        state.apply(Action(seat, kind))


def options(state: PatchPatchState, seat: int | None = None) -> list[tuple[str, int]]:
    seat = state.actors()[0] if seat is None else seat
    return [(la.kind, la.amount) for la in state.legal_actions(seat)]


def random_action(state: PatchPatchState, rng: random.Random) -> Action:
    """A random legal action for one of the seats the hand waits for."""
    seat = rng.choice(state.actors())
    legal = state.legal_actions(seat)
    if legal[0].kind == "fold" and rng.random() < 0.8:
        legal = legal[1:]  # fold less often, so more hands reach the showdown
    la = rng.choice(legal)
    if la.kind == "swap":
        a, b = rng.sample(state.hand_of(seat), 2)
        return Action(seat, "swap", cards=(a, b))
    if la.kind == "arrange":
        order = list(state.hand_of(seat))
        rng.shuffle(order)
        return Action(seat, "arrange", order=tuple(order))
    return Action(seat, la.kind, amount=la.amount if rng.random() < 0.5 else None)


def random_setup(rng: random.Random, players: int | None = None, public: bool | None = None) -> HandSetup:
    n = players or rng.choice((2, 3))
    bb = rng.choice((10, 20, 50, 100))
    stacks = tuple(
        rng.choice((rng.randint(1, 3 * bb), rng.randint(5 * bb, 150 * bb), rng.randint(1, 400 * bb)))
        for _ in range(n)
    )
    return HandSetup(
        stacks=stacks,
        button=rng.randrange(n),
        small_blind=bb // 2,
        big_blind=bb,
        public=rng.random() < 0.5 if public is None else public,
        speed=rng.choice(("slow", "medium", "fast")),
    )


def random_hand(rng: random.Random, players: int | None = None, timeouts: float = 0.03) -> PatchPatchState:
    """Play a whole random hand (random stacks, actions, arrangements and some timeouts)."""
    state = PP.start(random_setup(rng, players), rng=rng)
    while not state.is_over:
        if rng.random() < timeouts:
            state.timeout()
        else:
            state.apply(random_action(state, rng))
    return state


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240611)

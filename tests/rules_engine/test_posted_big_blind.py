"""A big blind posted out of turn (``HandSetup.posts``, GAMES.md section 3: a player joining a
running blind game may post one to be dealt in at once): live, in every blind game, and written
to and read from PHH as a forced bet equal to the big blind."""

from __future__ import annotations

import random

import pytest

from rules_engine.errors import RulesError
from rules_engine.games import Action, HandSetup, get_variant
from rules_engine.notation import replay_phh, to_phh


def _start(code: str, posts: tuple[int, ...], n: int = 5, seed: int = 1):
    return get_variant(code).start(HandSetup((1000,) * n, 0, 5, 10, posts=posts, small_bet=10 if code in ("FT", "F5D") else 0,
                                             big_bet=20 if code in ("FT", "F5D") else 0), rng=random.Random(seed))


@pytest.mark.parametrize("code", ["NT", "PO", "FT", "F5D"])
def test_a_posted_big_blind_is_live_and_keeps_the_order_of_action(code: str) -> None:
    state = _start(code, (4,))
    # Seats 1 and 2 post the blinds, seat 4 its big blind; seat 3 (left of the big blind) acts first.
    assert [(e.kind, e.seat, e.amount) for e in state.start_events if e.kind in ("blind", "post")] == [
        ("blind", 1, 5), ("blind", 2, 10), ("post", 4, 10)]
    assert list(state.actors()) == [3]
    order = []
    while state.round == 0 and not state.is_over:
        seat = state.actors()[0]
        kinds = {a.kind for a in state.legal_actions(seat)}
        order.append((seat, "check" in kinds))
        state.apply(Action(seat, "check" if "check" in kinds else "call"))
    # Everyone calls round to the poster, who may check (its blind is live), then the blinds.
    assert order == [(3, False), (4, True), (0, False), (1, False), (2, True)]
    assert list(state.stacks) == [990] * 5
    text = to_phh(state)
    assert "blinds_or_straddles = [5, 10, 0, -10, 0]" in text  # p1 is seat 1 (left of the button)
    again = replay_phh(text)
    assert again.setup.posts == (4,) and again.stacks == state.stacks


def test_a_poster_facing_a_raise_may_fold_and_loses_the_post() -> None:
    state = _start("NT", (4,))
    state.apply(Action(3, "raise", 40))
    state.apply(Action(4, "fold"))
    for seat in (0, 1, 2):
        state.apply(Action(seat, "fold"))
    assert state.is_over
    assert list(state.stacks) == [1000, 995, 990, 1025, 990]


@pytest.mark.parametrize(("code", "posts", "n", "words"), [
    ("NT", (1,), 5, "own blinds"),
    ("NT", (2,), 5, "own blinds"),
    ("NT", (3, 3), 5, "different seats"),
    ("NT", (7,), 5, "different seats"),
    ("NT", (1,), 2, "heads-up"),
    ("F7S", (3,), 5, "no blinds"),
])
def test_posts_that_cannot_be_are_refused(code: str, posts: tuple[int, ...], n: int, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        get_variant(code).start(HandSetup((1000,) * n, 0, 5, 10, posts=posts, ante=1 if code == "F7S" else 0,
                                          bring_in=3 if code == "F7S" else 0, small_bet=10 if code == "F7S" else 0,
                                          big_bet=20 if code == "F7S" else 0))


def test_a_phh_forced_bet_other_than_the_big_blind_is_refused() -> None:
    state = _start("NT", (4,))
    for forced in ("[5, 10, 0, 20, 0]", "[5, 10, 0, 10, 0]", "[5, 10, 0, -5, 0]"):
        text = to_phh(state).replace("blinds_or_straddles = [5, 10, 0, -10, 0]", f"blinds_or_straddles = {forced}")
        with pytest.raises(RulesError, match="p3 may straddle twice the big blind"):
            replay_phh(text)


def test_pokerkit_reads_a_history_with_a_post_as_the_same_hand() -> None:
    """PokerKit takes a negative entry of ``blinds_or_straddles`` for a live blind that does not
    move the first to act (a positive one would be a straddle, acting last before the flop)."""
    pokerkit = pytest.importorskip("pokerkit")
    state = _start("NT", (4,), seed=3)
    state.apply(Action(3, "call"))
    state.apply(Action(4, "raise", 40))
    state.apply(Action(0, "fold"))
    for seat in (1, 2, 3):
        state.apply(Action(seat, "call"))
    while not state.is_over:
        seat = state.actors()[0]
        kinds = {a.kind for a in state.legal_actions(seat)}
        state.apply(Action(seat, "check" if "check" in kinds else "call"))
    text = "\n".join(line for line in to_phh(state).splitlines() if not line.startswith("_"))
    *_, last = pokerkit.HandHistory.loads(text)
    # PHH players start left of the button: seats 1, 2, 3, 4, then 0.
    assert list(last.stacks) == [state.stacks[s] for s in (1, 2, 3, 4, 0)]
    assert sorted(set(state.stacks)) != [1000]  # chips moved: the comparison means something


def test_a_setup_with_posts_survives_its_json() -> None:
    setup = _start("NT", (3, 4)).setup
    assert HandSetup.from_json(setup.to_json()) == setup
    assert "posts" not in _start("NT", ()).setup.to_json()

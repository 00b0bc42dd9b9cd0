"""``rules_engine.resume``: a saved hand read from the state before it, without replaying its deal.

The server reads a hand's state for every action and every version it draws; ``resume`` copies the
state of the version before and applies the actions added since. It must give exactly the state
``from_json`` gives, in every game, and never change the state it starts from (the viewers' threads
draw from it meanwhile)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules_engine.errors import MalformedAction, RulesError
from rules_engine.games import get_variant, variant_codes
from rules_engine.resume import _KEPT, copy_state, resume
from tests.rules_engine import conftest as pp
from tests.rules_engine.test_flop_games import random_action
from tests.rules_engine.test_flop_games import random_setup as classic_setup
from tests.rules_engine.test_phh_baseball import random_hand as baseball_hand


def _classic_hand(code: str, rng: random.Random) -> Any:
    V = get_variant(code)
    setup = classic_setup(code, rng)
    # Run it twice where the game takes it (everyone agrees): the second board is a list two
    # fields of the state point at during the showdown.
    if V.CODE in ("NT", "PT", "PO", "FT", "FO", "FO/8", "PO/8") and rng.random() < 0.5:
        setup = dataclasses.replace(setup, run_twice=tuple(range(len(setup.stacks))))
    state = V.start(setup, rng=rng)
    while not state.is_over:
        if rng.random() < 0.03:
            state.timeout()
        else:
            state.apply(random_action(state, rng))
    return state


def finished_hands(code: str, count: int, seed: int) -> Iterator[Any]:
    rng = random.Random(seed)
    for k in range(count):
        if code == "PP":
            yield pp.random_hand(rng)
        elif code == "BB":
            yield baseball_hand(seed * 1000 + k)
        else:
            yield _classic_hand(code, rng)


def _prefix(data: dict[str, Any], k: int) -> dict[str, Any]:
    return {**data, "log": data["log"][:k]}


def _mutables(value: Any, seen: dict[int, Any], path: str = "state") -> dict[int, str]:
    """Every list, dict, set and object (not a value the copy may share) reachable from ``value``,
    by id, with a path to it; tuples and frozen values are walked through."""
    found: dict[int, str] = {}
    stack = [(value, path)]
    while stack:
        v, where = stack.pop()
        if id(v) in seen:
            continue
        seen[id(v)] = v  # held, so no id is reused while walking
        t = type(v)
        if t in (int, str, bool, float, type(None), type) or t.__name__ == "Card":
            continue
        if t in (list, dict, set):
            found[id(v)] = where
        if t in (list, tuple, set, frozenset):
            stack.extend((x, f"{where}[]") for x in v)
        elif t is dict:
            stack.extend((x, f"{where}[{k!r}]") for k, x in v.items())
        else:
            if t not in _KEPT:
                found[id(v)] = where
            names = [n for klass in t.__mro__ for n in getattr(klass, "__slots__", ()) if n not in ("__dict__", "__weakref__")]
            stack.extend((getattr(v, n), f"{where}.{n}") for n in names if hasattr(v, n))
            stack.extend((x, f"{where}.{k}") for k, x in getattr(v, "__dict__", {}).items())
    return found


@pytest.mark.parametrize("code", variant_codes())
def test_resume_gives_the_replayed_state_at_every_step_of_random_hands(code: str) -> None:
    V = get_variant(code)
    checked = 0
    for state in finished_hands(code, 12, seed=7):
        data = state.to_json()
        n = len(data["log"])
        for k in range(n):
            before_data = _prefix(data, k)
            before = V.from_json(before_data)
            untouched = before.snapshot()
            for m in sorted({k, k + 1, min(n, k + 3), n}):
                after_data = _prefix(data, m)
                got = resume(V, after_data, before=before, before_data=before_data)
                assert got is not before
                assert got.snapshot() == V.from_json(after_data).snapshot(), (code, k, m)
                assert got.view_for(None) == V.from_json(after_data).view_for(None)
                checked += 1
            # The state it started from is as it was, though copies of it went on to the end.
            assert before.snapshot() == untouched
    assert checked > 50


@pytest.mark.parametrize("code", variant_codes())
def test_a_copy_shares_nothing_that_can_change(code: str) -> None:
    V = get_variant(code)
    for state in finished_hands(code, 6, seed=11):
        data = state.to_json()
        for k in range(0, len(data["log"]) + 1, 2):
            original = V.from_json(_prefix(data, k))
            copied = copy_state(original)
            held: dict[int, Any] = {}
            mine = _mutables(original, held)
            theirs = _mutables(copied, held)
            shared = set(mine) & set(theirs)
            assert not shared, [mine[i] for i in shared]
            assert copied.snapshot() == original.snapshot()
            # Playing the copy on leaves the original where it was.
            untouched = original.snapshot()
            while not copied.is_over:
                copied.timeout()
            assert original.snapshot() == untouched


def test_an_object_two_fields_point_at_stays_one_object_in_the_copy() -> None:
    class Holder:
        def __init__(self) -> None:
            self.board: list[str] = ["Ah"]
            self.alias = self.board

    h = Holder()
    c = copy_state(h)
    assert c.board is c.alias and c.board is not h.board
    c.board.append("Kd")
    assert c.alias == ["Ah", "Kd"] and h.board == ["Ah"]


def test_it_replays_whenever_the_saved_hand_does_not_extend_the_one_before() -> None:
    PP = get_variant("PP")
    rng = random.Random(3)
    one, other = (pp.random_hand(rng).to_json() for _ in range(2))
    k = len(one["log"]) // 2
    before_data = _prefix(one, k)
    before = PP.from_json(before_data)
    poisoned = copy_state(before)
    poisoned.phase = "not a phase"  # a copy of this would show through in the snapshot
    cases = {
        "another hand": other,
        "a shorter log": _prefix(one, k - 1),
        "a log changed before its end": {**one, "log": [dict(one["log"][0], seat=9), *one["log"][1:]]},
        "another setup": {**one, "setup": {**one["setup"], "button": (one["setup"]["button"] + 1) % 3}},
        "a field more": {**one, "extra": 1},
    }
    for why, data in cases.items():
        try:
            expected = PP.from_json(data).snapshot()
        except RulesError:
            with pytest.raises(RulesError):
                resume(PP, data, before=poisoned, before_data=before_data)
            continue
        assert resume(PP, data, before=poisoned, before_data=before_data).snapshot() == expected, why
    # With nothing held, or a saved hand that is not a mapping, it is from_json.
    assert resume(PP, one).snapshot() == PP.from_json(one).snapshot()
    assert resume(PP, one, before=poisoned, before_data=None).snapshot() == PP.from_json(one).snapshot()
    with pytest.raises(RulesError):
        resume(PP, ["not", "a", "hand"], before=poisoned, before_data=before_data)  # type: ignore[arg-type]


def test_a_bad_action_added_to_the_log_is_refused_as_from_json_refuses_it() -> None:
    PP = get_variant("PP")
    data = pp.random_hand(random.Random(5)).to_json()
    k = len(data["log"]) // 2
    before_data = _prefix(data, k)
    before = PP.from_json(before_data)
    untouched = before.snapshot()
    for bad in ({"seat": "x", "kind": "call"}, {"kind": "call"}, {"seat": 0, "kind": "fly"}):
        broken = {**before_data, "log": [*before_data["log"], bad]}
        with pytest.raises(RulesError) as replayed:
            PP.from_json(broken)
        with pytest.raises(type(replayed.value)):
            resume(PP, broken, before=before, before_data=before_data)
    assert before.snapshot() == untouched
    assert issubclass(MalformedAction, RulesError)


def test_saved_cards_are_read_by_one_lookup_and_any_other_spelling_as_before() -> None:
    from rules_engine.cards import FULL_DECK, Card
    from rules_engine.games import Action, HandSetup

    # Every card as saved, as people type it, and with its symbol: the same card.
    for card in FULL_DECK:
        for text in (str(card), str(card).lower(), str(card).upper(), card.pretty, f" {card} "):
            assert Action.from_json({"seat": 0, "kind": "draw", "cards": [text]}).cards == (card,)
    deck = [str(c) for c in FULL_DECK]
    assert HandSetup.from_json({"stacks": [5, 5], "button": 0, "small_blind": 1, "big_blind": 2,
                                "deck": deck}).deck == tuple(FULL_DECK)
    assert Action.from_json({"seat": 0, "kind": "draw", "cards": ["10d", "A♥"]}).cards == \
        (Card.parse("Td"), Card.parse("Ah"))
    for bad in (["Zz"], ["Ah", 5], [["Ah"]], [None], "Ah Kk", 7):
        with pytest.raises(MalformedAction):
            Action.from_json({"seat": 0, "kind": "draw", "cards": bad})

"""A hand's state read again without replaying it from the deal, when the state before is at hand.

A saved hand is its setup (with the deck) and its action log; ``V.from_json`` rebuilds the state
by dealing the hand again and applying every action of the log. The server does that for every
action (the writer reads the hand it changes) and for every version a process draws for its
viewers, so a hand of twenty actions was replayed from its deal twenty times over. The process
nearly always still holds the state of the version before, and an action inside a hand only adds
to the end of the log. :func:`resume` then copies that state (:func:`copy_state`) and applies the
actions added: the same state (the rules are deterministic, and the log before is checked to be
the same, setup included), for a fraction of the work.

>>> from rules_engine.games import Action, HandSetup, get_variant
>>> PP = get_variant("PP")
>>> state = PP.start(HandSetup(stacks=(1000, 1000, 1000), button=0, small_blind=5, big_blind=10))
>>> before = state.to_json()
>>> state.apply(Action(state.actors()[0], "call")) and None
>>> again = resume(PP, state.to_json(), before=PP.from_json(before), before_data=before)
>>> again == PP.from_json(state.to_json())
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules_engine.cards import Card
from rules_engine.games import Action

# Values never changed in place, shared by a copy and its original: numbers, text, cards, the
# games' classes, and the engine's frozen dataclasses (found on first sight, ``_kept``), whose
# fields are tuples and other frozen values. Tuples are shared too: the engine keeps cards,
# seats and frozen values in them, never a list (tests/rules_engine/test_resume.py walks copies
# of random hands of every game and fails if any list, dict, set or object is reachable from both).
_KEPT: set[type] = {int, str, bool, float, complex, bytes, type(None), Fraction, Card, tuple, frozenset, type,
                    range}


# The types copied field by field (the betting, the states, the bet structures), with their slots.
_SLOTS: dict[type, tuple[str, ...]] = {}


def _kept(t: type) -> bool:
    params = getattr(t, "__dataclass_params__", None)
    if (params is not None and params.frozen) or issubclass(t, enum.Enum):
        _KEPT.add(t)
        return True
    return False


def copy_state(state: Any) -> Any:
    """A copy of a game state that shares nothing it could change with ``state``: applying
    actions to one leaves the other as it was. As ``copy.deepcopy`` does, an object reached twice
    is copied once (a list two fields point at stays one list), but values that never change are
    shared rather than copied, which makes it several times quicker."""
    return _copy(state, {})


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    t = type(value)
    if t in _KEPT:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    if t is list:
        out: Any = []
        memo[id(value)] = out
        kept = _KEPT
        out.extend([x if type(x) in kept else _copy(x, memo) for x in value])
        return out
    if t is dict:
        out = {}
        memo[id(value)] = out
        kept = _KEPT
        for k, x in value.items():
            out[k] = x if type(x) in kept else _copy(x, memo)
        return out
    if t is set:
        out = set(value)  # of cards, seats: values that never change
        memo[id(value)] = out
        return out
    slots = _SLOTS.get(t)
    if slots is None:
        if _kept(t):
            return value
        slots = _SLOTS[t] = tuple(name for klass in t.__mro__ for name in getattr(klass, "__slots__", ())
                                  if name not in ("__dict__", "__weakref__"))
    out = object.__new__(t)
    memo[id(value)] = out
    for name in slots:
        try:
            x = getattr(value, name)
        except AttributeError:  # a slot never set
            continue
        object.__setattr__(out, name, x if type(x) in _KEPT else _copy(x, memo))
    fields = getattr(value, "__dict__", None)
    if fields is not None:
        kept = _KEPT
        out.__dict__.update({k: x if type(x) in kept else _copy(x, memo) for k, x in fields.items()})
    return out


def resume(variant: Any, data: Mapping[str, Any], *, before: Any = None,
           before_data: Mapping[str, Any] | None = None) -> Any:
    """``variant.from_json(data)``, quicker when the caller holds ``before``: a state equal to
    ``variant.from_json(before_data)``. When ``data`` is ``before_data`` with actions added at the
    end of its log (and every other field the same), the result is a copy of ``before`` with those
    actions applied; otherwise the hand is replayed from ``data`` as ``from_json`` does. Neither
    ``before`` nor ``before_data`` is changed, and the result is the caller's to change. A bad
    ``data`` raises what ``from_json`` raises."""
    if before is not None and _extends(data, before_data):
        assert before_data is not None
        log = data["log"]
        state = copy_state(before)
        for raw in log[len(before_data["log"]):]:
            state.apply(Action.from_json(raw))
        return state
    return variant.from_json(data)


def _extends(data: Any, before: Any) -> bool:
    """Whether ``data`` is ``before`` with entries added at the end of its log."""
    if not isinstance(data, Mapping) or not isinstance(before, Mapping) or data.keys() != before.keys():
        return False
    log, old = data.get("log"), before.get("log")
    if not isinstance(log, list) or not isinstance(old, list) or len(log) < len(old):
        return False
    return all(value == before[key] for key, value in data.items() if key != "log") and log[: len(old)] == old

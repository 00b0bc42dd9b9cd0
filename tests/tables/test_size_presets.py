"""Quick bet sizes at no-limit and pot-limit tables ("½ pot", "¾ pot", "Pot", "All-in"):
the amounts the presenter offers, checked against the engine's own pot-limit maximum, and the
buttons the live fragment draws (none where bets have fixed sizes)."""

from __future__ import annotations

import doctest
import random
import re
from fractions import Fraction
from typing import Any

import pytest
from django.utils import translation

from rules_engine.games import get_variant
from tables import presenter, selectors
from tables.fragment import render_table
from tables.presenter import pot_raise_to, present, size_presets
from tests.rules_engine.test_flop_games import act, deal, random_action, random_setup
from tests.tables.helpers import act_once, current_state, seated_table, user_for_index


def _sized(view: dict[str, Any]) -> dict[str, Any] | None:
    for la in view["legal_actions"]:
        low, high = la.get("min_amount"), la.get("max_amount")
        if la["kind"] in ("bet", "raise") and low is not None and high is not None and high > low:
            return la  # type: ignore[no-any-return]
    return None


def _presets(state: Any) -> list[tuple[str, int]]:
    """The quick sizes offered to the seat the hand waits for, in English."""
    view = state.view_for(state.actors()[0])
    la = _sized(view)
    assert la is not None, view["legal_actions"]
    with translation.override("en"):
        return [(p["label"], p["amount"]) for p in size_presets(view, la)]


def _max(state: Any) -> int:
    la = _sized(state.view_for(state.actors()[0]))
    assert la is not None
    return int(la["max_amount"])


def test_the_arithmetic_in_the_docstring() -> None:
    assert doctest.testmod(presenter, verbose=False).failed == 0
    # A bet: a fraction of the pot. A raise: the bet to match + a fraction of (pot + the call).
    assert pot_raise_to(pot=90, highest=0, to_call=0, fraction=Fraction(3, 4)) == 67  # 67.5 down
    assert pot_raise_to(pot=150, highest=60, to_call=60) == 270
    assert pot_raise_to(pot=150, highest=60, to_call=60, fraction=Fraction(1, 2)) == 165


def test_no_limit_bet_with_nothing_to_call() -> None:
    s = deal("NT", [1000, 1000, 1000])
    act(s, ("raise", 30), "call", "call")
    assert s.phase == "flop" and s.pot == 90
    # Half of 90, three quarters (67.5, rounded down), the pot, and the whole stack.
    assert _presets(s) == [("½ pot", 45), ("¾ pot", 67), ("Pot", 90), ("All-in", 970)]


def test_no_limit_raise_facing_a_bet() -> None:
    s = deal("NT", [1000, 1000, 1000])
    act(s, ("raise", 30), "call", "call", ("bet", 60))
    # Pot 150 with the bet of 60; to call 60: a pot raise is to 60 + (150 + 60) = 270.
    assert _presets(s) == [("½ pot", 165), ("¾ pot", 217), ("Pot", 270), ("All-in", 970)]


def test_no_limit_preflop_raise_over_the_blinds() -> None:
    s = deal("NT", [1000, 1000, 1000])
    # Blinds 5/10: pot 15, to call 10: pot raise to 10 + 25 = 35 (as pot-limit allows).
    assert _presets(s) == [("½ pot", 22), ("¾ pot", 28), ("Pot", 35), ("All-in", 1000)]


def test_a_short_stack_gets_all_in_below_the_pot() -> None:
    s = deal("NT", [1000, 1000, 300], button=0)  # seat 2 is the big blind with 300
    act(s, ("raise", 100), "call")
    # Pot 210, to call 90: half a pot raise is to 250, three quarters would be 325 > 300.
    assert _presets(s) == [("½ pot", 250), ("All-in", 300)]
    s = deal("NT", [1000, 1000, 200], button=0)
    act(s, ("raise", 100), "call")
    assert _presets(s) == [("All-in", 200)]  # even half the pot is more than the stack


def test_sizes_at_or_below_the_minimum_are_left_out() -> None:
    s = deal("NT", [1000, 1000], button=0)  # heads-up: the button posts the small blind
    act(s, "call", "check")
    assert s.pot == 20
    # Half of 20 is the minimum bet (the big blind): no button for it.
    assert _presets(s) == [("¾ pot", 15), ("Pot", 20), ("All-in", 990)]
    s = deal("NT", [1000, 1000, 1000])
    act(s, ("raise", 200))
    # The small blind: pot 215, to call 195, so half a pot raise is to 200 + 205 = 405.
    assert [a for _, a in _presets(s)] == [405, 507, 610, 1000]
    act(s, ("raise", 800))
    # The minimum re-raise is to 1400, more than the stack: the engine offers all-in only, as a
    # button of its own, and there is no sized box to put quick sizes in.
    assert _sized(s.view_for(s.actors()[0])) is None


@pytest.mark.parametrize(
    ("moves", "pot_max"),
    [
        ((), 35),  # the first raise preflop: blinds 5/10, pot 15, to call 10: 10 + (15 + 10)
        ((("raise", 35),), 120),  # a re-raise after a pot raise: pot 50, to call 35: 35 + (50 + 35)
        ((("raise", 35), "call", "call", "call"), 140),  # the first bet on the flop: the pot, 4 x 35
        # A raise after a bet: pot 140 + 50, to call 50: 50 + (190 + 50).
        ((("raise", 35), "call", "call", "call", ("bet", 50)), 290),
        # A raise after a raise with two callers: bet 50, raise to 150, call, call; the bettor has
        # 100 to call into a pot of 140 + 50 + 3 x 150 = 640: 150 + (640 + 100).
        ((("raise", 35), "call", "call", "call", ("bet", 50), ("raise", 150), "call", "call"), 890),
    ],
)
@pytest.mark.parametrize("game", ["PT", "PO"])
def test_pot_is_the_pot_limit_maximum(game: str, moves: tuple[Any, ...], pot_max: int) -> None:
    s = deal(game, [5000, 5000, 5000, 5000], button=0)
    act(s, *moves)
    offered = _presets(s)
    assert _max(s) == pot_max  # the engine's own figure
    assert offered[-1] == ("Pot", pot_max)  # ours, the last button, and no All-in
    assert [label for label, _ in offered] == ["½ pot", "¾ pot", "Pot"]


def test_pot_limit_short_stack_is_all_in_for_the_most() -> None:
    s = deal("PO", [1000, 1000, 300], button=0)  # seat 2 is the big blind with 300
    act(s, ("raise", 35), ("raise", 115))
    # Pot 160, to call 105: a pot raise would be to 115 + 265 = 380, half of it to 247; the
    # stack holds 300, which is the most, and all-in.
    assert _max(s) == 300
    assert _presets(s) == [("½ pot", 247), ("All-in", 300)]


@pytest.mark.parametrize("game", ["NT", "PT", "PO", "PO/8", "P5D"])
def test_every_decision_of_random_hands(game: str) -> None:
    """In random hands (short and deep stacks, every street): sizes rise strictly, above the
    minimum and up to the maximum; the last is the maximum, "All-in" when that is the whole
    stack; in pot-limit the pot fraction equals the engine's maximum whenever the stack covers it."""
    rng = random.Random(7)
    V = get_variant(game)
    checked = 0
    for _hand in range(40):
        state = V.start(random_setup(game, rng), rng=rng)
        while not state.is_over:
            if state.actors() and not any(la.kind == "draw" for la in state.legal_actions(state.actors()[0])):
                seat = state.actors()[0]
                view = state.view_for(seat)
                la = _sized(view)
                if la is not None:
                    with translation.override("en"):
                        offered = size_presets(view, la)
                    amounts = [p["amount"] for p in offered]
                    assert amounts == sorted(set(amounts)), offered
                    assert amounts[0] > la["min_amount"] and amounts[-1] == la["max_amount"], (offered, la)
                    whole = view["players"][seat]["bet"] + view["players"][seat]["stack"]
                    assert offered[-1]["label"] == ("All-in" if la["max_amount"] == whole else "Pot"), (offered, la)
                    if V.STRUCTURE == "pot-limit" and la["max_amount"] < whole:
                        assert offered[-1]["amount"] == la["max_amount"]
                        assert "All-in" not in [p["label"] for p in offered]
                    if V.STRUCTURE == "no-limit":
                        assert offered[-1]["label"] == "All-in"
                    checked += 1
            state.apply(random_action(state, rng))
    assert checked > 30


def test_present_hands_the_presets_to_the_fragment() -> None:
    s = deal("NT", [1000, 1000, 1000])
    view = s.view_for(s.actors()[0])
    seats = [{"no": i + 1, "name": f"P{i}", "empty": False, "me": i == view["viewer"], "stack": 1000,
              "sitting_out": False, "user_id": i + 10} for i in range(3)]
    players = [[i + 1, i + 10, 1000] for i in range(3)]
    with translation.override("ru"):
        context = present(view=view, seats=seats, players=players)
    assert context["sized"]["presets"] == [
        {"label": "½ банка", "amount": 22}, {"label": "¾ банка", "amount": 28},
        {"label": "Банк", "amount": 35}, {"label": "Ва-банк", "amount": 1000},
    ]


# -- the live fragment --------------------------------------------------------------------------

PRESET = re.compile(r'<button type="button" class="sized__preset" data-size-preset="(\d+)" aria-pressed="false">([^<]+)</button>')


def _actor_context(table: Any) -> dict[str, Any]:
    hand, state = current_state(table)
    user = user_for_index(hand, state.actors()[0])
    context = selectors.table_context(table_id=table.id, user=user)
    assert context is not None
    return context


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "labels"),
    [("en", ["½ pot", "¾ pot", "Pot", "All-in"]), ("he", ["½ קופה", "¾ קופה", "קופה", "אול-אין"]),
     ("ru", ["½ банка", "¾ банка", "Банк", "Ва-банк"])],
)
def test_the_fragment_draws_the_presets_in_the_sized_box(lang: str, labels: list[str]) -> None:
    table, _users = seated_table(game="NT")  # 3 players, 1000 each, blinds 5/10
    with translation.override(lang):
        html = render_table(_actor_context(table))
    box = html[html.index("data-sized="):html.index("data-sized-go")]
    assert PRESET.findall(box) == list(zip(["22", "28", "35", "1000"], labels, strict=True))
    assert "data-action" not in box  # a preset never sends by itself
    assert 'role="group" aria-label="' in box


@pytest.mark.django_db
def test_the_fragment_at_pot_limit_ends_with_pot() -> None:
    table, _users = seated_table(game="PO")
    with translation.override("en"):
        html = render_table(_actor_context(table))
    assert PRESET.findall(html) == [("22", "½ pot"), ("28", "¾ pot"), ("35", "Pot")]
    assert 'max="35"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["PP", "FT", "FO", "F7S", "F5D", "BB"])
def test_no_presets_where_bets_have_fixed_sizes(game: str) -> None:
    """Patch-Patch's pot-only bets and the limit games' fixed sizes have no sized box at all."""
    rng = random.Random(3)
    table, users = seated_table(game=game)
    for _step in range(60):
        table.refresh_from_db()
        for user in users:
            context = selectors.table_context(table_id=table.id, user=user)
            assert context is not None
            assert not context.get("sized")
            html = render_table(context)
            assert "data-size-preset" not in html and "data-sized" not in html
        if not act_once(table, rng, passive=game == "PP"):
            break


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["NT", "PO", "FT"])
def test_raise_has_the_r_key(game: str) -> None:
    """R raises (or bets) on desktop, as in Patch-Patch; in no-limit and pot-limit it sends the
    amount in the box."""
    table, _users = seated_table(game=game)
    with translation.override("en"):
        html = render_table(_actor_context(table))
    button = re.search(r'<button[^>]*data-key="r"[^>]*>(.*?)</button>', html, flags=re.S)
    assert button is not None and "Raise" in button.group(1) and "<kbd>R</kbd>" in button.group(1)
    assert ("data-sized-go" in button.group(0)) == (game != "FT")

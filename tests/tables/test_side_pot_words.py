"""With side pots, each board's winners say whose pot they took, and a short all-in who took every
board of the main pot is said to scoop the main pot (found by an audit of Patch-Patch play)."""

from __future__ import annotations

from django.utils import translation

from tables.fragment import render_table
from tables.presenter import present
from tests.rules_engine.conftest import play, stacked
from tests.rules_engine.test_patchpatch import SIDE_BOARDS, SIDE_HANDS


def _context() -> dict:
    # Seat 0 (30 chips) is all-in and best on every board: it takes the 90 main pot whole; seats 1
    # and 2 share the 180 side pot (boards 1 and 2 to seat 1, board 3 to seat 2).
    s = stacked([30, 1000, 1000], button=0, hands=SIDE_HANDS, boards=SIDE_BOARDS)
    play(s, "all_in", "call", "call", "done", "bet_pot", "call")
    play(s, "check", "check", "check", "check")
    seats = [{"no": i, "name": name, "empty": False, "me": False, "stack": 0, "sitting_out": False, "user_id": i + 1}
             for i, name in enumerate(("Dana", "Alice", "Boris"))]
    return present(view=s.view_for(None), seats=seats, players=[[i, i + 1, 0] for i in range(3)])


def test_board_lines_name_the_pot_and_the_scoop_is_the_main_pots() -> None:
    context = _context()
    lines = [[(w["name"], w["pot_label"]) for w in b.results] for b in context["boards"]]
    assert lines[0] == [("Dana", "main pot"), ("Alice", "side pot 1")]
    assert lines[2] == [("Dana", "main pot"), ("Boris", "side pot 1")]
    assert context["scoop_name"] == "Dana" and context["scoop_main"]
    html = render_table({**context, "table": None, "phase": "over"})
    assert "Dana scoops all three boards of the main pot!" in html
    assert "+30</bdi> · main pot · " in html and "+60</bdi> · side pot 1 · " in html
    with translation.override("ru"):
        assert "основного банка" in render_table({**_context(), "table": None, "phase": "over"})


def test_a_call_that_puts_the_player_all_in_says_so() -> None:
    """Found by an audit: "Call 20" for the last 20 chips read like any call."""
    s = stacked([1000, 1000, 30], button=0)
    play(s, "raise_pot", "fold")  # the big blind (20 behind) faces a raise to 35
    seats = [{"no": i, "name": n, "empty": False, "me": i == 2, "stack": 0, "sitting_out": False, "user_id": i + 1}
             for i, n in enumerate(("Ann", "Ben", "Cy"))]
    context = present(view=s.view_for(2), seats=seats, players=[[i, i + 1, 0] for i in range(3)])
    assert [a["label"] for a in context["actions"]] == ["Fold", "Call 20 · all-in"]
    s = stacked([1000, 1000, 1000], button=0)
    context = present(view=s.view_for(0), seats=seats, players=[[i, i + 1, 0] for i in range(3)])
    assert "Call 10" in [a["label"] for a in context["actions"]]  # an ordinary call, as before

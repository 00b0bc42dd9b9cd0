"""With side pots, each board's winners say whose pot they took, and a short all-in who took every
board of the main pot is said to scoop the main pot (found by an audit of Patch-Patch play)."""

from __future__ import annotations

import pytest
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
    assert "wins <bdi dir=\"ltr\">30</bdi> · main pot · " in html and "wins <bdi dir=\"ltr\">60</bdi> · side pot 1 · " in html
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


def _classic(state, names, viewer=None) -> dict:
    seats = [{"no": i, "name": n, "empty": False, "me": i == viewer, "stack": 0, "sitting_out": False, "user_id": i + 1}
             for i, n in enumerate(names)]
    return present(view=state.view_for(viewer), seats=seats, players=[[i, i + 1, 0] for i in range(len(names))])


def test_hold_em_winners_say_whose_pot() -> None:
    """Found by an audit of the classic games: "Alice +300 · Three of a kind" over "Bob +400"
    did not say which was the main pot. One pot says nothing more."""
    from tests.rules_engine.test_flop_games import act, deal

    state = deal("NT", [100, 300, 1000], button=0, hands=["AsAd", "KsKd", "QsQd"], board="Ah2c7dKhQc")
    act(state, ("raise", 100), ("raise", 300), "call")  # seat 0 all-in 100, seat 1 all-in 300, seat 2 calls
    assert state.result is not None
    context = _classic(state, ("Ann", "Ben", "Cy"))
    lines = [(w["name"], w["amount"], w.get("pot_label")) for w in context["wins"]]
    assert lines == [("Ann", 300, "main pot"), ("Ben", 400, "side pot 1")]
    html = render_table({**context, "table": None, "phase": "over"})
    assert "<strong>Ann</strong> wins <bdi dir=\"ltr\">300</bdi> · main pot · Three of a kind" in html and "<strong>Ben</strong> wins <bdi dir=\"ltr\">400</bdi> · side pot 1 · " in html
    with translation.override("ru"):
        ru = render_table({**_classic(state, ("Ann", "Ben", "Cy")), "table": None, "phase": "over"})
        assert "основной банк" in ru and '<strong>Ann</strong> выигрывает <bdi dir="ltr">300</bdi>' in ru
    # What a winner took from the pots is said in words, not as "+300", which read as their net
    # for the hand (the seat's figure; found by an audit).
    with translation.override("he"):
        he = render_table({**_classic(state, ("Ann", "Ben", "Cy")), "table": None, "phase": "over"})
        assert '<strong>Ann</strong>: זכייה ב-<bdi dir="ltr">300</bdi>' in he and "+300" not in he
    one = deal("NT", [1000, 1000], button=0, hands=["AsAd", "KsKd"], board="Ah2c7dKhQc")
    act(one, ("raise", 1000), "call")
    assert [w.get("pot_label") for w in _classic(one, ("Ann", "Ben"))["wins"]] == [None]


def test_a_hi_lo_pot_with_no_low_says_the_high_hand_takes_it_all() -> None:
    from tests.rules_engine.test_flop_games import act, deal

    state = deal("FO/8", [1000, 1000], hands=["AhKhQhJh", "9c9dTcTd"], board="KcKdQs9h8s")
    while state.result is None:
        kinds = [la.kind for la in state.legal_actions(state.actors()[0])]
        act(state, "check" if "check" in kinds else "call")
    context = _classic(state, ("Ann", "Ben"))
    assert [(w["name"], w["side"]) for w in context["wins"]] == [("Ann", "nolow")]
    html = render_table({**context, "table": None, "phase": "over"})
    assert "no low: the high hand takes it all" in html
    assert "scoops high and low" not in html  # there was no low to scoop
    with_low = deal("FO/8", [1000, 1000], hands=["As2s3hKd", "9c9dTcTd"], board="4c5d8sKh9h")
    while with_low.result is None:
        kinds = [la.kind for la in with_low.legal_actions(with_low.actors()[0])]
        act(with_low, "check" if "check" in kinds else "call")
    sides = {w["side"] for w in _classic(with_low, ("Ann", "Ben"))["wins"]}
    assert "nolow" not in sides and "low" in sides


def test_seven_card_stud_shows_the_shared_card() -> None:
    """Eight players at seven-card stud: the deck cannot give everyone a seventh card, so one is
    dealt face up for all (GAMES.md section 3). Found by an audit: it was on no screen."""
    import random

    from rules_engine.games import Action, get_variant

    variant = get_variant("F7S")
    state = variant.start(variant.setup_for_table(stacks=[1000] * 8, button=0, small_blind=5, big_blind=10), random.Random(5))
    while state.result is None and not state.board:
        seat = state.to_act
        kinds = [la.kind for la in state.legal_actions(seat)]
        state.apply(Action(seat, "bring_in" if "bring_in" in kinds else "check" if "check" in kinds else "call"))
    assert len(state.board) == 1
    names = tuple(f"P{i}" for i in range(8))
    context = _classic(state, names, viewer=0)
    card = str(state.board[0])
    html = render_table({**context, "table": None})
    assert "Shared card" in html and f'data-card="{card}"' in html
    assert f'data-card="{card}"' in render_table({**_classic(state, names), "table": None})  # a watcher too


def test_one_key_per_button_and_stud_buttons_have_keys() -> None:
    """Five-card stud's open pair offers "Bet 10" and "Bet 20": only the first takes R (found by
    an audit: both showed R). The bring-in and the completion have keys too."""
    from tests.rules_engine.test_stud_games import act, deal

    hands = ["Kd Ah Ac 2h 3s", "3c 2c 5d 7h 8s", "Qd 4s Jc 6d Ts"]
    state = deal("F5S", [500, 500, 500], button=0, hands=hands)
    bring = _classic(state, ("Ann", "Ben", "Cy"), viewer=1)
    assert [(a["kind"], a["key"]) for a in bring["actions"]] == [("bring_in", "b"), ("complete", "r")]
    act(state, "bring_in", "call", "call")
    context = _classic(state, ("Ann", "Ben", "Cy"), viewer=0)
    assert [(a["label"], a["key"]) for a in context["actions"]] == [("Check", "c"), ("Bet 10", "r"), ("Bet 20", "")]


@pytest.mark.django_db
def test_a_finished_eight_player_stud_hand_shows_its_shared_card(client) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    from rules_engine.games import get_variant
    from tests.tables.helpers import play_passively, seated_table

    table, users = seated_table(n=8, game="F7S", max_seats=8)
    hand = play_passively(table, max_steps=400)
    board = get_variant("F7S").from_json(hand.state).board
    assert len(board) == 1  # eight players called to the end: one card for all
    client.force_login(users[0])
    page = client.get(reverse("hand_history", args=[table.id, hand.number])).content.decode()
    assert "Shared card" in page and f'data-card="{board[0]}"' in page


def test_the_stud_bring_in_says_why_the_player_opens() -> None:
    """Found by an audit: nothing said who brings in, or why."""
    from tests.rules_engine.test_stud_games import deal

    hands = ["Kd Ah 9c 2h 3s", "3c 2c 5d 7h 8s", "Qd 4s Jc 6d Ts"]
    state = deal("F5S", [500, 500, 500], button=0, hands=hands)  # 2c, the lowest up card, brings in
    names = ("Ann", "Ben", "Cy")
    bring = _classic(state, names, viewer=1)
    assert bring["bring_in_hint"] == "Your up card is the lowest, so you open: bring in 5, or complete to 10."
    html = render_table({**bring, "table": None, "my_seat": True})
    assert "Your up card is the lowest" in html
    assert _classic(state, names, viewer=0)["bring_in_hint"] == ""  # not theirs to open
    with translation.override("ru"):
        assert "бринг-ин 5" in _classic(state, names, viewer=1)["bring_in_hint"]


def test_a_bring_in_that_takes_every_chip_is_one_button() -> None:
    """Found by an audit: a player with fewer chips than the bring-in was offered "Bring in 2"
    and "All-in 2", the same two chips both ways."""
    from tests.rules_engine.test_stud_games import deal

    s = deal("F7S", [500, 4, 500], button=0, hands=["Kd Kh Ah", "3c 4c 2c", "3d 4d 5s"])
    assert s.bring_in_seat == 1
    kinds = {(la["kind"], la.get("amount")) for la in s.view_for(1)["legal_actions"]}
    assert ("all_in", 2) in kinds and ("bring_in", 2) in kinds  # the engine's two, the same
    context = _classic(s, ["Ann", "Ben", "Cy"], viewer=1)
    assert [a["label"] for a in context["actions"]] == ["Bring in 2 · all-in"]
    s = deal("F7S", [500, 500, 500], button=0, hands=["Kd Kh Ah", "3c 4c 2c", "3d 4d 5s"])
    assert "Bring in 5" in [a["label"] for a in _classic(s, ["Ann", "Ben", "Cy"], viewer=1)["actions"]]

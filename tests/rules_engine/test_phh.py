"""Hand histories (PHH) with the Patch-Patch extension: read, write, replay, the CLI."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rules_engine.cards import FULL_DECK, Card, format_cards
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, RulesError
from rules_engine.games import Action
from rules_engine.games.patchpatch import PatchPatch
from rules_engine.notation import (
    HistoryError,
    read_phh,
    replay_phh,
    replay_summary,
    to_phh,
)
from tests.rules_engine.conftest import cards, play, random_hand, stacked

ROOT = Path(__file__).resolve().parents[2]

BOARDS = ["AhKd2c", "7s7d9h", "TcJcQc"]
TURNS = "3c/4d/5h"
RIVERS = "6s/8d/Ks"


def _spare_hands(n: int) -> list[str]:
    used = set(cards(" ".join(BOARDS) + " 3c 4d 5h 6s 8d Ks"))
    spare = [c for c in FULL_DECK if c not in used]
    return ["".join(map(str, spare[12 * k : 12 * k + 12])) for k in range(n)]


def history(
    actions: list[str],
    *,
    stacks: str = "[1000, 1000, 1000]",
    extra: str = "",
    sb: int = 5,
    bb: int = 10,
) -> str:
    body = "\n".join(f"  {json.dumps(a)}," for a in actions)
    n = stacks.count(",") + 1
    blinds = f"[{sb}, {bb}, 0]" if n == 3 else f"[{sb}, {bb}]"
    antes = "[0, 0, 0]" if n == 3 else "[0, 0]"
    return (
        f'variant = "PP"\nantes = {antes}\nblinds_or_straddles = {blinds}\nmin_bet = {bb}\n'
        f"starting_stacks = {stacks}\n{extra}\nactions = [\n{body}\n]\n"
    )


H = _spare_hands(3)
CHECK_DOWN = [
    f"d dh p1 {H[0]}",
    f"d dh p2 {H[1]}",
    f"d dh p3 {H[2]}",
    "p3 cc",
    "p1 cc",
    "p2 cc",
    "d db " + "/".join(BOARDS),
    # Nobody sends an arr line: the dealt order stands.
    "p1 cc",
    "p2 cc",
    "p3 cc",
    "d db " + TURNS,
    "p1 cc",
    "p2 cc",
    "p3 cc",
    "d db " + RIVERS,
    "p1 cc",
    "p2 cc",
    "p3 cc",
]


def test_issue_example_boards_and_dealt_order_without_arr_lines() -> None:
    state = replay_phh(history(CHECK_DOWN))
    assert state.is_over and state.result is not None and state.result.showdown
    assert [format_cards(b) for b in state.boards] == [
        "Ah Kd 2c 3c 6s",
        "7s 7d 9h 4d 8d",
        "Tc Jc Qc 5h Ks",
    ]
    # p1 is the small blind, left of the button (p3); cards kept in dealt order.
    assert state.button == 2 and state.small_blind_seat == 0
    for k in range(3):
        assert "".join(map(str, state.hand_of(k))) == H[k]
    # The same hand played directly on the engine gives the same result.
    direct = stacked(
        [1000] * 3,
        button=2,
        hands=[" ".join(re.findall("..", h)) for h in H],
        boards=["Ah Kd 2c 3c 6s", "7s 7d 9h 4d 8d", "Tc Jc Qc 5h Ks"],
    )
    play(direct, "call", "call", "check", "done", *["check"] * 9)
    assert direct.result == state.result


def test_the_flop_betting_closes_the_arrangement() -> None:
    state = replay_phh(history(CHECK_DOWN[:8]))
    assert state.phase == "flop" and all(state.submitted) and state.actors() == (1,)


def test_arr_lines_set_the_final_arrangement() -> None:
    p1 = re.findall("..", H[0])
    arranged = "".join(reversed(p1))
    state = replay_phh(history([*CHECK_DOWN[:7], f"p1 arr {arranged}", "p2 arr " + H[1]]))
    assert state.phase == "arrange" and state.actors() == (2,)
    assert "".join(map(str, state.hand_of(0))) == arranged


def test_heads_up_p1_is_the_small_blind_and_the_button() -> None:
    text = history(
        [f"d dh p1 {H[0]}", f"d dh p2 {H[1]}", "p1 cbr 30", "p2 f"],
        stacks="[500, 700]",
    )
    state = replay_phh(text)
    assert state.button == 0 and state.small_blind_seat == 0
    assert state.stacks == (510, 690)
    assert replay_summary(text) == {"finishing_stacks": [510, 690]}


def test_read_phh_gives_setup_and_engine_actions() -> None:
    setup, actions = read_phh(history(CHECK_DOWN))
    assert setup.stacks == (1000, 1000, 1000) and setup.button == 2
    assert actions[:3] == [Action(2, "call"), Action(0, "call"), Action(1, "check")]
    assert [a.kind for a in actions[3:6]] == ["done"] * 3
    assert PatchPatch.replay(setup, actions) == replay_phh(history(CHECK_DOWN))


def test_cbr_is_raise_to_and_must_be_the_pot() -> None:
    base = [f"d dh p1 {H[0]}", f"d dh p2 {H[1]}", f"d dh p3 {H[2]}"]
    state = replay_phh(history([*base, "p3 cbr 35", "p1 cbr 115"]))
    assert state.bets == (115, 10, 35)
    with pytest.raises(IllegalAction, match=r"action 4 .*raise to 35, not 40"):
        replay_phh(history([*base, "p3 cbr 40"]))


def test_no_public_field_means_a_private_table_without_rake() -> None:
    # 10-20, everyone calls, a pot bet of 60 on the flop called twice, checked down: pot 240.
    lines = [
        *CHECK_DOWN[:6],
        "d db " + "/".join(BOARDS),
        "p1 cbr 60",
        "p2 cc",
        "p3 cc",
        "d db " + TURNS,
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db " + RIVERS,
        "p1 cc",
        "p2 cc",
        "p3 cc",
    ]
    big = "[5000, 5000, 5000]"
    private = replay_phh(history(lines, stacks=big, sb=10, bb=20))
    assert private.setup.public is False and private.result is not None
    assert private.result.rake == 0
    public = replay_phh(
        history(lines, stacks=big, sb=10, bb=20, extra='_public = true\n_table_speed = "fast"')
    )
    assert public.setup.public and public.setup.speed == "fast"
    assert public.result is not None and public.result.rake == 240 * 3 // 100


# -- export and round trips -------------------------------------------------------------------


def test_export_of_random_hands_replays_to_the_same_result() -> None:
    rng = random.Random(99)
    for _ in range(150):
        s = random_hand(rng)
        text = to_phh(s)
        fields = tomllib.loads(text)
        assert fields["variant"] == "PP" and fields["min_bet"] == s.setup.big_blind
        again = replay_phh(text)
        assert again.result == s.result
        assert again.stacks == s.stacks and again.breaks == s.breaks
        assert [format_cards(b) for b in again.boards] == [format_cards(b) for b in s.boards]
        # Printing what was parsed gives the same text.
        assert to_phh(again) == text


def test_hidden_export_shows_only_shown_cards_and_replays_to_the_same_payouts() -> None:
    rng = random.Random(7)
    for _ in range(100):
        s = random_hand(rng)
        text = to_phh(s, hide_unshown=True)
        r = s.result
        assert r is not None
        for seat in range(s.n):
            for c in s.hand_of(seat):
                if seat not in r.shown:
                    assert str(c) not in _action_cards(text), (seat, c)
        again = replay_phh(text)
        assert again.result is not None
        assert again.result.payouts == r.payouts and again.stacks == s.stacks


def _action_cards(text: str) -> str:
    """The hole-card text of a history: dh, arr and sm lines only (boards are public)."""
    lines = tomllib.loads(text)["actions"]
    return " ".join(a for a in lines if " dh " in a or " arr " in a or " sm " in a)


def test_viewer_export_keeps_the_viewers_own_cards() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    play(s, "fold", "fold")
    text = to_phh(s, hide_unshown=True, viewer=0)
    own = "".join(map(str, s.hand_of(0)))
    assert own in text and "".join(map(str, s.hand_of(1))) not in text


def test_partial_histories_replay_to_the_same_state() -> None:
    rng = random.Random(3)
    for _ in range(40):
        s = random_hand(rng)
        cut = rng.randrange(len(s.log) + 1)
        partial = PatchPatch.replay(s.setup, s.log[:cut])
        again = replay_phh(to_phh(partial))
        assert again.stacks == partial.stacks and again.phase == partial.phase
        assert again.pot == partial.pot


def test_timeouts_travel_as_commentary() -> None:
    s = stacked([1000, 1000, 1000], button=0)
    s.timeout()  # the button folds on the clock
    play(s, "call", "check")
    s.apply(Action(1, "done"))
    s.timeout()  # seat 2's arrangement is submitted by the clock
    text = to_phh(s)
    actions = tomllib.loads(text)["actions"]
    assert "p3 f # timeout" in actions  # the button is p3
    assert [a for a in actions if " arr " in a] == [
        "p1 arr " + "".join(map(str, s.hand_of(1))),
        "p2 arr " + "".join(map(str, s.hand_of(2))) + " # timeout",
    ]
    again = replay_phh(text)
    assert again.breaks == {0} and again.phase == "flop"
    assert again.log[-1] == Action(2, "done", timeout=True)


def test_extra_fields_are_written() -> None:
    s = stacked([1000, 1000], button=0)
    play(s, "fold")
    text = to_phh(s, fields={"players": ["Alice", "Bob"], "hand": 7, "_club": "Dizengoff"})
    fields = tomllib.loads(text)
    assert fields["players"] == ["Alice", "Bob"] and fields["hand"] == 7
    assert fields["_club"] == "Dizengoff"
    with pytest.raises(ValueError):
        to_phh(s, fields={"variant": "NT"})


# -- errors -----------------------------------------------------------------------------------

DEAL = [f"d dh p1 {H[0]}", f"d dh p2 {H[1]}", f"d dh p3 {H[2]}"]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("variant = ", HistoryError, "not valid TOML"),
        ('variant = "N2L1D"\nactions = []', HistoryError, "not supported"),
        ('variant = "PP"', HistoryError, "no actions"),
        (history(DEAL, stacks="[1000]"), HistoryError, "2 or 3 players"),
        (history(DEAL).replace("min_bet = 10", "min_bet = 5"), HistoryError, "min_bet"),
        (history(DEAL).replace("[5, 10, 0]", "[10, 5, 0]"), HistoryError, "small blind then"),
        (history(DEAL).replace("antes = [0, 0, 0]", "antes = [1, 1, 1]"), HistoryError, "no antes"),
        (history([*DEAL[:2], f"d dh p3 {H[0]}"]), HistoryError, "repeat a card"),
        (history([*DEAL[:2], "d dh p3 AhKh"]), HistoryError, "12 cards"),
        (history([*DEAL[:2], "d dh p4 " + H[2]]), HistoryError, "no p4"),
        (history([*DEAL, "p1 cc"]), OutOfTurn, "action 4"),
        (history([*DEAL, "p3 raise 35"]), HistoryError, "unknown action"),
        (history([*DEAL, "p3 cc", "p1 cc", "p2 cc", "p1 cc"]), HistoryError, "'d db' line is missing"),
        (history([*DEAL, "p3 cc", "d db AhKd2c/7s7d9h/TcJcQc"]), IllegalAction, "before the betting"),
        (history([*DEAL, "p3 cc", "p1 cc", "p2 cc", "d db AhKd/7s7d9h/TcJcQc"]), HistoryError, "3 cards"),
        (history([*DEAL, "p3 cc", "p1 cc", "p2 cc", "d db AhKd2c|7s7d9h|TcJcQc"]), HistoryError, "'/'"),
        (history([*DEAL, "p3 arr " + H[2]]), IllegalAction, "after the flops"),
        (
            history([*DEAL, "p3 cc", "p1 cc", "p2 cc", "d db AhKd2c/7s7d9h/TcJcQc", "p1 arr " + H[1]]),
            IllegalAction,
            "exactly",
        ),
        (history([*DEAL, "p3 f", "p1 f", "p2 sm -"]), IllegalAction, "showdown"),
        (history([*DEAL, "p3 f", "p1 f"], extra="finishing_stacks = [1000, 1000, 1000]"), IllegalAction, "finishing_stacks"),
        (history([*DEAL, "p3 cbr 35x"]), HistoryError, "whole number"),
        (history(["d dh p1 AhXx" + H[0][4:], *DEAL[1:]]), HistoryError, "not a card"),
    ],
)
def test_malformed_or_illegal_histories(text: str, error: type[RulesError], message: str) -> None:
    with pytest.raises(error, match=message):
        replay_phh(text)


def test_muck_is_refused_at_a_patch_patch_showdown() -> None:
    text = history([*CHECK_DOWN, "p1 sm"])
    with pytest.raises(IllegalAction, match="sm -"):
        replay_phh(text)
    assert replay_phh(history([*CHECK_DOWN, "p1 sm -", "p2 sm " + H[1]])).is_over


def test_history_errors_are_malformed_actions() -> None:
    assert issubclass(HistoryError, MalformedAction)


# -- command line -----------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_cli_replay_prints_finishing_stacks(tmp_path: Path) -> None:
    s = random_hand(random.Random(12), players=3)
    path = tmp_path / "hand.phh"
    path.write_text(to_phh(s), encoding="utf-8")
    res = run_cli("replay", str(path))
    assert res.returncode == 0, res.stderr
    from rules_engine.notation import PatchPatchNotation

    order = PatchPatchNotation.players_of(s.button, s.n)
    assert json.loads(res.stdout) == {"finishing_stacks": [s.stacks[seat] for seat in order]}
    verbose = json.loads(run_cli("replay", str(path), "--verbose").stdout)
    assert verbose["finishing_stacks"] == [s.stacks[seat] for seat in order]
    assert "pots" in verbose and "rake" in verbose


def test_cli_replay_verbose_per_board_results(tmp_path: Path) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(history(CHECK_DOWN), encoding="utf-8")
    out = json.loads(run_cli("replay", str(path), "--verbose").stdout)
    assert out["showdown"] is True
    (pot,) = out["pots"]
    assert [b["board"] for b in pot["boards"]] == [1, 2, 3]
    assert all(w["player"] in ("p1", "p2", "p3") and len(w["cards"]) == 10 for b in pot["boards"] for w in b["winners"])


@pytest.mark.parametrize(
    "content",
    ["variant = ", history(DEAL + ["p1 cc"]), history(DEAL + ["p3 cbr 40"])],
)
def test_cli_replay_bad_history_one_line_exit_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(content, encoding="utf-8")
    res = run_cli("replay", str(path))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "error" in res.stderr


def test_cli_replay_missing_file(tmp_path: Path) -> None:
    res = run_cli("replay", str(tmp_path / "nope.phh"))
    assert res.returncode == 2 and res.stderr.count("\n") == 1


def test_cards_helper() -> None:
    assert isinstance(cards("Ah")[0], Card)


def test_the_example_in_the_docs_replays() -> None:
    doc = (ROOT / "docs" / "hand-histories.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    state = replay_phh(example)
    assert replay_summary(example) == {"finishing_stacks": [990, 820, 1190]}
    assert to_phh(state) == example
    assert state.result is not None and state.result.payouts[1:] == (30, 60)

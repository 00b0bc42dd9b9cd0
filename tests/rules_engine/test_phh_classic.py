"""Hand histories (PHH) for Hold'em, Omaha, stud and draw: fields, player order, round trips,
PokerKit-written histories, errors, the command line and the examples in the docs."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules_engine.cli import main as cli_main
from rules_engine.errors import IllegalAction, OutOfTurn, RulesError
from rules_engine.games import Action, get_variant
from rules_engine.notation import HistoryError, parse_phh, replay_phh, replay_summary, to_phh
from tests.rules_engine.test_draw import deal as draw_deal
from tests.rules_engine.test_flop_games import CLASSIC_CODES, act, deal, random_hand

ROOT = Path(__file__).resolve().parents[2]

GAME_FIELDS = {
    "NT": {"antes", "blinds_or_straddles", "min_bet"},
    "PT": {"antes", "blinds_or_straddles", "min_bet"},
    "PO": {"antes", "blinds_or_straddles", "min_bet"},
    "PO/8": {"antes", "blinds_or_straddles", "min_bet"},
    "P5D": {"antes", "blinds_or_straddles", "min_bet"},
    "FT": {"antes", "blinds_or_straddles", "small_bet", "big_bet"},
    "FO": {"antes", "blinds_or_straddles", "small_bet", "big_bet"},
    "FO/8": {"antes", "blinds_or_straddles", "small_bet", "big_bet"},
    "F5D": {"antes", "blinds_or_straddles", "small_bet", "big_bet"},
    "F7S": {"antes", "bring_in", "small_bet", "big_bet"},
    "F7S/8": {"antes", "bring_in", "small_bet", "big_bet"},
    "FR": {"antes", "bring_in", "small_bet", "big_bet"},
    "F5S": {"antes", "bring_in", "small_bet", "big_bet"},
}
ALL_GAME_FIELDS = {"antes", "blinds_or_straddles", "min_bet", "bring_in", "small_bet", "big_bet"}


def fields_of(text: str) -> dict[str, Any]:
    return tomllib.loads(text)


@pytest.mark.parametrize("code", CLASSIC_CODES)
def test_each_variant_writes_exactly_its_phh_fields_and_round_trips(code: str) -> None:
    rng = random.Random(code)
    for _ in range(15):
        state = random_hand(code, rng)
        text = to_phh(state)
        f = fields_of(text)
        assert f["variant"] == code
        assert set(f) & ALL_GAME_FIELDS == GAME_FIELDS[code]
        assert len(f["antes"]) == len(f["starting_stacks"]) == state.n
        again = replay_phh(text)
        assert again.result == state.result and again.stacks == state.stacks
        assert to_phh(again) == text


def test_player_order_from_the_buttons_left_heads_up_p1_is_the_big_blind() -> None:
    s = deal("NT", [100, 200, 300], button=1)
    f = fields_of(to_phh(s))
    assert f["starting_stacks"] == [300, 100, 200] and f["seats"] == [3, 1, 2]
    assert f["blinds_or_straddles"] == [5, 10, 0]
    s = deal("NT", [100, 200], button=1)  # seat 1: button and small blind
    act(s, "fold")
    f = fields_of(to_phh(s))
    assert f["starting_stacks"] == [100, 200]  # p1 is seat 0, the big blind
    assert f["blinds_or_straddles"] == [5, 10] and f["actions"][-1] == "p2 f"
    assert f["finishing_stacks"] == [105, 195]


def test_the_phh_std_example_replays_like_pokerkit_replays_it() -> None:
    text = """
variant = "NT"
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  "d dh p1 Ac2d",
  "d dh p2 ????",
  "d dh p3 7h6h",
  "p3 cbr 7000",
  "p1 cbr 23000",
  "p2 f",
  "p3 cc",
  "d db Jc3d5c",
  "p1 cbr 35000",
  "p3 cc",
  "d db 4h",
  "p1 cbr 90000",
  "p3 cbr 232600",
  "p1 cbr 1067100",
  "p3 cc",
  "p1 sm Ac2d",
  "p3 sm 7h6h",
  "d db Jh",
]
players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
"""
    state = replay_phh(text)
    assert state.is_over and state.result.showdown
    # Dwan's seven-high straight beats Ivey's wheel: the famous million-dollar pot.
    assert list(state.stacks) == [572100, 1997500, 1109500]
    pokerkit = pytest.importorskip("pokerkit")
    *_, pk = pokerkit.HandHistory.loads(text)
    assert list(pk.stacks) == list(state.stacks)


def test_a_partial_history_replays_to_the_same_point() -> None:
    s = deal("PO", [1000, 1000, 1000], button=0)
    act(s, "call", "call", "check", ("bet", 30))
    again = replay_phh(to_phh(s))
    assert again.phase == "flop" and again.actors() == s.actors() and again.pot == s.pot
    assert again.result is None


def test_hidden_histories_replay_to_the_same_payouts_even_across_a_reshuffle() -> None:
    s = draw_deal("F5D", [500] * 8, button=7)
    while s.phase == "predraw":
        kinds = [la.kind for la in s.legal_actions(s.actors()[0])]
        act(s, "check" if "check" in kinds else "call")
    while s.phase == "draw":
        seat = s.actors()[0]
        s.apply(Action(seat, "draw", cards=s.hand_of(seat)))
    assert s.reshuffles >= 1
    while not s.is_over:
        act(s, "check")
    for viewer in (None, 0, 3):
        text = to_phh(s, hide_unshown=True, viewer=viewer)
        assert replay_phh(text).result.payouts == s.result.payouts


def test_stud_down_cards_are_hidden_and_up_cards_kept() -> None:
    rng = random.Random(5)
    state = random_hand("F7S", rng, players=4)
    while not state.result.showdown or len(state.result.shown) == state.n:
        state = random_hand("F7S", rng, players=4)
    text = to_phh(state, hide_unshown=True)
    folded = next(s for s in range(state.n) if s not in state.result.shown)
    p = (folded - state.button - 1) % state.n + 1
    first = next(a for a in fields_of(text)["actions"] if a.startswith(f"d dh p{p} "))
    assert first.endswith("????" + str(state.up_cards(folded)[0]))


# -- errors -----------------------------------------------------------------------------------

BASE = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = [{actions}]
"""
DEAL = ['"d dh p1 AhKh"', '"d dh p2 QcQd"', '"d dh p3 7s2c"']


def nt(*lines: str, **swap: str) -> str:
    text = BASE.format(actions=", ".join([*DEAL, *(f'"{x}"' for x in lines)]))
    for old, new in swap.items():
        text = text.replace(old.replace("_", " "), new)
    return text


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (nt().replace("antes = [0, 0, 0]", "antes = [0, 1, 0]"), HistoryError, "antes must be the same"),
        (nt().replace("[5, 10, 0]", "[5, 10, 30]"), HistoryError, "p3 may straddle twice the big blind"),
        (nt().replace("min_bet = 10", "min_bet = 20"), HistoryError, "min_bet"),
        (nt("p1 cc"), OutOfTurn, "p3's turn"),
        (nt("p3 cbr 15"), IllegalAction, "may not raise to 15"),
        (nt("p3 xx"), HistoryError, "unknown action"),
        (nt("p3 cc", "p1 cc", "p2 cc", "p1 cc"), HistoryError, "'d db' line is missing"),
        (nt("p3 cc", "d db 2h3h4h"), IllegalAction, "betting before them"),
        (nt("p3 f", "p1 cc", "p2 cc", "d db 2h3h4h", "p1 cc", "p2 cc", "d db 5h", "p1 cc", "p2 cc", "d db 6h", "p1 cc", "p2 cc", "p1 sm"), IllegalAction, "every hand still in is shown"),
        (nt("p3 f", "p1 sm AhKh"), IllegalAction, "showdown"),
        (nt("p3 pb"), IllegalAction, "bring"),
        (nt("p3 sd"), IllegalAction, "no draw"),
        (nt("p3 f", "p1 f").replace("actions", 'finishing_stacks = [1, 2, 3]\nactions'), IllegalAction, "finishing_stacks"),
        (nt().replace('"d dh p2 QcQd"', '"d dh p2 AhQd"'), HistoryError, "repeat a card"),
        (nt().replace('"d dh p1 AhKh"', '"d dh p1 AhKhQh"'), HistoryError, "dealt 2 cards"),
        # Digits Python reads as digits but int() does not ("²"), and numbers too long for int():
        # refused as any other bad line (found by fuzzing: they escaped as a ValueError).
        (nt("p² cc"), HistoryError, "not a player"),
        (nt("p3 cbr ²0"), HistoryError, "whole number"),
        (nt("p3 cbr " + "9" * 5000), HistoryError, "whole number"),
        # Thousands of nested brackets are valid TOML that runs the reader out of stack.
        ("a = " + "[" * 5000 + "]" * 5000, HistoryError, "nested too deep"),
        ("a = " + "{b = " * 3000 + "1" + "}" * 3000, HistoryError, "nested too deep"),
    ],
)
def test_malformed_or_illegal_histories(text: str, error: type[RulesError], message: str) -> None:
    with pytest.raises(error, match=message):
        replay_phh(text)


def test_stud_history_with_blinds_is_refused() -> None:
    text = to_phh(random_hand("F7S", random.Random(1)))
    bad = text.replace("bring_in = ", "blinds_or_straddles = [1, 2]\nbring_in = ")
    with pytest.raises(HistoryError, match="bring-in, not blinds"):
        replay_phh(bad)


# -- command line and docs --------------------------------------------------------------------


@pytest.mark.parametrize("code", CLASSIC_CODES)
def test_cli_replay_works_for_every_code(code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = random_hand(code, random.Random(f"cli {code}"))
    path = tmp_path / "hand.phh"
    path.write_text(to_phh(state), encoding="utf-8")
    assert cli_main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    players = [(state.button + 1 + k) % state.n for k in range(state.n)]
    assert out == {"finishing_stacks": [state.stacks[s] for s in players]}
    assert cli_main(["replay", "--verbose", str(path)]) == 0
    verbose = json.loads(capsys.readouterr().out)
    assert verbose["over"] and "pots" in verbose
    for pot in verbose["pots"]:
        for half in pot["halves"]:
            assert half["half"] in ("high", "low") and half["winners"]


def doc_examples() -> list[str]:
    doc = (ROOT / "docs" / "hand-histories.md").read_text(encoding="utf-8")
    section = doc.split("## Hold'em, Omaha, stud and draw", 1)[1]
    return [block.split("```", 1)[0] for block in section.split("```toml\n")[1:]]


def test_the_examples_in_the_docs_replay_and_print_the_same() -> None:
    examples = doc_examples()
    assert [fields_of(e)["variant"] for e in examples] == ["NT", "F7S", "F5D"]
    for example in examples:
        state = replay_phh(example)
        assert to_phh(state) == example
        assert replay_summary(example)["finishing_stacks"] == fields_of(example)["finishing_stacks"]
    assert replay_summary(examples[0]) == {"finishing_stacks": [995, 975, 1030]}


def test_parse_phh_gives_the_setup_and_actions_that_rebuild_the_hand() -> None:
    state = random_hand("FO/8", random.Random(9))
    parsed = parse_phh(to_phh(state))
    V = get_variant("FO/8")
    assert V.replay(parsed.setup, parsed.actions).stacks == parsed.state.stacks

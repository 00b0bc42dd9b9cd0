"""``python -m rules_engine``: rank and enumerate, one-line errors, the subcommand hook."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_engine import cli

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out else None), err


def rank(capsys: pytest.CaptureFixture[str], game: str, hand: str, board: str = "") -> Any:
    argv = ["rank", "--game", game, "--hand", hand] + (["--board", board] if board else [])
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    return out


def test_rank_holdem(capsys: pytest.CaptureFixture[str]) -> None:
    out = rank(capsys, "holdem", "Ah Kh", "Qh Jh Th 2c 3d")
    assert out["high"]["category"] == "royal_flush"
    assert out["high"]["cards"] == ["Ah", "Kh", "Qh", "Jh", "Th"]
    assert out["low"] is None
    # Before the flop there are only rank groups.
    assert rank(capsys, "holdem", "8c 8d")["high"] == {"category": "one_pair", "cards": ["8d", "8c"]}


def test_rank_omaha_plays_two_and_three(capsys: pytest.CaptureFixture[str]) -> None:
    out = rank(capsys, "omaha", "Ah 2c 3d 4s", "Kh Qh Jh 8h 7c")
    assert out["high"]["category"] == "high_card"
    assert rank(capsys, "patchpatch", "Ah 2h 3d 4s", "Kh Qh Jh")["high"]["category"] == "flush"


def test_rank_omaha8_and_stud8_give_high_and_low(capsys: pytest.CaptureFixture[str]) -> None:
    out = rank(capsys, "omaha8", "Ah 2h Kc Kd", "3c 4d 8s Qh Jh")
    assert out["high"]["category"] == "one_pair"
    assert out["low"]["cards"] == ["8s", "4d", "3c", "2h", "Ah"]
    assert out["low"]["description"] == "8-4-3-2-A"
    assert rank(capsys, "omaha8", "Ah 2h Kc Kd", "9c Td 8s Qh Jh")["low"] is None
    out = rank(capsys, "stud8", "Ac 2d 3h 4s 5c Kd Kh")
    assert out["high"]["category"] == "straight" and out["low"]["description"] == "5-4-3-2-A"


def test_rank_razz_has_only_a_low(capsys: pytest.CaptureFixture[str]) -> None:
    out = rank(capsys, "razz", "Kc Kd 9s 8h 7c 6d 5s")
    assert out["high"] is None
    assert out["low"]["description"] == "9-8-7-6-5"


def test_rank_stud_draw_and_baseball(capsys: pytest.CaptureFixture[str]) -> None:
    assert rank(capsys, "stud", "Ac Ad Ah 2s 2c 7d 9h")["high"]["category"] == "full_house"
    assert rank(capsys, "draw", "2c 3c 4c 5c 7c")["high"]["category"] == "flush"
    out = rank(capsys, "baseball", "8♠ 8♥ 8♣ 8♦ 3♣ 4d Kh")
    assert out["high"]["category"] == "five_of_a_kind"
    assert out["high"]["cards"] == ["8s", "8h", "8d", "8c", "3c"]
    assert rank(capsys, "stud", "8s 8h 8c 8d 3c")["high"]["category"] == "four_of_a_kind"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["rank", "--game", "holdem", "--hand", "Ah"], "holdem needs 2 cards in --hand, got 1"),
        (["rank", "--game", "holdem", "--hand", "Ah Kd", "--board", "2c 3c 4c 5c 6c 7c"], "0 to 5"),
        (["rank", "--game", "omaha", "--hand", "Ah Kd 2c 3c", "--board", "2d 3d"], "3 to 5"),
        (["rank", "--game", "omaha", "--hand", "Ah Kd 2c", "--board", "2d 3d 4d"], "4 cards"),
        (["rank", "--game", "stud", "--hand", "Ah Kd 2c 3c"], "5 to 7"),
        (["rank", "--game", "razz", "--hand", "Ah Kd 2c 3c 4c 5c 6c 7c"], "5 to 7"),
        (["rank", "--game", "draw", "--hand", "Ah Kd 2c 3c 4c 5c"], "draw needs 5 cards"),
        (["rank", "--game", "baseball", "--hand", "Ah Kd 2c 3c"], "at least 5"),
        (["rank", "--game", "stud", "--hand", "Ah Kd 2c 3c 4c", "--board", "5c"], "no board"),
        (["rank", "--game", "holdem", "--hand", "Ah Xd"], "'Xd' is not a card"),
        (["rank", "--game", "holdem", "--hand", "Ah Ah"], "Ah appears twice"),
        (["rank", "--game", "holdem", "--hand", "Ah Kd", "--board", "Ah 2c 3c"], "Ah is both"),
        (["rank", "--game", "poker", "--hand", "Ah Kd"], "invalid choice: 'poker'"),
        (["rank", "--hand", "Ah Kd"], "required: --game"),
        (["enumerate", "--cards", "6"], "invalid choice: 6"),
        (["enumerate", "--cards", "5", "--threads", "0"], "at least 1"),
        (["shuffle"], "invalid choice: 'shuffle'"),
        ([], "required: COMMAND"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out is None
    assert err.count("\n") == 1 and err.endswith("\n")
    assert says in err and "Traceback" not in err


def test_enumerate_five_cards_counts_every_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "enumerate", "--cards", "5")
    assert status == 0
    assert out == {
        "royal_flush": 4,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pair": 123552,
        "one_pair": 1098240,
        "high_card": 1302540,
        "total": 2598960,
    }


def test_another_module_can_register_a_subcommand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def configure(p: argparse.ArgumentParser) -> None:
        p.add_argument("--times", type=int, required=True)

    def run_echo(args: argparse.Namespace) -> int:
        if args.times > 3:
            raise cli.UsageError("at most 3 times")
        print(json.dumps(["hi"] * args.times))
        return 0

    monkeypatch.setattr(cli, "SUBCOMMANDS", dict(cli.SUBCOMMANDS))
    cli.register_subcommand(cli.Subcommand("echo", "say hi", configure, run_echo))
    assert run(capsys, "echo", "--times", "2")[:2] == (0, ["hi", "hi"])
    status, _, err = run(capsys, "echo", "--times", "9")
    assert status == 2 and "at most 3 times" in err


def test_python_dash_m_rules_engine() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rules_engine", "rank", "--game", "baseball",
         "--hand", "8s 8h 8c 8d 3c"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["high"]["category"] == "five_of_a_kind"
    bad = subprocess.run(
        [sys.executable, "-m", "rules_engine", "rank", "--game", "holdem", "--hand", "Zz Kd"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "'Zz'" in bad.stderr

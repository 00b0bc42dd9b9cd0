"""Several hands in one file (``.phhs``): written as PokerKit writes them, read back hand by hand,
and checked or replayed by ``python -m rules_engine`` one JSON line a hand."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rules_engine import notation
from rules_engine.cli import main
from tests.rules_engine.test_fairness import _history, _played

ROOT = Path(__file__).resolve().parents[2]


def _hands() -> list[tuple[int, str]]:
    out = []
    for number, (code, seed) in enumerate((("PP", 3), ("NT", 4), ("F7S", 5), ("PO", 6)), start=7):
        state, commit = _played(code, seed=seed, fold_first=False)
        out.append((number, _history(state, commit)))
    return out


def test_join_then_split_gives_back_each_hand() -> None:
    hands = _hands()
    text = "".join(notation.join_phhs(hands))
    assert text.startswith("[7]\nvariant = ") and "\n\n[8]\nvariant = " in text
    back = notation.split_phhs(text)
    assert back is not None and [name for name, _ in back] == ["7", "8", "9", "10"]
    for (_number, original), (_name, again) in zip(hands, back, strict=True):
        assert tomllib.loads(again) == tomllib.loads(original)
        assert notation.replay_summary(again) == notation.replay_summary(original)
    # A single hand's history is not a file of hands.
    assert notation.split_phhs(hands[0][1]) is None


def test_a_table_inside_a_hand_moves_under_the_hand() -> None:
    text = "".join(notation.join_phhs([(3, 'variant = "NT"\n[extra]\nnote = "x"\n[[list]]\nk = 1\n')]))
    assert tomllib.loads(text) == {"3": {"variant": "NT", "extra": {"note": "x"}, "list": [{"k": 1}]}}


def test_pokerkit_reads_the_file_of_hands() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    hands = [(n, t) for n, t in _hands() if 'variant = "NT"' in t or 'variant = "PO"' in t]
    text = "".join(notation.join_phhs(hands))
    read = list(pokerkit.HandHistory.loads_all(text))
    assert len(read) == 2
    for hh, (_n, original) in zip(read, hands, strict=True):
        last = list(hh)[-1]
        assert list(last.stacks) == notation.replay_summary(original)["finishing_stacks"]


def test_cli_replays_and_verifies_every_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = _hands()
    path = tmp_path / "night.phhs"
    path.write_text("".join(notation.join_phhs(hands)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["hand"] for x in lines] == ["7", "8", "9", "10"]
    assert [x["finishing_stacks"] for x in lines] == [notation.replay_summary(t)["finishing_stacks"] for _n, t in hands]
    assert main(["verify", str(path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["hand"] for x in lines] == ["7", "8", "9", "10"] and all(x["ok"] for x in lines)
    # One hand whose revealed salt was changed: that hand fails, the exit status says so.
    fields = tomllib.loads(hands[1][1])
    first = fields["_deck_reveal"][0]
    tampered = [hands[0], (hands[1][0], hands[1][1].replace(first, first[:-1] + ("0" if first[-1] != "0" else "1"))), *hands[2:]]
    path.write_text("".join(notation.join_phhs(tampered)), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert [json.loads(x)["ok"] for x in capsys.readouterr().out.splitlines()] == [True, False, True, True]


@pytest.mark.parametrize(("content", "message"), [
    ("[1]\nvariant = \"NT\"\nactions = [\"p9 zz\"]\n", "hand [1]"),
    ("[1]\nvariant = \"NT\"\n[[2]]\nx = 1\n", "neither a hand"),
    ("not toml at all [", "not valid TOML"),
    ("stray = 1\n[1]\nvariant = \"NT\"\n", "neither a hand"),
    ("a = " + "[" * 5000 + "]" * 5000, "nested too deep"),
])
def test_a_bad_file_of_hands_is_one_line_on_stderr_and_prints_nothing(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.phhs"
    path.write_text(content, encoding="utf-8")
    for command in ("replay", "verify"):
        res = subprocess.run([sys.executable, "-m", "rules_engine", command, str(path)], cwd=ROOT,
                             capture_output=True, text=True)
        assert res.returncode == 2 and res.stdout == ""
        assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1

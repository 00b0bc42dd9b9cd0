"""The deck commitment: published before the deal, checkable by anyone after the hand."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import fairness, notation
from rules_engine.cards import Deck
from rules_engine.cli import main
from rules_engine.games import Action, HandSetup, get_variant

ROOT = Path(__file__).resolve().parents[2]


def _played(seed: int, button: int = 0) -> tuple[object, tuple, str]:
    deck = Deck.shuffled(random.Random(seed)).order
    setup = HandSetup(stacks=(1000, 800, 1200), button=button, small_blind=5, big_blind=10, deck=deck)
    state = get_variant("PP").start(setup)
    while not state.is_over:
        seat = state.actors()[0]
        kinds = [la.kind for la in state.legal_actions(seat)]
        kind = next(k for k in ("done", "check", "call") if k in kinds)
        state.apply(Action(seat=seat, kind=kind))
    return state, deck, fairness.new_salt()


def _history(state: object, deck: tuple, salt: str, *, commit_deck: tuple | None = None, reveal: tuple | None = None) -> str:
    return notation.to_phh(state, fields={
        fairness.COMMITMENT_FIELD: fairness.commitment(commit_deck or deck, salt),
        fairness.SALT_FIELD: salt,
        fairness.DECK_FIELD: fairness.deck_text(reveal or deck),
    })


def test_salt_is_fresh_and_long() -> None:
    salts = {fairness.new_salt() for _ in range(50)}
    assert len(salts) == 50 and all(len(s) == 32 for s in salts)


def test_commitment_depends_on_every_card_and_the_salt() -> None:
    deck = Deck.shuffled(random.Random(1)).order
    base = fairness.commitment(deck, "aa")
    assert fairness.commitment(deck, "ab") != base
    swapped = list(deck)
    swapped[50], swapped[51] = swapped[51], swapped[50]
    assert fairness.commitment(swapped, "aa") != base


@pytest.mark.parametrize("button", [0, 1, 2])
def test_an_honest_history_verifies(button: int) -> None:
    state, deck, salt = _played(7 + button, button)
    result = fairness.verify_phh(_history(state, deck, salt))
    assert result.ok, result.message


def test_a_wrong_salt_fails_the_commitment() -> None:
    state, deck, salt = _played(3)
    text = _history(state, deck, salt).replace(salt, "0" * 32)
    result = fairness.verify_phh(text)
    assert not result.commitment_ok and not result.ok


def test_a_deck_that_did_not_deal_this_hand_fails() -> None:
    state, deck, salt = _played(4)
    other = list(deck)
    other[0], other[1] = other[1], other[0]
    # The server could only do this by committing to a deck it did not deal from.
    result = fairness.verify_phh(_history(state, deck, salt, commit_deck=tuple(other), reveal=tuple(other)))
    assert result.commitment_ok and not result.deals_ok and not result.ok


def test_a_short_deck_is_refused() -> None:
    state, deck, salt = _played(5)
    result = fairness.verify_phh(_history(state, deck, salt, commit_deck=deck[:51], reveal=deck[:51]))
    assert not result.deck_ok


def test_cli_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state, deck, salt = _played(6)
    good = tmp_path / "good.phh"
    good.write_text(_history(state, deck, salt), encoding="utf-8")
    assert main(["verify", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    bad = tmp_path / "bad.phh"
    bad.write_text(_history(state, deck, salt).replace(salt, "f" * 32), encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out)["commitment"] is False
    plain = tmp_path / "plain.phh"
    plain.write_text(notation.to_phh(state), encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "rules_engine", "verify", str(plain)], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 2 and "commitment" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    res = subprocess.run([sys.executable, "-m", "rules_engine", "verify", str(tmp_path / "missing.phh")], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 2 and "cannot read" in res.stderr

"""The deck commitment: one fingerprint before the deal; after it, only the shown cards opened."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules_engine import fairness, notation
from rules_engine.cards import Deck
from rules_engine.cli import main
from rules_engine.games import Action, HandSetup, get_variant

ROOT = Path(__file__).resolve().parents[2]


def _played(code: str, seed: int, button: int = 0, fold_first: bool = True) -> tuple[Any, fairness.ShuffleCommitment]:
    variant = get_variant(code)
    kw = dict(stacks=(1000, 800, 1200), button=button, small_blind=5, big_blind=10)
    setup = variant.setup_for_table(**kw) if hasattr(variant, "setup_for_table") else HandSetup(**kw)
    deck = Deck.shuffled(random.Random(seed)).order
    state = variant.start(dataclasses.replace(setup, deck=deck))
    folded = not fold_first
    while not state.is_over:
        seat = state.actors()[0]
        kinds = [la.kind for la in state.legal_actions(seat)]
        if not folded and "fold" in kinds:
            kind, folded = "fold", True
        elif not folded and "bet_pot" in kinds:
            kind = "bet_pot"
        elif not folded and "bet" in kinds:
            kind = "bet"
        else:
            kind = next(k for k in ("done", "check", "call", "draw", "bring_in") if k in kinds)
        state.apply(Action(seat=seat, kind=kind))
    return state, fairness.ShuffleCommitment.create(deck, rng=random.Random(seed + 1000))


def _history(state: Any, commit: fairness.ShuffleCommitment, viewer: int | None = None) -> str:
    plain = notation.to_phh(state, hide_unshown=True, viewer=viewer)
    shown = fairness._cards_in_history(tomllib.loads(plain)["actions"])
    return notation.to_phh(state, hide_unshown=True, viewer=viewer, fields=fairness.public_fields(commit, shown))


def test_salts_are_fresh_and_long() -> None:
    deck = Deck.shuffled(random.Random(1)).order
    a, b = fairness.ShuffleCommitment.create(deck), fairness.ShuffleCommitment.create(deck)
    assert a.commitment != b.commitment
    assert len(set(a.salts)) == 52 and all(len(s) == 32 for s in a.salts)


def test_commitment_depends_on_every_place() -> None:
    deck = Deck.shuffled(random.Random(2)).order
    commit = fairness.ShuffleCommitment.create(deck, rng=random.Random(3))
    swapped = list(deck)
    swapped[50], swapped[51] = swapped[51], swapped[50]
    other = fairness.ShuffleCommitment(tuple(swapped), commit.salts)
    assert other.commitment != commit.commitment
    with pytest.raises(ValueError):
        fairness.ShuffleCommitment.create(deck[:51])


@pytest.mark.parametrize("code", ["PP", "NT", "PO/8", "F7S", "FR", "F5D", "BB"])
@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_an_honest_history_verifies_for_every_viewer(code: str, viewer: int | None) -> None:
    state, commit = _played(code, seed=11)
    text = _history(state, commit, viewer)
    result = fairness.verify_phh(text)
    assert result.ok, result.message


def test_folded_cards_stay_sealed() -> None:
    state, commit = _played("NT", seed=12)
    folded = [i for i, p in enumerate(state.view_for(None)["players"]) if p["folded"]]
    assert folded
    text = _history(state, commit, viewer=None)
    fields = tomllib.loads(text)
    opened = {fairness.Revealed.parse(r).card for r in fields[fairness.REVEAL_FIELD]}
    for seat in folded:
        hidden = set(state.view_for(seat)["players"][seat]["cards"])
        assert hidden and not any(str(c) in hidden for c in opened)
        named = {str(c) for c in fairness._cards_in_history(fields["actions"])}
        assert not (named & hidden)


def test_tampering_is_caught() -> None:
    state, commit = _played("PP", seed=13)
    text = _history(state, commit)
    fields = tomllib.loads(text)
    reveal = fields[fairness.REVEAL_FIELD]
    # A wrong salt on one opened card.
    pos, card, salt = reveal[0].split(":")
    bad = text.replace(reveal[0], f"{pos}:{card}:{'0' * 32}")
    assert not fairness.verify_phh(bad).ok
    # A deck the hand was not dealt from: another commitment with consistent leaves.
    other_deck = list(commit.deck)
    other_deck[0], other_deck[1] = other_deck[1], other_deck[0]
    other = fairness.ShuffleCommitment(tuple(other_deck), commit.salts)
    plain = notation.to_phh(state, hide_unshown=True)
    shown = fairness._cards_in_history(tomllib.loads(plain)["actions"])
    where = {c: i for i, c in enumerate(other.deck)}
    fields2 = {
        fairness.COMMITMENT_FIELD: other.commitment,
        fairness.LEAVES_FIELD: list(other.leaves),
        fairness.REVEAL_FIELD: [r.to_text() for r in other.reveal(where[c] for c in shown)],
    }
    result = fairness.verify_phh(notation.to_phh(state, hide_unshown=True, fields=fields2))
    assert result.commitment_ok and not result.deals_ok
    # A card dealt in the history whose place was never opened.
    fields3 = fairness.public_fields(commit, list(shown)[1:])
    assert not fairness.verify_phh(notation.to_phh(state, hide_unshown=True, fields=fields3)).ok


def test_cli_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state, commit = _played("PP", seed=14)
    good = tmp_path / "good.phh"
    good.write_text(_history(state, commit), encoding="utf-8")
    assert main(["verify", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    fields = tomllib.loads(good.read_text())
    first = fields[fairness.REVEAL_FIELD][0]
    bad = tmp_path / "bad.phh"
    bad.write_text(good.read_text().replace(first, first[:-1] + ("0" if first[-1] != "0" else "1")), encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out)["commitment"] is False
    plain = tmp_path / "plain.phh"
    plain.write_text(notation.to_phh(state), encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "rules_engine", "verify", str(plain)], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 2 and "commitment" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    res = subprocess.run([sys.executable, "-m", "rules_engine", "verify", str(tmp_path / "missing.phh")], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 2 and "cannot read" in res.stderr

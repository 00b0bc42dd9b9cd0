"""Hand histories (PHH) for Baseball, variant code BB: write, read, replay, refuse, the CLI."""

from __future__ import annotations

import json
import random
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from rules_engine import cli
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, RulesError
from rules_engine.fairness import ShuffleCommitment, public_fields, verify_phh
from rules_engine.games import Action
from rules_engine.games.baseball import Baseball, BaseballState
from rules_engine.notation import BaseballNotation, HistoryError, read_phh, replay_phh, to_phh

ROOT = Path(__file__).resolve().parents[2]


def doc_example() -> str:
    doc = (ROOT / "docs" / "hand-histories.md").read_text(encoding="utf-8")
    section = doc.split("## Baseball (`BB`)", 1)[1]
    return section.split("```toml\n", 1)[1].split("```", 1)[0]


def replay(text: str) -> BaseballState:
    state = replay_phh(text)
    assert isinstance(state, BaseballState)
    return state


def random_hand(seed: int, stop: int | None = None) -> BaseballState:
    """A random hand (random balances, dealer, actions, timeouts), possibly stopped early."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    stacks = [Fraction(rng.randint(-30, 60), rng.choice((1, 1, 2, 3))) for _ in range(n)]
    state = Baseball.start(
        Baseball.setup_for_table(stacks=stacks, button=rng.randrange(n)), rng=rng
    )
    steps = 0
    while not state.is_over and (stop is None or steps < stop):
        steps += 1
        if rng.random() < 0.04:
            state.timeout()
            continue
        assert state.to_act is not None
        legal = state.legal_actions(state.to_act)
        if legal[0].kind == "fold" and rng.random() < 0.8:
            legal = legal[1:]
        state.apply(Action(state.to_act, rng.choice(legal).kind))
    return state


def history(actions: list[str], extra: str = "", stacks: str = "[10, 10, 10]") -> str:
    n = stacks.count(",") + 1
    body = "\n".join(f"  {json.dumps(a)}," for a in actions)
    return (
        f'variant = "BB"\nantes = {[1] * n}\nsmall_bet = 1\nbig_bet = 1\n'
        f"starting_stacks = {stacks}\n{extra}\nactions = [\n{body}\n]\n"
    )


DEAL = ["d dh p1 2c5cKc", "d dh p2 2d5d6d", "d dh p3 2h5h7h"]


def test_the_example_in_the_docs_replays_and_prints_the_same() -> None:
    text = doc_example()
    state = replay(text)
    assert to_phh(state) == text
    result = state.result
    assert result is not None and result.showdown and result.pot == 17
    assert result.payouts == (Fraction(17, 3),) * 3 + (Fraction(0),)
    # p4 (the dealer, seat 3) got the free Kd for the open 4h.
    assert [(str(d.card), d.extra) for d in state.cards_of(3) if d.up] == [
        ("8c", False), ("4h", False), ("Kd", True),
    ]
    fields = tomllib.loads(text)
    assert fields["_exact_finishing_stacks"] == ["32/3", "32/3", "32/3", "8"]


def test_cli_replay_prints_exact_finishing_stacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(doc_example(), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"finishing_stacks": ["32/3", "32/3", "32/3", 8]}
    assert cli.main(["replay", str(path), "--verbose"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["up"][3] == "8c4hKd" and out["pot"] == 17
    assert [h["hand"] for h in out["hands"]] == ["Straight, ace high"] * 3
    bad = tmp_path / "bad.phh"
    bad.write_text(history([*DEAL, "p1 cbr 2"]), encoding="utf-8")
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fixed limit" in err


@pytest.mark.parametrize("seed", range(60))
def test_random_hands_round_trip_whole_hidden_and_partial(seed: int) -> None:
    state = random_hand(seed, stop=None if seed % 3 else seed % 17)
    text = to_phh(state)
    back = replay(text)
    assert back.stacks == state.stacks
    assert back.snapshot()["cards"] == state.snapshot()["cards"]
    assert to_phh(back) == text
    setup, actions = read_phh(text)
    assert Baseball.replay(setup, actions).stacks == state.stacks
    for viewer in (None, *range(state.n)):
        hidden = to_phh(state, hide_unshown=True, viewer=viewer)
        again = replay(hidden)
        assert again.stacks == state.stacks
        if state.result is not None:
            assert again.result is not None and again.result.payouts == state.result.payouts
        shown = set(state.result.shown) if state.result is not None else set()
        for seat in range(state.n):
            if seat == viewer or seat in shown:
                continue
            for d in state.cards_of(seat):
                if not d.up:
                    assert str(d.card) not in hidden.split("actions = [", 1)[1]


def test_players_start_left_of_the_dealer_and_seats_put_them_back() -> None:
    state = Baseball.start(
        Baseball.setup_for_table(stacks=[5, 6, 7], button=1), rng=random.Random(3)
    )
    text = to_phh(state)
    fields = tomllib.loads(text)
    assert BaseballNotation.players_of(1, 3) == (2, 0, 1)
    assert fields["seats"] == [3, 1, 2] and fields["starting_stacks"] == [7, 5, 6]
    back = replay(text)
    assert back.button == 1 and back.stacks == state.stacks


def test_timeouts_travel_as_commentary() -> None:
    text = history([*DEAL, "p1 cc # timeout", "p2 cbr 1", "p3 f # timeout"])
    state = replay(text)
    assert state.breaks == {0, 2}
    out = to_phh(state)
    assert '"p1 cc # timeout"' in out and '"p3 f # timeout"' in out


def test_extra_fields_are_kept_and_the_fair_shuffle_check_works() -> None:
    state = random_hand(5)
    assert state.setup.deck is not None
    commit = ShuffleCommitment.create(state.setup.deck)
    text = to_phh(state, fields=public_fields(commit, state.setup.deck[:52]))
    assert verify_phh(text).ok
    with pytest.raises(ValueError, match="written by the engine"):
        to_phh(state, fields={"variant": "XX"})
    with pytest.raises(TypeError):
        BaseballNotation().write(object(), hide_unshown=False, viewer=None, extra={})


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (history(DEAL, stacks="[10]"), HistoryError, "2 to 6 players"),
        (history(DEAL).replace("antes = [1, 1, 1]", "antes = [0, 0, 0]"), HistoryError, "antes 1"),
        (history(DEAL).replace("small_bet = 1", "small_bet = 2"), HistoryError, "small_bet is 1"),
        (history(DEAL, '_wild_ranks = ["2"]'), HistoryError, "3s and 9s wild"),
        (history(DEAL, '_free_card = "3"'), HistoryError, "open 4"),
        (history(DEAL, "bring_in = 1"), HistoryError, "no blinds and no bring-in"),
        (history(DEAL, '_exact_starting_stacks = ["1/2"]'), HistoryError, "one exact value"),
        (history(DEAL, '_exact_starting_stacks = ["a", "1", "2"]'), HistoryError, "written like"),
        (history(["d dh p1 2c5c??", *DEAL[1:]]), HistoryError, "face up"),
        (history(["d dh p1 2c5c4h", *DEAL[1:]]), HistoryError, "free card, which is missing"),
        (history([*DEAL, "d dh p1 Kd"]), HistoryError, "dealt twice"),
        (history(["d db AhKhQh"]), HistoryError, "no board"),
        (history([*DEAL, "p1 cc", "d dh p1 Qc"]), IllegalAction, "betting before them"),
        (history([*DEAL, "p1 cc", "p2 cc", "p3 cc", "d dh p1 Qc", "p1 cc"]), HistoryError,
         "no 'd dh' line for p2, p3"),
        (history([*DEAL, "p1 cc", "p2 cc", "p3 cc", "p1 cc"]), HistoryError, "'d dh' line is missing"),
        (history([*DEAL, "p1 cbr 2"]), IllegalAction, "fixed limit: p1 may only bet 1"),
        (history([*DEAL, "p2 cc"]), OutOfTurn, "it is p1's turn, not p2's"),
        (history([*DEAL, "p2 cbr 1"]), OutOfTurn, "it is p1's turn, not p2's"),
        (history([*DEAL, "p1 cbr 1", "p2 cbr 2", "p3 cbr 3", "p1 cbr 4", "p2 cbr 5"]),
         IllegalAction, "may not bet or raise now"),
        (history([*DEAL, "p1 f"]), IllegalAction, "nothing to fold to"),
        (history([*DEAL, "p1 pb"]), IllegalAction, "no bring-in"),
        (history([*DEAL, "p1 xx"]), HistoryError, "unknown action"),
        (history([*DEAL, "p1 cc 3"]), HistoryError, "takes no amount"),
        (history([*DEAL, "p1 cbr x"]), HistoryError, "whole number"),
        (history([*DEAL, "p1 sm -"]), IllegalAction, "showdown"),
        (history([*DEAL, "p1 cbr 1", "p2 f", "p3 cc", "d dh p1 Qc", "d dh p2 Qd", "d dh p3 Qh"]),
         IllegalAction, "p2 has folded"),
        (history([*DEAL, "p1 cc", "p2 cc", "p3 cc", "d dh p1 Qc", "d dh p3 Qh"]),
         IllegalAction, "the deal gives p3"),
        (history(DEAL, "finishing_stacks = [9, 9, 8]"), IllegalAction, "finishing_stacks say"),
        (history(DEAL, "seats = [1, 1, 2]"), HistoryError, "seats must be different"),
        (history(DEAL, "seats = [3, 2, 1]"), HistoryError, "round the table"),
        (history(DEAL, '_table_speed = "warp"'), HistoryError, "slow, medium or fast"),
        (history(DEAL, "_public = 1"), HistoryError, "true or false"),
        (history(DEAL, stacks="[10, 10.5, 10]"), HistoryError, "whole numbers"),
    ],
)
def test_malformed_or_illegal_histories_are_refused_naming_the_problem(
    text: str, error: type[RulesError], message: str
) -> None:
    with pytest.raises(error, match=message):
        replay_phh(text)


def test_history_errors_are_malformed_actions_and_a_shown_hand_must_be_its_own() -> None:
    assert issubclass(HistoryError, MalformedAction)
    text = doc_example()
    assert replay(text.replace('"p1 sm -"', '"p1 sm AsKhQdJcTs2h5d"')).is_over
    with pytest.raises(IllegalAction, match="does not hold"):
        replay_phh(text.replace('"p1 sm -"', '"p1 sm AsKhQdJcTs2h6d"'))
    with pytest.raises(IllegalAction, match="showdown"):
        replay_phh(text.replace('"p1 sm -"', '"p4 sm -"'))


def test_fractional_balances_are_written_exactly_and_read_back() -> None:
    text = history(DEAL, '_exact_starting_stacks = ["5/3", "-2", "0"]', stacks="[1.67, -2, 0]")
    state = replay(text)
    assert state.start_stacks == (Fraction(5, 3), Fraction(-2), Fraction(0))
    out = tomllib.loads(to_phh(state))
    assert out["_exact_starting_stacks"] == ["5/3", "-2", "0"]
    assert out["starting_stacks"][1:] == [-2, 0]
    assert out["_exact_finishing_stacks"] == ["2/3", "-3", "-1"]

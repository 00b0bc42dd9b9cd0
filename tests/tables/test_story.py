"""The hand page tells a finished hand street by street (``tables.story``): the engine's own
account of each bet, in the reader's language, with no card the hand did not show."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from rules_engine.games import get_variant, variant_codes
from rules_engine.notation import replay_phh
from tables.story import Section, hand_story
from tests.rules_engine.conftest import random_hand as random_pp_hand
from tests.rules_engine.test_flop_games import random_hand as random_classic_hand
from tests.rules_engine.test_phh_baseball import random_hand as random_bb_hand
from tests.tables.helpers import play_passively, seated_table

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hand-histories.md"
CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def _example(variant: str) -> str:
    """The worked example of ``variant`` in docs/hand-histories.md."""
    blocks = re.findall(r"```toml\n(.*?)```", DOCS.read_text(), flags=re.S)
    return next(b for b in blocks if f'variant = "{variant}"' in b)


def _text(story: list[Section]) -> list[str]:
    out = []
    for part in story:
        boards = " | ".join(" ".join(c["pic"].text for c in b) for b in part.boards)
        out.append(f"## {part.title}" + (f" [{boards}]" if boards else ""))
        if part.dealt:
            out.append("up: " + ", ".join(f"{d['name']} " + " ".join(c["pic"].text for c in d["cards"]) for d in part.dealt))
        for line in part.lines:
            cards = " ".join(c["pic"].text for c in line.cards + [c for g in line.groups for c in g])
            out.append(line.text + (f" {cards}" if cards else ""))
    return [t.replace("\u2068", "").replace("\u2069", "") for t in out]


def _phh_names(state: Any, names: list[str]) -> list[str]:
    """Engine seats named in PHH order: p1 is the first seat left of the button."""
    n = len(state.setup.stacks)
    out = [""] * n
    for k, name in enumerate(names):
        out[(state.setup.button + 1 + k) % n] = name
    return out


def _names(state: Any) -> list[str]:
    return [f"P{i + 1}" for i in range(len(state.setup.stacks))]


def test_a_holdem_hand_told_street_by_street() -> None:
    state = replay_phh(_example("NT"))
    with translation.override("en"):
        told = _text(hand_story(game="NT", state=state, names=_phh_names(state, ["Ann", "Bo", "Cy"])))
    assert told == [
        "## Before the flop",
        "Ann: blind 5", "Bo: blind 10", "Cy: raise to 30", "Ann: fold", "Bo: call 20",
        "## Flop [Ks 7h 2c]",
        "Bo: check", "Cy: bet 40", "Bo: call 40",
        "## Turn [9c]",
        "Bo: check", "Cy: check",
        "## River [3d]",
        "Bo: bet 100", "Cy: call 100",
        "## Showdown",
        "Bo shows Kc Kh", "Cy shows 9s 9d",
        "Bo wins 345",
    ]


def test_a_patchpatch_hand_has_three_boards_and_each_boards_winner() -> None:
    state = replay_phh(_example("PP"))
    with translation.override("en"):
        told = _text(hand_story(game="PP", state=state, names=_phh_names(state, ["Ann", "Bo", "Cy"])))
    assert told[:7] == [
        "## Before the flop", "Ann: blind 5", "Bo: blind 10", "Cy: call 10", "Ann: call 5", "Bo: check",
        "## Flops [Jh 9c 4c | 3c 4h 8c | 4s 6d 8h]",
    ]
    # Two arrangements ran out of time; p1 bet the pot on the flops.
    assert "Bo: the clock ran out" in told and "Cy: the clock ran out" in told
    assert told[told.index("Ann: bet 30") + 1:told.index("Ann: bet 30") + 3] == ["Bo: call 30", "Cy: fold"]
    assert "## Turns [5d | Kh | 2c]" in told and "## Rivers [5s | Jc | 3h]" in told
    wins = [t for t in told if " wins " in t]
    assert wins == ["Ann wins 30 (board 1)", "Bo wins 30 (board 2)", "Bo wins 30 (board 3)"]
    # Each shown hand in its three fours, board by board, as arranged (p1 put its aces on board 1).
    with translation.override("en"):
        showdown = hand_story(game="PP", state=state, names=_phh_names(state, ["Ann", "Bo", "Cy"]))[-1]
    ann = showdown.lines[0]
    assert [[c["pic"].text for c in g] for g in ann.groups] == [["Ac", "Ah", "9s", "9h"], ["2s", "2d", "2h", "Td"],
                                                                ["7h", "7c", "9d", "As"]]


def test_stud_streets_up_cards_and_the_bring_in() -> None:
    state = replay_phh(_example("F7S"))
    with translation.override("en"):
        told = _text(hand_story(game="F7S", state=state, names=_phh_names(state, ["Ann", "Bo", "Cy"])))
    third = told.index("## Third street")
    assert told[1:third] == ["Ann: ante 2", "Bo: ante 2", "Cy: ante 2"]
    assert any(t.endswith(": bring-in 5") for t in told) and any(": complete to 10" in t for t in told)
    streets = [t for t in told if t.endswith(" street")]
    assert streets[0] == "## Third street" and streets == sorted(streets, key=told.index)
    # Up cards only: every card the story names was face up or shown.
    public = _public_cards(state)
    assert {c for t in told for c in CARD.findall(t)} <= public


def _public_cards(state: Any) -> set[str]:
    """Every card the finished hand shows to a spectator, from the engine's own public view."""
    return set(CARD.findall(json.dumps(state.view_for(None))))


def _random_finished(code: str, seed: int) -> Any:
    if code == "PP":
        return random_pp_hand(random.Random(seed))
    if code == "BB":
        return random_bb_hand(seed)
    return random_classic_hand(code, random.Random(seed))


@pytest.mark.parametrize("code", variant_codes())
def test_no_story_names_a_card_the_hand_did_not_show(code: str) -> None:
    for seed in range(40):
        state = _random_finished(code, seed)
        for lang in ("en", "he", "ru"):
            with translation.override(lang):
                story = hand_story(game=code, state=state, names=_names(state))
            named = {c["pic"].text for part in story for b in part.boards for c in b}
            named |= {c["pic"].text for part in story for line in part.lines for c in line.cards}
            named |= {c["pic"].text for part in story for line in part.lines for g in line.groups for c in g}
            named |= {c["pic"].text for part in story for d in part.dealt for c in d["cards"]}
            named |= {c for part in story for line in part.lines for c in CARD.findall(line.text)}
            assert named <= _public_cards(state), f"{code} seed {seed}: {sorted(named - _public_cards(state))}"


@pytest.mark.parametrize("code", [c for c in variant_codes() if c != "BB"])
def test_the_story_accounts_for_every_chip_won(code: str) -> None:
    """What the win lines add up to is what the hand paid out; an all-in is marked on the action
    that put a player's last chip in."""
    for seed in range(40):
        state = _random_finished(code, seed)
        with translation.override("en"):
            story = hand_story(game=code, state=state, names=_names(state))
        lines = [line.text.replace("\u2068", "").replace("\u2069", "") for part in story for line in part.lines]
        won = sum(int(m.group(1).replace(",", "")) for t in lines if (m := re.search(r" wins ([\d,]+)", t)))
        assert won == sum(state.result.payouts), f"{code} seed {seed}"
        all_ins = {t.split(":")[0] for t in lines if t.endswith("(all-in)")}
        assert len(all_ins) == sum(t.endswith("(all-in)") for t in lines), f"{code} seed {seed}: all-in twice"
        broke = {f"P{i + 1}" for i, s in enumerate(state.behind) if s == 0}
        # An all-in that was not called in full gets the rest back, as the story says.
        refunded = {t.rsplit(" ", 1)[1] for t in lines if " not called, back to " in t}
        assert all_ins <= broke | refunded, f"{code} seed {seed}"
        assert all_ins >= broke, f"{code} seed {seed}"


def test_every_game_tells_its_hands_in_hebrew_and_russian() -> None:
    for code in variant_codes():
        state = _random_finished(code, 7)
        for lang, word in (("he", "חשיפה"), ("ru", "Вскрытие")):
            with translation.override(lang):
                text = "\n".join(_text(hand_story(game=code, state=state, names=_names(state))))
            assert re.search("[a-z]{4,}", text.replace("P1", "")) is None, f"{code} {lang}: untranslated: {text}"
            if state.result is not None and getattr(state.result, "showdown", False):
                assert word in text, f"{code} {lang}"


@pytest.mark.django_db
@pytest.mark.parametrize("lang,title", [("en", "How the hand went"), ("he", "מהלך היד"), ("ru", "Ход раздачи")])
def test_the_hand_page_shows_the_story(lang: str, title: str) -> None:
    table, users = seated_table(n=2, buy_in=500)
    hand = play_passively(table)
    page = Client().get(f"/tables/{table.id}/hands/{hand.number}/", HTTP_ACCEPT_LANGUAGE=lang)
    html = page.content.decode()
    assert page.status_code == 200 and title in html
    assert html.count('class="story__title"') >= 4  # before the flop, flops, turns, rivers
    assert get_variant(table.game).code == "PP"
    # The flops, turns and rivers: each board's cards numbered 1, 2, 3 (found by an audit: on a
    # phone the three flops wrapped and nothing said which board was which).
    boards = re.findall(r'<div class="story__boards">(.*?)</div>', html, re.S)
    assert len(boards) == 3
    for street in boards:
        assert re.findall(r'class="story__groupno muted" title="[^"]+">(\d)</span>', street) == ["1", "2", "3"]


@pytest.mark.django_db
def test_a_player_sees_their_own_cards_on_the_hand_page_and_nobody_else_does() -> None:
    from tables.selectors import _engine_index_of
    from tests.tables.helpers import current_state

    table, users = seated_table(n=2, buy_in=500)
    hand, state = current_state(table)
    number = hand.number
    # The first to act folds: nothing is shown at the end.
    from tables import services
    from tests.tables.helpers import user_for_index

    actor = state.actors()[0]
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "fold", "version": table.version})
    hand, state = current_state(table)
    assert hand.number == number and state.is_over and not state.result.shown
    folded = user_for_index(hand, actor)
    other = next(u for u in users if u.pk != folded.pk)
    url = f"/tables/{table.id}/hands/{number}/"
    theirs = [str(c) for c in state.hand_of(_engine_index_of(hand, folded))]
    client = Client()
    client.force_login(folded)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "story__mine" in html and all(f'aria-label="{_label(c)}"' in html for c in theirs)
    client.force_login(other)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert not any(f'aria-label="{_label(c)}"' in html for c in theirs)
    assert not any(f'aria-label="{_label(c)}"' in Client().get(url).content.decode() for c in theirs)


def _label(card: str) -> str:
    from html import escape

    from rules_engine.cards import Card
    from tables.handreader import card_name

    with translation.override("en"):
        return escape(str(card_name(Card.parse(card))))


@pytest.mark.django_db
@pytest.mark.parametrize("game,family", [("NT", "flop"), ("F7S", "stud"), ("F5D", "draw"), ("PO/8", "flop")])
def test_a_classic_hand_page_shows_its_board_shown_hands_and_winners_and_nothing_hidden(game: str, family: str) -> None:
    from tests.tables.test_hidden_cards import cards_in

    table, _users = seated_table(n=3, buy_in=500, game=game)
    hand = play_passively(table)
    state = get_variant(game).from_json(hand.state)
    html = Client().get(f"/tables/{table.id}/hands/{hand.number}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    summary = html.split('class="story"')[0]
    assert f"family-{family}" in summary and 'class="win"' in summary
    # A winner's line says "wins" and what was taken, as the table does, not a "+" that reads as
    # the net the seats show (found by an audit).
    wins = re.findall(r'<li class="win">(.*?)</li>', summary, re.S)
    assert wins and all(" wins <bdi dir=\"ltr\">" in w and "<bdi dir=\"ltr\">+" not in w for w in wins), wins
    assert ("board--single" in summary) == (family == "flop")
    shown = len(state.result.shown)
    assert shown >= 2  # checked and called down: everyone shows
    if family in ("flop", "draw"):
        assert summary.count('class="seat__hole"') == shown
    else:
        assert summary.count('class="seat__stud"') == 3
    assert cards_in(html, "en") <= _public_cards(state)


@pytest.mark.django_db
def test_the_hand_page_opens_with_each_players_stack_at_the_start() -> None:
    import datetime as dt

    from tables import services

    table, users = seated_table(n=3, buy_in=500, game="NT")
    first = play_passively(table)
    services.table_expire(table_id=table.id, now=first.deadline + dt.timedelta(seconds=1))
    second = play_passively(table)  # its stacks are the first hand's results
    second.refresh_from_db()
    html = Client().get(f"/tables/{table.id}/hands/{second.number}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    line = re.search(r'<p class="story__stacks">(.*?)</p>', html, re.S)
    assert line and "Stacks at the start" in line.group(1)
    shown = re.findall(r'<bdi>([^<]+)</bdi> <bdi dir="ltr">([\d,]+)</bdi>', line.group(1))
    starts = [start for _seat, _user, start in second.players]
    assert [int(s.replace(",", "")) for _name, s in shown] == starts
    # These are the first hand's results, not the buy-ins (equal only when its pot was split
    # three ways, about one deal in a hundred).
    first.refresh_from_db()
    after_first = {user: 500 + net for (_seat, user, _start), net in zip(first.players, first.result["net"], strict=True)}
    assert {user: start for _seat, user, start in second.players} == after_first
    # Baseball plays for units: its page has no such line.
    bb, _ = seated_table(n=3, game="BB")
    hand = play_passively(bb)
    page = Client().get(f"/tables/{bb.id}/hands/{hand.number}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "story__stacks" not in page

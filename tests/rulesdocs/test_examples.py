"""The numbers the rules pages show are the engine's: read them off the pages, recompute them."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules_engine.betting import PotLimit, Wager
from rules_engine.games import Action, HandSetup, get_variant
from rulesdocs import examples
from tests.rulesdocs.helpers import LANGS, get, plain_text, with_attr

# GAMES.md section 2, test vectors P1-P7 (blinds 5-10): pot before acting, call, bet, raise-to.
GAMES_MD = {
    "P1": (15, 10, None, 35),
    "P2": (50, 30, None, 115),
    "P3": (15, 5, None, 30),
    "P4": (30, None, None, 40),
    "P5": (60, None, 60, None),
    "P6": (120, 60, None, 240),
    "P7": (360, 180, None, 780),
}


def _engine_rows() -> dict[str, tuple[int, int | None, int | None, int | None]]:
    """The same seven situations, built here from scratch with the Patch-Patch engine."""
    pp = get_variant("PP")

    def start(players: int):
        setup = HandSetup(stacks=(1000,) * players, button=0, small_blind=5, big_blind=10)
        return pp.start(setup, random.Random(7))

    def act(state, kind: str) -> None:
        state.apply(Action(state.to_act, kind))

    def row(state):
        legal = {a.kind: a.amount for a in state.legal_actions(state.to_act)}
        return (state.pot, legal.get("call"), legal.get("bet_pot"), legal.get("raise_pot"))

    out = {}
    s = start(3)
    out["P1"] = row(s)
    act(s, "raise_pot")
    out["P2"] = row(s)
    out["P3"] = row(start(2))
    s = start(3)
    act(s, "call")
    act(s, "call")
    out["P4"] = row(s)
    s = start(2)
    act(s, "raise_pot")
    act(s, "call")
    for seat in s.actors():
        s.apply(Action(seat, "done"))
    out["P5"] = row(s)
    act(s, "bet_pot")
    out["P6"] = row(s)
    act(s, "raise_pot")
    out["P7"] = row(s)
    return out


def _num(text: str) -> int | None:
    return int(text) if text else None


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_pot_only_table_shows_what_the_engine_computes(client, lang: str) -> None:
    html = get(client, "patchpatch", lang).content.decode()
    rows = {a["data-example"]: a for a in with_attr(html, "data-example") if a["data-example"].startswith("P")}
    shown = {
        k: (int(a["data-pot"]), _num(a["data-call"]), _num(a["data-bet"]), _num(a["data-raise-to"]))
        for k, a in rows.items()
    }
    assert shown == _engine_rows() == GAMES_MD


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["fold, call 10, or raise to 35", "check, or raise pot: 30 more, to 40", "call 180 more, or raise to 780"]),
        ("he", ["פולד · השוואה 10 · העלאה ל-35", "צ'ק · העלאה בגודל הקופה: עוד 30, ל-40", "השוואה עוד 180 · העלאה ל-780"]),
        ("ru", ["пас, колл 10 или рейз до 35", "чек или рейз в банк: ещё 30, до 40", "колл: доплатить 180 или рейз до 780"]),
    ],
)
def test_pot_only_options_read_naturally(client, lang: str, words: list[str]) -> None:
    text = plain_text(get(client, "patchpatch", lang).content.decode(), sep="")
    for w in words:
        assert w in text, w


@pytest.mark.django_db
def test_the_three_boards_example(client) -> None:
    html = get(client, "patchpatch", "en").content.decode()
    assert 'data-payouts="150,150"' in html
    boards = {a["data-board"]: a["data-share"] for a in with_attr(html, "data-share")}
    assert boards == {"1": "100", "2": "100", "3": "100"}
    players = [(a["data-seat"], a["data-category"], a["data-wins"]) for a in with_attr(html, "data-wins")]
    assert players == [
        ("0", "flush", "100"), ("1", "three_of_a_kind", "0"),
        ("0", "straight", "50"), ("1", "straight", "50"),
        ("0", "three_of_a_kind", "0"), ("1", "flush", "100"),
    ]
    # S1 and the engine's own pot splitting.
    assert "33, 33 and 34" in plain_text(html)
    showdown = examples.split_board_example()
    assert showdown.payouts == (150, 150) and showdown.net == (0, 0) and showdown.scoop is None


def test_arranging_improves_every_board() -> None:
    a = examples.arrangement_example()
    assert [h.category for h in a.dealt] == ["one_pair", "two_pair", "high_card"]
    assert [h.category for h in a.arranged] == ["flush", "full_house", "straight"]


def test_side_pots_split_in_thirds() -> None:
    sp = examples.side_pot_example()
    assert sp.pots == ((300, (0, 1, 2), (100, 100, 100)), (400, (1, 2), (133, 133, 134)))


def test_rake_examples_follow_the_engine_constants() -> None:
    rake = {(r.stakes, r.pot): r.rake for r in examples.rake_examples()}
    assert rake == {((10, 20), 600): 18, ((10, 20), 3000): 60, ((5, 10), 3000): 0}


def test_pot_limit_800() -> None:
    """GAMES.md section 3: pot 200, a bet of 150 and a call: the third player may raise to 800."""
    r = examples.pot_limit_max_raise(200, [150, 150])
    assert (r.call, r.pot_after_call, r.raise_to) == (150, 650, 800)
    # The engine's pot-limit structure agrees.
    wager = Wager(pot=500, level=150, bet=0, stack=10_000, last_raise=150, raises=1, street=1, big_blind=10)
    assert PotLimit().raise_range(wager)[1] == r.raise_to
    # A player who already has chips in: pot 100, bets 20 (own) and 80 facing.
    r2 = examples.pot_limit_max_raise(100, [80], own_bet=20)
    assert (r2.call, r2.pot_after_call, r2.raise_to) == (60, 260, 340)
    assert examples.no_limit_min_raise(100, 100) == 200


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_holdem_page_shows_the_800(client, lang: str) -> None:
    html = get(client, "holdem", lang).content.decode()
    assert with_attr(html, "data-example", "pot-limit")[0]["data-raise-to"] == "800"
    assert "200 + 150 + 150 + 150 = 650" in html and "150 + 650 = 800" in html
    assert with_attr(html, "data-example", "min-raise")


@pytest.mark.django_db
def test_baseball_examples(client) -> None:
    facts = examples.baseball_facts()
    assert facts.split == (5, 3, Fraction(5, 3))
    assert facts.five_eights.category == "five_of_a_kind" and facts.five_beats_royal
    for lang, fraction in (("en", "1\u00a02/3"), ("he", "1\u00a02/3"), ("ru", "1\u00a02/3")):
        html = get(client, "baseball", lang).content.decode()
        assert fraction in html, lang
        b2 = with_attr(html, "data-example", "B2")[0]
        assert b2["data-category"] == "five_of_a_kind" and b2["data-beats-royal"] == "yes"


def test_traps_read_by_the_engine() -> None:
    traps = examples.traps()
    assert {k: (t.category, t.misread) for k, t in traps.items()} == {
        "flush": ("high_card", "flush"),
        "quads": ("three_of_a_kind", "four_of_a_kind"),
        "set": ("three_of_a_kind", "three_of_a_kind"),
        "trips-in-hand": ("one_pair", "three_of_a_kind"),
        "straight": ("one_pair", "straight"),
    }


@pytest.mark.django_db
def test_ten_hands_highlight_the_making_cards(client) -> None:
    html = get(client, "rankings", "en").content.decode()
    kickers = {
        "royal_flush": 0, "straight_flush": 0, "four_of_a_kind": 1, "full_house": 0, "flush": 0,
        "straight": 0, "three_of_a_kind": 2, "two_pair": 1, "one_pair": 3, "high_card": 4,
    }
    section = html[html.index('id="hands"') : html.index('id="ties"')]
    items = section.split("<li data-category=")[1:]
    assert len(items) == 10
    for item in items:
        category = item.split('"')[1]
        assert item.count("card--kicker") == kickers[category], category


@pytest.mark.django_db
def test_hi_lo_and_razz_examples(client) -> None:
    hilo = examples.hilo_example()
    assert hilo.high_category == "flush" and hilo.low and hilo.low.name == "7-5-4-2-A"
    assert {c.card for c in hilo.high.cards}.isdisjoint({c.card for c in hilo.low.cards if c.card.rank in (14, 2)})
    lows = [(p.better.name, p.worse.name) for p in examples.razz_examples()]
    assert lows == [("8-6-4-3-2", "8-7-3-2-A"), ("6-5-4-3-2", "7-5-4-3-A")]
    html = get(client, "omaha", "ru").content.decode()
    assert with_attr(html, "data-example", "hi-lo")[0]["data-low"] == "7-5-4-2-A"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_clocks_and_rake_come_from_the_engine(client, lang: str) -> None:
    from rules_engine.games import patchpatch as pp

    text = plain_text(get(client, "patchpatch", lang).content.decode())
    decimal = "," if lang == "ru" else "."
    assert f"37{decimal}5" in text and "180" in text and "100" in text
    assert pp.DECISION_SECONDS == {"slow": 37.5, "medium": 25.0, "fast": 12.0}
    assert pp.ARRANGE_SECONDS == {"slow": 180.0, "medium": 120.0, "fast": 100.0}
    assert (pp.RAKE_PERCENT, pp.RAKE_CAP_BB, pp.RAKE_FROM_BIG_BLIND) == (3, 3, 20)

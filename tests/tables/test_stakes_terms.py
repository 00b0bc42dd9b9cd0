"""Stakes in each game's own terms: the new-table forms, the lobby, the club page and the table
header say "ante 2, bring-in 5, bets 10/20" for stud at 5-10, read from the setup the table deals."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

from rules_engine.games import get_variant
from tables import services
from tables.stakes import stakes_terms
from tests.club.helpers import club_with_people
from tests.tables.helpers import current_state, make_user, seated_table

pytestmark = pytest.mark.django_db

STUD = ("F7S", "FR", "F7S/8", "F5S")


def _client(user=None, lang: str = "en") -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    c.cookies["lang"] = lang
    return c


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", "", html)))


@pytest.mark.parametrize(
    ("game", "blinds", "expected"),
    [
        ("NT", (5, 10), "blinds 5/10"),
        ("PP", (25, 50), "blinds 25/50"),
        ("P5D", (5, 10), "blinds 5/10"),
        ("FT", (5, 10), "blinds 5/10, bets 10/20"),
        ("F5D", (50, 100), "blinds 50/100, bets 100/200"),
        ("F7S", (5, 10), "ante 2, bring-in 5, bets 10/20"),
        ("FR", (500, 1000), "ante 200, bring-in 500, bets 1000/2000"),
        ("F5S", (3, 7), "ante 1, bring-in 3, bets 7/14"),
        ("BB", (5, 10), "ante 1, bet 1, play units"),
    ],
)
def test_terms_per_game(game: str, blinds: tuple[int, int], expected: str) -> None:
    assert stakes_terms(game, *blinds).text() == expected


@pytest.mark.parametrize("game", STUD)
def test_stud_terms_are_what_the_engine_sets_up(game: str) -> None:
    setup = get_variant(game).setup_for_table(stacks=[500, 500], button=0, small_blind=5, big_blind=10)
    terms = stakes_terms(game, 5, 10)
    assert (terms.kind, terms.ante, terms.bring_in, terms.small_bet, terms.big_bet) == (
        "stud", setup.ante, setup.bring_in, setup.small_bet, setup.big_bet)


def test_a_stud_table_deals_what_its_header_and_the_lobby_say() -> None:
    table, users = seated_table(n=2, buy_in=500, game="F7S", name="Stud night")
    _hand, state = current_state(table)
    terms = stakes_terms("F7S", table.small_blind, table.big_blind)
    assert (state.setup.ante, state.setup.bring_in, state.setup.small_bet, state.setup.big_bet) == (
        terms.ante, terms.bring_in, terms.small_bet, terms.big_bet) == (2, 5, 10, 20)

    html = _client(users[0]).get(reverse("table", args=[table.id])).content.decode()
    page = _text(html)
    # The game, a link to its rules, and its stakes in its own terms.
    assert "Seven-card stud (rules) · ante 2, bring-in 5, bets 10/20 ·" in page
    assert 'href="/rules/stud7/" data-table-rules' in html
    lobby = _text(_client().get(reverse("lobby")).content.decode())
    assert "Stud night Seven-card stud ante 2, bring-in 5, bets 10/20" in lobby
    assert "blinds" not in lobby


def test_lobby_shows_blinds_for_holdem_and_bets_for_limit() -> None:
    services.table_create(creator=None, name="NL felt", game="NT", small_blind=10, big_blind=20, max_seats=6)
    services.table_create(creator=None, name="Limit felt", game="FT", small_blind=10, big_blind=20, max_seats=6)
    lobby = _text(_client().get(reverse("lobby")).content.decode())
    assert "NL felt No-limit Hold'em blinds 10/20 " in lobby
    assert "Limit felt Limit Hold'em blinds 10/20, bets 20/40 " in lobby


def test_new_table_form_says_what_the_stakes_mean_in_each_game() -> None:
    res = _client(make_user("nora")).get(reverse("table_new"))
    body = _text(res.content.decode())
    assert "small blind / big blind" not in body.lower()
    # The flagship is chosen, at the ladder's first rung; the list covers every game (no JavaScript).
    assert "Patch-Patch 5/10: blinds 5/10" in body
    assert "What 5/10 means in each game" in body
    assert "Seven-card stud, Razz, Stud Hi-Lo, Five-card stud: ante 2, bring-in 5, bets 10/20" in body
    assert "Limit Hold'em, Limit Omaha, Omaha Hi-Lo (limit), Five-card draw (limit): blinds 5/10, bets 10/20" in body
    assert "Baseball: ante 1, bet 1, play units" in body
    # htmx asks for the line again when the form changes.
    assert f'hx-get="{reverse("stakes_help")}"' in res.content.decode()


def test_form_sent_back_keeps_the_chosen_game_and_stakes() -> None:
    res = _client(make_user("nora")).post(reverse("table_new"), {"name": "", "game": "FR", "stakes": "25-50"})
    assert res.status_code == 200
    assert "Razz 25/50: ante 10, bring-in 25, bets 50/100" in _text(res.content.decode())


def test_stakes_help_answers_for_the_game_and_stakes_chosen() -> None:
    url = reverse("stakes_help")
    body = _text(_client().get(url, {"game": "F7S", "stakes": "50-100"}).content.decode())
    assert "Seven-card stud 50/100: ante 20, bring-in 50, bets 100/200" in body
    # A private table's own blinds win over the ladder, as in the form.
    body = _text(_client().get(url, {"game": "F5S", "stakes": "5-10", "small_blind": "3", "big_blind": "7"}).content.decode())
    assert "Five-card stud 3/7: ante 1, bring-in 3, bets 7/14" in body
    for junk in ({"game": "<b>", "stakes": "x-y"}, {"small_blind": "-5", "big_blind": "10" * 30}, {}):
        res = _client().get(url, junk)
        assert res.status_code == 200
        assert "Patch-Patch 5/10: blinds 5/10" in _text(res.content.decode())


def test_club_form_and_club_page_speak_the_game_s_terms() -> None:
    p = club_with_people("st")
    form = _text(_client(p.host).get(reverse("club_table_new", args=[p.club.pk])).content.decode())
    assert "What 5/10 means in each game" in form
    assert "Stud Hi-Lo" in form and "ante 2, bring-in 5, bets 10/20" in form
    services.table_create(creator=p.host, club=p.club, name="Razz Thursday", game="FR", small_blind=3, big_blind=7)
    home = _text(_client(p.member).get(reverse("club_home", args=[p.club.pk])).content.decode())
    assert "Razz Thursday Razz ante 1, bring-in 3, bets 7/14" in home


def test_hebrew_and_russian_forms() -> None:
    user = make_user("natan")
    he = _text(_client(user, "he").get(reverse("stakes_help"), {"game": "F7S", "stakes": "5-10"}).content.decode())
    assert "אנטה 2, ברינג-אין 5, הימורים 10/20" in he
    ru = _text(_client(user, "ru").get(reverse("table_new")).content.decode())
    assert "анте 2, бринг-ин 5, ставки 10/20" in ru and "Что значит 5/10 в каждой игре" in ru


def test_the_new_table_forms_say_what_each_speed_gives() -> None:
    """Found by an audit: "Slow / Medium / Fast" said nothing a newcomer could weigh."""
    from django.utils import translation

    from tables.services import speed_help

    with translation.override("en"):
        text = speed_help()
    assert text == ("Time to act: slow 37.5 s, medium 25 s, fast 12 s; Patch-Patch's arrangement: "
                    "180 s, 120 s, 100 s.")
    with translation.override("ru"):
        assert speed_help().startswith("Время на ход: медленный 37,5 с") and "средний 25 с" in speed_help()
    with translation.override("he"):
        assert "איטי 37.5 שנ׳" in speed_help()

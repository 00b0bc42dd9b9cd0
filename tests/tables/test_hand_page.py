"""The hand reader page, /hand/: full page, htmx partial, errors, languages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.handreader import HandInputError, read_hand

# The page itself reads no table, but base.html may (the signed-in user's name, say).
pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true", "HX-Target": "hand-result"}

OMAHA_FOUR_HEARTS = {"game": "omaha", "hand": "Ah Kc Qd Js", "board": "2h 5h 9h Th 3c"}


def _text(html: str) -> str:
    """The visible words of a page, tags removed and spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _category(html: str) -> list[str]:
    return re.findall(r'data-category="([a-z_]+)"', html)


def test_url_name() -> None:
    assert reverse("hand") == "/hand/"


def test_empty_page_shows_the_form_and_the_help(client) -> None:
    res = client.get("/hand/")
    assert res.status_code == 200
    html = res.content.decode()
    assert '<form class="handform" action="/hand/" method="get"' in html
    assert 'hx-get="/hand/"' in html and 'hx-target="#hand-result"' in html
    assert 'id="hand-result"' in html
    assert "role=\"alert\"" not in html
    # Every game is offered and explained.
    for code in ("holdem", "omaha", "omaha8", "patchpatch", "stud", "stud8", "razz", "draw", "baseball"):
        assert f'value="{code}"' in html
    assert "Four cards in your hand, three to five on the board." in html


def test_holdem_plain_get_shows_the_answer_in_the_full_page(client) -> None:
    """Without JavaScript the form is a plain GET; the answer comes in the whole page."""
    res = client.get("/hand/", {"game": "holdem", "hand": "Ah 8h", "board": "Kh 7h 2c 3h"})
    assert res.status_code == 200
    html = res.content.decode()
    assert html.lstrip().lower().startswith("<!doctype html>")
    assert _category(html)[0] == "flush"
    assert "Flush" in _text(html)
    # The five cards of the flush, as pictures with spoken names, in order.
    best = html.split('aria-label="The five cards of the best hand"')[1].split("</ul>")[0]
    assert re.findall(r'data-card="(\w\w)"', best) == ["Ah", "Kh", "8h", "7h", "3h"]
    assert 'aria-label="ace of hearts"' in best
    assert 'dir="ltr"' in html.split('aria-label="The five cards of the best hand"')[0][-80:]
    # The form keeps what was typed.
    assert 'value="Ah 8h"' in html and 'value="Kh 7h 2c 3h"' in html


def test_holdem_pair_dims_the_kickers(client) -> None:
    res = client.get("/hand/", {"game": "holdem", "hand": "Ks Kd", "board": "2c 7h 9s Jd 4c"})
    html = res.content.decode()
    assert _category(html)[0] == "one_pair"
    best = html.split('aria-label="The five cards of the best hand"')[1].split("</ul>")[0]
    cards = re.findall(r'<li class="card ([^"]*)" data-card="(\w\w)"', best)
    assert [c for _, c in cards] == ["Ks", "Kd", "Jd", "9s", "7h"]
    assert ["card--kicker" in cls for cls, _ in cards] == [False, False, True, True, True]
    assert 'aria-label="jack of diamonds, kicker"' in best


def test_htmx_request_gets_only_the_partial(client) -> None:
    res = client.get("/hand/", {"game": "holdem", "hand": "Ah 8h", "board": "Kh 7h 2c 3h"}, headers=HX)
    assert res.status_code == 200
    html = res.content.decode()
    assert "<html" not in html and "<form" not in html and "<header" not in html
    assert _category(html) == ["flush"]
    assert "HX-Request" in res.headers["Vary"]


def test_htmx_navigation_to_the_page_gets_the_whole_page(client) -> None:
    """A link that swaps the body (no HX-Target) must get the page, not the fragment."""
    res = client.get("/hand/", {**OMAHA_FOUR_HEARTS}, headers={"HX-Request": "true"})
    assert "<form" in res.content.decode()


def test_history_restore_gets_the_whole_page(client) -> None:
    headers = {**HX, "HX-History-Restore-Request": "true"}
    res = client.get("/hand/", OMAHA_FOUR_HEARTS, headers=headers)
    assert "<form" in res.content.decode()


def test_omaha_four_hearts_on_the_board_explains_the_two_plus_three_rule(client) -> None:
    res = client.get("/hand/", OMAHA_FOUR_HEARTS)
    assert res.status_code == 200
    html = res.content.decode()
    text = _text(html)
    # With exactly two from the hand, one heart is not enough: no flush, just ace high.
    assert _category(html)[0] == "high_card"
    assert "Without the two-plus-three rule these cards would make: Flush." in text
    assert "That takes 4 cards from the board, but only three may play." in text
    assert (
        "In Omaha you must use exactly two cards from your hand and three from the board, "
        "so the best you have is: High card." in text
    )
    free = html.split('aria-label="The best five cards without the rule"')[1].split("</ul>")[0]
    assert re.findall(r'data-card="(\w\w)"', free) == ["Ah", "Th", "9h", "5h", "2h"]


def test_omaha_board_of_four_sevens_is_trips(client) -> None:
    res = client.get("/hand/", {"game": "omaha", "hand": "As Kd 4c 2h", "board": "7c 7d 7h 7s Qc"})
    html = res.content.decode()
    assert _category(html)[:1] == ["three_of_a_kind"]
    assert "would make: Four of a kind." in _text(html)


def test_omaha_without_a_difference_says_the_rule_changes_nothing(client) -> None:
    res = client.get("/hand/", {"game": "omaha", "hand": "Ah Kh 2c 3d", "board": "Qh Jh 4h 9s 8c"})
    text = _text(res.content.decode())
    assert "here the rule takes nothing away" in text
    assert "Without the two-plus-three rule" not in text


def test_patchpatch_twelve_cards_three_boards(client) -> None:
    res = client.get(
        "/hand/",
        {
            "game": "patchpatch",
            "hand": "Ah Kc 7c 7d Qs Qd 5c 6c 2s 3s Td Jc",
            "board": "Qh 9h 4h 2h Kd / 8c 9c 4d Ac 3h / 4s 5s 9s 7h 8d",
        },
    )
    html = res.content.decode()
    text = _text(html)
    assert res.status_code == 200
    for n in (1, 2, 3):
        assert f"Board {n}" in text
    # Board 1 has four hearts and the ace of hearts in the hand: the rule leaves a pair of kings.
    assert _category(html) == ["one_pair", "flush", "flush"]
    assert text.count("Without the two-plus-three rule these cards would make: Flush.") == 1


def test_patchpatch_explains_the_rule_in_its_own_words(client) -> None:
    res = client.get("/hand/", {"game": "patchpatch", "hand": "Ah Kc Qd Js", "board": "2h 5h 9h Th 3c"})
    text = _text(res.content.decode())
    assert "In Patch-Patch each of your hands plays its board like Omaha" in text


def test_omaha8_shows_high_and_low(client) -> None:
    res = client.get("/hand/", {"game": "omaha8", "hand": "As 2s Kh Qd", "board": "3s 5s 8s Jh Kc"})
    html = res.content.decode()
    assert _category(html)[0] == "flush"
    assert "Low hand" in html and "8-5-3-2-A" in html


def test_omaha8_without_a_low_says_so(client) -> None:
    res = client.get("/hand/", {"game": "omaha8", "hand": "As 2s Kh Qd", "board": "9s Ts Js Jh Kc"})
    assert "No low" in res.content.decode()


def test_razz_shows_the_low_only(client) -> None:
    res = client.get("/hand/", {"game": "razz", "hand": "Ks 7h 5c 4d 3s 2h 2c"})
    html = res.content.decode()
    assert _category(html) == []
    assert "Best low hand" in html and "7-5-4-3-2" in html


def test_baseball_marks_the_wild_cards(client) -> None:
    res = client.get("/hand/", {"game": "baseball", "hand": "8s 8h 8c 8d 3c Kd 2h"})
    html = res.content.decode()
    assert _category(html)[0] == "five_of_a_kind"
    assert 'aria-label="three of clubs, wild, plays as eight"' in html
    assert "card--wild" in html


def test_stud_and_draw(client) -> None:
    res = client.get("/hand/", {"game": "stud", "hand": "As Ad 7c 7h Kd 2c 3s"})
    assert _category(res.content.decode())[0] == "two_pair"
    res = client.get("/hand/", {"game": "draw", "hand": "TsJsQsKsAs"})
    assert _category(res.content.decode())[0] == "royal_flush"


# -- Mistakes ---------------------------------------------------------------------------------


def test_bad_card_names_the_token_in_the_partial(client) -> None:
    res = client.get("/hand/", {"game": "holdem", "hand": "Ah Kx", "board": "2c 3c 4c"}, headers=HX)
    assert res.status_code == 200  # htmx swaps 2xx only: the message is the answer
    html = res.content.decode()
    assert 'role="alert"' in html
    assert "“Kx” is not a card." in html
    assert "Traceback" not in html


def test_bad_card_on_the_full_page_is_a_400_with_the_form(client) -> None:
    res = client.get("/hand/", {"game": "omaha", "hand": "Ah Kc Qd Js", "board": "2h 5h 1h"})
    assert res.status_code == 400
    html = res.content.decode()
    assert "<form" in html and "“1h” is not a card." in html


def test_wrong_count_for_the_game(client) -> None:
    res = client.get("/hand/", {"game": "omaha", "hand": "Ah Kc Qd", "board": "2h 5h 9h"}, headers=HX)
    text = _text(res.content.decode())
    assert "Four cards in your hand, three to five on the board." in text
    assert "You entered 3 cards." in text


def test_board_too_long(client) -> None:
    res = client.get("/hand/", {"game": "holdem", "hand": "Ah Kc", "board": "2h 5h 9h Tc Js Qd"}, headers=HX)
    text = _text(res.content.decode())
    assert "The board has three to five cards" in text and "You entered 6 cards." in text


def test_duplicate_card(client) -> None:
    res = client.get("/hand/", {"game": "holdem", "hand": "Ah Kc", "board": "Ah 5h 9h"}, headers=HX)
    assert "A♥ is entered twice" in res.content.decode()


def test_unknown_game_is_a_message_not_a_crash(client) -> None:
    res = client.get("/hand/", {"game": "canasta", "hand": "Ah Kc", "board": "2h 5h 9h"}, headers=HX)
    assert res.status_code == 200
    assert 'role="alert"' in res.content.decode()


@pytest.mark.parametrize(
    ("game", "hand", "board", "field"),
    [
        ("holdem", "", "2h 5h 9h", "hand"),
        ("holdem", "Ah Kd", "", "board"),
        ("stud", "", "", "hand"),
        ("draw", "Ah Kd Qc Js", "", "hand"),
        ("patchpatch", "Ah Kd Qc Js 2c 3c 4c 5c 6c 7c 8c 9c", "2h 5h 9h", "board"),
        ("patchpatch", "Ah Kd Qc Js 2c", "2h 5h 9h", "hand"),
        ("omaha", "Ah Kd Qc Js", "2h 5h 9h / 3d 4d 5d", "board"),
        ("holdem", "Ah Kd", "2h 5h 9h Kd", "board"),
    ],
)
def test_read_hand_errors_point_at_the_right_box(game, hand, board, field) -> None:
    with pytest.raises(HandInputError) as err:
        read_hand(game, hand, board)
    assert err.value.field == field
    assert err.value.message


def test_stud_reads_cards_typed_in_either_box() -> None:
    reading = read_hand("stud", "As Ad 7c", "7h Kd")
    assert reading.boards[0].high is not None
    assert reading.boards[0].high.category == "two_pair"


# -- Languages --------------------------------------------------------------------------------


def test_hebrew_page_is_right_to_left_and_cards_stay_left_to_right(client) -> None:
    client.cookies["lang"] = "he"
    res = client.get("/hand/", OMAHA_FOUR_HEARTS)
    html = res.content.decode()
    assert '<html lang="he" dir="rtl">' in html
    assert "בלי חוק השניים-ועוד-שלושה" in html
    assert 'aria-label="אס לב"' in html
    assert re.search(r'<ul class="cards[^"]*" dir="ltr"', html)
    assert 'id="id_hand" name="hand" type="text" dir="ltr"' in html


def test_russian_page_and_plurals(client) -> None:
    client.cookies["lang"] = "ru"
    res = client.get("/hand/", OMAHA_FOUR_HEARTS)
    html = res.content.decode()
    assert '<html lang="ru" dir="ltr">' in html
    assert "Без правила «две плюс три»" in html
    assert "Для неё нужны 4 карты с борда" in html
    for count, words in ((1, "1 карту"), (3, "3 карты"), (6, "6 карт")):
        hand = " ".join(["Ah", "Kd", "Qc", "Js", "Th", "9d"][:count])
        res = client.get("/hand/", {"game": "draw", "hand": hand}, headers=HX)
        assert f"Вы ввели {words}." in res.content.decode(), count

"""The ``{% card_row %}`` tag draws the same markup the template include drew."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from rules_engine.cards import Card
from tables.handreader import CardPicture


def _render(source: str, **context: object) -> str:
    return Template("{% load table_cards %}" + source).render(Context(context))


def test_a_row_of_faces_backs_and_blanks() -> None:
    cards = [{"pic": CardPicture(Card.parse("Ah"), used=True)}, {"hidden": True},
             {"pic": CardPicture(Card.parse("Tc"), kicker=True), "extra": True}]
    html = _render('{% card_row cards size="small" blanks=2 %}', cards=cards)
    assert html.startswith('<ul class="cards cards--small" dir="ltr">') and html.endswith("</ul>")
    assert '<li class="card card--red card--used" data-card="Ah">' in html
    assert 'aria-label="ace of hearts"' in html
    assert '<li class="card card--black card--idle card--extra" data-card="Tc">' in html
    assert '<span class="card__rank" aria-hidden="true">10</span>' in html
    assert html.count("card--back") == 1 and html.count("card--blank") == 2
    assert "data-swap" not in html and "<button" not in html


def test_swappable_and_discardable_cards_are_buttons() -> None:
    cards = [{"pic": CardPicture(Card.parse("Ks")), "swap": "Ks"}]
    swap = _render("{% card_row cards swappable=True %}", cards=cards)
    assert 'data-swap="Ks" draggable="true"' in swap and "data-discard" not in swap
    still = _render("{% card_row cards swappable=False %}", cards=cards)
    assert "data-swap" not in still
    draw = _render("{% card_row cards discardable=True %}", cards=cards)
    assert 'data-discard="Ks" aria-pressed="false"' in draw


def test_labels_follow_the_language() -> None:
    cards = [{"hidden": True}, {"pic": CardPicture(Card.parse("Ah"))}]
    with translation.override("en"):
        english = _render("{% card_row cards %}", cards=cards)
    with translation.override("ru"):
        russian = _render("{% card_row cards %}", cards=cards)
    assert "face-down card" in english and "ace of hearts" in english
    assert "face-down card" not in russian and "ace of hearts" not in russian


def test_a_card_left_out_of_the_hand_is_unused_not_a_kicker() -> None:
    """Found by an audit: a screen reader heard "kicker" for a table card outside the best five;
    a kicker is one of the five (the hand reader's meaning). Both are drawn dimmed."""
    from tables.presenter import pictures

    row = pictures(["Ah", "Kd", "3c"], used={"Ah", "Kd"})
    html = _render("{% card_row cards %}", cards=row)
    assert 'aria-label="three of clubs, unused"' in html and "kicker" not in html
    assert '<li class="card card--black card--idle" data-card="3c">' in html
    with translation.override("ru"):
        assert "не используется" in _render("{% card_row cards %}", cards=row)

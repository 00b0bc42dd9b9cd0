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


def test_a_card_given_as_an_object_draws_as_the_same_card_given_as_a_dict() -> None:
    """The presenter hands the row dicts; the hand pages may hand it objects with the same names."""
    from types import SimpleNamespace

    pic = CardPicture(Card.parse("Qd"), used=True)
    as_dict = _render("{% card_row cards swappable=True %}", cards=[{"pic": pic, "swap": "Qd", "extra": True}])
    as_object = _render("{% card_row cards swappable=True %}",
                        cards=[SimpleNamespace(pic=pic, swap="Qd", extra=True, hidden=False, rabbit=False)])
    assert as_dict == as_object
    assert 'class="card card--red card--used card--extra" data-card="Qd"' in as_dict and 'data-swap="Qd"' in as_dict
    hidden = _render("{% card_row cards %}", cards=[SimpleNamespace(hidden=True)])
    assert hidden.count("card--back") == 1


def test_pictures_are_shared_between_drawings_and_differ_by_how_the_card_is_drawn() -> None:
    """``presenter.pictures`` makes one picture per card and way of drawing it, and the markup of
    each is looked up by it: a lit card, a dimmed one and a plain one stay three pictures."""
    from tables.presenter import pictures

    first = pictures(["Ah", "Kd"], used={"Ah"})
    again = pictures(["Ah", "Kd"], used={"Ah"})
    assert [c["pic"] for c in first] == [c["pic"] for c in again]
    assert all(a["pic"] is b["pic"] for a, b in zip(first, again, strict=True))
    plain = pictures(["Ah"])[0]["pic"]
    lit, dimmed = first[0]["pic"], pictures(["Ah"], used={"Kd"})[0]["pic"]
    assert (lit.used, lit.idle) == (True, False) and (dimmed.used, dimmed.idle) == (False, True)
    assert (plain.used, plain.idle) == (False, False)
    assert len({plain, lit, dimmed}) == 3
    html = _render("{% card_row a %}{% card_row b %}{% card_row c %}", a=pictures(["Ah"]), b=pictures(["Ah"], used={"Ah"}),
                   c=pictures(["Ah"], used={"Kd"}))
    assert 'class="card card--red" data-card="Ah"' in html
    assert 'class="card card--red card--used" data-card="Ah"' in html
    assert 'class="card card--red card--idle" data-card="Ah"' in html
    # Equal pictures made apart (the hand pages make their own) are one key, as before.
    assert CardPicture(Card.parse("Ah"), used=True) == lit and hash(CardPicture(Card.parse("Ah"), used=True)) == hash(lit)
    assert pictures(["9h"], wild=frozenset({9}))[0]["pic"].wild and not pictures(["9h"])[0]["pic"].wild


def test_a_copied_or_pickled_picture_is_the_same_key() -> None:
    import copy
    import pickle

    pic = CardPicture(Card.parse("9c"), wild=True, plays_as=14)
    for other in (pickle.loads(pickle.dumps(pic)), copy.deepcopy(pic), copy.copy(pic)):  # noqa: S301 - our own bytes
        assert other == pic and hash(other) == hash(pic) and {other: 1}.get(pic) == 1

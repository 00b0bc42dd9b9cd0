"""Cards: every notation round-trips, bad text is named, decks are reproducible or secret."""

from __future__ import annotations

import random

import pytest

from rules_engine import cards as cards_module
from rules_engine.cards import (
    FULL_DECK,
    SUIT_SYMBOLS,
    Card,
    CardParseError,
    Deck,
    format_cards,
    parse_cards,
)

OUTLINE = {"c": "♧", "d": "♢", "h": "♡", "s": "♤"}


def notations(card: Card) -> list[str]:
    """Every way a person may write this card."""
    rank = card.rank_char
    ranks = [rank, rank.lower()] + (["10"] if rank == "T" else [])
    suits = [card.suit, card.suit.upper(), SUIT_SYMBOLS[card.suit], OUTLINE[card.suit]]
    return [r + s for r in ranks for s in suits]


def test_there_are_52_distinct_cards_indexed_by_rank_then_suit() -> None:
    assert len(FULL_DECK) == 52 == len(set(FULL_DECK))
    for i, card in enumerate(FULL_DECK):
        assert card.index == i == (card.rank - 2) * 4 + "cdhs".index(card.suit)
        assert Card.from_index(i) is card


@pytest.mark.parametrize("card", FULL_DECK, ids=str)
def test_every_notation_of_every_card_parses_to_the_same_interned_card(card: Card) -> None:
    for text in notations(card):
        assert Card.parse(text) is card, text
        assert Card.parse(f"  {text} ") is card
    assert Card.parse(str(card)) is card
    assert Card.parse(card.pretty) is card
    assert eval(repr(card), {"Card": Card}) is card


@pytest.mark.parametrize("pretty", [False, True])
def test_the_whole_deck_round_trips_through_format_and_parse(pretty: bool) -> None:
    text = format_cards(FULL_DECK, pretty=pretty)
    assert parse_cards(text) == FULL_DECK
    assert format_cards(parse_cards(text), pretty=pretty) == text


def test_cards_may_be_written_together_or_with_commas() -> None:
    assert parse_cards("AhKd10c") == parse_cards("Ah, Kd, Tc") == parse_cards(["Ah", "Kd", "10c"])
    assert parse_cards("A♥K♦") == parse_cards("ah kd")
    assert parse_cards("") == ()


@pytest.mark.parametrize("token", ["Xd", "1h", "11h", "Ax", "A", "Ahh", "10", "♥A", "Tz"])
def test_a_bad_token_raises_card_parse_error_naming_it(token: str) -> None:
    with pytest.raises(CardParseError) as err:
        Card.parse(token)
    assert repr(token) in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    ("text", "named"), [("Ah Xd Kc", "Xd"), ("AhXd", "Xd"), ("Ah 1", "1"), ("Kd, Q", "Q")]
)
def test_a_bad_token_in_a_list_is_named(text: str, named: str) -> None:
    with pytest.raises(CardParseError, match=repr(named)):
        parse_cards(text)


def test_a_repeated_card_is_rejected() -> None:
    with pytest.raises(CardParseError, match="Ah appears twice"):
        parse_cards("Ah Kd ah")
    with pytest.raises(CardParseError):
        parse_cards(["Td", "10d"])
    with pytest.raises(CardParseError):
        Deck([FULL_DECK[0], FULL_DECK[1], FULL_DECK[0]])


def test_card_index_out_of_range() -> None:
    with pytest.raises(CardParseError):
        Card.from_index(52)
    with pytest.raises(CardParseError):
        Card.from_index(-1)


def test_cards_order_by_index_and_hash_by_value() -> None:
    two_clubs, ace_spades = Card.parse("2c"), Card.parse("As")
    assert two_clubs < ace_spades
    assert sorted([ace_spades, two_clubs]) == [two_clubs, ace_spades]
    assert {Card.parse("Ah"): 1}[Card.parse("A♥")] == 1


def test_a_seeded_deck_is_reproducible_and_complete() -> None:
    a = Deck.shuffled(random.Random(2024))
    b = Deck.shuffled(random.Random(2024))
    c = Deck.shuffled(random.Random(2025))
    assert a.order == b.order
    assert a.order != c.order
    assert sorted(a.order) == list(FULL_DECK)


def test_dealing_takes_from_the_top_and_stops_at_the_bottom() -> None:
    deck = Deck(FULL_DECK)
    assert deck.deal(2) == FULL_DECK[:2]
    assert deck.deal() == FULL_DECK[2:3]
    assert (deck.dealt, deck.remaining()) == (3, 49)
    deck.deal(49)
    with pytest.raises(ValueError, match="0 cards left"):
        deck.deal()


def test_the_default_shuffle_uses_the_system_csprng(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[str] = []

    class RecordingSystemRandom(random.Random):
        def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
            used.append("shuffle")
            x.reverse()

    monkeypatch.setattr(cards_module.secrets, "SystemRandom", RecordingSystemRandom)
    deck = Deck.shuffled()
    assert used == ["shuffle"]
    assert deck.order == tuple(reversed(FULL_DECK))


def test_the_global_random_generator_is_never_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object) -> None:
        raise AssertionError("the global random generator was used")

    monkeypatch.setattr(random, "shuffle", forbidden)
    monkeypatch.setattr(random, "random", forbidden)
    Deck.shuffled()
    Deck.shuffled(random.Random(1))

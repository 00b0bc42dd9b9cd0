"""Stud: seven-card stud, its Hi-Lo and Razz, and five-card stud (GAMES.md section 3).

Games (PHH variant codes; ours where phh-std has none, see ``docs/hand-histories.md``):

====== ======================================= =======================================
code   game                                    bring-in / first to act later
====== ======================================= =======================================
F7S    Seven-card stud (fixed limit)           lowest up card / best showing hand
F7S/8  Seven-card stud Hi-Lo eight or better   lowest up card / best showing hand
FR     Razz (seven-card stud, ace-to-five low) highest up card / lowest showing hand
F5S    Five-card stud (fixed limit, ours)      lowest up card / best showing hand
====== ======================================= =======================================

A seven-card hand: everyone antes; two cards down and one up each; the bring-in; four more
betting rounds after fourth (up), fifth (up), sixth (up) and seventh street (down); the best five
of seven win (Hi-Lo: the best high and the best eight-or-better low share each pot; Razz: the best
ace-to-five low wins, pairs counting against it). Fixed limit throughout: the small bet on third
and fourth street, the big bet from fifth street on. Five-card stud: one down and one up, then
three up cards, four betting rounds, the big bet on the last two, and an open pair on third
street lets the opening bet be the big bet.

Decisions where the rulebook is silent (see also :mod:`rules_engine.games.classic`):

* Phases: ``third``, ``fourth``, ``fifth``, ``sixth``, ``seventh`` (five-card stud: ``second``,
  ``third``, ``fourth``, ``fifth``), then ``over``.
* From a table's two blinds (:meth:`StudGame.setup_for_table`): small bet = the big blind, big
  bet = twice it, bring-in = half the small bet (seed 003 for five-card stud; the usual
  structure for seven-card games), ante = a fifth of the big blind, at least 1 chip. The small
  blind itself is not used.
* The bring-in: the lowest up card by rank, aces high, ties by suit clubs < diamonds < hearts <
  spades (seed 003, for seven-card stud, its Hi-Lo and five-card stud); Razz: the highest up
  card, aces low, ties by the seed's Razz suit order (spades lowest, then hearts, diamonds,
  clubs: between two kings the king of clubs brings in). If that seat is all-in from its ante,
  the next seat clockwise with chips brings in. The bring-in seat may bring in or complete to
  the small bet; it cannot fold or check. The others fold, call the bring-in, or complete;
  after a completion, raises add the small bet. If everyone just calls the bring-in, the round
  ends without an option for the bring-in. A completion is the round's bet: it and three raises
  are the cap; a bring-in does not count.
* Later rounds are opened by the best showing hand (Razz: the lowest), compared by rank groups
  and then ranks (suits never count; straights and flushes cannot show with four up cards);
  ties go to the seat nearest the button's left. If that seat is all-in the next seat clockwise
  opens.
* Five-card stud's open pair: when any seat still in shows a pair among its two up cards on
  third street, every player may bet or raise by the small or the big bet in that round, until
  someone bets or raises by the big bet; every raise after that is by the big bet (seed 003:
  "if a player bet the upper limit, all subsequent raises follow that limit"; the card rooms'
  rule: after a small bet, a raise may be small or big).
* Dealing: one card at a time clockwise from the seat left of the button; folded seats get no
  more cards. No burn cards (the seeds burn only in Hold'em and Omaha). If the deck cannot give
  every seat still in its seventh-street card (eight players), one community card is dealt face
  up to the ``board`` and plays in every hand (the card-room rule). Up to 8 players in the
  seven-card games, 10 in five-card stud.
* Up cards are public from the moment they are dealt (``view["players"][i]["up"]``); down cards
  show as ``None`` to everyone but their owner until the showdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rules_engine.cards import Card
from rules_engine.errors import SetupError
from rules_engine.evaluation import (
    HandValue,
    LowValue,
    best_hand,
    hand_value_int,
    low_8_or_better,
    open_hand_key,
    open_low_key,
    razz_low,
)
from rules_engine.games import Event, HandSetup
from rules_engine.games.classic import ClassicGame, ClassicState, cards_json, fill_deck
from rules_engine.pots import clockwise_from_button

__all__ = [
    "FiveCardStud",
    "Razz",
    "SevenCardStud",
    "SevenCardStudHiLo",
    "StudGame",
    "StudState",
    "bring_in_key",
]

# Seed 003: clubs < diamonds < hearts < spades for the low-card bring-in; for Razz the order
# "from lowest to highest" is spades, hearts, diamonds, clubs.
_SUIT_RANK = {"c": 0, "d": 1, "h": 2, "s": 3}
_RAZZ_SUIT_RANK = {"s": 0, "h": 1, "d": 2, "c": 3}


def bring_in_key(card: Card, razz: bool = False) -> tuple[int, int]:
    """How a card ranks for the bring-in: the seat whose up card has the *lowest* key brings in.

    Stud: lowest rank (aces high), then clubs, diamonds, hearts, spades. Razz: the highest rank
    brings in (aces low), then clubs before diamonds, hearts, spades (the seed's Razz order).

    >>> from rules_engine.cards import Card
    >>> bring_in_key(Card.parse("2c")) < bring_in_key(Card.parse("2s")) < bring_in_key(Card.parse("3c"))
    True
    >>> bring_in_key(Card.parse("Kc"), razz=True) < bring_in_key(Card.parse("Ks"), razz=True)
    True
    """
    if razz:
        rank = 1 if card.rank == 14 else card.rank
        return -rank, -_RAZZ_SUIT_RANK[card.suit]
    return card.rank, _SUIT_RANK[card.suit]


class StudState(ClassicState):
    """One stud hand."""

    game: type[StudGame]

    def _phase_names(self) -> tuple[str, ...]:
        return self.game.STREETS

    def _begin(self) -> list[Event]:
        ev: list[Event] = []
        game = self.game
        self.up: list[list[bool]] = [[] for _ in range(self.n)]
        self._post_antes(ev)
        first = game.FIRST_STREET
        for up in first:
            for seat in self._order:
                self.hole[seat].append(self._draw_cards(1)[0])
                self.up[seat].append(up)
        for seat in self._order:
            shown = tuple(c for c, u in zip(self.hole[seat], self.up[seat], strict=True) if u)
            ev.append(Event("deal", seat=seat, amount=len(first), cards=shown))
        low = min(self._order, key=lambda s: bring_in_key(self._up_cards(s)[-1], game.LOW_ONLY))
        if self._open_round(low, ev, preflop=True, raises=0):
            self._bring_in_pending = True
            self.bring_in_seat = self._bet.to_act
        self._start_over(ev)
        return ev

    #: The betting round (0 = the first street) in which the betting ended for good with two or
    #: more players in; None before then. The streets after it came as a run-out, which the table
    #: deals one at a time for the players to watch.
    runout_round: int | None = None

    def _at_showdown(self) -> None:
        first = self.showdown_after is None
        super()._at_showdown()
        if first:
            self.runout_round = self.round

    def runout_streets(self) -> int:
        """The streets dealt after the betting ended for good (0 if it went to the last)."""
        return 0 if self.runout_round is None else len(self.game.LATER_STREETS) - self.runout_round

    def _table_view(self) -> dict[str, Any]:
        return {"runout_round": self.runout_round, "runout_streets": self.runout_streets()}

    def _up_cards(self, seat: int) -> list[Card]:
        return [c for c, u in zip(self.hole[seat], self.up[seat], strict=True) if u]

    def _opener(self) -> int:
        """The best showing hand (Razz: the lowest) among seats still in; ties to the left."""
        key_of = open_low_key if self.game.LOW_ONLY else open_hand_key
        best: Any = None
        opener = self._order[0]
        for seat in self._order:
            if self._bet.folded[seat]:
                continue
            key = key_of(self._up_cards(seat))
            if best is None or key > best:
                best, opener = key, seat
        return opener

    def _advance(self, ev: list[Event]) -> None:
        game = self.game
        last = len(game.LATER_STREETS)
        while True:
            if self.round >= last:
                self._showdown(ev)
                return
            self.round += 1
            up = game.LATER_STREETS[self.round - 1]
            self.phase = game.STREETS[self.round]
            live = [s for s in self._order if not self._bet.folded[s]]
            if len(self._deck) - self._pos < len(live):
                card = self._draw_cards(1)[0]
                self.board.append(card)
                ev.append(Event("board", cards=(card,)))
            else:
                for seat in live:
                    card = self._draw_cards(1)[0]
                    self.hole[seat].append(card)
                    self.up[seat].append(up)
                    ev.append(Event("deal", seat=seat, amount=1, cards=(card,) if up else ()))
            choice = None
            if self.round == game.OPEN_PAIR_ROUND and self._open_pair_showing(live):
                choice = (self.setup.small_bet, self.setup.big_bet)
            if self._open_round(self._opener(), ev, choice=choice):
                return

    def _open_pair_showing(self, live: Sequence[int]) -> bool:
        for seat in live:
            ranks = [c.rank for c in self._up_cards(seat)]
            if len(set(ranks)) < len(ranks):
                return True
        return False

    # -- values -------------------------------------------------------------------------------

    def _cards(self, seat: int) -> list[Card]:
        return self.hole[seat] + self.board

    def _high_value(self, seat: int) -> int:
        return hand_value_int(self._cards(seat))

    def _high_hand(self, seat: int) -> HandValue:
        return best_hand(self._cards(seat))

    def _low_hand(self, seat: int) -> LowValue | None:
        if self.game.LOW_ONLY:
            return razz_low(self._cards(seat))
        return low_8_or_better(self._cards(seat))

    def made_hand(self, seat: int) -> dict[str, Any] | None:
        """The seat's best five so far (and its low in Hi-Lo; Razz: its low); None before five."""
        cards = self._cards(seat)
        if len(cards) < 5:
            return None
        out: dict[str, Any] = {}
        if not self.game.LOW_ONLY:
            high = best_hand(cards)
            out.update(
                category=high.category.label,
                description=high.describe(),
                cards=cards_json(high.cards),
            )
        if self.game.HI_LO or self.game.LOW_ONLY:
            low = self._low_hand(seat)
            out["low"] = None if low is None else {
                "description": low.describe(),
                "cards": cards_json(low.cards),
            }
        return out

    # -- views --------------------------------------------------------------------------------

    def _player_view(self, i: int, visible: bool) -> dict[str, Any]:
        hole, up = self.hole[i], self.up[i]
        return {
            "up": [str(c) for c, u in zip(hole, up, strict=True) if u],
            "down": [str(c) if visible else None for c, u in zip(hole, up, strict=True) if not u],
        }

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """A seat's face-up cards (public)."""
        return tuple(self._up_cards(seat))

    def down_cards(self, seat: int) -> tuple[Card, ...]:
        """A seat's face-down cards (hidden information: server only)."""
        return tuple(c for c, u in zip(self.hole[seat], self.up[seat], strict=True) if not u)

    def _snapshot_extra(self) -> dict[str, Any]:
        return {"up": [list(u) for u in self.up], "bring_in": self.bring_in_seat}


class StudGame(ClassicGame):
    """What the stud games share."""

    FAMILY: ClassVar[str] = "stud"
    STRUCTURE: ClassVar[str] = "fixed-limit"
    MAX_PLAYERS: ClassVar[int] = 8
    #: Up (True) or down (False) for each card of the first deal, in dealing rounds.
    FIRST_STREET: ClassVar[tuple[bool, ...]] = (False, False, True)
    #: Up or down for the one card each later street deals.
    LATER_STREETS: ClassVar[tuple[bool, ...]] = (True, True, True, False)
    STREETS: ClassVar[tuple[str, ...]] = ("third", "fourth", "fifth", "sixth", "seventh")
    #: The betting round where an open pair lets the opening bet be the big bet (five-card stud).
    OPEN_PAIR_ROUND: ClassVar[int | None] = None
    state_class: ClassVar[type[ClassicState]] = StudState

    @classmethod
    def setup_for_table(
        cls,
        *,
        stacks: Sequence[int],
        button: int,
        small_blind: int,
        big_blind: int,
        speed: str = "medium",
        public: bool = False,
        check_buy_in: bool = False,
        deck: Sequence[Card] | None = None,
    ) -> HandSetup:
        """A stud setup from a table's blinds: small bet = big blind, big bet = twice it,
        bring-in = half the small bet (at least 1), ante = a fifth of the big blind (at least 1).

        >>> s = SevenCardStud.setup_for_table(stacks=[500, 500], button=0, small_blind=5, big_blind=10)
        >>> (s.ante, s.bring_in, s.small_bet, s.big_bet)
        (2, 5, 10, 20)
        """
        return HandSetup(
            stacks=tuple(stacks),
            button=button,
            small_blind=small_blind,
            big_blind=big_blind,
            speed=speed,
            public=public,
            check_buy_in=check_buy_in,
            deck=None if deck is None else tuple(deck),
            ante=max(1, big_blind // 5),
            bring_in=max(1, big_blind // 2),
            small_bet=big_blind,
            big_bet=2 * big_blind,
        )

    @classmethod
    def validate_extra(cls, setup: HandSetup) -> None:
        # Below the small bet, or completing it would be a raise of nothing (and the round
        # would allow five bets): found by an audit, reachable only through a history's setup.
        if not 0 < setup.bring_in < setup.small_bet:
            raise SetupError(
                f"the bring-in must be at least 1 chip and less than the small bet ({setup.small_bet}), "
                f"not {setup.bring_in}"
            )
        if setup.deck is not None and len(setup.deck) != 52:
            raise SetupError(f"stud deals from a full deck of 52 cards, not {len(setup.deck)}")

    @classmethod
    def stacked_deck(
        cls,
        hands: Sequence[Sequence[Card | None] | None],
        button: int,
        board: Sequence[Card | None] = (),
    ) -> tuple[Card, ...]:
        """A 52-card deck order that deals ``hands`` (by seat, each in dealt order: the first
        street's cards, then one card a street), assuming every seat stays in (a fold shifts the
        later cards). ``board`` is a seventh-street community card, if the hand needs one.
        ``None`` stands for any card.

        >>> from rules_engine.cards import parse_cards, format_cards
        >>> deck = SevenCardStud.stacked_deck([parse_cards("Ah Kh Qh Jh"), None], button=1)
        >>> format_cards(deck[0:6:2]), str(deck[6])   # seat 0 is left of the button
        ('Ah Kh Qh', 'Jh')
        """
        n = len(hands)
        order = clockwise_from_button(button, n)
        total = len(cls.FIRST_STREET) + len(cls.LATER_STREETS)
        slots: list[Card | None] = [None] * min(52, n * total + len(board))
        for k in range(total):
            for j, seat in enumerate(order):
                hand = hands[seat]
                if hand is None or k >= len(hand):
                    continue
                pos = k * n + j  # round-robin on the first street, then one card a street
                if pos < len(slots):
                    slots[pos] = hand[k]
        for card in board:
            if card is not None:
                slots[n * (total - 1)] = card
        return fill_deck(slots)


class SevenCardStud(StudGame):
    """Seven-card stud high (``F7S``)."""

    code: ClassVar[str] = "F7S"
    name: ClassVar[str] = "Seven-card Stud"


class SevenCardStudHiLo(StudGame):
    """Seven-card stud Hi-Lo eight or better (``F7S/8``)."""

    code: ClassVar[str] = "F7S/8"
    name: ClassVar[str] = "Seven-card Stud Hi-Lo"
    HI_LO: ClassVar[bool] = True


class Razz(StudGame):
    """Razz, seven-card stud for the ace-to-five low (``FR``)."""

    code: ClassVar[str] = "FR"
    name: ClassVar[str] = "Razz"
    LOW_ONLY: ClassVar[bool] = True


class FiveCardStud(StudGame):
    """Five-card stud (``F5S``, our code)."""

    code: ClassVar[str] = "F5S"
    name: ClassVar[str] = "Five-card Stud"
    MAX_PLAYERS: ClassVar[int] = 10
    FIRST_STREET: ClassVar[tuple[bool, ...]] = (False, True)
    LATER_STREETS: ClassVar[tuple[bool, ...]] = (True, True, True)
    STREETS: ClassVar[tuple[str, ...]] = ("second", "third", "fourth", "fifth")
    OPEN_PAIR_ROUND: ClassVar[int | None] = 1

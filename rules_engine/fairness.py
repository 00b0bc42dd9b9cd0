"""A fair shuffle anyone can check, without showing the cards nobody was shown.

Before a hand is dealt the server fixes the deck and publishes one fingerprint of it. Each of the
52 positions gets its own secret salt and a *leaf*::

    leaf[i] = SHA-256("<salt_i>|<card_i>|<i>")          (hex; card as in hand histories, "Ah")
    commitment = SHA-256(leaf[0] + "|" + leaf[1] + ... + "|" + leaf[51])

After the hand the server publishes all 52 leaves, and the card and salt of every position the
rules have shown (boards, hands shown at the showdown; a player also gets their own cards). Anyone
can then check that the leaves give the published commitment, that every shown card hashes to
its leaf, and that the hand history deals exactly those cards from those positions. A folded or
mucked hand stays hidden: its positions show only their leaves, which say nothing about the cards
(each has a 128-bit salt).

>>> from rules_engine.cards import FULL_DECK
>>> import random
>>> deck = ShuffleCommitment.create(FULL_DECK, rng=random.Random(1))
>>> verify_reveal(deck.commitment, deck.leaves, deck.reveal([0, 5]))
True
>>> verify_reveal(deck.commitment, deck.leaves, [Revealed(0, FULL_DECK[1], deck.salts[0])])
False
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules_engine.cards import Card, CardParseError

COMMITMENT_FIELD = "_deck_commitment"
LEAVES_FIELD = "_deck_leaves"
REVEAL_FIELD = "_deck_reveal"
DECK_SIZE = 52


def leaf(salt: str, card: Card, position: int) -> str:
    return hashlib.sha256(f"{salt}|{card}|{position}".encode()).hexdigest()


def root(leaves: Sequence[str]) -> str:
    return hashlib.sha256("|".join(leaves).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Revealed:
    """One position of the deck made public: its card and its salt."""

    position: int
    card: Card
    salt: str

    def to_text(self) -> str:
        return f"{self.position}:{self.card}:{self.salt}"

    @classmethod
    def parse(cls, text: str) -> Revealed:
        try:
            pos, card, salt = text.split(":")
            return cls(int(pos), Card.parse(card), salt)
        except (ValueError, CardParseError) as exc:
            raise ValueError(f"{text!r} is not position:card:salt") from exc


@dataclass(frozen=True, slots=True)
class ShuffleCommitment:
    """The server's secret side: the deck with one salt per position."""

    deck: tuple[Card, ...]
    salts: tuple[str, ...]

    @classmethod
    def create(cls, deck: Sequence[Card], rng: random.Random | None = None) -> ShuffleCommitment:
        """Salts come from the OS CSPRNG (``rng`` only for tests and doctests)."""
        if len(deck) != DECK_SIZE or len(set(deck)) != DECK_SIZE:
            raise ValueError("a commitment covers a full deck of 52 different cards")
        if rng is None:
            salts = tuple(secrets.token_hex(16) for _ in deck)
        else:
            salts = tuple(f"{rng.getrandbits(128):032x}" for _ in deck)
        return cls(tuple(deck), salts)

    @property
    def leaves(self) -> tuple[str, ...]:
        return tuple(leaf(s, c, i) for i, (s, c) in enumerate(zip(self.salts, self.deck, strict=True)))

    @property
    def commitment(self) -> str:
        return root(self.leaves)

    def reveal(self, positions: Iterable[int]) -> list[Revealed]:
        return [Revealed(i, self.deck[i], self.salts[i]) for i in sorted(set(positions))]

    def reveal_cards(self, cards: Iterable[Card]) -> list[Revealed]:
        where = {c: i for i, c in enumerate(self.deck)}
        return self.reveal(where[c] for c in cards)

    def to_json(self) -> dict[str, Any]:
        return {"deck": [str(c) for c in self.deck], "salts": list(self.salts)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShuffleCommitment:
        return cls(tuple(Card.parse(c) for c in data["deck"]), tuple(data["salts"]))


def reshuffle_order(commit: ShuffleCommitment) -> tuple[Card, ...]:
    """Five-card draw's second card order (``HandSetup.reshuffle``: how the discards are shuffled
    when the stub runs out), fixed by the committed deck and its secret salts: the 52 cards
    ranked by SHA-256 of their place's salt. It is as unpredictable as the salts (128 random bits
    each, from the OS CSPRNG, never shown before the hand ends), it needs no random draw the
    commitment does not cover, and the server cannot choose it after the deal."""
    keys = [hashlib.sha256(f"reshuffle:{salt}".encode()).digest() for salt in commit.salts]
    return tuple(commit.deck[i] for i in sorted(range(len(commit.deck)), key=keys.__getitem__))


def verify_reveal(commitment: str, leaves: Sequence[str], revealed: Iterable[Revealed]) -> bool:
    """The leaves give the commitment, and every revealed card and salt gives its leaf."""
    if len(leaves) != DECK_SIZE or not hmac.compare_digest(root(leaves), commitment.strip().lower()):
        return False
    seen_positions: set[int] = set()
    seen_cards: set[Card] = set()
    for r in revealed:
        if not 0 <= r.position < DECK_SIZE or r.position in seen_positions or r.card in seen_cards:
            return False
        seen_positions.add(r.position)
        seen_cards.add(r.card)
        if not hmac.compare_digest(leaf(r.salt, r.card, r.position), leaves[r.position]):
            return False
    return True


def public_fields(commit: ShuffleCommitment, shown: Iterable[Card]) -> dict[str, Any]:
    """The PHH fields that prove the shuffle while showing only ``shown`` cards."""
    return {
        COMMITMENT_FIELD: commit.commitment,
        LEAVES_FIELD: list(commit.leaves),
        REVEAL_FIELD: [r.to_text() for r in commit.reveal_cards(shown)],
    }


@dataclass(frozen=True, slots=True)
class Verification:
    """What ``python -m rules_engine verify`` reports."""

    commitment_ok: bool
    deals_ok: bool
    message: str
    card: str | None = None  # the card whose place was not revealed (deals_ok False)

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.deals_ok

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "commitment": self.commitment_ok, "deals": self.deals_ok, "message": self.message}


def verify_phh(text: str) -> Verification:
    """Check a finished hand's history against the commitment published before its deal.

    The leaves must give the commitment and every revealed card its leaf; and every card the
    history shows (boards, shown hands, the viewer's own) must sit, in the deal, at a position
    whose card and salt were revealed. Raises ``ValueError`` (a ``RulesError`` for a bad history)
    when the file cannot be read at all.
    """
    from rules_engine.notation import HistoryError, load_toml, parse_phh

    fields = load_toml(text, "not a TOML hand history")
    commitment = fields.get(COMMITMENT_FIELD)
    leaves = fields.get(LEAVES_FIELD)
    raw = fields.get(REVEAL_FIELD)
    if not isinstance(commitment, str) or not isinstance(leaves, list) or not isinstance(raw, list):
        raise HistoryError(
            "the history has no deck commitment to check "
            f"(it needs {COMMITMENT_FIELD}, {LEAVES_FIELD} and {REVEAL_FIELD})"
        )
    try:
        revealed = [Revealed.parse(str(r)) for r in raw]
    except ValueError as exc:
        return Verification(False, False, str(exc))
    if not all(isinstance(x, str) for x in leaves):
        return Verification(False, False, "the leaves must be text")
    commit_ok = verify_reveal(commitment, [str(x) for x in leaves], revealed)
    if not commit_ok:
        return Verification(False, False, "the leaves or the revealed cards do not give the published commitment")
    parsed = parse_phh(text)
    dealt = parsed.state.setup.deck
    at = {r.position: r.card for r in revealed}
    where = {c: i for i, c in enumerate(dealt)}
    # Five-card draw: a card dealt out of the reshuffled discards is not checked against its
    # place (that place was another seat's, and stays sealed; see DrawState.recycled).
    recycled = set(getattr(parsed.state, "recycled", ()))
    for card in _cards_in_history(fields.get("actions")) - recycled:
        position = where.get(card)
        if position is None or at.get(position) != card:
            return Verification(True, False, f"{card} was dealt in this history but its place in the committed deck was not revealed",
                                card=str(card))
    note = (f" ({len(recycled)} card(s) dealt from the reshuffled discards are not checked against a place)"
            if recycled else "")
    return Verification(True, True, "the deck was fixed before the deal and dealt these cards from the committed places"
                        + note)


def _cards_in_history(actions: Any) -> set[Card]:
    """Every card a history names in its actions (``??`` is a card it does not show)."""
    import re

    found: set[Card] = set()
    for line in actions if isinstance(actions, list) else []:
        body = str(line).split("#", 1)[0]
        # Cards may be written together ("AhKd2c/7s7d9h"); no other word of a history looks
        # like a rank followed by a suit letter.
        for token in re.findall(r"[2-9TJQKA][cdhs]", body):
            found.add(Card.parse(token))
    return found


# -- command line (registered with rules_engine.cli) ------------------------------------------


def _configure_verify(p: Any) -> None:
    p.add_argument("file", help="a .phh hand history downloaded from the site, or a .phhs file of several hands")


def _run_verify(args: Any) -> int:
    """One JSON line per hand; exit status 1 when any hand fails its check."""
    import json

    from rules_engine.cli import UsageError
    from rules_engine.errors import RulesError
    from rules_engine.notation import read_history_file

    results = []
    for name, text in read_history_file(args.file):
        where = args.file if name is None else f"{args.file}, hand [{name}]"
        try:
            result = verify_phh(text)
        except RulesError as exc:
            raise UsageError(f"{where}: {exc}") from None
        results.append((name, result))
    for name, result in results:
        line = result.to_json() if name is None else {"hand": name, **result.to_json()}
        print(json.dumps(line, ensure_ascii=False))
    return 0 if all(result.ok for _name, result in results) else 1


def _register_cli() -> None:
    from rules_engine.cli import Subcommand, register_subcommand

    register_subcommand(
        Subcommand(
            name="verify",
            help="check a hand history's cards against the deck commitment published before the deal",
            configure=_configure_verify,
            run=_run_verify,
        )
    )


_register_cli()

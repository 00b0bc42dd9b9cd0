"""A fair shuffle anyone can check: commit to the deck before the deal, reveal it after.

Before a hand is dealt the server publishes ``commitment(deck, salt)``, the SHA-256 of the deck
order and a secret salt. The deck cannot be changed afterwards without changing that hash, and
the salt keeps anyone from guessing the order from the hash. When the hand is over the server
reveals the order and the salt; anyone can recompute the hash and replay the hand from that deck.

The text that is hashed is ``"<salt>|<cards>"`` with the 52 cards written as in a hand history
(``Ah Kd 2c ...``), top of the deck first, separated by single spaces.

>>> from rules_engine.cards import FULL_DECK
>>> c = commitment(FULL_DECK, "00ff")
>>> len(c), verify_commitment(c, "00ff", deck_text(FULL_DECK))
(64, True)
>>> verify_commitment(c, "00fe", deck_text(FULL_DECK))
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules_engine.cards import Card, CardParseError, format_cards, parse_cards

COMMITMENT_FIELD = "_deck_commitment"
SALT_FIELD = "_deck_salt"
DECK_FIELD = "_deck"


def new_salt() -> str:
    """32 hex digits from the operating system's CSPRNG."""
    return secrets.token_hex(16)


def deck_text(deck: Sequence[Card]) -> str:
    return format_cards(deck)


def commitment(deck: Sequence[Card], salt: str) -> str:
    """SHA-256 (hex) of ``salt|deck``: published before the deal."""
    return hashlib.sha256(f"{salt}|{deck_text(deck)}".encode()).hexdigest()


def verify_commitment(expected: str, salt: str, deck: str) -> bool:
    """Does ``salt`` and the deck text (as revealed) hash to the published commitment?"""
    actual = hashlib.sha256(f"{salt}|{deck}".encode()).hexdigest()
    return hmac.compare_digest(actual, expected.strip().lower())


@dataclass(frozen=True, slots=True)
class Verification:
    """What ``python -m rules_engine verify`` reports."""

    commitment_ok: bool
    deck_ok: bool
    deals_ok: bool
    message: str

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.deck_ok and self.deals_ok

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "commitment": self.commitment_ok,
            "deck": self.deck_ok,
            "deals": self.deals_ok,
            "message": self.message,
        }


def verify_phh(text: str) -> Verification:
    """Check a finished hand's history: the revealed deck hashes to the commitment published
    before the deal, it is a full deck, and replaying the hand from it deals exactly the cards the
    history shows.

    Raises ``ValueError`` (a :class:`~rules_engine.errors.RulesError` for a bad history) when
    the file cannot be read at all.
    """
    from rules_engine.games import get_variant
    from rules_engine.notation import HistoryError, parse_phh

    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HistoryError(f"not a TOML hand history: {exc}") from None
    missing = [f for f in (COMMITMENT_FIELD, SALT_FIELD, DECK_FIELD) if not isinstance(fields.get(f), str)]
    if missing:
        raise HistoryError("the history has no deck commitment to check (missing " + ", ".join(missing) + ")")
    revealed = fields[DECK_FIELD]
    commit_ok = verify_commitment(fields[COMMITMENT_FIELD], fields[SALT_FIELD], revealed)
    try:
        deck = parse_cards(revealed)
    except CardParseError as exc:
        return Verification(commit_ok, False, False, f"the revealed deck is not a deck: {exc}")
    if len(deck) != 52:
        return Verification(commit_ok, False, False, f"the revealed deck has {len(deck)} cards, not 52")
    parsed = parse_phh(text)
    variant = get_variant(fields.get("variant", ""))
    setup = type(parsed.setup)(**{**_setup_kwargs(parsed.setup), "deck": deck})
    try:
        rebuilt = variant.replay(setup, parsed.actions)
    except ValueError as exc:
        return Verification(commit_ok, True, False, f"the hand cannot be replayed from the revealed deck: {exc}")
    same = _dealt(rebuilt) == _dealt(parsed.state)
    if not commit_ok:
        message = "the deck and salt do not match the commitment published before the deal"
    elif not same:
        message = "the revealed deck does not deal the cards this history shows"
    else:
        message = "the deck was fixed before the deal and dealt exactly these cards"
    return Verification(commit_ok, True, same, message)


def _setup_kwargs(setup: Any) -> dict[str, Any]:
    from dataclasses import fields as dc_fields

    return {f.name: getattr(setup, f.name) for f in dc_fields(setup)}


def _dealt(state: Any) -> Any:
    """What every seat was dealt and saw, and how the hand ended (never the undealt stub, which a
    history cannot know)."""
    seats = len(state.setup.stacks)
    return [state.view_for(i) for i in range(seats)]


# -- command line (registered with rules_engine.cli) ------------------------------------------


def _configure_verify(p: Any) -> None:
    p.add_argument("file", help="a .phh hand history exported by the site")


def _run_verify(args: Any) -> int:
    import json

    from rules_engine.cli import UsageError
    from rules_engine.errors import RulesError

    try:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {args.file}: {exc}") from None
    try:
        result = verify_phh(text)
    except RulesError as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    print(json.dumps(result.to_json(), ensure_ascii=False))
    return 0 if result.ok else 1


def _register_cli() -> None:
    from rules_engine.cli import Subcommand, register_subcommand

    register_subcommand(
        Subcommand(
            name="verify",
            help="check a hand history's deck against the commitment published before the deal",
            configure=_configure_verify,
            run=_run_verify,
        )
    )


_register_cli()

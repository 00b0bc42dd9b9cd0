"""The rules engine on the command line: ``python -m rules_engine SUBCOMMAND ...``.

``rank`` names the best hand (and the low, where the game has one) of the cards given::

    $ python -m rules_engine rank --game omaha --hand "Ah Kh 2c 3d" --board "Qh Jh 7h 8s 9c"
    {"game": "omaha", "high": {"category": "flush", "cards": [...], ...}, "low": null}

``enumerate`` counts every 5- or 7-card hand by category, exactly.

A mistake in the arguments prints one line on stderr and exits with status 2.

Adding a subcommand: write ``configure(parser)`` and ``run(args) -> int`` and register them
with :func:`register_subcommand`, either below (see "HOOK") or from a module listed in
:data:`EXTENSION_MODULES`, which :func:`build_parser` imports.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from rules_engine.cards import Card, CardParseError, parse_cards
from rules_engine.evaluation import (
    Category,
    HandValue,
    LowValue,
    best_hand,
    best_wild_hand,
    evaluate5,
    low_8_or_better,
    omaha_best,
    omaha_low_8,
    open_hand_key,
    razz_low,
)
from rules_engine.wild import BASEBALL_WILDS

__all__ = ["EXTENSION_MODULES", "SUBCOMMANDS", "Subcommand", "UsageError", "main"]


class UsageError(Exception):
    """Bad arguments: reported as one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake raises instead of printing the usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: ``configure`` adds its arguments, ``run`` does it and returns the
    exit status. ``run`` may raise :class:`UsageError` (or ``CardParseError``)."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: Registered subcommands by name, in the order ``--help`` lists them.
SUBCOMMANDS: dict[str, Subcommand] = {}

# ---------------------------------------------------------------------------------------------
# HOOK for other subcommands (``replay``, ``verify``, ...): list a module here that calls
# ``register_subcommand`` when imported, or register directly at the end of this file.
EXTENSION_MODULES: tuple[str, ...] = ("rules_engine.notation", "rules_engine.fairness")
# ---------------------------------------------------------------------------------------------


def register_subcommand(sub: Subcommand) -> Subcommand:
    """Add (or replace) a subcommand."""
    SUBCOMMANDS[sub.name] = sub
    return sub


def build_parser() -> argparse.ArgumentParser:
    for module in EXTENSION_MODULES:
        importlib.import_module(module)
    parser = _Parser(prog="python -m rules_engine", description="Poker rules engine tools.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for sub in SUBCOMMANDS.values():
        p = subparsers.add_parser(sub.name, help=sub.help, description=sub.help)
        sub.configure(p)
        p.set_defaults(run=sub.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        status: int = args.run(args)
        return status
    except (UsageError, CardParseError) as exc:
        text = " ".join(str(exc).split())
        print(f"python -m rules_engine: error: {text}", file=sys.stderr)
        return 2


# ---------------------------------------------------------------------------------------------
# rank

# game -> (hole cards min, max; board cards min, max). None: no upper limit.
_GAMES: dict[str, tuple[int, int | None, int, int]] = {
    "holdem": (2, 2, 0, 5),
    "omaha": (4, 4, 3, 5),
    "omaha8": (4, 4, 3, 5),
    "patchpatch": (4, 4, 3, 5),
    "stud": (5, 7, 0, 0),
    "stud8": (5, 7, 0, 0),
    "razz": (5, 7, 0, 0),
    "draw": (5, 5, 0, 0),
    "baseball": (5, None, 0, 0),
}


def _configure_rank(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", required=True, choices=sorted(_GAMES))
    p.add_argument("--hand", required=True, help='the player\'s cards, e.g. "Ah Kh" or "AhKh"')
    p.add_argument("--board", default="", help="community cards (Hold'em, Omaha, Patch-Patch)")


def _count_text(low: int, high: int | None) -> str:
    if high is None:
        return f"at least {low}"
    return str(low) if low == high else f"{low} to {high}"


def _high_json(hand: HandValue) -> dict[str, Any]:
    return {
        "category": hand.category.label,
        "cards": [str(c) for c in hand.cards],
        "description": hand.describe(),
        "value": hand.value,
    }


def _partial_json(cards: Sequence[Card]) -> dict[str, Any]:
    """Fewer than five cards (Hold'em before the flop): rank groups only."""
    category, ranks = open_hand_key(cards)
    # Groups first (the order of ``ranks``), higher suit first inside a rank.
    ordered = sorted(cards, key=lambda c: (-ranks.index(c.rank), c.index), reverse=True)
    return {"category": Category(category).label, "cards": [str(c) for c in ordered]}


def _low_json(low: LowValue | None) -> dict[str, Any] | None:
    if low is None:
        return None
    return {"cards": [str(c) for c in low.cards], "description": low.describe(), "value": low.value}


def rank(game: str, hand: Sequence[Card], board: Sequence[Card]) -> dict[str, Any]:
    """The JSON-ready answer of ``rank`` for already parsed cards."""
    hole_min, hole_max, board_min, board_max = _GAMES[game]
    if not (len(hand) >= hole_min and (hole_max is None or len(hand) <= hole_max)):
        raise UsageError(
            f"{game} needs {_count_text(hole_min, hole_max)} cards in --hand, got {len(hand)}"
        )
    if not board_min <= len(board) <= board_max:
        if board_max == 0:
            raise UsageError(f"{game} has no board: leave out --board")
        raise UsageError(
            f"{game} needs {_count_text(board_min, board_max)} cards in --board, got {len(board)}"
        )
    repeated = set(hand) & set(board)
    if repeated:
        raise UsageError(f"{min(repeated)} is both in --hand and on --board")

    high: dict[str, Any] | None = None
    low: dict[str, Any] | None = None
    if game in ("omaha", "omaha8", "patchpatch"):
        high = _high_json(omaha_best(hand, board))
        if game == "omaha8":
            low = _low_json(omaha_low_8(hand, board))
    elif game == "holdem":
        cards = [*hand, *board]
        high = _high_json(best_hand(cards)) if len(cards) >= 5 else _partial_json(cards)
    elif game == "draw":
        high = _high_json(evaluate5(hand))
    elif game == "baseball":
        high = _high_json(best_wild_hand(hand, BASEBALL_WILDS))
    elif game == "razz":
        low = _low_json(razz_low(hand))
    else:  # stud, stud8
        high = _high_json(best_hand(hand))
        if game == "stud8":
            low = _low_json(low_8_or_better(hand))
    return {"game": game, "high": high, "low": low}


def _run_rank(args: argparse.Namespace) -> int:
    hand = parse_cards(args.hand)
    board = parse_cards(args.board)
    print(json.dumps(rank(args.game, hand, board)))
    return 0


# ---------------------------------------------------------------------------------------------
# enumerate


def _configure_enumerate(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cards", required=True, type=int, choices=(5, 7))
    p.add_argument("--threads", type=int, default=2, help="worker threads for 7 cards (2)")


def _run_enumerate(args: argparse.Namespace) -> int:
    from rules_engine.batch import category_counts  # numpy tables only when asked for

    if args.threads < 1:
        raise UsageError("--threads must be at least 1")
    counts = category_counts(args.cards, threads=args.threads)
    out: dict[str, int] = {cat.label: counts[cat] for cat in sorted(counts, reverse=True)}
    out["total"] = sum(counts.values())
    print(json.dumps(out))
    return 0


register_subcommand(
    Subcommand("rank", "name the best hand (and low) of some cards", _configure_rank, _run_rank)
)
register_subcommand(
    Subcommand(
        "enumerate",
        "count every 5- or 7-card hand by category (royal flushes apart)",
        _configure_enumerate,
        _run_enumerate,
    )
)

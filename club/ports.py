"""What ``club`` needs to know about tables, without importing ``tables``.

Imports point one way: ``tables`` uses ``club``; ``club`` never imports ``tables``. Yet a club
page lists the club's tables, removing a member first settles their seats, and the ledger check
counts chips on the club's tables. So ``club`` declares here the few questions it asks
(:class:`TablesPort`), and the ``tables`` app answers them by registering an implementation when
Django starts (``tables.apps.TablesConfig.ready`` calls :func:`register_tables_port`).

Why a port and not "the tables view settles the seats first": then every caller of
``club_remove_member`` (a view, the admin, a test, a later API) would have to remember to do it,
and the service could not promise "seats and chips are settled first". With the port the club
service itself does it, in the same transaction.

Without a registered port (``club`` used on its own) clubs have no tables: nothing to settle,
nothing to list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class ClubTable:
    """A club table as the club's pages show it."""

    id: int
    name: str
    game: str
    game_name: str
    small_blind: int
    big_blind: int
    speed: str
    speed_name: str
    seats_taken: int
    max_seats: int
    status: str
    url: str
    #: The stakes in the game's own terms ("blinds 5/10", "ante 2, bring-in 5, bets 10/20").
    stakes: str = ""
    #: Blinds on a clock: the level in play (0: off) and its minutes.
    level: int = 0
    level_minutes: int = 0
    #: A freeze-out is being played: nobody new sits down until it ends, unless it is open to late
    #: entry: then ``late_entry`` is the last level a player may still sit down in (0: closed).
    freezeout: bool = False
    late_entry: int = 0
    #: Hold'em's seven-deuce bounty each player pays, in chips (0: none).
    seven_deuce: int = 0
    #: Straddles and running it twice, where the host allows them and the game takes them.
    straddles: bool = False
    run_twice: bool = False
    #: Players may hunt the rabbit after a hand (Hold'em, Omaha, Patch-Patch).
    rabbit: bool = False


@dataclass(frozen=True)
class ClubFreezeout:
    """A freeze-out played to its end at one of the club's tables."""

    table_name: str
    table_url: str
    ended: Any
    entrants: int
    #: (place, name, stood up) from the best place down.
    places: list[tuple[int, str, bool]]
    #: Buy-ins again by players who were out (late re-entry).
    reentries: int = 0


class TablesPort(Protocol):
    def games(self) -> list[tuple[str, str]]:
        """(code, name) of every game the site runs, for a club's default game."""
        ...

    def club_tables(self, *, club_id: int) -> list[ClubTable]:
        """The club's tables that are not closed, newest first."""
        ...

    def settle_member(self, *, club_id: int, user_id: int) -> None:
        """Stand the player up from every table of the club; their stacks go back to their club
        balance (at once, or when the hand they are in ends). Runs inside the caller's
        transaction."""
        ...

    def chips_on_tables(self, *, club_id: int) -> dict[int, int]:
        """user id -> chips on the club's tables (stacks as of the last settled hand)."""
        ...

    def freezeouts(self, *, club_id: int, limit: int = 10) -> list[ClubFreezeout]:
        """The latest freeze-outs played to their end at the club's tables, newest first."""
        ...

    def freezeout_wins(self, *, club_id: int, limit: int = 5) -> list[tuple[str, int]]:
        """(name, freeze-outs won) at the club's tables, most first."""
        ...

    def site_chips_at_tables(self, *, user_id: int) -> int:
        """Chips in the player's seats at site (non-club) tables: bought in from the bankroll
        and going back there (stacks as of the last settled hand)."""
        ...

    def seated_to_stay(self, *, club_id: int, user_id: int) -> bool:
        """Whether the player has a seat at one of the club's tables that is not already
        leaving (a seat in a hand leaves when the hand ends)."""
        ...

    def end_other_sessions(self, *, user_id: int, keep_session: str) -> None:
        """The password was changed: the table sockets the player's other browser sessions
        opened at the tables where they sit close (this session's, ``keep_session``, stay)."""
        ...


class _NoTables:
    def games(self) -> list[tuple[str, str]]:
        return [("PP", "Patch-Patch")]

    def club_tables(self, *, club_id: int) -> list[ClubTable]:
        return []

    def settle_member(self, *, club_id: int, user_id: int) -> None:
        return None

    def chips_on_tables(self, *, club_id: int) -> dict[int, int]:
        return {}

    def site_chips_at_tables(self, *, user_id: int) -> int:
        return 0

    def seated_to_stay(self, *, club_id: int, user_id: int) -> bool:
        return False

    def end_other_sessions(self, *, user_id: int, keep_session: str) -> None:
        return None

    def freezeouts(self, *, club_id: int, limit: int = 10) -> list[ClubFreezeout]:
        return []

    def freezeout_wins(self, *, club_id: int, limit: int = 5) -> list[tuple[str, int]]:
        return []


_port: TablesPort = _NoTables()


def register_tables_port(port: TablesPort) -> None:
    global _port
    _port = port


def tables_port() -> TablesPort:
    return _port

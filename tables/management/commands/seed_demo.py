"""Create the demo players and tables for `make run` (and, as the site grows, a demo club).

Idempotent: users, profiles and tables are looked up by name first, so running it again (every
`make run` does) changes nothing and creates no second table or second grant of chips.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from club import services as club_services
from club.models import Club, Membership
from club.services import profile_ensure
from tables.models import Table
from tables.services import table_create

DEMO_USERS = ("alice", "bob", "carol")
DEMO_PASSWORD = "patchpatch-demo"

# name, small blind, big blind, speed, seats, public, game. A newcomer finds Hold'em and Omaha
# in the lobby too, not only Patch-Patch (found by an audit: to play them one had to open a
# table and wait for someone).
DEMO_TABLES = (
    ("Demo Patch-Patch 5-10", 5, 10, "medium", 3, True, "PP"),
    ("Demo Patch-Patch 10-20 fast", 10, 20, "fast", 2, True, "PP"),
    ("Alice's kitchen", 2, 4, "slow", 3, False, "PP"),
    ("Demo NL Hold'em 5-10", 5, 10, "medium", 6, True, "NT"),
    ("Demo PL Omaha 5-10", 5, 10, "medium", 6, True, "PO"),
)


DEMO_CLUB = "Thursday Club"
DEMO_CLUB_CHIPS = 10_000


def _demo_club(users: dict[str, Any]) -> tuple[Club, Table]:
    """Alice's club (issue #5): alice owns it, bob hosts, carol plays; club chips for all three,
    and one club table. Looked up by name, so a second run adds nothing."""
    club = Club.objects.filter(name=DEMO_CLUB, created_by=users["alice"]).first()
    if club is None:
        club = club_services.club_create(
            user=users["alice"], name=DEMO_CLUB, description="Patch-Patch at Alice's kitchen table, Thursdays from eight.",
            language="en", default_game="PP", default_speed="medium",
        )
        for name, role in (("bob", "host"), ("carol", "member")):
            Membership.objects.get_or_create(club=club, user=users[name])
            if role == "host":
                club_services.club_set_role(club=club, by=users["alice"], user=users[name], role="host")
        for name in DEMO_USERS:
            club_services.club_chips_grant(club=club, by=users["alice"], user=users[name], amount=DEMO_CLUB_CHIPS,
                                           reason="demo chips")
    table = Table.objects.exclude(status=Table.Status.CLOSED).filter(club=club).first()
    if table is None:
        table = table_create(creator=users["alice"], name="Thursday felt", small_blind=5, big_blind=10,
                             speed="medium", max_seats=3, club=club)
    _demo_night(club, users)
    return club, table


def _demo_night(club: Club, users: dict[str, Any]) -> None:
    """A game night on the club's calendar (next Thursday at 20:00, UTC), bob already in, while
    none is ahead: the club page shows what hosts and members do with them."""
    import datetime as dt

    from django.utils import timezone

    from club.models import GameNight

    now = timezone.now()
    if GameNight.objects.filter(club=club, starts_at__gt=now).exists():
        return
    day = now.date() + dt.timedelta(days=(3 - now.weekday()) % 7 or 7)
    starts = dt.datetime.combine(day, dt.time(20, 0), tzinfo=dt.UTC)
    night = club_services.game_night_schedule(club=club, by=users["alice"], starts_at=starts,
                                              note="Patch-Patch 5/10 at Thursday felt")
    club_services.game_night_reply(night=night, user=users["bob"], answer="yes")


class Command(BaseCommand):
    help = "Create demo users and Patch-Patch tables for a local run (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000", help="where the site is served")
        parser.add_argument("--demo", action="store_true",
                            help="add the demo players and club to a DATABASE_URL database too")

    def handle(self, *args: Any, **options: Any) -> None:
        import os

        base = str(options["base_url"]).rstrip("/")
        base, friends = _for_people(base)
        # A real site (DATABASE_URL set) gets no accounts whose password is printed in the README
        # (found by an audit: `make run`, the README's one-time step, seeded them into production
        # and seeded them again after they were deleted). SEED_DEMO=1 or --demo asks for them.
        if os.environ.get("DATABASE_URL") and not options["demo"] and os.environ.get("SEED_DEMO", "") not in ("1", "yes", "true"):
            self.stdout.write(
                "No demo players or club: this is a DATABASE_URL database (SEED_DEMO=1 make run, or "
                "`manage.py seed_demo --demo`, adds them). Make an account for yourself with "
                "`manage.py createsuperuser` or sign up at " + f"{base}/accounts/signup/.")
            return
        User = get_user_model()
        with transaction.atomic():
            users = {}
            for name in DEMO_USERS:
                user, created = User.objects.get_or_create(username=name)
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.save()
                profile_ensure(user=user, display_name=name.title())
                users[name] = user
            tables = []
            for name, sb, bb, speed, seats, public, game in DEMO_TABLES:
                table = Table.objects.exclude(status=Table.Status.CLOSED).filter(name=name).first()
                if table is None:
                    table = table_create(
                        creator=None if public else users["alice"], name=name, small_blind=sb,
                        big_blind=bb, speed=speed, max_seats=seats, is_public=public, game=game,
                    )
                tables.append(table)
            club, club_table = _demo_club(users)
        self.stdout.write(f"Demo ready at {base}/lobby/")
        self.stdout.write(
            f"  {club.name}, alice's club (bob hosts, carol plays): {base}/clubs/{club.pk}/"
            f" and its table {base}/tables/{club_table.id}/"
        )
        self.stdout.write(
            "Log in as " + ", ".join(DEMO_USERS) + f" with the password {DEMO_PASSWORD!r} "
            f"(a private window per player lets you play against yourself), or sign up at {base}/accounts/signup/."
        )
        for table in tables:
            if table.is_public:
                self.stdout.write(f"  {table.name}: {base}/tables/{table.id}/")
            else:
                self.stdout.write(
                    f"  {table.name}, private, alice's: {base}/tables/{table.id}/?invite={table.invite_code}"
                )
        if friends:
            self.stdout.write(friends)


def _for_people(base: str) -> tuple[str, str]:
    """The address to print for whoever runs the site (``base``, or 127.0.0.1 when the server
    listens on every address: nobody can open 0.0.0.0), and a line for friends on the same
    network (README, "Friends on the same Wi-Fi"; found by an audit: every printed link was
    http://0.0.0.0:8000/...)."""
    from urllib.parse import urlsplit

    from config.lan import is_loopback, lan_address

    parts = urlsplit(base)
    port = f":{parts.port}" if parts.port else ""
    lan = lan_address()
    if parts.hostname in ("0.0.0.0", "::"):  # noqa: S104 - what `make run HOST=0.0.0.0` passes
        local = f"{parts.scheme}://127.0.0.1{port}"
        if lan:
            return local, (f"Friends on the same network open {parts.scheme}://{lan}{port}/ (and you too, so the "
                           "invite links you copy work on their phones).")
        return local, "This computer has no network address now: only this computer can open the site."
    if is_loopback(parts.hostname):
        return base, ("Only this computer can open these links. For friends on the same Wi-Fi: "
                      "make run HOST=0.0.0.0 (README, \"Friends on the same Wi-Fi\").")
    return base, ""

"""Create the demo users (and, as the site grows, a demo club and tables) for `make run`."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERS = ("alice", "bob", "carol")
DEMO_PASSWORD = "patchpatch-demo"


class Command(BaseCommand):
    help = "Create demo users for a local run (idempotent)."

    def handle(self, *args: object, **options: object) -> None:
        User = get_user_model()
        for name in DEMO_USERS:
            user, created = User.objects.get_or_create(username=name)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
        self.stdout.write(
            "Demo ready. Open http://127.0.0.1:8000 and log in as "
            + ", ".join(DEMO_USERS)
            + f" with the password {DEMO_PASSWORD!r}."
        )

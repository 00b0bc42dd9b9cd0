"""``python manage.py build_rankings``: recompute the rankings page's tables with the engine."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rulesdocs import probabilities


class Command(BaseCommand):
    help = (
        "Count five- and seven-card hands exactly and simulate Omaha and Patch-Patch deals, then "
        "write rulesdocs/data/rankings.json, which the rankings page reads."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=probabilities.SEED)
        parser.add_argument("--deals", type=int, default=probabilities.DEALS)
        parser.add_argument("--output", default=str(probabilities.DATA_FILE))

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()

        def say(message: str) -> None:
            self.stdout.write(f"[{time.monotonic() - started:6.1f}s] {message}")

        data = probabilities.build(options["seed"], options["deals"], say)
        probabilities.write(data, Path(options["output"]))
        say(f"wrote {options['output']}")

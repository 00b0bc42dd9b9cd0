"""Suite-wide fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

# The embedded worker thread is started by the server process, never inside the test process.
os.environ.setdefault("CELERY_EMBEDDED_WORKER", "0")


def pytest_collection_modifyitems(config: object, items: list) -> None:  # type: ignore[type-arg]
    """Run the browser tests last: Playwright's sync API keeps an event loop running in the main
    thread for the whole session, and tests that call ``asyncio.run`` (the integration suite)
    cannot start their own loop after it."""
    items.sort(key=lambda item: "/e2e/" in str(getattr(item, "fspath", "")))


@pytest.fixture(autouse=True)
def _english_unless_a_test_says_otherwise() -> Iterator[None]:
    """Django keeps the active language per thread, and a request made by the test client leaves
    its language active after it: a test that asked for a Russian page made the next test's
    messages Russian. Every test starts in English."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int | None, str | None, float]]:
    """The clock timers the table services send, instead of sending them: (table id, version,
    due, countdown) each."""
    calls: list[tuple[int, int | None, str | None, float]] = []

    def fake_apply_async(args: tuple[Any, ...], countdown: float = 0.0, **_kw: Any) -> None:
        calls.append((args[0], args[1], args[2] if len(args) > 2 else None, countdown))

    from tables.tasks import expire_clock

    monkeypatch.setattr(expire_clock, "apply_async", fake_apply_async)
    return calls

"""Every page that takes a form: hostile input never causes a server error, and a POST without
a CSRF token is refused. The pages are found by walking the URL configuration, so a new form is
covered without touching this file."""

from __future__ import annotations

import random
import string
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.tables.helpers import make_user, seated_table

pytestmark = pytest.mark.django_db

SKIP_PREFIXES = ("admin/", "i18n/", "static/")


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p


def _concrete(route: str, ids: dict[str, Any]) -> str:
    """Fill route converters with real ids where we have them, else something plausible."""
    import re

    def fill(m: re.Match[str]) -> str:
        conv, name = (m.group(1) or "str"), m.group(2)
        if name in ids:
            return str(ids[name])
        return "1" if conv == "int" else "nosuchthing"

    path = re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)
    return "/" + path.lstrip("^").rstrip("$")


def _routes(ids: dict[str, Any]) -> list[str]:
    out = []
    for route, _pattern in _walk(get_resolver().url_patterns):
        if route.startswith(SKIP_PREFIXES) or route.startswith("ws/"):
            continue
        out.append(_concrete(route, ids))
    return sorted(set(out))


def _junk(rng: random.Random) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        return "".join(rng.choice(string.printable + "עבריתрусский♥\u202e") for _ in range(rng.randrange(0, 300)))
    if kind == 1:
        return str(rng.randint(-(10**20), 10**20))
    if kind == 2:
        return rng.choice(["", "0", "-1", "1e9", "NaN", "true", "null", "<script>alert(1)</script>", "' OR 1=1 --"])
    if kind == 3:
        return "x" * rng.randrange(1000, 20000)
    if kind == 4:
        return [str(rng.randint(0, 99)) for _ in range(rng.randrange(0, 4))]
    return "5-10"


FIELDS = ["name", "username", "password", "password1", "password2", "display_name", "buy_in", "seat",
          "stakes", "small_blind", "big_blind", "speed", "max_seats", "visibility", "game", "amount",
          "reason", "user", "role", "description", "language", "code", "text", "message", "period",
          "max_uses", "expires", "min_buy_in_bb", "max_buy_in_bb", "next", "confirm", "end_rule"]


@pytest.fixture
def world() -> dict[str, Any]:
    table, users = seated_table(n=2)
    return {"table_id": table.id, "user": users[0], "number": 1, "stranger": make_user("stranger")}


def test_hostile_posts_never_crash_any_page(world: dict[str, Any]) -> None:
    rng = random.Random(99)
    clients = [Client(), Client(), Client()]
    clients[1].force_login(world["user"])
    clients[2].force_login(world["stranger"])
    routes = _routes({"table_id": world["table_id"], "number": world["number"]})
    assert len(routes) > 15
    sent = 0
    for route in routes:
        for client in clients:
            for _ in range(6):
                data = {f: _junk(rng) for f in rng.sample(FIELDS, rng.randrange(0, 8))}
                res = client.post(route, data)
                assert res.status_code < 500, f"POST {route} {data!r:.200} -> {res.status_code}"
                sent += 1
            res = client.get(route, {f: _junk(rng) for f in rng.sample(FIELDS, 3)})
            assert res.status_code < 500, f"GET {route} -> {res.status_code}"
    assert sent > 300


def test_every_form_needs_its_csrf_token(world: dict[str, Any]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["user"])
    refused = 0
    for route in _routes({"table_id": world["table_id"], "number": world["number"]}):
        res = client.post(route, {"name": "x"})
        # A POST-only page refuses without the token (403); GET-only pages answer 405.
        assert res.status_code in (403, 404, 405), f"{route} accepted a POST without a CSRF token ({res.status_code})"
        refused += res.status_code == 403
    assert refused >= 10

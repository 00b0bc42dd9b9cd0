"""config.page_connections: a page served by the ASGI handler closes its thread's database
connections when it ends; nothing else does (the integration suite checks it on PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.handlers.asgi import ASGIHandler
from django.test.client import AsyncClientHandler, ClientHandler

from config import page_connections


class _Conn:
    def __init__(self, in_atomic_block: bool = False) -> None:
        self.in_atomic_block = in_atomic_block
        self.closed = False

    def close(self) -> None:
        self.closed = True


class _Handler:
    def __init__(self, conns: list[_Conn]) -> None:
        self.conns = conns

    def all(self, initialized_only: bool = False) -> list[_Conn]:
        assert initialized_only  # never opens a connection only to close it
        return self.conns


@pytest.fixture
def conns(monkeypatch: pytest.MonkeyPatch) -> list[_Conn]:
    found = [_Conn(), _Conn(in_atomic_block=True)]
    monkeypatch.setattr(page_connections, "connections", _Handler(found))
    return found


class _SiteHandler(ASGIHandler):
    pass


@pytest.mark.parametrize("sender", [ASGIHandler, _SiteHandler])
def test_an_asgi_page_closes_its_connections_but_not_one_inside_a_transaction(conns: list[_Conn], sender: Any) -> None:
    page_connections.close_after_page(sender=sender)
    assert [c.closed for c in conns] == [True, False]


@pytest.mark.parametrize("sender", [ClientHandler, AsyncClientHandler, None, "ASGIHandler"])
def test_other_requests_keep_theirs(conns: list[_Conn], sender: Any) -> None:
    page_connections.close_after_page(sender=sender)
    assert [c.closed for c in conns] == [False, False]


def test_installed_once_on_request_finished() -> None:
    from django.core.signals import request_finished

    page_connections.install()
    page_connections.install()
    mine = [r for r in request_finished.receivers if r[0][0] == "config.page_connections"]
    assert len(mine) == 1

"""Autobahn's per-frame debug lines made only when logged (``config/wslogs.py``)."""

from __future__ import annotations

import importlib

import pytest

from config import wslogs


def test_a_later_value_is_made_only_when_formatted_and_then_reads_as_the_real_one() -> None:
    calls: list[tuple[object, ...]] = []

    def real(value: object, color: str = "white") -> str:
        calls.append((value, color))
        return f"<{color}:{value}>"

    later = wslogs.lazy(real)
    value = later(12, color="red")
    assert calls == []  # nothing made for a line nobody formats
    assert f"{value}" == "<red:12>" and str(value) == "<red:12>" and f"{value:>10}" == "  <red:12>"
    assert calls == [(12, "red")] * 3


def test_install_swaps_the_helpers_of_both_modules_once() -> None:
    assert wslogs.install() is True
    for path in wslogs.MODULES:
        module = importlib.import_module(path)
        for name in ("hltype", "hlval"):
            helper = getattr(module, name)
            real = helper.__wrapped__
            assert getattr(real, "__wrapped__", None) is None  # installing twice wraps nothing twice
            assert isinstance(helper(3), wslogs.Later)
    assert wslogs.install() is True
    from autobahn.websocket import protocol

    assert getattr(protocol.hlval.__wrapped__, "__wrapped__", None) is None


def test_a_debug_line_still_reads_as_autobahn_wrote_it() -> None:
    """Twisted's logger (Daphne's) formats the event with the real helpers' text."""
    from autobahn.util import hltype, hlval
    from autobahn.websocket import protocol
    from twisted.logger import formatEvent

    wslogs.install()
    event = {"log_format": "{func} sent {data_len} bytes",
             "func": protocol.hltype(protocol.WebSocketProtocol.sendData), "data_len": protocol.hlval(512)}
    assert formatEvent(event) == f"{hltype(protocol.WebSocketProtocol.sendData)} sent {hlval(512)} bytes"
    assert "WebSocketProtocol.sendData" in formatEvent(event)


def test_it_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PP_WS_LAZY_LOGS", "0")
    assert wslogs.install() is False

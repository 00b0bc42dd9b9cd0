"""Compressed websocket messages (``config/wsdeflate.py``): the terms Daphne accepts a browser's
permessage-deflate offer on, and, against a real Daphne process, a table's picture arriving
compressed to a client that offers it and plain to one that does not."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

from config import wsdeflate
from tests.e2e.conftest import ROOT, daphne_server


def test_a_deflate_offer_is_taken_with_a_small_window_and_hash() -> None:
    accepted = wsdeflate.accept([PerMessageDeflateOffer(accept_max_window_bits=True)])
    assert isinstance(accepted, PerMessageDeflateOfferAccept)
    assert accepted.window_bits == wsdeflate.SERVER_WINDOW_BITS == 14
    assert accepted.mem_level == wsdeflate.SERVER_MEM_LEVEL
    # The browser's own messages are asked to use the smallest window, when it lets us ask.
    assert accepted.request_max_window_bits == 9
    assert "client_max_window_bits=9" in accepted.get_extension_string()


def test_a_client_that_limits_the_servers_window_is_obeyed() -> None:
    accepted = wsdeflate.accept([PerMessageDeflateOffer(accept_max_window_bits=False, request_max_window_bits=10)])
    assert accepted.window_bits == 10
    assert accepted.request_max_window_bits == 0  # it did not offer to limit its own
    assert "server_max_window_bits=10" in accepted.get_extension_string()


def test_no_deflate_offer_means_no_compression() -> None:
    assert wsdeflate.accept([]) is None


def test_nothing_is_installed_outside_daphne_or_when_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PP_WS_DEFLATE", "0")
    assert wsdeflate.install() is False
    monkeypatch.setenv("PP_WS_DEFLATE", "1")
    monkeypatch.delitem(sys.modules, "daphne.server", raising=False)
    assert wsdeflate.install() is False
    assert "daphne.server" not in sys.modules  # not imported by the check: it installs a reactor


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir: Path = tmp_path_factory.mktemp("wsdeflate")
    with daphne_server(workdir) as url:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
               "SQLITE_PATH": str(workdir / "e2e.sqlite3")}
        for name in ("DATABASE_URL", "REDIS_URL"):
            env.pop(name, None)
        seeded = subprocess.run([sys.executable, "manage.py", "seed_demo", "--base-url", url],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
        assert seeded.returncode == 0, seeded.stderr
        yield url


def _open(url: str, path: str, extensions: str | None) -> tuple[socket.socket, str, bytes]:
    """A websocket handshake by hand, so the frames can be read as they come off the wire."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=15)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", f"Origin: {url}"]
    if extensions:
        lines.append(f"Sec-WebSocket-Extensions: {extensions}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    return sock, head.decode("latin-1"), rest


def _frame(sock: socket.socket, buf: bytes) -> tuple[int, bytes, bytes]:
    """One server frame (never masked): its first byte, its payload, and what was read past it."""
    def need(n: int) -> None:
        nonlocal buf
        while len(buf) < n:
            chunk = sock.recv(65536)
            assert chunk, "the server closed the socket"
            buf += chunk

    need(2)
    first, length = buf[0], buf[1] & 0x7F
    start = 2
    if length == 126:
        need(4)
        length, start = int.from_bytes(buf[2:4], "big"), 4
    elif length == 127:
        need(10)
        length, start = int.from_bytes(buf[2:10], "big"), 10
    need(start + length)
    return first, buf[start:start + length], buf[start + length:]


def test_a_tables_picture_comes_compressed_to_a_browser_that_offers_it(demo_server: str) -> None:
    sock, head, buf = _open(demo_server, "/ws/tables/1/", "permessage-deflate; client_max_window_bits")
    try:
        assert head.startswith("HTTP/1.1 101"), head
        assert "permessage-deflate" in head and "client_max_window_bits=9" in head, head
        first, payload, buf = _frame(sock, buf)
        assert first & 0x0F == 1 and first & 0x40, f"a text frame with RSV1 (compressed): {first:#x}"
        text = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
        snap = json.loads(text)
        assert snap["version"] >= 0 and 'class="felt' in snap["html"]
        assert len(payload) < len(text) / 2, (len(payload), len(text))
    finally:
        sock.close()


def test_a_client_that_offers_nothing_gets_plain_text(demo_server: str) -> None:
    sock, head, buf = _open(demo_server, "/ws/tables/1/", None)
    try:
        assert head.startswith("HTTP/1.1 101") and "permessage-deflate" not in head, head
        first, payload, _ = _frame(sock, buf)
        assert first & 0x0F == 1 and not first & 0x40
        assert 'class="felt' in json.loads(payload)["html"]
    finally:
        sock.close()

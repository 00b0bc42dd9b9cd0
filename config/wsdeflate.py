"""Compressed websocket messages (permessage-deflate, RFC 7692) from Daphne.

Every browser offers permessage-deflate; Daphne's websocket factory (autobahn) can accept it but
is never told to, so each picture of a table went out as plain text: 4-9 KB a message, three or
more messages a second at a busy table, on a player's phone network. A table's pictures differ
from one version to the next by a few lines, so with the compressor's window kept from message to
message (context takeover) the bytes sent fall to about a twentieth (`bench/RESULTS.md`).

What it costs the server: one zlib compressor per socket, with a 16 KB window (a whole
Patch-Patch picture fits in it) and a small hash (memory level 4): about 72 KB a socket instead
of zlib's default 256 KB, and some 15 microseconds of compression a message. The browser's own
messages (a few dozen bytes) are asked to use the smallest window (512 bytes), so the server's
decompressor for them stays small too.

``install()`` is called by ``config/asgi.py``. It only does anything inside a Daphne process
(``daphne.server`` already imported, as Daphne's command line does before it loads the
application); ``PP_WS_DEFLATE=0`` turns it off.
"""

from __future__ import annotations

import os
import sys
from typing import Any

SERVER_WINDOW_BITS = 14
SERVER_MEM_LEVEL = 4
CLIENT_WINDOW_BITS = 9


def accept(offers: list[Any]) -> Any:
    """Autobahn's ``perMessageCompressionAccept``: take the client's first permessage-deflate
    offer, on the terms above as far as the offer allows; None (no compression) otherwise."""
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            window = SERVER_WINDOW_BITS
            if offer.request_max_window_bits:  # the client asked for a window no larger than this
                window = min(window, offer.request_max_window_bits)
            return PerMessageDeflateOfferAccept(
                offer,
                request_max_window_bits=CLIENT_WINDOW_BITS if offer.accept_max_window_bits else 0,
                window_bits=window,
                mem_level=SERVER_MEM_LEVEL,
            )
    return None


def install() -> bool:
    """Make Daphne's websocket factory accept compression. True when it was installed."""
    if os.environ.get("PP_WS_DEFLATE", "1") == "0" or "daphne.server" not in sys.modules:
        return False
    import daphne.server
    from daphne.ws_protocol import WebSocketFactory

    if getattr(daphne.server.WebSocketFactory, "deflates", False):
        return True

    class DeflatingWebSocketFactory(WebSocketFactory):  # type: ignore[misc]
        deflates = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(perMessageCompressionAccept=accept)

    daphne.server.WebSocketFactory = DeflatingWebSocketFactory  # type: ignore[misc]
    return True

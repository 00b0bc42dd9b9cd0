"""Autobahn's debug lines, made only when someone reads them.

Daphne's websockets are autobahn's. For every frame it sends or receives, autobahn calls
``self.log.debug("{func} sent {data_len} bytes for peer {peer}", func=hltype(...), peer=hlval(...),
...)``: the arguments are made before the logger looks at its level, and ``hltype`` (a function's
qualified name, found with ``inspect`` and coloured) is not cheap. A py-spy profile of a Daphne
process at 200 tables (docs/RELIABILITY.md, thirty-second look) had 2-2.5% of its samples in
those two helpers, for lines nobody logs at our level.

``install()`` puts, in autobahn's websocket modules, helpers that keep what they were given and
make the real text only when the line is formatted (which txaio does only for a level that is
on). A debug line, when asked for, reads as before. Called by ``config/asgi.py``; it does nothing
when autobahn is not installed or its module no longer has these names. ``PP_WS_LAZY_LOGS=0``
keeps autobahn's own.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any


class Later:
    """A value for a log line, turned into its text (``make(*args, **kwargs)``) only when formatted."""

    __slots__ = ("args", "kwargs", "make")

    def __init__(self, make: Callable[..., str], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.make = make
        self.args = args
        self.kwargs = kwargs

    def __str__(self) -> str:
        return str(self.make(*self.args, **self.kwargs))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return str(self)


def lazy(make: Callable[..., str]) -> Callable[..., Later]:
    def later(*args: Any, **kwargs: Any) -> Later:
        return Later(make, args, kwargs)

    later.__wrapped__ = make  # type: ignore[attr-defined]
    return later


MODULES = ("autobahn.websocket.protocol", "autobahn.twisted.websocket")


def install() -> bool:
    """Swap the helpers in autobahn's websocket modules (the protocol's frames, and Twisted's
    ``dataReceived`` that Daphne runs on); True when done (or done before)."""
    if os.environ.get("PP_WS_LAZY_LOGS", "1") == "0":
        return False
    import importlib

    done = True
    for path in MODULES:
        try:
            module = importlib.import_module(path)
        except ImportError:
            done = False
            continue
        for name in ("hltype", "hlval"):
            real = getattr(module, name, None)
            if not callable(real):
                done = False
                continue
            if getattr(real, "__wrapped__", None) is not None:
                continue  # installed before
            setattr(module, name, lazy(real))
    return done

"""This computer's address on its home network, for `make run HOST=0.0.0.0`: friends' phones on
the same Wi-Fi open the site there (README, "Friends on the same Wi-Fi").

No lookup is made (a hostname that DNS does not know would hang the start-up): the address is
the one the computer would send from, found by pointing a UDP socket at a documentation address
(nothing is sent)."""

from __future__ import annotations

import socket


def is_loopback(name: str | None) -> bool:
    """Whether a host name (``[::1]`` or ``::1`` alike) names this computer only."""
    return (name or "").strip("[]").lower() in ("127.0.0.1", "localhost", "::1")


def lan_address() -> str | None:
    """This computer's IPv4 address on its network, or None (no network, or only loopback)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route is chosen, no packet leaves
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address  # noqa: S104


def laptop_hosts() -> list[str]:
    """The names a `make run` site answers to besides the loopback ones: its network address and
    its own name (with ``.local``, as phones on the network may find it)."""
    out = []
    address = lan_address()
    if address:
        out.append(address)
    name = socket.gethostname().strip().lower()
    if name and name != "localhost":
        out += [name, name + ".local"]
    return out

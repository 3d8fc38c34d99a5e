"""The machine's addresses on the network (no Flask here: the server and the pages use it)."""

from __future__ import annotations

import socket


def lan_address() -> str:
    """The address other devices on the Wi-Fi reach this machine at (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET: only picks the outgoing interface
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()

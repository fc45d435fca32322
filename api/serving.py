"""How `rulekb serve` runs the app under uvicorn: the HTTP protocol every worker process uses.

A keep-alive connection answered in two segments on a socket without TCP_NODELAY waits for the
client's delayed ACK (about 40 ms) before the second leaves. asyncio turns Nagle off on accepted
connections only when the listening socket says it is TCP, and the socket a worker of
`--workers N` inherits says protocol 0: every request on a kept-alive connection then took 44 ms
instead of under 1 ms. The protocol below turns it off on every connection it serves.
"""
from __future__ import annotations

import asyncio
import socket

from uvicorn.protocols.http.auto import AutoHTTPProtocol

HTTP_PROTOCOL = "api.serving:NoDelayHTTPProtocol"  # uvicorn.run(http=...), by name: workers import it


def no_delay(transport: asyncio.BaseTransport) -> None:
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        no_delay(transport)
        super().connection_made(transport)

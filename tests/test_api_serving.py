"""How `rulekb serve` serves: every connection a worker accepts has TCP_NODELAY (issue 34: 44 ms per
keep-alive request with --workers 2), asserted on the socket, not by a timing."""
import http.client
import socket
import threading
import time

import pytest
import uvicorn

from api.serving import HTTP_PROTOCOL


async def hello(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


def worker_socket() -> socket.socket:
    """A listening socket as a worker of `--workers N` holds it: rebuilt from a descriptor, so it
    reports protocol 0 (asyncio then leaves Nagle on)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    inherited = socket.fromfd(listener.fileno(), socket.AF_INET, socket.SOCK_STREAM)
    listener.close()
    assert inherited.proto == 0
    return inherited


def nodelay_of_served_connection(protocol: str) -> int:
    sock = worker_socket()
    server = uvicorn.Server(uvicorn.Config(hello, http=protocol, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        client = http.client.HTTPConnection(*sock.getsockname(), timeout=10)
        client.request("GET", "/")
        assert client.getresponse().read() == b"ok"  # the connection stays open (keep-alive)
        [served] = list(server.server_state.connections)
        value = served.transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        client.close()
        return value
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_worker_turns_nagle_off_on_every_connection_it_serves():
    assert nodelay_of_served_connection(HTTP_PROTOCOL) != 0


def test_without_it_a_worker_socket_serves_with_nagle_on():
    """What the protocol fixes: uvicorn's own on the same socket leaves TCP_NODELAY off."""
    if nodelay_of_served_connection("h11") != 0:
        pytest.skip("this platform's asyncio sets TCP_NODELAY on such sockets itself")

"""A real API server process on a free loopback port, for tests and benchmarks that need one."""
from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx

LAUNCH = """
import sys, uvicorn
from engine.core import game
game.ENGINES.update({extra!r})
{prelude}
from api.app import create_app
from pathlib import Path
site = Path({site!r}) if {site!r} else None
uvicorn.run(create_app({db!r}, site_dir=site, sessions_url={sessions!r}), host="127.0.0.1", port={port},
            log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str, in_a_row: int = 1, seconds: float = 120, pause: float = 0.1) -> bool:
    """Whether GET url answers 200 `in_a_row` times in a row before `seconds` pass (a server starting)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if all(httpx.get(url, timeout=2).status_code == 200 for _ in range(in_a_row)):
                return True
        except httpx.HTTPError:
            pass
        time.sleep(pause)
    return False


class Server:
    def __init__(self, db: str, sessions: str, extra_engines: dict[str, str] | None = None, site: str | None = None,
                 wait_for: str = "ready", prelude: str = ""):
        """`prelude`: Python run in the server process before the app is built (a benchmark's stand-in)."""
        self.port = free_port()
        code = LAUNCH.format(extra=extra_engines or {}, db=db, sessions=sessions, port=self.port, site=site or "",
                             prelude=prelude)
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self.url = f"http://127.0.0.1:{self.port}"
        # "ready": the knowledge base is readable and the engines are loaded; "health": the process answers
        if answers(f"{self.url}/api/v1/{wait_for}"):
            return
        self.kill()
        raise RuntimeError(f"the server did not start: {self.proc.stderr.read().decode()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing: what a crash does."""
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

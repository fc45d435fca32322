"""API benchmark (`make bench`): throughput and latency of the main operations under a bounded load
on loopback, each as a ratio to a trivial endpoint of the same server measured in the same run.

A real uvicorn process serves the real knowledge base (built into a temporary folder); a fixed
number of client threads send a fixed number of requests each, then stop.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from cli.build import build
from tests.server import Server

THREADS = 4
REQUESTS_PER_THREAD = 150


def measure(name: str, url: str, make_request) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()

    def worker():
        with httpx.Client(timeout=30) as client:
            local = []
            for _ in range(REQUESTS_PER_THREAD):
                t0 = time.perf_counter()
                r = make_request(client, url)
                local.append(time.perf_counter() - t0)
                if r.status_code >= 400:
                    raise RuntimeError(f"{name}: HTTP {r.status_code} {r.text[:200]}")
            with lock:
                latencies.extend(local)

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    start = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - start
    qs = statistics.quantiles(latencies, n=100)
    return {"name": name, "rps": len(latencies) / elapsed, "p50": qs[49] * 1000, "p99": qs[98] * 1000}


def session_game() -> tuple[str, dict, dict[str, str]]:
    """The game whose session actions are measured: Gugong when its engine exists."""
    from engine.core import EngineError, get_game

    try:
        get_game("gugong")
        return "gugong", {"game": "gugong", "players": ["A", "B", "C", "D"], "seed": 1}, {}
    except EngineError:
        return "race (toy game: the Gugong engine is not available)", \
            {"game": "race", "players": ["A", "B"], "seed": 1}, {"race": "tests.test_engine_core:Race"}


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="rulekb-bench-"))
    db, sessions = f"sqlite:///{tmp / 'kb.db'}", f"sqlite:///{tmp / 'sessions.db'}"
    build(db)
    label, create, extra = session_game()
    server = Server(db, sessions, extra)
    try:
        base = server.url + "/api/v1"

        mine = threading.local()  # each client thread plays its own session: no stale actions

        def session_action(client, url):
            if getattr(mine, "sid", None) is None:
                mine.sid = client.post(f"{url}/sessions", json=create).json()["id"]
            legal = client.get(f"{url}/sessions/{mine.sid}/actions").json()["legal"]
            if not legal:  # game over: start another
                mine.sid = client.post(f"{url}/sessions", json=create).json()["id"]
                legal = client.get(f"{url}/sessions/{mine.sid}/actions").json()["legal"]
            return client.post(f"{url}/sessions/{mine.sid}/actions", json={"action": legal[0]})

        rows = [
            measure("trivial GET /health (baseline)", base, lambda c, u: c.get(f"{u}/health")),
            measure("entity lookup", base, lambda c, u: c.get(f"{u}/entities/gugong/location/travel?lang=pl")),
            measure("search", base, lambda c, u: c.get(f"{u}/search", params={"q": "sluzacy", "game": "gugong"})),
            measure(f"session action ({label}; includes the GET of legal actions)", base, session_action),
        ]
    finally:
        server.stop()
    baseline = rows[0]
    print(f"API benchmark: {THREADS} client threads x {REQUESTS_PER_THREAD} requests, uvicorn on loopback")
    print(f"{'operation':<70} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'throughput vs baseline':>24}")
    for r in rows:
        print(f"{r['name']:<70} {r['rps']:>8.0f} {r['p50']:>8.1f} {r['p99']:>8.1f} {r['rps'] / baseline['rps']:>23.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""API benchmark (`make bench`): each operation's throughput as a ratio to GET /health of the same
server in the same run, at concurrency 1 and 32, with the knowledge base on SQLite and on
PostgreSQL; the latency of posting a move, back to back (capacity) and on a schedule (players who
think between moves); the time to the first session on a cold server.

A real uvicorn process serves the real knowledge base (built into a temporary folder or a
throw-away PostgreSQL schema); client threads on loopback send a fixed number of requests, then
stop. Timings are printed, never asserted (the suite checks behaviour, not speed). Each row is the
median of ROUNDS rounds; within a round an operation and GET /health take TURNS turns, and the
ratio is taken between those two.

Rows: "warm" repeats a fixed set of requests (what an app looking up the same entries sees: the
per-build response cache answers); "cold" asks a new server (warmed up, /ready) for every entity
once and runs every query of the search query set once, alone and filtered by each game, so each
answer is computed. "route floor" asks the same new queries of a server whose ranking is replaced by
one stored answer of the usual size: what the framework, the parameters, the envelope, the JSON and
the gzip of a search answer cost before any searching, the ceiling of the cold search row.

Last, `rulekb serve --workers N` for N = 1, 2, 4 with sessions on SQLite and on PostgreSQL: /health
and moves per second with keep-alive clients, as ratios to one worker (`python -m tests.bench_api
workers` runs that table alone).

"server cpu" and "client cpu": CPU time per request of the server process and of the client
process (its threads share one interpreter). On a two-core machine the rate is bounded by whichever
of them nears a core's worth: a ratio at 32 clients where the client's column is the larger one
measures the client as much as the server.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

import httpx
from sqlalchemy import create_engine, text

from cli.build import build
from tests import search_eval
from tests.server import Server, answers, free_port

CONCURRENCY = (1, 32)
REQUESTS = 1200  # per measurement, spread over the client threads
ROUNDS = 3  # each row is the median of this many rounds: on a shared machine one run can be 40% off
TURNS = 4  # within a round, an operation and its /health baseline take turns this many times
PG_URL = os.environ.get("RULEKB_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PACED_RATES = (25, 50, 75, 100)  # moves/s offered by 32 paced clients: up to about this machine's capacity
SEARCHES = ["sluzacy", "podroz", "nefryt", "jade", "privilege", "smok", "palác", "cestování", "mur", "decree",
            "dwór", "festiwal", "ryż", "fajerwerki", "urzędnik", "statek", "wall", "intryga", "rok", "juan"]


def clients(url: str, threads: int, work, on_start=lambda: None) -> dict[str, dict]:
    """Run `work(client, n, timed)` in `threads` client threads at once; `timed(send, row)` times one
    request of a row. Throughput and latency percentiles over every timed request, by row.

    The clock starts (and `on_start` runs) once every thread has its connection open: with 32 threads
    and a row of a few hundred requests, opening 32 connections inside the measured time cost the
    short rows a larger share than the /health baseline of 1200."""
    latencies: dict[str, list[float]] = {}
    lock = threading.Lock()
    connected = threading.Barrier(threads + 1)

    def worker(n: int):
        local: dict[str, list[float]] = {}

        def timed(send, row="main", due=None):
            """`due`: when the request was meant to leave (a paced client): a late start counts."""
            t0 = time.perf_counter()
            response = send()
            local.setdefault(row, []).append(time.perf_counter() - (t0 if due is None else min(t0, due)))
            return response

        with httpx.Client(base_url=url, timeout=60) as client:
            try:
                client.get("/api/v1/health")  # opens the connection; /health is never cached
            finally:
                connected.wait()
            work(client, n, timed)
        with lock:
            for row, values in local.items():
                latencies.setdefault(row, []).extend(values)

    pool = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    for th in pool:
        th.start()
    connected.wait()
    on_start()
    start = time.perf_counter()
    for th in pool:
        th.join()
    elapsed = time.perf_counter() - start
    return {row: _figures(values, elapsed) for row, values in latencies.items()}


def _figures(latencies: list[float], elapsed: float, **extra) -> dict:
    qs = statistics.quantiles(latencies, n=100)
    return {"n": len(latencies), "rps": len(latencies) / elapsed, "p50": qs[49] * 1000, "p99": qs[98] * 1000,
            "elapsed": elapsed, "latencies": latencies, **extra}


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time used so far by a process (Linux /proc), or by this one (the clients) when pid is None."""
    if pid is None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(server: Server, paths: list[str], threads: int, total: int = REQUESTS) -> dict:
    """Throughput and latency of `total` GETs of `paths` (in turn), and the CPU each request cost the
    server process and the client process: with two cores, whichever is near one core's worth per
    second bounds the rate."""
    errors: list[str] = []
    requests = [paths[i % len(paths)] for i in range(total)]

    def work(client, n, timed):
        for path in requests[n::threads]:
            r = timed(lambda: client.get(path))
            if r.status_code != 200:
                errors.append(f"{path}: {r.status_code}")

    cpu: dict[str, float] = {}

    def on_start():
        cpu.update(server=cpu_seconds(server.proc.pid), client=cpu_seconds())

    result = clients(server.url, threads, work, on_start)["main"]
    result["server_ms"] = (cpu_seconds(server.proc.pid) - cpu["server"]) / result["n"] * 1000
    result["client_ms"] = (cpu_seconds() - cpu["client"]) / result["n"] * 1000
    if errors:
        raise RuntimeError(f"{len(errors)} errors, e.g. {errors[:3]}")
    return result


def versus_health(server: Server, paths: list[str], threads: int, total: int = REQUESTS) -> tuple[dict, dict]:
    """The figures of `total` GETs of `paths` and of as many GET /health, measured in TURNS turns:
    a slice of the one, then a slice of the other. On a shared machine whose speed drifts within a
    round (another tenant, a clock), both rows see the same drift, and their ratio keeps to what the
    server does."""
    requests = [paths[i % len(paths)] for i in range(total)]
    size = -(-total // TURNS)
    ops, bases = [], []
    for start in range(0, total, size):
        chunk = requests[start:start + size]
        bases.append(measure(server, ["/api/v1/health"], threads, len(chunk)))
        ops.append(measure(server, chunk, threads, len(chunk)))
    return _merged(ops), _merged(bases)


def _merged(parts: list[dict]) -> dict:
    n = sum(p["n"] for p in parts)
    cpu = {k: sum(p[k] * p["n"] for p in parts) / n for k in ("server_ms", "client_ms")}
    return _figures([x for p in parts for x in p["latencies"]], sum(p["elapsed"] for p in parts), **cpu)


def moves(url: str, threads: int, total: int = 480, rate: float | None = None) -> dict[str, dict]:
    """Post moves in Gugong sessions, one session per client thread, every seat played by the
    client with its own token (the view it reads back carries the legal actions). At least 40
    moves per thread, and enough in all that the p99 is not simply the slowest move. The reads of
    the next seat's view are timed as their own row: a store that made readers wait would look
    fast on moves alone.

    Without `rate` each client posts its next move as soon as it has the answer (the server's
    capacity). With `rate` (moves per second, all clients together) each client posts on a fixed
    schedule, as players who think between moves do, and a move's time runs from when it was due:
    a server that falls behind is charged for the wait, not only for the moves it got to."""
    per_thread = max(10 if rate else 40, total // threads)
    interval = threads / rate if rate else 0.0
    ready = threading.Barrier(threads)  # the schedule starts once every client has its session

    def work(client, n, timed):
        def start():
            s = client.post("/api/v1/sessions", json={"game": "gugong", "players": ["A", "B", "C", "D"],
                                                      "seed": n}).json()
            return s, {seat["name"]: {"Authorization": f"Bearer {seat['token']}"} for seat in s["seats"]}
        s, tokens = start()
        view = client.get(f"/api/v1/sessions/{s['id']}", headers=tokens[s["current_player"]]).json()
        ready.wait(timeout=120)
        began = time.perf_counter() + interval * n / threads  # the clients' moves spread over the interval
        for i in range(per_thread):
            if view.get("terminal"):
                s, tokens = start()
                view = client.get(f"/api/v1/sessions/{s['id']}", headers=tokens[s["current_player"]]).json()
            due = None
            if rate:
                due = began + i * interval
                time.sleep(max(0.0, due - time.perf_counter()))
            r = timed(lambda: client.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": view["legal"][0]},
                                          headers=tokens[view["current_player"]]), due=due)
            if r.status_code != 200:
                raise RuntimeError(f"move refused: {r.status_code} {r.text[:200]}")
            view = r.json()
            if "legal" not in view and not view["terminal"]:  # the next seat reads its own view
                view = timed(lambda: client.get(f"/api/v1/sessions/{s['id']}",
                                                headers=tokens[view["current_player"]]), "view").json()

    return clients(url, threads, work)


def cold_start(db: str, sessions: str) -> dict:
    """Seconds from a new server process answering /health to its first created session, and the
    same once /ready says the engines are loaded."""
    out = {}
    for wait_for_ready in (False, True):
        server = Server(db, sessions, wait_for="health" if not wait_for_ready else "ready")
        try:
            t0 = time.perf_counter()
            r = httpx.post(f"{server.url}/api/v1/sessions", json={"game": "gugong", "players": ["A", "B"]}, timeout=120)
            out["after ready" if wait_for_ready else "after liveness"] = time.perf_counter() - t0
            assert r.status_code == 201, r.text
        finally:
            server.stop()
    return out


# The ranking replaced by one stored answer (a Polish name query: 20 hits with snippets)
STORED_ANSWER = """
import api.routes.search as route
_search, _stored = route.run_search, []
def _stored_answer(engine, q, **kw):
    if not _stored:
        _stored.append(_search(engine, "służący", limit=20))
    return _stored[0]
route.run_search = _stored_answer
"""


def row(name: str, threads: int, rounds: list[tuple[dict, dict]]) -> str:
    """One printed row: the median over rounds of each figure, the ratio being taken within each round
    against that round's own /health."""
    def mid(key):
        return statistics.median(r[key] for r, _ in rounds)
    ratio = statistics.median(r["rps"] / base["rps"] for r, base in rounds)
    return (f"{name:<44} {threads:>7} {mid('rps'):>8.0f} {mid('p50'):>8.1f} {mid('p99'):>8.1f} {ratio:>10.2f}x "
            f"{mid('server_ms'):>8.2f} ms {mid('client_ms'):>8.2f} ms")


def bench_backend(label: str, db: str, sessions: str) -> None:
    server = Server(db, sessions)
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            ids = []
            url = "/api/v1/entities?limit=200"
            while url:
                page = client.get(url).json()
                ids += [e["id"] for e in page["data"]]
                url = page["next"]
        warm_entities = [f"/api/v1/entities/{i}?lang=pl" for i in ids[:50]]
        cold_entities = [f"/api/v1/entities/{i}" for i in ids]
        searches = [f"/api/v1/search?q={q}" for q in SEARCHES]
        # each once: the query set's queries (names, typos, questions) alone and with each game's filter
        uncached_searches = [f"/api/v1/search?q={quote(q['q'])}{f'&game={g}' if g else ''}"
                             for q in search_eval.load() for g in ("", "gugong", "dragon", "zhanguo")]
        print(f"\n## knowledge base on {label} ({len(ids)} entities; median of {ROUNDS} rounds)")
        print(f"{'operation':<44} {'clients':>7} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'vs /health':>11} "
              f"{'server cpu':>11} {'client cpu':>11}")
        for threads in CONCURRENCY:
            measure(server, warm_entities + searches, threads, 200)  # fill the caches first
            rounds: dict[str, list] = {}
            for _ in range(ROUNDS):
                entity, base = versus_health(server, warm_entities, threads)
                search = versus_health(server, searches, threads)
                for name, pair in (("GET /health (baseline)", (base, base)), ("entity lookup (warm)", (entity, base)),
                                   ("search (warm)", search)):
                    rounds.setdefault(name, []).append(pair)
            for name, rs in rounds.items():
                print(row(name, threads, rs))
    finally:
        server.stop()
    for threads in CONCURRENCY:
        rounds = {}
        for _ in range(ROUNDS):  # a new server each round: "cold" means nothing of it computed yet
            fresh = Server(db, sessions)
            try:
                rounds.setdefault("entity lookup (cold: each entity once)", []).append(
                    versus_health(fresh, cold_entities, threads, len(cold_entities)))
                rounds.setdefault(f"search (cold: {len(uncached_searches)} queries, each once)", []).append(
                    versus_health(fresh, uncached_searches, threads, len(uncached_searches)))
            finally:
                fresh.stop()
            floor = Server(db, sessions, prelude=STORED_ANSWER)
            try:
                rounds.setdefault("  search route floor (stored answer)", []).append(
                    versus_health(floor, uncached_searches, threads, len(uncached_searches)))
            finally:
                floor.stop()
        for name, rs in rounds.items():
            print(row(name, threads, rs))


class Workers:
    """`rulekb serve --workers N` (the installed command) on a free port, with the given databases."""

    def __init__(self, n: int, db: str, sessions: str):
        self.url = f"http://127.0.0.1:{free_port()}"
        env = {**os.environ, "RULEKB_DATABASE_URL": db, "RULEKB_SESSIONS_URL": sessions}
        rulekb = Path(sys.executable).with_name("rulekb")
        self.proc = subprocess.Popen([str(rulekb), "serve", "--workers", str(n), "--port", self.url.rsplit(":", 1)[1]],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # every worker warm: several /ready answers in a row (the kernel spreads the connections)
        if answers(f"{self.url}/api/v1/ready", in_a_row=2 * n, pause=0.2):
            return
        self.stop()
        raise RuntimeError(f"rulekb serve --workers {n} did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


WORKERS = (1, 2, 4)
WORKER_CLIENTS = 8  # keep-alive clients (one httpx connection per thread)


def bench_workers(db: str, session_stores: dict[str, str]) -> None:
    """/health and moves per second through `rulekb serve --workers N`, keep-alive clients, each
    figure also as a ratio to one worker: how the server scales on this machine, measured. A few
    seconds per cell."""
    print(f"\n## rulekb serve --workers N: {WORKER_CLIENTS} keep-alive clients, requests per second "
          f"(ratio to 1 worker; {os.cpu_count()} cores)")
    print(f"{'sessions on':<12} {'workers':>7} {'/health/s':>10} {'ratio':>7} {'p50 ms':>7} "
          f"{'moves/s':>8} {'ratio':>7} {'p50 ms':>7} {'1 client /health p50 ms':>24}")
    for label, sessions in session_stores.items():
        first: dict[str, float] = {}
        for n in WORKERS:
            server = Workers(n, db, sessions)
            try:
                health = clients(server.url, WORKER_CLIENTS, lambda c, i, timed: [
                    timed(lambda: c.get("/api/v1/health")) for _ in range(1600 // WORKER_CLIENTS)])["main"]
                move = moves(server.url, WORKER_CLIENTS, total=320)["main"]
                alone = clients(server.url, 1, lambda c, i, timed: [  # the keep-alive stall showed here: 44 ms
                    timed(lambda: c.get("/api/v1/health")) for _ in range(200)])["main"]
            finally:
                server.stop()
            first.setdefault("health", health["rps"])
            first.setdefault("moves", move["rps"])
            print(f"{label:<12} {n:>7} {health['rps']:>10.0f} {health['rps'] / first['health']:>6.2f}x "
                  f"{health['p50']:>7.1f} {move['rps']:>8.0f} {move['rps'] / first['moves']:>6.2f}x {move['p50']:>7.1f} {alone['p50']:>24.2f}")


def main() -> int:
    os.environ["RULEKB_CREATE_PER_MINUTE"] = "0"  # the benchmark's clients start sessions from one address
    tmp = Path(tempfile.mkdtemp(prefix="rulekb-bench-"))
    sqlite_db, sessions = f"sqlite:///{tmp / 'kb.db'}", f"sqlite:///{tmp / 'sessions.db'}"
    build(sqlite_db)
    if sys.argv[1:] == ["workers"]:  # `python -m tests.bench_api workers`: this table alone
        return workers_table(tmp, sqlite_db)
    print(f"API benchmark: uvicorn (one process) on loopback; {REQUESTS} requests per row; clients = threads")
    bench_backend("SQLite", sqlite_db, sessions)

    with pg_schema("PostgreSQL") as pg_db:
        if pg_db:
            try:
                build(pg_db)
                bench_backend("PostgreSQL", pg_db, sessions)
            except Exception as exc:  # a server that fails part-way: say so, keep the SQLite figures
                print(f"\n(PostgreSQL at {PG_URL} not benchmarked: {type(exc).__name__}: {str(exc).splitlines()[0]})")

    # The /health row is the floor of the latency columns: with N clients posting back to back, a
    # request waits for the N - 1 others in the server and for the client threads' own turn, however
    # cheap the request.
    print("\n## posting a move (Gugong, 4 seats, SQLite session store with synchronous=FULL)")
    server = Server(sqlite_db, sessions)
    try:
        print(f"{'operation':<44} {'clients':>7} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
        for threads in (1, 8, 32):
            rounds = [{**moves(server.url, threads), "health": measure(server, ["/api/v1/health"], threads)}
                      for _ in range(ROUNDS)]
            for name, key in (("POST /sessions/{sid}/actions", "main"),
                              ("  GET /sessions/{sid} (the next seat's view)", "view"),
                              ("  GET /health, the same clients (the floor)", "health")):
                mid = {k: statistics.median(r[key][k] for r in rounds) for k in ("rps", "p50", "p99")}
                print(f"{name:<44} {threads:>7} {mid['rps']:>8.0f} {mid['p50']:>8.1f} {mid['p99']:>8.1f}")
        print("\n32 clients on a schedule (moves per second offered, all clients together; times from when due)")
        print(f"{'offered moves/s':<44} {'clients':>7} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
        for rate in PACED_RATES:
            rounds = [moves(server.url, 32, total=320, rate=rate)["main"] for _ in range(ROUNDS)]
            mid = {k: statistics.median(r[k] for r in rounds) for k in ("rps", "p50", "p99")}
            print(f"{rate:<44} {32:>7} {mid['rps']:>8.0f} {mid['p50']:>8.1f} {mid['p99']:>8.1f}")
    finally:
        server.stop()

    cold = cold_start(sqlite_db, f"sqlite:///{tmp / 'cold-sessions.db'}")
    print("\n## first session on a cold server (new process)")
    for name, seconds in cold.items():
        print(f"POST /sessions {name:<30} {seconds:>8.3f} s")
    return workers_table(tmp, sqlite_db)


def workers_table(tmp: Path, db: str) -> int:
    """The workers table with sessions on SQLite and, when the test server answers, on PostgreSQL."""
    stores = {"SQLite": f"sqlite:///{tmp / 'workers-sessions.db'}"}
    with pg_schema("PostgreSQL sessions") as pg_sessions:
        if pg_sessions:
            stores["PostgreSQL"] = pg_sessions
        bench_workers(db, stores)
    return 0


@contextmanager
def pg_schema(what: str) -> Iterator[str | None]:
    """A throw-away schema on the test PostgreSQL server, dropped afterwards: a URL that uses it, or
    None (and a line saying why) when the server does not answer."""
    schema = f"rulekb_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_URL)
    try:
        try:
            with admin.begin() as conn:
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        except Exception as exc:  # no server: say so, keep the SQLite figures
            print(f"\n({what} at {PG_URL} not benchmarked: {type(exc).__name__}: {str(exc).splitlines()[0]})")
            yield None
            return
        yield f"{PG_URL}{'&' if '?' in PG_URL else '?'}options=-csearch_path%3D{schema}"
    finally:
        try:
            with admin.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        except Exception:
            pass
        admin.dispose()


if __name__ == "__main__":
    sys.exit(main())

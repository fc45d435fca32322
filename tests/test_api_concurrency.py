"""A real server under concurrent readers, and several worker processes sharing one session store."""
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.server import Server, free_port

READERS = 64


def paths(client: httpx.Client, base: str) -> list[str]:
    ids = [e["id"] for e in client.get(f"{base}/api/v1/entities", params={"limit": 200}).json()["data"]]
    return ([f"/api/v1/entities/{i}" for i in ids] + [f"/api/v1/entities/{i}?lang=pl" for i in ids]
            + ["/api/v1/search?q=sluzacy", "/api/v1/search?q=jade", "/api/v1/games", "/api/v1/entities?kind=term"])


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_64_concurrent_readers_get_answers_and_the_server_stays_up(request, backend, tmp_path):
    kb = request.getfixturevalue("fixture_db" if backend == "sqlite" else "fixture_pg")
    server = Server(kb, f"sqlite:///{tmp_path / 'sessions.db'}")
    try:
        with httpx.Client() as client:
            targets = paths(client, server.url)
        errors: list[str] = []
        answered = []
        barrier = threading.Barrier(READERS)

        def reader(n: int):
            with httpx.Client(base_url=server.url, timeout=60) as client:
                barrier.wait()
                for i in range(12):
                    path = targets[(n * 12 + i) % len(targets)]
                    try:
                        r = client.get(path)
                        answered.append(r.status_code)
                        if r.status_code != 200:
                            errors.append(f"{path}: {r.status_code}")
                    except httpx.HTTPError as exc:
                        errors.append(f"{path}: {type(exc).__name__}")

        threads = [threading.Thread(target=reader, args=(n,)) for n in range(READERS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert errors == [] and len(answered) == READERS * 12
        assert server.proc.poll() is None  # still running
    finally:
        server.stop()


def test_two_workers_serve_one_session_alternately(fixture_db, tmp_path):
    """Two server processes on one session store: a move made through one is seen and continued
    through the other, and a stale retry is refused by whichever worker gets it."""
    sessions = f"sqlite:///{tmp_path / 'sessions.db'}"
    toy = {"race": "tests.test_engine_core:Race"}
    first, second = Server(fixture_db, sessions, toy), Server(fixture_db, sessions, toy)
    try:
        s = httpx.post(f"{first.url}/api/v1/sessions", json={"game": "race", "players": ["A", "B"], "seed": 2}).json()
        tokens = {seat["name"]: seat["token"] for seat in s["seats"]}
        servers = [first, second]
        version = 0
        for turn in range(6):
            server = servers[turn % 2]
            player = "AB"[turn % 2]
            r = httpx.post(f"{server.url}/api/v1/sessions/{s['id']}/actions",
                           json={"action": {"type": "add", "player": player, "n": 1}},
                           headers={"Authorization": f"Bearer {tokens[player]}", "If-Match": f'"v{version}"'})
            if r.status_code != 200:
                assert r.json()["rule"] == "race/rule/turn-order" or r.status_code == 422
                break
            version = r.json()["version"]
            other = servers[(turn + 1) % 2]
            assert httpx.get(f"{other.url}/api/v1/sessions/{s['id']}").json()["version"] == version
        stale = httpx.post(f"{second.url}/api/v1/sessions/{s['id']}/actions",
                           json={"action": {"type": "add", "player": "A", "n": 1}},
                           headers={"Authorization": f"Bearer {tokens['A']}", "If-Match": '"v0"'})
        assert stale.status_code == 412
        owner = {"Authorization": f"Bearer {s['owner_token']}"}
        replayed = httpx.get(f"{second.url}/api/v1/sessions/{s['id']}", params={"replay": True}, headers=owner).json()
        assert replayed["version"] == version >= 2 and replayed["replay_matches"] is True
    finally:
        first.stop()
        second.stop()


def test_rulekb_serve_runs_several_workers(fixture_db, tmp_path):
    port = free_port()
    env = {**os.environ, "RULEKB_DATABASE_URL": fixture_db, "RULEKB_SESSIONS_URL": f"sqlite:///{tmp_path / 's.db'}",
           "RULEKB_SITE_DIR": str(tmp_path / "no-site")}
    rulekb = str(Path(sys.executable).parent / "rulekb")  # the console script, as a user runs it
    proc = subprocess.Popen([rulekb, "serve", "--port", str(port), "--workers", "2"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120  # two workers each read three games
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/api/v1/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            pytest.fail(f"rulekb serve --workers 2 did not start: {proc.stderr.read1().decode()[-2000:]}")
        for _ in range(20):  # new connections are spread over the worker processes
            assert httpx.get(f"{url}/api/v1/games", timeout=60).json()["total"] == 1
        s = httpx.post(f"{url}/api/v1/sessions", json={"game": "gugong", "players": ["A", "B"], "seed": 1}, timeout=60)
        assert s.status_code == 201
        for _ in range(6):
            assert httpx.get(f"{url}/api/v1/sessions/{s.json()['id']}").status_code == 200
    finally:
        proc.terminate()
        proc.wait(20)

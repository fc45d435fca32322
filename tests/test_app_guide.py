"""The examples of the site's "Using rulekb from your app" page (site/docs/developers/index.md)
run as they are printed, against a real server on the real knowledge base."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kb import export
from kb.db import open_engine
from tests.server import Server

PAGE = Path(__file__).resolve().parent.parent / "site" / "docs" / "developers" / "index.md"
DEFAULT_URL = "http://127.0.0.1:8000"


def blocks(language: str) -> list[tuple[str, str]]:
    """(section heading, code) of every fenced block in that language, in page order."""
    out, heading = [], ""
    for match in re.finditer(r"^## ([^\n]+)$|^```(\w+)\n(.*?)^```$", PAGE.read_text(encoding="utf-8"), re.M | re.S):
        if match.group(1):
            heading = match.group(1)
        elif match.group(2) == language:
            out.append((heading, match.group(3)))
    return out


@pytest.fixture(scope="module")
def server(real_db, tmp_path_factory):
    bulk = tmp_path_factory.mktemp("bulk")
    engine = open_engine(real_db, readonly=True)
    export.publish(export.read(engine), bulk)
    engine.dispose()
    old = os.environ.get("RULEKB_BULK_DIR")
    os.environ["RULEKB_BULK_DIR"] = str(bulk)  # the server process inherits it
    try:
        srv = Server(real_db, f"sqlite:///{tmp_path_factory.mktemp('sessions') / 's.db'}")
    finally:
        if old is None:
            del os.environ["RULEKB_BULK_DIR"]
        else:
            os.environ["RULEKB_BULK_DIR"] = old
    yield srv
    srv.stop()


def test_the_page_has_curl_and_python_examples_for_each_topic():
    topics = {"Fetching the whole knowledge base", "Looking things up", "Playing a session with seat tokens",
              "Handling errors"}
    assert {h for h, _ in blocks("python")} == topics == {h for h, _ in blocks("sh")}


@pytest.mark.parametrize("heading,code", blocks("python"), ids=[h for h, _ in blocks("python")])
def test_each_python_example_runs_against_a_real_server(server, heading, code, tmp_path):
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "RULEKB_URL": server.url},
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, f"{heading}:\n{done.stderr[-3000:]}"
    assert done.stdout.strip()


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize("heading,code", blocks("sh"), ids=[h for h, _ in blocks("sh")])
def test_each_curl_example_runs_against_a_real_server(server, heading, code, tmp_path):
    script = "set -euo pipefail\n" + code.replace(DEFAULT_URL, server.url)
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, f"{heading}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Internal Server Error" not in done.stdout and '"status":500' not in done.stdout

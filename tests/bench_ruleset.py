"""How long a process waits for a game's rules: parsing kb/data (the YAML road the engines took
before compiled rule sets) against reading the compiled rule set from the database (the road they
take now). Both measured in the same run, each in a fresh process; prints the ratio.
Run: python -m tests.bench_ruleset (after `rulekb build`)."""
from __future__ import annotations

import subprocess
import sys

YAML = "from kb.loader import load; load()"
COMPILED = "from kb import ruleset; ruleset.load({game!r})"
TIMED = ("import time; t = time.perf_counter(); {code}; print(time.perf_counter() - t)")


def timed(code: str) -> float:
    out = subprocess.run([sys.executable, "-c", "import sqlalchemy, yaml, pydantic\n" + TIMED.format(code=code)],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    yaml_s = min(timed(YAML) for _ in range(2))
    print(f"parse and validate kb/data (every game): {yaml_s * 1000:8.1f} ms")
    for game in ("gugong", "dragon", "zhanguo"):
        compiled = min(timed(COMPILED.format(game=game)) for _ in range(3))
        print(f"compiled rule set of {game:8s}:           {compiled * 1000:8.1f} ms   ({yaml_s / compiled:6.0f}x faster)")


if __name__ == "__main__":
    main()

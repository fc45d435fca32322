"""How long the translation checker takes (issue 33 targets: `compare --text` on a whole rulebook < 3 s, a
knowledge-base comparison < 2 s), best of three. A knowledge-base comparison as a command reads the
findings the build stored (timed as the whole `rulekb compare` process, on the default database: run
`rulekb build` first); the checker's own runs are measured after kb/data is loaded (which `compare --text`
and a compare without a build do first: printed apart). The first run in a checkout also fills var/lemmas.json.
Run: python -m tests.bench_checker"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

COMMANDS = (("gugong", "--langs", "pl,cs"), ("dragon", "--editions", "2007,2017"))


def best(fn, runs: int = 3) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    rulekb = Path(sys.executable).parent / "rulekb"
    for args in COMMANDS:
        run = lambda: subprocess.run([str(rulekb), "compare", *args], capture_output=True, check=True)
        print(f"{'command `rulekb compare ' + ' '.join(args) + '`:':<52}{best(run):6.2f} s")
    t = time.perf_counter()
    from i18n.checker import Checker, check_text
    from kb.loader import load
    kb = load()
    print(f"load kb/data (once per command):          {time.perf_counter() - t:6.2f} s")
    for game, mode, a, b in (("gugong", "langs", "pl", "cs"), ("dragon", "editions", "2007", "2017")):
        print(f"KB comparison {game} {a}/{b}:{' ' * (19 - len(game + a + b))}"
              f"{best(lambda: Checker(kb, game).run(mode, a, b)):6.2f} s")
    for sid, src in sorted(kb.sources.items()):
        print(f"compare --text {sid} against itself:{' ' * (14 - len(sid))}"
              f"{best(lambda: check_text(kb, src.path, src.meta.lang, sid)):6.2f} s")
    cs = kb.sources["gugong-cs"]
    print(f"compare --text gugong-cs against gugong-pl:  {best(lambda: check_text(kb, cs.path, 'cs', 'gugong-pl')):6.2f} s")


if __name__ == "__main__":
    main()

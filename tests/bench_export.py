"""Benchmark: the bulk export (`make bench`): size and time of each format, and the export time
against the build time measured in the same run (the baseline: what `rulekb build` already costs).

Steps timed separately: building the database from kb/data; reading it into export records
without and with the engine's run of every worked example; writing each format. Timings are
printed, never asserted; each step gives wall and CPU seconds (CPU time is what to compare on a
shared, busy machine).
"""
from __future__ import annotations

import gzip
import tempfile
import time
from pathlib import Path

from kb import export
from cli.build import build
from cli.main import example_result
from kb.db import open_engine
from kb.loader import load


class Timer:
    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_):
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu

    def __str__(self) -> str:
        return f"{self.wall:.2f} s ({self.cpu:.2f} s CPU)"


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="rulekb-bench-export-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'kb.db'}"
        with Timer() as build_t:
            build(url, kb=load())
        engine = open_engine(url, readonly=True)
        with Timer() as read_t:
            export.read(engine)
        with Timer() as examples_t:
            data = export.read(engine, run_example=example_result)
        engine.dispose()

        print(f"build (kb/data -> SQLite): {build_t}")
        print(f"read the database into export records: {read_t} without examples, "
              f"{examples_t} with the engine's run of {len(data.data.examples)} worked examples")
        print(f"{'format':<8} {'file':<18} {'size':>10} {'gzipped':>10}  write")
        writes = []
        for fmt in export.FORMATS:
            out = Path(tmp) / fmt
            with Timer() as write_t:
                files = export.write(data, out, (fmt,))
            writes.append(write_t)
            main_file = out / export.file_names()[fmt]
            size = main_file.stat().st_size
            zipped = len(gzip.compress(main_file.read_bytes(), 6))
            others = ", ".join(p.name for p in files if p != main_file)
            print(f"{fmt:<8} {main_file.name:<18} {_mb(size):>10} {_mb(zipped):>10}  {write_t}  (+ {others})")
        for label, read in (("with example results", examples_t), ("without running the examples", read_t)):
            wall = read.wall + sum(w.wall for w in writes)
            cpu = read.cpu + sum(w.cpu for w in writes)
            print(f"export, all four formats, {label}: {wall:.2f} s ({cpu:.2f} s CPU) = "
                  f"{wall / build_t.wall:.2f} x the build's wall time, {cpu / build_t.cpu:.2f} x its CPU time")

if __name__ == "__main__":
    main()

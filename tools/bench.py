"""Every benchmark of the package in one table (``make bench``): name, work, time,
throughput and the goal the issues set, so progress is visible.

    .venv/bin/python tools/bench.py [--repeats N] [--csv PATH] [--builds]

Each case runs once untimed (numba compiles, caches fill) and then ``--repeats`` times;
the best wall time counts (the Huang & Li reference simulator, about a minute a run,
runs once, after its set-up has loaded the compiled core). The cases come from the
benchmark scripts beside this one (``cases()`` in bench_refined.py, whose first is the
basic Volkov model, bench_sim.py, bench_refsim.py, bench_huang_li.py). ``--builds`` adds
the book's two build goals, timed with the Makefile's own targets: ``make book``
run twice in this checkout (the second run, with nothing changed, is the one the goal is
about) and ``make test`` in a fresh clone of HEAD, its environment included (together
about 12 minutes).

``--csv PATH`` writes the table with the machine it ran on, the date and the command:
``make bench-record`` keeps it as ``data/measured/benchmarks.csv``, which the book's
benchmark page shows. Timings are **measured** on the machine named in each row and
vary by some tens of per cent from run to run on a shared machine; the goals are
reported, not asserted (no test depends on a wall time).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from _timing import best_of


@dataclass(frozen=True)
class Suite:
    """A group of cases measured in one unit, and the goal (``None``: none set) of the
    cases whose name starts with ``goal_for``."""

    module: str
    unit: str
    goal: float | None = None
    goal_for: tuple[str, ...] = ()
    runs: int | None = None  # timed runs (None: --repeats)
    warm: bool = True  # one untimed run first


SUITES = (
    Suite("bench_refined", "points", 1e7, ("refined, Kepler",)),
    Suite("sim", "instructions", 1e6, ("compiled, heavy",)),
    # about a minute a run: one run, after the numba cache was loaded by its set-up
    Suite("bench_refsim", "requests", 1e6, ("Huang & Li reference",), 1, False),
    Suite("bench_huang_li", "requests", 1e6, ("Huang & Li trace",)),
)
"""Goals: issue 40 (the refined model, 10 M points/s for the one-term fits; the cycle
simulator, 1 M instructions/s), issue 27 (the reference simulator and the trace
analysis, 1 M memory requests/s each)."""

BUILD_GOALS = {"make book, nothing changed": 30.0, "make test, fresh clone": 180.0}
"""Issue 40's build goals, in seconds."""


def sim_cases() -> list[tuple[str, object]]:
    """bench_sim.py's cases on the compiled engine ("heavy": instruction-heavy, the ones
    the goal is about; the others issue a few dozen instructions, so their rate says
    little), and the Python reference engine on the first heavy case."""
    import bench_sim

    heavy = {c.name for c in bench_sim.specs() if c.heavy}
    out = []
    for name, fn in bench_sim.cases("compiled"):
        case = name.removeprefix("compiled, ")
        out.append((f"compiled, {'heavy, ' if case in heavy else ''}{case}", fn))
    first = next(c.name for c in bench_sim.specs() if c.heavy)
    out += [(n, f) for n, f in bench_sim.cases("python") if n == f"python, {first}"]
    return out


def _cases(suite: Suite):
    if suite.module == "sim":
        return sim_cases()
    return __import__(suite.module).cases()


def _goal(suite: Suite, name: str) -> float | None:
    return suite.goal if name.startswith(suite.goal_for) else None


def measure(repeats: int) -> list[dict]:
    """Run every case: one row per case."""
    rows = []
    for suite in SUITES:
        for name, fn in _cases(suite):
            if suite.warm:
                fn()  # warm-up: numba compiles, caches fill
            seconds, work = best_of(suite.runs or repeats, fn)
            goal = _goal(suite, name)
            rate = work / seconds
            rows.append(
                {
                    "name": name,
                    "work": int(work),
                    "unit": suite.unit,
                    "seconds": seconds,
                    "rate": rate,
                    "goal": goal,
                    "met": "" if goal is None else ("yes" if rate >= goal else "no"),
                }
            )
            _print_row(rows[-1])
    return rows


def _timed(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def builds() -> list[dict]:
    """The two build goals, timed with the Makefile (see the module docstring)."""
    rows = []
    _timed(["make", "book"], ROOT)  # brings the cache up to date
    book = _timed(["make", "book"], ROOT)
    with tempfile.TemporaryDirectory() as d:
        clone = Path(d) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        # a fresh clone: no shared disk cache, numba cache or kernel profile
        shared = {"IPYTHONDIR", "GPUMODELS_CACHE_DIR", "NUMBA_CACHE_DIR"}
        env_free = {k: v for k, v in os.environ.items() if k not in shared}
        t0 = time.perf_counter()
        subprocess.run(
            ["make", "test"],
            cwd=clone,
            env=env_free,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        test = time.perf_counter() - t0
    for name, seconds in (
        ("make book, nothing changed", book),
        ("make test, fresh clone", test),
    ):
        goal = BUILD_GOALS[name]
        rows.append(
            {
                "name": name,
                "work": 1,
                "unit": "build",
                "seconds": seconds,
                "rate": float("nan"),
                "goal": goal,
                "met": "yes" if seconds <= goal else "no",
            }
        )
        _print_row(rows[-1])
    return rows


def _si(x: float) -> str:
    for factor, prefix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if x >= factor:
            return f"{x / factor:.3g}{prefix}"
    return f"{x:.3g} "


def _print_row(r: dict) -> None:
    if r["unit"] == "build":
        thru, goal = "", f"<= {r['goal']:.0f} s"
    else:
        thru = f"{_si(r['rate'])}{r['unit']}/s"
        goal = "" if r["goal"] is None else f">= {_si(r['goal'])}{r['unit']}/s"
    work = "" if r["unit"] == "build" else f"{r['work']:,} {r['unit']}"
    print(
        f"{r['name'][:58]:58s} {work:>22s} {r['seconds']:9.3f} s {thru:>22s} "
        f"{goal:>22s} {r['met']:>4s}",
        flush=True,
    )


def machine() -> str:
    """The CPU model, its cores and the Python and library versions."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    libs = ", ".join(f"{m} {metadata.version(m)}" for m in ("numpy", "numba"))
    return f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, {libs}"


def write_csv(rows: list[dict], path: Path, command: str) -> None:
    today = dt.date.today().isoformat()
    source = f"measured by gpumodels with {command} on {today} ({machine()})"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(
            ["name", "work", "unit", "seconds", "rate_per_s", "goal", "met", "source"]
        )
        for r in rows:
            rate = "" if r["unit"] == "build" else f"{r['rate']:.4g}"
            goal = "" if r["goal"] is None else f"{r['goal']:g}"
            w.writerow(
                [
                    r["name"],
                    r["work"],
                    r["unit"],
                    f"{r['seconds']:.4g}",
                    rate,
                    goal,
                    r["met"],
                    source,
                ]
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--csv", type=Path, default=None)
    ap.add_argument("--builds", action="store_true")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error(f"--repeats must be at least 1, got {args.repeats}")
    print(f"machine: {machine()}")
    print(
        f"{'case':58s} {'work':>22s} {'time':>11s} {'throughput':>22s} {'goal':>22s} "
        f"{'met':>4s}"
    )
    rows = measure(args.repeats)
    if args.builds:
        if shutil.which("make") is None:
            ap.error("--builds needs make")
        rows += builds()
    if args.csv is not None:
        command = "make bench-record" if args.builds else "tools/bench.py"
        write_csv(rows, args.csv, command)
        print(f"written: {args.csv}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The order in which ``make test`` deals its files to the pytest-xdist workers.

``make test`` runs two workers with ``--dist loadfile``: each file (a notebook, a test
module) goes whole to one worker, the next file in the queue to whichever worker runs
low (pytest-xdist keeps two files queued per worker). The order of the files decides how long
the last one keeps one worker busy while the other waits. pytest-xdist orders them by
their number of tests, so that a module of a few long tests (the fuzz harness, the
perturbation check, the wheel) came last and left one core idle for 10 s at the end.

Here the files are dealt longest first (the longest-processing-time rule), by the
seconds each took in a recorded run, ``tests/durations.csv``; a file not listed there
goes first, as if it were the longest. The tests inside a file keep their order. The
ordering applies only under ``--dist loadfile`` with ``--no-loadscope-reorder``
(``make test``), and a stale table only makes the schedule less even; it changes
no result.

Re-record the table (from a fresh clone, as ``make test`` runs there) after adding or
changing slow tests::

    make test TEST_ARGS=--record-durations=tests/durations.csv
"""

from __future__ import annotations

import collections
import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DURATIONS = ROOT / "tests" / "durations.csv"


def pytest_addoption(parser):
    parser.addoption(
        "--record-durations",
        metavar="PATH",
        default=None,
        help="write the seconds each test file took (setup, call and teardown of its "
        "tests) to PATH as CSV, longest first",
    )


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def recorded(path: Path = DURATIONS) -> dict[str, float]:
    """``{file: seconds}`` of a durations table; empty where there is none."""
    if not path.is_file():
        return {}
    with path.open(newline="") as f:
        return {r["file"]: float(r["seconds"]) for r in csv.DictReader(f)}


def longest_first(items, seconds: dict[str, float]):
    """The items with their files in descending recorded seconds (files without a
    record first), each file's items in their own order."""
    first = {}
    for i, item in enumerate(items):
        first.setdefault(_file(item.nodeid), i)
    unknown = max(seconds.values(), default=0.0) + 1.0
    rank = {f: (-seconds.get(f, unknown), i) for f, i in first.items()}
    return sorted(items, key=lambda item: rank[_file(item.nodeid)])


def pytest_collection_modifyitems(session, config, items):
    if config.getoption("dist", "no") != "loadfile":
        return
    if config.getoption("loadscopereorder", True):
        return
    items[:] = longest_first(items, recorded())


class _Recorder:
    def __init__(self, path: str):
        self.path = Path(path)
        self.seconds = collections.Counter()

    def pytest_runtest_logreport(self, report):
        self.seconds[_file(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session):
        rows = sorted(self.seconds.items(), key=lambda kv: (-kv[1], kv[0]))
        with self.path.open("w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["file", "seconds"])
            w.writerows((name, f"{s:.2f}") for name, s in rows)


def pytest_configure(config):
    path = config.getoption("record_durations")
    # on the controller only: it receives every worker's reports
    if path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Recorder(path), "record-durations")

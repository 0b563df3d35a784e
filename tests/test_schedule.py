"""The order in which make test deals files to its workers (conftest.py)."""

import csv
import importlib.util
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent


def _conftest():
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


schedule = _conftest()


def _items(*nodeids):
    return [SimpleNamespace(nodeid=n) for n in nodeids]


def test_files_go_longest_first_unknown_ones_before_all_and_tests_keep_their_order():
    items = _items(
        "a.py::t1",
        "a.py::t2",
        "b.ipynb::Cell 0",
        "b.ipynb::Cell 1",
        "c.py::t",
        "new.py::t",
        "a.py::t3",
    )
    got = schedule.longest_first(items, {"a.py": 2.0, "b.ipynb": 5.0, "c.py": 0.1})
    assert [i.nodeid for i in got] == [
        "new.py::t",
        "b.ipynb::Cell 0",
        "b.ipynb::Cell 1",
        "a.py::t1",
        "a.py::t2",
        "a.py::t3",
        "c.py::t",
    ]


def test_the_recorded_table_names_existing_files_longest_first():
    with schedule.DURATIONS.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows, "tests/durations.csv is empty"
    seconds = [float(r["seconds"]) for r in rows]
    assert seconds == sorted(seconds, reverse=True)
    missing = [r["file"] for r in rows if not (ROOT / r["file"]).is_file()]
    assert missing == []
    assert schedule.recorded() == {r["file"]: s for r, s in zip(rows, seconds)}


def test_a_run_writes_the_table(tmp_path):
    rec = schedule._Recorder(str(tmp_path / "d.csv"))
    for nodeid, d in [("x.py::a", 1.0), ("x.py::a", 0.5), ("y.py::b", 2.0)]:
        rec.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=d))
    rec.pytest_sessionfinish(None)
    assert (tmp_path / "d.csv").read_text() == "file,seconds\ny.py,2.00\nx.py,1.50\n"

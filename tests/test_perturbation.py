"""A reproduced row is computed, not copied: change its own printed value in
``data/published/`` and its computed value stays where it was.

Phase 1 perturbs every computed row (reproduced or outside) at once and runs every
producer in a fresh interpreter pointed at the perturbed copy of ``data/``. A row may
legitimately follow *another* printed number (39.1 - 13.8 gives 25.3), so each row that
moved in phase 1 is run again with only its own printed value perturbed; it must not
move then.
"""

import csv
import io
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpumodels import scoreboard
from gpumodels.facts import published

DATA = Path(__file__).resolve().parent.parent / "data"
RUNNER = Path(__file__).resolve().parent / "perturbed_producers.py"


def _perturbed(x: float) -> float:
    return 1.5 * x + 1.0


def _copy_with(tmp: Path, keys: set[str]) -> Path:
    """A copy of data/ whose published tables carry perturbed values for ``keys``."""
    dest = tmp / "data"
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(DATA, dest)
    for path in (dest / "published").glob("*.csv"):
        text = path.read_text(encoding="utf-8")
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
        for r in rows:
            if r["key"] in keys:
                r["value"] = repr(_perturbed(float(r["value"])))
        buf = io.StringIO(newline="")
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(buf.getvalue(), encoding="utf-8")
    return dest


def _run(data: Path, producers=()) -> dict:
    done = subprocess.run(
        [sys.executable, str(RUNNER), str(data), *producers],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(done.stdout)


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_no_computed_row_follows_its_own_printed_value(tmp_path):
    board = scoreboard.table(inputs=False)
    computed_rows = board[board.status.isin(["reproduced", "outside"])]
    keys = set(computed_rows.key)
    assert len(keys) > 250
    baseline = scoreboard.computed()

    got = _run(_copy_with(tmp_path, keys))
    moved = sorted(k for k in keys if k not in got or not _same(got[k], baseline[k]))
    # each row that moved: perturb only its own printed value, run only its producer
    followers = []
    for key in moved:
        alone = _run(_copy_with(tmp_path, {key}), [scoreboard.producer_of(key)])
        if key not in alone or not _same(alone[key], baseline[key]):
            followers.append((key, baseline[key], alone.get(key)))
    assert followers == [], f"rows that follow their own printed value: {followers}"


def test_the_check_catches_a_copied_value(tmp_path):
    """The runner sees the perturbed table: a printed value read back moves."""
    key = "v16.t3_1.needed_concurrency.alu.GTX980"
    data = _copy_with(tmp_path, {key})
    code = (
        "import os, sys; os.environ['GPUMODELS_DATA'] = sys.argv[1]; "
        "from gpumodels.facts import published; "
        f"print(published.value({key!r}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(data)], capture_output=True, text=True, check=True
    )
    assert float(out.stdout) == _perturbed(published.value(key))

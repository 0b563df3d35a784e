"""Regenerate the Huang & Li sensitivity study and its exhaustive search (several
minutes on two cores: the time it took is printed).

    .venv/bin/python tools/huang_li_sensitivity.py

Writes data/simulated/huang_li_combinations.csv first: the full model's mean error over
the 22 evaluation placements (with its bootstrap 95 % interval) and its Fig. 6 Kendall τ
under every combination of the options of the unprinted readings
(gpumodels.papers.huang_li.readings.READINGS; evaluation.combinations). Then
data/simulated/huang_li_sensitivity.csv: the same numbers under the defaults, under each
alternative of each reading alone and under the most favourable combination of each
criterion of the search (evaluation.sensitivity). Last
data/simulated/huang_li_verdict_flips.csv: the verdict of every claim under each of the
five combinations that favour the paper most by each criterion (verdicts.flips). Model
over the simulated reference; tests/test_huang_li_readings.py recomputes rows of all
three and requires the same values.
"""

from __future__ import annotations

import csv
import math
import time
from pathlib import Path

from gpumodels.ground import diskcache
from gpumodels.papers.huang_li import evaluation, verdicts

DATA = Path(__file__).resolve().parent.parent / "data"


def _cell(v) -> str:
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return str(v)


def _write(df, name: str) -> Path:
    path = DATA / name
    with path.open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(df.columns)
        for row in df.itertuples(index=False):
            w.writerow([_cell(v) for v in row])
    return path


def main() -> None:
    # the disk cache stays off: this run rewrites data/, so the fingerprint it would
    # file its entries under is stale once the first table is written (and the search's
    # hundred analyses of every placement would only fill the disk)
    with diskcache.disabled():
        _search()


def _search() -> None:
    t0 = time.time()
    combos = evaluation.combinations()
    path = _write(combos, evaluation.COMBINATIONS)
    skipped = int((combos["status"] == "skipped").sum())
    print(
        f"wrote {path.relative_to(DATA.parent)}: {len(combos)} combinations "
        f"({skipped} skipped), {time.time() - t0:.0f} s",
        flush=True,
    )
    df = evaluation.sensitivity()  # reads the combinations just written
    path = _write(df, evaluation.SENSITIVITY)
    print(f"wrote {path.relative_to(DATA.parent)}: {len(df)} rows", flush=True)
    df = verdicts.flips()  # the top combinations of the search just written
    path = _write(df, verdicts.FLIPS)
    dt = time.time() - t0
    print(f"wrote {path.relative_to(DATA.parent)}: {len(df)} rows, {dt:.0f} s in all")


if __name__ == "__main__":
    main()

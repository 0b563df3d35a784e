"""Regenerate the Huang & Li sensitivity study (about a minute on two cores).

    .venv/bin/python tools/huang_li_sensitivity.py

Writes data/simulated/huang_li_sensitivity.csv: the full model's mean error over the 22
evaluation placements (with its bootstrap 95 % interval) and its Fig. 6 Kendall τ under
the defaults, under each alternative of each unprinted reading
(gpumodels.papers.huang_li.readings.READINGS) and under the two combinations of
gpumodels.papers.huang_li.evaluation.sensitivity. Model over the simulated reference;
tests/test_huang_li_readings.py recomputes a row and requires the same values.
"""

from __future__ import annotations

import csv
import math
import time
from pathlib import Path

from gpumodels.papers.huang_li import evaluation

DATA = Path(__file__).resolve().parent.parent / "data"


def _cell(v) -> str:
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return str(v)


def main() -> None:
    t0 = time.time()
    df = evaluation.sensitivity()
    path = DATA / evaluation.SENSITIVITY
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(df.columns)
        for row in df.itertuples(index=False):
            w.writerow([_cell(v) for v in row])
    dt = time.time() - t0
    print(f"wrote {path.relative_to(DATA.parent)}: {len(df)} rows, {dt:.0f} s")


if __name__ == "__main__":
    main()

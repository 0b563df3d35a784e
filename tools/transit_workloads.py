"""Regenerate data/transit/workloads.csv from the tables it derives from.

    .venv/bin/python tools/transit_workloads.py

The test suite rebuilds the table and requires it to equal the committed file.
"""

from gpumodels.ground.data import data_dir
from gpumodels.papers.transit import workloads

path = data_dir() / workloads.TABLE_FILE
path.write_text(workloads.render_table(), encoding="utf-8")
print(f"wrote {path}")

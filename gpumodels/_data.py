"""Locate and read the CSV tables in ``data/`` (no pandas needed for the core records)."""

from __future__ import annotations

import csv
import os
from functools import lru_cache
from pathlib import Path

_ENV = "GPUMODELS_DATA"


def data_dir() -> Path:
    """The project's ``data/`` folder (override with the ``GPUMODELS_DATA`` environment variable)."""
    env = os.environ.get(_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "data"


@lru_cache(maxsize=None)
def read_rows(relpath: str) -> tuple[dict[str, str], ...]:
    """Rows of ``data/<relpath>`` as dictionaries of strings (cached; treat as read-only)."""
    path = data_dir() / relpath
    if not path.exists():
        raise FileNotFoundError(f"data table {relpath!r} not found under {data_dir()}")
    with open(path, newline="", encoding="utf-8") as fh:
        return tuple(dict(row) for row in csv.DictReader(fh))

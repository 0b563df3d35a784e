"""Locate, read and validate the CSV tables in ``data/``.

An installed package carries the tables inside it (``gpumodels/data/``, read through
``importlib.resources``); a source checkout reads the project's ``data/`` folder; the
``GPUMODELS_DATA`` environment variable points elsewhere. Every table is checked against
its schema in :mod:`gpumodels.ground.schemas` the first time it is read.
"""

from __future__ import annotations

import csv
import io
import os
from functools import cache
from importlib import resources
from pathlib import Path

import pandas as pd

from gpumodels.ground.errors import DataError
from gpumodels.ground.schemas import cross_validate, validate
from gpumodels.ground.validate import check_text

_ENV = "GPUMODELS_DATA"


def data_dir():
    """The folder holding the tables: ``$GPUMODELS_DATA``, else the package's own
    ``data`` (an installed wheel), else the source checkout's ``data/``."""
    env = os.environ.get(_ENV)
    if env:
        return Path(env)
    packaged = resources.files("gpumodels") / "data"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "data"


def read_text(relpath: str) -> str:
    """The text of ``data/<relpath>``, without the UTF-8 byte-order mark a spreadsheet
    may write in front; ``DataError`` naming the file if it is missing."""
    check_text("relpath", relpath)
    path = data_dir() / relpath
    if not path.is_file():
        raise DataError(f"data table {relpath!r} not found under {data_dir()}")
    return path.read_text(encoding="utf-8-sig")


@cache
def _checked_text(relpath: str) -> str:
    """The text of ``data/<relpath>`` once it has passed its schema
    (checked once per table)."""

    text = read_text(relpath)
    frame = validate(relpath, text)
    cross_validate(relpath, frame, read_text)  # rules between tables (CROSS_RULES)
    return text


def read_rows(relpath: str) -> tuple[dict[str, str], ...]:
    """Rows of ``data/<relpath>`` as dictionaries of strings, after the table passed its
    schema (cached; treat as read-only)."""
    return _rows(check_text("relpath", relpath))


@cache
def _rows(relpath: str) -> tuple[dict[str, str], ...]:
    return tuple(
        dict(row)
        for row in csv.DictReader(io.StringIO(_checked_text(relpath), newline=""))
    )


# the cache is the private function's; clearing it stays as it was
read_rows.cache_clear = _rows.cache_clear  # type: ignore[attr-defined]
read_rows.cache_info = _rows.cache_info  # type: ignore[attr-defined]


def read_frame(relpath: str):
    """``data/<relpath>`` as a pandas DataFrame with pandas' own column types, after the
    table passed its schema."""
    return pd.read_csv(io.StringIO(_checked_text(check_text("relpath", relpath))))


def clear_cache() -> None:
    """Forget every table read so far (after pointing ``GPUMODELS_DATA`` elsewhere)."""
    _checked_text.cache_clear()
    read_rows.cache_clear()

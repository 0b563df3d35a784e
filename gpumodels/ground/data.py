"""Locate, read and validate the CSV tables in ``data/``.

An installed package carries the tables inside it (``gpumodels/data/``, read through
``importlib.resources``); a source checkout reads the project's ``data/`` folder; the
``GPUMODELS_DATA`` environment variable points elsewhere. Every table is checked against
its schema in :mod:`gpumodels.ground.schemas` the first time it is read.

A table that passed is remembered in the disk cache (:mod:`gpumodels.ground.diskcache`),
keyed on its text and on the cache's fingerprint (every data file, the schemas'
module): the other processes of a checkout (test workers, notebook kernels) read it
without checking it again, and a table rewritten while a process runs is checked anew.
Where
the cache is off (an installed package, ``GPUMODELS_CACHE=off``, a ``GPUMODELS_DATA``
folder such as the tests' corrupted copies) every process checks every table it reads.
"""

from __future__ import annotations

import csv
import io
from functools import cache

import pandas as pd

from gpumodels.ground.diskcache import persistent
from gpumodels.ground.errors import DataError
from gpumodels.ground.location import data_dir
from gpumodels.ground.schemas import cross_validate, validate
from gpumodels.ground.validate import check_text

__all__ = ["clear_cache", "data_dir", "read_frame", "read_rows", "read_text"]


def read_text(relpath: str) -> str:
    """The text of ``data/<relpath>``, without the UTF-8 byte-order mark a spreadsheet
    may write in front; ``DataError`` naming the file if it is missing."""
    check_text("relpath", relpath)
    path = data_dir() / relpath
    if not path.is_file():
        raise DataError(f"data table {relpath!r} not found under {data_dir()}")
    return path.read_text(encoding="utf-8-sig")


@persistent
def _passes(relpath: str, text: str) -> bool:
    """Check ``text``, the content of ``data/<relpath>``, against its schema and the
    rules between tables (``CROSS_RULES``); ``True``, or ``DataError`` naming the file,
    line and column. Only a pass is kept on disk."""
    frame = validate(relpath, text)
    cross_validate(relpath, frame, read_text)
    return True


@cache
def _checked_text(relpath: str) -> str:
    """The text of ``data/<relpath>`` once it has passed its schema (checked once per
    table and process, or once per checkout where the disk cache is on)."""
    text = read_text(relpath)
    _passes(relpath, text)
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

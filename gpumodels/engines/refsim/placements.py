"""Table IV's placement tests as data (``data/huang_li/placements.csv``), every reading
stated per row."""

from __future__ import annotations

from functools import cache

import pandas as pd

from gpumodels.engines.refsim.trace import check_space
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import OutOfRangeError, UnknownNameError
from gpumodels.ground.validate import check_choice, check_flag, check_text

SETS = ("train", "eval", "illustration")


@cache
def _rows() -> tuple[dict[str, str], ...]:
    return read_rows("huang_li/placements.csv")


def parse_moves(text: str) -> dict[str, str]:
    """``"A:G->T;B:G->2T"`` → ``{"A": "T", "B": "2T"}`` (the target space of each moved
    array).

    >>> parse_moves("rowDelimiters:G->S;d_vec:T->G")
    {'rowDelimiters': 'S', 'd_vec': 'G'}
    """
    check_text("text", text, "parse_moves ('array:FROM->TO;...')")
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, _, move = part.partition(":")
        src, _, dst = move.partition("->")
        if not (name and src and dst):
            raise OutOfRangeError(
                "text must hold moves separated by ';', each reading "
                f"'array:FROM->TO'; a move must read 'array:FROM->TO', got {part!r}"
            )
        check_space(src)
        out[name] = check_space(dst)
    return out


def table(counted_only: bool = False):
    """The placement tests as a DataFrame (``counted_only``: the 60 the paper counts: 38
    training + 22 evaluation)."""
    counted_only = check_flag("counted_only", counted_only)

    df = pd.DataFrame(_rows())
    if counted_only:
        df = df[df["counted"] == "yes"].reset_index(drop=True)
    return df


def tests(set_: str | None = None, counted_only: bool = True) -> list[dict[str, str]]:
    """Placement rows of one set (``"train"``, ``"eval"``, ``"illustration"``) or
    all."""
    counted_only = check_flag("counted_only", counted_only)
    if set_ is not None:
        check_choice("set_", set_, SETS)
    return [
        dict(r)
        for r in _rows()
        if (set_ is None or r["set"] == set_)
        and (not counted_only or r["counted"] == "yes")
    ]


def counts(set_: str) -> dict[str, int]:
    """Counted placements per benchmark of a set, re-derived from the rows (compare with
    ``count_printed``)."""
    out: dict[str, int] = {}
    for r in tests(set_):
        out[r["benchmark"]] = out.get(r["benchmark"], 0) + 1
    return out


def printed_counts(set_: str) -> dict[str, int]:
    """The counts printed in Table IV's first column, per benchmark."""
    return {
        r["benchmark"]: int(r["count_printed"])
        for r in tests(set_, counted_only=False)
        if r["count_printed"]
    }


def sample_of(benchmark: str) -> dict[str, str]:
    """The sample row of a benchmark."""
    for r in _rows():
        if (
            r["benchmark"] == benchmark
            and r["sample"] == "yes"
            and r["set"] != "illustration"
        ):
            return dict(r)
    raise UnknownNameError(f"benchmark must be one of Table IV's, got {benchmark!r}")

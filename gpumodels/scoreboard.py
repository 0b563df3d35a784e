"""The scoreboard: every printed value of the papers, computed now and compared at
its tolerance.

The top layer of the package. Each paper subpackage of :mod:`gpumodels.papers` (and each
comparison of :mod:`gpumodels.comparisons`) that re-derives printed values has a
``printed`` module whose ``PRODUCERS`` are functions returning ``{published key:
computed value}`` (keys of the tables in ``data/published/``). This module finds
them by walking those two packages, so adding a paper means adding its subpackage, its
data and its chapter, and no list here. A paper subpackage also names its paper
(``PAPER``, as in the data's ``paper`` column), its part of the book (``PART``) and the
first chapter of that part (``CHAPTER``).

:func:`computed` runs every producer once (a few seconds; cached in the process and
in the disk cache of :mod:`gpumodels.ground.diskcache`, so the chapters and test
workers of a checkout share one run),
:func:`producer_of` names the function behind a key, and :func:`table` compares every
scored row; the chapters show their rows of it
(:func:`gpumodels.facts.published.compact`) and assert each status with
:func:`gpumodels.facts.published.check`.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import warnings
from collections.abc import Mapping
from functools import cache
from types import ModuleType

import pandas as pd

from gpumodels import comparisons, papers
from gpumodels.facts import published
from gpumodels.facts.published import STATUSES
from gpumodels.ground import plotting
from gpumodels.ground.diskcache import persistent
from gpumodels.ground.errors import InputTypeError, UnknownNameError
from gpumodels.ground.validate import check_flag


def paper_packages() -> list[ModuleType]:
    """The subpackages of :mod:`gpumodels.papers`, in the book's order of parts
    (their ``PART``)."""
    found = []
    for info in pkgutil.iter_modules(papers.__path__, papers.__name__ + "."):
        if info.ispkg:
            mod = importlib.import_module(info.name)  # registration: every paper
            for attr in ("PAPER", "PART", "CHAPTER"):
                if not hasattr(mod, attr):
                    raise AttributeError(
                        f"paper subpackage {info.name} must define {attr}"
                    )
            found.append(mod)
    return sorted(found, key=lambda m: m.PART)


def printed_modules() -> list[ModuleType]:
    """Every ``printed`` module of a paper or comparison subpackage
    (each defines ``PRODUCERS``)."""
    found = []
    for pkg in (papers, comparisons):
        for info in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + "."):
            name = info.name + ".printed"
            if info.ispkg and importlib.util.find_spec(name) is not None:
                mod = importlib.import_module(name)  # registration (module docstring)
                found.append(mod)
    return found


_PAPER_PACKAGES = paper_packages()

PAPERS = tuple(m.PAPER for m in _PAPER_PACKAGES)
"""The papers of the scoreboard, in the book's order of parts."""

CHAPTERS = {m.PAPER: m.CHAPTER for m in _PAPER_PACKAGES}
"""The first chapter of each paper's part (a document name under ``book/``)."""


@cache
@persistent
def _run() -> tuple[dict[str, float], dict[str, str]]:
    values: dict[str, float] = {}
    origin: dict[str, str] = {}
    for mod in printed_modules():
        for fn in mod.PRODUCERS:
            with warnings.catch_warnings():
                # flagged model outputs are rows too
                warnings.simplefilter("ignore", RuntimeWarning)
                got = fn()
            name = f"{fn.__module__}.{fn.__name__}"
            for key, v in got.items():
                if key in values:
                    raise RuntimeError(
                        f"published key {key!r} is produced twice: by {origin[key]} "
                        f"and {name}"
                    )
                values[key] = float(v)
                origin[key] = name
    return values, origin


def computed() -> dict[str, float]:
    """``{published key: computed value}`` for every printed value the book re-derives
    (a copy)."""
    return dict(_run()[0])


def producer_of(key: str) -> str:
    """The dotted name of the function that computes ``key``; ``UnknownNameError`` if
    none does."""
    if not isinstance(key, str):
        raise InputTypeError(f"key must be a published key (a string), got {key!r:.40}")
    origin = _run()[1]
    if key not in origin:
        raise UnknownNameError(f"no function computes {key!r}")
    return origin[key]


SCOREBOARD_COLUMNS = (
    "key",
    "paper",
    "source",
    "quantity",
    "context",
    "printed",
    "computed",
    "difference",
    "tolerance",
    "status",
)
"""The columns a chapter shows of :func:`table` (it has ``declared``, ``unit``, ``note``
and ``producer`` too)."""


def _status(row: Mapping[str, str], computed: float | None, tol: float) -> str:
    """A row's status, computed: see :func:`table`."""
    if row["status"] == published.INPUT:
        return published.INPUT
    if computed is None:
        return "not derivable"
    printed = float(row["value"])
    holds = {
        "": abs(computed - printed) <= tol,
        ">": computed > printed,  # a printed lower bound or claim ("more than 8x")
        "<": computed < printed,  # a printed upper bound or claim ("within 10 %")
    }[row.get("bound", "")]
    return "reproduced" if holds else "outside"


def table(*prefixes: str, inputs: bool = True):
    """Every printed value, computed now and compared at its tolerance (a
    ``pandas.DataFrame``).

    Columns ``key, paper, source, quantity, context, printed`` (the printed number),
    ``printed_text``, ``unit, computed, difference, tolerance, bound, status`` (computed
    here: ``reproduced`` when ``|computed - printed| <= tolerance``, or for a row with a
    ``bound`` (a printed claim such as ">8x" or "within about 10 %") when the computed
    quantity lies on the printed side of the value; ``outside`` when not; ``not
    derivable`` when no function computes the key; ``input`` for a number the book
    takes in, which has no computed value and is not counted), ``declared`` (the status
    the data file declares), ``note`` (the reason for an outside, not-derivable or
    input row) and ``producer`` (the function that computes it). With ``prefixes``,
    only the keys that start with one of them, in file order; ``inputs=False`` leaves
    the input rows out.
    """
    inputs = check_flag("inputs", inputs)
    for pre in prefixes:
        if not isinstance(pre, str):
            raise InputTypeError(
                f"prefixes must be strings (key prefixes), got {pre!r:.40}"
            )
    values = computed()
    rows = []
    for key, r in published.rows().items():
        if prefixes and not key.startswith(prefixes):
            continue
        is_input = r["status"] == published.INPUT
        if is_input and not inputs:
            continue
        if is_input and key in values:
            raise RuntimeError(
                f"{key!r} is declared an input but {producer_of(key)} computes it: "
                "a computed value is scored, not an input"
            )
        printed = float(r["value"])
        comp = values.get(key)
        bound = r.get("bound", "")
        tol = float("nan") if bound or is_input else published.tolerance(key)
        status = _status(r, comp, tol)
        comp = float("nan") if comp is None else comp
        rows.append(
            {
                "key": key,
                "paper": r["paper"],
                "source": r["source"],
                "quantity": r["quantity"],
                "context": r["context"],
                "printed": printed,
                "printed_text": r["printed"] or r["value"],
                "unit": r["unit"],
                "computed": comp,
                "difference": comp - printed,
                "tolerance": tol,
                "bound": bound,
                "status": status,
                "declared": r["status"],
                "note": r["note"],
                "producer": producer_of(key) if key in values else "",
            }
        )
    if not rows:
        raise UnknownNameError(f"no published value starts with {prefixes}")
    return pd.DataFrame(rows)


COUNT_COLUMNS = (*STATUSES, published.INPUT, "total", "derivable")
"""The columns of :func:`counts`."""


def counts(board=None):
    """Per paper: how many printed values are reproduced, outside (explained), not
    derivable, and taken in as inputs.

    A ``pandas.DataFrame`` indexed by paper (in :data:`PAPERS` order) with columns
    :data:`COUNT_COLUMNS`: ``total`` counts the scored rows (reproduced, outside, not
    derivable; inputs are not scored) and ``derivable`` the reproduced and outside ones.
    """
    board = table() if board is None else _check_board(board)
    t = board.groupby(["paper", "status"]).size().unstack(fill_value=0)
    t = t.reindex(
        index=[p for p in PAPERS if p in t.index],
        columns=[*STATUSES, published.INPUT],
        fill_value=0,
    )
    t["total"] = t[list(STATUSES)].sum(axis=1)
    t["derivable"] = t["reproduced"] + t["outside"]
    return t


def _check_board(board):
    """``board`` if it is a :func:`table` frame (a DataFrame with ``paper`` and
    ``status`` columns); ``InputTypeError`` or ``ValueError`` naming it otherwise."""
    if not isinstance(board, pd.DataFrame):
        raise InputTypeError(
            f"board must be a DataFrame from scoreboard.table(), got "
            f"{type(board).__name__} {board!r:.40}"
        )
    missing = [c for c in ("paper", "status") if c not in board.columns]
    if missing:
        raise ValueError(
            f"board must have the columns paper and status of scoreboard.table(); "
            f"it lacks {missing}"
        )
    return board


def section_label(paper: str) -> str:
    """The label of ``paper``'s section on the scoreboard page (``book/scoreboard``)."""
    if not isinstance(paper, str) or paper not in CHAPTERS:
        raise UnknownNameError(f"unknown paper {paper!r}; known: {', '.join(PAPERS)}")
    return "scoreboard-" + _PACKAGES[paper].replace("_", "-")


_PACKAGES = {m.PAPER: m.__name__.rsplit(".", 1)[-1] for m in _PAPER_PACKAGES}


def front_page_markdown(board=None, chapters: Mapping[str, str] | None = None) -> str:
    """The front page's scoreboard as a MyST Markdown table: one row per paper and a
    total row.

    Columns: paper (a ``{doc}`` link to ``chapters[paper]``, the first chapter of its
    part, when given), a link to the paper's table of rows on the scoreboard page
    (:func:`section_label`), printed values scored, reproduced, outside (explained),
    not derivable, the share reproduced of all scored values, and the printed numbers
    taken in as inputs (not scored).
    """
    if chapters is not None and not (
        isinstance(chapters, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in chapters.items())
    ):
        raise InputTypeError(
            "chapters must be a mapping of paper -> chapter (strings), got "
            f"{chapters!r:.60}"
        )
    t = counts(board)
    chapters = CHAPTERS if chapters is None else dict(chapters)
    if t.empty or (t["total"] == 0).any():
        empty = list(t.index[t["total"] == 0]) or "every paper"
        raise ValueError(
            f"board must have scored rows for each paper it holds; none for {empty}"
        )
    unknown = set(chapters) - set(t.index)
    if unknown:
        raise UnknownNameError(
            f"chapters has papers that the scoreboard does not: {sorted(unknown)}; "
            f"known: {', '.join(t.index)}"
        )
    head = (
        "| paper | rows | printed values scored | reproduced | outside (explained) "
        "| not derivable | reproduced, share | inputs (not scored) |\n"
        "|:--|:--|--:|--:|--:|--:|--:|--:|"
    )
    lines = [head]
    for paper, r in t.iterrows():
        name = f"{{doc}}`{paper} <{chapters[paper]}>`" if paper in chapters else paper
        rows = f"{{ref}}`table <{section_label(paper)}>`"
        lines.append(
            f"| {name} | {rows} | {r.total} | {r.reproduced} | {r.outside} "
            f"| {r['not derivable']} | {r.reproduced / r.total:.0%} | {r.input} |"
        )
    s = t.sum()
    lines.append(
        f"| **all papers** | {{doc}}`all rows <scoreboard>` | **{s.total}** "
        f"| **{s.reproduced}** | **{s.outside}** | **{s['not derivable']}** "
        f"| **{s.reproduced / s.total:.0%}** | **{s.input}** |"
    )
    return "\n".join(lines)


def plot_counts(ax, board=None) -> None:
    """Horizontal stacked bars, one per paper: reproduced, outside (explained), not
    derivable (the scored rows; inputs are not drawn)."""
    t = counts(board)
    papers = list(t.index)[::-1]
    left = [0] * len(papers)
    colours = {
        "reproduced": plotting.PALETTE[2],
        "outside": plotting.PALETTE[1],
        "not derivable": "0.75",
    }
    hatches = {"reproduced": "", "outside": "//", "not derivable": ".."}
    for status in STATUSES:
        widths = [int(t.loc[p, status]) for p in papers]
        ax.barh(
            papers,
            widths,
            left=left,
            color=colours[status],
            hatch=hatches[status],
            edgecolor="white",
            label=status if status != "outside" else "outside (explained)",
        )
        left = [a + b for a, b in zip(left, widths)]
    ax.set_xlabel("printed values (count)")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right")

"""Hong & Kim (ISCA 2009) §6.2–6.3: long-latency instructions (Table 7's M_Factors) and
divergent branches, the paper's extensions of the model whose equations are in
:mod:`gpumodels.engines.mwp_cwp`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import pandas as pd

from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, UnknownNameError
from gpumodels.ground.validate import (
    check_mapping,
    check_real,
    check_sequence,
)

# --------------------------------------------------------------------------------------
# §6.2-6.3: long-latency instructions and divergent branches


@cache
def _table_7() -> dict[str, dict[str, str]]:
    return {r["instruction"]: r for r in read_rows("hong_kim/table_7.csv")}


def m_factor_of(counts: Mapping[str, float], source: str = "experiment") -> float:
    """Eq. (31)'s M_Factor for an instruction mix: the count-weighted mean of Table 7's
    factors.

    ``counts`` maps Table 7 instruction names (``fp_add``, ``fp_mul``, ``fp_mad``,
    ``int_add``, ``fp_div``, ``int_mul``, ``int_div``, ``modulo``) to dynamic counts;
    ``source`` picks the ``"experiment"`` column or the ``"manual"`` one (which has no
    value for ``int_div`` and ``modulo``). The weighted mean is the book's
    generalisation: the paper applies one M_Factor to all instructions; for a single
    instruction kind the two agree.

    >>> m_factor_of({"int_mul": 1})
    4.3
    >>> m_factor_of({"fp_mad": 3, "fp_div": 1}, source="manual")
    1.75
    """
    if source not in ("experiment", "manual"):
        raise ValueError(f"source must be 'experiment' or 'manual', got {source!r}")
    t = _table_7()
    check_mapping("counts", counts)
    if not counts:
        raise ValueError("counts must name at least one instruction")
    total = weighted = 0.0
    for name, c in counts.items():
        if name not in t:
            raise UnknownNameError(
                f"instruction must be one of {', '.join(t)}, got {name!r}"
            )
        c = check_real(f"counts[{name!r}]", c, 0.0)
        f = t[name][f"m_factor_{source}"]
        if not f:
            raise ValueError(
                f"Table 7 gives no {source} M_Factor for {name} ('Very Costly'); use "
                "source='experiment'"
            )
        total += c
        weighted += c * float(f)
    if total == 0:
        raise ValueError("counts must not all be zero")
    return weighted / total


def table_7():
    """Table 7 as a ``pandas.DataFrame`` (instruction, ops per cycle, M_Factor manual
    and measured, source)."""

    return pd.DataFrame(read_rows("hong_kim/table_7.csv"))


@dataclass(frozen=True)
class Divergence:
    """Instruction counts of each path of a divergent branch and of their serialised
    execution (§6.3)."""

    paths: tuple[tuple[str, ...], ...]
    path_counts: tuple[dict, ...]
    all_paths: dict

    def __post_init__(self):
        ctx = "Divergence"
        check_sequence("paths", self.paths, ctx)
        for p in self.paths:
            check_sequence("paths entries", p, ctx)
        check_sequence("path_counts", self.path_counts, ctx)
        for i, counts in enumerate((*self.path_counts, self.all_paths)):
            name = "all_paths" if i == len(self.path_counts) else f"path_counts[{i}]"
            check_mapping(name, counts, ctx)
            for k, v in counts.items():
                check_real(f"{name}[{k!r}]", v, 0.0, context=ctx)


_COUNT_KEYS = ("comp_insts", "coal_mem_insts", "uncoal_mem_insts", "synch_insts")


def divergent_counts(
    blocks: Mapping[str, Mapping[str, float]], paths: Sequence[Sequence[str]]
) -> Divergence:
    """Per-path and all-paths instruction counts of a divergent control-flow graph
    (§6.3, Fig. 27).

    ``blocks`` maps basic-block names to counts (fields of
    :class:`~gpumodels.engines.mwp_cwp.Inputs`: ``comp_insts``, ``coal_mem_insts``,
    ``uncoal_mem_insts``, ``synch_insts``); ``paths`` lists the blocks each thread path
    runs through. A warp whose threads take several paths executes every path one after
    the other with the other threads masked off, so each basic block on *any* path is
    issued once per warp: the all-paths count sums the union of the paths' blocks. That
    is the book's reading of the paper's "sum of all the paths"; the shared blocks are
    counted once because the hardware issues them once.

    >>> blocks = {"B1": {"comp_insts": 2}, "B2": {"comp_insts": 3},
    ...           "B3": {"comp_insts": 5}}
    >>> d = divergent_counts(blocks, [("B1", "B2"), ("B1", "B3")])
    >>> [c["comp_insts"] for c in d.path_counts], d.all_paths["comp_insts"]
    ([5.0, 7.0], 10.0)
    """
    check_mapping("blocks", blocks)
    if isinstance(paths, (str, bytes)) or not isinstance(paths, Sequence):
        raise InputTypeError(
            "paths must be a list of paths (lists of block names), got "
            f"{type(paths).__name__} {paths!r:.40}"
        )
    if not paths:
        raise ValueError("paths must list at least one path")
    for p in paths:
        if isinstance(p, (str, bytes)) or not isinstance(p, Sequence):
            raise InputTypeError(
                "paths must hold lists or tuples of block names, got "
                f"{type(p).__name__} {p!r:.40}"
            )
        for b in p:
            try:
                known = b in blocks
            except TypeError:  # an unhashable block name
                known = False
            if not known:
                raise UnknownNameError(
                    f"paths: path block {b!r} is not one of the blocks "
                    f"{', '.join(map(str, blocks))}"
                )
    for name, c in blocks.items():
        check_mapping(f"blocks[{name!r}]", c)
        for k, v in c.items():
            if k not in _COUNT_KEYS:
                raise ValueError(
                    f"block {name!r}: counts must use keys {', '.join(_COUNT_KEYS)}, "
                    f"got {k!r}"
                )
            check_real(f"blocks[{name!r}][{k!r}]", v, 0.0)

    def sum_of(names) -> dict:
        out = {k: 0.0 for k in _COUNT_KEYS}
        for b in names:
            for k, v in blocks[b].items():
                out[k] += float(v)
        return out

    paths_t = tuple(tuple(p) for p in paths)
    union = list(dict.fromkeys(b for p in paths_t for b in p))
    return Divergence(paths_t, tuple(sum_of(p) for p in paths_t), sum_of(union))


def issue_cycles(threads_per_warp: float, functional_units: float) -> float:
    """``Issue_cycles`` (Table 1, row 2; Eq. 19): cycles the SM needs to run one warp
    instruction on its functional units, ``#Threads_per_warp / units`` (§2.3: "Since
    an SM has only 8 functional units, executing 32 threads takes 4 SM processor
    cycles").

    >>> issue_cycles(32, 8)
    4.0
    """
    t = check_real("threads_per_warp", threads_per_warp, 0.0, lo_open=True)
    return t / check_real("functional_units", functional_units, 0.0, lo_open=True)


def m_factor_from_throughput(ops_per_cycle: float, full_rate: float) -> float:
    """Table 7's manual ``M_Factor`` (Eq. 31) from the throughput: 1 at the full rate
    of one operation per functional unit per cycle (8 Ops/s per SM, §6.2), "and it is
    proportionately increased as the throughput is decreased": ``full_rate /
    ops_per_cycle``.

    >>> m_factor_from_throughput(8, 8), m_factor_from_throughput(2, 8)
    (1.0, 4.0)
    """
    ops = check_real("ops_per_cycle", ops_per_cycle, 0.0, lo_open=True)
    return check_real("full_rate", full_rate, 0.0, lo_open=True) / ops

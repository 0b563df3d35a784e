"""Inputs of Hong & Kim's worked example and benchmarks, and the sweeps behind the
book's figures.

The paper prints the Table 2 example completely, and the instruction counts of its
micro-benchmarks (Table 4) and Merge benchmarks (Table 5). Launch configurations, access
patterns on the GTX280 and the §6 experiments' kernels are not printed: every input the
book had to choose is stated in ``BENCHMARK_ASSUMPTIONS`` and shown in the chapter.
All results here are **model** output.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import pandas as pd

from gpumodels.engines.mwp_cwp import (
    Inputs,
    Machine,
    Prediction,
    machine,
    machines,
    predict,
)
from gpumodels.facts.occupancy import occupancy
from gpumodels.ground.data import read_rows
from gpumodels.ground.validate import (
    check_choice,
    check_flag,
    check_int,
    check_items,
    check_real,
    check_type,
)
from gpumodels.papers.hong_kim.coalescing import transactions_cc13
from gpumodels.papers.hong_kim.model import divergent_counts

_CC13_ASSUMED = transactions_cc13(1, aligned=False, element_size=4)
GTX280_UNCOAL_PER_MW = _CC13_ASSUMED.per_warp
"""Transactions per warp the book assumes for "uncoalesced" loads on the GTX280:
Algorithm 2 for a unit-stride 4-byte load whose half-warps start off a 16-element
boundary (2 per half-warp)."""

BENCHMARK_ASSUMPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "micro": (
            "Table 4 gives instructions per loop iteration and §4.2 1000 iterations; "
            "the launch is not printed. "
            "The book assumes 256-thread blocks at the occupancy limit with no "
            "register or shared-memory "
            "limit (3 blocks = 24 warps per SM on cc 1.0, 4 blocks = 32 warps on cc "
            "1.3) and one round of "
            "blocks; with #Rep cancelling in Eq. (25), CPI depends only on N."
        ),
        "gtx280_uncoal": (
            "#Uncoal_per_mw on the GTX280 is not printed (Table 3 cites the technical "
            "report). "
            f"The book assumes {GTX280_UNCOAL_PER_MW}: Algorithm 2 for a unit-stride "
            "4-byte load "
            "whose half-warps start off a 16-element boundary, the access of the Table "
            "2 example."
        ),
        "partial_warps": (
            "A block smaller than a warp still fills a warp slot and issues in 4 "
            "cycles, but only its "
            "threads load: the book sets Load_bytes_per_warp = 4 B x threads and, for "
            "uncoalesced loads, "
            "one transaction per loading thread on cc 1.0/1.1 (the CUDA guide's rule) "
            "or Algorithm 2's "
            "count per loading half-warp on cc 1.3."
        ),
        "merge": (
            "Table 5 gives counts per thread and the input size. The book assumes one "
            "element per thread "
            "(the counts of Mat. (naive), 2000 x 2 loads + 1 store = 4001, fit that), "
            "blocks = "
            "ceil(elements / threads per block), occupancy from the printed registers "
            "and shared memory, "
            "no __syncthreads except in Mat. (tiled), and threads per block 4, 8, ..., "
            "512 (§5.2)."
        ),
        "mat_tiled": (
            "Mat. (tiled) has square tiles of t x t threads, t dividing 2000 (t = 4, "
            "5, 8, 10, 16, 20). "
            "Memory instructions 2 x 2000/t + 1 give the printed ends 1001 (t = 4) and "
            "201 (t = 20); "
            "computation instructions are the straight line in 2000/t through the "
            "printed ends "
            "24580 and 9780, i.e. 6080 + 37 x 2000/t (a book interpolation); 2 x "
            "2000/t "
            "__syncthreads (Figure 12); the printed 3960 B of shared memory at every "
            "tile size."
        ),
        "svm": (
            "Figures 22-23 are on the Quadro FX5600 (§2.4). The optimised SVM uses "
            "Table 5's counts (coalesced); "
            "the naive version's counts are not printed, so the book uses the same "
            "counts, uncoalesced, "
            "and the same registers and shared memory."
        ),
        "dependence": (
            "The DEP/INDEP kernels of §6.1 are not printed. The book's stand-in on the "
            "FX5600: one block "
            "per SM on all 16 SMs, 100 iterations of 2 coalesced loads and 8 "
            "computation instructions; "
            "INDEP's second load of each pair does not depend on the first "
            "(#ind_mem_req = 100 of 200)."
        ),
        "divergence": (
            "Figure 27's block sizes are not printed. The book's stand-in: 20 "
            "computation instructions in each "
            "of B1-B7, plus one coalesced load in B1 and one coalesced store in B7, on "
            "the FX5600 with "
            "256-thread blocks, 3 blocks per SM on 16 SMs."
        ),
        "sync": (
            "Figure 29 shows lines 9-13 of programs A and B: a coalesced load, mov, "
            "mul, (bar.sync,) a coalesced "
            "store. The book counts the 8 elided lines as computation: 10 computation "
            "and 2 memory instructions, "
            "1 synchronisation in A. FX5600 (the paper does not name the GPU); Fig. "
            "30: one block on one SM; "
            "Fig. 31: 2 (BL2) or 4 (BL4) blocks on each of the 16 SMs, as many threads "
            "per block as 24 warp "
            "slots allow (up to 384 and 192)."
        ),
    }
)


def _num(s: str):
    v = float(s)
    return int(v) if v.is_integer() else v


def _uncoal_per_mw(m, threads_per_block: int, given: float | None) -> float:
    """Transactions of an uncoalesced warp access
    (``BENCHMARK_ASSUMPTIONS["partial_warps"]``)."""
    if given is not None:
        return given
    active = min(threads_per_block, m.threads_per_warp)
    if m.uncoal_per_mw is not None:  # cc < 1.3: one transaction per loading thread
        return min(m.uncoal_per_mw, active)
    half_warps = -(-active // 16)
    return _CC13_ASSUMED.count * half_warps


# ---- Table 2 ----

TABLE_2_ROWS = (
    ("#Active_warps_per_SM", "n", "active_warps_per_sm", "Table 1"),
    ("Departure_delay", "departure_delay", "departure_delay", "15"),
    ("Mem_L", "mem_l", "mem_l", "10, 12"),
    ("MWP_without_BW_full", "mwp_without_bw_full", "mwp_without_bw_full", "16"),
    ("BW_per_warp (GB/s)", "bw_per_warp", "bw_per_warp", "7"),
    ("MWP_peak_BW", "mwp_peak_bw", "mwp_peak_bw", "6"),
    ("MWP", "mwp", "mwp", "5"),
    ("Comp_cycles", "comp_cycles", "comp_cycles", "19"),
    ("Mem_cycles", "mem_cycles", "mem_cycles", "18"),
    ("CWP_full", "cwp_full", "cwp_full", "8"),
    ("CWP", "cwp", "cwp", "9"),
    ("#Rep", "rep", "rep", "21"),
    ("Exec_cycles_app", "exec_cycles_app", "exec_cycles_app", "23"),
    ("Synch_cost", "synch_cost", "synch_cost", "26"),
    ("Final time", "exec_cycles_with_synch", "exec_cycles_with_synch", "28"),
)
"""Table 2's computed rows: (printed name,
:class:`~gpumodels.engines.mwp_cwp.Prediction` field, published key stem, equation)."""

TABLE_2_DECIMALS = MappingProxyType(
    {"mwp_without_bw_full": 2, "bw_per_warp": 3, "mwp_peak_bw": 2}
)
"""The precision Table 2 prints the MWP inputs with; carrying these rounded values
reproduces its totals."""


_TABLE_2_MACHINE = frozenset(
    ("mem_ld", "departure_del_uncoal", "issue_cycles", "mem_bandwidth_gbs", "freq_ghz")
)
"""The rows of ``data/hong_kim/table_2_inputs.csv`` that describe §3.5's hypothetical
machine; the other rows describe the kernel and its launch."""


def table_2_inputs() -> Inputs:
    """The :class:`~gpumodels.engines.mwp_cwp.Inputs` of the §3.5 example
    (``data/hong_kim/table_2_inputs.csv``), on its hypothetical machine (80 GB/s, 1
    GHz, no GPU name or compute capability).

    >>> k = table_2_inputs()
    >>> k.threads_per_block, k.uncoal_mem_insts, k.machine.mem_bandwidth_gbs
    (128, 6.0, 80.0)
    """
    rows = {
        r["parameter"]: _num(r["value"])
        for r in read_rows("hong_kim/table_2_inputs.csv")
    }
    mach = {k: v for k, v in rows.items() if k in _TABLE_2_MACHINE}
    kernel = {k: v for k, v in rows.items() if k not in _TABLE_2_MACHINE}
    return Inputs(machine=Machine(**mach), **kernel)


def table_2_input_table():
    """The §3.5 example's inputs with units and sources (a ``pandas.DataFrame``)."""

    return pd.DataFrame(read_rows("hong_kim/table_2_inputs.csv"))


def table_2_rows(prediction) -> dict[str, float]:
    """``{published key: computed value}`` for the rows of Table 2, from a
    :class:`~gpumodels.engines.mwp_cwp.Prediction`."""
    check_type("prediction", prediction, Prediction)
    return {
        f"hk09.t2.{key}.generic": float(getattr(prediction, attr))
        for _, attr, key, _ in TABLE_2_ROWS
    }


# ---- Table 4: micro-benchmarks ----


def micro_benchmarks():
    """Table 4 as a ``pandas.DataFrame`` (instructions per loop iteration)."""

    df = pd.DataFrame(read_rows("hong_kim/table_4.csv"))
    for c in ("mem_insts", "comp_insts", "fp_insts", "loop_iterations"):
        df[c] = df[c].astype(int)
    return df


def micro_inputs(
    name: str,
    gpu: str,
    coalesced: bool,
    threads_per_block: int = 256,
    uncoal_per_mw: float | None = None,
) -> Inputs:
    """The :class:`~gpumodels.engines.mwp_cwp.Inputs` of micro-benchmark ``name``
    (``"Mb1"``–``"Mb7"``) on ``gpu``.

    See ``BENCHMARK_ASSUMPTIONS["micro"]``; on the GTX280 ``uncoal_per_mw`` defaults to
    ``GTX280_UNCOAL_PER_MW``.
    """
    rows = {r["benchmark"]: r for r in read_rows("hong_kim/table_4.csv")}
    r = rows[check_choice("name", name, tuple(rows))]
    m = machine(gpu)
    coalesced = check_flag("coalesced", coalesced)
    loops = int(r["loop_iterations"])
    mem = int(r["mem_insts"]) * loops
    blocks = occupancy(m.cc, threads_per_block).blocks_per_sm * m.sm_count
    return Inputs(
        machine=m,
        threads_per_block=threads_per_block,
        blocks=blocks,
        comp_insts=int(r["comp_insts"]) * loops,
        coal_mem_insts=mem if coalesced else 0,
        uncoal_mem_insts=0 if coalesced else mem,
        uncoal_per_mw=None
        if coalesced
        else _uncoal_per_mw(m, threads_per_block, uncoal_per_mw),
    )


# ---- Table 5: Merge benchmarks ----


def merge_benchmarks():
    """Table 5 as a ``pandas.DataFrame``."""

    return pd.DataFrame(read_rows("hong_kim/table_5.csv"))


MAT_TILES = (4, 5, 8, 10, 16, 20)
"""Tile widths t (t x t threads per block) that divide the 2000 x 2000 matrices and fit
a cc 1.x block."""


def mat_tiled_counts(tile: int) -> dict:
    """Per-thread counts of Mat. (tiled) with ``tile`` x ``tile`` blocks
    (``BENCHMARK_ASSUMPTIONS["mat_tiled"]``).

    >>> mat_tiled_counts(4)["uncoal_mem_insts"], mat_tiled_counts(20)["comp_insts"]
    (1001, 9780.0)
    """
    t = check_int("tile", tile, 1, 22)
    if 2000 % t:
        raise ValueError(f"tile must divide 2000 (one of {MAT_TILES}), got {t}")
    rows = {r["benchmark"]: r for r in read_rows("hong_kim/table_5.csv")}[
        "Mat. (tiled)"
    ]
    lo_c, hi_c = (
        float(rows["comp_insts"]),
        float(rows["comp_insts_max"]),
    )  # printed at t = 20 and t = 4
    slope = (hi_c - lo_c) / (2000 / 4 - 2000 / 20)
    iters = 2000 // t
    return {
        "comp_insts": lo_c + slope * (iters - 2000 / 20),
        "uncoal_mem_insts": 2 * iters + 1,
        "coal_mem_insts": 0,
        "synch_insts": 2 * iters,
    }


MERGE_THREADS = (4, 8, 16, 32, 64, 128, 256, 512)
"""Threads per block of the Merge sweeps (§5.2: "from 4 to 512")."""


def merge_inputs(
    benchmark: str, threads_per_block: int, gpu: str, uncoal_per_mw: float | None = None
) -> Inputs:
    """The :class:`~gpumodels.engines.mwp_cwp.Inputs` of a Merge benchmark of Table 5
    (``BENCHMARK_ASSUMPTIONS["merge"]``).

    For ``"Mat. (tiled)"`` ``threads_per_block`` must be a square t² with t in
    ``MAT_TILES``.
    """
    rows = {r["benchmark"]: r for r in read_rows("hong_kim/table_5.csv")}
    r = rows[check_choice("benchmark", benchmark, tuple(rows))]
    m = machine(gpu)
    tpb = check_int("threads_per_block", threads_per_block, 1, 512)
    if benchmark == "Mat. (tiled)":
        t = math.isqrt(tpb)
        if t * t != tpb or t not in MAT_TILES:
            raise ValueError(
                "threads_per_block for Mat. (tiled) must be t*t with t in "
                f"{MAT_TILES}, got {tpb}"
            )
        counts = mat_tiled_counts(t)
        blocks = (2000 // t) ** 2
    else:
        mem = int(r["mem_insts"])
        counts = {
            "comp_insts": int(r["comp_insts"]),
            "coal_mem_insts": mem if r["access"] == "coal" else 0,
            "uncoal_mem_insts": mem if r["access"] == "uncoal" else 0,
            "synch_insts": 0,
        }
        blocks = -(-int(r["elements"]) // tpb)
    return Inputs(
        machine=m,
        threads_per_block=tpb,
        blocks=blocks,
        registers_per_thread=int(r["registers"]),
        shared_mem_per_block=int(r["shared_mem_bytes"]),
        load_bytes_per_warp=4 * min(tpb, m.threads_per_warp),
        uncoal_per_mw=_uncoal_per_mw(m, tpb, uncoal_per_mw)
        if counts["uncoal_mem_insts"]
        else None,
        **counts,
    )


_SWEEP_FIELDS = (
    "threads_per_block",
    "blocks",
    "active_blocks_per_sm",
    "n",
    "occupancy",
    "mwp_without_bw",
    "mwp_peak_bw",
    "mwp",
    "cwp",
    "equation",
    "rep",
    "exec_cycles_with_synch",
    "time_ms",
    "cpi",
)


def _rows_of(preds, extra: Sequence[dict]):

    rows = []
    for p, e in zip(preds, extra):
        d = p.as_dict()
        rows.append({**e, **{k: d[k] for k in _SWEEP_FIELDS}, "kind": "model"})
    return pd.DataFrame(rows)


def merge_sweep(
    benchmark: str,
    gpu: str,
    threads: Sequence[int] | None = None,
    uncoal_per_mw: float | None = None,
):
    """Model output of a Merge benchmark for each block size: one row per configuration
    (a DataFrame)."""
    if threads is None:
        threads = (
            [t * t for t in MAT_TILES] if benchmark == "Mat. (tiled)" else MERGE_THREADS
        )
    threads = check_items("threads", threads, context="the sweep of block sizes")
    preds = [predict(merge_inputs(benchmark, t, gpu, uncoal_per_mw)) for t in threads]
    return _rows_of(
        preds, [{"benchmark": benchmark, "gpu": machine(gpu).gpu}] * len(preds)
    )


def mwp_vs_warps(
    gpu: str, coalesced: bool, warps: Sequence[int], uncoal_per_mw: float | None = None
):
    """Figure 21's curves: N, MWP_without_BW, MWP_peak_BW and MWP as the active warps
    per SM grow.

    N one-warp blocks per SM on every SM, one 4-byte load per thread (the computation
    does not enter MWP). The warp slots of the compute capability are not checked, so
    the curves can be drawn past them.
    """
    m = machine(gpu)
    coalesced = check_flag("coalesced", coalesced)
    warps = check_items("warps", warps, context="the sweep of warp counts")
    preds = [
        predict(
            explorer_inputs(m.gpu, w, 1, 1, 1.0 if coalesced else 0.0, uncoal_per_mw)
        )
        for w in warps
    ]
    return _rows_of(
        preds, [{"gpu": m.gpu, "coalesced": coalesced}] * len(preds)
    ).assign(mwp_without_bw_full=[p.mwp_without_bw_full for p in preds])


def svm_sweep(variant: str, threads: Sequence[int] = MERGE_THREADS):
    """Figures 22–23: N, MWP terms and CWP of the SVM kernel on the FX5600
    (``"optimized"`` or ``"naive"``)."""
    if variant not in ("optimized", "naive"):
        raise ValueError(f"variant must be 'optimized' or 'naive', got {variant!r}")
    threads = check_items("threads", threads, context="the sweep of block sizes")
    preds = []
    for t in threads:
        k = merge_inputs("SVM", t, "FX5600")
        if variant == "naive":  # the same loads, uncoalesced (the FX5600's 32)
            k = k.replace(uncoal_mem_insts=k.coal_mem_insts, coal_mem_insts=0)
        preds.append(predict(k))
    df = _rows_of(preds, [{"variant": variant}] * len(preds))
    df["cwp_full"] = [p.cwp_full for p in preds]
    return df


def dependence_sweep(warps: Sequence[int], independent: bool, use_npw: bool = True):
    """§6.1 (Figures 25–26): the book's DEP/INDEP stand-in kernel for 1, 2, ... warps
    per SM.

    ``use_npw=False`` is the original model (MODEL_NOPW), which ignores independence.
    """
    independent, use_npw = (
        check_flag("independent", independent),
        check_flag("use_npw", use_npw),
    )
    warps = check_items("warps", warps, context="the sweep of warp counts")
    preds = []
    for w in warps:
        ind = 100 if (independent and use_npw) else 0
        preds.append(
            predict(
                Inputs(
                    machine="FX5600",
                    threads_per_block=32 * check_int("warps", w, 1),
                    blocks=16,
                    active_blocks_per_sm=1,
                    comp_insts=800,
                    coal_mem_insts=200,
                    ind_mem_req=ind,
                )
            )
        )
    df = _rows_of(
        preds, [{"independent": independent, "use_npw": use_npw}] * len(preds)
    )
    df["n_pw"] = [p.n_pw for p in preds]
    df["mwp_without_bw_full"] = [p.mwp_without_bw_full for p in preds]
    return df


DEPENDENCE_WARPS = tuple(range(1, 17))
"""The warps per SM of the §6.1 stand-in sweep: one block per SM of 1 to 16 warps (32
to 512 threads, the largest block of the evaluated CUDA programs, §5.2)."""


def dependence_ratio(warps: Sequence[int] = DEPENDENCE_WARPS):
    """§6.1 (Figure 26) in the model: the INDEP stand-in's time over the DEP one's for
    each number of warps per SM, both with ``N_pw`` (MODEL_PW), beside the memory
    system's MWP limit ``min(MWP_without_BW_full, MWP_peak_BW)`` of the DEP kernel
    (Eqs. 5, 6, 16; the "MWP" the text compares N with). A DataFrame with columns
    ``n``, ``mwp_limit`` and ``ind_over_dep``. The kernel is the book's stand-in
    (``BENCHMARK_ASSUMPTIONS["dependence"]``).

    >>> d = dependence_ratio([1, 16])
    >>> d.ind_over_dep.round(3).tolist(), round(float(d.mwp_limit.iloc[0]), 2)
    ([0.05, 1.0], 11.67)
    """
    warps = check_items(
        "warps", warps, context="the sweep of warp counts", allow_empty=False
    )
    dep = dependence_sweep(warps, independent=False)
    ind = dependence_sweep(warps, independent=True)
    return pd.DataFrame(
        {
            "n": dep.n,
            "mwp_limit": dep[["mwp_without_bw_full", "mwp_peak_bw"]].min(axis=1),
            "ind_over_dep": ind.exec_cycles_with_synch / dep.exec_cycles_with_synch,
        }
    )


DIVERGENCE_BLOCKS = MappingProxyType(
    {
        "B1": {"comp_insts": 20, "coal_mem_insts": 1},
        "B2": {"comp_insts": 20},
        "B3": {"comp_insts": 20},
        "B4": {"comp_insts": 20},
        "B5": {"comp_insts": 20},
        "B6": {"comp_insts": 20},
        "B7": {"comp_insts": 20, "coal_mem_insts": 1},
    }
)
DIVERGENCE_PATHS = (
    ("B1", "B2", "B4", "B6", "B7"),
    ("B1", "B2", "B5", "B6", "B7"),
    ("B1", "B3", "B7"),
)
"""Figure 27's three paths; the block sizes are the book's stand-in
(``BENCHMARK_ASSUMPTIONS["divergence"]``)."""


def divergence_example():
    """Figure 28's model bars for the book's stand-in: each path alone, and all paths
    serialised (a DataFrame)."""

    d = divergent_counts(DIVERGENCE_BLOCKS, DIVERGENCE_PATHS)
    launch = {"machine": "FX5600", "threads_per_block": 256, "blocks": 48}
    rows = []
    for label, counts in [
        *(("-".join(p), c) for p, c in zip(d.paths, d.path_counts)),
        ("all paths", d.all_paths),
    ]:
        p = predict(Inputs(**launch, **counts))
        rows.append(
            {
                "path": label,
                "comp_insts": counts["comp_insts"],
                "mem_insts": counts["coal_mem_insts"] + counts["uncoal_mem_insts"],
                "exec_cycles": p.exec_cycles_with_synch,
                "equation": p.equation,
                "kind": "model",
            }
        )
    return pd.DataFrame(rows)


def sync_inputs(
    threads_per_block: int,
    synchronised: bool,
    blocks_per_sm: int = 1,
    all_sms: bool = False,
) -> Inputs:
    """The :class:`~gpumodels.engines.mwp_cwp.Inputs` of Figure 29's programs A
    (``synchronised``) and B (``BENCHMARK_ASSUMPTIONS["sync"]``)."""
    m = machine("FX5600")
    check_flag("synchronised", synchronised)
    sms = m.sm_count if check_flag("all_sms", all_sms) else 1
    bps = check_int("blocks_per_sm", blocks_per_sm, 1, 8)
    return Inputs(
        machine=m,
        threads_per_block=threads_per_block,
        blocks=bps * sms,
        active_sms=sms,
        active_blocks_per_sm=bps,
        comp_insts=10,
        coal_mem_insts=2,
        synch_insts=1 if synchronised else 0,
    )


def explorer_inputs(
    gpu: str,
    warps: int,
    comp_insts: float,
    mem_insts: float,
    coalesced_share: float = 1.0,
    uncoal_per_mw: float | None = None,
) -> Inputs:
    """The :class:`~gpumodels.engines.mwp_cwp.Inputs` of the chapter's explorer:
    ``warps`` one-warp blocks on every SM.

    ``mem_insts`` loads per thread, of which ``coalesced_share`` are coalesced (the rest
    uncoalesced, with the GPU's transactions per warp). Warp slots are not checked, so N
    can be explored past the hardware limit: the machine is the GPU's without its
    compute capability, which the occupancy check needs.
    """
    m = machine(gpu)
    w = check_int("warps", warps, 1, 64)
    share = check_real("coalesced_share", coalesced_share, 0.0, 1.0)
    mem = check_real("mem_insts", mem_insts, 0.0)
    if uncoal_per_mw is not None:
        check_real("uncoal_per_mw", uncoal_per_mw, 1.0)
    uncoal = mem * (1 - share)
    return Inputs(
        machine=m.replace(cc=None),
        threads_per_block=32,
        blocks=w * m.sm_count,
        active_sms=m.sm_count,
        active_blocks_per_sm=w,
        comp_insts=comp_insts,
        coal_mem_insts=mem * share,
        uncoal_mem_insts=uncoal,
        uncoal_per_mw=_uncoal_per_mw(m, 32, uncoal_per_mw) if uncoal > 0 else None,
    )


def sync_delta(
    threads_per_block: int, blocks_per_sm: int = 1, all_sms: bool = False
) -> float:
    """Cycles Figure 29's program A (synchronised) takes beyond program B: the quantity
    of Figs. 30–31.

    ``Exec_cycles_with_synch`` of A minus that of B, both from :func:`sync_inputs`.
    """
    all_sms = check_flag("all_sms", all_sms)
    a = predict(sync_inputs(threads_per_block, True, blocks_per_sm, all_sms))
    b = predict(sync_inputs(threads_per_block, False, blocks_per_sm, all_sms))
    return a.exec_cycles_with_synch - b.exec_cycles_with_synch


def merge_mean_occupancy(gpus: Sequence[str] | None = None):
    """Fig. 20's quantity as the book reads it: each Merge benchmark's occupancy on each
    GPU, the plain mean over the block sizes of :func:`merge_sweep` (``MERGE_THREADS``,
    §5.2's "from 4 to 512"; the tiles of ``MAT_TILES`` for Mat. (tiled)). A DataFrame,
    benchmarks by GPUs. The paper does not print the block sizes it averaged.
    """
    if gpus is not None:
        gpus = check_items(
            "gpus", gpus, context="the GPUs to average over", allow_empty=False
        )
    else:
        gpus = machines()
    names = list(merge_benchmarks().benchmark)
    sweep = pd.concat(
        [merge_sweep(b, g) for g in gpus for b in names], ignore_index=True
    )
    return (
        sweep.groupby(["benchmark", "gpu"], sort=False)
        .occupancy.mean()
        .unstack()
        .reindex(index=names, columns=[machine(g).gpu for g in gpus])
    )


def merge_means(gpus: Sequence[str] | None = None):
    """Figures 17-20's bars as the book reads them: CPI, CWP, MWP and occupancy of each
    Merge benchmark on each GPU, the plain mean over the block sizes of
    :func:`merge_sweep` (as :func:`merge_mean_occupancy`). A DataFrame indexed by
    ``(benchmark, gpu)``; ``.cpi.unstack("gpu")`` gives benchmarks by GPUs.

    >>> m = merge_means(["FX5600"])
    >>> round(float(m.loc[("SVM", "FX5600"), "cpi"]), 2)
    9.84
    """
    if gpus is not None:
        gpus = check_items(
            "gpus", gpus, context="the GPUs to average over", allow_empty=False
        )
    else:
        gpus = machines()
    names = list(merge_benchmarks().benchmark)
    sweep = pd.concat(
        [merge_sweep(b, g) for g in gpus for b in names], ignore_index=True
    )
    return sweep.groupby(["benchmark", "gpu"], sort=False)[
        ["cpi", "cwp", "mwp", "occupancy"]
    ].mean()


def table_5_occupancy(benchmark: str, gpu: str, threads_per_block: int) -> float:
    """SM occupancy of a Table 5 kernel on ``gpu`` with blocks of ``threads_per_block``
    threads: the occupancy calculator
    (:func:`gpumodels.facts.occupancy.occupancy`) with the printed registers per
    thread and shared memory per block.

    >>> round(table_5_occupancy("SVM", "FX5600", 32), 4)   # 8 one-warp blocks of 24
    0.3333
    """
    rows = {r["benchmark"]: r for r in read_rows("hong_kim/table_5.csv")}
    r = rows[check_choice("benchmark", benchmark, tuple(rows))]
    tpb = check_int("threads_per_block", threads_per_block, 1, 512)
    occ = occupancy(
        machine(gpu).cc, tpb, int(r["registers"]), int(r["shared_mem_bytes"])
    )
    return float(occ.occupancy)

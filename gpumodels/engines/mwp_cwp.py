"""The MWP/CWP model of Hong & Kim (ISCA 2009), equations 1–31.

:func:`~gpumodels.engines.mwp_cwp.predict` evaluates equations 5–28 (and the §6
extensions, equations 29–31) for one kernel launch, described by an
:class:`~gpumodels.engines.mwp_cwp.Inputs` record (the kernel, its launch and a
:class:`~gpumodels.engines.mwp_cwp.Machine`), and returns a
:class:`~gpumodels.engines.mwp_cwp.Prediction` whose fields are the intermediate
quantities of the paper's Table 2::

    predict(Inputs(machine="FX5600", threads_per_block=256, blocks=48,
                   comp_insts=500, coal_mem_insts=4))

The §3.2 timeline equations 1–4 are separate functions
(:func:`~gpumodels.engines.mwp_cwp.cycles_cwp_above_mwp`,
:func:`~gpumodels.engines.mwp_cwp.cycles_mwp_above_cwp`,
:func:`~gpumodels.engines.mwp_cwp.cycles_mwp_equals_n`), because the paper derives them
from its Figures 5–8 before it generalises them into equations 22–24. The equations
``predict`` chains are also functions of arrays (:func:`bw_per_warp`,
:func:`mwp_peak_bw`, :func:`mwp_peak_bw_from`, :func:`cwp_full`, :func:`equation_case`,
:func:`cycles_eq22`, :func:`cycles_eq23`, :func:`cycles_eq24`), on which Volkov's §7.1
reduction (:mod:`gpumodels.comparisons.prior.hong_kim_2009`) and Sim et al.'s
(:mod:`gpumodels.comparisons.prior.sim_2012`) are built: each equation is written once,
here.

Readings of the printed text that the book had to choose are stated where they are used
and collected in ``READINGS``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from types import MappingProxyType
from typing import NamedTuple

import numpy as np
import pandas as pd

from gpumodels.facts import _fields
from gpumodels.facts.hardware import GPU, get_gpu
from gpumodels.facts.occupancy import limits, occupancy
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import (
    InputTypeError,
    OutsideDomainError,
    UnknownNameError,
)
from gpumodels.ground.validate import (
    as_array,
    broadcast,
    check_int,
    check_mapping,
    check_real,
    finite_result,
    out,
)

READINGS: Mapping[str, str] = MappingProxyType(
    {
        "no_memory_instructions": (
            "Equations 22-23 divide by #Mem_insts. With no memory instruction a warp "
            "is a single "
            "computation period and nothing waits for memory, so the book sets Mem_L = "
            "Mem_cycles = 0, "
            "MWP = N, CWP = 1 and uses Eq. (24), i.e. Eq. (3) with Mem_p = 0: the N "
            "warps' computation "
            "runs back to back, Exec_cycles_app = Comp_cycles x N x #Rep."
        ),
        "n_pw": (
            "Eq. (29) as extracted, N x #ind/(#mem - #ind), gives N_pw = 0 when no "
            "request is "
            "independent, against the text ('typically the number of parallel warps is "
            "the same as N'). "
            "The book reads N_pw = N x #mem_req / (#mem_req - #ind_mem_req) = N + N x "
            "#ind/(#mem - #ind), "
            "which is N without independent requests and grows as more requests "
            "overlap. N_pw also "
            "replaces N as the cap of Eq. (17): with N there, Eq. (30) could never "
            "raise MWP above N, "
            "while the text says N_pw matters exactly when N is below MWP_without_BW "
            "or MWP_peak_BW."
        ),
        "warps_per_block": (
            "N counts whole warps: a block of 4 threads still occupies one warp "
            "(ceil(threads/32)). "
            "Eq. (25) keeps the printed ratio #Threads_per_block / #Threads_per_warp, "
            "so for blocks that "
            "are not a multiple of 32 threads CPI counts instructions in units of 32 "
            "threads."
        ),
        "rep": "Eq. (21) is a plain division, as printed; #Rep may be fractional (the "
        "model's average active warps, §5.2).",
        "active_blocks": (
            "When #Active_blocks_per_SM is not given it is the occupancy limit "
            "(registers, shared memory, "
            "warp and block slots of the compute capability), but no more than the "
            "blocks an SM receives: "
            "ceil(#Blocks / #Active_SMs)."
        ),
    }
)


@dataclass(frozen=True, kw_only=True)
class Machine:
    """Hong & Kim's machine parameters (Table 1, rows 1-7 and 19-20), with their
    sources.

    :func:`machine` gives the record of a GPU of Table 3 (Tables 1, 3 and 6). A record
    built by hand describes another machine, e.g. §3.5's hypothetical one (see
    :func:`~gpumodels.papers.hong_kim.benchmarks.table_2_inputs`); a parameter left
    ``None`` is one the kernel does not need (:class:`Inputs` says which are needed).
    Every given value is checked on construction (and so on :meth:`replace`).

    Attributes
    ----------
    gpu : str or None
        The GPU's name (``None`` for a hypothetical machine); informative only.
    cc : str or None
        Compute capability: with it, :func:`predict` checks the block size, derives
        ``#Active_blocks_per_SM`` from the occupancy calculator and reports the
        occupancy; without it, nothing is checked against the SM's slots.
    mem_ld : float
        ``Mem_LD``, DRAM round-trip latency, cycles (Table 6; Eqs. 10-11).
    departure_del_uncoal, departure_del_coal : float
        ``Departure_del_uncoal`` and ``Departure_del_coal``, cycles between two
        transactions (Table 6; Eqs. 10, 15).
    issue_cycles : float
        ``Issue_cycles``, cycles to issue one warp instruction (Table 1: 4; Eq. 19).
    threads_per_warp : int
        ``#Threads_per_warp`` (32; N and Eq. 25).
    coal_per_mw : int
        ``#Coal_per_mw``, transactions per coalesced warp access (1; Table 3).
    uncoal_per_mw : float or None
        ``#Uncoal_per_mw``, transactions per uncoalesced warp access (Table 3; Eqs.
        10, 15). ``None`` where the paper does not print it (GTX280: it depends on the
        access pattern, see
        :func:`gpumodels.papers.hong_kim.coalescing.transactions_cc13`);
        :attr:`Inputs.uncoal_per_mw` overrides it for one kernel.
    freq_ghz : float
        ``Freq``, the SM clock, GHz (Table 3; Eq. 7).
    mem_bandwidth_gbs : float
        ``Mem_Bandwidth``, GB/s (Table 3; Eq. 6).
    sm_count : int or None
        SMs of the GPU: the default and the bound of :attr:`Inputs.active_sms`.
    """

    gpu: str | None = None
    cc: str | None = None
    mem_ld: float | None = None
    departure_del_uncoal: float | None = None
    departure_del_coal: float | None = None
    issue_cycles: float = 4
    threads_per_warp: int = 32
    coal_per_mw: int = 1
    uncoal_per_mw: float | None = None
    freq_ghz: float | None = None
    mem_bandwidth_gbs: float | None = None
    sm_count: int | None = None
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self) -> None:
        """Check every given field (errors name ``Machine.<field>``, the range and the
        value) and store numbers as ``float`` or ``int``."""
        if self.gpu is not None and not isinstance(self.gpu, str):
            raise InputTypeError(
                f"Machine.gpu must be a string or None, got {self.gpu!r:.40}"
            )
        if self.cc is not None:  # an unknown compute capability: UnknownNameError
            object.__setattr__(self, "cc", limits(self.cc).cc)
        ctx = self.gpu
        for name in _MACHINE_POSITIVE:
            v = getattr(self, name)
            if v is not None:
                v = check_real(f"Machine.{name}", v, 0.0, lo_open=True, context=ctx)
                object.__setattr__(self, name, v)
        for name, lo in (("threads_per_warp", 1), ("coal_per_mw", 1), ("sm_count", 1)):
            v = getattr(self, name)
            if v is not None:
                object.__setattr__(self, name, check_int(f"Machine.{name}", v, lo))
        if self.uncoal_per_mw is not None:
            v = check_real(
                "Machine.uncoal_per_mw", self.uncoal_per_mw, 1.0, context=ctx
            )
            object.__setattr__(self, "uncoal_per_mw", v)
        _fields.mappings(self, ("sources",), str)

    def replace(self, **changes) -> Machine:
        """A copy with some fields changed, checked like a new record; the changed
        fields lose their sources (e.g. ``machine("GTX280").replace(uncoal_per_mw=4)``).
        """
        src = {k: v for k, v in self.sources.items() if k not in changes}
        return dataclasses.replace(
            self, **{"sources": MappingProxyType(src), **changes}
        )


_MACHINE_POSITIVE = (
    "mem_ld",
    "departure_del_uncoal",
    "departure_del_coal",
    "issue_cycles",
    "freq_ghz",
    "mem_bandwidth_gbs",
)


_MACHINE_UNITS = {
    "mem_ld": "cycles",
    "departure_del_uncoal": "cycles",
    "departure_del_coal": "cycles",
    "uncoal_per_mw": "transactions",
    "coal_per_mw": "transactions",
    "issue_cycles": "cycles",
    "threads_per_warp": "threads",
}


@cache
def _machine_rows() -> dict[str, dict[str, tuple[float, str]]]:
    out: dict[str, dict[str, tuple[float, str]]] = {}
    for r in read_rows("hong_kim/machine.csv"):
        if (
            r["parameter"] not in _MACHINE_UNITS
            or r["unit"] != _MACHINE_UNITS[r["parameter"]]
        ):
            raise ValueError(
                "data/hong_kim/machine.csv: unexpected parameter/unit "
                f"{r['parameter']!r}/{r['unit']!r}"
            )
        out.setdefault(get_gpu(r["gpu"]).name, {})[r["parameter"]] = (
            float(r["value"]),
            r["source"],
        )
    return out


def machines() -> list[str]:
    """The GPUs with Hong & Kim machine parameters (the four GPUs of Table 3)."""
    return list(_machine_rows())


def machine(gpu: str | GPU) -> Machine:
    """The :class:`Machine` of ``gpu``: Table 6 latencies and delays, Table 1 issue
    cycles, Table 3 clock, bandwidth and SM count (the last three from the GPU record in
    ``data/hardware.csv``).

    >>> m = machine("FX5600")
    >>> m.mem_ld, m.departure_del_uncoal, m.departure_del_coal
    (420.0, 10.0, 4.0)
    >>> m.freq_ghz, m.mem_bandwidth_gbs, m.sm_count
    (1.35, 76.8, 16)
    """
    g = gpu if isinstance(gpu, GPU) else get_gpu(gpu)
    rows = _machine_rows()
    if g.name not in rows:
        raise UnknownNameError(
            f"gpu must be one of {', '.join(machines())} (Hong & Kim's Table 3), got "
            f"{g.name!r}"
        )
    r = rows[g.name]
    src = {k: s for k, (_, s) in r.items()}
    src.update(
        freq_ghz=g.source("clock_ghz"),
        mem_bandwidth_gbs=g.source("pin_bandwidth_gbs"),
        sm_count=g.source("sm_count"),
        cc=g.source("compute_capability"),
    )
    return Machine(
        gpu=g.name,
        cc=g.compute_capability,
        mem_ld=r["mem_ld"][0],
        departure_del_uncoal=r["departure_del_uncoal"][0],
        departure_del_coal=r["departure_del_coal"][0],
        issue_cycles=r["issue_cycles"][0],
        threads_per_warp=int(r["threads_per_warp"][0]),
        coal_per_mw=int(r["coal_per_mw"][0]),
        uncoal_per_mw=r["uncoal_per_mw"][0] if "uncoal_per_mw" in r else None,
        freq_ghz=g.clock_ghz,
        mem_bandwidth_gbs=g.pin_bandwidth_gbs,
        sm_count=g.sm_count,
        sources=MappingProxyType(src),
    )


def machine_table():
    """Machine parameters of the four GPUs of Table 3, one row per GPU (a
    ``pandas.DataFrame``)."""

    rows = []
    for g in machines():
        m = machine(g)
        rows.append(
            {
                "GPU": m.gpu,
                "cc": m.cc,
                "SMs": m.sm_count,
                "clock (GHz)": m.freq_ghz,
                "bandwidth (GB/s)": m.mem_bandwidth_gbs,
                "Mem_LD (cycles)": m.mem_ld,
                "Departure_del_uncoal (cycles)": m.departure_del_uncoal,
                "Departure_del_coal (cycles)": m.departure_del_coal,
                "Issue_cycles": m.issue_cycles,
                "#Uncoal_per_mw": "not printed"
                if m.uncoal_per_mw is None
                else m.uncoal_per_mw,
            }
        )
    return pd.DataFrame(rows).set_index("GPU")


# --------------------------------------------------------------------------------------
# §3.3-3.4: the equations predict() chains, as functions of arrays (Volkov's §7.1
# reduction, gpumodels.comparisons.prior.hong_kim_2009, is built on the same functions)


def bw_per_warp(freq_ghz, load_bytes_per_warp, mem_l):
    """Eq. (7): ``BW_per_warp = Freq × Load_bytes_per_warp / Mem_L`` (GB/s with Freq in
    GHz, Mem_L in cycles).

    >>> round(bw_per_warp(1.3, 128, 420), 3)
    0.396
    """
    f = as_array("freq_ghz", freq_ghz, 0.0, lo_open=True)
    b = as_array("load_bytes_per_warp", load_bytes_per_warp, 0.0, lo_open=True)
    m = as_array("mem_l", mem_l, 0.0, lo_open=True)
    f, b, m = broadcast(freq_ghz=f, load_bytes_per_warp=b, mem_l=m)
    with np.errstate(
        over="ignore"
    ):  # inf: MWP_peak_bw (Eq. 6) is then 0 and predict() says so
        return out(f * b / m)


def mwp_peak_bw(mem_bandwidth_gbs, bw_per_warp_gbs, active_sms):
    """Eq. (6): ``MWP_peak_BW = Mem_Bandwidth / (BW_per_warp × #Active_SMs)``, warps per
    SM at peak bandwidth."""
    bw = as_array("mem_bandwidth_gbs", mem_bandwidth_gbs, 0.0, lo_open=True)
    w = as_array("bw_per_warp_gbs", bw_per_warp_gbs, 0.0, lo_open=True)
    s = as_array("active_sms", active_sms, 1.0)
    bw, w, s = broadcast(mem_bandwidth_gbs=bw, bw_per_warp_gbs=w, active_sms=s)
    with np.errstate(
        over="ignore"
    ):  # beyond float range: inf, i.e. bandwidth sets no limit
        return out(bw / (w * s))


def mwp_peak_bw_from(
    mem_bandwidth_gbs, active_sms, freq_ghz, mem_l, load_bytes_per_warp=128
) -> float:
    """Eq. (6) of Eq. (7): ``MWP_peak_BW`` from the machine and the kernel, warps per
    SM at peak bandwidth::

        MWP_peak_BW = Mem_Bandwidth / (BW_per_warp × #Active_SMs),
        BW_per_warp = Freq × Load_bytes_per_warp / Mem_L

    It chains :func:`bw_per_warp` and :func:`mwp_peak_bw` as printed (so it gives their
    value to the last bit) wherever ``BW_per_warp`` is a positive float. Where it
    under- or overflows (0 or inf: e.g. a clock of 1e-200 GHz), the two equations are
    evaluated as one quotient, ``Mem_L × Mem_Bandwidth / #Active_SMs / Freq /
    Load_bytes_per_warp``, which can still be a float. Scalars; ``active_sms`` need
    only be positive on that path. :func:`predict` and Volkov's §7.1 reduction
    (:func:`gpumodels.comparisons.prior.hong_kim_2009.mwp_peak_bw`) both call it.

    >>> round(mwp_peak_bw_from(141.7, 30, 1.296, 434), 1)     # GTX280, Volkov §7.1
    12.4
    >>> f"{mwp_peak_bw_from(1e-300, 1, 1e-200, 1.0, 1e-200):.3g}"  # BW_per_warp is 0
    '1e+100'
    """
    bw = check_real("mem_bandwidth_gbs", mem_bandwidth_gbs, 0.0, lo_open=True)
    sms = check_real("active_sms", active_sms, 0.0, lo_open=True)
    f = check_real("freq_ghz", freq_ghz, 0.0, lo_open=True)
    lat = check_real("mem_l", mem_l, 0.0, lo_open=True)
    b = check_real("load_bytes_per_warp", load_bytes_per_warp, 0.0, lo_open=True)
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        per_warp = bw_per_warp(f, b, lat)  # (7)
        if 0 < per_warp < math.inf:
            return mwp_peak_bw(bw, per_warp, sms)  # (6)
    return (lat * bw) / sms / f / b  # (6) of (7) in one quotient


def cwp_full(mem_cycles, comp_cycles):
    """Eq. (8): ``CWP_full = (Mem_cycles + Comp_cycles) / Comp_cycles`` (before Eq. 9
    caps it at N).

    >>> cwp_full(434, 4 * 33)    # GTX280 at alpha = 32, Volkov 2016 §7.1's "4.3"
    4.287878787878788
    """
    m = as_array("mem_cycles", mem_cycles, 0.0)
    c = as_array("comp_cycles", comp_cycles, 0.0, lo_open=True)
    m, c = broadcast(mem_cycles=m, comp_cycles=c)
    return out((m + c) / c)


def cwp_eq9(mem_cycles, comp_cycles, n):
    """Eqs. (8)-(9): ``CWP = MIN(CWP_full, N)``, CWP_full of :func:`cwp_full` capped at
    the N active warps. Broadcasts.

    §3.2's Case 1 (a computation period a third of a memory period, 8 warps) and
    Case 7 (a computation period half a memory period, 2 warps):

    >>> cwp_eq9(3, 1, 8), cwp_eq9(2, 1, 2)
    (4.0, 2.0)
    """
    nn = as_array("n", n, 0.0, lo_open=True)
    return out(np.minimum(np.asarray(cwp_full(mem_cycles, comp_cycles)), nn))


def mwp_eq5(mwp_without_bw, mwp_peak_bw, n):
    """Eq. (5): ``MWP = MIN(MWP_without_BW, MWP_peak_BW, N)``. Broadcasts; either
    limit may be ``inf`` (a memory system without that limit).

    >>> mwp_eq5(2.28, 28.57, 20)          # Table 2
    2.28
    >>> mwp_eq5(float("inf"), float("inf"), 1)   # §3.2 Case 6: one warp
    1.0
    """
    a = as_array("mwp_without_bw", mwp_without_bw, 0.0, allow_inf=True, lo_open=True)
    b = as_array("mwp_peak_bw", mwp_peak_bw, 0.0, allow_inf=True, lo_open=True)
    nn = as_array("n", n, 0.0, lo_open=True)
    return out(np.minimum(np.minimum(a, b), nn))


def equation_case(mwp, cwp, n, comp_cycles, mem_cycles):
    """Which of Eqs. (22)-(24) §3.4.2 applies, as printed: 22 if MWP = N and CWP = N;
    else 23 if CWP ≥ MWP or Comp_cycles > Mem_cycles; else 24. Broadcasts; returns an
    int or an int array."""
    mw, cw, nn = (
        as_array("mwp", mwp, 0.0),
        as_array("cwp", cwp, 0.0),
        as_array("n", n, 0.0, lo_open=True),
    )
    c, m = (
        as_array("comp_cycles", comp_cycles, 0.0),
        as_array("mem_cycles", mem_cycles, 0.0),
    )
    res = np.where((mw == nn) & (cw == nn), 22, np.where((cw >= mw) | (c > m), 23, 24))
    return int(res) if res.ndim == 0 else res


def cycles_eq22(mem_cycles, comp_cycles, comp_p, mwp):
    """Eq. (22): ``Mem_cycles + Comp_cycles + Comp_p × (MWP − 1)`` per repetition (MWP =
    CWP = N)."""
    m, c = (
        as_array("mem_cycles", mem_cycles, 0.0),
        as_array("comp_cycles", comp_cycles, 0.0),
    )
    return out(
        m
        + c
        + as_array("comp_p", comp_p, 0.0)
        * (as_array("mwp", mwp, 0.0, lo_open=True) - 1.0)
    )


def cycles_eq23(mem_cycles, n, mwp, comp_p):
    """Eq. (23): ``Mem_cycles × N / MWP + Comp_p × (MWP − 1)`` per repetition (memory
    dominant)."""
    m, nn = as_array("mem_cycles", mem_cycles, 0.0), as_array("n", n, 0.0, lo_open=True)
    mw = as_array("mwp", mwp, 0.0, lo_open=True)
    return out(m * nn / mw + as_array("comp_p", comp_p, 0.0) * (mw - 1.0))


def cycles_eq24(mem_l, comp_cycles, n):
    """Eq. (24): ``Mem_L + Comp_cycles × N`` per repetition (computation dominant)."""
    return out(
        as_array("mem_l", mem_l, 0.0)
        + as_array("comp_cycles", comp_cycles, 0.0) * as_array("n", n, 0.0)
    )


# --------------------------------------------------------------------------------------
# §3.2: the timeline equations


def comp_p(comp_cycles: float, mem_insts: float) -> float:
    """Cycles of one computation period, ``Comp_cycles / #Mem_insts`` (Eq. 2)."""
    c = check_real("comp_cycles", comp_cycles, 0.0)
    m = check_real("mem_insts", mem_insts, 0.0, lo_open=True)
    return c / m


def cycles_cwp_above_mwp(
    mem_cycles: float, comp_cycles: float, n: float, mwp: float, mem_insts: float
) -> float:
    """Eq. (1): ``Mem_cycles × N/MWP + Comp_p × MWP``, the total of Figure 5 (CWP >
    MWP).

    Only MWP warps' memory periods overlap, so N/MWP rounds of memory periods are
    exposed, plus the MWP computation periods that start the first round.
    """
    n = check_real("n", n, 1.0)
    mwp = check_real("mwp", mwp, 1.0, n)
    m = check_real("mem_cycles", mem_cycles, 0.0)
    return m * n / mwp + comp_p(comp_cycles, mem_insts) * mwp


def cycles_mwp_above_cwp(mem_p: float, comp_cycles: float, n: float) -> float:
    """Eq. (3): ``Mem_p + Comp_cycles × N``, the total of Figures 6–7 (MWP > CWP, or
    computation dominant)."""
    return check_real("mem_p", mem_p, 0.0) + check_real(
        "comp_cycles", comp_cycles, 0.0
    ) * check_real("n", n, 1.0)


def cycles_mwp_equals_n(
    mem_cycles: float, comp_cycles: float, mwp: float, mem_insts: float
) -> float:
    """Eq. (4): ``Mem_cycles + Comp_cycles + Comp_p × (MWP − 1)``, the total of Figure 8
    (MWP = CWP = N). The paper prints the same formula again as Eq. (22); it is written
    once, in :func:`cycles_eq22`."""
    mwp = check_real("mwp", mwp, 1.0)
    mem_cycles = check_real("mem_cycles", mem_cycles, 0.0)
    return float(
        cycles_eq22(mem_cycles, comp_cycles, comp_p(comp_cycles, mem_insts), mwp)
    )


# --------------------------------------------------------------------------------------
# Equations 5–31


_PREDICTION_INTS = (
    "threads_per_block",
    "blocks",
    "active_sms",
    "active_blocks_per_sm",
    "warps_per_block",
    "n",
)
_PREDICTION_UNBOUNDED = frozenset(
    {"mwp_without_bw_full", "mwp_without_bw", "mwp_peak_bw", "n_pw", "cwp_full"}
)
"""The fields of :class:`Prediction` that may be ``inf`` (a limit that does not bind:
no memory instructions, no computation, no bandwidth limit)."""


@dataclass(frozen=True)
class Prediction:
    """Result of :func:`predict`: the inputs used and every intermediate quantity of
    Table 2.

    Cycle counts are per SM. ``equation`` is 22, 23 or 24: the case of §3.4.2 that gave
    ``exec_cycles_app``. ``exec_cycles_with_synch`` (Eq. 28) is the model's execution
    time in processor cycles; ``time_ms`` converts it with ``freq_ghz``.
    """

    # inputs (after defaults and the occupancy calculation)
    threads_per_block: int
    blocks: int
    active_sms: int
    active_blocks_per_sm: int
    warps_per_block: int
    n: int
    comp_insts: float
    coal_mem_insts: float
    uncoal_mem_insts: float
    synch_insts: float
    mem_insts: float
    total_insts: float
    m_factor: float
    ind_mem_req: float
    # equations 10-31
    mem_l_uncoal: float
    mem_l_coal: float
    weight_uncoal: float
    weight_coal: float
    mem_l: float
    departure_delay: float
    mwp_without_bw_full: float
    mwp_without_bw: float
    bw_per_warp: float
    mwp_peak_bw: float
    n_pw: float
    mwp: float
    comp_cycles: float
    mem_cycles: float
    comp_p: float
    cwp_full: float
    cwp: float
    rep: float
    equation: int
    exec_cycles_app: float
    npwb: float
    synch_cost: float
    exec_cycles_with_synch: float
    cpi: float
    freq_ghz: float
    issue_bound_cycles: float
    bandwidth_bound_cycles: float
    max_warps_per_sm: int | None = None

    def __post_init__(self):
        _fields.ints(self, _PREDICTION_INTS)
        if self.max_warps_per_sm is not None:
            _fields.ints(self, ("max_warps_per_sm",), 1)
        if self.equation not in (22, 23, 24):
            raise ValueError(
                f"Prediction.equation must be 22, 23 or 24, got {self.equation!r:.40}"
            )
        for f in dataclasses.fields(self):
            if f.name in _PREDICTION_INTS or f.name in (
                "equation",
                "max_warps_per_sm",
            ):
                continue
            v = getattr(self, f.name)
            if f.name in _PREDICTION_UNBOUNDED:  # inf: that limit does not bind
                if not _fields.is_real(v) or not v >= 0:  # NaN fails too
                    raise (InputTypeError if not _fields.is_real(v) else ValueError)(
                        f"Prediction.{f.name} must be a number in [0, inf], got "
                        f"{v!r:.40}"
                    )
            else:
                check_real(f"Prediction.{f.name}", v, 0.0)

    @property
    def time_ms(self) -> float:
        """``exec_cycles_with_synch`` in milliseconds at ``freq_ghz``."""
        return self.exec_cycles_with_synch / (self.freq_ghz * 1e6)

    @property
    def regime(self) -> str:
        """Which of §3.2's situations the prediction is in, in words."""
        if self.mem_insts == 0:
            return "no memory instructions: computation only"
        if self.equation == 22:
            return "not enough warps (MWP = CWP = N)"
        if self.equation == 23:
            if self.cwp >= self.mwp:
                return "memory bound (CWP >= MWP)"
            return "computation longer than memory (Comp_cycles > Mem_cycles)"
        return "computation bound (MWP > CWP)"

    @property
    def occupancy(self) -> float | None:
        """N over the SM's warp slots (``None`` when no compute capability was
        known)."""
        return None if self.max_warps_per_sm is None else self.n / self.max_warps_per_sm

    def as_dict(self) -> dict:
        """All fields as a plain dictionary (plus ``time_ms`` and ``regime``)."""
        return {
            **asdict(self),
            "time_ms": self.time_ms,
            "regime": self.regime,
            "occupancy": self.occupancy,
        }


def _round(decimals: Mapping[str, int] | None, name: str, value: float) -> float:
    if decimals and name in decimals and math.isfinite(value):
        return round(value, decimals[name])
    return value


_ROUNDABLE = (
    "mem_l",
    "departure_delay",
    "mwp_without_bw_full",
    "bw_per_warp",
    "mwp_peak_bw",
    "cwp_full",
)


def repetitions(blocks, active_blocks_per_sm, active_sms) -> float:
    """#Rep, Eq. (21): how many times each SM runs a full set of active blocks, ``blocks
    / (active × SMs)``.

    §3.4.1's example: 40 blocks on 4 SMs that hold 2 blocks each give #Rep = 5.

    >>> repetitions(40, 2, 4)
    5.0
    """
    b = check_real("blocks", blocks, 0.0, lo_open=True)
    a = check_real("active_blocks_per_sm", active_blocks_per_sm, 0.0, lo_open=True)
    s = check_real("active_sms", active_sms, 0.0, lo_open=True)
    try:
        rep = b / (a * s)
    except ZeroDivisionError:  # a * s underflowed to 0
        rep = math.inf
    return finite_result("#Rep", rep, blocks=b, active_blocks_per_sm=a, active_sms=s)


_REAL_FIELDS = {  # Inputs field: (lower bound, open at it)
    "comp_insts": (0.0, False),
    "coal_mem_insts": (0.0, False),
    "uncoal_mem_insts": (0.0, False),
    "synch_insts": (0.0, False),
    "load_bytes_per_warp": (0.0, True),
    "m_factor": (0.0, True),
}


@dataclass(frozen=True, kw_only=True)
class Inputs:
    """The inputs of :func:`predict`: one kernel launch (Table 1, rows 8-21) on a
    machine (rows 1-7).

    All instruction counts are dynamic counts *per thread* (PTX instructions, §3.4.3)
    and may be averages, so they need not be integers. Every field is checked on
    construction (and so on :meth:`replace`); an error names ``Inputs.<field>``, the
    allowed range and the value. Numbers are stored as ``float`` or ``int``, and
    ``machine`` as a :class:`Machine`.

    Attributes
    ----------
    machine : Machine, str or GPU
        The machine parameters: a :class:`Machine` record, or a GPU of Table 3 (name or
        :class:`~gpumodels.facts.hardware.GPU`), read as ``machine(gpu)``. It must give
        ``freq_ghz`` and ``mem_bandwidth_gbs``; ``mem_ld`` when there are memory
        instructions; each departure delay when there are loads of its kind; and
        ``uncoal_per_mw`` for uncoalesced loads unless this record gives it.
    threads_per_block : int
        ``#Threads_per_block`` (row 8), threads, in [1, the compute capability's
        maximum]; N = ``#Active_blocks_per_SM`` × warps per block, Eqs. 25 and 27.
    blocks : int
        ``#Blocks`` (row 9), in [1, 2**63]; ``#Rep``, Eq. 21.
    comp_insts : float
        ``#Comp_insts`` (row 14), instructions per thread, >= 0; Eq. 19.
    coal_mem_insts, uncoal_mem_insts : float
        ``#Coal_Mem_insts`` and ``#Uncoal_Mem_insts`` (rows 17, 16), >= 0 (default
        0); their sum ``#Mem_insts`` (:attr:`mem_insts`) is 0 or at least 1 (Eq. 2);
        Eqs. 12-15, 18.
    synch_insts : float
        ``#Synch_insts`` (row 18), >= 0 (default 0); Eq. 26.
    active_blocks_per_sm : int or None
        ``#Active_blocks_per_SM`` (row 11), >= 1; Eqs. 21, 26. ``None``: the occupancy
        limit of the machine's compute capability (from ``registers_per_thread`` and
        ``shared_mem_per_block``), capped at ``ceil(blocks / active_sms)``. Given, it is
        checked against the same limit.
    active_sms : int or None
        ``#Active_SMs`` (row 10), in [1, ``machine.sm_count``]; Eqs. 6, 21, 25.
        ``None``: ``min(machine.sm_count, blocks)``.
    load_bytes_per_warp : float
        ``Load_bytes_per_warp`` (row 21), bytes, > 0 (default 128 = 4 B × 32 threads);
        Eq. 7.
    uncoal_per_mw : float or None
        ``#Uncoal_per_mw`` (row 20), transactions per uncoalesced warp access, >= 1;
        Eqs. 10, 15. ``None``: the machine's (32 on cc 1.0/1.1).
    registers_per_thread, shared_mem_per_block : int or None
        Registers per thread and bytes of shared memory per block, >= 0, for the
        occupancy calculation (``None``: 0).
    m_factor : float
        ``M_Factor`` of Eq. 31, > 0 (default 1: single-issue instructions; see
        :func:`~gpumodels.papers.hong_kim.model.m_factor_of`).
    ind_mem_req : float
        ``#ind_mem_req`` (§6.1), memory requests per thread that do not depend on an
        earlier load, in [0, ``#Mem_insts``] (default 0: the base model); Eqs. 29-30.

    >>> k = Inputs(machine="FX5600", threads_per_block=256, blocks=48, comp_insts=500,
    ...            coal_mem_insts=4)
    >>> k.machine.mem_ld, k.mem_insts, k.replace(uncoal_mem_insts=2).mem_insts
    (420.0, 4.0, 6.0)
    """

    machine: Machine
    threads_per_block: int
    blocks: int
    comp_insts: float
    coal_mem_insts: float = 0.0
    uncoal_mem_insts: float = 0.0
    synch_insts: float = 0.0
    active_blocks_per_sm: int | None = None
    active_sms: int | None = None
    load_bytes_per_warp: float = 128.0
    uncoal_per_mw: float | None = None
    registers_per_thread: int | None = None
    shared_mem_per_block: int | None = None
    m_factor: float = 1.0
    ind_mem_req: float = 0.0

    def __post_init__(self) -> None:
        """Check and normalise every field (class docstring)."""
        m = _as_machine(self.machine)
        object.__setattr__(self, "machine", m)
        self._check_launch(m)
        for name, (lo, lo_open) in _REAL_FIELDS.items():
            self._set(
                name,
                check_real(f"Inputs.{name}", getattr(self, name), lo, lo_open=lo_open),
            )
        self._check_counts()
        self._check_machine(m)

    def _set(self, name: str, value) -> None:
        object.__setattr__(self, name, value)

    def _check_launch(self, m: Machine) -> None:
        """Launch fields: block size within the compute capability, counts >= 1,
        active SMs within the GPU's."""
        max_tpb = limits(m.cc).max_threads_per_block if m.cc is not None else None
        ctx = f"compute capability {m.cc}" if m.cc is not None else None
        self._set(
            "threads_per_block",
            check_int(
                "Inputs.threads_per_block", self.threads_per_block, 1, max_tpb, ctx
            ),
        )
        self._set("blocks", check_int("Inputs.blocks", self.blocks, 1))
        for name, hi in (("active_blocks_per_sm", None), ("active_sms", m.sm_count)):
            v = getattr(self, name)
            if v is not None:
                self._set(name, check_int(f"Inputs.{name}", v, 1, hi, m.gpu))
        for name in ("registers_per_thread", "shared_mem_per_block"):
            v = getattr(self, name)
            if v is not None:
                self._set(name, check_int(f"Inputs.{name}", v, 0))

    def _check_counts(self) -> None:
        """#Mem_insts is 0 or >= 1 (Eq. 2), #Total_insts > 0, #ind_mem_req <=
        #Mem_insts."""
        mem = self.mem_insts
        if 0 < mem < 1:
            raise ValueError(
                "Inputs.coal_mem_insts + Inputs.uncoal_mem_insts must be 0 or at least "
                "1 per thread (Eq. 2 splits the computation into #Mem_insts periods), "
                f"got {mem}"
            )
        if self.total_insts == 0:
            raise ValueError(
                "Inputs.comp_insts + coal_mem_insts + uncoal_mem_insts must be > 0 (a "
                "kernel needs instructions)"
            )
        self._set(
            "ind_mem_req",
            check_real(
                "Inputs.ind_mem_req",
                self.ind_mem_req,
                0.0,
                mem,
                "a kernel of #Mem_insts = coal_mem_insts + uncoal_mem_insts",
            ),
        )
        if self.uncoal_per_mw is not None:
            self._set(
                "uncoal_per_mw",
                check_real("Inputs.uncoal_per_mw", self.uncoal_per_mw, 1.0),
            )

    def _check_machine(self, m: Machine) -> None:
        """The machine parameters this kernel needs are given (class docstring)."""
        needed = ["freq_ghz", "mem_bandwidth_gbs"]
        if self.mem_insts > 0:
            needed.append("mem_ld")
        if self.uncoal_mem_insts > 0:
            needed.append("departure_del_uncoal")
        if self.coal_mem_insts > 0:
            needed.append("departure_del_coal")
        missing = [k for k in needed if getattr(m, k) is None]
        if missing:
            raise ValueError(
                f"Machine.{', Machine.'.join(missing)} must be given for this kernel "
                f"(machine: {m.gpu or 'a Machine record without it'}); "
                "Inputs(machine='FX5600', ...) takes every machine parameter from Hong "
                "& Kim's tables"
            )
        given = self.uncoal_per_mw is not None or m.uncoal_per_mw is not None
        if self.uncoal_mem_insts > 0 and not given:
            raise ValueError(
                "uncoal_per_mw must be given for uncoalesced loads "
                f"(uncoal_mem_insts = {self.uncoal_mem_insts!r:.24} > 0) on "
                f"{m.gpu or 'this machine'} (Inputs.uncoal_per_mw or "
                "Machine.uncoal_per_mw; Hong & Kim print it only for cc < 1.3; "
                "see coalescing.transactions_cc13)"
            )

    @property
    def mem_insts(self) -> float:
        """``#Mem_insts`` (Table 1, row 15): coalesced plus uncoalesced."""
        return self.coal_mem_insts + self.uncoal_mem_insts

    @property
    def total_insts(self) -> float:
        """``#Total_insts`` (Table 1, row 13): ``#Comp_insts + #Mem_insts``."""
        return self.comp_insts + self.mem_insts

    def replace(self, **changes) -> Inputs:
        """A copy with some fields changed, checked like a new record (e.g.
        ``inputs.replace(m_factor=4.3)``)."""
        return dataclasses.replace(self, **changes)


def _as_machine(value) -> Machine:
    """``value`` as a :class:`Machine`: itself, or :func:`machine` of a GPU name or
    record."""
    if isinstance(value, Machine):
        return value
    if isinstance(value, (str, GPU)):
        return machine(value)
    raise InputTypeError(
        "Inputs.machine must be a Machine record or a GPU of Hong & Kim's Table 3 "
        f"({', '.join(machines())}), got {type(value).__name__} {value!r:.40}"
    )


class _Launch(NamedTuple):
    """Launch geometry of one prediction (Table 1, rows 10-12)."""

    sms: int
    active_blocks: int
    warps_per_block: int
    n: int
    max_warps_per_sm: int | None


class _MachineTerms(NamedTuple):
    """The machine parameters one prediction uses, with unused ones set to 0 (or 1)."""

    issue: float
    threads_per_warp: int
    freq: float
    bandwidth: float
    mem_ld: float
    del_uncoal: float
    del_coal: float
    uncoal_per_mw: float


class _Memory(NamedTuple):
    """Memory side of one prediction: Eqs. 5-7, 10-18, 29-30."""

    weight_uncoal: float
    weight_coal: float
    mem_l_uncoal: float
    mem_l_coal: float
    mem_l: float
    departure_delay: float
    mwp_without_bw_full: float
    mwp_without_bw: float
    bw_per_warp: float
    mwp_peak_bw: float
    n_pw: float
    mwp: float
    mem_cycles: float


class _Compute(NamedTuple):
    """Computation side of one prediction: Eqs. 2, 8-9, 19, 31."""

    comp_cycles: float
    comp_p: float
    cwp_full: float
    cwp: float


class _Cycles(NamedTuple):
    """Case selection and execution cycles: Eqs. 21-24."""

    rep: float
    equation: int
    exec_cycles_app: float


class _Synch(NamedTuple):
    """Synchronisation cost, total and CPI: Eqs. 25-28."""

    npwb: float
    synch_cost: float
    exec_cycles_with_synch: float
    cpi: float


def _check_decimals(decimals: Mapping[str, int] | None) -> None:
    """``decimals`` may name only ``_ROUNDABLE`` quantities, each with 0-12
    decimals."""
    if decimals is None:
        return
    check_mapping("decimals", decimals, "predict (quantity name -> decimals)")
    bad = set(decimals) - set(_ROUNDABLE)
    if bad:
        raise ValueError(
            f"decimals may name only {', '.join(_ROUNDABLE)}, got {sorted(bad)}"
        )
    for k, v in decimals.items():
        check_int(f"decimals[{k!r}]", v, 0, 12)


def _machine_terms(inp: Inputs) -> _MachineTerms:
    """The machine parameters the kernel uses (Table 1, rows 1-7 and 20): those it does
    not need are 0 (departure delays, Mem_LD) or 1 (``#Uncoal_per_mw``), which leaves
    Eqs. 10-15 unchanged."""
    m = inp.machine
    upm = inp.uncoal_per_mw if inp.uncoal_per_mw is not None else m.uncoal_per_mw
    return _MachineTerms(
        issue=float(m.issue_cycles),
        threads_per_warp=int(m.threads_per_warp),
        freq=float(m.freq_ghz),
        bandwidth=float(m.mem_bandwidth_gbs),
        mem_ld=float(m.mem_ld or 0.0),
        del_uncoal=float(m.departure_del_uncoal or 0.0),
        del_coal=float(m.departure_del_coal or 0.0),
        uncoal_per_mw=float(upm) if inp.uncoal_mem_insts > 0 else 1.0,
    )


def _launch(inp: Inputs) -> _Launch:
    """``#Active_SMs``, ``#Active_blocks_per_SM`` and N (Table 1, rows 10-12).

    The defaults and checks of :class:`Inputs`: active SMs ``min(SM count, blocks)``;
    active blocks from the occupancy calculator of the machine's compute capability,
    capped at the blocks an SM receives (``READINGS["active_blocks"]``); N counts
    whole warps (``READINGS["warps_per_block"]``).
    """
    m, tpb = inp.machine, inp.threads_per_block
    sms = inp.active_sms
    if sms is None:
        if m.sm_count is None:
            raise ValueError(
                "Inputs.active_sms must be given when the machine has no sm_count"
            )
        sms = min(m.sm_count, inp.blocks)
    wpb = -(-tpb // int(m.threads_per_warp))
    regs, smem = inp.registers_per_thread or 0, inp.shared_mem_per_block or 0
    occ_blocks = ctx = None
    if m.cc is not None:
        occ_blocks = occupancy(m.cc, tpb, regs, smem).blocks_per_sm
        if occ_blocks == 0:
            raise ValueError(
                f"a block of {tpb} threads with {inp.registers_per_thread} "
                f"registers/thread and {inp.shared_mem_per_block} B shared memory "
                f"does not fit on a compute capability {m.cc} SM"
            )
        ctx = (
            f"compute capability {m.cc}, {tpb} threads/block, {regs} "
            f"registers/thread, {smem} B shared memory/block (occupancy limit)"
        )
    active = inp.active_blocks_per_sm
    if active is None:
        if occ_blocks is None:
            raise ValueError(
                "Inputs.active_blocks_per_sm must be given when the machine has no "
                "compute capability (cc) for the occupancy calculator"
            )
        active = min(occ_blocks, -(-inp.blocks // sms))
    active = check_int("Inputs.active_blocks_per_sm", active, 1, occ_blocks, ctx)
    lim = limits(m.cc) if m.cc is not None else None
    return _Launch(
        sms, active, wpb, active * wpb, None if lim is None else lim.max_warps_per_sm
    )


def _mwp_below_one(mwp: float, mwp_bw: float, mwp_wo_full: float) -> None:
    """Refuse MWP < 1: Eqs. 22, 23 and 26 assume one warp's requests in flight."""
    if mwp >= 1:
        return
    why = (
        "MWP_peak_bw (Eq. 6): mem_bandwidth_gbs is too small to serve one warp's "
        "requests"
        if mwp_bw < 1
        else "MWP_without_BW (Eq. 16): the departure delay exceeds Mem_L"
    )
    raise OutsideDomainError(
        f"MWP = {mwp:.4g} < 1, outside Hong & Kim's model (Comp_p·(MWP − 1) in Eqs. "
        "22–23 and N_pwb − 1 in Eq. 26 would make the time negative); the limit is "
        f"{why} (MWP_peak_bw = {mwp_bw:.4g}, MWP_without_BW = {mwp_wo_full:.4g})"
    )


def _memory_side(
    inp: Inputs, t: _MachineTerms, geo: _Launch, decimals: Mapping[str, int] | None
) -> _Memory:
    """Mem_L, the departure delay and MWP: Eqs. 10-15 (latency and delay), 16-17 (MWP
    without the bandwidth limit), 7 and 6 (``BW_per_warp`` and ``MWP_peak_BW``), 29-30
    (``N_pw``, ``READINGS["n_pw"]``), 5 (MWP), and 18 (``Mem_cycles``).

    Without memory instructions nothing waits for memory
    (``READINGS["no_memory_instructions"]``): Mem_L = Mem_cycles = 0 and MWP = N.
    """
    n, mem = geo.n, inp.mem_insts
    if mem == 0:
        none, inf = 0.0, math.inf
        return _Memory(
            weight_uncoal=none,
            weight_coal=none,
            mem_l_uncoal=none,
            mem_l_coal=none,
            mem_l=none,
            departure_delay=none,
            mwp_without_bw_full=inf,
            mwp_without_bw=float(n),
            bw_per_warp=none,
            mwp_peak_bw=inf,
            n_pw=float(n),
            mwp=float(n),
            mem_cycles=none,
        )
    uncoal, coal, ind = inp.uncoal_mem_insts, inp.coal_mem_insts, inp.ind_mem_req
    w_u, w_c = uncoal / mem, coal / mem  # (13), (14)
    l_u = t.mem_ld + (t.uncoal_per_mw - 1) * t.del_uncoal  # (10)
    l_c = t.mem_ld  # (11)
    mem_l = _round(decimals, "mem_l", l_u * w_u + l_c * w_c)  # (12)
    dep = _round(
        decimals,
        "departure_delay",
        t.del_uncoal * t.uncoal_per_mw * w_u + t.del_coal * w_c,
    )  # (15)
    mwp_wo_full = _round(decimals, "mwp_without_bw_full", mem_l / dep)  # (16)
    n_pw = math.inf if ind == mem else max(float(n), n * mem / (mem - ind))  # (29)
    mwp_wo = min(mwp_wo_full, n_pw)  # (17); = N without ind_mem_req
    bw_w = bw_per_warp(t.freq, inp.load_bytes_per_warp, mem_l)  # (7)
    if decimals and "bw_per_warp" in decimals:  # replay a rounded BW_per_warp
        bw_w = _round(decimals, "bw_per_warp", bw_w)
        mwp_bw = mwp_peak_bw(t.bandwidth, bw_w, geo.sms)  # (6)
    else:  # (6) of (7)
        mwp_bw = mwp_peak_bw_from(
            t.bandwidth, geo.sms, t.freq, mem_l, inp.load_bytes_per_warp
        )
    mwp_bw = _round(decimals, "mwp_peak_bw", mwp_bw)
    mwp = min(mwp_wo, mwp_bw, n_pw)  # (5), (30)
    _mwp_below_one(mwp, mwp_bw, mwp_wo_full)
    mem_cycles = l_u * uncoal + l_c * coal  # (18)
    return _Memory(
        weight_uncoal=w_u,
        weight_coal=w_c,
        mem_l_uncoal=l_u,
        mem_l_coal=l_c,
        mem_l=mem_l,
        departure_delay=dep,
        mwp_without_bw_full=mwp_wo_full,
        mwp_without_bw=mwp_wo,
        bw_per_warp=bw_w,
        mwp_peak_bw=mwp_bw,
        n_pw=n_pw,
        mwp=mwp,
        mem_cycles=mem_cycles,
    )


def _compute_side(
    inp: Inputs,
    t: _MachineTerms,
    geo: _Launch,
    mem_cycles: float,
    decimals: Mapping[str, int] | None,
) -> _Compute:
    """``Comp_cycles`` (Eqs. 19 and 31), ``Comp_p`` (Eq. 2) and CWP (Eqs. 8-9)."""
    comp_cycles = t.issue * inp.m_factor * inp.total_insts  # (19), (31)
    mem = inp.mem_insts
    cp = comp_p(comp_cycles, mem) if mem > 0 else comp_cycles  # (2); no loads: READINGS
    cwp_f = (
        _round(decimals, "cwp_full", cwp_full(mem_cycles, comp_cycles))
        if comp_cycles > 0
        else math.inf
    )  # (8)
    return _Compute(comp_cycles, cp, cwp_f, min(cwp_f, geo.n))  # (9)


def _cycles(inp: Inputs, geo: _Launch, mem: _Memory, comp: _Compute) -> _Cycles:
    """``#Rep`` (Eq. 21), the case of §3.4.2 and ``Exec_cycles_app``: Eq. 22, 23 or 24
    per repetition, times ``#Rep``. Without memory instructions, Eq. 24."""
    rep = repetitions(inp.blocks, geo.active_blocks, geo.sms)  # (21)
    eq = (
        24
        if inp.mem_insts == 0
        else equation_case(mem.mwp, comp.cwp, geo.n, comp.comp_cycles, mem.mem_cycles)
    )
    if eq == 22:
        per_rep = cycles_eq22(mem.mem_cycles, comp.comp_cycles, comp.comp_p, mem.mwp)
    elif eq == 23:
        per_rep = cycles_eq23(mem.mem_cycles, geo.n, mem.mwp, comp.comp_p)
    else:
        per_rep = cycles_eq24(mem.mem_l, comp.comp_cycles, geo.n)
    return _Cycles(rep, eq, per_rep * rep)


def _synch(
    inp: Inputs, t: _MachineTerms, geo: _Launch, mem: _Memory, cyc: _Cycles
) -> _Synch:
    """Synchronisation cost (Eqs. 26-27), the total (Eq. 28) and CPI (Eq. 25); refuses
    a result that is not finite and non-negative."""
    exec_app = cyc.exec_cycles_app
    npwb = min(mem.mwp, geo.warps_per_block)  # (27)
    synch_cost = (
        mem.departure_delay * (npwb - 1) * inp.synch_insts * geo.active_blocks * cyc.rep
    )  # (26)
    cpi = (
        exec_app
        * t.threads_per_warp
        * geo.sms
        / (inp.total_insts * inp.threads_per_block * inp.blocks)
    )  # (25), ordered so no factor underflows
    for name, v in (
        ("exec_cycles_app", exec_app),
        ("synch_cost", synch_cost),
        ("cpi", cpi),
    ):
        if not (math.isfinite(v) and v >= 0):
            raise OutsideDomainError(
                f"{name} = {v!r}: the inputs are outside the range where Hong & "
                f"Kim's model gives a finite, non-negative time"
            )
    return _Synch(npwb, synch_cost, exec_app + synch_cost, cpi)  # (28)


def predict(
    inputs: Inputs | None = None,
    /,
    *,
    decimals: Mapping[str, int] | None = None,
    **keywords,
) -> Prediction:
    """Execution cycles of one kernel launch by Hong & Kim's MWP/CWP model (Eqs. 5–31).

    >>> r = predict(Inputs(machine="FX5600", threads_per_block=256, blocks=48,
    ...                    comp_insts=500, coal_mem_insts=4))
    >>> r.n, r.equation, round(r.mwp, 2), round(r.exec_cycles_with_synch)
    (24, 23, 11.67, 8832)

    Parameters
    ----------
    inputs : Inputs
        The kernel, its launch and the machine (:class:`Inputs`, whose docstring lists
        every field with its symbol, unit and equation).
    decimals : dict
        Round the named intermediate quantities (any of ``mem_l``,
        ``departure_delay``, ``mwp_without_bw_full``, ``bw_per_warp``,
        ``mwp_peak_bw``, ``cwp_full``) to that many decimals before later equations use
        them -- to replay a hand calculation that carried rounded values, as Table 2
        does.
    **keywords
        Not accepted: the keyword arguments of the former interface
        (``predict(gpu=..., threads_per_block=..., ...)``) raise an ``InputTypeError``
        (a ``TypeError``) that says how to build an :class:`Inputs`.

    Returns
    -------
    Prediction

    Notes
    -----
    The steps, each a function of its own: the machine parameters the kernel uses;
    the launch geometry (active SMs and blocks, N); the memory side (Eqs. 5-7, 10-18,
    29-30); the computation side (Eqs. 2, 8-9, 19, 31); the case of §3.4.2 and the
    cycles (Eqs. 21-24); synchronisation, total and CPI (Eqs. 25-28). The three cases
    are applied as printed: Eq. (22) if MWP = N and CWP = N; else Eq. (23) if CWP ≥
    MWP or Comp_cycles > Mem_cycles; else Eq. (24). The readings the book chose where
    the text is ambiguous are in ``READINGS`` (no memory instructions, Eq. 29, partial
    warps, fractional #Rep, default active blocks).
    """
    if keywords or not isinstance(inputs, Inputs):
        _refuse(inputs, keywords)
    _check_decimals(decimals)
    t = _machine_terms(inputs)
    geo = _launch(inputs)
    mem = _memory_side(inputs, t, geo, decimals)
    comp = _compute_side(inputs, t, geo, mem.mem_cycles, decimals)
    cyc = _cycles(inputs, geo, mem, comp)
    syn = _synch(inputs, t, geo, mem, cyc)
    return Prediction(
        threads_per_block=inputs.threads_per_block,
        blocks=inputs.blocks,
        active_sms=geo.sms,
        active_blocks_per_sm=geo.active_blocks,
        warps_per_block=geo.warps_per_block,
        n=geo.n,
        comp_insts=inputs.comp_insts,
        coal_mem_insts=inputs.coal_mem_insts,
        uncoal_mem_insts=inputs.uncoal_mem_insts,
        synch_insts=inputs.synch_insts,
        mem_insts=inputs.mem_insts,
        total_insts=inputs.total_insts,
        m_factor=inputs.m_factor,
        ind_mem_req=inputs.ind_mem_req,
        **mem._asdict(),
        **comp._asdict(),
        **cyc._asdict(),
        **syn._asdict(),
        freq_ghz=t.freq,
        issue_bound_cycles=comp.comp_cycles * geo.n * cyc.rep,
        bandwidth_bound_cycles=(
            inputs.mem_insts
            * geo.n
            * cyc.rep
            * inputs.load_bytes_per_warp
            * t.freq
            * geo.sms
            / t.bandwidth
        )
        if inputs.mem_insts > 0
        else 0.0,
        max_warps_per_sm=geo.max_warps_per_sm,
    )


def _refuse(inputs, keywords: Mapping) -> None:
    """The ``InputTypeError`` for a call in the former keyword style, or with no
    :class:`Inputs`."""
    got = (
        f"keyword arguments {', '.join(sorted(keywords))}"
        if keywords
        else f"{type(inputs).__name__} {inputs!r:.40}"
    )
    raise InputTypeError(
        "predict takes one Inputs record (and decimals=), not the keyword arguments of "
        "the former interface: build it as predict(Inputs(machine='FX5600', "
        "threads_per_block=..., blocks=..., comp_insts=..., coal_mem_insts=..., ...)), "
        "with machine= a GPU of Table 3 or a Machine record (Machine(mem_ld=..., "
        f"freq_ghz=..., mem_bandwidth_gbs=..., ...)) for other machines; got {got}"
    )

"""The MWP/CWP model of Hong & Kim (ISCA 2009), equations 1–31.

:func:`~gpumodels.engines.mwp_cwp.predict` evaluates equations 5–28 (and the §6
extensions, equations 29–31) for one kernel launch and returns a
:class:`~gpumodels.engines.mwp_cwp.Prediction` whose fields are the intermediate
quantities of the paper's Table 2. The §3.2 timeline equations 1–4 are separate
functions (:func:`~gpumodels.engines.mwp_cwp.cycles_cwp_above_mwp`,
:func:`~gpumodels.engines.mwp_cwp.cycles_mwp_above_cwp`,
:func:`~gpumodels.engines.mwp_cwp.cycles_mwp_equals_n`), because the paper derives them
from its Figures 5–8 before it generalises them into equations 22–24. The equations
``predict`` chains are also functions of arrays (:func:`bw_per_warp`,
:func:`mwp_peak_bw`, :func:`cwp_full`, :func:`equation_case`, :func:`cycles_eq22`,
:func:`cycles_eq23`, :func:`cycles_eq24`), on which Volkov's §7.1 reduction
(:mod:`gpumodels.comparisons.prior.hong_kim_2009`) is built.

Readings of the printed text that the book had to choose are stated where they are used
and collected in ``READINGS``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from types import MappingProxyType

import numpy as np

from gpumodels.facts.hardware import GPU, get_gpu
from gpumodels.facts.occupancy import limits, occupancy
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import OutsideDomainError, UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    broadcast,
    check_int,
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


@dataclass(frozen=True)
class Machine:
    """Hong & Kim's machine parameters of one GPU (Tables 1, 3 and 6), with their
    sources.

    ``uncoal_per_mw`` is ``None`` where the paper does not print it (GTX280: it depends
    on the access pattern; see
    :func:`gpumodels.papers.hong_kim.coalescing.transactions_cc13`).
    """

    gpu: str
    cc: str
    mem_ld: float
    departure_del_uncoal: float
    departure_del_coal: float
    issue_cycles: float
    threads_per_warp: int
    coal_per_mw: int
    uncoal_per_mw: float | None
    freq_ghz: float
    mem_bandwidth_gbs: float
    sm_count: int
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def as_params(self) -> dict:
        """The keyword arguments of :func:`predict` that this machine supplies."""
        out = {
            "mem_ld": self.mem_ld,
            "departure_del_uncoal": self.departure_del_uncoal,
            "departure_del_coal": self.departure_del_coal,
            "issue_cycles": self.issue_cycles,
            "threads_per_warp": self.threads_per_warp,
            "freq_ghz": self.freq_ghz,
            "mem_bandwidth_gbs": self.mem_bandwidth_gbs,
        }
        if self.uncoal_per_mw is not None:
            out["uncoal_per_mw"] = self.uncoal_per_mw
        return out


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
    >>> m.mem_ld, m.departure_del_uncoal, m.departure_del_coal, m.freq_ghz, m.mem_bandwidth_gbs, m.sm_count
    (420.0, 10.0, 4.0, 1.35, 76.8, 16)
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
    import pandas as pd

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


# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
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
    (MWP = CWP = N)."""
    mwp = check_real("mwp", mwp, 1.0)
    return (
        check_real("mem_cycles", mem_cycles, 0.0)
        + check_real("comp_cycles", comp_cycles, 0.0)
        + comp_p(comp_cycles, mem_insts) * (mwp - 1)
    )


# ---------------------------------------------------------------------------------------------
# Equations 5–31


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


def predict(
    *,
    gpu: str | GPU | None = None,
    threads_per_block,
    blocks,
    comp_insts,
    coal_mem_insts=0,
    uncoal_mem_insts=0,
    synch_insts=0,
    active_blocks_per_sm=None,
    active_sms=None,
    mem_ld=None,
    departure_del_uncoal=None,
    departure_del_coal=None,
    uncoal_per_mw=None,
    load_bytes_per_warp=128,
    freq_ghz=None,
    mem_bandwidth_gbs=None,
    issue_cycles=None,
    threads_per_warp=None,
    registers_per_thread=None,
    shared_mem_per_block=None,
    cc=None,
    m_factor=1.0,
    ind_mem_req=0,
    decimals: Mapping[str, int] | None = None,
) -> Prediction:
    """Execution cycles of one kernel launch by Hong & Kim's MWP/CWP model (Eqs. 5–31).

    Parameters follow Table 1 in snake case. All instruction counts are dynamic counts
    *per thread* (PTX instructions, §3.4.3) and may be averages, so they need not be
    integers.

    Parameters
    ----------
    gpu
        A GPU of Table 3 (name or :class:`~gpumodels.facts.hardware.GPU`). It supplies
        every machine parameter the call leaves out: ``mem_ld``, the departure delays,
        ``issue_cycles``, ``threads_per_warp``, ``uncoal_per_mw`` (cc < 1.3),
        ``freq_ghz``, ``mem_bandwidth_gbs``, the SM count and the compute capability
        (:func:`machine`). Without ``gpu`` every machine parameter must be given.
    threads_per_block, blocks : int
        The launch configuration.
    comp_insts, coal_mem_insts, uncoal_mem_insts, synch_insts : float
        ``#Comp_insts``, ``#Coal_Mem_insts``, ``#Uncoal_Mem_insts`` and
        ``#Synch_insts``.
    active_blocks_per_sm : int
        ``#Active_blocks_per_SM``. If left out, the occupancy calculator gives it from
        ``registers_per_thread`` and ``shared_mem_per_block`` (and the compute
        capability), capped at ``ceil(blocks / active_sms)``. If given, it is checked
        against the same limits.
    active_sms : int
        ``#Active_SMs``; default ``min(SM count, blocks)``.
    mem_ld, departure_del_uncoal, departure_del_coal : float
        DRAM round-trip latency and the departure delays, in cycles (Table 6).
        ``departure_del_coal`` is needed only when there are coalesced loads.
    uncoal_per_mw : float
        Memory transactions per uncoalesced warp access (32 on cc 1.0/1.1).
    load_bytes_per_warp : float
        Bytes one warp's memory instruction loads (128 = 4 B × 32 threads).
    freq_ghz, mem_bandwidth_gbs : float
        Processor clock and DRAM bandwidth.
    issue_cycles : float
        Cycles to issue one warp instruction (4 on the Tesla SM, Table 1).
    threads_per_warp : int
        32.
    registers_per_thread, shared_mem_per_block : int
        Resource use per thread and per block, for the occupancy calculation.
    cc : str
        Compute capability (default: the GPU's), for the occupancy calculation.
    m_factor : float
        Eq. (31)'s M_Factor (1 for single-issue instructions; see :func:`m_factor_of`).
    ind_mem_req : float
        ``#ind_mem_req``, the memory requests per thread that do not depend on an
        earlier load (§6.1, Eqs. 29–30). 0 is the base model.
    decimals
        Round the named intermediate quantities (any of ``mem_l``, ``departure_delay``,
        ``mwp_without_bw_full``, ``bw_per_warp``, ``mwp_peak_bw``, ``cwp_full``) to that
        many decimals before later equations use them -- to replay a hand calculation
        that carried rounded values, as Table 2 does.

    Returns
    -------
    Prediction

    Notes
    -----
    The three cases of §3.4.2 are applied as printed: Eq. (22) if MWP = N and CWP = N; else
    Eq. (23) if CWP ≥ MWP or Comp_cycles > Mem_cycles; else Eq. (24). The readings the book
    chose where the text is ambiguous are in ``READINGS`` (no memory instructions,
    Eq. 29, partial warps, fractional #Rep, default active blocks).
    """
    mach = machine(gpu) if gpu is not None else None
    given = {
        "mem_ld": mem_ld,
        "departure_del_uncoal": departure_del_uncoal,
        "departure_del_coal": departure_del_coal,
        "uncoal_per_mw": uncoal_per_mw,
        "freq_ghz": freq_ghz,
        "mem_bandwidth_gbs": mem_bandwidth_gbs,
        "issue_cycles": issue_cycles,
        "threads_per_warp": threads_per_warp,
    }
    if mach is not None:
        for k, v in mach.as_params().items():
            if given[k] is None:
                given[k] = v
        cc = mach.cc if cc is None else cc
    if given["issue_cycles"] is None:
        given["issue_cycles"] = 4
    if given["threads_per_warp"] is None:
        given["threads_per_warp"] = 32
    if decimals is not None:
        bad = set(decimals) - set(_ROUNDABLE)
        if bad:
            raise ValueError(
                f"decimals may name only {', '.join(_ROUNDABLE)}, got {sorted(bad)}"
            )
        for k, v in decimals.items():
            check_int(f"decimals[{k!r}]", v, 0, 12)

    lim = limits(cc) if cc is not None else None
    max_tpb = lim.max_threads_per_block if lim is not None else None
    tpb = check_int("threads_per_block", threads_per_block, 1, max_tpb)
    nblocks = check_int("blocks", blocks, 1)
    tpw = check_int("threads_per_warp", given["threads_per_warp"], 1)
    comp = check_real("comp_insts", comp_insts, 0.0)
    coal = check_real("coal_mem_insts", coal_mem_insts, 0.0)
    uncoal = check_real("uncoal_mem_insts", uncoal_mem_insts, 0.0)
    synch = check_real("synch_insts", synch_insts, 0.0)
    mem = coal + uncoal
    if 0 < mem < 1:
        raise ValueError(
            "coal_mem_insts + uncoal_mem_insts must be 0 or at least 1 per thread "
            "(Eq. 2 splits the "
            f"computation into #Mem_insts periods), got {mem}"
        )
    total = comp + mem
    if total == 0:
        raise ValueError(
            "comp_insts + coal_mem_insts + uncoal_mem_insts must be > 0 (a kernel "
            "needs instructions)"
        )
    mf = check_real("m_factor", m_factor, 0.0, lo_open=True)
    ind = check_real("ind_mem_req", ind_mem_req, 0.0, mem)

    def need(name, lo=0.0, lo_open=True):
        if given[name] is None:
            raise ValueError(
                f"{name} must be given (or pass gpu= to take it from Hong & Kim's "
                "machine tables)"
            )
        return check_real(name, given[name], lo, lo_open=lo_open)

    issue = need("issue_cycles")
    freq = need("freq_ghz")
    bw = need("mem_bandwidth_gbs")
    bytes_w = check_real("load_bytes_per_warp", load_bytes_per_warp, 0.0, lo_open=True)
    if mem > 0:
        mem_ld_v = need("mem_ld")
        dd_u = (
            need("departure_del_uncoal")
            if uncoal > 0
            else float(given["departure_del_uncoal"] or 0.0)
        )
        dd_c = (
            need("departure_del_coal")
            if coal > 0
            else float(given["departure_del_coal"] or 0.0)
        )
        if uncoal > 0 and given["uncoal_per_mw"] is None:
            raise ValueError(
                "uncoal_per_mw must be given for uncoalesced loads on this GPU "
                "(Hong & Kim print it only for cc < 1.3; see "
                "coalescing.transactions_cc13)"
            )
        upm = (
            check_real("uncoal_per_mw", given["uncoal_per_mw"], 1.0)
            if uncoal > 0
            else 1.0
        )

    # launch geometry
    sm_count = mach.sm_count if mach is not None else None
    if active_sms is None:
        if sm_count is None:
            raise ValueError("active_sms must be given (or pass gpu=)")
        active_sms = min(sm_count, nblocks)
    sms = check_int("active_sms", active_sms, 1, sm_count)
    wpb = -(-tpb // tpw)
    per_sm_blocks = -(-nblocks // sms)
    occ_blocks = None
    if lim is not None:
        occ_blocks = occupancy(
            cc, tpb, registers_per_thread or 0, shared_mem_per_block or 0
        ).blocks_per_sm
        if occ_blocks == 0:
            raise ValueError(
                f"a block of {tpb} threads with {registers_per_thread} "
                "registers/thread and "
                f"{shared_mem_per_block} B shared memory does not fit on a compute "
                f"capability {cc} SM"
            )
    if active_blocks_per_sm is None:
        if occ_blocks is None:
            raise ValueError(
                "active_blocks_per_sm must be given (or pass gpu= or cc= for the "
                "occupancy calculator)"
            )
        active_blocks_per_sm = min(occ_blocks, per_sm_blocks)
    ctx = None
    if occ_blocks is not None:
        ctx = (
            f"compute capability {lim.cc}, {tpb} threads/block, "
            f"{registers_per_thread or 0} registers/thread, "
            f"{shared_mem_per_block or 0} B shared memory/block (occupancy limit)"
        )
    abs_ = check_int("active_blocks_per_sm", active_blocks_per_sm, 1, occ_blocks, ctx)
    n = abs_ * wpb

    # Eqs. 10-17: memory latency, departure delay, MWP without bandwidth limit
    if mem > 0:
        w_u, w_c = uncoal / mem, coal / mem  # (13), (14)
        l_u = mem_ld_v + (upm - 1) * dd_u  # (10)
        l_c = mem_ld_v  # (11)
        mem_l = _round(decimals, "mem_l", l_u * w_u + l_c * w_c)  # (12)
        dep = _round(decimals, "departure_delay", dd_u * upm * w_u + dd_c * w_c)  # (15)
        mwp_wo_full = _round(decimals, "mwp_without_bw_full", mem_l / dep)  # (16)
        n_pw = (
            math.inf if ind == mem else max(float(n), n * mem / (mem - ind))
        )  # (29), READINGS["n_pw"]
        mwp_wo = min(mwp_wo_full, n_pw)  # (17); = N without ind_mem_req
        bw_w = _round(decimals, "bw_per_warp", bw_per_warp(freq, bytes_w, mem_l))  # (7)
        mwp_bw = _round(decimals, "mwp_peak_bw", mwp_peak_bw(bw, bw_w, sms))  # (6)
        mwp = min(mwp_wo, mwp_bw, n_pw)  # (5), (30)
        if mwp < 1:  # Eqs. 22, 23 and 26 assume at least one warp's requests in flight
            why = (
                "MWP_peak_bw (Eq. 6): mem_bandwidth_gbs is too small to serve one "
                "warp's requests"
                if mwp_bw < 1
                else "MWP_without_BW (Eq. 16): the departure delay exceeds Mem_L"
            )
            raise OutsideDomainError(
                f"MWP = {mwp:.4g} < 1, outside Hong & Kim's model (Comp_p·(MWP − 1) in "
                "Eqs. 22–23 and "
                "N_pwb − 1 in Eq. 26 would make the time negative); the limit is "
                f"{why} "
                f"(MWP_peak_bw = {mwp_bw:.4g}, MWP_without_BW = {mwp_wo_full:.4g})"
            )
        mem_cycles = l_u * uncoal + l_c * coal  # (18)
    else:  # READINGS["no_memory_instructions"]
        w_u = w_c = 0.0
        l_u = l_c = mem_l = dep = 0.0
        mwp_wo_full, mwp_wo, bw_w, mwp_bw, n_pw = (
            math.inf,
            float(n),
            0.0,
            math.inf,
            float(n),
        )
        mwp = float(n)
        mem_cycles = 0.0
    comp_cycles = issue * mf * total  # (19), (31)
    cp = comp_cycles / mem if mem > 0 else comp_cycles  # (2)
    cwp_f = (
        _round(decimals, "cwp_full", cwp_full(mem_cycles, comp_cycles))
        if comp_cycles > 0
        else math.inf
    )  # (8)
    cwp = min(cwp_f, n)  # (9)
    rep = repetitions(nblocks, abs_, sms)  # (21)

    eq = 24 if mem == 0 else equation_case(mwp, cwp, n, comp_cycles, mem_cycles)
    if eq == 22:
        per_rep = cycles_eq22(mem_cycles, comp_cycles, cp, mwp)
    elif eq == 23:
        per_rep = cycles_eq23(mem_cycles, n, mwp, cp)
    else:
        per_rep = cycles_eq24(mem_l, comp_cycles, n)
    exec_app = per_rep * rep
    npwb = min(mwp, wpb)  # (27)
    synch_cost = dep * (npwb - 1) * synch * abs_ * rep  # (26)
    exec_sync = exec_app + synch_cost  # (28)
    cpi = (
        exec_app * tpw * sms / (total * tpb * nblocks)
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
    issue_bound = comp_cycles * n * rep
    bw_bound = (mem * n * rep * bytes_w * freq * sms / bw) if mem > 0 else 0.0
    return Prediction(
        threads_per_block=tpb,
        blocks=nblocks,
        active_sms=sms,
        active_blocks_per_sm=abs_,
        warps_per_block=wpb,
        n=n,
        comp_insts=comp,
        coal_mem_insts=coal,
        uncoal_mem_insts=uncoal,
        synch_insts=synch,
        mem_insts=mem,
        total_insts=total,
        m_factor=mf,
        ind_mem_req=ind,
        mem_l_uncoal=l_u,
        mem_l_coal=l_c,
        weight_uncoal=w_u,
        weight_coal=w_c,
        mem_l=mem_l,
        departure_delay=dep,
        mwp_without_bw_full=mwp_wo_full,
        mwp_without_bw=mwp_wo,
        bw_per_warp=bw_w,
        mwp_peak_bw=mwp_bw,
        n_pw=n_pw,
        mwp=mwp,
        comp_cycles=comp_cycles,
        mem_cycles=mem_cycles,
        comp_p=cp,
        cwp_full=cwp_f,
        cwp=cwp,
        rep=rep,
        equation=eq,
        exec_cycles_app=exec_app,
        npwb=npwb,
        synch_cost=synch_cost,
        exec_cycles_with_synch=exec_sync,
        cpi=cpi,
        freq_ghz=freq,
        issue_bound_cycles=issue_bound,
        bandwidth_bound_cycles=bw_bound,
        max_warps_per_sm=None if lim is None else lim.max_warps_per_sm,
    )


# ---------------------------------------------------------------------------------------------
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

    >>> m_factor_of({"int_mul": 1}), m_factor_of({"fp_mad": 3, "fp_div": 1}, source="manual")
    (4.3, 1.75)
    """
    if source not in ("experiment", "manual"):
        raise ValueError(f"source must be 'experiment' or 'manual', got {source!r}")
    t = _table_7()
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
    import pandas as pd

    return pd.DataFrame(read_rows("hong_kim/table_7.csv"))


@dataclass(frozen=True)
class Divergence:
    """Instruction counts of each path of a divergent branch and of their serialised
    execution (§6.3)."""

    paths: tuple[tuple[str, ...], ...]
    path_counts: tuple[dict, ...]
    all_paths: dict


_COUNT_KEYS = ("comp_insts", "coal_mem_insts", "uncoal_mem_insts", "synch_insts")


def divergent_counts(
    blocks: Mapping[str, Mapping[str, float]], paths: Sequence[Sequence[str]]
) -> Divergence:
    """Per-path and all-paths instruction counts of a divergent control-flow graph
    (§6.3, Fig. 27).

    ``blocks`` maps basic-block names to counts (keys of :func:`predict`:
    ``comp_insts``, ``coal_mem_insts``, ``uncoal_mem_insts``, ``synch_insts``);
    ``paths`` lists the blocks each thread path runs through. A warp whose threads take
    several paths executes every path one after the other with the other threads masked
    off, so each basic block on *any* path is issued once per warp: the all-paths count
    sums the union of the paths' blocks. That is the book's reading of the paper's "sum
    of all the paths"; the shared blocks are counted once because the hardware issues
    them once.

    >>> d = divergent_counts({"B1": {"comp_insts": 2}, "B2": {"comp_insts": 3}, "B3": {"comp_insts": 5}},
    ...                      [("B1", "B2"), ("B1", "B3")])
    >>> [c["comp_insts"] for c in d.path_counts], d.all_paths["comp_insts"]
    ([5.0, 7.0], 10.0)
    """
    if not paths:
        raise ValueError("paths must list at least one path")
    for name, c in blocks.items():
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
            if b not in blocks:
                raise ValueError(
                    f"path block {b!r} is not one of the blocks {', '.join(blocks)}"
                )
            for k, v in blocks[b].items():
                out[k] += float(v)
        return out

    paths_t = tuple(tuple(p) for p in paths)
    union = list(dict.fromkeys(b for p in paths_t for b in p))
    return Divergence(paths_t, tuple(sum_of(p) for p in paths_t), sum_of(union))

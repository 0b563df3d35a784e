"""The data-placement model of Huang & Li (2017): T = T_comp + T_mem − T_overlap (Eq.
1).

Equations, in core cycles per SM:

* Eq. 2:  ``T_comp = #inst × #total_warps / #active_SMs × avg_inst_lat / ITILP +
  W_serial`` (:func:`t_comp`; Eqs. 13–16 in :mod:`gpumodels.papers.huang_li.analysis`),
  with ``#inst`` the *issued* instructions per warp: Eq. 3's replays plus the addressing
  difference;
* Eq. 4:  ``T_mem = Effective_memory_requests_per_SM × AMAT`` (:func:`t_mem`), Eq. 17
  ``#mem_instrs × #total_warps / (#active_SMs × ITMLP)`` (:func:`effective_requests`),
  Eqs. 18–19 ``ITMLP = min(MLP × MWP_cp, MWP_peak_bw)``, ``MWP_cp = min(max(1, CWP −
  1), MWP)`` (:func:`itmlp`) with MWP and CWP from
  :func:`gpumodels.engines.mwp_cwp.predict`;
* Eq. 5:  ``AMAT = DRAM_lat × miss_ratio + hit_lat + shmem_lat × shmem_ratio``
  (:func:`amat`, as printed; ``form="weighted"`` is the reading in which shared requests
  do not pay hit_lat [A1]);
* Eqs. 11–12: ``T_overlap = T_overlap_ratio × T_mem``, the ratio linear in memory-event
  ratios, fitted by least squares (:class:`OverlapModel`; target ``(T_comp + T_mem −
  T)/T_mem`` [A5]).

The Fig. 5 baseline "[7]" is Sim et al. (2012), GPUPerf, whose general form the seed
does not print: ``T = T_comp + T_mem − T_overlap`` with ``T_comp = W_parallel +
W_serial`` (executed instructions), AMAT with a constant DRAM latency, and ``T_overlap =
min(T_comp × F_overlap, T_mem)``, ``F_overlap = (N − ζ)/N``, ζ = 1 if CWP ≤ MWP else 0
(:func:`f_overlap`; Sim et al. 2012, §3). This is not
:mod:`gpumodels.comparisons.prior.sim_2012`, Volkov's reduction for his α-workload; nor
is Huang & Li the GPUMech of J.-C. Huang et al. (2014,
:mod:`gpumodels.comparisons.prior.huang_2014`).

:func:`predict` is the entry point: from a sample placement's :class:`Profile` to a
target placement's time, in any of the :data:`VARIANTS` of the paper's ablations.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from gpumodels.engines import mwp_cwp as hk
from gpumodels.engines.refsim.kernels import Kernel, Trace, default_benchmark
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_flag,
    check_int,
    check_keys,
    check_real,
)
from gpumodels.papers.huang_li._checks import (
    check_kind,
    check_map,
    check_real_or_nan,
    check_str,
    float_array,
)
from gpumodels.papers.huang_li.analysis import (
    RULES,
    Analysis,
    Machine,
    Traffic,
    analyze,
    is_k80_traffic,
    k80,
    placement_traffic,
)

_ANALYSIS = "a huang_li.analysis.Analysis"
_MACHINE = "a huang_li.analysis.Machine"

VARIANTS: Mapping[str, Mapping[str, str]] = {
    "sim2012": {
        "instructions": "executed",
        "dram": "constant",
        "overlap": "f_overlap",
        "label": "Sim et al. 2012",
    },
    "baseline": {
        "instructions": "executed",
        "dram": "constant",
        "overlap": "eq11",
        "label": "Baseline",
    },
    "instr": {
        "instructions": "issued",
        "dram": "constant",
        "overlap": "eq11",
        "label": "Baseline + instr. replay & addr. mode",
    },
    "instr_queue_even": {
        "instructions": "issued",
        "dram": "even",
        "overlap": "eq11",
        "label": "Baseline + instr. + queuing (even banks)",
    },
    "queue_mapped": {
        "instructions": "executed",
        "dram": "mapped",
        "overlap": "eq11",
        "label": "Baseline + queuing (address mapping)",
    },
    "full": {
        "instructions": "issued",
        "dram": "mapped",
        "overlap": "eq11",
        "label": "Our model (full)",
    },
}
"""The ablation variants of §V, with the instruction count, DRAM latency and overlap of
each.

``executed``: the sample's executed instructions, unchanged [A17]; ``issued``: Eq. 3
plus the addressing difference. ``constant``: the row-miss latency of an isolated access
(what a micro-benchmark of unloaded accesses measures); ``even``: Kingman with requests
dealt evenly to the physical banks [A18]; ``mapped``: Kingman per bank of the detected
mapping."""


# --------------------------------------------------------------------------------------
# equations


def t_comp(inst_per_warp, total_warps, active_sms, cpi, w_serial=0.0) -> float:
    """Eq. 2: ``#inst × #total_warps / #active_SMs × Effective_instruction_throughput +
    W_serial`` (cycles)."""
    i = check_real("inst_per_warp", inst_per_warp, 0.0)
    w = check_real("total_warps", total_warps, 1.0)
    s = check_real("active_sms", active_sms, 1.0)
    c = check_real("cpi", cpi, 0.0, lo_open=True)
    return i * w / s * c + check_real("w_serial", w_serial, 0.0)


def amat(
    dram_lat, miss_ratio, hit_lat, shmem_lat, shmem_ratio, form: str = "printed"
) -> float:
    """Eq. 5: average memory access latency per memory instruction (cycles).

    ``form="printed"``: ``DRAM_lat × miss_ratio + hit_lat + shmem_lat × shmem_ratio`` —
    every request pays hit_lat, shared ones too. ``form="weighted"`` [A1]: ``(1 −
    shmem_ratio)(hit_lat + DRAM_lat × miss_ratio) + shmem_ratio × shmem_lat``.

    >>> amat(600, 0.5, 120, 24, 0.25), amat(600, 0.5, 120, 24, 0.25, form="weighted")
    (426.0, 321.0)
    """
    d = check_real("dram_lat", dram_lat, 0.0)
    mr = check_real("miss_ratio", miss_ratio, 0.0, 1.0)
    h = check_real("hit_lat", hit_lat, 0.0)
    sl = check_real("shmem_lat", shmem_lat, 0.0)
    sr = check_real("shmem_ratio", shmem_ratio, 0.0, 1.0)
    if form == "printed":
        return d * mr + h + sl * sr
    if form == "weighted":
        return (1.0 - sr) * (h + d * mr) + sr * sl
    raise ValueError(f"form must be 'printed' or 'weighted', got {form!r}")


def itmlp(mlp, mwp, cwp, mwp_peak_bw) -> tuple[float, float]:
    """Eqs. 18–19: ``(ITMLP, MWP_cp)`` with ``MWP_cp = min(max(1, CWP − 1), MWP)``,
    ``ITMLP = min(MLP × MWP_cp, MWP_peak_bw)``.

    >>> itmlp(1, 8, 20, 30), itmlp(2, 8, 3, 3.5)
    ((8.0, 8.0), (3.5, 2.0))
    """
    m = check_real("mlp", mlp, 0.0, lo_open=True)
    mw = check_real("mwp", mwp, 1.0)
    cw = check_real("cwp", cwp, 1.0)
    pk = check_real("mwp_peak_bw", mwp_peak_bw, 0.0, lo_open=True)
    cp = min(max(1.0, cw - 1.0), mw)
    return min(m * cp, pk), cp


def effective_requests(
    mem_insts_per_warp, total_warps, active_sms, itmlp_value
) -> float:
    """Eq. 17: ``#mem_instrs × #total_warps / (active_SMs × ITMLP)``, memory
    instructions per SM not overlapped."""
    m = check_real("mem_insts_per_warp", mem_insts_per_warp, 0.0)
    w = check_real("total_warps", total_warps, 1.0)
    s = check_real("active_sms", active_sms, 1.0)
    it = check_real("itmlp_value", itmlp_value, 0.0, lo_open=True)
    return m * w / (s * it)


def t_mem(effective_requests_per_sm, amat_value) -> float:
    """Eq. 4: ``Effective_memory_requests_per_SM × AMAT`` (cycles)."""
    return check_real(
        "effective_requests_per_sm", effective_requests_per_sm, 0.0
    ) * check_real("amat_value", amat_value, 0.0)


def f_overlap(n, cwp, mwp) -> float:
    """Sim et al. (2012): ``F_overlap = (N − ζ)/N``, ζ = 1 if CWP ≤ MWP else 0.

    >>> f_overlap(8, 4, 8), f_overlap(8, 9, 8)
    (0.875, 1.0)
    """
    n_ = check_real("n", n, 1.0)
    zeta = 1.0 if check_real("cwp", cwp, 0.0) <= check_real("mwp", mwp, 0.0) else 0.0
    return (n_ - zeta) / n_


def t_total(t_comp_value, t_mem_value, t_overlap_value) -> tuple[float, bool]:
    """Eq. 1, ``T = T_comp + T_mem − T_overlap``, with T_overlap held to ``[0,
    min(T_comp, T_mem)]``.

    Returns ``(T, clipped)``: a fitted overlap outside that range would make T smaller
    than either cost or larger than their sum; it is clipped and flagged, never returned
    silently.
    """
    tc = check_real("t_comp_value", t_comp_value, 0.0)
    tm = check_real("t_mem_value", t_mem_value, 0.0)
    to = check_real("t_overlap_value", t_overlap_value, None)
    lo, hi = 0.0, min(tc, tm)
    clipped = to < lo or to > hi
    return tc + tm - min(max(to, lo), hi), clipped


# --------------------------------------------------------------------------------------
# T_overlap (Eqs. 11-12)

FEATURES = (
    "global_requests",
    "global_l2_misses",
    "const_requests",
    "const_misses",
    "tex_requests",
    "tex_misses",
    "shared_requests",
    "bank_conflicts",
    "row_misses",
    "row_conflicts",
    "warps_per_sm",
)
"""Eq. 11's regressors in the book's reading [A4], each memory's requests and its
critical misses as two features (e_i, e_j, e_m, e_n), row-buffer misses and conflicts
(e_k), all as ratios to the placement's memory instructions, and the warps per SM; with
the constant c that is 12 coefficients."""


def overlap_features(an: Analysis) -> np.ndarray:
    """The :data:`FEATURES` of one analysed placement, as ratios to its memory
    instructions."""
    check_kind("an", an, Analysis, _ANALYSIS)
    tot = max(sum(an.mem_insts.values()), 1)
    vals = [
        an.requests["G"],
        an.misses["G_L2"],
        an.requests["C"],
        an.misses["C"],
        an.requests["T"],
        an.misses["T"],
        an.mem_insts["S"],
        an.replays["4_bank"],
        an.row["miss"],
        an.row["conflict"],
    ]
    return np.array([v / tot for v in vals] + [float(an.warps_per_sm)])


@dataclass(frozen=True)
class OverlapModel:
    """A fitted Eq. 11: coefficients (one per :data:`FEATURES` entry, then the constant
    c) and diagnostics.

    ``r2`` on the training rows; ``lobo_error`` the mean absolute error of
    T_overlap_ratio when each group (benchmark) is predicted by a fit without it;
    ``condition`` the condition number of the design matrix (intercept included);
    ``rank`` its rank; ``zero_columns`` the features that are zero on every training row
    (their coefficients are set to 0 and reported).
    """

    coef: np.ndarray
    r2: float
    lobo_error: float
    condition: float
    rank: int
    zero_columns: tuple[str, ...]
    n: int

    def __post_init__(self):
        f = lambda k: f"OverlapModel.{k}"
        c = check_kind(f("coef"), self.coef, np.ndarray, "a numpy array")
        if c.shape != (len(FEATURES) + 1,) or c.dtype.kind != "f":
            raise ValueError(
                f"{f('coef')} must be a float array of {len(FEATURES) + 1} entries "
                f"(one per feature, then c), got shape {c.shape} dtype {c.dtype}"
            )
        if not np.all(np.isfinite(c)):
            raise ValueError(f"{f('coef')} must be finite, got {c!r}")
        # a read-only copy: fits are cached and shared by every caller
        c = np.array(c, dtype=float)
        c.setflags(write=False)
        object.__setattr__(self, "coef", c)
        # R² of a least-squares fit with intercept is in [0, 1] (NaN: constant target)
        check_real_or_nan(f("r2"), self.r2, -1e-9, True)
        if not math.isnan(self.r2) and self.r2 > 1.0 + 1e-9:
            raise ValueError(f"{f('r2')} must be at most 1, got {self.r2!r}")
        check_real_or_nan(f("lobo_error"), self.lobo_error, 0.0, True)
        n = check_int(f("n"), self.n, 0)  # 0: a placeholder, not fitted
        if n == 1:
            raise ValueError(f"{f('n')} must be 0 (not fitted) or at least 2, got 1")
        if not (
            isinstance(self.condition, (int, float, np.floating))
            and self.condition == math.inf
        ):  # inf: a singular design matrix; NaN: not fitted
            check_real_or_nan(f("condition"), self.condition, 1.0 - 1e-9, n == 0)
        check_int(f("rank"), self.rank, 0, len(FEATURES) + 1)
        check_kind(f("zero_columns"), self.zero_columns, tuple, "a tuple of names")
        for k in self.zero_columns:
            check_choice(f("zero_columns item"), k, FEATURES)

    @property
    def rank_deficient(self) -> bool:
        return self.rank < len(FEATURES) + 1 - len(self.zero_columns)

    def ratio(self, features) -> float:
        x = as_array("features", features, -math.inf)
        if x.shape != (len(FEATURES),):
            raise ValueError(
                f"features must have {len(FEATURES)} entries ({', '.join(FEATURES)}), "
                f"got shape {x.shape}"
            )
        return float(x @ self.coef[:-1] + self.coef[-1])

    @staticmethod
    def fit(x, y, groups: Sequence[str] | None = None) -> OverlapModel:
        """Least-squares fit of ``y = x · g + c`` (Eq. 11) with diagnostics.

        ``x`` is ``(n, len(FEATURES))``, ``y`` the targets ``(T_comp + T_mem −
        T_measured)/T_mem``. Rank deficiency is detected (the minimum-norm solution is
        used and ``rank`` reported).
        """
        X, Y = float_array("x", x), float_array("y", y)
        if X.ndim != 2 or X.shape[1] != len(FEATURES) or Y.shape != (X.shape[0],):
            raise ValueError(
                f"x must be (n, {len(FEATURES)}) and y (n,), got {X.shape} and "
                f"{Y.shape}"
            )
        if not (np.all(np.isfinite(X)) and np.all(np.isfinite(Y))):
            raise ValueError(
                "x and y must be finite (a saturated placement gives NaN: cap it or "
                "leave it out)"
            )
        if X.shape[0] < 2:
            raise ValueError(f"need at least 2 training rows, got {X.shape[0]}")
        zero = tuple(f for f, col in zip(FEATURES, X.T) if not np.any(col))
        keep = np.array([f not in zero for f in FEATURES])

        def solve(Xs, Ys):
            A = np.column_stack([Xs[:, keep], np.ones(len(Xs))])
            sol, *_ = np.linalg.lstsq(A, Ys, rcond=None)
            full = np.zeros(len(FEATURES) + 1)
            full[np.append(keep, True)] = sol
            return full

        coef = solve(X, Y)
        A = np.column_stack([X[:, keep], np.ones(len(X))])
        pred = A @ coef[np.append(keep, True)]
        ss = float(np.sum((Y - Y.mean()) ** 2))
        r2 = 1.0 - float(np.sum((Y - pred) ** 2)) / ss if ss > 0 else float("nan")
        sv = np.linalg.svd(A, compute_uv=False)
        cond = float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf
        rank = int(np.linalg.matrix_rank(A))
        lobo = float("nan")
        if groups is not None:
            g = np.asarray(groups)
            if g.shape != (len(X),):
                raise ValueError("groups must name one group per training row")
            errs = []
            for name in np.unique(g):
                out = g == name
                if out.all():
                    continue
                c = solve(X[~out], Y[~out])
                errs.append(
                    np.abs(np.column_stack([X[out], np.ones(out.sum())]) @ c - Y[out])
                )
            lobo = float(np.mean(np.concatenate(errs))) if errs else float("nan")
        return OverlapModel(
            coef=coef,
            r2=r2,
            lobo_error=lobo,
            condition=cond,
            rank=rank,
            zero_columns=zero,
            n=len(X),
        )


# --------------------------------------------------------------------------------------
# profiles and prediction


@dataclass(frozen=True)
class Profile:
    """What the model knows of the sample placement: its trace (SASSI's role) and its
    counters (nvprof's).

    ``counters``: ``inst_executed`` and ``inst_issued`` per warp, ``w_serial`` (cycles).
    Missing counters are filled by :func:`profile` from the trace by the model's own
    rules (labelled ``source="model rules"``); a simulator or a GPU supplies measured
    ones. ``analysis`` is the sample's trace analysed once, under ``options`` (the
    readings of :func:`~gpumodels.papers.huang_li.analysis.analyze`), which every
    prediction from this profile uses.
    """

    kernel: Kernel
    moves: Mapping[str, str]
    trace: Trace
    counters: Mapping[str, float]
    analysis: Analysis = field(repr=False, compare=False)
    machine: Machine = field(repr=False, compare=False)
    options: Mapping[str, str] = field(default_factory=dict)
    source: str = "model rules"

    def __post_init__(self):
        f = lambda k: f"Profile.{k}"
        check_kind(f("kernel"), self.kernel, Kernel, "a refsim.kernels.Kernel")
        check_map(f("moves"), self.moves, "str")
        check_kind(f("trace"), self.trace, Trace, "a refsim.kernels.Trace")
        check_map(f("counters"), self.counters, "real")
        check_kind(f("analysis"), self.analysis, Analysis, _ANALYSIS)
        check_kind(f("machine"), self.machine, Machine, _MACHINE)
        check_map(f("options"), self.options)
        check_str(f("source"), self.source)


def _kept_traffic(kernel: Kernel, moves, machine: Machine, options) -> Traffic | None:
    """The traffic of ``kernel``'s trace under ``moves`` as
    :func:`~gpumodels.papers.huang_li.analysis.placement_traffic` keeps it, when
    ``kernel`` is a default-size kernel (whose traces the cache holds exactly), the
    machine gives the K80's traffic and the rule is one it knows; ``None`` otherwise
    (then :func:`analyze` computes it from the trace)."""
    b = default_benchmark(kernel)
    rule = options.get("rule", "printed")
    if b is None or not isinstance(rule, str) or rule not in RULES:
        return None
    if not is_k80_traffic(machine):
        return None
    return placement_traffic(b, moves)[rule]


def profile(
    kernel: Kernel,
    moves: Mapping[str, str] | None = None,
    counters: Mapping[str, float] | None = None,
    machine: Machine | None = None,
    traffic: Traffic | None = None,
    **analysis_options,
) -> Profile:
    """The sample :class:`Profile` of ``kernel`` under ``moves`` (default: the kernel's
    own placement).

    ``machine`` (default the K80) and ``analysis_options`` are kept with the profile:
    every prediction from it uses the same machine and readings. ``traffic``: the
    sample trace's :class:`~gpumodels.papers.huang_li.analysis.Traffic` if already
    computed (it must belong to this kernel and placement; the analysis then skips
    the caches).
    """
    check_kind("kernel", kernel, Kernel, "a refsim.kernels.Kernel")
    if moves is not None:
        check_map("moves", moves, "str")
    if counters is not None:
        check_map("counters", counters)
    if machine is not None:
        check_kind("machine", machine, Machine, _MACHINE)
    m = machine or k80()
    tr = kernel.trace(moves)
    if traffic is not None:
        check_kind("traffic", traffic, Traffic, "a huang_li.analysis.Traffic")
        if traffic.kernel != kernel.name or dict(traffic.placement) != tr.placement:
            raise ValueError(
                f"traffic must belong to {kernel.name} under {tr.placement}, got "
                f"{traffic.kernel} under {dict(traffic.placement)}"
            )
    if traffic is None:
        traffic = _kept_traffic(kernel, moves, m, analysis_options)
    an = analyze(tr if traffic is None else traffic, m, **analysis_options)
    c = dict(counters or {})
    allowed = {"inst_executed", "inst_issued", "w_serial"}
    if set(c) - allowed:
        raise ValueError(
            f"counters may name only {', '.join(sorted(allowed))}, got "
            f"{sorted(set(c) - allowed)}"
        )
    src = "measured" if {"inst_executed", "inst_issued"} <= set(c) else "model rules"
    if "inst_executed" not in c:
        c["inst_executed"] = float(tr.executed.mean())
    if "inst_issued" not in c:
        c["inst_issued"] = c["inst_executed"] + an.replays_per_warp
    c.setdefault("w_serial", 0.0)
    for k, v in c.items():
        check_real(f"counters[{k!r}]", v, 0.0)
    return Profile(
        kernel=kernel,
        moves=dict(moves or {}),
        trace=tr,
        counters=c,
        analysis=an,
        machine=m,
        options=dict(analysis_options),
        source=src,
    )


def instructions_per_warp(
    sample: Profile, target: Analysis, kind: str = "issued"
) -> float:
    """``#inst`` of Eq. 2 for a target placement, from the sample's counters.

    ``kind="issued"``: Eq. 3 plus the addressing difference, ``issued_sample −
    replays_sample(1–4) + replays_target(1–4) + addressing_target − addressing_sample``;
    ``kind="executed"``: the sample's executed count, unchanged [A17].
    """
    check_kind("sample", sample, Profile, "a huang_li.model.Profile")
    check_kind("target", target, Analysis, _ANALYSIS)
    check_choice("kind", kind, ("issued", "executed"))
    return _instructions(sample.counters, sample.analysis, target, kind)


def instructions_from_counters(
    counters: Mapping[str, float],
    sample: Analysis,
    target: Analysis,
    kind: str = "issued",
) -> float:
    """:func:`instructions_per_warp` from the parts of the sample's :class:`Profile` it
    reads: its ``counters`` (``inst_executed`` and ``inst_issued`` per warp) and its
    analysis ``sample``, without the trace a profile carries."""
    check_map("counters", counters, "real")
    check_keys("counters", counters, ("inst_executed", "inst_issued"), "counters")
    for k in ("inst_executed", "inst_issued"):
        check_real(f"counters[{k!r}]", counters[k], 0.0)
    check_kind("sample", sample, Analysis, _ANALYSIS)
    check_kind("target", target, Analysis, _ANALYSIS)
    check_choice("kind", kind, ("issued", "executed"))
    return _instructions(counters, sample, target, kind)


def _instructions(counters, sample: Analysis, target: Analysis, kind: str) -> float:
    """Eq. 3's ``#inst`` from checked arguments (:func:`instructions_per_warp`)."""
    if kind == "executed":
        return float(counters["inst_executed"])
    inst = (
        counters["inst_issued"]
        - sample.replays_per_warp
        + target.replays_per_warp
        + target.addressing_per_warp
        - sample.addressing_per_warp
    )
    return max(inst, 0.0)


@dataclass(frozen=True)
class Prediction:
    """Every term of Eq. 1 for one placement and variant (cycles per SM; ``time_ms`` at
    the machine clock)."""

    variant: str
    placement: Mapping[str, str]
    inst_per_warp: float
    t_comp: float
    t_mem: float
    t_overlap: float
    t: float
    amat: float
    dram_lat: float
    miss_ratio: float
    shmem_ratio: float
    effective_requests: float
    itmlp: float
    mwp: float
    cwp: float
    n: float
    copy_cycles: float
    saturated: bool
    clipped: bool
    clock_ghz: float
    analysis: Analysis = field(repr=False, compare=False)

    def __post_init__(self):
        f = lambda k: f"Prediction.{k}"
        check_choice(f("variant"), self.variant, tuple(VARIANTS))
        check_map(f("placement"), self.placement, "str")
        sat = check_flag(f("saturated"), self.saturated)
        check_flag(f("clipped"), self.clipped)
        for k in ("inst_per_warp", "t_comp", "copy_cycles"):
            check_real(f(k), getattr(self, k), 0.0)
        # NaN only where the queue saturated under saturation="nan" (flagged)
        for k in (
            "t_mem",
            "t_overlap",
            "t",
            "amat",
            "dram_lat",
            "effective_requests",
            "mwp",
            "cwp",
        ):
            check_real_or_nan(f(k), getattr(self, k), 0.0, sat)
        check_real_or_nan(f("itmlp"), self.itmlp, 0.0, sat, lo_open=True)
        for k in ("miss_ratio", "shmem_ratio"):
            check_real(f(k), getattr(self, k), 0.0, 1.0)
        check_real(f("n"), self.n, 1.0)
        check_real(f("clock_ghz"), self.clock_ghz, 0.0, lo_open=True)
        check_kind(f("analysis"), self.analysis, Analysis, _ANALYSIS)

    @property
    def time_ms(self) -> float:
        return self.t / (self.clock_ghz * 1e6)

    def terms(self) -> dict[str, float]:
        return {
            "#inst per warp": self.inst_per_warp,
            "T_comp": self.t_comp,
            "T_mem": self.t_mem,
            "T_overlap": self.t_overlap,
            "copy to shared": self.copy_cycles,
            "T": self.t,
        }


AMAT_FORMS = ("printed", "weighted")
"""The readings of Eq. 5 :func:`amat` takes [A1]: as printed, or hit_lat weighted."""

MWP_BYTES = ("lookups", "l2", "dram")
"""What counts as the bytes a warp's off-chip memory instruction asks of memory, the
``load_bytes_per_warp`` that sets MWP's bandwidth limit (Eqs. 18–19 take MWP from Sim et
al. 2012 and Hong & Kim 2009; the seed does not say which bytes). ``"lookups"`` (the
book's default): every global sector and every texture and constant line looked up,
cache hits included; ``"l2"``: the bytes sent to the L2 (texture and constant hits
left out); ``"dram"``: the bytes DRAM supplied."""

COPY = ("added", "omitted")
"""Whether a move into shared memory adds its one-off copy (bytes / DRAM bandwidth) to
T [A19]: ``"added"`` (the book's default) or ``"omitted"``."""


def mwp_load_bytes(
    an: Analysis, machine: Machine | None = None, reading: str = "lookups"
):
    """The bytes per off-chip memory instruction (global, texture, 2D texture,
    constant) that feed MWP's bandwidth limit, under one of :data:`MWP_BYTES`.

    Returns ``(bytes, instructions)`` (totals over the grid); the per-instruction value
    is their ratio. A placement with no off-chip instruction returns ``(0, 0)``.
    """
    check_kind("an", an, Analysis, _ANALYSIS)
    m = k80() if machine is None else check_kind("machine", machine, Machine, _MACHINE)
    check_choice("reading", reading, MWP_BYTES)
    off = an.mem_insts["G"] + an.mem_insts["T"] + an.mem_insts["2T"] + an.mem_insts["C"]
    if reading == "lookups":
        b = an.offchip_bytes
    elif reading == "l2":
        b = an.l2_accesses * m.request_bytes
    else:
        b = an.dram_bytes
    return int(b), int(off)


def _mwp_cwp(
    an: Analysis,
    m: Machine,
    inst: float,
    amat_cycles: float,
    cpi: float,
    bytes_reading: str = "lookups",
):
    b, off = mwp_load_bytes(an, m, bytes_reading)
    mem = off / an.n_warps
    comp = max(inst - mem, 0.0)
    # at least one byte: a warp whose loads all hit in a cache sends nothing off-chip
    # and has no bandwidth limit; 1 B puts MWP_peak_bw far above any warp count
    bytes_w = max(b / off, 1.0) if off else 128.0
    mem_arg = mem if mem >= 1 else 0.0
    if comp + mem_arg == 0:
        comp = 1.0
    hk_machine = hk.Machine(  # the K80 in Hong & Kim's terms, AMAT as Mem_LD
        cc="3.7",
        mem_ld=max(amat_cycles, 1.0),
        departure_del_coal=m.departure_del_coal,
        departure_del_uncoal=m.departure_del_uncoal,
        freq_ghz=m.clock_ghz,
        mem_bandwidth_gbs=m.bandwidth_gbs,
        issue_cycles=cpi,
        threads_per_warp=32,
    )
    p = hk.predict(
        hk.Inputs(
            machine=hk_machine,
            threads_per_block=an.threads_per_block,
            blocks=an.blocks,
            comp_insts=comp,
            coal_mem_insts=mem_arg,
            active_blocks_per_sm=an.resident_blocks_per_sm,
            active_sms=an.active_sms,
            load_bytes_per_warp=bytes_w,
        )
    )
    n = float(an.warps_per_sm)
    peak = (
        p.mwp_peak_bw if math.isfinite(p.mwp_peak_bw) else n
    )  # no off-chip traffic: no bandwidth limit
    return p.mwp, p.cwp, peak, n


def evaluate(
    an: Analysis,
    *,
    variant: str = "full",
    inst_per_warp: float,
    w_serial: float = 0.0,
    overlap: OverlapModel | None = None,
    machine: Machine | None = None,
    amat_form: str = "printed",
    mwp_bytes: str = "lookups",
    copy: str = "added",
) -> Prediction:
    """All terms of Eq. 1 for an analysed placement, given its instruction count per
    warp.

    ``amat_form`` is the Eq. 5 reading (:data:`AMAT_FORMS`, [A1]), ``mwp_bytes`` the
    bytes that set MWP's bandwidth limit (:data:`MWP_BYTES`), ``copy`` whether a move
    into shared memory adds its copy time (:data:`COPY`, [A19])."""
    v = VARIANTS[check_choice("variant", variant, tuple(VARIANTS))]
    check_kind("an", an, Analysis, _ANALYSIS)
    if machine is not None:
        check_kind("machine", machine, Machine, _MACHINE)
    if overlap is not None:
        check_kind("overlap", overlap, OverlapModel, "a huang_li.model.OverlapModel")
    check_choice("amat_form", amat_form, AMAT_FORMS)
    check_choice("mwp_bytes", mwp_bytes, MWP_BYTES)
    check_choice("copy", copy, COPY)
    m = machine or k80()
    dram = an.dram_lat[v["dram"]]
    sat = bool(an.saturated.get(v["dram"], False))
    am = (
        amat(dram, an.miss_ratio, m.hit_lat, m.shmem_lat, an.shmem_ratio, amat_form)
        if math.isfinite(dram)
        else math.nan
    )
    tc = t_comp(inst_per_warp, an.n_warps, an.active_sms, an.cpi, w_serial)
    if not math.isfinite(am):
        nan = math.nan
        return Prediction(
            variant,
            an.placement,
            inst_per_warp,
            tc,
            nan,
            nan,
            nan,
            am,
            dram,
            an.miss_ratio,
            an.shmem_ratio,
            nan,
            nan,
            nan,
            nan,
            float(an.warps_per_sm),
            0.0,
            True,
            False,
            m.clock_ghz,
            an,
        )
    mwp, cwp, peak, n = _mwp_cwp(an, m, inst_per_warp, am, an.cpi, mwp_bytes)
    it, _ = itmlp(m.mlp, mwp, cwp, peak)
    eff = effective_requests(an.mem_insts_per_warp, an.n_warps, an.active_sms, it)
    tm = t_mem(eff, am)
    if v["overlap"] == "f_overlap":
        to = min(tc * f_overlap(n, cwp, mwp), tm)
    else:
        if overlap is None:
            raise ValueError(
                f"variant {variant!r} needs a fitted Eq. 11 "
                "(overlap=OverlapModel.fit(...)); "
                "only 'sim2012' runs without one"
            )
        to = overlap.ratio(overlap_features(an)) * tm
    copy_cycles = (
        an.copy_bytes / (m.bandwidth_gbs / m.clock_ghz) if copy == "added" else 0.0
    )  # [A19]: every block's copy, bytes / DRAM bandwidth
    t, clipped = t_total(tc, tm, to)
    return Prediction(
        variant,
        an.placement,
        inst_per_warp,
        tc,
        tm,
        tc + tm - t,
        t + copy_cycles,
        am,
        dram,
        an.miss_ratio,
        an.shmem_ratio,
        eff,
        it,
        mwp,
        cwp,
        n,
        copy_cycles,
        sat,
        clipped,
        m.clock_ghz,
        an,
    )


def predict(
    sample: Profile,
    moves: Mapping[str, str] | None = None,
    *,
    variant: str = "full",
    overlap: OverlapModel | None = None,
    amat_form: str = "printed",
    mwp_bytes: str = "lookups",
    copy: str = "added",
) -> Prediction:
    """Predict a target placement's time from the sample's profile (§III-A, §IV; the
    design's pipeline).

    ``moves`` (array → space) are applied on top of the sample's placement; ``None``
    predicts the sample itself (its measured time is never an input). The target's trace
    is rewritten from the sample's (addresses, spaces, addressing) and analysed
    (replays, caches, banks, queues) on the profile's machine and readings; ``#inst``
    comes from :func:`instructions_per_warp` as the variant says; W_serial from the
    sample; T_comp, T_mem, T_overlap as the variant says; a move into shared memory adds
    its one-off copy, bytes / bandwidth [A19]. ``amat_form``, ``mwp_bytes`` and
    ``copy`` are the readings of :func:`evaluate`.
    """
    kind = VARIANTS[check_choice("variant", variant, tuple(VARIANTS))]["instructions"]
    check_kind("sample", sample, Profile, "a huang_li.model.Profile")
    if moves is not None:
        check_map("moves", moves, "str")
    placed = {**sample.moves, **(moves or {})}
    # the kept traffic if there is one; else the trace, built only then
    kept = _kept_traffic(sample.kernel, placed, sample.machine, sample.options)
    if kept is None:
        kept = sample.kernel.trace(placed)
    an = analyze(kept, sample.machine, **sample.options)
    return evaluate(
        an,
        variant=variant,
        inst_per_warp=instructions_per_warp(sample, an, kind),
        w_serial=sample.counters["w_serial"],
        overlap=overlap,
        machine=sample.machine,
        amat_form=amat_form,
        mwp_bytes=mwp_bytes,
        copy=copy,
    )

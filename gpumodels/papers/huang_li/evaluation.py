"""End-to-end evaluation of the Huang & Li model against the book's simulated reference
(§V, Figs. 5–9).

The model side only: this module reads the cached simulated reference
(``data/simulated/huang_li_reference.csv``) and the Algorithm 1 probe latencies measured
on the simulator (``data/simulated/huang_li_algorithm1.csv``) as data, exactly as the
paper read its K80 measurements, and never imports
:mod:`gpumodels.engines.refsim.simulator` (a test walks the imports).

What the model is given, per benchmark: the sample placement's trace (SASSI's role) and
its counters ``inst_executed`` / ``inst_issued`` (nvprof's); the address mapping
Algorithm 1 found from the probe latencies; and, for the 38 training placements only,
their times, to fit Eq. 11. Each of the 22 evaluation placements is predicted from its
own benchmark's sample; the sample's own time is never an input to its prediction.

:func:`run` evaluates every variant of :data:`gpumodels.papers.huang_li.model.VARIANTS`,
refitting T_overlap for each (its target depends on the variant's T_comp and T_mem).
Errors are ``|predicted / reference − 1|``; :func:`bootstrap_ci` gives 95 % intervals
over placements.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pandas as pd

from gpumodels.engines.refsim.dram import DetectedMapping, detect_mapping
from gpumodels.engines.refsim.kernels import kernel, waves
from gpumodels.engines.refsim.placements import parse_moves, tests
from gpumodels.facts import published as pub
from gpumodels.ground.data import read_rows
from gpumodels.ground.diskcache import persistent
from gpumodels.ground.errors import DataError, UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_int,
    check_items,
    check_keys,
    check_real,
)
from gpumodels.papers.huang_li._checks import (
    check_kind,
    check_map,
    check_seed,
    check_str,
    float_array,
)
from gpumodels.papers.huang_li.analysis import (
    Analysis,
    Machine,
    analyze,
    forget_placement_traffic,
    k80,
    placement_traffic,
)
from gpumodels.papers.huang_li.book import implied_errors
from gpumodels.papers.huang_li.events import THRESHOLD, cosine_similarity
from gpumodels.papers.huang_li.model import (
    AMAT_FORMS,
    FEATURES,
    VARIANTS,
    OverlapModel,
    Prediction,
    Profile,
    amat,
    evaluate,
    instructions_from_counters,
    overlap_features,
    profile,
)
from gpumodels.papers.huang_li.queueing import bank_stats, kingman
from gpumodels.papers.huang_li.readings import READINGS, changed, resolve

REFERENCE = "simulated/huang_li_reference.csv"
ALGORITHM1 = "simulated/huang_li_algorithm1.csv"


@cache
def _ref_rows() -> dict[str, dict[str, str]]:
    return {r["test"]: r for r in read_rows(REFERENCE)}


def reference():
    """The simulated reference as a DataFrame (one row per placement test; times in ns,
    counters as totals)."""

    df = pd.DataFrame(list(_ref_rows().values()))
    for c in df.columns:
        if c not in ("set", "benchmark", "kernel", "test", "moves", "source"):
            df[c] = pd.to_numeric(df[c])
    return df


def reference_time_ns(test: str) -> float:
    """The simulated reference time of a placement test (ns)."""
    check_str("test", test)
    rows = _ref_rows()
    if test not in rows:
        raise UnknownNameError(
            f"test must be one of the simulated placements ({len(rows)}), got {test!r}"
        )
    return float(rows[test]["time_ns"])


@cache
def detected_mapping() -> DetectedMapping:
    """Algorithm 1 run on the probe latencies the simulator returned (a lookup oracle
    over the cached table)."""
    lat = {
        (int(r["addr0"]), int(r["addr1"])): float(r["latency_ns"])
        for r in read_rows(ALGORITHM1)
    }
    bits = [int(r["bit"]) for r in read_rows(ALGORITHM1)]
    base = int(read_rows(ALGORITHM1)[0]["base"])

    def oracle(a0: int, a1: int) -> float:
        return lat[(a0, a1)]

    return detect_mapping(oracle, bits, base_address=base)


def _sample_counters(benchmark: str) -> dict[str, float]:
    row = next(
        r
        for r in _ref_rows().values()
        if r["benchmark"] == benchmark
        and r["moves"] == ""
        and r["set"] in ("train", "eval")
    )
    n = float(row["n_warps"])
    return {
        "inst_executed": float(row["inst_executed"]) / n,
        "inst_issued": float(row["inst_issued"]) / n,
        "w_serial": 0.0,  # the simulator counts no serial cycles
    }


ANALYSIS_READINGS = ("rule", "mapping", "queue_form", "saturation", "service", "clock")
"""The readings of :data:`gpumodels.papers.huang_li.readings.READINGS` that change the
trace analysis (the others change only
:func:`~gpumodels.papers.huang_li.model.evaluate`): a change to one of them re-analyses
every placement (about 2 s, once its traffic is on disk)."""


def _analysis_key(readings: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((k, readings[k]) for k in ANALYSIS_READINGS)


def sample_profile(
    benchmark: str, readings: Mapping[str, str] | None = None
) -> Profile:
    """The sample placement's :class:`~gpumodels.papers.huang_li.model.Profile`: its
    trace, the simulator's instruction counters, and the Algorithm 1 mapping as the
    model's belief (by default; ``readings`` as in :func:`run`)."""
    check_str("benchmark", benchmark)
    return _sample_profile(benchmark, _analysis_key(resolve(readings)))


def placements() -> list[dict[str, str]]:
    """The placement rows :func:`run` predicts: the 38 training and the 22 evaluation
    placements of :func:`gpumodels.engines.refsim.placements.tests`, in that order."""
    return tests("train") + tests("eval")


@cache
def _setting(key: tuple[tuple[str, str], ...]) -> tuple[Machine, dict]:
    """The machine and the :func:`~gpumodels.papers.huang_li.analysis.analyze` options
    of an analysis key: what every profile and analysis under that key uses."""
    r = dict(key)
    mapping = (
        detected_mapping().as_map("algorithm1_on_refsim")
        if r["mapping"] == "algorithm1"
        else r["mapping"]
    )
    options = {
        "mapping": mapping,
        "rule": r["rule"],
        "queue_form": r["queue_form"],
        "saturation": r["saturation"],
        "service": r["service"],
    }
    return k80(r["clock"]), options


@cache
def _sample_profile(benchmark: str, key: tuple[tuple[str, str], ...]) -> Profile:
    machine, options = _setting(key)
    return profile(
        kernel(benchmark),
        counters=_sample_counters(benchmark),
        machine=machine,
        **options,
    )


@cache
@persistent
def _analysis(benchmark: str, moves: str, key: tuple[tuple[str, str], ...]) -> Analysis:
    """A placement's analysis under an analysis key; for ``moves=""``, the sample's,
    the same as its :func:`sample_profile`'s ``analysis``. It analyses the placement's
    traffic (no DRAM reading and not the clock changes it) as
    :func:`~gpumodels.papers.huang_li.analysis.placement_traffic` keeps it in memory
    and on disk: every process of a checkout asks for the same ones."""
    machine, options = _setting(key)
    traffic = placement_traffic(benchmark, parse_moves(moves))[options["rule"]]
    return analyze(traffic, machine, **options)


_DEFAULT_KEY = tuple(resolve().items())


_ZERO = OverlapModel(
    coef=np.zeros(len(FEATURES) + 1),
    r2=math.nan,
    lobo_error=math.nan,
    condition=math.nan,
    rank=0,
    zero_columns=(),
    n=0,
)


def _terms(
    test: Mapping[str, str],
    variant: str,
    overlap: OverlapModel | None,
    key: tuple[tuple[str, str], ...] = _DEFAULT_KEY,
) -> Prediction:
    r = dict(key)
    akey = _analysis_key(r)
    # the sample's profile without its trace: its counters and its analysis, which
    # _analysis keeps on disk
    counters = _sample_counters(test["benchmark"])
    sample = _analysis(test["benchmark"], "", akey)
    an = _analysis(test["benchmark"], test["moves"], akey)
    kind = VARIANTS[variant]["instructions"]
    return evaluate(
        an,
        variant=variant,
        inst_per_warp=instructions_from_counters(counters, sample, an, kind),
        w_serial=counters["w_serial"],
        overlap=overlap,
        machine=_setting(akey)[0],
        amat_form=r["amat_form"],
        mwp_bytes=r["mwp_bytes"],
        copy=r["copy"],
    )


def _readings_key(
    amat_form: str | None, readings: Mapping[str, str] | None
) -> tuple[tuple[str, str], ...]:
    """Every reading's option, ``amat_form`` folded in (``run``'s older argument;
    ``None``: the reading's, else the default). An explicit ``amat_form`` that differs
    from ``readings["amat_form"]`` is refused, the default ``"printed"`` included."""
    if amat_form is not None:
        check_choice("amat_form", amat_form, AMAT_FORMS)
    full = resolve(readings)
    if amat_form is None:
        return tuple(full.items())
    if readings is not None and readings.get("amat_form", amat_form) != amat_form:
        raise ValueError(
            "amat_form and readings['amat_form'] must agree where both are given, "
            f"got {amat_form!r} and {readings['amat_form']!r}"
        )
    full["amat_form"] = amat_form
    return tuple(full.items())


def fit_overlap(
    variant: str,
    amat_form: str | None = None,
    readings: Mapping[str, str] | None = None,
) -> OverlapModel:
    """Eq. 11 fitted for ``variant`` on the 38 training placements (target ``(T_comp +
    T_mem − T_ref)/T_mem``), under ``readings`` as in :func:`run`."""
    check_choice(
        "variant",
        variant,
        tuple(v for v in VARIANTS if VARIANTS[v]["overlap"] == "eq11"),
    )
    return _fit_overlap(variant, _readings_key(amat_form, readings))


@cache
@persistent
def _fit_overlap(variant: str, key: tuple[tuple[str, str], ...]) -> OverlapModel:
    x, y, g = [], [], []
    clock = k80(dict(key)["clock"]).clock_ghz
    for t in tests("train"):
        p = _terms(t, variant, _ZERO, key)
        if not (p.t_mem > 0 and math.isfinite(p.t_mem)):
            continue
        x.append(overlap_features(p.analysis))
        y.append(
            (
                p.t_comp
                + p.t_mem
                - (reference_time_ns(t["test"]) * clock - p.copy_cycles)
            )
            / p.t_mem
        )
        g.append(t["benchmark"])
    return OverlapModel.fit(np.array(x), np.array(y), groups=g)


@dataclass(frozen=True)
class Evaluation:
    """Predictions of every placement in every variant,
    with the fitted Eq. 11 per variant.

    ``table``: one row per (variant, placement test) with ``set``, ``benchmark``,
    ``test``, ``sample``, ``reference_ns``, ``predicted_ns``, ``ratio`` (predicted /
    reference), ``error`` (``|ratio − 1|``), the Eq. 1 terms in ns and whether T_overlap
    was clipped. ``overlap``: variant →
    :class:`~gpumodels.papers.huang_li.model.OverlapModel` (absent for ``sim2012``).
    ``readings``: the option of every reading of
    :data:`~gpumodels.papers.huang_li.readings.READINGS` the evaluation used (empty for
    an evaluation built by hand).
    """

    table: object
    overlap: Mapping[str, OverlapModel] = field(default_factory=dict)
    readings: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        check_kind("Evaluation.table", self.table, pd.DataFrame, "a pandas DataFrame")
        check_keys("Evaluation.table", self.table, ("variant", "set", "error"))
        check_map("Evaluation.readings", self.readings, "str")
        check_map("Evaluation.overlap", self.overlap)
        for k, v in self.overlap.items():
            check_kind(
                f"Evaluation.overlap[{k!r}]", v, OverlapModel, "a model.OverlapModel"
            )

    def errors(self, variant: str, set_: str = "eval") -> np.ndarray:
        check_choice("variant", variant, tuple(VARIANTS))
        check_choice("set_", set_, ("train", "eval"))
        t = self.table
        sel = (t["variant"] == variant) & (t["set"] == set_)
        return t.loc[sel, "error"].to_numpy()

    def mean_error(self, variant: str, set_: str = "eval") -> float:
        return float(self.errors(variant, set_).mean())


def run(
    amat_form: str | None = None, readings: Mapping[str, str] | None = None
) -> Evaluation:
    """Evaluate every variant on the 38 training and 22 evaluation placements (cached; a
    few seconds, about 2 s more for each new set of analysis readings).

    ``amat_form``: Eq. 5 as printed (every request pays hit_lat, shared ones too) or
    ``"weighted"`` (shared requests pay only shmem_lat) [A1]; ``None`` (the default)
    takes ``readings["amat_form"]`` or else ``"printed"``, and an explicit value that
    contradicts ``readings["amat_form"]`` is refused. ``readings``: any of the
    unprinted readings of :data:`gpumodels.papers.huang_li.readings.READINGS` by name
    (``{"mwp_bytes": "l2", "clock": "base"}``); the others keep their defaults. An
    unknown name or option is an error naming the known ones."""
    return _run(_readings_key(amat_form, readings))


@cache
@persistent
def _run(key: tuple[tuple[str, str], ...]) -> Evaluation:
    clock = k80(dict(key)["clock"]).clock_ghz
    rows, fits = [], {}
    for v in VARIANTS:
        ov = _fit_overlap(v, key) if VARIANTS[v]["overlap"] == "eq11" else None
        if ov is not None:
            fits[v] = ov
        for t in placements():
            p = _terms(t, v, ov, key)
            ref = reference_time_ns(t["test"])
            pred = p.t / clock
            rows.append(
                {
                    "variant": v,
                    "set": t["set"],
                    "benchmark": t["benchmark"],
                    "test": t["test"],
                    "sample": t["sample"] == "yes",
                    "moves": t["moves"],
                    "reference_ns": ref,
                    "predicted_ns": pred,
                    "ratio": pred / ref,
                    "error": abs(pred / ref - 1.0),
                    "T_comp_ns": p.t_comp / clock,
                    "T_mem_ns": p.t_mem / clock,
                    "T_overlap_ns": p.t_overlap / clock,
                    "inst_per_warp": p.inst_per_warp,
                    "dram_lat_cycles": p.dram_lat,
                    "clipped": p.clipped,
                    "saturated": p.saturated,
                }
            )
    return Evaluation(table=pd.DataFrame(rows), overlap=fits, readings=dict(key))


MAX_BOOT = 1_000_000
"""The most bootstrap resamples :func:`bootstrap_ci` and :func:`gains` draw."""


def _values(values) -> np.ndarray:
    return float_array("values", values)


def evaluation_or_default(ev: Evaluation | None = None) -> Evaluation:
    """``ev``, or the default :func:`run` if it is ``None``; ``InputTypeError`` naming
    ``ev`` for anything else (the check every function taking an evaluation makes)."""
    if ev is None:
        return run()
    return check_kind("ev", ev, Evaluation, "a huang_li.evaluation.Evaluation")


def bootstrap_ci(
    values, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``
    (resampling the values; seeded)."""
    x = _values(values)
    if x.ndim != 1 or x.size < 2 or not np.all(np.isfinite(x)):
        raise ValueError(f"values must be at least 2 finite numbers, got {x.size}")
    n_boot = check_int("n_boot", n_boot, 100, MAX_BOOT)
    level = check_real("level", level, 0.0, 1.0, lo_open=True)
    if level >= 1.0:
        raise ValueError(f"level must be a number in (0, 1), got {level}")
    rng = np.random.default_rng(check_seed("seed", seed))
    means = x[rng.integers(0, x.size, (n_boot, x.size))].mean(axis=1)
    lo = (1.0 - level) / 2.0
    return float(np.quantile(means, lo)), float(np.quantile(means, 1.0 - lo))


N_BOOT = 10_000
"""Resamples :func:`paired_bootstrap` draws by default (verdicts and gains)."""

BOOT_SEEDS = (0, 1, 2, 3, 4)
"""Seeds whose spread of an interval bound estimates the Monte Carlo error of
:func:`paired_bootstrap` (:func:`gains` and the verdicts report it)."""


def eval_errors(ev: Evaluation | None = None) -> pd.DataFrame:
    """The absolute error (%) of every variant on the 22 evaluation placements: one row
    per placement (indexed by ``test``) with its ``benchmark`` and one column per
    variant of :data:`~gpumodels.papers.huang_li.model.VARIANTS`. The one table the
    paired intervals of :func:`gains` and the verdicts are drawn from."""
    ev = evaluation_or_default(ev)
    check_keys("ev.table", ev.table, ("benchmark", "test"))
    t = ev.table[ev.table["set"] == "eval"]
    full = t[t["variant"] == "full"].set_index("test")
    out = pd.DataFrame({"benchmark": full["benchmark"]})
    for v in VARIANTS:
        e = t[t["variant"] == v].set_index("test")["error"]
        out[v] = 100.0 * e.reindex(out.index).to_numpy()
    if out[list(VARIANTS)].isna().to_numpy().any():
        raise DataError("every variant must predict every evaluation placement")
    return out


def paired_bootstrap(
    values,
    groups=None,
    n_boot: int = N_BOOT,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap intervals of the column means of ``values`` (placements ×
    quantities), every column resampled with the same draws (paired): ``(low, high)``,
    one entry per column.

    ``groups`` (one label per row, e.g. the benchmark): a cluster bootstrap that
    resamples the groups with replacement and takes all rows of each, the mean of a
    resample being that of all its rows; ``None`` resamples the rows themselves."""
    x = _values(values)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 1:
        raise ValueError(
            f"values must be 2 or more rows of numbers, got shape {x.shape}"
        )
    if not np.all(np.isfinite(x)):
        raise ValueError("values must be finite numbers")
    n_boot = check_int("n_boot", n_boot, 100, MAX_BOOT)
    level = check_real("level", level, 0.0, 1.0, lo_open=True)
    if level >= 1.0:
        raise ValueError(f"level must be a number in (0, 1), got {level}")
    rng = np.random.default_rng(check_seed("seed", seed))
    if groups is None:
        sums, counts = x, np.ones(x.shape[0])
    else:
        g = np.asarray(check_items("groups", groups, (str, int)), dtype=object)
        if g.shape != (x.shape[0],):
            raise ValueError(
                f"groups must give one label per row of values ({x.shape[0]}), "
                f"got {g.size}"
            )
        labels = list(dict.fromkeys(g.tolist()))
        if len(labels) < 2:
            raise ValueError(f"groups must hold at least 2 labels, got {len(labels)}")
        sums = np.array([x[g == lab].sum(axis=0) for lab in labels])
        counts = np.array([float(np.sum(g == lab)) for lab in labels])
    k = sums.shape[0]
    lo_q = (1.0 - level) / 2.0
    low, high = np.empty(x.shape[1]), np.empty(x.shape[1])
    step = max(1, 2_000_000 // (k * x.shape[1]))
    means = []
    for start in range(0, n_boot, step):
        idx = rng.integers(0, k, (min(step, n_boot - start), k))
        means.append(sums[idx].sum(axis=1) / counts[idx].sum(axis=1)[:, None])
    m = np.concatenate(means)
    low[:] = np.quantile(m, lo_q, axis=0)
    high[:] = np.quantile(m, 1.0 - lo_q, axis=0)
    return low, high


IMPLIED = {
    "full": "Our model (full)",
    "sim2012": "Sim et al. 2012",
    "baseline": "Baseline",
    "instr": "Baseline + instr.",
    "instr_queue_even": "Baseline + instr. + queuing (even)",
    "queue_mapped": "Baseline + queuing (mapping)",
}
"""Each variant's row in :func:`gpumodels.papers.huang_li.book.implied_errors` (the mean
error the printed gains imply)."""


def summary(ev: Evaluation | None = None, set_: str = "eval"):
    """Mean error per variant (%) with its 95 % interval over the placements of
    ``set_``, beside the mean error the paper's printed gains imply (derived,
    :func:`gpumodels.papers.huang_li.book.implied_errors`). The interval is
    :func:`paired_bootstrap`'s cluster bootstrap over the benchmarks (:data:`N_BOOT`
    resamples, seed 0), as in the verdicts."""

    check_choice("set_", set_, ("train", "eval"))
    ev = evaluation_or_default(ev)
    implied = implied_errors().set_index("variant")["implied mean |error| (%)"]
    check_keys("ev.table", ev.table, ("benchmark",))
    t = ev.table[(ev.table["set"] == set_) & (ev.table["variant"] == "full")]
    x = np.column_stack([ev.errors(v, set_) for v in VARIANTS])
    low, high = paired_bootstrap(x, t["benchmark"].to_numpy())
    rows = []
    for j, v in enumerate(VARIANTS):
        e = x[:, j]
        lo, hi = low[j], high[j]
        rows.append(
            {
                "variant": v,
                "label": VARIANTS[v]["label"],
                "placements": e.size,
                "mean error (%)": 100 * e.mean(),
                "95% CI low": 100 * lo,
                "95% CI high": 100 * hi,
                "paper: implied mean error (%), derived": float(implied[IMPLIED[v]]),
            }
        )
    return pd.DataFrame(rows)


def coverage():
    """Coverage of the counted placements per benchmark (the design notes' check before
    results): ranges of the simulated time, row-buffer hit ratio, issued instructions
    per warp and busiest-bank busy fraction."""
    ref = reference()
    ref = ref[ref["test"].isin([t["test"] for t in tests()])]
    dram = (ref["row_hits"] + ref["row_misses"] + ref["row_conflicts"]).clip(lower=1)
    ref = ref.assign(
        row_hit=ref["row_hits"] / dram,
        issued=ref["inst_issued"] / ref["n_warps"],
        t_us=ref["time_ns"] / 1e3,
    )
    return ref.groupby("benchmark", sort=False).agg(
        set=("set", "first"),
        placements=("test", "size"),
        t_min_us=("t_us", "min"),
        t_max_us=("t_us", "max"),
        row_hit_min=("row_hit", "min"),
        row_hit_max=("row_hit", "max"),
        issued_min=("issued", "min"),
        issued_max=("issued", "max"),
        busiest_bank=("bank_busy_max", "max"),
    )


LOADED = 0.6
"""The busiest-bank busy fraction above which issue 39 calls a kernel's memory system
loaded (its target: at least half of the 17 Table IV kernels)."""


def memory_load() -> pd.DataFrame:
    """How hard each Table IV kernel's sample placement drives the simulated memory:
    its launch in full waves of the 13 SMs
    (:func:`gpumodels.engines.refsim.kernels.waves`), the busiest DRAM bank's busy
    fraction, the DRAM traffic over the time as a fraction of the K80's pin bandwidth
    (``data/hardware.csv``), and whether the busy fraction exceeds :data:`LOADED`."""
    ref = reference()
    ref = ref[(ref["moves"] == "") & ref["set"].isin(["eval", "train"])]
    pin = k80().bandwidth_gbs
    dram_bytes = (ref["dram_reads"] + ref["dram_writes"]) * k80().request_bytes
    out = pd.DataFrame(
        {
            "benchmark": ref["benchmark"],
            "set": ref["set"],
            "warps": ref["n_warps"],
            "waves": [waves(b) for b in ref["benchmark"]],
            "busiest bank busy": ref["bank_busy_max"],
            "DRAM bandwidth used": dram_bytes / ref["time_ns"] / pin,
        }
    )
    out["loaded"] = out["busiest bank busy"] > LOADED
    return out.set_index("benchmark")


def latency_only_score(test: Mapping[str, str]) -> float:
    """A PORPLE-style score (Chen et al. 2014): each memory instruction's unloaded
    latency summed, no instruction counts, queues or overlap — ``mem_insts ×
    AMAT(constant DRAM latency)`` (cycles).

    ``test`` is a placement row of :func:`gpumodels.engines.refsim.placements.tests`
    (its ``benchmark`` and ``moves`` are read). The score always uses the default
    readings (:func:`gpumodels.papers.huang_li.readings.defaults`): the latency-only
    column of :func:`ranking` does not move with an evaluation's readings."""
    check_map("test", test)
    check_keys("test", test, ("benchmark", "moves"), "a row of placements.tests()")
    for key in ("benchmark", "moves"):
        check_str(f"test[{key!r}]", test[key])
    return _latency_only(test["benchmark"], test["moves"])


@cache
@persistent
def _latency_only(benchmark: str, moves: str) -> float:
    key = _analysis_key(resolve())
    an = _analysis(benchmark, moves, key)
    m = _setting(key)[0]
    return sum(an.mem_insts.values()) * amat(
        an.dram_lat["constant"], an.miss_ratio, m.hit_lat, m.shmem_lat, an.shmem_ratio
    )


def ranking(benchmark: str = "neuralnet", ev: Evaluation | None = None):
    """Fig. 6: the benchmark's placements ranked by the reference, the full model, Sim
    et al. 2012 and the latency-only (PORPLE-style) score, with Kendall's τ of each
    ranking against the reference (tied placements share the lower rank)."""
    from scipy.stats import kendalltau

    ev = evaluation_or_default(ev)
    check_str("benchmark", benchmark)
    t = ev.table
    rows = [r for r in tests() if r["benchmark"] == benchmark]
    if len(rows) < 2:
        raise ValueError(
            f"benchmark must have at least two counted placements, got {benchmark!r}"
        )
    df = pd.DataFrame({"test": [r["test"] for r in rows]})
    df["reference_ns"] = [reference_time_ns(r["test"]) for r in rows]
    for v in ("full", "sim2012"):
        sel = t[(t["variant"] == v) & (t["benchmark"] == benchmark)].set_index("test")
        df[f"{v}_ns"] = df["test"].map(sel["predicted_ns"])
    df["latency_only"] = [latency_only_score(r) for r in rows]
    taus = {
        c: float(kendalltau(df["reference_ns"], df[c]).statistic)
        for c in ("full_ns", "sim2012_ns", "latency_only")
    }
    for c in ("reference_ns", "full_ns", "sim2012_ns", "latency_only"):
        # ties share the lower rank; an unpredicted placement (saturation="nan") has
        # none
        rank = df[c].rank(method="min")
        df[f"rank {c.replace('_ns', '')}"] = rank.astype("Int64")
    return df, taus


EVENT_COUNTERS = (
    "inst_issued",
    "global_replays",
    "shared_replays",
    "constant_replays",
    "global_load_requests",
    "global_store_requests",
    "tex_requests",
    "tex_hits",
    "const_requests",
    "const_hits",
    "l2_read_requests",
    "l2_read_hits",
    "dram_reads",
    "dram_writes",
    "row_hits",
    "row_misses",
    "row_conflicts",
)
"""The simulator counters offered to §II-B's event selection."""


def event_selection(min_placements: int = 3, threshold: float | None = None):
    """§II-B's selection on the simulator's counters: per benchmark with at least
    ``min_placements`` placements, the cosine of each counter's vector with the time
    vector, and Pearson's r beside it."""

    min_placements = check_int("min_placements", min_placements, 2)
    th = THRESHOLD if threshold is None else check_real("threshold", threshold, -1, 1)
    ref = reference()
    ref = ref[ref["set"].isin(["train", "eval"])]
    out = []
    for b, g in ref.groupby("benchmark", sort=False):
        g = g.drop_duplicates(subset=["moves"])
        if len(g) < min_placements:
            continue
        tv = g["time_ns"].to_numpy()
        for c in EVENT_COUNTERS:
            ev = g[c].to_numpy(dtype=float)
            if not ev.any():
                continue
            cos = cosine_similarity(tv, ev)
            r = float(np.corrcoef(tv, ev)[0, 1]) if ev.std() > 0 else math.nan
            out.append(
                {
                    "benchmark": b,
                    "placements": len(g),
                    "event": c,
                    "cosine": cos,
                    "pearson": r,
                    "selected": cos > th,
                }
            )
    return pd.DataFrame(out)


LOG_COLUMNS = ("bank", "arrival_ns", "service_ns", "wait_ns")
"""The columns :func:`kingman_vs_log` reads from a DRAM log (one row per request)."""


def kingman_vs_log(log, min_requests: int = 20):
    """Kingman's per-bank mean wait from a DRAM log's own statistics, beside the wait
    the log records.

    ``log`` has one row per request with ``bank``, ``arrival_ns``, ``service_ns``,
    ``wait_ns`` (for instance the simulated reference's ``dram_log``). Per bank with at
    least ``min_requests``: Eq. 10's τ_a, c_a, τ_s, c_s and ρ from the log, Kingman's
    wait (NaN at ρ ≥ 1) and the logged mean wait, and their ratio. No fitting: the log's
    own statistics go into the standard formula.
    """
    check_keys("log", log, LOG_COLUMNS, "a DRAM log (a DataFrame or a mapping)")
    b = np.asarray(log["bank"])
    if b.ndim != 1 or (b.size and (b.dtype.kind not in "iu" or b.min() < 0)):
        raise DataError(
            "log['bank'] must be a column of non-negative integer bank ids, got "
            f"dtype {b.dtype} shape {b.shape}"
        )
    for c in LOG_COLUMNS[1:]:
        v = as_array(f"log[{c!r}]", log[c], 0.0)
        if v.shape != b.shape:
            raise DataError(
                f"log[{c!r}] must have one entry per request ({b.size}), got shape "
                f"{v.shape}"
            )
    min_requests = check_int("min_requests", min_requests, 0)
    a = np.asarray(log["arrival_ns"], dtype=float)
    order = np.lexsort((a, b))
    st = bank_stats(
        b[order], a[order], np.asarray(log["service_ns"], dtype=float)[order]
    )
    observed = pd.Series(np.asarray(log["wait_ns"], dtype=float)).groupby(b).mean()
    rows = []
    for i, bank in enumerate(st.bank):
        if st.n[i] < min_requests:
            continue
        rho = float(st.rho[i])
        w = (
            float(kingman(st.c_a[i], st.c_s[i], rho, st.tau_s[i]))
            if rho < 1
            else math.nan
        )
        obs = float(observed.loc[bank])
        rows.append(
            {
                "bank": int(bank),
                "requests": int(st.n[i]),
                "rho": rho,
                "c_a": float(st.c_a[i]),
                "c_s": float(st.c_s[i]),
                "tau_s_ns": float(st.tau_s[i]),
                "kingman_ns": w,
                "observed_ns": obs,
                "ratio": w / obs if obs > 0 and math.isfinite(w) else math.nan,
            }
        )
    return pd.DataFrame(rows)


GAINS = (
    ("hl17.s5a.vs_sim2012", "sim2012", "full", None),
    ("hl17.s5b.instr", "baseline", "instr", None),
    ("hl17.s5b.queue_even", "baseline", "instr_queue_even", None),
    ("hl17.s5b.addr_map", "instr_queue_even", "full", None),
    ("hl17.s5b.queue_alone", "baseline", "queue_mapped", None),
    ("hl17.s5b.others_on_queue", "queue_mapped", "full", None),
    ("hl17.s5b.both", "baseline", "full", None),
    ("hl17.s5a.gain.NN_C", "sim2012", "full", "NN_C"),
    ("hl17.s5a.gain.SCAN_2", "sim2012", "full", "SCAN_2"),
    ("hl17.s5a.gain.Reduction_2", "sim2012", "full", "Reduction_2"),
    ("hl17.s5b.diff.fft_1", "baseline", "instr", "fft_1"),
    ("hl17.s5b.diff.NN_S", "baseline", "instr", "NN_S"),
    ("hl17.s5b.diff.bfs_2", "baseline", "instr", "bfs_2"),
)
"""The printed gains of §V as tuples of published key, starting variant, final variant
and placement (``None`` for the mean over the 22 evaluation placements). A gain is read
as the drop in mean absolute error in percentage points [A16]."""


def gains(ev: Evaluation | None = None, n_boot: int = N_BOOT, seed: int = 0):
    """The book's gain for each printed one: ``error(from) − error(to)`` in percentage
    points, beside the printed value, and whether the signs agree. No tolerance: the
    paper's numbers come from a K80.

    Mean gains carry two 95 % intervals from :func:`paired_bootstrap` (``n_boot``
    resamples, ``seed``; every row shares the draws): the cluster bootstrap over the
    benchmarks of the 22 evaluation placements (``95% CI low`` / ``high``, the one the
    verdicts use) and, beside it, the bootstrap over placements (``placement CI low``
    / ``high``). Per-placement gains have none (NaN)."""

    n_boot = check_int("n_boot", n_boot, 100, MAX_BOOT)
    seed = check_seed("seed", seed)
    err = eval_errors(ev)
    mean_rows = [(a, b) for _, a, b, test in GAINS if test is None]
    d = np.column_stack([err[a] - err[b] for a, b in mean_rows])
    clo, chi = paired_bootstrap(d, err["benchmark"], n_boot=n_boot, seed=seed)
    plo, phi = paired_bootstrap(d, n_boot=n_boot, seed=seed)
    rows, j = [], 0
    for key, a, b, test in GAINS:
        if test is None:
            val = float(d[:, j].mean())
            ci = (float(clo[j]), float(chi[j]), float(plo[j]), float(phi[j]))
            j += 1
        else:
            val, ci = float(err.loc[test, a] - err.loc[test, b]), (math.nan,) * 4
        printed = pub.value(key)
        rows.append(
            {
                "published key": key,
                "from": VARIANTS[a]["label"],
                "to": VARIANTS[b]["label"],
                "placement": test or "mean of 22",
                "book gain (pp)": val,
                "95% CI low": ci[0],
                "95% CI high": ci[1],
                "placement CI low": ci[2],
                "placement CI high": ci[3],
                "printed gain (%)": printed,
                "same sign": "no change"
                if val == 0
                else ("yes" if (val > 0) == (printed > 0) else "no"),
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------
# sensitivity to the unprinted readings

SENSITIVITY = "simulated/huang_li_sensitivity.csv"
"""The cached sensitivity study (:func:`sensitivity`), written by
``tools/huang_li_sensitivity.py``."""

COMBINATIONS = "simulated/huang_li_combinations.csv"
"""The cached exhaustive search over every combination of the readings
(:func:`combinations`), written by ``tools/huang_li_sensitivity.py``."""

PAPER_TAU = 1.0
"""Kendall's τ the paper claims for the full model on Fig. 6 ("performance ranking based
on our model is consistent with that based on the measured performance": the same
order, τ = +1)."""

CRITERIA = ("error", "tau")
"""How :func:`favourable` ranks combinations of readings: ``"error"``, the full model's
headline error closest to the paper's 9.9 % (ties: τ closest to +1); ``"tau"``, the
Fig. 6 τ closest to +1 (ties: the error closest to 9.9 %)."""

SENSITIVITY_COLUMNS = (
    "reading",
    "label",
    "option",
    "readings",
    "placements",
    "unpredicted",
    "saturated",
    "mean_error_pct",
    "ci_low_pct",
    "ci_high_pct",
    "tau_full",
    "d_error_pp",
    "d_tau",
    "source",
)
"""The columns of :data:`SENSITIVITY` and of :func:`sensitivity`'s table."""

MODEL_READINGS = tuple(r.name for r in READINGS if r.name not in ANALYSIS_READINGS)
"""The readings of :data:`gpumodels.papers.huang_li.readings.READINGS` that change only
:func:`~gpumodels.papers.huang_li.model.evaluate` (a fraction of a second each once the
analysis under the other readings is cached)."""

COMBINATION_COLUMNS = (
    *(r.name for r in READINGS),
    "readings",
    "status",
    *SENSITIVITY_COLUMNS[4:11],  # placements … tau_full
    "source",
)
"""The columns of :data:`COMBINATIONS` and of :func:`combinations`'s table: one column
per reading (its option), ``readings`` (the non-default ones), ``status``
(``evaluated``, or ``skipped``: a placement would be left unpredicted), then the
:func:`headline` numbers."""


def headline(ev: Evaluation | None = None) -> dict[str, float]:
    """The numbers the sensitivity study follows: the full model's mean ``|error|``
    over the 22 evaluation placements (%, with its :func:`bootstrap_ci` 95 % interval
    at that function's defaults) and Kendall's τ of its Fig. 6 ranking of the neuralnet
    placements (:func:`ranking`).

    ``unpredicted`` counts evaluation placements with no prediction (a saturated queue
    under ``saturation="nan"``); the error is then the mean over the others. τ is NaN
    only when one of the ranked neuralnet placements is unpredicted. ``saturated``
    counts evaluation placements whose full-model queue saturates (ρ ≥ 1: capped
    under ``saturation="cap"``, unpredicted under ``"nan"``)."""
    ev = evaluation_or_default(ev)
    e = ev.errors("full")
    ok = e[np.isfinite(e)]
    lo, hi = bootstrap_ci(ok) if ok.size >= 2 else (math.nan, math.nan)
    _, taus = ranking("neuralnet", ev)
    t = ev.table
    sat = t.loc[(t["variant"] == "full") & (t["set"] == "eval"), "saturated"]
    return {
        "placements": int(e.size),
        "unpredicted": int(e.size - ok.size),
        "saturated": int(sat.sum()) if "saturated" in t else 0,
        "mean_error_pct": 100 * float(ok.mean()) if ok.size else math.nan,
        "ci_low_pct": 100 * lo,
        "ci_high_pct": 100 * hi,
        "tau_full": taus["full_ns"],
    }


def _score(row: Mapping, criterion: str) -> tuple[float, float]:
    err = abs(row["mean_error_pct"] - pub.value("hl17.s5a.mean_error"))
    tau = abs(row["tau_full"] - PAPER_TAU)
    err = err if math.isfinite(err) else math.inf
    tau = tau if math.isfinite(tau) else math.inf
    return (err, tau) if criterion == "error" else (tau, err)


def _eligible(row: Mapping) -> bool:
    return row["unpredicted"] == 0 and row.get("status", "evaluated") == "evaluated"


def _row(reading: str, label: str, option: str, readings: Mapping[str, str]) -> dict:
    h = headline(run(readings=readings))
    return {
        "reading": reading,
        "label": label,
        "option": option,
        "readings": _text(readings),
        **h,
    }


def _text(readings: Mapping[str, str]) -> str:
    return "; ".join(f"{k}={v}" for k, v in changed(readings).items())


def _product(names: tuple[str, ...]) -> list[dict[str, str]]:
    opts = [next(r for r in READINGS if r.name == n).options for n in names]
    return [dict(zip(names, c)) for c in itertools.product(*opts)]


def combinations() -> pd.DataFrame:
    """The exhaustive search (several minutes on two cores; the book reads the cached
    :func:`combination_table`): :func:`headline` under every combination of the options
    of every reading of :data:`~gpumodels.papers.huang_li.readings.READINGS`, one row
    each.

    Each combination of the :data:`ANALYSIS_READINGS` is analysed once and re-used for
    every combination of the :data:`MODEL_READINGS`. A combination with
    ``saturation="nan"`` is evaluated only when no evaluation placement's full-model
    queue saturates under its ``"cap"`` twin (the same analysis but for what a
    saturated queue returns); otherwise it would leave those placements unpredicted
    and is kept as a ``skipped`` row with that count as ``unpredicted`` and no
    numbers."""
    source = (
        "model under the named readings over the simulated reference "
        "(evaluation.combinations)"
    )
    nan = dict.fromkeys(("mean_error_pct", "ci_low_pct", "ci_high_pct", "tau_full"))
    rows, sat = [], {}
    keys = _product(ANALYSIS_READINGS)
    keys.sort(key=lambda a: a["saturation"] != "cap")  # every cap twin first
    for a in keys:
        twin = _analysis_key({**a, "saturation": "cap"})
        for m in _product(MODEL_READINGS):
            r = {**a, **m}
            full = {x.name: r[x.name] for x in READINGS}
            head = {"readings": _text(full)}
            if a["saturation"] != "cap" and sat[twin][0] > 0:
                n, size = sat[twin]
                h = {"placements": size, "unpredicted": n, "saturated": n, **nan}
                h = {k: math.nan if v is None else v for k, v in h.items()}
                rows.append({**full, **head, "status": "skipped", **h})
                continue
            h = headline(run(readings=full))
            if a["saturation"] == "cap":
                sat[twin] = (h["saturated"], h["placements"])
            rows.append({**full, **head, "status": "evaluated", **h})
        # this key's analyses are done: free their memory (the traffic stays)
        _analysis.cache_clear()
    forget_placement_traffic()  # the search is done: free the traffic too
    df = pd.DataFrame(rows)
    df["source"] = source
    return df[list(COMBINATION_COLUMNS)]


def combination_table() -> pd.DataFrame:
    """The cached :func:`combinations`
    (``data/simulated/huang_li_combinations.csv``)."""
    df = pd.DataFrame(read_rows(COMBINATIONS))
    if list(df.columns) != list(COMBINATION_COLUMNS):
        raise DataError(
            f"{COMBINATIONS} must have the columns {', '.join(COMBINATION_COLUMNS)}, "
            f"got {', '.join(df.columns)}"
        )
    n = len(READINGS) + 2
    for c in COMBINATION_COLUMNS[n:-1]:
        df[c] = pd.to_numeric(df[c])
    for c in ("placements", "unpredicted", "saturated"):
        df[c] = df[c].astype(int)
    df["readings"] = df["readings"].fillna("")
    return df


def top_combinations(criterion: str = "error", n: int = 5, table=None) -> pd.DataFrame:
    """The ``n`` combinations of the exhaustive search (``table``, by default the
    cached :func:`combination_table`) that most favour the paper by ``criterion`` (one
    of :data:`CRITERIA`), best first; only combinations with every placement predicted
    count. The first row is :func:`favourable`'s pick."""
    check_choice("criterion", criterion, CRITERIA)
    n = check_int("n", n, 1)
    df = combination_table() if table is None else table
    check_kind("table", df, pd.DataFrame, "a combination table (a pandas DataFrame)")
    check_keys("table", df, COMBINATION_COLUMNS[:-1], "a combination table")
    ok = [r for r in df.to_dict("records") if _eligible(r)]
    if not ok:
        raise ValueError(
            "table must have at least one evaluated row with every placement predicted"
        )
    ok.sort(key=lambda r: _score(r, criterion))
    return pd.DataFrame(ok[:n], columns=list(df.columns)).reset_index(drop=True)


def favourable(criterion: str = "error", table=None) -> dict[str, str]:
    """The combination of readings that most favours the paper among every combination
    of the exhaustive search (``table``, by default the cached
    :func:`combination_table`): by ``criterion`` (one of :data:`CRITERIA`), the
    combination whose full-model error is closest to the paper's 9.9 % (``"error"``)
    or whose Fig. 6 τ is closest to +1 (``"tau"``), the other as the tie-break;
    combinations that leave a placement unpredicted are not eligible. Returns the
    readings that differ from the defaults (empty: the defaults favour it most)."""
    best = top_combinations(criterion, 1, table).iloc[0]
    return changed({r.name: str(best[r.name]) for r in READINGS})


def sensitivity() -> pd.DataFrame:
    """The sensitivity study (tens of seconds; the book reads the cached
    :func:`sensitivity_table`): the full model's :func:`headline` under the defaults,
    under each alternative of each reading of
    :data:`~gpumodels.papers.huang_li.readings.READINGS` alone, and under the
    :func:`favourable` combination of each criterion of the cached exhaustive search
    (:func:`combination_table`; ``reading`` = ``combined``, ``option`` = the
    criterion), with the change from the default of each (``d_error_pp``,
    ``d_tau``)."""
    rows = [_row("default", "", "all defaults", {})]
    for r in READINGS:
        for opt in r.alternatives:
            rows.append(_row(r.name, r.label, opt, {r.name: opt}))
    for criterion in CRITERIA:
        rows.append(_row("combined", "", criterion, favourable(criterion)))
    base = rows[0]
    source = (
        "model under the named readings over the simulated reference "
        "(evaluation.sensitivity)"
    )
    for x in rows:
        x["d_error_pp"] = x["mean_error_pct"] - base["mean_error_pct"]
        x["d_tau"] = x["tau_full"] - base["tau_full"]
        x["source"] = source
    return pd.DataFrame(rows, columns=list(SENSITIVITY_COLUMNS))


def sensitivity_table() -> pd.DataFrame:
    """The cached :func:`sensitivity` (``data/simulated/huang_li_sensitivity.csv``)."""
    df = pd.DataFrame(read_rows(SENSITIVITY))
    if list(df.columns) != list(SENSITIVITY_COLUMNS):
        raise DataError(
            f"{SENSITIVITY} must have the columns {', '.join(SENSITIVITY_COLUMNS)}, "
            f"got {', '.join(df.columns)}"
        )
    for c in SENSITIVITY_COLUMNS[4:-1]:
        df[c] = pd.to_numeric(df[c])
    for c in ("placements", "unpredicted", "saturated"):
        df[c] = df[c].astype(int)
    return df


def parse_readings(text: str) -> dict[str, str]:
    """The readings of a ``readings`` cell (``"mwp_bytes=l2; clock=base"``; empty for
    the defaults), checked against
    :data:`~gpumodels.papers.huang_li.readings.READINGS`."""
    check_str("text", text)
    out = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        k, sep, v = part.partition("=")
        if not sep:
            raise ValueError(f"text must be 'name=option; ...', got {text!r}")
        out[k.strip()] = v.strip()
    resolve(out)
    return out

"""What the simulated reference confirms and contradicts of Huang & Li's §V, claim by
claim.

Every verdict is computed from an interval by :func:`verdict`, never typed. A claim
is either a *level* (the paper's number itself, e.g. the 9.9 % mean error of Fig. 5)
or a *bound* (a gain is positive, the full model beats the sum of two refinements,
a ranking is not perfect). :func:`table` gives one row per claim of Figs. 5–9 and the
headline errors; :func:`train_test` the training and test error of every fitted Eq.
11; :func:`arrival_cv` the analogue of §III-C3's c_a per kernel (the text beside Fig.
4) from DRAM logs the caller simulates (this module never runs the simulator).

Everything here is **simulated reference** against **printed** (or derived from
printed) values: the paper's numbers come from a Tesla K80, the book's from its own
simulator, so a verdict says whether the simulator's GPU behaves as the paper's
claim says, not whether the K80 results are right.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from gpumodels.facts import published as pub
from gpumodels.ground.errors import OutOfRangeError
from gpumodels.ground.validate import check_choice, check_int, check_real
from gpumodels.papers.huang_li import evaluation
from gpumodels.papers.huang_li._checks import (
    check_kind,
    check_map,
    check_seed,
    check_str,
    float_array,
)
from gpumodels.papers.huang_li.model import VARIANTS

RULES = ("level", ">", "<")
"""The verdict rules of :func:`verdict`: ``"level"`` (the claimed value itself),
``">"`` and ``"<"`` (the quantity lies above or below the claimed bound)."""

VERDICTS = ("confirmed", "contradicted", "inconclusive")
"""The three outcomes of :func:`verdict`."""


def _evaluation(ev) -> evaluation.Evaluation:
    """``ev``, or the default evaluation if it is None; ``InputTypeError`` naming ``ev``
    for anything else."""
    if ev is None:
        return evaluation.run()
    what = "a huang_li.evaluation.Evaluation"
    return check_kind("ev", ev, evaluation.Evaluation, what)


def verdict(low, high, rule: str, value) -> str:
    """The verdict on a claim from the interval ``[low, high]`` of the book's value.

    ``rule="level"`` (the paper claims the quantity *is* ``value``): confirmed if the
    interval contains ``value``, contradicted if it excludes it. ``rule=">"`` (the
    quantity exceeds ``value``; a positive gain is ``> 0``): confirmed if the whole
    interval lies above ``value``, contradicted if none of it does (``high ≤
    value``), inconclusive if it straddles ``value``. ``rule="<"`` is the mirror.
    """
    lo = check_real("low", low)
    hi = check_real("high", high)
    if hi < lo:
        raise OutOfRangeError(
            f"high must be at least low ({lo}) for an interval, got {hi}"
        )
    check_choice("rule", rule, RULES)
    v = check_real("value", value)
    if rule == "level":
        return "confirmed" if lo <= v <= hi else "contradicted"
    if rule == "<":
        lo, hi, v = -hi, -lo, -v
    if lo > v:
        return "confirmed"
    if hi <= v:
        return "contradicted"
    return "inconclusive"


_E = "evaluation placements"
CLAIMS = (
    (
        "Fig. 5: mean error of the full model (§V-A)",
        "hl17.s5a.mean_error",
        "level",
        ("error", "full"),
    ),
    (
        "Fig. 5: full model better than Sim et al. 2012 (§V-A)",
        "hl17.s5a.vs_sim2012",
        ">",
        ("gain", "sim2012", "full"),
    ),
    (
        "Fig. 7: instruction counting improves the baseline",
        "hl17.s5b.instr",
        ">",
        ("gain", "baseline", "instr"),
    ),
    (
        "Fig. 8: + queuing (even banks) improves the baseline",
        "hl17.s5b.queue_even",
        ">",
        ("gain", "baseline", "instr_queue_even"),
    ),
    (
        "Fig. 8: the address map improves the even-bank queue",
        "hl17.s5b.addr_map",
        ">",
        ("gain", "instr_queue_even", "full"),
    ),
    (
        "Fig. 9: the queue alone (address map) improves the baseline",
        "hl17.s5b.queue_alone",
        ">",
        ("gain", "baseline", "queue_mapped"),
    ),
    (
        "Fig. 9: the other techniques improve the queued model",
        "hl17.s5b.others_on_queue",
        ">",
        ("gain", "queue_mapped", "full"),
    ),
    (
        "§V-B: both techniques improve the baseline",
        "hl17.s5b.both",
        ">",
        ("gain", "baseline", "full"),
    ),
    (
        "§V-B: both beat the sum of each alone",
        "hl17.s5b.synergy",
        ">",
        ("synergy",),
    ),
    (
        "§V-B: the baseline is worse than Sim et al. 2012",
        "hl17.s5b.baseline_worse_than_sim",
        ">",
        ("gain", "sim2012", "baseline"),
    ),
    (
        "Fig. 6: the full model ranks the neuralnet placements as measured",
        None,
        "level",
        ("ranking", "full_ns"),
    ),
    (
        "Fig. 6: PORPLE (latency only) cannot rank them correctly",
        None,
        "<",
        ("ranking", "latency_only"),
    ),
)
"""The claims of :func:`table`: text, published key (``None`` where the paper prints
no number), rule of :func:`verdict` and what the book computes: the mean error of a
variant, a gain ``error(from) − error(to)``, the synergy ``gain(both) − gain(instr) −
gain(queue alone)``, or Kendall's τ of a neuralnet ranking against the reference."""


def _paper_value(key: str | None, rule: str) -> tuple[float, str]:
    """The paper's value of a claim and where it comes from."""
    v = pub.value
    if key is None:  # Fig. 6: ranks were printed in the lost figure only
        return 1.0, "text: a ranking 'consistent' with (or not) the measured one, τ = 1"
    both = v("hl17.s5b.both")
    if key == "hl17.s5b.synergy":
        a, b = v("hl17.s5b.instr"), v("hl17.s5b.queue_alone")
        return both - a - b, f"derived: {both:g} − ({a:g} + {b:g}), printed gains [A16]"
    if key == "hl17.s5b.baseline_worse_than_sim":
        s = v("hl17.s5a.vs_sim2012")
        return both - s, f"derived: {both:g} − {s:g}, printed gains [A16]"
    return v(key), f"printed ({key})"


def _tau(x, y) -> float:
    # rounded: scipy returns 1 - 1e-16 for a perfect ranking, which the "<" rule of
    # the PORPLE row would read as below 1
    return round(float(kendalltau(x, y).statistic), 12)


def leave_one_out_tau(reference, scores) -> tuple[float, float, float]:
    """Kendall's τ of ``scores`` against ``reference`` and its smallest and largest
    value with any one placement left out: ``(τ, low, high)``.

    The interval of the ranking claims in :func:`table`. A bootstrap over five
    placements is not used: its resamples often hold only two or three distinct
    placements, and its percentile interval then spans nearly all of [−1, 1]."""
    return _loo(float_array("reference", reference), float_array("scores", scores))


def _loo(r: np.ndarray, s: np.ndarray) -> tuple[float, float, float]:
    if r.ndim != 1 or r.shape != s.shape or r.size < 3:
        raise ValueError(
            "reference and scores must be 1-D, of one length and at least 3 long "
            f"(one left out leaves a pair), got shapes {r.shape} and {s.shape}"
        )
    if not (np.all(np.isfinite(r)) and np.all(np.isfinite(s))):
        raise ValueError("reference and scores must be finite numbers")
    if np.ptp(r) == 0 or np.ptp(s) == 0:
        raise ValueError("reference and scores must not be constant (τ undefined)")
    loo = []
    for i in range(r.size):
        keep = np.arange(r.size) != i
        if np.ptp(r[keep]) > 0 and np.ptp(s[keep]) > 0:
            loo.append(_tau(r[keep], s[keep]))
    tau = _tau(r, s)
    if not loo:
        return tau, tau, tau
    return tau, float(min(loo)), float(max(loo))


def table(ev=None, n_boot: int = 2000, seed: int = 0):
    """One row per claim of :data:`CLAIMS`: the paper's value and its source, the
    book's value on the simulated reference, the interval, the rule and the value it
    compares with (``bound``: the paper's value for a level, 0 for a gain, 1 for a
    ranking's τ) and the verdict :func:`verdict` computes from them. ``key`` is the
    published key (``fig6.full`` and ``fig6.latency_only`` for the rankings).

    Means, gains, the synergy and the baseline-vs-Sim difference are in percentage
    points with a paired bootstrap 95 % interval over the 22 evaluation placements
    (``n_boot`` resamples of the placements, shared by every row; seeded). The ranking
    rows give Kendall's τ over the five neuralnet placements with its range when any
    one placement is left out (:func:`leave_one_out_tau`)."""
    ev = _evaluation(ev)
    n_boot = check_int("n_boot", n_boot, 100, evaluation.MAX_BOOT)
    seed = check_seed("seed", seed)
    t = ev.table[ev.table["set"] == "eval"]
    err = {v: 100.0 * t[t["variant"] == v].set_index("test")["error"] for v in VARIANTS}
    tests = err["full"].index
    err = {v: e.loc[tests].to_numpy() for v, e in err.items()}
    idx = np.random.default_rng(seed).integers(0, tests.size, (n_boot, tests.size))
    rank, _ = evaluation.ranking("neuralnet", ev)
    rows = []
    for claim, key, rule, what in CLAIMS:
        paper, source = _paper_value(key, rule)
        bound = paper if rule == "level" else (0.0 if what[0] != "ranking" else 1.0)
        if what[0] == "ranking":
            ref = rank["reference_ns"].to_numpy()
            val, lo, hi = _loo(ref, rank[what[1]].to_numpy())
            unit, interval = "Kendall τ", "range, one of 5 placements left out"
        else:
            if what[0] == "error":
                d = err[what[1]]
            elif what[0] == "gain":
                d = err[what[1]] - err[what[2]]
            else:  # synergy: gain(both) - gain(instr) - gain(queue alone)
                b = err["baseline"]
                d = (b - err["full"]) - (b - err["instr"]) - (b - err["queue_mapped"])
            means = d[idx].mean(axis=1)
            val = float(d.mean())
            lo, hi = (float(q) for q in np.quantile(means, (0.025, 0.975)))
            unit = "%" if what[0] == "error" else "percentage points"
            interval = f"paired bootstrap 95 %, {tests.size} {_E}"
        rows.append(
            {
                "key": key or f"fig6.{what[1].removesuffix('_ns')}",
                "claim": claim,
                "paper": paper,
                "paper's value": source,
                "book (simulated reference)": val,
                "unit": unit,
                "low": lo,
                "high": hi,
                "interval": interval,
                "rule": rule,
                "bound": bound,
                "verdict": verdict(lo, hi, rule, bound),
            }
        )
    return pd.DataFrame(rows)


def train_test(ev=None):
    """Training and test error of every fitted Eq. 11, side by side: per variant with
    a fitted T_overlap, the mean ``|error|`` (%) over the 38 training and the 22
    evaluation placements with bootstrap 95 % intervals
    (:func:`~gpumodels.papers.huang_li.evaluation.bootstrap_ci`), the share of
    placements where T_overlap was clipped to ``[0, min(T_comp, T_mem)]``, the fit's R²
    on its training targets and its leave-one-benchmark-out error."""
    ev = _evaluation(ev)
    t = ev.table
    rows = []
    for v, fit in ev.overlap.items():
        row = {"variant": v, "label": VARIANTS[v]["label"]}
        for set_, name in (("train", "training"), ("eval", "test")):
            e = ev.errors(v, set_)
            lo, hi = evaluation.bootstrap_ci(e)
            sel = (t["variant"] == v) & (t["set"] == set_)
            row |= {
                f"{name} placements": int(e.size),
                f"{name} error (%)": 100 * float(e.mean()),
                f"{name} CI low": 100 * lo,
                f"{name} CI high": 100 * hi,
                f"{name} clipped (%)": 100 * float(t.loc[sel, "clipped"].mean()),
            }
        row |= {"R²": fit.r2, "leave-one-benchmark-out |error|": fit.lobo_error}
        rows.append(row)
    return pd.DataFrame(rows)


CA_KEY = "hl17.s3c3.ca."
"""Key prefix of §III-C3's printed mean c_a per kernel in
``data/published/huang_li.csv`` (``ca_sd.`` for the spread over the banks)."""


def arrival_cv(logs: Mapping[str, object], min_requests: int = 20):
    """§III-C3's c_a per kernel (the numbers printed beside Fig. 4), from DRAM logs.

    ``logs``: benchmark → DRAM log with one row per request (``bank``,
    ``arrival_ns``, ``service_ns``, ``wait_ns``; e.g. the simulated reference's
    ``dram_log``). Per benchmark: the banks with at least ``min_requests`` requests,
    the mean and standard deviation over them of Eq. 10's c_a (gaps between
    consecutive requests of one bank) and its range, beside the printed mean and
    standard deviation over GPGPU-Sim's 96 banks where the paper prints them (NaN
    otherwise)."""
    check_map("logs", logs)
    if not logs:
        raise ValueError("logs must name at least one benchmark, got an empty mapping")
    min_requests = check_int("min_requests", min_requests, 2)
    printed = set(pub.keys(CA_KEY)) | set(pub.keys(CA_KEY.replace("ca.", "ca_sd.")))
    rows = []
    for b, log in logs.items():
        check_str("logs key", b, empty=False)
        k = evaluation.kingman_vs_log(log, min_requests=min_requests)
        if k.empty:
            raise ValueError(
                f"logs[{b!r}] must have a bank with at least {min_requests} requests"
            )
        ca = k["c_a"].to_numpy()
        mean_key, sd_key = CA_KEY + b, CA_KEY.replace("ca.", "ca_sd.") + b
        rows.append(
            {
                "benchmark": b,
                "banks": int(ca.size),
                "requests": int(k["requests"].sum()),
                "c_a mean (simulated)": float(ca.mean()),
                "c_a sd (simulated)": float(ca.std(ddof=1)) if ca.size > 1 else 0.0,
                "c_a min": float(ca.min()),
                "c_a max": float(ca.max()),
                "paper: c_a mean (printed)": pub.value(mean_key)
                if mean_key in printed
                else math.nan,
                "paper: c_a sd (printed)": pub.value(sd_key)
                if sd_key in printed
                else math.nan,
            }
        )
    return pd.DataFrame(rows)

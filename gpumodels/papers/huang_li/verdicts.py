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
from gpumodels.ground.data import read_frame
from gpumodels.ground.errors import OutOfRangeError
from gpumodels.ground.validate import check_choice, check_int, check_real
from gpumodels.papers.huang_li import evaluation
from gpumodels.papers.huang_li._checks import (
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


def verdict(low, high, rule: str, value, tolerance=None) -> str:
    """The verdict on a claim from the interval ``[low, high]`` of the book's value.

    ``rule="level"`` (the paper claims the quantity *is* ``value``): confirmed if the
    interval contains ``value`` and its half-width ``(high − low) / 2`` is at most
    ``tolerance``, inconclusive if it contains ``value`` but is wider, contradicted
    if it excludes ``value``. ``tolerance`` defaults to ``|value|`` (an interval no
    wider than ``[0, 2·value]``); a wide interval that happens to contain the value
    confirms nothing. ``rule=">"`` (the quantity exceeds ``value``; a positive gain is
    ``> 0``): confirmed if the whole interval lies above ``value``, contradicted if
    none of it does (``high ≤ value``), inconclusive if it straddles ``value``.
    ``rule="<"`` is the mirror. ``tolerance`` is not used by ``>`` and ``<``.
    """
    lo = check_real("low", low)
    hi = check_real("high", high)
    if hi < lo:
        raise OutOfRangeError(
            f"high must be at least low ({lo}) for an interval, got {hi}"
        )
    check_choice("rule", rule, RULES)
    v = check_real("value", value)
    tol = abs(v) if tolerance is None else check_real("tolerance", tolerance, 0.0)
    if rule == "level":
        if not lo <= v <= hi:
            return "contradicted"
        return "confirmed" if (hi - lo) / 2.0 <= tol else "inconclusive"
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
        None,
    ),
    (
        "Fig. 5: full model better than Sim et al. 2012 (§V-A)",
        "hl17.s5a.vs_sim2012",
        ">",
        ("gain", "sim2012", "full"),
        None,
    ),
    (
        "Fig. 7: instruction counting improves the baseline",
        "hl17.s5b.instr",
        ">",
        ("gain", "baseline", "instr"),
        None,
    ),
    (
        "Fig. 8: + queuing (even banks) improves the baseline",
        "hl17.s5b.queue_even",
        ">",
        ("gain", "baseline", "instr_queue_even"),
        None,
    ),
    (
        "Fig. 8: the address map improves the even-bank queue",
        "hl17.s5b.addr_map",
        ">",
        ("gain", "instr_queue_even", "full"),
        None,
    ),
    (
        "Fig. 9: the queue alone (address map) improves the baseline",
        "hl17.s5b.queue_alone",
        ">",
        ("gain", "baseline", "queue_mapped"),
        None,
    ),
    (
        "Fig. 9: the other techniques improve the queued model",
        "hl17.s5b.others_on_queue",
        ">",
        ("gain", "queue_mapped", "full"),
        None,
    ),
    (
        "§V-B: both techniques improve the baseline",
        "hl17.s5b.both",
        ">",
        ("gain", "baseline", "full"),
        None,
    ),
    (
        "§V-B: both beat the sum of each alone",
        "hl17.s5b.synergy",
        ">",
        ("synergy",),
        None,
    ),
    (
        "§V-B: the baseline is worse than Sim et al. 2012",
        "hl17.s5b.baseline_worse_than_sim",
        ">",
        ("gain", "baseline", "sim2012"),  # error(baseline) − error(sim2012)
        None,
    ),
    (
        "Fig. 6: the full model ranks the neuralnet placements as measured",
        None,
        "level",
        ("ranking", "full_ns"),
        0.5,
    ),
    (
        "Fig. 6: PORPLE (latency only) cannot rank them correctly",
        None,
        "<",
        ("ranking", "latency_only"),
        None,
    ),
)
"""The claims of :func:`table`: text, published key (``None`` where the paper prints
no number), rule of :func:`verdict`, what the book computes (the mean error of a
variant, a gain ``error(from) − error(to)``, the synergy ``gain(both) − gain(instr) −
gain(queue alone)``, or Kendall's τ of a neuralnet ranking against the reference) and
the tolerance of a ``level`` claim (``None``: the paper's value itself, so Fig. 5's
9.9 % needs an interval no wider than 0 to 19.8 %; 0.5 for the τ of Fig. 6)."""


def _paper_value(key: str | None) -> tuple[float, str]:
    """The paper's value of a claim (its bound for a ranking) and where it comes
    from."""
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

    The *robustness range* of the ranking claims in :func:`table`: how far τ moves when
    one placement is dropped. It is not a confidence interval. A bootstrap interval is
    not used because with five placements it spans nearly all of [−1, 1] (its
    resamples often hold only two or three distinct placements): uninformative, and
    under the ``level`` rule of :func:`verdict` it would make the claim inconclusive
    whatever the ranking."""
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


NEAR_MARGIN = 0.05
"""Smallest distance (in the row's unit) between a verdict's deciding bound and its
threshold that :func:`table` trusts without a flag, on top of the bound's spread over
the seeds of :data:`~gpumodels.papers.huang_li.evaluation.BOOT_SEEDS`."""


def _deciding(lo: float, hi: float, bound: float) -> float:
    """The interval bound nearer ``bound``: the one whose move across it would change
    the verdict."""
    return lo if abs(lo - bound) <= abs(hi - bound) else hi


def table(ev=None, n_boot: int = evaluation.N_BOOT, seed: int = 0):
    """One row per claim of :data:`CLAIMS`: the paper's value and its source (``paper``
    holds the number the verdict uses, ``paper's value`` its text: "< 1" for PORPLE's
    τ), the book's value on the simulated reference, the interval, the rule and the
    value it compares with (``bound``: the paper's value for a level, 0 for a gain, 1
    for a ranking's τ), the ``tolerance`` of a level and the verdict :func:`verdict`
    computes from them. ``key`` is the published key (``fig6.full`` and
    ``fig6.latency_only`` for the rankings).

    Means, gains, the synergy and the baseline-vs-Sim difference are in percentage
    points. Their interval (``low``, ``high``) is the cluster bootstrap 95 % interval
    of :func:`~gpumodels.papers.huang_li.evaluation.paired_bootstrap` over the
    benchmarks of the 22 evaluation placements (``n_boot`` resamples, ``seed``, the
    draws shared by every row, as in
    :func:`~gpumodels.papers.huang_li.evaluation.gains`); ``placement low`` / ``high``
    give the bootstrap over placements beside it, for comparison only. ``near the
    threshold`` is ``yes`` where the deciding bound lies within Monte Carlo error of
    the threshold: closer than :data:`NEAR_MARGIN` plus the spread (max − min) of that
    bound over the seeds of :data:`~gpumodels.papers.huang_li.evaluation.BOOT_SEEDS`,
    or the verdict differs between those seeds. The ranking rows give Kendall's τ
    over the five neuralnet placements with its robustness range when any one
    placement is left out (:func:`leave_one_out_tau`; not a confidence interval)."""
    ev = evaluation.evaluation_or_default(ev)
    n_boot = check_int("n_boot", n_boot, 100, evaluation.MAX_BOOT)
    seed = check_seed("seed", seed)
    err = evaluation.eval_errors(ev)
    groups = err["benchmark"].to_numpy()
    cols, what_of = [], []
    for _, _, _, what, _ in CLAIMS:
        if what[0] == "error":
            cols.append(err[what[1]].to_numpy())
        elif what[0] == "gain":
            cols.append((err[what[1]] - err[what[2]]).to_numpy())
        elif what[0] == "synergy":  # gain(both) - gain(instr) - gain(queue alone)
            b = err["baseline"]
            d = (b - err["full"]) - (b - err["instr"]) - (b - err["queue_mapped"])
            cols.append(d.to_numpy())
        what_of.append(len(cols) - 1 if what[0] != "ranking" else None)
    x = np.column_stack(cols)
    clo, chi = evaluation.paired_bootstrap(x, groups, n_boot=n_boot, seed=seed)
    plo, phi = evaluation.paired_bootstrap(x, n_boot=n_boot, seed=seed)
    seeds = [evaluation.paired_bootstrap(x, groups, n_boot=n_boot, seed=s)
             for s in evaluation.BOOT_SEEDS]
    rank, _ = evaluation.ranking("neuralnet", ev)
    ref = rank["reference_ns"].to_numpy()
    rows = []
    for (claim, key, rule, what, tol), j in zip(CLAIMS, what_of, strict=True):
        paper, source = _paper_value(key)
        bound = paper if rule == "level" else (0.0 if what[0] != "ranking" else 1.0)
        if tol is None and rule == "level":
            tol = abs(paper)
        near = "no"
        if j is None:
            val, lo, hi = _loo(ref, rank[what[1]].to_numpy())
            plow = phigh = math.nan
            unit = "Kendall τ"
            interval = "robustness range, one of 5 placements left out"
        else:
            val = float(x[:, j].mean())
            lo, hi, plow, phigh = (float(a[j]) for a in (clo, chi, plo, phi))
            unit = "%" if what[0] == "error" else "percentage points"
            interval = (
                f"cluster bootstrap 95 %, {len(set(groups))} benchmarks of "
                f"{x.shape[0]} {_E}"
            )
            got = verdict(lo, hi, rule, bound, tol)
            dec = [_deciding(a[j], b[j], bound) for a, b in seeds]
            again = {verdict(a[j], b[j], rule, bound, tol) for a, b in seeds}
            spread = max(dec) - min(dec)
            here = _deciding(lo, hi, bound)
            if abs(here - bound) < NEAR_MARGIN + spread or again != {got}:
                near = "yes"
        if key is None and rule == "<":
            source = "text: PORPLE's ranking is not 'consistent' with the measured one"
        rows.append(
            {
                "key": key or f"fig6.{what[1].removesuffix('_ns')}",
                "claim": claim,
                "paper": paper,
                "paper's value": "< 1" if (key is None and rule == "<") else source,
                "source": source,
                "book (simulated reference)": val,
                "unit": unit,
                "low": lo,
                "high": hi,
                "interval": interval,
                "placement low": plow,
                "placement high": phigh,
                "rule": rule,
                "bound": bound,
                "tolerance": math.nan if tol is None else float(tol),
                "verdict": verdict(lo, hi, rule, bound, tol),
                "near the threshold": near,
            }
        )
    return pd.DataFrame(rows)


def train_test(ev=None):
    """Training and test error of every fitted Eq. 11, side by side: per variant with
    a fitted T_overlap, the mean ``|error|`` (%) over the 38 training and the 22
    evaluation placements with cluster-bootstrap 95 % intervals over benchmarks
    (:func:`~gpumodels.papers.huang_li.evaluation.paired_bootstrap`, as the verdicts),
    the share of placements where T_overlap was clipped to ``[0, min(T_comp,
    T_mem)]``, the fit's R² on its training targets and its leave-one-benchmark-out
    error."""
    ev = evaluation.evaluation_or_default(ev)
    t = ev.table
    rows = []
    for v, fit in ev.overlap.items():
        row = {"variant": v, "label": VARIANTS[v]["label"]}
        for set_, name in (("train", "training"), ("eval", "test")):
            sel = (t["variant"] == v) & (t["set"] == set_)
            e = t.loc[sel, "error"].to_numpy()
            lo, hi = evaluation.paired_bootstrap(e, groups=t.loc[sel, "benchmark"])
            row |= {
                f"{name} placements": int(e.size),
                f"{name} error (%)": 100 * float(e.mean()),
                f"{name} CI low": 100 * float(lo[0]),
                f"{name} CI high": 100 * float(hi[0]),
                f"{name} clipped (%)": 100 * float(t.loc[sel, "clipped"].mean()),
            }
        row |= {"R²": fit.r2, "leave-one-benchmark-out |error|": fit.lobo_error}
        rows.append(row)
    return pd.DataFrame(rows)


FLIPS = "simulated/huang_li_verdict_flips.csv"
"""The cached verdicts under the most favourable combinations of readings
(:func:`flips`), written by ``tools/huang_li_sensitivity.py``."""

FLIPS_TOP = 5
"""How many combinations per criterion :func:`flips` recomputes the verdicts under."""

FLIP_COLUMNS = ("criterion", "rank", "readings", "key", "claim", "verdict", "source")


def flips() -> pd.DataFrame:
    """The verdict of every claim (:func:`table`) under each of the
    :data:`FLIPS_TOP` combinations of readings that favour the paper most by each
    criterion of
    :data:`~gpumodels.papers.huang_li.evaluation.CRITERIA`
    (:func:`~gpumodels.papers.huang_li.evaluation.top_combinations` of the cached
    search): one row per criterion, rank and claim, with the combination's non-default
    ``readings`` and the claim's ``key``, ``claim`` and ``verdict``. Each combination
    is evaluated and bootstrapped (about a minute in a fresh process), so the book
    reads the cached :func:`flips_table`."""
    source = (
        "verdicts of the model under the named readings over the simulated reference "
        "(verdicts.flips)"
    )
    rows = []
    for criterion in evaluation.CRITERIA:
        top = evaluation.top_combinations(criterion, FLIPS_TOP)
        for rank, text in enumerate(top["readings"], start=1):
            ev = evaluation.run(readings=evaluation.parse_readings(text))
            for r in table(ev).to_dict("records"):
                rows.append(
                    {
                        "criterion": criterion,
                        "rank": rank,
                        "readings": text,
                        "key": r["key"],
                        "claim": r["claim"],
                        "verdict": r["verdict"],
                        "source": source,
                    }
                )
    return pd.DataFrame(rows, columns=list(FLIP_COLUMNS))


def flips_table() -> pd.DataFrame:
    """The cached :func:`flips` (``data/simulated/huang_li_verdict_flips.csv``; its
    schema fixes the columns, :data:`FLIP_COLUMNS`)."""
    df = read_frame(FLIPS)
    df["readings"] = df["readings"].fillna("")
    return df


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

"""Perez & Piccoli: the producers of the printed values the book re-derives
(the feature tables of §4 and the two claims that compare the measurements with the
theoretical ``P`` and ``B``).

Each producer returns ``{published key: computed value}``; :mod:`gpumodels.scoreboard`
collects :data:`PRODUCERS`.
"""

from __future__ import annotations

import itertools

from gpumodels.facts import hardware
from gpumodels.papers.perez_piccoli import model as perfparams


def perez_piccoli() -> dict[str, float]:
    """Tables 5 and 7 of Perez & Piccoli:
    every feature cell from the printed parameters."""
    return perfparams.printed_cells()


def measured_over_theory() -> dict[str, tuple[float, float]]:
    """``{gpu: (Cp_All-All / theoretical P, GMb_All-All / theoretical B)}`` (§4's
    formulas on the hardware table)."""
    return {
        g: (
            perfparams.measured(g).cp_aa / perfparams.theoretical_p(g),
            perfparams.measured(g).gmb_aa / perfparams.theoretical_b(g),
        )
        for g in perfparams.gpus()
    }


def section_4_claims() -> dict[str, float]:
    """§4's two claims about the measured All-All values, as their deciding quantities.

    * "Cp_All-All is closer to the theoretical computing power (P)": the smallest
      ``Cp_All-All / P`` over the three GPUs (the claim must hold for each);
    * "[GMb_All-All] is one magnitude lower than [B]": the largest ``GMb_All-All / B``
      (one order of magnitude lower means a ratio below 0.1 for every GPU).
    """
    r = measured_over_theory().values()
    return {
        "pp.s4.cp_aa_near_p": min(p for p, _ in r),
        "pp.s4.gmb_aa_order_below_b": max(b for _, b in r),
    }


def by_generation() -> list[str]:
    """The three GPUs from the oldest architecture to the newest (by compute
    capability in the hardware table: GTS 250, GTX 260, GTX 470)."""
    return sorted(
        perfparams.gpus(),
        key=lambda g: float(hardware.get_gpu(g).compute_capability),
    )


def feature_trend() -> dict[str, float]:
    """§4: "as in the new architectures not only P increases but N_PPipe and L_Pipe
    also": for each of the three features the smallest ratio newer / older over the
    successive generations (the claim holds when every step rises, i.e. the smallest
    ratio is above 1). Unrounded features from the measured tables."""
    gens = by_generation()
    f = [perfparams.measured(g).features() for g in gens]
    out = {}
    for name in ("p", "n_ppipe", "l_pipe"):
        v = [getattr(x, name) for x in f]
        out[f"pp.s4.{name}_increases"] = min(
            b / a for a, b in itertools.pairwise(v)
        )
    return out


#: §4's memory features and whether larger is better (only ``B``).
MEMORY_FEATURES = (
    ("b", True),
    ("n_min_bl", False),
    ("w_memory_bus", False),
    ("t_thread_delay", False),
)


def gtx470_memory() -> dict[str, float]:
    """§4: "If B is bigger the memory performance is better, the same is valid when
    N_MIN_Bl, W_Memory_Bus and T_Thread_Delay are lower. In the case of GTX 470 has
    better performance": for each feature the GTX 470's value over the best of the two
    other GPUs (the largest ``B``, the smallest of the others), so the GTX 470 is best
    when the ratio is above 1 for ``B`` and below 1 for the rest."""
    f = {g: perfparams.measured(g).features() for g in perfparams.gpus()}
    others = [g for g in f if g != "GTX470"]
    out = {}
    for name, larger in MEMORY_FEATURES:
        best = (max if larger else min)(getattr(f[g], name) for g in others)
        out[f"pp.s4.gtx470_best.{name}"] = getattr(f["GTX470"], name) / best
    return out


PRODUCERS = (
    perez_piccoli,
    section_4_claims,
    feature_trend,
    gtx470_memory,
)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`."""

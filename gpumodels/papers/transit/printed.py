"""Li et al. (2015): the producers of the printed values the book re-derives (§1 and §3)
and of §2.4's printed claims (the captions of Figs. 11–16 and the optimisation advice
of §2.4.1–2.4.4), read off the model on the C2075 in double precision.

Each producer returns ``{published key: computed value}``; :mod:`gpumodels.scoreboard`
collects :data:`PRODUCERS`.
"""

from __future__ import annotations

from gpumodels.facts import hardware, occupancy
from gpumodels.facts.param_sets import params
from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.validate import check_choice, check_text
from gpumodels.papers.transit.figures import LEVER_CASES
from gpumodels.papers.transit.machine import machine
from gpumodels.papers.transit.model import (
    DIRECTIONS,
    equilibrium,
    principles,
    raised,
)


def transit_li2015() -> dict[str, float]:
    """Li et al. (2015) §1 and §3: the machine points' abscissae and the GK110's cores
    and threads."""
    c2075 = hardware.get_gpu("C2075")
    k40 = hardware.get_gpu("K40")
    return {
        "li15.s3.k_delta_sp.C2075": occupancy.limits(
            c2075.compute_capability
        ).max_warps_per_sm
        * 32,
        "li15.s3.M_sp.C2075": c2075.cuda_cores_per_sm * params("Fermi").alu_lat,
        "li15.s3.cores_per_sm.C2075": c2075.cuda_cores_per_sm,
        "li15.s3.cores_per_sm.GTX690": hardware.get_gpu("GTX690").cuda_cores_per_sm,
        "li15.s1.cores.K40": k40.sm_count * k40.cuda_cores_per_sm,
        "li15.s1.threads.K40": k40.sm_count
        * occupancy.limits(k40.compute_capability).max_threads_per_sm,
    }


#: The machine states at which the book re-derives §2.4's advice, one per bound, on the
#: C2075 in double precision: ``{bound: (n threads/SM, Z instr/B)}``; ``None`` for the
#: capacity bound's ``Z`` stands for the machine's balance ``π_y/R`` and ``None`` for
#: ``n`` for the threads an SM holds (the book's choice of illustration: §2.4 draws its
#: figures without numbers).
ADVICE_STATES = {
    "thread": (500, 1.0),
    "memory": (None, 0.6),
    "computation": (None, 3.0),
    "capacity": (None, None),
}

#: The relative raise of one input used to read §2.4's advice off the model (1 %, as
#: :func:`gpumodels.papers.transit.model.directions` does).
ADVICE_FACTOR = 1.01

#: Figs. 11–16: each caption's claims about the MS and the CS throughput, as
#: ``(figure, system, direction)`` with direction ``"up"``, ``"down"`` or ``"same"``;
#: the figure's lever case is in :data:`gpumodels.papers.transit.figures.LEVER_CASES`.
#: A lever other than ``Z`` moves MS and CS throughput by the same ratio (CS = Z × MS),
#: so where a caption says both rise (Figs. 11, 14, 15) one row, the CS one, scores it.
CAPTION_CLAIMS = (
    ("Fig. 11", "cs", "up"),
    ("Fig. 12", "cs", "up"),
    ("Fig. 12", "ms", "down"),
    ("Fig. 13", "cs", "up"),
    ("Fig. 13", "ms", "same"),
    ("Fig. 14", "cs", "up"),
    ("Fig. 15", "cs", "up"),
    ("Fig. 16", "cs", "same"),
    ("Fig. 16", "ms", "same"),
)

#: §2.4's advice that restates a caption at the same machine state and with the same
#: lever: ``{(bound, input): caption key}``; scored once, as the caption's row.
RESTATED_ADVICE = {
    ("memory", "Z"): "li15.s2_4.fig13.cs_rises",
    ("computation", "M"): "li15.s2_4.fig15.cs_rises",
    ("computation", "Z"): "li15.s2_4.fig16.cs_unchanged",
}


def _dp_machine():
    return machine("C2075", "DP")


def lever_effects(cases=LEVER_CASES) -> dict[str, dict[str, float]]:
    """Figs. 11–16 on the C2075 in double precision: for each case of ``cases`` the
    MS and CS throughput after the lever over before (``{figure: {"ms": ratio, "cs":
    ratio, "bound_before": …, "bound_after": …}}``).

    CS throughput is ``Z × MS throughput`` (busy lanes), with the raised ``Z`` after a
    ``Z`` lever, as in :func:`gpumodels.papers.transit.figures.levers`.
    """
    m = _dp_machine()
    out: dict[str, dict] = {}
    if not isinstance(cases, (tuple, list)) or not all(
        isinstance(c, (tuple, list)) and len(c) == 6 for c in cases
    ):
        raise InputTypeError(
            "cases must be a list of (figure, story, n, Z, lever, factor) tuples like "
            f"LEVER_CASES, got {cases!r:.60}"
        )
    for name, _story, n, Z, lever, f in cases:
        p = m.inputs(n, Z)
        before = equilibrium(**p)
        after = equilibrium(**raised(**p, direction=lever, factor=f))
        out[name] = {
            "ms": after.ms_throughput / before.ms_throughput,
            "cs": after.cs_throughput / before.cs_throughput,
            "bound_before": before.bound,
            "bound_after": after.bound,
        }
    return out


def caption_key(figure: str, system: str, direction: str) -> str:
    """The published key of one caption claim of Figs. 11–16."""
    verbs = {"up": "rises", "down": "drops", "same": "unchanged"}
    check_text("figure", figure)
    check_choice("system", system, ("ms", "cs"))
    verb = verbs[check_choice("direction", direction, tuple(verbs))]
    return f"li15.s2_4.{figure.replace('Fig. ', 'fig')}.{system}_{verb}"


def lever_captions() -> dict[str, float]:
    """Figs. 11–16's captions: each claim about the MS or CS throughput after the
    figure's lever, as the ratio after / before (a rise is scored as a ratio above 1, a
    drop below 1, "keeps constant" / "the same" / "does not raise" as equal to 1)."""
    eff = lever_effects()
    return {
        caption_key(fig, system, d): eff[fig][system]
        for fig, system, d in CAPTION_CLAIMS
    }


def advice_state(bound: str) -> dict:
    """The model inputs of the book's state for ``bound`` (:data:`ADVICE_STATES`)."""
    m = _dp_machine()
    n, Z = ADVICE_STATES[check_choice("bound", bound, tuple(ADVICE_STATES))]
    return m.inputs(
        m.max_threads_per_sm if n is None else n, m.balance_Z if Z is None else Z
    )


def advice_gains(factor: float = ADVICE_FACTOR) -> dict[tuple[str, str], float]:
    """§2.4's advice read off the model: ``{(bound, input): relative CS gain}`` when
    that one input is raised by ``factor`` at the book's state for the bound, as an
    elasticity (CS after / before − 1, over ``factor − 1``)."""
    out = {}
    for bound in ADVICE_STATES:
        p = advice_state(bound)
        base = equilibrium(**p)
        if base.bound != bound:
            raise RuntimeError(f"the state for {bound!r} is {base.bound}-bound")
        for d in DIRECTIONS:
            new = equilibrium(**raised(**p, direction=d, factor=factor))
            out[(bound, d)] = (new.cs_throughput / base.cs_throughput - 1) / (
                factor - 1
            )
    return out


def advice() -> dict[str, float]:
    """§2.4.1–2.4.4: the CS gain (elasticity) of every (bound, input) pair the paper
    states (``paper_states == "stated"`` in ``data/transit/principles.csv``) except
    those that restate a figure's caption (:data:`RESTATED_ADVICE`, scored as the
    caption's row); the rows score a stated remedy as a gain above 0 and a stated
    non-remedy as a gain of 0."""
    gains = advice_gains()
    table = principles()
    stated = table[table.paper_states == "stated"]
    return {
        f"li15.s2_4.advice.{r.bound}.{r.direction}": gains[(r.bound, r.direction)]
        for r in stated.itertuples()
        if (r.bound, r.direction) not in RESTATED_ADVICE
    }


PRODUCERS = (transit_li2015, lever_captions, advice)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`."""

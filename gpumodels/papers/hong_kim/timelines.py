"""The seven execution scenarios of Hong & Kim's Figures 5–8, run on
:mod:`gpumodels.engines.sim`.

Each warp alternates computation periods and memory waiting periods. In the simulator a
computation period is one op on a unit ``"comp"`` that the SM executes one warp at a
time (latency = throughput⁻¹ = ``comp_p`` cycles) and a memory period is one op on a
unit ``"mem"`` with latency ``mem_l`` and at most MWP ops in flight (the memory system
serves MWP warps at once, first come first served). Every period depends on the warp's
previous one. The simulated totals are compared with the paper's Eqs. (1), (3) and (4);
the figures' period lengths are not printed, so the book picks round numbers with the
ratios the text describes (a computation period about a third of a memory period for
Cases 1–4; computation longer than memory for Case 5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from gpumodels.engines.mwp_cwp import (
    cycles_cwp_above_mwp,
    cycles_mwp_above_cwp,
    cycles_mwp_equals_n,
)
from gpumodels.engines.sim import SM, Op, Trace, Unit, simulate
from gpumodels.ground.validate import (
    check_choice,
    check_int,
    check_real,
    check_text,
    check_type,
)


@dataclass(frozen=True)
class Case:
    """One scenario of §3.2: warps, periods per warp, period lengths (cycles) and
    MWP."""

    number: int
    figure: str
    title: str
    n: int
    periods: int
    comp_p: float
    mem_l: float
    mwp: int
    equation: int

    def __post_init__(self):
        ctx = "Case"
        check_int("number", self.number, 1, context=ctx)
        check_text("figure", self.figure, ctx)
        check_text("title", self.title, ctx)
        check_int("n", self.n, 1, context=ctx)
        check_int("periods", self.periods, 1, context=ctx)
        check_real("comp_p", self.comp_p, 0.0, context=ctx, lo_open=True)
        check_real("mem_l", self.mem_l, 0.0, context=ctx, lo_open=True)
        check_int("mwp", self.mwp, 1, context=ctx)
        check_choice("equation", self.equation, (1, 3, 4))

    @property
    def comp_cycles(self) -> float:
        return self.comp_p * self.periods

    @property
    def mem_cycles(self) -> float:
        return self.mem_l * self.periods

    @property
    def cwp(self) -> float:
        """CWP by Eqs. (8) and (9), ``min((Mem_cycles + Comp_cycles) / Comp_cycles,
        N)``."""
        return min((self.mem_cycles + self.comp_cycles) / self.comp_cycles, self.n)

    def predicted(self) -> float:
        """The total that the case's equation (1, 3 or 4) predicts, in cycles."""
        if self.equation == 1:
            return cycles_cwp_above_mwp(
                self.mem_cycles, self.comp_cycles, self.n, self.mwp, self.periods
            )
        if self.equation == 3:
            return cycles_mwp_above_cwp(self.mem_l, self.comp_cycles, self.n)
        return cycles_mwp_equals_n(
            self.mem_cycles, self.comp_cycles, self.mwp, self.periods
        )


CASES: Mapping[int, Case] = MappingProxyType(
    {
        c.number: c
        for c in (
            Case(1, "5a", "CWP > MWP, 8 warps", 8, 1, 100, 300, 2, 1),
            Case(2, "5b", "CWP > MWP, 4 warps", 4, 2, 100, 300, 2, 1),
            Case(3, "6a", "MWP > CWP, 8 warps", 8, 1, 100, 300, 8, 3),
            Case(4, "6b", "MWP > CWP, 4 warps", 4, 2, 100, 300, 8, 3),
            Case(
                5, "7", "computation longer than memory, 8 warps", 8, 1, 300, 200, 8, 3
            ),
            Case(6, "8a", "MWP = N, 1 warp", 1, 2, 100, 300, 1, 4),
            Case(7, "8b", "MWP = N, 2 warps", 2, 2, 100, 300, 2, 4),
        )
    }
)
"""The seven cases of Figures 5–8 with the book's period lengths (cycles)."""


def case_sm(comp_p: float, mem_l: float, mwp: int) -> SM:
    """The simulated SM of §3.2: one computation at a time, MWP memory periods at a
    time."""
    comp_p = check_real("comp_p", comp_p, 0.0, lo_open=True)
    mem_l = check_real("mem_l", mem_l, 0.0, lo_open=True)
    mwp = check_int("mwp", mwp, 1)
    return SM(
        {"comp": Unit(comp_p, 1.0 / comp_p), "mem": Unit(mem_l, None, 1, mwp)},
        issue_per_scheduler=None,
    )


def case_program(periods: int) -> tuple[Op, ...]:
    """``periods`` pairs of (computation period, memory period), each depending on the
    previous."""
    periods = check_int("periods", periods, 1)
    return (
        Op("comp", "c", ("m",), "computation"),
        Op("mem", "m", ("c",), "memory"),
    ) * periods


@dataclass(frozen=True)
class CaseRun:
    """A simulated :class:`Case`: the trace, its total cycles and the equation's
    prediction."""

    case: Case
    trace: Trace
    total_cycles: float
    predicted: float

    def __post_init__(self):
        check_type("case", self.case, Case, "CaseRun")
        check_type("trace", self.trace, Trace, "CaseRun")
        check_real("total_cycles", self.total_cycles, 0.0, context="CaseRun")
        check_real("predicted", self.predicted, 0.0, context="CaseRun")


def run_case(case: int | Case) -> CaseRun:
    """Simulate one case of Figures 5–8 (simulated data) and evaluate its equation.

    >>> r = run_case(1)
    >>> r.total_cycles, r.predicted        # 4 memory periods + 2 computation periods
    (1400.0, 1400.0)
    """
    c = case if isinstance(case, Case) else CASES.get(check_int("case", case, 1, 7))
    tr = simulate(
        case_sm(c.comp_p, c.mem_l, c.mwp), case_program(c.periods), c.n, repeat=False
    )
    return CaseRun(c, tr, float(tr.warp_end.max()), c.predicted())


def period_counts(equation: int, n: float, periods: float, mwp: float = 1.0):
    """How many computation periods and memory waiting periods §3.2's Eq. (1) or
    Eq. (3) adds up, as a pair ``(computation, memory)``.

    Both equations are linear in the two period lengths, so each count is the equation
    evaluated with that period 1 cycle long and the other 0: Eq. (1),
    ``Mem_cycles × N/MWP + Comp_p × MWP``, counts ``periods × N/MWP`` memory periods
    and MWP computation periods; Eq. (3), ``Mem_p + Comp_cycles × N``, counts one
    memory period and ``periods × N`` computation periods. ``periods`` is the number of
    (computation, memory) pairs per warp, ``#Mem_insts`` of Eq. (2); ``mwp`` is used by
    Eq. (1) only.

    >>> period_counts(1, 8, 1, 2)     # Case 1: 2 computations and 4 memory periods
    (2.0, 4.0)
    >>> period_counts(3, 4, 2)        # Case 4: 8 computation periods and 1 memory
    (8.0, 1.0)
    """
    n = check_real("n", n, 1.0)
    periods = check_real("periods", periods, 1.0)
    if equation == 1:
        comp = cycles_cwp_above_mwp(0.0, periods, n, mwp, periods)
        mem = cycles_cwp_above_mwp(periods, 0.0, n, mwp, periods)
    elif equation == 3:
        comp = cycles_mwp_above_cwp(0.0, periods, n)
        mem = cycles_mwp_above_cwp(1.0, 0.0, n)
    else:
        raise ValueError(f"equation must be 1 or 3 (§3.2), got {equation!r}")
    return float(comp), float(mem)


def serial_share(
    n: float, periods: float, mwp: float, comp_p: float, mem_p: float
) -> float:
    """Eq. (4)'s total over the serialised sum of every warp's periods: ``(Mem_cycles
    + Comp_cycles + Comp_p × (MWP − 1)) / (N × (Mem_cycles + Comp_cycles))``, with
    ``Mem_cycles = periods × mem_p`` and ``Comp_cycles = periods × comp_p`` (§3.2.3,
    Cases 6-7). Eq. (4) holds when MWP = CWP = N, so ``mwp`` must equal ``n``.

    1 when one warp runs (Case 6, "the sum of the computation and memory waiting
    periods"); with two warps and MWP = 2 (Case 7) it is 1/2 plus ``comp_p / (2 ×
    periods × (mem_p + comp_p))``, "roughly the half".

    >>> serial_share(1, 2, 1, 100, 300), serial_share(2, 2, 2, 100, 300)
    (1.0, 0.5625)
    """
    n = check_real("n", n, 1.0)
    if check_real("mwp", mwp, 1.0) != n:
        raise ValueError(
            f"mwp must equal n: Eq. (4) is the total when MWP = CWP = N (§3.2.3), got "
            f"mwp = {mwp!r} and n = {n!r}"
        )
    periods = check_real("periods", periods, 1.0)
    comp_p = check_real("comp_p", comp_p, 0.0, lo_open=True)
    mem_p = check_real("mem_p", mem_p, 0.0)
    mem_cycles, comp_cycles = periods * mem_p, periods * comp_p
    total = cycles_mwp_equals_n(mem_cycles, comp_cycles, mwp, periods)
    return total / (n * (mem_cycles + comp_cycles))

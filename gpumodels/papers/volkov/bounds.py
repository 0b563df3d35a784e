"""Throughput and latency bounds on warp throughput (Volkov 2016, §3.5–3.8).

* :func:`throughput_bound` is the worksheet of Tables 3.2–3.4: every hardware throughput
  limit is turned into cycles of exclusive use per warp, and the largest total is the
  bound.
* :func:`latency_bound` is the longest path through a program execution graph (§3.7–3.8,
  Fig. 3.5): nodes are instructions, edges carry register-dependency latencies, ILP
  latencies (zero inside a dual-issued pair), barrier and termination (block
  replacement) latencies. :func:`program_graph` builds such a graph from an instruction
  listing such as Listing 3.5.

Together: ``warp throughput ≈ min(occupancy / latency bound, 1 / throughput bound)``
(§3.5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pandas as pd

from gpumodels.engines import sim
from gpumodels.facts import hardware
from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_flag,
    check_int,
    check_items,
    check_mapping,
    check_real,
    check_sequence,
    check_text,
    check_type,
    finite_result,
    out,
)

RESOURCES = ("cuda_cores", "sfu", "shared_banks", "memory", "issue")


# --------------------------------------------------------------------------------------
# Throughput bound (§3.6, Tables 3.2–3.4)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InstructionClass:
    """One row of an instruction mix (Table 3.2), counts per warp.

    ``resource`` is the functional unit it occupies: ``"cuda_cores"``, ``"sfu"``,
    ``"shared_banks"`` (``conflict_degree``-way bank conflicts) or ``"memory"``
    (``bytes`` transferred per instruction, e.g. 128 for a coalesced 32-bit access, 256
    for stride 2). ``dual_issued`` is how many of these instructions are dual-issued
    with another instruction (each such pair is one issue event); ``reissues`` is the
    number of extra issues per instruction (bank conflicts, divergence).
    """

    name: str
    count: float
    resource: str
    conflict_degree: float = 1.0
    bytes: float = 0.0
    dual_issued: float = 0.0
    reissues: float = 0.0

    def __post_init__(self):
        check_text("InstructionClass.name", self.name)
        if self.resource not in RESOURCES[:-1]:
            raise UnknownNameError(
                f"resource must be one of {RESOURCES[:-1]}, got {self.resource!r} "
                f"({self.name})"
            )
        check_real("count", self.count, 0.0, context=self.name)
        check_real("conflict_degree", self.conflict_degree, 1.0, context=self.name)
        check_real("bytes", self.bytes, 0.0, context=self.name)
        check_real("dual_issued", self.dual_issued, 0.0, self.count, context=self.name)
        check_real("reissues", self.reissues, 0.0, context=self.name)
        if self.resource == "memory" and self.bytes <= 0 and self.count > 0:
            raise ValueError(
                f"bytes must be > 0 for a memory instruction class ({self.name}), got "
                f"{self.bytes}"
            )


@dataclass(frozen=True)
class Limits:
    """Hardware throughput limits per SM (Table 3.3): units, banks, bytes per cycle,
    issues per cycle."""

    cuda_cores: float
    sfu: float
    shared_banks: float
    memory: float
    issue: float

    def __post_init__(self):
        for name in RESOURCES:
            check_real(name, getattr(self, name), 0.0, lo_open=True, context="Limits")


@dataclass(frozen=True)
class ThroughputBound:
    """The worksheet (Table 3.4): ``rows`` of
    (resource, used_by, cpi, per_warp, cycles).

    ``totals`` maps each resource to cycles of exclusive use per warp per SM; the
    largest is ``cycles_per_warp`` (the bound) and ``warps_per_cycle`` its reciprocal.
    """

    rows: tuple[dict, ...]
    totals: Mapping[str, float]
    tightest: str
    cycles_per_warp: float

    def __post_init__(self):
        ctx = "ThroughputBound"
        check_sequence("rows", self.rows, ctx)
        check_mapping("totals", self.totals, ctx)
        for k, v in self.totals.items():
            check_real(f"totals[{k!r}]", v, 0.0, context=ctx)
        check_choice("tightest", self.tightest, tuple(self.totals))
        check_real("cycles_per_warp", self.cycles_per_warp, 0.0, None, ctx, True)

    @property
    def warps_per_cycle(self) -> float:
        return 1.0 / self.cycles_per_warp

    def table(self):
        """The worksheet as a pandas DataFrame."""

        return pd.DataFrame(list(self.rows))


def throughput_bound(
    mix: Iterable[InstructionClass], limits: Limits
) -> ThroughputBound:
    """Bound on warp throughput from hardware throughput limits (Volkov 2016, §3.6,
    Table 3.4).

    Each instruction uses its resource exclusively for ``CPI`` cycles per SM: 32/cores
    for CUDA cores, 32/units for SFUs, ``conflict_degree``·32/banks for shared memory,
    bytes/(B per cycle) for the memory system. Issue is counted in issue events: single
    issues, dual-issued pairs and reissues, each 1/issue cycles. Returns all totals and
    the tightest.
    """
    check_type("limits", limits, Limits)
    mix = check_items("mix", mix, InstructionClass, allow_empty=False)
    rows: list[dict] = []
    totals = {r: 0.0 for r in RESOURCES}
    for ic in mix:
        if ic.resource == "cuda_cores":
            cpi = WARP_SIZE / limits.cuda_cores
        elif ic.resource == "sfu":
            cpi = WARP_SIZE / limits.sfu
        elif ic.resource == "shared_banks":
            cpi = ic.conflict_degree * WARP_SIZE / limits.shared_banks
        else:
            cpi = ic.bytes / limits.memory
        rows.append(
            {
                "resource": ic.resource,
                "used_by": ic.name,
                "cpi": cpi,
                "per_warp": ic.count,
                "cycles": cpi * ic.count,
            }
        )
        totals[ic.resource] += cpi * ic.count
    n_instr = sum(ic.count for ic in mix)
    pairs = sum(ic.dual_issued for ic in mix)
    if 2 * pairs > n_instr:
        raise ValueError(
            f"dual_issued pairs ({pairs}) need {2 * pairs} instructions but the mix "
            f"has {n_instr}"
        )
    reissues = sum(ic.count * ic.reissues for ic in mix)
    cpi = 1.0 / limits.issue
    for name, events in (
        ("Single issue", n_instr - 2 * pairs),
        ("Dual issue", pairs),
        ("Reissue", reissues),
    ):
        rows.append(
            {
                "resource": "issue",
                "used_by": name,
                "cpi": cpi,
                "per_warp": events,
                "cycles": cpi * events,
            }
        )
        totals["issue"] += cpi * events
    tightest = max(totals, key=totals.get)
    return ThroughputBound(tuple(rows), totals, tightest, totals[tightest])


def table_3_2_mix() -> list[InstructionClass]:
    """The sample instruction mix of Table 3.2 with the §3.6 dual-issue
    and reissue assumptions."""
    out = []
    for r in read_rows("volkov/table_3_2.csv"):
        out.append(
            InstructionClass(
                r["name"],
                float(r["count"]),
                r["resource"],
                float(r["conflict_degree"] or 1),
                float(r["bytes"] or 0),
                float(r["dual_issued"] or 0),
                float(r["reissues"] or 0),
            )
        )
    return out


def table_3_3_limits() -> Limits:
    """The sample (Maxwell) throughput limits of Table 3.3."""
    return Limits(
        **{r["limit"]: float(r["value"]) for r in read_rows("volkov/table_3_3.csv")}
    )


# --------------------------------------------------------------------------------------
# Latency bound (§3.7–3.8, Fig. 3.5)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Instruction:
    """One instruction of a listing: registers written (``dst``) and read (``srcs``) and
    its unit."""

    index: int
    opcode: str
    dst: tuple[str, ...] = ()
    srcs: tuple[str, ...] = ()
    unit: str = "alu"
    operands: str = ""

    def __post_init__(self):
        ctx = "Instruction"
        check_int("index", self.index, 0, context=ctx)
        check_text("opcode", self.opcode, ctx)
        for name in ("dst", "srcs"):
            regs = check_sequence(name, getattr(self, name), ctx)
            for r in regs:
                check_text(f"{name} entries", r, ctx)
        check_text("unit", self.unit, ctx)
        check_text("operands", self.operands, ctx)

    @property
    def text(self) -> str:
        return f"{self.opcode} {self.operands}".strip()


@dataclass
class ProgramGraph:
    """A program execution graph: named nodes and latency-weighted directed edges
    (a DAG).

    ``edges`` holds ``(u, v, latency, kind)`` with ``kind`` one of ``"ilp"``,
    ``"dependency"``, ``"barrier"`` or ``"termination"``.
    """

    nodes: list[str] = field(default_factory=list)
    edges: list[tuple[str, str, float, str]] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)

    def __post_init__(self):
        check_type("nodes", self.nodes, list, "ProgramGraph")
        check_type("edges", self.edges, list, "ProgramGraph")
        check_mapping("labels", self.labels, "ProgramGraph")

    def add_node(self, name: str, label: str = "") -> str:
        if name in self.labels:
            raise ValueError(f"node {name!r} already exists")
        self.nodes.append(name)
        self.labels[name] = label or name
        return name

    def add_edge(
        self, u: str, v: str, latency: float, kind: str = "dependency"
    ) -> None:
        for x in (u, v):
            if x not in self.labels:
                raise ValueError(f"edge {u!r} -> {v!r}: unknown node {x!r}")
        check_real("latency", latency, 0.0, context=f"edge {u} -> {v}")
        self.edges.append((u, v, float(latency), kind))


@dataclass(frozen=True)
class LatencyBound:
    """Longest path through a program graph: its ``length`` (cycles), ``path`` (node
    names) and the earliest start time of every node (``issue``), e.g. the issue cycles
    of Listing 3.1."""

    length: float
    path: tuple[str, ...]
    issue: Mapping[str, float]

    def __post_init__(self):
        check_real("length", self.length, 0.0, context="LatencyBound")
        check_sequence("path", self.path, "LatencyBound")
        check_mapping("issue", self.issue, "LatencyBound")
        for k, v in self.issue.items():
            check_real(f"issue[{k!r}]", v, 0.0, context="LatencyBound")


def latency_bound(graph: ProgramGraph) -> LatencyBound:
    """Lower bound on warp latency: the longest path through ``graph`` (§3.7–3.8).

    Earliest start times are propagated in topological order (Kahn's algorithm); a cycle
    in the graph raises ``ValueError``.
    """
    check_type("graph", graph, ProgramGraph)
    if not graph.nodes:
        raise ValueError("graph must have at least one node")
    succ: dict[str, list[tuple[str, float]]] = {v: [] for v in graph.nodes}
    indeg = {v: 0 for v in graph.nodes}
    for u, v, lat, _ in graph.edges:
        succ[u].append((v, lat))
        indeg[v] += 1
    t = {v: 0.0 for v in graph.nodes}
    pred: dict[str, str | None] = {v: None for v in graph.nodes}
    ready = [v for v in graph.nodes if indeg[v] == 0]
    seen = 0
    while ready:
        u = ready.pop(0)
        seen += 1
        for v, lat in succ[u]:
            if pred[v] is None or t[u] + lat > t[v]:
                t[v], pred[v] = t[u] + lat, u
            indeg[v] -= 1
            if indeg[v] == 0:
                ready.append(v)
    if seen != len(graph.nodes):
        raise ValueError("graph has a cycle; a program execution graph must be acyclic")
    end = max(graph.nodes, key=lambda v: (t[v], -graph.nodes.index(v)))
    path = [end]
    while pred[path[-1]] is not None:
        path.append(pred[path[-1]])
    return LatencyBound(t[end], tuple(reversed(path)), dict(t))


def default_can_pair(first: Instruction, second: Instruction) -> bool:
    """Volkov's §3.8 pairing rule: independent neighbours pair, except two loads."""
    check_type("first", first, Instruction)
    check_type("second", second, Instruction)
    if set(second.srcs) & set(first.dst):
        return False
    return not (first.unit == "load" and second.unit == "load")


def _program(program) -> list[Instruction]:
    """``program`` as a list of :class:`Instruction`; ``InputTypeError`` naming
    ``program`` unless it is a list or tuple of them."""
    check_sequence("program", program)
    for ins in program:
        check_type("program entries", ins, Instruction)
    return list(program)


def _check_can_pair(can_pair) -> None:
    if can_pair is not None and not callable(can_pair):
        raise InputTypeError(
            "can_pair must be a function of two Instructions or None, got "
            f"{type(can_pair).__name__} {can_pair!r:.40}"
        )


def dual_issue_groups(
    program: Sequence[Instruction],
    can_pair: Callable[[Instruction, Instruction], bool] | None = default_can_pair,
) -> list[tuple[int, ...]]:
    """Issue groups in program order: greedy pairing of neighbours by ``can_pair``.

    ``can_pair=None`` gives single issue only. For Listing 3.5 the rule yields the four
    pairs of §3.8 (MOV+S2R, ISCADD+ISCADD, LD+ISCADD, ST+EXIT).
    """
    program = _program(program)
    _check_can_pair(can_pair)
    groups, i = [], 0
    while i < len(program):
        if (
            can_pair is not None
            and i + 1 < len(program)
            and can_pair(program[i], program[i + 1])
        ):
            groups.append((i, i + 1))
            i += 2
        else:
            groups.append((i,))
            i += 1
    return groups


def program_graph(
    program: Sequence[Instruction],
    dependency_latency: Mapping[str, float],
    ilp_latency: float,
    *,
    dual_issue: bool = True,
    can_pair: Callable[[Instruction, Instruction], bool] | None = default_can_pair,
    termination_latency: float | None = None,
) -> ProgramGraph:
    """Build the program execution graph of one warp (§3.8, Fig. 3.5) from a listing.

    * ILP edges join consecutive instructions with ``ilp_latency`` (0 inside a
      dual-issued pair);
    * dependency edges join each instruction to the latest earlier writer of every
      register it reads, with the producer unit's latency from ``dependency_latency``
      (e.g. ``{"load": 301, "alu": 9}``);
    * if ``termination_latency`` is given, an ``END`` node follows the last instruction
      with that latency (the block replacement latency of §3.7).
    """
    program = _program(program)
    if not program:
        raise ValueError("program must contain at least one instruction")
    check_mapping("dependency_latency", dependency_latency)
    _check_can_pair(can_pair)
    check_real("ilp_latency", ilp_latency, 0.0)
    dual_issue = check_flag("dual_issue", dual_issue)
    g = ProgramGraph()
    names = [g.add_node(f"i{k}", ins.text) for k, ins in enumerate(program)]
    groups = dual_issue_groups(program, can_pair if dual_issue else None)
    paired = {grp[1] for grp in groups if len(grp) == 2}
    for k in range(1, len(program)):
        g.add_edge(names[k - 1], names[k], 0.0 if k in paired else ilp_latency, "ilp")
    last_writer: dict[str, int] = {}
    for k, ins in enumerate(program):
        for r in dict.fromkeys(ins.srcs):
            if r in last_writer:
                prod = program[last_writer[r]]
                if prod.unit not in dependency_latency:
                    raise ValueError(
                        f"dependency_latency has no entry for unit {prod.unit!r} "
                        f"(instruction {last_writer[r]}: {prod.text})"
                    )
                g.add_edge(
                    names[last_writer[r]],
                    names[k],
                    dependency_latency[prod.unit],
                    "dependency",
                )
        for r in ins.dst:
            last_writer[r] = k
    if termination_latency is not None:
        g.add_node("END", "warp terminated, block replaced")
        g.add_edge(names[-1], "END", termination_latency, "termination")
    return g


def barrier_graph(
    warps: Sequence[Sequence[tuple[str, float | None]]],
    barrier: str = "BAR",
    barrier_latency: float = 0.0,
) -> ProgramGraph:
    """Graph of several warps that meet at a barrier (§3.7, Listing 3.3).

    Each warp is a list of ``(instruction text, latency to the next instruction)``; the
    first instruction whose text starts with ``barrier`` is the barrier. All warps'
    barriers feed one join node; the instruction after each barrier starts
    ``barrier_latency`` after the last arrival. The latency given on a barrier row
    itself is ignored in favour of ``barrier_latency``.
    """
    check_text("barrier", barrier)
    check_sequence("warps", warps)
    for instrs in warps:
        check_sequence("warps entries", instrs)
        for row in instrs:
            if not (
                isinstance(row, (tuple, list))
                and len(row) == 2
                and isinstance(row[0], str)
            ):
                raise InputTypeError(
                    "warps must hold lists of (instruction text, latency) pairs, got "
                    f"{type(row).__name__} {row!r:.40}"
                )
    g = ProgramGraph()
    g.add_node("join", "barrier released")
    for w, instrs in enumerate(warps):
        prev, prev_lat, after_barrier = None, None, False
        for k, (text, lat) in enumerate(instrs):
            name = g.add_node(f"w{w}.i{k}", text)
            if prev is not None:
                if after_barrier:
                    g.add_edge("join", name, barrier_latency, "barrier")
                    after_barrier = False
                else:
                    g.add_edge(prev, name, prev_lat, "ilp")
            if text.startswith(barrier):
                g.add_edge(name, "join", 0.0, "barrier")
                after_barrier = True
            prev, prev_lat = name, lat
    return g


@cache
def listing_3_5() -> tuple[Instruction, ...]:
    """Listing 3.5 (vector add, Kepler) from ``data/volkov/listing_3_5.csv``."""
    return tuple(
        Instruction(
            int(r["index"]),
            r["opcode"],
            tuple(x for x in r["dst"].split(";") if x),
            tuple(x for x in r["srcs"].split(";") if x),
            r["unit"],
            r["operands"],
        )
        for r in read_rows("volkov/listing_3_5.csv")
    )


def vector_add_parameters() -> dict[str, float]:
    """The §3.8 latencies and throughputs for the vector-add example
    (``data/volkov/s3_8_vector_add.csv``)."""
    return {
        r["quantity"]: float(r["value"])
        for r in read_rows("volkov/s3_8_vector_add.csv")
    }


def vector_add_graph(dual_issue: bool = True) -> ProgramGraph:
    """Fig. 3.5: the execution graph of Listing 3.5 with the §3.8 latencies,
    built from data."""
    dual_issue = check_flag("dual_issue", dual_issue)
    s = vector_add_parameters()
    return program_graph(
        listing_3_5(),
        {"load": s["load_latency"], "alu": s["alu_latency"], "store": s["alu_latency"]},
        s["ilp_latency"],
        dual_issue=dual_issue,
        termination_latency=s["block_replacement_latency"],
    )


def vector_add_throughput_bound() -> ThroughputBound:
    """§3.8's throughput bound for Listing 3.5 on the Kepler GPU, from the GPU record
    and §3.8 data.

    Nine CUDA-core instructions and three coalesced 128-byte accesses per warp, with the
    four dual-issued pairs of :func:`dual_issue_groups`; the memory system sustains the
    measured peak (154 GB/s) divided over the SMs and the clock.
    """

    s, k = vector_add_parameters(), hardware.get_gpu("Kepler")
    listing = listing_3_5()
    pairs = [g for g in dual_issue_groups(listing) if len(g) == 2]
    is_mem = [ins.unit in ("load", "store") for ins in listing]
    paired_mem = sum(is_mem[i] for g in pairs for i in g)
    n_mem = sum(is_mem)
    mix = [
        InstructionClass(
            "CUDA-core instructions",
            len(listing) - n_mem,
            "cuda_cores",
            dual_issued=len(pairs) - paired_mem,
        ),
        InstructionClass(
            "coalesced loads and stores",
            n_mem,
            "memory",
            bytes=s["bytes_per_warp"] / n_mem,
            dual_issued=paired_mem,
        ),
    ]
    limits = Limits(
        cuda_cores=k.cuda_cores_per_sm,
        sfu=k.sfu_per_sm,
        shared_banks=k.smem_banks,
        memory=s["peak_memory_throughput"] / (k.sm_count * k.clock_ghz),
        issue=k.warp_schedulers_per_sm,
    )
    return throughput_bound(mix, limits)


def listing_3_3() -> list[list[tuple[str, float | None]]]:
    """Listing 3.3 (barrier, Fermi) as two warps of (instruction, latency to next)."""
    warps: dict[int, list[tuple[str, float | None]]] = {}
    for r in read_rows("volkov/listing_3_3.csv"):
        lat = float(r["latency_to_next"]) if r["latency_to_next"] else None
        warps.setdefault(int(r["warp"]), []).append((r["opcode"], lat))
    return [warps[k] for k in sorted(warps)]


def warp_throughput(n, latency_bound: float, cycles_per_warp: float):
    """The §3.5 estimate ``min(n / latency bound, 1 / throughput bound)`` in warps per
    cycle per SM.

    ``n`` is occupancy (warps per SM, numpy arrays broadcast), ``latency_bound`` the
    bound on mean warp latency (cycles) and ``cycles_per_warp`` the throughput bound
    (cycles per warp).
    """
    n_ = as_array("n", n)
    L = check_real("latency_bound", latency_bound, 0.0, lo_open=True)
    T = check_real("cycles_per_warp", cycles_per_warp, 0.0, lo_open=True)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        res = np.minimum(n_ / L, 1.0 / T)
    return out(
        finite_result(
            "the warp throughput", res, n=n, latency_bound=L, cycles_per_warp=T
        )
    )


def table_3_1():
    """Table 3.1 inputs with the Little's-law product: needed concurrency = latency ×
    peak throughput."""

    df = pd.DataFrame(list(read_rows("volkov/table_3_1.csv")))
    df["latency"] = df["latency"].astype(float)
    df["peak_ipc"] = df["peak_ipc"].astype(float)
    df["needed_concurrency"] = df["latency"] * df["peak_ipc"]
    return df[["instruction", "latency", "peak_ipc", "needed_concurrency", "source"]]


def measured_metrics(table: str | None = None):
    """Volkov's measured Tables 6.1–6.4 (``data/volkov/chapter6_metrics.csv``) as
    a tidy DataFrame.

    These are *measurements printed in the dissertation*, not model output.
    """

    df = pd.DataFrame(list(read_rows("volkov/chapter6_metrics.csv")))
    df["value"] = df["value"].astype(float)
    if table is not None:
        check_choice("table", table, tuple(df["table"].unique()))
    return df if table is None else df[df["table"] == table].reset_index(drop=True)


def concurrency_example() -> dict[str, float]:
    """The toy machine of §4.6 / Fig. 4.7 (α, n, alu_lat, mem_lat, alu_thru;
    ``data/volkov/fig_4_7.csv``)."""
    return {r["quantity"]: float(r["value"]) for r in read_rows("volkov/fig_4_7.csv")}


def permutation_traffic():
    """Bytes per warp of the permutation kernel's three cases (§3.10)."""
    return {
        r["case"]: float(r["bytes_per_warp"])
        for r in read_rows("volkov/s3_10_permutation.csv")
    }


# --------------------------------------------------------------------------------------
# Little's law (§3.1–3.3) and the measured listings of §3.7
# --------------------------------------------------------------------------------------


def worked_example_inputs() -> dict[str, float]:
    """The inputs of the worked examples of §3.1–3.3 and a few later ones
    (``data/volkov/s3_examples.csv``)."""
    return {
        r["quantity"]: float(r["value"]) for r in read_rows("volkov/s3_examples.csv")
    }


def fig_3_2_trace(cycles: int = 400, latency: float = 10.0):
    """Fig. 3.2 on :mod:`gpumodels.engines.sim`: §3.3's warps
    (``worked_example_inputs``) each alternating a load and a dependent add of equal
    ``latency``, so each has one of either in execution half of the time.

    Returns the simulated :class:`gpumodels.engines.sim.Trace` of ``cycles`` cycles; any
    equal latency gives the same time shares.
    """

    lat = check_real("latency", latency, 0.0, lo_open=True)
    machine = sim.SM(
        {"alu": sim.Unit(lat), "mem": sim.Unit(lat)}, issue_per_scheduler=None
    )
    return sim.simulate(
        machine,
        sim.alpha_program(1),
        int(worked_example_inputs()["fig3_2_warps"]),
        cycles=cycles,
    )


def littles_law(latency=None, throughput=None, concurrency=None):
    """Little's law, ``concurrency = latency × throughput`` (Volkov 2016, §3.1), solved
    for the missing one.

    Exactly one of the three arguments must be ``None``; the other two must be positive
    (numpy arrays broadcast). Returns the missing quantity.

    >>> # §3.2: one add in execution, 6-cycle latency
    >>> littles_law(latency=6, concurrency=1)
    0.16666666666666666
    """
    given = {"latency": latency, "throughput": throughput, "concurrency": concurrency}
    missing = [k for k, v in given.items() if v is None]
    if len(missing) != 1:
        raise ValueError(
            "give exactly two of latency, throughput, concurrency; missing: "
            f"{missing or 'none'}"
        )
    v = {
        k: as_array(k, x, lo=0.0, lo_open=True)
        for k, x in given.items()
        if x is not None
    }
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        if missing[0] == "concurrency":
            res = v["latency"] * v["throughput"]
        elif missing[0] == "throughput":
            res = v["concurrency"] / v["latency"]
        else:
            res = v["concurrency"] / v["throughput"]
    return out(
        finite_result(
            missing[0], res, **{k: x for k, x in given.items() if x is not None}
        )
    )


def listing_3_1() -> tuple[list[Instruction], dict[str, float]]:
    """Listing 3.1 (Kepler): five back-to-back dependent instructions and their
    dependency latencies.

    Returns ``(program, latency by unit)`` for :func:`program_graph`; the issue times of
    :func:`latency_bound` on that graph are the listing's issue cycles (0, 301, 325,
    334, 343).
    """
    rows = list(read_rows("volkov/listing_3_1.csv"))
    prog = [
        Instruction(
            int(r["index"]),
            r["opcode"].split()[0],
            ("R1",) if r["unit"] != "store" else (),
            ("R1",),
            r["unit"],
            r["opcode"],
        )
        for r in rows
    ]
    return prog, {r["unit"]: float(r["latency"]) for r in rows if r["latency"]}


def listing_3_1_issue_cycles() -> list[float]:
    """Issue cycle of each instruction of Listing 3.1: the sum of the dependency
    latencies before it (§3.7)."""
    prog, lat = listing_3_1()
    lb = latency_bound(program_graph(prog, lat, 0, dual_issue=False))
    return [float(lb.issue[f"i{k}"]) for k in range(len(prog))]


def listing_3_2_gaps() -> dict[str, list[float]]:
    """Gaps between consecutive issue cycles in Listing 3.2 (Fermi; measured issue
    cycles, §3.7).

    Keys ``add``, ``store``, ``load``: the ILP latency of independent adds (6 cycles),
    stores (34 cycles) and loads (6, with 26 between the 3rd and 4th and 482 between the
    5th and 6th).
    """
    seqs: dict[str, list[tuple[int, float]]] = {}
    for r in read_rows("volkov/listing_3_2.csv"):
        seqs.setdefault(r["sequence"], []).append(
            (int(r["position"]), float(r["issue_cycle"]))
        )
    return {
        k: [float(b[1] - a[1]) for a, b in zip(sorted(v), sorted(v)[1:])]
        for k, v in seqs.items()
    }

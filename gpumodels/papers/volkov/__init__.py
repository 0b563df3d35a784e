"""Volkov (2016), *Understanding Latency Hiding on GPUs*: chapters 3–4 and §6.4–6.5.

The public names live here; the implementation is split into
``gpumodels.papers.volkov.synthetic`` (the α-workload model of §4.1–4.7 and the refined
memory-contention model of §6.4–6.5) and ``gpumodels.papers.volkov.bounds`` (the
throughput worksheet of Tables 3.2–3.4 and the program-execution-graph latency bound of
§3.7–3.8). Chapter 5's experimental method (occupancy tracking, occupancy control,
pointer-chase arrays) is in ``gpumodels.papers.volkov.experiment`` and chapter 6's
derived hardware parameters in ``gpumodels.papers.volkov.parameters``; import those
modules directly.

>>> from gpumodels import volkov
>>> p = volkov.params("Kepler")
>>> round(volkov.needed_occupancy(p, 0.0), 1)        # mem_lat × mem_thru = 301 × 0.1338
40.3
>>> volkov.arithmetic_throughput(p, 64, float("inf"))  # 32 × min(64/9, 4): the add peak
128.0
"""

PAPER = "Volkov 2016"
"""The paper, as the ``paper`` column of ``data/published/`` names it."""
PART = 2
"""Its part of the book (the scoreboard's order)."""
CHAPTER = "volkov_bounds"
"""The first chapter of its part."""


from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.param_sets import GENERATIONS, mix_params, params
from gpumodels.facts.params import Params
from gpumodels.papers.volkov.bounds import (
    Instruction,
    InstructionClass,
    LatencyBound,
    Limits,
    ProgramGraph,
    ThroughputBound,
    barrier_graph,
    concurrency_example,
    default_can_pair,
    dual_issue_groups,
    fig_3_2_trace,
    latency_bound,
    listing_3_1,
    listing_3_1_issue_cycles,
    listing_3_2_gaps,
    listing_3_3,
    listing_3_5,
    littles_law,
    measured_metrics,
    permutation_traffic,
    program_graph,
    table_3_1,
    table_3_2_mix,
    table_3_3_limits,
    throughput_bound,
    vector_add_graph,
    vector_add_parameters,
    vector_add_throughput_bound,
    warp_throughput,
    worked_example_inputs,
)
from gpumodels.papers.volkov.synthetic import (
    arithmetic_throughput,
    binding_limit,
    cusp_closed_form,
    cusp_exact,
    instruction_concurrency,
    latency,
    memory_throughput,
    needed_occupancy,
    refined_arithmetic_throughput,
    refined_latency,
    refined_memory_throughput,
    refined_needed_occupancy,
)
from gpumodels.papers.volkov.synthetic import (
    throughput_bound as memory_throughput_bound,
)

__all__ = [
    "GENERATIONS",
    "WARP_SIZE",
    "Instruction",
    "InstructionClass",
    "LatencyBound",
    "Limits",
    "Params",
    "ProgramGraph",
    "ThroughputBound",
    "arithmetic_throughput",
    "barrier_graph",
    "binding_limit",
    "concurrency_example",
    "cusp_closed_form",
    "cusp_exact",
    "default_can_pair",
    "dual_issue_groups",
    "fig_3_2_trace",
    "instruction_concurrency",
    "latency",
    "latency_bound",
    "listing_3_1",
    "listing_3_1_issue_cycles",
    "listing_3_2_gaps",
    "listing_3_3",
    "listing_3_5",
    "littles_law",
    "measured_metrics",
    "memory_throughput",
    "memory_throughput_bound",
    "mix_params",
    "needed_occupancy",
    "params",
    "permutation_traffic",
    "program_graph",
    "refined_arithmetic_throughput",
    "refined_latency",
    "refined_memory_throughput",
    "refined_needed_occupancy",
    "table_3_1",
    "table_3_2_mix",
    "table_3_3_limits",
    "throughput_bound",
    "vector_add_graph",
    "vector_add_parameters",
    "vector_add_throughput_bound",
    "warp_throughput",
    "worked_example_inputs",
]

"""Every unprinted reading of Huang & Li (2017) that the book's model depends on and can
switch, in one place.

The paper leaves choices open (the ambiguities [A1]–[A20] of the book's reading notes).
The book picks one option per choice (the *default*); :data:`READINGS` lists each with
its label, what the paper leaves open, the default, the alternatives and where in the
code it applies. :func:`gpumodels.papers.huang_li.evaluation.run` takes any combination
(``readings={"mwp_bytes": "l2"}``), and
:func:`gpumodels.papers.huang_li.evaluation.sensitivity` measures how far each
alternative moves the headline error and the Fig. 6 ranking, and
:func:`gpumodels.papers.huang_li.evaluation.combinations` does so for every combination
of the options. :data:`NOT_SWITCHED` lists the readings the code does not switch, with
the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import check_choice
from gpumodels.papers.huang_li._checks import check_map, check_str
from gpumodels.papers.huang_li.model import AMAT_FORMS, COPY, MWP_BYTES


@dataclass(frozen=True)
class Reading:
    """One unprinted choice, with its ``name`` (the key
    :func:`~gpumodels.papers.huang_li.evaluation.run` takes), the ambiguity ``label`` of
    the reading notes, the ``question`` the paper leaves open, the ``default`` option
    (the book's choice), the ``alternatives``, ``where`` the code applies it, and what
    each option means (``meaning``)."""

    name: str
    label: str
    question: str
    default: str
    alternatives: tuple[str, ...]
    where: str
    meaning: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        for k in ("name", "label", "question", "default", "where"):
            check_str(f"Reading.{k}", getattr(self, k))
        if not isinstance(self.alternatives, tuple) or not self.alternatives:
            raise ValueError(
                f"Reading.alternatives must be a non-empty tuple of options, got "
                f"{self.alternatives!r}"
            )
        for a in self.alternatives:
            check_str("Reading.alternatives item", a)
        if self.default in self.alternatives:
            raise ValueError(
                f"Reading.alternatives must not repeat the default {self.default!r}"
            )
        check_map("Reading.meaning", self.meaning, "str")
        check_choice("Reading.default", self.default, tuple(self.meaning))
        for a in self.alternatives:
            check_choice("Reading.alternatives item", a, tuple(self.meaning))

    @property
    def options(self) -> tuple[str, ...]:
        """Every option of the reading, the default first, then the alternatives."""
        return (self.default, *self.alternatives)


def _reading(name, label, question, where, meaning: dict[str, str]) -> Reading:
    opts = tuple(meaning)
    return Reading(name, label, question, opts[0], opts[1:], where, meaning)


READINGS: tuple[Reading, ...] = (
    _reading(
        "amat_form",
        "A1",
        "Eq. 5 adds hit_lat unweighted: do shared-memory requests pay it too?",
        "model.amat, via evaluate(amat_form=)",
        {
            AMAT_FORMS[0]: "as printed: every request pays hit_lat",
            AMAT_FORMS[1]: "shared requests pay only shmem_lat",
        },
    ),
    _reading(
        "queue_form",
        "A2",
        "Eq. 9 has no squares and τ_a where Kingman has τ_s",
        "queueing.bank_latency, via analyze(queue_form=)",
        {
            "kingman": "standard Kingman ((c_a²+c_s²)/2)·ρ/(1−ρ)·τ_s",
            "printed": "Eq. 9 as printed ((c_a+c_s)/2)·ρ/(1−ρ)·τ_a",
        },
    ),
    _reading(
        "service",
        "A3",
        "what a bank serves: the printed 352/742/1008 ns are end-to-end latencies",
        "analysis.analyze(service=)",
        {
            "occupancy": "bank busy times (GDDR5 timings) feed Kingman",
            "latency": "the printed latencies as service times",
        },
    ),
    _reading(
        "saturation",
        "A3",
        "what T is when a bank queue saturates (ρ ≥ 1)",
        "queueing.dram_latency, via analyze(saturation=)",
        {
            "cap": "wait capped by the closed-population bound",
            "nan": "flagged NaN: no prediction",
        },
    ),
    _reading(
        "rule",
        "A6",
        "replay rule (1) counts words per transaction, not distinct segments",
        "analysis.analyze(rule=)",
        {
            "printed": "words / transaction − 1, as printed",
            "segments": "distinct segments − 1",
        },
    ),
    _reading(
        "mapping",
        "A13",
        "which of the printed K80 bit groups is the row and which the column",
        "evaluation (the sample profile's mapping), via analyze(mapping=)",
        {
            "algorithm1": "the map Algorithm 1 finds on the simulated reference",
            "k80_printed_col_low": "the paper's K80 bits, 8–21 column, 30–32 row",
            "k80_printed_row_low": "the paper's K80 bits, 8–21 row, 30–32 column",
        },
    ),
    _reading(
        "clock",
        "A12",
        "which K80 clock turns nanoseconds into cycles",
        "analysis.k80(clock=), the sample profile's machine",
        {"boost": "875 MHz", "base": "562 MHz"},
    ),
    _reading(
        "mwp_bytes",
        "Eqs. 18–19",
        "which bytes set MWP's bandwidth limit (from Sim et al. 2012, not printed)",
        "model.mwp_load_bytes, via evaluate(mwp_bytes=)",
        {
            MWP_BYTES[0]: "every sector and line looked up, cache hits included",
            MWP_BYTES[1]: "bytes sent to the L2 (texture and constant hits left out)",
            MWP_BYTES[2]: "bytes DRAM supplied",
        },
    ),
    _reading(
        "copy",
        "A19",
        "whether a move into shared memory adds its copy time to T",
        "model.evaluate(copy=)",
        {
            COPY[0]: "bytes / DRAM bandwidth added",
            COPY[1]: "not added",
        },
    ),
)
"""The unprinted readings the model depends on and can switch, one :class:`Reading`
each, the book's default first (what :func:`~gpumodels.papers.huang_li.evaluation.run`
uses when it is given no readings)."""

NOT_SWITCHED: tuple[tuple[str, str, str], ...] = (
    (
        "A3",
        "the rate that turns τ_a (instructions between requests) into time",
        (
            "the model's own issue rate is the only one it can compute; the candidate "
            "alternative, the sample's measured time per instruction, would make the "
            "sample's time an input to its own prediction"
        ),
    ),
    (
        "A4",
        "Eq. 11: two features per memory (misses, requests) or their sum",
        (
            "the fitted model's coefficient layout is fixed to model.FEATURES; a "
            "summed layout needs a second feature set"
        ),
    ),
    (
        "A5",
        "the regression target of Eq. 11",
        "no alternative: (T_comp + T_mem − T)/T_mem is the only target Eq. 12 allows",
    ),
    (
        "A7–A10",
        (
            "Table IV's placement lists: S3D and transpose list one test more than "
            "their printed counts, md and spmv print repeats and a garbled entry"
        ),
        (
            "the book reads each list once, to match the printed counts "
            "(data/huang_li/placements.csv names the reading per test); another "
            "reading changes which placements are trained on and scored, not the model"
        ),
    ),
    (
        "A11",
        "whether the samples count among the 22 evaluation placements",
        "changes what is scored, not the model; the book counts them, as fft_1 implies",
    ),
    (
        "A13",
        "whether the printed K80 bit positions (8th–21st, 30th–32nd) count from 0 or 1",
        (
            "the two k80_printed mappings read them 0-based (bits 8–21 and 30–32); the "
            "row/column assignment is switched (mapping), the numbering is not: the "
            "default mapping is the one Algorithm 1 finds, which does not depend on it"
        ),
    ),
    (
        "A16",
        "whether a printed gain is percentage points or a relative change",
        "moves no prediction, only the paper's implied errors beside them",
    ),
    (
        "A17",
        "the baseline's instruction count and constant DRAM latency",
        "moves only the baseline variants, not the full model's error or Fig. 6",
    ),
    (
        "A18",
        "'even distribution' of requests over banks",
        "moves only the 'queuing (even banks)' variant, not the full model",
    ),
    (
        "A20",
        "2D textures as linear addresses",
        "the model has no block-linear layout to switch to (the simulator has one)",
    ),
)
"""The readings the code does not switch, each as (label, what the paper leaves open,
why it is not switched)."""

def reading(name: str) -> Reading:
    """The :class:`Reading` called ``name`` (one of :data:`READINGS`)."""
    check_str("name", name)
    for r in READINGS:
        if r.name == name:
            return r
    raise UnknownNameError(
        f"name must be one of {', '.join(r.name for r in READINGS)}, got {name!r}"
    )


def defaults() -> dict[str, str]:
    """Every reading's default option (the book's choice)."""
    return {r.name: r.default for r in READINGS}


def resolve(readings: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every reading's option: ``readings`` over the defaults. An unknown reading or
    option is an error naming the known ones."""
    out = defaults()
    if readings is None:
        return out
    check_map("readings", readings, "str")
    for k, v in readings.items():
        r = reading(k)
        out[k] = check_choice(f"readings[{k!r}]", v, r.options)
    return out


def changed(readings: Mapping[str, str] | None = None) -> dict[str, str]:
    """The readings of ``readings`` that differ from the default, in
    :data:`READINGS` order."""
    full, base = resolve(readings), defaults()
    return {k: v for k, v in full.items() if v != base[k]}


def table():
    """:data:`READINGS` as a table: label, reading, what the paper leaves open, the
    default and the alternatives with their meaning, where it applies."""
    rows = []
    for r in READINGS:
        rows.append(
            {
                "label": r.label,
                "reading": r.name,
                "the paper leaves open": r.question,
                "default (the book's)": f"{r.default}: {r.meaning[r.default]}",
                "alternatives": "; ".join(
                    f"{a}: {r.meaning[a]}" for a in r.alternatives
                ),
                "where": r.where,
            }
        )
    return pd.DataFrame(rows)


def not_switched_table():
    """:data:`NOT_SWITCHED` as a table."""
    return pd.DataFrame(
        list(NOT_SWITCHED),
        columns=["label", "the paper leaves open", "why not switched"],
    )

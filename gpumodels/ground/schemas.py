"""A declared schema for every table in ``data/`` (pandera),
checked whenever a table is read.

Each CSV file under ``data/`` has an entry in ``TABLES``: its columns with their types
and allowed ranges, the columns that must be unique together, and table-wide checks. A
file without an entry, an entry without a file, a column too many or too few, an empty
``source``, a duplicate key, a value out of range or of the wrong type, or a row cut
short all fail, and the message names the file, the line (as an editor shows it: the
header is line 1), the column and the value.

Long tables (one row per GPU and parameter, with ``value`` and ``unit`` columns) are
checked by unit: ``UNIT_RANGES`` gives the range a value in each unit may take (a clock
typed in MHz into a GHz row is out of range; a negative register count is out of range).
Ranges are physical plausibility bounds, wide enough for any GPU the book could add, not
the ranges of today's rows.

>>> sorted(TABLES)[:3]
['compute_capability.csv', 'geforce_memory_wall.csv', 'gpus.csv']
"""

from __future__ import annotations

import csv
import io
import itertools
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import pandas as pd

from gpumodels.ground.errors import DataError, InputTypeError
from gpumodels.ground.validate import check_flag, check_text

# --------------------------------------------------------------------------------------
# pandera, imported when a schema is first needed


class _Recipe:
    """A call of a ``pandera.pandas`` constructor (a column, a check), made when a
    table's schema is first needed (:meth:`Table.schema`). Importing pandera takes about
    0.25 s, and most processes read only tables the disk cache records as passed
    (:mod:`gpumodels.ground.data`), so they never build a schema. Each recipe makes its
    object once, so a recipe used in several tables gives them one object, as the
    object itself did."""

    __slots__ = ("_args", "_kwargs", "_object", "_path")

    def __init__(self, path: tuple[str, ...], args: tuple, kwargs: dict):
        self._path, self._args, self._kwargs, self._object = path, args, kwargs, None

    def make(self):
        """The pandera object (pandera imported on the first call)."""
        if self._object is None:
            import pandera.pandas

            obj = pandera.pandas
            for part in self._path:
                obj = getattr(obj, part)
            args = [_made(a) for a in self._args]
            self._object = obj(*args, **{k: _made(v) for k, v in self._kwargs.items()})
        return self._object

    def __repr__(self):
        return f"<pandera.pandas.{'.'.join(self._path)} recipe>"


def _made(value):
    if isinstance(value, _Recipe):
        return value.make()
    if isinstance(value, (list, tuple)):
        return type(value)(_made(v) for v in value)
    if isinstance(value, dict):
        return {k: _made(v) for k, v in value.items()}
    return value


class _Pandera:
    """Stands for ``pandera.pandas`` in the table definitions: ``_pa.Check.isin(x)``
    gives the recipe of that call."""

    __slots__ = ("_path",)

    def __init__(self, path: tuple[str, ...] = ()):
        self._path = path

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Pandera((*self._path, name))

    def __call__(self, *args, **kwargs) -> _Recipe:
        return _Recipe(self._path, args, kwargs)


_pa = _Pandera()

# parameter in data/hardware.csv -> (GPU field, unit, type)
PARAMETERS: dict[str, tuple[str, str, type]] = {
    "compute_capability": ("compute_capability", "", str),
    "generation": ("generation", "", str),
    "year": ("year", "year", int),
    "gpus_per_board": ("gpus_per_board", "GPUs", int),
    "sm_count": ("sm_count", "SMs", int),
    "cuda_cores": ("cuda_cores", "cores", int),
    "cuda_cores_per_sm": ("cuda_cores_per_sm", "cores/SM", int),
    "sfu_per_sm": ("sfu_per_sm", "units/SM", int),
    "warp_schedulers_per_sm": ("warp_schedulers_per_sm", "schedulers/SM", int),
    "issue_cycles": ("issue_cycles", "cycles", int),
    "issue_width": ("issue_width", "instructions", int),
    "max_warps_per_sm": ("max_warps_per_sm", "warps/SM", int),
    "max_blocks_per_sm": ("max_blocks_per_sm", "blocks/SM", int),
    "registers_per_sm": ("registers_per_sm", "registers", int),
    "shared_mem_per_sm": ("shared_mem_per_sm", "bytes", int),
    "smem_banks": ("smem_banks", "banks", int),
    "smem_bank_width": ("smem_bank_width_bits", "bits", int),
    "smem_cycles_per_access": ("smem_cycles_per_access", "cycles", int),
    "processor_clock": ("clock_ghz", "GHz", float),
    "base_clock": ("base_clock_ghz", "GHz", float),
    "graphics_clock": ("graphics_clock_mhz", "MHz", float),
    "memory_clock": ("memory_clock_mhz", "MHz", float),
    "memory_bus_width": ("memory_bus_width_bits", "bits", int),
    "memory_type": ("memory_type", "", str),
    "pin_bandwidth": ("pin_bandwidth_gbs", "GB/s", float),
}


# --------------------------------------------------------------------------------------
# column kinds


def _check_names(name: str, value, optional: bool = False) -> None:
    """``InputTypeError`` naming ``name`` unless ``value`` is a list or tuple of
    strings (or ``None`` when ``optional``)."""
    if optional and value is None:
        return
    if isinstance(value, (str, bytes)) or not isinstance(value, Collection):
        ok = False
    else:
        ok = all(isinstance(v, str) for v in value)
    if not ok:
        raise InputTypeError(
            f"{name} must be a list of column names (strings), got {value!r:.40}"
        )


def text(*, optional: bool = False, isin=None, regex: str | None = None):
    """A string column; non-empty unless ``optional``; one of ``isin`` or matching
    ``regex`` if given. The recipe of a ``pandera`` column, made when a table's schema
    is first needed (:meth:`Table.schema`)."""
    checks = []
    _check_names("isin", isin, optional=True)
    if regex is not None and not isinstance(regex, str):
        raise InputTypeError(f"regex must be a string or None, got {regex!r:.40}")
    if isin is not None:
        allowed = list(isin) + ([""] if optional else [])
        checks.append(_pa.Check.isin(allowed))
    elif not optional:
        checks.append(_pa.Check.str_length(min_value=1))
    if regex is not None:
        checks.append(_pa.Check.str_matches(regex + ("|" if optional else "")))
    return _pa.Column(str, checks=checks, nullable=False)


def number(
    lo: float | None = None,
    hi: float | None = None,
    *,
    integer: bool = False,
    optional: bool = False,
    lo_open: bool = False,
    allow_inf: bool = False,
):
    """A numeric column in ``[lo, hi]`` (``(lo, hi]`` with ``lo_open``); empty cells
    only if ``optional``. The recipe of a ``pandera`` column, as for :func:`text`."""
    checks = []
    if lo is not None:
        checks.append(_pa.Check.gt(lo) if lo_open else _pa.Check.ge(lo))
    if hi is not None:
        checks.append(_pa.Check.le(hi))
    if integer:
        checks.append(
            _pa.Check(
                lambda s: (s == s.round()) | ~s.abs().lt(math.inf), name="integer"
            )
        )
    if not allow_inf:
        checks.append(_pa.Check(lambda s: s.abs().lt(math.inf), name="finite"))
    return _pa.Column(float, checks=checks, nullable=optional, coerce=True)


PUBLISHED_FILES = ("hong_kim", "volkov", "huang_li", "perez_piccoli", "transit")
"""The tables of ``data/published/``: one per paper, ``<name>.csv``, in the book's
order."""

PUBLISHED_STATUSES = ("reproduced", "outside", "not derivable", "input")
"""A printed value's declared status: the first three are scored; ``input`` rows are
numbers the book takes in (measured, specified or read from a table), shown but not
counted."""

SOURCE = text()
NOTE = text(optional=True)
YESNO = ("yes", "no")

# --------------------------------------------------------------------------------------
# units of the long tables: the range a value in that unit may take

_COUNT = (0, 1e12)
UNIT_RANGES: dict[str, tuple[float, float]] = {
    "GHz": (0.05, 10.0),
    "MHz": (10.0, 10_000.0),
    "year": (1990, 2100),
    "cycles": (0, 1e7),
    "issue cycles": (0, 1e7),
    "ns": (0, 1e7),
    "bits": (1, 1e5),
    "bytes": (0, 1e13),
    "MiB": (0, 1e7),
    "GB/s": (0, 1e5),
    "GiB/s": (0, 1e5),
    "TB/s": (0, 100),
    "GB/s per SM": (0, 1e4),
    "GB/s per warp/SM": (0, 1e4),
    "GFLOP/s": (0, 1e6),
    "%": (0, 100),
    "% of peak": (0, 100),
    "fraction": (0, 1),
    "cosine": (-1, 1),
    # counts
    **{
        u: _COUNT
        for u in (
            "CUs",
            "GPUs",
            "SIMDs",
            "SMs",
            "banks",
            "banks/SM",
            "blocks",
            "blocks/SM",
            "controllers",
            "cores",
            "cores/SM",
            "schedulers",
            "schedulers/SM",
            "sets",
            "threads",
            "threads/SM",
            "units/SM",
            "warps",
            "warps/SM",
            "warps/scheduler",
            "waves",
            "ways",
            "rows",
            "items",
            "placements",
            "rounds",
            "transactions",
            "requests",
            "events",
            "registers",
            "registers/SM",
            "instructions",
            "instructions/SM",
            "instructions/scheduler",
            "instructions/warp",
            "events/warp",
            "issues/warp",
            "loads in flight per warp",
            "transactions per access",
            "cycles per access",
            "B/warp",
            "load",
            "alu",
            "sfu",
            "smem",
            "store",
        )
    },
    # rates and ratios
    **{
        u: (0, 1e6)
        for u in (
            "IPC",
            "IPC/SM",
            "IPC per device",
            "CPI",
            "CPI/SM",
            "B/cycle/SM",
            "adds/cycle/SM",
            "adds/load",
            "cycles/instruction",
            "cycles/warp/SM",
            "cycles/warp/scheduler",
            "flop/cycle/SP",
            "instructions/cycle",
            "issues/cycle/SM",
            "items/cycle",
            "ops/cycle/SM",
            "ops/cycle/scheduler",
            "results/clock/SM",
            "transactions/cycle",
            "warp instructions/cycle",
            "warps/cycle/SM",
            "ratio",
            "x",
            "x/year",
        )
    },
}
"""Allowed range of a value by its unit in the long tables
(``value``, ``unit`` columns)."""


def _unit_check(*, text_ok: bool = True) -> _Recipe:
    """Every ``value`` parses as a number in its unit's range; with ``text_ok`` a row
    with an empty unit may hold text (a generation name, a memory type)."""

    def ok(df: pd.DataFrame) -> pd.Series:
        num = pd.to_numeric(df["value"], errors="coerce")
        rng = df["unit"].map(UNIT_RANGES)
        known = rng.notna()
        lo = rng.map(lambda r: r[0] if isinstance(r, tuple) else math.nan)
        hi = rng.map(lambda r: r[1] if isinstance(r, tuple) else math.nan)
        in_range = known & num.notna() & (num >= lo) & (num <= hi)
        textual = (df["unit"] == "") & (df["value"].str.len() > 0) if text_ok else False
        return in_range | textual

    return _pa.Check(ok, name="value in its unit's range (UNIT_RANGES)")


def _one_unit_per(key: str) -> _Recipe:
    """All rows of one ``key`` (a parameter or quantity) share one unit."""
    return _pa.Check(
        lambda df: df.groupby(key)["unit"].transform("nunique") == 1,
        name=f"one unit per {key}",
    )


def _positive_except(*params: str, key: str = "parameter") -> _Recipe:
    """Numeric values are > 0, except for the named parameters (which may be 0)."""

    def ok(df):
        num = pd.to_numeric(df["value"], errors="coerce")
        return num.isna() | (num > 0) | df[key].isin(params)

    return _pa.Check(
        ok, name=f"positive (0 allowed only for {', '.join(params) or 'none'})"
    )


def _hardware_parameters(df: pd.DataFrame) -> pd.Series:
    spec = df["parameter"].map(PARAMETERS)
    unit_ok = [isinstance(s, tuple) and s[1] == u for s, u in zip(spec, df["unit"])]
    typ_ok = []
    for s, v in zip(spec, df["value"]):
        try:
            typ_ok.append(isinstance(s, tuple) and (s[2](v) is not None))
        except ValueError:
            typ_ok.append(False)
    return pd.Series(unit_ok, index=df.index) & pd.Series(typ_ok, index=df.index)


def long_table(
    key: list[str],
    *,
    quantity: str = "parameter",
    after_unit: dict | None = None,
    checks: list | None = None,
    text_values: bool = False,
    note: bool = True,
) -> Table:
    """A long table: ``key`` columns, ``value``, ``unit``, any ``after_unit`` columns,
    ``source`` (and ``note``)."""
    _check_names("key", key)
    check_text("quantity", quantity)
    check_flag("text_values", text_values)
    check_flag("note", note)
    if after_unit is not None and not isinstance(after_unit, dict):
        raise InputTypeError(
            "after_unit must be a dict of column schemas or None, got "
            f"{after_unit!r:.40}"
        )
    if checks is not None and not isinstance(checks, (list, tuple)):
        raise InputTypeError(
            f"checks must be a list of checks or None, got {checks!r:.40}"
        )
    cols = {k: text() for k in key}
    cols["value"] = text()
    cols["unit"] = text(optional=True)
    cols.update(after_unit or {})
    cols["source"] = SOURCE
    if note:
        cols["note"] = NOTE
    return Table(
        cols,
        unique=key,
        checks=[_unit_check(text_ok=text_values), _one_unit_per(quantity)]
        + list(checks or []),
    )


@dataclass(frozen=True)
class Table:
    """The schema of one CSV file:
    columns (in file order), unique key, table-wide checks."""

    columns: dict
    unique: list[str] | None = None
    checks: list = field(default_factory=list)
    why_no_key: str = ""

    def __post_init__(self):
        if not isinstance(self.columns, dict):
            raise InputTypeError(
                f"columns must be a dict of column schemas for Table, got "
                f"{self.columns!r:.40}"
            )
        if self.unique is not None:
            _check_names("unique", self.unique)
        if not isinstance(self.checks, (list, tuple)):
            raise InputTypeError(
                f"checks must be a list of checks for Table, got {self.checks!r:.40}"
            )
        if not isinstance(self.why_no_key, str):
            raise InputTypeError(
                f"why_no_key must be a string for Table, got {self.why_no_key!r:.40}"
            )

    def schema(self, name: str):
        """The pandera ``DataFrameSchema`` of the table, named ``name``."""
        import pandera.pandas

        return pandera.pandas.DataFrameSchema(
            _made(self.columns),
            checks=_made(list(self.checks)),
            unique=self.unique,
            strict=True,
            ordered=True,
            name=name,
        )


def _wide(
    text_cols: dict, numeric: dict, *, tail=("source",), unique=None, **kw
) -> Table:
    cols = dict(text_cols)
    cols.update(numeric)
    for t in tail:
        cols[t] = SOURCE if t == "source" else NOTE
    return Table(cols, unique=unique, **kw)


MEASURED_KINDS = ("chase", "add", "sfu", "smem", "smem2")
"""The kinds of run of ``bench/volkov_bench.cu``
(the same as :data:`gpumodels.comparisons.bench.KINDS`, which this layer cannot
import)."""

# Huang & Li parameter provenance
STATUS = {"status": text(isin=("printed", "sourced", "assumption"))}
VOLKOV_GPUS = ("G80", "GT200", "Fermi", "Kepler", "Maxwell")
LAT = number(0, 1e7)  # a latency in cycles or ns
POS = number(0, lo_open=True)  # a positive quantity
NONNEG = number(0)
COUNT = number(0, integer=True)
OPT_COUNT = number(0, integer=True, optional=True)

_HUANG_LI_READINGS = (
    "amat_form",
    "queue_form",
    "service",
    "saturation",
    "rule",
    "mapping",
    "clock",
    "mwp_bytes",
    "copy",
)
"""The reading columns of ``simulated/huang_li_combinations.csv``, one per reading of
``gpumodels.papers.huang_li.readings.READINGS`` in its order (a test checks that they
agree; this layer cannot import the paper's)."""

REFSIM_COUNTERS = (
    "inst_executed",
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
    "l2_write_requests",
    "dram_reads",
    "dram_writes",
    "row_hits",
    "row_misses",
    "row_conflicts",
    "ldst_global",
    "ldst_texture",
    "ldst_constant",
    "ldst_shared",
    "elapsed_cycles",
)
"""The event counts the Huang & Li reference simulator reports, in the order of its
result and of ``data/simulated/huang_li_reference.csv``
(:data:`gpumodels.engines.refsim.simulator.COUNTERS`)."""

# the columns of data/simulated/huang_li_reference.csv after the placement test
_HL_COUNTERS = (
    "seed",
    "n_warps",
    "time_ns",
    *REFSIM_COUNTERS,
    "bank_busy_max",
    "dram_wait_mean_ns",
)

TABLES: dict[str, Table] = {
    # ---- hardware
    "gpus.csv": Table(
        {
            "gpu": text(),
            "full_name": text(),
            "aliases": NOTE,
            "source": SOURCE,
            "note": NOTE,
        },
        unique=["gpu"],
    ),
    "hardware.csv": long_table(
        ["gpu", "parameter"],
        text_values=True,
        checks=[
            _pa.Check(
                _hardware_parameters,
                name="parameter, unit and type as PARAMETERS declares",
            ),
            _positive_except(),
        ],
    ),
    "compute_capability.csv": long_table(
        ["cc", "parameter"],
        text_values=True,
        checks=[
            _positive_except(
                "reserved_shared_mem_per_block", "system_shared_mem_per_block"
            )
        ],
    ),
    "geforce_memory_wall.csv": _wide(
        {
            "product": text(),
            "release_date": text(regex=r"\d{4}-\d{2}(-\d{2})?"),
            "line": text(isin=("GeForce", "TITAN", "data centre")),
            "architecture": text(),
            "memory_type": text(),
        },
        {
            "pin_bandwidth_gbs": number(1, 1e5),
            "cuda_cores": number(1, 1e6, integer=True),
            "clock_mhz": number(100, 10_000),
            "clock_kind": text(isin=("boost", "shader")),
            "in_volkov": text(isin=YESNO),
        },
        tail=("source", "note"),
        unique=["product"],
    ),
    # ---- Hong & Kim
    "hong_kim/machine.csv": long_table(
        ["gpu", "parameter"], checks=[_positive_except()]
    ),
    "hong_kim/table_2_inputs.csv": long_table(["parameter"]),
    "hong_kim/table_4.csv": _wide(
        {"benchmark": text()},
        {
            "mem_insts": COUNT,
            "comp_insts": COUNT,
            "fp_insts": COUNT,
            "loop_iterations": number(1, integer=True),
        },
        tail=("source", "note"),
        unique=["benchmark"],
    ),
    "hong_kim/table_5.csv": _wide(
        {"benchmark": text(), "description": text(), "input_size": text()},
        {
            "elements": number(1, integer=True),
            "comp_insts": COUNT,
            "comp_insts_max": OPT_COUNT,
            "mem_insts": COUNT,
            "mem_insts_max": OPT_COUNT,
            "access": text(isin=("coal", "uncoal")),
            "arith_intensity": POS,
            "registers": number(1, 255, integer=True),
            "shared_mem_bytes": number(0, 1e6, integer=True),
        },
        tail=("source", "note"),
        unique=["benchmark"],
    ),
    "hong_kim/table_7.csv": _wide(
        {"instruction": text()},
        {
            "ops_per_cycle_manual": number(
                0, integer=True, optional=True, lo_open=True
            ),
            "m_factor_manual": number(0, integer=True, optional=True, lo_open=True),
            "m_factor_experiment": POS,
        },
        tail=("source", "note"),
        unique=["instruction"],
    ),
    "hong_kim/worked_examples.csv": long_table(["quantity"], quantity="quantity"),
    # ---- Huang & Li
    "huang_li/address_maps.csv": _wide(
        {
            "preset": text(),
            "field": text(isin=("bank", "byte", "channel", "column", "row")),
            "bits": text(regex=r"[0-9;\- ]+"),
        },
        {"modulo": number(2, integer=True, optional=True)},
        tail=("source", "note"),
        unique=["preset", "field"],
    ),
    "huang_li/addressing.csv": Table(
        {
            "space": text(),
            "dtype": text(isin=("double", "float", "int")),
            "instructions": COUNT,
            "status": text(isin=("printed", "book reading")),
            "source": SOURCE,
            "reasoning": text(),
        },
        unique=["space", "dtype"],
    ),
    "huang_li/fig2_sass.csv": Table(
        {
            "panel": text(isin=("a", "b", "c", "d")),
            "caption": text(isin=("G", "T", "C", "S")),
            "line": number(1, integer=True),
            "text": text(),
            "index_register": text(optional=True, regex=r"R[0-9]+"),
            "source": SOURCE,
            "note": NOTE,
        },
        unique=["panel", "line"],
    ),
    "huang_li/gpgpusim_c2050.csv": long_table(
        ["parameter"], checks=[_positive_except()]
    ),
    "huang_li/k80_parameters.csv": long_table(
        ["parameter"], after_unit=STATUS, checks=[_positive_except()]
    ),
    "huang_li/placements.csv": Table(
        {
            "set": text(isin=("train", "eval", "illustration")),
            "benchmark": text(),
            "suite": text(),
            "count_printed": OPT_COUNT,
            "kernel": text(),
            "test": text(),
            "moves": NOTE,
            "sample": text(isin=YESNO),
            "counted": text(isin=YESNO),
            "reading": NOTE,
            "source": SOURCE,
        },
        unique=["test"],
    ),
    "huang_li/refsim_parameters.csv": long_table(
        ["parameter"], after_unit=STATUS, checks=[_positive_except()]
    ),
    "huang_li/table_1.csv": _wide(
        {"kernel": text()},
        {
            c: number(-1, 1, optional=True)
            for c in (
                "issue_slots",
                "inst_issued",
                "inst_integer",
                "ldst_issue",
                "L2_trans",
            )
        },
        unique=["kernel"],
    ),
    # ---- measured by this project (tools/measure_*.py; see data/measured/README.md)
    "measured/benchmarks.csv": Table(
        {
            "name": text(),
            "work": number(1, integer=True),
            "unit": text(isin=("points", "instructions", "requests", "build")),
            "seconds": number(0, lo_open=True),
            "rate_per_s": number(0, lo_open=True, optional=True),
            "goal": number(0, lo_open=True, optional=True),
            "met": text(isin=YESNO, optional=True),
            "source": SOURCE,
        },
        unique=["name"],
    ),
    "measured/volkov_h100.csv": _wide(
        {
            "gpu": text(),
            "cc": text(regex=r"[0-9]+\.[0-9]+"),
            "driver": text(regex=r"[0-9]+(\.[0-9]+)+"),
        },
        {
            "sm_count": number(1, 1000, integer=True),
            "clock_mhz": number(10, 10_000),
            "mem_clock_mhz": number(0, 10_000),
            "date": text(regex=r"[0-9]{4}-[0-9]{2}-[0-9]{2}"),
            "kind": text(isin=MEASURED_KINDS),
            "pattern": text(isin=("stream", "random"), optional=True),
            "alpha": number(0, 4096, integer=True, optional=True),
            "ilp": number(1, 64, integer=True),
            "threads_per_block": number(1, 1024, integer=True),
            "blocks": number(1, integer=True),
            "smem_request": COUNT,
            "registers": number(1, 255, integer=True),
            "blocks_per_sm_cuda": number(1, 1024, integer=True),
            "warps": number(1, integer=True),
            "max_occupancy": number(1, 2048, integer=True),
            "mean_occupancy": number(0, 2048, lo_open=True),
            "repeats_per_warp": number(1, integer=True),
            "cycles": POS,
            "ipc_per_sm": number(0, 1000, lo_open=True),
            "gbs": number(0, 1e5, lo_open=True, optional=True),
            "mean_warp_latency": POS,
            "latency_per_repeat": POS,
            "target_warps_per_sm": number(1, 2048, integer=True),
            "iters": number(1, integer=True),
            "array_mb": number(1, integer=True, optional=True),
            "elapsed_ms": POS,
            "clock_mhz_events": number(10, 10_000),
            "gbs_events": number(0, 1e5, lo_open=True, optional=True),
            "measured_by": text(),
        },
        unique=[
            "gpu",
            "date",
            "kind",
            "pattern",
            "alpha",
            "ilp",
            "target_warps_per_sm",
        ],
        checks=[
            _pa.Check(
                lambda df: (
                    (df["kind"] == "chase")
                    == ((df["pattern"] != "") & df["alpha"].notna() & df["gbs"].notna())
                ),
                name="pattern, alpha and gbs on the chase rows only",
            ),
            _pa.Check(
                lambda df: (
                    df["max_occupancy"]
                    <= df["blocks_per_sm_cuda"] * -(-df["threads_per_block"] // 32)
                ),
                name="attained occupancy within what CUDA allows",
            ),
        ],
    ),
    # ---- modern GPUs
    "modern/alu.csv": _wide(
        {"gpu": text()},
        {
            "alu_lat": LAT,
            "alu_lat_method": text(regex=r"(measured|assumed): .+"),
            "fp32_lanes_per_sm": number(1, 1024, integer=True),
            "issue_thru": POS,
        },
        tail=("source", "note"),
        unique=["gpu"],
    ),
    "modern/amd.csv": long_table(
        ["gpu", "quantity"],
        quantity="quantity",
        checks=[_positive_except(key="quantity")],
    ),
    "modern/gpu_benches_latency.csv": _wide(
        {"gpu": text()},
        {
            "clock_mhz": number(10, 10_000),
            "footprint_kb": POS,
            "cycles": number(0, 1e7, lo_open=True),
        },
        unique=["gpu", "clock_mhz", "footprint_kb", "source"],
    ),
    "modern/gpu_benches_stream.csv": _wide(
        {"gpu": text()},
        {
            "block_size": number(1, 4096, integer=True),
            "threads": number(1, integer=True),
            "occupancy_pct": number(0, 100, lo_open=True),
            **{
                k: number(0, 1e5, optional=k in ("1pt", "5pt"))
                for k in ("init", "read", "scale", "triad", "1pt", "3pt", "5pt")
            },
        },
        unique=["gpu", "block_size", "threads", "source"],
    ),
    "modern/measurements.csv": Table(
        {
            "gpu": text(),
            "quantity": text(),
            "value": POS,
            "unit": text(isin=("cycles", "GiB/s", "GB/s", "TB/s")),
            "method": text(),
            "footprint": text(),
            "clock_mhz": number(10, 10_000, optional=True),
            "source": SOURCE,
            "note": NOTE,
        },
        unique=["gpu", "quantity", "method", "footprint"],
        checks=[_unit_check(text_ok=False)],
    ),
    "modern/simulator_configs.csv": long_table(
        ["architecture", "tool", "quantity"],
        quantity="quantity",
        after_unit={"semantics": text()},
    ),
    # ---- Perez & Piccoli
    "perez/parameters.csv": long_table(
        ["gpu", "parameter"], checks=[_positive_except()]
    ),
    "perez/theory.csv": long_table(["gpu", "parameter"], checks=[_positive_except()]),
    # ---- published values
    **{
        f"published/{name}.csv": Table(
            {
                "key": text(),
                "paper": text(),
                "source": SOURCE,
                "quantity": text(),
                "context": text(),
                "printed": NOTE,
                "value": number(),
                "unit": text(),
                "status": text(isin=PUBLISHED_STATUSES),
                "bound": text(isin=("", ">", "<"), optional=True),
                "tolerance": number(0, lo_open=True, optional=True),
                "note": NOTE,
            },
            unique=["key"],
        )
        for name in PUBLISHED_FILES
    },
    # ---- simulated (regenerated by tools/; see data/simulated/README.md)
    "simulated/huang_li_algorithm1.csv": _wide(
        {},
        {
            "bit": number(0, 63, integer=True),
            "base": COUNT,
            "addr0": COUNT,
            "addr1": COUNT,
            "latency_ns": number(0, 1e7, lo_open=True),
        },
        unique=["bit"],
    ),
    "simulated/huang_li_reference.csv": Table(
        {
            **{
                c: text(isin=("train", "eval", "illustration"))
                if c == "set"
                else text(optional=c == "moves")
                for c in ("set", "benchmark", "kernel", "test", "moves")
            },
            **{
                c: number(
                    0,
                    integer=c not in ("time_ns", "bank_busy_max", "dram_wait_mean_ns"),
                )
                for c in _HL_COUNTERS
            },
            "source": SOURCE,
        },
        unique=["test"],
    ),
    "simulated/huang_li_switches.csv": Table(
        {
            "benchmark": text(),
            "test": text(),
            "setting": text(
                isin=(
                    "reference",
                    "dram_policy",
                    "address_hash",
                    "replay_issue",
                    "barriers",
                    "all off",
                )
            ),
            "changes": text(optional=True),
            "time_ns": number(0, lo_open=True),
            "inst_issued": number(0, integer=True),
            "bank_busy_max": number(0, 1),
            "dram_wait_mean_ns": number(0),
            "source": SOURCE,
        },
        unique=["test", "setting"],
    ),
    "simulated/huang_li_sensitivity.csv": _wide(
        {
            "reading": text(),
            "label": text(optional=True),
            "option": text(),
            "readings": text(optional=True),
        },
        {
            "placements": number(1, integer=True),
            "unpredicted": COUNT,
            "saturated": COUNT,
            "mean_error_pct": NONNEG,
            "ci_low_pct": NONNEG,
            "ci_high_pct": NONNEG,
            "tau_full": number(-1, 1, optional=True),
            "d_error_pp": number(),
            "d_tau": number(-2, 2, optional=True),
        },
        unique=["reading", "option"],
        checks=[
            _pa.Check(
                lambda df: df["unpredicted"] <= df["placements"],
                name="unpredicted <= placements",
            ),
            _pa.Check(
                lambda df: df["ci_low_pct"] <= df["ci_high_pct"],
                name="ci_low_pct <= ci_high_pct",
            ),
        ],
    ),
    "simulated/huang_li_verdict_flips.csv": Table(
        {
            "criterion": text(isin=("error", "tau")),
            "rank": number(1, integer=True),
            "readings": text(optional=True),
            "key": text(),
            "claim": text(),
            "verdict": text(isin=("confirmed", "contradicted", "inconclusive")),
            "source": SOURCE,
        },
        unique=["criterion", "rank", "key"],
    ),
    "simulated/huang_li_combinations.csv": _wide(
        {
            **{k: text() for k in _HUANG_LI_READINGS},
            "readings": text(optional=True),
            "status": text(isin=["evaluated", "skipped"]),
        },
        {
            "placements": number(1, integer=True),
            "unpredicted": COUNT,
            "saturated": COUNT,
            "mean_error_pct": number(0, optional=True),
            "ci_low_pct": number(0, optional=True),
            "ci_high_pct": number(0, optional=True),
            "tau_full": number(-1, 1, optional=True),
        },
        unique=list(_HUANG_LI_READINGS),
        checks=[
            _pa.Check(
                lambda df: df["unpredicted"] <= df["placements"],
                name="unpredicted <= placements",
            ),
            _pa.Check(
                lambda df: (df["status"] == "skipped") == df["mean_error_pct"].isna(),
                name="a skipped combination, and only one, has no error",
            ),
            _pa.Check(
                lambda df: (df["status"] == "evaluated") | (df["unpredicted"] > 0),
                name="skipped only where a placement is unpredicted",
            ),
        ],
    ),
    "simulated/huang_li_volkov_check.csv": _wide(
        {"gpu": text(isin=VOLKOV_GPUS)},
        {
            "n": number(0, lo_open=True),
            "alpha": NONNEG,
            "ipc_refsim": NONNEG,
            "ipc_sim": NONNEG,
            "sim_cycles": number(1, integer=True),
        },
        unique=["gpu", "n", "alpha"],
    ),
    "simulated/prior_reference.csv": _wide(
        {"gpu": text(isin=VOLKOV_GPUS)},
        {
            "n": number(0, lo_open=True),
            "alpha": number(0, allow_inf=True),
            "ipc": NONNEG,
            "start": COUNT,
            "stop": COUNT,
        },
        unique=["gpu", "n", "alpha"],
        checks=[_pa.Check(lambda df: df["stop"] > df["start"], name="stop > start")],
    ),
    # ---- Transit
    "transit/machines.csv": long_table(
        ["gpu", "precision", "parameter"], checks=[_positive_except()]
    ),
    "transit/principles.csv": Table(
        {
            "bound": text(isin=("thread", "memory", "computation", "capacity")),
            "direction": text(isin=("n", "Z", "R", "M")),
            "raises_cs_throughput": text(isin=YESNO),
            "paper_states": text(isin=("stated", "silent")),
            "source": SOURCE,
            "note": NOTE,
        },
        unique=["bound", "direction"],
    ),
    "transit/profiled_gpus.csv": long_table(["gpu", "parameter"], text_values=True),
    "transit/reported_accuracy.csv": long_table(
        ["gpu", "quantity"], quantity="quantity"
    ),
    "transit/rodinia_kepler_nvprof.csv": Table(
        {
            **{c: text() for c in ("app", "kernel", "gpu")},
            **{
                c: number(
                    0,
                    integer=c
                    not in (
                        "duration",
                        "achieved_occupancy",
                        "dram_read_throughput",
                        "dram_write_throughput",
                        "executed_ipc",
                        "issued_ipc",
                    ),
                )
                for c in (
                    "input_size",
                    "duration",
                    "grid_x",
                    "grid_y",
                    "block_x",
                    "block_y",
                    "registers_per_thread",
                    "static_smem",
                    "inst_executed",
                    "inst_issued1",
                    "executed_ipc",
                    "issued_ipc",
                    "achieved_occupancy",
                    "dram_read_throughput",
                    "dram_write_throughput",
                    "dram_read_transactions",
                    "flop_count_sp",
                )
            },
            "source": SOURCE,
        },
        why_no_key=(
            "one row per kernel launch in profiler order: "
            "repeated launches are real rows"
        ),
        # issued counts replays too: issued >= executed > 0 (same cycle base)
        checks=[
            _pa.Check(lambda df: df["executed_ipc"] > 0, name="executed_ipc > 0"),
            _pa.Check(
                lambda df: df["issued_ipc"] >= df["executed_ipc"],
                name="issued_ipc >= executed_ipc",
            ),
        ],
    ),
    "transit/rodinia_launch.csv": _wide(
        {"app": text(), "kernel": text()},
        {
            "threads_per_block": number(1, 1024, integer=True),
            "static_smem": number(0, 1e6, integer=True),
        },
        tail=("source", "note"),
        unique=["app", "kernel"],
    ),
    "transit/workloads.csv": Table(
        {
            "app": text(),
            "kernel": text(),
            "gpu": text(),
            "named_in_paper": text(isin=YESNO),
            "launches": OPT_COUNT,
            "n": number(0, lo_open=True, optional=True),
            "n_provenance": text(),
            "Z": number(0, lo_open=True, optional=True),
            "Z_provenance": text(),
            "ms_measured": number(0, optional=True),
            "cs_measured": number(0, optional=True),
            "measured_provenance": text(),
            "Z_issued1": number(0, lo_open=True, optional=True),
            "cs_measured_issued1": number(0, optional=True),
            "Z_ipc_ratio": number(0, lo_open=True, optional=True),
            "cs_measured_ipc_ratio": number(0, optional=True),
            "source": SOURCE,
        },
        unique=["app", "kernel", "gpu"],
    ),
    # ---- Volkov
    "volkov/chapter6_metrics.csv": Table(
        {
            "gpu": text(isin=VOLKOV_GPUS),
            "table": text(regex=r"6\.[1-6]"),
            "column": text(),
            "value": NONNEG,
            "unit": text(),
            "source": SOURCE,
            "note": NOTE,
        },
        unique=["gpu", "table", "column"],
        checks=[_unit_check(text_ok=False)],
    ),
    "volkov/chapter7_parameters.csv": long_table(
        ["context", "parameter"], checks=[_positive_except()]
    ),
    "volkov/fig_4_7.csv": long_table(["quantity"], quantity="quantity"),
    "volkov/listing_3_1.csv": _wide(
        {
            "index": COUNT,
            "opcode": text(),
            "unit": text(isin=("alu", "load", "sfu", "smem", "store")),
        },
        {"latency": number(0, 1e7, integer=True, optional=True)},
        tail=("source", "note"),
        unique=["index"],
    ),
    "volkov/listing_3_2.csv": _wide(
        {"sequence": text(), "position": number(1, integer=True), "opcode": text()},
        {"issue_cycle": COUNT},
        tail=("source", "note"),
        unique=["sequence", "position"],
    ),
    "volkov/listing_3_3.csv": _wide(
        {"warp": number(1, integer=True), "index": COUNT, "opcode": text()},
        {"latency_to_next": number(0, integer=True, optional=True)},
        tail=("source", "note"),
        unique=["warp", "index"],
    ),
    "volkov/listing_3_5.csv": _wide(
        {
            "index": COUNT,
            "opcode": text(),
            "operands": NOTE,
            "dst": text(optional=True, regex=r"R\d+"),
            "srcs": text(optional=True, regex=r"R\d+(;R\d+)*"),
            "unit": text(isin=("alu", "load", "store", "sfu", "smem")),
        },
        {},
        unique=["index"],
    ),
    "volkov/maxwell_s4_7.csv": long_table(["quantity"], quantity="quantity"),
    "volkov/s3_10_permutation.csv": _wide(
        {"case": text()},
        {"bytes_per_warp": number(1)},
        tail=("source", "note"),
        unique=["case"],
    ),
    "volkov/s3_8_vector_add.csv": long_table(["quantity"], quantity="quantity"),
    "volkov/s3_examples.csv": long_table(["quantity"], quantity="quantity"),
    "volkov/table_3_1.csv": _wide(
        {"instruction": text()},
        {
            "latency": number(0, 1e7, lo_open=True),
            "peak_ipc": POS,
            "unit_latency": text(isin=("cycles",)),
            "unit_peak": text(isin=("IPC/SM",)),
        },
        tail=("source", "note"),
        unique=["instruction"],
    ),
    "volkov/table_3_2.csv": _wide(
        {"name": text()},
        {
            "count": number(1, integer=True),
            "resource": text(isin=("cuda_cores", "sfu", "shared_banks", "memory")),
            "conflict_degree": number(1, integer=True, optional=True),
            "bytes": number(1, integer=True, optional=True),
            "dual_issued": COUNT,
            "reissues": COUNT,
        },
        tail=("source", "note"),
        unique=["name"],
    ),
    "volkov/table_3_3.csv": long_table(
        ["limit"], quantity="limit", checks=[_positive_except(key="limit")]
    ),
    "volkov/table_4_1.csv": _wide(
        {"gpu": text(isin=VOLKOV_GPUS)},
        {
            "mem_lat": number(1, 1e5),
            "mem_thru": number(0, 100, lo_open=True),
            "alu_lat": number(1, 1e4),
            "alu_thru": number(0, 1e4, lo_open=True),
            "issue_thru": number(0, 1e4, lo_open=True),
        },
        tail=("source", "note"),
        unique=["gpu"],
    ),
    "volkov/table_4_3.csv": _wide(
        {"gpu": text(isin=VOLKOV_GPUS)},
        {"alpha": number(0, integer=True), "instruction_time": POS},
        tail=("source", "note"),
        unique=["gpu"],
    ),
    "volkov/table_6_5.csv": _wide(
        {
            "gpu": text(isin=VOLKOV_GPUS),
            "variant": text(isin=("table_6_5", "two_term")),
        },
        {"term": number(1, integer=True), "a": NONNEG, "b": NONNEG, "c": POS},
        tail=("source", "note"),
        unique=["gpu", "variant", "term"],
    ),
    "volkov/table_6_6.csv": _wide(
        {"gpu": text(isin=VOLKOV_GPUS)},
        {
            "throughput_gbs": NONNEG,
            **{k: LAT for k in ("min", "p5", "p25", "p50", "p75", "p95", "max")},
        },
        tail=("source", "note"),
        unique=["gpu", "throughput_gbs"],
        checks=[
            _pa.Check(
                lambda df: (
                    (df["min"] <= df["p5"])
                    & (df["p5"] <= df["p25"])
                    & (df["p25"] <= df["p50"])
                    & (df["p50"] <= df["p75"])
                    & (df["p75"] <= df["p95"])
                    & (df["p95"] <= df["max"])
                ),
                name="percentiles in order",
            )
        ],
    ),
    "volkov/transactions.csv": _wide(
        {"gpu": text(isin=VOLKOV_GPUS)},
        {
            "coalesced": number(1, 32, integer=True),
            "diverging": number(1, 32, integer=True),
        },
        tail=("source", "note"),
        unique=["gpu"],
    ),
}

# --------------------------------------------------------------------------------------
# row rules: plausibility ranges per parameter, cross-field relations and required keys
# that pandera's column checks cannot say (each returns messages naming the line, the
# key and the rule; an empty list when the table passes). Every range below is a
# physical plausibility bound that all current rows pass with a margin and that a value
# typed ten times too large or too small leaves.

Rule = Callable[[pd.DataFrame], list[str]]


def _line(i) -> str:
    return f"line {int(i) + 2}"


def _num(s: pd.Series) -> pd.Series:
    return pd.to_numeric(s, errors="coerce")


def _param_ranges(
    ranges: dict[str, tuple[float, float]], what: str, key: str = "parameter"
) -> Rule:
    """Each row whose ``key`` is in ``ranges`` has a ``value`` in that range."""

    def rule(df: pd.DataFrame) -> list[str]:
        out = []
        who = [c for c in ("gpu", "precision") if c in df and c != key]
        for i, k, v, u in zip(df.index, df[key], _num(df["value"]), df["unit"]):
            if k in ranges and not (ranges[k][0] <= v <= ranges[k][1]):
                lo, hi = ranges[k]
                row = " ".join(str(df.at[i, c]) for c in who)
                out.append(
                    f"  {_line(i)} ({row + ' ' if row else ''}{key} {k!r}): {v:g} {u} "
                    f"is outside the plausible range [{lo:g}, {hi:g}] of {what} {k}"
                )
        return out

    return rule


def _required(cols: tuple[str, ...], keys, why: str) -> Rule:
    """Every key of ``keys`` (values of ``cols``) has a row."""

    def rule(df: pd.DataFrame) -> list[str]:
        have = set(df[list(cols)].astype(str).itertuples(index=False, name=None))
        return [
            "  table: no row for "
            + ", ".join(f"{c}={v!r}" for c, v in zip(cols, k))
            + f" (required: {why})"
            for k in keys
            if tuple(k) not in have
        ]

    return rule


# ---- data/transit/machines.csv (per SM; see gpumodels.papers.transit.machine)
TRANSIT_PARAMETERS = ("k_delta", "R", "M", "pi_height")
"""The four coordinates every (gpu, precision) of ``transit/machines.csv`` has."""

TRANSIT_RANGES: dict[str, tuple[float, float]] = {
    "k_delta": (32, 4096),  # threads per SM: one warp .. twice any SM's limit (2048)
    "M": (32, 4096),
    "R": (1, 100),  # GB/s per SM: today 8.9-18.9; an H100 SM gets 25 of its 3352
    "pi_height": (1, 1000),  # G thread-instructions/s per SM: today 8-80
    "fp64_lanes": (1, 128),  # results per clock per SM
}
"""Plausible range of each Transit machine parameter (per SM, in its unit)."""


def _transit_rules(df: pd.DataFrame) -> list[str]:
    out = _param_ranges(TRANSIT_RANGES, "a Transit")(df)
    known = (*TRANSIT_PARAMETERS, "fp64_lanes")
    for i, p in zip(df.index, df["parameter"]):
        if p not in known:
            out.append(
                f"  {_line(i)}: unknown parameter {p!r} (known: {', '.join(known)})"
            )
    v = _num(df["value"])
    line = {}
    val = {}
    for i, g, pr, p in zip(df.index, df["gpu"], df["precision"], df["parameter"]):
        line[g, pr, p], val[g, pr, p] = i, v[i]
    points = {(g, pr) for g, pr, p in line if p in TRANSIT_PARAMETERS}
    for g, pr in sorted(points):
        for p in TRANSIT_PARAMETERS:
            if (g, pr, p) not in line:
                out.append(
                    f"  table: no row for gpu={g!r}, precision={pr!r}, parameter="
                    f"{p!r} (required: a machine point needs all of "
                    f"{', '.join(TRANSIT_PARAMETERS)})"
                )
    # one memory measured with 4-B and 8-B words: R(DP) within a factor 2 of R(SP)
    # (today 1.04 on the C2075, 1.16 on the GTX 690)
    for g in sorted({g for g, _ in points}):
        sp, dp = val.get((g, "SP", "R")), val.get((g, "DP", "R"))
        if sp and dp and not (0.5 <= dp / sp <= 2):
            out.append(
                f"  {_line(line[g, 'SP', 'R'])} and {_line(line[g, 'DP', 'R'])} "
                f"({g} R): SP {sp:g} and DP {dp:g} GB/s per SM differ by more than a "
                "factor 2 (rule: R(DP)/R(SP) in [0.5, 2], one memory measured with "
                "two word sizes)"
            )
    return out


# ---- data/hardware.csv
HARDWARE_RANGES: dict[str, tuple[float, float]] = {
    "processor_clock": (0.5, 3.0),  # GHz; today 0.706 (K20) .. 2.49 (L40)
    "base_clock": (0.3, 3.0),  # GHz; today 0.562 .. 0.915
    "graphics_clock": (300, 3000),  # MHz; today 575 .. 740
    "memory_clock": (500, 5000),  # MHz; today 1100 .. 1674
    "memory_bus_width": (64, 8192),  # bits; today 256 .. 5120
    "year": (1999, 2100),
}
"""Plausible range of a GPU parameter of ``hardware.csv`` (in its unit)."""

BANDWIDTH_BY_CC_MAJOR: dict[str, tuple[float, float]] = {
    "1": (20, 250),  # Tesla (G80, GT200): today 57.6 .. 141.7 GB/s
    "2": (50, 300),  # Fermi: 144 .. 177.4
    "3": (50, 500),  # Kepler: 192 .. 288.4
    "5": (50, 500),  # Maxwell: 224 .. 336.5
    "6": (100, 1500),  # Pascal: 732
    "7": (200, 3000),  # Volta: 900
    "8": (200, 5000),  # Ampere, Ada: 864 .. 1555
    "9": (1000, 12000),  # Hopper: 2000 .. 4000
}
"""Plausible pin bandwidth (GB/s per GPU) of a GPU of the book's class (high-end
GeForce, Tesla) by the major version of its compute capability; a low-end part would
need its range widened."""

PIN_RATE_GBPS = (1.0, 30.0)
"""Plausible data rate per memory pin in Gb/s, ``pin_bandwidth · 8 / bus width`` (today
1.43, the P100's HBM2, .. 18, the L40's GDDR6)."""

PIN_RATE_BY_MEMORY: dict[str, tuple[float, float]] = {
    "GDDR5": (2.5, 10.0),  # today 3.0 (C2050, C2075) .. 6.0
    "GDDR6": (10.0, 24.0),  # today 18 (L40)
    "GDDR6X": (16.0, 32.0),
    "HBM2": (0.8, 8.0),  # today 1.43 .. 2.43
    "HBM2e": (0.8, 8.0),  # today 3.125
    "HBM3": (0.8, 10.0),  # today 5.24
}
"""Plausible data rate per pin (Gb/s) by ``memory_type``, where a GPU states it."""


def _hardware_rules(df: pd.DataFrame) -> list[str]:
    out = _param_ranges(HARDWARE_RANGES, "a GPU's")(df)
    line: dict[tuple[str, str], int] = {}
    val: dict[tuple[str, str], str] = {}
    for i, g, p, v in zip(df.index, df["gpu"], df["parameter"], df["value"]):
        line[g, p], val[g, p] = i, v
    gpus = list(dict.fromkeys(df["gpu"]))

    def f(g, p):
        try:
            return float(val[g, p])
        except (KeyError, ValueError):
            return None

    for g in gpus:
        if (g, "compute_capability") not in line:
            out.append(
                f"  table: no row for gpu={g!r}, parameter='compute_capability' "
                "(required: every GPU has one; its limits and generation come from it)"
            )
            continue
        bw, bus = f(g, "pin_bandwidth"), f(g, "memory_bus_width")
        mclk = f(g, "memory_clock")
        major = val[g, "compute_capability"].split(".")[0]
        if bw is not None and major in BANDWIDTH_BY_CC_MAJOR:
            lo, hi = BANDWIDTH_BY_CC_MAJOR[major]
            if not lo <= bw <= hi:
                out.append(
                    f"  {_line(line[g, 'pin_bandwidth'])} ({g} pin_bandwidth): {bw:g} "
                    f"GB/s is outside the plausible range [{lo:g}, {hi:g}] of a "
                    f"compute capability {major}.x GPU (BANDWIDTH_BY_CC_MAJOR)"
                )
        if bw is not None and bus:
            rate = bw * 8 / bus
            mem = val.get((g, "memory_type"), "")
            lo, hi = PIN_RATE_BY_MEMORY.get(mem, PIN_RATE_GBPS)
            if not lo <= rate <= hi:
                out.append(
                    f"  {_line(line[g, 'pin_bandwidth'])} and "
                    f"{_line(line[g, 'memory_bus_width'])} ({g}): pin_bandwidth {bw:g}"
                    f" GB/s over a {bus:g}-bit bus is {rate:.3g} Gb/s per pin, outside "
                    f"[{lo:g}, {hi:g}] of {mem or 'any memory'} (rule: bandwidth = bus "
                    "width x data rate; PIN_RATE_BY_MEMORY)"
                )
        if bw is not None and bus and mclk:
            expect = 2 * mclk * bus / 8 / 1000
            if abs(bw - expect) > 0.05 * expect:
                lines = [line[g, p] for p in ("pin_bandwidth", "memory_clock")]
                out.append(
                    f"  {' and '.join(map(_line, lines))} ({g} pin_bandwidth, "
                    f"memory_clock): {bw:g} "
                    f"GB/s, but 2 x memory_clock {mclk:g} MHz x {bus:g} bits / 8 = "
                    f"{expect:.4g} GB/s (rule: within 5 %, double data rate)"
                )
        proc = f(g, "processor_clock")
        for p, scale in (("base_clock", 1.0), ("graphics_clock", 1e-3)):
            x = f(g, p)
            if proc is not None and x is not None and x * scale > proc:
                out.append(
                    f"  {_line(line[g, p])} ({g} {p}): {val[g, p]} is above the "
                    f"processor clock {proc:g} GHz (rule: {p} <= processor_clock)"
                )
    return out


def _gpus_vs_hardware(df: pd.DataFrame, others: dict) -> list[str]:
    """``hardware.csv`` names only GPUs of ``gpus.csv``, and each of them."""
    listed = list(others["gpus.csv"]["gpu"])
    have = set(df["gpu"])
    out = [
        f"  {_line(i)}: GPU {g!r} is not listed in data/gpus.csv (rule: every GPU of "
        "hardware.csv has a row there)"
        for i, g in zip(df.index, df["gpu"])
        if g not in set(listed)
    ][:3]
    out += [
        f"  table: no rows for GPU {g!r}, which data/gpus.csv lists (required: every "
        "listed GPU has its parameters)"
        for g in listed
        if g not in have
    ]
    return out


# ---- data/huang_li/k80_parameters.csv
K80_PARAMETERS = (
    "lat_row_hit",
    "lat_row_miss",
    "lat_row_conflict",
    "memory_controllers",
    "banks_per_controller",
    "l2_bytes",
    "l2_assoc",
    "l2_line_bytes",
    "tex_sets",
    "tex_line_bytes",
    "tex_assoc",
    "const_sets",
    "const_line_bytes",
    "const_assoc",
    "dram_request_bytes",
    "transaction_bytes",
    "hit_lat",
    "shmem_lat",
    "departure_del_coal",
    "departure_del_uncoal",
    "ilp",
    "mlp",
    "occupancy_hit",
    "occupancy_miss",
    "occupancy_conflict",
)
"""The parameters of the K80 machine the Huang & Li model reads (each is required)."""

DRAM_LATENCY_NS = (50.0, 5000.0)
"""Plausible loaded-or-not DRAM latency of a GPU load in ns (today 352 .. 1008)."""

K80_RANGES: dict[str, tuple[float, float]] = {
    "lat_row_hit": DRAM_LATENCY_NS,
    "lat_row_miss": DRAM_LATENCY_NS,
    "lat_row_conflict": DRAM_LATENCY_NS,
    "memory_controllers": (1, 64),
    "banks_per_controller": (1, 64),
    "hit_lat": (1, 2000),  # cycles
    "shmem_lat": (1, 500),  # cycles
    "occupancy_hit": (0.1, 1000),  # ns of bank busy time
    "occupancy_miss": (0.1, 1000),
    "occupancy_conflict": (0.1, 1000),
}


def _k80_rules(df: pd.DataFrame) -> list[str]:
    out = _param_ranges(K80_RANGES, "the K80's")(df)
    out += _required(
        ("parameter",), [(p,) for p in K80_PARAMETERS], "the model reads it"
    )(df)
    v = dict(zip(df["parameter"], _num(df["value"])))
    ln = dict(zip(df["parameter"], df.index))
    order = ("lat_row_hit", "lat_row_miss", "lat_row_conflict")
    for a, b in itertools.pairwise(order):
        if a in v and b in v and not v[a] < v[b]:
            out.append(
                f"  {_line(ln[a])} and {_line(ln[b])}: {a} {v[a]:g} ns is not below "
                f"{b} {v[b]:g} ns (rule: hit < miss < conflict)"
            )
    return out


# the published input rows that are K80 parameters: published key -> parameter
HUANG_LI_INPUTS = {
    "hl17.s3c2.lat_hit.K80": "lat_row_hit",
    "hl17.s3c2.lat_miss.K80": "lat_row_miss",
    "hl17.s3c2.lat_conflict.K80": "lat_row_conflict",
    "hl17.s3c1.controllers.K80": "memory_controllers",
}


def _published_vs_k80(df: pd.DataFrame, others: dict) -> list[str]:
    """Each printed K80 parameter taken in (an ``input`` row) equals the value of
    ``huang_li/k80_parameters.csv`` the model reads."""
    k80 = others["huang_li/k80_parameters.csv"]
    par = dict(zip(k80["parameter"], zip(k80.index, _num(k80["value"]))))
    out = []
    for i, key, v in zip(df.index, df["key"], _num(df["value"])):
        p = HUANG_LI_INPUTS.get(key)
        if p is None or p not in par:
            continue
        j, w = par[p]
        if not math.isclose(v, w, rel_tol=1e-9):
            out.append(
                f"  {_line(i)} ({key}): {v:g}, but {_line(j)} of "
                f"data/huang_li/k80_parameters.csv ({p}) is {w:g} (rule: a printed "
                "input equals the parameter the model reads)"
            )
    return out


# ---- Volkov's Tables 4.1 and 6.5
def _volkov_6_5_rules(df: pd.DataFrame) -> list[str]:
    """Table 6.5's ``latency = a + b·x/(c − x)``: ``a`` is the unloaded latency (some
    hundred cycles), larger than ``b`` and than ``c`` (GB/s, some tens to hundreds); in
    the one-term fit the asymptote ``c`` is above ``b`` (today by 20 to 200)."""
    out = []
    for i, r in df.iterrows():
        a, b, c = r["a"], r["b"], r["c"]
        what = f"{_line(i)} ({r['gpu']} {r['variant']} term {r['term']:g})"
        if not (a > b and a > c):
            out.append(
                f"  {what}: a={a:g}, b={b:g}, c={c:g} (rule: a, the unloaded latency, "
                "is larger than b and c; columns swapped?)"
            )
        elif r["variant"] == "table_6_5" and not c > b:
            out.append(
                f"  {what}: b={b:g}, c={c:g} (rule: in the one-term fit c > b; "
                "columns swapped?)"
            )
    return out


def _volkov_6_5_vs_peaks(df: pd.DataFrame, others: dict) -> list[str]:
    """``a`` within 15 % of Table 4.1's memory latency of the same GPU (today 0.98 to
    1.02); the one-term ``c`` above Table 6.4's peak and at most 1.5 times it (today
    1.01 to 1.10); every ``c`` within [0.9, 2] times the peak (two-term: 0.96, 1.64)."""
    t41 = others["volkov/table_4_1.csv"]
    lat = dict(zip(t41["gpu"], _num(t41["mem_lat"])))
    ch6 = others["volkov/chapter6_metrics.csv"]
    pk = ch6[(ch6["table"] == "6.4") & (ch6["column"] == "peak")]
    peak = dict(zip(pk["gpu"], _num(pk["value"])))
    out = []
    for i, r in df.iterrows():
        g, a, c = r["gpu"], r["a"], r["c"]
        what = f"{_line(i)} ({g} {r['variant']} term {r['term']:g})"
        if g in lat and not abs(a - lat[g]) <= 0.15 * lat[g]:
            out.append(
                f"  {what}: a={a:g} cycles, but Table 4.1's mem_lat is {lat[g]:g} "
                "(rule: a within 15 % of the unloaded latency, data/volkov/"
                "table_4_1.csv)"
            )
        if g in peak:
            lo, hi = (1.0, 1.5) if r["variant"] == "table_6_5" else (0.9, 2.0)
            if not (lo * peak[g] < c <= hi * peak[g]):
                out.append(
                    f"  {what}: c={c:g} GB/s, but Table 6.4's peak is {peak[g]:g} "
                    f"(rule: {lo:g} x peak < c <= {hi:g} x peak, "
                    "data/volkov/chapter6_metrics.csv)"
                )
    return out


_FIVE = [(g,) for g in VOLKOV_GPUS]

RULES: dict[str, tuple[Rule, ...]] = {
    "transit/machines.csv": (_transit_rules,),
    "hardware.csv": (_hardware_rules,),
    "huang_li/k80_parameters.csv": (_k80_rules,),
    "volkov/table_4_1.csv": (_required(("gpu",), _FIVE, "one row per Volkov GPU"),),
    "volkov/table_4_3.csv": (_required(("gpu",), _FIVE, "one row per Volkov GPU"),),
    "volkov/transactions.csv": (_required(("gpu",), _FIVE, "one row per Volkov GPU"),),
    "volkov/table_6_5.csv": (
        _required(
            ("gpu", "variant"),
            [(g, "table_6_5") for g in VOLKOV_GPUS],
            "Table 6.5's fit for each Volkov GPU",
        ),
        _volkov_6_5_rules,
    ),
}
"""Row rules of a table beyond its schema's column checks,
run by :func:`validate` after them."""

CrossRule = Callable[[pd.DataFrame, dict], list[str]]
CROSS_RULES: dict[str, tuple[tuple[tuple[str, ...], CrossRule], ...]] = {
    "hardware.csv": ((("gpus.csv",), _gpus_vs_hardware),),
    "published/huang_li.csv": ((("huang_li/k80_parameters.csv",), _published_vs_k80),),
    "volkov/table_6_5.csv": (
        (("volkov/table_4_1.csv", "volkov/chapter6_metrics.csv"), _volkov_6_5_vs_peaks),
    ),
}
"""Rules between tables: ``relpath -> ((other tables, rule), ...)``; the loader
(:mod:`gpumodels.ground.data`) runs them with the other tables as text frames
(:func:`cross_validate`)."""

PUBLISHED_ROWS: dict[str, int] = {
    "hong_kim": 116,
    "volkov": 296,
    "huang_li": 68,
    "perez_piccoli": 33,
    "transit": 27,
}
"""Rows of each table of ``data/published/``: a deleted row is an error, not a
shorter scoreboard. Update the count here when rows are added or removed."""

# --------------------------------------------------------------------------------------
# reading and validating


def _frame(text_: str, relpath: str) -> pd.DataFrame:
    """The table as strings; a row with more or fewer fields than the header is an error
    (csv would silently drop the extra fields or fill the missing ones)."""
    rows = list(csv.reader(io.StringIO(text_.removeprefix("\ufeff"))))
    if not rows:
        raise DataError(f"data/{relpath}: the file is empty (no header)")
    header, body = rows[0], rows[1:]
    for i, r in enumerate(body):
        if r and len(r) != len(header):
            why = "an unquoted comma?" if len(r) > len(header) else "a row cut short?"
            raise DataError(
                f"data/{relpath}: line {i + 2} has {len(r)} fields, "
                f"the header {len(header)} ({why}): {','.join(r)[:120]!r}"
            )
    return pd.DataFrame([r for r in body if r], columns=header, dtype=str)


def schema_of(relpath: str):
    """The pandera schema of ``data/<relpath>``;
    ``DataError`` if the file has none declared."""
    check_text("relpath", relpath)
    if relpath not in TABLES:
        raise DataError(
            f"data/{relpath} has no schema in gpumodels.ground.schemas.TABLES; "
            "declare one"
        )
    return TABLES[relpath].schema(relpath)


def validate(relpath: str, text_: str):
    """Check the CSV text of ``data/<relpath>`` against its schema; the parsed frame, or
    ``DataError`` naming file, line, column and value of (up to five) failures."""
    check_text("relpath", relpath)
    check_text("text_", text_)
    df = _frame(text_, relpath)
    if relpath not in TABLES:
        raise DataError(
            f"data/{relpath} has no schema in gpumodels.ground.schemas.TABLES; "
            "declare one"
        )
    table = TABLES[relpath]
    _check_header(relpath, list(df.columns), list(table.columns))
    schema = table.schema(relpath)
    work, bad = df.copy(), []
    for name, col in schema.columns.items():
        if name in work and col.coerce:  # numeric: empty cells are missing values
            raw = work[name].replace("", None)
            parsed = pd.to_numeric(raw.str.strip(), errors="coerce")
            bad += [
                f"  line {i + 2}, column {name!r}: not a number: {v!r}"
                for i, v in raw[parsed.isna() & raw.notna()].items()
            ]
            work[name] = parsed
    if bad:
        raise DataError(
            f"data/{relpath} fails its schema:\n"
            + "\n".join(bad[:5])
            + (f"\n  ... and {len(bad) - 5} more" if len(bad) > 5 else "")
        )
    import pandera.errors

    try:
        out = schema.validate(work, lazy=True)
    except pandera.errors.SchemaErrors as e:
        raise DataError(_message(relpath, e.failure_cases)) from None
    bad = [m for rule in RULES.get(relpath, ()) for m in rule(out)]
    if bad:
        raise DataError(
            f"data/{relpath} fails its rules:\n"
            + "\n".join(bad[:5])
            + (f"\n  ... and {len(bad) - 5} more" if len(bad) > 5 else "")
        )
    name = relpath.removeprefix("published/").removesuffix(".csv")
    published = relpath.startswith("published/") and name in PUBLISHED_ROWS
    if published and len(out) != PUBLISHED_ROWS[name]:
        raise DataError(
            f"data/{relpath} has {len(out)} rows, expected {PUBLISHED_ROWS[name]} "
            "(a row deleted or added? the count is pinned in "
            "gpumodels.ground.schemas.PUBLISHED_ROWS; update it with the table)"
        )
    return out


def _check_header(relpath: str, header: list[str], expected: list[str]) -> None:
    """A missing, unknown or misplaced column is an error naming it."""
    missing = [c for c in expected if c not in header]
    extra = [c for c in header if c not in expected]
    why = []
    if missing:
        why.append(f"column(s) {', '.join(map(repr, missing))} missing")
    if extra:
        why.append(f"column(s) {', '.join(map(repr, extra))} not in the schema")
    if not why and header != expected:
        why.append("columns out of order")
    if why:
        raise DataError(
            f"data/{relpath} fails its schema:\n  line 1 (header): "
            + "; ".join(why)
            + f" (rule: the columns are {', '.join(expected)}, in this order)"
        )


def cross_validate(relpath: str, df: pd.DataFrame, read: Callable[[str], str]) -> None:
    """Run the rules of :data:`CROSS_RULES` between ``data/<relpath>`` (its validated
    frame ``df``) and the tables it depends on (``read(relpath)`` gives their text; they
    are parsed, not validated, so that two tables never wait on each other);
    ``DataError`` naming both files, the lines and the rule."""
    if not isinstance(relpath, str):
        raise InputTypeError(f"relpath must be a string, got {relpath!r:.40}")
    for others, rule in CROSS_RULES.get(relpath, ()):
        frames = {o: _frame(read(o), o) for o in others}
        bad = rule(df, frames)
        if bad:
            raise DataError(
                f"data/{relpath} disagrees with "
                + " and ".join(f"data/{o}" for o in others)
                + ":\n"
                + "\n".join(bad[:5])
                + (f"\n  ... and {len(bad) - 5} more" if len(bad) > 5 else "")
            )


def _message(relpath: str, cases: pd.DataFrame) -> str:
    lines = []
    for _, c in cases.head(5).iterrows():
        idx = c.get("index")
        where = (
            f"line {int(idx) + 2}" if idx is not None and not pd.isna(idx) else "table"
        )
        col = c.get("column")
        col = f", column {col!r}" if isinstance(col, str) and col else ""
        lines.append(
            f"  {where}{col}: {c.get('check')} failed for {c.get('failure_case')!r}"
        )
    more = f"\n  ... and {len(cases) - 5} more" if len(cases) > 5 else ""
    return f"data/{relpath} fails its schema:\n" + "\n".join(lines) + more


# --------------------------------------------------------------------------------------
# data/silicon/gpuperfpredict/: nvprof launches of six Rodinia kernels on nine GPUs,
# measured by Amarís et al. (github.com/marcosamaris/gpuperfpredict @ 35b81711) and
# reduced by tools/reduce_gpuperfpredict.py (see the folder's README.md). One file per
# kernel and GPU in the original nvprof layout (original column names), and a manifest.

GPUPERFPREDICT_GPUS = (
    "GTX-680",
    "GTX-970",
    "GTX-980",
    "Quadro",
    "Tesla-K20",
    "Tesla-K40",
    "Tesla-P100",
    "Titan",
    "TitanX",
)
GPUPERFPREDICT_KERNELS = (
    "bpnn_adjust_weights_cuda",
    "bpnn_layerforward_CUDA",
    "calculate_temp",
    "kernel",
    "lud_diagonal",
    "lud_perimeter",
)
# listed in the original tree, but their blobs are absent from the snapshot
GPUPERFPREDICT_ABSENT = (("lud_perimeter", "GTX-970"), ("lud_perimeter", "TitanX"))
# launches equal in these columns are repeats of the same work (one row per group)
GPUPERFPREDICT_KEY = [
    "input.size.1",
    "input.size.2",
    "grid.x",
    "grid.y",
    "block.x",
    "block.y",
    "registers.per.thread",
    "static.smem",
    "inst_executed",
]
# nvprof counters kept, in the original files' column order, by position
_GPP_COUNTS_1 = (
    "elapsed_cycles_sm",
    "gld_inst_32bit",
    "gst_inst_32bit",
    "warps_launched",
    "inst_executed",
    "inst_issued1",
    "shared_load",
    "shared_store",
    "gld_request",
    "gst_request",
    "active_cycles",
)
_GPP_COUNTS_2 = (
    "shared_load_transactions",
    "shared_store_transactions",
    "global_load_transactions",
    "global_store_transactions",
    "device_memory_read_transactions",
    "l2_read_transactions",
    "l2_write_transactions",
    "floating_point_operations.single_precision.",
    "floating_point_operations.single_precision_add.",
    "floating_point_operation.single_precision_mul.",
    "floating_point_operations.single_precision_fma.",
    "floating_point_operations.double_precision.",
    "floating_point_operations.single_precision_special.",
    "fp_instructions.single.",
    "fp_instructions.double.",
    "integer_instructions",
    "control.flow_instructions",
    "load.store_instructions",
    "misc_instructions",
)
_GPP_SECONDS = number(0, 1e3, lo_open=True)  # a kernel's duration, s
# nvprof prints throughput with the unit stripped: GB/s, MB/s for small transfers
_GPP_THROUGHPUT = number(0, 1e5)
_GPP_IPC = number(0, 64)  # warp instructions per cycle per SM


def _gpuperfpredict_table(kernel: str, gpu: str) -> Table:
    """The schema of ``silicon/gpuperfpredict/<kernel>-<gpu>.csv``."""
    cols = {
        "input.size.1": COUNT,
        "input.size.2": COUNT,
        "duration": _GPP_SECONDS,
        **{c: number(1, 2**31, integer=True) for c in ("grid.x", "grid.y")},
        **{c: number(1, 1024, integer=True) for c in ("block.x", "block.y")},
        "registers.per.thread": number(1, 255, integer=True),
        "static.smem": number(0, 1e6),  # bytes, KiB on the GTX-980 and Tesla-P100
        "device": number(1, 100, integer=True),
        "name": text(isin=(kernel,)),
        "kernel": number(1, 100, integer=True),
        **{c: COUNT for c in _GPP_COUNTS_1},
        "executed_ipc": _GPP_IPC,
        "achieved_occupancy": number(0, 1),
        "device_memory_read_throughput": _GPP_THROUGHPUT,
        "device_memory_write_throughput": _GPP_THROUGHPUT,
        "issued_ipc": _GPP_IPC,
        **{c: COUNT for c in _GPP_COUNTS_2},
        "gpu_name": text(isin=(gpu,)),
        "launches": number(1, integer=True),
        "duration_min": _GPP_SECONDS,
        "duration_max": _GPP_SECONDS,
        "source": SOURCE,
    }
    return Table(
        cols,
        unique=GPUPERFPREDICT_KEY,
        checks=[
            _pa.Check(
                lambda df: (
                    (df["duration_min"] <= df["duration"])
                    & (df["duration"] <= df["duration_max"])
                ),
                name="duration_min <= duration <= duration_max",
            )
        ],
    )


def _gpuperfpredict_manifest_counts(df: pd.DataFrame) -> pd.Series:
    counts = df[["original_rows", "reduced_rows", "launches_total"]]
    reduced = df["status"] == "reduced"
    agree = (df["launches_total"] == df["original_rows"]) & (
        df["reduced_rows"] <= df["original_rows"]
    )
    return (reduced & counts.notna().all(axis=1) & agree) | (
        ~reduced & counts.isna().all(axis=1)
    )


ADDED_COLUMNS = ("launches", "duration_min", "duration_max", "source")
"""The columns the reduction appends to the original nvprof columns."""


def gpuperfpredict_columns() -> tuple[str, ...]:
    """The columns of a reduced gpuperfpredict file, in file order (the original nvprof
    columns kept by ``tools/reduce_gpuperfpredict.py``, then :data:`ADDED_COLUMNS`)."""
    return tuple(_gpuperfpredict_table("kernel", "gpu").columns)


TABLES.update(
    {
        f"silicon/gpuperfpredict/{k}-{g}.csv": _gpuperfpredict_table(k, g)
        for k in GPUPERFPREDICT_KERNELS
        for g in GPUPERFPREDICT_GPUS
        if (k, g) not in GPUPERFPREDICT_ABSENT
    }
)
TABLES["silicon/gpuperfpredict/manifest.csv"] = Table(
    {
        "file": text(regex=r"[^/]+\.csv"),
        "original_path": text(regex=r"datasets/[^/]+\.csv"),
        "original_blob": text(regex=r"[0-9a-f]{40}"),
        "original_rows": OPT_COUNT,
        "reduced_rows": OPT_COUNT,
        "launches_total": OPT_COUNT,
        "status": text(isin=("reduced", "missing_in_snapshot")),
        "source": SOURCE,
    },
    unique=["file"],
    checks=[
        _pa.Check(
            _gpuperfpredict_manifest_counts,
            name="reduced: launches_total = original_rows >= reduced_rows; "
            "missing_in_snapshot: no counts",
        )
    ],
)

# Parameter sets of the GPUs of the measured Rodinia launches
# (gpumodels.comparisons.silicon)
TABLES["silicon/model_inputs.csv"] = _wide(
    {"gpu": text()},
    {
        "mem_lat": number(1, 5000),
        "mem_lat_method": text(regex=r"(measured|assumed): .+"),
        "alu_lat": number(1, 100),
        "alu_thru": number(0, 1024, lo_open=True),
        "issue_thru": number(0, 16, lo_open=True),
    },
    tail=("source", "note"),
    unique=["gpu"],
)

# gpu-benches' gpu-roofline sweeps, measured by the benchmark's authors
# (tools/reduce_gpu_roofline.py)
TABLES["silicon/gpu_roofline/sweeps.csv"] = _wide(
    {
        "gpu": text(),
        "book_gpu": text(optional=True),
        "file": text(),
        "kernel_commit": text(regex=r"[0-9a-f]{12}"),
        "measured_by": text(),
    },
    {
        "device": number(0, 1024, integer=True),
        "blocks": number(1, integer=True),
        "block_size": number(1, 1024, integer=True),
        "its": number(0, integer=True),
        "flop_per_byte": POS,
        "gbs": number(0, 1e5, lo_open=True),
        "gflops": number(0, 1e6, lo_open=True),
        "clock_mhz": number(10, 10_000),
        "power_w": number(0, 10_000),
        "temperature_c": number(0, 150),
    },
    unique=["file", "device", "its"],
)

# The gpuperfpredict authors' own accuracy figures
# (data/silicon/gpuperfpredict_peers.md)
TABLES["silicon/gpuperfpredict_peers.csv"] = Table(
    {
        **{c: text() for c in ("paper", "model", "kernel", "gpu", "statistic")},
        "value": number(0),
        "unit": text(isin=("%", "ratio")),
        "source": SOURCE,
        "note": NOTE,
    },
    unique=["paper", "model", "kernel", "gpu", "statistic"],
)

# 64-bit floating-point throughput per compute capability
# (gpumodels.comparisons.silicon)
TABLES["silicon/fp64_throughput.csv"] = _wide(
    {"cc": text(regex=r"\d\.\d")},
    {"fp64_results_per_clock": number(1, 1024, integer=True)},
    tail=("source", "note"),
    unique=["cc"],
)

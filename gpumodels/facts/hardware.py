"""GPU records built from the sourced hardware tables in ``data/``.

``data/hardware.csv`` is tidy: one row per (gpu, parameter) with value, unit, source and
note. ``data/gpus.csv`` names each GPU and the aliases the papers use. Architectural
limits that are fixed by the compute capability (warp and block slots, register file,
shared memory, banks, issue) come from ``data/compute_capability.csv`` unless a GPU's
own row states them; a GPU's own row wins (e.g. Volkov's Table 2.8 gives dual issue for
the GTX 980 where NVIDIA's guide says single issue), and ``GPU.sources`` says where
every value came from.

>>> from gpumodels.facts.hardware import get_gpu
>>> g = get_gpu("Kepler")            # Volkov 2016 calls the GTX 680 "the Kepler GPU"
>>> g.name, g.sm_count, g.clock_ghz, g.pin_bandwidth_gbs
('GTX680', 8, 1.124, 192.3)
>>> g.max_warps_per_sm, g.compute_capability
(64, '3.0')
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import MappingProxyType

import pandas as pd

from gpumodels.facts import _fields
from gpumodels.facts.occupancy import ComputeCapability, limits
from gpumodels.ground import widgets
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import DataError, InputTypeError, UnknownNameError
from gpumodels.ground.schemas import PARAMETERS
from gpumodels.ground.validate import check_real

# GPU field filled from the compute-capability table when the GPU's own rows are silent
_FROM_CC = {
    "generation": "generation",
    "cuda_cores_per_sm": "cuda_cores_per_sm",
    "sfu_per_sm": "sfu_per_sm",
    "warp_schedulers_per_sm": "warp_schedulers_per_sm",
    "issue_cycles": "issue_cycles",
    "issue_width": "issue_width",
    "max_warps_per_sm": "max_warps_per_sm",
    "max_blocks_per_sm": "max_blocks_per_sm",
    "registers_per_sm": "registers_per_sm",
    "shared_mem_per_sm": "shared_mem_per_sm",
    "smem_banks": "smem_banks",
    "smem_bank_width_bits": "smem_bank_width",
}


@dataclass(frozen=True)
class GPU:
    """One GPU: product facts and architectural limits, each traceable to a source.

    Units are in the field names (``clock_ghz``, ``pin_bandwidth_gbs``, ...); counts are
    per SM where the name says so. ``None`` means no source gives the value -- the book
    never guesses. For dual-GPU boards (GTX 690, K80) every value is per GPU.
    ``clock_ghz`` is the processor (shader) clock, the top of the range for GPUs with
    dynamic clocks (Volkov 2016, §2.8).
    """

    name: str
    full_name: str
    aliases: tuple[str, ...]
    compute_capability: str
    generation: str
    sm_count: int | None = None
    cuda_cores_per_sm: int | None = None
    sfu_per_sm: int | None = None
    warp_schedulers_per_sm: int | None = None
    issue_cycles: int | None = None
    issue_width: int | None = None
    max_warps_per_sm: int | None = None
    max_blocks_per_sm: int | None = None
    registers_per_sm: int | None = None
    shared_mem_per_sm: int | None = None
    smem_banks: int | None = None
    smem_bank_width_bits: int | None = None
    smem_cycles_per_access: int | None = None
    clock_ghz: float | None = None
    base_clock_ghz: float | None = None
    graphics_clock_mhz: float | None = None
    memory_clock_mhz: float | None = None
    memory_bus_width_bits: int | None = None
    memory_type: str | None = None
    pin_bandwidth_gbs: float | None = None
    cuda_cores: int | None = None
    gpus_per_board: int = 1
    year: int | None = None
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    notes: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self):
        _fields.texts(self, ("name", "full_name", "compute_capability", "generation"))
        if not isinstance(self.aliases, tuple) or not all(
            isinstance(a, str) for a in self.aliases
        ):
            raise InputTypeError(
                f"GPU.aliases must be a tuple of strings, got {self.aliases!r:.60}"
            )
        _fields.optional_ints(self, _GPU_INTS)
        _fields.optional_reals(self, _GPU_REALS, lo_open=True)
        if self.memory_type is not None:
            _fields.texts(self, ("memory_type",))
        _fields.ints(self, ("gpus_per_board",), 1)
        _fields.mappings(self, ("sources", "notes"), str)

    @property
    def cc_limits(self) -> ComputeCapability:
        """The per-compute-capability limits (:mod:`gpumodels.facts.occupancy`)
        of this GPU."""
        return limits(self.compute_capability)

    @property
    def max_threads_per_sm(self) -> int | None:
        return None if self.max_warps_per_sm is None else 32 * self.max_warps_per_sm

    @property
    def warps_per_scheduler(self) -> float | None:
        """Resident warps each warp scheduler chooses from (Volkov 2016, Table 2.8)."""
        if self.max_warps_per_sm is None or not self.warp_schedulers_per_sm:
            return None
        return self.max_warps_per_sm / self.warp_schedulers_per_sm

    def peak_gflops(self, flops_per_core_cycle: float = 2.0) -> float | None:
        """Peak single-precision arithmetic throughput in GFLOP/s.

        ``sm_count x cuda_cores_per_sm x clock_ghz x flops_per_core_cycle``. The
        default, 2, counts one fused multiply-add per CUDA core per cycle; the vendor's
        figures for G80/GT200 sometimes count 3 (a multiply-add plus a co-issued
        multiply). ``None`` if a factor is unknown.
        """
        f = check_real(
            "flops_per_core_cycle", flops_per_core_cycle, 0.0, None, lo_open=True
        )
        if None in (self.sm_count, self.cuda_cores_per_sm, self.clock_ghz):
            return None
        return self.sm_count * self.cuda_cores_per_sm * self.clock_ghz * f

    def source(self, attribute: str) -> str:
        """Where ``attribute`` came from
        (a paper's table, a vendor document, or a derivation)."""
        names = {f.name for f in fields(self)}
        if not isinstance(attribute, str) or attribute not in names:
            raise ValueError(
                f"attribute must be a GPU field such as 'sm_count', got {attribute!r}"
            )
        return self.sources.get(attribute, "")


_GPU_INTS = (
    "sm_count",
    "cuda_cores_per_sm",
    "sfu_per_sm",
    "warp_schedulers_per_sm",
    "issue_cycles",
    "issue_width",
    "max_warps_per_sm",
    "max_blocks_per_sm",
    "registers_per_sm",
    "shared_mem_per_sm",
    "smem_banks",
    "smem_bank_width_bits",
    "smem_cycles_per_access",
    "memory_bus_width_bits",
    "cuda_cores",
    "year",
)
_GPU_REALS = (
    "clock_ghz",
    "base_clock_ghz",
    "graphics_clock_mhz",
    "memory_clock_mhz",
    "pin_bandwidth_gbs",
)


def _norm(name: str) -> str:
    s = re.sub(r"[^a-z0-9]", "", str(name).lower())
    for prefix in ("nvidia", "geforce", "tesla", "quadro"):
        if s.startswith(prefix) and len(s) > len(prefix):
            s = s[len(prefix) :]
    return s


@cache
def _gpus() -> dict[str, GPU]:
    meta = {r["gpu"]: r for r in read_rows("gpus.csv")}
    values: dict[str, dict[str, object]] = {g: {} for g in meta}
    srcs: dict[str, dict[str, str]] = {g: {} for g in meta}
    notes: dict[str, dict[str, str]] = {g: {} for g in meta}
    for r in read_rows("hardware.csv"):
        gpu, par = r["gpu"], r["parameter"]
        if gpu not in meta:
            raise DataError(
                f"data/hardware.csv names GPU {gpu!r}, "
                "which data/gpus.csv does not list"
            )
        if par not in PARAMETERS:
            raise DataError(f"data/hardware.csv: unknown parameter {par!r} for {gpu}")
        attr, unit, typ = PARAMETERS[par]
        if r["unit"] != unit:
            raise DataError(
                f"data/hardware.csv: {gpu} {par} has unit {r['unit']!r}, expected "
                f"{unit!r}"
            )
        values[gpu][attr] = typ(r["value"])
        srcs[gpu][attr] = r["source"]
        if r["note"]:
            notes[gpu][attr] = r["note"]
    out = {}
    for gpu, m in meta.items():
        v, s = values[gpu], srcs[gpu]
        if "compute_capability" not in v:
            raise DataError(
                f"data/hardware.csv: no row for gpu={gpu!r}, "
                "parameter='compute_capability' (required: every GPU of "
                "data/gpus.csv has one; its limits and generation come from it)"
            )
        cc = limits(v["compute_capability"])
        if "cuda_cores_per_sm" not in v and "cuda_cores" in v and "sm_count" in v:
            # the source's own totals first
            v["cuda_cores_per_sm"] = v["cuda_cores"] // v["sm_count"]
            s["cuda_cores_per_sm"] = "derived: cuda_cores / sm_count"
        for attr, cc_field in _FROM_CC.items():
            if attr not in v:
                v[attr] = getattr(cc, cc_field)
                s[attr] = f"compute capability {cc.cc}: {cc.sources[cc_field]}"
        if "sm_count" not in v and "cuda_cores" in v:
            v["sm_count"] = v["cuda_cores"] // v["cuda_cores_per_sm"]
            s["sm_count"] = "derived: cuda_cores / cuda_cores_per_sm"
        if "cuda_cores" not in v and "sm_count" in v:
            v["cuda_cores"] = v["sm_count"] * v["cuda_cores_per_sm"]
            s["cuda_cores"] = "derived: sm_count x cuda_cores_per_sm"
        aliases = tuple(a for a in m["aliases"].split(";") if a)
        out[gpu] = GPU(
            name=gpu,
            full_name=m["full_name"],
            aliases=aliases,
            sources=MappingProxyType(dict(s)),
            notes=MappingProxyType(dict(notes[gpu])),
            **v,
        )
    return out


@cache
def _index() -> dict[str, str]:
    idx: dict[str, str] = {}
    for g in _gpus().values():
        for key in (g.name, g.full_name, *g.aliases):
            n = _norm(key)
            if n in idx and idx[n] != g.name:
                raise ValueError(
                    f"GPU name {key!r} is ambiguous: {idx[n]} and {g.name}"
                )
            idx[n] = g.name
    return idx


def list_gpus() -> list[str]:
    """Canonical names of all GPUs in the tables, in table order
    (oldest generation first)."""
    return list(_gpus())


def get_gpu(name: str) -> GPU:
    """The :class:`GPU` named ``name``:
    a canonical name, full name or alias, in any case.

    Spaces, hyphens and the prefixes "NVIDIA", "GeForce", "Tesla" and "Quadro" are
    ignored, so ``"GTX 280"``, ``"gtx280"`` and ``"GT200"`` (Volkov's name for it) are
    the same GPU. An unknown name raises
    :class:`~gpumodels.ground.errors.UnknownNameError` (a ``KeyError`` and a
    ``ValueError``) listing the known ones; a name that is not a string raises
    ``InputTypeError``.
    """
    if not isinstance(name, str):
        raise InputTypeError(
            f"GPU name must be a string; known GPUs: {', '.join(list_gpus())}; got "
            f"{name!r}"
        )
    key = _index().get(_norm(name))
    if key is None:
        raise UnknownNameError(
            f"unknown GPU {name!r}; known GPUs: {', '.join(list_gpus())} "
            f"(aliases: {', '.join(a for g in _gpus().values() for a in g.aliases)})"
        )
    return _gpus()[key]


def table(gpus: list[str] | None = None):
    """Tidy ``pandas.DataFrame`` of every GPU attribute with its unit, source and note.

    Columns: ``gpu, generation, attribute, value, unit, source, note``; rows with no
    value are left out.
    """

    units = {attr: unit for attr, unit, _ in PARAMETERS.values()}
    rows = []
    given = _fields.name_list("gpus", gpus, "GPU names") if gpus is not None else []
    for name in given or list_gpus():
        g = get_gpu(name)
        for f in fields(GPU):
            if f.name in ("name", "full_name", "aliases", "sources", "notes"):
                continue
            val = getattr(g, f.name)
            # unsourced defaults (gpus_per_board = 1) stay out
            if val is None or not g.sources.get(f.name):
                continue
            rows.append(
                {
                    "gpu": g.name,
                    "generation": g.generation,
                    "attribute": f.name,
                    "value": val,
                    "unit": units.get(f.name, ""),
                    "source": g.sources.get(f.name, ""),
                    "note": g.notes.get(f.name, ""),
                }
            )
    return pd.DataFrame(rows)


def summary(
    gpus: list[str] | None = None,
    flops_per_core_cycle: float = 2.0,
    missing: str | None = None,
):
    """One row per GPU (indexed by name): generation, cc, SMs, cores/SM, clock, pin
    bandwidth, peak FP32, balance.

    Peak FP32 is :meth:`GPU.peak_gflops`; balance is peak FLOP/s per byte/s of pin
    bandwidth (NaN where either is unknown, or the string ``missing`` if given, for
    display).
    """

    if missing is not None and not isinstance(missing, str):
        raise InputTypeError(f"missing must be a string or None, got {missing!r:.60}")
    check_real("flops_per_core_cycle", flops_per_core_cycle, 0.0, None, lo_open=True)
    rows = []
    given = _fields.name_list("gpus", gpus, "GPU names") if gpus is not None else []
    for name in given or list_gpus():
        g = get_gpu(name)
        peak = g.peak_gflops(flops_per_core_cycle)
        bw = g.pin_bandwidth_gbs
        rows.append(
            {
                "GPU": g.name,
                "generation": g.generation,
                "cc": g.compute_capability,
                "SMs": g.sm_count,
                "cores/SM": g.cuda_cores_per_sm,
                "clock (GHz)": g.clock_ghz,
                "pin bandwidth (GB/s)": bw,
                "peak FP32 (GFLOP/s)": None if peak is None else round(peak, 1),
                "balance (FLOP/B)": None
                if peak is None or bw is None
                else round(peak / bw, 2),
            }
        )
    df = pd.DataFrame(rows).set_index("GPU")
    return df if missing is None else df.astype(object).where(df.notna(), missing)


def generation_tables(generation: str):
    """Values and sources of every GPU of one generation.

    Returns ``(values, sources)``: ``values`` has one row per attribute ("name (unit)")
    and one column per GPU; ``sources`` has one row per distinct source with the
    attributes it supplies.
    """

    if not isinstance(generation, str):
        raise InputTypeError(
            f"generation must be a string such as 'Kepler', got {generation!r:.60}"
        )
    full = table()
    t = full[full["generation"] == generation]
    if t.empty:
        known = sorted(set(full["generation"]))
        raise UnknownNameError(
            f"generation must be one of {', '.join(known)}, got {generation!r}"
        )
    t = t[~t["attribute"].isin(["generation"])]
    label = t["attribute"] + t["unit"].map(lambda u: f" ({u})" if u else "")
    values = (
        t.assign(attribute=label)
        .pivot(index="attribute", columns="gpu", values="value")
        .reindex(columns=[g for g in list_gpus() if g in set(t["gpu"])])
        .fillna("")
        .reindex(pd.unique(label))
    )
    grouped = t.groupby("source", sort=False).apply(
        lambda d: "; ".join(
            f"{g}: {', '.join(d[d.gpu == g].attribute)}" for g in pd.unique(d.gpu)
        ),
        include_groups=False,
    )
    sources = grouped.rename("supplies").reset_index()
    return values, sources


# Explorer (live kernel only; the tests call summary_html)


def summary_html(name: str) -> str:
    """An HTML table of one GPU's attributes with units and sources."""

    g = get_gpu(name)
    t = table([g.name])
    rows = [
        (r.attribute, f"{r.value} {r.unit}".strip(), r.source) for r in t.itertuples()
    ]
    return f"<b>{html.escape(g.full_name)}</b>" + widgets.table_html(
        rows, ("attribute", "value", "source")
    )


def explorer():
    """Dropdown of all GPUs; shows the chosen GPU's attributes and their sources."""
    import ipywidgets as W

    pick = W.Dropdown(options=list_gpus(), value="GTX680", description="GPU")
    out = W.HTML(summary_html(pick.value))
    pick.observe(
        lambda change: setattr(out, "value", summary_html(change["new"])), names="value"
    )
    return widgets.explorer_box([pick], out)

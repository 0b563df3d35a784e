"""The parameter record every throughput model takes: :class:`Params` (Volkov 2016,
Table 4.1 and Table 6.5), and :func:`check_params`.

A record is built from sourced tables by :mod:`gpumodels.facts.param_sets` (Volkov's
five GPUs) or :mod:`gpumodels.facts.modern` (public measurements of later GPUs); its
fields are checked on construction, so that no model receives a negative latency or a
zero throughput.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from gpumodels.facts import _fields, hardware
from gpumodels.ground.errors import InputTypeError, OutsideDomainError
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_int,
    check_mapping,
    check_real,
    out,
)

BYTES_PER_LOAD = 128  # a fully coalesced 32-bit load of one warp (§4.1, §6.5)


KINDS = ("memory", "sfu", "shared")


@dataclass(frozen=True)
class Params:
    """Model inputs for one GPU (Volkov 2016, Table 4.1 and Table 6.5).

    Latencies are in cycles, throughputs in instructions per cycle (IPC) per SM. For the
    mixes of §4.7 (``kind`` ``"sfu"`` or ``"shared"``) the ``mem_*`` fields describe the
    SFU or shared-memory instruction that takes the place of the global load.

    Attributes
    ----------
    gpu, product : str
        Generation name used in the dissertation ("Kepler") and the product
        (``"GTX680"``).
    mem_lat, mem_thru : float
        Latency (cycles) and peak throughput (IPC/SM) of the memory (or other)
        instruction.
    mem_lat_to_alu : float
        Its latency when the dependent instruction is a CUDA-core add (§4.7; Maxwell
        only differs).
    mem_issue : float
        Issue cycles per memory (or other) instruction; 1 in the model, larger in the
        §4.7/§4.12 variants.
    alu_lat, alu_thru, issue_thru : float
        Add latency (cycles), add throughput and issue throughput (IPC/SM).
    a, b, c : float
        Table 6.5 coefficients of the latency model ``a + b·x/(c − x)`` (cycles, cycles,
        GB/s).
    latency_terms : tuple
        The ``(b, c)`` pairs the refined model uses: ``((b, c),)`` from Table 6.5, or
        the two G80 terms.
    sm_count, clock_ghz, schedulers, max_warps_per_sm
        From the GPU record (:mod:`gpumodels.facts.hardware`).
    """

    gpu: str
    product: str
    kind: str
    mem_lat: float
    mem_thru: float
    alu_lat: float
    alu_thru: float
    issue_thru: float
    a: float
    b: float
    c: float
    latency_terms: tuple[tuple[float, float], ...]
    latency_model: str
    sm_count: int
    clock_ghz: float
    schedulers: int
    max_warps_per_sm: int
    mem_lat_to_alu: float | None = None
    mem_issue: float = 1.0
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def gbs_per_ipc(self) -> float:
        """Conversion factor from IPC/SM of coalesced loads to GB/s, i.e. 128 B × SMs ×
        clock (§6.5)."""
        return BYTES_PER_LOAD * self.sm_count * self.clock_ghz

    @property
    def mem_thru_gbs(self) -> float:
        """Peak memory throughput in GB/s
        (Table 6.4's peak, up to Table 4.1's rounding)."""
        return self.mem_thru * self.gbs_per_ipc

    def memory_latency(self, x_gbs):
        """Mean memory latency in cycles at throughput ``x_gbs`` GB/s (§6.4, Table 6.5).

        ``OutsideDomainError`` at and beyond the smallest ``c`` of the latency terms,
        where the fit's latency is unbounded.
        """
        x = as_array("x_gbs", x_gbs, allow_inf=True)
        return out(loaded_latency(self, x))

    def replace(self, **changes) -> Params:
        """A copy with some fields changed (e.g. ``p.replace(mem_issue=8)`` for §4.12's
        variant); the copy is validated like a new record."""
        return dataclasses.replace(self, **changes)

    def __post_init__(self) -> None:
        """Validate every field on construction (and so on :meth:`replace`)."""
        for name in ("gpu", "product", "latency_model"):
            if not isinstance(getattr(self, name), str):
                raise InputTypeError(
                    f"Params.{name} must be a string, got {getattr(self, name)!r}"
                )
        check_choice("Params.kind", self.kind, KINDS)
        check_mapping("Params.sources", self.sources)
        for name in ("mem_lat", "alu_lat", "clock_ghz", "mem_issue"):
            check_real(
                f"Params.{name}",
                getattr(self, name),
                lo=0.0,
                lo_open=True,
                context=self.gpu,
            )
        # inf: the limit is switched off
        for name in ("mem_thru", "alu_thru", "issue_thru"):
            as_array(
                f"Params.{name} ({self.gpu})",
                getattr(self, name),
                lo=0.0,
                lo_open=True,
                allow_inf=True,
            )
        for name in ("a", "b"):
            check_real(f"Params.{name}", getattr(self, name), lo=0.0, context=self.gpu)
        # inf: no contention
        as_array(f"Params.c ({self.gpu})", self.c, lo=0.0, lo_open=True, allow_inf=True)
        if self.mem_lat_to_alu is not None:
            check_real(
                "Params.mem_lat_to_alu",
                self.mem_lat_to_alu,
                lo=0.0,
                lo_open=True,
                context=self.gpu,
            )
        for name in ("sm_count", "schedulers", "max_warps_per_sm"):
            check_int(f"Params.{name}", getattr(self, name), 1, context=self.gpu)
        _fields.pairs(self, "latency_terms", "no contention", context=self.gpu)


def check_params(p, name: str = "p") -> Params:
    """``p`` if it is a :class:`Params` record;
    ``InputTypeError`` saying how to get one otherwise."""
    if isinstance(p, Params):
        return p
    hint = "volkov.params('Kepler')"
    if isinstance(p, str):
        hint = f"volkov.params({p!r})"
    elif isinstance(p, hardware.GPU):
        hint = f"volkov.params({p.name!r}) for that GPU"
    raise InputTypeError(
        f"{name} must be a volkov Params record (e.g. {hint}), got {type(p).__name__} "
        f"{p!r:.60}"
    )


SATURATED = ("raise", "inf")
"""What :func:`loaded_latency` does at and beyond the smallest ``c``: refuse, or give
``inf``."""


def loaded_latency(p: Params, x_gbs: np.ndarray, *, saturated: str = "raise"):
    """Memory latency (cycles) at throughput ``x_gbs`` (GB/s, an array) by Table 6.5's
    terms ``a + Σ b·x/(c − x)``.

    At and beyond the smallest ``c`` the latency is unbounded: ``saturated="raise"``
    (the default) raises ``OutsideDomainError`` naming the throughput and ``c``;
    ``saturated="inf"`` gives ``inf`` there, for callers that search across ``c``
    (the refined model's fixed point).
    """
    p = check_params(p)
    check_choice("saturated", saturated, SATURATED)
    x_gbs = as_array("x_gbs", x_gbs, allow_inf=True)
    c_min = min(c for _, c in p.latency_terms)
    if saturated == "raise" and np.any(x_gbs >= c_min):
        first = float(np.asarray(x_gbs)[x_gbs >= c_min].flat[0])
        raise OutsideDomainError(
            f"x_gbs must be below c = {c_min:g} GB/s for {p.gpu} (the latency of "
            f"Table 6.5's fit is unbounded from c on), got {first:g}"
        )
    lat = np.full(np.shape(x_gbs), p.a, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        for b, c in p.latency_terms:
            lat = lat + b * x_gbs / (c - x_gbs)
    return np.where(x_gbs >= c_min, np.inf, lat)


def without_latency_fit(
    gpu: str,
    *,
    mem_lat: float,
    mem_thru: float,
    alu_lat: float,
    alu_thru: float,
    issue_thru: float,
    sources: Mapping[str, str],
) -> Params:
    """A parameter set with Table 4.1's five numbers and no Table 6.5 latency fit (the
    basic and the prior models run on it; the refined model refuses it): the GPU's SM
    count, clock, schedulers and warp slots from its hardware record, whose sources are
    added to ``sources``."""
    mem_lat = check_real("mem_lat", mem_lat, 0.0, lo_open=True)
    alu_lat = check_real("alu_lat", alu_lat, 0.0, lo_open=True)
    thru = {}
    for name, v in (
        ("mem_thru", mem_thru),
        ("alu_thru", alu_thru),
        ("issue_thru", issue_thru),
    ):
        if not _fields.is_real(v):  # inf: the limit is switched off
            raise InputTypeError(
                f"{name} must be a number in (0, inf], got {type(v).__name__} {v!r:.40}"
            )
        thru[name] = float(as_array(name, v, lo=0.0, lo_open=True, allow_inf=True))
    check_mapping("sources", sources)
    rec = hardware.get_gpu(gpu)
    return Params(
        gpu=rec.name,
        product=rec.name,
        kind="memory",
        mem_lat=mem_lat,
        mem_thru=thru["mem_thru"],
        alu_lat=alu_lat,
        alu_thru=thru["alu_thru"],
        issue_thru=thru["issue_thru"],
        a=mem_lat,
        b=0.0,
        c=float("inf"),
        latency_terms=(),
        latency_model="none",
        sm_count=rec.sm_count,
        clock_ghz=rec.clock_ghz,
        schedulers=rec.warp_schedulers_per_sm,
        max_warps_per_sm=rec.max_warps_per_sm,
        sources={
            **sources,
            "sm_count": rec.source("sm_count"),
            "clock_ghz": rec.source("clock_ghz"),
            "schedulers": rec.source("warp_schedulers_per_sm"),
        },
    )

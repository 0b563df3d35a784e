"""The machine points δ and π of Li et al. (2015, §3) and what their coordinates mean.

The paper gives, for a Tesla C2075 and one GK104 GPU of a GTX 690, the MS transition
point ``δ = (k_delta, R)`` and the CS transition point ``π = (M, π_y)`` in threads and
GB/s, for single (SP) and double (DP) precision (``data/transit/machines.csv``). The
text does not say what the coordinates count; the book reads them as follows (the
Transit chapter gives the evidence):

* **Per SM.** ``k_delta(SP)`` is the SM's thread limit (1536 on Fermi, 2048 on Kepler;
  §3 says so for the C2075), and ``R`` times the SM count is 87 % (C2075) and 68 % (GTX
  690) of the pin bandwidth, where the per-GPU reading would give 6 % and 8 %.
* **One word per thread request.** With 4 B (SP) or 8 B (DP) per request, Little's law
  on the slope of ``f`` gives a latency ``L = k_delta · bytes / R`` that agrees between
  SP and DP (C2075: 688 and 661 ns; GTX 690: 504 and 434 ns).
* **M is lanes × latency.** ``M(SP) = 576`` on the C2075 is 32 lanes × 18 cycles, the
  Fermi add latency (Volkov 2016, Table 6.2): the threads CS needs to saturate, by
  Little's law, not the number of CUDA cores.
* **Z in thread-instructions per DRAM byte.** The paper measures ``Z`` as instructions
  issued per DRAM transaction; a warp instruction is 32 thread-instructions and a
  transaction 32 B, so the number is also thread-instructions per byte. For ``g(x) =
  min(x, M)/Z`` to be in GB/s, ``π_y`` must be ``g``'s height at ``Z = 1``: the CS
  throughput at saturation in G thread-instructions/s per SM. ``π_y`` does not depend on
  the workload, so the coordinates alone "determine f(k) and g(x) uniquely", as §3
  claims. This is the book's reading, not the paper's statement.

In these units a workload of intensity ``Z`` (instructions per byte) is the model
workload ``Z_model = Z · M / π_y`` (thread · s per GB); the model's CS throughput
``Z_model · T`` is the number of busy lanes and ``Z · T`` the CS throughput in G
thread-instructions/s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

import numpy as np

from gpumodels.facts import hardware
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import DataError, UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    check_mapping,
    check_real,
    check_text,
    out,
)
from gpumodels.papers.transit.model import Equilibrium, equilibrium

PRECISIONS = ("SP", "DP")
"""Single and double precision, the two machine descriptions §3 gives per GPU."""

WORD_BYTES = MappingProxyType({"SP": 4, "DP": 8})
"""Bytes per thread memory request in the book's reading,
one IEEE single or double word."""

_FILE = "transit/machines.csv"
_PARAMS = ("k_delta", "R", "M", "pi_height")


@dataclass(frozen=True)
class Machine:
    """One GPU's Transit machine description at one precision
    (per SM; Li et al. 2015, §3).

    Attributes
    ----------
    gpu, precision
        The GPU (a name from :func:`gpumodels.facts.hardware.list_gpus`) and ``"SP"`` or
        ``"DP"``.
    k_delta, R
        The MS transition point δ: threads per SM and GB/s per SM.
    M, pi_height
        The CS transition point π: threads per SM and GB/s per SM (read as the saturated
        CS throughput in G thread-instructions/s per SM at ``Z = 1``).
    sources
        Where each coordinate comes from.
    """

    gpu: str
    precision: str
    k_delta: float
    R: float
    M: float
    pi_height: float
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self):
        check_text("gpu", self.gpu, "Machine")
        check_mapping("sources", self.sources, "Machine")
        if self.precision not in PRECISIONS:
            raise UnknownNameError(
                f"precision must be one of {PRECISIONS}, got {self.precision!r}"
            )
        for name, point in (
            ("k_delta", "δ"),
            ("R", "δ"),
            ("M", "π"),
            ("pi_height", "π"),
        ):
            check_real(
                name,
                getattr(self, name),
                0.0,
                None,
                context=f"a coordinate of {point}",
                lo_open=True,
            )

    @property
    def word_bytes(self) -> int:
        """The size of one thread's memory request in bytes, 4 for SP and 8 for DP (the
        book's reading)."""
        return WORD_BYTES[self.precision]

    @property
    def latency_ns(self) -> float:
        """The memory latency implied by δ through Little's law, ``k_delta · word_bytes
        / R``, in ns."""
        return self.k_delta * self.word_bytes / self.R

    def latency_cycles(self, clock_ghz: float | None = None) -> float:
        """:attr:`latency_ns` in processor cycles
        (default clock: the GPU record's ``clock_ghz``)."""
        if clock_ghz is None:
            clock_ghz = hardware.get_gpu(self.gpu).clock_ghz
        c = as_array("clock_ghz", clock_ghz, lo_open=True)
        return out(self.latency_ns * c)

    @property
    def max_threads_per_sm(self) -> int:
        """The most threads an SM can hold, from the hardware table
        (the largest ``n``)."""
        return hardware.get_gpu(self.gpu).max_threads_per_sm

    @property
    def sm_count(self) -> int:
        """SMs per GPU, from the hardware table
        (to scale per-SM values to the whole GPU)."""
        return hardware.get_gpu(self.gpu).sm_count

    def model_Z(self, Z):
        """The model workload ``Z · M / π_y`` for ``Z`` in thread-instructions
        per DRAM byte."""
        Z = as_array("Z", Z, lo_open=True)
        return out(Z * self.M / self.pi_height)

    def inputs(self, n, Z) -> dict:
        """The model inputs ``n, Z, R, k_delta, M`` for ``n`` threads per SM at ``Z``
        instructions per byte (keyword arguments for
        :func:`~gpumodels.papers.transit.model.equilibrium`, ``raised`` and ``draw``).
        """
        return {
            "n": n,
            "Z": self.model_Z(Z),
            "R": self.R,
            "k_delta": self.k_delta,
            "M": self.M,
        }

    def solve(self, n, Z) -> Equilibrium:
        """The equilibrium for ``n`` threads per SM
        and ``Z`` thread-instructions per byte.

        ``ms_throughput`` is in GB/s per SM and ``cs_throughput`` in busy lanes
        (threads); the CS throughput in G thread-instructions/s per SM is ``Z ·
        ms_throughput`` (:meth:`cs_rate`).
        """
        return equilibrium(**self.inputs(n, Z))

    def cs_rate(self, n, Z):
        """Predicted CS throughput, ``Z · T``, in G thread-instructions/s per SM."""
        Z = as_array("Z", Z, lo_open=True)
        return out(Z * np.asarray(self.solve(n, Z).ms_throughput))

    @property
    def balance_Z(self) -> float:
        """The intensity of the capacity bound, ``π_y / R`` instructions per byte (``M/Z
        = R``)."""
        return self.pi_height / self.R


@cache
def _machines() -> dict[tuple[str, str], Machine]:
    values: dict[tuple[str, str], dict[str, float]] = {}
    sources: dict[tuple[str, str], dict[str, str]] = {}
    for row in read_rows(_FILE):
        key = (row["gpu"], row["precision"])
        if row["parameter"] in _PARAMS:
            values.setdefault(key, {})[row["parameter"]] = float(row["value"])
            sources.setdefault(key, {})[row["parameter"]] = row["source"]
    for key, v in values.items():
        lost = [p for p in _PARAMS if p not in v]
        if lost:
            raise DataError(
                f"data/{_FILE}: no row for gpu={key[0]!r}, precision={key[1]!r}, "
                + ", ".join(f"parameter={p!r}" for p in lost)
                + f" (required: a machine point needs all of {', '.join(_PARAMS)})"
            )
    return {
        key: Machine(key[0], key[1], sources=MappingProxyType(sources[key]), **v)
        for key, v in values.items()
    }


def machines() -> list[Machine]:
    """Every machine description of ``data/transit/machines.csv``, in file order."""
    return list(_machines().values())


def machine(gpu: str, precision: str = "SP") -> Machine:
    """The Transit machine of ``gpu`` (``"C2075"`` or ``"GTX690"``) at ``precision``."""
    if precision not in PRECISIONS:
        raise UnknownNameError(
            f"precision must be one of {PRECISIONS}, got {precision!r}"
        )
    known = sorted({g for g, _ in _machines()})
    try:
        return _machines()[(hardware.get_gpu(gpu).name, precision)]
    except KeyError:
        raise UnknownNameError(
            f"gpu must be one with Transit machine points ({', '.join(known)}), got "
            f"{gpu!r}"
        ) from None


def fp64_lanes(gpu: str) -> float:
    """Double-precision results per clock per SM, as ``data/transit/machines.csv``
    sources them."""
    known = sorted(
        {r["gpu"] for r in read_rows(_FILE) if r["parameter"] == "fp64_lanes"}
    )
    try:
        name = hardware.get_gpu(gpu).name  # any alias or case, as machine() takes it
    except UnknownNameError:
        name = None
    for row in read_rows(_FILE):
        if row["gpu"] == name and row["parameter"] == "fp64_lanes":
            return float(row["value"])
    raise UnknownNameError(
        f"gpu must be one with a sourced fp64_lanes row ({', '.join(known)}), got "
        f"{gpu!r}"
    )

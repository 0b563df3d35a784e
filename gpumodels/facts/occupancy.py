"""GPU-free occupancy calculator for compute capability 1.0 to 9.0.

Occupancy is the number of warps resident on one SM at a time (absolute occupancy, in
warps/SM), or that number divided by the SM's maximum (relative occupancy) -- Volkov
2016, §2.11 uses both. It is set by whichever of four resources runs out first:

* the warp slots (``max_warps_per_sm``) and the block slots (``max_blocks_per_sm``);
* the register file, allocated in units of ``register_allocation_unit`` registers, per
  block on compute capability 1.x and per warp from 2.0 on;
* shared memory, allocated in units of ``shared_mem_allocation_unit`` bytes, plus system
  overheads: 16 B per block and the kernel parameters on 1.x (Volkov 2016, §5.7), 1 KB
  reserved per block on 8.0 and later.

The per-compute-capability limits are read from ``data/compute_capability.csv``, each
with its source. The allocation rules follow NVIDIA's CUDA Occupancy Calculator
spreadsheet for cc 1.x and 2.x, and ``cuda_occupancy.h`` of CUDA 13.0 for cc 3.0 and
later; the test suite checks this module against numbers produced by that header.

Example
-------
>>> from gpumodels.facts.occupancy import blocks_per_sm
>>> blocks_per_sm("3.0", 128, 16, 3072)   # Volkov 2016 §5.7: 16 blocks ...
16
>>> blocks_per_sm("3.0", 128, 16, 3073)   # ... but one more byte gives 14, not 15
14
"""

from __future__ import annotations

import itertools
import math
import numbers
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import MappingProxyType

import numpy as np
import pandas as pd

from gpumodels.facts import _fields
from gpumodels.ground import widgets
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, UnknownNameError
from gpumodels.ground.validate import check_int, check_type, to_float

WARP_SIZE = 32
"""Threads per warp on every CUDA GPU so far (Volkov 2016, §2.2)."""

RESOURCES = ("warps", "blocks", "registers", "shared_memory")
"""The resources that can limit the number of resident blocks, in the order reported."""


class UnknownComputeCapabilityError(UnknownNameError):
    """An unknown compute capability; the message lists the known ones."""


@dataclass(frozen=True)
class ComputeCapability:
    """Architectural limits of one compute capability (one row set of
    ``data/compute_capability.csv``).

    Units: registers are 32-bit registers, shared memory is in bytes, bank width in
    bits. ``shared_mem_per_sm`` is the largest shared-memory configuration of the SM and
    ``max_shared_mem_per_block`` the largest allocation one block may request (with the
    opt-in attribute where it exceeds 48 KB). ``sources`` maps each field to its source.
    """

    cc: str
    generation: str
    max_threads_per_block: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    max_registers_per_block: int
    max_registers_per_thread: int
    shared_mem_per_sm: int
    max_shared_mem_per_block: int
    reserved_shared_mem_per_block: int
    system_shared_mem_per_block: int
    register_allocation_unit: int
    register_allocation_granularity: str
    warp_allocation_granularity: int
    shared_mem_allocation_unit: int
    smem_banks: int
    smem_bank_width: int
    cuda_cores_per_sm: int
    sfu_per_sm: int
    warp_schedulers_per_sm: int
    issue_cycles: int
    issue_width: int
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self):
        _fields.texts(self, _TEXT_FIELDS)
        _fields.ints(
            self,
            (
                f.name
                for f in fields(self)
                if f.name not in _TEXT_FIELDS and f.name != "sources"
            ),
        )
        _fields.mappings(self, ("sources",))

    @property
    def max_threads_per_sm(self) -> int:
        """Resident threads per SM (``max_warps_per_sm`` x 32)."""
        return self.max_warps_per_sm * WARP_SIZE

    @property
    def major(self) -> int:
        return int(self.cc.split(".")[0])


_TEXT_FIELDS = {"cc", "generation", "register_allocation_granularity"}


@cache
def _table() -> dict[str, ComputeCapability]:
    rows = read_rows("compute_capability.csv")
    by_cc: dict[str, dict[str, str]] = {}
    srcs: dict[str, dict[str, str]] = {}
    for r in rows:
        by_cc.setdefault(r["cc"], {})[r["parameter"]] = r["value"]
        srcs.setdefault(r["cc"], {})[r["parameter"]] = r["source"]
    names = [
        f.name for f in fields(ComputeCapability) if f.name not in ("cc", "sources")
    ]
    out = {}
    for cc, vals in by_cc.items():
        missing = [n for n in names if n not in vals]
        if missing:
            raise ValueError(f"data/compute_capability.csv: cc {cc} lacks {missing}")
        kw = {n: (vals[n] if n in _TEXT_FIELDS else int(vals[n])) for n in names}
        out[cc] = ComputeCapability(
            cc=cc, sources=MappingProxyType(dict(srcs[cc])), **kw
        )
    return out


def list_compute_capabilities() -> list[str]:
    """All compute capabilities the calculator knows, oldest first
    (e.g. ``['1.0', ..., '9.0']``)."""
    return sorted(_table(), key=lambda s: tuple(int(p) for p in s.split(".")))


CC_FORMS = "'7.5', '75', 'sm_75', 'compute_75', 7.5, 7 or (7, 5)"
"""The spellings :func:`normalize_cc` accepts (shown for compute capability 7.5)."""

_CC_DOTTED = re.compile(r"(\d{1,2})\.(\d)")
_CC_DIGITS = re.compile(r"(?:sm_|compute_)?(\d{1,2})(\d)")


def normalize_cc(cc) -> str:
    """Canonical ``"X.Y"`` form of a compute capability given as ``"7.5"``, ``"75"``,
    ``"sm_75"``, ``"compute_75"``, ``7.5``, ``7`` (``"7.0"``) or ``(7, 5)``.

    Parsing is strict (:data:`CC_FORMS`): the minor version is one digit, so ``"7.05"``
    is an error rather than ``"7.5"``, and a float must equal its one-decimal form
    (``8.96`` is not ``9.0``). A string of two or three digits reads as in ``sm_75``
    (``"100"`` is 10.0); a single digit is the major version (``"7"`` is 7.0). Whether
    the compute capability is known is :func:`limits`'s question.

    >>> normalize_cc("sm_75"), normalize_cc("75"), normalize_cc(7.5), normalize_cc(7)
    ('7.5', '7.5', '7.5', '7.0')
    """
    if isinstance(cc, str):
        s = cc.strip().lower()
        m = _CC_DOTTED.fullmatch(s) or _CC_DIGITS.fullmatch(s)
        if m:
            return f"{int(m[1])}.{int(m[2])}"
        if len(s) == 1 and s.isdigit():
            return f"{int(s)}.0"
    elif (
        isinstance(cc, tuple)
        and len(cc) == 2
        and all(
            isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in cc
        )
        and 0 <= cc[0] <= 99
        and 0 <= cc[1] <= 9
    ):
        return f"{int(cc[0])}.{int(cc[1])}"
    elif (
        isinstance(cc, numbers.Real)
        and not isinstance(cc, (bool, np.bool_))
        and math.isfinite(to_float(cc))
    ):
        text = f"{float(cc):.1f}"
        # 8.96 is not 9.0: never round silently
        if float(text) == float(cc) and 0 <= float(cc) < 100:
            return text
    raise UnknownComputeCapabilityError(
        f"cc must be a compute capability written as {CC_FORMS}; known: "
        f"{', '.join(list_compute_capabilities())}; got {cc!r:.40}"
    )


def limits(cc) -> ComputeCapability:
    """The architectural limits of compute capability ``cc``; an unknown cc raises
    ``UnknownComputeCapabilityError``."""
    key = normalize_cc(cc)
    table = _table()
    if key not in table:
        raise UnknownComputeCapabilityError(
            f"unknown compute capability {key!r}; known: "
            f"{', '.join(list_compute_capabilities())}"
        )
    return table[key]


@dataclass(frozen=True)
class Occupancy:
    """Result of :func:`occupancy`.

    ``limits`` maps each resource in :data:`RESOURCES` to the number of blocks it alone
    would allow (``None``: that resource sets no limit, e.g. zero registers).
    ``limiter`` is the first resource, in :data:`RESOURCES` order, that attains the
    minimum; ``limiters`` lists all of them.
    """

    cc: str
    threads_per_block: int
    registers_per_thread: int
    shared_mem_per_block: int
    warps_per_block: int
    blocks_per_sm: int
    warps_per_sm: int
    occupancy: float
    limiter: str
    limiters: tuple[str, ...]
    limits: Mapping[str, int | None]
    allocated_registers_per_block: int
    allocated_shared_mem_per_block: int

    def __post_init__(self):
        _fields.texts(self, ("cc", "limiter"))
        _fields.ints(
            self,
            (
                "threads_per_block",
                "registers_per_thread",
                "shared_mem_per_block",
                "warps_per_block",
                "blocks_per_sm",
                "warps_per_sm",
                "allocated_registers_per_block",
                "allocated_shared_mem_per_block",
            ),
        )
        _fields.reals(self, ("occupancy",), 0.0, 1.0)
        if not isinstance(self.limiters, tuple) or not all(
            x in RESOURCES for x in self.limiters
        ):
            raise InputTypeError(
                f"Occupancy.limiters must be a tuple of resources among "
                f"{', '.join(RESOURCES)}, got {self.limiters!r:.60}"
            )
        _fields.mappings(self, ("limits",))
        for k, v in self.limits.items():
            if v is not None:
                check_int(f"Occupancy.limits[{k!r}]", v, 0)

    @property
    def threads_per_sm(self) -> int:
        return self.blocks_per_sm * self.threads_per_block


def _round_up(x: int, unit: int) -> int:
    return -(-x // unit) * unit


def _register_limit(
    lim: ComputeCapability, warps_per_block: int, regs: int
) -> tuple[int | None, int]:
    """Blocks per SM allowed by the register file, and registers allocated per block."""
    if regs == 0:
        return None, 0
    unit = lim.register_allocation_unit
    gran = lim.warp_allocation_granularity
    if lim.register_allocation_granularity == "block":
        # cc 1.x: a block's warps are rounded up to an even count, then its registers to
        # the unit.
        per_block = _round_up(_round_up(warps_per_block, gran) * regs * WARP_SIZE, unit)
        if per_block > lim.max_registers_per_block:
            return 0, per_block
        return lim.registers_per_sm // per_block, per_block
    per_warp = _round_up(regs * WARP_SIZE, unit)
    per_block = per_warp * warps_per_block
    if lim.major == 2:
        # CUDA Occupancy Calculator rule for Fermi: warps that fit, floored to an even
        # count.
        if per_block > lim.max_registers_per_block:
            return 0, per_block
        warps = (lim.max_registers_per_block // per_warp) // gran * gran
        return (warps // warps_per_block) * (
            lim.registers_per_sm // lim.max_registers_per_block
        ), per_block

    # cc >= 3.0 (cuda_occupancy.h): the register file is split evenly between `gran`
    # sub-partitions; the per-block check assumes the block's warps rounded up to a
    # multiple of the sub-partitions.
    def fits(partitions: int) -> int:
        assumed = per_warp * _round_up(warps_per_block, partitions)
        if (
            per_block > lim.max_registers_per_block
            or assumed > lim.max_registers_per_block
        ):
            return 0
        warps_per_partition = (lim.registers_per_sm // partitions) // per_warp
        return (warps_per_partition * partitions) // warps_per_block

    blocks = fits(gran)
    if lim.cc == "6.0" and blocks and not fits(4):
        # cuda_occupancy.h: a block that would not fit a four-partition GP10x SM is
        # refused on GP100 too.
        blocks = 0
    return blocks, per_block


def _shared_memory_limit(
    lim: ComputeCapability, smem: int, kernel_param_bytes: int, smem_per_sm: int
) -> tuple[int | None, int]:
    """Blocks per SM allowed by shared memory, and bytes allocated per block."""
    overhead = lim.reserved_shared_mem_per_block + lim.system_shared_mem_per_block
    if lim.major == 1:
        overhead += kernel_param_bytes
    total = smem + overhead
    allocated = _round_up(total, lim.shared_mem_allocation_unit)
    if allocated == 0:
        return None, 0
    if (
        allocated > lim.max_shared_mem_per_block + lim.reserved_shared_mem_per_block
        or allocated > smem_per_sm
    ):
        return 0, allocated
    return smem_per_sm // allocated, allocated


def occupancy(
    cc,
    threads_per_block,
    registers_per_thread=0,
    shared_mem_per_block=0,
    *,
    kernel_param_bytes=0,
    shared_mem_per_sm=None,
) -> Occupancy:
    """Resident blocks and warps per SM for one kernel launch configuration.

    Parameters
    ----------
    cc : str
        Compute capability, e.g. ``"7.0"`` (see :func:`list_compute_capabilities`).
    threads_per_block : int
        Block size, 1 to ``max_threads_per_block`` (512 on cc 1.x, 1024 later).
    registers_per_thread : int
        Registers per thread as ``ptxas -v`` reports them, 0 to
        ``max_registers_per_thread``.
    shared_mem_per_block : int
        Bytes of shared memory the kernel allocates per block (static plus dynamic), 0
        to ``max_shared_mem_per_block``. System overheads are added here, not by the
        caller: 16 B per block plus ``kernel_param_bytes`` on cc 1.x (Volkov 2016, §5.7)
        and the 1 KB reserved per block on cc 8.0 and later.
    kernel_param_bytes : int
        Keyword-only. Bytes of kernel parameters; they occupy shared memory only on cc
        1.x (Volkov's 32-bit builds: 4 bytes per argument). Ignored on later GPUs.
    shared_mem_per_sm : int
        Keyword-only. Shared-memory capacity of the SM to assume, in bytes (default: the
        largest configuration, e.g. 48 KB on Fermi and Kepler, 228 KB on Hopper).

    Returns
    -------
    Occupancy
        Blocks, warps and relative occupancy, the limiting resource and the allocations.

    Notes
    -----
    A configuration whose block cannot fit at all (too many registers or too much shared
    memory for one block) gives ``blocks_per_sm == 0`` and names the resource in
    ``limiter``. Values outside each parameter's own range raise ``ValueError``.
    """
    lim = limits(cc)
    ctx = f"compute capability {lim.cc}"
    tpb = check_int(
        "threads_per_block", threads_per_block, 1, lim.max_threads_per_block, ctx
    )
    regs = check_int(
        "registers_per_thread",
        registers_per_thread,
        0,
        lim.max_registers_per_thread,
        ctx,
    )
    smem = check_int(
        "shared_mem_per_block",
        shared_mem_per_block,
        0,
        lim.max_shared_mem_per_block,
        ctx,
    )
    params = check_int("kernel_param_bytes", kernel_param_bytes, 0, None, ctx)
    smem_sm = (
        lim.shared_mem_per_sm
        if shared_mem_per_sm is None
        else check_int(
            "shared_mem_per_sm", shared_mem_per_sm, 1, lim.shared_mem_per_sm, ctx
        )
    )

    wpb = -(-tpb // WARP_SIZE)
    by_regs, regs_alloc = _register_limit(lim, wpb, regs)
    by_smem, smem_alloc = _shared_memory_limit(lim, smem, params, smem_sm)
    per_resource = {
        "warps": lim.max_warps_per_sm // wpb,
        "blocks": lim.max_blocks_per_sm,
        "registers": by_regs,
        "shared_memory": by_smem,
    }
    blocks = min(v for v in per_resource.values() if v is not None)
    limiters = tuple(k for k in RESOURCES if per_resource[k] == blocks)
    warps = blocks * wpb
    return Occupancy(
        cc=lim.cc,
        threads_per_block=tpb,
        registers_per_thread=regs,
        shared_mem_per_block=smem,
        warps_per_block=wpb,
        blocks_per_sm=blocks,
        warps_per_sm=warps,
        occupancy=warps / lim.max_warps_per_sm,
        limiter=limiters[0],
        limiters=limiters,
        limits=MappingProxyType(per_resource),
        allocated_registers_per_block=regs_alloc,
        allocated_shared_mem_per_block=smem_alloc,
    )


def blocks_per_sm(
    cc, threads_per_block, registers_per_thread, shared_mem_per_block
) -> int:
    """Resident thread blocks per SM; shorthand for ``occupancy(...).blocks_per_sm``."""
    return occupancy(
        cc, threads_per_block, registers_per_thread, shared_mem_per_block
    ).blocks_per_sm


def _as_list(name: str, x) -> list:
    if isinstance(x, (str, bytes)) or not isinstance(x, Iterable):
        return [x]
    values = list(x)
    if not values:
        raise ValueError(f"{name} must hold at least one value, got an empty sequence")
    return values


def sweep(
    cc, threads_per_block, registers_per_thread=0, shared_mem_per_block=0, **kwargs
):
    """Occupancy over every combination of the given values (scalars or sequences).

    Returns a ``pandas.DataFrame`` with one row per combination and the columns
    ``cc, threads_per_block, registers_per_thread, shared_mem_per_block, blocks_per_sm,
    warps_per_sm, occupancy, limiter``. ``cc`` may also be a sequence.
    """

    rows = []
    for c, t, r, s in itertools.product(
        _as_list("cc", cc),
        _as_list("threads_per_block", threads_per_block),
        _as_list("registers_per_thread", registers_per_thread),
        _as_list("shared_mem_per_block", shared_mem_per_block),
    ):
        o = occupancy(c, t, r, s, **kwargs)
        rows.append(
            {
                "cc": o.cc,
                "threads_per_block": o.threads_per_block,
                "registers_per_thread": o.registers_per_thread,
                "shared_mem_per_block": o.shared_mem_per_block,
                "blocks_per_sm": o.blocks_per_sm,
                "warps_per_sm": o.warps_per_sm,
                "occupancy": o.occupancy,
                "limiter": o.limiter,
            }
        )
    return pd.DataFrame(rows)


def _parameter_names() -> list[str]:
    return [
        f.name for f in fields(ComputeCapability) if f.name not in ("cc", "sources")
    ]


def _check_parameters(parameters, names: list[str]) -> list[str]:
    params = _fields.name_list("parameters", parameters)
    unknown = [p for p in params if not isinstance(p, str) or p not in names]
    if unknown:
        raise UnknownNameError(
            f"parameters must be among {', '.join(names)}; unknown: {unknown!r:.80}"
        )
    return params


def limits_table(
    ccs: Iterable[str] | None = None, parameters: Iterable[str] | None = None
):
    """Per-compute-capability limits as a ``pandas.DataFrame``: one row per parameter,
    one column per cc."""

    names = _parameter_names()
    given = (
        _fields.name_list("ccs", ccs, "compute capabilities", numbers_too=True)
        if ccs is not None
        else []
    )
    ccs = [limits(c).cc for c in given or list_compute_capabilities()]
    params = names if parameters is None else _check_parameters(parameters, names)
    return pd.DataFrame(
        {c: [getattr(limits(c), p) for p in params] for c in ccs}, index=params
    )


def limits_sources(parameters: Iterable[str] | None = None):
    """The distinct sources of each per-cc parameter, with the ccs each one covers."""

    names = _parameter_names()
    params = names if parameters is None else _check_parameters(parameters, names)
    rows = []
    for p in params:
        by_src: dict[str, list[str]] = {}
        for c in list_compute_capabilities():
            by_src.setdefault(limits(c).sources[p], []).append(c)
        for src, ccs in by_src.items():
            rows.append(
                {"parameter": p, "compute capabilities": ", ".join(ccs), "source": src}
            )
    return pd.DataFrame(rows)


# Explorer (live kernel only; the tests call summary_html)


def summary_html(o: Occupancy) -> str:
    """An HTML summary of an :class:`~gpumodels.facts.occupancy.Occupancy` result."""
    check_type("o", o, Occupancy)
    lim = limits(o.cc)
    rows = [
        (
            k.replace("_", " "),
            "no limit" if v is None else f"{v} blocks",
            "limiting" if k in o.limiters else "",
        )
        for k, v in o.limits.items()
    ]
    head = (
        f"<b>{o.blocks_per_sm} blocks/SM = {o.warps_per_sm} of {lim.max_warps_per_sm} "
        f"warps/SM ({100 * o.occupancy:.1f}% occupancy)</b>; allocated per block: "
        f"{o.allocated_registers_per_block} registers, "
        f"{o.allocated_shared_mem_per_block} B shared memory"
    )
    return head + widgets.table_html(rows, ("resource", "blocks it allows", ""))


def explorer(cc: str = "8.0"):
    """Sliders for block size, registers and shared memory; shows blocks, warps and the
    limiting resource."""
    import ipywidgets as W

    ccs = list_compute_capabilities()
    cc_w = W.Dropdown(options=ccs, value=normalize_cc(cc), description="cc")
    tpb = W.IntSlider(value=256, min=32, max=1024, step=32, description="threads/block")
    regs = W.IntSlider(value=32, min=0, max=255, description="registers/thread")
    smem = W.IntSlider(
        value=0, min=0, max=49152, step=128, description="shared B/block"
    )
    out = W.HTML()

    def update(*_):
        lim = limits(cc_w.value)
        tpb.max, regs.max, smem.max = (
            lim.max_threads_per_block,
            lim.max_registers_per_thread,
            lim.max_shared_mem_per_block,
        )
        out.value = summary_html(
            occupancy(cc_w.value, tpb.value, regs.value, smem.value)
        )

    for w in (cc_w, tpb, regs, smem):
        w.observe(update, names="value")
    update()
    return widgets.explorer_box([cc_w, tpb, regs, smem], out)

"""A small cycle-level simulator of one SM: the book's "virtual GPU".

Everything it produces is **simulated** — a consequence of the rules below, not a
measurement. It is deliberately simple, so that its behaviour can be checked against the
analytic models in their limit cases.

Rules, applied every cycle ``t = 0, 1, 2, …``:

1. Each warp runs its own list of :class:`Op` in order (in a loop if ``repeat=True``).
   An op may issue at ``t`` only if every register it reads is ready, and not before
   ``ilp_latency`` cycles after the warp's previous issue (one issue per warp per cycle
   at most).
2. Warps are spread over ``schedulers`` round-robin (warp slot ``i`` → scheduler ``i mod
   schedulers``). Each scheduler issues up to ``issue_per_scheduler`` ops per cycle
   (``None``: unlimited), choosing among ready warps by ``policy``: ``"oldest"`` (lowest
   slot first) or ``"round_robin"`` (start after the warp issued last). An op whose unit
   has ``issue_cycles = k`` keeps its scheduler busy for ``k`` cycles.
3. A :class:`Unit` with ``throughput`` T instructions per cycle per SM is a resource
   used exclusively for ``1/T`` cycles per instruction (as in Volkov's Table 3.4
   worksheet); an op may start in cycle ``t`` if the unit's backlog ends before ``t +
   1``. ``None``: unlimited. ``max_in_flight`` k caps the unit's concurrency: an op may
   start only while fewer than k of its ops are in execution (issued, result not yet
   ready) -- k servers that each hold an op for its whole latency, as Hong & Kim's
   memory system serves MWP warps at once. Ops that find all k busy are served in the
   order they started waiting (first come, first served), not by the scheduler
   ``policy``.
4. The result is ready ``latency`` cycles after issue. ``latency`` is a number, or a
   function of the unit's recent throughput (instructions per cycle over the last
   ``window`` cycles): a contention-dependent memory latency such as Volkov's ``a +
   b·x/(c − x)``. ``dependent_latency[(producer, consumer)]`` overrides it for
   particular consumers (e.g. Maxwell's SFU result is ready for an add after 9 cycles
   but for another SFU op after 13).
5. With ``total_warps`` larger than ``n_warps`` the launch is finite: warps run their
   program once, and a block of ``warps_per_block`` warp slots is refilled
   ``launch_latency`` cycles after the last of its warps has finished (Volkov §3.7's
   replacement delays).

:func:`simulate` returns a :class:`Trace` with one record per issued instruction, which
answers throughput, concurrency and occupancy questions.

Two engines run these rules and give identical traces: this module's Python functions
(``_schedule``, ``_admit``, ``_issue``, ``_next_event``, ...), the readable reference,
and a numba-compiled one (``gpumodels.engines._sim_core``) that keeps the waiting
warps in heaps and bitsets so that its time grows with the instructions issued (some
millions per second) rather than with cycles × warps. ``simulate(engine="auto")``, the
default, takes the compiled engine wherever it can run the SM: latencies that are
numbers or :class:`LoadedLatency` records (a latency function of one's own runs on the
Python engine).
"""

from __future__ import annotations

import heapq
import math
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice

import numpy as np
import pandas as pd

from gpumodels.engines import _sim_core
from gpumodels.facts import _fields
from gpumodels.facts.params import check_params
from gpumodels.ground._jit import jit_disabled
from gpumodels.ground.errors import InputTypeError, OutOfRangeError
from gpumodels.ground.validate import (
    as_array,
    broadcast,
    check_choice,
    check_flag,
    check_int,
    check_real,
    to_float,
)

_EPS = 1e-9

ENGINES = ("auto", "compiled", "python")
"""The engines :func:`simulate` runs on (its ``engine`` argument)."""


@dataclass(frozen=True)
class Op:
    """One instruction of a warp program: the ``unit`` that executes it, registers
    written and read."""

    unit: str
    dst: str | None = None
    srcs: tuple[str, ...] = ()
    label: str = ""

    def __post_init__(self):
        _fields.texts(self, ("unit", "label"))
        if self.dst is not None:
            _fields.texts(self, ("dst",))
        if not isinstance(self.srcs, tuple) or not all(
            isinstance(r, str) for r in self.srcs
        ):
            raise InputTypeError(
                f"Op.srcs must be a tuple of register names, got {self.srcs!r:.60}"
            )


@dataclass(frozen=True)
class LoadedLatency:
    """A latency that grows with the unit's recent throughput (rule 4): Volkov's Table
    6.5 form ``a + Σ b·X/(c − X)`` in cycles, with ``X = min(rate · gbs_per_ipc, cap)``
    in GB/s.

    ``rate`` is the unit's throughput in instructions per cycle over the SM's
    ``window``; ``gbs_per_ipc`` converts it to GB/s (``Params.gbs_per_ipc``);
    ``terms`` holds the ``(b, c)`` pairs (cycles, GB/s; ``c`` may be ``inf``: no
    contention); ``cap`` (``None``: none), below the smallest ``c``, keeps ``X`` off the
    singularity. Calling it with a rate gives the latency (``inf`` from the smallest
    ``c`` on, which :func:`simulate` refuses). A :class:`Unit` with this latency runs
    on :func:`simulate`'s compiled engine, which evaluates the same floating-point
    operations in the same order; any other latency function runs on the Python one.
    """

    a: float
    terms: tuple[tuple[float, float], ...] = ()
    gbs_per_ipc: float = 1.0
    cap: float | None = None

    def __post_init__(self):
        put = object.__setattr__
        put(self, "a", check_real("a", self.a, 0.0, context="LoadedLatency"))
        put(self, "terms", _fields.pairs(self, "terms", "a constant latency"))
        put(
            self,
            "gbs_per_ipc",
            check_real(
                "gbs_per_ipc", self.gbs_per_ipc, 0.0, lo_open=True,
                context="LoadedLatency",
            ),
        )  # fmt: skip
        if self.cap is not None:
            cap = check_real("cap", self.cap, 0.0, context="LoadedLatency")
            c_min = min((c for _, c in self.terms), default=math.inf)
            if not cap < c_min:
                raise OutOfRangeError(
                    f"cap must be below the smallest c ({c_min:g} GB/s) for "
                    f"LoadedLatency, got {cap:g}"
                )
            put(self, "cap", cap)

    def __call__(self, rate: float) -> float:
        """The latency in cycles at ``rate`` instructions per cycle."""
        x = rate * self.gbs_per_ipc
        if self.cap is not None:
            x = min(x, self.cap)
        lat = self.a
        for b, c in self.terms:
            if x >= c:
                return math.inf
            lat = lat + b * x / (c - x)
        return lat


@dataclass(frozen=True)
class Unit:
    """A functional unit (or the memory pipeline): latency in cycles (a number, a
    :class:`LoadedLatency` or another function of the recent throughput), throughput in
    IPC per SM, and at most ``max_in_flight`` ops in execution at once (``None``: no
    cap).
    """

    latency: float | Callable[[float], float]
    throughput: float | None = None
    issue_cycles: int = 1
    max_in_flight: int | None = None

    def __post_init__(self):
        if not callable(self.latency):
            check_real("latency", self.latency, 0.0, context="Unit")
        if self.throughput is not None:
            check_real("throughput", self.throughput, 0.0, lo_open=True, context="Unit")
        check_int("issue_cycles", self.issue_cycles, 1, context="Unit")
        if self.max_in_flight is not None:
            check_int("max_in_flight", self.max_in_flight, 1, context="Unit")


@dataclass(frozen=True)
class SM:
    """The simulated multiprocessor: its units, schedulers and issue rules (see module
    docstring)."""

    units: Mapping[str, Unit]
    schedulers: int = 1
    issue_per_scheduler: int | None = 1
    ilp_latency: int = 1
    dependent_latency: Mapping[tuple[str, str], float] = field(default_factory=dict)
    window: int = 512

    def __post_init__(self):
        if not isinstance(self.units, Mapping) or not all(
            isinstance(k, str) and isinstance(u, Unit) for k, u in self.units.items()
        ):
            raise InputTypeError(
                "units must be a mapping of unit name -> Unit for SM, got "
                f"{self.units!r:.60}"
            )
        if not self.units:
            raise ValueError("units must name at least one Unit")
        if not isinstance(self.dependent_latency, Mapping):
            raise InputTypeError(
                "dependent_latency must be a mapping of (producer, consumer) -> "
                f"latency for SM, got {self.dependent_latency!r:.60}"
            )
        check_int("schedulers", self.schedulers, 1, context="SM")
        if self.issue_per_scheduler is not None:
            check_int("issue_per_scheduler", self.issue_per_scheduler, 1, context="SM")
        check_int("ilp_latency", self.ilp_latency, 1, context="SM")
        check_int("window", self.window, 1, context="SM")
        for key, lat in dict(self.dependent_latency).items():
            if not (
                isinstance(key, tuple)
                and len(key) == 2
                and all(u in self.units for u in key)
            ):
                raise ValueError(
                    "dependent_latency keys must be (producer, consumer) pairs of the "
                    "SM's units "
                    f"{sorted(self.units)}, got {key!r}"
                )
            check_real(f"dependent_latency[{key!r}]", lat, 0.0, context="SM")


@dataclass(frozen=True)
class Trace:
    """Simulated issue records: arrays ``warp`` (launch order), ``seq`` (position in the
    warp's stream), ``unit``, ``issue`` and ``ready`` cycles, plus the occupancy per
    cycle; ``warp_start`` and ``warp_end`` per launched warp (``warp_end`` is NaN for a
    warp that did not finish)."""

    warp: np.ndarray
    seq: np.ndarray
    unit: np.ndarray
    issue: np.ndarray
    ready: np.ndarray
    occupancy: np.ndarray
    cycles: int
    warp_start: np.ndarray
    warp_end: np.ndarray

    def __post_init__(self):
        for name in ("warp", "seq", "occupancy"):
            _fields.array(self, name, lo=0, ndim=1, integer=True)
        for name in ("issue", "ready", "warp_start"):
            _fields.array(self, name, lo=0.0, ndim=1)
        _fields.array(self, "warp_end", lo=0.0, ndim=1, allow_nan=True)
        _fields.of_type(self, "unit", np.ndarray, "a numpy array of unit names")
        _fields.ints(self, ("cycles",))
        n = len(self.warp)
        for name in ("seq", "unit", "issue", "ready"):
            if len(getattr(self, name)) != n:
                raise ValueError(
                    f"Trace.{name} must have one entry per issued instruction ({n}), "
                    f"got {len(getattr(self, name))}"
                )

    def throughput(
        self, unit: str | None = None, start: int = 0, stop: int | None = None
    ) -> float:
        """Instructions of ``unit`` (all units if ``None``) issued per cycle in
        ``[start, stop)``."""
        stop = self.cycles if stop is None else stop
        if not 0 <= start < stop <= self.cycles:
            raise ValueError(
                f"need 0 <= start < stop <= {self.cycles}, got start={start}, "
                f"stop={stop}"
            )
        sel = (self.issue >= start) & (self.issue < stop)
        if unit is not None:
            sel &= self.unit == unit
        return float(sel.sum()) / (stop - start)

    def trip_throughput(
        self,
        body: int,
        start: float = 0,
        stop: float | None = None,
        unit: str | None = None,
        w: int = 0,
    ) -> tuple[float, int]:
        """Instructions of ``unit`` (all units if ``None``) issued per cycle over whole
        loop trips of warp ``w`` (a loop of ``body`` instructions): from the first to
        the last cycle in ``[start, stop]`` at which it began a trip
        (:func:`trip_starts`, :func:`rate_between`), and the number of trips measured.
        A fixed window of cycles would cut a round trip short; ``ValueError`` if the
        warp began fewer than two trips in the window."""
        stop = self.cycles if stop is None else stop
        starts = trip_starts(self.warp, self.seq, self.issue, body, w, start, stop)
        if starts.size < 2:
            raise ValueError(
                f"warp {w} began fewer than two loop trips in cycles [{start}, {stop}]"
            )
        issue = self.issue if unit is None else self.issue[self.unit == unit]
        return rate_between(issue, starts[0], starts[-1]), int(starts.size - 1)

    def concurrency(self, unit: str, t) -> np.ndarray:
        """Instructions of ``unit`` in execution (issued, result not yet ready) at
        cycle(s) ``t``."""
        t = np.atleast_1d(np.asarray(t))
        sel = self.unit == unit
        iss, rdy = self.issue[sel], self.ready[sel]
        return ((iss[None, :] <= t[:, None]) & (rdy[None, :] > t[:, None])).sum(axis=1)

    def table(self):
        """One row per issued instruction, labelled ``kind = "simulated"`` (a pandas
        DataFrame)."""

        return pd.DataFrame(
            {
                "warp": self.warp,
                "seq": self.seq,
                "unit": self.unit,
                "issue": self.issue,
                "ready": self.ready,
                "kind": "simulated",
            }
        )

    @property
    def warp_latency(self) -> np.ndarray:
        """Start-to-finish cycles of every warp that finished (finite launches)."""
        done = np.isfinite(self.warp_end)
        return (self.warp_end - self.warp_start)[done]


def _bound(name: str, value) -> float:
    """A cycle bound: a real number, ``-inf`` or ``inf`` allowed, NaN not."""
    if not _fields.is_real(value):
        raise InputTypeError(f"{name} must be a number of cycles, got {value!r:.60}")
    v = to_float(value)
    if math.isnan(v):
        raise ValueError(f"{name} must be a number of cycles, got nan")
    return v


def trip_starts(
    warp,
    seq,
    issue,
    body: int,
    w: int = 0,
    start: float = -np.inf,
    stop: float = np.inf,
) -> np.ndarray:
    """Sorted cycles in ``[start, stop]`` at which warp ``w`` began a trip of a loop of
    ``body`` instructions.

    ``warp``, ``seq`` (position in the warp's stream) and ``issue`` (cycle) describe
    every issued instruction (a :class:`Trace`'s arrays, or another simulator's).
    Measuring between two trip starts of one warp spans whole round trips, which a fixed
    window of cycles does not.
    """
    b = check_int("body", body, 1)
    w = check_int("w", w, 0)
    start, stop = _bound("start", start), _bound("stop", stop)
    warp, seq = as_array("warp", warp), as_array("seq", seq)
    issue = as_array("issue", issue)
    for name, a in (("warp", warp), ("seq", seq), ("issue", issue)):
        if a.ndim > 1:
            raise ValueError(f"{name} must be a 1-d array, got shape {a.shape}")
    warp, seq, issue = broadcast(warp=warp, seq=seq, issue=issue)
    for name, a in (("warp", warp), ("seq", seq)):
        if np.any(a != np.floor(a)):
            raise ValueError(f"{name} must hold integers, got {a[a != np.floor(a)][0]}")
    sel = (warp == w) & (seq % b == 0) & (issue >= start) & (issue <= stop)
    return np.sort(issue[sel])


def rate_between(issue, t1: float, t2: float) -> float:
    """Instructions issued in cycles ``[t1, t2)`` per cycle.

    ``issue`` holds issue cycles (numbers >= 0, e.g. a :class:`Trace`'s ``issue``);
    ``t1`` and ``t2`` are finite cycles with ``t2 > t1``."""
    issue = as_array("issue", issue)
    t1 = check_real("t1", t1, context="rate_between (a cycle)")
    t2 = check_real("t2", t2, context="rate_between (a cycle)")
    if not t2 > t1:
        raise OutOfRangeError(f"t2 must be greater than t1 ({t1}), got {t2}")
    return float(((issue >= t1) & (issue < t2)).sum() / (t2 - t1))


MAX_ALPHA = 100_000
"""The largest α :func:`alpha_program` builds (a loop body of α + 1 ops is held in
memory)."""

MAX_CYCLES = 10_000_000
"""The most cycles one :func:`simulate` call may run (``cycles`` or ``max_cycles``).

A trace keeps one occupancy entry per cycle and one record per issue: about 50 bytes a
simulated cycle at the book's issue rates, so a run of this length needs about 0.5 GB.
The compiled engine reaches 10^9 cycles in seconds, and the tens of gigabytes such a
trace would need; the book's longest run is 5·10^6 cycles."""


MAX_TOTAL_WARPS = 1 << 20
"""The most warps one finite :func:`simulate` launch may hold (``total_warps``): the run
keeps a start and an end time per warp, and every warp issues at least once, so a
launch of 2^20 warps (65536 blocks of 16 warps) already needs millions of simulated
issues; the book's launches hold under 1000."""


class SimulationLimitError(RuntimeError):
    """A finite run reached ``max_cycles`` before every warp finished."""


def alpha_program(alpha: int, other: str = "mem", alu: str = "alu") -> tuple[Op, ...]:
    """Volkov's §4.1 workload as one loop body: a load followed by α dependent adds.

    All ops read and write the same register, so they are back-to-back dependent.
    """
    alpha = check_int("alpha", alpha, 0, MAX_ALPHA)
    for name, unit in (("other", other), ("alu", alu)):
        if not isinstance(unit, str):
            raise InputTypeError(
                f"{name} must be a unit name (a string), got {unit!r:.60}"
            )
    return (Op(other, "r", ("r",), "LD"),) + tuple(
        Op(alu, "r", ("r",), "FADD") for _ in range(alpha)
    )


def simulate(
    sm: SM,
    programs: Sequence[Op] | Sequence[Sequence[Op]],
    n_warps: int,
    cycles: int | None = None,
    *,
    repeat: bool = True,
    total_warps: int | None = None,
    warps_per_block: int = 1,
    launch_latency: int = 0,
    policy: str = "oldest",
    max_cycles: int = MAX_CYCLES,
    skip_idle: bool = True,
    engine: str = "auto",
) -> Trace:
    """Run ``n_warps`` concurrent warps on ``sm`` and record every issue (simulated
    data).

    Cycles in which no warp can issue are skipped to the next event (a result becoming
    ready, a unit or scheduler coming free, a block refilled), so long memory stalls
    cost no time; the trace is the same as stepping every cycle (``skip_idle=False``,
    the slow reference the tests compare against).

    Parameters
    ----------
    programs
        One program (a sequence of :class:`Op`) for all warps, or one program per warp
        slot.
    n_warps : int
        Warps resident at a time (occupancy, warps per SM).
    cycles : int
        Cycles to simulate (``None`` allowed for finite runs). Required when
        ``repeat=True``; otherwise the run stops when all warps are done.
    repeat : bool
        Loop each program forever (the synthetic workloads) or run it once.
    total_warps : int
        Warps in the whole launch (finite runs only; ``None`` means ``n_warps``), from
        ``n_warps`` to :data:`MAX_TOTAL_WARPS`.
    warps_per_block, launch_latency : int
        Block size in warps and the delay before a finished block's slots are refilled.
    policy : str
        ``"oldest"`` or ``"round_robin"``.
    max_cycles : int
        Finite runs without ``cycles`` stop here; if warps are still unfinished then,
        :class:`SimulationLimitError` says how many.
    skip_idle : bool
        Jump over cycles in which nothing can change (the default), or step through
        every cycle (the slow reference; same trace).
    engine : str
        ``"python"``: the readable reference, this module's functions. ``"compiled"``:
        the same rules compiled with numba (``gpumodels.engines._sim_core``), which
        gives the identical trace (every record, the occupancy, the warps' start and
        end) in time that grows with the instructions issued, not with cycles × warps;
        it runs latencies that are numbers or :class:`LoadedLatency` records (as
        :func:`volkov_sm` builds) and throughputs and dependent latencies that are
        Python or numpy 64-bit numbers, and raises ``ValueError`` naming anything else
        (e.g. a latency function of your own). ``"auto"`` (the default): compiled
        where it can run the SM and ``skip_idle`` is true, else Python (so
        ``skip_idle=False`` keeps the Python stepping reference unless
        ``engine="compiled"`` asks for the compiled stepping).

    """
    run = _setup(
        sm,
        programs,
        n_warps,
        cycles,
        repeat=repeat,
        total_warps=total_warps,
        warps_per_block=warps_per_block,
        launch_latency=launch_latency,
        policy=policy,
        max_cycles=max_cycles,
        skip_idle=skip_idle,
        engine=engine,
    )
    if _engine_for(run, engine) == "compiled":
        return _run_compiled(run, cycles)
    t = _run_python(run)
    _check_finished(run, cycles)
    return _trace(run, t)


def _engine_for(run: _Run, engine: str) -> str:
    """The engine that runs ``run``: ``engine``, or for ``"auto"`` the compiled one
    where it can run it; ``ValueError`` naming what it cannot run for ``"compiled"``."""
    if engine == "python":
        return engine
    why = _not_compiled(run.sm)
    if engine == "compiled" and why:
        raise ValueError(
            f"engine='compiled' cannot run this SM: {why}; use engine='python' or "
            "'auto'"
        )
    if why or (engine == "auto" and (not run.skip_idle or jit_disabled())):
        return "python"  # (without JIT the compiled engine runs interpreted, slowly)
    return "compiled"


def _exact_real(x) -> bool:
    """Whether ``x`` is a number whose arithmetic in the Python engine is float64's (a
    Python int or float, a numpy integer or float64), as the compiled engine's."""
    return isinstance(x, (int, float, np.integer)) and not isinstance(
        x, (bool, np.bool_)
    )


def _not_compiled(sm: SM) -> str:
    """What of ``sm`` the compiled engine cannot run ("" if nothing)."""
    for name, unit in sm.units.items():
        if callable(unit.latency) and type(unit.latency) is not LoadedLatency:
            return (
                f"unit {name!r} has a latency function ({unit.latency!r:.50}); it "
                "runs numbers and LoadedLatency records"
            )
        if unit.throughput is not None and not _exact_real(unit.throughput):
            return (
                f"unit {name!r} has a throughput of type "
                f"{type(unit.throughput).__name__}; it runs 64-bit numbers"
            )
    for key, lat in sm.dependent_latency.items():
        if not _exact_real(lat):
            return (
                f"dependent_latency[{key!r}] is of type {type(lat).__name__}; it runs "
                "64-bit numbers"
            )
    if sm.window > 2**53:
        return f"window {sm.window} is above 2**53"
    return ""


def _run_compiled(run: _Run, cycles: int | None) -> Trace:
    """Run ``run`` on the compiled engine and assemble its :class:`Trace`."""
    t, rec, occ, warp_start, warp_end, error = _sim_core.run(run)
    if error is not None:
        raise _latency_error(*error)
    run.warp_end = warp_end
    _check_finished(run, cycles)
    names = np.array(list(run.sm.units), dtype=object)
    return Trace(
        rec[0],
        rec[1],
        names[rec[2]],
        rec[3].astype(float),
        rec[4],
        occ,
        t,
        warp_start.astype(float),
        np.where(warp_end < 0, np.nan, warp_end),
    )


def _run_python(run: _Run) -> int:
    """The cycle loop of the Python engine; returns the cycle it stopped at."""
    limit, occ, slot_warp, schedulers = run.limit, run.occ, run.slot_warp, run.sched
    t = 0
    while t < limit:
        if run.refill_at:
            _refill(run, t)
        active = run.n_warps - slot_warp.count(-1)
        if not run.repeat and active == 0 and not run.refill_at:
            break
        occ.append(active)
        issued_any = False
        for sch in schedulers:
            if _schedule(run, sch, t):
                issued_any = True
        if issued_any or not run.skip_idle:
            t += 1
            continue
        # nothing issued: jump to the next cycle at which anything can change
        nxt = min(_next_event(run, t), limit)
        occ.extend([active] * (nxt - t - 1))
        t = nxt
    return t


@dataclass(slots=True)
class _Run:
    """The state of one :func:`simulate` call: its checked arguments (first group) and
    what changes from cycle to cycle. Per warp slot ``i``: ``slot_warp[i]`` the launch
    index of the warp in it (-1: empty), ``pc``, ``seq`` (ops issued by that warp),
    ``next_ok`` (earliest cycle of its next issue, the ILP latency) and ``regs``
    (register -> (issue cycle, producing unit, latency))."""

    sm: SM
    progs: list[tuple[Op, ...]]
    n_warps: int
    total: int
    wpb: int
    launch_latency: int
    policy: str
    repeat: bool
    skip_idle: bool
    limit: int
    sched: range = field(init=False)
    slots_of: list[list[int]] = field(init=False)  # slot i -> scheduler i mod S
    slot_warp: list[int] = field(init=False)
    pc: list[int] = field(init=False)
    seq: list[int] = field(init=False)
    next_ok: list[int] = field(init=False)
    regs: list[dict[str, tuple[int, str, float]]] = field(init=False)
    launched: int = field(init=False)
    refill_at: dict[int, int] = field(init=False)  # block -> cycle of new warps
    block_left: list[int] = field(init=False)  # unfinished warps per block
    unit_free: dict[str, float] = field(init=False)  # end of each unit's backlog
    recent: dict[str, deque] = field(init=False)  # issue cycles (latency window)
    in_flight: dict[str, list[float]] = field(init=False)  # heap: capped units' ready
    waiting: dict[str, OrderedDict] = field(init=False)  # capped units: FIFO of slots
    sched_busy: list[int] = field(init=False)
    rr_last: list[int] = field(init=False)
    warp_start: list[int] = field(init=False)
    warp_end: list[float] = field(init=False)  # -1: not finished
    rec: tuple[list, list, list, list, list] = field(init=False)  # w, s, u, i, r
    occ: list[int] = field(init=False)

    def __post_init__(self):
        """Every slot holds a warp at cycle 0; nothing is in flight."""
        sm, n = self.sm, self.n_warps
        self.sched = range(sm.schedulers)
        self.slots_of = [list(range(s, n, sm.schedulers)) for s in self.sched]
        self.slot_warp = list(range(n))
        self.pc, self.seq, self.next_ok = [0] * n, [0] * n, [0] * n
        self.regs = [{} for _ in range(n)]
        self.launched = n
        self.refill_at = {}
        self.block_left = [self.wpb] * (n // self.wpb)
        self.unit_free = {u: 0.0 for u in sm.units}
        self.recent = {u: deque() for u in sm.units}
        self.in_flight = {u: [] for u in sm.units}
        self.waiting = {u: OrderedDict() for u in sm.units}
        self.sched_busy = [0] * sm.schedulers
        self.rr_last = [-1] * sm.schedulers
        self.warp_start = [0] * self.total
        self.warp_end = [-1] * self.total
        self.rec = ([], [], [], [], [])
        self.occ = []


def _setup(
    sm,
    programs,
    n_warps,
    cycles,
    *,
    repeat,
    total_warps,
    warps_per_block,
    launch_latency,
    policy,
    max_cycles,
    skip_idle,
    engine="auto",
) -> _Run:
    """Set-up step: check :func:`simulate`'s arguments (in the order of its
    parameters' documentation) and build the run's initial state."""
    if not isinstance(sm, SM):
        raise InputTypeError(
            "sm must be an SM record (e.g. sim.volkov_sm(volkov.params('Kepler'))), "
            f"got {sm!r:.80}"
        )
    n_warps = check_int("n_warps", n_warps, 1, 4096)
    repeat = check_flag("repeat", repeat)
    skip_idle = check_flag("skip_idle", skip_idle)
    if policy not in ("oldest", "round_robin"):
        raise ValueError(f"policy must be 'oldest' or 'round_robin', got {policy!r}")
    progs = _programs(programs, n_warps, sm)
    if repeat:
        if cycles is None:
            raise ValueError(
                "cycles must be given when repeat=True (the programs loop forever)"
            )
        if total_warps is not None:
            raise ValueError("total_warps applies to finite runs only (repeat=False)")
    total = (
        n_warps
        if total_warps is None
        else check_int(
            "total_warps",
            total_warps,
            n_warps,
            MAX_TOTAL_WARPS,
            context="a launch (at least n_warps, at most MAX_TOTAL_WARPS)",
        )
    )
    wpb = check_int("warps_per_block", warps_per_block, 1, n_warps)
    if n_warps % wpb:
        raise ValueError(
            f"n_warps ({n_warps}) must be a multiple of warps_per_block ({wpb})"
        )
    launch_latency = check_int("launch_latency", launch_latency, 0)
    if cycles is not None:
        cycles = check_int("cycles", cycles, 1, MAX_CYCLES)
    max_cycles = check_int("max_cycles", max_cycles, 1, MAX_CYCLES)
    check_choice("engine", engine, ENGINES)
    limit = cycles if cycles is not None else max_cycles
    return _Run(
        sm, progs, n_warps, total, wpb, launch_latency, policy, repeat, skip_idle, limit
    )


def _refill(run: _Run, t: int) -> None:
    """Block refill/launch step (rule 5): the slots of every block whose refill cycle
    has come get the launch's next warps."""
    wpb, slot_warp, block_left = run.wpb, run.slot_warp, run.block_left
    for blk, when in list(run.refill_at.items()):
        if when <= t:
            del run.refill_at[blk]
            block_left[blk] = 0
            for s in range(blk * wpb, (blk + 1) * wpb):
                if run.launched < run.total:
                    slot_warp[s] = run.launched
                    run.pc[s], run.next_ok[s], run.seq[s] = 0, t, 0
                    run.regs[s] = {}
                    run.warp_start[run.launched] = t
                    run.launched += 1
                    block_left[blk] += 1


def _schedule(run: _Run, sch: int, t: int) -> bool:
    """Issue step of scheduler ``sch`` in cycle ``t`` (rules 1-3): issue the ready ops
    of its warps in ``policy`` order, up to ``issue_per_scheduler``. True if any."""
    if run.sched_busy[sch] > t:
        return False
    slots = run.slots_of[sch]
    if run.policy == "round_robin" and run.rr_last[sch] in slots:
        k = slots.index(run.rr_last[sch]) + 1
        slots = slots[k:] + slots[:k]
    sm, slot_warp, next_ok, progs, pc, regs, unit_free = (
        run.sm,
        run.slot_warp,
        run.next_ok,
        run.progs,
        run.pc,
        run.regs,
        run.unit_free,
    )
    units, ready_at, free_before = sm.units, _operands_ready_at, t + 1 - _EPS
    cap = len(slots) if sm.issue_per_scheduler is None else sm.issue_per_scheduler
    issued = 0
    for i in slots:
        if slot_warp[i] < 0 or next_ok[i] > t:
            continue
        op = progs[i][pc[i]]
        unit = units[op.unit]
        if ready_at(sm, regs[i], op) > t:
            continue
        if unit.throughput is not None and unit_free[op.unit] >= free_before:
            continue
        if unit.max_in_flight is not None and not _admit(run, i, op.unit, t):
            continue
        _issue(run, sch, i, op, unit, t)
        issued += 1
        if issued >= cap or run.sched_busy[sch] > t:
            break
    return issued > 0


def _admit(run: _Run, i: int, name: str, t: int) -> bool:
    """Admission step of a unit with ``max_in_flight`` (rule 3): slot ``i`` joins the
    unit's first-come-first-served queue and may start if it is among the first
    ``free`` waiting (leaving the queue)."""
    busy = run.in_flight[name]
    while busy and busy[0] <= t:  # results ready: their servers are free
        heapq.heappop(busy)
    queue = run.waiting[name]
    free = run.sm.units[name].max_in_flight - len(busy)
    if i not in queue:
        queue[i] = None
    if free <= 0 or all(k != i for k in islice(queue, free)):
        return False  # not among the first `free` waiting
    del queue[i]
    return True


def _issue(run: _Run, sch: int, i: int, op: Op, unit: Unit, t: int) -> None:
    """Issue step of one op of slot ``i`` at cycle ``t`` (rules 3-4): occupy its unit
    and scheduler, compute its latency, write its register and record it."""
    name = op.unit
    if unit.throughput is not None:
        run.unit_free[name] = max(run.unit_free[name], t) + 1.0 / unit.throughput
    lat = _latency(unit, run.recent[name], t, run.sm.window)
    run.recent[name].append(t)
    if unit.max_in_flight is not None:
        heapq.heappush(run.in_flight[name], t + lat)
    if op.dst is not None:
        run.regs[i][op.dst] = (t, name, lat)
    rec_w, rec_s, rec_u, rec_i, rec_r = run.rec
    rec_w.append(run.slot_warp[i])
    rec_s.append(run.seq[i])
    rec_u.append(name)
    rec_i.append(t)
    rec_r.append(t + lat)
    run.seq[i] += 1
    run.next_ok[i] = t + run.sm.ilp_latency
    run.rr_last[sch] = i
    if unit.issue_cycles > 1:
        run.sched_busy[sch] = t + unit.issue_cycles
    _advance(run, i, t)


def _advance(run: _Run, i: int, t: int) -> None:
    """Retire step after an issue: move slot ``i`` to its next op, looping the program
    (``repeat``) or finishing the warp at its end."""
    run.pc[i] += 1
    if run.pc[i] == len(run.progs[i]):
        if run.repeat:
            run.pc[i] = 0
        else:
            _finish(run, i, t)


def _finish(run: _Run, i: int, t: int) -> None:
    """Completion step of the warp in slot ``i``, which issued its last op at ``t``: it
    ends when its last result is ready; the slot empties, and the block's slots are
    refilled ``launch_latency`` cycles after its last warp ends (rule 5)."""
    w = run.slot_warp[i]
    pending = max((t0 + lat for t0, _, lat in run.regs[i].values()), default=t)
    run.warp_end[w] = max(t + 1, pending)
    run.slot_warp[i] = -1
    blk = i // run.wpb
    run.block_left[blk] -= 1
    if run.block_left[blk] == 0 and run.launched < run.total:
        when = int(np.ceil(max(run.warp_end[w], t + 1)))
        run.refill_at[blk] = when + run.launch_latency


def _next_event(run: _Run, t: int) -> int:
    """Next-event step after a cycle ``t`` without issue: the first cycle after ``t``
    at which a warp that could not issue at ``t`` might issue."""
    sm, unit_free, in_flight = run.sm, run.unit_free, run.in_flight
    times = list(run.refill_at.values())
    times += [b for b in run.sched_busy if b > t]
    for u, unit in sm.units.items():
        if unit.throughput is not None and unit_free[u] >= t + 1 - _EPS:
            # first t' with unit_free < t' + 1 - eps
            times.append(math.floor(unit_free[u] - 1 + _EPS) + 1)
        if in_flight[u]:
            times.append(math.ceil(in_flight[u][0]))  # a heap: first is the earliest
    progs, pc, next_ok, regs = run.progs, run.pc, run.next_ok, run.regs
    for i, w in enumerate(run.slot_warp):
        if w < 0:
            continue
        if next_ok[i] > t:
            times.append(next_ok[i])
        ready = _operands_ready_at(sm, regs[i], progs[i][pc[i]])
        if ready > t:
            times.append(math.ceil(ready))
    later = [x for x in times if x > t]
    return int(min(later)) if later else t + 1


def _check_finished(run: _Run, cycles: int | None) -> None:
    """End-of-run step: a finite run without ``cycles`` must have finished every warp
    within ``max_cycles``."""
    ends = np.asarray(run.warp_end, dtype=float)
    if not run.repeat and cycles is None and (ends < 0).any():
        done = int((ends >= 0).sum())
        raise SimulationLimitError(
            f"max_cycles={run.limit} reached with {done} of {run.total} warps "
            f"finished; raise max_cycles (up to {MAX_CYCLES}) or give cycles to stop "
            "early on purpose"
        )


def _trace(run: _Run, t: int) -> Trace:
    """Trace-assembly step: the issue records and occupancy of a run that stopped at
    cycle ``t`` as a :class:`Trace`."""
    rec_w, rec_s, rec_u, rec_i, rec_r = run.rec
    return Trace(
        np.array(rec_w, dtype=int),
        np.array(rec_s, dtype=int),
        np.array(rec_u, dtype=object),
        np.array(rec_i, dtype=float),
        np.array(rec_r, dtype=float),
        np.array(run.occ, dtype=int),
        t,
        np.array(run.warp_start, dtype=float),
        np.where(np.array(run.warp_end) < 0, np.nan, run.warp_end).astype(float),
    )


def _programs(programs, n_warps: int, sm: SM) -> list[tuple[Op, ...]]:
    """Set-up step: one checked program (a tuple of :class:`Op`) per warp slot."""
    if not _is_sequence(programs):
        raise InputTypeError(
            "programs must be a sequence of Op (one program) or of programs (one per "
            f"warp), got {type(programs).__name__} {programs!r:.60}"
        )
    if not programs:
        raise ValueError("programs must contain at least one Op")
    if isinstance(programs[0], Op):
        progs = [tuple(programs)] * n_warps
    else:
        for k, p in enumerate(programs):
            if not _is_sequence(p):
                raise InputTypeError(
                    f"programs[{k}] must be a program (a sequence of Op), got "
                    f"{type(p).__name__} {p!r:.60}"
                )
        progs = [tuple(p) for p in programs]
        if len(progs) != n_warps:
            raise ValueError(
                f"programs must be one program or one per warp ({n_warps}), got "
                f"{len(progs)}"
            )
    for p in progs:
        if not p:
            raise ValueError("every program must contain at least one Op")
        for op in p:
            if not isinstance(op, Op):
                raise InputTypeError(f"programs must contain Op records, got {op!r}")
            if op.unit not in sm.units:
                raise ValueError(
                    f"Op unit {op.unit!r} is not one of the SM's units "
                    f"{sorted(sm.units)}"
                )
    return progs


def _is_sequence(value) -> bool:
    """Whether ``value`` is a sequence (a list, tuple, ...) and not a string."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _operands_ready_at(sm: SM, regs: dict, op: Op) -> float:
    """The cycle at which every register ``op`` reads is ready (``-inf`` if it reads
    none in flight)."""
    ready = -math.inf
    for r in op.srcs:
        if r in regs:
            t0, producer, lat = regs[r]
            ready = max(ready, t0 + sm.dependent_latency.get((producer, op.unit), lat))
    return ready


def _latency(unit: Unit, recent: deque, t: int, window: int) -> float:
    """Latency of an op issued on ``unit`` at ``t`` (rule 4): a number, or the unit's
    latency function of its throughput over the last ``window`` cycles."""
    if not callable(unit.latency):
        return float(unit.latency)
    while recent and recent[0] < t - window:
        recent.popleft()
    rate = len(recent) / window
    lat = float(unit.latency(rate))
    if not np.isfinite(lat) or lat < 0:
        raise _latency_error(lat, rate)
    return lat


def _latency_error(lat: float, rate: float) -> ValueError:
    """The error of a latency function that returned ``lat`` at ``rate``."""
    return ValueError(
        f"latency function returned {lat} at throughput {rate}; it must be finite "
        "and >= 0"
    )


def volkov_sm(
    p, *, mem_issue: int = 1, issue: bool = True, contention: bool = False
) -> SM:
    """An :class:`SM` with the Table 4.1 parameters of ``p``
    (:func:`gpumodels.facts.param_sets.params`).

    Units ``"alu"`` (alu_lat, alu_thru) and ``"mem"`` (mem_lat, mem_thru); the issue
    limit is ``issue_thru`` spread over ``p.schedulers`` (``issue=False`` removes it).
    With ``contention=True`` the memory latency follows Table 6.5's ``a + b·x/(c − x)``
    of the recent memory throughput (a :class:`LoadedLatency`, with ``x`` capped at
    0.999 of the smallest ``c``).
    """
    p = check_params(p)
    issue, contention = check_flag("issue", issue), check_flag("contention", contention)
    mem_issue = check_int("mem_issue", mem_issue, 1)
    if contention:
        if not p.latency_terms:
            raise ValueError(
                f"contention=True needs Table 6.5's latency terms, and {p.gpu} has "
                "none (Params.latency_terms is empty)"
            )
        cap = 0.999 * min(
            c for _, c in p.latency_terms
        )  # stay below the latency model's singularity
        lat = LoadedLatency(
            p.a, p.latency_terms, p.gbs_per_ipc, None if math.isinf(cap) else cap
        )
        mem = Unit(lat, p.mem_thru, mem_issue)
    else:
        mem = Unit(p.mem_lat, p.mem_thru, mem_issue)
    units = {"alu": Unit(p.alu_lat, p.alu_thru), "mem": mem}
    if not issue:
        return SM(units, schedulers=1, issue_per_scheduler=None)
    per = p.issue_thru / p.schedulers
    if per >= 1:
        return SM(units, schedulers=p.schedulers, issue_per_scheduler=round(per))
    # G80/GT200: one issue per scheduler every 1/per cycles — model as issue_cycles on
    # every unit
    k = round(1 / per)
    units = {
        name: Unit(u.latency, u.throughput, max(u.issue_cycles, k))
        for name, u in units.items()
    }
    return SM(units, schedulers=p.schedulers, issue_per_scheduler=1)

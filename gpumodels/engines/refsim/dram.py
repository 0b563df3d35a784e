"""DRAM address mappings, row-buffer state and Algorithm 1 of Huang & Li (2017) §III-C2.

An address mapping names which bits of a byte address select the column, the row and the
bank (and, optionally, a channel taken modulo a controller count). Mappings are data:
``data/huang_li/address_maps.csv`` holds the presets, each row with its source —

* ``k80_printed_row_low`` / ``k80_printed_col_low``: the paper's K80 result read
  literally, with its two row/column groups ("8th–21st and 30th–32nd bits") assigned
  either way [A13]; every other bit above the 3 byte bits is a bank bit (2^18 bank ids
  over 40 address bits);
* ``gddr5_6x16``: the book's physical assumption, 6 controllers × 16 banks = 96 banks.

:func:`row_buffer_outcomes` classifies a request stream per bank (open-page: the first
access to a bank misses, the same row hits, another row conflicts) — vectorised.
:func:`detect_mapping` is Algorithm 1: flip one address bit at a time, time the second
of two uncached accesses, and split the bits into three latency groups. It sees the
memory only through a latency oracle, such as :class:`SimulatedDRAM` (an isolated-access
model calibrated to the printed 352/742/1008 ns) or a real GPU.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from gpumodels.facts import _fields
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, OutOfRangeError, UnknownNameError
from gpumodels.ground.validate import as_array, broadcast, check_int, check_real

HIT, MISS, CONFLICT = 0, 1, 2
OUTCOMES = ("hit", "miss", "conflict")


def _parse_bits(text: str) -> tuple[int, ...]:
    bits: list[int] = []
    for part in text.split(";"):
        lo, _, hi = part.partition("-")
        bits.extend(range(int(lo), int(hi or lo) + 1))
    return tuple(bits)


_BIT_FIELDS = ("column_bits", "row_bits", "bank_bits", "channel_bits", "byte_bits")


def _bit_tuple(name: str, bits, hi: int, context: str | None = None) -> tuple:
    """``bits`` if it is a tuple of bit positions in [0, ``hi``]; ``InputTypeError`` or
    ``OutOfRangeError`` naming ``name`` otherwise."""
    if not isinstance(bits, tuple):
        raise InputTypeError(
            f"{name} must be a tuple of bit positions in [0, {hi}], got "
            f"{type(bits).__name__} {bits!r:.60}"
        )
    return tuple(check_int(f"{name} item", b, 0, hi, context) for b in bits)


@dataclass(frozen=True)
class AddressMap:
    """Which address bits select column, row, bank and channel (0-based bit positions).

    The global bank id combines the channel (``channel_bits`` read as a number, modulo
    ``channels`` when given) and the bank bits; two addresses are in one bank when both
    agree.
    """

    name: str
    column_bits: tuple[int, ...]
    row_bits: tuple[int, ...]
    bank_bits: tuple[int, ...]
    channel_bits: tuple[int, ...] = ()
    channels: int | None = None
    byte_bits: tuple[int, ...] = ()
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self):
        _fields.texts(self, ("name",))
        _fields.mappings(self, ("sources",))
        seen: dict[int, str] = {}
        for group in _BIT_FIELDS:
            where = f"address map {self.name!r}"
            for b in _bit_tuple(f"AddressMap.{group}", getattr(self, group), 62, where):
                if b in seen:
                    raise ValueError(
                        f"address map {self.name!r}: a bit is in two fields (bit {b} "
                        f"in {seen[b]} and {group})"
                    )
                seen[b] = group
        if self.channels is not None:
            check_int(
                "channels",
                self.channels,
                1,
                1 << len(self.channel_bits) if self.channel_bits else 1,
            )

    @staticmethod
    def _field(addr: np.ndarray, bits: tuple[int, ...]) -> np.ndarray:
        out = np.zeros(addr.shape, dtype=np.int64)
        for i, b in enumerate(bits):
            out |= ((addr >> b) & 1) << i
        return out

    def decode(self, addresses) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(bank, row, column)`` arrays of byte addresses; ``bank`` is the global bank
        id."""
        a = np.asarray(addresses, dtype=np.int64)
        if a.size and a.min() < 0:
            raise ValueError("addresses must be non-negative byte addresses")
        ch = self._field(a, self.channel_bits)
        if self.channels is not None:
            ch = ch % self.channels
        bank = ch << len(self.bank_bits) | self._field(a, self.bank_bits)
        return bank, self._field(a, self.row_bits), self._field(a, self.column_bits)

    @property
    def n_banks(self) -> int:
        """Distinct global bank ids the mapping can produce."""
        nch = (
            self.channels if self.channels is not None else 1 << len(self.channel_bits)
        )
        return nch << len(self.bank_bits)


@cache
def _map_rows() -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    for r in read_rows("huang_li/address_maps.csv"):
        out.setdefault(r["preset"], []).append(r)
    return out


def presets() -> list[str]:
    """Names of the address-map presets in ``data/huang_li/address_maps.csv``."""
    return list(_map_rows())


def address_map(preset: str) -> AddressMap:
    """The :class:`AddressMap` of a preset.

    >>> m = address_map("k80_printed_row_low")
    >>> m.row_bits[:3], m.column_bits, len(m.bank_bits)
    ((8, 9, 10), (30, 31, 32), 20)
    """
    rows = _map_rows()
    if not isinstance(preset, str) or preset not in rows:
        raise UnknownNameError(
            f"preset must be one of {', '.join(rows)}, got {preset!r}"
        )
    f = {r["field"]: _parse_bits(r["bits"]) for r in rows[preset]}
    mod = [r["modulo"] for r in rows[preset] if r["field"] == "channel" and r["modulo"]]
    return AddressMap(
        name=preset,
        column_bits=f.get("column", ()),
        row_bits=f.get("row", ()),
        bank_bits=f.get("bank", ()),
        channel_bits=f.get("channel", ()),
        channels=int(mod[0]) if mod else None,
        byte_bits=f.get("byte", ()),
        sources={r["field"]: r["source"] for r in rows[preset]},
    )


MAX_ID = (1 << 63) - 1
"""The largest bank or row id :func:`row_buffer_outcomes` takes: ids are held as 64-bit
signed integers (a decoded field of bit positions up to 62 always fits)."""


def _ids(name: str, value) -> np.ndarray:
    """``value`` as an int64 array of ids (integers in ``[0, MAX_ID]``);
    ``InputTypeError`` or ``OutOfRangeError`` naming ``name`` otherwise.

    Integers stay integers (a list of Python ints is read as int64, never through a
    float, so ids above 2**53 keep their value); only floats are checked as numbers
    (integral, finite, in range)."""
    what = f"{name} must hold integer ids in [0, {MAX_ID}]"
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        raise InputTypeError(f"{what}, got {type(value).__name__} {value!r:.60}")
    items = None
    try:
        raw = np.asarray(value)
        if raw.dtype.kind in "fO" and not (
            isinstance(value, np.ndarray) and raw.dtype.kind == "f"
        ):
            # Python ints that numpy would read as floats or objects (mixed signs
            # beyond int64, or beyond uint64): read them as int64 or refuse them
            items = np.asarray(value, dtype=object)
            if items.size and all(
                isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))
                for x in items.flat
            ):
                raw = np.asarray(value, dtype=np.int64)
    except OverflowError:
        flat = () if items is None else items.flat
        first = next((x for x in flat if not 0 <= x <= MAX_ID), "a too large integer")
        raise OutOfRangeError(f"{what}, got {first!s:.40}") from None
    except (TypeError, ValueError):
        raise InputTypeError(
            f"{what}, got {type(value).__name__} {value!r:.60}"
        ) from None
    if raw.dtype.kind in "iu":
        arr = raw
        bad = (arr < 0) | (arr > MAX_ID)
    else:
        arr = as_array(name, value)
        bad = (arr != np.floor(arr)) | (arr >= 2.0**63)
    if np.any(bad):
        raise OutOfRangeError(f"{what}, got {np.asarray(arr)[bad].flat[0].item()!r}")
    return np.asarray(arr, dtype=np.int64)


def row_buffer_outcomes(bank, row) -> np.ndarray:
    """Open-page outcome of each request, in stream order: 0 hit, 1 miss, 2 conflict.

    Per bank, the first request finds no open row (miss), a request to the open row
    hits, and one to another row conflicts (write back, then open). No time-outs or
    refresh: a row stays open until another row of its bank is opened.

    >>> row_buffer_outcomes([0, 0, 1, 0, 0], [5, 5, 5, 7, 7]).tolist()
    [1, 0, 1, 2, 0]
    """
    b, r = _ids("bank", bank), _ids("row", row)
    if b.shape != r.shape or b.ndim != 1:
        raise ValueError("bank and row must be 1-D arrays of one length")
    order = np.argsort(b, kind="stable")
    bs, rs = b[order], r[order]
    first = np.ones(b.size, dtype=bool)
    first[1:] = bs[1:] != bs[:-1]
    same = np.zeros(b.size, dtype=bool)
    same[1:] = rs[1:] == rs[:-1]
    res = np.where(first, MISS, np.where(same, HIT, CONFLICT))
    out = np.empty_like(res)
    out[order] = res
    return out


# --------------------------------------------------------------------------------------
# Algorithm 1


@dataclass(frozen=True)
class DetectedMapping:
    """Algorithm 1's result: the bit groups and the latency of each group (oracle units,
    e.g. ns).

    ``column_bits`` (shortest latency: a row-buffer hit), ``row_bits`` (longest: a row
    conflict) and ``other_bits`` (the middle group: another bank, a miss) are sorted
    tuples of 0-based bit positions; ``latencies`` maps ``"column"``, ``"row"``,
    ``"other"`` to the mean latency of each group found (an empty group has no
    entry); ``per_bit`` maps each probed bit to its second-access latency.
    """

    column_bits: tuple[int, ...]
    row_bits: tuple[int, ...]
    other_bits: tuple[int, ...]
    latencies: dict[str, float]
    per_bit: dict[int, float]

    def __post_init__(self):
        for name in ("column_bits", "row_bits", "other_bits"):
            _bit_tuple(f"DetectedMapping.{name}", getattr(self, name), 63)
        _fields.mappings(self, ("latencies", "per_bit"))
        for k, v in self.latencies.items():  # an empty group has no entry
            check_real(f"DetectedMapping.latencies[{k!r}]", v, 0.0)
        for k, v in self.per_bit.items():
            check_real(f"DetectedMapping.per_bit[{k!r}]", v, 0.0)

    def as_map(self, name: str = "detected") -> AddressMap:
        """An :class:`AddressMap` with the detected groups (the "other" bits identify
        the bank)."""
        return AddressMap(
            name=name,
            column_bits=self.column_bits,
            row_bits=self.row_bits,
            bank_bits=self.other_bits,
        )


def _three_groups(values: np.ndarray) -> np.ndarray:
    """Group labels 0 (low), 1 (middle), 2 (high) by the two largest gaps of the sorted
    distinct values."""
    u = np.unique(values)
    if u.size == 1:
        return np.ones(values.size, dtype=int)
    gaps = np.diff(u)
    if (
        u.size == 2
    ):  # two levels: hit and conflict if far apart, else the lower and a miss
        return np.where(values <= u[0], 0, 2 if u[1] / u[0] > 2.5 else 1)
    idx = np.sort(np.argsort(gaps)[-2:])
    cuts = u[idx] + gaps[idx] / 2
    return np.searchsorted(cuts, values)


def detect_mapping(
    second_access_latency: Callable[[int, int], float],
    address_bits: Iterable[int],
    base_address: int = 0,
) -> DetectedMapping:
    """Algorithm 1 (§III-C2): find the row and column bits from access latencies.

    For each bit x of ``address_bits`` the two addresses ``base_address`` with bit x
    cleared and set are accessed one after the other; ``second_access_latency(addr0,
    addr1)`` must return the latency of the access to ``addr1`` made right after one to
    ``addr0`` on an otherwise idle memory (the first access always misses). The bits
    then fall into three latency groups: shortest = column bits (same row: hit), longest
    = row bits (same bank, other row: conflict), middle = the other bits (another bank:
    miss). Groups are split at the two largest gaps of the sorted distinct latencies, so
    the oracle's units do not matter. With exactly two distinct latencies (no column or
    no row bit among those probed) the book reads a ratio above 2.5 between them as hit
    and conflict (1008/352 on the K80), else as the lower group and a miss; with noisy
    latencies all three groups must be present.

    >>> dram = SimulatedDRAM(address_map("k80_printed_row_low"), 100.0, 250.0, 400.0)
    >>> found = detect_mapping(dram.second_access_latency, range(3, 40))
    >>> found.row_bits == tuple(range(8, 22)), found.column_bits, found.latencies["row"]
    (True, (30, 31, 32), 400.0)
    """
    if not callable(second_access_latency):
        raise InputTypeError(
            "second_access_latency must be a function (addr0, addr1) -> latency, got "
            f"{type(second_access_latency).__name__} {second_access_latency!r:.40}"
        )
    address_bits = _fields.name_list("address_bits", address_bits, "bit positions")
    bits = sorted({check_int("address_bits item", b, 0, 62) for b in address_bits})
    if not bits:
        raise ValueError("address_bits must name at least one bit position")
    base = check_int("base_address", base_address, 0)
    lat = []
    for x in bits:
        a0 = base & ~(1 << x)
        a1 = a0 | (1 << x)
        v = second_access_latency(a0, a1)
        v = check_real(f"second_access_latency for bit {x}", v, 0.0)
        lat.append(v)
    lat_a = np.asarray(lat)
    g = _three_groups(lat_a)
    col = tuple(b for b, k in zip(bits, g) if k == 0)
    oth = tuple(b for b, k in zip(bits, g) if k == 1)
    row = tuple(b for b, k in zip(bits, g) if k == 2)

    groups = {"column": 0, "other": 1, "row": 2}
    return DetectedMapping(
        column_bits=col,
        row_bits=row,
        other_bits=oth,
        latencies={
            name: float(lat_a[g == k].mean())
            for name, k in groups.items()
            if np.any(g == k)
        },
        per_bit=dict(zip(bits, lat)),
    )


@dataclass
class SimulatedDRAM:
    """An isolated-access DRAM model: the latency oracle Algorithm 1 is run against in
    the book.

    Every bank starts precharged (no open row). An access returns ``lat_hit`` if its
    bank has its row open, ``lat_miss`` if the bank has no open row, ``lat_conflict`` if
    another row is open; it then leaves its row open. ``second_access_latency`` resets
    the banks, accesses ``addr0`` and times ``addr1``. The three latencies have no
    defaults: the book passes the K80's measured ones (inputs in ``data/published/``)
    or, to show that Algorithm 1 finds what it is given, others. Optional Gaussian
    ``noise`` (same units, seeded) imitates measurement jitter.
    """

    mapping: AddressMap
    lat_hit: float
    lat_miss: float
    lat_conflict: float
    noise: float = 0.0
    seed: int = 0
    _open: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        _fields.of_type(self, "mapping", AddressMap, "an AddressMap")
        _fields.reals(self, ("lat_hit", "lat_miss", "lat_conflict", "noise"), 0.0)
        seed = check_int("SimulatedDRAM.seed", self.seed, 0)
        _fields.of_type(self, "_open", dict)
        self._rng = np.random.default_rng(seed)

    def reset(self) -> None:
        self._open.clear()

    def access(self, address: int) -> float:
        b, r, _ = self.mapping.decode(np.array([address]))
        b, r = int(b[0]), int(r[0])
        cur = self._open.get(b)
        lat = (
            self.lat_miss
            if cur is None
            else self.lat_hit
            if cur == r
            else self.lat_conflict
        )
        self._open[b] = r
        return lat + (self._rng.normal(0.0, self.noise) if self.noise else 0.0)

    def second_access_latency(self, addr0: int, addr1: int) -> float:
        self.reset()
        self.access(addr0)
        return self.access(addr1)


def lindley(interarrival, service) -> np.ndarray:
    """Waits in queue of a FCFS single server, by the Lindley recursion, vectorised.

    ``interarrival[i]`` is the gap between customer i−1 and customer i
    (``interarrival[0]`` is ignored: the first customer finds the server idle);
    ``service[i]`` is customer i's service time. With ``U_i = S_{i-1} − A_i`` and ``P``
    the partial sums of U, ``W_i = max(0, W_{i-1} + U_i) = P_i − min_{k ≤ i} P_k`` (one
    cumsum and one running minimum).

    >>> lindley([0, 1, 1, 5], [2, 2, 2, 2]).tolist()
    [0.0, 1.0, 2.0, 0.0]
    """
    a = as_array("interarrival", interarrival, 0.0)
    s = as_array("service", service, 0.0)
    a, s = broadcast(interarrival=a, service=s)
    if a.ndim != 1 or s.ndim != 1 or a.shape != s.shape:
        raise ValueError(
            "interarrival and service must be 1-D arrays of one length, got shapes "
            f"{a.shape} and {s.shape}"
        )
    if a.size == 0:
        return np.zeros(0)
    u = np.empty_like(a)
    u[0] = 0.0
    u[1:] = s[:-1] - a[1:]
    p = np.cumsum(u)
    return p - np.minimum.accumulate(np.minimum(p, 0.0))

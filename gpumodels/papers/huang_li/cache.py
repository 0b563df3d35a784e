"""Set-associative LRU caches for the texture, constant and L2 filters of Huang & Li
(2017) §IV.

The paper builds its cache models "based on the cache models in GPGPU-Sim" and prints no
geometry; the K80 defaults (``data/huang_li/k80_parameters.csv``) come from GPGPU-Sim's
Kepler configuration and the CUDA guide, each row with its source. A cache here is a
geometry (:class:`Cache`: sets, line bytes, ways) and a pure function from an access
stream to a hit vector (:func:`lru_hits`), so several independent caches (one per SM)
run as one call with a cache id per access. The sequential loop is compiled with numba;
``NUMBA_DISABLE_JIT=1`` runs the same code in Python with identical results.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpumodels.ground._jit import njit
from gpumodels.ground.errors import OutOfRangeError
from gpumodels.ground.validate import check_int
from gpumodels.papers.huang_li._checks import check_str

MAX_CACHE_LINES = 1 << 24
"""The most cache lines (caches × sets × ways) :func:`lru_hits` simulates in one call:
its tag and LRU-stamp tables take 16 bytes per line (256 MiB at this bound; the K80's
L2 has 12,288 lines)."""


# compiled, so coverage cannot see it; tested through lru_hits
@njit(cache=True)
def _lru(line, cache_id, n_sets, assoc, n_caches):  # pragma: no cover
    tags = np.full((n_caches * n_sets, assoc), -1, dtype=np.int64)
    stamp = np.zeros((n_caches * n_sets, assoc), dtype=np.int64)
    hits = np.zeros(line.size, dtype=np.bool_)
    for i in range(line.size):
        s = cache_id[i] * n_sets + line[i] % n_sets
        victim = 0
        oldest = stamp[s, 0]
        found = False
        for w in range(assoc):
            if tags[s, w] == line[i]:
                hits[i] = True
                stamp[s, w] = i + 1
                found = True
                break
            if stamp[s, w] < oldest:
                oldest = stamp[s, w]
                victim = w
        if not found:
            tags[s, victim] = line[i]
            stamp[s, victim] = i + 1
    return hits


def lru_hits(
    lines, n_sets: int, assoc: int, cache_id=None, n_caches: int | None = None
) -> np.ndarray:
    """Hit (True) or miss of each access to LRU caches of ``n_sets`` sets
    and ``assoc`` ways.

    ``lines`` are line numbers (byte address // line size), in access order; the set is
    ``line % n_sets``. ``cache_id`` (default all 0) sends each access to one of
    ``n_caches`` independent caches, all empty at the start. Misses allocate (every
    access allocates: the read-only caches and a write-allocate L2). At most
    :data:`MAX_CACHE_LINES` lines in all (``n_caches × n_sets × assoc``).

    >>> lru_hits([0, 1, 0, 2, 1], n_sets=1, assoc=2).tolist()    # 2 ways: 2 evicts 1
    [False, False, True, False, False]
    """
    ln = np.asarray(lines)
    if ln.ndim != 1 or (
        ln.size and (not np.issubdtype(ln.dtype, np.integer) or ln.min() < 0)
    ):
        raise ValueError(
            "lines must be a 1-D array of non-negative integer line numbers"
        )
    ns = check_int("n_sets", n_sets, 1, 1 << 24)
    na = check_int("assoc", assoc, 1, 1024)
    if n_caches is not None:
        n_caches = check_int("n_caches", n_caches, 1, MAX_CACHE_LINES)
    if cache_id is None:
        cid = np.zeros(ln.size, dtype=np.int64)
        nc = 1
    else:
        cid = np.asarray(cache_id)
        if cid.shape != ln.shape or (
            cid.size and (not np.issubdtype(cid.dtype, np.integer) or cid.min() < 0)
        ):
            raise ValueError(
                "cache_id must be non-negative integers, one per access of lines "
                f"({ln.shape}), got shape {cid.shape} dtype {cid.dtype}"
            )
        nc = (
            int(cid.max()) + 1
            if n_caches is None and cid.size
            else (n_caches or 1)
        )
        if cid.size and cid.max() >= nc:
            raise ValueError(
                f"cache_id must be below n_caches = {nc}, got {int(cid.max())}"
            )
    if nc * ns * na > MAX_CACHE_LINES:
        raise OutOfRangeError(
            f"n_caches × n_sets × assoc must be at most MAX_CACHE_LINES = "
            f"{MAX_CACHE_LINES} lines, got {nc} × {ns} × {na} = {nc * ns * na}"
        )
    return _lru(ln.astype(np.int64), cid.astype(np.int64), ns, na, nc)


@dataclass(frozen=True)
class Cache:
    """A set-associative LRU cache geometry:
    ``sets`` × ``ways`` lines of ``line_bytes``."""

    name: str
    sets: int
    line_bytes: int
    ways: int
    source: str = ""

    def __post_init__(self):
        check_str("Cache.name", self.name)
        check_str("Cache.source", self.source)
        check_int(f"{self.name}.sets", self.sets, 1, 1 << 24)
        check_int(f"{self.name}.line_bytes", self.line_bytes, 1, 1 << 16)
        check_int(f"{self.name}.ways", self.ways, 1, 1024)

    @property
    def bytes(self) -> int:
        return self.sets * self.line_bytes * self.ways

    def hits(self, addresses, cache_id=None, n_caches: int | None = None) -> np.ndarray:
        """Hit vector of a stream of byte addresses (each one access; see
        :func:`lru_hits`)."""
        a = np.asarray(addresses, dtype=np.int64)
        if a.size and a.min() < 0:
            raise ValueError("addresses must be non-negative byte addresses")
        return lru_hits(a // self.line_bytes, self.sets, self.ways, cache_id, n_caches)

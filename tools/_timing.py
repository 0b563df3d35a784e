"""Shared by the benchmark scripts in tools/: the best wall time of repeated runs."""

import time


def best_of(repeats: int, fn):
    """Run ``fn()`` ``repeats`` times; return the shortest wall time (s) and the last
    result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result

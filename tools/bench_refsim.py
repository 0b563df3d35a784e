"""Speed of the Huang & Li simulated reference (gpumodels.engines.refsim.simulator).

    .venv/bin/python tools/bench_refsim.py [repeats]

Prints (1) the JIT time of the compiled core in a fresh process with an empty numba
cache,
(2) the core's rate in simulated memory requests per second after JIT — requests
    entering the
memory system (texture and constant look-ups, L2 accesses) plus DRAM requests — over all
60 counted placements, best of ``repeats``, and (3) the time to regenerate the cache
with tools/simulate_huang_li.py's work in one process. A benchmark, not a test (issue
target: >= 1e6 requests/s after JIT, JIT <= 20 s, on the 2-core machine).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from _timing import best_of


def jit_seconds() -> float:
    code = (
        "import time; from gpumodels.engines.refsim import simulator as refsim; t = "
        "time.perf_counter(); "
        "refsim.simulate('vecAdd'); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "NUMBA_CACHE_DIR": d}
        out = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return float(out.stdout.strip())


def _streams():
    """The memory streams of all 60 counted placements (built with numpy)."""
    from gpumodels.engines.refsim import kernels, placements
    from gpumodels.engines.refsim import simulator as refsim

    rm = refsim.machine()
    streams = []
    for t in placements.tests():
        k = next(
            kernels.kernel(b)
            for b in kernels.GENERATORS
            if kernels.kernel(b).name == t["kernel"]
        )
        streams.append(
            refsim.kernel_streams(k.trace(placements.parse_moves(t["moves"])), rm)
        )
    return rm, streams


def _requests(results) -> int:
    """Memory requests the runs simulated (see the module docstring)."""
    reqs = 0
    for r in results:
        c = r.counters
        reqs += (
            c["tex_requests"]
            + c["const_requests"]
            + c["l2_read_requests"]
            + c["l2_write_requests"]
            + c["dram_reads"]
            + c["dram_writes"]
        )
    return reqs


def cases() -> list[tuple[str, object]]:
    """``(name, callable returning the simulated memory requests)`` for a table of
    benchmarks: the compiled core over the 60 placements' prepared streams."""
    from gpumodels.engines.refsim import simulator as refsim

    rm, streams = _streams()
    refsim.run_streams(streams[0], rm)  # loads (or compiles) the numba core

    def run() -> int:
        return _requests([refsim.run_streams(s, rm) for s in streams])

    return [("Huang & Li reference simulator, 60 placements", run)]


def main(repeats: int = 3) -> int:
    from gpumodels.engines.refsim import simulator as refsim

    print(f"JIT (fresh cache, first vecAdd simulation): {jit_seconds():.1f} s")
    t0 = time.perf_counter()
    rm, streams = _streams()
    prep = time.perf_counter() - t0
    refsim.run_streams(streams[0], rm)  # warm (cached JIT)
    best, res = best_of(repeats, lambda: [refsim.run_streams(s, rm) for s in streams])
    reqs = _requests(res)
    print(
        f"placements simulated  : {len(streams)}; trace and stream building {prep:.1f} "
        "s (numpy)"
    )
    print(f"simulation, best of {repeats}: {best:.2f} s for {reqs:,} memory requests")
    print(f"simulated requests/s  : {reqs / best:,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))

"""Throughput of the Huang & Li trace analysis: coalescing, texture/constant/L2 filters,
banks, Kingman.

    .venv/bin/python tools/bench_huang_li.py [repeats]

Analyses the sample placement of every synthetic kernel
(``gpumodels.engines.refsim.kernels``) with
:func:`gpumodels.papers.huang_li.analysis.analyze` after one warm-up pass (numba
compiles the cache loop once) and prints the rates: warp-level memory instructions, lane
accesses and the requests that reach the caches (global sectors, texture and constant
line look-ups, L2 sectors) per second. A benchmark, not a test: the issue's target (>=
1e6 memory requests/s on the 2-core machine) is reported, not asserted.
"""

from __future__ import annotations

import sys

from _timing import best_of

from gpumodels.engines.refsim import kernels
from gpumodels.papers.huang_li import analysis


def _analyses():
    """The sample placement's trace of every synthetic kernel, and a callable that
    analyses them all."""
    m = analysis.k80()
    traces = [kernels.kernel(b).trace() for b in kernels.GENERATORS]
    return traces, lambda: [analysis.analyze(tr, m) for tr in traces]


def cases() -> list[tuple[str, object]]:
    """``(name, callable returning the cache requests analysed)`` for a table of
    benchmarks: every synthetic kernel's sample placement through
    :func:`~gpumodels.papers.huang_li.analysis.analyze`."""
    _, analyse = _analyses()

    def run() -> int:
        return sum(a.offchip_requests + a.l2_accesses for a in analyse())

    return [("Huang & Li trace analysis, sample placements", run)]


def main(repeats: int = 3) -> int:
    traces, analyse = _analyses()
    analyse()  # warm-up: numba compilation, caches
    best, ans = best_of(repeats, analyse)
    warp_insts = sum(tr.n_ops for tr in traces)
    lanes = sum(int((tr.addr >= 0).sum()) for tr in traces)
    cache_reqs = sum(a.offchip_requests + a.l2_accesses for a in ans)
    print(
        f"kernels analysed      : {len(traces)} (sample placements), best of "
        f"{repeats}: {best:.3f} s"
    )
    print(
        f"warp memory insts/s   : {warp_insts / best:,.0f}  ({warp_insts:,} "
        "instructions)"
    )
    print(f"lane accesses/s       : {lanes / best:,.0f}  ({lanes:,} accesses)")
    print(
        f"cache requests/s      : {cache_reqs / best:,.0f}  ({cache_reqs:,} sector and "
        "line requests)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))

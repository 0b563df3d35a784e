"""Compile the package's numba code once, before ``make test`` starts its workers.

    .venv/bin/python tools/warm_numba.py

A fresh clone has no compiled cache: without this step each pytest worker (and a
notebook kernel that starts early) compiles the same functions itself, about 15 s each
for the cycle simulator's core and the Huang & Li reference simulator's. Here two
processes compile them side by side and numba's cache (``cache=True``) keeps the result
for every later process. Nothing is measured or checked; a failure is reported and the
tests run anyway (they compile what they need).
"""

from __future__ import annotations

import subprocess
import sys

JOBS = {
    "cycle simulator": (
        "from gpumodels import sim, volkov; "
        "sm = sim.volkov_sm(volkov.params('Maxwell')); "
        "sim.simulate(sm, sim.alpha_program(1), 2, 100, engine='compiled')"
    ),
    "Huang & Li simulator and analysis": (
        "from gpumodels.engines.refsim import kernels, simulator; "
        "from gpumodels.papers.huang_li import analysis; "
        "simulator.simulate('vecAdd'); "
        "analysis.analyze(kernels.kernel('triad').trace({'B': 'T'}))"
    ),
}


def main() -> int:
    procs = {
        name: subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
        for name, code in JOBS.items()
    }
    for name, p in procs.items():
        _, err = p.communicate()
        if p.returncode:
            print(f"warm_numba: compiling the {name} failed:\n{err.decode()[-2000:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Li et al. (2015): the producer of the printed values the book re-derives (§1 and §3).

Each producer returns ``{published key: computed value}``; :mod:`gpumodels.scoreboard`
collects :data:`PRODUCERS`.
"""

from __future__ import annotations

from gpumodels.facts import hardware, occupancy
from gpumodels.facts.param_sets import params


def transit_li2015() -> dict[str, float]:
    """Li et al. (2015) §1 and §3: the machine points' abscissae and the GK110's cores
    and threads."""
    c2075 = hardware.get_gpu("C2075")
    k40 = hardware.get_gpu("K40")
    return {
        "li15.s3.k_delta_sp.C2075": occupancy.limits(
            c2075.compute_capability
        ).max_warps_per_sm
        * 32,
        "li15.s3.M_sp.C2075": c2075.cuda_cores_per_sm * params("Fermi").alu_lat,
        "li15.s3.cores_per_sm.C2075": c2075.cuda_cores_per_sm,
        "li15.s3.cores_per_sm.GTX690": hardware.get_gpu("GTX690").cuda_cores_per_sm,
        "li15.s1.cores.K40": k40.sm_count * k40.cuda_cores_per_sm,
        "li15.s1.threads.K40": k40.sm_count
        * occupancy.limits(k40.compute_capability).max_threads_per_sm,
    }


PRODUCERS = (transit_li2015,)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`."""

"""Huang & Li (2017): the producer of the printed values the book re-derives.

Each producer returns ``{published key: computed value}``; :mod:`gpumodels.scoreboard`
collects :data:`PRODUCERS`.
"""

from __future__ import annotations

from gpumodels.papers.huang_li import book


def huang_li() -> dict[str, float]:
    """Huang & Li (2017): Algorithm 1's latencies on the simulated K80 DRAM, addressing
    counts, placement counts."""
    return book.fidelity()


PRODUCERS = (huang_li,)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`."""

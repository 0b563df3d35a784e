"""Huang & Li (2017): the producer of the printed values the book re-derives.

Each producer returns ``{published key: computed value}``; :mod:`gpumodels.scoreboard`
collects :data:`PRODUCERS`.
"""

from __future__ import annotations

from gpumodels.papers.huang_li import book


def huang_li() -> dict[str, float]:
    """Huang & Li (2017): the latency variation from the measured latencies,
    addressing counts from Fig. 2's SASS, placement counts of Table IV, c_a of an
    exponential, the C2050 bank count and the §V-B gain identities."""
    return book.fidelity()


PRODUCERS = (huang_li,)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`."""

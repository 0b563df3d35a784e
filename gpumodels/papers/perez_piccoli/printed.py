"""Perez & Piccoli: the producer of the printed values the book re-derives
(Tables 5 and 7).

Each producer returns ``{published key: computed value}``; :mod:`gpumodels.scoreboard`
collects :data:`PRODUCERS`.
"""

from __future__ import annotations

from gpumodels.papers.perez_piccoli import model as perfparams


def perez_piccoli() -> dict[str, float]:
    """Tables 5 and 7 of Perez & Piccoli:
    every feature cell from the printed parameters."""
    return perfparams.printed_cells()


PRODUCERS = (perez_piccoli,)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`."""

"""Perez & Piccoli, *Towards the Specification of the GPU using Performance Parameters*.

model     the eight performance parameters, derived features, benchmark parser
explorer  the chapter's explorer
printed   the producer of the printed values the book re-derives (Tables 5 and 7)
"""

PAPER = "Perez & Piccoli"
"""The paper, as the ``paper`` column of ``data/published/`` names it."""
PART = 4
"""Its part of the book (the scoreboard's order)."""
CHAPTER = "perez_parameters"
"""The first chapter of its part."""

"""Layer 4, papers: one subpackage per paper; a paper never imports another paper.

Each subpackage names its paper (``PAPER``), its place in the book (``PART``,
``CHAPTER``) and, in its ``printed`` module, the producers of the printed values it
re-derives (``PRODUCERS``); :mod:`gpumodels.scoreboard` finds them there.
"""

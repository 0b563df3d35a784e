"""Layer 1, ground: what every other layer stands on and that knows no GPU and no paper.

errors    the project's exception types
validate  argument checks that name the parameter, the allowed range and the value
location  where the sourced tables are (``data/``, or another folder)
diskcache results kept on disk for every process of a checkout
data      reading the sourced CSV tables of ``data/`` (checked against their schemas)
schemas   one schema per table: columns, types, ranges, unique keys
plotting  the book's figure style
tables    tables for reading (printed precision, text kept whole)
widgets   the pieces of the ipywidgets explorers and their static pictures
"""

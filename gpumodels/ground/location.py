"""Where the sourced tables are: :func:`data_dir`.

A module of its own because two others stand on it: :mod:`gpumodels.ground.data` reads
the tables there, and :mod:`gpumodels.ground.diskcache` hashes them into its
fingerprint (and the data module keeps its schema checks in that cache).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

ENV = "GPUMODELS_DATA"
"""The environment variable that points the package at another data folder."""


def data_dir():
    """The folder holding the tables: ``$GPUMODELS_DATA``, else the package's own
    ``data`` (an installed wheel), else the source checkout's ``data/``."""
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    packaged = resources.files("gpumodels") / "data"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "data"

"""Which function reproduces which printed value: the registry behind :func:`gpumodels.published.scoreboard`.

Every row of ``data/published/published_values.csv`` that the book re-derives is produced by
exactly one function of :mod:`gpumodels.reproduce.volkov` or :mod:`gpumodels.reproduce.others`;
each producer returns ``{key: computed value}`` from sourced inputs in ``data/`` and the
package's models. :func:`computed` runs them all once (about ten seconds, cached) and
:func:`producer_of` names the function behind a key.
"""

from __future__ import annotations

from functools import lru_cache

from . import others, volkov
from ..errors import UnknownNameError

MODULES = (volkov, others)


@lru_cache(maxsize=None)
def _run() -> tuple[dict[str, float], dict[str, str]]:
    import warnings

    values: dict[str, float] = {}
    origin: dict[str, str] = {}
    for mod in MODULES:
        for fn in mod.PRODUCERS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)     # flagged model outputs are rows too
                got = fn()
            name = f"{fn.__module__}.{fn.__name__}"
            for key, v in got.items():
                if key in values:
                    raise RuntimeError(f"published key {key!r} is produced twice: by {origin[key]} and {name}")
                values[key] = float(v)
                origin[key] = name
    return values, origin


def computed() -> dict[str, float]:
    """``{published key: computed value}`` for every printed value the book re-derives (a copy)."""
    return dict(_run()[0])


def producer_of(key: str) -> str:
    """The dotted name of the function that computes ``key``; ``KeyError`` if none does."""
    origin = _run()[1]
    if key not in origin:
        raise UnknownNameError(f"no function computes {key!r}")
    return origin[key]

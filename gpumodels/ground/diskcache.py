"""A cache on disk for deterministic results that take seconds to compute, shared by
every process of one source checkout: the test workers, the notebook kernels of
``make test`` and ``make book``, a reader's JupyterLab.

A result is stored under a key made of the function's name, the ``repr`` of its
arguments and a **fingerprint** of everything that can change it: the text of every
module of the package, every file of the data folder and the versions of the numerical
libraries (numpy, pandas, scipy, numba). Change any of them and every entry is stale
(and is simply not found again), so a cached result is always the one the code and data
in hand compute; it only saves the time of computing it again in another process.

Where it lives (:func:`cache_dir`): ``$GPUMODELS_CACHE_DIR`` if set, else
``_build/cache`` of the source checkout the package runs from. It is **off** for an
installed package (no checkout: nothing is written to a reader's home), when
``GPUMODELS_CACHE=off``, and when ``GPUMODELS_DATA`` points at another data folder (the
tests that corrupt or perturb a copy of ``data/``). ``make clean`` deletes it; a fresh
clone starts without it, so ``make test`` there computes everything once.

Entries of one fingerprint sit in a subfolder named after it. The first process to
write under a new fingerprint removes the subfolders of every other one (folders named
like a fingerprint, nothing else), so the cache holds the results of the code and data
in hand only (a few hundred MB at most: the
Huang & Li traffic of every placement is the largest entry family). Entries are written
atomically (a temporary file renamed into place), so two processes computing the same
result at once both store a whole file; an unreadable entry is computed again.

Limits: the fingerprint is computed once per process, so a process that reloads edited
modules (IPython's ``autoreload``) or rewrites ``data/`` while it runs must be
restarted, or run with ``GPUMODELS_CACHE=off``, for its results to follow the edit
(until then it reads and writes under its old fingerprint, and its first write there
removes the newer subfolder, which the next process of the new code writes again). The
decorated functions are usually memoised in memory too (``functools.cache``), which
:func:`disabled` does not clear.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.location import ENV as _DATA_ENV
from gpumodels.ground.location import data_dir

_ENV_DIR = "GPUMODELS_CACHE_DIR"
_ENV_SWITCH = "GPUMODELS_CACHE"
_OFF = ("0", "off", "no", "false")
_LIBRARIES = ("numpy", "pandas", "scipy", "numba")
_PACKAGE = Path(__file__).resolve().parents[1]
_CHECKOUT = _PACKAGE.parent
_FP_DIGITS = 20  # hex digits of a fingerprint, the name of its subfolder


def cache_dir() -> Path | None:
    """The folder of the disk cache, or ``None`` where it is off (see the module
    docstring for the rules)."""
    if os.environ.get(_ENV_SWITCH, "").strip().lower() in _OFF:
        return None
    if os.environ.get(_DATA_ENV):
        return None
    env = os.environ.get(_ENV_DIR)
    if env:
        return Path(env)
    if (_CHECKOUT / "_config.yml").is_file() and (_CHECKOUT / "data").is_dir():
        return _CHECKOUT / "_build" / "cache"
    return None


@functools.cache
def fingerprint() -> str:
    """A hash of the package's modules, the data folder's files and the numerical
    libraries' versions (computed once per process)."""
    h = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        h.update(str(path.relative_to(_PACKAGE)).encode())
        h.update(path.read_bytes())
    data = Path(str(data_dir()))
    for path in sorted(p for p in data.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(data)).encode())
        h.update(path.read_bytes())
    for lib in _LIBRARIES:
        try:
            h.update(f"{lib}={metadata.version(lib)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{lib}=absent".encode())
    return h.hexdigest()[:_FP_DIGITS]


def _entry(folder: Path, name: str, args: tuple) -> Path:
    key = hashlib.sha256(f"{name}{args!r}".encode()).hexdigest()
    stem = name.rsplit(".", 1)[-1].lstrip("_")
    return folder / fingerprint() / f"{stem}-{key[:24]}.pkl"


_FINGERPRINT_NAME = re.compile(f"[0-9a-f]{{{_FP_DIGITS}}}")


def _open_subfolder(sub: Path) -> None:
    """Create the fingerprint's subfolder ``sub``; if it is new, remove the subfolders
    of every other fingerprint beside it. Only folders named as a fingerprint (its hex
    digits) are removed: ``$GPUMODELS_CACHE_DIR`` may name a folder that holds other
    things."""
    if sub.is_dir():
        return
    sub.mkdir(parents=True, exist_ok=True)
    for other in sub.parent.iterdir():
        if other != sub and other.is_dir() and _FINGERPRINT_NAME.fullmatch(other.name):
            shutil.rmtree(other, ignore_errors=True)


_MISSING = object()


def _read(path: Path):
    """The entry at ``path``, or ``_MISSING`` if there is none or it cannot be read
    (damaged, or pickled by another layout of the package: computed again)."""
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:  # noqa: BLE001
        return _MISSING


def persistent(fn: Callable) -> Callable:
    """Decorate a deterministic function of positional arguments whose ``repr`` names
    them fully (strings, numbers, tuples of them): its results are kept in the disk
    cache. The function still runs wherever the cache is off or has no entry."""
    if not callable(fn):
        raise InputTypeError(f"fn must be a function, got {fn!r:.60}")
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def cached(*args):
        folder = cache_dir()
        if folder is None:
            return fn(*args)
        path = _entry(folder, name, args)
        cached = _read(path)
        if cached is not _MISSING:
            return cached
        result = fn(*args)
        tmp = None
        try:
            _open_subfolder(path.parent)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
            with os.fdopen(fd, "wb") as f:
                pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except Exception:  # noqa: BLE001 - a read-only checkout, an unpicklable value
            if tmp is not None and os.path.exists(tmp):
                os.unlink(tmp)  # the result is simply not kept
        return result

    return cached


@contextmanager
def disabled() -> Iterator[None]:
    """Within the block, nothing is read from or written to the disk cache (a test
    that must compute again)."""
    saved = os.environ.get(_ENV_SWITCH)
    os.environ[_ENV_SWITCH] = "off"
    try:
        yield
    finally:
        if saved is None:
            del os.environ[_ENV_SWITCH]
        else:
            os.environ[_ENV_SWITCH] = saved

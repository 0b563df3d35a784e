"""The result record shared by the chapter-7 models,
and how impossible outputs are flagged.

Every model of :mod:`gpumodels.comparisons.prior` returns an :class:`Estimate`:
instruction throughput per SM at each occupancy ``n`` and arithmetic intensity ``alpha``
(broadcast), the regime or term that decided it, and a ``flags`` array that names every
output a GPU cannot produce — negative or non-finite throughput, throughput above the
issue rate, the CUDA cores' peak or the pin bandwidth, and model-specific warnings such
as Huang et al.'s utilisation above 1. Flagged outputs are returned, because reproducing
them is the point of chapter 7, but never silently: the call also emits a
:class:`ModelValidityWarning` (silence it with
:func:`gpumodels.comparisons.prior.estimate.expected_invalid` where a chapter reproduces
such a value on purpose).

Quantities are per repeating group of ``α + 1`` instructions (one load and α adds) as in
the dissertation; the code divides each formula by ``α + 1`` (fractions ``f = α/(α+1)``
of adds and ``g = 1/(α+1)`` of loads) so that ``alpha = inf`` is the all-add limit
rather than ``inf/inf``.
"""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from gpumodels.facts import hardware
from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.params import Params, check_params
from gpumodels.ground.errors import InputTypeError, OutOfRangeError
from gpumodels.ground.validate import as_array, broadcast, check_real

_RTOL = 1e-9


class ModelValidityWarning(UserWarning):
    """A model returned an output no GPU can produce (negative, infinite, above a
    hardware bound)."""


@contextlib.contextmanager
def expected_invalid():
    """Silence :class:`ModelValidityWarning` inside a ``with`` block (the flags stay in
    the result)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ModelValidityWarning)
        yield


@dataclass(frozen=True)
class Estimate:
    """One model's throughput estimates over a grid of occupancies
    and arithmetic intensities.

    Attributes
    ----------
    model, gpu : str
        Which model (e.g. ``"Sim et al. 2012"``) and which GPU parameters it used.
    n, alpha : numpy.ndarray
        Warps per SM and adds per load, broadcast to a common shape.
    ipc : numpy.ndarray
        All instructions (loads and adds) per cycle per SM.
    regime : numpy.ndarray
        The case or term that decided each estimate (strings; the model's docstring
        lists them).
    flags : numpy.ndarray
        ``""`` for a possible output, otherwise the reasons it is impossible, joined by
        ``"; "``.
    """

    model: str
    gpu: str
    n: np.ndarray
    alpha: np.ndarray
    ipc: np.ndarray
    regime: np.ndarray
    flags: np.ndarray

    def __post_init__(self):
        for name in ("model", "gpu"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise InputTypeError(
                    f"Estimate.{name} must be a string, got {value!r:.40}"
                )
        n = as_array("Estimate.n", self.n, lo=0.0, lo_open=True)
        a = as_array("Estimate.alpha", self.alpha, allow_inf=True)
        ipc = _numbers("Estimate.ipc", self.ipc)
        regime = _strings("Estimate.regime", self.regime)
        flags = _strings("Estimate.flags", self.flags)
        shapes = {
            "n": n.shape,
            "alpha": a.shape,
            "ipc": ipc.shape,
            "regime": regime.shape,
            "flags": flags.shape,
        }
        if len(set(shapes.values())) > 1:
            raise ValueError(
                f"Estimate.n, alpha, ipc, regime and flags must have one shape, got "
                f"{shapes}"
            )
        with np.errstate(invalid="ignore"):
            unflagged = (~np.isfinite(ipc) | (ipc < 0)) & (flags == "")
        if np.any(unflagged):
            raise ValueError(
                "Estimate.ipc must be finite and >= 0 where Estimate.flags is empty "
                f"(flags name every impossible output), got {ipc[unflagged].flat[0]!r}"
            )

    @property
    def adds(self) -> np.ndarray:
        """The adds per cycle per SM, 32 per add instruction, ``32 · α/(α+1) · ipc``."""
        return WARP_SIZE * add_fraction(self.alpha) * self.ipc

    @property
    def mem_ipc(self) -> np.ndarray:
        """The load instructions per cycle per SM, ``ipc / (α+1)``."""
        return load_fraction(self.alpha) * self.ipc

    @property
    def valid(self) -> np.ndarray:
        """True where the estimate is an output a GPU could produce (no flag)."""
        return self.flags == ""

    def table(self):
        """A pandas DataFrame with one row per grid point (``n, alpha, ipc, adds,
        mem_ipc, regime, flags``)."""

        cols = {
            "n": self.n,
            "alpha": self.alpha,
            "ipc": self.ipc,
            "adds": self.adds,
            "mem_ipc": self.mem_ipc,
            "regime": self.regime,
            "flags": self.flags,
        }
        return pd.DataFrame({k: np.ravel(v) for k, v in cols.items()}).assign(
            model=self.model, gpu=self.gpu
        )


def _numbers(name: str, value) -> np.ndarray:
    """``value`` as a float array of real numbers (NaN, inf and negatives allowed: the
    flags name them); ``InputTypeError`` naming ``name`` for anything else."""
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        raise InputTypeError(f"{name} must be numbers, got {value!r:.40}")
    try:
        raw = np.asarray(value)
        if raw.dtype.kind not in "iuf":
            raise TypeError
        return raw.astype(float)
    except (TypeError, ValueError, OverflowError):
        raise InputTypeError(f"{name} must be numbers, got {value!r:.40}") from None


def _strings(name: str, value) -> np.ndarray:
    """``value`` as an array of strings; ``InputTypeError`` naming ``name`` if not."""
    arr = np.asarray(value)
    if arr.dtype.kind == "U":
        return arr
    arr = np.asarray(value, dtype=object)
    if not all(isinstance(x, str) for x in arr.flat):
        raise InputTypeError(f"{name} must be strings, got {value!r:.40}")
    return arr


def add_fraction(alpha) -> np.ndarray:
    """``α/(α+1)``, the fraction of instructions that are adds; 1 at ``alpha = inf``."""
    as_array("alpha", alpha, allow_inf=True)
    a = np.asarray(alpha, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(np.isinf(a), 1.0, a / (a + 1.0))


def load_fraction(alpha) -> np.ndarray:
    """``1/(α+1)``, the fraction of instructions that are loads;
    0 at ``alpha = inf``."""
    as_array("alpha", alpha, allow_inf=True)
    return 1.0 / (np.asarray(alpha, dtype=float) + 1.0)


def pin_bandwidth(p: Params) -> float:
    """The pin bandwidth of ``p``'s GPU in GB/s (``data/hardware.csv``); ``ValueError``
    if it is not recorded."""
    p = check_params(p)
    bw = hardware.get_gpu(p.gpu).pin_bandwidth_gbs
    if bw is None:
        raise ValueError(
            f"peak_gbs must be given for {p.gpu}: data/hardware.csv has no pin "
            "bandwidth for it"
        )
    return bw


def grid(n, alpha, n_lo: float = 0.0):
    """Check and broadcast ``n`` (warps per SM, > ``n_lo``) and ``alpha``
    (>= 0, may be inf)."""
    n_lo = check_real("n_lo", n_lo, 0.0)
    try:
        n_ = as_array("n", n, lo=n_lo, lo_open=True)
    except ValueError as e:
        if n_lo == 0.0 or isinstance(e, InputTypeError):
            raise
        raise ValueError(f"{e} (n must exceed n_lo = {n_lo!r})") from None
    a_ = as_array("alpha", alpha, allow_inf=True)
    return broadcast(n=n_, alpha=a_)


_BUILT_IN_FLAGS = 5
"""The reasons :func:`make` checks itself (not finite, negative, above the issue rate,
above the CUDA-core peak, above the pin bandwidth)."""

MAX_EXTRA = 63 - _BUILT_IN_FLAGS
"""The most further reasons :func:`make` takes (each reason is one bit of an int64
code, whose sign bit stays unused)."""


def _flag_text(code: np.ndarray, reasons: list[str]) -> np.ndarray:
    """The flags from a bit code per output (bit ``i`` set: ``reasons[i]`` applies):
    each output's reasons in the order of ``reasons``, joined by ``"; "`` (``""``
    where none applies). Only the distinct codes are turned into text."""
    if not code.any():
        return np.full(code.shape, "", dtype="<U1")
    uniq, inverse = np.unique(code, return_inverse=True)
    text = np.array(
        ["; ".join(r for i, r in enumerate(reasons) if int(u) >> i & 1) for u in uniq],
        dtype=str,
    )
    return text[inverse.ravel()].reshape(code.shape)  # 0-d stays an array


def make(
    model: str,
    p: Params,
    n,
    alpha,
    ipc,
    regime,
    extra: dict[str, np.ndarray] | None = None,
    pin_gbs: float | None = None,
) -> Estimate:
    """Build an :class:`Estimate`, flag impossible outputs and warn if there are any.

    Checked against ``p``: throughput not negative and finite, ``ipc <= issue_thru``,
    adds ``<= 32·alu_thru``, and load throughput ``<= pin_gbs`` (GB/s, if given).
    ``extra`` maps further reasons (at most :data:`MAX_EXTRA`) to boolean masks
    (model-specific warnings).
    """
    p = check_params(p)
    if not isinstance(model, str):
        raise InputTypeError(f"model must be a string (a label), got {model!r:.40}")
    n = as_array("n", n, lo=0.0, lo_open=True)
    alpha = as_array("alpha", alpha, allow_inf=True)
    ipc = _numbers("ipc", ipc)
    regime = _strings("regime", regime).astype(str)
    if extra is not None and not isinstance(extra, dict):
        raise InputTypeError(
            f"extra must be a dict of reason -> boolean mask, got {extra!r:.40}"
        )
    extra = extra or {}
    if len(extra) > MAX_EXTRA:
        raise OutOfRangeError(
            f"extra must name at most {MAX_EXTRA} reasons, got {len(extra)}"
        )
    if pin_gbs is not None:
        pin_gbs = check_real("pin_gbs", pin_gbs, 0.0, lo_open=True)
    shape = broadcast(n=n, alpha=alpha, ipc=ipc, regime=regime)[0].shape
    n, alpha, ipc = (np.broadcast_to(x, shape).astype(float) for x in (n, alpha, ipc))
    regime = np.broadcast_to(np.asarray(regime, dtype=str), shape).copy()
    # every reason that applies sets its bit; the text is built once per distinct code
    code = np.zeros(shape, dtype=np.int64)
    reasons: list[str] = []

    def flag(cond, reason: str) -> None:
        code[np.broadcast_to(np.asarray(cond, dtype=bool), shape)] |= 1 << len(reasons)
        reasons.append(reason)

    finite = np.isfinite(ipc)
    flag(~finite, "not finite")
    with np.errstate(invalid="ignore"):
        flag(finite & (ipc < 0), "negative throughput")
        flag(finite & (ipc > p.issue_thru * (1 + _RTOL)), "above the issue rate")
        adds = WARP_SIZE * add_fraction(alpha) * ipc
        flag(
            finite & (adds > WARP_SIZE * p.alu_thru * (1 + _RTOL)),
            "above the CUDA-core peak",
        )
        if pin_gbs is not None:
            gbs = load_fraction(alpha) * ipc * p.gbs_per_ipc
            flag(finite & (gbs > pin_gbs * (1 + _RTOL)), "above the pin bandwidth")
    for reason, mask in extra.items():
        flag(mask, reason)
    flags = _flag_text(code, reasons)
    est = Estimate(
        model=model, gpu=p.gpu, n=n, alpha=alpha, ipc=ipc, regime=regime, flags=flags
    )
    n_bad = int(np.count_nonzero(code))
    if n_bad:
        seen = np.bitwise_or.reduce(code, axis=None)
        named = sorted({r for i, r in enumerate(reasons) if int(seen) >> i & 1})
        warnings.warn(
            f"{model} on {p.gpu}: {n_bad} of {flags.size} estimates are impossible "
            f"outputs ({', '.join(named)}); see Estimate.flags",
            ModelValidityWarning,
            stacklevel=3,
        )
    return est

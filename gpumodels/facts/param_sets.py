"""Parameter sets (:class:`gpumodels.facts.params.Params`) of Volkov's five GPUs and of
the modern ones.

:func:`params` gives Table 4.1's set of one of Volkov's GPUs (with Table 6.5's latency
fit) or the set :mod:`gpumodels.facts.modern` assembles for a later GPU from public
measurements; :func:`mix_params` gives the §4.7 mixes (adds with SFU or shared-memory
instructions).
"""

from __future__ import annotations

from functools import cache

from gpumodels.facts import hardware, modern
from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.params import KINDS, Params
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, UnknownNameError
from gpumodels.ground.validate import check_flag

_T41 = "volkov/table_4_1.csv"


_T65 = "volkov/table_6_5.csv"


_CH6 = "volkov/chapter6_metrics.csv"


_S47 = "volkov/maxwell_s4_7.csv"


GENERATIONS = ("G80", "GT200", "Fermi", "Kepler", "Maxwell")


@cache
def _table_4_1() -> dict[str, dict[str, str]]:
    return {r["gpu"]: r for r in read_rows(_T41)}


def _generation(name: str) -> str:
    if not isinstance(name, str):
        raise InputTypeError(
            f"name must be a GPU name such as 'Kepler' or 'GTX680', got {name!r}"
        )
    for gen in GENERATIONS:
        if name.strip().lower() == gen.lower():
            return gen
    try:
        g = hardware.get_gpu(name)
    except KeyError:
        g = None
    if g is not None:
        for gen in GENERATIONS:
            if hardware.get_gpu(gen).name == g.name:
                return gen
    allowed = ", ".join(f"{gen} ({hardware.get_gpu(gen).name})" for gen in GENERATIONS)
    raise UnknownNameError(
        f"name must be one of the five GPUs of Volkov 2016: {allowed}; got {name!r}"
    )


def chapter6_value(gen: str, table: str, column: str) -> float:
    """One printed value of Volkov's Tables 6.1–6.6
    (``data/volkov/chapter6_metrics.csv``), e.g. ``chapter6_value("Kepler", "6.4",
    "peak")``; ``UnknownNameError`` if the table has no such cell."""
    for r in read_rows(_CH6):
        if r["gpu"] == gen and r["table"] == table and r["column"] == column:
            return float(r["value"])
    raise UnknownNameError(f"Table {table} has no {column!r} value for {gen}")


def _s47(quantity: str) -> float:
    return float(next(r["value"] for r in read_rows(_S47) if r["quantity"] == quantity))


def _check_text(name: str, value, optional: bool = False) -> None:
    """``InputTypeError`` naming ``name`` unless ``value`` is a string (or ``None``
    when ``optional``)."""
    if not isinstance(value, str) and not (optional and value is None):
        raise InputTypeError(
            f"{name} must be a string{' or None' if optional else ''}, got "
            f"{value!r:.60} ({type(value).__name__})"
        )


def params(
    name: str,
    latency_model: str = "table_6_5",
    *,
    method: str | None = None,
    bandwidth: str = "read",
) -> Params:
    """The Table 4.1 parameter set of one of Volkov's five GPUs, or of a modern GPU.

    Parameters
    ----------
    name : str
        ``"G80"``, ``"GT200"``, ``"Fermi"``, ``"Kepler"``, ``"Maxwell"`` or the same
        GPUs by product name (``"8800GTX"``, ``"GTX280"``, ``"GTX480"``, ``"GTX680"``,
        ``"GTX980"``); or a modern GPU of :data:`gpumodels.facts.modern.GPUS` (``"V100
        PCIe"``, ``"A100"``, ``"A100 80GB"``, ``"H100 PCIe"``, ``"H100"``, ``"GH200"``,
        ``"L40"``), whose parameters come from public measurements
        (:func:`gpumodels.facts.modern.params`).
    latency_model : str
        ``"table_6_5"`` (one term, all GPUs) or ``"two_term"`` (the better G80 fit of
        §6.4); Volkov's GPUs only.
    method, bandwidth : str
        Modern GPUs only: the latency measurement and the bandwidth that sets
        ``mem_thru``.

    Examples
    --------
    >>> p = params("Maxwell")
    >>> p.mem_lat, p.mem_thru, p.alu_lat, p.alu_thru, p.issue_thru
    (368.0, 0.0814, 6.0, 4.0, 4.0)
    >>> round(p.mem_thru_gbs)
    211
    """
    _check_text("name", name)
    _check_text("latency_model", latency_model)
    _check_text("method", method, optional=True)
    _check_text("bandwidth", bandwidth)
    return _params(name, latency_model, method=method, bandwidth=bandwidth)


@cache
def _params(
    name: str,
    latency_model: str = "table_6_5",
    *,
    method: str | None = None,
    bandwidth: str = "read",
) -> Params:
    try:
        gen = _generation(name)
    except ValueError:
        try:
            modern.gpu_name(name)
        except ValueError as e:
            if isinstance(name, str) and name.upper() in modern.AMD:
                raise e from None  # gpu_name's own message: known, but not warp-based
            allowed = ", ".join(GENERATIONS) + ", " + ", ".join(modern.GPUS)
            raise UnknownNameError(
                f"name must be one of Volkov's five GPUs or a modern GPU: {allowed}; "
                f"got {name!r}"
            ) from None
        return modern.params(name, method=method, bandwidth=bandwidth)
    if method is not None or bandwidth != "read":
        raise ValueError(
            "method and bandwidth apply to modern GPUs only; "
            f"{gen} has Table 4.1's parameters"
        )
    row = _table_4_1()[gen]
    rows65 = [r for r in read_rows(_T65) if r["gpu"] == gen]
    models = sorted({r["variant"] for r in rows65})
    if latency_model not in models:
        raise UnknownNameError(
            f"latency_model must be one of {models} for {gen}, got {latency_model!r}"
        )
    base = next(r for r in rows65 if r["variant"] == "table_6_5")
    terms = [r for r in rows65 if r["variant"] == latency_model]
    g = hardware.get_gpu(gen)
    src41 = row["source"]
    return Params(
        gpu=gen,
        product=g.name,
        kind="memory",
        mem_lat=float(row["mem_lat"]),
        mem_thru=float(row["mem_thru"]),
        alu_lat=float(row["alu_lat"]),
        alu_thru=float(row["alu_thru"]),
        issue_thru=float(row["issue_thru"]),
        a=float(terms[0]["a"]),
        b=float(base["b"]),
        c=float(base["c"]),
        latency_terms=tuple((float(r["b"]), float(r["c"])) for r in terms),
        latency_model=latency_model,
        sm_count=g.sm_count,
        clock_ghz=g.clock_ghz,
        schedulers=g.warp_schedulers_per_sm,
        max_warps_per_sm=g.max_warps_per_sm,
        sources={
            "mem_lat": src41,
            "mem_thru": src41,
            "alu_lat": src41,
            "alu_thru": src41,
            "issue_thru": src41,
            "a": terms[0]["source"],
            "b": base["source"],
            "c": base["source"],
            "latency_terms": terms[0]["source"],
            "sm_count": g.source("sm_count"),
            "clock_ghz": g.source("clock_ghz"),
            "schedulers": g.source("warp_schedulers_per_sm"),
        },
    )


def mix_params(name: str, kind: str, issue_costs: bool = False) -> Params:
    """Parameters of the §4.7 mixes:
    adds with SFU instructions or with shared-memory loads.

    The SFU or shared-memory instruction takes the place of the global load: its latency
    is Table 6.2's, its peak throughput Table 6.1's (ops/cycle/scheduler × schedulers /
    32). On the Maxwell GPU the latency also depends on the dependent instruction (13/9
    cycles for SFU, 24/22 for shared memory; §4.7). With ``issue_costs=True`` an SFU
    instruction takes 2 and a shared-memory load 3 issue cycles — the assumption with
    which §4.7 matches the measured saturation on Maxwell (only Maxwell has this
    variant).

    ``kind="memory"`` returns :func:`params` (optionally with §4.12's 8 issue cycles per
    load on Maxwell).
    """
    _check_text("name", name)
    _check_text("kind", kind)
    return _mix_params(name, kind, check_flag("issue_costs", issue_costs))


@cache
def _mix_params(name: str, kind: str, issue_costs: bool) -> Params:
    if kind not in KINDS:
        raise UnknownNameError(f"kind must be one of {KINDS}, got {kind!r}")
    base = params(name)
    gen = base.gpu
    if issue_costs and gen != "Maxwell":
        raise ValueError(
            f"issue_costs=True is defined only for Maxwell (§4.7, §4.12), got {gen}"
        )
    if kind == "memory":
        return base.replace(mem_issue=_s47("mem_issue_cycles")) if issue_costs else base
    if kind == "shared" and gen in ("G80", "GT200"):
        raise ValueError(
            f"kind='shared' is not defined for {gen}: Volkov §4.7 does not consider "
            "this mix on G80 and GT200 "
            "(shared memory is addressed through extra instructions)"
        )
    col = "sfu" if kind == "sfu" else "smem"
    lat = chapter6_value(gen, "6.2", col)
    lat_to_alu = lat
    if gen == "Maxwell":
        lat = _s47(f"{col}_lat_same")
        lat_to_alu = _s47(f"{col}_lat_to_alu")
    thru = chapter6_value(gen, "6.1", col) * base.schedulers / WARP_SIZE
    issue = _s47(f"{col}_issue_cycles") if issue_costs else 1.0
    src = "Volkov 2016, Tables 6.1-6.2" + (" and §4.7" if gen == "Maxwell" else "")
    return base.replace(
        kind=kind,
        mem_lat=lat,
        mem_lat_to_alu=lat_to_alu,
        mem_thru=thru,
        mem_issue=issue,
        sources={**base.sources, "mem_lat": src, "mem_thru": src},
    )


# the public functions check their arguments, then read the caches: clearing them stays
# as it was (``params.cache_clear()``)
params.cache_clear = _params.cache_clear  # type: ignore[attr-defined]
params.cache_info = _params.cache_info  # type: ignore[attr-defined]
mix_params.cache_clear = _mix_params.cache_clear  # type: ignore[attr-defined]
mix_params.cache_info = _mix_params.cache_info  # type: ignore[attr-defined]

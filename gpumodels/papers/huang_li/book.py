"""Tables and figures of the Huang & Li chapter, built from the package (the notebook
only calls these)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from gpumodels.engines.refsim import dram, kernels, placements
from gpumodels.facts import published as pub
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.validate import as_array, check_choice, check_int, check_real
from gpumodels.papers.huang_li import analysis, events, fig2, model, queueing
from gpumodels.papers.huang_li._checks import (
    check_ints,
    check_kind,
    check_reals,
    check_seed,
)

VECADD_PLACEMENTS = {
    "G": None,
    "T": {"a": "T", "b": "T"},
    "C": {"a": "C", "b": "C"},
    "S": {"a": "S", "b": "S"},
}
"""Fig. 2's four placements of vecAdd (v stays in global memory)."""


def vecadd_walkthrough(
    machine: analysis.Machine | None = None,
    variant: str = "sim2012",
    overlap: model.OverlapModel | None = None,
):
    """Every step of the model for Fig. 2's four vecAdd placements,
    one column per placement, in the model ``variant`` it really runs.

    The profile is vecAdd with a and b in global memory (the sample, counters by the
    model's rules); each column is predicted from it. The default, ``"sim2012"``, is
    Sim et al. 2012's general model (executed instructions, the constant DRAM latency,
    F_overlap), the one variant that needs no fitted Eq. 11. ``"full"`` (or any other
    variant) needs ``overlap``, a fitted Eq. 11 (for instance
    ``evaluation.run().overlap["full"]``, trained on the simulated reference). The
    rows ``variant``, ``#inst per warp the variant uses``, ``DRAM_lat the variant
    uses`` and ``T_overlap`` say which parts ran; the issued count and Kingman's
    DRAM latency are shown in every variant.
    """

    if machine is not None:
        check_kind("machine", machine, analysis.Machine, "a huang_li.analysis.Machine")
    check_choice("variant", variant, tuple(model.VARIANTS))
    if overlap is not None:
        check_kind("overlap", overlap, model.OverlapModel, "a model.OverlapModel")
    spec = model.VARIANTS[variant]
    if spec["overlap"] == "eq11" and overlap is None:
        raise ValueError(
            f"overlap must be a fitted Eq. 11 (model.OverlapModel) for variant "
            f"{variant!r}, got None; only 'sim2012' runs without one"
        )
    m = machine or analysis.k80()
    k = kernels.kernel("vecAdd")
    prof = model.profile(k, machine=m)
    how = "F_overlap" if spec["overlap"] == "f_overlap" else "Eq. 11"
    cols = {}
    for name, moves in VECADD_PLACEMENTS.items():
        p = model.predict(prof, moves, variant=variant, overlap=overlap)
        a = p.analysis
        st = a.bank_stats
        cols[f"a, b in {name}"] = {
            "variant": spec["label"],
            "addressing instructions per warp": a.addressing_per_warp,
            "executed instructions per warp": a.executed_per_warp,
            "replays per warp, causes (1)-(4)": a.replays_per_warp,
            "#inst per warp (issued, Eq. 3)": model.instructions_per_warp(prof, a),
            f"#inst per warp the variant uses ({spec['instructions']})": (
                p.inst_per_warp
            ),
            "memory instructions per warp": a.mem_insts_per_warp,
            "global sectors requested": a.requests["G"],
            "texture lines looked up / missed": f"{a.requests['T']} / {a.misses['T']}",
            "constant lines looked up / missed": f"{a.requests['C']} / {a.misses['C']}",
            "L2 accesses / misses": f"{a.l2_accesses} / {a.misses['L2']}",
            "DRAM requests": a.dram_requests,
            "row hit / miss / conflict": f"{a.row['hit']} / {a.row['miss']} / "
            f"{a.row['conflict']}",
            "banks receiving requests": int(st.bank.size),
            "largest bank utilisation ρ": float(st.rho.max()) if st.bank.size else 0.0,
            "DRAM_lat, Kingman per bank (cycles)": a.dram_lat["mapped"],
            f"DRAM_lat the variant uses ({spec['dram']}, cycles)": p.dram_lat,
            "miss_ratio (Eq. 5)": a.miss_ratio,
            "shmem_ratio (Eq. 5)": a.shmem_ratio,
            "AMAT (cycles, Eq. 5)": p.amat,
            "MWP / CWP": f"{p.mwp:.1f} / {p.cwp:.1f}",
            "T_comp (cycles, Eq. 2)": p.t_comp,
            "T_mem (cycles, Eq. 4)": p.t_mem,
            f"T_overlap (cycles, {how})": p.t_overlap,
            "T_overlap clipped to [0, min(T_comp, T_mem)]": "yes"
            if p.clipped
            else "no",
            "copy into shared memory (cycles)": p.copy_cycles,
            "T (µs)": p.t / (m.clock_ghz * 1e3),
        }
    return pd.DataFrame(cols)


MAX_GRID_N = 10_000_000
"""The most customers :func:`kingman_grid` simulates per cell (memory: a few arrays of
``n`` floats)."""


def kingman_grid(
    c_as=(0.5, 1.0, 1.11, 1.72, 2.22),
    rhos=(0.3, 0.5, 0.7, 0.8, 0.9, 0.95),
    c_s: float = 0.45,
    n: int = 1_000_000,
    seed: int = 2017,
):
    """Simulated G/G/1 mean wait (Lindley) against Kingman (standard and printed) and
    M/M/1, per (c_a, ρ)."""

    c_as = check_reals("c_as", c_as, 0.0, queueing.MAX_CV)
    rhos = check_reals("rhos", rhos, 0.0, 1.0, lo_open=True)
    for i, r in enumerate(rhos):
        if r >= 1.0:
            raise ValueError(f"rhos[{i}] must be in (0, 1) for a steady state, got {r}")
    c_s = check_real("c_s", c_s, 0.0, queueing.MAX_CV)
    n = check_int("n", n, 100, MAX_GRID_N)
    seed = check_seed("seed", seed)
    rows = []
    for ca in c_as:
        for rho in rhos:
            sim = queueing.simulate_gg1(ca, c_s, rho, n=n, seed=seed)
            k = queueing.kingman(ca, c_s, rho, 1.0)
            pr = queueing.kingman_printed(ca, c_s, rho, 1.0 / rho)
            rows.append(
                {
                    "c_a": ca,
                    "rho": rho,
                    "simulated": sim,
                    "Kingman": k,
                    "Eq. 9 as printed": pr,
                    "M/M/1": queueing.mm1(rho, 1.0),
                    "Kingman error": k / sim - 1,
                    "printed error": pr / sim - 1,
                }
            )
    return pd.DataFrame(rows)


def max_service_cv(lat=None, steps: int = 101) -> float:
    """The largest c_s any mix of the three row-buffer latencies can have
    (grid over the mixes; default: the K80's hit, miss and conflict latencies)."""
    v = as_array("lat", _k80_latencies() if lat is None else lat, 0.0, lo_open=True)
    if v.shape != (3,):
        raise ValueError(
            f"lat must be (hit, miss, conflict), three numbers, got shape {v.shape}"
        )
    steps = check_int("steps", steps, 2, 2001)  # steps² mixes are tried
    best = 0.0
    for p0 in np.linspace(0, 1, steps):
        for p1 in np.linspace(0, 1 - p0, steps):
            p = np.array([p0, p1, 1 - p0 - p1])
            mean = p @ v
            best = max(best, float(np.sqrt(p @ (v - mean) ** 2) / mean))
    return best


def _k80_latencies() -> tuple[float, float, float]:
    """The K80's hit, miss and conflict latencies (ns) the book takes in
    (``data/huang_li/k80_parameters.csv``, measured by the paper with Algorithm 1)."""
    m = analysis.k80()
    return (m.lat_hit, m.lat_miss, m.lat_conflict)


def algorithm1(
    preset: str = "k80_printed_col_low",
    bits=range(3, 40),
    noise: float = 0.0,
    seed: int = 0,
    *,
    mapping: dram.AddressMap | None = None,
    latencies: tuple[float, float, float] | None = None,
):
    """Algorithm 1 on a simulated DRAM: ``(per-bit table, DetectedMapping, true map)``.

    The DRAM has the address map ``mapping`` (default: the ``preset`` of
    ``data/huang_li/address_maps.csv``) and the hit, miss and conflict ``latencies``
    (default: the K80's, taken in from ``data/huang_li/k80_parameters.csv``).
    Algorithm 1 sees it only through the latency of a second access, so on the K80
    preset it finds what the DRAM was given; :func:`algorithm1_check` runs it on a
    memory unlike the paper's.
    """

    if mapping is None:
        if not isinstance(preset, str):
            raise InputTypeError(
                f"preset must be the name of an address map, got {preset!r:.60}"
            )
        amap = dram.address_map(preset)
    else:
        amap = check_kind(
            "mapping", mapping, dram.AddressMap, "a refsim.dram.AddressMap"
        )
    if latencies is None:
        lat = _k80_latencies()
    else:
        try:
            lat = tuple(latencies)
        except TypeError:
            raise InputTypeError(
                "latencies must be (hit, miss, conflict), three numbers, got "
                f"{latencies!r:.60}"
            ) from None
    bits = check_ints("bits", bits, 0, 62)
    noise = check_real("noise", noise, 0.0, 1e6)
    seed = check_seed("seed", seed)
    if len(lat) != 3:
        raise ValueError(
            "latencies must be (hit, miss, conflict), three numbers, got "
            f"{len(lat)}: {lat!r}"
        )
    hit, miss, conflict = (
        check_real(f"latencies[{k}] ({name})", x, 0.0, lo_open=True)
        for k, (name, x) in enumerate(zip(("hit", "miss", "conflict"), lat))
    )
    oracle = dram.SimulatedDRAM(
        amap,
        lat_hit=hit,
        lat_miss=miss,
        lat_conflict=conflict,
        noise=noise,
        seed=seed,
    )
    found = dram.detect_mapping(oracle.second_access_latency, bits)
    group = {
        **{b: "column" for b in found.column_bits},
        **{b: "row" for b in found.row_bits},
        **{b: "other (bank)" for b in found.other_bits},
    }
    table = pd.DataFrame(
        {
            "bit": list(found.per_bit),
            "second access (ns)": list(found.per_bit.values()),
            "group": [group[b] for b in found.per_bit],
        }
    )
    return table, found, amap


OTHER_MEMORY = dram.AddressMap(
    "book_other_memory",
    column_bits=tuple(range(3, 10)),
    row_bits=tuple(range(15, 27)),
    bank_bits=(*range(10, 15), *range(27, 36)),
    byte_bits=(0, 1, 2),
)
"""A memory unlike the paper's K80, made up to check Algorithm 1 (not a real GPU):
column bits 3–9, bank bits 10–14 and 27–35, row bits 15–26."""

OTHER_LATENCIES = (111.0, 222.0, 333.0)
"""Hit, miss and conflict latencies (ns) of :data:`OTHER_MEMORY`, made up as well."""


def algorithm1_check(
    mapping: dram.AddressMap = OTHER_MEMORY,
    latencies: tuple[float, float, float] = OTHER_LATENCIES,
    bits=range(3, 36),
    noise: float = 0.0,
    seed: int = 0,
):
    """Algorithm 1 on a simulated DRAM configured unlike the paper: what the memory
    was given beside what Algorithm 1 found, one row per bit group and latency.

    ``recovered`` says whether each group is found exactly and each latency within
    three ``noise`` standard deviations (exactly without noise). The bank group is
    compared over the probed bits only.
    """

    check_kind("mapping", mapping, dram.AddressMap, "a refsim.dram.AddressMap")
    if latencies is None:
        raise InputTypeError(
            "latencies must be (hit, miss, conflict), three numbers, got None"
        )
    _, found, amap = algorithm1(
        bits=bits, noise=noise, seed=seed, mapping=mapping, latencies=latencies
    )
    latencies = tuple(latencies)  # checked by algorithm1: three positive numbers
    probed = set(found.per_bit)
    bank = tuple(sorted(probed & set(amap.bank_bits + amap.channel_bits)))
    rows = [
        ("column bits", amap.column_bits, found.column_bits),
        ("row bits", amap.row_bits, found.row_bits),
        ("bank bits (probed)", bank, found.other_bits),
    ]
    out = [
        {
            "quantity": name,
            "configured": ", ".join(map(str, want)),
            "detected": ", ".join(map(str, got)),
            "recovered": tuple(want) == tuple(got),
        }
        for name, want, got in rows
    ]
    for name, want, key in zip(
        ("hit latency (ns)", "miss latency (ns)", "conflict latency (ns)"),
        latencies,
        ("column", "other", "row"),
    ):
        got = found.latencies.get(key)  # absent: no bit fell in the group
        out.append(
            {
                "quantity": name,
                "configured": f"{want:g}",
                "detected": "none" if got is None else f"{got:.1f}",
                "recovered": got is not None and bool(abs(got - want) <= 3.0 * noise),
            }
        )
    return pd.DataFrame(out).set_index("quantity")


def c2050_banks() -> int:
    """DRAM banks of GPGPU-Sim's Tesla C2050 configuration, the one §III-C3 ran:
    memory partitions × banks per partition (``data/huang_li/gpgpusim_c2050.csv``)."""
    r = {x["parameter"]: x for x in read_rows("huang_li/gpgpusim_c2050.csv")}
    return int(float(r["n_mem"]["value"])) * int(float(r["nbk"]["value"]))


def table_iv_listed() -> dict[str, int]:
    """Placement tests per benchmark as Table IV prints them: every listed test plus
    the sample, before the book's readings [A7], [A9], [A10] drop any.

    Counts the rows of ``data/huang_li/placements.csv`` (training and evaluation,
    ``counted`` or not); the printed counts (``count_printed``) are not read.
    """

    out: dict[str, int] = {}
    for set_ in ("eval", "train"):
        for r in placements.tests(set_, counted_only=False):
            out[r["benchmark"]] = out.get(r["benchmark"], 0) + 1
    return out


TABLE_IV_KEY = "hl17.t4.count."
"""Key prefix of Table IV's per-benchmark counts in ``data/published/huang_li.csv``."""


def fidelity() -> dict[str, float]:
    """The printed numbers the book re-derives, keyed as in
    the tables of ``data/published/``.

    Inputs (measured or specified: the K80 latencies, M, the address bits) are taken
    in, not produced; arithmetic reads them, and other printed numbers, through
    :func:`gpumodels.facts.published.value`, never the row it produces.
    """
    v = pub.value
    train = placements.counts("train")
    fig2_counts = fig2.addressing_counts()
    hit, miss = v("hl17.s3c2.lat_hit.K80"), v("hl17.s3c2.lat_miss.K80")
    return {
        "hl17.s3c.lat_var.K80": 100 * (miss - hit) / hit,
        "hl17.s3c3.banks.C2050": c2050_banks(),
        # G and C counted from Fig. 2's SASS; T and S are inputs (no listing survives)
        **{f"hl17.s3b.addr_insts.{s}": fig2_counts[s] for s in "GC"},
        "hl17.s3b.nvprof_compared": v("hl17.s3b.nvprof_placements")
        - v("hl17.s3b.nvprof_defaults"),
        "hl17.s3c3.ca_exponential": queueing.exponential_cv(),
        "hl17.s2b.placements": sum(
            train[b]
            for b in (
                "convolutionSeparable",
                "matrixMul",
                "md",
                "spmv",
                "transpose",
                "cfd",
            )
        ),
        "hl17.s5.train_placements": sum(train.values()),
        "hl17.s2b.min_events": min(events.table_1_selection().values()),
        **{TABLE_IV_KEY + b: n for b, n in table_iv_listed().items()},
        # §V-B's gains read as additive percentage points [A16]: Fig. 8's path gives
        # 39.1 = 31 + 8.1, and Fig. 9's path then 25.3 = 39.1 - 13.8
        "hl17.s5b.both": v("hl17.s5b.queue_even") + v("hl17.s5b.addr_map"),
        "hl17.s5b.others_on_queue": v("hl17.s5b.both") - v("hl17.s5b.queue_alone"),
        "hl17.s5b.synergy": v("hl17.s5b.both")
        - (v("hl17.s5b.instr") + v("hl17.s5b.queue_alone")),
        # "the baseline model performs even worse than [7]": the implied errors
        # (9.9 + 39.1) - (9.9 + 17.6), in points [A16]
        "hl17.s5b.baseline_worse_than_sim": v("hl17.s5b.both")
        - v("hl17.s5a.vs_sim2012"),
    }


def implied_errors():
    """Mean absolute error of each variant implied by the printed gains, read as
    percentage points [A16] (derived)."""

    v = pub.value
    full = v("hl17.s5a.mean_error")
    base = full + v("hl17.s5b.both")
    rows = [
        ("Our model (full)", full, "printed (§V-A)"),
        ("Sim et al. 2012", full + v("hl17.s5a.vs_sim2012"), "9.9 + 17.6"),
        ("Baseline", base, "9.9 + 39.1"),
        ("Baseline + instr.", base - v("hl17.s5b.instr"), "49.0 − 17"),
        (
            "Baseline + instr. + queuing (even)",
            base - v("hl17.s5b.queue_even"),
            "49.0 − 31",
        ),
        (
            "Baseline + queuing (mapping)",
            base - v("hl17.s5b.queue_alone"),
            "49.0 − 13.8",
        ),
    ]
    return pd.DataFrame(
        rows, columns=["variant", "implied mean |error| (%)", "derivation"]
    )

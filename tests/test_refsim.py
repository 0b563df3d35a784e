"""The Huang & Li simulated reference (refsim): closed forms, queues, Little, seeds, caches, and the evaluation."""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels.ground.data import read_rows
from gpumodels.engines.refsim import dram, kernels, placements, simulator as refsim
from gpumodels.papers.huang_li import evaluation
from gpumodels.papers.huang_li.model import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
RM = refsim.machine()
GHZ = RM.clock_ghz
FEW = settings(max_examples=12, deadline=None)
AMAP = dram.address_map(refsim.MAPPING)


def _addr(bank_field: int = 0, channel: int = 0, row: int = 0, column: int = 0) -> int:
    """A byte address of the simulator's map with the given fields (column counts 32-B bursts)."""
    def put(value, bits):
        out = 0
        for i, b in enumerate(bits):
            out |= ((value >> i) & 1) << b
        return out
    return (put(column, AMAP.column_bits) | put(row, AMAP.row_bits) | put(bank_field, AMAP.bank_bits)
            | put(channel, AMAP.channel_bits))


PLAIN = RM.with_(address_hash="none")
"""The reference without its channel/bank hash: requests stay in the bank their
address bits name (the reference's own hash is tested in test_refsim_frfcfs.py)."""


def _one_sm(**kw):
    return PLAIN.with_(sm_count=1, launch_jitter=0, **kw)


# ---------------------------------------------------------------------------------------------
# closed forms in limit cases


def test_isolated_accesses_take_the_printed_latencies_exactly():
    a = _addr(row=3)
    lat = lambda x, y: refsim.second_access_latency(x, y, PLAIN)
    assert lat(_addr(bank_field=1), a) == pytest.approx(742.0, abs=1e-9)   # other bank: miss
    assert lat(_addr(row=3, column=5), a) == pytest.approx(352.0, abs=1e-9)  # same row: hit
    assert lat(_addr(row=4), a) == pytest.approx(1008.0, abs=1e-9)          # other row: conflict
    # with the reference's hash, another row of the same bank field is another bank
    # (row 4 ^ row 3 flips the three low row bits, which hash the channel); the channel
    # field that undoes the hash brings the conflict back
    assert refsim.second_access_latency(_addr(row=4), a) == pytest.approx(742.0, abs=1e-9)
    same_bank = _addr(row=4, bank_field=((4 ^ 3) >> 3) & 15, channel=(4 ^ 3) & 7)
    assert refsim.second_access_latency(same_bank, a) == pytest.approx(1008.0, abs=1e-9)


def test_one_warp_takes_the_sum_of_its_latencies_to_the_cycle():
    recs = [(refsim.ALU, 1, True, 1.0, []), (refsim.LDU, 1, True, 1.0, [_addr(row=1)]),
            (refsim.ALU, 1, True, 1.0, []), (refsim.LDU, 1, True, 1.0, [_addr(row=1, column=2)]),
            (refsim.LDU, 1, True, 1.0, [_addr(row=2)]), (refsim.LDS, 1, True, 1.0, []),
            (refsim.ALU, 1, True, 1.0, [])]
    lat = [RM.alu_lat, 742 * GHZ, RM.alu_lat, 352 * GHZ, 1008 * GHZ, RM.shmem_lat, RM.alu_lat]
    t = 0.0
    for x in lat[:-1]:                        # every instruction depends on the previous one: issue at the next cycle
        t = math.ceil(t + x)
    res = refsim.run_streams(refsim.streams_from_records([recs]), _one_sm())
    assert res.cycles == pytest.approx(t + lat[-1], abs=1e-9)


def test_compute_only_runs_at_the_issue_rate():
    per_warp, warps = 250, 32
    st_ = refsim.streams_from_records([[(refsim.ALU, per_warp, False, 1.0, [])]] * warps, warps_per_block=warps)
    res = refsim.run_streams(st_, _one_sm())
    rate = min(RM.schedulers * RM.issue_per_scheduler, RM.alu_thru)
    assert res.counters["inst_executed"] == per_warp * warps
    assert res.cycles == pytest.approx(per_warp * warps / rate - 1 + RM.alu_lat)     # last issue + its latency


def test_streaming_inside_one_row_hits_all_but_the_first_sector():
    per_row = 1 << len(AMAP.column_bits)                 # 32-B bursts in one row of one bank
    recs = [(refsim.LDG, 1, False, 1.0, [_addr(row=7, column=c) for c in range(k, k + 8)]) for k in range(0, per_row, 8)]
    res = refsim.run_streams(refsim.streams_from_records([recs]), _one_sm())
    c = res.counters
    assert c["dram_reads"] == per_row
    assert c["row_hits"] / c["dram_reads"] == pytest.approx(1 - 1 / per_row)


def _random_traffic(seed: int, warps: int = 64, loads: int = 40, closed: bool = False):
    """Every warp loads ``loads`` random sectors; ``closed``: each load waits for the previous one."""
    rng = np.random.default_rng(seed)
    addr = rng.integers(0, 1 << 31, (warps * RM.sm_count, loads)) // 32 * 32
    recs = [[(refsim.LDG, 1, closed, 1.0, [int(a)]) for a in row] for row in addr]
    return refsim.streams_from_records(recs, warps_per_block=warps)


def test_uniform_random_traffic_reaches_the_bank_occupancy_bound():
    res = refsim.run_streams(_random_traffic(1), RM.with_(launch_jitter=0))
    log = res.dram_log
    occ = dict(zip(("hit", "miss", "conflict"), RM.occupancy_ns))
    busy = log["outcome"].map(occ).groupby(log["bank"]).sum()
    span = (log["arrival_ns"] + log["wait_ns"] + log["service_ns"]).max() - log["arrival_ns"].min()
    bound = busy.max()                                   # the busiest bank cannot finish sooner
    assert bound <= span <= 1.05 * bound


@given(st.integers(0, 2 ** 31), st.sampled_from([1, 8, 32]))
@FEW
def test_never_above_pin_bandwidth(seed, stride):
    rng = np.random.default_rng(seed)
    base = int(rng.integers(0, 1 << 24)) * 32
    n = 13 * 16
    recs = [[(refsim.LDG, 1, False, 1.0, [base + 32 * stride * (w * 24 + k)]) for k in range(24)] for w in range(n)]
    res = refsim.run_streams(refsim.streams_from_records(recs, warps_per_block=16), RM.with_(launch_jitter=0))
    log = res.dram_log
    span = (log["arrival_ns"] + log["wait_ns"] + log["service_ns"]).max() - log["arrival_ns"].min()
    assert len(log) * 32 / span <= RM.pin_bandwidth_gbs * (1 + 1e-9)
    assert np.isfinite(res.time_ns) and res.time_ns > 0


def test_bank_waits_are_a_lindley_recursion_on_the_log():
    # FCFS only: first-ready FCFS serves a bank's requests out of arrival order
    for test in ("transpose_1", "spmv_1", "SCAN_2"):
        log = refsim.simulate(_bench(test), test, dram_policy="fcfs").dram_log
        assert len(log) > 1000
        assert np.abs(refsim.lindley_waits(log) - log["wait_ns"].to_numpy()).max() < 1e-6
        assert (log["wait_ns"] >= 0).all() and (log["service_ns"] > 0).all()


def _bench(test: str) -> str:
    return next(r["benchmark"] for r in placements.tests(None, counted_only=False) if r["test"] == test)


def test_littles_law_inside_the_simulator():
    log = refsim.run_streams(_random_traffic(2, warps=32, loads=60, closed=True), RM).dram_log
    end = (log["arrival_ns"] + log["wait_ns"] + log["service_ns"]).max()
    L, lw = refsim.littles_law(log, 0.25 * end, 0.75 * end)
    assert L == pytest.approx(lw, rel=0.01)
    with pytest.raises(ValueError, match="stop_ns"):
        refsim.littles_law(log, 10.0, 5.0)


def test_bit_identical_for_a_seed_and_the_seed_matters():
    a = refsim.simulate("spmv", "spmv_3", seed=4)
    b = refsim.simulate("spmv", "spmv_3", seed=4)
    c = refsim.simulate("spmv", "spmv_3", seed=5)
    assert a.time_ns == b.time_ns and a.counters == b.counters
    pd.testing.assert_frame_equal(a.dram_log, b.dram_log)
    assert c.time_ns != a.time_ns


def test_no_jit_gives_identical_results():
    code = ("from gpumodels.engines.refsim import simulator as refsim; r = refsim.simulate('vecAdd', 'vecAdd_T', seed=3); "
            "print(repr(r.time_ns), sorted(r.counters.items()), r.dram_log['wait_ns'].sum().hex())")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    slow = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    r = refsim.simulate("vecAdd", "vecAdd_T", seed=3)
    assert slow.strip() == f"{r.time_ns!r} {sorted(r.counters.items())} {r.dram_log['wait_ns'].sum().hex()}"


def test_public_api():
    names = refsim.kernels()
    assert "vecAdd" in names and "kernelFeedForward1" in names and len(names) == len(kernels.GENERATORS)
    # a small kernel (transpose: 0.7 s; neuralnet's kernelFeedForward1 takes 8 s a run)
    r = refsim.simulate("transposeNaive", {"idata": "T"}, dram_policy="fcfs")
    assert isinstance(r.time_ns, float) and r.time_ns > 0
    assert all(isinstance(k, str) and isinstance(v, (int, float)) for k, v in r.counters.items())
    assert list(r.dram_log.columns[:4]) == ["bank", "arrival_ns", "service_ns", "wait_ns"]
    # service order per bank, and an FCFS bank serves in arrival order
    for _, g in r.dram_log.groupby("bank"):
        assert g["arrival_ns"].is_monotonic_increasing
    assert refsim.simulate("transpose", "transpose_4", dram_policy="fcfs").time_ns == r.time_ns
    # under the default FR-FCFS a row hit may overtake an older request of its bank
    fr = refsim.simulate("transposeNaive", {"idata": "T"})
    assert not all(g["arrival_ns"].is_monotonic_increasing for _, g in fr.dram_log.groupby("bank"))


@pytest.mark.parametrize("kernel, placement, match", [
    ("vecAdd", {"v": "C"}, "must not be C"),
    ("triad", {"C": "T"}, "must not be T"),
    ("scan", {"g_blockSums": "2T"}, "must not be 2T"),
    ("triad", {"A": "C", "B": "C"}, "constant data of triad must be at most 65536 bytes, got 98304"),
    ("S3D", {"gpu_y": "S"}, "shared memory of gr_base must be at most 49152 bytes"),
    ("vecAdd", {"a": "2T"}, "no 2D extents"),
    ("vecAdd", "NN_T", "not of vecAdd"),
    ("vecAdd", "no_such_test", "placement must be a test name"),
    ("nosuch", None, "kernel must be one of"),
])
def test_invalid_placements_are_rejected(kernel, placement, match):
    with pytest.raises(ValueError, match=match):
        refsim.simulate(kernel, placement)


def test_blocks_beyond_an_sm_are_rejected():
    # the builder now refuses a block larger than cc 3.7 allows (issue 38) ...
    with pytest.raises(ValueError, match=r"^tpb .*MAX_THREADS_PER_BLOCK"):
        kernels.vecadd(n=4096, tpb=2048)
    # ... and a hand-made kernel with such a block still fails in kernel_streams
    k = kernels.vecadd(n=4096, tpb=1024)
    big = kernels.Kernel(k.name, 2, 2048, k.arrays, k.ops)
    with pytest.raises(ValueError, match="threads_per_block"):
        refsim.kernel_streams(big.trace())
    with pytest.raises(ValueError, match="placement must be a test name or a mapping"):
        refsim.simulate("triad", 3)


def test_algorithm1_against_the_simulator_recovers_the_preset():
    plain = dram.detect_mapping(
        lambda a, b: refsim.second_access_latency(a, b, PLAIN), refsim.ALGORITHM1_BITS, base_address=1 << 32
    )
    assert plain.row_bits == AMAP.row_bits
    assert set(plain.other_bits) == set(AMAP.bank_bits) | set(AMAP.channel_bits)
    unmapped = {b for b in refsim.ALGORITHM1_BITS if b > max(AMAP.row_bits)}
    assert set(plain.column_bits) == set(AMAP.column_bits) | {3, 4} | unmapped   # same burst or above the map: a hit
    assert plain.latencies == {"column": 352.0, "other": 742.0, "row": 1008.0}
    # the reference hashes channel and bank with the row's low 7 bits: flipping one of
    # them moves the request to another bank, so Algorithm 1 reads them as bank bits
    found = dram.detect_mapping(refsim.second_access_latency, refsim.ALGORITHM1_BITS, base_address=1 << 32)
    hashed = AMAP.row_bits[: len(AMAP.bank_bits) + len(AMAP.channel_bits)]
    assert found.row_bits == AMAP.row_bits[len(hashed):]
    assert set(found.other_bits) == set(plain.other_bits) | set(hashed)
    assert found.column_bits == plain.column_bits and found.latencies == plain.latencies
    assert evaluation.detected_mapping() == found                                # the cached probe latencies


def test_volkov_cross_check_within_two_percent():
    rows = read_rows(refsim.VOLKOV_CACHE)
    assert len(rows) == 35
    err = [abs(float(r["ipc_refsim"]) / float(r["ipc_sim"]) - 1) for r in rows]
    assert max(err) <= 0.02
    for n, a in ((8, 4), (64, 16)):
        row = next(r for r in rows if int(r["n"]) == n and int(r["alpha"]) == a)
        assert repr(refsim.alpha_ipc(n, a)) == row["ipc_refsim"]


def test_cached_reference_resimulates_identically():
    rows = {r["test"]: r for r in read_rows(refsim.CACHE)}
    for test in ("triad_1", "md5hash_2"):
        new = refsim.reference_row(next(t for t in placements.tests(None, counted_only=False) if t["test"] == test))
        assert {k: str(v) for k, v in new.items()} == rows[test]


def test_cached_reference_covers_the_60_placements_with_finite_positive_times():
    df = evaluation.reference()
    counted = {t["test"] for t in placements.tests()}
    assert counted <= set(df["test"])
    assert len(counted) == 60
    assert (df["time_ns"] > 0).all() and np.isfinite(df["time_ns"]).all()
    assert df["source"].str.contains("simulated").all()


def test_the_model_never_imports_the_simulator():
    pkg = ROOT / "gpumodels"
    offenders = []
    for path in pkg.rglob("*.py"):
        if path.name == "simulator.py" and path.parent.name == "refsim":
            continue  # the simulator itself; the rest of refsim (traces, DRAM maps) too
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            if any("refsim.simulator" in n or n == "simulator" for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
    # In a subprocess with the disk cache off: every module of the paper imported, and spmv's
    # placements computed end to end (sample profile from the reference's counters, traffic,
    # analysis, prediction, latency-only score, reference time). The evaluation runs this
    # same path for each of its 60 placements, so one benchmark shows what it imports
    # without the 25 s of all of them.
    code = textwrap.dedent("""
        import importlib, pkgutil, sys
        import gpumodels.papers.huang_li as hl
        for m in pkgutil.walk_packages(hl.__path__, hl.__name__ + "."):
            importlib.import_module(m.name)
        from gpumodels.papers.huang_li import evaluation as e, model
        s = e.sample_profile("spmv")  # texture, constant and shared placements
        assert model.predict(s, {"rowDelimiters": "C"}, variant="sim2012").t > 0
        moves = "val:G->T;cols:G->T;rowDelimiters:G->C;d_vec:T->G"
        assert e.latency_only_score({"benchmark": "spmv", "moves": moves}) > 0
        assert e.reference_time_ns("spmv_10") > 0
        print("gpumodels.engines.refsim.simulator" in sys.modules)
    """)
    env = {**os.environ, "GPUMODELS_CACHE": "off"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


# ---------------------------------------------------------------------------------------------
# the evaluation (model side)


def test_overlap_is_trained_on_the_training_placements_only():
    ev = evaluation.run()
    train = {t["test"] for t in placements.tests("train")}
    assert len(train) == 38
    for v, fit in ev.overlap.items():
        assert VARIANTS[v]["overlap"] == "eq11"
        assert fit.n == 38
    assert set(ev.overlap) == {v for v in VARIANTS if v != "sim2012"}
    t = ev.table
    assert len(t) == len(VARIANTS) * 60
    assert np.isfinite(t["predicted_ns"]).all() and (t["predicted_ns"] > 0).all()


def test_evaluation_predictions_use_the_simulators_counters_not_times():
    s = evaluation.sample_profile("neuralnet")
    row = evaluation.reference().set_index("test").loc["NN_G"]
    assert s.counters["inst_issued"] == pytest.approx(row["inst_issued"] / row["n_warps"])
    assert s.source == "measured"
    assert s.options["mapping"].name == "algorithm1_on_refsim"


def test_bootstrap_interval_contains_the_mean_and_rejects_bad_input():
    x = np.array([0.1, 0.5, 0.2, 0.9, 0.3])
    lo, hi = evaluation.bootstrap_ci(x)
    assert lo <= x.mean() <= hi
    assert evaluation.bootstrap_ci(x) == (lo, hi)
    with pytest.raises(ValueError, match="at least 2 finite"):
        evaluation.bootstrap_ci([1.0])


def test_ranking_and_event_selection_tables():
    df, taus = evaluation.ranking("neuralnet")
    assert sorted(df["rank reference"]) == [1, 2, 3, 4, 5]
    assert set(taus) == {"full_ns", "sim2012_ns", "latency_only"} and all(-1 <= v <= 1 for v in taus.values())
    es = evaluation.event_selection()
    assert set(es["benchmark"]) >= {"neuralnet", "spmv", "matrixMul"}
    assert ((es["cosine"] > 0) & (es["cosine"] <= 1 + 1e-12)).all()
    with pytest.raises(ValueError, match="at least two counted placements"):
        evaluation.ranking("vecAdd")


def test_evaluation_widget_html_and_errors():
    from gpumodels.papers.huang_li import explorer as huang_li_explorer

    html = huang_li_explorer.evaluation_html("full", "neuralnet")
    assert html.count("<tr>") == 6 and "NN_2T" in html
    with pytest.raises(ValueError, match="variant must be one of"):
        huang_li_explorer.evaluation_html("nope", "neuralnet")
    with pytest.raises(ValueError, match="benchmark must be one of"):
        huang_li_explorer.evaluation_html("full", "nope")
    assert huang_li_explorer.evaluation_explorer() is not None


def test_an_l2_hit_takes_the_crossbar_both_ways():
    a = _addr(row=9, column=3)
    recs = [(refsim.LDG, 1, False, 1.0, [a]), (refsim.LDG, 1, True, 1.0, [a])]
    res = refsim.run_streams(refsim.streams_from_records([recs]), _one_sm())
    assert res.counters["l2_read_hits"] == 1 and res.counters["dram_reads"] == 1
    assert res.record_done[1] - res.record_issue[1] == pytest.approx(RM.l2_front + RM.l2_back)
    assert res.record_done[0] - res.record_issue[0] == pytest.approx(742 * GHZ)


def test_block_linear_layout_of_2d_textures():
    k = kernels.kernel("neuralnet")
    tr = k.trace({"weights": "2T"})
    lin = k.trace({"weights": "T"})
    bl = refsim.block_linear(tr, RM)
    rows = tr.space == kernels.SPACES.index("2T")
    eb, width = 4, k.arrays["weights"].dims[0]
    idx = (tr.addr[rows] - tr.bases["weights"]) // eb
    x, y = idx % width, idx // width
    tiles_x = width * eb // RM.tex_tile_bytes
    want = tr.bases["weights"] + ((y // 8) * tiles_x + x * eb // 64) * 512 + (y % 8) * 64 + x * eb % 64
    assert np.array_equal(bl[rows], np.where(tr.addr[rows] >= 0, want, -1))
    assert np.array_equal(bl[~rows], tr.addr[~rows]) and np.array_equal(lin.addr, refsim.block_linear(lin, RM))
    # a warp reads one column of 32 rows: 32 lines linear; block-linear, 4 tiles of 8 rows of 64 B = 16 lines
    r0 = np.nonzero(rows)[0][1]
    assert len(set(tr.addr[r0] // 128)) == 32 and len(set(bl[r0] // 128)) == 16 and len(set(bl[r0] // 512)) == 4

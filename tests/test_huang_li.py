"""Huang & Li (2017): equations by hand, rules against brute force, queues against simulation."""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels.ground.errors import OutsideDomainError
from gpumodels.papers.huang_li import analysis, cache, events, model, queueing
from gpumodels.engines.refsim import dram, kernels, placements, trace

FAST = settings(max_examples=60, deadline=None)

# ---------------------------------------------------------------------------------------------
# queueing (Eqs. 6-10)


def test_kingman_by_hand_and_closed_forms():
    assert queueing.kingman(1.0, 1.0, 0.5, 2.0) == pytest.approx(2.0)                # M/M/1
    assert queueing.kingman(1.0, 0.0, 0.5, 2.0) == pytest.approx(queueing.md1(0.5, 2.0))
    assert queueing.kingman(2.22, 0.45, 0.8, 742.0) == pytest.approx(0.5 * (2.22 ** 2 + 0.45 ** 2) * 4 * 742)
    assert queueing.kingman_printed(1.0, 1.0, 0.5, 4.0) == pytest.approx(0.5 * 2 * 1.0 * 4.0)
    assert queueing.mm1(0.75, 1.0) == pytest.approx(3.0)


@given(st.floats(0.0, 3.0), st.floats(0.0, 0.999), st.floats(0.01, 1e4))
@FAST
def test_kingman_equals_pollaczek_khinchine_at_poisson_arrivals(c_s, rho, tau_s):
    assert queueing.kingman(1.0, c_s, rho, tau_s) == pytest.approx(queueing.pollaczek_khinchine(rho, tau_s, c_s), rel=1e-12)


@given(st.floats(0.0, 3.0), st.floats(0.0, 3.0), st.floats(0.0, 0.999), st.floats(0.0, 1e4))
@FAST
def test_kingman_finite_non_negative_below_saturation(c_a, c_s, rho, tau_s):
    w = queueing.kingman(c_a, c_s, rho, tau_s)
    assert math.isfinite(w) and w >= 0.0


@given(st.floats(0.0, 3.0), st.floats(0.0, 3.0), st.floats(0.0, 0.99), st.floats(0.001, 1.0))
@FAST
def test_kingman_monotone_in_rho_ca_cs(c_a, c_s, rho, d):
    base = queueing.kingman(c_a, c_s, rho, 1.0)
    assert queueing.kingman(c_a + d, c_s, rho, 1.0) >= base
    assert queueing.kingman(c_a, c_s + d, rho, 1.0) >= base
    assert queueing.kingman(c_a, c_s, min(rho + d / 100, 0.999), 1.0) >= base


def test_saturation_is_refused_and_flagged_never_nan_negative_or_inf():
    assert math.isfinite(queueing.kingman(1.0, 0.5, 0.5, 1.0))
    for rho in (1.0, 3.0, [0.5, 1.0]):
        for f, args in [(queueing.kingman, (1.0, 0.5, rho, 1.0)),
                        (queueing.kingman_printed, (1.0, 1.0, rho, 1.0)),
                        (queueing.mm1, (rho, 1.0)), (queueing.md1, (rho, 1.0)),
                        (queueing.pollaczek_khinchine, (rho, 1.0, 0.5))]:
            with pytest.raises(OutsideDomainError, match="rho must be below 1"):
                f(*args)
    assert queueing.saturated([0.5, 1.0, 3.0]).tolist() == [False, True, True]


@pytest.mark.parametrize("kw,name", [(dict(c_a=-1), "c_a"), (dict(c_s=float("nan")), "c_s"), (dict(rho=-0.1), "rho"),
                                     (dict(tau_s="x"), "tau_s")])
def test_kingman_bad_input_names_the_parameter(kw, name):
    args = dict(c_a=1.0, c_s=1.0, rho=0.5, tau_s=1.0) | kw
    with pytest.raises(ValueError, match=name):
        queueing.kingman(**args)


def test_printed_form_waits_at_zero_load():
    # ρ -> 0 with τ_s fixed: the printed form tends to (c_a + c_s)/2 · τ_s, the standard one to 0
    rho = 1e-6
    assert queueing.kingman(1.0, 1.0, rho, 1.0) < 1e-5
    assert queueing.kingman_printed(1.0, 1.0, rho, 1.0 / rho) == pytest.approx(1.0, rel=1e-5)


@given(st.lists(st.tuples(st.floats(0, 10), st.floats(0, 10)), min_size=1, max_size=60))
@FAST
def test_lindley_equals_the_recursion(pairs):
    a = np.array([p[0] for p in pairs])
    s = np.array([p[1] for p in pairs])
    w = [0.0]
    for i in range(1, len(pairs)):
        w.append(max(0.0, w[-1] + s[i - 1] - a[i]))
    assert np.allclose(queueing.lindley(a, s), w, atol=1e-9)


@pytest.mark.parametrize("c_s", [0.0, 0.45, 1.0])
@pytest.mark.parametrize("rho", [0.3, 0.6, 0.8, 0.9])
def test_kingman_within_2_percent_of_simulation_at_poisson_arrivals(c_s, rho):
    sim = queueing.simulate_gg1(1.0, c_s, rho, n=2_000_000, seed=7)
    assert queueing.kingman(1.0, c_s, rho, 1.0) == pytest.approx(sim, rel=0.02)


HEAVY = [(ca, rho) for ca in (0.5, 0.75, 1.0, 1.11, 1.72, 2.22) for rho in (0.8, 0.9, 0.95)]
# Kingman overestimates smooth arrivals at moderate load (a known property of the two-moment form; the
# Kraemer-Langenbach-Belz factor corrects it): with c_s = 0.45 it is about 21 % too high at c_a = 0.5 with
# rho = 0.8. The book shows it; the test asserts both the 10 % band and the one exception.
KINGMAN_OUTSIDE_10 = {(0.5, 0.8)}


@pytest.mark.parametrize("c_a,rho", HEAVY)
def test_kingman_heavy_traffic_band(c_a, rho):
    sim = queueing.simulate_gg1(c_a, 0.45, rho, n=3_000_000, seed=11)
    err = queueing.kingman(c_a, 0.45, rho, 1.0) / sim - 1
    if (c_a, rho) in KINGMAN_OUTSIDE_10:
        assert 0.10 < err < 0.30
    else:
        assert abs(err) <= 0.10


def test_printed_eq9_visibly_fails_the_same_check():
    errs = [queueing.kingman_printed(c_a, 0.45, rho, 1.0 / rho) / queueing.simulate_gg1(c_a, 0.45, rho, n=1_000_000,
                                                                                          seed=11) - 1
            for c_a, rho in HEAVY]
    assert sum(abs(e) > 0.10 for e in errs) >= 16 and max(abs(e) for e in errs) > 1.0
    low = queueing.simulate_gg1(1.0, 0.45, 0.3, n=1_000_000, seed=7)
    assert queueing.kingman_printed(1.0, 0.45, 0.3, 1 / 0.3) > 3 * low          # a wait at light load


def test_bank_stats_against_brute_force():
    rng = np.random.default_rng(0)
    bank = rng.integers(0, 5, 400)
    t = np.sort(rng.random(400) * 100)
    s = rng.choice([352.0, 742.0, 1008.0], 400)
    lat = s + 100.0
    st_ = queueing.bank_stats(bank, t, s, lat)
    for i, b in enumerate(st_.bank):
        gaps = np.diff(t[bank == b])
        assert st_.tau_a[i] == pytest.approx(gaps.mean())
        assert st_.sigma_a[i] == pytest.approx(gaps.std(), abs=1e-9)
        assert st_.tau_s[i] == pytest.approx(s[bank == b].mean())
        assert st_.rho[i] == pytest.approx(s[bank == b].mean() / gaps.mean())
        assert st_.latency[i] == pytest.approx(lat[bank == b].mean())


def test_dram_latency_is_lambda_weighted_eq7():
    st_ = queueing.BankStats(bank=np.array([0, 1]), n=np.array([10, 30]), tau_a=np.array([100.0, 50.0]),
                             sigma_a=np.array([100.0, 50.0]), tau_s=np.array([10.0, 10.0]), sigma_s=np.zeros(2),
                             latency=np.array([10.0, 10.0]))
    lat, sat = queueing.dram_latency(st_)
    w = [queueing.kingman(1, 0, 0.1, 10) + 10, queueing.kingman(1, 0, 0.2, 10) + 10]
    assert lat == pytest.approx((0.01 * w[0] + 0.02 * w[1]) / 0.03) and not sat


def test_saturated_bank_nan_faithful_and_capped_book_reading():
    st_ = queueing.BankStats(bank=np.array([0]), n=np.array([9]), tau_a=np.array([5.0]), sigma_a=np.array([5.0]),
                             tau_s=np.array([10.0]), sigma_s=np.zeros(1), latency=np.array([10.0]))
    lat, sat = queueing.dram_latency(st_, saturation="nan")
    assert math.isnan(lat) and sat
    lat, sat = queueing.dram_latency(st_, saturation="cap")
    assert lat == pytest.approx(0.5 * 8 * 10 + 10) and sat


# ---------------------------------------------------------------------------------------------
# instruction rules (§III-B)


def test_addressing_printed_counts():
    assert [trace.addressing_instructions(s) for s in ("G", "T", "C", "S")] == [2, 0, 1, 1]
    with pytest.raises(ValueError, match="space"):
        trace.addressing_instructions("L")


def _brute_global(addr, wb, tb, rule):
    act = [a for a in addr if a >= 0]
    if rule == "printed":
        return max(math.ceil(len(act) * wb / tb) - 1, 0)
    segs = {a // tb for a in act} | {(a + wb - 1) // tb for a in act}
    return max(len(segs) - 1, 0)


def _brute_shared(addr, banks=32, bb=4):
    words = {}
    for a in addr:
        if a >= 0:
            words.setdefault((a // bb) % banks, set()).add(a // bb)
    return max((len(v) for v in words.values()), default=1) - 1 if words else 0


lanes = st.lists(st.one_of(st.just(-1), st.integers(0, 4096)), min_size=32, max_size=32)


@given(lanes, st.sampled_from([4, 8, 16]), st.sampled_from([32, 128]), st.sampled_from(["printed", "segments"]))
@FAST
def test_global_replays_equal_brute_force(addr, wb, tb, rule):
    addr = [a if a < 0 else a - a % wb for a in addr]
    assert trace.global_replays(addr, wb, tb, rule) == _brute_global(addr, wb, tb, rule)


@given(
    st.lists(lanes, min_size=1, max_size=6),
    st.lists(st.sampled_from([1, 4, 8, 16, 64]), min_size=6, max_size=6),
    st.sampled_from([1, 32, 128]),
)
@FAST
def test_global_replays_batch_rows_equal_brute_force(rows, wbs, tb):
    # unaligned addresses and one word size per row: lanes crossing a segment boundary
    a, wb = np.array(rows, dtype=np.int64), np.array(wbs[: len(rows)], dtype=np.int64)
    for rule in ("printed", "segments"):
        got = trace.global_replays_batch(a, wb, tb, rule)
        assert got.tolist() == [_brute_global(r, w, tb, rule) for r, w in zip(rows, wb)]
    # the per-row count is the count of the (row, line) pairs
    pairs, _ = trace.distinct_lines_batch(a, tb, wb)
    counts = trace.lines_per_row(a, tb, wb)
    assert counts.tolist() == np.bincount(pairs, minlength=len(rows)).tolist()


@given(lanes)
@FAST
def test_shared_conflicts_equal_brute_force(addr):
    assert trace.shared_conflict_replays(addr) == _brute_shared(addr)


def test_replay_rule_a6_example():
    stride = [128 * i for i in range(32)]
    assert trace.global_replays(stride) == 0 and trace.global_replays(stride, rule="segments") == 31
    assert trace.shared_conflict_replays([0] * 32) == 0
    assert trace.constant_divergence_replays([4 * (i % 4) for i in range(32)]) == 3


def test_replay_input_checked():
    with pytest.raises(ValueError, match="rule"):
        trace.global_replays([0] * 32, rule="words")
    with pytest.raises(ValueError, match="addresses"):
        trace.shared_conflict_replays([0.5] * 32)


# ---------------------------------------------------------------------------------------------
# caches


def _lru_ref(lines, n_sets, assoc):
    sets = [OrderedDict() for _ in range(n_sets)]
    out = []
    for x in lines:
        s = sets[x % n_sets]
        if x in s:
            s.move_to_end(x)
            out.append(True)
        else:
            if len(s) >= assoc:
                s.popitem(last=False)
            s[x] = None
            out.append(False)
    return out


@given(st.lists(st.integers(0, 64), max_size=300), st.integers(1, 8), st.integers(1, 6))
@FAST
def test_lru_equals_ordered_dict_reference(lines, n_sets, assoc):
    assert cache.lru_hits(np.array(lines, dtype=np.int64), n_sets, assoc).tolist() == _lru_ref(lines, n_sets, assoc)


def test_lru_python_and_compiled_agree_and_caches_are_independent():
    rng = np.random.default_rng(3)
    lines = rng.integers(0, 200, 5000)
    cid = rng.integers(0, 3, 5000)
    jit = cache.lru_hits(lines, 4, 4, cid, 3)
    py = cache._lru.py_func(lines, cid, 4, 4, 3)
    assert (jit == py).all()
    for c in range(3):
        assert jit[cid == c].tolist() == _lru_ref(lines[cid == c].tolist(), 4, 4)


# ---------------------------------------------------------------------------------------------
# DRAM and Algorithm 1


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=80))
@FAST
def test_row_buffer_outcomes_brute_force(reqs):
    open_row, ref = {}, []
    for b, r in reqs:
        ref.append(dram.MISS if b not in open_row else dram.HIT if open_row[b] == r else dram.CONFLICT)
        open_row[b] = r
    got = dram.row_buffer_outcomes([b for b, _ in reqs], [r for _, r in reqs]) if reqs else np.array([])
    assert list(got) == ref


LAT = (17.0, 40.0, 95.0)          # any three latencies: Algorithm 1 finds what it is given


def test_algorithm1_recovers_the_k80_groups_and_the_latencies_it_is_given():
    for preset in ("k80_printed_row_low", "k80_printed_col_low"):
        amap = dram.address_map(preset)
        found = dram.detect_mapping(dram.SimulatedDRAM(amap, *LAT).second_access_latency, range(3, 40))
        assert found.row_bits == amap.row_bits and found.column_bits == amap.column_bits
        assert set(found.other_bits) == set(amap.bank_bits) - set(range(3))
        assert found.latencies == {"column": LAT[0], "other": LAT[1], "row": LAT[2]}


def test_the_simulated_dram_has_no_default_latencies():
    with pytest.raises(TypeError):
        dram.SimulatedDRAM(dram.address_map("k80_printed_row_low"))


def test_algorithm1_recovers_200_random_planted_layouts():
    rng = np.random.default_rng(2017)
    for trial in range(200):
        bits = rng.permutation(np.arange(3, 36))
        nc, nr = rng.integers(1, 8), rng.integers(1, 15)
        amap = dram.AddressMap(f"planted{trial}", column_bits=tuple(sorted(bits[:nc])),
                               row_bits=tuple(sorted(bits[nc:nc + nr])), bank_bits=tuple(sorted(bits[nc + nr:])))
        noise = 5.0 if trial % 2 else 0.0
        found = dram.detect_mapping(dram.SimulatedDRAM(amap, *LAT, noise=noise * LAT[0] / 352, seed=trial).second_access_latency,
                                    range(3, 36))
        assert (found.column_bits, found.row_bits, found.other_bits) == (amap.column_bits, amap.row_bits, amap.bank_bits)


def test_physical_preset_has_96_banks_and_decodes():
    m = dram.address_map("gddr5_6x16")
    assert m.n_banks == 96
    b, r, c = m.decode(np.arange(0, 1 << 22, 32))
    assert b.min() == 0 and b.max() == 95 and len(np.unique(b)) == 96


def test_algorithm1_with_two_latency_levels():
    hit_conflict = dram.AddressMap("hc", column_bits=(3, 4), row_bits=(5, 6), bank_bits=())
    found = dram.detect_mapping(dram.SimulatedDRAM(hit_conflict, *LAT).second_access_latency, range(3, 7))
    assert (found.column_bits, found.row_bits, found.other_bits) == ((3, 4), (5, 6), ())
    hit_miss = dram.AddressMap("hm", column_bits=(3,), row_bits=(), bank_bits=(4, 5))
    found = dram.detect_mapping(dram.SimulatedDRAM(hit_miss, *LAT).second_access_latency, range(3, 6))
    assert (found.column_bits, found.row_bits, found.other_bits) == ((3,), (), (4, 5))


def test_huang_li_widget_summary():
    from gpumodels.papers.huang_li import explorer as huang_li_explorer

    html = huang_li_explorer.summary_html("neuralnet", "NN_C")
    assert "weights: C" in html and "Eq. 1 (model)" in html
    with pytest.raises(ValueError, match="test must be one of"):
        huang_li_explorer.summary_html("neuralnet", "NN_X")
    with pytest.raises(ValueError, match="benchmark"):
        huang_li_explorer.summary_html("nope", "x")


def test_detect_mapping_rejects_bad_oracle():
    with pytest.raises(ValueError, match="second_access_latency"):
        dram.detect_mapping(lambda a, b: -1.0, [3, 4])
    with pytest.raises(ValueError, match="address_bits"):
        dram.detect_mapping(lambda a, b: 1.0, [])


# ---------------------------------------------------------------------------------------------
# model equations by hand


def test_equations_by_hand():
    assert model.t_comp(100, 64, 8, 0.5, 10) == pytest.approx(100 * 64 / 8 * 0.5 + 10)         # Eq. 2
    assert model.amat(600, 0.5, 120, 24, 0.25) == pytest.approx(300 + 120 + 6)                  # Eq. 5 printed
    assert model.amat(600, 0.5, 120, 24, 0.25, "weighted") == pytest.approx(0.75 * 420 + 6)
    assert model.itmlp(1, 8, 20, 30) == (8.0, 8.0)                                              # Eqs. 18-19
    assert model.itmlp(1, 8, 1.5, 30) == (1.0, 1.0)
    assert model.effective_requests(10, 64, 8, 4) == pytest.approx(20)                          # Eq. 17
    assert model.t_mem(20, 426) == pytest.approx(8520)                                          # Eq. 4
    assert model.f_overlap(8, 4, 8) == pytest.approx(7 / 8)
    assert model.t_total(100, 50, 30) == (120, False)                                           # Eq. 1
    assert model.t_total(100, 50, 80) == (100, True) and model.t_total(100, 50, -5) == (150, True)
    m = analysis.k80()
    assert analysis.itilp(m, 100) == pytest.approx(9 * 6)                                       # Eqs. 14-15
    assert analysis.cycles_per_instruction(m, 8) == pytest.approx(9 / 8)                        # Eq. 13


def test_overlap_fit_recovers_coefficients_and_detects_rank_deficiency():
    rng = np.random.default_rng(5)
    x = rng.random((40, len(model.FEATURES)))
    x[:, 3] = 0.0                                            # a feature no training row has
    coef = rng.normal(size=len(model.FEATURES) + 1)
    coef[3] = 0.0
    y = x @ coef[:-1] + coef[-1]
    fit = model.OverlapModel.fit(x, y, groups=[f"b{i % 8}" for i in range(40)])
    assert np.allclose(fit.coef, coef, atol=1e-8) and fit.r2 == pytest.approx(1.0)
    assert fit.zero_columns == ("const_misses",) and not fit.rank_deficient and fit.lobo_error < 1e-8
    x[:, 5] = x[:, 4]                                        # two identical columns
    assert model.OverlapModel.fit(x, y).rank_deficient
    with pytest.raises(ValueError, match="finite"):
        model.OverlapModel.fit(np.full((3, len(model.FEATURES)), np.nan), np.zeros(3))


# ---------------------------------------------------------------------------------------------
# kernels, placements, prediction


def test_placement_rules_reject_illegal_placements():
    k = kernels.kernel("transpose")
    with pytest.raises(ValueError, match="odata.*read-only"):
        k.placement({"odata": "2T"})
    with pytest.raises(ValueError, match="shared memory.*49152"):
        kernels.kernel("stencil2d").placement({"data": "S"})
    with pytest.raises(ValueError, match="constant data.*65536"):
        kernels.kernel("S3D").placement({"gpu_y": "C"})
    with pytest.raises(ValueError, match="2D extents"):
        kernels.kernel("triad").placement({"B": "2T"})
    with pytest.raises(ValueError, match="array must be one of"):
        k.placement({"nope": "G"})


def test_section_3e_address_rules():
    k = kernels.kernel("vecAdd")
    g, t = k.trace(), k.trace({"a": "T"})
    assert g.bases["a"] == t.bases["a"]                              # off-chip moves keep addresses
    s = k.trace({"b": "S", "a": "S"})
    assert s.bases["a"] == 0 and s.bases["b"] == 4 * k.arrays["a"].n and s.shared_bytes_per_block == 8 * k.arrays["a"].n
    red = kernels.kernel("reduction")
    moved = red.trace({"sdata": "G"})
    rows = moved.array == moved.array_names.index("sdata")
    per_block = red.arrays["sdata"].n
    first = moved.addr[rows][:, 0]
    assert ((first - moved.bases["sdata"]) // 4 // per_block == moved.block[moved.warp[rows]]).all()


def test_table_iv_counts_rederived():
    assert sum(placements.counts("train").values()) == 38
    assert sum(placements.counts("eval").values()) == 22
    assert placements.counts("train") == placements.printed_counts("train")
    assert placements.counts("eval") == placements.printed_counts("eval")
    six = ("convolutionSeparable", "matrixMul", "md", "spmv", "transpose", "cfd")
    assert sum(placements.counts("train")[b] for b in six) == 34
    assert sum(r["sample"] == "yes" for r in placements.tests("eval")) == 9


def test_every_counted_placement_is_legal_and_traces():
    for r in placements.tests():
        kernels.kernel(r["benchmark"]).placement(placements.parse_moves(r["moves"]))


def test_prediction_vecadd_terms_and_issued_instructions():
    k = kernels.kernel("vecAdd")
    prof = model.profile(k)
    preds = {s: model.predict(prof, None if s == "G" else {"a": s, "b": s}, variant="sim2012") for s in "GTCS"}
    for p in preds.values():
        assert all(math.isfinite(v) and v >= 0 for v in p.terms().values())
    an_g = analysis.analyze(k.trace())
    an_t = analysis.analyze(k.trace({"a": "T", "b": "T"}))
    assert an_g.addressing_per_warp - an_t.addressing_per_warp == pytest.approx(4.0)      # 2 loads × (2 − 0)
    fit = model.OverlapModel(coef=np.zeros(len(model.FEATURES) + 1), r2=1.0, lobo_error=0.0, condition=1.0, rank=12,
                             zero_columns=(), n=2)
    full = model.predict(prof, {"a": "T", "b": "T"}, variant="full", overlap=fit)
    assert full.inst_per_warp == pytest.approx(prof.counters["inst_issued"] - 4)
    with pytest.raises(ValueError, match="OverlapModel"):
        model.predict(prof, {"a": "T"}, variant="full")
    with pytest.raises(ValueError, match="variant"):
        model.predict(prof, variant="nope")


def test_neuralnet_constant_placement_replays():
    # the placement's traffic as the evaluation keeps it (computed here where it is not)
    an = analysis.analyze(analysis.placement_traffic("neuralnet", {"weights": "C"})["printed"])
    assert an.replays["3_const_div"] == pytest.approx(31 * an.mem_insts["C"])     # 32 neurons, 32 addresses


def test_event_selection_table_1_and_identity():
    assert events.table_1_selection() == {"cfd": 5, "convo1": 2, "convo2": 4, "md": 4, "matrixMul": 4, "spmv": 2,
                                          "transpose": 4}
    assert events.threshold_cv() == pytest.approx(0.36295, abs=5e-6)


@given(st.lists(st.floats(0.1, 100.0), min_size=2, max_size=30), st.floats(0.1, 10.0))
@FAST
def test_cosine_with_a_constant_event(times, c):
    assert events.cosine_similarity(times, [c] * len(times)) == pytest.approx(events.cosine_of_constant(times), rel=1e-9)


# ---------------------------------------------------------------------------------------------
# helpers moved out of other chapters' notebook cells


def test_moved_chapter_helpers():
    import matplotlib

    matplotlib.use("Agg")
    from gpumodels import hong_kim, plotting, prior, volkov
    from gpumodels.papers.transit import figures as tfig, workloads

    a = hong_kim.predict(hong_kim.sync_inputs(64, True, 2, True))
    b = hong_kim.predict(hong_kim.sync_inputs(64, False, 2, True))
    assert hong_kim.sync_delta(64, 2, True) == a.exec_cycles_with_synch - b.exec_cycles_with_synch
    rows = workloads.reported_accuracy()
    assert rows and all(r["source"] for r in rows)
    fig, ax = plotting.figure()
    tfig.label_axes(ax, "t", 100)
    assert ax.get_xlabel() == "threads in MS, k (threads/SM)" and ax.get_title() == "t"
    p = volkov.params("Fermi")
    e = prior.plot_error_band(ax, "volkov_basic", p, plotting.PALETTE[0], "band")
    assert e.equals(prior.errors("volkov_basic", p))
    fig2 = prior.plot_pair(["sim2012"], p, 32, "Fermi")
    assert len(fig2.axes) == 2 and fig2.axes[1].get_title() == "Fermi: Volkov"

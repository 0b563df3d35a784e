"""Hong & Kim (ISCA 2009): the MWP/CWP model, its worked example, extensions and
coalescing algorithms."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import hong_kim as hk
from gpumodels import published
from gpumodels.engines import mwp_cwp
from gpumodels.ground.errors import InputTypeError
from gpumodels.papers.hong_kim.benchmarks import GTX280_UNCOAL_PER_MW, TABLE_2_DECIMALS

# ---- Table 2 (§3.5) ----


def test_table_2_exact_arithmetic():
    r = hk.predict(hk.table_2_inputs())
    assert r.n == 20 and r.departure_delay == 320 and r.mem_l == 730
    assert r.mwp_without_bw_full == pytest.approx(730 / 320)
    assert r.bw_per_warp == pytest.approx(128 / 730)
    assert r.mwp_peak_bw == pytest.approx(80 / (128 / 730 * 16))
    assert r.mwp == pytest.approx(2.28125)
    assert (r.comp_cycles, r.mem_cycles) == (132, 4380)
    assert r.cwp_full == pytest.approx(4512 / 132) and r.cwp == 20 and r.rep == 1
    assert r.equation == 23
    assert r.exec_cycles_app == pytest.approx(
        4380 * 20 / 2.28125 + 22 * 1.28125
    )  # 38428.19
    assert r.synch_cost == pytest.approx(320 * 1.28125 * 6 * 5)  # 12300
    assert r.exec_cycles_with_synch == pytest.approx(50728.1875)


def test_table_2_rounded_like_the_paper_reproduces_every_printed_row():
    r = hk.predict(hk.table_2_inputs(), decimals=TABLE_2_DECIMALS)
    t = published.compare(hk.table_2_rows(r), rtol=1e-3)
    published.check(t)
    assert r.mwp == 2.28 and r.synch_cost == pytest.approx(12288)
    assert abs(t.rel_difference).max() < 2e-4


def test_table_2_exact_misses_only_the_rounded_bandwidth_rows_at_0_1_percent():
    t = published.compare(hk.table_2_rows(hk.predict(hk.table_2_inputs())), rtol=1e-3)
    published.check(
        t, expect_outside=("hk09.t2.bw_per_warp.generic", "hk09.t2.mwp_peak_bw.generic")
    )


# ---- the three cases of §3.4.2, synchronisation, extensions ----


def test_equation_22_not_enough_warps():
    # one warp, 2 coalesced loads + 8 computation per iteration, 100 iterations (FX5600)
    r = hk.predict(
        hk.Inputs(
            machine="FX5600",
            threads_per_block=32,
            blocks=16,
            active_blocks_per_sm=1,
            comp_insts=800,
            coal_mem_insts=200,
        )
    )
    assert (r.n, r.mwp, r.cwp, r.equation) == (1, 1, 1, 22)
    assert r.exec_cycles_app == pytest.approx(200 * 420 + 4 * 1000)


def test_equation_24_computation_bound():
    # Mb2 coalesced on the FX5600: 1 load + 17 computation per iteration, 24 warps
    r = hk.predict(hk.micro_inputs("Mb2", "FX5600", coalesced=True))
    assert r.n == 24 and r.equation == 24
    assert r.mwp == pytest.approx(76.8 / (1.35 * 128 / 420 * 16))
    assert r.exec_cycles_app == pytest.approx(420 + 4 * 18000 * 24)
    assert r.cpi == pytest.approx((420 + 4 * 18000 * 24) / (18000 * 24))


def test_equation_23_memory_bound_micro_benchmark():
    r = hk.predict(hk.micro_inputs("Mb2", "FX5600", coalesced=False))
    assert r.equation == 23 and r.mwp == pytest.approx(730 / 320)
    assert r.exec_cycles_app == pytest.approx(
        730_000 * 24 / (730 / 320) + 72 * (730 / 320 - 1)
    )


def test_no_memory_instructions_is_computation_only():
    r = hk.predict(hk.micro_inputs("Mb1", "FX5600", coalesced=True))
    assert r.mem_insts == 0 and r.equation == 24 and r.mem_l == 0
    assert r.exec_cycles_app == pytest.approx(4 * 23000 * 24)
    assert r.cpi == pytest.approx(4.0) and r.synch_cost == 0
    assert "computation only" in r.regime


def test_synch_cost_uses_warps_per_block_when_below_mwp():
    a = hk.predict(hk.sync_inputs(64, synchronised=True))
    b = hk.predict(hk.sync_inputs(64, synchronised=False))
    assert a.npwb == 2 and a.departure_delay == 4
    assert a.exec_cycles_with_synch - b.exec_cycles_with_synch == pytest.approx(
        4 * (2 - 1) * 1 * 1 * 1
    )


def test_n_pw_reading():
    k = hk.Inputs(
        machine="FX5600",
        threads_per_block=64,
        blocks=16,
        active_blocks_per_sm=1,
        comp_insts=800,
        coal_mem_insts=200,
    )
    assert hk.predict(k).n_pw == 2
    r = hk.predict(k.replace(ind_mem_req=100))
    assert r.n_pw == 4 and r.mwp == 4 and r.mwp > r.n  # N_pw lifts MWP above N
    assert hk.predict(k.replace(ind_mem_req=200)).n_pw == math.inf
    with pytest.raises(
        ValueError,
        match=r"Inputs\.ind_mem_req must be a finite number in \[0\.0, 200\.0\]",
    ):
        k.replace(ind_mem_req=201)


def test_m_factor():
    assert hk.m_factor_of({"int_mul": 1}) == 4.3
    assert hk.m_factor_of({"fp_mad": 3, "fp_div": 1}, source="manual") == 1.75
    assert hk.m_factor_of({"modulo": 1}) == 35
    with pytest.raises(ValueError, match="Very Costly"):
        hk.m_factor_of({"int_div": 1}, source="manual")
    base = hk.predict(hk.table_2_inputs())
    slow = hk.predict(hk.table_2_inputs().replace(m_factor=4.3))
    assert slow.comp_cycles == pytest.approx(4.3 * base.comp_cycles)  # Eq. (31)


def test_divergent_paths_sum_the_union_of_blocks():
    d = hk.divergent_counts(
        hk.benchmarks.DIVERGENCE_BLOCKS, hk.benchmarks.DIVERGENCE_PATHS
    )
    assert [c["comp_insts"] for c in d.path_counts] == [100, 100, 60]
    assert d.all_paths["comp_insts"] == 140 and d.all_paths["coal_mem_insts"] == 2
    t = hk.divergence_example()
    assert t.exec_cycles.iloc[-1] > t.exec_cycles.iloc[:-1].max()


def test_printed_case_selection_can_fall_below_the_issue_bound():
    """A finding, pinned: compute-heavy kernels go to Eq. (23), which drops below
    Comp_cycles x N."""
    r = hk.predict(
        hk.Inputs(
            machine="FX5600",
            threads_per_block=256,
            blocks=48,
            comp_insts=500,
            coal_mem_insts=4,
        )
    )
    assert r.comp_cycles > r.mem_cycles and r.cwp < r.mwp and r.equation == 23
    assert r.exec_cycles_app < 0.2 * r.issue_bound_cycles


# ---- §3.2: Figures 5-8 on the simulator ----


@pytest.mark.parametrize("case", range(1, 8))
def test_timeline_totals_match_equations(case):
    run = hk.run_case(case)
    assert run.total_cycles == pytest.approx(run.predicted)
    tr = run.trace
    assert len(tr.issue) == 2 * run.case.periods * run.case.n
    assert max(tr.concurrency("mem", range(int(run.total_cycles)))) <= run.case.mwp
    assert tr.table().kind.eq("simulated").all()


def test_timeline_equations_directly():
    assert hk.cycles_cwp_above_mwp(300, 100, 8, 2, 1) == 1400
    assert hk.cycles_mwp_above_cwp(300, 100, 8) == 1100
    assert hk.cycles_mwp_equals_n(600, 200, 2, 2) == 900
    with pytest.raises(ValueError, match="mwp"):
        hk.cycles_cwp_above_mwp(300, 100, 4, 8, 1)


# ---- coalescing (appendix) ----


def _half_warp(offset, d, size, t=0):
    return [(offset + d * (16 * t + k)) * size for k in range(16)]


@pytest.mark.parametrize("size", [4, 8, 16])
def test_algorithm_1_matches_the_guide_for_cc_1_0(size):
    for d in range(5):
        for offset in range(40):
            aligned = all((offset + d * 16 * t) % 16 == 0 for t in range(4))
            # coalesced per the guide: every half-warp of a 64-thread block served by
            # its one or two big transactions
            guide = all(
                len(hk.guide_transactions(_half_warp(offset, d, size, t), size, "1.0"))
                <= 2
                for t in range(4)
            )
            assert hk.coalesced_cc1x(d, aligned, size) == guide, (d, offset)


def test_algorithm_1_rejects_small_elements():
    assert not hk.coalesced_cc1x(1, True, 2)
    assert len(hk.guide_transactions([2 * k for k in range(16)], 2, "1.0")) == 16


@pytest.mark.parametrize("size", [1, 2, 4, 8, 16])
def test_algorithm_2_against_the_guide_for_cc_1_3(size):
    seg = {1: 32, 2: 64}.get(size, 128)
    for d in range(1, 40):
        for offset in (0, 16, 1, 3, 8, 17):
            aligned = offset % 16 == 0 and (d * 16) % 16 == 0
            alg = hk.transactions_cc13(d, aligned, size)
            guide = [
                len(hk.guide_transactions(_half_warp(offset, d, size, t), size, "1.3"))
                for t in range(2)
            ]
            assert alg.size == seg
            if size >= 8:
                assert alg.count >= max(guide), (
                    d,
                    offset,
                )  # never fewer than the guide
            else:
                # 16 elements of 1, 2 or 4 bytes are less than a segment: "index
                # multiple of 16" does not mean segment-aligned, and Algorithm 2 can
                # count one transaction too few
                assert alg.count >= max(guide) - 1, (d, offset)
            seg_aligned = (offset * size) % seg == 0 and (d * 16 * size) % seg == 0
            if aligned and seg_aligned and d * size <= seg:
                assert alg.count == max(guide), (
                    d,
                    offset,
                )  # exact for aligned, stride within a segment
    if size < 8:
        assert hk.transactions_cc13(2, True, size).count < len(
            hk.guide_transactions(_half_warp(16, 2, size), size, "1.3")
        )


def test_guide_cc13_reduces_segment_size():
    assert hk.guide_transactions([4 * k for k in range(16)], 4, "1.3") == [(0, 64)]
    assert hk.guide_transactions([64 + 2 * k for k in range(16)], 2, "1.3") == [
        (64, 32)
    ]
    assert hk.guide_transactions([None] * 15 + [256], 4, "1.3") == [(256, 32)]


def test_index_terms_and_gtx280_assumption():
    assert hk.index_terms(lambda tx: 320 + tx, 128) == (1, True)
    assert hk.index_terms(lambda tx: 7 + 2 * tx, 64) == (2, False)
    with pytest.raises(ValueError, match="affine"):
        hk.index_terms(lambda tx: tx * tx, 64)
    assert GTX280_UNCOAL_PER_MW == 4


# ---- benchmarks' inputs ----


def test_mat_tiled_counts_hit_the_printed_ends():
    assert hk.mat_tiled_counts(4) == {
        "comp_insts": 24580.0,
        "uncoal_mem_insts": 1001,
        "coal_mem_insts": 0,
        "synch_insts": 1000,
    }
    assert (
        hk.mat_tiled_counts(20)["uncoal_mem_insts"] == 201
        and hk.mat_tiled_counts(20)["comp_insts"] == 9780
    )
    with pytest.raises(ValueError, match="divide 2000"):
        hk.mat_tiled_counts(7)


def test_merge_sweep_runs_on_every_gpu():
    for g in hk.machines():
        for b in hk.merge_benchmarks().benchmark:
            df = hk.merge_sweep(b, g)
            assert (df.time_ms > 0).all() and df.kind.eq("model").all()
            assert (df.occupancy <= 1).all()


def test_svm_limits_match_the_text():
    opt, naive = hk.svm_sweep("optimized"), hk.svm_sweep("naive")
    assert round(opt.mwp_peak_bw.iloc[-1]) == published.value(
        "hk09.s5_3.mwp_peak_bw.FX5600"
    )
    assert round(naive.mwp_without_bw.iloc[-1]) == published.value(
        "hk09.s5_3.mwp_without_bw.FX5600"
    )


def test_machines():
    assert hk.machines() == ["FX5600", "8800GTX", "8800GT", "GTX280"]
    assert hk.machine("GTX 280").uncoal_per_mw is None
    assert hk.machine("8800GT").mem_ld == 420
    with pytest.raises(ValueError, match="Table 3"):
        hk.machine("GTX680")


# ---- bad input ----


@pytest.mark.parametrize(
    "bad, match",
    [
        (
            {"comp_insts": -1},
            r"Inputs\.comp_insts must be a finite number in \[0\.0, inf\], got -1",
        ),
        (
            {"uncoal_mem_insts": -6},
            r"Inputs\.uncoal_mem_insts must be a finite number in \[0\.0, inf\]",
        ),
        (
            {"threads_per_block": 0},
            r"Inputs\.threads_per_block must be an integer in \[1, inf\), got 0",
        ),
        ({"blocks": 0}, r"Inputs\.blocks must be an integer in \[1, inf\), got 0"),
        ({"blocks": 2.5}, r"Inputs\.blocks must be an integer"),
        ({"comp_insts": 0, "uncoal_mem_insts": 0}, "must be > 0"),
        (
            {"m_factor": 0},
            r"Inputs\.m_factor must be a finite number in \(0\.0, inf\], got 0",
        ),
        ({"load_bytes_per_warp": float("nan")}, r"Inputs\.load_bytes_per_warp"),
        ({"uncoal_mem_insts": 0.5}, "at least 1"),
        (
            {"uncoal_per_mw": 0.5},
            r"Inputs\.uncoal_per_mw must be a finite number in \[1\.0, inf\], got 0\.5",
        ),
        (
            {"active_sms": 0},
            r"Inputs\.active_sms must be an integer in \[1, inf\), got 0",
        ),
    ],
)
def test_bad_inputs(bad, match):
    with pytest.raises(ValueError, match=match):
        hk.table_2_inputs().replace(**bad)


def test_a_wrong_field_names_the_field_range_and_value():
    with pytest.raises(
        ValueError,
        match=r"Inputs\.threads_per_block must be an integer in \[1, 512\] for compute "
        r"capability 1\.0, got 1024",
    ):
        hk.Inputs(machine="FX5600", threads_per_block=1024, blocks=1, comp_insts=1)
    with pytest.raises(
        ValueError,
        match=r"Inputs\.active_sms must be an integer in \[1, 16\] for FX5600, got 17",
    ):
        hk.Inputs(
            machine="FX5600",
            threads_per_block=32,
            blocks=1,
            comp_insts=1,
            active_sms=17,
        )
    with pytest.raises(
        TypeError,
        match=r"Inputs\.comp_insts must be a finite number in \[0\.0, inf\], got '8'",
    ):
        hk.Inputs(machine="FX5600", threads_per_block=32, blocks=1, comp_insts="8")
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'gpu'"):
        hk.Inputs(gpu="FX5600", threads_per_block=32, blocks=1, comp_insts=1)
    with pytest.raises(
        TypeError,
        match=r"Inputs\.machine must be a Machine record or a GPU of Hong & Kim's "
        r"Table 3 \(FX5600, 8800GTX, 8800GT, GTX280\), got NoneType",
    ):
        hk.Inputs(machine=None, threads_per_block=32, blocks=1, comp_insts=1)
    with pytest.raises(ValueError, match="Table 3"):
        hk.Inputs(machine="GTX680", threads_per_block=32, blocks=1, comp_insts=1)
    m = hk.table_2_inputs().machine
    with pytest.raises(
        ValueError,
        match=r"Machine\.freq_ghz must be a finite number in \(0\.0, inf\], got 0",
    ):
        m.replace(freq_ghz=0)
    with pytest.raises(
        ValueError,
        match=r"Machine\.threads_per_warp must be an integer in \[1, inf\), got 0",
    ):
        m.replace(threads_per_warp=0)
    with pytest.raises(ValueError, match="decimals"):
        hk.predict(hk.table_2_inputs(), decimals={"mwp": 2})


def test_the_former_keyword_style_says_how_to_build_the_inputs():
    with pytest.raises(
        TypeError,
        match=r"predict takes one Inputs record \(and decimals=\), not the keyword "
        r"arguments of the former interface: build it as predict\(Inputs\("
        r"machine='FX5600'(.|\n)*got keyword arguments blocks, comp_insts, gpu, "
        r"threads_per_block",
    ) as e:
        hk.predict(gpu="FX5600", threads_per_block=256, blocks=48, comp_insts=500)
    assert isinstance(e.value, InputTypeError) and "Machine(mem_ld=" in str(e.value)
    with pytest.raises(
        TypeError, match=r"predict takes one Inputs record(.|\n)*got dict"
    ):
        hk.predict({"threads_per_block": 128, "blocks": 80, "comp_insts": 27})
    with pytest.raises(TypeError, match=r"got keyword arguments m_factor"):
        hk.predict(hk.table_2_inputs(), m_factor=2)
    with pytest.raises(TypeError, match="argument after \\*\\* must be a mapping"):
        hk.predict(**hk.table_2_inputs())


def test_inputs_are_frozen_normalised_and_replace_checks_again():
    k = hk.Inputs(
        machine=hk.machine("FX5600"),
        threads_per_block=256.0,
        blocks=48,
        comp_insts=500,
        coal_mem_insts=4,
    )
    assert k.threads_per_block == 256 and isinstance(k.threads_per_block, int)
    assert (
        k.comp_insts == 500.0
        and isinstance(k.comp_insts, float)
        and k.mem_insts == k.total_insts - 500 == 4
    )
    assert (
        hk.Inputs(
            machine="FX5600",
            threads_per_block=256,
            blocks=48,
            comp_insts=500,
            coal_mem_insts=4,
        )
        == k
    )
    with pytest.raises(AttributeError):
        k.blocks = 1
    with pytest.raises(ValueError, match=r"Inputs\.blocks"):
        k.replace(blocks=-1)
    g = hk.machine("GTX280").replace(uncoal_per_mw=4)
    assert (
        g.uncoal_per_mw == 4.0
        and "uncoal_per_mw" not in g.sources
        and "mem_ld" in g.sources
    )
    t2 = hk.table_2_inputs().machine  # §3.5's hypothetical machine
    assert t2.gpu is t2.cc is t2.sm_count is t2.departure_del_coal is None


def test_more_active_blocks_than_occupancy_allows():
    k = hk.Inputs(
        machine="FX5600",
        threads_per_block=256,
        blocks=48,
        active_blocks_per_sm=4,
        comp_insts=10,
        coal_mem_insts=1,
    )
    with pytest.raises(ValueError, match="occupancy limit"):
        hk.predict(k)
    with pytest.raises(ValueError, match="occupancy limit"):
        hk.predict(
            k.replace(
                threads_per_block=128,
                blocks=80,
                active_blocks_per_sm=5,
                registers_per_thread=20,
            )
        )
    with pytest.raises(ValueError, match="does not fit"):
        hk.predict(
            k.replace(
                threads_per_block=512,
                blocks=8,
                active_blocks_per_sm=None,
                registers_per_thread=32,
            )
        )


def test_missing_machine_parameters():
    k = hk.table_2_inputs()
    with pytest.raises(
        ValueError, match=r"Machine\.mem_bandwidth_gbs must be given for this kernel"
    ):
        k.replace(machine=k.machine.replace(mem_bandwidth_gbs=None))
    with pytest.raises(ValueError, match="uncoal_per_mw must be given"):
        hk.Inputs(
            machine="GTX280",
            threads_per_block=128,
            blocks=60,
            comp_insts=10,
            uncoal_mem_insts=1,
        )
    with pytest.raises(ValueError, match=r"Machine\.departure_del_coal must be given"):
        k.replace(coal_mem_insts=1)
    with pytest.raises(ValueError, match=r"Inputs\.active_blocks_per_sm must be given"):
        hk.predict(k.replace(active_blocks_per_sm=None))
    with pytest.raises(ValueError, match=r"Inputs\.active_sms must be given"):
        hk.predict(k.replace(active_sms=None))


def test_mwp_peak_bw_from_is_eqs_6_and_7_chained_and_survives_underflow():
    for args in [
        (80, 16, 1.0, 730, 128),
        (76.8, 16, 1.35, 420, 128),
        (141.7, 30, 1.296, 434, 128),
    ]:
        bw, sms, f, lat, b = args
        assert mwp_cwp.mwp_peak_bw_from(*args) == mwp_cwp.mwp_peak_bw(
            bw, mwp_cwp.bw_per_warp(f, b, lat), sms
        )
    # BW_per_warp underflows to 0: one quotient instead
    assert mwp_cwp.mwp_peak_bw_from(1e-300, 1, 1e-200, 1.0, 1e-200) == pytest.approx(
        1e100
    )
    r = hk.predict(hk.table_2_inputs())
    assert r.mwp_peak_bw == mwp_cwp.mwp_peak_bw_from(80, 16, 1.0, 730, 128)


# ---- properties ----

kernels = st.fixed_dictionaries(
    {
        "machine": st.sampled_from(["FX5600", "8800GTX", "8800GT", "GTX280"]),
        "threads_per_block": st.integers(1, 512),
        "blocks": st.integers(1, 5000),
        "comp_insts": st.floats(0, 1e5),
        "coal_mem_insts": st.integers(0, 1000),
        "uncoal_mem_insts": st.integers(0, 1000),
        "synch_insts": st.floats(0, 100),
        "uncoal_per_mw": st.floats(1, 32),
        "m_factor": st.floats(0.5, 40),
    }
)


@settings(max_examples=300, deadline=None)
@given(kernels)
def test_properties(kw):
    if kw["comp_insts"] + kw["coal_mem_insts"] + kw["uncoal_mem_insts"] == 0:
        kw["comp_insts"] = 1.0
    r = hk.predict(hk.Inputs(**kw))
    assert 1 <= r.cwp <= r.n
    assert 0 < r.mwp <= r.n  # no independent requests: MWP <= N
    assert r.mwp <= r.mwp_peak_bw and r.mwp <= r.mwp_without_bw
    for v in (
        r.exec_cycles_app,
        r.synch_cost,
        r.exec_cycles_with_synch,
        r.cpi,
        r.time_ms,
    ):
        assert math.isfinite(v) and v >= 0
    assert r.exec_cycles_app > 0
    assert r.exec_cycles_with_synch >= r.bandwidth_bound_cycles * (
        1 - 1e-9
    )  # never beats the DRAM bandwidth


@settings(max_examples=200, deadline=None)
@given(kernels, st.floats(0, 1))
def test_properties_with_independent_requests(kw, share):
    kw["coal_mem_insts"] += 1.0
    mem = kw["coal_mem_insts"] + kw["uncoal_mem_insts"]
    r = hk.predict(hk.Inputs(**kw).replace(ind_mem_req=share * mem))
    assert r.n_pw >= r.n and 0 < r.mwp <= r.n_pw
    assert math.isfinite(r.exec_cycles_with_synch) and r.exec_cycles_with_synch > 0

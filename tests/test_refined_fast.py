"""Volkov's refined model (§6.4–6.5) at array speed: the closed form (one Table 6.5
term) and the bracketed Newton iteration (the G80's two terms) against the root finder
they replaced (``_refined_memory_throughput_reference``), the model's invariants, and
the numbers of §6.5 and Table 6.4."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import volkov
from gpumodels.facts import modern
from gpumodels.facts.param_sets import GENERATIONS, mix_params, params
from gpumodels.ground.errors import OutsideDomainError
from gpumodels.papers.volkov import parameters, synthetic

fast = synthetic.refined_memory_throughput
reference = synthetic._refined_memory_throughput_reference


def fitted() -> dict:
    """Every parameter set with a latency fit (Table 6.5 or the G80's two terms of
    §6.4), the modern GPUs included should one get a fit, and §4.12's Maxwell variant
    with 8 issue cycles per load."""
    sets = {f"{g} table_6_5": params(g) for g in GENERATIONS}
    sets["G80 two_term"] = params("G80", "two_term")
    sets.update({m: params(m) for m in modern.GPUS if params(m).latency_terms})
    sets["Maxwell issue_costs"] = mix_params("Maxwell", "memory", issue_costs=True)
    assert all(p.latency_terms for p in sets.values())
    return sets


FITTED = fitted()


def bound(p, a):
    return np.asarray(synthetic.throughput_bound(p, a), dtype=float)


def held(p, a):
    """The throughput bound, held just below the fit's smallest pole (where the bound
    lies beyond it)."""
    c_min = min(c for _, c in p.latency_terms) / p.gbs_per_ipc
    return np.minimum(bound(p, a), c_min * (1 - 1e-12))


def n_at_bound(p, a):
    """The occupancy at which the latency branch reaches the (held) bound."""
    hi = held(p, a)
    return hi * np.asarray(volkov.refined_latency(p, hi, np.where(np.isinf(a), 0, a)))


def assert_same(p, n, a, x, ref, exact=None):
    """``x`` equals ``ref`` exactly where ``ref`` is 0 or the (held) bound (or where
    ``exact``), and to 1e-9 relative elsewhere; returns the largest relative
    difference."""
    x, ref = np.asarray(x), np.asarray(ref)
    assert x.shape == ref.shape
    assert np.all(np.isfinite(x)) and np.all(x >= 0)
    if exact is None:
        hi = np.broadcast_to(held(p, a), ref.shape)
        exact = (ref == hi) | (ref == np.broadcast_to(bound(p, a), ref.shape))
    exact = exact | (ref == 0)
    np.testing.assert_array_equal(x[exact], ref[exact])
    assert np.array_equal(x == 0, ref == 0)
    rel = np.abs(x[~exact] - ref[~exact]) / ref[~exact]
    worst = float(rel.max()) if rel.size else 0.0
    assert worst <= 1e-9, worst
    return worst


# ---------------------------------------------------------------- the dense grid

N_GRID = np.unique(
    np.concatenate(
        [
            [0.0, 1e-6, 1e-4, 1e-2, 0.1, 0.25, 0.5],
            np.linspace(0.0, 200.0, 401),  # steps of 0.5
            np.arange(1, 65),  # every warp count up to the largest maximum
            np.random.default_rng(0).uniform(0.0, 200.0, 150),  # fractional
            [199.9, 256.0, 1e3, 1e6],
        ]
    )
)


def alpha_grid(p):
    cusps = [p.alu_thru / p.mem_thru, p.issue_thru / p.mem_thru - p.mem_issue]
    return np.unique(
        np.concatenate(
            [
                [0.0, np.inf],
                np.geomspace(1e-6, 1e6, 241),
                np.arange(1, 65),
                [c * f for c in cusps if c > 0 for f in (1 - 1e-9, 1.0, 1 + 1e-9)],
            ]
        )
    )


@pytest.mark.parametrize("name", sorted(FITTED))
def test_dense_grid_identical_to_the_root_finder(name):
    p = FITTED[name]
    a = alpha_grid(p)[None, :]
    n = N_GRID[:, None]
    x, ref = fast(p, n, a), reference(p, n, a)
    assert x.shape == (N_GRID.size, a.size) and x.size > 150_000
    worst = assert_same(p, n, a, x, ref)
    # the bound binds on part of the grid and the latency branch on the rest
    assert np.any(ref == np.broadcast_to(held(p, a), ref.shape)) and np.any(
        (ref > 0) & (ref < np.broadcast_to(held(p, a), ref.shape))
    )
    assert worst < 1e-13  # about 1e-15 in practice
    # arithmetic throughput goes through the same function
    np.testing.assert_allclose(
        volkov.refined_arithmetic_throughput(p, n, a[:, 1:-1]),
        32 * a[:, 1:-1] * ref[:, 1:-1],
        rtol=1e-9,
        atol=0,
    )


@pytest.mark.parametrize("name", sorted(FITTED))
def test_occupancies_at_the_edge_of_the_bound(name):
    """n just below, at and just above hi·Latency(hi), where the two branches meet: the
    same points are at the bound, with the same value, as with the root finder. (Just
    below, the root lies within an ulp or two of the bound, where the root finder
    returned its bracket's end, the bound, and the closed form an ulp below it.)"""
    p = FITTED[name]
    a = alpha_grid(p)[None, :-1]  # finite alpha
    edge = n_at_bound(p, a)
    steps = np.array([-1e-6, -1e-9, -1e-12, -1e-15, 0.0, 1e-15, 1e-12, 1e-9])[:, None]
    n = edge * (1 + steps)
    x, ref = fast(p, n, a), reference(p, n, a)
    at_bound = n >= synthetic._bound_side(p, a)[1]  # ``g(hi) <= 0`` of the root finder
    assert np.any(at_bound) and np.any(~at_bound)
    assert_same(p, n, a, x, ref, exact=at_bound)
    assert np.all(x <= np.broadcast_to(held(p, a), x.shape))


def test_every_fitted_gpu_is_listed_and_unfitted_ones_refuse():
    assert {"G80 two_term", "Kepler table_6_5"} <= set(FITTED)
    assert len(FITTED["G80 two_term"].latency_terms) == 2
    for m in modern.GPUS:
        if not params(m).latency_terms:
            with pytest.raises(ValueError, match="Table 6.5 fit") as new_err:
                fast(params(m), 8, 1)
            with pytest.raises(ValueError) as old_err:
                reference(params(m), 8, 1)
            assert str(new_err.value) == str(old_err.value)


# ---------------------------------------------------------------- semantics kept


@pytest.mark.parametrize("name", ["Kepler table_6_5", "G80 two_term"])
def test_zero_occupancy_and_infinite_alpha_give_zero(name):
    p = FITTED[name]
    assert fast(p, 0, 3.0) == 0.0 and fast(p, 12, np.inf) == 0.0
    x = fast(p, np.array([[0.0], [12.0]]), np.array([0.0, 2.0, np.inf]))
    assert (
        x.shape == (2, 3)
        and np.all(x[0] == 0)
        and x[1, 2] == 0
        and np.all(x[1, :2] > 0)
    )


def test_broadcast_shapes_and_scalars():
    p = FITTED["G80 two_term"]
    n = np.array([0.5, 3.0, 24.0]).reshape(3, 1, 1)
    a = np.array([[0.0], [1.5], [40.0], [np.inf]])
    x = fast(p, n, a)
    assert x.shape == (3, 4, 1)
    for i in range(3):
        for j in range(4):
            assert x[i, j, 0] == fast(p, float(n[i, 0, 0]), float(a[j, 0]))
    assert isinstance(fast(p, 12, 2.0), float)
    assert fast(p, np.zeros(0), 1.0).shape == (0,)


@pytest.mark.parametrize(
    "n, alpha",
    [
        (-1, 2),
        (np.nan, 2),
        (np.inf, 2),
        ("8", 2),
        (None, 2),
        (8, -1),
        (8, np.nan),
        (8, "x"),
        (np.ones(3), np.ones(4)),
        (True, 1),
    ],
)
def test_bad_inputs_fail_as_before(n, alpha):
    p = FITTED["Kepler table_6_5"]
    with pytest.raises(ValueError) as new_err:
        fast(p, n, alpha)
    with pytest.raises(ValueError) as old_err:
        reference(p, n, alpha)
    assert type(new_err.value) is type(old_err.value)
    assert str(new_err.value) == str(old_err.value)


def test_other_kinds_refused_as_before():
    m = mix_params("Maxwell", "sfu")
    with pytest.raises(ValueError, match="global-memory loads only"):
        fast(m, 8, 1)
    with pytest.raises(ValueError, match="must be a volkov Params record"):
        fast("Kepler", 8, 1)


def test_a_point_that_does_not_converge_raises(monkeypatch):
    """The Newton iteration's cap: never a silent value."""
    p = FITTED["G80 two_term"]
    monkeypatch.setattr(synthetic, "_NEWTON_MAX_STEPS", 1)
    with pytest.raises(OutsideDomainError, match=r"did not converge at n=12, alpha=2"):
        fast(p, 12, 2.0)
    # at the bound, at 0, and with one term no iteration is needed
    assert fast(p, 1e13, 0.0) == reference(p, 1e13, 0.0) == float(held(p, 0.0))
    assert fast(p, 0, 2.0) == 0.0
    assert fast(FITTED["Kepler table_6_5"], 12, 2.0) > 0


def test_fits_with_inert_terms():
    """A term with b = 0 or c = inf adds no latency (c still caps the throughput); a
    third term goes through the Newton iteration."""
    k = FITTED["Kepler table_6_5"]
    g = FITTED["G80 two_term"]
    variants = [
        k.replace(latency_terms=((0.0, 170.0),), b=0.0),
        k.replace(latency_terms=((32.0, float("inf")),), c=float("inf")),
        k.replace(a=0.0),
        k.replace(mem_thru=float("inf")),
        g.replace(latency_terms=((156.0, 121.0), (4.0, 71.0))),
        g.replace(latency_terms=((4.0, 71.0), (0.0, 121.0))),
        g.replace(latency_terms=((4.0, 71.0), (156.0, 121.0), (30.0, 90.0))),
    ]
    n = np.concatenate([[0.0, 1e-6, 0.3], np.linspace(1, 200, 60)])[:, None]
    a = np.concatenate([[0.0], np.geomspace(1e-4, 1e5, 40), [np.inf]])[None, :]
    for p in variants:
        assert_same(p, n, a, fast(p, n, a), reference(p, n, a))


def test_extreme_alpha_resolved_without_warnings():
    """Throughputs below 1e-300 IPC/SM: the root finder's absolute tolerance (1e-300)
    gave 0 (or the bound, where α·alu_lat overflows); the new solver resolves them."""
    import warnings

    p = FITTED["Kepler table_6_5"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for alpha in (1e300, 1e306, 1e307, 1e308, 1.7e308):
            x = fast(p, 10, alpha)
            assert 0 < x <= bound(p, alpha)
            assert x == pytest.approx(
                min(10 / (p.a + alpha * p.alu_lat), bound(p, alpha)), rel=1e-12
            )
        assert fast(p, 1e-300, 0) == pytest.approx(1e-300 / p.a, rel=1e-12)
        assert fast(p, 1e300, 1e308) == bound(p, 1e308)
        g = FITTED["G80 two_term"]
        assert fast(g, 10, 1e307) == pytest.approx(
            min(10 / (g.a + 1e307 * g.alu_lat), bound(g, 1e307)), rel=1e-12
        )


# ------------------------------------------------------------ invariants (hypothesis)

names = st.sampled_from(sorted(FITTED))
# the root finder resolved nothing below 1e-300 IPC/SM (test_extreme_alpha_...): n from
# 1e-6 warps per SM, as on the dense grid
ns = st.one_of(st.floats(1e-6, 200), st.sampled_from([0.0, 1e-6, 1e3, 1e9]))
alphas = st.one_of(st.just(0.0), st.just(np.inf), st.floats(1e-6, 1e6))


@settings(max_examples=300, deadline=None)
@given(name=names, n=ns, a=alphas)
def test_within_bounds_and_equal_to_the_root_finder(name, n, a):
    p = FITTED[name]
    x = fast(p, n, a)
    assert isinstance(x, float) and np.isfinite(x)
    assert 0.0 <= x <= bound(p, a)
    assert_same(
        p, np.asarray(n), np.asarray(a), np.asarray(x), np.asarray(reference(p, n, a))
    )
    if n == 0 or np.isinf(a):
        assert x == 0.0


@settings(max_examples=300, deadline=None)
@given(
    name=names,
    n=ns.filter(lambda v: v > 0),
    a=st.one_of(st.just(0.0), st.floats(1e-6, 1e6)),
)
def test_is_the_fixed_point(name, n, a):
    """The root of x·Latency(x) = n is bracketed within 1e-10 relative of x, or x is the
    bound and the latency branch reaches it at a lower occupancy."""
    p = FITTED[name]
    x = fast(p, n, a)
    hi = float(held(p, a))

    def g(y):
        return y * volkov.refined_latency(p, y, a) - n

    if x == hi:
        assert g(hi) <= 0
    else:
        assert x < hi
        assert g(x * (1 - 1e-10)) < 0
        assert g(min(x * (1 + 1e-10), hi)) >= 0


@settings(max_examples=200, deadline=None)
@given(name=names, n1=ns, n2=ns, a=alphas)
def test_non_decreasing_in_occupancy(name, n1, n2, a):
    p = FITTED[name]
    lo, hi = sorted((n1, n2))
    assert fast(p, lo, a) <= fast(p, hi, a) * (1 + 1e-13)


@settings(max_examples=200, deadline=None)
@given(name=names, n=ns, a1=alphas, a2=alphas)
def test_non_increasing_in_alpha(name, n, a1, a2):
    """More adds per load lengthen the latency and lower every throughput limit."""
    p = FITTED[name]
    lo, hi = sorted((a1, a2))
    assert fast(p, n, hi) <= fast(p, n, lo) * (1 + 1e-13)


@settings(max_examples=100, deadline=None)
@given(
    name=names,
    n=st.lists(ns, min_size=1, max_size=40),
    a=st.lists(alphas, min_size=1, max_size=40),
)
def test_arrays_equal_points(name, n, a):
    p = FITTED[name]
    x = fast(p, np.asarray(n)[:, None], np.asarray(a)[None, :])
    assert x.shape == (len(n), len(a)) and not np.any(np.isnan(x))
    for i in (0, len(n) - 1):
        for j in (0, len(a) - 1):
            assert x[i, j] == fast(p, n[i], a[j])


# ---------------------------------------------------------------- worked numbers


@pytest.mark.parametrize(
    "n, alpha, x",
    [
        # x = min(n / (300 + 32·x/(0.1477 − x) + 9·α), 0.1338, 4/(α + 1)), §6.5's Kepler
        # equation, solved by hand: times (0.1477 − x) it is the quadratic
        # (32 − L)·x² + (0.1477·L + n)·x − 0.1477·n = 0, L = 300 + 9·α
        (16, 0, 0.050530),  # 2·16·0.1477 / (60.31 + √1103.95) = 4.7264 / 93.536
        (64, 0, 0.12750),  # 18.906 / (108.31 + √1597.65)
        (16, 4, 0.045672),  # L = 336: 4.7264 / (65.627 + √1433.27)
        (
            100,
            0,
            0.1338,
        ),  # beyond 0.1338·(300 + 32·0.1338/0.0139) = 81.4 warps: the bound
    ],
)
def test_kepler_equation_of_section_6_5(n, alpha, x):
    """The printed c = 0.1477 IPC/SM is Table 6.5's 170 GB/s rounded (0.147700...)."""
    assert fast(FITTED["Kepler table_6_5"], n, alpha) == pytest.approx(x, rel=2e-5)


def test_table_6_4_model_throughput_at_the_linear_occupancy():
    """The refined model at Table 6.4's linear occupancy (α = 0): 75.5 % of the peak on
    the G80 to 84.0 % on the GT200, median 81.3 % (data/published/volkov.csv, notes of
    v16.s4_3.pct_at_estimate and v16.s6_3.pct_at_linear_*), against the measured 75 to
    84 %."""
    t = parameters.table_6_4()
    pct = t.model_pct_at_linear.round(1)
    assert pct["G80"] == 75.5 and pct["GT200"] == 84.0
    assert round(float(t.model_pct_at_linear.median()), 1) == 81.3
    assert (abs(t.model_pct_at_linear - t.pct_at_linear) <= 2.5).all()

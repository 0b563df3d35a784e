"""Transit on Rodinia: the three instruction counts, the accuracy each gives, and why
every profiled kernel is thread bound (issue 39)."""

import statistics

import numpy as np
import pytest

from gpumodels import transit
from gpumodels.ground import schemas
from gpumodels.ground.data import data_dir
from gpumodels.ground.errors import DataError, InputTypeError, OutOfRangeError
from gpumodels.papers.transit import workloads

GK104 = transit.machine("GTX690", "SP")
C2075 = transit.machine("C2075", "SP")


def test_the_three_counts_are_computed_from_the_profiled_columns():
    for row in workloads.nvprof_rows():
        d = workloads.derive(row)
        issued = row["inst_executed"] * row["issued_ipc"] / row["executed_ipc"]
        assert d["inst_issued"] == pytest.approx(issued, rel=1e-12)
        tx = d["transactions"]
        assert d["Z"] == pytest.approx(row["inst_executed"] / tx)
        assert d["Z_issued1"] == pytest.approx(row["inst_issued1"] / tx)
        assert d["Z_ipc_ratio"] == pytest.approx(issued / tx)
        per_sm = 32 / row["duration"] / 1e9 / d["active_sms"]
        assert d["cs_measured_ipc_ratio"] == pytest.approx(issued * per_sm)
        assert d["gflops_sp_measured"] == pytest.approx(row["flop_count_sp"] / 32 * per_sm)


def test_the_issued_count_bounds_both_counters_in_every_launch():
    # inst_issued = inst_issued1 + 2 inst_issued2 >= inst_issued1; issued >= executed
    for row in workloads.nvprof_rows():
        issued = workloads.derive(row)["inst_issued"]
        assert issued > row["inst_issued1"] and issued > row["inst_executed"], row["kernel"]
    # dual issue: the single-issue event falls below the executed count in every launch
    # of five of the six kernels on both GPUs (all but backprop's weight update)
    below = {}
    for r in workloads.nvprof_rows():
        below.setdefault((r["kernel"], r["gpu"]), []).append(
            r["inst_issued1"] < r["inst_executed"]
        )
    assert {k for k, v in below.items() if all(v)} == {
        k for k in below if k[0] != "bpnn_adjust_weights_cuda"
    }
    assert not any(any(v) for k, v in below.items() if k[0] == "bpnn_adjust_weights_cuda")


def test_derive_refuses_issued_below_executed_or_not_positive():
    # review 1.5: issued counts every replay over the same cycles, so issued >= executed > 0
    row = workloads.nvprof_rows()[0]
    for issued in (0.0, -1.0, 0.5 * row["executed_ipc"], float("nan")):
        with pytest.raises(OutOfRangeError, match=r"row\['issued_ipc'\]"):
            workloads.derive({**row, "issued_ipc": issued})
    for executed in (0.0, -0.5):
        with pytest.raises(OutOfRangeError, match=r"row\['executed_ipc'\]"):
            workloads.derive({**row, "executed_ipc": executed})
    equal = workloads.derive({**row, "issued_ipc": row["executed_ipc"]})
    assert equal["inst_issued"] == pytest.approx(row["inst_executed"])


def test_the_schema_refuses_issued_below_executed_or_zero():
    rel = workloads.NVPROF_FILE
    text = (data_dir() / rel).read_text(encoding="utf-8")
    schemas.validate(rel, text)
    head, first, rest = text.split("\n", 2)
    cols = head.split(",")
    i_ex, i_is = cols.index("executed_ipc"), cols.index("issued_ipc")
    cells = first.split(",")
    assert (cells[i_ex], cells[i_is]) == ("0.619253", "1.403738")
    for executed, issued in (("0.619253", "0.5"), ("0", "1.403738"), ("0", "0")):
        bad = cells.copy()
        bad[i_ex], bad[i_is] = executed, issued
        with pytest.raises(DataError):
            schemas.validate(rel, "\n".join([head, ",".join(bad), rest]))


def test_every_count_column_has_provenance():
    # review 1.5: the provenance columns name each of the three counts
    for r in workloads.table(available=True):
        for text in (r["Z_provenance"], r["measured_provenance"]):
            for term in ("inst_executed", "inst_issued1", "issued_ipc / executed_ipc"):
                assert term in text, (r["kernel"], term)
        for col in ("Z_ipc_ratio", "cs_measured_ipc_ratio", "Z_issued1"):
            assert col.split("_", 1)[1] in r["Z_provenance"] + r["measured_provenance"]


def test_one_machine_check_for_both_functions():
    for call in (
        lambda m: workloads.saturation_threads(m, 1.0),
        lambda m: workloads.predictions(m, "GTX680"),
    ):
        with pytest.raises(InputTypeError, match="machine must be a gpumodels"):
            call("GTX690")


def test_first_launch_issued_count_by_hand():
    row = workloads.nvprof_rows()[0]
    assert (row["kernel"], row["gpu"]) == ("bpnn_adjust_weights_cuda", "GTX680")
    assert (row["executed_ipc"], row["issued_ipc"]) == (0.619253, 1.403738)
    assert workloads.derive(row)["inst_issued"] == pytest.approx(1703961 * 1.403738 / 0.619253)


def test_the_table_holds_the_median_of_each_count():
    launches = [r for r in workloads.nvprof_rows() if (r["kernel"], r["gpu"]) == ("kernel", "GTX680")]
    row = next(r for r in workloads.table("GTX680", available=True) if r["kernel"] == "kernel")
    d = [workloads.derive(r) for r in launches]
    for key in ("Z_ipc_ratio", "cs_measured_ipc_ratio"):
        assert row[key] == pytest.approx(statistics.median(x[key] for x in d), rel=1e-5)


def test_predictions_default_to_the_papers_issued_count():
    assert workloads.DEFAULT_COUNTER == "ipc_ratio" and workloads.DEFAULT_COUNTER in workloads.COUNTERS
    default = workloads.predictions(GK104, "GTX680")
    assert default == workloads.predictions(GK104, "GTX680", "ipc_ratio")
    assert default != workloads.predictions(GK104, "GTX680", "inst_executed")
    table = {r["kernel"]: r for r in workloads.table("GTX680", available=True)}
    for r in default:
        assert r["Z"] == table[r["kernel"]]["Z_ipc_ratio"]
        assert r["RCT"] == table[r["kernel"]]["cs_measured_ipc_ratio"]


@pytest.mark.parametrize(
    "counter, six, no_lud_diagonal",
    [("inst_executed", 0.681, 0.726), ("inst_issued1", 0.804, 0.824), ("ipc_ratio", 0.646, 0.694)],
)
def test_accuracy_per_count_is_pinned(counter, six, no_lud_diagonal):
    pred = workloads.predictions(GK104, "GTX680", counter)
    assert workloads.accuracy(pred) == pytest.approx(six, abs=6e-4)
    assert workloads.accuracy(pred, 400) == pytest.approx(no_lud_diagonal, abs=6e-4)


def test_the_papers_count_scores_lowest_and_undercounts_lift_the_ratios():
    acc = {c: workloads.accuracy(workloads.predictions(GK104, "GTX680", c)) for c in workloads.COUNTERS}
    assert min(acc, key=acc.get) == "ipc_ratio" and max(acc, key=acc.get) == "inst_issued1"
    issued = {r["kernel"]: r["ratio"] for r in workloads.predictions(GK104, "GTX680", "ipc_ratio")}
    single = {r["kernel"]: r["ratio"] for r in workloads.predictions(GK104, "GTX680", "inst_issued1")}
    # a smaller count lowers Z and RCT alike but the thread-bound PCT less: every ratio rises
    assert all(single[k] > issued[k] for k in issued)
    assert sum(v < 1 for v in issued.values()) == 5 and single["kernel"] > 1 > issued["kernel"]


def test_saturation_threads_formula_and_limits():
    Z = np.array([0.1, 1.0, 3.0, 30.0, 1000.0])
    m = C2075
    want = np.minimum(m.R, m.pi_height / Z) * (m.k_delta / m.R + Z * m.M / m.pi_height)
    assert np.allclose(workloads.saturation_threads(m, Z), want)
    # the thread bound ends exactly there
    for z in Z:
        n = float(workloads.saturation_threads(m, z))
        assert m.solve(0.99 * n, z).bound == "thread"
        assert m.solve(1.01 * n, z).bound != "thread"
    # never below min(k_delta, M), approached at both ends
    fine = np.geomspace(1e-4, 1e5, 400)
    for mach in (GK104, C2075):
        s = workloads.saturation_threads(mach, fine)
        assert s.min() >= min(mach.k_delta, mach.M) * (1 - 1e-9)
        assert s[0] == pytest.approx(mach.k_delta, rel=1e-3)
        assert s[-1] == pytest.approx(mach.M, rel=1e-3)
    with pytest.raises(InputTypeError, match="machine"):
        workloads.saturation_threads("GTX690", 1.0)
    with pytest.raises(ValueError, match="Z"):
        workloads.saturation_threads(GK104, 0.0)


def test_every_profiled_kernel_is_thread_bound_and_must_be_on_gk104():
    # the GK104's SP machine points put k_delta and M at the SM's thread limit: no n up
    # to that limit can leave the thread bound; the C2075's M is below its limit
    limit = GK104.max_threads_per_sm
    assert min(GK104.k_delta, GK104.M) >= limit
    assert min(C2075.k_delta, C2075.M) < C2075.max_threads_per_sm
    for counter in workloads.COUNTERS:
        pred = workloads.predictions(GK104, "GTX680", counter)
        assert len(pred) == 6
        for r in pred:
            assert r["bound"] == "thread" and r["n"] < r["n_saturation"]
    # measured, independent of the model: DRAM throughput per SM far below R
    assert all(r["ms_measured"] < 0.5 * GK104.R for r in workloads.table("GTX680", available=True))
    # a compute-heavy kernel on the C2075 would leave it below the thread limit
    assert C2075.solve(C2075.max_threads_per_sm, 100.0).bound == "computation"

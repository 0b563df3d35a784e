import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from gpumodels import occupancy, plotting  # noqa: E402
from gpumodels import hardware  # noqa: E402
from gpumodels.hong_kim import explorer as hong_kim_explorer  # noqa: E402
from gpumodels.prior import explorer as prior_explorer  # noqa: E402


def test_label_requires_units():
    fig, ax = plotting.figure()
    plotting.label(ax, "occupancy", "warps/SM", "throughput", "GB/s")
    assert ax.get_xlabel() == "occupancy (warps/SM)" and ax.get_ylabel() == "throughput (GB/s)"
    with pytest.raises(ValueError, match="yunit"):
        plotting.label(ax, "occupancy", "warps/SM", "throughput", "")


def test_encodings_model_measured_simulated_published():
    fig, ax = plotting.figure()
    (m,) = plotting.model(ax, [0, 1], [0, 1])
    (d,) = plotting.measured(ax, [0, 1], [0, 1])
    (s,) = plotting.simulated(ax, [0, 1], [0, 1])
    (p,) = plotting.published(ax, [0, 1], [0, 1])
    assert m.get_linestyle() == "-" and m.get_marker() in ("None", None, "")
    assert d.get_linestyle() == "None" and d.get_marker() == "o" and d.get_markerfacecolor() != "none"
    assert s.get_marker() == "o" and s.get_markerfacecolor() == "none"
    assert p.get_marker() == "D" and p.get_markerfacecolor() == "none"


def test_generation_colors():
    assert plotting.generation_color("Kepler") != plotting.generation_color("Maxwell")
    with pytest.raises(ValueError, match="generation must be one of"):
        plotting.generation_color("Blackwell")


def test_figure_rejects_bad_grid():
    with pytest.raises(ValueError, match="nrows"):
        plotting.figure(0, 1)


def test_widget_html_and_explorers():
    html = hardware.summary_html("Kepler")
    assert "GeForce GTX 680" in html and "Volkov 2016, Table 2.6" in html
    o = occupancy.occupancy("3.0", 128, 16, 3073)
    assert "14 blocks/SM" in occupancy.summary_html(o)
    box = occupancy.explorer("3.0")
    cc_w, tpb, regs, smem, out = box.children
    tpb.value = 128
    smem.value = 3073
    assert "14 blocks/SM" in out.value and "shared memory" in out.value
    tpb.value = 256                       # now 8 warps per block: the warp slots allow only 8 blocks
    assert "8 blocks/SM" in out.value
    cc_w.value = "1.0"
    assert tpb.max == 512
    g = hardware.explorer()
    g.children[0].value = "H100"
    assert "H100 SXM5" in g.children[1].value


def test_hong_kim_summary_and_explorer():
    h = hong_kim_explorer.summary_html("FX5600", 8, 40, 4, 0.0)
    assert "MWP_without_BW" in h and "Eq. (23)" in h and "2.28" in h
    pytest.importorskip("ipywidgets")
    box = hong_kim_explorer.explorer("GTX280")
    assert len(box.children) == 7


def test_timeline_draws_every_period():
    from gpumodels import hong_kim

    run = hong_kim.run_case(2)
    fig, ax = plotting.figure()
    plotting.timeline(ax, run.trace, {"comp": "C0", "mem": "C1"})
    assert len(ax.collections) == 2 * run.case.n
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "2", "3", "4"]
    with pytest.raises(ValueError, match="missing"):
        plotting.timeline(ax, run.trace, {"comp": "C0"})


def test_prior_summary_html_and_explorer():
    h = prior_explorer.summary_html(["sim2012", "huang2014_rr"], "Fermi", 32)
    assert "Sim et al. 2012" in h and "quotient range" in h and "24 occupancies" in h
    assert "flagged" in prior_explorer.summary_html(["huang2014_rr"], "Fermi", 1)
    pytest.importorskip("ipywidgets")
    box = prior_explorer.explorer("Kepler")
    models, pick, alpha = box.children[0].children[0], *box.children[0].children[1].children
    pick.value = "G80"
    alpha.value = 11
    models.value = ("baghsorkhi2010",)
    assert "Baghsorkhi" in box.children[1].value and "G80" in box.children[1].value

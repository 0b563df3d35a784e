import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from gpumodels import occupancy, plotting  # noqa: E402
from gpumodels import hardware  # noqa: E402
from gpumodels.papers.hong_kim import explorer as hong_kim_explorer  # noqa: E402
from gpumodels.comparisons.prior import explorer as prior_explorer  # noqa: E402


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


# ---- the book's figure style: resolution, text size, width, panels per row ----

import ast  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

import matplotlib as mpl  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def _points(size) -> float:
    """A matplotlib font size (number or name such as "small") in points, in the book's style."""
    plotting.use_style()
    return FontProperties(size=size).get_size_in_points()


def test_style_resolution_and_smallest_font():
    assert plotting.DPI >= 150 and plotting.MIN_FONT_PT == 8
    assert plotting.RC["figure.dpi"] == plotting.RC["savefig.dpi"] == plotting.DPI
    fig, ax = plotting.figure()
    assert mpl.rcParams["figure.dpi"] == plotting.DPI == fig.dpi      # the inline PNG's resolution
    sizes = {k: v for k, v in plotting.RC.items() if "size" in k and "figsize" not in k}
    assert sizes and min(_points(v) for v in sizes.values()) >= plotting.MIN_FONT_PT
    assert _points(mpl.rcParams["legend.fontsize"]) >= plotting.MIN_FONT_PT
    # a figure with every kind of text: title, labels, ticks, legend (with title), annotation
    plotting.model(ax, [0, 1], [0, 1], label="a line")
    plotting.label(ax, "x", "s", "y", "m", title="a title")
    ax.legend(title="legend")
    ax.annotate("note", (0.5, 0.5))
    fig.suptitle("suptitle")
    assert plotting.smallest_font(fig) >= plotting.MIN_FONT_PT
    ax.text(0, 0, "tiny", fontsize=6)
    assert plotting.smallest_font(fig) == 6                               # the check sees it


def test_figure_fits_the_column():
    """The widest figure is shown at >= MIN_SHOWN of its natural size in the book's column, where
    its smallest text is still >= 8 screen pixels tall; wider requests are capped."""
    natural_px = plotting.MAX_WIDTH * plotting.DPI
    assert plotting.COLUMN_PX / natural_px >= plotting.MIN_SHOWN
    assert plotting.MIN_FONT_PT / 72 * plotting.COLUMN_PX / plotting.MAX_WIDTH >= 8
    for kw in ({}, {"width": 6.0}, {"width": 15.0}):
        for cols in (1, 2, 3):
            fig, _ = plotting.figure(1, cols, **kw)
            w = fig.get_size_inches()[0]
            assert w <= plotting.MAX_WIDTH and (w == kw["width"] if kw.get("width", 99) <= 7 else True)
    assert plotting.figure(2, 3, width=15.0)[0].get_size_inches()[0] == plotting.MAX_WIDTH


def test_figure_refuses_more_than_three_panels_per_row():
    with pytest.raises(ValueError, match=r"ncols must be an integer in \[1, 3\] .*got 4"):
        plotting.figure(1, 4)
    with pytest.raises(ValueError, match="ncols"):
        plotting.figure(2, 5, width=6.0)
    fig, axes = plotting.figure(2, 3)
    assert axes.shape == (2, 3)


def test_style_cycle_separates_lines_in_greyscale():
    plotting.use_style()
    cycle = list(mpl.rcParams["axes.prop_cycle"])
    styles = [str(c["linestyle"]) for c in cycle]
    assert len(cycle) == len(plotting.PALETTE) and len(set(styles)) == len(styles)
    fig, ax = plotting.figure()
    a, b = (plotting.model(ax, [0, 1], [0, i])[0] for i in (1, 2))
    assert a.get_linestyle() != b.get_linestyle()
    c = plotting.model(ax, [0, 1], [0, 3], linestyle=":")[0]
    assert c.get_linestyle() == ":"


def test_label_categories_and_titles_without_figure_numbers():
    fig, ax = plotting.figure()
    plotting.label(ax, "GPU", plotting.CATEGORICAL, "balance", "FLOP/B")
    assert ax.get_xlabel() == "GPU" and ax.get_ylabel() == "balance (FLOP/B)"
    for bad in ("Fig. 4.5: the cusp", "Figs. 7-10 analogue", "figure 3, Kepler", "as in Fig 2"):
        with pytest.raises(ValueError, match="figure number"):
            plotting.label(ax, "x", "s", "y", "m", title=bad)
    plotting.label(ax, "x", "s", "y", "m", title="Kepler, configuration A (model)")


def test_merge_row_gives_one_wide_panel():
    fig, axes = plotting.figure(2, 3, squeeze=False)
    wide = plotting.merge_row(axes, 1)
    assert len(fig.axes) == 4 and wide.get_subplotspec().colspan == range(0, 3)
    with pytest.raises(ValueError, match="row"):
        plotting.merge_row(plotting.figure(2, 2)[1], 2)


# -- source scan: no small fonts, no figure numbers in titles, in the package and the notebooks --

#: Keyword arguments that set a font size, and calls that take one as their first argument.
FONT_KEYWORDS = {"fontsize", "labelsize", "title_fontsize", "titlesize"}
FONT_CALLS = {"set_fontsize", "set_size"}
#: Calls in which ``size=`` is a font size (elsewhere, e.g. in numpy, it is not).
SIZE_CALLS = {"text", "annotate", "set_title", "suptitle", "set_xlabel", "set_ylabel", "FontProperties"}
#: Calls whose first text argument, and keywords, that put text into a figure as a title or label.
TEXT_CALLS = {"set_title", "suptitle", "label_axes", "set_xlabel", "set_ylabel", "supxlabel",
              "supylabel"}
TEXT_KEYWORDS = {"title", "label", "xlabel", "ylabel"}


def _text_of(node) -> str | None:
    """The literal text of a string or f-string node (each f-string field as "0", so that
    f"Fig. {k}" reads as a figure number); None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "0" for v in node.values)
    if isinstance(node, ast.BinOp):                      # "a" + "b" or implicit concatenation
        left, right = _text_of(node.left), _text_of(node.right)
        return None if left is None or right is None else left + right
    return None


def _font_size_of(node) -> float | None:
    """A literal font size in points (numbers, or names such as "x-small"); None if not literal."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        return _points(value)
    except ValueError:                                   # a string that is not a size
        return None


def figure_style_problems(source: str) -> list[str]:
    """Font sizes below MIN_FONT_PT and figure numbers in titles or labels, in Python ``source``."""
    source = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                       for line in source.splitlines())
    problems = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        sizes = [k.value for k in node.keywords
                 if k.arg in FONT_KEYWORDS or (k.arg == "size" and name in SIZE_CALLS)]
        if name in FONT_CALLS and node.args:
            sizes.append(node.args[0])
        for s in sizes:
            pt = _font_size_of(s)
            if pt is not None and pt < plotting.MIN_FONT_PT:
                problems.append(f"line {node.lineno}: {name}(…{ast.unparse(s)}…) is {pt:g} pt")
        texts = [k.value for k in node.keywords if k.arg in TEXT_KEYWORDS]
        if name in TEXT_CALLS:
            texts += node.args[:2]
        for t in texts:
            text = _text_of(t)
            if text and plotting.FIGURE_NUMBER.search(text):
                problems.append(f"line {node.lineno}: {name}(…{text!r}…) carries a figure number")
    return problems


def _sources():
    for path in sorted((ROOT / "gpumodels").rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, c in enumerate(cells):
            if c["cell_type"] == "code":
                yield f"{path.relative_to(ROOT).as_posix()} cell {i}", "".join(c["source"])


def test_scan_finds_small_fonts_and_numbered_titles():
    """The scan itself: it must catch each kind of mistake, however the call is written."""
    bad = {
        'ax.legend(fontsize=7)': "7 pt",
        'ax.legend(\n    loc="best",\n    fontsize = 6.5,\n)': "6.5 pt",
        'ax.tick_params(labelsize=6)': "6 pt",
        'ax.text(0, 1, "n", size="xx-small")': "pt",
        'zoom.set_title("near", fontsize="x-small")': "pt",
        't.set_fontsize(5)': "5 pt",
        'ax.set_title("Fig. 4.5 (model): Maxwell")': "figure number",
        'plotting.label(ax, "x", "s", "y", "m", title=f"Fig. {k}: {name}")': "figure number",
        'tfig.label_axes(ax, "Figs. 7-10 analogue")': "figure number",
        'fig.suptitle("Figure 3, every GPU")': "figure number",
        'ax.plot(x, y, label="times add " "(Fig. 4.12)")': "figure number",
    }
    for src, what in bad.items():
        found = figure_style_problems(src)
        assert found and what in found[0], (src, found)
    good = ('ax.legend(fontsize=8)\nrng.normal(size=3)\nax.set_title(f"α = {a:g}", fontsize=fs)\n'
            'ax.text(0, 0, "Table 6.2", fontsize="medium")\nplotting.label(ax, "x", "s", "y", "m", '
            'title="Kepler (model)")\n%matplotlib inline\n')
    assert figure_style_problems(good) == []


def test_no_small_fonts_or_figure_numbers_in_titles():
    problems = [f"{where}: {p}" for where, src in _sources() for p in figure_style_problems(src)]
    assert not problems, "\n".join(problems)

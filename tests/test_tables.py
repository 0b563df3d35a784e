"""Tables for reading, the front page's scoreboard, and the explorers' static pictures."""

import base64
import re

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from gpumodels import hardware, occupancy, perfparams, published, scoreboard, tables  # noqa: E402
from gpumodels.papers.perez_piccoli import explorer as perez_explorer  # noqa: E402
from gpumodels.ground.errors import InputTypeError, UnknownNameError  # noqa: E402
from gpumodels.papers.huang_li import explorer as huang_li_explorer  # noqa: E402
from gpumodels.papers.volkov import explorer as volkov_explorer  # noqa: E402


@pytest.mark.parametrize("text, places", [
    ("384", 0), ("15.50", 2), ("0.0445", 4), (">8", 0), ("1e3", 0), ("about 1.5 times", 1), ("3.3x", 1),
    ("3 to 20%", 0), ("2,880", 0), (">30,000", 0), ("within about 10%", 0), ("1/6 IPC", None),
    ("1/12 IPC", None), ("nearly twice", None), ("about a thousand cycles", None)])
def test_decimals_of_a_printed_number(text, places):
    assert tables.decimals(text) == places


@pytest.mark.parametrize("x, places, signed, text", [
    (0.0, 3, True, "0"), (-0.0, 2, False, "0"), (1e-9, 2, True, "0.00"), (-1.23456, 2, False, "−1.23"),
    (0.126, 2, True, "+0.13"), (float("nan"), 1, False, "—"), (float("inf"), 0, True, "+∞"), (345.6, 0, False, "346")])
def test_number_never_prints_exponents_or_minus_zero(x, places, signed, text):
    assert tables.number(x, places, signed=signed) == text


@pytest.mark.parametrize("x, digits, places", [(0.1667, 3, 3), (1042.0, 3, 0), (-0.043, 2, 3), (0.0, 2, 0),
                                               (float("nan"), 3, 0)])
def test_significant_places(x, digits, places):
    assert tables.significant_places(x, digits) == places


def test_compact_shows_fractions_and_wording_at_significant_digits():
    board = scoreboard.table("v16.s3_2.add_ipc", "v16.s4_8.better_over_guide")
    f = published.compact(board).frame
    assert f.loc["v16.s3_2.add_ipc.1"].computed == "0.167"      # printed "1/6 IPC"
    assert f.loc["v16.s3_2.add_ipc.3"].computed == "0.500"      # printed "1/2 IPC", not "0"
    assert f.loc["v16.s4_8.better_over_guide.GTX680"].printed == "nearly twice"
    assert len(f.loc["v16.s4_8.better_over_guide.GTX680"].computed.replace(".", "")) == 3


def test_table_shows_whole_text_and_plain_text():
    long = "a description of a printed value that is much longer than pandas' fifty characters"
    t = tables.Table(pd.DataFrame({"what": [long], "value": ["1.5"]}), index=False)
    assert long in t._repr_html_() and "gm-table" in t._repr_html_()
    assert long in repr(t) and "dtype" not in repr(t) and len(t) == 1
    with pytest.raises(InputTypeError, match="frame must be a pandas.DataFrame"):
        tables.Table({"what": [long]})


def test_compact_puts_status_first_and_formats_at_printed_precision():
    board = scoreboard.table("v16.s4_6")
    t = published.compact(board)
    assert list(t.frame.columns) == list(published.COMPACT_COLUMNS)
    html = t._repr_html_()
    assert "e+0" not in html and "e-0" not in html
    row = t.frame.loc["v16.s4_6.mem_thru.generic"]
    assert (row.status, row.printed, row.computed, row.difference, row.tolerance) == (
        "reproduced", "0.25", "0.25", "0", "±0.005")
    with_note = published.compact(board, note=True, extra={"mine": ["x"] * len(board)})
    assert list(with_note.frame.columns) == ["status", "quantity (unit)", "printed", "computed", "note", "mine"]
    with pytest.raises(ValueError, match="one value per row"):
        published.compact(board, extra={"mine": ["x"]})


def test_front_page_table_sums_the_papers_and_links_chapters():
    board = scoreboard.table()
    md = scoreboard.front_page_markdown(board, {"Volkov 2016": "volkov_bounds"})
    lines = md.splitlines()
    c = scoreboard.counts(board)
    assert len(lines) == 2 + len(c) + 1
    assert "{doc}`Volkov 2016 <volkov_bounds>`" in md
    total = re.findall(r"\*\*(\d+)\*\*", lines[-1])
    scored = board[board.status != "input"]
    assert [int(x) for x in total] == [len(scored), int((board.status == "reproduced").sum()),
                                       int((board.status == "outside").sum()),
                                       int((board.status == "not derivable").sum()),
                                       int((board.status == "input").sum())]
    with pytest.raises(UnknownNameError, match="papers that the scoreboard does not"):
        scoreboard.front_page_markdown(board, {"Nobody 1999": "x"})


def test_plot_counts_draws_one_bar_per_paper_and_status():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    board = scoreboard.table()
    scoreboard.plot_counts(ax, board)
    assert len(ax.patches) == len(scoreboard.counts(board)) * len(published.STATUSES)
    assert sum(p.get_width() for p in ax.patches) == int((board.status != "input").sum())
    plt.close(fig)


@pytest.mark.parametrize("make, controls", [
    (lambda: occupancy.explorer("3.0"), 4), (hardware.explorer, 1), (perez_explorer.explorer, 1),
    (huang_li_explorer.explorer, 2), (volkov_explorer.explorer, 3)])
def test_explorer_carries_a_static_picture(make, controls):
    data = make()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data     # JupyterLab shows the widget
    html = data["text/html"]                                       # the HTML book shows this
    assert "interactive" in html.lower() and "explorer-static" in html
    assert html.count("<tr>") >= controls + 1
    assert data["text/plain"].startswith("Interactive explorer (") and "children=" not in data["text/plain"]


def test_plotting_explorer_picture_holds_its_figure_as_png():
    from html.parser import HTMLParser

    html = volkov_explorer.explorer("Kepler")._repr_mimebundle_()["text/html"]
    images = []

    class Images(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "img":
                images.append(dict(attrs))

    Images().feed(html)
    assert len(images) == 1 and set(images[0]) == {"alt", "style", "src"}     # well-formed attributes
    assert images[0]["src"].startswith("data:image/png;base64,")
    png = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", html).group(1))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Kepler" in html


def test_solutions_table_has_the_three_columns_and_escapes():
    from gpumodels import widgets

    html = widgets.solutions([("1", "α = 8", "a < b")])._repr_html_()
    assert [h for h in widgets.SOLUTION_HEADER if h in html] == list(widgets.SOLUTION_HEADER)
    assert "a &lt; b" in html and html.count("<tr>") == 2

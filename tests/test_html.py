"""The built book as a reader sees it, without a browser: the cheap half of ``make check-html``.

The rules live in ``tools/html_rules.py`` (shared with ``tools/check_html.py``). The first tests
apply them to every page of ``_build/html`` and are skipped where the book has not been built
(``make book``); ``BOOK_HTML=/path/to/html`` points them at another built tree. The tests after
them show each rule failing on a small bad example and passing on a good one.
"""

from __future__ import annotations

import html
import os
import struct
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import html_rules as rules  # noqa: E402

pytest.importorskip("bs4")

HTML = Path(os.environ.get("BOOK_HTML") or ROOT / "_build" / "html")
built = pytest.mark.skipif(not (HTML / "index.html").exists(),
                           reason=f"no built book in {HTML} (make book)")


def _problems_of_kind(*kinds: str) -> list[str]:
    out = []
    for rel in rules.pages_of(HTML):
        _, found = rules.page_problems((HTML / rel).read_text(encoding="utf-8"))
        out += [f"{rel}: {msg}" for kind, msg in found if kind in kinds]
    return out


def _report(problems: list[str], what: str) -> str:
    shown = "\n".join(problems[:40])
    more = f"\n… and {len(problems) - 40} more" if len(problems) > 40 else ""
    return f"{len(problems)} {what}:\n{shown}{more}"


# --- the built book -------------------------------------------------------------------------
@built
def test_built_pages_typeset_their_math():
    problems = _problems_of_kind("math")
    assert not problems, _report(problems, "pages with math that MathJax cannot typeset")


@built
def test_built_outputs_show_no_python_reprs():
    problems = _problems_of_kind("repr", "noise", "nbval")
    assert not problems, _report(problems, "Python reprs or nbval markers a reader sees")


@built
def test_built_code_lines_fit_the_column():
    problems = _problems_of_kind("code")
    assert not problems, _report(problems, f"code lines wider than the column ({rules.CODE_CHARS} "
                                           "characters)")


@built
def test_built_png_figures_are_sharp_and_fit_the_column():
    problems = []
    for png in sorted((HTML / "_images").glob("*.png")):
        width, _, dpi = rules.png_size_dpi(png.read_bytes())
        problems += [f"_images/{png.name}: {msg}" for msg in rules.png_file(width, dpi)]
    assert not problems, _report(problems, "PNG figures too coarse or too wide")


# --- each rule on small hand-made examples ----------------------------------------------------
def _page(article: str, head: str = "") -> str:
    return (f"<html><head>{head}</head><body><nav>menu</nav>"
            f"<article class='bd-article'>{article}</article></body></html>")


def _kinds(html: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for kind, msg in rules.page_problems(html)[1]:
        out.setdefault(kind, []).append(msg)
    return out


MATHJAX = "<script defer src='https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js'></script>"
MATH = "<p>A rate <span class='math notranslate nohighlight'>\\(x^2\\)</span> and</p>"


def _output(cls: str, text: str) -> str:
    return (f"<div class='cell_output docutils container'><div class='output {cls}'>"
            f"<div class='highlight'><pre><span></span>{html.escape(text)}</pre></div></div></div>")


def test_math_needs_a_mathjax_script():
    assert _kinds(_page(MATH))["math"] == ["1 math elements but no MathJax script"]
    assert "math" not in _kinds(_page(MATH, MATHJAX))
    assert rules.math_without_mathjax(0, 0) == []


@pytest.mark.parametrize("raw", ["$$x^2$$", "\\(a\\)", "\\[ b \\]", "\\begin{align} c \\end{align}",
                                 "a lone \\( opening"])
def test_raw_latex_in_prose_fails(raw):
    assert len(rules.raw_math(f"before {raw} after")) == 1
    assert "math" in _kinds(_page(f"<p>{raw}</p>", MATHJAX))


def test_latex_inside_math_or_code_and_plain_dollars_pass():
    assert rules.raw_math("costs $5 or $6 (in parentheses) [in brackets]") == []
    assert "math" not in _kinds(_page(MATH + "<pre>re.escape('\\(')</pre><code>$$</code>", MATHJAX))


def test_math_not_typeset_counts_the_missing():
    assert rules.math_not_typeset(3, 1) == ["2 of 3 math elements not typeset by MathJax"]
    assert rules.math_not_typeset(3, 3) == [] and rules.math_not_typeset(0, 0) == []


def test_a_plain_text_execute_result_is_a_repr():
    assert _kinds(_page(_output("text_plain", "550.0")))["repr"]
    assert "repr" not in _kinds(_page(_output("stream", "550 cycles\n")))


@pytest.mark.parametrize("bad", [
    "simulated  1400.0\ndtype: float64",
    "hk09.t2.mwp  28.57  0.000000e+00  0.005",
    "<gpumodels.engines.sim.Trace object at 0x7f3a2b1c>",
    "<IPython.core.display.Markdown object>",
    "<Figure size 640x480 with 1 Axes>",
    "VBox(children=(Dropdown(description='GPU', options=('G80',)),))",
    "latencies {'column': 352.0, 'row': 1008.0}",
    "times [1.  1.3 1.6 1.2]",
    "(4, 32, 0.5, 'registers')",
    "{16: 0, 15: None}",
])
def test_python_noise_in_outputs_fails(bad):
    assert rules.output_noise(bad)
    assert "noise" in _kinds(_page(_output("stream", bad)))


@pytest.mark.parametrize("good", [
    "largest |difference| over 35 cases: 0.000 %",
    "(one order of magnitude would be about 10 %)",
    "row bits 30-32, column bits 8-21",
    "a rate of 1.5e+00 per cycle, 0 misses",
    "latency (cycles): 352, 742 and 1008",
])
def test_readable_outputs_pass(good):
    assert rules.output_noise(good) == []
    assert "noise" not in _kinds(_page(_output("stream", good)))


def test_bare_literals_count_only_in_printed_lines():
    assert rules.output_noise("(1, 2)", plain=True)
    assert rules.output_noise("(1, 2)", plain=False) == []     # a table cell holding a pair


def test_nbval_markers_fail_in_code_but_not_as_documented_literals():
    code = "<div class='cell_input'><pre># NBVAL_IGNORE_OUTPUT\nexplorer()</pre></div>"
    assert _kinds(_page(code))["nbval"]
    doc = "<p>its cell starts with <code class='literal'># NBVAL_IGNORE_OUTPUT</code>.</p>"
    assert "nbval" not in _kinds(_page(doc))


def test_code_lines_longer_than_the_column_fail():
    long, short = "x" * (rules.CODE_CHARS + 1), "y" * rules.CODE_CHARS
    assert rules.long_code_lines(f"{short}\n{long}") == [
        f"code line of {len(long)} > {rules.CODE_CHARS} characters: {long[:50]}"]
    assert _kinds(_page(f"<pre>{long}</pre>"))["code"]
    assert "code" not in _kinds(_page(f"<pre>{short}\n{short}</pre>"))


def _png(width: int, height: int, dpi: float | None) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)         # 8-bit grey
    phys = chunk(b"pHYs", struct.pack(">IIB", round(dpi / 0.0254), round(dpi / 0.0254), 1)) if dpi else b""
    pixels = zlib.compress(b"".join(b"\0" + b"\xff" * width for _ in range(height)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + phys + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def test_png_size_and_dpi_read_from_the_file():
    w, h, dpi = rules.png_size_dpi(_png(30, 20, 150))
    assert (w, h) == (30, 20) and dpi == pytest.approx(150, abs=0.1)
    assert rules.png_size_dpi(_png(30, 20, None)) == (30, 20, None)
    with pytest.raises(ValueError):
        rules.png_size_dpi(b"GIF89a" + b"\0" * 30)


def test_png_files_too_coarse_or_too_wide_fail():
    assert rules.png_file(900, 150) == []
    assert rules.png_file(900, 100) == [f"100 dpi (< {rules.MIN_DPI})"]
    assert rules.png_file(900, None) == [f"no dpi (< {rules.MIN_DPI})"]
    wide = int(rules.COLUMN_PX / rules.MIN_SHOWN) + 1
    assert rules.png_file(wide, 150) and "column" in rules.png_file(wide, 150)[0]


def test_images_shrunk_or_with_small_text_fail():
    scale = rules.MIN_FONT_PT / 72
    assert rules.image_as_shown(900, 688, 150) == []                  # 77 %, text ~13 px
    shrunk = rules.image_as_shown(1500, 688, 150)                     # 46 %
    assert shrunk[0].startswith("shown at 46%")
    # text alone: a 100-dpi figure shown at 85 % has its 8-pt text at about 9.4 px, fine; at 65 %
    # it drops to about 7.2 px although the image itself is not "shrunk"
    assert rules.image_as_shown(1000, 850, 100) == []
    small = rules.image_as_shown(1000, 650, 100)
    assert len(small) == 1 and small[0].startswith("smallest text about 7.2 px")
    assert rules.text_px(100, 1000, 650) == pytest.approx(scale * 100 * 0.65)
    assert rules.image_as_shown(0, 0, None) == []                    # not loaded: reported elsewhere


def test_pages_of_skips_sphinx_folders_and_redirects(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "book").mkdir()
    (tmp_path / "_static" / "x.html").write_text("<html></html>")
    (tmp_path / "index.html").write_text('<meta http-equiv="Refresh" content="0; url=book/a.html" />')
    (tmp_path / "book" / "a.html").write_text("<html><body>a</body></html>")
    (tmp_path / "search.html").write_text("<html><body>s</body></html>")
    assert rules.pages_of(tmp_path) == ["book/a.html", "search.html"]


def test_long_code_lines_fail_except_wrapped_api_examples():
    line = "x = " + "1 + " * 30 + "1"
    assert _kinds(_page(f"<div class='cell_input'><pre>{line}</pre></div>"))["code"]
    api = f"<dl class='py function'><dt>f()</dt><dd><div class='highlight'><pre>{line}</pre></div></dd></dl>"
    assert "code" not in _kinds(_page(api))

"""The book's structure: TOC <-> files, notebooks committed executed, deterministic and path-free."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from toc_notebooks import toc_entries  # noqa: E402
import html_rules  # noqa: E402

NOTEBOOKS = sorted((ROOT / "book").rglob("*.ipynb"))


def test_toc_entries_exist_and_every_page_is_listed():
    entries = toc_entries()
    assert entries[0] == "book/intro"
    for e in entries:
        assert (ROOT / f"{e}.md").exists() or (ROOT / f"{e}.ipynb").exists(), e
    pages = {p.relative_to(ROOT).with_suffix("").as_posix() for p in (ROOT / "book").rglob("*")
             if p.suffix in (".md", ".ipynb") and ".ipynb_checkpoints" not in p.parts}
    assert pages == set(entries), "every page in book/ must be in _toc.yml and vice versa"


def test_toc_notebooks_script_lists_the_notebooks():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "toc_notebooks.py")], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout.split()
    assert sorted(out) == sorted(p.relative_to(ROOT).as_posix() for p in NOTEBOOKS)
    assert out


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_committed_executed_and_clean(nb):
    d = json.loads(nb.read_text())
    code = [c for c in d["cells"] if c["cell_type"] == "code"]
    assert code
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), "run all cells in order before committing"
    outputs = [{k: v for k, v in o.items() if k != "data"} | {"data": {m: d for m, d in o.get("data", {}).items()
                                                                      if not m.startswith("image/")}}
               for c in code for o in c.get("outputs", [])]
    text = json.dumps(outputs)              # base64 images can contain anything, e.g. "0x729ddf"
    assert not re.search(r"/(work|home|tmp|root)/", text), "absolute paths in outputs"
    assert not re.search(r"0x[0-9a-f]{6,}", text), "memory addresses in outputs"
    assert '"output_type": "error"' not in text
    assert all("execution" not in c.get("metadata", {}) for c in code), "no wall-clock timestamps in cell metadata"
    for c in code:
        src = "".join(c["source"])
        tags = c.get("metadata", {}).get("tags", [])
        assert "NBVAL" not in src, "nbval markers are cell tags (nbval-ignore-output), not comments a reader sees"
        if re.search(r"\bexplorer\(", src):
            assert "nbval-ignore-output" in tags, "widget cells must be tagged nbval-ignore-output"
            assert "remove-output" not in tags, "an explorer shows its static picture in the HTML"
        assert len(src.splitlines()) <= 40, "long cells belong in gpumodels"
        assert not re.search(r"^\s*(async\s+)?def \w+\(", src, re.M), "functions belong in gpumodels, not in a cell"
        assert not re.search(r"from gpumodels[\w.]*\._\w+ import|from gpumodels\S* import .*\b_[a-z]\w*|gpumodels[\w.]*\._[a-z]",
                             src), "notebooks use public gpumodels names only"


def output_problems(cell: dict) -> list[str]:
    """Raw Python reprs among a code cell's outputs: a result shown only as text/plain (a bare
    value; results are tables, figures or sentences), or text that ``tools/html_rules.py`` (the
    rules the built-HTML checks apply) finds noisy: a dtype line, a zero as 0.000000e+00, an
    object's address, IPython, widget or array reprs, a bare tuple or dict."""
    problems = []
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        if o["output_type"] in ("execute_result", "display_data") and set(data) <= {"text/plain"}:
            problems.append(f"a bare value shown as text: {''.join(data.get('text/plain', ''))[:60]!r}")
        if o["output_type"] == "stream":
            problems += html_rules.output_noise("".join(o.get("text", "")), plain=True)
        if "text/html" in data:
            problems += html_rules.output_noise("".join(data["text/html"]).split("base64,")[0], plain=False)
    return problems


def test_output_problems_catches_reprs():
    def cell(**out):
        return {"outputs": [out]}
    assert output_problems(cell(output_type="execute_result", data={"text/plain": "('memory', 184.62)"}))
    assert output_problems(cell(output_type="stream", text="a    1\nb    2\ndtype: int64\n"))
    assert output_problems(cell(output_type="stream", text="latencies {'column': 352.0}\n"
                                                            "{'full': -0.4}\n"))
    assert output_problems(cell(output_type="display_data", data={"text/html": "<td>0.000000e+00</td>",
                                                                  "text/plain": "x"}))
    assert not output_problems(cell(output_type="stream", text="B measured / theory: 80.9% to 81.4%\n"))
    assert not output_problems(cell(output_type="execute_result", data={"text/html": "<table/>",
                                                                        "text/plain": "x"}))


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_tables_figures_or_sentences(nb):
    d = json.loads(nb.read_text())
    found = [f"cell {i}: {p}" for i, c in enumerate(d["cells"]) if c["cell_type"] == "code"
             for p in output_problems(c)]
    assert not found, "; ".join(found)


def test_make_keeps_mplbackend_out_of_the_kernels():
    """With MPLBACKEND=Agg in the environment the kernels would draw no inline figures (nbval
    fails, the book has none); the Makefile must keep it out of every recipe."""
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text(encoding="utf-8")
    assert any(line.strip() == "unexport MPLBACKEND" for line in makefile.splitlines())


LINE_LIMIT = 88
"""The longest code line a chapter may hold: wider lines are cut off at the page's right edge."""


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_code_lines_fit_the_page(nb):
    d = json.loads(nb.read_text())
    long = [(i, line) for i, c in enumerate(d["cells"]) if c["cell_type"] == "code"
            for line in "".join(c["source"]).splitlines() if len(line) > LINE_LIMIT]
    assert not long, f"code lines over {LINE_LIMIT} characters (cell, line): {long[:3]}"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_printed_lines_fit_the_page(nb):
    """Printed output is preformatted text and does not wrap; longer results belong in a table."""
    d = json.loads(nb.read_text())
    long = [line for c in d["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
            if o["output_type"] == "stream" for line in "".join(o["text"]).splitlines() if len(line) > LINE_LIMIT]
    assert not long, f"printed lines over {LINE_LIMIT} characters: {long[:2]}"


def _figure_cells(d):
    for i, c in enumerate(d["cells"]):
        if c["cell_type"] == "code" and any("image/png" in o.get("data", {}) for o in c.get("outputs", [])):
            yield i, c


#: Figure cells of at most this many lines show their code (one call into the package).
SHORT_FIGURE_CELL = 3

#: A caption must say what kind of numbers it shows; one of these words does.
KINDS = re.compile(r"model|simulat|measured|printed|specification|constructed|fit", re.I)


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_is_a_captioned_numbered_figure(nb):
    """Each figure cell shows exactly one output, the image, and carries a caption and a name
    in its ``mystnb.figure`` metadata (MyST-NB wraps it in a numbered figure)."""
    d = json.loads(nb.read_text())
    for i, c in _figure_cells(d):
        shown = [o for o in c["outputs"] if o["output_type"] in ("display_data", "execute_result")]
        assert len(shown) == 1, f"cell {i}: a figure cell shows only its figure (split tables off)"
        fig = c["metadata"].get("mystnb", {}).get("figure", {})
        assert fig.get("name", "").startswith("fig-"), f"cell {i}: figure without a name"
        assert len(fig.get("caption", "")) > 40, f"cell {i}: figure without a caption"
        assert KINDS.search(fig["caption"]), f"cell {i}: caption does not say model, simulated or measured"
        lines = [x for x in "".join(c["source"]).splitlines() if x.strip()]
        hidden = "hide-input" in c["metadata"].get("tags", [])
        # a cell of a few lines is the call into gpumodels that makes the figure: it stays in view;
        # longer drawing code is collapsed behind a toggle
        assert hidden == (len(lines) > SHORT_FIGURE_CELL), f"cell {i}: hide-input on long figure cells only"


def test_figure_names_are_unique_and_referenced_ones_exist():
    names = [c["metadata"]["mystnb"]["figure"]["name"] for nb in NOTEBOOKS
             for _, c in _figure_cells(json.loads(nb.read_text()))]
    assert len(names) == len(set(names))
    text = "".join(p.read_text(encoding="utf-8") for p in NOTEBOOKS + sorted((ROOT / "book").glob("*.md")))
    refs = set(re.findall(r"\{numref\}`(fig-[\w-]+)`", text))
    assert refs and refs <= set(names)


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_every_chapter_ends_with_try_it(nb):
    d = json.loads(nb.read_text())
    # the Try it section, then its collapsed solutions (tests/test_tryit.py checks that cell)
    try_it, solutions = d["cells"][-2:]
    assert try_it["cell_type"] == "markdown" and "".join(try_it["source"]).startswith("## Try it")
    assert solutions["cell_type"] == "code" and "solution" in solutions["metadata"].get("tags", [])


BULK_TABLES = {"gpuperfpredict", "gpu_roofline"}
"""Folders of launch-by-launch measurements (about 110,000 distinct counter values): no
chapter types one of them, and chance matches with a chapter's own numbers would be
noise."""


def _data_numbers() -> set[float]:
    import csv

    out = set()
    for f in (ROOT / "data").rglob("*.csv"):
        if f.parent.name in BULK_TABLES:
            continue
        with open(f, encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                for x in row:
                    try:
                        v = float(x)
                    except ValueError:
                        continue
                    if np.isfinite(v):
                        out.add(v)
    return out


def distinctive(v: float) -> bool:
    """A number worth catching when retyped: an integer from 100 up that is neither a power of two
    nor a round hundred, or a fraction with at least three significant digits. Smaller or rounder
    numbers (axis limits, grid sizes, 0.9 of a peak) are everywhere and prove nothing."""
    v = abs(float(v))
    if v == int(v):
        n = int(v)
        return n >= 100 and n & (n - 1) != 0 and n % 100 != 0
    return len(f"{v:.12g}".replace(".", "").lstrip("0")) >= 3


#: Calls whose numeric arguments lay out a figure or a grid, not a result.
LAYOUT_CALLS = {"figure", "linspace", "geomspace", "arange", "set_xlim", "set_ylim", "option_context", "inset_axes"}


def _typed_numbers(src: str):
    import ast

    tree = ast.parse(src)
    parents = {ch: node for node in ast.walk(tree) for ch in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and type(node.value) in (int, float)):
            continue
        p, layout = parents.get(node), False
        while p is not None and not layout:
            layout = isinstance(p, ast.keyword) or (
                isinstance(p, ast.Call) and getattr(p.func, "attr", getattr(p.func, "id", "")) in LAYOUT_CALLS)
            p = parents.get(p)
        if not layout:
            yield node.value


def test_distinctive_numbers_of_data_are_not_retyped_in_notebooks():
    """A notebook cell reads a number that ``data/`` holds through the package; it does not retype it."""
    held = _data_numbers()
    found = [(nb.name, v) for nb in NOTEBOOKS for c in json.loads(nb.read_text())["cells"]
             if c["cell_type"] == "code" for v in _typed_numbers("".join(c["source"]))
             if distinctive(v) and float(v) in held]
    assert not found, f"numbers data/ holds, typed in a notebook: {found}"


def test_retyped_number_check_catches_the_issue_examples():
    held = _data_numbers()
    assert 448 in held and distinctive(448) and distinctive(0.335) and not distinctive(0.9)
    assert sorted(_typed_numbers("x = 1 / max(448 - 4 * n, 37)")) == [1, 4, 37, 448]
    assert list(_typed_numbers("fig = plotting.figure(width=10.5)\nax.set_ylim(250, 1100)")) == []


def test_kernels_keep_the_build_log_quiet():
    """The Makefile points the kernels at a profile that silences ipykernel's start-up warning."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "export IPYTHONDIR := $(CURDIR)/_build/ipython" in makefile
    assert """echo 'c.IPKernelApp.log_level = "CRITICAL"' > $@""" in makefile
    for target in ("book", "test", "notebooks"):
        assert re.search(rf"^{target}: .*\$\(KERNEL_CONFIG\)", makefile, re.M), target


def test_api_pages_link_functions_to_their_chapters():
    """tools/used_in.py resolves the names chapter cells use to package objects."""
    from used_in import usage

    from gpumodels import prior, volkov
    from gpumodels.papers.transit import figures as transit_figure
    from gpumodels.papers.volkov import figures

    used = usage()
    assert {"book/volkov_cusp", "book/modern_gpus"} <= used[id(volkov.needed_occupancy)]
    assert used[id(prior.plot_pair)] == {"book/volkov_prior_models"}
    assert "book/transit_model" in used[id(transit_figure.demand_and_supply)]
    assert "book/volkov_bounds" in used[id(figures.littles_law_examples)]


def test_page_fixes_keep_one_copy_of_each_inline_script():
    from page_fixes import _dedupe_scripts
    from sphinx.builders.html._assets import _JavaScript

    ctx = {"script_files": [_JavaScript(None, body="const A = 1"), _JavaScript("a.js"),
                            _JavaScript("", body="const A = 1"), _JavaScript("a.js"), _JavaScript("", body="B")]}
    scripts = ctx["script_files"]
    _dedupe_scripts(None, "p", "page.html", ctx, None)
    # the same list, edited in place: Sphinx adds MathJax to it after this handler (priority 500);
    # a new list would lose that, and no page would typeset its math
    assert ctx["script_files"] is scripts
    assert [(s.filename or "", s.attributes) for s in ctx["script_files"]] == [
        ("", {"body": "const A = 1"}), ("a.js", {}), ("", {"body": "B"})]

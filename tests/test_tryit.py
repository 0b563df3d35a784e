"""Every chapter's "Try it" has a solution the reader can reveal, computed by the package.

The last "## Try it" markdown cell of each notebook in the TOC is followed by exactly one code cell:
tagged ``hide-cell`` and ``solution``, with the prompts MyST-NB shows on its toggle, and calling
the package (a name imported from ``gpumodels``, beyond the table helper of ``gpumodels.ground.widgets``)
so that the answers are computed when the book is built, not typed.
"""

import ast
import json
import sys
from pathlib import Path

import pytest

import gpumodels

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from toc_notebooks import toc_notebooks  # noqa: E402

TAGS = {"hide-cell", "solution"}
PROMPTS = {
    "code_prompt_show": "Show the solutions (computed when the book is built)",
    "code_prompt_hide": "Hide the solutions",
}
#: Modules whose calls do not compute an answer (they lay out the table).
NOT_AN_ANSWER = {"gpumodels.ground.widgets"}
SHORT = {f"gpumodels.{k}": v for k, v in gpumodels.SHORT_NAMES.items()}


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _gpumodels_names(cells) -> dict[str, str]:
    """Names the code cells bind to ``gpumodels`` objects, mapped to their dotted origin."""
    names = {}
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        try:
            tree = ast.parse(_source(cell))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "gpumodels":
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    # a short name (from gpumodels import widgets) stands for its module
                    names[a.asname or a.name] = SHORT.get(full, full)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "gpumodels":
                        names[a.asname or a.name.split(".")[0]] = a.name if a.asname else "gpumodels"
    return names


def _root(func) -> str | None:
    while isinstance(func, (ast.Attribute, ast.Call, ast.Subscript)):
        func = func.value if not isinstance(func, ast.Call) else func.func
    return func.id if isinstance(func, ast.Name) else None


def _answer_calls(src: str, names: dict[str, str]) -> list[str]:
    """The calls in ``src`` into ``gpumodels`` that can compute an answer (not the table helper)."""
    calls = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call):
            origin = names.get(_root(node.func) or "")
            if origin and not any(origin == m or origin.startswith(m + ".") for m in NOT_AN_ANSWER):
                calls.append(ast.unparse(node.func))
    return calls


def solution_problems(nb: dict) -> list[str]:
    """What is wrong with ``nb``'s "Try it" solution (an empty list when nothing is)."""
    cells = nb.get("cells", [])
    tries = [i for i, c in enumerate(cells)
             if c.get("cell_type") == "markdown" and _source(c).startswith("## Try it")]
    if not tries:
        return ["no '## Try it' markdown cell"]
    after = cells[tries[-1] + 1:]
    if len(after) != 1 or after[0].get("cell_type") != "code":
        return [f"the last '## Try it' cell must be followed by exactly one code cell, "
                f"found {[c.get('cell_type') for c in after]}"]
    cell, problems = after[0], []
    meta = cell.get("metadata", {})
    if not TAGS <= set(meta.get("tags", [])):
        problems.append(f"the solution cell needs the tags {sorted(TAGS)}, has {meta.get('tags', [])}")
    mystnb = meta.get("mystnb", {})
    for key, text in PROMPTS.items():
        if mystnb.get(key) != text:
            problems.append(f"mystnb.{key} must be {text!r}, is {mystnb.get(key)!r}")
    try:
        calls = _answer_calls(_source(cell), _gpumodels_names(cells))
    except SyntaxError as e:
        return problems + [f"the solution cell does not parse: {e}"]
    if not calls:
        problems.append("the solution cell calls nothing from gpumodels: its answers must be computed")
    if cell.get("execution_count") is not None:
        shown = [o for o in cell.get("outputs", []) if o.get("output_type") in ("display_data", "execute_result")]
        streams = [o for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
        if len(shown) != 1 or "<table" not in "".join(shown[0].get("data", {}).get("text/html", "")) or streams:
            problems.append("the executed solution cell must show one HTML table and print nothing")
    return problems


@pytest.mark.parametrize("nb", toc_notebooks(), ids=lambda p: Path(p).name)
def test_every_try_it_has_a_computed_solution(nb):
    assert solution_problems(json.loads((ROOT / nb).read_text(encoding="utf-8"))) == []


def _nb(*cells):
    return {"cells": list(cells)}


def _md(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(text, tags=("hide-cell", "solution"), prompts=PROMPTS, outputs=None, count=None):
    return {"cell_type": "code", "metadata": {"tags": list(tags), "mystnb": dict(prompts)},
            "source": text, "outputs": outputs or [], "execution_count": count}


IMPORTS = _code("from gpumodels import hardware, widgets\nfrom gpumodels.comparisons import modern as m", tags=())
GOOD = "from IPython.display import HTML\nrows = [('1', 'x', f'{hardware.get_gpu(\"H100\").sm_count}')]\n" \
       "HTML(widgets.table_html(rows, ('try', 'change', 'what you see')))"
TABLE = {"output_type": "display_data", "metadata": {},
         "data": {"text/html": "<table></table>", "text/plain": "<IPython.core.display.HTML object>"}}


def test_solution_check_accepts_a_good_notebook():
    assert solution_problems(_nb(IMPORTS, _md("## Try it\n\n1. x"), _code(GOOD))) == []
    executed = _code(GOOD, outputs=[TABLE], count=2)
    assert solution_problems(_nb(IMPORTS, _md("## Try it\n\n1. x"), executed)) == []
    # a name imported in the solution cell itself, or a module alias, counts too
    assert solution_problems(_nb(_md("## Try it"), _code("import gpumodels.facts.occupancy as occ\nocc.limits('8.0')"))) == []
    assert solution_problems(_nb(IMPORTS, _md("## Try it"), _code("m.needed_band('sim2012', 'GH200')"))) == []


@pytest.mark.parametrize("bad, why", [
    (_nb(IMPORTS, _md("## Explore")), "no '## Try it'"),
    (_nb(IMPORTS, _md("## Try it")), "exactly one code cell"),
    (_nb(IMPORTS, _md("## Try it"), _code(GOOD), _code(GOOD)), "exactly one code cell"),
    (_nb(IMPORTS, _md("## Try it"), _md("text"), _code(GOOD)), "exactly one code cell"),
    (_nb(IMPORTS, _md("## Try it"), _code(GOOD, tags=("hide-input",))), "tags"),
    (_nb(IMPORTS, _md("## Try it"), _code(GOOD, tags=("solution",))), "tags"),
    (_nb(IMPORTS, _md("## Try it"), _code(GOOD, prompts={})), "code_prompt_show"),
    (_nb(IMPORTS, _md("## Try it"), _code(GOOD, prompts={**PROMPTS, "code_prompt_hide": "Hide"})),
     "code_prompt_hide"),
    # typed answers: no call into the package, or only the table helper
    (_nb(IMPORTS, _md("## Try it"), _code("rows = [('1', 'x', '132 SMs')]\nprint(rows)")), "calls nothing"),
    (_nb(IMPORTS, _md("## Try it"), _code("widgets.table_html([('1', 'x', '132')], ('a', 'b', 'c'))")),
     "calls nothing"),
    (_nb(_md("## Try it"), _code("hardware.get_gpu('H100')")), "calls nothing"),   # not imported
    (_nb(IMPORTS, _md("## Try it"), _code("hardware.get_gpu(")), "does not parse"),
    # executed, but showing a raw repr or printing
    (_nb(IMPORTS, _md("## Try it"), _code(GOOD, count=2, outputs=[
        {"output_type": "execute_result", "metadata": {}, "data": {"text/plain": "(1, 2)"}}])), "one HTML table"),
    (_nb(IMPORTS, _md("## Try it"), _code(GOOD, count=2, outputs=[
        TABLE, {"output_type": "stream", "name": "stdout", "text": "{'a': 1}\n"}])), "one HTML table"),
])
def test_solution_check_rejects_bad_notebooks(bad, why):
    problems = solution_problems(bad)
    assert problems and any(why in p for p in problems), problems

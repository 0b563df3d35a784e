"""The book's structure: TOC <-> files, notebooks committed executed, deterministic and path-free."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from toc_notebooks import toc_entries  # noqa: E402

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
        if "widgets." in src and "explorer(" in src:
            assert src.startswith("# NBVAL_IGNORE_OUTPUT"), "widget cells must be marked NBVAL_IGNORE_OUTPUT"
        assert len(src.splitlines()) <= 40, "long cells belong in gpumodels"
        assert not re.search(r"^\s*(async\s+)?def \w+\(", src, re.M), "functions belong in gpumodels, not in a cell"
        assert not re.search(r"from gpumodels[\w.]*\._\w+ import|from gpumodels\S* import .*\b_[a-z]\w*|gpumodels[\w.]*\._[a-z]",
                             src), "notebooks use public gpumodels names only"


def test_make_keeps_mplbackend_out_of_the_kernels():
    """With MPLBACKEND=Agg in the environment the kernels would draw no inline figures (nbval
    fails, the book has none); the Makefile must keep it out of every recipe."""
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text(encoding="utf-8")
    assert any(line.strip() == "unexport MPLBACKEND" for line in makefile.splitlines())

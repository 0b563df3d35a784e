"""The package's architecture, pinned: layers that import only downward, no cycles, no hidden
imports inside functions, a paper registered by its subpackage alone, and ruff's checks.

The layers and contracts are declared in pyproject.toml (``[tool.importlinter]``) and drawn in
the book's appendix *Architecture* (book/architecture.md).
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

from gpumodels import scoreboard

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "gpumodels"
BIN = Path(sys.executable).parent
LAYERS = ("ground", "facts", "engines", "papers", "comparisons", "scoreboard")


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture
def package_copy(tmp_path) -> Path:
    """A folder holding a copy of the package, to add a bad import to."""
    shutil.copytree(
        PKG, tmp_path / "gpumodels", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """import-linter's contracts from ``root/pyproject.toml`` on the package under ``root``."""
    return subprocess.run(
        [
            str(BIN / "lint-imports"),
            "--config",
            str(root / "pyproject.toml"),
            "--no-cache",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(root), "PATH": str(BIN), "HOME": str(root)},
    )


def test_the_declared_layers_are_the_folders():
    contracts = {c["id"]: c for c in _config()["tool"]["importlinter"]["contracts"]}
    assert tuple(reversed(contracts["layers"]["layers"])) == LAYERS
    folders = {
        p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    # __main__ is the command line (`python -m gpumodels predict`), above every layer
    modules = {p.stem for p in PKG.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert folders | modules == set(LAYERS)
    main = (PKG / "__main__.py").read_text(encoding="utf-8")
    assert re.findall(r"^from (gpumodels\S*) import", main, re.M) == [
        "gpumodels.comparisons.silicon"
    ]


def test_import_contracts_are_kept():
    res = lint_imports(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "3 kept, 0 broken" in res.stdout


@pytest.mark.parametrize(
    "module, line, broken",
    [
        # facts reaching up to a paper
        (
            "facts/hardware.py",
            "from gpumodels.papers.volkov import synthetic",
            "Layers",
        ),
        # ground reaching up, inside a function (import-linter sees those too)
        ("ground/tables.py", "def _up():\n    import gpumodels.scoreboard", "Layers"),
        # a paper importing another paper
        ("papers/transit/model.py", "from gpumodels.papers import volkov", "paper"),
        # the Huang & Li model importing the simulator that is its ground truth
        (
            "papers/huang_li/model.py",
            "from gpumodels.engines.refsim import simulator",
            "truth",
        ),
    ],
)
def test_an_upward_import_breaks_a_contract(package_copy, module, line, broken):
    shutil.copy(ROOT / "pyproject.toml", package_copy / "pyproject.toml")
    path = package_copy / "gpumodels" / module
    path.write_text(
        path.read_text(encoding="utf-8") + "\n\n" + line + "\n", encoding="utf-8"
    )
    res = lint_imports(package_copy)
    assert res.returncode != 0, res.stdout
    assert "BROKEN" in res.stdout and broken in res.stdout.split("Broken contracts")[-1]


def test_no_import_cycles_counting_imports_inside_functions():
    graph = grimp.build_graph("gpumodels")  # grimp reads every import statement
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    assert cycles == []


def _imports_gpumodels(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "gpumodels" for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "gpumodels"
    if isinstance(node, ast.Call):  # importlib.import_module("gpumodels...")
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        return name in ("import_module", "__import__")
    return False


def function_level_imports() -> list[tuple[str, int, str]]:
    """(file, line, source line) of each import of gpumodels inside a function."""
    found = []
    for path in sorted(PKG.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for fn in ast.walk(ast.parse(text)):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if node is not fn and _imports_gpumodels(node):
                        rel = path.relative_to(ROOT).as_posix()
                        found.append((rel, node.lineno, lines[node.lineno - 1]))
    return found


def _says_why(line: str) -> bool:
    """A comment on the line that is more than a linter directive."""
    if "#" not in line:
        return False
    comment = line.split("#", 1)[1].strip()
    return bool(comment) and not comment.startswith(("noqa", "type:", "pragma"))


def test_no_module_imports_gpumodels_inside_a_function_without_saying_why():
    found = function_level_imports()
    unexplained = [f"{f}:{n}: {s.strip()}" for f, n, s in found if not _says_why(s)]
    assert unexplained == []
    # the ones that are explained: the short names of the root and the scoreboard's registration
    assert {f for f, _, _ in found} <= {
        "gpumodels/__init__.py",
        "gpumodels/scoreboard.py",
    }


def test_the_scan_sees_a_function_level_import():
    tree = ast.parse("def f():\n    from gpumodels.facts import hardware\n")
    assert any(
        _imports_gpumodels(n) for n in ast.walk(tree.body[0]) if n is not tree.body[0]
    )


def short_name_imports(pkg: Path = PKG) -> list[str]:
    """Imports of the root's short names (``from gpumodels import volkov``) inside the
    package at ``pkg``, as ``file:line`` relative to its folder's parent.

    The root loads them by a string (PEP 562), so import-linter sees an import of
    ``gpumodels`` alone, which belongs to no layer: an upward import written that way
    would pass the contracts. Inside the package every import names its module.
    """
    real = {p.stem for p in pkg.glob("*.py")} | {
        p.name for p in pkg.iterdir() if p.is_dir()
    }
    bad = []
    for path in sorted(pkg.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            root_from = isinstance(node, ast.ImportFrom) and node.module == "gpumodels"
            root_import = isinstance(node, ast.Import) and any(
                a.name == "gpumodels" for a in node.names
            )
            names = {a.name for a in node.names} if root_from else set()
            if names - real - {"__version__"} or root_import:
                bad.append(f"{path.relative_to(pkg.parent).as_posix()}:{node.lineno}")
    return bad


def test_the_package_never_imports_through_the_short_names():
    assert short_name_imports() == []


def test_a_short_name_import_is_caught(package_copy):
    """The case import-linter cannot see, added to a copy of the package, is caught here."""
    path = package_copy / "gpumodels" / "facts" / "hardware.py"
    path.write_text(
        path.read_text(encoding="utf-8") + "\nfrom gpumodels import volkov\n"
    )
    last = len(path.read_text(encoding="utf-8").splitlines())
    assert short_name_imports(package_copy / "gpumodels") == [
        f"gpumodels/facts/hardware.py:{last}"
    ]


def test_every_paper_is_found_by_registration():
    found = {m.__name__.rsplit(".", 1)[-1] for m in scoreboard.paper_packages()}
    on_disk = {
        p.name for p in (PKG / "papers").iterdir() if (p / "__init__.py").exists()
    }
    assert found == on_disk
    printed = {m.__name__ for m in scoreboard.printed_modules()}
    files = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in PKG.rglob("printed.py")
    }
    assert printed == files
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    for m in scoreboard.paper_packages():
        assert f"file: book/{m.CHAPTER}\n" in toc, m.__name__
    parts = [m.PART for m in scoreboard.paper_packages()]
    assert len(set(parts)) == len(parts), "two papers claim the same PART"


def test_the_paper_order_is_the_book_order():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    first = [toc.index(f"file: book/{c}\n") for c in scoreboard.CHAPTERS.values()]
    assert first == sorted(first)


def test_ruff_passes_on_the_package_and_the_tools():
    lint = _config()["tool"]["ruff"]
    assert lint["line-length"] == 88
    assert {"E501", "C901"} <= set(lint["lint"]["extend-select"])
    assert lint["lint"]["mccabe"]["max-complexity"] == 15
    res = subprocess.run(
        [str(BIN / "ruff"), "check", "--no-cache", "gpumodels", "tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0, res.stdout[-3000:]

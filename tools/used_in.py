"""Sphinx extension: end each documented gpumodels function or class with the chapters
that use it.

At build start it reads the code cells of every chapter notebook, resolves each name a
cell reaches through its ``gpumodels`` imports (``volkov.needed_occupancy``,
``hk.sync_delta``, ``from gpumodels.papers.transit.model import closed_network_supply``)
to the Python object, and records the chapter. autodoc then appends "Used in" with links
to those chapters to the docstring of that object, whatever name the API page documents
it under.
"""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Local name -> dotted gpumodels path, from the import statements of a cell."""
    out = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[0] == "gpumodels"
        ):
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "gpumodels":
                    out[a.asname or a.name.split(".")[0]] = (
                        a.name if a.asname else a.name.split(".")[0]
                    )
    return out


def _chains(tree: ast.AST):
    """Every dotted name ``a.b.c`` (and bare name ``a``) a cell reads."""
    for node in ast.walk(tree):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            yield [node.id, *reversed(parts)]


def _resolve(path: str):
    """The object at a dotted gpumodels path, or None."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for p in parts[i:]:
                obj = getattr(obj, p)
        except AttributeError:
            return None
        return obj
    return None


def usage(book: Path = ROOT / "book") -> dict[int, set[str]]:
    """``id(object)`` -> docnames of the chapters whose code cells use it."""
    used: dict[int, set[str]] = {}
    for nb in sorted(book.glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        source = "\n".join(
            "".join(c["source"]) for c in cells if c["cell_type"] == "code"
        )
        tree = ast.parse(
            "\n".join(line for line in source.splitlines() if not line.startswith("%"))
        )
        alias = _aliases(tree)
        doc = f"book/{nb.stem}"
        for chain in _chains(tree):
            if chain[0] not in alias:
                continue
            for k in range(len(chain), 0, -1):
                obj = _resolve(".".join([alias[chain[0]], *chain[1:k]]))
                if obj is not None:
                    if callable(obj):
                        used.setdefault(id(obj), set()).add(doc)
                    break
    return used


_USED: dict[int, set[str]] = {}


def _append(app, what, name, obj, options, lines):
    if what not in ("function", "class", "method"):
        return
    docs = _USED.get(id(obj))
    if docs:
        links = ", ".join(f":doc:`/{d}`" for d in sorted(docs))
        lines.extend(["", f"*Used in:* {links}."])


def _collect(app):
    _USED.clear()
    _USED.update(usage())


def setup(app):
    app.connect("builder-inited", _collect)
    app.connect("autodoc-process-docstring", _append, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

"""Package conventions (issue 22): one definition per constant, no private helper shared across
subpackages."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "gpumodels"
# private helper modules of a package: argument and field checks, and the compiled core of
# engines.sim (the numba half of one module, kept apart so that sim.py stays readable)
SHARED_PRIVATE = {"_data", "_validate", "_checks", "_fields", "_sim_core"}


def _modules():
    for path in sorted(PKG.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_warp_size_is_defined_once():
    defs = [p.relative_to(PKG).as_posix() for p, tree in _modules() for node in tree.body
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "WARP_SIZE" for t in node.targets)]
    assert defs == ["facts/occupancy.py"]


def test_no_private_name_is_imported_from_another_module():
    bad = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").startswith("gpumodels")):
                mod = (node.module or "").split(".")[-1]
                bad += [f"{path.relative_to(PKG)}: {a.name} from {node.module}" for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__") and mod not in SHARED_PRIVATE
                        and a.name not in SHARED_PRIVATE]
    assert bad == []


def test_no_private_attribute_of_another_module_is_used():
    bad = []
    for path, tree in _modules():
        aliases = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   for a in node.names}
        aliases |= {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.value.id not in ("np", "self", "cls", "os", "sys", "math", "pa", "pd", "mpl", "plt")):
                bad.append(f"{path.relative_to(PKG)}:{node.lineno}: {node.value.id}.{node.attr}")
    assert bad == []

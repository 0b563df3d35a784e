"""The package builds as a wheel that carries every subpackage and the data tables, and the wheel
works when installed into a fresh virtual environment outside the source tree."""

import ast
import re
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "gpumodels"

# import name -> distribution declared in pyproject.toml
DISTRIBUTIONS = {"numpy": "numpy", "scipy": "scipy", "pandas": "pandas", "matplotlib": "matplotlib",
                 "numba": "numba", "pandera": "pandera", "ipywidgets": "ipywidgets",
                 "yaml": "pyyaml"}

SMOKE = """
import sys
import gpumodels
from gpumodels import hardware, volkov
from gpumodels.ground.data import data_dir
p = volkov.params("Kepler")
g = hardware.get_gpu("H100")
print(gpumodels.__file__)
print(data_dir())
print(round(volkov.memory_throughput(p, 8, 1), 6), g.sm_count)
"""


def _third_party_imports():
    std = set(sys.stdlib_module_names)
    found = set()
    for path in PKG.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            found |= {n.split(".")[0] for n in names if n.split(".")[0] not in std | {"gpumodels"}}
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(ROOT)], check=True, capture_output=True)
    (whl,) = out.glob("gpumodels-*.whl")
    return whl


def test_wheel_holds_every_subpackage_and_table(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for init in PKG.rglob("__init__.py"):
        assert init.relative_to(ROOT).as_posix() in names
    modules = {p.relative_to(ROOT).as_posix() for p in PKG.rglob("*.py")}
    assert modules <= names
    # and nothing else: no module left over from an old layout (a stale build/ directory)
    assert {n for n in names if n.endswith(".py")} == modules
    tables = {"gpumodels/data/" + p.relative_to(ROOT / "data").as_posix() for p in (ROOT / "data").rglob("*.csv")}
    assert tables and tables <= names


def test_runtime_dependencies_are_declared(wheel):
    meta = zipfile.ZipFile(wheel).read("gpumodels-0.1.0.dist-info/METADATA").decode()
    declared = {re.split(r"[\s<>=!~;\[]", line.split(":", 1)[1].strip())[0].lower()
                for line in meta.splitlines() if line.startswith("Requires-Dist:")}
    imported = _third_party_imports()
    assert imported <= set(DISTRIBUTIONS), f"map these imports to distributions: {imported - set(DISTRIBUTIONS)}"
    assert {DISTRIBUTIONS[m] for m in imported} <= declared


def test_installed_wheel_runs_outside_the_source_tree(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index",
                    "-q", str(wheel)], check=True, capture_output=True)
    # the dependencies (numpy, pandas, ...) come from this test's environment, as plain paths: its
    # .pth files (the editable install of the source tree among them) are not processed
    site = Path(subprocess.check_output([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                        text=True).strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GPUMODELS_DATA")}
    run = subprocess.run([str(py), "-c", SMOKE], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    module_file, data, result = run.stdout.strip().splitlines()
    assert module_file.startswith(str(site)) and not module_file.startswith(str(ROOT))
    assert data == str(site / "gpumodels" / "data")
    from gpumodels import hardware, volkov  # the same call in the source tree
    thru = volkov.memory_throughput(volkov.params("Kepler"), 8, 1)
    expected = f"{round(thru, 6)} {hardware.get_gpu('H100').sm_count}"
    assert result == expected

"""The locked environment (``make venv``, ``tools/install_lock.py``): the lock covers every
pin of requirements.txt, what got installed is exactly the lock, and every installed
package's own requirements are met (``pip check``), since the lock is installed without
pip resolving anything."""

import importlib.util
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location(
        "install_lock", ROOT / "tools" / "install_lock.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


lock_tool = _tool()


def test_the_lock_pins_every_requirement_at_its_version():
    lock = lock_tool.pins(lock_tool.LOCK)
    assert lock_tool.stale(lock_tool.pins(lock_tool.REQUIREMENTS), lock) == []
    # and the check can fail: a requirement the lock pins at another version, or lacks
    assert lock_tool.stale({"numpy": "0.0.1", "nosuchpkg": "1"}, lock) == [
        "nosuchpkg==1 (lock: absent)",
        f"numpy==0.0.1 (lock: {lock['numpy']})",
    ]


def test_a_line_that_is_not_one_pin_is_refused(tmp_path):
    f = tmp_path / "req.txt"
    f.write_text("# comment\n\nnumpy==2.0  # why\nscipy>=1\n")
    with pytest.raises(SystemExit, match=r"req.txt:4: expected one 'name==version'"):
        lock_tool.pins(f)
    f.write_text("Foo_Bar.baz==1.2\n")
    assert lock_tool.pins(f) == {"foo-bar-baz": "1.2"}


def test_the_pins_are_dealt_once_each():
    lock = lock_tool.pins(lock_tool.LOCK)
    batches = lock_tool.deal(lock, 2)
    assert len(batches) == 2
    assert sorted(p for b in batches for p in b) == sorted(
        f"{n}=={v}" for n, v in lock.items()
    )
    assert abs(len(batches[0]) - len(batches[1])) <= 1


def test_the_installed_versions_are_the_lock():
    lock = lock_tool.pins(lock_tool.LOCK)
    wrong = {}
    for name, version in lock.items():
        try:
            got = metadata.version(name)
        except metadata.PackageNotFoundError:
            got = "absent"
        if got != version:
            wrong[name] = (version, got)
    assert wrong == {}


def test_every_installed_requirement_is_met():
    r = subprocess.run(
        [sys.executable, "-m", "pip", "check"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_lock_goes_only_into_a_venv(tmp_path):
    # make venv installs with the base interpreter's pip into .venv: a base
    # installation (or a path that runs nothing) is refused before any install
    assert lock_tool._is_venv(sys.executable) == (sys.prefix != sys.base_prefix)
    assert not lock_tool._is_venv(str(tmp_path / "no-python"))
    base = Path(sys.base_prefix) / "bin" / "python3"
    if base.exists():
        assert not lock_tool._is_venv(str(base))
    assert lock_tool.main(["--python", str(tmp_path / "no-python")]) == 1


@pytest.mark.parametrize("name", ["requirements-lab.txt", "requirements-browser.txt"])
def test_an_optional_requirements_file_pins_only_what_the_lock_lacks(name):
    # installed with pip -c constraints.txt on first use (make lab, make check-html): its
    # pins are its own closure beyond the lock, so none can disagree with the lock
    extra = lock_tool.pins(ROOT / name)
    lock = lock_tool.pins(lock_tool.LOCK)
    assert extra
    assert sorted(extra.keys() & lock.keys()) == []

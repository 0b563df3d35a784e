"""Install the locked environment into a venv, two pip processes side by side (``make
venv``; standard library only).

    python3.11 tools/install_lock.py --python .venv/bin/python [--jobs 2]

``constraints.txt`` pins every package that ``requirements.txt`` resolves to (its
transitive closure, as ``pip freeze --all`` prints it: pip, setuptools and wheel
included). Since the lock is complete, nothing needs resolving: each pin is installed
with ``--no-deps``, and the pins are dealt to ``--jobs`` pip processes that download and
unpack their wheels at the same time. On this project's 2-core machine that takes about
three quarters of the time of one resolving ``pip install -r requirements.txt -c
constraints.txt``.

The venv can be made without pip (``python -m venv --without-pip``, 0.1 s instead of
3 s): the pip of the interpreter running this tool installs into it (``pip --python``,
pip 22.3 or later), and the lock puts pip itself in. Where that interpreter has no such
pip, the venv's own is bootstrapped first (``ensurepip``).

Before anything is installed, every pin of ``requirements.txt`` must appear in the lock
at the same version; otherwise the lock is out of date and this stops, saying how to
regenerate it. ``tests/test_environment.py`` checks the result (``pip check``: every
installed package's requirements are met).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements.txt"
LOCK = ROOT / "constraints.txt"

_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#]+)\s*$")


def _name(name: str) -> str:
    """A distribution name in PEP 503 normal form."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    """``{normalised name: version}`` of the ``name==version`` lines of a requirements
    file; comments and blank lines are skipped, and any other line is refused."""
    out: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        m = _PIN.match(text)
        if m is None:
            raise SystemExit(
                f"{path.name}:{number}: expected one 'name==version' pin, got {line!r}"
            )
        out[_name(m.group(1))] = m.group(2)
    return out


def stale(requirements: dict[str, str], lock: dict[str, str]) -> list[str]:
    """The pins of ``requirements`` that the lock lacks or pins at another version."""
    return [
        f"{name}=={version} (lock: {lock.get(name, 'absent')})"
        for name, version in sorted(requirements.items())
        if lock.get(name) != version
    ]


def deal(lock: dict[str, str], jobs: int) -> list[list[str]]:
    """The lock's pins dealt round-robin, in name order, to ``jobs`` lists."""
    batches: list[list[str]] = [[] for _ in range(jobs)]
    for i, (name, version) in enumerate(sorted(lock.items())):
        batches[i % jobs].append(f"{name}=={version}")
    return [b for b in batches if b]


def _is_venv(python: str) -> bool:
    """Whether ``python`` runs and is a venv's interpreter (never install the lock into
    a base installation)."""
    code = "import sys; sys.exit(sys.prefix == sys.base_prefix)"
    try:
        return subprocess.run([python, "-c", code], check=False).returncode == 0
    except OSError:
        return False


def _pip(python: str) -> tuple[list[str], bool]:
    """The command that runs a pip installing into ``python``, and whether that pip is
    the venv's own: this interpreter's pip with ``--python`` (pip 22.3 or later), else
    the venv's, bootstrapped with ``ensurepip`` if it has none."""
    if importlib.util.find_spec("pip") is not None:
        import pip

        m = re.match(r"(\d+)\.(\d+)", pip.__version__)
        if m and (int(m.group(1)), int(m.group(2))) >= (22, 3):
            return [sys.executable, "-m", "pip", "--python", python], False
    probe = [python, "-m", "pip", "--version"]
    if subprocess.run(probe, check=False, capture_output=True).returncode != 0:
        boot = [python, "-m", "ensurepip", "--default-pip"]
        if subprocess.run(boot, check=False).returncode != 0:
            raise SystemExit(f"install_lock: {python} has no pip and ensurepip failed")
    return [python, "-m", "pip"], True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--python", default=sys.executable, help="the venv's interpreter"
    )
    parser.add_argument("--jobs", type=int, default=2, help="pip processes (1 to 8)")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 8:
        parser.error(f"--jobs must be from 1 to 8, got {args.jobs}")
    if not _is_venv(args.python):
        print(
            f"install_lock: --python must be a venv's interpreter, got {args.python}",
            file=sys.stderr,
        )
        return 1
    lock = pins(LOCK)
    missing = stale(pins(REQUIREMENTS), lock)
    if missing:
        print(
            "install_lock: constraints.txt is out of date with requirements.txt for "
            + ", ".join(missing)
            + ". Regenerate it: install requirements.txt into a new venv, then write "
            "its `pip freeze --all` to constraints.txt.",
            file=sys.stderr,
        )
        return 1
    pip, own = _pip(args.python)
    # --require-virtualenv: pip refuses to install outside a venv (with the variable
    # below set, pip would ignore --python and install into this interpreter)
    base = [*pip, "--require-virtualenv", "install", "--quiet", "--no-compile"]
    base.append("--no-deps")
    env = {k: v for k, v in os.environ.items() if k != "_PIP_RUNNING_IN_SUBPROCESS"}
    if own and "pip" in lock:
        # the venv's own pip must not be replaced while another process runs it
        first = subprocess.run([*base, f"pip=={lock.pop('pip')}"], check=False, env=env)
        if first.returncode != 0:
            print("install_lock: failed to install the pinned pip", file=sys.stderr)
            return 1
    batches = deal(lock, args.jobs)
    procs = [subprocess.Popen([*base, *batch], env=env) for batch in batches]
    failed = [p.args for p in procs if p.wait() != 0]
    for cmd in failed:
        print(f"install_lock: failed: {' '.join(cmd[:10])} ...", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Install the locked environment into the running interpreter's venv, two pip processes
side by side (``make venv`` runs it with ``.venv/bin/python``; standard library only).

    .venv/bin/python tools/install_lock.py [--jobs 2]

``constraints.txt`` pins every package that ``requirements.txt`` resolves to (its
transitive closure, as ``pip freeze`` printed it, plus ``wheel``, which ``pip freeze``
leaves out). Since the lock is complete, nothing needs resolving: each pin is installed
with ``--no-deps``, and the pins are dealt to ``--jobs`` pip processes that download and
unpack their wheels at the same time. On this project's 2-core machine that takes about
three quarters of the time of one resolving ``pip install -r requirements.txt -c
constraints.txt``.

Before anything is installed, every pin of ``requirements.txt`` must appear in the lock
at the same version; otherwise the lock is out of date and this stops, saying how to
regenerate it. ``tests/test_environment.py`` checks the result (``pip check``: every
installed package's requirements are met).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements.txt"
LOCK = ROOT / "constraints.txt"

_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#]+)\s*(?:#.*)?$")


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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="pip processes (1 to 8)")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 8:
        parser.error(f"--jobs must be from 1 to 8, got {args.jobs}")
    lock = pins(LOCK)
    missing = stale(pins(REQUIREMENTS), lock)
    if missing:
        print(
            "install_lock: constraints.txt is out of date with requirements.txt for "
            + ", ".join(missing)
            + ". Regenerate it: install requirements.txt into a new venv, then write "
            "its `pip freeze` (and its wheel pin) to constraints.txt.",
            file=sys.stderr,
        )
        return 1
    base = [sys.executable, "-m", "pip", "install", "--quiet", "--no-compile"]
    procs = [
        subprocess.Popen([*base, "--no-deps", *batch])
        for batch in deal(lock, args.jobs)
    ]
    failed = [p.args for p in procs if p.wait() != 0]
    for cmd in failed:
        print(f"install_lock: failed: {' '.join(cmd[:8])} ...", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

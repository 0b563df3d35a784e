"""Execute notebooks in place with the current Python (the project's .venv), in a fixed
order.

    .venv/bin/python tools/execute_notebooks.py book/hardware.ipynb ...

Outputs are stored so nbval can compare them; run this after changing code a notebook
uses.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def main(paths: list[str]) -> int:
    for p in paths:
        path = Path(p)
        nb = nbformat.read(path, as_version=4)
        NotebookClient(
            nb,
            timeout=600,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
        nb.metadata.pop(
            "widgets", None
        )  # widget state is not reproducible; widgets need a live kernel
        for (
            cell
        ) in nb.cells:  # per-cell wall-clock timestamps would change on every run
            cell.metadata.pop("execution", None)
            for out in cell.get(
                "outputs", []
            ):  # widget views carry a random model id and no saved state
                out.get("data", {}).pop(
                    "application/vnd.jupyter.widget-view+json", None
                )
        nbformat.write(nb, path)
        print(f"executed {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

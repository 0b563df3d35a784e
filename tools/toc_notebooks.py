"""Print the notebooks listed in _toc.yml (one path per line), for `make test` to hand
to nbval.

Importable too: ``toc_entries()`` returns every TOC entry (root first) without suffix.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def toc_entries(toc: Path = ROOT / "_toc.yml") -> list[str]:
    data = yaml.safe_load(toc.read_text())
    entries = [data["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                entries.append(node["file"])
            for key in ("parts", "chapters", "sections"):
                for child in node.get(key, []) or []:
                    walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk({k: v for k, v in data.items() if k != "root"})
    return [
        str(Path(e).with_suffix("")) if Path(e).suffix in (".md", ".ipynb") else e
        for e in entries
    ]


def toc_notebooks() -> list[str]:
    return [f"{e}.ipynb" for e in toc_entries() if (ROOT / f"{e}.ipynb").exists()]


if __name__ == "__main__":
    print("\n".join(toc_notebooks()))

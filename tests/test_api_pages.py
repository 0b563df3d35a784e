"""The API reference: one page per subpackage or module group, every public module on exactly one."""

import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from toc_notebooks import toc_entries  # noqa: E402

INDEX = ROOT / "book" / "api.md"
PAGES = sorted((ROOT / "book" / "api").glob("*.md"))
TARGET = re.compile(r"^\.\. (automodule|py:module):: (\S+)", re.M)


def public_modules() -> set[str]:
    """Every module file of the package whose dotted name has no part starting with ``_``.

    The root package itself is left out: it only re-exports ``hardware``, ``occupancy`` and
    ``published``, which have their own pages.
    """
    out = set()
    for path in (ROOT / "gpumodels").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if len(parts) > 1 and not any(p.startswith("_") for p in parts):
            out.add(".".join(parts))
    return out


def targets(page: Path) -> list[tuple[str, str]]:
    """(directive, module) for every automodule / py:module directive of a page."""
    return TARGET.findall(page.read_text(encoding="utf-8"))


def automodule_members(page: Path):
    """(module, [member, ...]) for every automodule of a page that lists its members by name."""
    text = page.read_text(encoding="utf-8")
    for m in re.finditer(r"^\.\. automodule:: (\S+)\n((?:   :\S+:.*\n?)*)", text, re.M):
        listed = re.search(r":members:(.*)", m.group(2))
        if listed and listed.group(1).strip():
            yield m.group(1), [n.strip() for n in listed.group(1).split(",") if n.strip()]


def test_there_are_pages_and_modules():
    assert len(PAGES) >= 10
    assert {"gpumodels.facts.hardware", "gpumodels.papers.volkov", "gpumodels.engines.refsim.simulator"} <= public_modules()


def test_every_public_module_is_on_exactly_one_page():
    pages_of: dict[str, list[str]] = {}
    for page in [INDEX, *PAGES]:
        for module in {m for _, m in targets(page)}:
            pages_of.setdefault(module, []).append(page.name)
    missing = sorted(public_modules() - set(pages_of))
    assert not missing, f"public modules on no API page: {missing}"
    twice = {m: p for m, p in pages_of.items() if len(p) > 1}
    assert not twice, f"modules on more than one API page: {twice}"
    stale = sorted(set(pages_of) - public_modules())
    assert not stale, f"API pages name modules that do not exist (or are private): {stale}"


def test_a_module_is_documented_once_per_page():
    for page in PAGES:
        modules = [m for _, m in targets(page)]
        assert len(modules) == len(set(modules)), page.name


def test_listed_members_exist():
    """A renamed or removed function fails here, before the Sphinx build."""
    for page in PAGES:
        for module, names in automodule_members(page):
            mod = importlib.import_module(module)
            absent = [n for n in names if not hasattr(mod, n)]
            assert not absent, f"{page.name}: {module} has no {absent}"


def test_index_table_and_toc_list_every_page():
    index = INDEX.read_text(encoding="utf-8")
    linked = set(re.findall(r"^\| \{doc\}`api/(\w+)` \| .+ \|$", index, re.M))
    assert linked == {p.stem for p in PAGES}, "the table of book/api.md lists every API page once"
    entries = toc_entries()
    listed = [e for e in entries if e.startswith("book/api/")]
    assert sorted(listed) == sorted(f"book/api/{p.stem}" for p in PAGES)
    assert entries.index("book/api") < min(entries.index(e) for e in listed), "API pages sit under book/api"


def test_every_page_has_a_title_and_a_lead():
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# "), page.name
        assert lines[2] and not lines[2].startswith(("#", "`")), f"{page.name}: one sentence on what it holds"


def test_used_in_links_resolve_from_any_page():
    """tools/used_in.py writes absolute document links, so a page in book/api/ reaches book/*.ipynb."""
    import used_in

    from gpumodels import volkov

    used_in._USED.clear()
    used_in._USED[id(volkov.needed_occupancy)] = {"book/volkov_cusp"}
    lines: list[str] = []
    used_in._append(None, "function", "gpumodels.papers.volkov.synthetic.needed_occupancy", volkov.needed_occupancy, {}, lines)
    used_in._USED.clear()
    assert lines == ["", "*Used in:* :doc:`/book/volkov_cusp`."]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_is_in_the_book_folder_layout(page):
    assert page.parent == ROOT / "book" / "api"
    assert re.fullmatch(r"[a-z_]+", page.stem)

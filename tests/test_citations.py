"""One citation mechanism: sphinxcontrib-bibtex roles against references.bib, in every prose page.

Scans the Markdown cells of the chapter notebooks and the Markdown pages of ``book/`` (outside
code and math) for bracketed numeric citations ("[12]", "([7])"), hand-typed author-year
citations ("Sim et al. (2012)", "Hong and Kim [2009]") and ``{cite}`` keys that
``references.bib`` lacks. A paper's own reference label may be quoted, as in ``the "[7]"
baseline of the paper``, next to the proper citation.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIB = ROOT / "references.bib"

ROLE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")
FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.M | re.S)
INLINE_CODE = re.compile(r"(``+)(?:(?!\1).)+?\1|`[^`\n]+`", re.S)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
# a bracketed number or list/range of numbers (not a bracketed year: that is AUTHOR_YEAR's); a
# quoted one ("[7]") is the paper's own label, and "[3](file.ipynb)" is a link
NUMERIC = re.compile(r'(?<!")\[(?!(?:19|20)\d\d\])\d+(?:\s*[,–-]\s*\d+)*\](?!")(?!\()')
NAME = r"[A-Z][a-zà-ÿ]+(?:-[A-Z][a-zà-ÿ]+)?"


def bib_keys() -> set[str]:
    return set(re.findall(r"^@\w+\s*\{\s*([^,\s]+)\s*,", BIB.read_text(encoding="utf-8"), re.M))


def bib_surnames() -> set[str]:
    """The last names of every author in references.bib ("Volkov", "Little", "Amarís", ...)."""
    names = set()
    for authors in re.findall(r"^\s*author\s*=\s*\{(.*)\},?\s*$", BIB.read_text(encoding="utf-8"), re.M):
        for person in authors.split(" and "):
            last = person.strip().strip("{}").split()[-1]
            if re.fullmatch(NAME, last):
                names.add(last)
    return names


# "Sim et al. (2012)", "Hong and Kim [2009]", "Zhang & Owens 2011", and for a single name only an
# author of the bibliography ("Volkov (2016)"), so that "Maxwell (2014)" stays a GPU generation
AUTHOR_YEAR = re.compile(
    rf"\b{NAME}(?: et\s+al\.| (?:&|and)\s+{NAME}),?\s+[(\[]?(?:19|20)\d\d\b"
    rf"|\b(?:{'|'.join(sorted(bib_surnames()))}),?\s+[(\[](?:19|20)\d\d[a-z]?[)\]]")


def prose() -> list[tuple[str, str]]:
    """(where, text) for every Markdown cell of a chapter and every Markdown page in book/."""
    out = []
    for nb in sorted((ROOT / "book").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        for i, cell in enumerate(json.loads(nb.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "markdown":
                out.append((f"{nb.name} cell {cell.get('id', i)}", "".join(cell["source"])))
    for md in sorted((ROOT / "book").rglob("*.md")):
        out.append((md.relative_to(ROOT).as_posix(), md.read_text(encoding="utf-8")))
    return out


def plain(text: str) -> str:
    """The text a reader sees as prose: code blocks, citation roles, inline code and math removed.

    Headings are dropped too: part and section titles name a paper by its authors and year
    (``## Hong & Kim (2009): …``) as the table of contents does, without citing it.
    """
    text = FENCE.sub("", text)
    text = ROLE.sub("", text)
    text = INLINE_CODE.sub("", text)
    text = MATH.sub("", text)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def test_scanner_catches_what_it_should():
    bad = ("as shown in [12] and ([7]); see [3, 5] and [2-4]. Sim et al. (2012), Hong and Kim [2009] "
           "and Volkov (2016).")
    good = ('the "[7]" baseline of the paper, {cite:t}`sim2012`, `x[1]`, $a[2]$, [A1]–[A20], '
            "[Table 6.2](volkov_parameters.ipynb), [2](x.ipynb), Maxwell (2014), Ampere (2020)\n"
            "## Hong & Kim (2009): the MWP/CWP model\n```python\ny = z[3]\n```")
    assert len(NUMERIC.findall(plain(bad))) == 4
    assert len(AUTHOR_YEAR.findall(plain(bad))) == 3
    assert not NUMERIC.findall(plain(good)) and not AUTHOR_YEAR.findall(plain(good))
    assert ROLE.findall("{cite:t}`a` and {cite:p}`b, c` and {cite}`d`") == ["a", "b, c", "d"]


def test_bibliography_parses_and_has_the_seed_papers():
    keys = bib_keys()
    assert {"Volkov", "Little", "Kim", "Amarís"} <= bib_surnames()
    assert {"hong2009", "huang2017", "volkov2016", "perez2011", "li2015"} <= keys
    assert len(keys) == len(re.findall(r"^@\w+\s*\{", BIB.read_text(encoding="utf-8"), re.M)), "duplicate keys"


@pytest.mark.parametrize("where,text", prose(), ids=[w for w, _ in prose()])
def test_citations_use_the_bibliography_roles(where, text):
    keys = bib_keys()
    cited = {k.strip() for group in ROLE.findall(text) for k in group.split(",")}
    assert not cited - keys, f"{where}: keys missing from references.bib: {sorted(cited - keys)}"
    seen = plain(text)
    assert not NUMERIC.findall(seen), f"{where}: bracketed numeric citation {NUMERIC.findall(seen)}"
    assert not AUTHOR_YEAR.findall(seen), f"{where}: hand-typed author-year citation {AUTHOR_YEAR.findall(seen)}"

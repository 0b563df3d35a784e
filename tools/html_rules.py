"""What a reader must not see on a page of the built book: the rules shared by the
browser check (``tools/check_html.py``, ``make check-html``) and the browser-free test
(``tests/test_html.py``, part of ``make test``).

Each rule is a small function of text or numbers that returns one line per problem (an
empty list when the input is fine); ``page_problems`` applies the text rules to one
built HTML page.

The column constants were measured in headless Chromium (``/usr/bin/chromium``, Debian)
on the book as jupyter-book 1.x with pydata-sphinx-theme 0.17 lays it out in a 1280 x
900 window, the size ``make check-html`` uses: the article's content box
(``article.bd-article`` less its padding) is 688 CSS px wide. With the theme's 14 px
monospace and 16 px padding a code block held only 77 characters (DejaVu Sans Mono, 8.43
px a character), fewer than the 88 the notebooks allow; ``_static/book.css`` sets code
blocks to 12 px with 9.6 px padding, which holds 92 (7.22 px a character; measured: 88
characters take 636 px of the 669 px inside the block). Notebook code keeps to 88
(tests/test_book.py), which leaves a margin for another monospace font; docstring
examples on the API pages may use the full 92.
"""

from __future__ import annotations

import re
import struct

# --- measured layout (see the module docstring)
# ----------------------------------------------
COLUMN_PX = 688  # width of the content column at 1280 x 900
CODE_CHARS = (
    92  # characters a code line holds at 12 px (book.css); notebooks keep to 88
)

# --- images
# ----------------------------------------------------------------------------------
MIN_SHOWN = (
    0.6  # an image shown at less than this fraction of its natural width is shrunk
)
MIN_TEXT_PX = 8.0  # smallest estimated text height on screen, CSS px
MIN_DPI = 150  # PNG figures are written at least this sharp
DEFAULT_DPI = (
    100  # matplotlib's figure dpi: assumed for a PNG that does not record its dpi
)

try:  # the book's smallest font and figure dpi, where the package defines them
    from gpumodels.ground.plotting import MIN_FONT_PT
except Exception:  # noqa: BLE001 - an older package, or none importable: the book's 8 pt
    MIN_FONT_PT = 8.0
try:
    from gpumodels.ground.plotting import DPI as PACKAGE_DPI
except Exception:  # noqa: BLE001
    PACKAGE_DPI = None


def _excerpt(text: str, start: int = 0, width: int = 60) -> str:
    line = " ".join(text[max(0, start - 10) : start + width].split())
    return line[:width]


# --- math
# ------------------------------------------------------------------------------------
# one match per formula where its closing delimiter follows, else the lone opening one
RAW_MATH = re.compile(
    r"\$\$(?:[^$]{0,300}\$\$)?|\\\((?:.{0,300}?\\\))?|\\\[(?:.{0,300}?\\\])?"
    r"|\\begin\{[^}]*\}(?:.{0,600}?\\end\{[^}]*\})?",
    re.DOTALL,
)


def raw_math(text: str) -> list[str]:
    """LaTeX delimiters left in text a reader sees (pass it text outside math and
    code)."""
    return [f"raw math: {_excerpt(m.group())}" for m in RAW_MATH.finditer(text)]


def math_without_mathjax(math_elements: int, mathjax_scripts: int) -> list[str]:
    """A page with math in its source but no MathJax to typeset it."""
    if math_elements and not mathjax_scripts:
        return [f"{math_elements} math elements but no MathJax script"]
    return []


def math_not_typeset(math_elements: int, typeset: int) -> list[str]:
    """A page whose math elements MathJax did not turn into ``mjx-container``s (in a
    browser)."""
    if math_elements and typeset < math_elements:
        return [
            (
                f"{math_elements - typeset} of {math_elements} math elements not "
                "typeset by MathJax"
            )
        ]
    return []


# --- Python noise in cell outputs
# ------------------------------------------------------------
_LIT = r"""(?:'[^']*'|"[^"]*"|[-+]?\d[\d_.]*(?:e[-+]?\d+)?|None|True|False)"""
NOISE = [
    ("pandas dtype line", re.compile(r"\bdtype: \w+")),
    ("zero in e-notation", re.compile(r"(?<![\w.])[-+]?0(?:\.0+)?e[-+]?0+(?![\w.])")),
    ("object repr", re.compile(r"\bobject at 0x[0-9a-fA-F]+")),
    ("IPython repr", re.compile(r"<IPython\.")),
    ("matplotlib repr", re.compile(r"<(?:Figure size|matplotlib\.|Axes:)")),
    (
        "widget repr",
        re.compile(
            r"\b[A-Z]\w*\((?:children|value|description|options|layout|outputs)="
        ),
    ),
    ("dict repr", re.compile(r"\{'[^']*': ")),
    (
        "array repr",
        re.compile(r"\barray\(\[|\[(?:\s*[-+]?\d+\.\d*(?:e[-+]?\d+)?){2,}\s*\]"),
    ),
]
BARE_LITERAL = [
    ("bare tuple", re.compile(rf"^\(\s*{_LIT}\s*,(?:\s*{_LIT}\s*,?)*\s*\)$")),
    ("bare dict", re.compile(rf"^\{{\s*{_LIT}\s*:.*\}}$")),
]


def output_noise(text: str, *, plain: bool = True) -> list[str]:
    """Python reprs in an output's text. ``plain``: the text is shown as printed lines
    (stream or text/plain), so a line that is only a tuple or dict literal counts too.
    """
    problems = []
    for name, rx in NOISE:
        for m in rx.finditer(text):
            problems.append(f"{name}: {_excerpt(text, m.start())}")
    if plain:
        for line in text.splitlines():
            for name, rx in BARE_LITERAL:
                if rx.match(line.strip()):
                    problems.append(f"{name}: {line.strip()[:60]}")
    return problems


def plain_repr(text: str) -> list[str]:
    """An execute result shown as its plain-text repr (``div.output.text_plain``)."""
    return [f"plain-text repr: {_excerpt(text)}"]


def nbval_marker(text: str) -> list[str]:
    """nbval's cell markers (``# NBVAL_IGNORE_OUTPUT``) mean nothing to a reader. Pass
    the visible text less inline code literals: a page that documents the marker names
    it as code."""
    return [
        f"NBVAL marker: {_excerpt(text, m.start())}"
        for m in re.finditer(r"NBVAL", text)
    ]


# --- code blocks and images
# ------------------------------------------------------------------
def long_code_lines(text: str, limit: int = CODE_CHARS) -> list[str]:
    """Lines of a code block longer than the column holds."""
    return [
        f"code line of {len(line)} > {limit} characters: {line.strip()[:50]}"
        for line in text.expandtabs().splitlines()
        if len(line) > limit
    ]


def png_size_dpi(data: bytes) -> tuple[int, int, float | None]:
    """Width, height and dpi (from the pHYs chunk; None without one) of PNG bytes."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    pos, dpi = 8, None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if kind == b"pHYs":
            x, _y, unit = struct.unpack(">IIB", data[pos + 8 : pos + 17])
            if unit == 1:  # pixels per metre
                dpi = x * 0.0254
        if kind in (b"IDAT", b"IEND"):
            break
        pos += 12 + length
    return width, height, dpi


def text_px(dpi: float | None, natural_w: float, shown_w: float) -> float:
    """Estimated on-screen height (CSS px) of the smallest text in a figure:
    ``MIN_FONT_PT`` at the figure's dpi is ``MIN_FONT_PT * dpi / 72`` image pixels,
    scaled by how the page shows it."""
    dpi = dpi or PACKAGE_DPI or DEFAULT_DPI
    return MIN_FONT_PT * dpi / 72 * shown_w / natural_w


def image_as_shown(natural_w: float, shown_w: float, dpi: float | None) -> list[str]:
    """An image the page shows much smaller than it is, or whose text ends up too small
    to read."""
    if natural_w <= 0 or shown_w <= 0:
        return []
    problems = []
    if shown_w / natural_w < MIN_SHOWN:
        problems.append(
            f"shown at {shown_w / natural_w:.0%} of its width ({shown_w:.0f} of "
            f"{natural_w:.0f} px)"
        )
    px = text_px(dpi, natural_w, shown_w)
    if px < MIN_TEXT_PX:
        problems.append(
            f"smallest text about {px:.1f} px on screen (< {MIN_TEXT_PX:.0f})"
        )
    return problems


def png_file(width: int, dpi: float | None) -> list[str]:
    """A PNG figure written too coarse, or so wide that the column must shrink it below
    MIN_SHOWN."""
    problems = []
    if dpi is None or dpi < MIN_DPI - 0.5:
        problems.append(f"{'no' if dpi is None else f'{dpi:.0f}'} dpi (< {MIN_DPI})")
    if width > COLUMN_PX / MIN_SHOWN:
        problems.append(
            f"{width} px wide: the {COLUMN_PX} px column shows it at "
            f"{COLUMN_PX / width:.0%}"
        )
    return problems


# --- the pages
# --------------------------------------------------------------------------------
def pages_of(html_dir) -> list[str]:
    """The book's pages under a built tree, as paths relative to it: every ``*.html``
    less Sphinx's own folders (``_static``, ``_sources``, …) and pages that only
    redirect (``index.html``)."""
    from pathlib import Path

    root = Path(html_dir)
    pages = []
    for p in sorted(root.rglob("*.html")):
        rel = p.relative_to(root)
        if rel.parts[0].startswith("_"):
            continue
        if re.search(
            r"<meta[^>]+http-equiv=\"?refresh",
            p.read_text(encoding="utf-8")[:2000],
            re.IGNORECASE,
        ):
            continue
        pages.append(rel.as_posix())
    return pages


def _soup(html: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


def _text(el) -> str:
    return el.get_text()


def prose_text(soup) -> str:
    """The page's visible text outside math, code, scripts and styles."""
    body = soup.body or soup
    skip = {"script", "style", "pre", "code", "textarea", "template", "noscript"}
    parts = []
    for s in body.find_all(string=True):
        hidden = False
        for a in s.parents:
            if (
                a.name in skip
                or "math" in (a.get("class") or [])
                or a.name == "mjx-container"
            ):
                hidden = True
                break
        if not hidden:
            parts.append(str(s))
    return "".join(parts)


def visible_text(soup) -> str:
    """The page's visible text, code blocks included, less inline code literals
    (``code`` outside ``pre``: prose that names a thing as code on purpose)."""
    body = soup.body or soup
    parts = []
    for s in body.find_all(string=True):
        names = [a.name for a in s.parents]
        if any(n in ("script", "style", "template") for n in names):
            continue
        if "code" in names and "pre" not in names:
            continue
        parts.append(str(s))
    return "".join(parts)


def _code_text(pre) -> str:
    # Pygments' line-number and prompt spans are part of the text; the copy button is
    # not
    return pre.get_text()


def page_problems(
    html: str, *, code_chars: int | None = CODE_CHARS
) -> tuple[dict, list[tuple[str, str]]]:
    """Apply the text rules to one built page.

    Returns ``(counts, problems)``: counts of what was looked at, and ``(kind,
    message)`` pairs with kind one of ``math``, ``repr``, ``noise``, ``nbval``,
    ``code``. ``code_chars=None`` leaves code-line lengths to the browser, which
    measures them.
    """
    soup = _soup(html)
    article = soup.select_one("article.bd-article") or soup.body or soup
    problems: list[tuple[str, str]] = []
    maths = article.select("span.math, div.math")
    mathjax = [
        s for s in soup.find_all("script") if "mathjax" in (s.get("src") or "").lower()
    ]
    problems += [("math", p) for p in math_without_mathjax(len(maths), len(mathjax))]
    problems += [("math", p) for p in raw_math(prose_text(article))]
    outputs = article.select("div.cell_output div.output")
    for out in outputs:
        classes = out.get("class") or []
        text = _text(out)
        if "text_plain" in classes:
            problems += [("repr", p) for p in plain_repr(text)]
        plain = "text_plain" in classes or "stream" in classes
        problems += [("noise", p) for p in output_noise(text, plain=plain)]
    problems += [("nbval", p) for p in nbval_marker(visible_text(article))]
    pres = article.select("pre")
    if code_chars:
        for pre in pres:
            if (
                pre.find_parent("dd") is not None
                and pre.find_parent("dl", class_="py") is not None
            ):
                # docstring examples in the API reference wrap (_static/book.css)
                continue
            problems += [
                ("code", p) for p in long_code_lines(_code_text(pre), code_chars)
            ]
    counts = {"math": len(maths), "outputs": len(outputs), "code blocks": len(pres)}
    return counts, problems

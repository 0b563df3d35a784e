"""Open the built book in headless Chromium and report what a reader would see go
wrong.

Run by ``make check-html`` (not part of ``make test``); ``tools/check_html.py --html
PATH`` checks another built tree, ``--no-lab`` leaves out JupyterLab. Every page of the
book is opened at 1280 x 900, every collapsed cell opened, and the check fails, one line
per problem, on:

* math: LaTeX delimiters (``\\(``, ``\\[``, ``$$``, ``\\begin{``) left in the visible
  text, or math elements (``span.math``, ``div.math``) that MathJax did not typeset
  (``mjx-container``). The pages load MathJax 3 from a CDN; the check answers those
  requests from a local copy (``--mathjax DIR``, by default
  ``_build/npm/node_modules/mathjax``, which ``make check-html`` installs with npm), so
  it also works without network. Without the copy it says so and leaves out only the
  typesetting part;
* images: broken ones, ones shown at less than 60 % of their natural width, and ones
  whose smallest text (``MIN_FONT_PT`` at the PNG's dpi) lands under 8 CSS px on screen;
* overflow: an element wider than the article that no scrolling container holds, a page
  wider than the window, and any code block (cell input or output, ``pre``) or table
  wider than the column even inside a scroll container, unless the table sits in a
  ``.scroll-note`` element (a box that tells the reader it scrolls);
* Python noise in cell outputs (plain-text reprs, ``dtype:``, zeros as ``0.000000e+00``,
  ``object at 0x``, widget reprs, bare tuple or dict lines) and ``NBVAL`` in the visible
  text;
* console errors and uncaught page errors.

The text rules and thresholds live in ``tools/html_rules.py``, shared with
``tests/test_html.py`` (the browser-free part, run by ``make test``). At the end it
prints counts per check, for a before/after comparison.

It then starts JupyterLab on a temporary copy of one chapter, runs all its cells and
checks that the explorer widget renders.

It needs Playwright (``pip install -r requirements-browser.txt``) and a Chromium
(Debian: ``apt-get install chromium``; another one through
``CHROMIUM=/path/to/chrome``). Without them it says so and exits 0: the check is
optional.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import http.server
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import html_rules as rules

HTML = ROOT / "_build" / "html"
MATHJAX = ROOT / "_build" / "npm" / "node_modules" / "mathjax"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDTH, HEIGHT = 1280, 900
CHAPTER = (
    "book/occupancy.ipynb"  # its explorer needs no simulation, so a run takes seconds
)
# MathJax 3 as Sphinx asks for it (…/mathjax@3/es5/tex-mml-chtml.js) and everything it
# loads next (the pattern goes to the browser too: JavaScript syntax, no named groups)
MATHJAX_URL = re.compile(r"/mathjax(?:@[^/]*)?/es5/([^?#]*)")

# Collapsed cells open (a reader may open them); MathJax's copy of each formula for
# screen readers hidden: it is invisible anyway, clipped to a pixel, and would make
# every inline formula's box look narrower than its content.
OPEN_ALL_JS = """() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const s = document.createElement('style');
  s.textContent = 'mjx-assistive-mml { display: none !important; }';
  document.head.appendChild(s);
}"""

# Wait until MathJax has typeset the page; 'absent' where the page loads no MathJax.
MATHJAX_WAIT_JS = """async () => {
  if (!window.MathJax) return 'absent';
  for (let i = 0; i < 100 && !(MathJax.startup && MathJax.startup.promise); i++)
    await new Promise(r => setTimeout(r, 50));
  if (!(MathJax.startup && MathJax.startup.promise)) return 'not loaded';
  await MathJax.startup.promise;
  return 'typeset';
}"""

# Elements wider than the article that no ancestor scrolls or clips; the page's own
# overflow.
OVERFLOW_JS = """() => {
  const art = document.querySelector('article.bd-article')
    || document.querySelector('main') || document.body;
  if (!art) return {items: [], count: 0, page: 0};
  const right = art.getBoundingClientRect().right + 1;
  const scrolls = el => {
    for (let a = el.parentElement; a && a !== art.parentElement; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  const name = el => el.tagName.toLowerCase()
    + (typeof el.className === 'string' && el.className
       ? '.' + el.className.split(' ')[0] : '');
  const out = [];
  for (const el of art.querySelectorAll('*')) {
    if (el.closest('mjx-container')) continue;     // MathJax's own glyph boxes
    const o = getComputedStyle(el).overflowX;
    if (o === 'auto' || o === 'scroll') continue;  // a scrolling container: fine
    const r = el.getBoundingClientRect();
    // content wider than its box
    const cut = el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;
    const past = r.width > 0 && r.right > right;   // box past the article's edge
    if ((cut || past) && !scrolls(el)) {
      out.push(name(el) + (o === 'hidden' || o === 'clip' ? ' (clipped)' : '') + ': '
               + (el.textContent || '').trim().slice(0, 60));
    }
  }
  const page = document.documentElement.scrollWidth - window.innerWidth;
  return {items: out.slice(0, 5), count: out.length, page: page};
}"""

# What the page shows: math, visible text outside code, content images, code blocks and
# tables wider than the column (even where they scroll).
PAGE_JS = """() => {
  const art = document.querySelector('article.bd-article')
    || document.querySelector('main') || document.body;
  const cs = getComputedStyle(art);
  const column = art.clientWidth - parseFloat(cs.paddingLeft)
    - parseFloat(cs.paddingRight);
  const shown = el => el.checkVisibility
    ? el.checkVisibility() : el.offsetParent !== null;
  const math = art.querySelectorAll('span.math, div.math').length;
  const typeset = art.querySelectorAll('mjx-container').length;
  const skip = 'pre, code, script, style, textarea, mjx-container';
  const parts = [];
  const walk = document.createTreeWalker(art, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement;
    if (p && !p.closest(skip) && shown(p)) parts.push(n.nodeValue);
  }
  const images = Array.from(art.querySelectorAll('img')).filter(shown).map(i => ({
    src: i.currentSrc || i.src,
    natural: i.naturalWidth,
    width: i.getBoundingClientRect().width,
  }));
  const where = el => el.closest('.cell_input') ? 'cell input'
    : el.closest('.cell_output') ? 'cell output' : 'code block';
  const longest = t => t.split('\\n')
    .reduce((a, b) => (b.length > a.length ? b : a), '');
  const code = [];
  for (const pre of art.querySelectorAll('pre')) {
    if (!shown(pre) || pre.clientWidth === 0) continue;
    const over = pre.scrollWidth - pre.clientWidth;
    if (over > 1) {
      const line = longest(pre.textContent);
      code.push(`${where(pre)} ${over} px wider than the column `
                + `(longest line ${line.length} characters): `
                + line.trim().slice(0, 50));
    }
  }
  const scrolls = el => {
    for (let a = el.parentElement; a && a !== art; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  const tables = [];
  for (const t of art.querySelectorAll('table')) {
    if (!shown(t) || t.closest('.scroll-note')) continue;
    const w = Math.max(t.getBoundingClientRect().width, t.scrollWidth);
    // in a scroll container any excess scrolls; outside one, a spill into the
    // article's padding (Sphinx's index tables by a pixel or two) shows no scroll
    // bar and hides nothing
    const room = scrolls(t) ? column : column + parseFloat(cs.paddingRight);
    if (w > room + 1) {
      const head = (t.querySelector('tr') || t).textContent.trim()
        .replace(/\\s+/g, ' ');
      tables.push(`table ${Math.round(w)} px in the ${Math.round(column)} px column: `
                  + head.slice(0, 50));
    }
  }
  return {column, math, typeset, text: parts.join(''), images, code, tables,
          pres: art.querySelectorAll('pre').length,
          ntables: art.querySelectorAll('table').length};
}"""

BROKEN_JS = (
    "() => Array.from(document.images).filter(i => !i.complete || "
    "i.naturalWidth === 0).map(i => i.src)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _chromium() -> str | None:
    path = (
        os.environ.get("CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    return path if path and Path(path).exists() else None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(_Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", _free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def _mathjax_route(mathjax: Path):
    """A Playwright route handler that answers MathJax CDN requests from the local
    copy."""
    es5 = (mathjax / "es5").resolve()

    def handle(route):
        rest = MATHJAX_URL.search(route.request.url)
        f = (es5 / unquote(rest[1])).resolve() if rest else None
        if f is not None and f.is_file() and es5 in f.parents:
            route.fulfill(path=str(f))
        else:
            route.fulfill(status=404, body="not in the local MathJax copy")

    return handle


def check_text(
    html: Path, pages: list[str], counts: Counter, *, raw_math: bool = True
) -> list[str]:
    """The browser-free rules of ``html_rules`` (math scripts, reprs, noise, NBVAL) on
    every page. Code-line lengths are left to the browser, which measures the real
    overflow, and so is raw LaTeX where MathJax runs (``raw_math=False``): the browser
    sees it after typesetting."""
    problems = []
    for rel in pages:
        found, probs = rules.page_problems(
            (html / rel).read_text(encoding="utf-8"), code_chars=None
        )
        counts["cell outputs"] += found["outputs"]
        for kind, msg in probs:
            if kind == "math" and msg.startswith("raw math") and not raw_math:
                continue
            if kind == "math":
                counts["math: raw or without MathJax in the source"] += 1
            else:
                counts[
                    {
                        "repr": "plain-text reprs",
                        "noise": "Python noise in outputs",
                        "nbval": "NBVAL markers",
                    }[kind]
                ] += 1
            problems.append(f"{rel}: {msg}")
    return problems


def _image_bytes(html: Path, src: str) -> tuple[str, bytes | None]:
    """The image's name and bytes: a file of the built book, or a ``data:`` URI (an
    explorer's static picture carries its figure inline); ``None`` for anything else."""
    if src.startswith("data:"):
        head, _, body = src.partition(",")
        kind = head[5:].split(";")[0]
        data = (
            base64.b64decode(body)
            if head.endswith(";base64")
            else unquote(body).encode()
        )
        return f"inline {kind}", data if kind == "image/png" else None
    path = unquote(urlparse(src).path).lstrip("/")
    f = (html / path).resolve()
    ok = f.is_file() and html.resolve() in f.parents and f.suffix.lower() == ".png"
    return f.name[:16] + "…", f.read_bytes() if ok else None


class _PageLog:
    """What a page reported while it loaded: console and page errors, failed requests
    (URLs without their query) and responses with an error status."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        self.offline: set[str] = set()
        self.missing: set[str] = set()
        page.on(
            "console",
            lambda m, e=self.errors: e.append(m.text) if m.type == "error" else None,
        )
        page.on("pageerror", lambda exc, e=self.errors: e.append(str(exc)))
        page.on("requestfailed", lambda r, o=self.offline: o.add(r.url.split("?")[0]))
        page.on(
            "response",
            lambda r, m=self.missing: m.add(r.url) if r.status >= 400 else None,
        )


def _open_page(browser, url: str, mathjax: Path | None):
    """Open ``url`` in a new page, wait for MathJax and open every collapsed cell.

    Returns the page, MathJax's state (``MATHJAX_WAIT_JS``) and the page's
    :class:`_PageLog`.
    """
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    if mathjax is not None:
        page.route(MATHJAX_URL, _mathjax_route(mathjax))
    log = _PageLog(page)
    page.goto(url, wait_until="load")
    state = page.evaluate(MATHJAX_WAIT_JS)
    page.wait_for_timeout(200)
    page.evaluate(OPEN_ALL_JS)  # collapsed cells: a reader may open them
    page.wait_for_timeout(100)
    return page, state, log


def _math_problems(rel: str, seen: dict, state: str, counts: Counter) -> list[str]:
    """MathJax not ready, math elements left untypeset, raw LaTeX delimiters shown
    (checked only where a local MathJax answers the pages' requests)."""
    problems = []
    counts["math: typeset (mjx-container)"] += seen["typeset"]
    if seen["math"] and state != "typeset":
        problems.append(f"{rel}: MathJax {state}")
    for msg in rules.math_not_typeset(seen["math"], seen["typeset"]):
        problems.append(f"{rel}: {msg}")
    raw = rules.raw_math(seen["text"])
    counts["math: raw delimiters shown"] += len(raw)
    problems += [f"{rel}: {msg}" for msg in raw]
    return problems


def _image_problems(html: Path, rel: str, seen: dict, counts: Counter) -> list[str]:
    """Images shown shrunk, or with their smallest text too small on screen (the
    latter only for PNGs, whose dpi gives the text size)."""
    problems = []
    for img in seen["images"]:
        counts["images: checked"] += 1
        name, data = _image_bytes(html, img["src"])
        png = data is not None
        dpi = rules.png_size_dpi(data)[2] if png else None
        found = rules.image_as_shown(img["natural"], img["width"], dpi)
        if not png:  # the text-size estimate needs the PNG's dpi
            found = [m for m in found if not m.startswith("smallest text")]
        for msg in found:
            counts[
                "images: small text"
                if msg.startswith("smallest text")
                else "images: shrunk"
            ] += 1
            problems.append(f"{rel}: image {name}: {msg}")
    return problems


def _overflow_problems(page, rel: str, seen: dict, counts: Counter) -> list[str]:
    """Code blocks and tables wider than the column, the page wider than the window,
    and (``OVERFLOW_JS``, evaluated here) elements wider than the article that no
    container scrolls: the first five, then how many more."""
    counts["code blocks"] += seen["pres"]
    counts["tables"] += seen["ntables"]
    counts["overflow: code blocks"] += len(seen["code"])
    counts["overflow: tables"] += len(seen["tables"])
    problems = [f"{rel}: {msg}" for msg in seen["code"] + seen["tables"]]
    over = page.evaluate(OVERFLOW_JS)
    counts["overflow: other elements"] += over["count"]
    if over["page"] > 0:
        problems.append(f"{rel}: the page is {over['page']} px wider than the window")
    for item in over["items"]:
        problems.append(f"{rel}: content wider than its box: {item}")
    if over["count"] > len(over["items"]):
        problems.append(
            f"{rel}: … {over['count'] - len(over['items'])} more overflowing elements"
        )
    return problems


def _loading_problems(
    rel: str, base: str, log: _PageLog, counts: Counter, unreachable: set[str]
) -> list[str]:
    """Missing files, failed requests to the book's own server and console errors;
    failed requests elsewhere (CDNs) go to ``unreachable``, reported once at the
    end."""
    problems = []
    for url in sorted(log.missing):
        problems.append(f"{rel}: missing file {url}")
    for url in sorted(u for u in log.offline if u.startswith(base)):
        problems.append(f"{rel}: request failed {url}")
    unreachable.update(u for u in log.offline if not u.startswith(base))
    for e in log.errors:
        if "Failed to load resource" in e:
            continue  # reported above with its URL (missing file) or as unreachable
        counts["console errors"] += 1
        problems.append(f"{rel}: console error: {e[:200]}")
    return problems


def _check_page(
    browser,
    html: Path,
    base: str,
    rel: str,
    mathjax: Path | None,
    counts: Counter,
    columns: Counter,
    unreachable: set[str],
) -> list[str]:
    """One page of the book (served at ``base``) in Chromium: its problems, one line
    each; adds to ``counts``, to ``columns`` (content-column widths) and to
    ``unreachable`` (external URLs that failed)."""
    page, state, log = _open_page(browser, f"{base}/{rel}", mathjax)
    counts["pages"] += 1
    problems = []
    for src in page.evaluate(BROKEN_JS):
        counts["images: broken"] += 1
        problems.append(f"{rel}: broken image {src}")

    seen = page.evaluate(PAGE_JS)
    columns[round(seen["column"])] += 1
    counts["math: elements"] += seen["math"]
    if mathjax is not None:
        problems += _math_problems(rel, seen, state, counts)
    problems += _image_problems(html, rel, seen, counts)
    problems += _overflow_problems(page, rel, seen, counts)
    problems += _loading_problems(rel, base, log, counts, unreachable)
    page.close()
    return problems


def check_pages(
    browser, html: Path, pages: list[str], mathjax: Path | None, counts: Counter
) -> list[str]:
    """Every page in Chromium; returns one line per problem and adds to ``counts``."""
    server, port = _serve(html)
    base = f"http://127.0.0.1:{port}"
    problems, unreachable, columns = [], set(), Counter()
    try:
        for rel in pages:
            problems += _check_page(
                browser, html, base, rel, mathjax, counts, columns, unreachable
            )
        for url in sorted(unreachable):
            # external scripts (require.js, the widget manager) load from CDNs; a
            # machine without network cannot reach them, which is not a defect of the
            # book
            print(f"note: external resource not reachable from this machine: {url}")
        widths = ", ".join(f"{w} px on {n} pages" for w, n in sorted(columns.items()))
        print(f"content column: {widths} (html_rules.COLUMN_PX = {rules.COLUMN_PX})")
    finally:
        server.shutdown()
    return problems


def check_lab(browser, timeout_s: float = 180.0) -> list[str]:
    """Open CHAPTER in JupyterLab, run every cell, and wait for the explorer widget to
    render.

    JupyterLab saves what it opens, so it runs on a copy of the chapter in a temporary
    folder (the package and its data come from the installed ``gpumodels``), never on
    ``book/``. JupyterLab comes from ``requirements-lab.txt`` (``make check-html``
    installs it); without it, this says so at once.
    """
    import importlib.util

    if importlib.util.find_spec("jupyterlab") is None:
        why = "JupyterLab is not installed: pip install -r requirements-lab.txt"
        return [f"{why} -c constraints.txt (make check-html does)"]
    import tempfile

    # only called with a browser, so Playwright is installed; TimeoutError is a
    # subclass of Error
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    port = _free_port()
    work = Path(tempfile.mkdtemp(prefix="check-html-"))
    shutil.copy(ROOT / CHAPTER, work / Path(CHAPTER).name)
    lab = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.token=",
            "--ServerApp.password=",
            "--ServerApp.disable_check_xsrf=True",
            f"--ServerApp.root_dir={work}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        deadline = time.monotonic() + 60
        while True:
            try:
                page.goto(
                    f"http://127.0.0.1:{port}/lab/tree/{Path(CHAPTER).name}",
                    wait_until="load",
                )
                break
            except PlaywrightError:  # connection refused: the server is still starting
                if time.monotonic() > deadline:
                    return [f"JupyterLab did not start on port {port}"]
                time.sleep(1)
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
        # "Select Kernel" when the notebook's kernel name differs from the installed
        # one; no dialog within the timeout means the kernel started without asking
        with contextlib.suppress(PlaywrightTimeoutError):
            page.locator(".jp-Dialog button.jp-mod-accept").click(timeout=10_000)
        page.wait_for_selector(
            ".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=60_000
        )
        page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        page.locator("[data-command='runmenu:run-all']").first.click()
        try:
            page.wait_for_selector(
                ".jp-OutputArea-output .widget-slider", timeout=timeout_s * 1000
            )
        except PlaywrightError:  # the timeout, or the page crashed or closed meanwhile
            page.screenshot(path=str(ROOT / "_build" / "check-html-lab.png"))
            return [
                (
                    f"{CHAPTER}: the explorer did not render in JupyterLab within "
                    f"{timeout_s:.0f} s (screenshot: _build/check-html-lab.png)"
                )
            ]
        sliders = page.locator(".jp-OutputArea-output .widget-slider").count()
        errors = page.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        ).count()
        print(
            f"JupyterLab: {CHAPTER} ran; its explorer rendered with {sliders} sliders"
        )
        return [f"{CHAPTER}: {errors} error outputs in JupyterLab"] if errors else []
    finally:
        lab.terminate()
        try:
            lab.wait(10)
        except subprocess.TimeoutExpired:
            lab.kill()
        shutil.rmtree(work, ignore_errors=True)


COUNT_ORDER = [
    "pages",
    "math: elements",
    "math: typeset (mjx-container)",
    "math: raw delimiters shown",
    "math: raw or without MathJax in the source",
    "images: checked",
    "images: shrunk",
    "images: small text",
    "images: broken",
    "code blocks",
    "tables",
    "overflow: code blocks",
    "overflow: tables",
    "overflow: other elements",
    "cell outputs",
    "plain-text reprs",
    "Python noise in outputs",
    "NBVAL markers",
    "console errors",
]


def main(argv: list[str] | None = None) -> int:
    # the docstring's first paragraph: its summary sentence, which wraps
    summary = " ".join(__doc__.split("\n\n")[0].split())
    ap = argparse.ArgumentParser(description=summary)
    ap.add_argument(
        "--html", type=Path, default=HTML, help="the built book (default: _build/html)"
    )
    ap.add_argument(
        "--mathjax",
        type=Path,
        default=MATHJAX,
        help="a local MathJax 3 package, served in place of the CDN's "
        "(default: _build/npm/node_modules/mathjax)",
    )
    ap.add_argument(
        "--no-lab", action="store_true", help="leave out the JupyterLab run"
    )
    args = ap.parse_args(argv)
    html = args.html.resolve()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print(
            "check-html skipped: Playwright is not installed (pip install -r "
            "requirements-browser.txt)"
        )
        return 0
    chromium = _chromium()
    if chromium is None:
        print(
            "check-html skipped: no Chromium found (Debian: apt-get install chromium; "
            "or set CHROMIUM)"
        )
        return 0
    if not (html / "index.html").exists():
        print(f"check-html: no built book in {html}; run `make book` first")
        return 1
    mathjax = args.mathjax.resolve()
    if not (mathjax / "es5" / "tex-mml-chtml.js").exists():
        print(
            f"note: no local MathJax in {mathjax} (npm install --prefix _build/npm "
            "mathjax@3): whether math typesets is not checked"
        )
        mathjax = None
    pages = rules.pages_of(html)
    counts: Counter = Counter()
    problems = check_text(html, pages, counts, raw_math=mathjax is None)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
        problems += check_pages(browser, html, pages, mathjax, counts)
        if not args.no_lab:
            problems += check_lab(browser)
        browser.close()
    # one page's lines together (a stable sort keeps each check's order within the page)
    for p in sorted(problems, key=lambda line: line.split(":", 1)[0]):
        print(p)
    print("counts:")
    for key in COUNT_ORDER + sorted(set(counts) - set(COUNT_ORDER)):
        if key.startswith("math: typeset") and mathjax is None:
            continue
        print(f"  {key:44s} {counts[key]}")
    print(f"check-html: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

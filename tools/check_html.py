"""Open the built book in headless Chromium and report what a reader would see go wrong.

Run by ``make check-html`` (not part of ``make test``). For every page of ``_build/html`` it
fails on:

* broken images (an ``<img>`` that did not load),
* content that overflows the page horizontally (an element wider than the article that no
  scrolling container holds, or a page wider than the window),
* console errors and uncaught page errors.

It then starts JupyterLab on the repository, opens one chapter, runs all its cells and checks
that the explorer widget renders.

It needs Playwright (``pip install -r requirements-browser.txt``) and a Chromium (Debian:
``apt-get install chromium``; another one through ``CHROMIUM=/path/to/chrome``). Without them it
says so and exits 0: the check is optional.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
WIDTH, HEIGHT = 1280, 900
CHAPTER = "book/occupancy.ipynb"   # its explorer needs no simulation, so a run takes seconds

# Elements wider than the article that no ancestor scrolls or clips; the page's own overflow.
OVERFLOW_JS = """() => {
  const art = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  if (!art) return {items: [], count: 0, page: 0};
  const right = art.getBoundingClientRect().right + 1;
  const scrolls = el => { for (let a = el.parentElement; a && a !== art.parentElement; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll') return true; }
    return false; };
  const name = el => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className
      ? '.' + el.className.split(' ')[0] : '');
  const out = [];
  for (const el of art.querySelectorAll('*')) {
    const o = getComputedStyle(el).overflowX;
    if (o === 'auto' || o === 'scroll') continue;                   // a scrolling container: fine
    const r = el.getBoundingClientRect();
    const cut = el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;  // content wider than its box
    const past = r.width > 0 && r.right > right;                    // box past the article's edge
    if ((cut || past) && !scrolls(el)) {
      out.push(name(el) + (o === 'hidden' || o === 'clip' ? ' (clipped)' : '') + ': '
               + (el.textContent || '').trim().slice(0, 60));
    }
  }
  const page = document.documentElement.scrollWidth - window.innerWidth;
  return {items: out.slice(0, 5), count: out.length, page: page};
}"""

BROKEN_JS = "() => Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _chromium() -> str | None:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    return path if path and Path(path).exists() else None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(_Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", _free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def check_pages(browser) -> list[str]:
    """Every page of the built book; returns one line per problem."""
    server, port = _serve(HTML)
    problems, unreachable = [], set()
    try:
        pages = sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
                       if not p.relative_to(HTML).parts[0].startswith("_"))
        for rel in pages:
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            errors, offline, missing = [], set(), set()
            page.on("console", lambda m, e=errors: e.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
            page.on("requestfailed", lambda r, o=offline: o.add(r.url.split("?")[0]))
            page.on("response", lambda r, m=missing: m.add(r.url) if r.status >= 400 else None)
            page.goto(f"http://127.0.0.1:{port}/{rel}", wait_until="load")
            page.wait_for_timeout(200)
            for src in page.evaluate(BROKEN_JS):
                problems.append(f"{rel}: broken image {src}")
            over = page.evaluate(OVERFLOW_JS)
            if over["page"] > 0:
                problems.append(f"{rel}: the page is {over['page']} px wider than the window")
            for item in over["items"]:
                problems.append(f"{rel}: content wider than its box: {item}")
            if over["count"] > len(over["items"]):
                problems.append(f"{rel}: … {over['count'] - len(over['items'])} more overflowing elements")
            for url in sorted(missing):
                problems.append(f"{rel}: missing file {url}")
            for url in sorted(u for u in offline if u.startswith(f"http://127.0.0.1:{port}")):
                problems.append(f"{rel}: request failed {url}")
            external = sorted(u for u in offline if not u.startswith(f"http://127.0.0.1:{port}"))
            unreachable.update(external)
            for e in errors:
                if "Failed to load resource" in e:
                    continue        # reported above with its URL (missing file) or as unreachable
                problems.append(f"{rel}: console error: {e[:200]}")
            page.close()
        print(f"checked {len(pages)} pages")
        for url in sorted(unreachable):
            # external scripts (MathJax, require.js, the widget manager) load from CDNs; a machine
            # without network cannot reach them, which is not a defect of the book
            print(f"note: external resource not reachable from this machine: {url}")
    finally:
        server.shutdown()
    return problems


def check_lab(browser, timeout_s: float = 180.0) -> list[str]:
    """Open CHAPTER in JupyterLab, run every cell, and wait for the explorer widget to render.

    JupyterLab saves what it opens, so it runs on a copy of the chapter in a temporary folder
    (the package and its data come from the installed ``gpumodels``), never on ``book/``.
    """
    import tempfile

    port = _free_port()
    work = Path(tempfile.mkdtemp(prefix="check-html-"))
    shutil.copy(ROOT / CHAPTER, work / Path(CHAPTER).name)
    lab = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
         f"--ServerApp.root_dir={work}", "--LabApp.news_url=None", "--LabApp.check_for_updates_class="
         "jupyterlab.NeverCheckForUpdate"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        deadline = time.monotonic() + 60
        while True:
            try:
                page.goto(f"http://127.0.0.1:{port}/lab/tree/{Path(CHAPTER).name}", wait_until="load")
                break
            except Exception:
                if time.monotonic() > deadline:
                    return [f"JupyterLab did not start on port {port}"]
                time.sleep(1)
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
        try:  # "Select Kernel" when the notebook's kernel name differs from the installed one
            page.locator(".jp-Dialog button.jp-mod-accept").click(timeout=10_000)
        except Exception:
            pass
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=60_000)
        page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        page.locator("[data-command='runmenu:run-all']").first.click()
        try:
            page.wait_for_selector(".jp-OutputArea-output .widget-slider", timeout=timeout_s * 1000)
        except Exception:
            page.screenshot(path=str(ROOT / "_build" / "check-html-lab.png"))
            return [f"{CHAPTER}: the explorer did not render in JupyterLab within {timeout_s:.0f} s "
                    "(screenshot: _build/check-html-lab.png)"]
        sliders = page.locator(".jp-OutputArea-output .widget-slider").count()
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count()
        print(f"JupyterLab: {CHAPTER} ran; its explorer rendered with {sliders} sliders")
        return [f"{CHAPTER}: {errors} error outputs in JupyterLab"] if errors else []
    finally:
        lab.terminate()
        try:
            lab.wait(10)
        except subprocess.TimeoutExpired:
            lab.kill()
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("check-html skipped: Playwright is not installed (pip install -r requirements-browser.txt)")
        return 0
    chromium = _chromium()
    if chromium is None:
        print("check-html skipped: no Chromium found (Debian: apt-get install chromium; or set CHROMIUM)")
        return 0
    if not (HTML / "index.html").exists():
        print("check-html: no built book; run `make book` first")
        return 1
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
        problems = check_pages(browser)
        if "--no-lab" not in sys.argv:
            problems += check_lab(browser)
        browser.close()
    for p in problems:
        print(p)
    print(f"check-html: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

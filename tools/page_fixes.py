"""Sphinx extension: small fixes to the pages jupyter-book 1.x writes.

sphinx-thebe 0.3.1 adds its configuration script once each time the environment reads
documents; a build that reads twice puts the same ``const THEBE_JS_URL = …`` in the page
twice, and the browser reports "Identifier 'THEBE_JS_URL' has already been declared" on
every page (found by ``make check-html``). This keeps one copy of every identical
script.

The list is edited in place: Sphinx adds MathJax to the same list later (priority 500),
and an earlier version that replaced the list left every page without MathJax (raw LaTeX
on 8 pages).
"""

from __future__ import annotations


def _key(script):
    attributes = getattr(script, "attributes", {}) or {}
    # the same inline script arrives once with filename None (builder) and once with ""
    # (registry)
    return getattr(script, "filename", str(script)) or "", tuple(
        sorted((k, str(v)) for k, v in attributes.items())
    )


def _dedupe_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for s in scripts:
        k = _key(s)
        if k not in seen:
            seen.add(k)
            kept.append(s)
    # in place: Sphinx's own handlers (MathJax at priority 500) add to this same list
    # after us; a new list here would be thrown away with their additions, and no page
    # would load MathJax
    scripts[:] = kept


def setup(app):
    # early: html-page-context stops at the first handler that returns a template name
    app.connect("html-page-context", _dedupe_scripts, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

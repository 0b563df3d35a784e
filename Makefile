# gpumodels — two targets do everything on a fresh machine:
#   make book   build the HTML book into _build/html (notebooks re-executed where they or the
#               package changed; see the book target)
#   make test   unit/property tests plus nbval over every notebook in _toc.yml
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

PYTHON ?= $(shell command -v python3.11 || command -v python3)

# The notebook kernels must draw with matplotlib's inline backend: an MPLBACKEND such as Agg in
# the caller's environment would make every figure cell print nothing (nbval fails, the book has
# no figures). Keep it out of every recipe's environment.
unexport MPLBACKEND
# Byte-code caches: the venv is installed without pip's byte-compilation (--no-compile, below),
# so the first import of each module compiles it and writes its .pyc for every later process.
# A PYTHONDONTWRITEBYTECODE in the caller's environment would make every one of the hundreds of
# processes of `make test` (workers, kernels, subprocess tests) compile numpy, pandas and the
# package again from source.
unexport PYTHONDONTWRITEBYTECODE
VENV   := .venv
BIN    := $(VENV)/bin
# pytest-xdist workers; --dist loadfile keeps each notebook's cells in one worker and one kernel
JOBS   ?= 2
STAMP  := $(VENV)/.installed

# The kernels' own log: on every start ipykernel warns that its local TCP sockets are not
# encrypted, and on shutdown it may log an interrupt. Neither is about the book, and a reader of
# the build log would take them for problems. The kernels read their IPython profile from
# IPYTHONDIR, so a profile under _build sets their log level to CRITICAL; errors in cells still
# fail the build (nb_execution_raise_on_error) and nbval.
export IPYTHONDIR := $(CURDIR)/_build/ipython
KERNEL_CONFIG := $(IPYTHONDIR)/profile_default/ipython_kernel_config.py

.PHONY: book test venv clean notebooks check-html lab fuzz bench bench-record

venv: $(STAMP)

$(KERNEL_CONFIG):
	@mkdir -p $(dir $@)
	@echo 'c.IPKernelApp.log_level = "CRITICAL"' > $@

# constraints.txt is the complete lock of requirements.txt (pip and setuptools included), so
# tools/install_lock.py installs its pins without resolving (--no-deps), two pip processes
# side by side, with $(PYTHON)'s pip (pip --python) into a venv made without one (3 s less);
# it stops first if requirements.txt pins something the lock lacks. --no-compile: pip would
# byte-compile every module of every package (about 30 s more); Python compiles the few it
# imports on first use instead. tests/test_environment.py runs
# `pip check` on the result.
$(STAMP): requirements.txt constraints.txt pyproject.toml tools/install_lock.py
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) tools/install_lock.py --python $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Incremental builds: notebook outputs are cached (jupyter-cache, keyed on each notebook's own
# cells; _config.yml execute_notebooks: cache) and Sphinx keeps its environment, so a rebuild
# re-executes and re-reads only the notebooks and pages that changed. Neither can see the
# package, data or tools a notebook uses, so a hash of all of them (and of the book's
# configuration) is kept beside the build: when it differs, the cache and the environment are
# dropped and every notebook runs again. `make test` (nbval) always executes every notebook.
BOOK_INPUTS = find gpumodels data tools _config.yml _toc.yml references.bib requirements.txt \
	-type f -not -path '*/__pycache__/*' -not -name '*.pyc' | LC_ALL=C sort
book: $(STAMP) $(KERNEL_CONFIG)
	@mkdir -p _build; $(BOOK_INPUTS) | xargs cat | sha256sum | cut -c1-16 > _build/.book_inputs.new
	@if ! cmp -s _build/.book_inputs.new _build/.book_inputs; then \
	    echo "package, data or configuration changed: every notebook runs"; \
	    rm -rf _build/html _build/.doctrees _build/.jupyter_cache _build/.book_inputs; \
	fi
	$(BIN)/jupyter-book build . -W -n --keep-going
	@mv _build/.book_inputs.new _build/.book_inputs
	@echo "HTML book: _build/html/index.html"

# tools/warm_up.py compiles the numba code and computes the Huang & Li traffic once (two
# processes side by side) so that the workers and kernels load them instead of each computing
# them. The files are dealt to the workers longest first, by the seconds each took in the run
# recorded in tests/durations.csv (conftest.py; --no-loadscope-reorder keeps that order instead
# of pytest-xdist's, by number of tests), so that neither worker is left waiting long for the
# other at the end. Re-record the table after adding slow tests:
#   make test TEST_ARGS=--record-durations=tests/durations.csv
# --durations lists the slowest tests.
TEST_ARGS ?=
test: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python tools/warm_up.py
	$(BIN)/python -m pytest --durations=15 -n $(JOBS) --dist loadfile --no-loadscope-reorder \
	    $$($(BIN)/python tools/toc_notebooks.py) tests \
	    --nbval --nbval-current-env --nbval-sanitize-with tools/nbval_sanitize.cfg $(TEST_ARGS)

# Re-execute every notebook in place (commit the result): run after changing code they use.
notebooks: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python tools/execute_notebooks.py $$($(BIN)/python tools/toc_notebooks.py)

# JupyterLab on copies of the chapters in _build/lab: running and saving them there never changes
# the committed notebooks in book/ (whose stored outputs nbval compares). Existing copies are
# kept (cp -n), so a reader's edits survive; delete _build/lab for fresh ones. LAB_ARGS passes
# options to JupyterLab (e.g. LAB_ARGS=--allow-root in a container that runs as root).
# JupyterLab is not in requirements.txt (neither the book nor the tests need it): `make lab`
# installs requirements-lab.txt (its own pins, with the lock as constraints; nothing to do
# once it is there).
LAB_ARGS ?=
lab: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python -m pip install --quiet -r requirements-lab.txt -c constraints.txt
	mkdir -p _build/lab
	cp -n book/*.ipynb _build/lab/
	$(BIN)/jupyter lab --notebook-dir=_build/lab $(LAB_ARGS)

# Optional browser check of the built book (not part of `make test`; its browser-free rules run
# there as tests/test_html.py): math that MathJax did not typeset or raw LaTeX, images shrunk or
# with text too small, code blocks and tables wider than the column, Python reprs in outputs,
# console errors, and one chapter's explorer in JupyterLab. Needs the system Chromium (Debian:
# apt-get install chromium); without it, it says so and passes. The pages load MathJax from a
# CDN: the check serves it from a local copy that npm installs into _build/npm (without npm,
# it says so and leaves out only the typesetting check). Another tree or options:
#   make check-html CHECK_HTML_ARGS="--html /path/to/html --no-lab"
MATHJAX_VERSION ?= 3.2.2
MATHJAX_DIR := _build/npm/node_modules/mathjax
CHECK_HTML_ARGS ?=
check-html: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python -m pip install --quiet -r requirements-browser.txt -r requirements-lab.txt -c constraints.txt
	@if [ ! -f $(MATHJAX_DIR)/es5/tex-mml-chtml.js ]; then \
	    if command -v npm >/dev/null; then \
	        npm install --silent --no-audit --no-fund --prefix _build/npm mathjax@$(MATHJAX_VERSION) \
	            || echo "check-html: npm could not install mathjax@$(MATHJAX_VERSION)"; \
	    else echo "check-html: no npm, so no local MathJax (Debian: apt-get install npm)"; fi; \
	fi
	$(BIN)/python tools/check_html.py --mathjax $(MATHJAX_DIR) $(CHECK_HTML_ARGS)

# Hostile arguments over every public callable, counted (tests/test_fuzz_api.py runs the same
# harness and requires no bare exception, hang, escaped warning or silent bad result): the
# report, and one CSV row per call in _build/fuzz_calls.csv.
fuzz: $(STAMP)
	mkdir -p _build
	$(BIN)/python tools/fuzz_api.py --details _build/fuzz_calls.csv --unbased _build/fuzz_unbased.txt

# Every benchmark in one table: name, work, time, throughput and goal (tools/bench.py). The
# goals are reported, not asserted. bench-record also times `make book` (twice: the second,
# with nothing changed, is the goal) and `make test` in a fresh clone, and keeps the table
# with the machine and date in data/measured/benchmarks.csv for the book's benchmark page.
bench: $(STAMP)
	$(BIN)/python tools/bench.py

bench-record: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python tools/bench.py --builds --csv data/measured/benchmarks.csv

clean:
	rm -rf _build .pytest_cache .hypothesis

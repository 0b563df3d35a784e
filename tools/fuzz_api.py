"""Hostile arguments over the whole public API, counted (issue 38): a measurement.

Walks :mod:`gpumodels`, takes every public function and class defined in each module,
builds a valid baseline call from the signature's defaults and a registry of example
values by parameter name and annotation, then replaces one parameter at a time by each
of a fixed list of hostile values and classifies what happens:

- ``clear error``: one of the package's own error classes (those of
  :mod:`gpumodels.ground.errors`, or another exception class defined in the package),
  or a ``ValueError``/``TypeError`` whose message names the parameter;
- ``bare exception``: anything else raised (AttributeError, a bare KeyError,
  IndexError, ZeroDivisionError, OverflowError, numpy's errors, a ValueError or
  TypeError that does not name the parameter);
- ``hang``: more than ``--limit`` seconds (SIGALRM, or the parent's watchdog);
- ``escaped warning``: returned, but a RuntimeWarning escaped;
- ``silent bad result``: returned a NaN, an infinity or a negative number (walking
  floats, arrays, dataclass fields, dict values, sequences and DataFrame columns) of a
  kind the baseline result did not contain. A field of a record returned by a
  function that bears the hostile parameter's own name and holds nothing but the
  hostile value is the argument echoed back (``Estimate.alpha``), not a computed
  value, and is not judged (a class's own record storing a bad value is judged); nor
  are the results of the pass-through checkers in ``PASS_THROUGH``, whose contract is
  to return their argument;
- ``accepted``: returned normally with no such number.

The modules are dealt to ``--jobs`` worker processes (two by default, balanced by
their number of callables); a worker imports the package once and fuzzes its modules
in turn, under a memory limit and in a temporary working directory, so a hostile call
cannot hang the harness: a worker that stops answering is killed and a new one goes
on from the next call. Modules of one worker share the process, so a hostile call that
changed shared state (a cached table) could affect later calls of that worker.

    .venv/bin/python tools/fuzz_api.py [--details calls.csv] [--jobs 2]

``--details`` writes one CSV row per hostile call (function, parameter, value, class,
exception type, the first 120 characters of its message; for a silent bad result the
kinds of bad number found, e.g. ``nan+negative``). Counts are split between plain
functions and class constructors (records such as ``hardware.GPU`` that store a
negative field are counted as silent bad results).

Prints where gpumodels was imported from, how many callables were found, skipped, had
no baseline and were fuzzed, the counts per class, and the wall time.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import csv
import dataclasses
import importlib
import inspect
import json
import math
import os
import pkgutil
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings

CLASSES = (
    "clear error",
    "bare exception",
    "hang",
    "escaped warning",
    "silent bad result",
    "accepted",
)
HOSTILE_NAMES = (
    "None",
    "{}",
    "wrong kind",
    "-1",
    "0",
    "-0.0",
    "nan",
    "inf",
    "-inf",
    "1e300",
    "10**400",
    "True",
    "'abc'",
    "[1, 2]",
)
# private modules (a last component starting with "_") are helpers, not public API
SKIP_MODULE = re.compile(
    r"(^gpumodels\.__main__|explorer|^gpumodels\.ground\.widgets$|\._[a-z]\w*$)"
)
SKIP_NAME = re.compile(r"(^explorer$|_explorer$)")
# checkers whose result is their argument, converted (to_float, out) or checked only
# against bounds the caller gives (check_real with lo=None, finite_result): a negative
# or an infinity returned is the caller's own value, so only errors are judged
# (estimate.grid checks and broadcasts its arguments: alpha = inf is allowed)
PASS_THROUGH = {
    "gpumodels.ground.validate.to_float",
    "gpumodels.ground.validate.out",
    "gpumodels.ground.validate.check_real",
    "gpumodels.ground.validate.finite_result",
    "gpumodels.comparisons.prior.estimate.grid",  # checks and broadcasts n and alpha
}
# record fields whose documented meaning of ``inf`` is "no limit": a record built with
# inf there stores a valid value, not a silent bad one
DOCUMENTED_INF = {
    # "inf: the limit is switched off" (mem_thru, alu_thru, issue_thru), "inf: no
    # contention" (c)
    "gpumodels.facts.params.Params": {"mem_thru", "alu_thru", "issue_thru", "c"},
    # mwp_cwp._PREDICTION_UNBOUNDED: a limit that does not bind
    "gpumodels.engines.mwp_cwp.Prediction": {
        "mwp_without_bw_full",
        "mwp_without_bw",
        "mwp_peak_bw",
        "n_pw",
        "cwp_full",
    },
    # the condition number of a singular fit
    "gpumodels.papers.huang_li.model.OverlapModel": {"condition"},
}
PLOT_PARAMS = {"ax", "axes", "fig", "a1", "a2"}
# calls that run programs, compile, or write outside the working directory
SIDE_EFFECTS = {
    "gpumodels.comparisons.bench.build",
    "gpumodels.comparisons.bench.run",
    "gpumodels.comparisons.bench.nvcc",
    "gpumodels.comparisons.silicon.command_output",
    "gpumodels.comparisons.silicon.main",
    "gpumodels.ground.plotting.figure",
    "gpumodels.ground.plotting.use_style",
}


# ---------------------------------------------------------------- discovery


def discover():
    """(module name, [(name, object, skip reason or '')]) for every module, sorted."""
    import gpumodels

    found = []
    names = sorted(
        m.name for m in pkgutil.walk_packages(gpumodels.__path__, "gpumodels.")
    )
    for modname in ["gpumodels", *names]:
        if SKIP_MODULE.search(modname):
            continue
        module = importlib.import_module(modname)
        items = []
        for name, obj in sorted(vars(module).items()):
            if name.startswith("_") or not callable(obj):
                continue
            if getattr(obj, "__module__", None) != modname:
                continue
            items.append((name, obj, skip_reason(modname, name, obj)))
        found.append((modname, items))
    return found


def skip_reason(modname, name, obj):
    if SKIP_NAME.search(name):
        return "widget"
    if f"{modname}.{name}" in SIDE_EFFECTS:
        return "side effects"
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return "exception class"
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "no signature"
    if PLOT_PARAMS & set(sig.parameters):
        return "plotting"
    if not fuzzable(sig):
        return "no parameters"
    return ""


def fuzzable(sig):
    kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p for p in sig.parameters.values() if p.kind not in kinds]


# ---------------------------------------------------------------- example values


def _examples():
    """Parameter name -> candidate valid values (factories, tried in order)."""
    import numpy as np

    from gpumodels import hardware, sim, transit, volkov
    from gpumodels.engines import mwp_cwp
    from gpumodels.engines.refsim import kernels
    from gpumodels.facts import published
    from gpumodels.papers.huang_li import analysis

    def gens():
        return {g: volkov.params(g) for g in ("G80", "GT200", "Fermi", "Kepler")}

    sm = sim.SM(
        units={"mem": sim.Unit(40, 0.5, max_in_flight=4), "alu": sim.Unit(6, 2)},
        schedulers=2,
    )
    gpu_names = ["GTX680", "Kepler", "H100", "C2075", "GTX470", "FX5600", "GTX280"]
    return {
        "p": [lambda: volkov.params("Kepler")],
        "g80_two_term": [lambda: volkov.params("G80")],
        "P": [gens],
        "gpu": [
            *[lambda g=g: g for g in gpu_names],
            lambda: hardware.get_gpu("GTX680"),
        ],
        "name": [*[lambda g=g: g for g in gpu_names], lambda: "x"],
        "gen": [lambda: "Kepler"],
        "cc": [lambda: "7.5"],
        "model": [lambda: "volkov_basic", lambda: "volkov", lambda: "hong_kim2009"],
        "models": [lambda: ("volkov_basic",), lambda: None],
        "machine": [
            lambda: transit.machine("C2075"),
            lambda: mwp_cwp.machine("GTX280"),
            lambda: analysis.k80(),
        ],
        "sm": [lambda: sm],
        "programs": [lambda: sim.alpha_program(2)],
        "n_warps": [lambda: 4],
        "cycles": [lambda: 200],
        "kernel": [lambda: "vecadd", lambda: kernels.vecadd()],
        "benchmark": [lambda: "vecadd", lambda: "neuralnet", lambda: "merge"],
        "key": [lambda: published.keys()[0]],
        "fraction": [lambda: 0.9],
        "rho": [lambda: 0.5],
        "x": [lambda: 50.0],
        "latency": [lambda: 300.0],
        "throughput": [lambda: 2.0],
        "precision": [lambda: "SP"],
        "preset": [lambda: "k80_printed_col_low"],
        "set_": [lambda: "eval"],
        "variant": [lambda: "full", lambda: "sim2012"],
        "addresses": [lambda: np.arange(32) * 4],
        "values": [lambda: np.array([1.0, 2.0, 4.0])],
        "value": [lambda: 8.0],
        "allowed": [lambda: ("a", "b")],
        "direction": [lambda: "n"],
        "clock_ghz": [lambda: 1.0],
        "bytes_per_warp": [lambda: 128],
    }


_EXAMPLES = None


def candidates(param):
    """Valid example values for a parameter: by name, else by annotation."""
    global _EXAMPLES
    if _EXAMPLES is None:
        _EXAMPLES = _examples()
    if param.name in _EXAMPLES:
        return _EXAMPLES[param.name]
    ann = str(param.annotation)
    if "Params" in ann:
        return _EXAMPLES["p"]
    if ann in ("str", "str | None"):
        return [lambda: "Kepler", lambda: "x"]
    if ann.startswith("bool"):
        return [lambda: True]
    if "ndarray" in ann:
        import numpy as np

        return [lambda: np.array([8.0, 16.0])]
    if ann.startswith("int"):
        return [lambda: 8]
    return [lambda: 8.0, lambda: 8]


def wrong_kind(value):
    """A number where an object or string is expected, a numeric string for a number."""
    import numbers

    import numpy as np

    if isinstance(value, (numbers.Number, np.ndarray)) and not isinstance(value, bool):
        return "8"
    return 8


def hostile(value, index):
    return [
        lambda: None,
        dict,
        lambda: wrong_kind(value),
        lambda: -1,
        lambda: 0,
        lambda: -0.0,
        lambda: float("nan"),
        lambda: float("inf"),
        lambda: float("-inf"),
        lambda: 1e300,
        lambda: 10**400,
        lambda: True,
        lambda: "abc",
        lambda: [1, 2],
    ][index]()


# ---------------------------------------------------------------- one call


class Hang(BaseException):
    """Raised by SIGALRM; a BaseException, so ``except Exception`` lets it through."""


def _alarm(signum, frame):
    raise Hang()


def call(obj, params, values, limit):
    """(result, exception, recorded warnings) of obj called with values by name."""
    args = [values[p.name] for p in params if p.kind == p.POSITIONAL_ONLY]
    kwargs = {p.name: values[p.name] for p in params if p.kind != p.POSITIONAL_ONLY}
    kwargs = {k: v for k, v in kwargs.items() if v is not _DEFAULT}
    result = error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            result = obj(*args, **kwargs)
        except Hang as e:
            error = e
        except Exception as e:  # noqa: BLE001 -- what is being measured
            error = e
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return result, error, caught


_DEFAULT = object()


_BASELINES = None


def given_baseline(qualname):
    """The example arguments ``tools/fuzz_examples`` gives for a callable (by dotted
    name), or None."""
    global _BASELINES
    if _BASELINES is None:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from fuzz_examples import BASELINES

        _BASELINES = BASELINES
    factory = _BASELINES.get(qualname)
    return None if factory is None else factory()


def _ticking(build, tick, every=5.0):
    """``build()``, with ``tick()`` every ``every`` seconds from a helper thread while
    it runs: an example whose arguments take long to build (a whole evaluation, about
    30 s the first time in a worker) is untimed, but must not look like a hang to the
    parent's watchdog."""
    done = threading.Event()

    def beat():
        while not done.wait(every):
            tick()

    t = threading.Thread(target=beat, daemon=True)
    t.start()
    try:
        return build()
    finally:
        done.set()
        t.join()


def baseline(obj, params, limit, tick=lambda: None, qualname=""):
    """Valid values by parameter name, and the baseline result, or None.

    The arguments of ``tools/fuzz_examples`` come first; a parameter they do not give
    takes its default, else an example value by name or annotation."""
    values = {}
    options = {}
    try:
        given = _ticking(lambda: given_baseline(qualname), tick) or {}
    except Exception:  # noqa: BLE001 -- an example that cannot be built
        return None, None
    for p in params:
        if p.name in given:
            values[p.name] = given[p.name]
        elif p.default is not p.empty:
            values[p.name] = p.default if p.kind == p.POSITIONAL_ONLY else _DEFAULT
        else:
            options[p.name] = candidates(p)
    choice = {name: 0 for name in options}
    tries = 0
    while tries < 12:
        tries += 1
        tick()
        try:
            for name, i in choice.items():
                values[name] = options[name][i]()
        except Exception:  # noqa: BLE001 -- an example that cannot be built
            return None, None
        result, error, _ = call(obj, params, values, limit * 5)
        if error is None:
            return values, result
        if not _next_choice(choice, options):
            return None, None
    return None, None


def _next_choice(choice, options):
    """Move the first parameter with another candidate on to it (greedy)."""
    for name in choice:
        if choice[name] + 1 < len(options[name]):
            choice[name] += 1
            return True
    return False


# ---------------------------------------------------------------- results


def bad_kinds(result, depth=0, echo=None):
    """The kinds of bad numbers ('nan', 'inf', 'negative') found in a result; a
    record's field named ``echo[0]`` that holds nothing but the value ``echo[1]`` (the
    argument echoed back) is left out."""
    import numpy as np

    if depth > 6 or result is None or isinstance(result, (bool, str, bytes)):
        return set()
    if isinstance(result, (int, float, np.number)):
        return _scalar_kinds(float(result))
    if isinstance(result, np.ndarray):
        if result.dtype.kind in "iuf" and result.size:
            return _number_kinds(result.astype(float, copy=False))
        if result.dtype.kind == "O":
            return _walk(list(result.ravel()[:1000]), depth)
        return set()
    if isinstance(result, dict):
        return _walk(list(result.values()), depth)
    if isinstance(result, (list, tuple, set, frozenset)):
        return _walk(list(result)[:1000], depth)
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        fields = [
            getattr(result, f.name, None)
            for f in dataclasses.fields(result)
            if not (echo and f.name == echo[0] and _holds_only(f, result, echo[1]))
        ]
        return _walk(fields, depth)
    if type(result).__name__ in ("DataFrame", "Series"):
        numeric = (
            result.select_dtypes("number") if hasattr(result, "columns") else result
        )
        if getattr(numeric, "size", 0) and numeric.dtypes is not None:
            try:
                return _number_kinds(numeric.to_numpy(dtype=float))
            except (TypeError, ValueError):
                return set()
    return set()


def _holds_only(field, record, value):
    """True if the record's field holds nothing but the number ``value``."""
    import numpy as np

    try:
        got = np.asarray(getattr(record, field.name), dtype=float)
        want = float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    same = (got == want) | (np.isnan(got) & math.isnan(want))
    return got.size > 0 and bool(np.all(same))


def _walk(items, depth):
    kinds = set()
    for item in items:
        kinds |= bad_kinds(item, depth + 1)
    return kinds


def _scalar_kinds(x):
    if math.isnan(x):
        return {"nan"}
    kinds = {"inf"} if math.isinf(x) else set()
    if x < 0:
        kinds.add("negative")
    return kinds


def _number_kinds(array):
    import numpy as np

    if np.isfinite(array).all():  # the common case, in one pass
        return {"negative"} if array.size and array.min() < 0 else set()
    with np.errstate(all="ignore"):
        kinds = set()
        if np.isnan(array).any():
            kinds.add("nan")
        if np.isinf(array).any():
            kinds.add("inf")
        if (array < 0).any():
            kinds.add("negative")
    return kinds


def own_errors():
    """The package's error classes (those an older version lacks are left out, so
    that the harness can measure it too)."""
    from gpumodels.ground import errors

    names = (
        "InputTypeError",
        "OutOfRangeError",
        "UnknownNameError",
        "OutsideDomainError",
        "DataError",
    )
    return tuple(getattr(errors, n) for n in names if hasattr(errors, n))


def classify(param, result, error, caught, base_kinds, own, judge=True, echo=None):
    """(class, exception type, message, detail)."""
    if isinstance(error, Hang):
        return "hang", "", "", ""
    if error is not None:
        message = str(error)
        kind = type(error).__name__
        named = re.search(
            rf"(?<![A-Za-z0-9_]){re.escape(param)}(?![A-Za-z0-9_])", message
        )
        package = type(error).__module__.startswith("gpumodels")
        if isinstance(error, own) or package:
            return "clear error", kind, message, ""
        if (
            isinstance(error, (ValueError, TypeError))
            and not isinstance(error, (KeyError, IndexError))
            and named
        ):
            return "clear error", kind, message, ""
        return "bare exception", kind, message, ""
    runtime = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    if runtime:
        return (
            "escaped warning",
            runtime[0].category.__name__,
            str(runtime[0].message),
            "",
        )
    try:
        kinds = bad_kinds(result, echo=echo) - base_kinds if judge else set()
    except Exception:  # noqa: BLE001 -- an odd result: do not count it as bad
        kinds = set()
    if kinds:
        return "silent bad result", "", "", "+".join(sorted(kinds))
    return "accepted", "", "", ""


# ---------------------------------------------------------------- worker


def _warm_up():
    """Run ``tools/fuzz_examples.WARM_UP`` (calls that compile the package's numba
    functions); a failure there is left to the fuzzed calls to show."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from fuzz_examples import WARM_UP

    for f in WARM_UP:
        try:
            f()
        except Exception as e:  # noqa: BLE001 -- the fuzzed calls report it
            print(f"warm-up {f.__name__}: {e}", file=sys.stderr)


def worker(modnames, start, limit):
    """Fuzz the modules in turn, the first from call index ``start``; one JSON line per
    event on fd 3."""
    out = os.fdopen(3, "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    signal.signal(signal.SIGALRM, _alarm)
    import numpy as np

    np.seterr(all="warn")
    own = own_errors()
    # compile the numba functions first (untimed, with a heartbeat): a first compile
    # inside a timed call cannot be interrupted and would read as a hang
    _ticking(_warm_up, lambda: out.write(json.dumps({"event": "warm"}) + "\n"))
    for i, modname in enumerate(modnames):
        out.write(json.dumps({"event": "module", "module": modname}) + "\n")
        _fuzz_module(out, modname, start if i == 0 else 0, limit, own)


def _fuzz_module(out, modname, start, limit, own):
    module = importlib.import_module(modname)
    index = 0
    for name, obj in sorted(vars(module).items()):
        if name.startswith("_") or not callable(obj):
            continue
        if getattr(obj, "__module__", None) != modname:
            continue
        if skip_reason(modname, name, obj):
            continue
        params = fuzzable(inspect.signature(obj))
        count = 1 + len(params) * len(HOSTILE_NAMES)
        if index + count <= start:
            index += count
            continue
        index = fuzz_callable(
            out, f"{modname}.{name}", obj, params, index, start, limit, own
        )


def fuzz_callable(out, qualname, obj, params, index, start, limit, own):
    name = qualname.rsplit(".", 1)[1]

    def emit(**row):
        out.write(json.dumps(row) + "\n")

    if index >= start:
        emit(event="begin", index=index)
    values, result = baseline(
        obj, params, limit, lambda: emit(event="tick", index=index), qualname
    )
    if index >= start:
        emit(event="base", index=index, function=name, ok=values is not None)
    index += 1
    if values is None:
        return index + len(params) * len(HOSTILE_NAMES)
    try:
        base_kinds = bad_kinds(result)
    except Exception:  # noqa: BLE001 -- an odd result
        base_kinds = set()
    for p in params:
        for h, shown in enumerate(HOSTILE_NAMES):
            if index >= start:
                emit(event="begin", index=index)
                row = one_hostile(obj, params, values, p, h, limit, base_kinds, own)
                emit(
                    event="row",
                    index=index,
                    function=name,
                    parameter=p.name,
                    value=shown,
                    **row,
                )
            index += 1
    return index


def one_hostile(obj, params, values, p, h, limit, base_kinds, own):
    valid = values[p.name]
    if valid is _DEFAULT:
        valid = p.default
    try:
        bad = hostile(valid, h)
    except Exception:  # noqa: BLE001
        bad = None
    result, error, caught = call(obj, params, {**values, p.name: bad}, limit)
    judge = f"{obj.__module__}.{obj.__name__}" not in PASS_THROUGH
    # a function's record that stores the argument it got echoes it; a class's own
    # record storing a bad value is what the fuzz looks for, unless the field's
    # documented meaning of inf is "no limit"
    qualname = f"{obj.__module__}.{obj.__name__}"
    echo = (p.name, bad)
    if inspect.isclass(obj) and not (
        p.name in DOCUMENTED_INF.get(qualname, ()) and bad == float("inf")
    ):
        echo = None
    cls, kind, message, detail = classify(
        p.name, result, error, caught, base_kinds, own, judge, echo
    )
    message = " ".join(message.split())[:120]
    return {"cls": cls, "exception": kind, "message": message, "detail": detail}


# ---------------------------------------------------------------- parent


def run_batch(modnames, limit, watchdog, run_worker=None):
    """Every event of some modules, by module, fuzzed in one worker process in turn;
    after a hang or a crash a new worker goes on from the call after the lost one (a
    module whose worker dies before its first call is recorded as a crash and
    skipped). ``run_worker`` replaces :func:`_run_worker` (for tests)."""
    run_worker = run_worker or _run_worker
    events = {m: [] for m in modnames}
    todo, start = list(modnames), 0
    while todo:
        status, got = run_worker(todo, start, limit, watchdog)
        current, begun = todo[0], []
        for e in got:
            if e["event"] == "warm":  # the warm-up's heartbeat
                continue
            if e["event"] == "module":
                current, begun = e["module"], []
                continue
            events[current].append(e)
            if e["event"] == "begin":
                begun.append(e["index"])
        if status == "done":
            return events
        here = todo.index(current)
        if not begun:  # died before its first call in this module
            index = start if here == 0 else 0
            events[current].append({"event": "crash", "index": index, "note": status})
            todo, start = todo[here + 1 :], 0
            continue
        events[current].append({"event": "lost", "index": begun[-1], "note": status})
        todo, start = todo[here:], begun[-1] + 1
    return events


def _run_worker(modnames, start, limit, watchdog):
    read_fd, write_fd = os.pipe()
    cmd = [
        sys.executable,
        __file__,
        "--worker",
        ",".join(modnames),
        "--start",
        str(start),
        "--limit",
        str(limit),
    ]
    with tempfile.TemporaryDirectory(prefix="fuzz_api_") as cwd:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            pass_fds=(write_fd,),
            env=_worker_env(write_fd),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write_fd)
        events, status = _read_events(proc, read_fd, watchdog)
        os.close(read_fd)
        if status == "hang":
            proc.kill()
        code = proc.wait()
    if status == "eof":
        status = "done" if code == 0 else f"exit {code}"
    return status, events


def _read_events(proc, fd, watchdog):
    events, buffer = [], b""
    with os.fdopen(os.dup(fd), "rb", buffering=0) as stream:
        while True:
            ready, _, _ = select.select([stream], [], [], watchdog)
            if not ready:
                return events, "hang"
            chunk = stream.read(65536)
            if not chunk:
                return events, "eof"
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            events.extend(json.loads(line) for line in lines if line.strip())


def _worker_env(write_fd):
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0", FUZZ_FD=str(write_fd))
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    # the worker runs in a temporary directory: keep the package importable
    import gpumodels

    root = os.path.dirname(os.path.dirname(os.path.abspath(gpumodels.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(
        [root, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    )
    return env


def _limit_memory():
    import resource

    cap = 4 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def collect(found, jobs, limit, watchdog, only=()):
    """Events by module: the modules dealt to ``jobs`` workers, each batch balanced by
    its number of callables."""
    sizes = {
        m: sum(not skip for _, _, skip in items)
        for m, items in found
        if any(not skip for _, _, skip in items) and (not only or m.startswith(only))
    }
    batches = [[] for _ in range(max(1, jobs))]
    load = [0] * len(batches)
    for m in sorted(sizes, key=lambda m: -sizes[m]):
        i = load.index(min(load))
        batches[i].append(m)
        load[i] += sizes[m]
    batches = [sorted(b) for b in batches if b]
    with concurrent.futures.ThreadPoolExecutor(len(batches)) as pool:
        futures = [pool.submit(run_batch, b, limit, watchdog) for b in batches]
        merged = {}
        for f in futures:
            merged.update(f.result())
    return {m: merged[m] for m in sorted(merged)}


def rows_of(events_by_module):
    """CSV rows in a deterministic order, and callables with and without a baseline."""
    rows, based, unbased, lost = [], [], [], []
    for modname, events in events_by_module.items():
        by_index = {}
        for e in events:
            by_index.setdefault(e["index"], []).append(e)
        for index in sorted(by_index):
            for e in by_index[index]:
                if e["event"] == "base":
                    (based if e["ok"] else unbased).append(f"{modname}.{e['function']}")
                elif e["event"] == "row":
                    rows.append(_row(modname, e))
                elif e["event"] in ("lost", "crash"):
                    lost.append((modname, e))
    return rows, based, unbased, lost


def _row(modname, e):
    return {
        "function": f"{modname}.{e['function']}",
        "parameter": e["parameter"],
        "value": e["value"],
        "class": e["cls"],
        "exception": e["exception"],
        "message": e["message"] or e["detail"],
    }


def _lost_rows(lost, rows):
    """A call the watchdog killed (or that crashed the worker) counts as a hang."""
    for modname, e in lost:
        rows.append(
            {
                "function": f"{modname}.?",
                "parameter": "?",
                "value": "?",
                "class": "hang",
                "exception": e["note"],
                "message": f"worker lost at call {e['index']}",
            }
        )


def report(found, rows, based, unbased, lost, seconds):
    import gpumodels

    callables = [(m, n, s) for m, items in found for n, _, s in items]
    skipped = collections.Counter(s for _, _, s in callables if s)
    print(f"gpumodels imported from {os.path.dirname(gpumodels.__file__)}")
    print(f"public callables found: {len(callables)} in {len(found)} modules")
    for reason, count in sorted(skipped.items()):
        print(f"  skipped, {reason}: {count}")
    print(f"  fuzzed: {len(based)} with a baseline; no baseline: {len(unbased)}")
    classes = {
        f"{m}.{n}" for m, items in found for n, o, _ in items if inspect.isclass(o)
    }
    counts = collections.Counter(r["class"] for r in rows)
    in_classes = collections.Counter(
        r["class"] for r in rows if r["function"] in classes
    )
    print(f"\nhostile calls: {len(rows)}")
    print(f"{'class':<20}{'calls':>8}{'share':>9}{'functions':>11}{'classes':>9}")
    for cls in CLASSES:
        share = counts[cls] / len(rows) if rows else 0.0
        own = counts[cls] - in_classes[cls]
        print(f"{cls:<20}{counts[cls]:>8}{share:>9.1%}{own:>11}{in_classes[cls]:>9}")
    if lost:
        print(f"(workers lost and restarted: {len(lost)})")
    for cls in ("bare exception", "silent bad result", "hang", "escaped warning"):
        top = collections.Counter(r["function"] for r in rows if r["class"] == cls)
        if top:
            print(f"\ntop functions by {cls}:")
            for fn, count in sorted(top.items(), key=lambda kv: (-kv[1], kv[0]))[:10]:
                print(f"  {count:>5}  {fn}")
    kinds = collections.Counter(
        r["exception"] for r in rows if r["class"] == "bare exception"
    )
    print("\nbare exceptions by type:")
    for kind, count in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {count:>5}  {kind}")
    print(f"\nwall time: {seconds:.0f} s")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--details", help="write every call to this CSV file")
    parser.add_argument(
        "--unbased", help="write the callables without a valid baseline to this file"
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--limit", type=float, default=2.0, help="seconds per call")
    parser.add_argument(
        "--watchdog",
        type=float,
        default=120.0,
        help="seconds without output before a worker is killed",
    )
    parser.add_argument(
        "--modules",
        nargs="*",
        default=(),
        help="fuzz only the modules whose dotted names start with one of these",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        os.dup2(int(os.environ["FUZZ_FD"]), 3)
        _limit_memory()
        worker(args.worker.split(","), args.start, args.limit)
        return 0
    began = time.monotonic()
    found = discover()
    events = collect(found, args.jobs, args.limit, args.watchdog, tuple(args.modules))
    rows, based, unbased, lost = rows_of(events)
    _lost_rows(lost, rows)
    if args.details:
        with open(args.details, "w", newline="") as f:
            fields = ["function", "parameter", "value", "class", "exception", "message"]
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
    if args.unbased:
        with open(args.unbased, "w") as f:
            f.writelines(name + "\n" for name in sorted(unbased))
    report(found, rows, based, unbased, lost, time.monotonic() - began)
    return 0


if __name__ == "__main__":
    sys.exit(main())

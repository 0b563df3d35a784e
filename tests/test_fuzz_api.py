"""The fuzz harness over the whole public API, as a regression test (issue 38).

``tools/fuzz_api.py`` discovers every public function and class of ``gpumodels``,
calls each with valid arguments, then replaces one argument at a time by each hostile
value (None, {}, a wrong kind, -1, 0, -0.0, NaN, ±inf, 1e300, 10**400, True, 'abc',
[1, 2]). The test requires every outcome to be a clear error or an accepted value: no
bare exception, no hang (a per-call time limit), no escaped RuntimeWarning, no silent
NaN, inf or negative number. The callables the harness cannot call validly must be
exactly those ``tools/fuzz_examples`` names with a reason, so a new public function
without a valid call fails here. The harness's own classification is tested first on
made-up functions, so that it can fail.
"""

import collections
import importlib.util
import math
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gpumodels.ground.errors import OutOfRangeError

ROOT = Path(__file__).resolve().parent.parent


def _load():
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location("fuzz_api", ROOT / "tools" / "fuzz_api.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


fuzz = _load()
OWN = fuzz.own_errors()


def _outcome(f, param="x", value=1.0, base=set()):
    import signal

    signal.signal(signal.SIGALRM, fuzz._alarm)
    import inspect

    params = fuzz.fuzzable(inspect.signature(f))
    result, error, caught = fuzz.call(f, params, {param: value}, 0.3)
    return fuzz.classify(param, result, error, caught, base, OWN)[0]


def _bare(x):
    return {}["missing"]


def _named(x):
    raise ValueError(f"x must be positive, got {x}")


def _own(x):
    raise OutOfRangeError("whatever")


def _sleeps(x):
    time.sleep(5)


def _warns(x):
    return np.float64(1.0) / np.float64(0.0)


def _nan(x):
    return {"time": [1.0, math.nan]}


def _negative(x):
    return np.array([1.0, -2.0])


def test_the_harness_tells_each_outcome_apart():
    with np.errstate(all="warn"):
        assert _outcome(_bare) == "bare exception"
        assert _outcome(_named) == "clear error"
        assert _outcome(_own) == "clear error"
        assert _outcome(_sleeps) == "hang"
        assert _outcome(_warns) == "escaped warning"
    assert _outcome(_nan) == "silent bad result"
    assert _outcome(_negative) == "silent bad result"
    assert _outcome(_negative, base={"negative"}) == "accepted"  # as in the baseline
    assert _outcome(lambda x: 2.0) == "accepted"


def test_an_echoed_argument_is_not_judged():
    import dataclasses

    @dataclasses.dataclass
    class Estimate:
        alpha: float
        ipc: float

    assert fuzz.bad_kinds(Estimate(math.inf, 1.0), echo=("alpha", math.inf)) == set()
    assert fuzz.bad_kinds(Estimate(1.0, math.inf), echo=("alpha", math.inf)) == {"inf"}
    # a field of that name holding something else than the argument is judged
    assert fuzz.bad_kinds(Estimate(-1.0, 1.0), echo=("alpha", math.inf)) == {"negative"}


def test_a_record_class_storing_a_bad_value_is_a_silent_bad_result():
    import dataclasses

    @dataclasses.dataclass
    class Machine:
        sm_count: int = 16

    Machine.__module__ = "tests.fake"
    params = fuzz.fuzzable(__import__("inspect").signature(Machine))
    base = {"sm_count": 16}
    row = fuzz.one_hostile(Machine, params, base, params[0], 3, 1.0, set(), OWN)  # -1
    assert row["cls"] == "silent bad result" and row["detail"] == "negative"


def _events(module, *begins):
    return [{"event": "module", "module": module}] + [
        {"event": "begin", "index": i} for i in begins
    ]


def test_a_batch_goes_on_after_a_hang_and_skips_a_module_that_crashes_at_once():
    calls = []
    script = iter([
        # a: calls 0, 1, then hangs in call 2
        ("hang", _events("a", 0, 1, 2)),
        # restarted at a, call 3: finishes a, moves on to b, dies before b's first call
        ("exit 1", _events("a", 3, 4) + _events("b")),
        # restarted at c
        ("done", _events("c", 0)),
    ])

    def fake(todo, start, limit, watchdog):
        calls.append((list(todo), start))
        return next(script)

    events = fuzz.run_batch(["a", "b", "c"], 1.0, 1.0, run_worker=fake)
    assert calls == [(["a", "b", "c"], 0), (["a", "b", "c"], 3), (["c"], 0)]
    lost = [e for e in events["a"] if e["event"] == "lost"]
    assert lost == [{"event": "lost", "index": 2, "note": "hang"}]
    assert events["b"] == [{"event": "crash", "index": 0, "note": "exit 1"}]
    assert [e["index"] for e in events["c"]] == [0]


def test_every_public_callable_gives_a_clear_error_or_a_sound_value():
    found = fuzz.discover()
    # one fuzzing worker: under make test the other pytest worker keeps the second core
    # busy, and a second fuzzing worker would import and warm up the package again
    events = fuzz.collect(found, jobs=1, limit=2.0, watchdog=120.0)
    rows, based, unbased, lost = fuzz.rows_of(events)
    fuzz._lost_rows(lost, rows)
    assert len(based) >= 450 and len(rows) > 20000
    counts = collections.Counter(r["class"] for r in rows)
    bad = [r for r in rows if r["class"] not in ("clear error", "accepted")]
    shown = "\n".join(
        f"{r['function']}({r['parameter']}={r['value']}): {r['class']} "
        f"{r['exception']} {r['message'][:80]}"
        for r in bad[:30]
    )
    assert not bad, f"{dict(counts)}\n{shown}"
    from fuzz_examples import NO_BASELINE

    assert sorted(unbased) == sorted(NO_BASELINE), (
        "callables without a valid call must be those of tools/fuzz_examples "
        f"NO_BASELINE: new {sorted(set(unbased) - set(NO_BASELINE))}, "
        f"now callable {sorted(set(NO_BASELINE) - set(unbased))}"
    )


def test_a_slow_example_ticks_so_the_watchdog_does_not_kill_it():
    ticks = []
    got = fuzz._ticking(lambda: (time.sleep(0.35), "built")[1], lambda: ticks.append(1), every=0.1)
    assert got == "built" and len(ticks) >= 2
    n = len(ticks)
    time.sleep(0.25)
    assert len(ticks) == n  # the helper stops with the build


def test_the_warm_up_heartbeat_is_not_an_event_of_a_module():
    def fake(todo, start, limit, watchdog):
        return "done", [{"event": "warm"}, {"event": "warm"}] + _events("a", 0)

    events = fuzz.run_batch(["a"], 1.0, 1.0, run_worker=fake)
    assert [e["event"] for e in events["a"]] == [e["event"] for e in _events("a", 0)[1:]]

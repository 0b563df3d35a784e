"""gpumodels.ground._jit: numba imported on the first call of a compiled function."""

import subprocess
import sys
import types

import numpy as np
import pytest

from gpumodels.ground import _jit


def test_importing_the_models_and_simulators_does_not_import_numba():
    code = (
        "import sys\n"
        "import gpumodels.scoreboard, gpumodels.engines.sim\n"
        "import gpumodels.engines.refsim.simulator, gpumodels.papers.huang_li.analysis\n"
        "assert 'numba' not in sys.modules, 'numba imported'\n"
        "from gpumodels.engines.refsim import trace\n"
        "trace.lines_per_row(__import__('numpy').array([[0, 4, 128]]), 128, 4)\n"
        "assert 'numba' in sys.modules, 'numba not imported by a compiled call'\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def _module(source: str) -> types.ModuleType:
    m = types.ModuleType("jit_case")
    m.njit = _jit.njit
    exec(source, m.__dict__)
    return m


def test_a_compiled_function_calls_another_and_names_become_dispatchers():
    m = _module(
        "@njit\n"
        "def inner(x):\n"
        "    return 2 * x\n"
        "@njit(cache=False)\n"
        "def outer(a):\n"
        "    s = 0\n"
        "    for v in a:\n"
        "        s += inner(v)\n"
        "    return s\n"
    )
    stand_in = m.outer
    assert isinstance(stand_in, _jit._Compiled) and stand_in.__name__ == "outer"
    assert isinstance(m.inner, _jit._Compiled)
    assert stand_in(np.arange(4)) == 12  # the first call makes the dispatchers
    # the module's names now hold numba's dispatchers, which compiled the callee too
    assert type(m.outer).__name__ == "CPUDispatcher"
    assert type(m.inner).__name__ == "CPUDispatcher"
    assert m.outer.signatures and m.inner.signatures
    assert stand_in.signatures == m.outer.signatures  # attributes pass through
    assert stand_in.py_func(np.arange(4)) == 12  # the Python function


def test_a_function_made_after_the_first_call_becomes_a_dispatcher_on_its_own():
    _module("@njit\ndef first(x):\n    return x + 1\n").first(1)  # numba in use
    late = _module("@njit\ndef late(x):\n    return x * 3\n")
    assert isinstance(late.late, _jit._Compiled)
    assert late.late(2) == 6
    assert type(late.late).__name__ == "CPUDispatcher"


def test_njit_refuses_a_signature_string():
    with pytest.raises(TypeError, match="keyword options"):
        _jit.njit("int64(int64)")

"""numba's ``njit``, with numba imported when a compiled function is first called.

Importing numba takes about 0.3 s, and most processes that import the package (most
chapters' kernels, the tests of the closed-form models, the command-line tools) never
call a compiled function. :func:`njit` takes numba's options and returns a stand-in for
the function. The first call of any stand-in imports numba and makes every stand-in made
so far into numba's dispatcher (``numba.njit(**options)(function)``, compiled or loaded
from numba's cache on its own first call, as usual); each module-level name that held a
stand-in then names its dispatcher, so that compiled code calling compiled code sees
dispatchers. Stand-ins made later (in a module imported afterwards) become dispatchers
on their own first call. A stand-in keeps the function as ``py_func``, as numba's
dispatcher does, and passes any other attribute to the dispatcher.
"""

from __future__ import annotations

import functools
import threading

_pending: list[_Compiled] = []
_lock = threading.Lock()


class _Compiled:
    """A function to be compiled with numba's ``njit(**options)``."""

    def __init__(self, function, options):
        functools.update_wrapper(self, function)
        self.py_func = function
        self._options = options
        self._dispatcher = None
        with _lock:
            _pending.append(self)

    def dispatcher(self):
        """numba's dispatcher of the function (numba imported on the first call)."""
        if self._dispatcher is None:
            _make_dispatchers()
        return self._dispatcher

    def __call__(self, *args, **kwargs):
        return self.dispatcher()(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith("__") or name in ("_dispatcher", "_options", "py_func"):
            raise AttributeError(name)
        return getattr(self.dispatcher(), name)

    def __repr__(self):
        return f"<compiled on first call: {self.__module__}.{self.__qualname__}>"


def _make_dispatchers() -> None:
    import numba

    with _lock:
        made = list(_pending)
        _pending.clear()
        for c in made:
            c._dispatcher = numba.njit(**c._options)(c.py_func)
        # the modules that define them: module-level names now name the dispatchers
        modules = {id(c.py_func.__globals__): c.py_func.__globals__ for c in made}
        for module in modules.values():
            for name, value in list(module.items()):
                if isinstance(value, _Compiled) and value._dispatcher is not None:
                    module[name] = value._dispatcher


def njit(function=None, **options):
    """``numba.njit``, as a decorator with or without options (``cache``, ``inline``,
    ``_nrt``, ...), with numba imported on the first call of a compiled function."""
    if function is None:
        return lambda f: _Compiled(f, options)
    if not callable(function):
        raise TypeError("njit takes a function and keyword options, not signatures")
    return _Compiled(function, options)


def jit_disabled() -> bool:
    """numba's ``config.DISABLE_JIT`` (numba is imported)."""
    from numba.core import config

    return bool(config.DISABLE_JIT)

"""The examples in the package docstrings are tests too: every module whose source holds
a ``>>>`` example is found and run (no list to keep by hand)."""

import doctest
import importlib
import pkgutil

import pytest

import gpumodels


def modules_with_examples() -> list[str]:
    found = []
    for info in pkgutil.walk_packages(gpumodels.__path__, "gpumodels."):
        spec = importlib.util.find_spec(info.name)
        with open(spec.origin, encoding="utf-8") as f:
            if ">>> " in f.read():
                found.append(info.name)
    return found


def test_examples_are_found_in_every_layer():
    names = modules_with_examples()
    for layer in ("ground", "facts", "engines", "papers", "comparisons"):
        assert any(n.startswith(f"gpumodels.{layer}.") for n in names), layer


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0

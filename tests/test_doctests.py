"""The examples in the package docstrings are tests too."""

import doctest

import pytest

import gpumodels.hardware
import gpumodels.occupancy


@pytest.mark.parametrize("module", [gpumodels.hardware, gpumodels.occupancy], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0

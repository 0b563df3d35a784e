"""The examples in the package docstrings are tests too."""

import doctest

import pytest

import gpumodels.hardware
import gpumodels.huang_li.cache
import gpumodels.huang_li.dram
import gpumodels.huang_li.events
import gpumodels.huang_li.model
import gpumodels.huang_li.placements
import gpumodels.huang_li.queueing
import gpumodels.huang_li.trace
import gpumodels.hong_kim
import gpumodels.hong_kim.benchmarks
import gpumodels.hong_kim.coalescing
import gpumodels.hong_kim.model
import gpumodels.hong_kim.timelines
import gpumodels.occupancy
import gpumodels.perfparams
import gpumodels.prior
import gpumodels.prior.baghsorkhi_2010
import gpumodels.prior.guide
import gpumodels.prior.hong_kim_2009
import gpumodels.prior.huang_2014
import gpumodels.prior.sim_2012
import gpumodels.transit.model
import gpumodels.volkov.experiment
import gpumodels.volkov.parameters


@pytest.mark.parametrize("module", [gpumodels.hardware, gpumodels.huang_li.cache, gpumodels.huang_li.dram,
                                    gpumodels.huang_li.events, gpumodels.huang_li.model, gpumodels.huang_li.placements,
                                    gpumodels.huang_li.queueing, gpumodels.huang_li.trace, gpumodels.occupancy, gpumodels.hong_kim,
                                    gpumodels.hong_kim.benchmarks, gpumodels.hong_kim.coalescing,
                                    gpumodels.hong_kim.model, gpumodels.hong_kim.timelines,
                                    gpumodels.volkov.experiment, gpumodels.volkov.parameters, gpumodels.prior,
                                    gpumodels.prior.guide, gpumodels.prior.hong_kim_2009,
                                    gpumodels.prior.baghsorkhi_2010, gpumodels.prior.sim_2012,
                                    gpumodels.prior.huang_2014, gpumodels.transit.model,
                                    gpumodels.perfparams],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0

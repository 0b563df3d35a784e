"""The examples in the package docstrings are tests too."""

import doctest

import pytest

import gpumodels.facts.hardware
import gpumodels.papers.huang_li.cache
import gpumodels.engines.refsim.dram
import gpumodels.papers.huang_li.events
import gpumodels.papers.huang_li.model
import gpumodels.engines.refsim.placements
import gpumodels.papers.huang_li.queueing
import gpumodels.engines.refsim.trace
import gpumodels.papers.hong_kim
import gpumodels.papers.hong_kim.benchmarks
import gpumodels.papers.hong_kim.coalescing
import gpumodels.engines.mwp_cwp
import gpumodels.papers.hong_kim.timelines
import gpumodels.facts.occupancy
import gpumodels.papers.perez_piccoli.model
import gpumodels.comparisons.prior
import gpumodels.comparisons.prior.baghsorkhi_2010
import gpumodels.comparisons.prior.guide
import gpumodels.comparisons.prior.hong_kim_2009
import gpumodels.comparisons.prior.huang_2014
import gpumodels.comparisons.prior.sim_2012
import gpumodels.papers.transit.model
import gpumodels.papers.volkov.experiment
import gpumodels.papers.volkov.parameters


@pytest.mark.parametrize("module", [gpumodels.facts.hardware, gpumodels.papers.huang_li.cache, gpumodels.engines.refsim.dram,
                                    gpumodels.papers.huang_li.events, gpumodels.papers.huang_li.model, gpumodels.engines.refsim.placements,
                                    gpumodels.papers.huang_li.queueing, gpumodels.engines.refsim.trace, gpumodels.facts.occupancy, gpumodels.papers.hong_kim,
                                    gpumodels.papers.hong_kim.benchmarks, gpumodels.papers.hong_kim.coalescing,
                                    gpumodels.engines.mwp_cwp, gpumodels.papers.hong_kim.timelines,
                                    gpumodels.papers.volkov.experiment, gpumodels.papers.volkov.parameters, gpumodels.comparisons.prior,
                                    gpumodels.comparisons.prior.guide, gpumodels.comparisons.prior.hong_kim_2009,
                                    gpumodels.comparisons.prior.baghsorkhi_2010, gpumodels.comparisons.prior.sim_2012,
                                    gpumodels.comparisons.prior.huang_2014, gpumodels.papers.transit.model,
                                    gpumodels.papers.perez_piccoli.model],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0

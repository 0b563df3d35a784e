"""Layer 2, facts: sourced numbers about GPUs and papers, and the records carrying them.

hardware    GPU records (``data/hardware.csv``): :func:`hardware.get_gpu`
occupancy   the occupancy calculator for compute capability 1.0 to 9.0
params      :class:`~gpumodels.facts.params.Params`, the record every model takes
param_sets  parameter sets of Volkov's five GPUs (Table 4.1) and of modern GPUs
modern      modern GPUs' parameters from public measurements (``data/modern/``)
published   the printed values of the five papers and the computed-vs-printed tables
"""

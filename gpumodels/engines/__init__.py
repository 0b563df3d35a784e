"""Layer 3, engines: computations that more than one paper or comparison runs on.

sim      the cycle-level SM simulator (simulated data only)
refsim   the Huang & Li reference simulator: kernels, address traces, caches and DRAM
mwp_cwp  Hong & Kim's MWP-CWP equations (2009), the base of Huang & Li and Volkov ch. 7
"""

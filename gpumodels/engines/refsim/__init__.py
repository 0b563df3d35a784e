"""The simulated reference GPU of the Huang & Li chapters (ground truth for their
model).

simulator   the compiled (numba) simulator of SMs, caches and DRAM banks
kernels     synthetic kernels of Huang & Li's Table IV, Fig. 2 and Table I, traced
trace       addressing-mode counts and the replay rules (1)-(4) of Huang & Li §III-B
placements  Table IV's placement tests as data
dram        address maps, row-buffer state, Algorithm 1, the Lindley recursion
"""

"""Layer 5, comparisons: models side by side, across papers.

prior            earlier models on the α-workload, as in Volkov (2016) ch. 4 and 7
modern           every model on modern GPUs (V100 to GH200) and its band over sources
modern_explorer  the explorer of that comparison
bench            the driver of the CUDA microbenchmarks of Volkov and of Perez & Piccoli
"""

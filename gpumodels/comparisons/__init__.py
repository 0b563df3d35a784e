"""Layer 5, comparisons: models side by side, across papers.

prior            earlier models as Volkov (2016, chapters 4 and 7) evaluates them on the α-workload
modern           every model on modern GPUs (V100 to GH200) and its band over sources
modern_explorer  the explorer of that comparison
bench            the driver of the CUDA microbenchmarks (Volkov's instruments, Perez & Piccoli's parameters)
"""

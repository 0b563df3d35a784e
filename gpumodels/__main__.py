"""``python -m gpumodels predict FILE...``: every model's prediction for the kernel
launches in profiler exports (see :mod:`gpumodels.comparisons.silicon`)."""

import sys

from gpumodels.comparisons.silicon import main

if __name__ == "__main__":
    sys.exit(main())

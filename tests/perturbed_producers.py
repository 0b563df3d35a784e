"""Run scoreboard producers against another data folder and print their values as JSON.

Used by ``tests/test_perturbation.py`` in a fresh interpreter, so that no value read at
import time or cached in a session survives from the real data:
``python tests/perturbed_producers.py DATA_DIR [PRODUCER ...]`` (all producers if none).
"""

import json
import os
import sys

os.environ["GPUMODELS_DATA"] = sys.argv[1]

from gpumodels import scoreboard  # noqa: E402  (after the data folder is chosen)

wanted = set(sys.argv[2:])
out = {}
for mod in scoreboard.printed_modules():
    for fn in mod.PRODUCERS:
        name = f"{fn.__module__}.{fn.__name__}"
        if wanted and name not in wanted:
            continue
        try:
            out.update({k: float(v) for k, v in fn().items()})
        except Exception as e:  # a producer that breaks on the perturbed data
            out[f"error:{name}"] = f"{type(e).__name__}: {e}"
print(json.dumps(out))

"""Reduce the public nvprof measurements of ``marcosamaris/gpuperfpredict`` to a size
that can be committed, in the original files' layout.

    .venv/bin/python tools/reduce_gpuperfpredict.py [--repo MIRROR] [--out FOLDER]

The input is a git mirror of github.com/marcosamaris/gpuperfpredict at commit 35b81711
(read with ``git show``; no work tree is needed). Folder ``datasets/`` holds one CSV per
kernel and GPU, one row per kernel launch, as Amarís et al. exported it from nvprof.
For every readable file the script writes ``<out>/<same name>.csv``:

* only the columns of :data:`KEEP` (original names, original order, original text);
* launches with the same :data:`GROUP_KEY` are repeats of the same work: one real
  launch row is kept per group, the one whose duration is the group's lower median
  (ties: the first in file order), so every counter in a row comes from one launch;
  ``launches``, ``duration_min`` and ``duration_max`` describe the group;
* ``lud_perimeter`` has no repeats (one launch per LU step): per ``input.size.1`` at
  most :data:`THIN` launches are kept, evenly spaced over the launches sorted by
  ``grid.x`` (the largest and smallest grid always kept); every original launch is
  counted, in ``launches``, by the kept row nearest to it in that order;
* a ``source`` column names the original file.

It also writes ``manifest.csv`` (every file of ``datasets/``, reduced or absent from the
snapshot, with its blob, its row counts) and ``README.md``. Running it twice gives
byte-identical files.
"""

from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from gpumodels.ground.schemas import (
    ADDED_COLUMNS,
    GPUPERFPREDICT_GPUS,
    GPUPERFPREDICT_KEY,
    gpuperfpredict_columns,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPO = Path("/work/.mirror/marcosamaris+gpuperfpredict/repo")
DEFAULT_OUT = ROOT / "data" / "silicon" / "gpuperfpredict"
REPO_NAME = "marcosamaris/gpuperfpredict"
COMMIT = "35b81711"
FOLDER = "datasets/"

#: The columns kept, by their names in the original files (written in file order): the
#: columns of the reduced files' schema, less the ones the reduction adds.
KEEP = tuple(c for c in gpuperfpredict_columns() if c not in ADDED_COLUMNS)
TEXT = ("name", "gpu_name")

#: Launches equal in all of these are repeats of the same work.
GROUP_KEY = tuple(GPUPERFPREDICT_KEY)
#: Output order: the kernel's configuration, the input sizes, then the grid.
SORT_KEY = (
    "block.x",
    "block.y",
    "registers.per.thread",
    "static.smem",
    "input.size.1",
    "input.size.2",
    "grid.x",
    "grid.y",
    "inst_executed",
)
ADDED = ADDED_COLUMNS
#: Kernels without repeats, thinned: at most this many launches per input.size.1.
THIN = {"lud_perimeter": 16}
THIN_BY, THIN_ORDER = "input.size.1", "grid.x"

MANIFEST_COLUMNS = (
    "file",
    "original_path",
    "original_blob",
    "original_rows",
    "reduced_rows",
    "launches_total",
    "status",
    "source",
)


# --------------------------------------------------------------------------------------
# reading the mirror


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, check=False
    )


def head_commit(repo: Path, expected: str = COMMIT) -> str:
    """The mirror's HEAD commit; ``SystemExit`` unless it starts with ``expected``."""
    got = _git(repo, "rev-parse", "HEAD")
    if got.returncode != 0:
        why = got.stderr.decode().strip()
        raise SystemExit(f"{repo}: not a git repository ({why})")
    commit = got.stdout.decode().strip()
    if not commit.startswith(expected):
        raise SystemExit(
            f"{repo} is at commit {commit}, but the data are those of commit "
            f"{expected} of {REPO_NAME}"
        )
    return commit


def list_datasets(repo: Path) -> list[tuple[str, str]]:
    """(path, blob sha) of every ``datasets/*.csv`` in HEAD's tree, sorted by path."""
    out = _git(repo, "ls-tree", "HEAD", FOLDER)
    if out.returncode != 0:
        raise SystemExit(f"{repo}: git ls-tree failed: {out.stderr.decode().strip()}")
    found = []
    for line in out.stdout.decode().splitlines():
        meta, path = line.split("\t", 1)
        _mode, kind, sha = meta.split()
        if kind == "blob" and path.endswith(".csv"):
            found.append((path, sha))
    return sorted(found)


def read_blob(repo: Path, sha: str) -> str | None:
    """The text of a blob, or None where the snapshot lacks it."""
    got = _git(repo, "cat-file", "blob", sha)
    return got.stdout.decode("utf-8") if got.returncode == 0 else None


def parse(text: str) -> pd.DataFrame:
    """An original file as strings, every column kept with its original name (the
    unnamed first column, R's row label, becomes ``Unnamed: 0``)."""
    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


# --------------------------------------------------------------------------------------
# the reduction


def source_text(file: str, commit: str = COMMIT) -> str:
    """The ``source`` of each row of a reduced file."""
    return f"{REPO_NAME}@{commit[:8]} {FOLDER}{file}, nvprof, measured by Amarís et al."


def _numbers(df: pd.DataFrame, cols) -> pd.DataFrame:
    return df[list(cols)].apply(pd.to_numeric, errors="raise")


def lower_median_position(durations: np.ndarray) -> int:
    """Position (in file order) of the launch whose duration is the lower median of
    ``durations``; among equal durations the first in file order."""
    value = np.sort(durations, kind="stable")[(len(durations) - 1) // 2]
    return int(np.flatnonzero(durations == value)[0])


def collapse_repeats(df: pd.DataFrame) -> pd.DataFrame:
    """One real launch row per group of repeats (:data:`GROUP_KEY`), the lower-median
    one, with ``launches``, ``duration_min`` and ``duration_max`` (original text) of
    its group. Rows keep the original text; the result is in file order of the kept
    rows."""
    df = df.reset_index(drop=True)
    num = _numbers(df, [*GROUP_KEY, "duration"])
    dur = num["duration"].to_numpy()
    kept, size, lo, hi = [], [], [], []
    groups = num.groupby(list(GROUP_KEY), sort=False, dropna=False).indices
    for rows in groups.values():
        rows = np.sort(rows)
        d = dur[rows]
        kept.append(rows[lower_median_position(d)])
        size.append(len(rows))
        lo.append(df.at[rows[int(np.argmin(d))], "duration"])
        hi.append(df.at[rows[int(np.argmax(d))], "duration"])
    out = df.loc[kept].copy()
    out["launches"] = size
    out["duration_min"] = lo
    out["duration_max"] = hi
    return out.sort_index()


def thin_positions(n: int, keep: int) -> np.ndarray:
    """Positions kept out of ``n`` ordered launches: all if ``n <= keep``, else
    ``keep`` evenly spaced ones, the first and the last among them."""
    if n <= keep:
        return np.arange(n)
    return np.unique(np.rint(np.linspace(0, n - 1, keep)).astype(int))


def nearest_kept(n: int, kept: np.ndarray) -> np.ndarray:
    """For each of ``n`` positions, the index into ``kept`` of the nearest kept
    position (ties: the lower one)."""
    pos = np.arange(n)[:, None]
    return np.argmin(np.abs(pos - kept[None, :]), axis=1)


def thin(df: pd.DataFrame, keep: int) -> pd.DataFrame:
    """At most ``keep`` rows per :data:`THIN_BY`, evenly spaced over the rows sorted by
    :data:`THIN_ORDER` (then file order); every row is counted by the kept row nearest
    to it in that order: its ``launches`` is the sum, its ``duration_min`` and
    ``duration_max`` span theirs."""
    cols = [THIN_BY, THIN_ORDER, "launches", "duration_min", "duration_max"]
    num = _numbers(df, cols)
    parts = []
    for _, idx in sorted(num.groupby(THIN_BY).groups.items()):
        order = num.loc[idx].sort_values(THIN_ORDER, kind="stable")
        kept = thin_positions(len(order), keep)
        owner = nearest_kept(len(order), kept)
        rows = df.loc[order.index[kept]].copy()
        launches, lo, hi = [], [], []
        for k in range(len(kept)):
            mine = order.iloc[np.flatnonzero(owner == k)]
            launches.append(int(mine["launches"].sum()))
            lo.append(df.at[mine["duration_min"].idxmin(), "duration_min"])
            hi.append(df.at[mine["duration_max"].idxmax(), "duration_max"])
        rows["launches"], rows["duration_min"], rows["duration_max"] = launches, lo, hi
        parts.append(rows)
    return pd.concat(parts).sort_index() if parts else df.iloc[:0]


def reduce_frame(df: pd.DataFrame, file: str, commit: str = COMMIT) -> pd.DataFrame:
    """The reduced table of one original file (strings throughout): the :data:`KEEP`
    columns present, in file order, then :data:`ADDED`, sorted by :data:`SORT_KEY`."""
    cols = [c for c in df.columns if c in KEEP]
    missing = [c for c in GROUP_KEY + ("duration", "name") if c not in df.columns]
    if missing:
        raise ValueError(f"{file}: no column {missing}")
    out = collapse_repeats(df)
    names = set(df["name"])
    for kernel, keep in THIN.items():
        if names == {kernel}:
            out = thin(out, keep)
    num = _numbers(out, [c for c in SORT_KEY if c in out.columns])
    out = out.loc[num.sort_values(list(num.columns), kind="stable").index]
    out["launches"] = out["launches"].astype(int).astype(str)
    out["source"] = source_text(file, commit)
    return out[cols + list(ADDED)].reset_index(drop=True)


def to_csv(df: pd.DataFrame) -> str:
    """CSV text of a table of strings: original text, minimal quoting, ``\\n``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(df.columns)
    writer.writerows(df.itertuples(index=False, name=None))
    return buf.getvalue()


def reduce_text(text: str, file: str, commit: str = COMMIT) -> str:
    """CSV text of the reduced table of one original file's text."""
    return to_csv(reduce_frame(parse(text), file, commit))


# --------------------------------------------------------------------------------------
# the whole folder


def _mb_rows(df: pd.DataFrame) -> int:
    """Rows whose device_memory_read_throughput is about 1000 times the rate implied by
    the read transactions (32 B each) and the duration: printed in MB/s, not GB/s."""
    trans, thru = "device_memory_read_transactions", "device_memory_read_throughput"
    n = _numbers(df, ["duration", trans, thru])
    implied = n[trans] * 32 / n["duration"] / 1e9
    ok = (implied > 0) & (n[thru] > 0)
    ratio = np.log10(n[thru][ok] / implied[ok])
    return int(((ratio > 2.5) & (ratio < 3.5)).sum())


def run(repo: Path, out: Path) -> list[dict]:
    """Reduce every readable file of the mirror into ``out``; the manifest rows."""
    commit = head_commit(repo)
    out.mkdir(parents=True, exist_ok=True)
    manifest, facts = [], {"mb_rows": 0, "rows": 0}
    for path, sha in list_datasets(repo):
        file = path[len(FOLDER):]
        text = read_blob(repo, sha)
        row = {"file": file, "original_path": path, "original_blob": sha}
        if text is None:
            row.update(original_rows="", reduced_rows="", launches_total="")
            row.update(status="missing_in_snapshot")
            row["source"] = (
                f"{REPO_NAME}@{commit[:8]} {path}: listed in the tree, "
                "blob absent from the snapshot"
            )
        else:
            original = parse(text)
            reduced = reduce_frame(original, file, commit)
            (out / file).write_text(to_csv(reduced), encoding="utf-8")
            facts["mb_rows"] += _mb_rows(reduced)
            facts["rows"] += len(reduced)
            row.update(
                original_rows=len(original),
                reduced_rows=len(reduced),
                launches_total=int(reduced["launches"].astype(int).sum()),
                status="reduced",
                source=source_text(file, commit),
            )
            if row["launches_total"] != row["original_rows"]:
                raise AssertionError(f"{file}: launches do not add up")
        manifest.append(row)
        print(f"{row['status']:20s} {file}", file=sys.stderr)
    (out / "manifest.csv").write_text(
        to_csv(pd.DataFrame(manifest, columns=list(MANIFEST_COLUMNS)).astype(str)),
        encoding="utf-8",
    )
    (out / "README.md").write_text(readme(manifest, commit, facts), encoding="utf-8")
    return manifest


GPUS = GPUPERFPREDICT_GPUS


def _split(file: str) -> tuple[str, str]:
    """(kernel, GPU) of ``<kernel>-<GPU>.csv``."""
    stem = file.removesuffix(".csv")
    for gpu in GPUS:
        if stem.endswith("-" + gpu):
            return stem[: -len(gpu) - 1], gpu
    return stem, ""


def _table(manifest: list[dict]) -> list[str]:
    """Markdown table: reduced / original rows per kernel (rows) and GPU (columns)."""
    cells: dict[str, dict[str, str]] = {}
    for r in manifest:
        kernel, gpu = _split(r["file"])
        if not gpu:
            continue
        cells.setdefault(kernel, {})[gpu] = (
            f"{r['reduced_rows']} / {r['original_rows']}"
            if r["status"] == "reduced"
            else "absent"
        )
    lines = ["| kernel | " + " | ".join(GPUS) + " |", "|---" * (len(GPUS) + 1) + "|"]
    for kernel in sorted(cells, key=lambda k: (all(v == "absent" for v in
                                                   cells[k].values()), k.lower())):
        row = [cells[kernel].get(g, "not listed") for g in GPUS]
        lines.append(f"| `{kernel}` | " + " | ".join(row) + " |")
    return lines


def readme(manifest: list[dict], commit: str, facts: dict) -> str:
    """The folder's README.md."""
    done = [r for r in manifest if r["status"] == "reduced"]
    absent = [r["file"] for r in manifest if r["status"] != "reduced"]
    launches = sum(r["original_rows"] for r in done)
    rows = sum(r["reduced_rows"] for r in done)
    return "\n".join(
        README_HEAD.format(commit=commit, short=commit[:8], repo=REPO_NAME).splitlines()
        + [
            "",
            (
                f"{len(done)} files are reduced: {launches:,} launches in "
                f"{rows:,} rows. Rows kept / original launches per file:"
            ),
            "",
            *_table(manifest),
            "",
            f"**Absent from the snapshot ({len(absent)} files).** The tree of commit "
            f"`{commit[:8]}` lists them, but the snapshot this project could read "
            "holds no blob for them (`git cat-file` fails); `manifest.csv` gives each "
            "one's path and blob id (status `missing_in_snapshot`) so that a run on a "
            "complete clone can add them: "
            + ", ".join(f"`{f}`" for f in absent)
            + ".",
            "",
            README_UNITS.format(mb_rows=facts["mb_rows"], rows=facts["rows"]),
        ]
    )


README_HEAD = """\
# gpuperfpredict: nvprof measurements of six Rodinia kernels on nine GPUs

**Measured by the authors (Amarís et al.), not by this project.** The files here are a
reduction of public data, regenerated by

```bash
.venv/bin/python tools/reduce_gpuperfpredict.py   # --repo MIRROR --out FOLDER
```

from a git mirror of [{repo}](https://github.com/{repo}), commit `{commit}`
(folder `datasets/`), licence CC BY 4.0 (the repository's `LICENSE`). The script refuses
a mirror at another commit; running it twice gives byte-identical files.

Cite: M. Amarís, R. Y. de Camargo, M. Dyab, A. Goldman, D. Trystram, "A Comparison of
GPU Execution Time Prediction using Machine Learning and Analytical Modeling", 2016 IEEE
15th International Symposium on Network Computing and Applications (NCA), pp. 326–333
(`amaris2016` in `references.bib`; title and authors from the paper's PDF in the
repository's `docs/articles/`, venue and pages as the authors cite it in their SC17
poster there). That paper's own experiments used other kernels (matrix multiplication,
addition, dot product, vector addition, maximum sub-array) and a Titan Black; these
Rodinia files are the data of the authors' later feature-extraction study (the poster's
"Work 2", irregular Rodinia applications), published in the same repository.

## What the data are

One row per kernel launch, profiled with nvprof by the authors: the launch's measured
`duration`, its configuration (`grid.*`, `block.*`, `registers.per.thread`,
`static.smem`), the program's input sizes (`input.size.1`, `input.size.2`), and nvprof
metrics and events (instruction, transaction, flop counts, occupancy, IPC, DRAM
throughput). The kernels: `bpnn_layerforward_CUDA` and `bpnn_adjust_weights_cuda`
(backprop), `calculate_temp` (hotspot), `kernel` (heartwall; the authors' kernel 5,
`R-code/include/Hearthwall.R`), `lud_diagonal` and `lud_perimeter` (lud). The GPUs, as
the file names spell them: GTX-680, GTX-970, GTX-980, Quadro (K5200), Tesla-K20,
Tesla-K40, Tesla-P100, Titan, TitanX. `device` is the authors' number of the GPU
(1 GTX-680, 2 Tesla-K40, 3 Tesla-K20, 4 Titan, 5 Quadro, 6 TitanX, 7 GTX-970,
8 GTX-980, 9 Tesla-P100), `kernel` their number of the kernel (the order of
`kernelsDict` in `R-code/include/common.R`), `name` the kernel's name, `gpu_name` the
GPU.

How a program run shows up: backprop launches each kernel once per input size
(`input.size.1`, the number of input units); hotspot launches `calculate_temp`
`input.size.2 / 2` times per run, identically; heartwall launches `kernel` once per
frame (`input.size.1` frames), with slightly different instruction counts from frame to
frame, the first launch of each run (in file order) over ten times shorter than the
others; lud on an N×N matrix (`input.size.1` = N) launches
`lud_diagonal` N/16 times with one block and `lud_perimeter` N/16 − 1 times with
`grid.x` = N/16 − 1, …, 1.

## The reduction

The originals (241,000 launches, about 120 MB) are too big to commit. Each file here has
the original's name and layout (the original column names and their order, the original
text of every value, so that code reading the originals reads these), keeping 48 of its
80 columns (`KEEP` in the script; R's row label, the first column, is dropped), and
four added columns at the end:

* **Repeats.** Launches equal in `input.size.1`, `input.size.2`, `grid.x`, `grid.y`,
  `block.x`, `block.y`, `registers.per.thread`, `static.smem` and `inst_executed` are
  repeats of the same work. One real launch of each group is kept: the one whose
  `duration` is the group's lower median (the ⌈n/2⌉-th shortest; among equal durations
  the first in file order), so all counters of a row come from one launch, never from an
  average. `launches` is the group's size, `duration_min` and `duration_max` the
  shortest and longest duration in it.
* **lud_perimeter** has no repeats (every launch has its own `grid.x`). Per
  `input.size.1` at most 16 launches are kept, evenly spaced over its launches sorted
  by `grid.x` (positions round(linspace(0, n − 1, 16)); the smallest and largest grid
  always kept). Every original launch is counted by the kept launch nearest to it in
  that order (ties to the smaller grid): `launches` says how many launches a row stands
  for, and `duration_min`/`duration_max` span those launches, which are different
  launches (other grids), not repeats.
* `source`: the original file, commit and instrument.

Rows are sorted by block, registers, shared memory, input sizes, grid and
`inst_executed`. In every file the `launches` add up to the original's row count;
`manifest.csv` lists, for every CSV of the original `datasets/`, its blob id, its row
count, the rows kept and the sum of `launches` (status `reduced`), or status
`missing_in_snapshot`."""

README_UNITS = """\
## Units

* `duration`, `duration_min`, `duration_max`: seconds (nvprof's kernel time). On the
  GTX-980 and the Tesla-P100 every duration is a whole number of microseconds (a coarser
  resolution than on the other GPUs, whose values carry 3–6 significant digits).
* `static.smem`: bytes on seven GPUs, but **KiB on the GTX-980 and the Tesla-P100**
  (the same kernel has 1088 on the GTX-680 and 1.0625 there; 11872 and 11.59375). The
  same two GPUs show the microsecond durations: their nvprof printed other units.
* `inst_executed`, `inst_issued1`: warp instructions; `warps_launched`: warps;
  `elapsed_cycles_sm`, `active_cycles`: cycles (nvprof events); `shared_load`,
  `shared_store`, `gld_request`, `gst_request`: warp-level instructions (nvprof events).
  `gld_inst_32bit`, `gst_inst_32bit`, `fp_instructions.*`, `integer_instructions`,
  `control.flow_instructions`, `load.store_instructions`, `misc_instructions`: thread
  instructions (in every row `integer_instructions` exceeds `inst_executed`);
  `floating_point_operation*`: thread-level floating-point operations.
* `*_transactions`: global, L2 and device-memory transactions are 32-byte sectors;
  `shared_*_transactions` are shared-memory transactions.
* `achieved_occupancy`: a fraction (0 to 1) of the SM's warp slots;
  `executed_ipc`, `issued_ipc`: warp instructions per cycle per SM.
* `device_memory_read_throughput`, `device_memory_write_throughput`: as nvprof printed
  them, with the unit stripped: GB/s for most rows, but **MB/s where the launch moved
  little data** — {mb_rows} of the {rows} rows here have a read throughput about 1000
  times the rate implied by their read transactions (× 32 B) and duration (the write
  throughput has no transaction count to check it against). nvprof derives these
  throughputs from the launch's time, so a model must not take them as inputs; where it
  needs a throughput, it should compute one from transactions and `duration`.

## Caveats

* Counters that are zero are zero in the originals (e.g. backprop's
  `bpnn_adjust_weights_cuda` executes no single-precision floating-point instruction and
  no shared-memory access; `input.size.2` is 0 for every kernel but hotspot's).
* A heartwall frame whose instruction count differs from its neighbours' by a few
  instructions is a group of its own (the rule groups on `inst_executed`).
* The lower-median launch is a real launch: its counters belong to it, and its duration
  is not a mean (the NCA 2016 paper presents each experiment as the average of ten
  executions).
* Column names are nvprof's metric and event descriptions as R made them syntactic
  (e.g. `floating_point_operations.single_precision.`, and
  `floating_point_operation.single_precision_mul.` with its singular, as in the
  originals).
"""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repo", type=Path, default=DEFAULT_REPO,
                   help=f"git mirror of {REPO_NAME} (default: %(default)s)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT,
                   help="output folder (default: %(default)s)")
    args = p.parse_args(argv)
    manifest = run(args.repo, args.out)
    done = sum(r["status"] == "reduced" for r in manifest)
    print(f"wrote {done} reduced files, manifest.csv and README.md to {args.out}; "
          f"{len(manifest) - done} files absent from the snapshot")
    return 0


if __name__ == "__main__":
    sys.exit(main())

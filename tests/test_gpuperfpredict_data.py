"""data/silicon/gpuperfpredict/: the reduced nvprof launches of Amarís et al. agree
with their manifest, keep the original layout, and come out of
tools/reduce_gpuperfpredict.py byte for byte; the reduction rule itself on small
synthetic tables."""

import csv
import importlib.util
import io
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "data" / "silicon" / "gpuperfpredict"
SCRIPT = ROOT / "tools" / "reduce_gpuperfpredict.py"

_spec = importlib.util.spec_from_file_location("reduce_gpuperfpredict", SCRIPT)
rg = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rg)


def _rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


MANIFEST = _rows(FOLDER / "manifest.csv")
REDUCED = sorted(r["file"] for r in MANIFEST if r["status"] == "reduced")
INTEGER_COLUMNS = [c for c in rg.KEEP if c not in rg.TEXT + (
    "duration", "static.smem", "achieved_occupancy", "executed_ipc", "issued_ipc",
    "device_memory_read_throughput", "device_memory_write_throughput")] + ["launches"]


# ---- (a) the manifest agrees with the files


def test_manifest_lists_every_original_file_once():
    assert [r["file"] for r in MANIFEST] == sorted(r["file"] for r in MANIFEST)
    assert len({r["file"] for r in MANIFEST}) == len(MANIFEST) == 109
    assert {r["status"] for r in MANIFEST} == {"reduced", "missing_in_snapshot"}
    assert len(REDUCED) == 52
    for r in MANIFEST:
        assert r["original_path"] == "datasets/" + r["file"]
        assert re.fullmatch(r"[0-9a-f]{40}", r["original_blob"])
        assert "marcosamaris/gpuperfpredict@35b81711" in r["source"]


def test_manifest_agrees_with_the_files():
    on_disk = {p.name for p in FOLDER.glob("*.csv")} - {"manifest.csv"}
    assert on_disk == set(REDUCED)
    for r in MANIFEST:
        if r["status"] != "reduced":
            assert r["original_rows"] == r["reduced_rows"] == r["launches_total"] == ""
            continue
        rows = _rows(FOLDER / r["file"])
        assert len(rows) == int(r["reduced_rows"]), r["file"]
        total = sum(int(x["launches"]) for x in rows)
        assert total == int(r["launches_total"]) == int(r["original_rows"]), r["file"]
    counts = [int(r["original_rows"]) for r in MANIFEST if r["original_rows"]]
    assert sum(counts) == 241_000


# ---- (b) every reduced file: the original layout, plausible values


@pytest.mark.parametrize("file", REDUCED)
def test_reduced_file_layout_and_durations(file):
    text = (FOLDER / file).read_text(encoding="utf-8")
    header = next(csv.reader(io.StringIO(text)))
    assert sorted(header[: -len(rg.ADDED)]) == sorted(rg.KEEP)
    assert tuple(header[-len(rg.ADDED):]) == rg.ADDED
    rows = _rows(FOLDER / file)
    kernel, gpu = rg._split(file)
    keys = set()
    for r in rows:
        lo, d, hi = (float(r[c]) for c in ("duration_min", "duration", "duration_max"))
        assert 0 < lo <= d <= hi, (file, r["duration"])
        assert int(r["launches"]) >= 1
        assert (r["name"], r["gpu_name"]) == (kernel, gpu)
        assert file in r["source"] and "Amarís" in r["source"]
        # integers keep their original text: no "1088.0"
        bad = [c for c in INTEGER_COLUMNS if not re.fullmatch(r"\d+", r[c])]
        assert not bad, (file, bad)
        keys.add(tuple(r[c] for c in rg.GROUP_KEY))
    assert len(keys) == len(rows), "one row per group of repeats"


# ---- (c) the reduction rule on synthetic tables in the original layout

# the original files' first columns, in their order (an unnamed row label first)
HEAD = ["", "input.size.1", "input.size.2", "duration", "grid.x", "grid.y", "block.x",
        "block.y", "registers.per.thread", "static.smem", "device", "name", "kernel",
        "elapsed_cycles_sm", "inst_executed", "active_warps", "gpu_name"]


def _original(rows, name="calculate_temp"):
    """CSV text in the original layout, quoted as R wrote it (text and the row label in
    quotes, numbers bare); each row: input size, duration text, grid.x, inst_executed,
    elapsed_cycles_sm (a row's identity)."""
    lines = [",".join(f'"{c}"' for c in HEAD)]
    for i, (size, dur, gx, inst, tag) in enumerate(rows):
        lines.append(f'"{i + 3}",{size},0,{dur},{gx},1,16,1,30,1024,1,"{name}",6,{tag},'
                     f'{inst},7,"GTX-680"')
    return "\n".join(lines) + "\n"


def _reduced(text, file="x-GTX-680.csv"):
    return _rows_of(rg.reduce_text(text, file))


def _rows_of(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_repeats_keep_the_lower_median_launch_first_in_file_order():
    text = _original([
        # group A (4 repeats): sorted 1, 2, 2, 3 -> lower median 2, first such: tag 102
        (64, "3e-06", 4, 500, 101),
        (64, "1.0e-06", 4, 500, 100),
        (64, "2e-06", 4, 500, 102),
        (64, "2e-06", 4, 500, 103),
        # group B (3 repeats): sorted 4, 5, 5 -> 5, the first in file order: tag 200
        (128, "5e-06", 8, 900, 200),
        (128, "5e-06", 8, 900, 201),
        (128, "4e-06", 8, 900, 202),
        # same size and grid, another instruction count: a group of its own
        (128, "9e-06", 8, 901, 300),
    ])
    rows = _reduced(text)
    cols = ("input.size.1", "inst_executed", "elapsed_cycles_sm", "duration",
            "launches", "duration_min", "duration_max")
    got = [tuple(r[c] for c in cols) for r in rows]
    assert got == [
        ("64", "500", "102", "2e-06", "4", "1.0e-06", "3e-06"),
        ("128", "900", "200", "5e-06", "3", "4e-06", "5e-06"),
        ("128", "901", "300", "9e-06", "1", "9e-06", "9e-06"),
    ]
    # the original columns kept, in file order; the row label and unkept columns gone
    assert list(rows[0]) == [c for c in HEAD if c in rg.KEEP] + list(rg.ADDED)
    assert rows[0]["source"] == rg.source_text("x-GTX-680.csv")


def test_lower_median_position():
    assert rg.lower_median_position(rg.np.array([3.0, 1.0, 2.0, 2.0])) == 2
    assert rg.lower_median_position(rg.np.array([2.0, 2.0, 2.0])) == 0
    assert rg.lower_median_position(rg.np.array([7.0])) == 0


def test_lud_perimeter_is_thinned_and_every_launch_counted():
    # N = 512: grids 31..1 (31 launches); N = 256: grids 15..1 (15, all kept)
    launches = [(512, f"{10 + g}e-06", g, 100 * g, g) for g in range(31, 0, -1)]
    launches += [(256, f"{10 + g}e-06", g, 100 * g, 1000 + g) for g in range(15, 0, -1)]
    text = _original(launches, name="lud_perimeter")
    rows = _reduced(text, "lud_perimeter-GTX-680.csv")
    big = [r for r in rows if r["input.size.1"] == "512"]
    small = [r for r in rows if r["input.size.1"] == "256"]
    assert [r["input.size.1"] for r in rows] == ["256"] * 15 + ["512"] * 16
    # positions round(linspace(0, 30, 16)) of the grids sorted: 1, 3, ..., 31
    assert [int(r["grid.x"]) for r in big] == list(range(1, 32, 2))
    # each even grid is as near to the kept grid below as to the one above: ties go
    # down: grid 1 stands for grids 1 and 2, ..., grid 29 for 29 and 30, 31 for itself
    assert [int(r["launches"]) for r in big] == [2] * 15 + [1]
    assert (big[1]["duration_min"], big[1]["duration_max"]) == ("13e-06", "14e-06")
    assert [int(r["grid.x"]) for r in small] == list(range(1, 16))
    assert all(r["launches"] == "1" for r in small)
    assert sum(int(r["launches"]) for r in rows) == len(launches)


def test_thinning_keeps_the_ends_and_at_most_the_limit():
    for n in (1, 15, 16, 17, 31, 511):
        kept = rg.thin_positions(n, 16)
        assert kept[0] == 0 and kept[-1] == n - 1 and len(kept) == min(n, 16)
        owner = rg.nearest_kept(n, kept)
        assert sorted(set(owner)) == list(range(len(kept)))


def test_a_mirror_at_another_commit_is_refused(tmp_path):
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "x"], check=True)
    commit = subprocess.check_output(git + ["rev-parse", "HEAD"], text=True).strip()
    with pytest.raises(SystemExit, match=f"{commit}.*35b81711"):
        rg.head_commit(tmp_path)


# ---- (d) the committed file is what the script makes of the original


@pytest.mark.skipif(not rg.DEFAULT_REPO.is_dir(), reason="no mirror of gpuperfpredict")
def test_committed_file_is_regenerated_byte_for_byte(tmp_path):
    file = "bpnn_layerforward_CUDA-GTX-680.csv"
    commit = rg.head_commit(rg.DEFAULT_REPO)
    listed = rg.list_datasets(rg.DEFAULT_REPO)
    (sha,) = [s for p, s in listed if p == "datasets/" + file]
    assert sha == next(r["original_blob"] for r in MANIFEST if r["file"] == file)
    out = tmp_path / file
    out.write_text(rg.reduce_text(rg.read_blob(rg.DEFAULT_REPO, sha), file, commit),
                   encoding="utf-8")
    assert out.read_bytes() == (FOLDER / file).read_bytes()

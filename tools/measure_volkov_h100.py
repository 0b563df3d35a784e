"""Measure Volkov's instruments (bench/volkov_bench.cu) on a Hopper GPU and write
data/measured/volkov_h100.csv (minutes of GPU time).

Three steps; the first and last need no GPU:

    .venv/bin/python tools/measure_volkov_h100.py plan --out .device_carry/plan.json
    python3 tools/measure_volkov_h100.py device --plan .device_carry/plan.json \\
        --out "$OUT"                                   # on the GPU machine
    .venv/bin/python tools/measure_volkov_h100.py summarize --raw "$OUT" \\
        --csv data/measured/volkov_h100.csv

``plan`` lays out the sweep with :func:`gpumodels.comparisons.bench.plan` (the
shared-memory request that caps each occupancy; registers per thread from ``ptxas -v``
of a local ``nvcc`` build, 32 where none is available). ``device`` needs only the
Python standard library and ``nvcc``: it records ``nvidia-smi``, builds the two
programs for sm_90 (:func:`gpumodels.comparisons.bench.build` when the package imports,
else the same ``nvcc`` line), runs every launch of the plan with a per-launch timeout
and an overall deadline, logs the GPU clocks in the background, and appends each run's
raw output to ``raw_runs.txt.gz`` as it goes (a cut-short sweep keeps what it
measured). When ``gpumodels`` imports there, it also parses each run with
:func:`~gpumodels.comparisons.bench.parse_output` and prints a one-line summary.
``summarize`` parses the raw runs with the driver
(:func:`~gpumodels.comparisons.bench.parse_output`,
:func:`~gpumodels.comparisons.bench.summarize`) into one tidy row per run, labelled
measured, with the GPU, driver, clocks, date and command.

Sizing (one block round per SM, ``blocks = blocks/SM x SMs``): every streaming chase
reads about ``FOOTPRINT_MB`` (5x the H100's 50 MB L2) or, where one unrolled loop trip
already reads more, that (α = 0 at 64 warps/SM: 1.1 GB); ``spacing`` is set to exactly
one section per block with 16 MB + two sections of slack, because the program skips
the 8 MB windows whose addresses are not normal floats.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CC = "9.0"
ARCH = "sm_90"
THREADS = 128
FOOTPRINT_MB = 256
RANDOM_ARRAY_MB = 512
CHASE_WARPS = (4, 8, 16, 24, 32, 48, 64)
HOM_WARPS = tuple(range(4, 65, 4))
FEW_WARPS = (4, 8, 16, 32, 48, 64)
HOM_ITERS = {"add": 64, "sfu": 32, "smem": 32, "smem2": 32}
COMMAND = "python3 tools/measure_volkov_h100.py device"
SMI_QUERY = "name,driver_version,clocks.sm,clocks.max.sm,clocks.mem"
KIND_CODE = {"add": 0, "sfu": 1, "smem": 2, "smem2": 3}


def _unroll(kind: str, alpha: int, ilp: int) -> int:
    per = (alpha + 1) * ilp if kind == "chase" else ilp
    return max(1, 512 // per)


# ----------------------------------------------------------------------- plan (here)


def _registers() -> dict:
    """Registers per thread of each kernel, from ``ptxas -v`` of a local build
    (``{}`` without nvcc)."""
    from gpumodels.comparisons import bench

    if bench.nvcc() is None:
        return {}
    cmd = bench.compile_command("volkov_bench.cu", ARCH, "/tmp/vb_regs.o", True)
    res = subprocess.run(
        cmd[:1] + ["-Xptxas", "-v"] + cmd[1:],
        capture_output=True,
        text=True,
        check=False,  # a failed build just leaves the default of 32 registers
    )
    regs, name = {}, None
    for line in res.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            name = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            k = re.search(r"(chase|homogeneous)_kernelILi(\d+)ELi(\d+)E", name)
            if k:
                regs[f"{k.group(1)}/{k.group(2)}/{k.group(3)}"] = int(m.group(1))
            name = None
    return regs


def _launch(kind, w, *, alpha=0, ilp=1, pattern="stream", regs=None) -> dict | None:
    from gpumodels.comparisons import bench

    key = (
        f"chase/{alpha}/{ilp}"
        if kind == "chase"
        else f"homogeneous/{KIND_CODE[kind]}/{ilp}"
    )
    r = (regs or {}).get(key, 32)
    p = bench.plan(CC, [w], THREADS, registers_per_thread=max(r, 1))[0]
    if p["smem"] is None:
        return None
    args = {"kind": kind, "alpha": alpha, "ilp": ilp, "threads": THREADS}
    args["smem"] = p["smem"]
    if kind != "chase":
        args["iters"] = HOM_ITERS[kind]
    else:
        args["pattern"] = pattern
    return {
        "target_warps_per_sm": w,
        "blocks_per_sm": p["blocks_per_sm"],
        "registers_planned": r,
        "args": args,
    }


def sized(run: dict, sm_count: int) -> dict:
    """The launch's arguments for a GPU with ``sm_count`` SMs: one round of blocks;
    a streaming chase reads about FOOTPRINT_MB (at least one unrolled loop trip per
    thread), in block sections of exactly its length, with slack for the skipped
    8 MB windows."""
    args = dict(run["args"])
    blocks = run["blocks_per_sm"] * sm_count
    args["blocks"] = blocks
    kind, alpha, ilp = args["kind"], args["alpha"], args["ilp"]
    if kind != "chase":
        return args
    if args["pattern"] == "random":
        args.update(iters=1, array_mb=RANDOM_ARRAY_MB)
        return args
    u = _unroll(kind, alpha, ilp)
    per_step = blocks * THREADS * ilp * 8  # bytes of one load by every thread
    iters = max(1, FOOTPRINT_MB * 2**20 // (per_step * u))
    spacing = iters * u * ilp * THREADS  # entries per block section
    need = (blocks + 2) * spacing * 8 + 16 * 2**20
    args.update(iters=iters, spacing=spacing, array_mb=-(-need // 2**20) + 1)
    return args


def make_plan() -> dict:
    """The whole sweep in priority order (the device run stops at its deadline)."""
    regs = _registers()
    runs = []

    def add(kind, ws, **kw):
        for w in ws:
            one = _launch(kind, w, regs=regs, **kw)
            if one is not None:
                runs.append(one)

    from gpumodels.comparisons import bench

    add("add", HOM_WARPS)
    for a in bench.ALPHAS:
        add("chase", CHASE_WARPS, alpha=a)
    for k in ("sfu", "smem", "smem2"):
        add(k, HOM_WARPS)
    for i in (2, 4):
        add("add", FEW_WARPS, ilp=i)
    for i in (2, 4, 8):
        add("chase", FEW_WARPS, ilp=i)
    add("chase", (4, 16, 64), pattern="random")
    for n, r in enumerate(runs):
        r["id"] = n
    return {"cc": CC, "arch": ARCH, "registers": regs, "runs": runs}


# --------------------------------------------------------------- device (GPU host)


def _sh(cmd: list[str], timeout: float = 60) -> str:
    try:
        res = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, check=False
        )
        return res.stdout + res.stderr
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"failed: {e}"


def _build(bench, log) -> Path:
    """Build both programs into /tmp/vbuild; the driver's build() if it imported."""
    dest = Path("/tmp/vbuild")
    if bench is not None:
        bench.build(dest, ARCH)
        log(f"built with gpumodels.comparisons.bench.build({str(dest)!r}, {ARCH!r})")
    else:
        log("building with nvcc directly")
        dest.mkdir(parents=True, exist_ok=True)
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        for src in ("volkov_bench.cu", "perfparams_bench.cu"):
            cmd = [nvcc, "-O3", "-std=c++17", f"-arch={ARCH}"]
            cmd += ["-I", str(ROOT / "bench"), "-o", str(dest / Path(src).stem)]
            cmd += [str(ROOT / "bench" / src)]
            subprocess.run(cmd, check=True, capture_output=True, text=True)
    return dest


def _quick(stdout: str, parse) -> str:
    """One line about a run: the driver's parse if available, else the header."""
    if parse is None:
        m = re.search(r"# elapsed_ms=(\S+)", stdout)
        return f"elapsed_ms={m.group(1) if m else '?'}"
    meta, rows = parse(stdout)
    reps = int(meta["repeats_per_warp"])
    lat = [(e - s) / reps for s, e in zip(rows["start"], rows["end"])]
    return (
        f"regs={meta.get('registers')} bps={meta.get('blocks_per_sm_cuda')} "
        f"warps={len(rows['warp'])} lat/rep={sum(lat) / len(lat):.1f} "
        f"ms={meta.get('elapsed_ms')}"
    )


def device(plan_path: Path, out: Path, deadline: float, launch_timeout: float) -> int:
    t0 = time.time()
    out.mkdir(parents=True, exist_ok=True)
    logf = open(out / "log.txt", "a")  # noqa: SIM115 (closed at the end)

    def log(msg):
        line = f"[{time.time() - t0:6.1f}s] {msg}"
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    plan = json.loads(plan_path.read_text())
    meta = {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d"),
        "utc": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "command": COMMAND,
        "smi_before": _sh(
            ["nvidia-smi", f"--query-gpu={SMI_QUERY}", "--format=csv,noheader"]
        ),
        "nvcc": _sh(["nvcc", "--version"]),
        "uname": _sh(["uname", "-a"]),
    }
    (out / "smi_q.txt").write_text(_sh(["nvidia-smi", "-q"]))
    log(f"GPU: {meta['smi_before'].strip()}")
    query = "timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu"
    smi_log = open(out / "smi_log.csv", "w")  # noqa: SIM115 (closed in finally)
    sampler = subprocess.Popen(
        ["nvidia-smi", f"--query-gpu={query}", "--format=csv", "-lms", "500"],
        stdout=smi_log,
        stderr=subprocess.STDOUT,
    )
    try:
        bench = None
        try:
            from gpumodels.comparisons import bench
        except Exception as e:  # noqa: BLE001 (any failure: fall back to raw output)
            log(f"gpumodels does not import ({e!r}): raw output only")
        else:
            log("gpumodels imports: runs are checked with bench.parse_output")
        parse = bench.parse_output if bench is not None else None
        bindir = _build(bench, log)
        log("built volkov_bench and perfparams_bench for " + ARCH)
        done = _sweep(plan, bindir, out, parse, log, t0 + deadline, launch_timeout)
        meta["runs_done"], meta["runs_planned"] = done, len(plan["runs"])
        if time.time() < t0 + deadline:
            log("perfparams_bench")
            (out / "perfparams.txt").write_text(
                _sh([str(bindir / "perfparams_bench")], timeout=60)
            )
    finally:
        meta["smi_after"] = _sh(
            ["nvidia-smi", f"--query-gpu={SMI_QUERY}", "--format=csv,noheader"]
        )
        meta["seconds"] = round(time.time() - t0, 1)
        (out / "meta.json").write_text(json.dumps(meta, indent=1))
        sampler.terminate()
        sampler.wait(timeout=10)
        smi_log.close()
        log(f"done in {meta['seconds']} s")
        logf.close()
    return 0


def _sm_count(exe: str, log) -> int:
    """The SM count the program reports (a one-warp probe launch)."""
    probe = _sh([exe, "kind=add", "iters=1", "blocks=1", "threads=32"])
    m = re.search(r"# sm_count=(\d+)", probe)
    if not m:
        raise RuntimeError(f"volkov_bench probe failed:\n{probe[-2000:]}")
    log(f"probe: sm_count={m.group(1)}")
    return int(m.group(1))


def _sweep(plan, bindir, out, parse, log, stop_at, launch_timeout) -> int:
    exe = str(bindir / "volkov_bench")
    sm_count = _sm_count(exe, log)
    done = 0
    for r in plan["runs"]:
        if time.time() > stop_at:
            log(f"deadline: stopping before run {r['id']} of {len(plan['runs'])}")
            break
        r = {**r, "args": sized(r, sm_count)}
        cmd = [exe] + [f"{k}={v}" for k, v in r["args"].items()]
        t = time.time()
        try:
            res = subprocess.run(
                cmd,
                capture_output=True,
                text=True,
                timeout=launch_timeout,
                check=False,  # a failure is logged and recorded with its stderr
            )
            stdout, rc, err = res.stdout, res.returncode, res.stderr.strip()[-500:]
        except subprocess.TimeoutExpired:
            stdout, rc, err = "", "timeout", f"over {launch_timeout} s"
        wall = time.time() - t
        head = {**r, "rc": rc, "wall_s": round(wall, 2), "stderr": err}
        with gzip.open(out / "raw_runs.txt.gz", "at") as fh:
            fh.write(f"=== run {json.dumps(head)}\n{stdout}=== end {r['id']}\n")
        args = " ".join(f"{k}={v}" for k, v in r["args"].items() if k != "threads")
        if rc != 0:
            log(f"run {r['id']} FAILED rc={rc} ({wall:.1f}s) {args}: {err}")
            continue
        try:
            note = _quick(stdout, parse)
        except ValueError as e:
            note = f"PARSE ERROR {e}"
        done += 1
        log(f"run {r['id']} W={r['target_warps_per_sm']} {args} ({wall:.1f}s) {note}")
    return done


# ------------------------------------------------------------------ summarize (here)

EXTRA = (
    "target_warps_per_sm",
    "iters",
    "array_mb",
    "elapsed_ms",
    "clock_mhz_events",
    "gbs_events",
)
"""Columns after the driver's (before ``measured_by`` and ``source``)."""


def columns() -> list[str]:
    from gpumodels.comparisons import bench

    head = [f for f in bench.FIELDS if f not in ("measured_by", "source")]
    return head + list(EXTRA) + ["measured_by", "source"]


def _runs(raw: Path):
    """(head, stdout) for each run recorded in raw_runs.txt.gz."""
    with gzip.open(raw / "raw_runs.txt.gz", "rt") as fh:
        text = fh.read()
    for block in text.split("=== run ")[1:]:
        first, _, rest = block.partition("\n")
        head = json.loads(first)
        stdout = rest.rsplit(f"=== end {head['id']}\n", 1)[0]
        yield head, stdout


def _sampled_clock(raw: Path) -> str:
    """The SM clock(s) nvidia-smi sampled while the GPU was busy (smi_log.csv)."""
    path = raw / "smi_log.csv"
    if not path.exists():
        return "not sampled"
    busy = []
    for line in path.read_text().splitlines()[1:]:
        f = [x.strip() for x in line.split(",")]
        if len(f) == 6 and f[5].rstrip(" %").isdigit() and int(f[5].rstrip(" %")) > 0:
            busy.append(f[1])
    if not busy:
        return "not sampled while busy"
    counts = {c: busy.count(c) for c in sorted(set(busy))}
    return ", ".join(f"{c} in {n} of {len(busy)}" for c, n in counts.items())


def _row(head, stdout, meta, smi, bench) -> dict:
    from gpumodels.facts.occupancy import WARP_SIZE

    m, rows = bench.parse_output(stdout)
    row = bench.summarize(m, rows, date=meta["date"], driver=smi["driver"])
    ms = float(m["elapsed_ms"])
    ilp = int(row["ilp"])
    row["target_warps_per_sm"] = head["target_warps_per_sm"]
    row["iters"] = int(m["arg.iters"])
    row["array_mb"] = int(m["arg.array_mb"]) if row["kind"] == "chase" else ""
    row["elapsed_ms"] = ms
    row["clock_mhz_events"] = row["cycles"] / (ms * 1e3)
    if row["kind"] == "chase":
        warp_bytes = WARP_SIZE * bench.BYTES_PER_THREAD_ACCESS
        moved = row["warps"] * row["repeats_per_warp"] * ilp * warp_bytes
        row["gbs_events"] = moved / (ms * 1e-3) / 1e9
    else:  # pattern, alpha and the chase's GB/s mean nothing for the other kinds
        row["gbs"] = row["gbs_events"] = row["pattern"] = row["alpha"] = ""
    row["source"] = (
        f"{row['source']} (driver {smi['driver']}; nvidia-smi: SM clock "
        f"{smi['clock_max_sm']} max, memory {smi['clock_mem']}, SM clock sampled "
        f"every 0.5 s while busy: {meta['busy_clock']}); measured by gpumodels, "
        f"command: {meta['command']}"
    )
    return row


def summarize_raw(raw: Path, csv_path: Path) -> int:
    import csv

    from gpumodels.comparisons import bench

    meta = json.loads((raw / "meta.json").read_text())
    smi = bench.parse_smi(meta["smi_before"])
    meta["busy_clock"] = _sampled_clock(raw)
    out, bad = [], []
    for head, stdout in _runs(raw):
        if head["rc"] != 0:
            bad.append((head["id"], head["rc"], head["stderr"]))
            continue
        try:
            out.append(_row(head, stdout, meta, smi, bench))
        except ValueError as e:
            bad.append((head["id"], "parse", str(e)))
    cols = columns()
    with open(csv_path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        for r in out:
            w.writerow({k: _fmt(r.get(k, "")) for k in cols})
    print(f"wrote {len(out)} rows to {csv_path}; {len(bad)} runs left out")
    for b in bad:
        print("  left out:", b)
    return 0


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return v


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--out", type=Path, required=True)
    d = sub.add_parser("device")
    d.add_argument("--plan", type=Path, required=True)
    d.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "out")))
    d.add_argument("--deadline", type=float, default=400.0, help="seconds")
    d.add_argument("--launch-timeout", type=float, default=60.0, help="seconds")
    s = sub.add_parser("summarize")
    s.add_argument("--raw", type=Path, required=True)
    s.add_argument("--csv", type=Path, default=ROOT / "data/measured/volkov_h100.csv")
    a = ap.parse_args(argv)
    if a.step == "plan":
        plan = make_plan()
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(plan, indent=1))
        print(f"{len(plan['runs'])} launches planned -> {a.out}")
        return 0
    if a.step == "device":
        return device(a.plan, a.out, a.deadline, a.launch_timeout)
    return summarize_raw(a.raw, a.csv)


if __name__ == "__main__":
    sys.exit(main())

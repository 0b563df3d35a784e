"""The vectorised trace builder (``refsim.kernels``) against a plain loop over warps
and instructions that follows the module's rules one warp at a time: which rows exist
(a warp with no active lane executes no memory instruction), their order (by warp,
then position), the positions (arithmetic, guarded or not, addressing instructions,
barriers), the byte addresses (block-scoped arrays moved off chip) and the executed
counts."""

import numpy as np
import pytest

from gpumodels.engines.refsim import kernels as K
from gpumodels.engines.refsim.trace import addressing_instructions


def _kernel():
    blocks, tpb = 3, 64
    gtid, tid, _, _ = K._lanes(blocks, tpb)
    W = gtid.shape[0]
    half = gtid.copy()
    half[1] = -1  # warp 1: no active lane
    half[2, 16:] = -1  # warp 2: half its lanes
    arrays = {
        "x": K.ArraySpec("x", blocks * tpb),
        "s": K.ArraySpec("s", tpb, space="S", writable=True, per_block=True),
        "y": K.ArraySpec("y", blocks * tpb, dtype="double", writable=True),
    }
    ops = (
        K.Op("x", gtid, alu=3),
        K.Op("x", half, alu=np.arange(1, W + 1), guarded=True),
        K.Op("s", tid, store=True, sync=True),
        K.Op("x", half, alu=2),  # not guarded: its arithmetic runs in warp 1 too
        K.Op("s", np.where(tid >= 0, 63 - tid, -1)),
        K.Op("y", gtid, store=True, alu=1),
    )
    return K.Kernel("loop_check", blocks, tpb, arrays, ops, tail_alu=5)


def _by_loop(k, tr):
    """Rows (warp, pos, array, addresses), barriers and executed counts, one warp at a
    time."""
    rows, bars, executed = [], [], []
    wpb = k.warps_per_block
    for w in range(k.n_warps):
        pos = 0
        for op in k.ops:
            if op.sync:
                bars.append((w, pos))
                pos += 1
            idx = np.asarray(op.idx)[w]
            live = bool((idx >= 0).any())
            alu = int(np.broadcast_to(op.alu, (k.n_warps,))[w])
            if live or not op.guarded:
                pos += alu
            if not live:
                continue
            spec, sp = k.arrays[op.array], tr.placement[op.array]
            pos += addressing_instructions(sp, spec.dtype)
            elem = idx + (w // wpb) * spec.n if spec.per_block and sp != "S" else idx
            addr = np.where(idx >= 0, tr.bases[op.array] + elem * spec.elem_bytes, -1)
            rows.append((w, pos, op.array, tuple(addr)))
            pos += 1
        executed.append(pos + k.tail_alu)
    return rows, bars, executed


@pytest.mark.parametrize("moves", [None, {"s": "G"}, {"x": "T", "s": "G"}])
def test_the_trace_is_the_plain_loop_over_warps(moves):
    k = _kernel()
    tr = k.trace(moves)
    rows, bars, executed = _by_loop(k, tr)
    got = [
        (int(w), int(p), tr.array_names[a], tuple(int(v) for v in addr))
        for w, p, a, addr in zip(tr.warp, tr.pos, tr.array, tr.addr)
    ]
    assert got == rows
    assert [tuple(b) for b in tr.barriers.tolist()] == bars
    assert tr.executed.tolist() == executed
    # warp 1 skips the two instructions with no active lane; the others run all six
    assert np.bincount(tr.warp).tolist() == [6, 4, 6, 6, 6, 6]
    space = {name: K.SPACES.index(sp) for name, sp in tr.placement.items()}
    assert tr.space.tolist() == [space[tr.array_names[a]] for a in tr.array]
    assert tr.word_bytes.tolist() == [
        k.arrays[tr.array_names[a]].elem_bytes for a in tr.array
    ]

// Pointer-chase array setup of Volkov (2016), §5.10 (streaming) and §6.7 (unstructured).
// Host-only C++; mirrors gpumodels.volkov.experiment.streaming_chase / random_chase and is
// compiled on the CPU by the test suite (tests/test_bench.py, via setup_check.cpp).
#pragma once
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace chase {

// The low 32 bits of every pointer are used as a float by the FADDs of the α-mix (§5.1), so they
// must be a normal, finite float: exponent bits 23..30 neither all 0 (zero/denormal, flushed on
// some GPUs and by -ftz) nor all 1 (Inf/NaN). Such addresses fill 8 MB windows.
inline bool float_safe(uint64_t address) {
    uint32_t e = (uint32_t(address) >> 23) & 0xFFu;
    return e != 0u && e != 0xFFu;
}

struct Stream {
    std::vector<int64_t> next;        // entry index read after entry i (-1: never read)
    std::vector<int64_t> block_base;  // first entry of each block's section
    int64_t spacing = 0, iterations = 0;
};

// Entry i -> i + ilp*threads; block j's section starts at base_j, chain m of thread t at
// base_j + m*threads + t. Sections are spacing entries long (a multiple of 32); sections
// holding an address that is not float_safe are skipped (addr(i) = base + i*entry_bytes).
inline Stream streaming(int64_t n, int64_t threads, int64_t blocks, int64_t ilp, int64_t spacing,
                        uint64_t base, uint64_t entry_bytes) {
    if (n < 32 || threads < 1 || blocks < 1 || ilp < 1) throw std::invalid_argument("bad streaming setup");
    const int64_t stride = ilp * threads;
    if (spacing <= 0) spacing = (n / blocks) / 32 * 32;
    if (spacing % 32 != 0 || spacing < stride)
        throw std::invalid_argument("spacing must be a multiple of 32 and hold one step of ilp*threads");
    Stream s;
    s.spacing = spacing;
    s.iterations = spacing / stride;
    s.next.resize(n);
    for (int64_t i = 0; i < n; ++i) s.next[i] = (i + stride < n) ? i + stride : -1;
    for (int64_t j = 0; j * spacing + spacing <= n && (int64_t)s.block_base.size() < blocks; ++j) {
        bool ok = true;
        for (int64_t i = j * spacing; i < (j + 1) * spacing && ok; ++i) ok = float_safe(base + uint64_t(i) * entry_bytes);
        if (ok) s.block_base.push_back(j * spacing);
    }
    if ((int64_t)s.block_base.size() < blocks) throw std::invalid_argument("array too small for this many blocks");
    return s;
}

// One pseudo-random loop through every float_safe entry (Sattolo's algorithm, seeded).
// starts[g] = the g*start_stride-th safe entry (mod the number of safe entries).
inline void random_loop(int64_t n, int64_t threads, int64_t start_stride, uint64_t seed, uint64_t base,
                        uint64_t entry_bytes, std::vector<int64_t>& next, std::vector<int64_t>& starts) {
    std::vector<int64_t> safe;
    for (int64_t i = 0; i < n; ++i) if (float_safe(base + uint64_t(i) * entry_bytes)) safe.push_back(i);
    if (safe.size() < 2) throw std::invalid_argument("random loop needs at least two entries");
    std::vector<int64_t> perm(safe.size());
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = int64_t(i);
    std::mt19937_64 rng(seed);
    for (size_t i = perm.size() - 1; i > 0; --i) {
        std::uniform_int_distribution<size_t> pick(0, i - 1);
        std::swap(perm[i], perm[pick(rng)]);
    }
    next.assign(n, -1);
    for (size_t k = 0; k < safe.size(); ++k) next[safe[k]] = safe[perm[k]];
    starts.resize(threads);
    for (int64_t g = 0; g < threads; ++g) starts[g] = safe[(g * start_stride) % int64_t(safe.size())];
}

}  // namespace chase

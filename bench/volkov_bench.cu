// Microbenchmarks of Volkov (2016), chapters 5-6, for current GPUs.
//
//   kind=chase   the alpha-mix of §5.1: one global load and alpha dependent FADDs, repeated,
//                every instruction depending on the one before (ilp>1: ilp independent chains)
//   kind=add     homogeneous dependent FADDs (alpha = infinity; §6.1 "add")
//   kind=sfu     homogeneous dependent reciprocal square roots (one MUFU.RSQ each; §5.2, §6.1)
//   kind=smem    dependent shared-memory loads, all threads on one word (broadcast; §5.2)
//   kind=smem2   the same with 2-way bank conflicts (§6.2)
//   pattern=stream|random   the pointer array of §5.10 or the single random loop of §6.7
//
// Every warp records its SM and clock64() at start and end (§5.5); occupancy is capped by a
// dynamic shared-memory allocation smem=BYTES (§5.7). Output: '# key=value' header lines, then
// CSV 'warp,sm,start,end'. gpumodels/bench.py runs this program and parses its output.
//
// Differences from the dissertation's 32-bit builds, on purpose: pointers are 64-bit, so a
// streaming warp access moves 32 x 8 = 256 bytes; the FADDs operate on the low 32 bits of the
// pointer (pointers are built so that these bits are a normal float; see chase_setup.h).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o volkov_bench volkov_bench.cu
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>
#include "chase_setup.h"

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

struct WarpRecord { unsigned long long start, end; unsigned sm, pad; };

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

__device__ __forceinline__ uint64_t load(uint64_t p) {          // one LDG per load (§5.1)
    uint64_t v; asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v;
}

__device__ __forceinline__ void record(WarpRecord* out, unsigned long long t0) {
    unsigned long long t1 = clock64();
    if ((threadIdx.x & 31) == 0) {
        unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
        out[w].start = t0; out[w].end = t1; out[w].sm = smid();
    }
}

// Repeats per loop iteration: about 512 instructions in the body, as in §5.1.
template <int ALPHA, int ILP> struct Unroll { static const int value = (512 / ((ALPHA + 1) * ILP)) > 0 ? 512 / ((ALPHA + 1) * ILP) : 1; };

// kind=chase: chain m of global thread g starts at entry start[g*ILP + m] (set up on the host).
template <int ALPHA, int ILP>
__global__ void chase_kernel(const int64_t* __restrict__ start, uint64_t base, int iters, float zero,
                             WarpRecord* out, uint64_t* sink) {
    extern __shared__ char occupancy_control[];              // allocated only to cap occupancy (§5.7)
    uint64_t p[ILP];
    const size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int m = 0; m < ILP; ++m) p[m] = base + 8ull * (uint64_t)start[g * ILP + m];
    unsigned long long t0 = clock64();
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int u = 0; u < Unroll<ALPHA, ILP>::value; ++u) {
#pragma unroll
            for (int m = 0; m < ILP; ++m) {
                uint64_t v = load(p[m]);
                unsigned lo, hi;
                asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(v));
                float f = __uint_as_float(lo);
#pragma unroll
                for (int a = 0; a < ALPHA; ++a) asm volatile("add.f32 %0, %0, %1;" : "+f"(f) : "f"(zero));
                asm("mov.b64 %0, {%1, %2};" : "=l"(p[m]) : "r"(__float_as_uint(f)), "r"(hi));
            }
        }
    }
    record(out, t0);
    uint64_t acc = 0;
#pragma unroll
    for (int m = 0; m < ILP; ++m) acc ^= p[m];
    if (acc == 1ull) sink[0] = acc;                          // keeps the chain live; never true
    (void)occupancy_control;
}

// kind=add / sfu / smem / smem2: ILP independent dependent chains of one instruction type.
template <int KIND, int ILP>
__global__ void homogeneous_kernel(int iters, float zero, WarpRecord* out, float* sink) {
    extern __shared__ char occupancy_control[];
    __shared__ unsigned words[64];
    if (threadIdx.x < 64) words[threadIdx.x] = 0;
    __syncthreads();
    unsigned sbase = (unsigned)__cvta_generic_to_shared(words);
    if (threadIdx.x == 0) { words[0] = sbase; words[32] = sbase + 128; }   // word 0 -> 0, word 32 -> 32
    __syncthreads();
    float f[ILP];
    unsigned a[ILP];
#pragma unroll
    for (int m = 0; m < ILP; ++m) {
        f[m] = 1.0f + zero;
        a[m] = sbase + ((KIND == 3 && (threadIdx.x & 1)) ? 128u : 0u);   // 2-way conflict: bank 0, two words
    }
    const int U = (512 / ILP) > 0 ? 512 / ILP : 1;
    unsigned long long t0 = clock64();
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int u = 0; u < U; ++u) {
#pragma unroll
            for (int m = 0; m < ILP; ++m) {
                if (KIND == 0) asm volatile("add.f32 %0, %0, %1;" : "+f"(f[m]) : "f"(zero));
                if (KIND == 1) asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(f[m]));
                if (KIND >= 2) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a[m]) :: "memory");
            }
        }
    }
    record(out, t0);
    float acc = 0;
#pragma unroll
    for (int m = 0; m < ILP; ++m) acc += f[m] + (float)a[m];
    if (acc == -1.0f) sink[0] = acc;
    (void)occupancy_control;
}

static std::map<std::string, std::string> parse(int argc, char** argv) {
    std::map<std::string, std::string> a = {{"kind", "chase"}, {"pattern", "stream"}, {"alpha", "0"}, {"ilp", "1"},
        {"threads", "128"}, {"blocks", "0"}, {"smem", "0"}, {"iters", "4"}, {"array_mb", "512"}, {"spacing", "0"},
        {"seed", "1"}, {"start_stride", "32"}, {"device", "0"}, {"warmup", "1"}};
    for (int i = 1; i < argc; ++i) {
        const char* eq = strchr(argv[i], '=');
        if (!eq || !a.count(std::string(argv[i], size_t(eq - argv[i])))) { fprintf(stderr, "unknown argument %s\n", argv[i]); exit(2); }
        a[std::string(argv[i], size_t(eq - argv[i]))] = eq + 1;
    }
    return a;
}

typedef void (*ChaseFn)(const int64_t*, uint64_t, int, float, WarpRecord*, uint64_t*);
typedef void (*HomFn)(int, float, WarpRecord*, float*);

template <int A, int I> void add_chase(std::map<std::pair<int, int>, ChaseFn>& t) { t[{A, I}] = chase_kernel<A, I>; }
template <int K, int I> void add_hom(std::map<std::pair<int, int>, HomFn>& t) { t[{K, I}] = homogeneous_kernel<K, I>; }

int main(int argc, char** argv) {
    auto a = parse(argc, argv);
    std::map<std::pair<int, int>, ChaseFn> chase_fns;
    add_chase<0, 1>(chase_fns); add_chase<0, 2>(chase_fns); add_chase<0, 4>(chase_fns); add_chase<0, 8>(chase_fns);
    add_chase<1, 1>(chase_fns); add_chase<2, 1>(chase_fns); add_chase<4, 1>(chase_fns); add_chase<8, 1>(chase_fns);
    add_chase<16, 1>(chase_fns); add_chase<32, 1>(chase_fns); add_chase<64, 1>(chase_fns);
    add_chase<128, 1>(chase_fns); add_chase<256, 1>(chase_fns); add_chase<512, 1>(chase_fns);
    std::map<std::pair<int, int>, HomFn> hom_fns;
    add_hom<0, 1>(hom_fns); add_hom<0, 2>(hom_fns); add_hom<0, 4>(hom_fns);
    add_hom<1, 1>(hom_fns); add_hom<2, 1>(hom_fns); add_hom<3, 1>(hom_fns);
    const std::map<std::string, int> kinds = {{"add", 0}, {"sfu", 1}, {"smem", 2}, {"smem2", 3}};

    const std::string kind = a["kind"], pattern = a["pattern"];
    const int alpha = atoi(a["alpha"].c_str()), ilp = atoi(a["ilp"].c_str()), threads = atoi(a["threads"].c_str());
    const int iters = atoi(a["iters"].c_str()), smem = atoi(a["smem"].c_str()), dev = atoi(a["device"].c_str());
    int blocks = atoi(a["blocks"].c_str());
    CHECK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    int clock_khz = 0, mem_khz = 0, drv = 0, rt = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    CHECK(cudaDriverGetVersion(&drv));
    CHECK(cudaRuntimeGetVersion(&rt));
    printf("# gpu=%s\n# cc=%d.%d\n# sm_count=%d\n# clock_khz=%d\n# mem_clock_khz=%d\n# driver_api=%d\n# runtime=%d\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, clock_khz, mem_khz, drv, rt);
    for (auto& kv : a) printf("# arg.%s=%s\n", kv.first.c_str(), kv.second.c_str());

    const void* fn = nullptr;
    ChaseFn cf = nullptr; HomFn hf = nullptr;
    if (kind == "chase") {
        auto it = chase_fns.find({alpha, ilp});
        if (it == chase_fns.end()) { fprintf(stderr, "alpha=%d ilp=%d is not compiled in\n", alpha, ilp); return 2; }
        cf = it->second; fn = (const void*)cf;
    } else if (kinds.count(kind)) {
        auto it = hom_fns.find({kinds.at(kind), ilp});
        if (it == hom_fns.end()) { fprintf(stderr, "kind=%s ilp=%d is not compiled in\n", kind.c_str(), ilp); return 2; }
        hf = it->second; fn = (const void*)hf;
    } else { fprintf(stderr, "unknown kind %s\n", kind.c_str()); return 2; }
    if (smem > 48 * 1024) CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, fn));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, smem));
    printf("# registers=%d\n# static_smem=%zu\n# blocks_per_sm_cuda=%d\n", attr.numRegs, attr.sharedSizeBytes, per_sm);
    if (per_sm < 1) { fprintf(stderr, "configuration does not fit on an SM\n"); return 2; }
    if (blocks <= 0) blocks = 100 * per_sm * prop.multiProcessorCount;   // oversubscription, §5.9

    const int unroll = kind == "chase" ? ((512 / ((alpha + 1) * ilp)) > 0 ? 512 / ((alpha + 1) * ilp) : 1)
                                       : ((512 / ilp) > 0 ? 512 / ilp : 1);
    printf("# repeats_per_warp=%lld\n", (long long)iters * unroll);
    int64_t* d_first = nullptr;
    uint64_t* d_array = nullptr;
    if (kind == "chase") {
        const int64_t n = (int64_t)atoll(a["array_mb"].c_str()) * (1 << 20) / 8;
        CHECK(cudaMalloc(&d_array, n * 8));
        const uint64_t base = (uint64_t)d_array;
        std::vector<int64_t> next, first((size_t)blocks * threads * ilp);
        try {
            if (pattern == "stream") {
                chase::Stream s = chase::streaming(n, threads, blocks, ilp, atoll(a["spacing"].c_str()), base, 8);
                if ((int64_t)iters * unroll > s.iterations) {
                    fprintf(stderr, "iters x unroll = %lld loads exceed the %lld that fit in one section\n",
                            (long long)iters * unroll, (long long)s.iterations);
                    return 2;
                }
                next.swap(s.next);
                for (int j = 0; j < blocks; ++j)          // chain m of thread t in block j: base_j + m*threads + t
                    for (int t = 0; t < threads; ++t)
                        for (int m = 0; m < ilp; ++m)
                            first[((size_t)j * threads + t) * ilp + m] = s.block_base[j] + (int64_t)m * threads + t;
                printf("# spacing=%lld\n", (long long)s.spacing);
            } else if (pattern == "random") {
                if (ilp != 1) { fprintf(stderr, "pattern=random takes ilp=1\n"); return 2; }
                chase::random_loop(n, (int64_t)blocks * threads, atoll(a["start_stride"].c_str()),
                                   strtoull(a["seed"].c_str(), nullptr, 0), base, 8, next, first);
            } else { fprintf(stderr, "unknown pattern %s\n", pattern.c_str()); return 2; }
        } catch (const std::exception& e) { fprintf(stderr, "setup: %s\n", e.what()); return 2; }
        std::vector<uint64_t> ptr(n);
        for (int64_t i = 0; i < n; ++i) ptr[i] = next[i] >= 0 ? base + 8ull * (uint64_t)next[i] : base + 8ull * (uint64_t)i;
        CHECK(cudaMemcpy(d_array, ptr.data(), n * 8, cudaMemcpyHostToDevice));
        CHECK(cudaMalloc(&d_first, first.size() * sizeof(int64_t)));
        CHECK(cudaMemcpy(d_first, first.data(), first.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    }
    const int warps = blocks * ((threads + 31) / 32);
    WarpRecord* d_out = nullptr;
    void* d_sink = nullptr;
    CHECK(cudaMalloc(&d_out, warps * sizeof(WarpRecord)));
    CHECK(cudaMalloc(&d_sink, 64));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
    for (int rep = 0; rep <= atoi(a["warmup"].c_str()); ++rep) {   // warm-up runs, then the recorded one
        CHECK(cudaEventRecord(e0));
        if (cf) cf<<<blocks, threads, smem>>>(d_first, (uint64_t)d_array, iters, 0.0f, d_out, (uint64_t*)d_sink);
        else hf<<<blocks, threads, smem>>>(iters, 0.0f, d_out, (float*)d_sink);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
    }
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    printf("# elapsed_ms=%.4f\n", ms);
    std::vector<WarpRecord> rec(warps);
    CHECK(cudaMemcpy(rec.data(), d_out, warps * sizeof(WarpRecord), cudaMemcpyDeviceToHost));
    printf("warp,sm,start,end\n");
    for (int w = 0; w < warps; ++w) printf("%d,%u,%llu,%llu\n", w, rec[w].sm, rec[w].start, rec[w].end);
    return 0;
}

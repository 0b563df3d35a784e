// BEN_MyCP-style microbenchmarks for the eight performance parameters of Perez & Piccoli:
// computing power (a dependent chain of fused multiply-adds in registers, no memory traffic
// until one store at the end) and global-memory read-modify-write bandwidth (each thread
// reads a word, does one multiply-add and writes it back, over an array far larger than the
// caches), each launched in the four shapes All-All, One-All, All-One and One-One.
//
//   perfparams_bench [--iters N] [--words W] [--repeats R]
//
// prints one CSV line per measurement:  kind,shape,blocks,threads,ms,work,value,unit
// (work = flops or bytes moved; value = GFLOP/s or GB/s, best of R repeats).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void compute_kernel(float *out, int iters, float a, float b) {
    float x = threadIdx.x * 1e-7f + blockIdx.x * 1e-9f;
    for (int i = 0; i < iters; ++i) {
        #pragma unroll
        for (int j = 0; j < 16; ++j) x = fmaf(x, a, b);      // 16 dependent FMAs: 32 flops
    }
    if (x == 12345.678f) out[0] = x;                          // keeps the chain alive, never true
}

__global__ void memory_kernel(float *data, size_t words, int iters) {
    size_t threads = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < iters; ++r) {
        for (size_t j = i; j < words; j += threads) data[j] = data[j] * 1.0001f + 0.5f;
    }
}

static float time_ms(void (*launch)(void *), void *arg, int repeats) {
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    float best = 1e30f;
    launch(arg);                                             // warm-up
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < repeats; ++r) {
        CHECK(cudaEventRecord(t0));
        launch(arg);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        if (ms < best) best = ms;
    }
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    return best;
}

struct Launch { int blocks, threads, iters; size_t words; float *buf; };

static void run_compute(void *p) {
    Launch *l = (Launch *)p;
    compute_kernel<<<l->blocks, l->threads>>>(l->buf, l->iters, 0.9999f, 0.0001f);
    CHECK(cudaGetLastError());
}

static void run_memory(void *p) {
    Launch *l = (Launch *)p;
    memory_kernel<<<l->blocks, l->threads>>>(l->buf, l->words, l->iters);
    CHECK(cudaGetLastError());
}

int main(int argc, char **argv) {
    int iters = 4096, repeats = 5;
    size_t words = (size_t)1 << 26;                         // 256 MiB of floats
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--words")) words = strtoull(argv[i + 1], 0, 10);
        else if (!strcmp(argv[i], "--repeats")) repeats = atoi(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount, full = prop.maxThreadsPerBlock;
    int many_blocks = sms * prop.maxBlocksPerMultiProcessor * 4;
    printf("# device,\"%s\",cc,%d.%d,sms,%d\n", prop.name, prop.major, prop.minor, sms);
    printf("kind,shape,blocks,threads,ms,work,value,unit\n");
    float *buf;
    CHECK(cudaMalloc(&buf, words * sizeof(float)));
    CHECK(cudaMemset(buf, 0, words * sizeof(float)));
    const char *names[4] = {"aa", "oa", "ao", "oo"};
    int blocks[4] = {many_blocks, 1, many_blocks, 1};
    int threads[4] = {full, full, 1, 1};
    for (int s = 0; s < 4; ++s) {
        Launch l = {blocks[s], threads[s], iters, words, buf};
        if (s == 3) l.iters = iters / 16 > 0 ? iters / 16 : 1;    // one thread: shorter chain
        float ms = time_ms(run_compute, &l, repeats);
        double flops = 32.0 * l.iters * (double)l.blocks * l.threads;
        printf("compute,%s,%d,%d,%.6f,%.0f,%.6f,GFLOP/s\n", names[s], l.blocks, l.threads, ms, flops, flops / ms / 1e6);
    }
    for (int s = 0; s < 4; ++s) {
        size_t w = (s == 0) ? words : words / 64;              // small shapes move less data
        Launch l = {blocks[s], threads[s], 1, w, buf};
        float ms = time_ms(run_memory, &l, repeats);
        double bytes = 8.0 * w;                                 // one 4-byte read and one write per word
        printf("memory,%s,%d,%d,%.6f,%.0f,%.6f,GB/s\n", names[s], l.blocks, l.threads, ms, bytes, bytes / ms / 1e6);
    }
    CHECK(cudaFree(buf));
    return 0;
}

// CPU self-check of chase_setup.h, run by tests/test_bench.py (no GPU needed).
// Usage: setup_check streaming N THREADS BLOCKS ILP SPACING BASE   -> prints next[], bases, iterations
//        setup_check random N THREADS STRIDE SEED BASE            -> prints cycle length and starts
#include <cstdio>
#include <cstdlib>
#include <string>
#include "chase_setup.h"

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    std::string mode = argv[1];
    try {
        if (mode == "streaming" && argc == 8) {
            auto s = chase::streaming(atoll(argv[2]), atoll(argv[3]), atoll(argv[4]), atoll(argv[5]), atoll(argv[6]),
                                      strtoull(argv[7], nullptr, 0), 8);
            printf("spacing %lld iterations %lld\nbases", (long long)s.spacing, (long long)s.iterations);
            for (auto b : s.block_base) printf(" %lld", (long long)b);
            printf("\nnext");
            for (auto v : s.next) printf(" %lld", (long long)v);
            printf("\n");
            return 0;
        }
        if (mode == "random" && argc == 7) {
            std::vector<int64_t> next, starts;
            int64_t n = atoll(argv[2]);
            chase::random_loop(n, atoll(argv[3]), atoll(argv[4]), strtoull(argv[5], nullptr, 0),
                               strtoull(argv[6], nullptr, 0), 8, next, starts);
            int64_t first = starts[0], cur = first, len = 0, used = 0;
            for (auto v : next) used += v >= 0;
            do { cur = next[cur]; ++len; } while (cur != first && len <= n);
            printf("used %lld cycle %lld\nstarts", (long long)used, (long long)len);
            for (auto v : starts) printf(" %lld", (long long)v);
            printf("\n");
            return 0;
        }
    } catch (const std::exception& e) {
        printf("error %s\n", e.what());
        return 1;
    }
    return 2;
}

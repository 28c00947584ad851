/* bench_store.c — the store at cluster scale:
 *   - commit throughput: sets of 100 games saved one transaction each (WAL, synchronous FULL),
 *     the work rank 0 does for every set in an MPI run; sets per second;
 *   - writing a 1,000,000-set store directly (38 players, one game a set; bigstore.h), how the
 *     rating benchmarks make their inputs. `dhm rate` on such stores, its time and peak memory:
 *     bench_rate_stream. */
#include <string.h>

#include "bench.h"
#include "bigstore.h"

int main(void)
{
    char dir[] = "/tmp/dhm-bench-store-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char db[256], err[512];
    Rng rng = rng_seed(1);
    uint8_t classes[100];

    /* commit throughput */
    snprintf(db, sizeof db, "%s/commit.sqlite", dir);
    Store *st;
    if (bigstore_create(db, 10, 2000, 100, &st))
        return 1;
    double t0 = bench_now();
    for (long k = 0; k < 2000; k++) {
        SetResult s;
        bigstore_random_set(&rng, 10, 100, k, &s, classes);
        if (store_save_set(st, &s, err, sizeof err)) {
            fprintf(stderr, "bench_store: %s\n", err);
            return 1;
        }
    }
    bench_report("store_commits_per_second_100_game_sets", 2000 / (bench_now() - t0), "sets/s");
    store_close(st);

    /* a million sets, written in one transaction (dhm rate on such stores: bench_rate_stream) */
    const long N = 1000000;
    snprintf(db, sizeof db, "%s/big.sqlite", dir);
    t0 = bench_now();
    if (bigstore_write(db, 38, N, &rng, NULL))
        return 1;
    bench_report("store_write_1000000_sets_one_transaction", bench_now() - t0, "s");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd))
        return 1;
    return 0;
}

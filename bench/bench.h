/* bench.h — tiny helpers for benchmarks: a monotonic clock, the `name  value unit` output
 * line, and locating ../shared. Benchmarks use fixed seeds so two builds do the same work. */
#ifndef DHM_BENCH_H
#define DHM_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void bench_report(const char *name, double value, const char *unit)
{
    printf("%-44s %12.2f %s\n", name, value, unit);
    fflush(stdout);
}

static inline const char *bench_shared(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("DHM_SHARED");
    snprintf(buf, sizeof buf, "%s/%s", root && *root ? root : "../shared", rel);
    struct stat st;
    return stat(buf, &st) == 0 ? buf : NULL;
}

/* The best rate, in units per second, over `runs` runs of at least `secs` seconds each;
 * batch(ctx) does some work and returns how many units it did. The best of several, because
 * this VM's neighbours add noise. */
static inline double bench_best_rate(long (*batch)(void *ctx), void *ctx, int runs, double secs)
{
    double best = 0;
    for (int run = 0; run < runs; run++) {
        long units = 0;
        double t0 = bench_now(), t;
        do {
            units += batch(ctx);
            t = bench_now() - t0;
        } while (t < secs);
        if ((double)units / t > best)
            best = (double)units / t;
    }
    return best;
}

/* Keeps a value alive so the compiler cannot drop the work that produced it. */
static inline void bench_keep(unsigned long v) { __asm__ volatile("" : : "r"(v) : "memory"); }

#endif

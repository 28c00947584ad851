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

/* The rate, in units per second, of one window: batch(ctx) does some work and returns how many
 * units it did; it is called until at least `secs` seconds have passed. */
static inline double bench_window_rate(long (*batch)(void *ctx), void *ctx, double secs)
{
    long units = 0;
    double t0 = bench_now(), t;
    do {
        units += batch(ctx);
        t = bench_now() - t0;
    } while (t < secs);
    return (double)units / t;
}

/* The best rate over `runs` runs of at least `secs` seconds each. The best of several, because
 * this VM's neighbours add noise. */
static inline double bench_best_rate(long (*batch)(void *ctx), void *ctx, int runs, double secs)
{
    double best = 0;
    for (int run = 0; run < runs; run++) {
        double r = bench_window_rate(batch, ctx, secs);
        if (r > best)
            best = r;
    }
    return best;
}

/* For batches that do the same work on every call (a fixed list of positions): the best rate
 * over many windows of at least `window` seconds, `secs` seconds in all. This VM's neighbours
 * slow whole runs down by up to 2x at random; the best short window measures the code when it
 * has the core to itself and repeats within a few percent, where the best of a few long runs
 * wanders by 30% and more. Not for batches whose work varies (random games): the best window
 * would pick the easiest batch. */
static inline double bench_best_window_rate(long (*batch)(void *ctx), void *ctx, double secs, double window)
{
    double best = 0, start = bench_now();
    batch(ctx); /* warm-up: caches and branch predictors */
    do {
        double r = bench_window_rate(batch, ctx, window);
        if (r > best)
            best = r;
    } while (bench_now() - start < secs);
    return best;
}

/* Keeps a value alive so the compiler cannot drop the work that produced it. */
static inline void bench_keep(unsigned long v) { __asm__ volatile("" : : "r"(v) : "memory"); }

#endif

/* bench_rate_stream.c — `dhm rate --method sts` on 100,000 and on 1,000,000 sets (38 players,
 * one game a set), from a store (--db) and from the same sets as CSV, each in a child process:
 * wall seconds (best of 3, this VM's neighbours add noise), the CPU seconds of that run, and
 * peak memory (the child's ru_maxrss). STS streams: the goals are peak memory under 100 MB and
 * within 20% between the two sizes (the *_peak_growth lines: 1M / 100k), and 1M sets from the
 * store in no more time than before streaming (1.75 s). For comparison, the same with
 * --in-memory (every set held, as before). The inputs are made in a child too, so that this
 * process stays small: a child's ru_maxrss counts what it shares with its parent at fork
 * (bench_rate_stream_parent_peak_memory says how much that can be). DHM_BENCH_KEEP=1 keeps
 * the inputs (s100000.sqlite, s100000.csv, ...) and says where. */
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bigstore.h"

typedef struct Run {
    double wall, cpu, mb;
} Run;

/* dhm rate on the input; -1 if it failed. */
static int rate_once(const char *dhm, const char *input, int db, int in_memory, Run *out)
{
    double t0 = bench_now();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        if (db)
            execl(dhm, dhm, "rate", "--db", input, "--method", "sts", in_memory ? "--in-memory" : (char *)NULL,
                  (char *)NULL);
        else
            execl(dhm, dhm, "rate", input, "--method", "sts", in_memory ? "--in-memory" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_rate_stream: dhm rate %s failed\n", input);
        return -1;
    }
    out->wall = bench_now() - t0;
    out->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec * 1e-6;
    out->mb = (double)ru.ru_maxrss / 1024.0;
    return 0;
}

/* The best wall time of `runs` runs, with that run's CPU time, and the largest peak. */
static int rate_best(const char *dhm, const char *input, int db, int in_memory, int runs, Run *best)
{
    best->wall = 1e300;
    best->mb = 0;
    for (int i = 0; i < runs; i++) {
        Run r;
        if (rate_once(dhm, input, db, in_memory, &r))
            return -1;
        if (r.wall < best->wall) {
            best->wall = r.wall;
            best->cpu = r.cpu;
        }
        best->mb = r.mb > best->mb ? r.mb : best->mb;
    }
    return 0;
}

static void report(const char *src, long sets, const char *mode, const Run *r)
{
    char name[128];
    snprintf(name, sizeof name, "rate_sts_%s_%ld_sets%s_seconds", src, sets, mode);
    bench_report(name, r->wall, "s");
    snprintf(name, sizeof name, "rate_sts_%s_%ld_sets%s_cpu_seconds", src, sets, mode);
    bench_report(name, r->cpu, "s");
    snprintf(name, sizeof name, "rate_sts_%s_%ld_sets%s_peak_memory", src, sets, mode);
    bench_report(name, r->mb, "MB");
}

int main(void)
{
    char dir[] = "/tmp/dhm-bench-rate-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    const char *dhm = getenv("DHM") ? getenv("DHM") : "build/dhm";
    const long sizes[2] = {100000, 1000000};
    char db[2][256], csv[2][256];
    for (int k = 0; k < 2; k++) {
        snprintf(db[k], sizeof db[k], "%s/s%ld.sqlite", dir, sizes[k]);
        snprintf(csv[k], sizeof csv[k], "%s/s%ld.csv", dir, sizes[k]);
    }
    double t0 = bench_now();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        for (int k = 0; k < 2; k++) {
            Rng rng = rng_seed(1);
            if (bigstore_write(db[k], 38, sizes[k], &rng, csv[k]))
                _exit(1);
        }
        _exit(0);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 1;
    bench_report("rate_stream_inputs_written", bench_now() - t0, "s");
    struct rusage self;
    getrusage(RUSAGE_SELF, &self);
    bench_report("bench_rate_stream_parent_peak_memory", (double)self.ru_maxrss / 1024.0, "MB");
    int rc = 0;
    for (int src = 0; src < 2 && !rc; src++) {
        const char *name = src ? "csv" : "db";
        Run r[2];
        for (int k = 0; k < 2 && !rc; k++) {
            rc = rate_best(dhm, src ? csv[k] : db[k], !src, 0, 3, &r[k]);
            if (!rc)
                report(name, sizes[k], "", &r[k]);
        }
        if (rc)
            break;
        char line[96];
        snprintf(line, sizeof line, "rate_sts_%s_peak_growth_1000000_over_100000", name);
        bench_report(line, r[1].mb / r[0].mb, "x");
        for (int k = 0; k < 2 && !rc; k++) {
            Run m;
            rc = rate_best(dhm, src ? csv[k] : db[k], !src, 1, 1, &m);
            if (!rc)
                report(name, sizes[k], "_in_memory", &m);
        }
    }
    if (getenv("DHM_BENCH_KEEP")) { /* to measure by hand (/usr/bin/time -f %M) or profile */
        fprintf(stderr, "bench_rate_stream: kept %s\n", dir);
        return rc ? 1 : 0;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd))
        return 1;
    return rc ? 1 : 0;
}

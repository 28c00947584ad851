/* bench_tournament.c — tournament throughput: 10,000-game sets with 5-of-10 random pairing
 * and two worker threads, into a SQLite store in /tmp; reported as sets per hour. The pool is
 * the built-in rule-based players (five simple, five random); the Monte Carlo players'
 * decision speed is benchmarked in bench_mc. */
#include <string.h>
#include <unistd.h>

#include "arena/tournament.h"
#include "bench.h"

int main(void)
{
    const char *text = "s1 simple\ns2 simple\ns3 simple\ns4 simple\ns5 simple\n"
                       "r1 random\nr2 random\nr3 random\nr4 random\nr5 random\n";
    Pool pool;
    char err[512];
    if (pool_parse(text, "bench", &pool, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    char db[] = "/tmp/dhm-bench-XXXXXX";
    int fd = mkstemp(db);
    close(fd);
    unlink(db);
    RunInfo run;
    memset(&run, 0, sizeof run);
    run.sets = 20;
    run.games = 10000;
    run.seat_change = 3;
    run.class_reset = 100;
    snprintf(run.pairing, sizeof run.pairing, "random");
    char **names = malloc(10 * sizeof *names), **specs = malloc(10 * sizeof *specs);
    for (int i = 0; i < pool.n; i++) {
        names[i] = pool.e[i].name;
        specs[i] = pool.e[i].spec;
    }
    Store *st;
    if (store_create(&st, db, &run, pool.n, names, specs, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    TournamentConfig tc = {.pool = &pool, .sets = run.sets, .games = run.games, .seat_change = 3, .class_reset = 100,
                           .seed = 1, .jobs = 2, .pairing = PAIR_RANDOM, .connect_timeout_ms = 10000, .log_dir = "/tmp"};
    double t0 = bench_now();
    if (tournament_run(&tc, st, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    double t = bench_now() - t0;
    bench_report("tournament_20_sets_10000_games_5of10_jobs2", t, "s");
    bench_report("tournament_sets_per_hour_5of10_jobs2", 3600.0 * run.sets / t, "sets/h");
    bench_report("tournament_games_per_second_jobs2", (double)run.sets * run.games / t, "games/s");
    store_close(st);
    free(names);
    free(specs);
    pool_free(&pool);
    char p[64];
    unlink(db);
    snprintf(p, sizeof p, "%s-wal", db);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db);
    unlink(p);
    return 0;
}

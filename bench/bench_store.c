/* bench_store.c — the store at cluster scale:
 *   - commit throughput: sets of 100 games saved one transaction each (WAL, synchronous FULL),
 *     the work rank 0 does for every set in an MPI run; sets per second;
 *   - rating a big store: a 1,000,000-set store (38 players, one game a set; written directly
 *     for speed, checked by the same reader as any store) rated by `dhm rate --db --method sts`
 *     in a child process: seconds and peak memory (the goal: under 2 s and 100 MB; the set-wise
 *     methods rate the sets as they are read, beside a thread reading the players' rows). */
#include <sqlite3.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "record/store.h"
#include "core/rng.h"

static int make_store(const char *db, int nplayers, long sets, int games, Store **out)
{
    RunInfo run;
    memset(&run, 0, sizeof run);
    run.sets = sets;
    run.games = games;
    run.seat_change = 3;
    run.class_reset = 100;
    snprintf(run.pairing, sizeof run.pairing, "random");
    run.pool_text = "";
    char *names[64], *specs[64], buf[64][16];
    for (int i = 0; i < nplayers; i++) {
        snprintf(buf[i], sizeof buf[i], "p%02d", i);
        names[i] = buf[i];
        specs[i] = "random";
    }
    char err[512];
    if (store_create(out, db, &run, nplayers, names, specs, err, sizeof err)) {
        fprintf(stderr, "bench_store: %s\n", err);
        return -1;
    }
    return 0;
}

/* One random set: five distinct players, `games` random finishing orders. */
static void random_set(Rng *r, int nplayers, int games, long idx, SetResult *s, uint8_t *classes)
{
    memset(s, 0, sizeof *s);
    s->idx = idx;
    s->games = games;
    s->dup_group = -1;
    snprintf(s->status, sizeof s->status, "ok");
    snprintf(s->started, sizeof s->started, "2026-11-23T00:00:00.000Z");
    snprintf(s->finished, sizeof s->finished, "2026-11-23T00:00:01.000Z");
    int pick[64];
    for (int i = 0; i < nplayers; i++)
        pick[i] = i;
    for (int i = 0; i < NPLAYERS; i++) {
        int j = i + (int)rng_below(r, (uint32_t)(nplayers - i)), t = pick[i];
        pick[i] = pick[j];
        pick[j] = t;
        s->player[i] = pick[i];
    }
    for (int g = 0; g < games; g++) {
        int cls[NPLAYERS] = {0, 1, 2, 3, 4};
        for (int i = NPLAYERS - 1; i > 0; i--) {
            int j = (int)rng_below(r, (uint32_t)(i + 1)), t = cls[i];
            cls[i] = cls[j];
            cls[j] = t;
        }
        classes[g] = pack_classes(cls);
        for (int p = 0; p < NPLAYERS; p++) {
            s->total[p] += 5 - cls[p];
            s->cls[p][cls[p]]++;
        }
    }
    s->classes = classes;
}

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
    if (make_store(db, 10, 2000, 100, &st))
        return 1;
    double t0 = bench_now();
    for (long k = 0; k < 2000; k++) {
        SetResult s;
        random_set(&rng, 10, 100, k, &s, classes);
        if (store_save_set(st, &s, err, sizeof err)) {
            fprintf(stderr, "bench_store: %s\n", err);
            return 1;
        }
    }
    bench_report("store_commits_per_second_100_game_sets", 2000 / (bench_now() - t0), "sets/s");
    store_close(st);

    /* a million sets, written in one transaction */
    const long N = 1000000;
    snprintf(db, sizeof db, "%s/big.sqlite", dir);
    if (make_store(db, 38, N, 1, &st))
        return 1;
    store_close(st);
    sqlite3 *h;
    if (sqlite3_open(db, &h) != SQLITE_OK)
        return 1;
    sqlite3_exec(h, "PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL);
    sqlite3_stmt *qs, *qp, *qg;
    sqlite3_prepare_v2(h, "INSERT INTO sets VALUES (1, ?, 0, ?, ?, 'ok', '', 1, -1, 0)", -1, &qs, NULL);
    sqlite3_prepare_v2(h, "INSERT INTO set_players VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0)", -1, &qp, NULL);
    sqlite3_prepare_v2(h, "INSERT INTO set_games VALUES (1, ?, ?)", -1, &qg, NULL);
    t0 = bench_now();
    for (long k = 0; k < N; k++) {
        SetResult s;
        random_set(&rng, 38, 1, k, &s, classes);
        sqlite3_reset(qs);
        sqlite3_bind_int64(qs, 1, k);
        sqlite3_bind_text(qs, 2, s.started, -1, SQLITE_STATIC);
        sqlite3_bind_text(qs, 3, s.finished, -1, SQLITE_STATIC);
        sqlite3_step(qs);
        for (int p = 0; p < NPLAYERS; p++) {
            sqlite3_reset(qp);
            sqlite3_bind_int64(qp, 1, k);
            sqlite3_bind_int(qp, 2, p);
            sqlite3_bind_int(qp, 3, s.player[p]);
            sqlite3_bind_int64(qp, 4, s.total[p]);
            for (int c = 0; c < NPLAYERS; c++)
                sqlite3_bind_int64(qp, 5 + c, s.cls[p][c]);
            sqlite3_step(qp);
        }
        sqlite3_reset(qg);
        sqlite3_bind_int64(qg, 1, k);
        sqlite3_bind_blob(qg, 2, classes, 1, SQLITE_STATIC);
        sqlite3_step(qg);
    }
    sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
    sqlite3_finalize(qs);
    sqlite3_finalize(qp);
    sqlite3_finalize(qg);
    sqlite3_close(h);
    bench_report("store_write_1000000_sets_one_transaction", bench_now() - t0, "s");

    /* dhm rate on it, in a child: time and peak memory */
    const char *dhm = getenv("DHM") ? getenv("DHM") : "build/dhm";
    t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execl(dhm, dhm, "rate", "--db", db, "--method", "sts", (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    double secs = bench_now() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_store: dhm rate failed (%d)\n", status);
        return 1;
    }
    bench_report("rate_db_1000000_sets_sts_seconds", secs, "s");
    bench_report("rate_db_1000000_sets_sts_peak_memory", (double)ru.ru_maxrss / 1024.0, "MB");
    if (getenv("DHM_BENCH_KEEP")) { /* for profiling */
        fprintf(stderr, "bench_store: kept %s\n", db);
        return 0;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd))
        return 1;
    return 0;
}

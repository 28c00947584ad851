/* bigstore.h — big inputs for the store and rating benchmarks: a run's store of random sets
 * (five distinct players of a pool "p00", "p01", ..., random finishing orders), and a store
 * of a million sets or more written directly in one transaction (synchronous off: what a
 * tournament writes set by set, minutes sooner; read back by the same checked reader as any
 * store), optionally with the same sets as `dhm rate`'s CSV input, rows as `dhm records sets
 * --csv` writes them. Header-only, like bench.h; fixed seeds. */
#ifndef DHM_BENCH_BIGSTORE_H
#define DHM_BENCH_BIGSTORE_H

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "core/rng.h"
#include "record/store.h"

static inline int bigstore_create(const char *db, int nplayers, long sets, int games, Store **out)
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
        fprintf(stderr, "bigstore: %s\n", err);
        return -1;
    }
    return 0;
}

/* One random set: five distinct players, `games` random finishing orders. */
static inline void bigstore_random_set(Rng *r, int nplayers, int games, long idx, SetResult *s, uint8_t *classes)
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

/* A store at db of n sets of one game among nplayers players, drawn from rng; with csv (else
 * NULL) the same sets as set,order,player,points rows. Returns 0 or -1 (said on stderr). */
static inline int bigstore_write(const char *db, int nplayers, long n, Rng *rng, const char *csv)
{
    Store *st;
    if (bigstore_create(db, nplayers, n, 1, &st))
        return -1;
    store_close(st);
    sqlite3 *h;
    FILE *f = csv ? fopen(csv, "w") : NULL;
    if ((csv && !f) || sqlite3_open(db, &h) != SQLITE_OK) {
        fprintf(stderr, "bigstore: cannot write %s\n", csv && !f ? csv : db);
        if (f)
            fclose(f);
        return -1;
    }
    if (f)
        fprintf(f, "set,order,player,points\n");
    sqlite3_exec(h, "PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL);
    sqlite3_stmt *qs, *qp, *qg;
    sqlite3_prepare_v2(h, "INSERT INTO sets VALUES (1, ?, 0, ?, ?, 'ok', '', 1, -1, 0)", -1, &qs, NULL);
    sqlite3_prepare_v2(h, "INSERT INTO set_players VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0)", -1, &qp, NULL);
    sqlite3_prepare_v2(h, "INSERT INTO set_games VALUES (1, ?, ?)", -1, &qg, NULL);
    int ok = 1;
    for (long k = 0; k < n && ok; k++) {
        SetResult s;
        uint8_t classes[1];
        bigstore_random_set(rng, nplayers, 1, k, &s, classes);
        sqlite3_reset(qs);
        sqlite3_bind_int64(qs, 1, k);
        sqlite3_bind_text(qs, 2, s.started, -1, SQLITE_STATIC);
        sqlite3_bind_text(qs, 3, s.finished, -1, SQLITE_STATIC);
        ok &= sqlite3_step(qs) == SQLITE_DONE;
        for (int p = 0; p < NPLAYERS; p++) {
            sqlite3_reset(qp);
            sqlite3_bind_int64(qp, 1, k);
            sqlite3_bind_int(qp, 2, p);
            sqlite3_bind_int(qp, 3, s.player[p]);
            sqlite3_bind_int64(qp, 4, s.total[p]);
            for (int c = 0; c < NPLAYERS; c++)
                sqlite3_bind_int64(qp, 5 + c, s.cls[p][c]);
            ok &= sqlite3_step(qp) == SQLITE_DONE;
            if (f)
                fprintf(f, "%ld,%ld,\"p%02d\",%ld\n", k, k, s.player[p], s.total[p]);
        }
        sqlite3_reset(qg);
        sqlite3_bind_int64(qg, 1, k);
        sqlite3_bind_blob(qg, 2, classes, 1, SQLITE_STATIC);
        ok &= sqlite3_step(qg) == SQLITE_DONE;
    }
    ok &= sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_finalize(qs);
    sqlite3_finalize(qp);
    sqlite3_finalize(qg);
    sqlite3_close(h);
    if (f && fclose(f))
        ok = 0;
    if (!ok)
        fprintf(stderr, "bigstore: writing %s failed\n", db);
    return ok ? 0 : -1;
}

#endif

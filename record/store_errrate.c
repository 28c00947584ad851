/* store_errrate.c — error rates in the store (see store.h; dhm errorrate --save): one row per
 * player, evaluator, worlds and seed; saving again replaces those rows. */
#include "record/store_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void bind_real(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static double column_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int store_save_error_rates(Store *s, const StoredErrRate *r, int n, char *err, size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    char e[300];
    int rc = -1;
    sqlite3_stmt *st = NULL;
    if (exec(s->db, "BEGIN IMMEDIATE", e, sizeof e) || exec(s->db, ERR_TABLE, e, sizeof e)) {
        snprintf(err, errsz, "cannot write the database: %s", e);
        exec(s->db, "ROLLBACK", e, sizeof e);
        goto out;
    }
    int ok = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO error_rates VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &st, NULL) == SQLITE_OK;
    for (int i = 0; ok && i < n; i++) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, r[i].player, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, r[i].evaluator, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, r[i].worlds);
        sqlite3_bind_int64(st, 4, (sqlite3_int64)r[i].seed);
        sqlite3_bind_int64(st, 5, r[i].games);
        sqlite3_bind_int64(st, 6, r[i].judged);
        sqlite3_bind_int64(st, 7, r[i].skipped);
        bind_real(st, 8, r[i].rate);
        bind_real(st, 9, r[i].lo);
        bind_real(st, 10, r[i].hi);
        bind_real(st, 11, r[i].mean_rank);
        bind_real(st, 12, r[i].mean_points);
        sqlite3_bind_text(st, 13, r[i].made, -1, SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (!ok || exec(s->db, "COMMIT", e, sizeof e)) {
        db_fail(s->db, err, errsz, "cannot write the error rates");
        exec(s->db, "ROLLBACK", e, sizeof e);
        goto out;
    }
    rc = 0;
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_error_rates(Store *s, StoredErrRate **out, int *n, char *err, size_t errsz)
{
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&s->mu);
    int rc = 0, cap = 0;
    sqlite3_stmt *st;
    if (!has_table(s, "error_rates"))
        goto out;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT player, evaluator, worlds, seed, games, judged, skipped, rate, lo, hi, mean_rank,"
                           " mean_points, made FROM error_rates WHERE run_id = 1 ORDER BY evaluator, worlds, seed, rate",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_fail(s->db, err, errsz, "cannot read the error rates");
        goto out;
    }
    while (sqlite3_step(st) == SQLITE_ROW && *n < 100000) {
        StoredErrRate *p = rows_room(*out, *n, &cap, sizeof *p);
        if (!p) {
            rc = -1;
            snprintf(err, errsz, "out of memory");
            break;
        }
        *out = p;
        StoredErrRate *r = &(*out)[(*n)++];
        memset(r, 0, sizeof *r);
        copy_text(r->player, sizeof r->player, sqlite3_column_text(st, 0));
        copy_text(r->evaluator, sizeof r->evaluator, sqlite3_column_text(st, 1));
        r->worlds = sqlite3_column_int(st, 2);
        r->seed = (uint64_t)sqlite3_column_int64(st, 3);
        r->games = (long)sqlite3_column_int64(st, 4);
        r->judged = (long)sqlite3_column_int64(st, 5);
        r->skipped = (long)sqlite3_column_int64(st, 6);
        r->rate = column_real(st, 7);
        r->lo = column_real(st, 8);
        r->hi = column_real(st, 9);
        r->mean_rank = column_real(st, 10);
        r->mean_points = column_real(st, 11);
        copy_text(r->made, sizeof r->made, sqlite3_column_text(st, 12));
        if (r->games < 0 || r->judged < 0 || r->skipped < 0 || (isfinite(r->rate) && (r->rate < 0 || r->rate > 1))) {
            rc = -1;
            snprintf(err, errsz, "damaged database: an error-rate row for %s is out of range", r->player);
            break;
        }
    }
    sqlite3_finalize(st);
out:
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

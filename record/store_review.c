/* store_review.c — analyses of single stored games in the store (see store.h; dhm view
 * --analyze --save): one row per set, game, evaluator, worlds and seed; saving again replaces it. */
#include "record/store_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *REVIEW_TABLE =
    "CREATE TABLE IF NOT EXISTS game_reviews (run_id INTEGER NOT NULL, set_idx INTEGER NOT NULL, game INTEGER NOT NULL,"
    " evaluator TEXT NOT NULL, worlds INTEGER NOT NULL, seed INTEGER NOT NULL, made TEXT NOT NULL, data BLOB NOT NULL,"
    " PRIMARY KEY (run_id, set_idx, game, evaluator, worlds, seed));";

int store_save_reviews(Store *s, const StoredReview *r, int n, char *err, size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    char e[300];
    int rc = -1;
    sqlite3_stmt *st = NULL;
    if (exec(s->db, "BEGIN IMMEDIATE", e, sizeof e) || exec(s->db, REVIEW_TABLE, e, sizeof e)) {
        snprintf(err, errsz, "cannot write the database: %s", e);
        exec(s->db, "ROLLBACK", e, sizeof e);
        goto out;
    }
    int ok = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO game_reviews VALUES (1, ?, ?, ?, ?, ?, ?, ?)", -1, &st,
                                NULL) == SQLITE_OK;
    for (int i = 0; ok && i < n; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, r[i].set);
        sqlite3_bind_int(st, 2, r[i].game);
        sqlite3_bind_text(st, 3, r[i].evaluator, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 4, r[i].worlds);
        sqlite3_bind_int64(st, 5, (sqlite3_int64)r[i].seed);
        sqlite3_bind_text(st, 6, r[i].made, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(st, 7, r[i].data, (int)r[i].len, SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (!ok || exec(s->db, "COMMIT", e, sizeof e)) {
        db_fail(s->db, err, errsz, "cannot write the game analyses");
        exec(s->db, "ROLLBACK", e, sizeof e);
        goto out;
    }
    rc = 0;
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

void store_free_reviews(StoredReview *r, int n)
{
    for (int i = 0; r && i < n; i++)
        free(r[i].data);
    free(r);
}

int store_reviews(Store *s, StoredReview **out, int *n, char *err, size_t errsz)
{
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&s->mu);
    int rc = 0, cap = 0;
    sqlite3_stmt *st;
    if (!has_table(s, "game_reviews"))
        goto out;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT set_idx, game, evaluator, worlds, seed, made, data FROM game_reviews WHERE run_id = 1"
                           " ORDER BY set_idx, game, worlds DESC, made DESC",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_fail(s->db, err, errsz, "cannot read the game analyses");
        goto out;
    }
    while (sqlite3_step(st) == SQLITE_ROW && *n < 100000) {
        StoredReview *p = rows_room(*out, *n, &cap, sizeof *p);
        if (!p) {
            rc = -1;
            snprintf(err, errsz, "out of memory");
            break;
        }
        *out = p;
        StoredReview *r = &(*out)[(*n)++];
        memset(r, 0, sizeof *r);
        r->set = (long)sqlite3_column_int64(st, 0);
        r->game = sqlite3_column_int(st, 1);
        copy_text(r->evaluator, sizeof r->evaluator, sqlite3_column_text(st, 2));
        r->worlds = sqlite3_column_int(st, 3);
        r->seed = (uint64_t)sqlite3_column_int64(st, 4);
        copy_text(r->made, sizeof r->made, sqlite3_column_text(st, 5));
        r->len = (size_t)sqlite3_column_bytes(st, 6);
        r->data = malloc(r->len ? r->len : 1);
        if (!r->data) {
            rc = -1;
            snprintf(err, errsz, "out of memory");
            break;
        }
        if (r->len)
            memcpy(r->data, sqlite3_column_blob(st, 6), r->len);
        if (r->set < 0 || r->game < 0 || r->worlds < 1) {
            rc = -1;
            snprintf(err, errsz, "damaged database: the analysis of set %ld game %d is out of range", r->set, r->game);
            break;
        }
    }
    sqlite3_finalize(st);
out:
    if (rc) {
        store_free_reviews(*out, *n);
        *out = NULL;
        *n = 0;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* store_hand.c — initial-hand win rates in the store (see store.h; dhm handstrength,
 * analysis/handstrength.h): one row per set, all made with the same settings. */
#include "record/store_internal.h"

#include <stdlib.h>
#include <string.h>

int store_hand_p_info(Store *s, StoreHandInfo *info, char *err, size_t errsz)
{
    memset(info, 0, sizeof *info);
    pthread_mutex_lock(&s->mu);
    int rc = 0;
    sqlite3_stmt *st;
    if (has_table(s, "hand_p")) {
        if (sqlite3_prepare_v2(s->db,
                               "SELECT count(*), count(DISTINCT playouts), count(DISTINCT method), count(DISTINCT seed),"
                               " min(playouts), min(method), min(seed) FROM hand_p WHERE run_id = 1",
                               -1, &st, NULL) != SQLITE_OK) {
            rc = db_fail(s->db, err, errsz, "cannot read the initial-hand win rates");
        } else {
            if (sqlite3_step(st) == SQLITE_ROW) {
                info->sets = (long)sqlite3_column_int64(st, 0);
                int mixed = sqlite3_column_int(st, 1) > 1 || sqlite3_column_int(st, 2) > 1 || sqlite3_column_int(st, 3) > 1;
                info->playouts = sqlite3_column_int(st, 4);
                copy_text(info->method, sizeof info->method, sqlite3_column_text(st, 5));
                info->seed = (uint64_t)sqlite3_column_int64(st, 6);
                if (info->sets && (mixed || info->playouts < 1)) {
                    snprintf(err, errsz, "damaged database: the initial-hand win rates were not all made with the same settings");
                    rc = -1;
                }
            }
            sqlite3_finalize(st);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_hand_p_clear(Store *s, char *err, size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    char e[300];
    int rc = 0;
    if (exec(s->db, HAND_P_TABLE, e, sizeof e) || exec(s->db, "DELETE FROM hand_p", e, sizeof e)) {
        snprintf(err, errsz, "cannot write the database: %s", e);
        rc = -1;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_save_hand_p(Store *s, long idx, const StoreHandInfo *info, int games, const uint32_t *wins, char *err,
                      size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    char e[300];
    int rc = -1;
    sqlite3_stmt *st = NULL;
    if (exec(s->db, HAND_P_TABLE, e, sizeof e)) {
        snprintf(err, errsz, "cannot write the database: %s", e);
        goto out;
    }
    /* little-endian uint32 counts, STORE_HAND_PAIRS per game */
    size_t n = (size_t)games * STORE_HAND_PAIRS;
    uint8_t *blob = malloc(n * 4 + 1);
    if (!blob) {
        snprintf(err, errsz, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            blob[4 * i + (size_t)b] = (uint8_t)(wins[i] >> (8 * b));
    if (sqlite3_prepare_v2(s->db, "INSERT INTO hand_p VALUES (1, ?, ?, ?, ?, ?, ?)", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, idx);
        sqlite3_bind_int(st, 2, info->playouts);
        sqlite3_bind_text(st, 3, info->method, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, (sqlite3_int64)info->seed);
        sqlite3_bind_int(st, 5, games);
        sqlite3_bind_blob(st, 6, blob, (int)(n * 4), SQLITE_TRANSIENT);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    }
    if (rc)
        db_fail(s->db, err, errsz, "cannot write the initial-hand win rates");
    sqlite3_finalize(st);
    free(blob);
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_hand_p(Store *s, long idx, int games, uint32_t *wins, int *playouts, char *err, size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    int rc = 0;
    sqlite3_stmt *st;
    if (!has_table(s, "hand_p"))
        goto out;
    if (sqlite3_prepare_v2(s->db, "SELECT playouts, games, wins FROM hand_p WHERE run_id = 1 AND set_idx = ?", -1, &st,
                           NULL) != SQLITE_OK) {
        rc = db_fail(s->db, err, errsz, "cannot read the initial-hand win rates");
        goto out;
    }
    sqlite3_bind_int64(st, 1, idx);
    if (sqlite3_step(st) == SQLITE_ROW) {
        int k = sqlite3_column_int(st, 0), g = sqlite3_column_int(st, 1);
        const uint8_t *b = sqlite3_column_blob(st, 2);
        size_t len = (size_t)sqlite3_column_bytes(st, 2), n = (size_t)games * STORE_HAND_PAIRS;
        rc = 1;
        if (k < 1 || g != games || len != n * 4 || (n && !b))
            rc = -1;
        for (size_t i = 0; rc == 1 && i < n; i++) {
            wins[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
                      (uint32_t)b[4 * i + 3] << 24;
            if (wins[i] > (uint32_t)k)
                rc = -1;
        }
        if (rc < 0)
            snprintf(err, errsz, "damaged database: set %ld: its initial-hand win rates do not fit its %d games", idx,
                     games);
        *playouts = k;
    }
    sqlite3_finalize(st);
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

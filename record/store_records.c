/* store_records.c — per-game data in the store (see store.h): each game's classes packed in a
 * byte, and the packed game records of a set (dhm tournament --records, record/pack.h). */
#include "record/store_internal.h"

#include <stdlib.h>
#include <string.h>

uint8_t pack_classes(const int cls[NPLAYERS])
{
    int code = 0, used = 0;
    for (int i = 0; i < NPLAYERS; i++) { /* Lehmer code */
        int smaller = 0;
        for (int v = 0; v < cls[i]; v++)
            smaller += !((used >> v) & 1);
        used |= 1 << cls[i];
        code = code * (NPLAYERS - i) + smaller;
    }
    return (uint8_t)code;
}

void unpack_classes(uint8_t code, int cls[NPLAYERS])
{
    int digits[NPLAYERS], c = code, used = 0;
    for (int i = NPLAYERS - 1; i >= 0; i--) {
        digits[i] = c % (NPLAYERS - i);
        c /= NPLAYERS - i;
    }
    for (int i = 0; i < NPLAYERS; i++) {
        int k = digits[i];
        for (int v = 0; v < NPLAYERS; v++)
            if (!((used >> v) & 1) && k-- == 0) {
                cls[i] = v;
                used |= 1 << v;
                break;
            }
    }
}

int store_set_records(Store *s, long idx, uint8_t **data, size_t *len, int player[NPLAYERS], char *err,
                      size_t errsz)
{
    *data = NULL;
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT data FROM records WHERE run_id = 1 AND set_idx = ?", -1, &st, NULL) !=
        SQLITE_OK) {
        db_fail(s->db, err, errsz, "cannot read the records");
        goto out;
    }
    sqlite3_bind_int64(st, 1, idx);
    if (sqlite3_step(st) == SQLITE_ROW) {
        *len = (size_t)sqlite3_column_bytes(st, 0);
        *data = malloc(*len ? *len : 1);
        if (*data) {
            memcpy(*data, sqlite3_column_blob(st, 0), *len);
            rc = 0;
        }
    } else {
        snprintf(err, errsz, "no records stored for set %ld (run the tournament with --records)", idx);
    }
    sqlite3_finalize(st);
    if (rc == 0 &&
        sqlite3_prepare_v2(s->db,
                           "SELECT player_no, player_id, total, forfeit, timeouts FROM set_players"
                           " WHERE run_id = 1 AND set_idx = ?",
                           -1, &st, NULL) == SQLITE_OK) {
        StoredSet x;
        memset(&x, 0, sizeof x);
        x.idx = idx;
        sqlite3_bind_int64(st, 1, idx);
        if (store_read_set_players(s, st, &x, err, errsz)) {
            free(*data);
            *data = NULL;
            rc = -1;
        } else {
            memcpy(player, x.player, sizeof x.player);
        }
        sqlite3_finalize(st);
    }
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

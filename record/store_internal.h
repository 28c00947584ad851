/* store_internal.h — what the files of the results store share (store.c, store_sets.c,
 * store_records.c, store_hand.c, store_errrate.c, store_merge.c), and nothing outside them
 * includes: the Store itself, the schema in one place, and small SQLite helpers. The store's
 * rules (crash safety, ownership, threads) are stated once, in store.h.
 */
#ifndef DHM_STORE_INTERNAL_H
#define DHM_STORE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "record/store.h"

struct Store {
    sqlite3 *db;
    pthread_mutex_t mu;
    long run_id;
    int lock_fd;  /* writers: an flock on the file, held until store_close */
    int nplayers; /* players of the run (ids 0 .. nplayers-1), checked on open */
    int games;    /* games per set of the run */
    int records_format; /* pack format of the stored records (meta 'records_format'; 1 if absent) */
};

/* The schema: the tables every store has (created with the run), then the tables made by
 * their first write (a store without them reads as before). */
static const char SCHEMA[] =
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, command TEXT NOT NULL, seed INTEGER NOT NULL,"
    " sets INTEGER NOT NULL, games INTEGER NOT NULL, seat_change INTEGER NOT NULL, class_reset INTEGER NOT NULL,"
    " pairing TEXT NOT NULL, duplicate INTEGER NOT NULL, records INTEGER NOT NULL, move_timeout_ms INTEGER NOT NULL,"
    " pool TEXT NOT NULL, version TEXT NOT NULL, started TEXT NOT NULL, finished TEXT);"
    "CREATE TABLE players (run_id INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,"
    " PRIMARY KEY (run_id, id), UNIQUE (run_id, name));"
    "CREATE TABLE sets (run_id INTEGER NOT NULL, idx INTEGER NOT NULL, seed INTEGER NOT NULL, started TEXT NOT NULL,"
    " finished TEXT NOT NULL, status TEXT NOT NULL, note TEXT NOT NULL, games INTEGER NOT NULL,"
    " dup_group INTEGER NOT NULL, rotation INTEGER NOT NULL, PRIMARY KEY (run_id, idx));"
    "CREATE TABLE set_players (run_id INTEGER NOT NULL, set_idx INTEGER NOT NULL, player_no INTEGER NOT NULL,"
    " player_id INTEGER NOT NULL, total INTEGER NOT NULL, daifugo INTEGER NOT NULL, fugo INTEGER NOT NULL,"
    " heimin INTEGER NOT NULL, hinmin INTEGER NOT NULL, daihinmin INTEGER NOT NULL, forfeit INTEGER NOT NULL,"
    " timeouts INTEGER NOT NULL, illegal INTEGER NOT NULL, PRIMARY KEY (run_id, set_idx, player_no));"
    "CREATE TABLE set_games (run_id INTEGER NOT NULL, set_idx INTEGER NOT NULL, classes BLOB NOT NULL,"
    " PRIMARY KEY (run_id, set_idx));"
    "CREATE TABLE records (run_id INTEGER NOT NULL, set_idx INTEGER NOT NULL, data BLOB NOT NULL,"
    " PRIMARY KEY (run_id, set_idx));";

/* The deal suite of a run made with --deals: its deals as little-endian 64-bit card sets, five
 * per deal (a table of its own, so stores without it read as before). */
static const char DEALS_TABLE[] =
    "CREATE TABLE IF NOT EXISTS deals (run_id INTEGER PRIMARY KEY, n INTEGER NOT NULL, data BLOB NOT NULL);";

/* Initial-hand win rates (store_hand.c). */
static const char HAND_P_TABLE[] =
    "CREATE TABLE IF NOT EXISTS hand_p (run_id INTEGER NOT NULL, set_idx INTEGER NOT NULL,"
    " playouts INTEGER NOT NULL, method TEXT NOT NULL, seed INTEGER NOT NULL, games INTEGER NOT NULL,"
    " wins BLOB NOT NULL, PRIMARY KEY (run_id, set_idx));";

/* Error rates (store_errrate.c). */
static const char ERR_TABLE[] =
    "CREATE TABLE IF NOT EXISTS error_rates (run_id INTEGER NOT NULL, player TEXT NOT NULL, evaluator TEXT NOT NULL,"
    " worlds INTEGER NOT NULL, seed INTEGER NOT NULL, games INTEGER NOT NULL, judged INTEGER NOT NULL,"
    " skipped INTEGER NOT NULL, rate REAL, lo REAL, hi REAL, mean_rank REAL, mean_points REAL, made TEXT NOT NULL,"
    " PRIMARY KEY (run_id, player, evaluator, worlds, seed));";

static inline int db_fail(sqlite3 *db, char *err, size_t errsz, const char *what)
{
    snprintf(err, errsz, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

static inline int exec(sqlite3 *db, const char *sql, char *err, size_t errsz)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errsz, "%s", msg ? msg : "database error");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static inline int has_table(Store *s, const char *name)
{
    sqlite3_stmt *st;
    int n = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    return n > 0;
}

static inline void copy_text(char *dst, size_t n, const unsigned char *src)
{
    size_t k = 0;
    for (; src && k + 1 < n && src[k]; k++)
        dst[k] = (char)src[k];
    dst[k] = 0;
}

/* Room for one more row in a growing array of n rows (capacity *cap, doubling from 16):
 * the array, moved if need be, or NULL when memory runs out (rows keeps what it held). */
static inline void *rows_room(void *rows, int n, int *cap, size_t size)
{
    if (n < *cap)
        return rows;
    const int c = *cap ? 2 * *cap : 16;
    void *p = realloc(rows, (size_t)c * size);
    if (p)
        *cap = c;
    return p;
}

/* Reads and checks the five set_players rows of set x->idx (pq bound and reset by the caller;
 * store_sets.c). */
int store_read_set_players(Store *s, sqlite3_stmt *pq, StoredSet *x, char *err, size_t errsz);

#endif

/* store.c — the SQLite results store (see store.h). */
#include "record/store.h"

#include "record/pack.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct Store {
    sqlite3 *db;
    pthread_mutex_t mu;
    long run_id;
    int lock_fd;  /* writers: an flock on the file, held until store_close */
    int nplayers; /* players of the run (ids 0 .. nplayers-1), checked on open */
    int games;    /* games per set of the run */
    int records_format; /* pack format of the stored records (meta 'records_format'; 1 if absent) */
};

static const char *SCHEMA =
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
static const char *DEALS_TABLE =
    "CREATE TABLE IF NOT EXISTS deals (run_id INTEGER PRIMARY KEY, n INTEGER NOT NULL, data BLOB NOT NULL);";

void store_now(char *buf, size_t size)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char d[32];
    strftime(d, sizeof d, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, size, "%s.%03dZ", d, (int)(tv.tv_usec / 1000));
}

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

static int db_fail(sqlite3 *db, char *err, size_t errsz, const char *what)
{
    snprintf(err, errsz, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t errsz)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errsz, "%s", msg ? msg : "database error");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int has_table(Store *s, const char *name)
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

static int open_db(Store **out, const char *path, int flags, char *err, size_t errsz)
{
    Store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    pthread_mutexattr_t ma; /* recursive: a store_each_set callback may read the same store */
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&s->mu, &ma);
    pthread_mutexattr_destroy(&ma);
    s->lock_fd = -1;
    if (flags & SQLITE_OPEN_READWRITE) {
        /* One writer at a time. The descriptor stays open until after sqlite3_close: closing
         * any descriptor of the file would drop SQLite's own POSIX locks on it. */
        s->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (s->lock_fd < 0) {
            snprintf(err, errsz, "cannot open %s: %s", path, strerror(errno));
            store_close(s);
            return -1;
        }
        if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
            snprintf(err, errsz, "%s is being written by another dhm process (a tournament still running?); "
                                 "wait for it to end or stop it first",
                     path);
            store_close(s);
            return -1;
        }
    }
    /* every call goes through s->mu: SQLite's own per-call mutex is not needed */
    if (sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        snprintf(err, errsz, "cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        store_close(s);
        return -1;
    }
    sqlite3_busy_timeout(s->db, 10000);
    if ((flags & SQLITE_OPEN_READWRITE) &&
        exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", err, errsz)) {
        char e2[400];
        snprintf(e2, sizeof e2, "%s", err);
        snprintf(err, errsz, "cannot use %s: %s", path, e2);
        store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* 1 if the file holds dhm tables, 0 if it is empty, -1 if it is something else. */
static int schema_state(sqlite3 *db)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) != SQLITE_OK)
        return -1;
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (n == 0)
        return 0;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema'", -1, &st, NULL) != SQLITE_OK)
        return -1;
    int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return v == STORE_SCHEMA ? 1 : -1;
}

int store_create(Store **out, const char *path, const RunInfo *run, int nplayers, char *const *names,
                 char *const *specs, char *err, size_t errsz)
{
    Store *s;
    *out = NULL;
    struct stat stt;
    if (stat(path, &stt) == 0 && stt.st_size > 0) {
        /* never overwrite: an existing database can only be resumed */
        if (open_db(&s, path, SQLITE_OPEN_READONLY, err, errsz))
            return -1;
        int state = schema_state(s->db);
        store_close(s);
        if (state != 0) {
            snprintf(err, errsz, state > 0 ? "%s already holds a tournament run (continue it with --resume, or give another --db)"
                                           : "%s exists and is not a dhm tournament database",
                     path);
            return -1;
        }
    }
    if (open_db(&s, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err, errsz))
        return -1;
    char e[300];
    if (exec(s->db, "BEGIN IMMEDIATE", e, sizeof e) || schema_state(s->db) != 0 || exec(s->db, SCHEMA, e, sizeof e)) {
        snprintf(err, errsz, "cannot create the database %s: %s", path, e);
        store_close(s);
        return -1;
    }
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_prepare_v2(s->db,
                                "INSERT INTO meta VALUES ('schema', ?), ('kind', 'dhm tournament'), ('records_format', ?)",
                                -1, &st, NULL) == SQLITE_OK;
    ok = ok && sqlite3_bind_int(st, 1, STORE_SCHEMA) == SQLITE_OK && sqlite3_bind_int(st, 2, PACK_FORMAT) == SQLITE_OK &&
         sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    ok = ok && sqlite3_prepare_v2(s->db,
                                  "INSERT INTO runs (id, command, seed, sets, games, seat_change, class_reset, pairing,"
                                  " duplicate, records, move_timeout_ms, pool, version, started) VALUES"
                                  " (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                  -1, &st, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(st, 1, run->command, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)run->seed);
        sqlite3_bind_int64(st, 3, run->sets);
        sqlite3_bind_int(st, 4, run->games);
        sqlite3_bind_int(st, 5, run->seat_change);
        sqlite3_bind_int(st, 6, run->class_reset);
        sqlite3_bind_text(st, 7, run->pairing, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 8, run->duplicate);
        sqlite3_bind_int(st, 9, run->records);
        sqlite3_bind_int(st, 10, run->move_timeout_ms);
        sqlite3_bind_text(st, 11, run->pool_text ? run->pool_text : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 12, run->version, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 13, run->started, -1, SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (ok && run->deals && run->ndeals > 0) { /* in the same transaction as the run */
        size_t bytes = (size_t)run->ndeals * NPLAYERS * 8;
        uint8_t *b = malloc(bytes);
        ok = b && exec(s->db, DEALS_TABLE, e, sizeof e) == 0 &&
             sqlite3_prepare_v2(s->db, "INSERT INTO deals VALUES (1, ?, ?)", -1, &st, NULL) == SQLITE_OK;
        for (long i = 0; ok && i < run->ndeals; i++)
            for (int p = 0; p < NPLAYERS; p++)
                for (int k = 0; k < 8; k++)
                    b[((size_t)i * NPLAYERS + p) * 8 + k] = (uint8_t)(run->deals[i][p] >> (8 * k));
        if (ok) {
            sqlite3_bind_int64(st, 1, run->ndeals);
            sqlite3_bind_blob(st, 2, b, (int)bytes, SQLITE_TRANSIENT);
            ok = sqlite3_step(st) == SQLITE_DONE;
            sqlite3_finalize(st);
        }
        free(b);
    }
    ok = ok && sqlite3_prepare_v2(s->db, "INSERT INTO players VALUES (1, ?, ?, ?)", -1, &st, NULL) == SQLITE_OK;
    for (int i = 0; ok && i < nplayers; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int(st, 1, i);
        sqlite3_bind_text(st, 2, names[i], -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, specs[i], -1, SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (!ok || exec(s->db, "COMMIT", e, sizeof e)) {
        db_fail(s->db, err, errsz, "cannot write the database");
        exec(s->db, "ROLLBACK", e, sizeof e);
        store_close(s);
        return -1;
    }
    s->run_id = 1;
    s->nplayers = nplayers;
    s->games = run->games;
    s->records_format = PACK_FORMAT;
    *out = s;
    return 0;
}

/* The run row and the players table must describe one run: games >= 1, player ids exactly
 * 0 .. n-1 with names and specs. Fills s->games and s->nplayers. */
static int check_run(Store *s, const char *path, char *err, size_t errsz)
{
    sqlite3_stmt *st;
    int ok = sqlite3_prepare_v2(s->db, "SELECT games FROM runs WHERE id = 1", -1, &st, NULL) == SQLITE_OK &&
             sqlite3_step(st) == SQLITE_ROW;
    s->games = ok ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    if (!ok || s->games < 1) {
        snprintf(err, errsz, "damaged database %s: %s", path, ok ? "the run has no games per set" : "it holds no run");
        return -1;
    }
    ok = sqlite3_prepare_v2(s->db,
                            "SELECT count(*), min(id), max(id), sum(name IS NULL OR spec IS NULL OR name = '')"
                            " FROM players WHERE run_id = 1",
                            -1, &st, NULL) == SQLITE_OK &&
         sqlite3_step(st) == SQLITE_ROW;
    long n = ok ? sqlite3_column_int64(st, 0) : 0, lo = ok ? sqlite3_column_int64(st, 1) : -1,
         hi = ok ? sqlite3_column_int64(st, 2) : -1, bad = ok ? sqlite3_column_int64(st, 3) : 1;
    sqlite3_finalize(st);
    if (!ok || n < NPLAYERS || n > 100000 || lo != 0 || hi != n - 1 || bad) {
        snprintf(err, errsz, "damaged database %s: the players table does not list players 0..N-1 with names", path);
        return -1;
    }
    s->nplayers = (int)n;
    s->records_format = 1;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = 'records_format'", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            s->records_format = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    if (s->records_format < 1 || s->records_format > PACK_FORMAT) {
        snprintf(err, errsz, "%s: its game records are in format %d; this dhm reads formats 1..%d (a newer dhm wrote it?)",
                 path, s->records_format, PACK_FORMAT);
        return -1;
    }
    return 0;
}

int store_records_format(const Store *s) { return s->records_format; }

int store_open(Store **out, const char *path, int writable, char *err, size_t errsz)
{
    Store *s;
    *out = NULL;
    struct stat stt;
    if (stat(path, &stt) != 0) {
        snprintf(err, errsz, "%s does not exist", path);
        return -1;
    }
    if (open_db(&s, path, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, err, errsz))
        return -1;
    if (schema_state(s->db) != 1) {
        snprintf(err, errsz, "%s is not a dhm tournament database", path);
        store_close(s);
        return -1;
    }
    if (check_run(s, path, err, errsz)) {
        store_close(s);
        return -1;
    }
    s->run_id = 1;
    *out = s;
    return 0;
}

void store_close(Store *s)
{
    if (!s)
        return;
    if (s->db)
        sqlite3_close(s->db);
    if (s->lock_fd >= 0)
        close(s->lock_fd); /* releases the writer's lock */
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static void copy_text(char *dst, size_t n, const unsigned char *src)
{
    size_t k = 0;
    for (; src && k + 1 < n && src[k]; k++)
        dst[k] = (char)src[k];
    dst[k] = 0;
}

int store_load_run(Store *s, RunInfo *run, int *nplayers, char ***names, char ***specs, char *err, size_t errsz)
{
    memset(run, 0, sizeof *run);
    *names = *specs = NULL;
    *nplayers = 0;
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT command, seed, sets, games, seat_change, class_reset, pairing, duplicate, records,"
                           " move_timeout_ms, pool, version, started, finished FROM runs WHERE id = 1",
                           -1, &st, NULL) != SQLITE_OK) {
        db_fail(s->db, err, errsz, "cannot read the run");
        goto out;
    }
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        snprintf(err, errsz, "the database holds no run");
        goto out;
    }
    copy_text(run->command, sizeof run->command, sqlite3_column_text(st, 0));
    run->seed = (uint64_t)sqlite3_column_int64(st, 1);
    run->sets = (long)sqlite3_column_int64(st, 2);
    run->games = sqlite3_column_int(st, 3);
    run->seat_change = sqlite3_column_int(st, 4);
    run->class_reset = sqlite3_column_int(st, 5);
    copy_text(run->pairing, sizeof run->pairing, sqlite3_column_text(st, 6));
    run->duplicate = sqlite3_column_int(st, 7);
    run->records = sqlite3_column_int(st, 8);
    run->move_timeout_ms = sqlite3_column_int(st, 9);
    run->pool_text = strdup(sqlite3_column_text(st, 10) ? (const char *)sqlite3_column_text(st, 10) : "");
    copy_text(run->version, sizeof run->version, sqlite3_column_text(st, 11));
    copy_text(run->started, sizeof run->started, sqlite3_column_text(st, 12));
    copy_text(run->finished, sizeof run->finished, sqlite3_column_text(st, 13));
    sqlite3_finalize(st);
    if (has_table(s, "deals")) {
        if (sqlite3_prepare_v2(s->db, "SELECT n, data FROM deals WHERE run_id = 1", -1, &st, NULL) != SQLITE_OK) {
            db_fail(s->db, err, errsz, "cannot read the deals");
            goto out;
        }
        if (sqlite3_step(st) == SQLITE_ROW) {
            long n = (long)sqlite3_column_int64(st, 0);
            const uint8_t *b = sqlite3_column_blob(st, 1);
            size_t len = (size_t)sqlite3_column_bytes(st, 1);
            int bad = n < 1 || n > 10000000L || !b || len != (size_t)n * NPLAYERS * 8;
            if (!bad && !(run->deals = malloc((size_t)n * sizeof *run->deals)))
                bad = 1;
            for (long i = 0; !bad && i < n; i++) {
                Cards all = 0;
                for (int p = 0; p < NPLAYERS; p++) {
                    Cards c = 0;
                    for (int k = 0; k < 8; k++)
                        c |= (Cards)b[((size_t)i * NPLAYERS + p) * 8 + k] << (8 * k);
                    run->deals[i][p] = c;
                    bad |= (c & all) != 0;
                    all |= c;
                }
                bad |= all != CARDS_ALL;
            }
            if (bad) {
                sqlite3_finalize(st);
                free(run->deals);
                run->deals = NULL;
                snprintf(err, errsz, "damaged database: its deal suite is not a list of deals");
                goto out;
            }
            run->ndeals = n;
        }
        sqlite3_finalize(st);
    }
    if (sqlite3_prepare_v2(s->db, "SELECT name, spec FROM players WHERE run_id = 1 ORDER BY id", -1, &st, NULL) !=
        SQLITE_OK) {
        db_fail(s->db, err, errsz, "cannot read the players");
        goto out;
    }
    int cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (*nplayers == cap) {
            cap = cap ? 2 * cap : 16;
            *names = realloc(*names, (size_t)cap * sizeof **names);
            *specs = realloc(*specs, (size_t)cap * sizeof **specs);
        }
        const char *nm = (const char *)sqlite3_column_text(st, 0), *sp = (const char *)sqlite3_column_text(st, 1);
        (*names)[*nplayers] = strdup(nm ? nm : "?");
        (*specs)[*nplayers] = strdup(sp ? sp : "");
        (*nplayers)++;
    }
    sqlite3_finalize(st);
    rc = 0;
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

void store_free_run(RunInfo *run)
{
    free(run->pool_text);
    run->pool_text = NULL;
    free(run->deals);
    run->deals = NULL;
    run->ndeals = 0;
}

void store_free_names(int n, char **names, char **specs)
{
    for (int i = 0; i < n; i++) {
        free(names[i]);
        free(specs[i]);
    }
    free(names);
    free(specs);
}

int store_done_sets(Store *s, uint8_t *done, long nsets)
{
    memset(done, 0, (size_t)(nsets + 7) / 8);
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT idx FROM sets WHERE run_id = 1", -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            sqlite3_int64 k = sqlite3_column_int64(st, 0);
            if (k >= 0 && k < nsets)
                done[k >> 3] |= (uint8_t)(1u << (k & 7));
        }
        sqlite3_finalize(st);
        rc = 0;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_save_set(Store *s, const SetResult *r, char *err, size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    char e[300];
    sqlite3_stmt *st = NULL;
    int ok = exec(s->db, "BEGIN IMMEDIATE", e, sizeof e) == 0;
    ok = ok && sqlite3_prepare_v2(s->db, "INSERT INTO sets VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL) ==
                   SQLITE_OK;
    if (ok) {
        sqlite3_bind_int64(st, 1, r->idx);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)r->seed);
        sqlite3_bind_text(st, 3, r->started, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, r->finished, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, r->status, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, r->note, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 7, r->games);
        sqlite3_bind_int64(st, 8, r->dup_group);
        sqlite3_bind_int(st, 9, r->rotation);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    st = NULL;
    ok = ok && sqlite3_prepare_v2(s->db, "INSERT INTO set_players VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1,
                                  &st, NULL) == SQLITE_OK;
    for (int p = 0; ok && p < NPLAYERS; p++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, r->idx);
        sqlite3_bind_int(st, 2, p);
        sqlite3_bind_int(st, 3, r->player[p]);
        sqlite3_bind_int64(st, 4, r->total[p]);
        for (int c = 0; c < NPLAYERS; c++)
            sqlite3_bind_int64(st, 5 + c, r->cls[p][c]);
        sqlite3_bind_int(st, 10, r->forfeit[p]);
        sqlite3_bind_int64(st, 11, r->timeouts[p]);
        sqlite3_bind_int64(st, 12, r->illegal[p]);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    st = NULL;
    ok = ok && sqlite3_prepare_v2(s->db, "INSERT INTO set_games VALUES (1, ?, ?)", -1, &st, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_int64(st, 1, r->idx);
        sqlite3_bind_blob(st, 2, r->classes, r->games, SQLITE_STATIC);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (ok && r->records) {
        ok = sqlite3_prepare_v2(s->db, "INSERT INTO records VALUES (1, ?, ?)", -1, &st, NULL) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_int64(st, 1, r->idx);
            sqlite3_bind_blob64(st, 2, r->records, r->records_len, SQLITE_STATIC);
            ok = sqlite3_step(st) == SQLITE_DONE;
        }
        sqlite3_finalize(st);
    }
    int rc = 0;
    if (!ok || exec(s->db, "COMMIT", e, sizeof e)) {
        db_fail(s->db, err, errsz, "cannot store the set");
        exec(s->db, "ROLLBACK", e, sizeof e);
        rc = -1;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_finish_run(Store *s, const char *when)
{
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    if (sqlite3_prepare_v2(s->db, "UPDATE runs SET finished = ? WHERE id = 1", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, when, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* One set_players row as read: the set, player number, player id, total, forfeit, timeouts. */
typedef struct PlayerRow {
    sqlite3_int64 set_idx, player_id, total, timeouts;
    int player_no, forfeit;
} PlayerRow;

/* The row of a statement whose columns c..c+4 are player_no, player_id, total, forfeit,
 * timeouts (and c+5 set_idx when with_set). */
static void player_row_get(sqlite3_stmt *q, int c, int with_set, PlayerRow *r)
{
    r->player_no = sqlite3_column_int(q, c);
    r->player_id = sqlite3_column_int64(q, c + 1);
    r->total = sqlite3_column_int64(q, c + 2);
    r->forfeit = sqlite3_column_int(q, c + 3);
    r->timeouts = sqlite3_column_int64(q, c + 4);
    r->set_idx = with_set ? sqlite3_column_int64(q, c + 5) : -1;
}

/* One set_players row into x; *seen tracks the player numbers. */
static int set_player_row(const Store *s, const PlayerRow *r, StoredSet *x, int *seen, char *err, size_t errsz)
{
    int p = r->player_no;
    if (p < 0 || p >= NPLAYERS || (*seen >> p) & 1) {
        snprintf(err, errsz, "damaged database: set %ld: bad or repeated player number %d", x->idx, p);
        return -1;
    }
    if (r->player_id < 0 || r->player_id >= s->nplayers) {
        snprintf(err, errsz, "damaged database: set %ld: player id %lld is not a player of the run", x->idx,
                 (long long)r->player_id);
        return -1;
    }
    *seen |= 1 << p;
    x->player[p] = (int)r->player_id;
    x->total[p] = (long)r->total;
    x->forfeit[p] = r->forfeit;
    x->timeouts[p] = (long)r->timeouts;
    return 0;
}

/* The run's set_players rows in (set_idx, player_no) order, read ahead by a thread on a
 * connection of its own when one opens (reading them, the heaviest of a store's streams, then
 * overlaps with the caller's work), else on the caller's connection. The thread's connection
 * starts reading after the caller's: its snapshot holds every set the caller sees (a set is
 * stored in one transaction), plus perhaps newer ones, whose rows the caller skips. */
enum { PS_CHUNK = 4096, PS_CHUNKS = 4 };
typedef struct PlayerStream {
    sqlite3 *own;    /* the thread's connection (NULL: no thread) */
    sqlite3_stmt *q; /* the rows */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    PlayerRow *rows; /* PS_CHUNKS chunks of PS_CHUNK rows */
    int fill[PS_CHUNKS]; /* rows of a chunk ready for the caller; -1 while the thread has it */
    int last_of[PS_CHUNKS]; /* nothing follows this chunk (1 at the end, -1 after an error) */
    int stop;            /* the caller is done */
    int cur, pos, n, last, started; /* the caller's chunk, its next row, its rows (-1: not yet) */
    PlayerRow row;                   /* the current row (after ps_next returned 1) */
} PlayerStream;

static const char *PS_SQL = "SELECT player_no, player_id, total, forfeit, timeouts, set_idx FROM set_players"
                            " WHERE run_id = 1 ORDER BY set_idx, player_no";

static void *ps_thread(void *arg)
{
    PlayerStream *ps = arg;
    for (int c = 0, done = 0; !done; c = (c + 1) % PS_CHUNKS) {
        pthread_mutex_lock(&ps->mu);
        while (ps->fill[c] >= 0 && !ps->stop)
            pthread_cond_wait(&ps->cv, &ps->mu);
        int stop = ps->stop;
        pthread_mutex_unlock(&ps->mu);
        if (stop)
            break;
        int n = 0, rc = SQLITE_ROW;
        PlayerRow *out = ps->rows + (size_t)c * PS_CHUNK;
        while (n < PS_CHUNK && (rc = sqlite3_step(ps->q)) == SQLITE_ROW)
            player_row_get(ps->q, 0, 1, &out[n++]);
        done = rc != SQLITE_ROW;
        pthread_mutex_lock(&ps->mu);
        ps->fill[c] = n;
        ps->last_of[c] = !done ? 0 : rc == SQLITE_DONE ? 1 : -1;
        pthread_cond_broadcast(&ps->cv);
        pthread_mutex_unlock(&ps->mu);
    }
    return NULL;
}

/* Prepares the stream; the thread (if any) starts at the first ps_next. -1 if the statement
 * cannot be prepared. */
static int ps_open(PlayerStream *ps, sqlite3 *db)
{
    memset(ps, 0, sizeof *ps);
    const char *path = sqlite3_db_filename(db, "main");
    /* inside a transaction of the caller's, only its own connection sees what it wrote */
    if (path && *path && sqlite3_get_autocommit(db) && (ps->rows = malloc((size_t)PS_CHUNKS * PS_CHUNK * sizeof *ps->rows)) &&
        sqlite3_open_v2(path, &ps->own, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(ps->own, PS_SQL, -1, &ps->q, NULL) == SQLITE_OK) {
        pthread_mutex_init(&ps->mu, NULL);
        pthread_cond_init(&ps->cv, NULL);
        for (int c = 0; c < PS_CHUNKS; c++)
            ps->fill[c] = -1;
        ps->n = -1;
        return 0;
    }
    sqlite3_finalize(ps->q); /* no second connection: read on the caller's */
    sqlite3_close(ps->own);
    free(ps->rows);
    memset(ps, 0, sizeof *ps);
    return sqlite3_prepare_v2(db, PS_SQL, -1, &ps->q, NULL) == SQLITE_OK ? 0 : -1;
}

/* The next row into ps->row: 1, or 0 at the end, -1 on a read error. */
static int ps_next(PlayerStream *ps)
{
    if (!ps->own) {
        int rc = sqlite3_step(ps->q);
        if (rc == SQLITE_ROW)
            player_row_get(ps->q, 0, 1, &ps->row);
        return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    }
    if (!ps->started) {
        if (pthread_create(&ps->th, NULL, ps_thread, ps))
            return -1;
        ps->started = 1;
    }
    for (;;) {
        if (ps->pos < ps->n) { /* the chunk is the caller's until it gives it back */
            ps->row = ps->rows[(size_t)ps->cur * PS_CHUNK + (size_t)ps->pos++];
            return 1;
        }
        if (ps->n >= 0) {
            if (ps->last)
                return ps->last > 0 ? 0 : -1;
            pthread_mutex_lock(&ps->mu); /* the chunk goes back to the thread */
            ps->fill[ps->cur] = -1;
            pthread_cond_broadcast(&ps->cv);
            pthread_mutex_unlock(&ps->mu);
            ps->cur = (ps->cur + 1) % PS_CHUNKS;
            ps->pos = 0;
        }
        pthread_mutex_lock(&ps->mu);
        while (ps->fill[ps->cur] < 0)
            pthread_cond_wait(&ps->cv, &ps->mu);
        ps->n = ps->fill[ps->cur];
        ps->last = ps->last_of[ps->cur];
        pthread_mutex_unlock(&ps->mu);
    }
}

static void ps_close(PlayerStream *ps)
{
    if (ps->started) {
        pthread_mutex_lock(&ps->mu);
        ps->stop = 1;
        pthread_cond_broadcast(&ps->cv);
        pthread_mutex_unlock(&ps->mu);
        pthread_join(ps->th, NULL);
    }
    if (ps->own) {
        pthread_mutex_destroy(&ps->mu);
        pthread_cond_destroy(&ps->cv);
    }
    sqlite3_finalize(ps->q);
    sqlite3_close(ps->own);
    free(ps->rows);
}

/* All five player numbers seen, five distinct players. */
static int set_players_complete(const StoredSet *x, int seen, char *err, size_t errsz)
{
    if (seen != 31) {
        snprintf(err, errsz, "damaged database: set %ld is incomplete (it lacks some players)", x->idx);
        return -1;
    }
    for (int p = 0; p < NPLAYERS; p++)
        for (int q = p + 1; q < NPLAYERS; q++)
            if (x->player[p] == x->player[q]) {
                snprintf(err, errsz, "damaged database: set %ld: player id %d appears twice", x->idx, x->player[p]);
                return -1;
            }
    return 0;
}

/* Reads and checks the five set_players rows of set idx (pq bound and reset by the caller). */
static int read_set_players(Store *s, sqlite3_stmt *pq, StoredSet *x, char *err, size_t errsz)
{
    int seen = 0;
    PlayerRow r;
    while (sqlite3_step(pq) == SQLITE_ROW) {
        player_row_get(pq, 0, 0, &r);
        if (set_player_row(s, &r, x, &seen, err, errsz))
            return -1;
    }
    return set_players_complete(x, seen, err, errsz);
}

/* The classes blob and the totals must agree with the run. */
static int check_set_games(const Store *s, StoredSet *x, const void *blob, int bytes, char *err, size_t errsz)
{
    if (x->games != s->games || bytes != x->games || (bytes > 0 && !blob)) {
        snprintf(err, errsz, "damaged database: set %ld holds %d games (%d class codes); the run plays %d", x->idx,
                 x->games, bytes, s->games);
        return -1;
    }
    x->classes = blob;
    long pts[NPLAYERS] = {0};
    for (int g = 0; g < x->games; g++) {
        if (x->classes[g] >= 120) {
            snprintf(err, errsz, "damaged database: set %ld, game %d: class code %d is not a finishing order", x->idx,
                     g, x->classes[g]);
            return -1;
        }
        int cls[NPLAYERS];
        unpack_classes(x->classes[g], cls);
        for (int p = 0; p < NPLAYERS; p++)
            pts[p] += 5 - cls[p];
    }
    for (int p = 0; p < NPLAYERS; p++)
        if (pts[p] != x->total[p]) {
            snprintf(err, errsz, "damaged database: set %ld: player number %d's total %ld is not the %ld points of its games",
                     x->idx, p, x->total[p], pts[p]);
            return -1;
        }
    return 0;
}

int store_each_set(Store *s, int order_by_start, StoreSetFn fn, void *ctx, char *err, size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    if (errsz)
        err[0] = 0;
    const char *sql = order_by_start
                          ? "SELECT s.idx, s.started, g.classes, s.games, s.status, s.note FROM sets s JOIN set_games g"
                            " ON g.run_id = s.run_id AND g.set_idx = s.idx ORDER BY s.started, s.idx"
                          : "SELECT s.idx, s.started, NULL, s.games, s.status, s.note FROM sets s WHERE s.run_id = 1"
                            " ORDER BY s.idx";
    /* in index order the players' rows are read as one stream beside the sets (a merge, no
     * lookup per set; PlayerStream); in start order, looked up set by set */
    sqlite3_stmt *pq = NULL, *gq = NULL;
    PlayerStream ps;
    memset(&ps, 0, sizeof ps);
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK ||
        (order_by_start ? sqlite3_prepare_v2(s->db,
                                             "SELECT player_no, player_id, total, forfeit, timeouts FROM set_players"
                                             " WHERE run_id = 1 AND set_idx = ?",
                                             -1, &pq, NULL) != SQLITE_OK
                        : ps_open(&ps, s->db) ||
                              sqlite3_prepare_v2(s->db,
                                                 "SELECT set_idx, classes FROM set_games WHERE run_id = 1 ORDER BY set_idx",
                                                 -1, &gq, NULL) != SQLITE_OK)) {
        db_fail(s->db, err, errsz, "cannot read the sets");
        sqlite3_finalize(st);
        sqlite3_finalize(pq);
        sqlite3_finalize(gq);
        ps_close(&ps);
        goto out;
    }
    rc = 0;
    StoredSet x;
    int step, prow = 2 /* not read yet: the stream starts after the sets' */, grow = order_by_start ? SQLITE_DONE : sqlite3_step(gq);
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        memset(&x, 0, sizeof x);
        x.idx = (long)sqlite3_column_int64(st, 0);
        copy_text(x.started, sizeof x.started, sqlite3_column_text(st, 1));
        x.games = sqlite3_column_int(st, 3);
        copy_text(x.status, sizeof x.status, sqlite3_column_text(st, 4));
        copy_text(x.note, sizeof x.note, sqlite3_column_text(st, 5));
        const void *blob = sqlite3_column_blob(st, 2);
        int bytes = sqlite3_column_bytes(st, 2);
        if (!order_by_start) { /* the classes: the next row of their own stream */
            while (grow == SQLITE_ROW && sqlite3_column_int64(gq, 0) < x.idx)
                grow = sqlite3_step(gq);
            if (grow != SQLITE_ROW || sqlite3_column_int64(gq, 0) != x.idx) {
                snprintf(err, errsz, "damaged database: set %ld has no class codes", x.idx);
                rc = -1;
                break;
            }
            blob = sqlite3_column_blob(gq, 1);
            bytes = sqlite3_column_bytes(gq, 1);
        }
        int bad;
        if (order_by_start) {
            sqlite3_reset(pq);
            sqlite3_bind_int64(pq, 1, x.idx);
            bad = read_set_players(s, pq, &x, err, errsz);
        } else {
            int seen = 0;
            bad = 0;
            if (prow == 2)
                prow = ps_next(&ps);
            while (!bad && prow == 1 && ps.row.set_idx <= x.idx) {
                if (ps.row.set_idx == x.idx)
                    bad = set_player_row(s, &ps.row, &x, &seen, err, errsz);
                /* rows of a set that is not in sets are orphans: the set is not stored */
                prow = ps_next(&ps);
            }
            if (!bad && prow < 0) {
                snprintf(err, errsz, "damaged database: cannot read the players of set %ld", x.idx);
                bad = 1;
            }
            bad = bad || set_players_complete(&x, seen, err, errsz);
        }
        if (bad || check_set_games(s, &x, blob, bytes, err, errsz)) {
            rc = -1;
            break;
        }
        rc = fn(ctx, &x);
    }
    if (rc == 0 && step != SQLITE_DONE) {
        db_fail(s->db, err, errsz, "cannot read the sets");
        rc = -1;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(pq);
    sqlite3_finalize(gq);
    ps_close(&ps);
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_count_sets(Store *s, long *ok, long *not_ok)
{
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    *ok = *not_ok = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT status = 'ok', count(*) FROM sets WHERE run_id = 1 GROUP BY 1", -1, &st,
                           NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW)
            *(sqlite3_column_int(st, 0) ? ok : not_ok) += (long)sqlite3_column_int64(st, 1);
        sqlite3_finalize(st);
        rc = 0;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
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
        if (read_set_players(s, st, &x, err, errsz)) {
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

/* ---- initial-hand win rates (dhm handstrength) ---- */

static const char *HAND_P_TABLE =
    "CREATE TABLE IF NOT EXISTS hand_p (run_id INTEGER NOT NULL, set_idx INTEGER NOT NULL,"
    " playouts INTEGER NOT NULL, method TEXT NOT NULL, seed INTEGER NOT NULL, games INTEGER NOT NULL,"
    " wins BLOB NOT NULL, PRIMARY KEY (run_id, set_idx));";

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

/* ---- error rates (dhm errorrate --save) ---- */

static const char *ERR_TABLE =
    "CREATE TABLE IF NOT EXISTS error_rates (run_id INTEGER NOT NULL, player TEXT NOT NULL, evaluator TEXT NOT NULL,"
    " worlds INTEGER NOT NULL, seed INTEGER NOT NULL, games INTEGER NOT NULL, judged INTEGER NOT NULL,"
    " skipped INTEGER NOT NULL, rate REAL, lo REAL, hi REAL, mean_rank REAL, mean_points REAL, made TEXT NOT NULL,"
    " PRIMARY KEY (run_id, player, evaluator, worlds, seed));";

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
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            StoredErrRate *p = realloc(*out, (size_t)cap * sizeof *p);
            if (!p) {
                rc = -1;
                snprintf(err, errsz, "out of memory");
                break;
            }
            *out = p;
        }
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

/* ---- analyses of single games (dhm view --analyze --save) ---- */

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
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            StoredReview *p = realloc(*out, (size_t)cap * sizeof *p);
            if (!p) {
                rc = -1;
                snprintf(err, errsz, "out of memory");
                break;
            }
            *out = p;
        }
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

int store_meta_set(Store *s, const char *key, const char *value, char *err, size_t errsz)
{
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta VALUES (?, ?)", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        sqlite3_finalize(st);
    }
    if (rc)
        db_fail(s->db, err, errsz, "cannot write the database");
    pthread_mutex_unlock(&s->mu);
    return rc;
}

int store_meta_get(Store *s, const char *key, char *buf, size_t size)
{
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int found = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) == SQLITE_ROW) {
            copy_text(buf, size, sqlite3_column_text(st, 0));
            found = 1;
        }
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&s->mu);
    return found;
}

/* ---- merging shards (dhm records merge) ---- */

typedef struct ShardIn {
    const char *path;
    Store *st;
    RunInfo run;
    int n, si, sn;
    char **names, **specs;
    StoreHandInfo hand;
} ShardIn;

/* What two shards must share to be parts of one run. NULL if they do; else what differs. */
static const char *run_differs(const ShardIn *a, const ShardIn *b)
{
    if (a->run.seed != b->run.seed)
        return "its seed";
    if (a->run.sets != b->run.sets || a->run.games != b->run.games)
        return "its number of sets or games";
    if (a->run.seat_change != b->run.seat_change || a->run.class_reset != b->run.class_reset)
        return "its seat changes or class resets";
    if (strcmp(a->run.pairing, b->run.pairing) || a->run.duplicate != b->run.duplicate)
        return "its pairing";
    if (a->run.records != b->run.records || store_records_format(a->st) != store_records_format(b->st))
        return "whether (or how) it stores records";
    if (a->run.move_timeout_ms != b->run.move_timeout_ms)
        return "its move timeout";
    if (strcmp(a->run.pool_text ? a->run.pool_text : "", b->run.pool_text ? b->run.pool_text : ""))
        return "its pool";
    if (a->run.ndeals != b->run.ndeals ||
        (a->run.ndeals && memcmp(a->run.deals, b->run.deals, (size_t)a->run.ndeals * sizeof *a->run.deals)))
        return "its deal suite";
    if (a->n != b->n)
        return "its players";
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->names[i], b->names[i]) || strcmp(a->specs[i], b->specs[i]))
            return "its players";
    return NULL;
}

/* The command without its --shard option (the run the shards are parts of). */
static void strip_shard(const char *cmd, char *out, size_t size)
{
    const char *p = strstr(cmd, " --shard ");
    if (!p) {
        snprintf(out, size, "%s", cmd);
        return;
    }
    const char *q = p + 9;
    while (*q && *q != ' ')
        q++;
    snprintf(out, size, "%.*s%s", (int)(p - cmd), cmd, q);
}

int store_merge(const char *out, const char *const *paths, int n, long *sets, long *run_sets, char *err, size_t errsz)
{
    struct stat stt;
    *sets = 0;
    if (n < 1) {
        snprintf(err, errsz, "no shards to merge");
        return -1;
    }
    if (stat(out, &stt) == 0) {
        snprintf(err, errsz, "%s exists: merging never overwrites (give a new file)", out);
        return -1;
    }
    ShardIn *in = calloc((size_t)n, sizeof *in);
    if (!in) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = -1;
    Store *o = NULL;
    char e[512];
    for (int i = 0; i < n; i++) {
        in[i].path = paths[i];
        if (store_open(&in[i].st, paths[i], 0, e, sizeof e) ||
            store_load_run(in[i].st, &in[i].run, &in[i].n, &in[i].names, &in[i].specs, e, sizeof e)) {
            snprintf(err, errsz, "%s", e);
            goto done;
        }
        char sv[64];
        if (!store_meta_get(in[i].st, "shard", sv, sizeof sv) || sscanf(sv, "%d/%d", &in[i].si, &in[i].sn) != 2 ||
            in[i].sn < 2 || in[i].si < 0 || in[i].si >= in[i].sn) {
            snprintf(err, errsz, "%s is not a shard (it was not made with dhm tournament --shard I/N)", paths[i]);
            goto done;
        }
        if (store_hand_p_info(in[i].st, &in[i].hand, e, sizeof e)) {
            snprintf(err, errsz, "%s: %s", paths[i], e);
            goto done;
        }
        if (i > 0) {
            const char *why = run_differs(&in[0], &in[i]);
            if (why) {
                snprintf(err, errsz, "%s and %s are shards of different runs (%s differs)", paths[0], paths[i], why);
                goto done;
            }
            if (in[i].sn != in[0].sn) {
                snprintf(err, errsz, "%s is shard %d/%d but %s is shard %d/%d", paths[i], in[i].si, in[i].sn, paths[0],
                         in[0].si, in[0].sn);
                goto done;
            }
        }
        for (int j = 0; j < i; j++)
            if (in[j].si == in[i].si) {
                snprintf(err, errsz, "shard %d/%d is given twice (%s and %s)", in[i].si, in[i].sn, paths[j], paths[i]);
                goto done;
            }
    }
    for (int s = 0; s < in[0].sn; s++) {
        int have = 0;
        for (int i = 0; i < n; i++)
            have |= in[i].si == s;
        if (!have) {
            snprintf(err, errsz, "shard %d/%d is missing: give all %d shards of the run", s, in[0].sn, in[0].sn);
            goto done;
        }
    }
    /* the whole run's store: the first shard's run without --shard, started at the earliest */
    RunInfo run = in[0].run;
    *run_sets = run.sets;
    strip_shard(in[0].run.command, run.command, sizeof run.command);
    int all_finished = 1;
    for (int i = 0; i < n; i++) {
        if (strcmp(in[i].run.started, run.started) < 0)
            snprintf(run.started, sizeof run.started, "%s", in[i].run.started);
        all_finished &= in[i].run.finished[0] != 0;
    }
    if (store_create(&o, out, &run, in[0].n, in[0].names, in[0].specs, e, sizeof e)) {
        snprintf(err, errsz, "%s", e);
        goto done;
    }
    int same_hand = 1;
    for (int i = 0; i < n; i++)
        same_hand &= in[i].hand.sets > 0 && in[i].hand.playouts == in[0].hand.playouts &&
                     !strcmp(in[i].hand.method, in[0].hand.method) && in[i].hand.seed == in[0].hand.seed;
    if (same_hand && exec(o->db, HAND_P_TABLE, e, sizeof e))
        same_hand = 0;
    char finished[40] = "";
    for (int i = 0; i < n; i++) {
        char sql[4096];
        sqlite3_stmt *st;
        /* every set of the shard must be the shard's own */
        long foreign = -1, count = 0;
        if (sqlite3_prepare_v2(in[i].st->db, "SELECT count(*), sum(idx % ? != ?) FROM sets WHERE run_id = 1", -1, &st,
                               NULL) == SQLITE_OK) {
            sqlite3_bind_int(st, 1, in[i].sn);
            sqlite3_bind_int(st, 2, in[i].si);
            if (sqlite3_step(st) == SQLITE_ROW) {
                count = (long)sqlite3_column_int64(st, 0);
                foreign = (long)sqlite3_column_int64(st, 1);
            }
            sqlite3_finalize(st);
        }
        if (foreign != 0) {
            snprintf(err, errsz, "damaged database %s: it holds sets of another shard than %d/%d", paths[i], in[i].si,
                     in[i].sn);
            goto done;
        }
        char *q = sqlite3_mprintf("%q", paths[i]);
        snprintf(sql, sizeof sql,
                 "ATTACH DATABASE '%s' AS s; BEGIN IMMEDIATE;"
                 "INSERT INTO main.sets SELECT * FROM s.sets WHERE run_id = 1;"
                 "INSERT INTO main.set_players SELECT * FROM s.set_players WHERE run_id = 1;"
                 "INSERT INTO main.set_games SELECT * FROM s.set_games WHERE run_id = 1;"
                 "INSERT INTO main.records SELECT * FROM s.records WHERE run_id = 1;%s"
                 "COMMIT; DETACH DATABASE s;",
                 q, same_hand ? "INSERT INTO main.hand_p SELECT * FROM s.hand_p WHERE run_id = 1;" : "");
        sqlite3_free(q);
        if (exec(o->db, sql, e, sizeof e)) {
            char e2[512];
            exec(o->db, "ROLLBACK; DETACH DATABASE s;", e2, sizeof e2);
            snprintf(err, errsz, "cannot merge %s: %s", paths[i], e);
            goto done;
        }
        *sets += count;
        if (strcmp(in[i].run.finished, finished) > 0)
            snprintf(finished, sizeof finished, "%s", in[i].run.finished);
    }
    char list[2048] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", paths[i]);
    if (store_meta_set(o, "merged_from", list, e, sizeof e) ||
        (all_finished && *sets == run.sets && store_finish_run(o, finished))) {
        snprintf(err, errsz, "%s", e);
        goto done;
    }
    rc = 0;
done:
    if (o)
        store_close(o);
    if (rc && o) { /* a half-made merge is removed: it never held anything else */
        char p2[4200];
        unlink(out);
        snprintf(p2, sizeof p2, "%s-wal", out);
        unlink(p2);
        snprintf(p2, sizeof p2, "%s-shm", out);
        unlink(p2);
    }
    for (int i = 0; i < n; i++) {
        if (in[i].st) {
            store_free_names(in[i].n, in[i].names, in[i].specs);
            store_free_run(&in[i].run);
            store_close(in[i].st);
        }
    }
    free(in);
    return rc;
}

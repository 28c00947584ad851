/* store.c — the SQLite results store (see store.h): the file (creating, opening, the schema's
 * version, the writer's lock), the run and its players, and the meta table. */
#include "record/store_internal.h"

#include "record/pack.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

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

/* 1 if the file holds dhm tables, 0 if it is empty, -1 if it is something else, -2 if SQLite
 * finds it damaged. */
static int schema_state(sqlite3 *db)
{
    sqlite3_stmt *st;
    int n = -1, v = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK) {
        n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
        sqlite3_finalize(st);
    }
    if (n == 0)
        return 0;
    if (n > 0 && sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema'", -1, &st, NULL) == SQLITE_OK) {
        v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
        sqlite3_finalize(st);
    }
    if (v == STORE_SCHEMA)
        return 1;
    const int code = sqlite3_errcode(db) & 0xff;
    return code == SQLITE_CORRUPT ? -2 : -1;
}

static uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

/* A file that begins as an SQLite database but is shorter than its header says (a copy that
 * stopped early, a full disk): 1 with "damaged database PATH: ..." in err, else 0. Skipped
 * while a write-ahead log is next to the file (SQLite may still be mid-checkpoint, and
 * finishes it from the log). */
static int cut_short(const char *path, char *err, size_t errsz)
{
    static const char MAGIC[16] = "SQLite format 3";
    uint8_t h[100];
    struct stat st, wal;
    char walpath[4096];
    snprintf(walpath, sizeof walpath, "%s-wal", path);
    if (stat(walpath, &wal) == 0 && wal.st_size > 0)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, h, sizeof h) : -1;
    close(fd);
    if (n <= 0 || memcmp(h, MAGIC, (size_t)(n < 16 ? n : 16)))
        return 0; /* empty, or not SQLite at all */
    if (n < 100) {
        snprintf(err, errsz, "damaged database %s: cut short (%lld bytes, less than SQLite's 100-byte header)", path,
                 (long long)st.st_size);
        return 1;
    }
    const uint32_t page = (uint32_t)h[16] << 8 | h[17];
    const uint32_t page_size = page == 1 ? 65536 : page, pages = be32(h + 28);
    if (page_size < 512 || (page_size & (page_size - 1)) || pages == 0 || be32(h + 24) != be32(h + 92))
        return 0; /* no size in the header to compare with: SQLite judges the rest */
    const long long want = (long long)page_size * pages;
    if ((long long)st.st_size < want) {
        snprintf(err, errsz, "damaged database %s: cut short (%lld of its %lld bytes; a copy that stopped early?)", path,
                 (long long)st.st_size, want);
        return 1;
    }
    return 0;
}

static int not_a_file(const char *path, const struct stat *st, char *err, size_t errsz)
{
    if (S_ISREG(st->st_mode))
        return 0;
    snprintf(err, errsz, "%s is %s, not a dhm tournament database", path,
             S_ISDIR(st->st_mode) ? "a directory" : "not a regular file (a device or a pipe)");
    return 1;
}

/* Why a file that is not a usable store is not: damaged (SQLite says so), or not a dhm store
 * at all (cut_short was asked first). */
static void not_a_store(const char *path, int state, const char *what, char *err, size_t errsz)
{
    if (state == -2)
        snprintf(err, errsz, "damaged database %s: SQLite finds it malformed", path);
    else
        snprintf(err, errsz, what, path);
}

int store_create(Store **out, const char *path, const RunInfo *run, int nplayers, char *const *names,
                 char *const *specs, char *err, size_t errsz)
{
    Store *s;
    *out = NULL;
    struct stat stt;
    if (stat(path, &stt) == 0 && (stt.st_size > 0 || !S_ISREG(stt.st_mode))) {
        /* never overwrite: an existing database can only be resumed */
        if (not_a_file(path, &stt, err, errsz) || cut_short(path, err, errsz) ||
            open_db(&s, path, SQLITE_OPEN_READONLY, err, errsz))
            return -1;
        int state = schema_state(s->db);
        store_close(s);
        if (state > 0)
            snprintf(err, errsz, "%s already holds a tournament run (continue it with --resume, or give another --db)", path);
        else if (state < 0)
            not_a_store(path, state, "%s exists and is not a dhm tournament database", err, errsz);
        if (state != 0)
            return -1;
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
    if (not_a_file(path, &stt, err, errsz) || cut_short(path, err, errsz))
        return -1;
    if (open_db(&s, path, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, err, errsz))
        return -1;
    const int state = schema_state(s->db);
    if (state != 1) {
        if (state == 0) /* created empty: a run stopped before its first transaction ended */
            snprintf(err, errsz,
                     "%s holds no run yet (an empty file, or a tournament stopped before it wrote its run): "
                     "dhm tournament without --resume starts one there",
                     path);
        else
            not_a_store(path, state, "%s is not a dhm tournament database", err, errsz);
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
    int cap_names = 0, cap_specs = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        char **nn = rows_room(*names, *nplayers, &cap_names, sizeof *nn);
        if (nn)
            *names = nn;
        char **ss = rows_room(*specs, *nplayers, &cap_specs, sizeof *ss);
        if (ss)
            *specs = ss;
        if (!nn || !ss) {
            sqlite3_finalize(st);
            snprintf(err, errsz, "out of memory");
            goto out;
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

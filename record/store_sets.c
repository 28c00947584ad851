/* store_sets.c — the sets of a run in the store (see store.h): storing a finished set in one
 * transaction, which sets are done, and reading every set back checked against the run. */
#include "record/store_internal.h"

#include <stdlib.h>
#include <string.h>

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
int store_read_set_players(Store *s, sqlite3_stmt *pq, StoredSet *x, char *err, size_t errsz)
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
            bad = store_read_set_players(s, pq, &x, err, errsz);
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

int store_count_broken(Store *s, char *buf, size_t size)
{
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st;
    int rc = -1;
    size_t k = 0;
    buf[0] = 0;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT status, count(*) FROM sets WHERE run_id = 1 AND status <> 'ok'"
                           " GROUP BY 1 ORDER BY 2 DESC, 1",
                           -1, &st, NULL) == SQLITE_OK) {
        while (k < size && sqlite3_step(st) == SQLITE_ROW) {
            char status[16];
            copy_text(status, sizeof status, sqlite3_column_text(st, 0));
            k += (size_t)snprintf(buf + k, size - k, "%s%lld %s", k ? ", " : "", (long long)sqlite3_column_int64(st, 1),
                                  status);
        }
        sqlite3_finalize(st);
        rc = 0;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

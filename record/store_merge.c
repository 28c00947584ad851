/* store_merge.c — merging the stores of dhm tournament --shard I/N into the store of the whole
 * run (see store.h; dhm records merge). */
#include "record/store_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

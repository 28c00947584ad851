/* games.c — games from kifu files and stores (see games.h). */
#include "analysis/games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/kifu.h"
#include "record/pack.h"
#include "record/replay.h"
#include "record/store.h"

static int each_kifu(const char *path, GameFn fn, void *ctx, long *index, GameRecord *rec, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "cannot open %s", path);
        return -1;
    }
    KifuReader r;
    kifu_reader_init(&r, f, path);
    KifuGame *kg = malloc(sizeof *kg);
    int rc = kg ? 0 : -1;
    if (!kg)
        snprintf(err, errsz, "out of memory");
    while (!rc) {
        int k = kifu_next(&r, kg, err, errsz);
        if (k <= 0) {
            rc = k;
            break;
        }
        if (kifu_to_record(kg, path, rec, err, errsz)) {
            rc = -1;
            break;
        }
        const char *names[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            names[p] = r.have_names ? r.names[p] : "?";
        rc = fn(ctx, rec, names, (*index)++);
    }
    free(kg);
    kifu_reader_free(&r);
    fclose(f);
    return rc;
}

typedef struct StoreWalk {
    Store *st;
    char **names;
    int nplayers, include_broken, records_format;
    GameFn fn;
    void *ctx;
    long *index;
    GameRecord *rec;
    char *err;
    size_t errsz;
} StoreWalk;

static int store_set(void *arg, const StoredSet *x)
{
    StoreWalk *w = arg;
    if (!w->include_broken && !set_status_ok(x->status))
        return 0;
    uint8_t *data;
    size_t len;
    int player[NPLAYERS];
    if (store_set_records(w->st, x->idx, &data, &len, player, w->err, w->errsz))
        return -1;
    const char *names[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        names[p] = w->names[player[p]];
    int rc = 0;
    for (size_t off = 0; off < len && !rc;) {
        size_t used;
        if (unpack_game(data + off, len - off, w->records_format, w->rec, &used)) {
            snprintf(w->err, w->errsz, "damaged database: set %ld: a stored game is damaged at byte %zu", x->idx, off);
            rc = -1;
            break;
        }
        off += used;
        rc = w->fn(w->ctx, w->rec, names, (*w->index)++);
    }
    free(data);
    return rc;
}

int games_each(const GameSource *src, GameFn fn, void *ctx, char *err, size_t errsz)
{
    GameRecord *rec = malloc(sizeof *rec);
    if (!rec) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    long index = 0;
    int rc = 0;
    for (int i = 0; i < src->nkifu && !rc; i++)
        rc = each_kifu(src->kifu[i], fn, ctx, &index, rec, err, errsz);
    for (int d = 0; d < src->ndb && !rc; d++) {
        const char *db = src->db[d];
        StoreWalk w = {NULL, NULL, 0, src->include_broken, 0, fn, ctx, &index, rec, err, errsz};
        RunInfo run;
        char **specs = NULL;
        if (store_open(&w.st, db, 0, err, errsz)) {
            rc = -1;
        } else if (store_load_run(w.st, &run, &w.nplayers, &w.names, &specs, err, errsz)) {
            store_close(w.st);
            rc = -1;
        } else {
            if (!run.records) {
                snprintf(err, errsz, "%s holds no game records (run the tournament with --records)", db);
                rc = -1;
            } else {
                w.records_format = store_records_format(w.st);
                char e2[512] = "";
                rc = store_each_set(w.st, 0, store_set, &w, e2, sizeof e2);
                if (rc && *e2)
                    snprintf(err, errsz, "%s: %s", db, e2);
            }
            store_free_names(w.nplayers, w.names, specs);
            store_free_run(&run);
            store_close(w.st);
        }
    }
    free(rec);
    return rc;
}

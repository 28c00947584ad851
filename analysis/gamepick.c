/* gamepick.c — picking games from a kifu file or one set of a store (see gamepick.h). */
#include "analysis/gamepick.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/games.h"
#include "record/pack.h"
#include "record/store.h"

/* ---- a kifu file ---- */

typedef struct FileWalk {
    const GamePick *p;
    PickFn fn;
    void *ctx;
    long picked, games, first_hit, second_hit;
    long lo, hi; /* the game numbers seen */
} FileWalk;

static int file_game(void *arg, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    FileWalk *w = arg;
    const GamePick *p = w->p;
    w->games++;
    if (w->games == 1 || rec->number < w->lo)
        w->lo = rec->number;
    if (w->games == 1 || rec->number > w->hi)
        w->hi = rec->number;
    const long key = p->by_index ? index : rec->number;
    if (p->from >= 0 && (key < p->from || key > p->to))
        return 0;
    if (w->picked == 0)
        w->first_hit = index;
    else if (w->picked == 1)
        w->second_hit = index;
    w->picked++;
    return w->fn(w->ctx, rec, names, index, -1);
}

static int pick_file(const GamePick *p, PickFn fn, void *ctx, char *err, size_t errsz)
{
    const char *files[1] = {p->kifu};
    GameSource src = {files, 1, NULL, 0, 0};
    FileWalk w = {p, fn, ctx, 0, 0, -1, -1, 0, 0};
    int rc = games_each(&src, file_game, &w, err, errsz);
    if (rc)
        return rc;
    if (w.games == 0) {
        snprintf(err, errsz, "%s holds no game", p->kifu);
        return -1;
    }
    char want[64];
    if (p->to != p->from)
        snprintf(want, sizeof want, "%ld-%ld", p->from, p->to);
    else
        snprintf(want, sizeof want, "%ld", p->from);
    if (w.picked == 0) {
        if (p->by_index)
            snprintf(err, errsz, "%s has no game at position %s (it holds %ld games: positions 0-%ld)", p->kifu, want,
                     w.games, w.games - 1);
        else
            snprintf(err, errsz, "%s has no game numbered %s (its games are numbered %ld-%ld)", p->kifu, want, w.lo,
                     w.hi);
        return -1;
    }
    if (!p->by_index && p->from >= 0 && p->from == p->to && w.picked > 1) {
        snprintf(err, errsz, "%s holds %ld games numbered %ld (at positions %ld, %ld%s): pick one with --index", p->kifu,
                 w.picked, p->from, w.first_hit, w.second_hit, w.picked > 2 ? ", ..." : "");
        return -1;
    }
    return 0;
}

/* ---- one set of a store ---- */

typedef struct SetFind {
    long want, offset, lo, hi, nsets;
    int include_broken, found;
    StoredSet set;
    char status[16];
} SetFind;

static int find_set(void *arg, const StoredSet *x)
{
    SetFind *s = arg;
    if (s->nsets == 0 || x->idx < s->lo)
        s->lo = x->idx;
    if (s->nsets == 0 || x->idx > s->hi)
        s->hi = x->idx;
    s->nsets++;
    if (x->idx == s->want) {
        s->found = 1;
        s->set = *x;
        s->set.classes = NULL;
        snprintf(s->status, sizeof s->status, "%s", x->status);
    } else if (x->idx < s->want && (s->include_broken || set_status_ok(x->status))) {
        s->offset += x->games;
    }
    return 0;
}

static int pick_set(const GamePick *p, PickFn fn, void *ctx, char *err, size_t errsz)
{
    Store *st;
    RunInfo run;
    int nplayers = 0;
    char **names = NULL, **specs = NULL, e2[512];
    if (store_open(&st, p->db, 0, e2, sizeof e2)) {
        snprintf(err, errsz, "%s", e2);
        return -1;
    }
    int rc = -1;
    uint8_t *data = NULL;
    GameRecord *rec = NULL;
    if (store_load_run(st, &run, &nplayers, &names, &specs, e2, sizeof e2)) {
        snprintf(err, errsz, "%s: %s", p->db, e2);
        store_close(st);
        return -1;
    }
    SetFind sf;
    memset(&sf, 0, sizeof sf);
    sf.want = p->set;
    sf.include_broken = p->include_broken;
    if (!run.records) {
        snprintf(err, errsz, "%s holds no game records (run the tournament with --records)", p->db);
        goto out;
    }
    if (store_each_set(st, 0, find_set, &sf, e2, sizeof e2)) {
        snprintf(err, errsz, "%s: %s", p->db, e2);
        goto out;
    }
    if (!sf.found) {
        if (sf.nsets)
            snprintf(err, errsz, "%s has no set %ld (its sets are %ld-%ld)", p->db, p->set, sf.lo, sf.hi);
        else
            snprintf(err, errsz, "%s has no set %ld (it holds no set yet)", p->db, p->set);
        goto out;
    }
    if (!p->include_broken && !set_status_ok(sf.status)) {
        snprintf(err, errsz, "set %ld of %s was not played cleanly (%s): add --include-broken to view it", p->set, p->db,
                 sf.status);
        goto out;
    }
    size_t len;
    int player[NPLAYERS];
    if (store_set_records(st, p->set, &data, &len, player, e2, sizeof e2)) {
        snprintf(err, errsz, "%s: %s", p->db, e2);
        goto out;
    }
    const char *nm[NPLAYERS];
    for (int q = 0; q < NPLAYERS; q++)
        nm[q] = player[q] >= 0 && player[q] < nplayers ? names[player[q]] : "?";
    if (!(rec = malloc(sizeof *rec))) {
        snprintf(err, errsz, "out of memory");
        goto out;
    }
    long k = 0, picked = 0;
    for (size_t off = 0; off < len; k++) {
        size_t used;
        if (unpack_game(data + off, len - off, store_records_format(st), rec, &used)) {
            snprintf(err, errsz, "damaged database: %s: set %ld: a stored game is damaged at byte %zu", p->db, p->set,
                     off);
            goto out;
        }
        off += used;
        if (p->from >= 0 && (rec->number < p->from || rec->number > p->to))
            continue;
        picked++;
        int r = fn(ctx, rec, nm, sf.offset + k, p->set);
        if (r) {
            rc = r;
            goto out;
        }
    }
    if (!picked) {
        char want[64];
        if (p->to != p->from)
            snprintf(want, sizeof want, "%ld-%ld", p->from, p->to);
        else
            snprintf(want, sizeof want, "%ld", p->from);
        snprintf(err, errsz, "set %ld of %s has no game numbered %s (it holds games 0-%ld)", p->set, p->db, want, k - 1);
        goto out;
    }
    rc = 0;
out:
    free(rec);
    free(data);
    store_free_names(nplayers, names, specs);
    store_free_run(&run);
    store_close(st);
    return rc;
}

int gamepick_each(const GamePick *p, PickFn fn, void *ctx, char *err, size_t errsz)
{
    return p->kifu ? pick_file(p, fn, ctx, err, errsz) : pick_set(p, fn, ctx, err, errsz);
}

/* worst.c — each player's costliest stored decisions and their games (see worst.h). Two passes
 * over the sets that have analyses: the first checks every analysis against its game and keeps
 * the picks, the second fetches the games kept for printing. */
#include "analysis/worst.h"

#include <stdlib.h>
#include <string.h>

#include "record/pack.h"

/* One distinct analysed game. */
typedef struct Analysed {
    const StoredReview *row;
    GameReview review;
    int player[NPLAYERS]; /* the run's player of each player number */
} Analysed;

/* Whether the analysis fits the game it names: plies in range, played by that player, the
 * choice made is the recorded one, gifts by the rich. */
static int fits(const GameReview *r, const GameRecord *rec)
{
    for (int i = 0; i < r->n; i++) {
        const ReviewDecision *d = &r->d[i];
        if (d->exchange) {
            if (rec->cls[0] < 0 || rec->cls[d->player] > 1 || rec->changed[d->player] != d->chosen.gift)
                return 0;
        } else if (d->ply >= rec->nplays || rec->plays[d->ply].player != d->player ||
                   !move_eq(rec->plays[d->ply].move, d->chosen.move)) {
            return 0;
        }
    }
    return 1;
}

/* Calls fn for every stored game of set `set` until it returns non-zero. */
typedef int (*SetGameFn)(void *ctx, const GameRecord *rec, const int player[NPLAYERS]);
static int each_game(Store *st, long set, GameRecord *rec, SetGameFn fn, void *ctx, char *err, size_t errsz)
{
    uint8_t *data;
    size_t len;
    int player[NPLAYERS], rc = 0;
    if (store_set_records(st, set, &data, &len, player, err, errsz))
        return -1;
    for (size_t off = 0; off < len && !rc;) {
        size_t used;
        if (unpack_game(data + off, len - off, store_records_format(st), rec, &used)) {
            snprintf(err, errsz, "damaged database: set %ld: a stored game is damaged at byte %zu", set, off);
            rc = -1;
            break;
        }
        off += used;
        rc = fn(ctx, rec, player);
    }
    free(data);
    return rc < 0 ? -1 : 0;
}

typedef struct Check {
    Analysed *a;
    int n, at, nplayers;
    char *err;
    size_t errsz;
} Check;

/* First pass: the set's analyses (a[at..], same set, by game) against its games. */
static int check_game(void *ctx, const GameRecord *rec, const int player[NPLAYERS])
{
    Check *c = ctx;
    while (c->at < c->n && c->a[c->at].row->set == c->a[0].row->set && c->a[c->at].row->game == rec->number) {
        Analysed *x = &c->a[c->at++];
        for (int p = 0; p < NPLAYERS; p++)
            if ((x->player[p] = player[p]) < 0 || player[p] >= c->nplayers) {
                snprintf(c->err, c->errsz, "damaged database: set %ld names an unknown player", x->row->set);
                return -1;
            }
        if (!fits(&x->review, rec)) {
            snprintf(c->err, c->errsz, "damaged database: the stored analysis of set %ld game %d does not fit the game",
                     x->row->set, x->row->game);
            return -1;
        }
    }
    return c->at < c->n && c->a[c->at].row->set == c->a[0].row->set ? 0 : 1;
}

typedef struct Fetch {
    StoredWorst *w;
    long set;
    char *const *names;
} Fetch;

/* Second pass: the kept games of one set. */
static int fetch_game(void *ctx, const GameRecord *rec, const int player[NPLAYERS])
{
    Fetch *f = ctx;
    for (int g = 0; g < f->w->ngames; g++) {
        WorstGame *x = &f->w->games[g];
        if (x->set != f->set || x->rec.number != rec->number || x->rec.nplays)
            continue;
        x->rec = *rec;
        for (int p = 0; p < NPLAYERS; p++)
            snprintf(x->names[p], WORST_NAME, "%s", f->names[player[p]]);
    }
    return 0;
}

static void keep_pick(WorstPick *best, int *n, int k, const WorstPick *p)
{
    if (*n == k && best[k - 1].loss >= p->loss)
        return;
    int i = *n < k ? (*n)++ : k - 1;
    for (; i > 0 && best[i - 1].loss < p->loss; i--)
        best[i] = best[i - 1];
    best[i] = *p;
}

static int by_loss(const void *a, const void *b)
{
    const WorstPick *x = *(const WorstPick *const *)a, *y = *(const WorstPick *const *)b;
    return (x->loss < y->loss) - (x->loss > y->loss);
}

int worst_load(Store *st, int nplayers, char *const *names, int per_player, int max_games, StoredWorst *out, char *err,
               size_t errsz)
{
    memset(out, 0, sizeof *out);
    StoredReview *rows = NULL;
    int nrows = 0, rc = -1, na = 0;
    Analysed *a = NULL;
    GameRecord *rec = malloc(sizeof *rec);
    WorstPick *best = NULL;
    int *nbest = NULL;
    WorstPick **order = NULL;
    if (!rec || store_reviews(st, &rows, &nrows, err, errsz))
        goto done;
    if (!(a = calloc((size_t)(nrows ? nrows : 1), sizeof *a)))
        goto oom;
    for (int i = 0; i < nrows; i++) { /* one analysis a game: rows come the preferred first */
        if (na && a[na - 1].row->set == rows[i].set && a[na - 1].row->game == rows[i].game)
            continue;
        a[na].row = &rows[i];
        if (review_unpack(rows[i].data, rows[i].len, &a[na].review)) {
            snprintf(err, errsz, "damaged database: the stored analysis of set %ld game %d does not read", rows[i].set,
                     rows[i].game);
            goto done;
        }
        na++;
    }
    out->analysed = na;
    for (int i = 0; i < na;) { /* check every analysis against its game, a set at a time */
        Check c = {a + i, na - i, 0, nplayers, err, errsz};
        if (each_game(st, a[i].row->set, rec, check_game, &c, err, errsz))
            goto done;
        if (c.at == 0 || (c.at < c.n && c.a[c.at].row->set == a[i].row->set)) {
            snprintf(err, errsz, "damaged database: set %ld has no game %d, but an analysis of it is stored",
                     a[i + c.at].row->set, a[i + c.at].row->game);
            goto done;
        }
        i += c.at;
    }
    /* each player's costliest decisions */
    best = calloc((size_t)(nplayers ? nplayers : 1) * (size_t)per_player, sizeof *best);
    nbest = calloc((size_t)(nplayers ? nplayers : 1), sizeof *nbest);
    if (!best || !nbest)
        goto oom;
    for (int i = 0; i < na; i++)
        for (int k = 0; k < a[i].review.n; k++) {
            const ReviewDecision *d = &a[i].review.d[k];
            if (d->loss <= 0)
                continue;
            WorstPick p = {a[i].player[d->player], i, a[i].row->set, a[i].row->game, d->ply, d->exchange, d->mark,
                           d->sure, d->chosen, d->best, d->loss};
            keep_pick(best + (size_t)p.player * per_player, &nbest[p.player], per_player, &p);
        }
    for (int p = 0; p < nplayers; p++)
        out->npicks += nbest[p];
    out->picks = calloc((size_t)(out->npicks ? out->npicks : 1), sizeof *out->picks);
    order = calloc((size_t)(out->npicks ? out->npicks : 1), sizeof *order);
    out->games = calloc((size_t)(max_games > 0 ? max_games : 1), sizeof *out->games);
    if (!out->picks || !order || !out->games)
        goto oom;
    int k = 0;
    for (int p = 0; p < nplayers; p++)
        for (int j = 0; j < nbest[p]; j++) {
            out->picks[k] = best[(size_t)p * per_player + j];
            order[k] = &out->picks[k];
            k++;
        }
    /* the games kept: those of the costliest picks first */
    qsort(order, (size_t)k, sizeof *order, by_loss);
    int *slot = malloc((size_t)(na ? na : 1) * sizeof *slot);
    if (!slot)
        goto oom;
    for (int i = 0; i < na; i++)
        slot[i] = -1;
    for (int j = 0; j < k; j++) {
        const int i = order[j]->game;
        if (slot[i] < 0 && out->ngames < max_games) {
            WorstGame *g = &out->games[slot[i] = out->ngames++];
            g->set = a[i].row->set;
            g->rec.number = a[i].row->game;
            snprintf(g->evaluator, sizeof g->evaluator, "%s", a[i].row->evaluator);
            g->worlds = a[i].row->worlds;
            g->seed = a[i].row->seed;
            g->review = a[i].review;
            memset(&a[i].review, 0, sizeof a[i].review); /* moved */
        }
        order[j]->game = slot[i];
    }
    free(slot);
    for (int g = 0; g < out->ngames; g++) { /* fetch the kept games, a set once */
        int seen = 0;
        for (int h = 0; h < g; h++)
            seen |= out->games[h].set == out->games[g].set;
        Fetch fc = {out, out->games[g].set, names};
        if (!seen && each_game(st, out->games[g].set, rec, fetch_game, &fc, err, errsz))
            goto done;
    }
    for (int g = 0; g < out->ngames; g++) {
        WorstGame *x = &out->games[g];
        if (gameview_build(&x->rec, &x->view, err, errsz) ||
            review_summarize(&x->review, 1, 1000, 0.95, x->seed, x->summary))
            goto done;
    }
    rc = 0;
    goto done;
oom:
    snprintf(err, errsz, "out of memory");
done:
    for (int i = 0; a && i < na; i++)
        review_free(&a[i].review);
    free(a);
    free(rec);
    free(best);
    free(nbest);
    free(order);
    store_free_reviews(rows, nrows);
    if (rc)
        worst_free(out);
    return rc;
}

void worst_free(StoredWorst *w)
{
    for (int g = 0; g < w->ngames; g++)
        review_free(&w->games[g].review);
    free(w->games);
    free(w->picks);
    memset(w, 0, sizeof *w);
}

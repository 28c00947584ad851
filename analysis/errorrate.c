/* errorrate.c — judging recorded decisions against an evaluator (see errorrate.h). The games
 * are packed in memory (record/pack.c), judged by worker threads that each own an evaluator,
 * and merged in game order, so the result never depends on the number of threads. */
#include "analysis/errorrate.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decisions.h"
#include "analysis/gamelist.h"
#include "analysis/judge.h"
#include "analysis/stats.h"
#include "game/workers.h"
#include "players/mc.h"
#include "players/players.h"

#define MAX_MARKS 1000

/* ---- one game ---- */

typedef struct GameOut {
    double loss[NPLAYERS];
    long judged[NPLAYERS], skipped[NPLAYERS];
    int cls[NPLAYERS];
    ErrMark *marks; /* the game's costliest decisions, worst first */
    int nmarks, maxmarks;
    int failed;
} GameOut;

typedef struct Judge {
    Player *ev;
    long index;
    uint64_t seed;
    int worlds;
    unsigned mask;            /* player numbers judged */
    const char *const *names; /* may be NULL */
    GameOut *out;
    const GameRecord *rec;
} Judge;

static void keep_mark(GameOut *o, const ErrMark *m)
{
    if (o->maxmarks <= 0 || (o->nmarks == o->maxmarks && o->marks[o->nmarks - 1].loss >= m->loss))
        return;
    int i = o->nmarks < o->maxmarks ? o->nmarks++ : o->nmarks - 1;
    for (; i > 0 && o->marks[i - 1].loss < m->loss; i--)
        o->marks[i] = o->marks[i - 1];
    o->marks[i] = *m;
}

static int judge_decision(void *ctx, const Decision *d)
{
    Judge *j = ctx;
    const InfoSet *v = d->v;
    const int me = v->me;
    if (!((j->mask >> me) & 1))
        return 0;
    Judged judged, *jd = &judged;
    if (judge_values(j->ev, d, j->index, j->seed, j->worlds, jd)) {
        j->out->failed = 1;
        return -1;
    }
    if (jd->n < 2) {
        j->out->skipped[me]++;
        return 0;
    }
    if (jd->chosen < 0)
        return 0; /* not a choice of the hand (a broken record): nothing to judge */
    const double loss = judge_loss(jd);
    j->out->loss[me] += loss;
    j->out->judged[me]++;
    if (j->out->maxmarks > 0 && loss > 0) {
        ErrMark m;
        memset(&m, 0, sizeof m);
        m.game = j->index;
        m.number = j->rec->number;
        m.ply = d->ply;
        snprintf(m.player, sizeof m.player, "%s", j->names ? j->names[me] : "?");
        m.hand = v->hand;
        m.table = v->table;
        m.rev = v->rev;
        m.lock = v->lock;
        m.exchange = d->exchange;
        if (d->exchange) {
            m.gchosen = jd->gifts[jd->chosen];
            m.gbest = jd->gifts[jd->best];
        } else {
            m.chosen = jd->mv[jd->chosen];
            m.best = jd->mv[jd->best];
        }
        m.loss = loss;
        keep_mark(j->out, &m);
    }
    return 0;
}

int errorrate_game(Player *evaluator, const GameRecord *rec, long index, uint64_t seed, int worlds, double loss[NPLAYERS],
                   long judged[NPLAYERS], long skipped[NPLAYERS])
{
    GameOut o;
    memset(&o, 0, sizeof o);
    Judge j = {evaluator, index, seed, worlds, 31, NULL, &o, rec};
    int rc = decisions_each(rec, judge_decision, &j);
    memcpy(loss, o.loss, sizeof o.loss);
    memcpy(judged, o.judged, sizeof o.judged);
    memcpy(skipped, o.skipped, sizeof o.skipped);
    return rc || o.failed ? -1 : 0;
}

/* ---- the whole source ---- */

typedef struct Collect {
    GameList list;
    long max;
} Collect;

static int collect(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    Collect *c = ctx;
    if (c->max > 0 && index >= c->max)
        return 1; /* enough games */
    return gamelist_add(&c->list, rec, names, index, -1);
}

typedef struct Work {
    const ErrConfig *c;
    const GameList *games;
    GameOut *out;
    long next, done;
    int failed;
    char err[256];
    pthread_mutex_t mu;
} Work;

static unsigned judged_mask(const ErrConfig *c, const char (*names)[ERR_NAME])
{
    unsigned mask = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        int want = c->njudge == 0;
        for (int i = 0; i < c->njudge && !want; i++)
            want = !strcmp(c->judge[i], names[p]);
        mask |= (unsigned)want << p;
    }
    return mask;
}

static void *worker(void *arg)
{
    Work *w = arg;
    Player *ev = NULL;
    char err[256];
    GameRecord *rec = malloc(sizeof *rec);
    int bad = !rec || player_create(w->c->evaluator, 0, &ev, err, sizeof err);
    if (!bad && !mc_is(ev)) {
        snprintf(err, sizeof err, "the evaluator must be an mc or search player, not '%s'", w->c->evaluator);
        bad = 1;
    }
    for (;;) {
        pthread_mutex_lock(&w->mu);
        if (bad && !w->failed) {
            w->failed = 1;
            snprintf(w->err, sizeof w->err, "%s", rec ? err : "out of memory");
        }
        long k = w->failed || w->next >= w->games->n ? -1 : w->next++;
        pthread_mutex_unlock(&w->mu);
        if (k < 0)
            break;
        GameOut *o = &w->out[k];
        const char(*names)[ERR_NAME] = w->games->names[k];
        const char *nm[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            nm[p] = names[p];
        if (gamelist_get(w->games, k, rec)) {
            bad = 1;
            snprintf(err, sizeof err, "game %ld does not replay", k);
            continue;
        }
        memcpy(o->cls, rec->result, sizeof o->cls);
        Judge j = {ev, k, w->c->seed, w->c->worlds, judged_mask(w->c, names), nm, o, rec};
        if (decisions_each(rec, judge_decision, &j) || o->failed) {
            bad = 1;
            snprintf(err, sizeof err, "game %ld: a position the evaluator cannot deal", k);
            continue;
        }
        pthread_mutex_lock(&w->mu);
        w->done++;
        pthread_mutex_unlock(&w->mu);
    }
    player_destroy(ev);
    free(rec);
    return NULL;
}

static void tick(void *arg)
{
    Work *w = arg;
    pthread_mutex_lock(&w->mu);
    long d = w->done;
    pthread_mutex_unlock(&w->mu);
    if (w->c->progress)
        w->c->progress(w->c->progress_ctx, d, w->games->n);
}

static ErrPlayer *player_of(ErrResult *r, const char *name, int *cap)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->p[i].name, name))
            return &r->p[i];
    if (r->n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        ErrPlayer *p = realloc(r->p, (size_t)c * sizeof *p);
        if (!p)
            return NULL;
        r->p = p;
        *cap = c;
    }
    ErrPlayer *p = &r->p[r->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p;
}

/* The error rate's percentile interval from resampled games (their losses and decisions). */
static void bootstrap(ErrPlayer *p, int reps, double conf, uint64_t seed)
{
    stats_bootstrap_ratio(p->game_loss, p->game_judged, p->ngame, reps, conf,
                          rng_derive(seed, 0x626f6f74, (uint64_t)p->ngame), &p->lo, &p->hi);
}

int errorrate_run(const ErrConfig *c, const GameSource *src, ErrResult *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->worlds = c->worlds;
    Collect games;
    memset(&games, 0, sizeof games);
    int rc = -1;
    Work w;
    memset(&w, 0, sizeof w);
    games.max = c->max_games;
    if (games_each(src, collect, &games, err, errsz) < 0)
        goto done;
    w.c = c;
    w.games = &games.list;
    w.out = calloc((size_t)(games.list.n > 0 ? games.list.n : 1), sizeof *w.out);
    const int maxmarks = c->marks > MAX_MARKS ? MAX_MARKS : c->marks;
    for (long k = 0; w.out && k < games.list.n; k++) {
        w.out[k].maxmarks = maxmarks;
        w.out[k].marks = maxmarks ? calloc((size_t)maxmarks, sizeof(ErrMark)) : NULL;
        if (maxmarks && !w.out[k].marks) {
            snprintf(err, errsz, "out of memory");
            goto done;
        }
    }
    if (!w.out) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    pthread_mutex_init(&w.mu, NULL);
    workers_run(c->jobs, worker, &w, tick);
    pthread_mutex_destroy(&w.mu);
    if (w.failed) {
        snprintf(err, errsz, "%s", w.err);
        goto done;
    }
    /* merge in game order */
    int cap = 0;
    out->marks = maxmarks ? calloc((size_t)maxmarks, sizeof *out->marks) : NULL;
    GameOut all = {{0}, {0}, {0}, {0}, out->marks, 0, maxmarks, 0};
    for (long k = 0; k < games.list.n; k++) {
        const GameOut *o = &w.out[k];
        unsigned mask = judged_mask(c, games.list.names[k]);
        out->games++;
        for (int q = 0; q < NPLAYERS; q++) {
            if (!((mask >> q) & 1))
                continue;
            ErrPlayer *p = player_of(out, games.list.names[k][q], &cap);
            if (!p) {
                snprintf(err, errsz, "out of memory");
                goto done;
            }
            if (p->ngame == p->capgame) {
                long cg = p->capgame ? 2 * p->capgame : 64;
                double *gl = realloc(p->game_loss, (size_t)cg * sizeof *gl);
                if (gl)
                    p->game_loss = gl;
                long *gj = gl ? realloc(p->game_judged, (size_t)cg * sizeof *gj) : NULL;
                if (gj)
                    p->game_judged = gj;
                double *gr = gj ? realloc(p->game_rank, (size_t)cg * sizeof *gr) : NULL;
                if (!gr) {
                    snprintf(err, errsz, "out of memory");
                    goto done;
                }
                p->game_rank = gr;
                p->capgame = cg;
            }
            p->game_loss[p->ngame] = o->loss[q];
            p->game_judged[p->ngame] = o->judged[q];
            p->game_rank[p->ngame] = o->cls[q] + 1;
            p->ngame++;
            p->games++;
            p->judged += o->judged[q];
            p->skipped += o->skipped[q];
            p->loss += o->loss[q];
            p->rank_sum += o->cls[q] + 1;
            p->points_sum += 5 - o->cls[q];
            out->judged += o->judged[q];
            out->skipped += o->skipped[q];
        }
        for (int i = 0; i < o->nmarks; i++)
            keep_mark(&all, &o->marks[i]);
    }
    out->nmarks = all.nmarks;
    for (int i = 0; i < out->n; i++) {
        ErrPlayer *p = &out->p[i];
        p->rate = p->judged ? p->loss / (double)p->judged : NAN;
        p->mean_rank = p->games ? p->rank_sum / (double)p->games : NAN;
        p->mean_points = p->games ? p->points_sum / (double)p->games : NAN;
        bootstrap(p, c->bootstrap, c->confidence, c->seed);
    }
    rc = 0;
done:
    for (long k = 0; w.out && k < games.list.n; k++)
        free(w.out[k].marks);
    free(w.out);
    gamelist_free(&games.list);
    return rc;
}

void errorrate_free(ErrResult *r)
{
    for (int i = 0; i < r->n; i++) {
        free(r->p[i].game_loss);
        free(r->p[i].game_judged);
        free(r->p[i].game_rank);
    }
    free(r->p);
    free(r->marks);
    memset(r, 0, sizeof *r);
}

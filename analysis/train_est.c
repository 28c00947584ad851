/* train_est.c — fitting the estimation model (train_est.h). */
#include "analysis/train_est.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decisions.h"
#include "analysis/train.h"
#include "game/workers.h"

#define S2 (1ULL << (COL_MAX * 4 + SUIT_S))

typedef struct TDec {
    long card_off, ev_off;
    int ncard;
    uint8_t me, held;
    uint8_t room[NPLAYERS], cls[NPLAYERS], nev[NPLAYERS], forbid[NPLAYERS]; /* forbid: 1 joker, 2 spade 2 */
} TDec;

typedef struct TData {
    TDec *d;
    long n, cap;
    uint16_t *cards; /* bit | holder << 8 */
    long ncards, capcards;
    EstEvent *ev;
    long nev, capev;
    long games, held_games;
    uint64_t seed;
    double holdout;
    long max_games;
    int held_now;
} TData;

static int grow(void **p, long *cap, long need, size_t elem)
{
    if (need <= *cap)
        return 0;
    long c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int add_decision(void *ctx, const Decision *dc)
{
    TData *t = ctx;
    if (dc->exchange)
        return 0;
    const InfoSet *v = dc->v;
    int count[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        count[p] = v->ncards[p];
    EstKnown k;
    if (est_known(v, count, &k) || !k.deal)
        return 0;
    EstFeatures f;
    est_features(v, &f);
    int nev = 0;
    for (int p = 0; p < NPLAYERS; p++)
        nev += p == v->me ? 0 : f.nev[p];
    const int ncard = cards_count(k.deal);
    if (grow((void **)&t->d, &t->cap, t->n + 1, sizeof *t->d) ||
        grow((void **)&t->cards, &t->capcards, t->ncards + ncard, sizeof *t->cards) ||
        grow((void **)&t->ev, &t->capev, t->nev + nev, sizeof *t->ev))
        return -1;
    TDec *d = &t->d[t->n++];
    memset(d, 0, sizeof *d);
    d->card_off = t->ncards;
    d->ev_off = t->nev;
    d->ncard = ncard;
    d->me = (uint8_t)v->me;
    d->held = (uint8_t)t->held_now;
    for (int p = 0; p < NPLAYERS; p++) {
        d->room[p] = (uint8_t)(k.room[p] > 0 ? k.room[p] : 0);
        d->cls[p] = (uint8_t)f.cls[p];
        d->forbid[p] = (uint8_t)(((k.forbid[p] & CARDS_JOKER) ? 1 : 0) | ((k.forbid[p] & S2) ? 2 : 0));
        if (p == v->me)
            continue;
        d->nev[p] = (uint8_t)f.nev[p];
        for (int e = 0; e < f.nev[p]; e++)
            t->ev[t->nev++] = f.ev[p][e];
    }
    for (Cards x = k.deal; x; x &= x - 1) {
        int bit = __builtin_ctzll(x), holder = -1;
        for (int p = 0; p < NPLAYERS; p++)
            if ((dc->truth->hand[p] >> bit) & 1)
                holder = p;
        t->cards[t->ncards++] = (uint16_t)(bit | (holder < 0 ? 0 : holder) << 8);
    }
    return 0;
}

static int add_game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    (void)names;
    TData *t = ctx;
    if (t->max_games && index >= t->max_games)
        return 1;
    t->held_now = train_held_out(t->seed, index, t->holdout);
    t->games++;
    t->held_games += t->held_now;
    return decisions_each(rec, add_decision, t) < 0 ? -1 : 0;
}

/* ---- the model as a flat vector: prior, then ev ---- */

#define NW EST_NPARAM
#define P_PRIOR(c, b) ((c) * EST_BINS + (b))
#define P_EV(e, r) (EST_CLASSES * EST_BINS + (e) * EST_REL + (r))

static void to_model(const double *w, EstModel *m)
{
    for (int c = 0; c < EST_CLASSES; c++)
        for (int b = 0; b < EST_BINS; b++)
            m->prior[c][b] = w[P_PRIOR(c, b)];
    for (int e = 0; e < EST_EVENTS; e++)
        for (int r = 0; r < EST_REL; r++)
            m->ev[e][r] = w[P_EV(e, r)];
}

static int allowed(const TDec *d, int p, int bit)
{
    if (p == d->me || d->room[p] == 0)
        return 0;
    if (bit == JOKER_BIT && (d->forbid[p] & 1))
        return 0;
    if (bit == COL_MAX * 4 + SUIT_S && (d->forbid[p] & 2))
        return 0;
    return 1;
}

/* One decision: adds its cards' loss (and expected hits) and, if grad, the gradient. */
static void dec_grad(const TData *t, const TDec *d, const double *w, double *grad, double *loss, double *hit,
                     double *floss, double *fhit)
{
    double lw[NPLAYERS][EST_BINS], dl[NPLAYERS][EST_BINS];
    const EstEvent *ev = t->ev + d->ev_off;
    for (int p = 0, o = 0; p < NPLAYERS; p++) {
        for (int b = 0; b < EST_BINS; b++) {
            lw[p][b] = w[P_PRIOR(d->cls[p], b)];
            dl[p][b] = 0;
        }
        for (int e = 0; e < d->nev[p]; e++, o++)
            for (int b = 0; b < EST_BINS; b++)
                lw[p][b] += w[P_EV(ev[o].bucket, est_rel(b, &ev[o]))];
    }
    const uint16_t *cd = t->cards + d->card_off;
    for (int i = 0; i < d->ncard; i++) {
        const int bit = cd[i] & 0xFF, holder = cd[i] >> 8, b = est_bin(bit);
        double s[NPLAYERS], mx = -INFINITY, z = 0, fz = 0;
        for (int p = 0; p < NPLAYERS; p++) {
            s[p] = -INFINITY;
            if (!allowed(d, p, bit))
                continue;
            s[p] = log((double)d->room[p]) + lw[p][b];
            mx = s[p] > mx ? s[p] : mx;
            fz += d->room[p];
        }
        if (!(mx > -INFINITY) || !allowed(d, holder, bit))
            continue; /* the truth breaks an assumed rule (a rich player gave the joker back) */
        for (int p = 0; p < NPLAYERS; p++)
            z += s[p] > -INFINITY ? exp(s[p] - mx) : 0;
        const double ph = exp(s[holder] - mx) / z;
        *loss -= log(ph);
        *hit += ph;
        *floss -= log(d->room[holder] / fz);
        *fhit += d->room[holder] / fz;
        if (grad)
            for (int p = 0; p < NPLAYERS; p++)
                if (s[p] > -INFINITY)
                    dl[p][b] += exp(s[p] - mx) / z - (p == holder);
    }
    if (!grad)
        return;
    for (int p = 0, o = 0; p < NPLAYERS; p++) {
        for (int b = 0; b < EST_BINS; b++)
            grad[P_PRIOR(d->cls[p], b)] += dl[p][b];
        for (int e = 0; e < d->nev[p]; e++, o++)
            for (int b = 0; b < EST_BINS; b++)
                grad[P_EV(ev[o].bucket, est_rel(b, &ev[o]))] += dl[p][b];
    }
}

#define CHUNKS 32

typedef struct Job {
    const TData *t;
    const double *w;
    int want;      /* held flag of the decisions used */
    int with_grad;
    double *grad;  /* CHUNKS x NW */
    double loss[CHUNKS], hit[CHUNKS], floss[CHUNKS], fhit[CHUNKS];
    long cards[CHUNKS], decisions[CHUNKS];
    int next;
    pthread_mutex_t mu;
} Job;

static void *job_worker(void *arg)
{
    Job *j = arg;
    for (;;) {
        int c = workers_next(&j->mu, &j->next, CHUNKS);
        if (c < 0)
            break;
        long lo = j->t->n * c / CHUNKS, hi = j->t->n * (c + 1) / CHUNKS;
        double *g = j->with_grad ? j->grad + (size_t)c * NW : NULL;
        if (g)
            memset(g, 0, NW * sizeof *g);
        j->loss[c] = j->hit[c] = j->floss[c] = j->fhit[c] = 0;
        j->cards[c] = j->decisions[c] = 0;
        for (long i = lo; i < hi; i++) {
            const TDec *d = &j->t->d[i];
            if (d->held != j->want)
                continue;
            dec_grad(j->t, d, j->w, g, &j->loss[c], &j->hit[c], &j->floss[c], &j->fhit[c]);
            j->cards[c] += d->ncard;
            j->decisions[c]++;
        }
    }
    return NULL;
}

typedef struct Fit {
    const TData *t;
    int jobs;
    double *tmp;
    const EstTrainOpts *o;
} Fit;

/* Mean loss per card over the decisions with held == want; the gradient when grad != NULL. */
static double run(const TData *t, const double *w, int want, int jobs, double *grad, double *tmp, EstTrainEval *ev)
{
    Job j;
    memset(&j, 0, sizeof j);
    j.t = t;
    j.w = w;
    j.want = want;
    j.with_grad = grad != NULL;
    j.grad = tmp;
    pthread_mutex_init(&j.mu, NULL);
    workers_run(jobs, job_worker, &j, NULL);
    pthread_mutex_destroy(&j.mu);
    double loss = 0, hit = 0, floss = 0, fhit = 0;
    long cards = 0, decisions = 0;
    for (int c = 0; c < CHUNKS; c++) {
        loss += j.loss[c];
        hit += j.hit[c];
        floss += j.floss[c];
        fhit += j.fhit[c];
        cards += j.cards[c];
        decisions += j.decisions[c];
    }
    if (grad) {
        memset(grad, 0, NW * sizeof *grad);
        for (int c = 0; c < CHUNKS; c++)
            for (int i = 0; i < NW; i++)
                grad[i] += tmp[(size_t)c * NW + i];
        for (int i = 0; i < NW; i++)
            grad[i] /= cards > 0 ? (double)cards : 1.0;
    }
    if (ev) {
        ev->decisions = decisions;
        ev->cards = cards;
        ev->logloss = cards ? loss / cards : NAN;
        ev->hit = cards ? hit / cards : NAN;
        ev->flat_logloss = cards ? floss / cards : NAN;
        ev->flat_hit = cards ? fhit / cards : NAN;
    }
    return cards ? loss / cards : 0;
}

static double fit_lg(void *ctx, const double *w, double *grad)
{
    Fit *f = ctx;
    return run(f->t, w, 0, f->jobs, grad, f->tmp, NULL);
}

static void fit_every(void *ctx, int e, double loss)
{
    Fit *f = ctx;
    if (f->o->progress)
        f->o->progress(f->o->progress_ctx, e, f->o->epochs, loss);
}

void est_train_opts_default(EstTrainOpts *o)
{
    memset(o, 0, sizeof *o);
    o->epochs = 200;
    o->lr = 0.05;
    o->l2 = 1e-4;
    o->holdout = 0.1;
    o->seed = 1;
    o->jobs = 2;
}

int est_train(const EstTrainOpts *o, const GameSource *src, EstModel *m, EstTrainResult *r, char *err, size_t errsz)
{
    memset(r, 0, sizeof *r);
    memset(m, 0, sizeof *m);
    TData t;
    memset(&t, 0, sizeof t);
    t.seed = o->seed;
    t.holdout = o->holdout;
    t.max_games = o->max_games;
    int rc = -1;
    double *w = calloc(NW, sizeof *w), *tmp = malloc((size_t)CHUNKS * NW * sizeof *tmp);
    if (!w || !tmp) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    if (games_each(src, add_game, &t, err, errsz) < 0)
        goto done;
    r->games = t.games;
    r->held_games = t.held_games;
    if (t.n == 0) {
        snprintf(err, errsz, "no play decisions with hidden cards in the records");
        goto done;
    }
    Fit f = {&t, o->jobs, tmp, o};
    if (adam_fit(w, NW, o->epochs, o->lr, o->l2, fit_lg, &f, fit_every, &f)) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    run(&t, w, 0, o->jobs, NULL, tmp, &r->train);
    run(&t, w, 1, o->jobs, NULL, tmp, &r->held);
    to_model(w, m);
    rc = 0;
done:
    free(w);
    free(tmp);
    free(t.d);
    free(t.cards);
    free(t.ev);
    return rc;
}

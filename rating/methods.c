/* methods.c — the method table, the set-wise method (SE, SG, SG2, STS; paper 000 Procedures
 * 1-2) and the game-wise Elo of paper 002. Batch methods are in batch.c, mElo in melo.c.
 *
 * Set-wise: each set gives every pair of its five players a result by total points (a draw
 * counts as half a win). Averaged: each pair is rated with the inner two-player system from
 * the ratings before the set; each player's new rating is the mean of its four results (each
 * parameter averaged separately). A draw's result is the mean of the results after a win and
 * after a loss. Sequential: the ten pairs are applied one after another.
 */
#include "rating/methods.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rating/elo.h"
#include "rating/glicko.h"

/* One list gives both the table and the "valid: ..." text. */
#define METHOD_NAMES(X) X("se") X("sg") X("sg2") X("sts") X("elo-game") X("morita") X("bt") X("pl") X("melo")
#define NAME_ITEM(s) s,
#define NAME_JOIN(s) s ", "
static const char *const NAMES[M_COUNT] = {METHOD_NAMES(NAME_ITEM)};

const char *method_name(MethodId m) { return (unsigned)m < M_COUNT ? NAMES[m] : "?"; }

int method_parse(const char *name)
{
    for (int i = 0; i < M_COUNT; i++)
        if (!strcmp(name, NAMES[i]))
            return i;
    return -1;
}

const char *method_names(void) { return METHOD_NAMES(NAME_JOIN) "all"; }

int method_uses_games(MethodId m) { return m == M_ELO_GAME || m == M_MORITA; }

void rating_params_default(RatingParams *p)
{
    memset(p, 0, sizeof *p);
    p->init = 1500;
    p->elo_k = 10;
    p->elo_f = 400;
    p->glicko_rd = 350;
    p->glicko_c = 0;
    p->glicko_rd_max = 350;
    p->g2_rd = 350;
    p->g2_sigma = 0.06;
    p->g2_tau = 1.0;
    p->g2_eps = 1e-6;
    p->ts.mu0 = 1500;
    p->ts.sigma0 = 1500.0 / 3.0;
    p->ts.beta = 400;
    p->ts.tau = 5;
    p->ts.draw_prob = 0;
    p->game_k = 16;
    p->natural_log = 0;
    p->prior = 1.0;
    p->bootstrap = 200;
    p->confidence = 0.95;
    p->seed = 1;
    p->anchor = -1;
    p->anchor_value = 1500;
    p->melo_k = 1;
    p->melo_lr_r = 16;
    p->melo_lr_c = 1;
    p->melo_epochs = 1;
}

void method_result_free(MethodResult *r)
{
    free(r->rating);
    free(r->unc);
    free(r->lo);
    free(r->hi);
    free(r->aux);
    free(r->count);
    free(r->cov);
    free(r->boot);
    memset(r, 0, sizeof *r);
}

static int alloc_result(MethodResult *r, MethodId m, const RatingParams *p, int n, int aux_per_player)
{
    memset(r, 0, sizeof *r);
    r->id = m;
    r->n = n;
    r->p = *p;
    size_t sz = (size_t)(n > 0 ? n : 1);
    r->rating = malloc(sz * sizeof *r->rating);
    r->unc = malloc(sz * sizeof *r->unc);
    r->lo = malloc(sz * sizeof *r->lo);
    r->hi = malloc(sz * sizeof *r->hi);
    r->aux = calloc(sz * (size_t)(aux_per_player > 0 ? aux_per_player : 1), sizeof *r->aux);
    r->count = calloc(sz, sizeof *r->count);
    if (!r->rating || !r->unc || !r->lo || !r->hi || !r->aux || !r->count)
        return -1;
    for (int i = 0; i < n; i++)
        r->rating[i] = r->unc[i] = r->lo[i] = r->hi[i] = NAN;
    return 0;
}

/* ---- the inner two-player systems: one rating = (r, u, v) ---- */
typedef struct R3 {
    double r, u, v;
} R3;

/* New ratings of a and b after a scored s (0 or 1) against b. */
static void rate_pair(MethodId m, const RatingParams *p, R3 a, R3 b, double s, R3 *na, R3 *nb)
{
    *na = a;
    *nb = b;
    switch (m) {
    case M_SE:
        na->r = elo_update(a.r, b.r, s, p->elo_k, p->elo_f);
        nb->r = elo_update(b.r, a.r, 1 - s, p->elo_k, p->elo_f);
        break;
    case M_SG: {
        double sa = s, sb = 1 - s;
        glicko_update(a.r, a.u, 1, &b.r, &b.u, &sa, &na->r, &na->u);
        glicko_update(b.r, b.u, 1, &a.r, &a.u, &sb, &nb->r, &nb->u);
        break;
    }
    case M_SG2: {
        Glicko2 ga = {a.r, a.u, a.v}, gb = {b.r, b.u, b.v}, oa = ga, ob = gb;
        double sa = s, sb = 1 - s;
        glicko2_update(&ga, 1, &ob, &sa, p->g2_tau, p->g2_eps);
        glicko2_update(&gb, 1, &oa, &sb, p->g2_tau, p->g2_eps);
        *na = (R3){ga.r, ga.rd, ga.sigma};
        *nb = (R3){gb.r, gb.rd, gb.sigma};
        break;
    }
    case M_STS: {
        TsRating ta = {a.r, a.u}, tb = {b.r, b.u};
        if (s > 0.5)
            ts_rate_1v1(&p->ts, &ta, &tb, 0);
        else
            ts_rate_1v1(&p->ts, &tb, &ta, 0);
        *na = (R3){ta.mu, ta.sigma, 0};
        *nb = (R3){tb.mu, tb.sigma, 0};
        break;
    }
    default:
        break;
    }
}

/* A result s in {0, 1/2, 1}; a draw is the mean of the win and loss results. */
static void rate_result(MethodId m, const RatingParams *p, R3 a, R3 b, double s, R3 *na, R3 *nb)
{
    if (s != 0.5) {
        rate_pair(m, p, a, b, s, na, nb);
        return;
    }
    R3 wa, wb, la, lb;
    rate_pair(m, p, a, b, 1, &wa, &wb);
    rate_pair(m, p, a, b, 0, &la, &lb);
    *na = (R3){(wa.r + la.r) / 2, (wa.u + la.u) / 2, (wa.v + la.v) / 2};
    *nb = (R3){(wb.r + lb.r) / 2, (wb.u + lb.u) / 2, (wb.v + lb.v) / 2};
}

static R3 initial(MethodId m, const RatingParams *p)
{
    switch (m) {
    case M_SG:
        return (R3){p->init, p->glicko_rd, 0};
    case M_SG2:
        return (R3){p->init, p->g2_rd, p->g2_sigma};
    case M_STS:
        return (R3){p->ts.mu0, p->ts.sigma0, 0};
    default:
        return (R3){p->init, NAN, 0};
    }
}

static int setwise_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, RatingStepFn cb,
                       void *ctx)
{
    const int n = res->nplayers;
    R3 *cur = malloc((size_t)(n > 0 ? n : 1) * sizeof *cur);
    long *last = malloc((size_t)(n > 0 ? n : 1) * sizeof *last);
    if (!cur || !last) {
        free(cur);
        free(last);
        return -1;
    }
    for (int i = 0; i < n; i++)
        last[i] = -1;
    for (long k = 0; k < res->nsets; k++) {
        const RSet *s = &res->sets[k];
        R3 before[SET_PLAYERS], sum[SET_PLAYERS];
        for (int i = 0; i < SET_PLAYERS; i++) {
            int pl = s->player[i];
            if (last[pl] < 0)
                cur[pl] = initial(m, p);
            else if (m == M_SG && p->glicko_c > 0)
                cur[pl].u = glicko_grow(cur[pl].u, p->glicko_c, (double)(k - last[pl]), p->glicko_rd_max);
            last[pl] = k;
            before[i] = cur[pl];
            sum[i] = (R3){0, 0, 0};
        }
        for (int i = 0; i < SET_PLAYERS; i++)
            for (int j = i + 1; j < SET_PLAYERS; j++) {
                double sc = set_score(s->points[i], s->points[j]);
                R3 na, nb;
                if (p->sequential) {
                    rate_result(m, p, cur[s->player[i]], cur[s->player[j]], sc, &na, &nb);
                    cur[s->player[i]] = na;
                    cur[s->player[j]] = nb;
                } else {
                    rate_result(m, p, before[i], before[j], sc, &na, &nb);
                    sum[i] = (R3){sum[i].r + na.r, sum[i].u + na.u, sum[i].v + na.v};
                    sum[j] = (R3){sum[j].r + nb.r, sum[j].u + nb.u, sum[j].v + nb.v};
                }
            }
        for (int i = 0; i < SET_PLAYERS; i++) {
            int pl = s->player[i];
            if (!p->sequential)
                cur[pl] = (R3){sum[i].r / 4, sum[i].u / 4, sum[i].v / 4};
            out->rating[pl] = cur[pl].r;
            out->unc[pl] = cur[pl].u;
            out->aux[pl] = cur[pl].v;
            out->count[pl]++;
        }
        if (cb)
            cb(ctx, m, k, s->player, SET_PLAYERS, out);
    }
    free(cur);
    free(last);
    return 0;
}

static int gamewise_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, RatingStepFn cb,
                        void *ctx)
{
    for (long k = 0; k < res->ngames; k++) {
        const RGame *g = &res->games[k];
        double r[GAME_MAX_SEATS], nr[GAME_MAX_SEATS];
        for (int i = 0; i < g->n; i++)
            r[i] = out->count[g->player[i]] ? out->rating[g->player[i]] : p->init;
        morita_game(g->n, r, g->rank, m == M_MORITA ? g->p : NULL, p->game_k, p->natural_log, nr);
        for (int i = 0; i < g->n; i++) {
            out->rating[g->player[i]] = nr[i];
            out->count[g->player[i]]++;
        }
        if (cb)
            cb(ctx, m, k, g->player, g->n, out);
    }
    return 0;
}

int method_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, RatingStepFn cb, void *ctx,
               char *err, size_t errsz)
{
    int aux = m == M_MELO ? 2 * p->melo_k : 1;
    if (alloc_result(out, m, p, res->nplayers, aux)) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (method_uses_games(m) && res->ngames == 0) {
        snprintf(err, errsz, "method %s needs per-game results (a CSV with the header game,player,rank[,p])",
                 method_name(m));
        return -1;
    }
    if ((m <= M_STS || m == M_MELO) && res->nsets == 0) {
        snprintf(err, errsz, "method %s needs per-set results (a CSV with the header set,order,player,points)",
                 method_name(m));
        return -1;
    }
    switch (m) {
    case M_SE:
    case M_SG:
    case M_SG2:
    case M_STS:
        if (setwise_run(m, p, res, out, cb, ctx)) {
            snprintf(err, errsz, "out of memory");
            return -1;
        }
        return 0;
    case M_ELO_GAME:
    case M_MORITA:
        return gamewise_run(m, p, res, out, cb, ctx);
    case M_BT:
    case M_PL:
        return batch_run(m, p, res, out, err, errsz);
    case M_MELO:
        return melo_run(p, res, out, cb, ctx);
    default:
        snprintf(err, errsz, "unknown method");
        return -1;
    }
}

double method_win_prob(const MethodResult *r, int x, int y)
{
    const double rx = r->rating[x], ry = r->rating[y];
    switch (r->id) {
    case M_SE:
        return elo_expected(rx, ry, r->p.elo_f);
    case M_SG:
        return glicko_win_prob(rx, ry, r->unc[y]);
    case M_SG2:
        return glicko2_win_prob(rx, ry, r->unc[y]);
    case M_STS:
        return ts_win_prob(&r->p.ts, (TsRating){rx, r->unc[x]}, (TsRating){ry, r->unc[y]});
    case M_MELO:
        return melo_win_prob(r, x, y);
    default: /* elo-game, morita, bt, pl: Elo scale */
        return elo_expected(rx, ry, 400);
    }
}

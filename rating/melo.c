/* melo.c — multidimensional Elo, mElo_2k (Balduzzi, Tuyls, Perolat, Graepel, NeurIPS 2018).
 *
 * Each player has a rating r and a vector c of 2k numbers; Omega = sum over m of
 * (e_{2m-1} e_{2m}^T - e_{2m} e_{2m-1}^T) is antisymmetric, so the cyclic term c_i^T Omega c_j
 * flips sign with the pair and p(j beats i) = 1 - p(i beats j). On the Elo scale:
 *   p(i beats j) = 1 / (1 + 10^(-(r_i - r_j + c_i^T Omega c_j) / 400))
 * (melo_prob with scale 400/ln 10; scale 1 is the natural-logit form of the paper).
 * Online updates after a result S (1, 1/2, 0), with delta = S - p, both from the old values:
 *   r_i += lr_r delta, r_j -= lr_r delta, c_i += lr_c delta Omega c_j, c_j -= lr_c delta Omega c_i.
 * The c vectors start small and random (seeded): the cyclic part is unique only up to a
 * rotation, and results depend on the seed.
 */
#include <math.h>
#include <stdlib.h>

#include "rating/methods.h"

/* (Omega v) for a 2k-vector: pairs (v0, v1) -> (v1, -v0). */
static void omega(int k2, const double *v, double *out)
{
    for (int m = 0; m < k2; m += 2) {
        out[m] = v[m + 1];
        out[m + 1] = -v[m];
    }
}

static double cyclic(int k2, const double *ci, const double *cj)
{
    double oc[64], s = 0;
    omega(k2, cj, oc);
    for (int m = 0; m < k2; m++)
        s += ci[m] * oc[m];
    return s;
}

double melo_prob(int k2, double scale, double ra, double rb, const double *ca, const double *cb)
{
    return 1.0 / (1.0 + exp(-(ra - rb + cyclic(k2, ca, cb)) / scale));
}

double melo_update(int k2, double scale, double lr_r, double lr_c, double *ra, double *rb, double *ca, double *cb,
                   double score)
{
    double delta = score - melo_prob(k2, scale, *ra, *rb, ca, cb);
    double oa[64], ob[64];
    omega(k2, cb, oa); /* both from the old vectors */
    omega(k2, ca, ob);
    *ra += lr_r * delta;
    *rb -= lr_r * delta;
    for (int m = 0; m < k2; m++) {
        ca[m] += lr_c * delta * oa[m];
        cb[m] -= lr_c * delta * ob[m];
    }
    return delta;
}

double melo_win_prob(const MethodResult *r, int x, int y)
{
    int k2 = 2 * r->p.melo_k;
    return melo_prob(k2, MELO_ELO_SCALE, r->rating[x], r->rating[y], r->aux + (size_t)x * k2, r->aux + (size_t)y * k2);
}

int melo_run(const RatingParams *p, const Results *res, MethodResult *out, RatingStepFn cb, void *ctx)
{
    const int k2 = 2 * (p->melo_k < 1 ? 1 : p->melo_k > 32 ? 32 : p->melo_k);
    RRng rng = rrng_seed(p->seed ^ 0x6d656c6fULL);
    for (int i = 0; i < res->nplayers; i++)
        for (int m = 0; m < k2; m++)
            out->aux[(size_t)i * k2 + m] = 2 * rrng_double(&rng) - 1;
    for (int epoch = 0; epoch < (p->melo_epochs > 0 ? p->melo_epochs : 1); epoch++)
        for (long k = 0; k < res->nsets; k++) {
            const RSet *s = &res->sets[k];
            for (int i = 0; i < SET_PLAYERS; i++)
                if (isnan(out->rating[s->player[i]]))
                    out->rating[s->player[i]] = p->init;
            for (int i = 0; i < SET_PLAYERS; i++)
                for (int j = i + 1; j < SET_PLAYERS; j++) {
                    int a = s->player[i], b = s->player[j];
                    melo_update(k2, MELO_ELO_SCALE, p->melo_lr_r, p->melo_lr_c, &out->rating[a], &out->rating[b],
                                out->aux + (size_t)a * k2, out->aux + (size_t)b * k2,
                                set_score(s->points[i], s->points[j]));
                }
            if (epoch == 0)
                for (int i = 0; i < SET_PLAYERS; i++)
                    out->count[s->player[i]]++;
            if (cb)
                cb(ctx, M_MELO, k, s->player, SET_PLAYERS, out);
        }
    return 0;
}

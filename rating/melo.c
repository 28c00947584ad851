/* melo.c — multidimensional Elo (see melo.h). Online updates after a result S (1, 1/2, 0),
 * with delta = S - p, both from the old values:
 *   r_i += lr_r delta, r_j -= lr_r delta, c_i += lr_c delta Omega c_j, c_j -= lr_c delta Omega c_i.
 * The c vectors start small and random (seeded by name): the cyclic part is unique only up to
 * a rotation, and results depend on the seed. */
#include "rating/melo.h"

#include <math.h>
#include <string.h>

#include "rating/rrng.h"

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

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

void melo_fit(const MeloParams *p, const Results *res, double *rating, double *cvec, long *count,
              void (*step)(void *ctx, long k, const int *players, int np), void *ctx)
{
    const int k2 = 2 * (p->k < 1 ? 1 : p->k > 32 ? 32 : p->k);
    for (int i = 0; i < res->nplayers; i++) {
        RRng rng = rrng_seed(p->seed ^ 0x6d656c6fULL ^ name_hash(res->names[i]));
        for (int m = 0; m < k2; m++)
            cvec[(size_t)i * k2 + m] = 2 * rrng_double(&rng) - 1;
        rating[i] = NAN;
        count[i] = 0;
    }
    for (int epoch = 0; epoch < (p->epochs > 0 ? p->epochs : 1); epoch++)
        for (long k = 0; k < res->nsets; k++) {
            const RSet *s = &res->sets[k]; /* entries in name order (results_sort_sets) */
            for (int i = 0; i < SET_PLAYERS; i++)
                if (isnan(rating[s->player[i]]))
                    rating[s->player[i]] = p->init;
            for (int i = 0; i < SET_PLAYERS; i++)
                for (int j = i + 1; j < SET_PLAYERS; j++) {
                    int a = s->player[i], b = s->player[j];
                    double sc = s->points[i] > s->points[j] ? 1.0 : s->points[i] < s->points[j] ? 0.0 : 0.5;
                    melo_update(k2, MELO_ELO_SCALE, p->lr_r, p->lr_c, &rating[a], &rating[b], cvec + (size_t)a * k2,
                                cvec + (size_t)b * k2, sc);
                }
            if (epoch == 0)
                for (int i = 0; i < SET_PLAYERS; i++)
                    count[s->player[i]]++;
            if (step)
                step(ctx, k, s->player, SET_PLAYERS);
        }
}

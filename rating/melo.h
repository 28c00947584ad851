/* melo.h — multidimensional Elo, mElo_2k (Balduzzi, Tuyls, Perolat, Graepel, NeurIPS 2018),
 * on its own: rating/methods.c wraps it as the method `melo`; melo.c includes nothing of the
 * method layer.
 *
 * Each player has a rating r and a vector c of 2k numbers; Omega = sum over m of
 * (e_{2m-1} e_{2m}^T - e_{2m} e_{2m-1}^T) is antisymmetric, so the cyclic term c_i^T Omega c_j
 * flips sign with the pair and p(j beats i) = 1 - p(i beats j). On the Elo scale:
 *   p(i beats j) = 1 / (1 + 10^(-(r_i - r_j + c_i^T Omega c_j) / 400))
 * Results never depend on the order of the input rows: each player's starting vector is drawn
 * from a stream seeded by (seed, its name), and the pairs of a set are visited in name order
 * (results_sort_sets puts a set's entries in that order). */
#ifndef DHM_MELO_H
#define DHM_MELO_H

#include <stdint.h>

#include "rating/results.h"

#define MELO_ELO_SCALE 173.71779276130072 /* 400 / ln 10 */

typedef struct MeloParams {
    int k;              /* 2k cyclic dimensions, 1..32 */
    double lr_r, lr_c;  /* learning rates */
    int epochs;         /* passes over the sets */
    double init;        /* initial rating */
    uint64_t seed;
} MeloParams;

/* The win probability of a over b with logistic scale `scale` (k2 = 2k <= 64), and one online
 * update after a scored `score` (1, 1/2, 0) against b; returns delta = score - p. */
double melo_prob(int k2, double scale, double ra, double rb, const double *ca, const double *cb);
double melo_update(int k2, double scale, double lr_r, double lr_c, double *ra, double *rb, double *ca, double *cb,
                   double score);

/* Fits on the sets of res (sorted): rating[n] (NAN for players in no set), cvec[n * 2k],
 * count[n] sets per player; step(ctx, set index, its players) after each set (may be NULL). */
void melo_fit(const MeloParams *p, const Results *res, double *rating, double *cvec, long *count,
              void (*step)(void *ctx, long k, const int *players, int np), void *ctx);

#endif

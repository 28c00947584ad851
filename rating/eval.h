/* eval.h — evaluating ratings as paper 000 does: observed head-to-head results, the cross
 * table, the mean squared error between predicted and observed win rates, the transitivity
 * check (its eq. 2) and three-way cycles. H2H owns its matrices (h2h_free). */
#ifndef DHM_EVAL_H
#define DHM_EVAL_H

#include "rating/methods.h"

typedef struct H2H {
    int n;
    double *wins, *draws, *games; /* n x n: i's wins over j, draws, meetings */
    long *sets;                   /* per player: sets (or games) played */
} H2H;

/* Head-to-head results from the sets (by total points), or from the games when there are no
 * sets (by finishing rank). Returns 0 or -1 (out of memory). */
int h2h_build(const Results *res, H2H *h);
/* The same one set or game at a time (what h2h_build does for each): an empty table of n
 * players, one unit added, and the table resized to n players (the tallies of players below
 * both sizes kept; new players empty), for results whose players appear as they are read.
 * h2h_init and h2h_resize return 0 or -1 (out of memory; h2h_resize then leaves h as it was). */
int h2h_init(H2H *h, int n);
void h2h_add_set(H2H *h, const RSet *s);
void h2h_add_game(H2H *h, const RGame *g);
int h2h_resize(H2H *h, int n);
void h2h_free(H2H *h);
/* Observed win rate of i over j, a draw counting half; NAN if they never met. */
double h2h_rate(const H2H *h, int i, int j);
/* Overall head-to-head win rate of i (NAN if no meetings). */
double h2h_total_rate(const H2H *h, int i);

/* Mean over the pairs that met of (predicted - observed)^2; *pairs receives their count. */
double eval_mse(const H2H *h, const MethodResult *r, long *pairs);

typedef struct TransErr {
    int a, b, c;          /* W(a,c) predicted from W(a,b) and W(b,c) */
    double pred, obs;
} TransErr;
/* Every triple of distinct players where all three pairs met: the prediction of eq. 2 for
 * W(a,c) against the observed rate. Writes the `max` largest errors (by |pred - obs|) into
 * out, returns how many were written; *ntriples gets the count and *over60 how many are off
 * by 0.6 or more (paper 000: "60 points or more"). */
int eval_transitivity(const H2H *h, TransErr *out, int max, long *ntriples, long *over60);
/* Three-way cycles by head-to-head majority: a beats b, b beats c, c beats a (each listed
 * once). Returns how many were written (at most max); *total gets the full count. */
int eval_cycles(const H2H *h, int (*out)[3], int max, long *total);
/* Eq. 2: W(A,C) from W(A,B) and W(B,C) assuming transitivity. */
double eval_transitive_prediction(double wab, double wbc);

#endif

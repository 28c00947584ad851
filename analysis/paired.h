/* paired.h — duplicate rotation groups as paired units, and the sequential probability ratio
 * test on them.
 *
 * In a --duplicate run, a group is the five sets that play one deal sequence with the same five
 * players rotated through the seats, so every player meets every deal from every seat. The
 * group, not the set or the game, is the independent unit: for two players a and b of a group,
 * its point difference is (a's points - b's points) over the group's five sets, and its score
 * is the share of the group's games in which a finished above b. A group with a set that was
 * not played cleanly is left out whole.
 *
 * GSPRT (as fishtest tests engines on game pairs): under an Elo difference d, the expected
 * score of a unit is s(d) = 1 / (1 + 10^(-d/400)). The log-likelihood ratio of H1 (d = elo1)
 * against H0 (d = elo0) is that of the maximum-likelihood distributions of the observed unit
 * scores with means s(elo1) and s(elo0): for the empirical distribution p_k of the distinct
 * scores v_k, p_k(s) = p_k / (1 + lambda (v_k - s)) with lambda solving
 * sum p_k (v_k - s) / (1 + lambda (v_k - s)) = 0, and LLR = sum over units of
 * ln(p(s1) / p(s0)) at their scores. When s0 or s1 lies outside the range of the scores seen
 * (too few or too uniform units), the normal approximation
 * LLR = N (s1 - s0) (mean - (s0 + s1) / 2) / var is used instead. The test accepts H1 when
 * LLR >= ln((1 - beta) / alpha) and H0 when LLR <= ln(beta / (1 - alpha)).
 */
#ifndef DHM_PAIRED_H
#define DHM_PAIRED_H

#include <stddef.h>

#include "record/store.h"

/* One group's result for two players a and b (pool indices). */
typedef struct GroupPair {
    long group;
    double diff;  /* a's points - b's points over the group */
    double score; /* share of the group's games a finished above b */
    long games;
} GroupPair;

/* Every complete, clean group of a --duplicate store in which both a and b play, in group
 * order (malloc'd into *out). Returns 0 or -1 (err). *incomplete counts the groups left out. */
int paired_groups(Store *st, int a, int b, int include_broken, GroupPair **out, long *n, long *incomplete, char *err,
                  size_t errsz);

/* Mean, standard deviation and the two-sided interval at level conf (Student's t) of x[0..n). */
void paired_interval(const double *x, long n, double conf, double *mean, double *sd, double *lo, double *hi);

double sprt_score_of_elo(double elo);
double sprt_elo_of_score(double s);
/* The GSPRT log-likelihood ratio of n unit scores x for H1 (mean s1) against H0 (mean s0). */
double sprt_llr(const double *x, long n, double s0, double s1);
/* The bounds for error rates alpha (accepting H1 wrongly) and beta (accepting H0 wrongly). */
void sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif

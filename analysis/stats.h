/* stats.h — small statistics the experiments and paired analyses share: Student's t (via the
 * regularised incomplete beta function), Welch's two-sample test (two-sided and one-sided), and
 * the bootstrap interval of a ratio over resampled units. */
#ifndef DHM_STATS_H
#define DHM_STATS_H

#include <stdint.h>

/* The regularised incomplete beta function I_x(a, b). */
double incbeta(double a, double b, double x);
/* Student's t with df degrees of freedom: the two-sided p-value of |T| >= |t|. */
double student_t_p2(double t, double df);
/* Student's t: the one-sided p-value P(T >= t) (small when t is large and positive). */
double student_t_p1(double t, double df);
/* The t with P(|T| <= t) = conf (e.g. 0.95), df degrees of freedom (bisection on student_t_p2). */
double student_t_quantile(double conf, double df);
/* Welch's two-sample t-test: the two-sided p-value of equal means (NAN without two samples on
 * each side). */
double welch_p(double m1, double sd1, int n1, double m2, double sd2, int n2);
/* The one-sided Welch test of mean 1 > mean 2: P(T >= t) (paper 003's convention). */
double welch_p1(double m1, double sd1, int n1, double m2, double sd2, int n2);

/* The percentile interval at level conf of sum(num) / sum(den) over n units resampled with
 * replacement, reps replicates drawn from rng_seed(seed) (replicates whose den sums to 0 are
 * dropped). *lo and *hi are NAN with fewer than 2 units or 2 replicates. Returns -1 when out of
 * memory (bounds NAN), else 0. */
int stats_bootstrap_ratio(const double *num, const long *den, long n, int reps, double conf, uint64_t seed, double *lo,
                          double *hi);

#endif

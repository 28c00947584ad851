/* stats.h — small statistics the experiments and paired analyses share: Student's t (via the
 * regularised incomplete beta function) and Welch's two-sample test, two-sided and one-sided. */
#ifndef DHM_STATS_H
#define DHM_STATS_H

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

#endif

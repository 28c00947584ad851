/* gaussian.h — the standard normal distribution and the truncated-Gaussian corrections of
 * TrueSkill, written to stay finite for big upsets (spec/rating.md §0.4).
 *
 * C's <math.h> has erf/erfc but no scaled erfc and no inverse normal CDF; both are here:
 * erfcx(x) = exp(x^2) erfc(x) (a continued fraction for large x), and the inverse CDF by
 * Acklam's rational approximation refined by one Halley step against erfc.
 */
#ifndef DHM_GAUSSIAN_H
#define DHM_GAUSSIAN_H

double gauss_pdf(double t);          /* N(t) */
double gauss_cdf(double t);          /* Φ(t) = erfc(-t/√2)/2 */
double gauss_ppf(double p);          /* Φ^{-1}(p), 0 < p < 1 */
double gauss_erfcx(double x);        /* exp(x^2) erfc(x) */

/* TrueSkill's correction functions at scaled difference t and scaled margin a (>= 0). */
double ts_v_win(double t, double a); /* N(t-a)/Φ(t-a) */
double ts_w_win(double t, double a); /* v (v + t - a) */
double ts_v_draw(double t, double a);
double ts_w_draw(double t, double a);
/* Both at once (one evaluation of the Gaussian terms). */
void ts_vw_win(double t, double a, double *v, double *w);
void ts_vw_draw(double t, double a, double *v, double *w);

#endif

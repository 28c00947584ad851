/* glicko.h — Glicko (Glickman 1995) and Glicko-2 (Glickman 2013, revised 22 March 2022:
 * `<=` in step 5, plus an iteration cap). Formulas: spec/rating.md §2.2–2.3. Pure functions. */
#ifndef DHM_GLICKO_H
#define DHM_GLICKO_H

#define GLICKO2_SCALE 173.7178 /* the paper's 400/ln 10, as printed */

/* --- Glicko-1 --- */
double glicko_g(double rd);
double glicko_expected(double r, double rj, double rdj);
/* One rating period with m games against (rj, rdj) scoring s (1/0.5/0). m = 0 leaves r, rd. */
void glicko_update(double r, double rd, int m, const double *rj, const double *rdj, const double *s, double *r_out,
                   double *rd_out);
/* RD growth over t idle periods: min(sqrt(rd^2 + c^2 t), rd_max). */
double glicko_grow(double rd, double c, double t, double rd_max);
/* Predicted probability that x beats y (paper 000 eq. 6, on the 1500 scale). */
double glicko_win_prob(double rx, double ry, double rdy);

/* --- Glicko-2 (ratings on the 1500 scale in and out) --- */
typedef struct Glicko2 {
    double r, rd, sigma;
} Glicko2;

/* One rating period against m opponents. tau: system constant; eps: convergence tolerance
 * (1e-6); returns the number of iterations of the volatility search (capped at 100). m = 0
 * applies only step 6 (RD grows). */
int glicko2_update(Glicko2 *p, int m, const Glicko2 *opp, const double *s, double tau, double eps);
/* Predicted probability that x beats y (paper 000 eq. 8). */
double glicko2_win_prob(double rx, double ry, double rdy);

#endif

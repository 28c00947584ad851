/* trueskill.h — TrueSkill (Herbrich, Minka, Graepel 2006): two players or two teams in closed
 * form, and any number of teams with ties and partial-play weights by expectation propagation
 * on the factor graph (spec/rating.md §2.4). Uses the scaled v/w of gaussian.h, so big upsets
 * stay finite. The caller owns all arrays; ts_rate allocates its scratch and frees it. */
#ifndef DHM_TRUESKILL_H
#define DHM_TRUESKILL_H

typedef struct TsEnv {
    double mu0, sigma0, beta, tau, draw_prob;
} TsEnv;

typedef struct TsRating {
    double mu, sigma;
} TsRating;

/* mu0 = 25, sigma0 = 25/3, beta = sigma0/2, tau = sigma0/100, draw probability 0.1. */
void ts_env_default(TsEnv *e);

/* Draw margin for a comparison involving n players: Φ^{-1}((p+1)/2) sqrt(n) beta. */
double ts_draw_margin(const TsEnv *e, int n);

/* Two players: a beat b (drawn = 0) or they drew. Closed form, exact. */
void ts_rate_1v1(const TsEnv *e, TsRating *a, TsRating *b, int drawn);

/* nteams teams; team t has team_size[t] players, their ratings consecutive in `in`; weights
 * (partial play, NULL = all 1) likewise; ranks[t] lower = better, equal = tie. New ratings go
 * to `out` in the same order. Returns the number of EP sweeps (>= 1), or -1 when a tie needs
 * a draw probability > 0 or the input is invalid. */
int ts_rate(const TsEnv *e, int nteams, const int *team_size, const TsRating *in, const double *weights,
            const double *ranks, TsRating *out);

/* Match quality (the draw probability relative to a perfect match). */
double ts_quality(const TsEnv *e, int nteams, const int *team_size, const TsRating *in, const double *weights);

/* Probability that x beats y (paper 000 eq. 10). */
double ts_win_prob(const TsEnv *e, TsRating x, TsRating y);

#endif

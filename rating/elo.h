/* elo.h — Elo (K, F), and the game-wise multi-player Elo of Morita & Matsuzaki (paper 002),
 * optionally corrected for the initial hands (spec/rating.md §0.3, §2.1). Pure functions. */
#ifndef DHM_ELO_H
#define DHM_ELO_H

/* Expected score of a over b: 1/(1+10^((rb-ra)/F)). */
double elo_expected(double ra, double rb, double f);
/* New rating of a after scoring s (1, 1/2, 0) against b. */
double elo_update(double ra, double rb, double s, double k, double f);

/* Corrected expectation f_ab(p) = 1/(1+10^-((ra-rb)/400 + log(p/(1-p)))), log base 10 as the
 * formula and its worked examples require (f(0.5) = e, and f = p at equal ratings). With
 * natural_log set, log is ln: that is what reproduces the paper's virtual-game figures. */
double morita_expected(double ra, double rb, double p, int natural_log);

/* The pairwise initial-position win rate of a over b from per-player rates pa, pb:
 * logit(p_ab) = (logit pa - logit pb) / 2 (so p_ab = pa when pb = 1 - pa, 0.5 when equal). */
double morita_pair_p(double pa, double pb);

/* One game among n players: rank[i] (lower = better, ties allowed), and the initial-hand win
 * rates either pairwise, pij[i*n + j] = p_ij (dhm handstrength), or per player, p[i], with
 * p_ij = morita_pair_p(p[i], p[j]); both NULL = all 0.5, i.e. plain multi-player Elo. Writes
 * the new ratings to out (averaged method: R'_i = mean over j != i of R_i + K (s_ij - f_ij)). */
void morita_game(int n, const double *r, const double *rank, const double *p, const float *pij, double k,
                 int natural_log, double *out);

#endif

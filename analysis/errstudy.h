/* errstudy.h — paper 004 §5 on Daihinmin: how well a few games' error rate, mean rank and
 * mean points predict long-run strength R_p. Each player's judged games, in order, are cut into
 * chunks of n games (M_p chunks); for each chunk i the statistic x_pi (the error rate of its
 * decisions, the mean rank, the mean points) is set against R_p:
 *   r   = S_xy / (S_x S_y) over all chunks of all players (eq. 10), standard error (1 - r^2)/sqrt(M)
 *   R^2 = 1 - sum (R_p - f(x_pi))^2 / sum M_p (R_p - R_ave)^2 (eq. 11), f linear, fitted by least
 *         squares of R_p on the player's statistic over all its judged games (eqs. 12-13).
 * Pure arithmetic on the sequences it is given. */
#ifndef DHM_ERRSTUDY_H
#define DHM_ERRSTUDY_H

enum { ES_ERROR, ES_RANK, ES_POINTS, ES_MEASURES };

typedef struct EsPlayer {
    double strength;   /* R_p */
    long n;            /* games */
    const double *loss;  /* per game: summed loss of its judged decisions */
    const long *judged;  /* per game: decisions judged */
    const double *rank;  /* per game: rank (1 = daifugo) */
} EsPlayer;

typedef struct EsRow {
    int n;                       /* games per chunk */
    long chunks;                 /* M */
    double r[ES_MEASURES], se[ES_MEASURES], r2[ES_MEASURES];
} EsRow;

typedef struct EsFit {
    double slope[ES_MEASURES], intercept[ES_MEASURES]; /* f(x) = slope x + intercept */
} EsFit;

/* The linear fits of R_p on each measure over all of every player's games. */
void errstudy_fit(const EsPlayer *p, int np, EsFit *f);
/* One row of the tables for chunks of n games. */
void errstudy_row(const EsPlayer *p, int np, int n, const EsFit *f, EsRow *out);
/* The value of a measure over games [from, from + n) of a player. */
double errstudy_measure(const EsPlayer *p, int m, long from, long n);

#endif

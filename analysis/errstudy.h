/* errstudy.h — paper 004 §5 on Daihinmin: how well a few games' error rate, mean rank and
 * mean points predict long-run strength R_p. Each player's judged games, in order, are cut into
 * chunks of n games (M_p chunks); for each chunk i the statistic x_pi (the error rate of its
 * decisions, the mean rank, the mean points) is set against R_p:
 *   r   = S_xy / (S_x S_y) over all chunks of all players (eq. 10), standard error (1 - r^2)/sqrt(M)
 *   R^2 = 1 - sum (R_p - f(x_pi))^2 / sum M_p (R_p - R_ave)^2 (eq. 11), f linear, fitted by least
 *         squares of R_p on the player's statistic over all its judged games (eqs. 12-13).
 * Across seeds (independent replications of the whole study): the mean r of each row with a
 * Student-t interval over seeds, and the n-equivalence (the chunk length at which the error
 * rate's |r| reaches mean rank's |r| at the longest chunk) with a distribution-free interval for
 * its median. Pure arithmetic on the sequences it is given (errstudy_collect pairs the judged
 * players with their ratings). */
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

/* The smallest n at which the error rate's |r| reaches target, interpolated linearly in log2 n
 * between the rows around the crossing (rows ascend in n); INFINITY if no row reaches it. */
double errstudy_nequiv(const EsRow *rows, int nrows, double target);

/* Per row and measure over seeds: the mean r and a two-sided Student-t interval at `conf`
 * (NAN half-width with one seed). rows[s * nrows + k] is row k of seed s. */
typedef struct EsSummary {
    int n, seeds;
    double mean[ES_MEASURES], half[ES_MEASURES];
} EsSummary;
void errstudy_summary(const EsRow *rows, int nseeds, int nrows, double conf, EsSummary *out);

/* The median of v[0..n) (INFINITY allowed) and its distribution-free interval [min, max], whose
 * coverage of the population median is 1 - 2 (1/2)^n (returned). */
double errstudy_median_interval(const double *v, int n, double *median, double *lo, double *hi);

/* Pairs each judged player with its rating in one pass, so names[i] and ep[i] always describe
 * the same player: for each of the er_n judged players (er_names[i], its games' sequences),
 * rating(ctx, name) gives R_p (NAN: unrated, left out and listed in unrated[]). At most `judge`
 * games a player. Returns the number of rated players written to ep and names. */
struct ErrResult;
int errstudy_collect(const struct ErrResult *er, double (*rating)(void *ctx, const char *name), void *ctx, long judge,
                     EsPlayer *ep, const char **names, const char **unrated, int *nunrated);

#endif

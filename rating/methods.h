/* methods.h — every rating method behind one interface: run it on Results, read ratings and
 * uncertainties, and predict the probability that one player beats another.
 *
 *   se, sg, sg2, sts  the set-wise method of paper 000 with Elo, Glicko, Glicko-2, TrueSkill
 *                     inside (averaged or sequential), sets in start order
 *   elo-game, morita  game-wise multi-player Elo of paper 002, plain or hand-corrected
 *   bt, pl            batch Bradley-Terry on pairwise results and Plackett-Luce on finishing
 *                     orders (maximum likelihood by MM), bootstrap confidence intervals
 *   melo              multidimensional Elo (Balduzzi et al. 2018), rock-paper-scissors aware
 * The method table (method_info) says what each method needs and what its uncertainty is;
 * `--method all` and the input checks read it. A MethodResult owns its arrays
 * (method_result_free).
 */
#ifndef DHM_METHODS_H
#define DHM_METHODS_H

#include <stdint.h>

#include "rating/results.h"
#include "rating/rrng.h"
#include "rating/trueskill.h"

typedef enum { M_SE, M_SG, M_SG2, M_STS, M_ELO_GAME, M_MORITA, M_BT, M_PL, M_MELO, M_COUNT } MethodId;

/* What a method needs from the input. */
enum { NEED_SETS = 1, NEED_GAMES = 2, NEED_SETS_OR_GAMES = 3, NEED_P = 4 };

typedef struct MethodInfo {
    const char *name;
    int needs;          /* NEED_* */
    int setwise;        /* the set-wise procedure of paper 000 (averaged or sequential) */
    int streams;        /* rates one set or game at a time, from the ratings so far: it can rate
                         * results as they are read, in memory that grows with the players only
                         * (MethodStream); the others need every set or game at once */
    const char *what;   /* one line: what the method is */
    const char *unc;    /* short column label of MethodResult.unc, NULL when it has none */
    const char *unc_what; /* what that number is (its kind, and that it is not an interval) */
} MethodInfo;

const MethodInfo *method_info(MethodId m);

typedef struct RatingParams {
    int sequential;      /* set-wise: apply the four results one after another */
    double init;         /* initial rating (1500) */
    double elo_k, elo_f; /* SE: K = 10, F = 400 */
    double glicko_rd, glicko_c, glicko_rd_max; /* SG: RD 350, c = 0 (no growth), cap 350 */
    double g2_rd, g2_sigma, g2_tau, g2_eps;    /* SG2: phi 350, sigma 0.06, tau 1, eps 1e-6 */
    TsEnv ts;                                  /* STS: mu 1500, sigma 500, beta 400, tau 5, draw 0 */
    double game_k;       /* elo-game / morita: K = 16 */
    int natural_log;     /* morita: ln instead of log10 in the correction */
    double prior;        /* bt / pl: virtual draws per pair that met (keeps perfect scores finite) */
    int bootstrap;       /* bt / pl: bootstrap replicates (0 = none) */
    double confidence;   /* bt / pl: interval level (0.95) */
    uint64_t seed;       /* bootstrap and melo initialisation */
    int anchor;          /* bt / pl: player index pinned to anchor_value, -1 = pool mean = init */
    double anchor_value;
    int melo_k;          /* melo: 2k cyclic dimensions (k = 1) */
    double melo_lr_r, melo_lr_c; /* melo: learning rates (16, 1) */
    int melo_epochs;     /* melo: passes over the data (1) */
} RatingParams;

/* MethodResult.bound: whether the data bound a player's rating. Take the comparison graph
 * (x -> y when x ever scored against y, a draw counting) and its strongly connected groups:
 * a group that nobody outside it ever scored against can rise without limit (BOUND_ABOVE: a
 * perfect record against the others; only the prior or the update rule stops it), and a
 * group that never scored against anyone outside it can fall without limit (BOUND_BELOW). */
enum { BOUND_DATA = 0, BOUND_ABOVE = 1, BOUND_BELOW = 2 };

typedef struct MethodResult {
    MethodId id;
    int n;
    double *rating;   /* per player; NAN for players the method never saw */
    double *unc;      /* see method_info(id)->unc_what; NAN if none */
    double *lo, *hi;  /* confidence interval (bt, pl: bootstrap percentile), else NAN */
    int8_t *bound;    /* per player: BOUND_* (computed for up to 2048 players, else all 0) */
    int unbounded;    /* how many players are not BOUND_DATA */
    int robust;       /* bt: unc and LOS are cluster-robust (observations of > 2 players) */
    double *aux;      /* sg2: volatility; melo: the 2k-vector per player */
    long *count;      /* sets or games rated */
    double *cov;      /* bt: covariance of ratings (n x n, Elo units^2), else NULL */
    double *boot;     /* bt, pl: bootstrap replicate ratings (nboot x n), else NULL */
    int nboot;
    RatingParams p;
} MethodResult;

/* Called after each set or game with the players it touched. */
typedef void (*RatingStepFn)(void *ctx, MethodId m, long step, const int *players, int np, const MethodResult *cur);

void rating_params_default(RatingParams *p);
const char *method_name(MethodId m);
int method_parse(const char *name); /* -1 if unknown */
const char *method_names(void);     /* "se, sg, ..." */
int method_uses_games(MethodId m);  /* elo-game and morita need per-game rows */
/* Whether the input has what method m needs (sets, games, initial-hand win rates); when not,
 * a one-line reason goes to why. */
int method_applies(MethodId m, const Results *res, char *why, size_t whysz);

/* Runs a method. Sets must be sorted (results_sort_sets). Returns 0, or -1 with err. */
int method_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, RatingStepFn cb, void *ctx,
               char *err, size_t errsz);
void method_result_free(MethodResult *r);

/* A method that streams (method_info(m)->streams: se, sg, sg2, sts, elo-game, morita) fed one
 * set or game at a time, e.g. while the results are still being read. Fed the sets of res in
 * their sorted order (results_sort_sets, entries in name order: results_sort_entries) and its
 * games in order, method_stream_end gives exactly method_run's result (method_run runs these
 * methods this way). Players may be added between calls (nplayers: how many there are now).
 * A set-wise method ignores games and a game-wise one sets. method_stream_begin returns NULL
 * for other methods or without memory; set and game return -1 without memory (the stream is
 * then unusable); method_stream_end and method_stream_abandon free r. */
typedef struct MethodStream MethodStream;
struct H2H;
MethodStream *method_stream_begin(MethodId m, const RatingParams *p, int nplayers);
int method_stream_set(MethodStream *r, int nplayers, const RSet *s, RatingStepFn cb, void *ctx);
/* pair: the game's pairwise initial-hand win rates (RGame.pair's numbers), or NULL */
int method_stream_game(MethodStream *r, int nplayers, const RGame *g, const float *pair, RatingStepFn cb, void *ctx);
/* The result; its bounds (MethodResult.bound) from h, the head-to-head table of the units the
 * method rated (sets for a set-wise method, games for a game-wise one; eval.h). Checks that the
 * method applies to res (method_applies) and that res counts what was fed. Returns 0, or -1
 * with err. */
int method_stream_end(MethodStream *r, const Results *res, const struct H2H *h, MethodResult *out, char *err,
                      size_t errsz);
void method_stream_abandon(MethodStream *r);
/* Predicted probability that x beats y (paper 000 eqs. 3/6/8/10 and equivalents); always
 * method_win_prob(r, x, y) + method_win_prob(r, y, x) = 1. SG and SG2 use the combined
 * deviation sqrt(RD_x^2 + RD_y^2) in g() (Glickman's expected outcome of a game between two
 * rated players), not eq. 6's RD of the second player alone, which depends on argument order. */
double method_win_prob(const MethodResult *r, int x, int y);
/* Likelihood of superiority (x stronger than y): from the covariance (bt) or the bootstrap
 * replicates (pl); NAN when the method has neither. */
double method_los(const MethodResult *r, int x, int y);

/* Pairwise results of a set: score of a (1 win, 0.5 draw, 0 loss) against b by total points. */
static inline double set_score(double pa, double pb) { return pa > pb ? 1.0 : pa < pb ? 0.0 : 0.5; }

/* Implemented in batch.c; called by method_run. */
int batch_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, char *err, size_t errsz);

#endif

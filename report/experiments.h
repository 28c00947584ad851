/* experiments.h — printing the papers' experiments (dhm experiment ...): each result is
 * computed by analysis/ and handed here once, as a table for people or as CSV/JSON for
 * programs. */
#ifndef DHM_REPORT_EXPERIMENTS_H
#define DHM_REPORT_EXPERIMENTS_H

#include <stdio.h>

#include "analysis/mc_experiments.h"
#include "analysis/virtual_game.h"

/* The run an MC experiment's matches share, for its header line. */
typedef struct ExpHeader {
    const ExpConfig *cfg;
    double secs;
} ExpHeader;

void report_exp_describe(FILE *o, const ExpHeader *h);

void report_bandits(FILE *o, const BanditsResult *r, const ExpHeader *h, int csv);
/* choice: the choice player's spec as played; the opponents and checkpoints as given. */
void report_choice(FILE *o, const ChoiceResult *r, const char *spec, const char *const *opp, int nopp, const int *check,
                   int ncheck, const ExpHeader *h, int csv);
void report_desa(FILE *o, const DesaRow r[EXP_NDESA], const char *base, const char *others, const ExpHeader *h, int csv);
/* ninja (paper 001 Tables 2-3): the specs as played; the paper's figures are printed beside
 * the checkpoints it has (3000, 5000, 8000, 10000, 13000, 15000 games). */
void report_ninja(FILE *o, const NinjaRow *rows, int n, const char *ninja, const char *base, const char *others,
                  const ExpHeader *h, int csv);
/* dealing-order (oracle = 0) or oracle rows; base: the base spec as played. */
void report_est_rows(FILE *o, const EstRow *rows, int n, int oracle, const char *base, const ExpHeader *h, int csv);

/* ---- the error-rate study (paper 004 §5): per seed, the players, fits and r / R^2 rows;
 * across seeds, the summary and the n-equivalence; the evaluator's margin ---- */

#include "analysis/errstudy.h"
#include "analysis/judge_player.h"

#define ES_MAX_ROWS 16

typedef struct ErrStudySeed {
    uint64_t seed;
    int np;                      /* rated judged players */
    const char **names;          /* names[i] is the player of ep[i] */
    EsPlayer *ep;
    EsFit fit;
    EsRow rows[ES_MAX_ROWS];
    int nrows;
    long judged_sets, strength_sets, heldout_min, heldout_max; /* held-out games per player: min, max */
    const char **unrated;        /* judged but without held-out games */
    int nunrated;
    double target, nequiv;       /* mean rank's |r| at the longest chunk; the error rate's n reaching it */
} ErrStudySeed;

typedef struct ErrStudyReport {
    int nseeds;
    const ErrStudySeed *s;
    int pool_n;
    const char *pool_name;
    long set_games, gpp, judge;
    const char *evaluator;
    long worlds;
    const JudgeMargin *margin;   /* NULL: not measured */
    const char *margin_opp;      /* the player the margin was measured against */
    double margin_opp_rp;        /* its R_p at the first seed (NAN: unrated) */
    const char *strongest;       /* the strongest judged player by R_p at the first seed */
    const EsSummary *sum;        /* nrows rows over the seeds */
    int nrows;
    double neq_median, neq_lo, neq_hi, neq_cover;
} ErrStudyReport;

void report_errstudy(FILE *o, const ErrStudyReport *r, int csv);

/* ---- the rating study (paper 000): Table 3 ---- */

void report_rating_study(FILE *o, int players, long sets, long set_games, uint64_t seed, const char *const *methods,
                         const double *mse_avg, const double *mse_seq, int n, long pairs, int csv);

/* ---- the hand-corrected Elo study (paper 002 §5) ---- */

typedef struct MoritaHeader {
    int players;
    long sets, set_games;
    uint64_t seed;
    long playouts;
    const char *playout;      /* the playout policy, described */
    double brier;             /* of p_ij for the pairs' real order */
    double secs_games, secs_hands, ms_cpu_per_game;
} MoritaHeader;
void report_morita_header(FILE *o, const MoritaHeader *h, int csv);

typedef struct HeldoutRow {
    const char *name, *key;
    long games;
    double logloss, logloss_se, brier, brier_se;
} HeldoutRow;
/* The held-out prediction table: test games, training games, the held-out share. */
void report_heldout(FILE *o, const HeldoutRow *rows, int n, long test, long train, double hold, int csv);

/* ---- the virtual game (paper 002 §4) ---- */

typedef struct VgRow {
    int natural, dist, method;
    double median, q1, q3, paper;
    int reproduced;       /* within VG_REPRODUCED points of the paper's figure */
} VgRow;
#define VG_REPRODUCED 10.0 /* points from the paper's figure still counted as reproduced */

/* The quartile row of one sample of final ratings (sorted here). */
VgRow report_vg_row(int natural, int dist, int method, double *fin, int n);
void report_vg(FILE *o, const VgConfig *cfg, const VgRow *rows, int nrows, int json);
/* 5-point bins of a sorted sample, as CSV rows log,dist,method,bin_low,bin_high,count. */
void report_vg_hist(FILE *f, const VgRow *row, const double *sorted, int n);

#endif

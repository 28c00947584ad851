/* mc_experiments.h — paper 001's experiments with the Monte Carlo players: which root bandit
 * (Table 1 / Fig. 2), what the choice bandit learns to use (Figs. 3–5), and DESA against its
 * own base (Tables 4–5). The designs and how ours differ are in docs/players.md.
 *
 * Every match is a MatchJob (analysis/runner.h) whose seed is derived from (seed, experiment
 * cell, match index), so results depend only on the options, never on --jobs or timing
 * (unless a player uses a time budget, ms=).
 */
#ifndef DHM_MC_EXPERIMENTS_H
#define DHM_MC_EXPERIMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "game/match.h"
#include "analysis/stats.h"
#include "players/mc.h"

typedef struct ExpConfig {
    int matches;         /* per cell (combination, opponent, DESA variant) */
    MatchConfig match;   /* games per match, seat change, class reset; its seed seeds the run */
    long sims;           /* given to every mc spec that sets neither sims nor ms */
    const char *mc_opts; /* more ":key=value" for those specs ("" or NULL: none) */
    int jobs;
    void (*progress)(void *ctx, long games_done, long games_total); /* may be NULL */
    void *progress_ctx;
} ExpConfig;

void exp_config_default(ExpConfig *c);

/* The spec a player gets in an experiment: spec, plus ":sims=N" when spec is an mc player
 * that sets neither sims nor ms, plus ":" mc_opts for mc players. Returns -1 if it does not
 * fit in n bytes. */
int exp_spec(char *out, size_t n, const char *spec, const ExpConfig *c);

/* ---- bandits: the six single-bandit players, five at a time (paper 001 Table 1). Combination
 * No.j (1..6) leaves out bandit 6 - j of EXP_BANDITS (No.1 has no UCB2, No.6 no UCB-root). */
#define EXP_NBANDIT 6
extern const char *const EXP_BANDITS[EXP_NBANDIT]; /* ucb-root ucb1-tuned thompson ucb-v kl-ucb ucb2 */

typedef struct BanditsResult {
    int first[EXP_NBANDIT][EXP_NBANDIT]; /* [combination][bandit]: matches won (shared firsts count for each) */
    int shared[EXP_NBANDIT];             /* matches of the combination whose first place was shared */
    double points[EXP_NBANDIT][EXP_NBANDIT]; /* mean points per match; -1 where left out */
} BanditsResult;

int exp_bandits(const ExpConfig *c, BanditsResult *out, char *err, size_t errsz);

/* ---- choice: mc:bandit=choice against four copies of each opponent; the inner bandits'
 * usage rate (games that used it / games so far) at each checkpoint, averaged over matches. */
#define EXP_MAX_OPP 16
#define EXP_MAX_CHECK 32

typedef struct ChoiceResult {
    double usage[EXP_MAX_OPP][EXP_MAX_CHECK][MC_CHOICE_ARMS];
    double usage_sd[EXP_MAX_OPP][EXP_MAX_CHECK][MC_CHOICE_ARMS]; /* across matches */
    double choice_ppg[EXP_MAX_OPP], opp_ppg[EXP_MAX_OPP];        /* mean points per game */
    int choice_first[EXP_MAX_OPP];                               /* matches the choice player won */
} ChoiceResult;

/* choice: the choice player's spec (e.g. "mc:bandit=choice"); checkpoints ascending, each
 * <= c->games. */
int exp_choice(const ExpConfig *c, const char *choice, const char *const *opp, int nopp, const int *checkpoints,
               int ncheck, ChoiceResult *out, char *err, size_t errsz);

/* ---- desa: per variant (sim, last, both), the DESA player (base + ":desa=V"), its base and
 * three other players (paper 001 §7.2: Sinobi, Blauwereggen and three MC programs). */
#define EXP_NDESA 3
extern const char *const EXP_DESA_VARIANTS[EXP_NDESA]; /* sim last both */

typedef struct DesaRow {
    int matches;
    int wins, ties;           /* matches where the DESA player's total beat / equalled its base's */
    int desa_first, base_first;
    double desa_points, base_points; /* mean points per match */
    double p_value;           /* two-sided sign test of wins vs losses against the base */
} DesaRow;

int exp_desa(const ExpConfig *c, const char *base, const char *const others[3], const int matches[EXP_NDESA],
             DesaRow out[EXP_NDESA], char *err, size_t errsz);

/* ---- ninja: paper 001 §6.4, Tables 2-3. Each match seats the choice-bandit player (Ninja),
 * its base (Blauwereggen: one bandit, the same search) and three others drawn at random from a
 * list (the paper drew three of eleven UECda champions); at each checkpoint the matches Ninja
 * leads its base, the first places of each, and the mean points. */
#define EXP_MAX_OTHERS 32

typedef struct NinjaRow {
    int games;                       /* the checkpoint */
    int matches, wins, ties;         /* matches where Ninja's total is above / equal to the base's */
    int ninja_first, base_first;     /* first places (shared ones count for each) */
    double ninja_points, base_points; /* mean points per match so far */
    double diff_se;                  /* standard error over matches of Ninja's points minus the base's */
    double sign_p;                   /* two-sided exact sign test of wins against losses */
    double t_p;                      /* two-sided paired t-test of the point difference */
    double usage[MC_CHOICE_ARMS];    /* Ninja's inner bandits: games that used each / games so far */
} NinjaRow;

int exp_ninja(const ExpConfig *c, const char *ninja, const char *base, const char *const *others, int nothers,
              const int *checkpoints, int ncheck, NinjaRow *out, char *err, size_t errsz);

/* Two-sided exact binomial (sign) test: P(|X - n/2| >= |k - n/2|) for X ~ Bin(n, 1/2). */
double sign_test(int k, int n);

/* ---- paper 003: opponent-hand estimation. One evaluated player (base + its sampler + acc=1),
 * three base players with snowl's estimator (base:est=weights:order=suit-a) and one without
 * estimation (base:est=uniform); m matches per row. */
typedef struct EstRow {
    char label[48];
    double p;               /* oracle rows: the base accuracy ratio */
    int matches;
    double mean, sd;        /* the evaluated player's points per match: mean, SD across matches */
    double accuracy;        /* of its sampled worlds, over the whole row */
    double cls[NPLAYERS];   /* share of its games in each class (0 = daifugo) */
    double p_value;         /* Welch t-test of the points per match against the reference row, two-sided (NAN: none) */
    double p_one;           /* the same, one-sided as paper 003 reports: dealing orders H1 Random > row,
                             * oracle H1 row > p = 0 */
} EstRow;

/* Table 1: the five dealing orders of est=weights; reference row: random. */
int exp_dealing_order(const ExpConfig *c, const char *base, EstRow out[5], char *err, size_t errsz);
/* Tables 2-3: p = 0 and 1 once (every method is the same there), then the four methods at
 * p = step, 2 step, ... < 1; reference row: p = 0. *n gets the number of rows (out must hold
 * 2 + 4 * (100 / step_pct - 1)). */
int exp_oracle(const ExpConfig *c, const char *base, int step_pct, EstRow *out, int *n, char *err, size_t errsz);


#endif

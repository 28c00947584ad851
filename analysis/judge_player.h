/* judge_player.h — the error-rate evaluator as a player: at every decision it values each
 * legal choice exactly as `dhm errorrate` judges one (analysis/judge.h's judge_best: every
 * choice in the same `worlds` sampled worlds, paired) and plays the best. Its strength is the
 * strength of the judge, so an experiment can measure how much stronger the evaluator is than
 * the players it judges (judge_margin). The player owns the mc player it wraps. */
#ifndef DHM_JUDGE_PLAYER_H
#define DHM_JUDGE_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "game/player.h"

/* evaluator: an mc spec (as dhm errorrate --evaluator); worlds: paired worlds per choice.
 * Returns 0, or -1 with a one-line reason. Free with player_destroy. */
int judge_player_create(const char *evaluator, int worlds, uint64_t seed, Player **out, char *err, size_t errsz);

typedef struct JudgeMargin {
    int matches;
    long games;                /* per match */
    double ppg, se;            /* the judge's points per game; se: standard error over matches */
    double opp_ppg;            /* the four opponents' mean points per game */
    double p_one;              /* one-sided t-test (df = matches - 1) of ppg > 3 (par) */
} JudgeMargin;

/* The judge (seat 0) against four copies of `opponent`, `matches` matches of `games` games,
 * seeds derived from seed; progress as run_matches. Returns 0, or -1 with a reason. */
int judge_margin(const char *evaluator, int worlds, const char *opponent, int matches, int games, uint64_t seed,
                 int jobs, void (*progress)(void *ctx, long done, long total), void *ctx, JudgeMargin *out, char *err,
                 size_t errsz);

#endif

/* runner.h — independent matches in worker threads, for the experiments. Each job names its
 * five player specs and its match configuration (seed included); results go back into the
 * job, so they never depend on the number of threads. An optional per-game callback sees the
 * job's players (e.g. to read the choice bandit's usage at checkpoints). */
#ifndef DHM_RUNNER_H
#define DHM_RUNNER_H

#include "game/match.h"

typedef struct MatchJob MatchJob;
typedef void (*JobGameFn)(MatchJob *job, const GameRecord *rec, const MatchResult *sofar, Player *const pl[NPLAYERS]);
/* Makes the player of one seat (instead of player_create(job->spec[seat], ...)); 0 or -1 with err. */
typedef int (*JobCreateFn)(MatchJob *job, int seat, uint64_t seed, Player **out, char *err, size_t errsz);

struct MatchJob {
    char spec[NPLAYERS][128];
    MatchConfig cfg;
    JobGameFn on_game; /* may be NULL */
    JobCreateFn create; /* may be NULL: every seat from its spec */
    void *ctx;         /* for on_game and create */
    MatchResult res;
    int failed;
    char err[256];
};

/* Runs the jobs with `threads` workers; progress(ctx, games_done, games_total) is called from
 * the calling thread five times a second (may be NULL). Returns 0, or -1 if any job failed
 * (its err says why). */
int run_matches(MatchJob *jobs, int n, int threads, void (*progress)(void *ctx, long done, long total), void *ctx);

/* The first place of a match: the player(s) with the highest total (ties share it). */
int match_winners(const MatchResult *r, int winners[NPLAYERS]);

#endif

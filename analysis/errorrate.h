/* errorrate.h — the error rate of paper 004 (eq. 7) for Daihinmin: for every decision of a
 * judged player with at least two legal choices (plays, and the gifts of the rich), the value
 * Q(s, a) of every legal choice a is estimated from the decision maker's information set only,
 * by an evaluator (an mc player) that simulates every choice in the same sampled worlds with
 * the same playout streams (paired, so differences are precise); loss = max Q - Q(chosen);
 * a player's error rate is its mean loss. Q is in reward units: the evaluator's reward mapping,
 * by default (4 - class) / 4, so a loss of 0.25 is one class, and 4 x the error rate is in
 * points per decision.
 * Deterministic for the seed (each decision's worlds come from (seed, game, ply)), whatever
 * the number of threads. ErrResult owns its memory (errorrate_free).
 */
#ifndef DHM_ERRORRATE_H
#define DHM_ERRORRATE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/games.h"

#define ERR_NAME 64

typedef struct ErrConfig {
    const char *evaluator;   /* an mc spec */
    int worlds;              /* worlds per decision (100) */
    uint64_t seed;
    int jobs;
    const char *const *judge; /* names to judge; njudge = 0: everyone */
    int njudge;
    int marks;               /* how many of the costliest decisions to keep (0) */
    long max_games;          /* judge only the source's first games (0 = all) */
    int bootstrap;           /* replicates for the intervals (1000) */
    double confidence;       /* 0.95 */
    /* from the calling thread, now and then: games judged so far of total */
    void (*progress)(void *ctx, long done, long total);
    void *progress_ctx;
} ErrConfig;

typedef struct ErrMark {
    long game;               /* index of the game in the source */
    int number, ply;         /* the game's number in its record, the play's index (-1: a gift) */
    char player[ERR_NAME];
    Cards hand;
    Move table;
    int rev, lock;
    int exchange;
    Move chosen, best;       /* plays */
    Cards gchosen, gbest;    /* gifts */
    double loss;
} ErrMark;

typedef struct ErrPlayer {
    char name[ERR_NAME];
    long games, judged, skipped; /* games played; decisions judged (>= 2 choices); with one choice */
    double loss;                 /* sum of losses */
    double rate, lo, hi;         /* error rate and its bootstrap interval (over games) */
    double mean_rank, mean_points; /* over its games (rank 1 = daifugo) */
    double *game_loss;           /* per game of the player, in order: loss sum, decisions judged, rank */
    long *game_judged;
    double *game_rank;
    long ngame, capgame;
    double rank_sum, points_sum;
} ErrPlayer;

typedef struct ErrResult {
    int n;
    ErrPlayer *p;
    ErrMark *marks;
    int nmarks;
    long games, judged, skipped;
    int worlds;
} ErrResult;

/* Judges every game of the source. Returns 0, or -1 with a one-line reason. */
int errorrate_run(const ErrConfig *c, const GameSource *src, ErrResult *out, char *err, size_t errsz);
void errorrate_free(ErrResult *r);

/* The losses of one game's decisions by player number (for tests): loss[p] sums, judged[p]
 * counts, skipped[p]; evaluator is an mc player. Returns 0 or -1. */
int errorrate_game(Player *evaluator, const GameRecord *rec, long index, uint64_t seed, int worlds, double loss[NPLAYERS],
                   long judged[NPLAYERS], long skipped[NPLAYERS]);

#endif

/* handstrength.h — the initial-hand win rate of paper 002 §5: with every hand open after the
 * exchange, K playouts of the game from its first play, every player moved by the same playout
 * policy; p_ij = the share of playouts in which player i finished above player j. A playout
 * always ends with a full finishing order, so p_ij + p_ji = 1 exactly.
 * The counts are what is kept (HandWins): p_ij = w[i][j] / playouts. Deterministic for the
 * seed given per game.
 */
#ifndef DHM_HANDSTRENGTH_H
#define DHM_HANDSTRENGTH_H

#include <stdint.h>

#include "game/game.h"
#include "players/policy.h"

enum { HAND_SIMPLE, HAND_RANDOM, HAND_POLICY };

typedef struct HandConfig {
    int playouts;              /* K (10,000) */
    int policy;                /* HAND_SIMPLE (the simple choice, random with probability eps),
                                * HAND_RANDOM (uniform legal moves), HAND_POLICY (the learned policy) */
    double eps;                /* HAND_SIMPLE: 0.1 */
    double temp;               /* HAND_POLICY: softmax temperature (1) */
    const PolicyWeights *w;    /* HAND_POLICY */
} HandConfig;

/* The pairs i < j of player numbers in a fixed order: pair k = (HAND_PAIR_I[k], HAND_PAIR_J[k]). */
#define HAND_PAIRS 10
extern const uint8_t HAND_PAIR_I[HAND_PAIRS], HAND_PAIR_J[HAND_PAIRS];

/* w[k]: playouts in which HAND_PAIR_I[k] finished above HAND_PAIR_J[k]. */
typedef struct HandWins {
    uint32_t w[HAND_PAIRS];
} HandWins;

/* The name of a playout policy ("simple", "random", "policy"), and back (-1 if unknown). */
const char *hand_policy_name(int policy);
int hand_policy_parse(const char *s);
/* A one-line description of the settings, stored with the counts ("simple eps=0.1"). */
void hand_describe(const HandConfig *c, char *buf, size_t size);

/* Plays c->playouts games from hands (after the exchange), seats and first player. */
void hand_wins_from(const HandConfig *c, const Cards hand[NPLAYERS], const uint8_t seat[NPLAYERS], int first,
                    uint64_t seed, HandWins *out);
/* The same for a recorded game (rec->original, rec->seat, rec->first). */
void hand_wins(const HandConfig *c, const GameRecord *rec, uint64_t seed, HandWins *out);

/* The seed of game g of set `set` in a run with seed `seed` (what dhm handstrength uses). */
uint64_t hand_seed(uint64_t seed, long set, int game);

/* p[i*5 + j] = p_ij (diagonal 0.5) from the counts: (w + 1/2) / (K + 1), the share with half a
 * playout added to each side, so that p is never exactly 0 or 1 (the hand correction takes
 * log(p / (1 - p))) and p_ij + p_ji = 1 still. */
void hand_matrix(const HandWins *hw, int playouts, double p[NPLAYERS * NPLAYERS]);


/* ---- over a tournament store (dhm handstrength --db) ---- */

#include "record/store.h"

typedef struct HandRun {
    HandConfig hc;
    uint64_t seed;
    int jobs;
    int include_broken;  /* also sets not played cleanly */
    long limit;          /* compute at most this many sets now (0 = all) */
    /* from the calling thread, now and then: sets done of total, games done */
    void (*progress)(void *ctx, long done, long total, long games);
    void *progress_ctx;
    const volatile int *stop; /* may be NULL: stop after the sets in progress */
} HandRun;

typedef struct HandRunOut {
    long sets_cached, sets_done, sets_todo; /* already stored; computed now; still missing */
    long games_done;
    double cpu_s;                          /* thread CPU time of the playouts */
} HandRunOut;

/* Computes and stores the rates of every set (clean ones unless include_broken) that has
 * records and no rates yet; each set is written in its own transaction, so an interrupted run
 * resumes where it stopped. Rates already stored with other settings are an error (clear them
 * first: store_hand_p_clear). Returns 0 or -1 with a one-line reason. */
int hand_run_store(Store *st, const HandRun *c, HandRunOut *out, char *err, size_t errsz);

/* The rates of every game of a stored set, read into a reusable buffer (zeroed at first):
 * p[g * 25 + i * 5 + j] = p_ij of game g (hand_matrix). Returns 1 when the set has rates, 0
 * when it has none, -1 when its row does not fit the set or memory ran out (err says). */
typedef struct HandSetP {
    double *p;
    uint32_t *wins;
    long cap; /* games the buffers hold */
    int playouts;
} HandSetP;
int hand_set_p(Store *st, const StoredSet *x, HandSetP *b, char *err, size_t errsz);
void hand_set_p_free(HandSetP *b);

/* What the stored rates say, over the sets that have them (clean ones unless include_broken):
 * each player's mean p (over its games and opponents: about 0.5 when deals are fair), the
 * mean p of the class each player reached, and how well p_ij forecast the real order of each
 * pair of players (calibration in ten bins of p_ij; Brier score against the 0.25 of a coin). */
#define HAND_BINS 10
typedef struct HandSummary {
    StoreHandInfo info;
    long sets, games, sets_missing; /* sets with rates, their games; sets without */
    int nplayers;
    double *p_sum, *p_sq;           /* per player (pool index): sums over games of its mean p, and squares */
    long *games_of;
    double class_p[NPLAYERS];       /* sum of mean p by class reached (0 = daifugo) */
    long class_n[NPLAYERS];
    long bin_n[HAND_BINS];          /* ordered pairs (i, j) with p_ij in bin b */
    double bin_p[HAND_BINS], bin_won[HAND_BINS];
    double brier, pairs;            /* sum of (p_ij - [i above j])^2, over ordered pairs */
} HandSummary;

int hand_summary_store(Store *st, int nplayers, int include_broken, HandSummary *out, char *err, size_t errsz);
void hand_summary_free(HandSummary *s);

#endif

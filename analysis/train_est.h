/* train_est.h — learning the weight table of the `weights` sampler (players/estimate.h) from
 * game records: at every play decision, from the turn player's view, each card the sampler
 * would have to deal is an example whose alternatives are the opponents with room for it (and
 * allowed to hold it); the model says P(holder = p) is proportional to room_p x w[p][card], with
 * log w = est_table (a prior per class and card bin, plus a term per event and relation). The
 * parameters maximise the likelihood of the true holders (a conditional logit, the documented
 * equivalent of snowl's Bradley-Terry card strengths), with an L2 penalty, by full-batch
 * Adam. Deterministic: gradients are summed in a fixed order of fixed chunks.
 */
#ifndef DHM_TRAIN_EST_H
#define DHM_TRAIN_EST_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/games.h"
#include "players/estimate.h"

typedef struct EstTrainOpts {
    int epochs;       /* 200 */
    double lr;        /* 0.05 */
    double l2;        /* 1e-4 */
    double holdout;   /* share of games held out (0.1) */
    uint64_t seed;    /* which games are held out */
    long max_games;   /* 0 = all */
    int jobs;
    void (*progress)(void *ctx, int epoch, int epochs, double loss);
    void *progress_ctx;
} EstTrainOpts;

typedef struct EstTrainEval {
    long decisions, cards;
    double logloss, flat_logloss; /* mean -ln P(true holder): the model, and room-proportional */
    double hit, flat_hit;         /* mean P(true holder): the expected share of dealt cards right */
} EstTrainEval;

typedef struct EstTrainResult {
    long games, held_games;
    EstTrainEval train, held;
} EstTrainResult;

void est_train_opts_default(EstTrainOpts *o);
/* Reads the games, fits the model (starting from zero) and evaluates it. */
int est_train(const EstTrainOpts *o, const GameSource *src, EstModel *m, EstTrainResult *r, char *err, size_t errsz);

#endif

/* estimation.h — how well a world sampler guesses the hidden cards (paper 003's accuracy):
 * at every play decision of a record, from the turn player's view, `worlds` worlds are dealt
 * and compared with the true hands. Accuracy = the share of the opponents' cards (known ones
 * included) whose holder the world gets right, over every world; also the share over the
 * cards the sampler actually dealt (the undetermined ones), and the share of worlds exactly
 * right. Deterministic for the seed (decision k of game g uses (seed, g, k)).
 */
#ifndef DHM_ESTIMATION_H
#define DHM_ESTIMATION_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/games.h"
#include "players/estimate.h"

typedef struct EstAccConfig {
    const EstOptions *est;
    int worlds;      /* per decision (100) */
    uint64_t seed;
    long max_games;  /* 0 = all */
} EstAccConfig;

typedef struct EstAccResult {
    long games, decisions, worlds;
    long right, total;           /* every opponent card */
    long right_dealt, total_dealt; /* the undetermined cards the sampler dealt */
    long exact;                  /* worlds with every card right */
    double ns_per_world;         /* sampling time per world (this machine, one thread) */
    double us_prepare;           /* preparing a decision (the weight table; policy: its candidates) */
    double game_sum, game_sq;    /* per-game accuracy (every card): sum and sum of squares */
} EstAccResult;

int est_accuracy_run(const EstAccConfig *c, const GameSource *src, EstAccResult *out, char *err, size_t errsz);

#endif

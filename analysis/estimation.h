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
    void (*progress)(void *ctx, long games_done); /* after every game (NULL: none) */
    void *progress_ctx;
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

/* Training data for the learned estimator (players/estnet.h): for every play decision of the
 * source, from the turn player's view, one record of ESTNET_REC_SIZE bytes (estnet_record:
 * the features from the information set, each card's true holder among the cards to guess and
 * its allowed holders) after the header ESTNET_DUMP_MAGIC. game_base numbers the games.
 * With fs, the sequence model's rows too (players/estseq.h, after ESTSEQ_DUMP_MAGIC).
 * Returns 0 with the records and games written, or -1 with the reason. */
typedef struct EstDumpResult {
    long games, records, truncated, unlabeled; /* unlabeled: cards whose true holder a rule forbade */
} EstDumpResult;
int est_dump_run(const GameSource *src, FILE *f, FILE *fs, long max_games, uint32_t game_base, EstDumpResult *out,
                 char *err, size_t errsz);

#endif

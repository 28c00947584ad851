/* worst.h — the games section of `dhm report`: from the analyses `dhm view --analyze --save`
 * stored with a tournament (record/store.h, game_reviews), each player's costliest decisions,
 * and the games they were made in, ready to print (record, layout, review, per-player summary).
 * Every stored analysis is checked against the stored game it names (its plies, players and
 * choices); one that does not fit is a "damaged database" error. A game analysed more than once
 * counts once (the analysis with the most worlds, then the newest). StoredWorst owns its memory
 * (worst_free).
 */
#ifndef DHM_WORST_H
#define DHM_WORST_H

#include <stddef.h>

#include "analysis/gameview.h"
#include "analysis/review.h"
#include "record/store.h"

#define WORST_NAME 64

typedef struct WorstPick {
    int player;            /* the run's player (index into its names) */
    int game;              /* into StoredWorst.games, or -1 when that game is not kept */
    long set;
    int number, ply;       /* the game's number in its set; the play's index (-1: a gift) */
    int exchange, mark, sure;
    ReviewChoice chosen, best;
    double loss;
} WorstPick;

typedef struct WorstGame {
    long set;
    char names[NPLAYERS][WORST_NAME];
    char evaluator[128];
    int worlds;
    uint64_t seed;
    GameRecord rec;
    GameView view;
    GameReview review;
    ReviewSummary summary[NPLAYERS];
} WorstGame;

typedef struct StoredWorst {
    long analysed;         /* distinct games with a stored analysis */
    int npicks;
    WorstPick *picks;      /* by player in the run's order, the costliest first */
    int ngames;
    WorstGame *games;      /* the games of the picks, the costliest pick's first */
} StoredWorst;

/* Reads the stored analyses of st (a run of nplayers named players): up to per_player picks a
 * player (decisions that lost something), and up to max_games of their games. Returns 0 (no
 * analyses: analysed = 0), or -1 with a one-line reason. */
int worst_load(Store *st, int nplayers, char *const *names, int per_player, int max_games, StoredWorst *out, char *err,
               size_t errsz);
void worst_free(StoredWorst *w);

#endif

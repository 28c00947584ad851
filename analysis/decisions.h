/* decisions.h — the decisions of a recorded game, each with the information set its maker had:
 * the same InfoSet the engine (game/game.c) hands a player in that position, rebuilt from the
 * record. Plays of every player, and the gifts of the daifugo and fugo. What the record knows
 * beyond the information set (every hand) is passed separately, for tests and for measuring
 * estimates against the truth; analyses that judge a decision read only the InfoSet. */
#ifndef DHM_DECISIONS_H
#define DHM_DECISIONS_H

#include "game/game.h"

typedef struct Decision {
    const InfoSet *v;    /* the decision maker's view (v->me is the maker) */
    int exchange;        /* 0 a play, 1 a rich player's gift */
    int ncards;          /* gifts: the cards to give (2 daifugo, 1 fugo) */
    Move played;         /* the play chosen */
    Cards given;         /* the gift chosen */
    int ply;             /* the play's index in the record; -1 for a gift */
    const GameState *truth; /* the whole position (plays; every hand); not for judging */
} Decision;

/* Called for each decision in order; a non-zero return stops the walk and is returned. */
typedef int (*DecisionFn)(void *ctx, const Decision *d);

int decisions_each(const GameRecord *rec, DecisionFn fn, void *ctx);

#endif

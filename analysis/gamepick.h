/* gamepick.h — the games `dhm view` shows: some games of a kifu file (by their `game N` numbers,
 * or by their position in the file), or some games of one set of a tournament store made with
 * --records. Each comes with its index in its source counted as dhm errorrate counts it
 * (analysis/games.h: a file's games in order; a store's sets in index order, only the clean ones
 * unless include_broken), so an analysis of the game uses the worlds dhm errorrate used. Every
 * record is replayed and checked; anything missing or broken is a one-line error naming it.
 */
#ifndef DHM_GAMEPICK_H
#define DHM_GAMEPICK_H

#include <stddef.h>

#include "game/game.h"

typedef struct GamePick {
    const char *kifu;    /* a record file, or NULL */
    const char *db;      /* else a store made with --records */
    long set;            /* with db: the set */
    int include_broken;  /* with db: count and show sets not played cleanly too */
    int by_index;        /* kifu: from and to are positions in the file (0-based), not game numbers */
    long from, to;       /* the games wanted, inclusive; from < 0: every game */
} GamePick;

/* Called for each game picked, in order, with its names, its index in its source and its set
 * (-1 for a file). A non-zero return stops the walk and is returned. */
typedef int (*PickFn)(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index, long set);

/* Returns 0 when at least one game was picked, fn's value, or -1 with a one-line reason (a file
 * or store that cannot be read, a record that breaks the rules, no such set or game, a game
 * number that appears more than once in the file when one game is asked for, a store without
 * records). fn may have been called for some games before an error is found. */
int gamepick_each(const GamePick *p, PickFn fn, void *ctx, char *err, size_t errsz);

#endif

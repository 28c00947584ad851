/* games.h — the games of record files or of a tournament store, one GameRecord at a time:
 * what training, the error rate and the estimation accuracy read. Kifu files are replayed and
 * checked (record/replay.c); a store's games are unpacked and checked (record/pack.c), and its
 * sets that were not played cleanly are skipped unless include_broken. Every game comes with
 * its five players' names (the kifu `player` line; the store's player names). */
#ifndef DHM_GAMES_H
#define DHM_GAMES_H

#include <stddef.h>

#include "game/game.h"

typedef struct GameSource {
    const char *const *kifu; /* record files (or NULL) */
    int nkifu;
    const char *const *db;   /* stores made with --records */
    int ndb;
    int include_broken;
} GameSource;

/* Called for each game: its record, its players' names, and its number in the whole source
 * (0, 1, ...). A non-zero return stops the walk and is returned. */
typedef int (*GameFn)(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index);

/* Walks every game of the source in order. Returns 0, the callback's value, or -1 with a
 * one-line reason in err (a file that cannot be read, a record that does not replay, a
 * store without records or damaged). */
int games_each(const GameSource *src, GameFn fn, void *ctx, char *err, size_t errsz);

#endif

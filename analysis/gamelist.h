/* gamelist.h — games kept in memory, packed (record/pack.h: about 200 bytes a game instead of the
 * 18 KB of a GameRecord), each with its five players' names, its index in its source and its set
 * (-1 for a file): what a command collects from a walk over its games (analysis/games.h,
 * analysis/gamepick.h) before it works on them. A GameList owns its memory (gamelist_free);
 * zero it before the first add.
 */
#ifndef DHM_GAMELIST_H
#define DHM_GAMELIST_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define GAMELIST_NAME 64

typedef struct GameList {
    uint8_t *buf;
    size_t len, cap;
    size_t *off;
    char (*names)[NPLAYERS][GAMELIST_NAME];
    long *index, *set;
    long n, capn;
} GameList;

/* Appends a game. Returns 0, or -1 when out of memory. */
int gamelist_add(GameList *l, const GameRecord *rec, const char *const names[NPLAYERS], long index, long set);
/* Game k back as a record. Returns 0, or -1 when its bytes do not replay. */
int gamelist_get(const GameList *l, long k, GameRecord *rec);
void gamelist_free(GameList *l);

#endif

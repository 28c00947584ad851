/* pool.h — the players of a tournament, read from a pool file: one player a line,
 *
 *     NAME  SPEC                       a built-in player: simple, random, mc:bandit=ucb-v:sims=500
 *     NAME  exec: COMMAND LINE         an external UECda client, started by the tournament:
 *                                      {host}, {port} and {name} are filled in
 *
 * '#' starts a comment; blank lines are skipped. Names are unique, of letters, digits and
 * "_.-+" (at most 40). Every built-in spec is checked by creating the player once.
 * A Pool owns its memory (pool_free). */
#ifndef DHM_POOL_H
#define DHM_POOL_H

#include <stddef.h>

typedef struct PoolEntry {
    char name[48];
    char spec[512]; /* the player spec, or the command line of an external client */
    int external;
} PoolEntry;

typedef struct Pool {
    int n;
    PoolEntry *e;
    char *text; /* the file as read */
} Pool;

int pool_load(const char *path, Pool *out, char *err, size_t errsz);
/* Parses pool text (path is only for messages). */
int pool_parse(const char *text, const char *path, Pool *out, char *err, size_t errsz);
void pool_free(Pool *p);

#endif

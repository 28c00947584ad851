/* standings.h — a tournament's live standings from its store, as dhm tournament --watch shows
 * them after each stored set: per player the clean sets, games and points, the points per game
 * with their standard error (sets as clusters), and the rating of dhm rate's default method
 * (sts) over the same sets in the same order as `dhm rate --db` reads them, so the figures are
 * the ones dhm rate gives on the store afterwards. Also the sets that were not played cleanly. */
#ifndef DHM_WATCH_STANDINGS_H
#define DHM_WATCH_STANDINGS_H

#include "record/store.h"
#include "watch/watch.h"

typedef struct WatchFailed {
    long idx;
    char status[16], note[512];
} WatchFailed;

typedef struct WatchTable {
    WatchStanding *rows;   /* n, by pool index */
    long ok, not_ok;
    WatchFailed *failed;   /* the first max_failed sets not ok, in index order */
    int nfailed, max_failed;
} WatchTable;

/* Reads every stored set of st (the pool's n players, names in pool order) into t (rows and
 * failed allocated by the caller). Returns 0, or -1 with err. */
int watch_standings_compute(Store *st, int n, const char *const *names, WatchTable *t, char *err, size_t errsz);

#endif

/* store.h — the results store: one SQLite file per tournament run (WAL mode, synchronous
 * FULL). Tables: meta (schema), runs (command, seed, parameters, the pool, start/end,
 * version), players (name, spec), sets (index, seed, start/end, status, note, duplicate
 * group), set_players (per set and player number: player, total points, class counts,
 * forfeit, timeouts, illegal moves), set_games (per set: each game's classes, one byte a game)
 * and records (with --records: the set's games packed by record/pack); and, made by the analyses
 * when asked, hand_p, error_rates and game_reviews.
 * Every finished set is written in one transaction, so a killed run loses at most the sets in
 * progress. Nothing stored is ever deleted or overwritten: a file that already holds a run
 * can only be resumed. A writable Store holds an exclusive lock on the file (flock), so a
 * second writer (a --resume while the run is still going) is refused at once; readers are
 * never blocked. Everything read back is checked against the run (player ids, class codes,
 * game counts, totals): a damaged file is a clear error, never memory corruption.
 * A Store owns its connection; calls are serialised by an internal mutex, so worker threads
 * may share one Store.
 * The code, one concern a file: store.c (the file and its run), store_sets.c (the sets),
 * store_records.c (per-game classes and records), store_hand.c (initial-hand win rates),
 * store_errrate.c (error rates), store_merge.c (joining shards); store_internal.h holds the
 * schema and what they share.
 */
#ifndef DHM_STORE_H
#define DHM_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define STORE_SCHEMA 1

typedef struct RunInfo {
    char command[2048];
    uint64_t seed;
    long sets;
    int games, seat_change, class_reset;
    char pairing[16];
    int duplicate, records, move_timeout_ms;
    char *pool_text; /* the pool file as read (owned; store_free_run) */
    char version[64];
    char started[40], finished[40];
    Cards (*deals)[NPLAYERS]; /* the run's deal suite (--deals; owned: store_free_run), or NULL */
    long ndeals;
} RunInfo;

/* A set's status: "ok" (played as scheduled), "forfeit" (an external client never connected
 * or disconnected: some of its games were passes, not play), "timeouts" (some turns ran past
 * the move timeout and were passed), "client-exit" (every game was played, but a client
 * process ended with a non-zero status or a signal). Only "ok" sets are rated by default. */
#define SET_STATUS_OK "ok"
static inline int set_status_ok(const char *status) { return status[0] == 'o' && status[1] == 'k' && !status[2]; }

typedef struct SetResult {
    long idx;
    uint64_t seed;
    char started[40], finished[40];
    char status[16]; /* see above; details in note */
    char note[512];
    int games;
    long dup_group; /* -1 unless --duplicate */
    int rotation;
    int player[NPLAYERS]; /* pool index of player number p */
    long total[NPLAYERS];
    long cls[NPLAYERS][NPLAYERS];
    int forfeit[NPLAYERS];
    long timeouts[NPLAYERS], illegal[NPLAYERS];
    int exit_status[NPLAYERS]; /* external clients: 0, an exit status, 1000 + signal, 2000 = killed
                                * (in the note; not a column) */
    const uint8_t *classes; /* one byte per game: pack_classes() */
    const uint8_t *records; /* packed games, or NULL */
    size_t records_len;
} SetResult;

typedef struct Store Store;

/* A new store for a new run. Refuses a file that already holds a run. */
int store_create(Store **out, const char *path, const RunInfo *run, int nplayers, char *const *names,
                 char *const *specs, char *err, size_t errsz);
/* An existing store (resume, rate, export). */
int store_open(Store **out, const char *path, int writable, char *err, size_t errsz);
void store_close(Store *s);

/* The run and its players (names and specs allocated; store_free_names). */
int store_load_run(Store *s, RunInfo *run, int *nplayers, char ***names, char ***specs, char *err, size_t errsz);
void store_free_run(RunInfo *run);
void store_free_names(int n, char **names, char **specs);

/* Sets bit k of the bitmap done (nsets bits, zeroed here) for every set k already stored. */
int store_done_sets(Store *s, uint8_t *done, long nsets);
int store_save_set(Store *s, const SetResult *r, char *err, size_t errsz);
int store_finish_run(Store *s, const char *when);

/* A stored set as read back, checked: five distinct players of the run, `games` class codes
 * (each a valid permutation), totals equal to the points of those classes. */
typedef struct StoredSet {
    long idx;
    char started[40];
    char status[16];
    char note[512];
    int games;
    int player[NPLAYERS]; /* pool index of player number p */
    long total[NPLAYERS];
    int forfeit[NPLAYERS];
    long timeouts[NPLAYERS];
    const uint8_t *classes; /* games bytes: pack_classes() codes */
} StoredSet;

/* Every stored set in index order (or by start time). A damaged row stops the walk with
 * "damaged database: set K: ..." in err (the callback is not called for it); a callback
 * returning non-zero stops it too (its own message, if any, is left in err). */
typedef int (*StoreSetFn)(void *ctx, const StoredSet *s);
int store_each_set(Store *s, int order_by_start, StoreSetFn fn, void *ctx, char *err, size_t errsz);
/* Counts of stored sets by status: ok and not ok. */
int store_count_sets(Store *s, long *ok, long *not_ok);
/* The stored sets that are not ok, counted by status, as text for people: "3 forfeit, 1 timeouts"
 * (the most first); "" when there are none. */
int store_count_broken(Store *s, char *buf, size_t size);
/* The pack format (record/pack.h) of the records this store holds. */
int store_records_format(const Store *s);
/* The packed records of a set (malloc'd, caller frees); -1 if none stored. */
int store_set_records(Store *s, long idx, uint8_t **data, size_t *len, int player[NPLAYERS], char *err,
                      size_t errsz);

/* Initial-hand win rates (dhm handstrength, analysis/handstrength.h): one row per set, with
 * the settings they were made with and, for each game, STORE_HAND_PAIRS counts: the playouts
 * in which player number i finished above player number j, for the pairs (0,1) (0,2) (0,3)
 * (0,4) (1,2) (1,3) (1,4) (2,3) (2,4) (3,4). The table is created by the first write; a store
 * without it simply has none. */
#define STORE_HAND_PAIRS 10
typedef struct StoreHandInfo {
    long sets;       /* sets with rates */
    int playouts;
    char method[64]; /* the playout policy, as text */
    uint64_t seed;
} StoreHandInfo;
/* What is stored: sets = 0 if none. Rows made with different settings: a damaged store. */
int store_hand_p_info(Store *s, StoreHandInfo *info, char *err, size_t errsz);
/* Removes every stored rate (to recompute with other settings). */
int store_hand_p_clear(Store *s, char *err, size_t errsz);
int store_save_hand_p(Store *s, long idx, const StoreHandInfo *info, int games, const uint32_t *wins, char *err,
                      size_t errsz);
/* The counts of set idx (games * STORE_HAND_PAIRS into wins) and their playouts: 1 if stored,
 * 0 if not, -1 if the row does not fit the set (err says so). */
int store_hand_p(Store *s, long idx, int games, uint32_t *wins, int *playouts, char *err, size_t errsz);

/* Error rates saved by dhm errorrate --save (table error_rates, created by the first save): one
 * row per (player, evaluator, worlds, seed); saving again replaces those rows. */
typedef struct StoredErrRate {
    char player[64], evaluator[128];
    int worlds;
    uint64_t seed;
    long games, judged, skipped;
    double rate, lo, hi, mean_rank, mean_points; /* NAN when not known */
    char made[40];
} StoredErrRate;
int store_save_error_rates(Store *s, const StoredErrRate *r, int n, char *err, size_t errsz);
/* Every stored row (malloc'd, caller frees; n = 0 without the table). -1 if damaged. */
int store_error_rates(Store *s, StoredErrRate **out, int *n, char *err, size_t errsz);

/* Analyses of single stored games saved by dhm view --analyze --save (table game_reviews, created
 * by the first save): one row per (set, game, evaluator, worlds, seed); saving again replaces it.
 * The data is the analysis as analysis/review.h packs it: opaque here, checked by its reader. */
typedef struct StoredReview {
    long set;
    int game;
    char evaluator[128];
    int worlds;
    uint64_t seed;
    char made[40];
    uint8_t *data; /* owned (store_free_reviews) */
    size_t len;
} StoredReview;
int store_save_reviews(Store *s, const StoredReview *r, int n, char *err, size_t errsz);
/* Every stored row, by set and game (the most worlds, then the newest, first); n = 0 without
 * the table. -1 if damaged. */
int store_reviews(Store *s, StoredReview **out, int *n, char *err, size_t errsz);
void store_free_reviews(StoredReview *r, int n);

/* Merges the stores of dhm tournament --shard I/N (all N of one run: same seed, pool, options,
 * deals) into a new store `out` holding the whole run, as one machine would have made it (apart
 * from timestamps and the run's bookkeeping). Refuses an existing out, a store that is not a
 * shard, shards of different runs, a shard given twice and a missing shard; on any error out
 * is not left behind. *sets gets the sets merged, *run_sets the sets of the whole run (more when
 * a shard is unfinished: the merged run then resumes like any other). */
int store_merge(const char *out, const char *const *paths, int n, long *sets, long *run_sets, char *err, size_t errsz);

/* A value of the meta table (what a command keeps about its run, e.g. dhm sprt's test). */
int store_meta_set(Store *s, const char *key, const char *value, char *err, size_t errsz);
/* 1 and the value when the key is there, else 0. */
int store_meta_get(Store *s, const char *key, char *buf, size_t size);

/* One byte per game: the classes of player numbers 0..4 as a permutation code (0..119). */
uint8_t pack_classes(const int cls[NPLAYERS]);
void unpack_classes(uint8_t code, int cls[NPLAYERS]);

/* Current UTC time as "2026-11-22T04:30:00.123Z". */
void store_now(char *buf, size_t size);

#endif

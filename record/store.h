/* store.h — the results store: one SQLite file per tournament run (WAL mode, synchronous
 * FULL). Tables: meta (schema), runs (command, seed, parameters, the pool, start/end,
 * version), players (name, spec), sets (index, seed, start/end, status, note, duplicate
 * group), set_players (per set and player number: player, total points, class counts,
 * forfeit, timeouts, illegal moves), set_games (per set: each game's classes, one byte a game)
 * and records (with --records: the set's games packed by record/pack).
 * Every finished set is written in one transaction, so a killed run loses at most the sets in
 * progress. Nothing stored is ever deleted or overwritten: a file that already holds a run
 * can only be resumed. A Store owns its connection; calls are serialised by an internal
 * mutex, so worker threads may share one Store.
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
} RunInfo;

typedef struct SetResult {
    long idx;
    uint64_t seed;
    char started[40], finished[40];
    char status[16]; /* "ok"; "forfeit" when a client crashed or never connected; "timeouts" when
                      * a client's turns ran past the move timeout (details in note) */
    char note[512];
    int games;
    long dup_group; /* -1 unless --duplicate */
    int rotation;
    int player[NPLAYERS]; /* pool index of player number p */
    long total[NPLAYERS];
    long cls[NPLAYERS][NPLAYERS];
    int forfeit[NPLAYERS];
    long timeouts[NPLAYERS], illegal[NPLAYERS];
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

/* done[k] = 1 for every set k already stored (done has run->sets bytes). */
int store_done_sets(Store *s, uint8_t *done, long nsets);
int store_save_set(Store *s, const SetResult *r, char *err, size_t errsz);
int store_finish_run(Store *s, const char *when);

/* Every stored set in index order (or by start time): callback with its totals. */
typedef int (*StoreSetFn)(void *ctx, long idx, const char *started, const int player[NPLAYERS],
                          const long total[NPLAYERS], const uint8_t *classes, int games);
int store_each_set(Store *s, int order_by_start, StoreSetFn fn, void *ctx, char *err, size_t errsz);
/* The packed records of a set (malloc'd, caller frees); -1 if none stored. */
int store_set_records(Store *s, long idx, uint8_t **data, size_t *len, int player[NPLAYERS], char *err,
                      size_t errsz);

/* One byte per game: the classes of player numbers 0..4 as a permutation code (0..119). */
uint8_t pack_classes(const int cls[NPLAYERS]);
void unpack_classes(uint8_t code, int cls[NPLAYERS]);

/* Current UTC time as "2026-11-22T04:30:00.123Z". */
void store_now(char *buf, size_t size);

#endif

/* tournament.h — many sets among the players of a pool, in worker threads, into the store.
 *
 * Set k is fully determined by (seed, k): its five players (pairing), its match seed
 * (rng_derive(seed, k)) and the players' own seeds; so results never depend on the number of
 * workers or on timing, and a resumed run ends identical to an uninterrupted one. Sets with
 * external clients run an embedded UECda server on a free loopback port and start the
 * clients as child processes, one at a time (so seating is deterministic), their output going
 * to <db>.logs/set-K-NAME.log. Each client runs in its own process group; after its set the
 * whole group is waited for (5 s) and then killed, so no client or child of one outlives its
 * set. A client that never connects, disconnects, crashes or hangs past the move timeout, or
 * ends with a non-zero status, is recorded (forfeit, timeouts, its exit status) and the set
 * is marked (SetResult.status); it is never dropped — except in its first set: an exec: client
 * that has not connected once in this run and does not connect stops the run (nothing of that
 * set is stored), with an error naming its log file and the log's last line, since every later
 * set would be played with that seat passing.
 * When *stop becomes non-zero (the CLI's SIGINT/SIGTERM handler), no new set starts, the sets
 * in progress are abandoned (never stored: a set is stored only when every game was played),
 * every client process group is killed, and tournament_run returns TOURNAMENT_STOPPED.
 * With duplicate, every deal sequence is played five times with the player numbers rotated
 * (sets 5g .. 5g+4 share match seed and players), so each player sits in each seat of each
 * deal once.
 */
#ifndef DHM_TOURNAMENT_H
#define DHM_TOURNAMENT_H

#include <stdint.h>

#include "arena/pool.h"
#include "game/match.h"
#include "record/store.h"

enum { PAIR_RANDOM, PAIR_ALL, PAIR_FIXED };

/* A watcher of the sets as they are played (a live view). set_begin is called by the thread
 * that is about to play set k (its players' pool indices by player number) and returns the
 * hooks to play it with (their event hook is used; NULL: none); game after each game of the
 * set (the watcher may change the hooks' event for the next game there: a set nobody watches
 * runs without one); set_end when the set is over, stored or not. All from the worker's thread. */
typedef struct TournamentWatch {
    void *ctx;
    const GameHooks *(*set_begin)(void *ctx, long k, const int player[5]);
    void (*game)(void *ctx, const GameHooks *hooks, const MatchResult *sofar);
    void (*set_end)(void *ctx, long k, const GameHooks *hooks);
} TournamentWatch;

typedef struct TournamentConfig {
    const Pool *pool;
    long sets;              /* stored sets (with duplicate: 5 per deal sequence) */
    int games, seat_change, class_reset;
    uint64_t seed;
    int jobs;
    int pairing;
    int duplicate, records;
    int move_timeout_ms;    /* external clients; 0 = off */
    int connect_timeout_ms; /* external clients */
    const char *log_dir;    /* for external clients' output */
    /* progress: called from the main thread about five times a second */
    void (*progress)(void *ctx, long done, long total, long games);
    void *progress_ctx;
    const volatile int *stop; /* may be NULL */
    const Cards (*deals)[NPLAYERS]; /* a deal suite (NULL: shuffled): set k plays deals from
                                     * (its duplicate group, or k) x games on */
    long ndeals;
    int shard_i, shard_n; /* --shard I/N: only the sets k with k mod N = I (N = 0 or 1: every set) */
    /* called after each game of a set, from the thread that plays it (an MPI rank's sign of
     * life to rank 0); may be NULL */
    void (*game_done)(void *ctx);
    void *game_ctx;
    const char *python;   /* what {python} in an exec: line stands for (NULL: python3) */
    const TournamentWatch *watch; /* may be NULL */
} TournamentConfig;

/* Whether set k belongs to this run's shard. */
static inline int tournament_in_shard(const TournamentConfig *c, long k)
{
    return c->shard_n <= 1 || k % c->shard_n == c->shard_i;
}

/* Most sets one run may hold (a bitmap of done sets is kept in memory: 12.5 MB at the max). */
#define TOURNAMENT_MAX_SETS 100000000L
#define TOURNAMENT_STOPPED 1

/* The players (pool indices, by player number), match seed, duplicate group and rotation of
 * stored set k. */
void tournament_schedule(const TournamentConfig *c, long k, int players[5], uint64_t *seed, long *group,
                         int *rotation);
/* Number of 5-subsets of n players (the sets of a round of pairing `all`). */
long tournament_subsets(int n);
/* The description of a new run from c's settings (sets as stored), the build's version and the
 * time now; the caller sets run->command, run->pool_text and run->deals. */
void tournament_run_info(const TournamentConfig *c, const char *version, RunInfo *run);
/* A new store at db holding the run and the pool's players. 0, or -1 with a reason. */
int tournament_store_create(Store **st, const char *db, const Pool *pool, const RunInfo *run, char *err,
                            size_t errsz);

/* Plays every set not yet in the store. Returns 0, TOURNAMENT_STOPPED (see *stop), or -1
 * with a reason (the store failed). */
int tournament_run(const TournamentConfig *c, Store *store, char *err, size_t errsz);

/* One set at a time, played by the caller (an MPI rank): set k's result in r, its classes and
 * records pointing into the work's buffers until the next call. Returns 0, TOURNAMENT_STOPPED
 * or -1 (err). */
typedef struct TournamentWork TournamentWork;
TournamentWork *tournament_work_new(const TournamentConfig *c);
int tournament_work_play(TournamentWork *w, long k, SetResult *r, char *err, size_t errsz);
void tournament_work_free(TournamentWork *w);

/* A set result as bytes and back (classes and records inside; unpack points into `in`). */
size_t set_result_size(const SetResult *r);
void set_result_pack(const SetResult *r, uint8_t *out);
int set_result_unpack(const uint8_t *in, size_t n, SetResult *r);

#endif

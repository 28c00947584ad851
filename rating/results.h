/* results.h — match results to be rated: sets (five players, their total points) and games
 * (players, finishing ranks, optional initial-position win rates), with player names interned
 * to indices. Loaded from CSV (one row per player per set or game); every byte is untrusted
 * and every problem is reported as "path:line: problem". Results owns all its memory
 * (results_free). With a sink (ResultsSink) it keeps only the names and counts, handing each
 * set and game on as it is added. Nothing here knows the game: any results in this shape can
 * be rated.
 */
#ifndef DHM_RESULTS_H
#define DHM_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SET_PLAYERS 5
#define GAME_MAX_SEATS 16

typedef struct RSet {
    double order; /* start order (sets are rated in this order; ties keep file order) */
    long seq;     /* file order */
    int player[SET_PLAYERS];
    double points[SET_PLAYERS];
} RSet;

typedef struct RGame {
    long seq;
    int n;
    int player[GAME_MAX_SEATS];
    double rank[GAME_MAX_SEATS]; /* lower = better */
    double p[GAME_MAX_SEATS];    /* initial-position win rate, 0.5 when not given */
    long pair;                   /* pairwise rates: Results.pair[pair + i*n + j] = p_ij; -1 if none */
} RGame;

struct Results;
/* Where a Results hands its sets and games instead of keeping them (Results.sink): each set
 * or game as it is added (a set's entries in the order given; a game's pairwise rates, as
 * stored in Results.pair, or NULL). A non-zero return fails the add with that value: -1 out of
 * memory, RESULTS_UNORDERED when the sets do not come in rating order (a sink that rates them
 * as they come needs that order). */
typedef struct ResultsSink {
    int (*set)(void *ctx, const struct Results *r, const RSet *s);
    int (*game)(void *ctx, const struct Results *r, const RGame *g, const float *pair);
    void *ctx;
} ResultsSink;
enum { RESULTS_UNORDERED = -2 };

typedef struct Results {
    int nplayers, cap_players;
    char **names;
    RSet *sets;
    long nsets, cap_sets;
    RGame *games;
    long ngames, cap_games;
    long games_in_sets; /* games behind the sets when the source knows them (a store), else 0 */
    int has_p;          /* some game came with initial-hand win rates p */
    float *pair;        /* pairwise rates of the games that have them (RGame.pair) */
    long npair, cap_pair;
    /* name -> index hash (open addressing) */
    int *hash;
    int hash_cap;
    /* When set (by the caller, after results_init): every added set and game goes to the sink
     * and is not kept; sets and games stay NULL and nsets, ngames and has_p count what went.
     * results_free does not touch the sink. */
    const ResultsSink *sink;
} Results;

void results_init(Results *r);
void results_free(Results *r);
/* Index of a player name, adding it if new; -1 on allocation failure. */
int results_player(Results *r, const char *name);
/* Index of a name if known, else -1. */
int results_find(const Results *r, const char *name);

/* Loads a CSV file whose header is `set,order,player,points` or `game,player,rank[,p]`.
 * Rows may come in any order; sets must end up with exactly five distinct players.
 * Returns 0, or -1 with "path:line: problem" in err.
 * With a sink (Results.sink) each set or game goes to it when its last row has been read,
 * which needs each one's rows together and the ids new (never seen before), checked without
 * remembering every id: ids that are numbers N or N.M (as dhm records writes them: set
 * indexes, SET.GAME) by a bitmap of the N seen, M rising within one N; other ids rising in
 * byte order. A file that is not so, or whose sets' orders fall, gives RESULTS_UNORDERED
 * (err says where): read it again without a sink. Errors are the same as without a sink. */
int results_load_csv(Results *r, FILE *f, const char *path, char *err, size_t errsz);

/* Adds one set (five distinct players). Returns 0 or -1 (or the sink's error). */
int results_add_set(Results *r, double order, const int player[SET_PLAYERS], const double points[SET_PLAYERS]);
int results_add_game(Results *r, int n, const int *player, const double *rank, const double *p);
/* A game with pairwise initial-hand win rates pij[i*n + j] = p_ij (i finishing above j; the
 * diagonal is ignored). Its per-player p is the mean over the opponents. */
int results_add_game_pairs(Results *r, int n, const int *player, const double *rank, const double *pij);

/* Synthetic sets for tests and benchmarks: players "p00", "p01", ... with strength growing by
 * `step` points per index; each set draws five distinct players uniformly and gives each
 * 30000 + step * index + a uniform integer in [-noise/2, noise/2). Seeded. */
int results_add_random_sets(Results *r, int nplayers, long nsets, double step, double noise, uint64_t seed);

/* Sorts sets by (order, file order) so that rating follows the start order, and the five
 * entries of each set by player name, so that nothing depends on the order of rows within a
 * set (sequential set-wise rating and mElo visit pairs in this order). Nothing to do with a
 * sink (the sets are not kept). */
void results_sort_sets(Results *r);
/* The same for one set, given results_name_places (NULL: compare the names): for sets rated
 * as they arrive, in the order results_sort_sets would give them. */
int *results_name_places(const Results *r); /* place[i]: player i's rank in name order; malloc'd */
void results_sort_entries(const Results *r, const int *place, RSet *s);

#endif

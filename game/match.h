/* match.h — a match: N games among five players with seat changes, class resets and
 * cumulative points (spec/uecda.md §3.10).
 *
 * Seats: a new random seat order at game numbers n (1-based) with n mod K == 1, as the
 * official server does (K = 1 therefore never reshuffles; K = 0 means never). Classes: reset at
 * game numbers n with (n - 1) mod R == 0 (R = 0: only game 1); a reset game has no exchange
 * and a random dealer; otherwise the previous daifugo deals.
 * Every game draws from its own RNG stream derived from (seed, game index), so any game can be
 * reproduced on its own and results never depend on timing.
 * Independent games (cfg->independent): every game draws its own seat order and a uniformly
 * random class order (the daifugo deals; every game has the exchange) from its stream, before
 * the deal. No game then depends on another's result, and two matches with one seed start
 * every game alike whoever plays: the paired measurement of docs/ladder.md. With R = 1 every
 * independent game is a first game instead (no classes, no exchange; the same seats, dealer
 * and hands as with classes): the play alone, measured paired.
 */
#ifndef DHM_MATCH_H
#define DHM_MATCH_H

#include "game/game.h"

typedef struct MatchConfig {
    int games;       /* N, default 100 */
    int seat_change; /* K, default 3 */
    int class_reset; /* R, default 100 */
    int independent; /* every game its own random seats and classes (see above); 0 = the match schedule */
    int class0;      /* independent games: 1 + the class player 0 starts every game in (1 daifugo .. 5
                      * daihinmin: the drawn classes with player 0's swapped in, from the same
                      * stream, so two runs with one seed still start alike); 0 = drawn like the others */
    uint64_t seed;
    int timed;       /* record each move's thinking time (for kifu and stored records) */
    /* a deal suite (record/deals.h): game i plays deals[(deal_offset + i) % ndeals], each hand
     * to the player of its number; NULL = shuffled deals */
    const Cards (*deals)[NPLAYERS];
    long ndeals, deal_offset;
} MatchConfig;

typedef struct MatchResult {
    int games;
    long points[NPLAYERS];
    long class_count[NPLAYERS][NPLAYERS]; /* [player][class] */
    long illegal[NPLAYERS];
    long bad_exchange[NPLAYERS];
    long stalemates;
} MatchResult;

/* Called after each game; a non-zero return stops the match (match_run returns it). */
typedef int (*MatchGameFn)(void *ctx, const GameRecord *rec, const MatchResult *sofar);

void match_config_default(MatchConfig *cfg);

/* The setup of game `index` given the previous game's setup and result (prev == NULL for
 * the first game). Exposed so that servers and tests follow exactly the same schedule. */
void match_setup_game(const MatchConfig *cfg, int index, const GameSetup *prev, const GameRecord *prev_rec,
                      Rng *rng, GameSetup *out);

/* Plays the match. rec is scratch space for one game (the caller owns it; it is large).
 * hooks may be NULL. Returns 0, or the first non-zero value of a hook or of on_game. */
int match_run(Player *const pl[NPLAYERS], const MatchConfig *cfg, const GameHooks *hooks, MatchGameFn on_game,
              void *ctx, GameRecord *rec, MatchResult *res);

/* The RNG stream of game `index` of a match with this seed. */
static inline Rng match_game_rng(uint64_t seed, int index) { return rng_seed(rng_derive(seed, 0x6761, (uint64_t)index)); }

#endif

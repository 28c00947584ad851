/* players.h — built-in players and player specs.
 *
 * A player spec is NAME[:key=value[:key=value...]] (colons, so commas can separate players
 * in a list), e.g. "simple", "random", "mc:bandit=ucb-v:sims=2000". player_create() parses a
 * spec, checks every option, and returns a heap-allocated Player that player_destroy() frees.
 * Errors name the problem and list the valid choices.
 */
#ifndef DHM_PLAYERS_H
#define DHM_PLAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "game/player.h"

#define SPEC_MAX_OPTS 24

typedef struct PlayerSpec {
    char kind[32];
    int nopts;
    struct {
        char key[32];
        char val[64];
        int used;
    } opt[SPEC_MAX_OPTS];
} PlayerSpec;

int player_spec_parse(const char *text, PlayerSpec *out, char *err, size_t errsz);

/* Option access; each marks the option used. Return 0 (value or default written), -1 bad. */
int spec_get_int(PlayerSpec *s, const char *key, long lo, long hi, long def, long *out, char *err, size_t errsz);
int spec_get_double(PlayerSpec *s, const char *key, double lo, double hi, double def, double *out, char *err,
                    size_t errsz);
const char *spec_get_str(PlayerSpec *s, const char *key, const char *def);
/* After reading all options: an error for any option nobody asked for. */
int spec_check_unused(const PlayerSpec *s, const char *valid, char *err, size_t errsz);

/* Creates a player from a spec. seed gives the player its own RNG stream. */
int player_create(const char *spec, uint64_t seed, Player **out, char *err, size_t errsz);
void player_destroy(Player *p);
/* Comma-separated list of player kinds, for messages and --help. */
const char *player_kinds(void);
/* Splits "a,b:x=1,c" into at most max specs (copies into buf). Returns the count or -1. */
int player_split_list(const char *list, char specs[][128], int max);
/* The seed a match gives player p (the same in-process and behind `dhm connect`). */
uint64_t player_seed(uint64_t match_seed, int p);

/* Constructors used by the registry (spec options already parsed by each). */
int random_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz);
int simple_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz);
int devkit_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz);
int mc_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz);
int search_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz);
int policy_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz);

/* Helpers shared by players: the strength of a column under revolution (higher = stronger). */
static inline int col_strength(int col, int rev) { return rev ? 14 - col : col; }

/* The `simple` player's preference (lower = better): melds without the joker first, then the
 * weakest lowest card, then more cards at once. Also the default playout policy. */
static inline long simple_key(Move m, int rev)
{
    int strength = m.type == MOVE_JOKER ? 20 : col_strength(rev ? move_high(m) : m.low, rev);
    return (long)move_uses_joker(m) * 100000 + strength * 100 + (20 - m.n);
}

/* The simple choice among generated moves (a pass only when nothing else is there). */
static inline Move simple_choose(const Move *mv, int n, int rev)
{
    Move best = move_pass();
    long best_key = 0;
    for (int i = 0; i < n; i++) {
        if (mv[i].type == MOVE_PASS)
            continue;
        long k = simple_key(mv[i], rev);
        if (best.type == MOVE_PASS || k < best_key) {
            best = mv[i];
            best_key = k;
        }
    }
    return best;
}

#endif

/* envcore.h — the Python binding's episodes over game/'s game machine (GameMachine).
 *
 * The game itself is game/game.c's machine, the one every driver uses: an environment
 * returns after every decision and waits for the next action (game_give / game_move), with
 * the same setup as a match (game/match.c's schedule, the RNG stream of each game), so a game
 * driven through here by dhm's own players equals `dhm play` with the same seed.
 *
 * An episode is a match of cfg.games games (match mode: classes carried, seats changed and
 * classes reset on the UECda schedule) or one game (single-game mode; games follow each other
 * on the same schedule, so with class_reset = 1, the default there, no game has an exchange).
 * Decisions are the exchange (the daifugo gives two cards, then the fugo one) and every play.
 * A DhmEnv is plain memory (about 20 KB, mostly the game record); nothing here allocates.
 */
#ifndef DHM_PY_ENVCORE_H
#define DHM_PY_ENVCORE_H

#include "actions.h"
#include "game/match.h"

#define LEGAL_MAX MOVEGEN_MAX /* legal actions of one decision, any hand whatsoever */

/* env_step results (>= 0: flags) and errors */
enum { STEP_GAME_OVER = 1, STEP_EPISODE_OVER = 2 };
enum { ENV_ILLEGAL = -1, ENV_NOT_RUNNING = -2 };

typedef struct DhmEnv {
    int single;             /* an episode is one game */
    MatchConfig cfg;        /* cfg.games: games of a match episode; cfg.seed: this episode's */
    uint64_t base_seed;
    long episode;           /* episodes since the last seeding */
    int game;               /* index of the game in play in the match schedule */
    int games_done;         /* finished in this episode */
    int have_prev;          /* su / rec hold the previous game of the schedule */
    GameSetup su;
    Cards deal[NPLAYERS];   /* a given deal (su.deal points here) */
    uint8_t deal_seat[NPLAYERS];
    int8_t deal_cls[NPLAYERS];
    int given;              /* the next game starts from deal, deal_seat, deal_cls */
    GameMachine m;          /* the game in play */
    Player *pl[NPLAYERS];   /* built-in players deciding for their seats inside env_step and
                             * env_reset (opponents); NULL: the caller decides (a learner) */
    int nlegal;
    uint16_t legal[LEGAL_MAX];
    long serial;            /* games started since the environment was made */
    int last_result[NPLAYERS]; /* classes of the last finished game (serial - 1 or serial) */
    long last_serial;       /* serial of that game, -1 none */
    InfoSet start_view[NPLAYERS]; /* as shown at game start (for Players' game_start) */
    GameRecord rec;
} DhmEnv;

/* A given game start (kifu replays, tests): hands as dealt, seats (seat[s] = player), classes
 * (all -1 = no exchange). */
typedef struct EnvDeal {
    Cards hand[NPLAYERS];
    uint8_t seat[NPLAYERS];
    int8_t cls[NPLAYERS];
} EnvDeal;

/* Sets the schedule; the episode starts with env_reset. */
void env_init(DhmEnv *e, int single, int games, int seat_change, int class_reset, uint64_t seed);
/* Starts the next episode (reseed: from episode 0 of `seed`); with d, its first game is d.
 * Returns 0, or -1 with a reason when d is not a valid game start. */
int env_reset(DhmEnv *e, int reseed, uint64_t seed, const EnvDeal *d, char *err, size_t errsz);
/* Applies the actor's action, then lets e->pl's players decide until a seat without one must
 * (across game ends: a new game of the episode starts at once). Returns STEP_* flags (0: no
 * game ended) and adds each player's reward (UECda points - 3, at the end of each game) to
 * reward[]; or ENV_ILLEGAL (not one of the legal actions; nothing changed) or
 * ENV_NOT_RUNNING. */
int env_step(DhmEnv *e, int action, float reward[NPLAYERS]);
/* Player p's information set now (refreshed from the game in play). */
const InfoSet *env_view(DhmEnv *e, int p);
/* Cards p must give now (0 unless p is the exchanging actor). */
static inline int env_give_n(const DhmEnv *e, int p)
{
    return e->m.phase == GAME_EXCHANGE && p == e->m.actor ? e->m.give_n : 0;
}
/* Writes p's observation (OBS_SIZE bytes, obs.h). */
void env_observe(DhmEnv *e, int p, int8_t *out);
/* Is a one of the legal actions now? */
int env_is_legal(const DhmEnv *e, int a);
/* A copy of src (a clone: the game in play and its schedule; no players). */
void env_copy(DhmEnv *dst, const DhmEnv *src);
/* Replaces the hidden cards by a world consistent with player `keep`'s information set (during
 * play): every player's hand now (hand[keep] must be keep's), and what the record and the other
 * players' views say of hands at the deal and in the exchange rewritten to fit it, so that
 * nothing of the true hidden cards is left. */
void env_set_world(DhmEnv *e, const Cards hand[NPLAYERS], int keep);
/* Plays a copy of the game in play to its end with a fast policy (policy 0: the simple rule,
 * a random legal move with probability eps; 1: the learned policy at temperature eps, 0 =
 * greedy) and writes the classes reached. e is not changed. After the episode's last game:
 * that game's classes. Returns 0, or -1 during the exchange. */
int env_playout(const DhmEnv *e, int policy, double eps, uint64_t seed, const void *weights, int cls[NPLAYERS]);
/* Tests only: deals the cards of everyone but `keep` anew among them (each keeps their
 * count), as if the hidden cards had been otherwise; the public history is unchanged. */
void env_shuffle_hidden(DhmEnv *e, int keep, uint64_t seed);

#endif

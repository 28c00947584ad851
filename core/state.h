/* state.h — the state of one game in play and applying a move to it.
 *
 * Implements ../shared/spec/uecda.md §3.5–3.7: passing out until the table clears, the clear
 * only when every player still holding cards has passed (the last player included), the lead
 * after a clear, 8-cut, revolution, lock, spade 3 over a lone joker, finishing order and the
 * 20-consecutive-passes stalemate. Dealing and the exchange live in game/.
 * The struct is plain data (copy it to branch a simulation); nothing here allocates.
 */
#ifndef DHM_STATE_H
#define DHM_STATE_H

#include "movegen.h"
#include "rng.h"

#define NPLAYERS 5
#define STALEMATE_PASSES 20

typedef struct GameState {
    Cards hand[NPLAYERS];
    Cards played;             /* cards played so far this game (public) */
    Move table;               /* meld on the table; a pass = empty table */
    uint8_t seat[NPLAYERS];   /* seat[s] = player at seat s; play goes s -> s+1 */
    uint8_t seat_of[NPLAYERS];
    uint8_t turn;             /* player to move */
    uint8_t owner;            /* player of the last accepted meld; leads after a clear */
    uint8_t passed;           /* bit p: p passed since the last clear */
    uint8_t out;              /* bit p: p has no cards left (or the game is over) */
    uint8_t nout;             /* players in order[] */
    uint8_t rev;              /* revolution in effect */
    uint8_t lock;             /* suit lock in effect */
    uint8_t npass;            /* consecutive passes (reset only by an accepted play) */
    uint8_t over;             /* game over */
    uint8_t order[NPLAYERS];  /* finishing order: order[k] = player who finished k-th */
} GameState;

/* What applying a move did (bit flags). */
enum {
    EV_CLEAR = 1,     /* the table was cleared after this move */
    EV_FINISH = 2,    /* the mover played their last card */
    EV_OVER = 4,      /* the game is over */
    EV_STALEMATE = 8, /* ended by 20 consecutive passes: call state_finish_stalemate */
    EV_REVOLUTION = 16,
    EV_LOCK = 32      /* the lock came on with this move */
};

/* Sets up play: hands after the exchange, seat order, and the first player. */
void state_init(GameState *g, const Cards hand[NPLAYERS], const uint8_t seat[NPLAYERS], int first);

/* The internals state_apply() inlines or calls: a meld (out of line), clearing the table after
 * everyone passed, the first player after p in seat order not in the skip mask (-1 if none). */
int state_apply_meld(GameState *g, Move m);
int state_apply_clear(GameState *g);
static inline int state_next_not_in(const GameState *g, int p, unsigned skip)
{
    static const uint8_t NEXT[NPLAYERS] = {1, 2, 3, 4, 0};
    int s = g->seat_of[p];
    for (int i = 0; i < NPLAYERS; i++) {
        s = NEXT[s];
        int q = g->seat[s];
        if (!((skip >> q) & 1))
            return q;
    }
    return -1;
}

/* Applies m for g->turn. m must be legal (movegen_is_legal); an illegal submission from a
 * peer is applied as a pass by the caller. Returns EV_* flags. A pass, the most common move
 * of all, is applied inline. */
static inline int state_apply(GameState *g, Move m)
{
    if (m.type != MOVE_PASS)
        return state_apply_meld(g, m);
    const int p = g->turn;
    g->passed |= (uint8_t)(1u << p);
    if (++g->npass >= STALEMATE_PASSES) {
        g->over = 1;
        return EV_STALEMATE | EV_OVER;
    }
    if (__builtin_popcount(g->passed) >= NPLAYERS - g->nout)
        return state_apply_clear(g);
    g->turn = (uint8_t)state_next_not_in(g, p, g->out | g->passed);
    return 0;
}

/* The same when the hands are not all known (a client mirroring the public state): whether
 * the mover has no cards left after m is given instead of read from its hand. */
int state_apply_ex(GameState *g, Move m, int goes_out);

/* After EV_STALEMATE: the players still holding cards get the remaining places in random
 * order (spec §3.7). */
void state_finish_stalemate(GameState *g, Rng *rng);

/* Moves for the player to move. */
static inline int state_moves(const GameState *g, Move *out)
{
    return movegen(g->hand[g->turn], g->table, g->rev, g->lock, out);
}

static inline int state_is_legal(const GameState *g, Move m)
{
    return movegen_is_legal(g->hand[g->turn], g->table, g->rev, g->lock, m);
}

/* Class reached (0 = daifugo .. 4 = daihinmin) of each player; the game must be over. */
void state_classes(const GameState *g, int cls[NPLAYERS]);

/* The player who holds cards and sits next after p in seat order (p itself if nobody else). */
int state_next_with_cards(const GameState *g, int p);

#endif

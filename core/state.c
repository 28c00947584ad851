/* state.c — applying moves: passes, clears, 8-cut, revolution, lock, finishing, stalemate.
 * A pass is applied inline (state.h: state_apply); what is here is a meld, the clear, the
 * finish and the stalemate. */
#include "state.h"

#include <string.h>

void state_init(GameState *g, const Cards hand[NPLAYERS], const uint8_t seat[NPLAYERS], int first)
{
    memset(g, 0, sizeof *g);
    for (int p = 0; p < NPLAYERS; p++) {
        g->hand[p] = hand[p];
        g->seat[p] = seat[p];
    }
    for (int s = 0; s < NPLAYERS; s++)
        g->seat_of[seat[s]] = (uint8_t)s;
    g->turn = g->owner = (uint8_t)first;
}

int state_next_with_cards(const GameState *g, int p)
{
    int q = state_next_not_in(g, p, g->out);
    return q < 0 ? p : q;
}

static void clear_table(GameState *g)
{
    g->table = move_pass();
    g->passed = 0;
    g->lock = 0;
    int lead = g->owner;
    if ((g->out >> lead) & 1)
        lead = state_next_with_cards(g, lead);
    g->turn = (uint8_t)lead;
}

static int finish(GameState *g, int p)
{
    g->out |= (uint8_t)(1u << p);
    g->order[g->nout++] = (uint8_t)p;
    if (g->nout < NPLAYERS - 1)
        return EV_FINISH;
    for (int q = 0; q < NPLAYERS; q++)
        if (!((g->out >> q) & 1)) {
            g->order[g->nout++] = (uint8_t)q;
            g->out |= (uint8_t)(1u << q);
        }
    g->over = 1;
    return EV_FINISH | EV_OVER;
}

int state_apply_clear(GameState *g)
{
    clear_table(g);
    return EV_CLEAR;
}

/* A meld m taking the cards `used` from the mover's hand. */
__attribute__((always_inline)) static inline int apply_meld(GameState *g, Move m, Cards used, int goes_out)
{
    const int p = g->turn;
    int ev = 0;
    g->hand[p] &= ~used;
    g->played |= used;
    g->npass = 0;
    if (move_is_revolution(m)) {
        g->rev ^= 1;
        ev |= EV_REVOLUTION;
    }
    /* A meld with an 8 cuts (move_is_eight: a single, group or sequence whose columns span the
     * 8); the spade 3 over a lone joker clears too. Whether a random meld cuts or locks is
     * anybody's guess: both are computed as numbers, no branch to mispredict. */
    const unsigned type = m.type, span = type == MOVE_SEQ ? m.n : 1u;
    const int cut = ((type - 1u < 3u) & ((unsigned)(COL_8 - m.low) < span)) | (g->table.type == MOVE_JOKER);
    if (m.type == MOVE_JOKER) {
        g->lock = 0;
    } else {
        /* the lock comes on when a meld follows one of the same suits */
        const unsigned locks = (g->lock == 0) & (g->table.type != MOVE_PASS) & (m.suits == g->table.suits);
        g->lock = (uint8_t)(g->lock | locks);
        ev |= (int)locks * EV_LOCK;
    }
    g->table = m;
    g->owner = (uint8_t)p;
    if (goes_out) {
        ev |= finish(g, p);
        if (ev & EV_OVER)
            return ev;
    }
    if (cut) {
        clear_table(g);
        return ev | EV_CLEAR;
    }
    int q = state_next_not_in(g, p, g->out | g->passed);
    if (q < 0) { /* the mover went out and everyone else had passed */
        clear_table(g);
        return ev | EV_CLEAR;
    }
    g->turn = (uint8_t)q;
    return ev;
}

/* move_cards(m) for a legal meld, with fewer branches: the cells of a single or a group are
 * its suits shifted to its column (none for the lone joker). */
static inline Cards meld_cards(Move m)
{
    const unsigned sh = (m.low & 15u) * 4;
    Cards c = (Cards)m.suits << sh;
    if (m.type == MOVE_SEQ)
        c = (CARDS_SUIT_LOW & ((1ULL << (4 * (m.n & 15))) - 1)) << (sh + (__builtin_ctz(m.suits | 16u) & 3));
    if (m.jk != JK_NONE)
        c = (c & ~(m.jk <= JOKER_BIT ? 1ULL << (m.jk - 1) : 0)) | CARDS_JOKER;
    return c;
}

int state_apply_meld(GameState *g, Move m)
{
    const Cards used = meld_cards(m);
    return apply_meld(g, m, used, !(g->hand[g->turn] & ~used));
}

int state_apply_ex(GameState *g, Move m, int goes_out)
{
    if (m.type == MOVE_PASS)
        return state_apply(g, m); /* the pass path (inline in state.h) */
    return apply_meld(g, m, move_cards(m), goes_out);
}

void state_finish_stalemate(GameState *g, Rng *rng)
{
    int rest[NPLAYERS], n = 0;
    for (int q = 0; q < NPLAYERS; q++) {
        int in_order = 0;
        for (int k = 0; k < g->nout; k++)
            in_order |= g->order[k] == q;
        if (!in_order)
            rest[n++] = q;
    }
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)rng_below(rng, (uint32_t)(i + 1));
        int t = rest[i];
        rest[i] = rest[j];
        rest[j] = t;
    }
    for (int i = 0; i < n; i++) {
        g->order[g->nout++] = (uint8_t)rest[i];
        g->out |= (uint8_t)(1u << rest[i]);
    }
    g->over = 1;
}

void state_classes(const GameState *g, int cls[NPLAYERS])
{
    for (int k = 0; k < NPLAYERS; k++)
        cls[g->order[k]] = k;
}

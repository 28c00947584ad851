/* endgame.c — sure wins and the exact two-player solver (see endgame.h). */
#include "players/endgame.h"

#include <string.h>

/* Whether some cards of `others` beat m (m on the table, order rev; any lock is ignored, which
 * only makes more answers possible: the test stays sufficient). */
static int beatable(Move m, int rev, Cards others)
{
    if (m.type == MOVE_PASS)
        return 1;
    Move tmp[MOVEGEN_MAX];
    return movegen_follow(others, m, rev, 0, tmp) > 1; /* more than the pass */
}

/* A meld after which the mover leads again whatever the others do. */
static int keeps_lead(Move m, int rev, Cards others)
{
    return move_is_eight(m) || !beatable(m, rev, others);
}

/* Leading with hand h in order rev: is there a chain of kept leads ending in the last meld? */
static int chain(Cards h, int rev, Cards others, int depth, int *budget, Move *first)
{
    if (!h)
        return 1;
    if (--*budget < 0 || depth > 12)
        return 0;
    Move mv[MOVEGEN_MAX];
    int n = movegen_lead(h, mv);
    for (int i = 0; i < n; i++)
        if (move_cards(mv[i]) == h) { /* the last meld: nobody needs to pass it */
            if (first)
                *first = mv[i];
            return 1;
        }
    for (int i = 0; i < n; i++) {
        int r2 = rev ^ move_is_revolution(mv[i]);
        if (keeps_lead(mv[i], r2, others) && chain(h & ~move_cards(mv[i]), r2, others, depth + 1, budget, NULL)) {
            if (first)
                *first = mv[i];
            return 1;
        }
    }
    return 0;
}

int endgame_sure_win(Cards hand, Move table, int rev, int lock, Cards others, Move *first)
{
    int budget = 64;
    if (table.type == MOVE_PASS)
        return chain(hand, rev, others, 0, &budget, first);
    Move mv[MOVEGEN_MAX];
    int n = movegen_follow(hand, table, rev, lock, mv);
    for (int i = 1; i < n; i++) { /* mv[0] is the pass */
        Cards rest = hand & ~move_cards(mv[i]);
        int r2 = rev ^ move_is_revolution(mv[i]);
        /* the spade 3 on a lone joker clears the table, as an 8 does */
        int cut = move_is_eight(mv[i]) || table.type == MOVE_JOKER;
        if (!rest || ((cut || !beatable(mv[i], r2, others)) && chain(rest, r2, others, 1, &budget, NULL))) {
            if (first)
                *first = mv[i];
            return 1;
        }
    }
    return 0;
}

int endgame_sure_win_state(const GameState *g, Move *first)
{
    Cards others = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if (p != g->turn)
            others |= g->hand[p];
    return endgame_sure_win(g->hand[g->turn], g->table, g->rev, g->lock, others, first);
}

/* ---------------------------------------------------------------- two players */

typedef struct Solver {
    long nodes, max_nodes;
    EndgameTT *tt;
    int aborted;
} Solver;

/* The table key of a two-player position, from the mover's view: both hands, the table, the
 * flags, and whether each has passed. */
static void tt_key(const GameState *g, int me, int op, uint64_t *k1, uint64_t *k2)
{
    uint64_t t;
    memcpy(&t, &g->table, sizeof t);
    *k1 = g->hand[me] ^ (g->hand[op] * 0x9E3779B97F4A7C15ULL);
    *k2 = t ^ ((uint64_t)g->rev << 62) ^ ((uint64_t)g->lock << 61) ^ ((uint64_t)((g->passed >> me) & 1) << 60) ^
          ((uint64_t)((g->passed >> op) & 1) << 59) ^ ((uint64_t)(g->owner == me) << 58) ^ (g->hand[op] << 1);
}

static int other_in(const GameState *g, int me)
{
    for (int p = 0; p < NPLAYERS; p++)
        if (p != me && !((g->out >> p) & 1))
            return p;
    return -1;
}

/* 1 if g->turn goes out before the other player, 0 if not; sets s->aborted at the limit. */
static int solve(Solver *s, const GameState *g, Move *best)
{
    const int me = g->turn, op = other_in(g, me);
    if (++s->nodes > s->max_nodes) {
        s->aborted = 1;
        return 0;
    }
    /* sure wins are leaves; worth their cost on small hands (measured on blaux5) */
    if (cards_count(g->hand[me]) <= 4 && endgame_sure_win(g->hand[me], g->table, g->rev, g->lock, g->hand[op], best))
        return 1;
    uint64_t k1 = 0, k2 = 0;
    size_t slot = 0;
    if (s->tt && !best) {
        tt_key(g, me, op, &k1, &k2);
        slot = (size_t)((k1 ^ (k2 * 0xC2B2AE3D27D4EB4FULL)) >> (64 - ENDGAME_TT_BITS));
        if (s->tt->e[slot].gen == s->tt->gen && s->tt->e[slot].key == k1 && s->tt->e[slot].key2 == k2)
            return s->tt->e[slot].value;
    }
    Move mv[MOVEGEN_MAX];
    int n = state_moves(g, mv), win = 0;
    /* Likely winners first: melds the other cannot answer (or that cut the table), then by
     * cards shed; the pass last. */
    int order[MOVEGEN_MAX], key[MOVEGEN_MAX];
    for (int i = 0; i < n; i++) {
        const Move m = mv[i];
        int k = m.type == MOVE_PASS ? -1 : m.n;
        if (m.type != MOVE_PASS && (move_is_eight(m) || !beatable(m, g->rev ^ move_is_revolution(m), g->hand[op])))
            k += 16;
        key[i] = k;
        int j = i;
        for (; j > 0 && key[order[j - 1]] < k; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    for (int t = 0; t < n && !win && !s->aborted; t++) {
        const int i = order[t];
        GameState c = *g;
        int ev = state_apply(&c, mv[i]);
        int r;
        if (c.over)
            r = (ev & EV_FINISH) != 0; /* the first of the two to go out ends the game */
        else if (c.turn == me)
            r = solve(s, &c, NULL);
        else
            r = !solve(s, &c, NULL);
        if (r) {
            win = 1;
            if (best)
                *best = mv[i];
        }
    }
    if (s->aborted)
        return 0;
    if (s->tt && !best) {
        s->tt->e[slot].key = k1;
        s->tt->e[slot].key2 = k2;
        s->tt->e[slot].gen = s->tt->gen;
        s->tt->e[slot].value = (int8_t)win;
    }
    return win;
}

void endgame_tt_clear(EndgameTT *tt)
{
    if (++tt->gen == 0) { /* generation wrapped: clear once */
        memset(tt->e, 0, sizeof tt->e);
        tt->gen = 1;
    }
}

int endgame_solve2(const GameState *g, long max_nodes, EndgameTT *tt, Move *best, long *nodes)
{
    Solver s = {0, max_nodes, tt, 0};
    if (tt && tt->gen == 0)
        endgame_tt_clear(tt);
    Move b = move_pass();
    int r = g->over || other_in(g, g->turn) < 0 ? -1 : solve(&s, g, &b);
    if (nodes)
        *nodes = s.nodes;
    if (s.aborted)
        return -1;
    if (best)
        *best = b;
    return r;
}

int endgame_brute2(const GameState *g)
{
    const int me = g->turn;
    Move mv[MOVEGEN_MAX];
    int n = state_moves(g, mv);
    for (int i = 0; i < n; i++) {
        GameState c = *g;
        int ev = state_apply(&c, mv[i]);
        int r = c.over ? (ev & EV_FINISH) != 0 : c.turn == me ? endgame_brute2(&c) : !endgame_brute2(&c);
        if (r)
            return 1;
    }
    return 0;
}

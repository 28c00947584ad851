/* endgame.c — sure wins and the exact two-player solver (see endgame.h). */
#include "players/endgame.h"

#include "game/player.h"

#include <stdlib.h>
#include <string.h>

/* Whether one of the n opponents' hands opp[] beats m (m on the table, order rev; any lock is
 * ignored, which only makes more answers possible: the test stays sufficient). With one hand
 * holding every card the mover cannot see, a card anywhere counts. Nobody answers a meld of
 * more cards than the most any of them holds (maxc). */
static int beatable(Move m, int rev, const Cards *opp, int n, int maxc)
{
    if (m.type == MOVE_PASS)
        return 1;
    if (cards_count(move_cards(m)) > maxc)
        return 0;
    for (int i = 0; i < n; i++)
        if (movegen_can_follow(opp[i], m, rev, 0))
            return 1;
    return 0;
}

/* The opponents the mover's melds meet: after a clear every one still in (opp, nopp, holding at
 * most maxc cards each, at least minc); on the table the mover now faces, only those who have
 * not passed since the last clear (opp1, nopp1, maxc1). */
typedef struct Opps {
    const Cards *opp, *opp1;
    int nopp, nopp1, maxc, maxc1, minc;
} Opps;

/* An opponent of c cards in o's counts (awake: it has not passed since the last clear). */
static void opps_count(Opps *o, int c, int awake)
{
    o->maxc = c > o->maxc ? c : o->maxc;
    o->minc = c < o->minc ? c : o->minc;
    if (awake)
        o->maxc1 = c > o->maxc1 ? c : o->maxc1;
}

/* A meld after which the mover leads again whatever the others do. */
static int keeps_lead(Move m, int rev, const Opps *o)
{
    return move_is_eight(m) || !beatable(m, rev, o->opp, o->nopp, o->maxc);
}

/* A single led from h that only the joker answers, while h keeps the spade 3 for the joker (the
 * spade 3 on a lone joker clears the table) and nobody can go out with the joker alone: either
 * way the mover leads again, with or without its spade 3 (KleinBlauw's mate test reads this
 * pattern too). */
static int s3_returns(Move m, Cards h, int rev, const Opps *o)
{
    if (m.type != MOVE_SINGLE || !(h & CARDS_S3) || move_cards(m) == CARDS_S3 || o->minc < 2)
        return 0;
    int joker = 0;
    for (int i = 0; i < o->nopp; i++) {
        joker |= (o->opp[i] & CARDS_JOKER) != 0;
        if (movegen_can_follow(o->opp[i] & ~CARDS_JOKER, m, rev, 0))
            return 0;
    }
    return joker;
}

/* One sure-win search: its budget of nodes, and the positions it found to fail (the hand, the
 * order, the depth) with the budget each spent. A position met again (the same melds led in
 * another order: about half the nodes) fails again after spending as much, so it is charged
 * without being searched: the answer, the move and the budget's course are exactly those of
 * searching it again. */
#define SW_MEMO 64
typedef struct SureWin {
    int budget;
    uint64_t used; /* bit i: memo[i] holds a position */
    struct {
        Cards h;
        int rev, depth, spent;
    } memo[SW_MEMO];
} SureWin;

static unsigned sw_slot(Cards h, int rev, int depth)
{
    return (unsigned)(((h ^ ((Cards)(rev + 2 * depth) << 61)) * 0x9E3779B97F4A7C15ULL) >> 58);
}

/* The budget a failed position spent, or -1 when it is not known to fail. */
static int sw_failed(const SureWin *s, Cards h, int rev, int depth)
{
    for (unsigned i = sw_slot(h, rev, depth), k = 0; k < SW_MEMO && ((s->used >> i) & 1); i = (i + 1) % SW_MEMO, k++)
        if (s->memo[i].h == h && s->memo[i].rev == rev && s->memo[i].depth == depth)
            return s->memo[i].spent;
    return -1;
}

static void sw_fail(SureWin *s, Cards h, int rev, int depth, int spent)
{
    for (unsigned i = sw_slot(h, rev, depth), k = 0; k < SW_MEMO; i = (i + 1) % SW_MEMO, k++)
        if (!((s->used >> i) & 1)) {
            s->used |= 1ULL << i;
            s->memo[i].h = h;
            s->memo[i].rev = rev;
            s->memo[i].depth = depth;
            s->memo[i].spent = spent;
            return;
        }
}

/* Leading with hand h in order rev: is there a chain of kept leads ending in the last meld? */
static int chain(Cards h, int rev, const Opps *o, int depth, SureWin *s, Move *first)
{
    if (!h)
        return 1;
    const int known = sw_failed(s, h, rev, depth);
    if (known >= 0) {
        s->budget -= known;
        return 0;
    }
    const int before = s->budget;
    if (--s->budget < 0 || depth > 12)
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
        const Cards rest = h & ~move_cards(mv[i]);
        if (keeps_lead(mv[i], r2, o) ? chain(rest, r2, o, depth + 1, s, NULL)
                                     : s3_returns(mv[i], h, r2, o) && chain(rest, r2, o, depth + 1, s, NULL) &&
                                           chain(rest & ~CARDS_S3, r2, o, depth + 1, s, NULL)) {
            if (first)
                *first = mv[i];
            return 1;
        }
    }
    if (s->budget >= 0) /* searched to the end: it fails whenever it is met with this much left */
        sw_fail(s, h, rev, depth, before - s->budget);
    return 0;
}

static int sure_win(Cards hand, Move table, int rev, int lock, const Opps *o, Move *first)
{
    SureWin s;
    s.budget = 64;
    s.used = 0;
    if (table.type == MOVE_PASS)
        return chain(hand, rev, o, 0, &s, first);
    Move mv[MOVEGEN_MAX];
    int n = movegen_follow(hand, table, rev, lock, mv);
    for (int i = 1; i < n; i++) { /* mv[0] is the pass */
        Cards rest = hand & ~move_cards(mv[i]);
        int r2 = rev ^ move_is_revolution(mv[i]);
        /* the spade 3 on a lone joker clears the table, as an 8 does */
        int cut = move_is_eight(mv[i]) || table.type == MOVE_JOKER;
        if (!rest || ((cut || !beatable(mv[i], r2, o->opp1, o->nopp1, o->maxc1)) && chain(rest, r2, o, 1, &s, NULL))) {
            if (first)
                *first = mv[i];
            return 1;
        }
    }
    return 0;
}

int endgame_sure_win(Cards hand, Move table, int rev, int lock, Cards others, int maxc_awake, int maxc, int minc,
                     Move *first)
{
    const Opps o = {&others, &others, 1, 1, maxc, maxc_awake, minc};
    return sure_win(hand, table, rev, lock, &o, first);
}

int endgame_sure_win_view(const InfoSet *v, Move *first)
{
    Opps o = {NULL, NULL, 0, 0, 0, 0, 99};
    for (int p = 0; p < NPLAYERS; p++)
        if (p != v->me && !((v->out >> p) & 1))
            opps_count(&o, v->ncards[p], !((v->passed >> p) & 1));
    return endgame_sure_win(v->hand, v->table, v->rev, v->lock, CARDS_ALL & ~v->hand & ~v->played, o.maxc1, o.maxc,
                            o.minc, first);
}

/* The opponents of g->turn as Opps, their hands apart (opp[], opp1[]). */
static void opps_of(const GameState *g, Cards opp[NPLAYERS], Cards opp1[NPLAYERS], Opps *o)
{
    *o = (Opps){opp, opp1, 0, 0, 0, 0, 99};
    for (int p = 0; p < NPLAYERS; p++) {
        if (p == g->turn || !g->hand[p])
            continue;
        const int awake = !((g->passed >> p) & 1);
        opp[o->nopp++] = g->hand[p];
        if (awake)
            opp1[o->nopp1++] = g->hand[p];
        opps_count(o, cards_count(g->hand[p]), awake);
    }
}

int endgame_sure_win_hands(const GameState *g, Move *first)
{
    Cards opp[NPLAYERS], opp1[NPLAYERS];
    Opps o;
    opps_of(g, opp, opp1, &o);
    return sure_win(g->hand[g->turn], g->table, g->rev, g->lock, &o, first);
}

int endgame_sure_win_state(const GameState *g, Move *first)
{
    Cards opp[NPLAYERS], opp1[NPLAYERS], pool = 0;
    Opps o;
    opps_of(g, opp, opp1, &o);
    for (int i = 0; i < o.nopp; i++)
        pool |= opp[i];
    return endgame_sure_win(g->hand[g->turn], g->table, g->rev, g->lock, pool, o.maxc1, o.maxc, o.minc, first);
}

/* ---------------------------------------------------------------- two players */

/* The solver works on its own compact form of a two-player position, from the mover's view:
 * a = the mover's hand, b = the other's, t = the table (a pass: empty), and flags: revolution,
 * lock, BP (the other has passed since the last clear) and FL (after a clear the mover leads,
 * else the other). That is everything GameState says about two players that can change who
 * goes out first (the stalemate counter cannot reach 20 here: every lead is a meld, so at
 * most two passes come in a row; endgame_solve2 answers "undecided" for a position where two
 * more passes would end the game by lot, which real two-player endings never reach).
 *
 * What saves nodes (each exact):
 *  - a forced pass (the other cannot answer) is no node: the mover goes on at once;
 *  - a move that empties the hand wins, and is looked for before the position counts as a node;
 *  - quick wins before any search: at the lead, l2_easy_win (a sufficient test read off
 *    bitboards); at every position, a meld after which the mover surely leads again (it cuts,
 *    or the other has passed or cannot answer it) with a hand l2_easy_win sees through;
 *  - the order: more cards first, then the hand left nearer an easy win, then melds after which
 *    the mover leads again;
 *  - the table holds lead positions (the mover implicit), the only ones many lines reach
 *    again, 16 bytes each, kept from call to call (a result never changes). */

enum { F_REV = 1, F_LOCK = 2, F_BP = 4, F_FL = 8 };

/* What hand b can beat at the lead in order rev: bit 4c+3 of beaten[k] is set when b beats a
 * group of k cards of column c (k = 1: a single) led on an empty table. */
typedef struct Beats {
    Cards beaten[5];
    int s3; /* b holds the spade 3 (the only answer to a lone joker) */
} Beats;

#define BEATS_CACHE 16

typedef struct Solver {
    long nodes, max_nodes;
    EndgameTT *tt;
    int aborted;
    Cards cached[BEATS_CACHE]; /* b | rev << 63 of each entry of beats (0: empty) */
    Beats beats[BEATS_CACHE];
} Solver;

static int l2_lead(Solver *s, Cards a, Cards b, int rev);
static int l2_node(Solver *s, Cards a, Cards b, Move t, int f);

#define COL_BITS 0x8888888888888888ULL

/* The columns weaker than the strongest column in `cols` (bit 4c+3 each) in order rev. */
static inline Cards weaker_than_best(Cards cols, int rev)
{
    if (!cols)
        return 0;
    if (rev)
        return ~((2ULL << __builtin_ctzll(cols)) - 1) & COL_BITS;
    return ((1ULL << (63 - __builtin_clzll(cols))) - 1) & COL_BITS;
}

static inline void beats_init(Beats *x, Cards b, int rev)
{
    const Cards bc = movegen_col_counts(b & CARDS_NATURAL);
    const Cards w1 = weaker_than_best(movegen_cols_at_least(bc, 1), rev);
    const Cards w2 = weaker_than_best(movegen_cols_at_least(bc, 2), rev);
    const Cards w3 = weaker_than_best(movegen_cols_at_least(bc, 3), rev);
    const Cards w4 = weaker_than_best(movegen_cols_at_least(bc, 4), rev);
    const Cards jk = (b & CARDS_JOKER) ? ~0ULL : 0; /* the joker beats any single, completes groups */
    x->beaten[1] = w1 | (jk & COL_BITS);
    x->beaten[2] = w2 | (jk & w1);
    x->beaten[3] = w3 | (jk & w2);
    x->beaten[4] = w4 | (jk & w3);
    x->s3 = (b & CARDS_S3) != 0;
}

/* beats_init for (b, rev), from a small cache: b is one of two hands that change slowly. */
static inline __attribute__((always_inline)) const Beats *l2_beats(Solver *s, Cards b, int rev)
{
    const Cards key = b | (Cards)rev << 63;
    const unsigned slot = (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 60) & (BEATS_CACHE - 1);
    if (s->cached[slot] != key) {
        s->cached[slot] = key;
        beats_init(&s->beats[slot], b, rev);
    }
    return &s->beats[slot];
}

/* A cheap sufficient test that the mover, leading with a against the b that x describes, goes
 * out first: its hand split by columns (each column's cards one meld, the joker alone or
 * joined to one of them), every meld but at most one is one b cannot beat (or has an 8, which
 * cuts); the mover plays those first and the other last. Hands with four of a column (a
 * revolution) are left to the search. */
static inline int l2_easy_win(Cards a, const Beats *x)
{
    const Cards counts = movegen_col_counts(a & CARDS_NATURAL);
    const Cards c1 = movegen_cols_at_least(counts, 1), c2 = movegen_cols_at_least(counts, 2);
    const Cards c3 = movegen_cols_at_least(counts, 3);
    if (movegen_cols_at_least(counts, 4))
        return 0;
    const Cards keep = ~(8ULL << (4 * COL_8)); /* the 8s cut */
    const Cards l1 = c1 & ~c2 & x->beaten[1] & keep, l2 = c2 & ~c3 & x->beaten[2] & keep;
    const int losers = cards_count(l1 | l2 | (c3 & x->beaten[3] & keep));
    if (!(a & CARDS_JOKER))
        return losers <= 1;
    /* the joker: alone (beaten only by the spade 3), or joined to a beaten meld it makes safe */
    const Cards fixable = (l1 & ~x->beaten[2]) | (l2 & ~x->beaten[3]);
    return losers + x->s3 <= 1 || (fixable && losers <= 2);
}

/* How far hand a is from what l2_easy_win sees through, for ordering the search: the melds of its
 * column split that b can beat (four each), plus its distinct ranks. */
static inline int l2_distance(Cards a, const Beats *x)
{
    const Cards counts = movegen_col_counts(a & CARDS_NATURAL);
    const Cards c1 = movegen_cols_at_least(counts, 1), c2 = movegen_cols_at_least(counts, 2);
    const Cards c3 = movegen_cols_at_least(counts, 3);
    const Cards keep = ~(8ULL << (4 * COL_8));
    const Cards beaten = (c1 & ~c2 & x->beaten[1]) | (c2 & ~c3 & x->beaten[2]) | (c3 & x->beaten[3]);
    return 4 * cards_count(beaten & keep) + cards_count(c1);
}

/* Whether b can answer meld m (rev and lock as they are after it), by generating the answers
 * (out of line: its move array would weigh on every caller's frame). */
static __attribute__((noinline)) int l2_answers_gen(Cards b, Move m, int rev, int lock)
{
    Move tmp[MOVEGEN_MAX];
    return movegen(b, m, rev, lock, tmp) > 1;
}

/* The same, with x what b beats in order rev: singles, groups and the lone joker without a
 * lock are read off x. */
static inline int l2_answers(Cards b, const Beats *x, Move m, int rev, int lock)
{
    if (m.type == MOVE_JOKER)
        return x->s3;
    if ((m.type == MOVE_SINGLE || m.type == MOVE_GROUP) && !lock)
        return m.n <= 4 && ((x->beaten[m.n] >> (4 * m.low + 3)) & 1);
    return l2_answers_gen(b, m, rev, lock);
}

/* The flags after meld m is played on t (revolution, lock; BP and FL are the caller's). */
static inline int l2_after(Move t, int f, Move m)
{
    int g = (f & F_REV) ^ move_is_revolution(m);
    if (m.type != MOVE_JOKER && ((f & F_LOCK) || (t.type != MOVE_PASS && m.suits == t.suits)))
        g |= F_LOCK;
    return g;
}

/* The mover plays meld m on t (flags f); keep: whether it surely leads again after it (the
 * other has passed or cannot answer; the caller knows). 1 if the mover then goes out first. */
enum { GOES_ON = 0, KEEPS = 1, CUTS = 2 }; /* after a meld: the other answers or passes, the
                                             * other has passed or cannot answer, the table clears */

/* The mover, holding a2 after playing meld m (flags g after it; what happens next: how), goes
 * out first? */
static inline int l2_play(Solver *s, Cards a2, Cards b, Move m, int g, int how)
{
    if (!a2)
        return 1;
    if (how == CUTS) /* the mover leads again */
        return l2_lead(s, a2, b, g & F_REV);
    if (how == KEEPS) /* the other passes (or had): the mover goes on, on its own meld */
        return l2_node(s, a2, b, m, g | F_BP | F_FL);
    return !l2_node(s, b, a2, m, g);
}

/* What follows meld m on t (flags f before it, g after it) when the other holds b (x: what b
 * beats in order g & F_REV). */
static inline int l2_how(Cards b, const Beats *x, Move t, int f, Move m, int g)
{
    if (move_is_eight(m) || t.type == MOVE_JOKER)
        return CUTS;
    return (f & F_BP) || !l2_answers(b, x, m, g & F_REV, g & F_LOCK) ? KEEPS : GOES_ON;
}

/* The moves mv[0..n) of the mover facing t (a pass: leading) with flags f: 1 if one wins. */
static int l2_search(Solver *s, Cards a, Cards b, Move t, int f, const Move *mv, int n)
{
    /* First, for every meld: what follows it, and does the mover lead again after it with a
     * hand l2_easy_win sees through? Then a search of each in the order of a key: more cards
     * first, then the hand left nearer an easy win, then melds after which the mover leads
     * again (measured on blaux5: 84 nodes a position against 156 for "stronger melds first" and
     * 380 for "melds that keep the lead first"). */
    uint8_t how[MOVEGEN_MAX], after[MOVEGEN_MAX];
    Cards left[MOVEGEN_MAX];
    int ord[MOVEGEN_MAX], key[MOVEGEN_MAX], k = 0;
    const Beats *x0 = l2_beats(s, b, f & F_REV); /* what b beats after any meld but a revolution */
    for (int i = n - 1; i >= 0; i--) {
        const Move m = mv[i];
        if (m.type == MOVE_PASS)
            continue;
        const int g = l2_after(t, f, m);
        const Beats *x = move_is_revolution(m) ? l2_beats(s, b, g & F_REV) : x0;
        left[i] = a & ~move_cards(m);
        after[i] = (uint8_t)g;
        how[i] = (uint8_t)l2_how(b, x, t, f, m, g);
        if (how[i] != GOES_ON && l2_easy_win(left[i], x))
            return 1;
        const int kk = -256 * m.n + 4 * l2_distance(left[i], x) + (how[i] == GOES_ON);
        int at = k++;
        for (; at > 0 && key[at - 1] > kk; at--) { /* stable: generation order breaks ties */
            key[at] = key[at - 1];
            ord[at] = ord[at - 1];
        }
        key[at] = kk;
        ord[at] = i;
    }
    for (int o = 0; o < k; o++) {
        const int i = ord[o];
        const int r = l2_play(s, left[i], b, mv[i], after[i], how[i]);
        if (r || s->aborted)
            return r && !s->aborted;
    }
    return 0;
}

/* The mover passes on table t. */
static int l2_pass(Solver *s, Cards a, Cards b, Move t, int f)
{
    if (f & F_BP) /* both have passed: the table clears */
        return f & F_FL ? l2_lead(s, a, b, f & F_REV) : !l2_lead(s, b, a, f & F_REV);
    return !l2_node(s, b, a, t, ((f & (F_REV | F_LOCK)) | F_BP | (~f & F_FL)));
}

/* The mover faces meld t (the other's, or its own when the other has passed). */
static int l2_node(Solver *s, Cards a, Cards b, Move t, int f)
{
    Move mv[MOVEGEN_MAX];
    const int n = movegen(a, t, f & F_REV, (f & F_LOCK) != 0, mv);
    if (n == 1) /* only the pass: no node */
        return l2_pass(s, a, b, t, f);
    if (cards_count(a) == t.n) /* every answer has t's size: one may empty the hand */
        for (int i = 1; i < n; i++)
            if (move_cards(mv[i]) == a)
                return 1;
    if (++s->nodes > s->max_nodes) {
        s->aborted = 1;
        return 0;
    }
    return l2_search(s, a, b, t, f, mv + 1, n - 1) || (!s->aborted && l2_pass(s, a, b, t, f));
}

/* The table: lead positions. Entry word 0: a | rev << 61 | win << 62 | generation in bits
 * 0-3 (never a card); word 1: b. */
#define TT_WIN (1ULL << 62)

static int l2_lead(Solver *s, Cards a, Cards b, int rev)
{
    uint64_t *e = NULL;
    if (s->tt) { /* fetched while the moves are generated */
        const uint64_t h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL) ^ (uint64_t)rev;
        e = s->tt->e + 2 * (size_t)(h >> (64 - s->tt->bits));
        __builtin_prefetch(e);
    }
    /* a hand that is one meld wins: all in one column (with or without the joker: a single,
     * a group, the lone joker), or a sequence (generated last), looked for only when possible */
    if (cards_count(movegen_cols_at_least(movegen_col_counts(a & CARDS_NATURAL), 1)) <= 1)
        return 1;
    Move mv[MOVEGEN_MAX];
    const int n = movegen_lead(a, mv);
    if (cards_count(a) >= 3)
        for (int i = n - 1; i >= 0 && mv[i].type == MOVE_SEQ; i--)
            if (move_cards(mv[i]) == a)
                return 1;
    if (++s->nodes > s->max_nodes) {
        s->aborted = 1;
        return 0;
    }
    const uint64_t k0 = a | (uint64_t)rev << 61 | (e ? s->tt->gen : 0);
    if (e && (e[0] & ~TT_WIN) == k0 && e[1] == b)
        return (e[0] & TT_WIN) != 0;
    const int win = l2_easy_win(a, l2_beats(s, b, rev)) || l2_search(s, a, b, move_pass(), rev ? F_REV : 0, mv, n);
    if (s->aborted)
        return 0;
    if (e) {
        e[0] = k0 | (win ? TT_WIN : 0);
        e[1] = b;
    }
    return win;
}

int endgame_tt_init(EndgameTT *tt, int bits)
{
    tt->bits = (uint32_t)bits;
    tt->gen = 1;
    tt->e = calloc((size_t)2 << bits, sizeof *tt->e);
    return tt->e ? 0 : -1;
}

void endgame_tt_free(EndgameTT *tt)
{
    free(tt->e);
    tt->e = NULL;
}

void endgame_tt_clear(EndgameTT *tt)
{
    if (tt->e && ++tt->gen == 16) { /* the generation field wrapped: clear once */
        memset(tt->e, 0, ((size_t)2 << tt->bits) * sizeof *tt->e);
        tt->gen = 1;
    }
}

static int other_in(const GameState *g, int me)
{
    for (int p = 0; p < NPLAYERS; p++)
        if (p != me && !((g->out >> p) & 1))
            return p;
    return -1;
}

int endgame_solve2(const GameState *g, long max_nodes, EndgameTT *tt, Move *best, long *nodes)
{
    Solver s; /* the beat-mask cache starts empty (no key is 0: b holds cards); its masks are
               * written before they are read */
    memset(s.cached, 0, sizeof s.cached);
    s.nodes = 0;
    s.aborted = 0;
    s.max_nodes = max_nodes;
    s.tt = tt && tt->e ? tt : NULL;
    const int me = g->turn, op = g->over ? -1 : other_in(g, me);
    if (op < 0 || g->npass + 2 >= STALEMATE_PASSES) { /* not two players; or chance may end it */
        if (nodes)
            *nodes = 0;
        return -1;
    }
    int r = 0;
    Move b = move_pass();
    {
        /* the root: each move tried in turn, so that the winning one is known */
        const Cards a = g->hand[me], h = g->hand[op];
        const int owner = g->owner, lead = (g->out >> owner) & 1 ? state_next_with_cards(g, owner) : owner;
        const int f = (g->rev ? F_REV : 0) | (g->lock ? F_LOCK : 0) | ((g->passed >> op) & 1 ? F_BP : 0) |
                      (lead == me ? F_FL : 0);
        Move mv[MOVEGEN_MAX];
        const int n = state_moves(g, mv);
        s.nodes++;
        for (int i = n - 1; i >= 0 && !r && !s.aborted; i--) {
            if (mv[i].type == MOVE_PASS) {
                r = l2_pass(&s, a, h, g->table, f);
            } else {
                const int g2 = l2_after(g->table, f, mv[i]);
                const int how = l2_how(h, l2_beats(&s, h, g2 & F_REV), g->table, f, mv[i], g2);
                r = l2_play(&s, a & ~move_cards(mv[i]), h, mv[i], g2, how);
            }
            if (r)
                b = mv[i];
        }
    }
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

int endgame_solve_view(const InfoSet *v, long max_nodes, EndgameTT *tt, Move *best)
{
    if (v->nout != NPLAYERS - 2)
        return -1;
    const Cards unseen = CARDS_ALL & ~v->hand & ~v->played;
    int op = -1;
    for (int q = 0; q < NPLAYERS; q++)
        if (q != v->me && v->ncards[q] > 0)
            op = q;
    if (op < 0 || cards_count(unseen) != v->ncards[op])
        return -1;
    Cards hand[NPLAYERS] = {0};
    hand[v->me] = v->hand;
    hand[op] = unseen;
    GameState g;
    infoset_to_state(v, hand, &g);
    return endgame_solve2(&g, max_nodes, tt, best, NULL);
}

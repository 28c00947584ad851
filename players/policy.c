/* policy.c — the learned policy: features, scores, sampling, weight files, playouts (see
 * policy.h). policy_features() is the definition; policy_scores() computes the same sums
 * faster (the hand left by a move differs from the hand in one to five ranks, so its AFTER
 * and MELDS parts are the hand's own corrected for those ranks); a test holds them equal. */
#include "players/policy.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "players/players.h"
#include "players/wtext.h"

/* ---------------------------------------------------------------- the layout */

#define GROUP_TEXT(name, size) #name ":" #size " "

const char *policy_layout(void)
{
    static const char text[] = "dhm-policy-features 1; play: " POLICY_PLAY_GROUPS(GROUP_TEXT) "; exchange: "
        POLICY_EXCH_GROUPS(GROUP_TEXT);
    return text;
}

uint64_t policy_layout_hash(void)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of the layout text */
    for (const char *s = policy_layout(); *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

const char *policy_play_group(int i, int *offset)
{
#define GROUP_FIND(name, size)                                                                                     \
    if (i >= PF_##name && i <= PF_##name##_END) {                                                                  \
        *offset = i - PF_##name;                                                                                   \
        return #name;                                                                                              \
    }
    POLICY_PLAY_GROUPS(GROUP_FIND)
#undef GROUP_FIND
    *offset = 0;
    return "?";
}

/* ---------------------------------------------------------------- small classifications */

static inline int strength(int col, int rev) { return rev ? 14 - col : col; }

/* 0 pass, 1 single, 2..5 group of 2..5, 6..9 sequence of 3, 4, 5, 6+, 10 lone joker */
static inline int kind_of(Move m)
{
    static const uint8_t KIND[5][16] = {
        {0},
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
        {0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5},
        {6, 6, 6, 6, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9},
        {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10},
    };
    return KIND[m.type <= MOVE_JOKER ? m.type : 0][m.n & 15];
}

/* single 0, group 1, sequence 2, lone joker 3 */
static inline int kind_class(Move m) { return m.type == MOVE_JOKER ? 3 : m.type - 1; }

/* The strength of a move's weakest card in the current order (0..15); pass 0, joker 15. */
static inline int move_strength(Move m, int rev)
{
    const int s = rev ? 14 - move_high(m) : m.low;
    return m.type == MOVE_JOKER ? 15 : m.type == MOVE_PASS ? 0 : s;
}

/* An 8-cut, without the branches of move_is_eight: naturals (types 1..3) from at most the 8
 * to at least it. */
static inline int is_eight(Move m)
{
    return ((unsigned)m.type - 1u <= 2u) & (m.low <= COL_8) & (move_high(m) >= COL_8);
}

static inline int col_count(const PolicyCtx *c, int col) { return (int)((c->counts >> (4 * col)) & 15); }

/* The classes below are sums of comparisons, not chains of branches: the classified numbers
 * change from move to move, and mispredicted branches cost more than the whole sum. */
static inline int phase_of(int n)
{
    static const uint8_t CLASS[16] = {0, 0, 1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5}; /* 1, 2, 3, 4-5, 6-8, 9+ */
    return CLASS[n < 15 ? n : 15];
}
static inline int count_class(int n)
{
    static const uint8_t CLASS[8] = {0, 0, 1, 2, 2, 3, 3, 3}; /* 1, 2, 3-4, 5+ */
    return CLASS[n < 7 ? n : 7];
}
static inline int strength_class(int s)
{
    static const uint8_t CLASS[16] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3};
    return CLASS[s & 15];
}
static inline int left_class(int n)
{
    static const uint8_t CLASS[16] = {0, 1, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    return CLASS[n & 15];
}
static inline int min_int(int a, int b) { return a < b ? a : b; }

/* Cards of x in a run of >= 3 consecutive columns of one suit (columns 1..13). */
static inline Cards runs3(Cards x)
{
    x &= CARDS_NATURAL;
    Cards t = x & (x >> 4) & (x >> 8);
    return (t | t << 4 | t << 8) & CARDS_NATURAL;
}

/* Whether the cards x hold a run of n consecutive columns of one suit. */
static inline int has_run(Cards x, int n)
{
    Cards t = x & CARDS_NATURAL;
    for (int k = 1; k < n && t; k++)
        t &= x >> (4 * k);
    return t != 0;
}

/* One bit (the column's lowest) per column below the strongest column of b (bits 4c+3), and
 * per column above its weakest; none when b is empty (b | 1 keeps the count of leading zeros
 * defined and moves no top bit). */
static inline Cards below_top(Cards b) { return (((2ULL << (63 - __builtin_clzll(b | 1))) - 1) >> 4) & CARDS_SUIT_LOW; }
static inline Cards above_bottom(Cards b) { return ((0 - (b & (0 - b))) << 1) & CARDS_SUIT_LOW; }

/* ---------------------------------------------------------------- the situation */

/* me, owner, passed, out: the public facts of who may still answer the meld on the table. */
static inline __attribute__((always_inline)) void ctx_fill(PolicyCtx *c, Cards hand, Cards played, Move table,
                                                             int rev, int lock, int oppmin_cards, int me, int owner,
                                                             int passed, int out, int owner_cards)
{
    c->hand = hand;
    c->unseen = CARDS_ALL & ~hand & ~played;
    c->table = table;
    c->rev = rev;
    c->lock = lock;
    c->lead = table.type == MOVE_PASS;
    c->ncards = cards_count(hand);
    c->phase = phase_of(c->ncards);
    c->oppmin = count_class(oppmin_cards);
    c->counts = movegen_col_counts(hand & CARDS_NATURAL);
    c->ncols = cards_count(movegen_cols_nonzero(c->counts)) + (int)((hand >> JOKER_BIT) & 1);
    Cards nat = hand & CARDS_NATURAL;
    c->top = !nat ? 0 : strength((rev ? cards_lowest_bit(nat) : cards_highest_bit(nat)) >> 2, rev);
    c->seqable = runs3(hand);
    Cards uc = movegen_col_counts(c->unseen & CARDS_NATURAL);
    c->beat[0] = 0;
    for (int k = 1; k <= 4; k++)
        c->beat[k] = movegen_cols_at_least(uc, k);
    /* control: my naturals above the strongest unseen natural (in the current order) */
    /* without a branch: no unseen natural leaves them all (the naturals start at bit 4; bit 63
     * stands for "none" in a revolution) */
    const Cards un = c->unseen & CARDS_NATURAL;
    const Cards above = ~((2ULL << cards_highest_bit(un | 1)) - 1), below = (1ULL << cards_lowest_bit(un | 1ULL << 63)) - 1;
    c->control = nat & (rev ? below : above);
    /* which groups of the hand could be beaten: n cards of column c are when the unseen hold n
     * of one stronger column, or n - 1 and the joker (a lone joker beats every single). So the
     * most that can be beaten (nibble c of beatable) is the most unseen cards of one stronger
     * column, plus one for the joker; the 8s never (they cut). */
    Cards most;
    if (!rev) /* the columns below the strongest holding at least n, for n = 1..4 */
        most = below_top(c->beat[1]) + below_top(c->beat[2]) + below_top(c->beat[3]) + below_top(c->beat[4]);
    else
        most = above_bottom(c->beat[1]) + above_bottom(c->beat[2]) + above_bottom(c->beat[3]) +
               above_bottom(c->beat[4]);
    most += CARDS_SUIT_LOW & -((c->unseen >> JOKER_BIT) & 1);
    c->beatable = most & CARDS_NATURAL & ~CARDS_COL(COL_8);
    /* nibble by nibble, 8 + beatable - count has bit 3 set when the rank can be beaten */
    const Cards held = movegen_cols_nonzero(c->counts);
    c->mbeat = cards_count((((c->beatable | (CARDS_SUIT_LOW << 3)) - c->counts) >> 3) & held);
    c->mkeep = cards_count(held) - c->mbeat;
    const int waiting = ~(passed | out | (1 << me) | (1 << owner)) & 31;
    c->others_passed = !c->lead && waiting == 0;
    c->owner_class = count_class(owner_cards);
}

void policy_ctx_state(PolicyCtx *c, const GameState *g)
{
    const int p = g->turn;
    const int skip = g->out | 1 << p;
    int n[NPLAYERS]; /* branch-free: who is still in changes all the time */
    for (int q = 0; q < NPLAYERS; q++)
        n[q] = cards_count(g->hand[q]) + ((skip >> q) & 1) * 128;
    const int oppmin = min_int(min_int(min_int(n[0], n[1]), min_int(n[2], n[3])), n[4]);
    ctx_fill(c, g->hand[p], g->played, g->table, g->rev, g->lock, oppmin, p, g->owner, g->passed, g->out,
             cards_count(g->hand[g->owner]));
}

void policy_ctx_info(PolicyCtx *c, const InfoSet *v)
{
    int oppmin = 99;
    for (int q = 0; q < NPLAYERS; q++)
        if (q != v->me && !((v->out >> q) & 1) && v->ncards[q] < oppmin)
            oppmin = v->ncards[q];
    ctx_fill(c, v->hand, v->played, v->table, v->rev, v->lock, oppmin, v->me, v->owner, v->passed, v->out,
             v->ncards[v->owner]);
}

/* Whether no cards the mover cannot see could beat m (an 8-cut clears the table itself). */
static inline __attribute__((always_inline)) int unbeatable(const PolicyCtx *c, Move m)
{
    if (is_eight(m))
        return 1;
    const int jk = (int)((c->unseen >> JOKER_BIT) & 1);
    switch (m.type) {
    case MOVE_SINGLE: return !(c->unseen & movegen_range(m.low, c->rev)) & !jk;
    case MOVE_GROUP: {
        Cards range = movegen_range(m.low, c->rev);
        if (m.n <= 4 && (c->beat[m.n] & range))
            return 0;
        return !(jk && m.n - 1 >= 1 && m.n - 1 <= 4 && (c->beat[m.n - 1] & range));
    }
    case MOVE_SEQ: {
        int edge = c->rev ? m.low : m.low + m.n - 1;
        Cards u = c->unseen & movegen_range(edge, c->rev);
        return !has_run(u, jk ? m.n - 1 : m.n);
    }
    case MOVE_JOKER: return !(c->unseen & CARDS_S3);
    default: return 0;
    }
}

/* ---------------------------------------------------------------- features */

/* What a move does to the hand. */
typedef struct MoveInfo {
    Cards after;
    int rev_after; /* the order the hand left is valued in */
} MoveInfo;

/* Where features go: listed (idx) or summed (w). The feature definitions below are written
 * once and instantiated twice, so the list and the sum cannot disagree. */
typedef struct Sink {
    const double *w;
    double sum;
    uint16_t *idx;
    int k;
} Sink;

#define EMIT(i)                                                                                                    \
    do {                                                                                                           \
        if (add)                                                                                                   \
            sk->sum += sk->w[i];                                                                                   \
        else                                                                                                       \
            sk->idx[sk->k++] = (uint16_t)(i);                                                                      \
    } while (0)

/* EMIT(i) when cond holds, without a branch: a feature that is off adds w[first] * 0 (i is
 * not read then), which leaves the sum exactly as it was. */
#define EMIT_IF(cond, i)                                                                                           \
    do {                                                                                                           \
        const int on_ = (cond) != 0;                                                                               \
        const int i_ = (int)(i) & -on_; /* a mask, not a select: compilers branch on selects */                  \
        if (add)                                                                                                   \
            sk->sum += sk->w[i_] * (double)on_;                                                                    \
        else {                                                                                                     \
            sk->idx[sk->k] = (uint16_t)i_;                                                                         \
            sk->k += on_;                                                                                          \
        }                                                                                                          \
    } while (0)

/* Every feature of m except the AFTER group; fills mi. */
static inline __attribute__((always_inline)) void base_features(const PolicyCtx *c, Move m, Sink *sk, MoveInfo *mi,
                                                                 const int add)
{
    const int lead = c->lead;
    const Cards cards = move_cards(m);
    mi->after = c->hand & ~cards;
    mi->rev_after = c->rev;
    const int s = move_strength(m, c->rev);
    EMIT(PF_SHAPE + ((lead * 6 + c->phase) * 11 + kind_of(m)) * 16 + s);
    const Cards ctrl_left = c->control & mi->after;
    const int ctrl = cards_count(ctrl_left) + (int)((mi->after >> JOKER_BIT) & 1);
    {
        const int runs = cards_count(runs3(mi->after)); /* 0 or >= 3 */
        static const uint8_t RUNS[16] = {0, 0, 0, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
        EMIT(PF_RUNS + lead * 4 + RUNS[runs & 15]);
    }
    if (m.type == MOVE_PASS) {
        EMIT(PF_PLAN + (lead * 11 + min_int(c->ncols, 10)) * 4 + min_int(ctrl, 3));
        EMIT(PF_PASS + c->phase * 4 + kind_class(c->table));
        EMIT(PF_THREAT + (lead * 4 + c->oppmin) * 5 + 4);
        if (!lead)
            EMIT(PF_PASSX + c->others_passed * 4 + c->owner_class);
        return;
    }
    /* ranks emptied (the columns where the hand has cards and the hand left has none) */
    int emptied = (int)((cards >> JOKER_BIT) & 1);
    if (m.type == MOVE_SINGLE || m.type == MOVE_GROUP) {
        int left = col_count(c, m.low) - cards_count(cards & CARDS_COL(m.low));
        EMIT_IF(left > 0, PF_BREAK + lead * 3 + (left > 3 ? 3 : left) - 1);
        emptied += left <= 0;
        if (cards & c->seqable)
            EMIT(PF_SEQBRK + lead);
    } else if (m.type == MOVE_SEQ) {
        emptied += cards_count(movegen_cols_nonzero(c->counts) & ~movegen_cols_nonzero(movegen_col_counts(mi->after & CARDS_NATURAL)));
    }
    const int cols = c->ncols - emptied;
    EMIT(PF_PLAN + (lead * 11 + min_int(cols, 10)) * 4 + min_int(ctrl, 3));
    EMIT_IF((m.jk != JK_NONE) & (m.type != MOVE_JOKER), PF_JOKERUSE + lead);
    EMIT_IF((m.type == MOVE_JOKER) | ((c->top != 0) & (s + (m.type == MOVE_SEQ ? m.n - 1 : 0) >= c->top)),
            PF_STRONGEST + c->phase);
    const int nleft = c->ncards - cards_count(cards);
    EMIT_IF(is_eight(m), PF_EIGHT + left_class(nleft));
    if (__builtin_expect(((m.type == MOVE_GROUP) & (m.n >= 4)) | ((m.type == MOVE_SEQ) & (m.n >= 5)), 0)) {
        mi->rev_after = !c->rev;
        int weak = 0, strong = 0;
        for (Cards x = mi->after & CARDS_NATURAL; x; x &= x - 1) {
            int st = strength(cards_lowest_bit(x) >> 2, c->rev);
            weak += st <= 6;
            strong += st >= 8;
        }
        EMIT(PF_REV + (strong > weak ? 0 : strong == weak ? 1 : 2));
    }
    EMIT_IF((!lead) & (!c->lock) & (m.type != MOVE_JOKER) & (m.suits == c->table.suits), PF_LOCK);
    EMIT_IF(unbeatable(c, m), PF_UNBEAT + lead * 4 + kind_class(m));
    if (m.type == MOVE_SINGLE || m.type == MOVE_GROUP) {
        const Cards range = movegen_range(m.low, c->rev);
        int answers = m.type == MOVE_SINGLE ? cards_count(c->unseen & range & CARDS_NATURAL)
                                            : cards_count(c->beat[m.n <= 4 ? m.n : 4] & range);
        answers += (int)((c->unseen >> JOKER_BIT) & 1);
        EMIT(PF_BEATERS + (m.type == MOVE_GROUP) * 5 + min_int(answers, 2) + (answers >= 3) + (answers >= 6));
    }
    {
        int gap = m.type == MOVE_JOKER ? 4 : s - move_strength(c->table, c->rev);
        gap = gap < 1 ? 1 : gap > 4 ? 4 : gap;
        EMIT_IF(!lead, PF_GAP + kind_class(m) * 4 + gap - 1);
    }
    EMIT(PF_THREAT + (lead * 4 + c->oppmin) * 5 + (m.type == MOVE_JOKER ? 3 : strength_class(s)));
}

static inline int melds_index(int lead, int beaten, int kept)
{
    return PF_MELDS + (lead * 6 + min_int(beaten, 5)) * 4 + min_int(kept, 3);
}

/* The AFTER group of a hand valued in order rev (base: PF_AFTER or PF_XAFTER). */
static int after_features(Cards h, int rev, int base, uint16_t *idx)
{
    int k = 0;
    Cards counts = movegen_col_counts(h & CARDS_NATURAL);
    for (int col = COL_MIN; col <= COL_MAX; col++) {
        int n = (int)((counts >> (4 * col)) & 15);
        if (n)
            idx[k++] = (uint16_t)(base + (strength(col, rev) - 1) * 4 + n - 1);
    }
    if (h & CARDS_JOKER)
        idx[k++] = (uint16_t)(base + 13 * 4);
    return k;
}

/* The MELDS feature of the hand left h, valued in order rev: the definition, rank by rank. */
static int melds_feature(const PolicyCtx *c, Cards h, int rev)
{
    const int jk = (int)((c->unseen >> JOKER_BIT) & 1);
    int beaten = 0, kept = 0;
    for (int col = COL_MIN; col <= COL_MAX; col++) {
        const int n = cards_count(h & CARDS_COL(col));
        if (!n)
            continue;
        const Cards range = movegen_range(col, rev);
        int b = (c->beat[n] & range) || (jk && (n == 1 || (c->beat[n - 1] & range))); /* n: 1..4 */
        b = b && col != COL_8;
        beaten += b;
        kept += !b;
    }
    return melds_index(c->lead, beaten, kept);
}

int policy_features(const PolicyCtx *c, Move m, uint16_t *idx)
{
    MoveInfo mi;
    Sink sk = {NULL, 0, idx, 0};
    base_features(c, m, &sk, &mi, 0);
    idx[sk.k++] = (uint16_t)melds_feature(c, mi.after, mi.rev_after);
    return sk.k + after_features(mi.after, mi.rev_after, PF_AFTER, idx + sk.k);
}

static double after_sum(const double *w, Cards h, int rev)
{
    uint16_t idx[16];
    int k = after_features(h, rev, PF_AFTER, idx);
    double s = 0;
    for (int i = 0; i < k; i++)
        s += w[idx[i]];
    return s;
}

/* The hand's own AFTER terms in the current order: term[col] for each rank held, and their sum
 * (with the joker's), which a move's AFTER sum corrects for the ranks it takes from. */
typedef struct AfterBase {
    double term[16], sum;
} AfterBase;

/* The score of one move: its features but AFTER, plus the hand's AFTER sum corrected for the
 * ranks the move takes from. Every kind of move; most singles and groups are scored the
 * faster way below. */
static inline __attribute__((always_inline)) double score_move(const PolicyCtx *c, Move m, const double *w,
                                                               const AfterBase *ab)
{
    const double *wa = w + PF_AFTER;
    MoveInfo mi;
    Sink sk = {w, 0, NULL, 0};
    base_features(c, m, &sk, &mi, 1);
    double s = sk.sum;
    if (mi.rev_after != c->rev) /* a revolution: the hand left is valued in the new order */
        return s + after_sum(w, mi.after, mi.rev_after) + w[melds_feature(c, mi.after, mi.rev_after)];
    double a = ab->sum;
    int beaten = c->mbeat, kept = c->mkeep;
    const Cards used = c->hand & ~mi.after;
    for (Cards x = used & CARDS_NATURAL; x;) {
        int col = cards_lowest_bit(x) >> 2;
        Cards colbits = x & CARDS_COL(col);
        x &= ~colbits;
        const int had = col_count(c, col), left = had - cards_count(colbits);
        a -= ab->term[col];
        const int on = left != 0;
        a += wa[((strength(col, c->rev) - 1) * 4 + left - 1) & -on] * (double)on;
        /* the rank leaves its MELDS count, and what is left of it joins one */
        const int most = (int)((c->beatable >> (4 * col)) & 15), was = had <= most, now = on & (left <= most);
        beaten += now - was;
        kept += on - now - (1 - was);
    }
    if (used & CARDS_JOKER)
        a -= wa[13 * 4];
    return s + a + w[melds_index(c->lead, beaten, kept)];
}

/* ---------------------------------------------------------------- singles and groups, by lookups
 *
 * Singles and groups of two or three are nine moves in ten. Their features depend on the
 * move's kind, rank and size, on whether the joker is in it, and (the lock) on its suits: each
 * is a lookup, in a row of the weights this decision reads or in a small table of weights
 * built once per decision (MeldTab), at an index that takes a few instructions. Moves that take
 * a card of a run (RUNS and SEQBRK change), groups of four (a revolution) and the other kinds
 * are scored by score_move.
 *
 * The scores are score_move's, the very same doubles (a test holds them bit for bit):
 * floating-point addition is not associative, so the terms are added one by one in
 * base_features' order, and an off feature adds what the sink adds, w[0] * 0 (x plus a zero is
 * x unless x is a zero itself, and those zeros keep their signs). */

/* Classes by lookup: a strength above the table (GAP 1..4, from s - table + 16), the unseen
 * answers to a move (BEATERS: 0, 1, 2, 3-5, 6+), the cards left (EIGHT: 0, 1, 2, 3-4, 5+). */
static const uint8_t GAP_CLASS[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                      0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
static const uint8_t ANSWER_CLASS[64] = {0, 1, 2, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
                                         4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
                                         4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
static const uint8_t MIN3[16] = {0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};

typedef struct MeldTab {
    AfterBase ab;
    const double *w, *shape, *plan, *threat; /* this decision's rows */
    double z;           /* what an off feature adds (EMIT_IF): w[0] * 0 */
    double runs;        /* RUNS of the hand as it stands: a move off the runs leaves them whole */
    double pass;        /* following: the score of passing */
    double brk[4];      /* BREAK by the cards of the rank left (0: off) */
    double eight[4];    /* [n]: an 8-cut of n cards; [0]: off */
    double jokeruse[2], strongest[2], lock[2], unbeat[2][2]; /* [on]; unbeat [group][on] */
    Cards unbeaten1;    /* bit 4c: no unseen card beats a single of column c (or it is an 8) */
    int top;            /* STRONGEST from this strength on (16: no natural held) */
    int table_s;        /* 16 minus the strength of the meld on the table */
    int ctrl;           /* control cards held, the joker counted */
    int jkun;           /* the joker is unseen */
} MeldTab;

static inline __attribute__((always_inline)) void meld_tab(MeldTab *t, const PolicyCtx *c, const double *w,
                                                             const int lead)
{
    static const uint8_t RUNS[16] = {0, 0, 0, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    const double z = w[0] * (double)0;
    t->w = w;
    t->z = z;
    t->shape = w + PF_SHAPE + (lead * 6 + c->phase) * 11 * 16;
    t->plan = w + PF_PLAN + lead * 11 * 4;
    t->threat = w + PF_THREAT + (lead * 4 + c->oppmin) * 5;
    t->runs = w[PF_RUNS + lead * 4 + RUNS[cards_count(c->seqable) & 15]];
    t->brk[0] = t->eight[0] = t->jokeruse[0] = t->strongest[0] = t->lock[0] = t->unbeat[0][0] = t->unbeat[1][0] = z;
    for (int k = 1; k <= 3; k++) {
        t->brk[k] = w[PF_BREAK + lead * 3 + k - 1];
        t->eight[k] = w[PF_EIGHT + left_class(c->ncards - k)];
    }
    t->unbeat[0][1] = w[PF_UNBEAT + lead * 4];
    t->unbeat[1][1] = w[PF_UNBEAT + lead * 4 + 1];
    t->jokeruse[1] = w[PF_JOKERUSE + lead];
    t->strongest[1] = w[PF_STRONGEST + c->phase];
    const double lock[2] = {w[PF_LOCK], z}; /* locked already: no lock made */
    t->lock[1] = lead ? z : lock[c->lock != 0];
    t->jkun = (int)((c->unseen >> JOKER_BIT) & 1);
    /* a single is unbeaten when the unseen hold no joker and no natural of a stronger column:
     * it is of the strongest unseen column or above (the weakest or below in a revolution) */
    const Cards cols = c->rev ? above_bottom(c->beat[1]) : below_top(c->beat[1]);
    t->unbeaten1 = ((~cols & -(Cards)!t->jkun) | CARDS_COL(COL_8)) & CARDS_SUIT_LOW;
    t->top = c->top ? c->top : 16;
    t->table_s = 16 - move_strength(c->table, c->rev);
    t->ctrl = cards_count(c->control) + (int)((c->hand >> JOKER_BIT) & 1);
    const double *wa = w + PF_AFTER;
    t->ab.sum = 0;
    for (Cards x = movegen_cols_nonzero(c->counts); x; x &= x - 1) {
        int col = cards_lowest_bit(x) >> 2;
        t->ab.term[col] = wa[(strength(col, c->rev) - 1) * 4 + col_count(c, col) - 1];
        t->ab.sum += t->ab.term[col];
    }
    t->ab.sum += c->hand & CARDS_JOKER ? wa[13 * 4] : -0.0; /* x + -0 is x: a select, not a branch */
    if (!lead) { /* passing keeps the hand: base_features' terms of a pass, its AFTER sum, its MELDS */
        double sum = 0;
        sum += t->shape[0];
        sum += t->runs;
        sum += t->plan[min_int(c->ncols, 10) * 4 + MIN3[t->ctrl & 15]];
        sum += w[PF_PASS + c->phase * 4 + kind_class(c->table)];
        sum += t->threat[4];
        sum += w[PF_PASSX + c->others_passed * 4 + c->owner_class];
        t->pass = sum + t->ab.sum + w[melds_index(0, c->mbeat, c->mkeep)];
    }
}

/* The score of a single or group (type, a constant) of n cards of column col (1..13), ctl of
 * them control cards, jk the joker in place of a natural: base_features' terms in their
 * order, then AFTER and MELDS as score_move adds them. */
static inline __attribute__((always_inline)) double meld_score(const PolicyCtx *c, const MeldTab *t, Move m,
                                                               int col, int n, int ctl, int jk, const int type,
                                                               const int lead)
{
    const double *w = t->w;
    const int group = type == MOVE_GROUP, shift = 4 * col;
    const int s = strength(col, c->rev), had = (int)((c->counts >> shift) & 15);
    const int left = had - (n - jk), on = left != 0;
    double sum = 0;
    sum += t->shape[n * 16 + s]; /* SHAPE: the kind of a single or group is its size */
    sum += t->runs;
    sum += t->brk[left & 3];
    sum += t->plan[min_int(c->ncols - jk - !on, 10) * 4 + MIN3[(t->ctrl - ctl - jk) & 15]];
    sum += group ? t->jokeruse[jk] : t->z;
    sum += t->strongest[s >= t->top];
    const int eight = col == COL_8;
    sum += t->eight[n & -eight];
    sum += lead ? t->z : t->lock[m.suits == c->table.suits];
    const Cards range = movegen_range(col, c->rev);
    if (group) {
        const int unbeaten = !(c->beat[n] & range) & !(t->jkun & ((c->beat[n - 1] & range) != 0));
        sum += t->unbeat[1][eight | unbeaten];
    } else
        sum += t->unbeat[0][(t->unbeaten1 >> shift) & 1];
    const int answers = cards_count((group ? c->beat[n] : c->unseen & CARDS_NATURAL) & range) + t->jkun;
    sum += w[PF_BEATERS + group * 5 + ANSWER_CLASS[answers & 63]];
    sum += lead ? t->z : w[PF_GAP + group * 4 + GAP_CLASS[(s + t->table_s) & 31]];
    sum += t->threat[strength_class(s)];
    /* AFTER and MELDS: the rank leaves the hand's sums, what is left of it joins them */
    double a = t->ab.sum;
    a -= t->ab.term[col];
    a += w[PF_AFTER + (((s - 1) * 4 + left - 1) & -on)] * (double)on; /* off: w[PF_AFTER] * 0 */
    if (group && jk)
        a -= w[PF_AFTER + 13 * 4];
    const int most = (int)((c->beatable >> shift) & 15), was = had <= most, now = on & (left <= most);
    const int beaten = c->mbeat + now - was, kept = c->mkeep + on - now - (1 - was);
    return sum + a + w[melds_index(lead, beaten, kept)];
}

/* Legal singles and groups of 2-3 cards go to meld_score unless they take a card of a run;
 * the checks keep every index in range for any move. */
static inline __attribute__((always_inline)) void scores_in(const PolicyCtx *c, const double *w, const Move *mv,
                                                              int n, double *restrict score, const int lead)
{
    MeldTab t;
    meld_tab(&t, c, w, lead);
    for (int i = 0; i < n; i++) {
        const Move m = mv[i];
        const int col = m.low & 15;
        const Cards cells = (Cards)(m.suits & 15) << (4 * col);
        const int fits = (col - 1u < 13u) & !(cells & c->seqable);
        double v;
        if (!lead && m.type == MOVE_PASS)
            v = t.pass;
        else if (m.type == MOVE_SINGLE) {
            if (__builtin_expect(fits & (m.jk == JK_NONE), 1))
                v = meld_score(c, &t, m, col, 1, cards_count(c->control & cells), 0, MOVE_SINGLE, lead);
            else
                v = score_move(c, m, w, &t.ab);
        } else if (m.type == MOVE_GROUP && fits & (m.n - 2u <= 1u) & (m.jk <= JOKER_BIT)) {
            const Cards nat = m.jk == JK_NONE ? cells : cells & ~(1ULL << (m.jk - 1));
            v = meld_score(c, &t, m, col, m.n, cards_count(c->control & nat), m.jk != JK_NONE, MOVE_GROUP, lead);
        } else
            v = score_move(c, m, w, &t.ab);
        score[i] = v;
    }
}

void policy_scores(const PolicyWeights *pw, const PolicyCtx *c, const Move *mv, int n, double *score)
{
    if (c->lead) /* leading and following get their own copies */
        scores_in(c, pw->play, mv, n, score, 1);
    else
        scores_in(c, pw->play, mv, n, score, 0);
}

/* ---------------------------------------------------------------- the exchange */

int policy_exch_features(Cards hand, Cards give, uint16_t *idx)
{
    int k = 0;
    const Cards seqable = runs3(hand);
    Cards counts = movegen_col_counts(hand & CARDS_NATURAL);
    for (Cards x = give; x; x &= x - 1) {
        int b = cards_lowest_bit(x);
        if (b == JOKER_BIT) {
            idx[k++] = (uint16_t)(PF_XCARD + 14);
            continue;
        }
        int col = b >> 2, n = (int)((counts >> (4 * col)) & 15);
        idx[k++] = (uint16_t)(PF_XCARD + col);
        idx[k++] = (uint16_t)(PF_XMULT + (n - 1) * 4 + strength_class(col));
        if ((seqable >> b) & 1)
            idx[k++] = (uint16_t)(PF_XSEQ);
    }
    Cards g = give & CARDS_NATURAL;
    if (cards_count(g) == 2 && (cards_lowest_bit(g) >> 2) == (cards_highest_bit(g) >> 2))
        idx[k++] = (uint16_t)(PF_XPAIR);
    Cards after = hand & ~give;
    int cols = 0;
    Cards ac = movegen_col_counts(after & CARDS_NATURAL);
    for (int col = COL_MIN; col <= COL_MAX; col++)
        cols += ((ac >> (4 * col)) & 15) != 0;
    cols += (int)((after >> JOKER_BIT) & 1);
    idx[k++] = (uint16_t)(PF_XCOLS + (cols > 10 ? 10 : cols));
    return k + after_features(after, 0, PF_XAFTER, idx + k);
}

static double exch_score(const double *exch, Cards hand, Cards give)
{
    uint16_t idx[POLICY_MAX_ACTIVE];
    int k = policy_exch_features(hand, give, idx);
    double s = 0;
    for (int i = 0; i < k; i++)
        s += exch[idx[i]];
    return s;
}

double policy_exch_score(const PolicyWeights *w, Cards hand, Cards give) { return exch_score(w->exch, hand, give); }

int policy_gifts(Cards hand, int n, Cards *out)
{
    int k = 0;
    for (Cards a = hand; a && k < 128; a &= a - 1) {
        Cards ca = a & (0 - a);
        if (n == 1) {
            out[k++] = ca;
            continue;
        }
        for (Cards b = a & (a - 1); b && k < 128; b &= b - 1)
            out[k++] = ca | (b & (0 - b));
    }
    return k;
}

/* ---------------------------------------------------------------- choosing */

typedef double D4 __attribute__((vector_size(32))); /* four doubles (GCC/Clang vector extensions) */
typedef int64_t Q4 __attribute__((vector_size(32)));

/* 2^y for y <= 0, to about 1e-4 relative, for four numbers at once: 2^floor(y) from the
 * exponent bits (floor(y) read from the low mantissa bits of floor(y) + 1.5 * 2^52), 2^f by a
 * cubic. y is clamped at -1022 (2^-1022 stands in for 0). floor(y) is the nearest integer,
 * (y + 1.5 * 2^52) - 1.5 * 2^52 (exact for |y| < 2^51), less one where that is above y: the
 * same number as floor's, so the same weights as computed one at a time before (but +0 for a
 * -0, which changes nothing). In place: a vector argument or result would change the calling
 * convention of a build without AVX (GCC warns). */
static inline void fast_exp2_4(D4 *py)
{
    D4 y = *py;
    const D4 magic = {6755399441055744.0, 6755399441055744.0, 6755399441055744.0, 6755399441055744.0};
    const D4 one = {1.0, 1.0, 1.0, 1.0}, lowest = {-1022.0, -1022.0, -1022.0, -1022.0};
    const Q4 low = y < lowest;
    y = (D4)(((Q4)y & ~low) | ((Q4)lowest & low));
    const D4 r = (y + magic) - magic;
    const D4 fl = r - (D4)((Q4)one & (r > y)), f = y - fl;
    const D4 p = 1.0 + f * (0.6958777 + f * (0.2251538 + f * 0.0789685));
    const Q4 v = ((Q4)(fl + magic) + 1023) << 52;
    *py = (D4)v * p;
}

/* Index of a draw from the softmax of s[0..n) at temperature temp (> 0); s holds n + 3
 * numbers (softmax_pad). Four at a time: the maximum, the weights 2^x and their sum, added in
 * order (the lanes past n weigh +0, which changes no sum of positive numbers). */
static int softmax_draw(const double *s, int n, double temp, Rng *rng)
{
    D4 m4;
    memcpy(&m4, s, sizeof m4);
    for (int i = 4; i < n; i += 4) {
        D4 y;
        memcpy(&y, s + i, sizeof y);
        m4 = (D4)(((Q4)y & (y > m4)) | ((Q4)m4 & ~(y > m4)));
    }
    double mx = m4[0];
    for (int j = 1; j < 4; j++)
        mx = m4[j] > mx ? m4[j] : mx;
    double e[MOVEGEN_MAX + 3], sum = 0;
    const double k = 1.4426950408889634 / temp;
    for (int i = 0; i < n; i += 4) {
        const Q4 lane = {i, i + 1, i + 2, i + 3};
        D4 y;
        memcpy(&y, s + i, sizeof y);
        y = (y - mx) * k;
        fast_exp2_4(&y);
        y = (D4)((Q4)y & (lane < n));
        memcpy(e + i, &y, sizeof y);
        sum += y[0];
        sum += y[1];
        sum += y[2];
        sum += y[3];
    }
    double r = rng_double(rng) * sum;
    for (int i = 0; i < n - 1; i++) {
        r -= e[i];
        if (r < 0)
            return i;
    }
    return n - 1;
}

/* Fills s[n..n+3) for softmax_draw with s[0] (which changes no maximum). */
static inline void softmax_pad(double *s, int n)
{
    for (int j = 0; j < 3; j++)
        s[n + j] = s[0];
}

static int argmax(const double *s, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (s[i] > s[best])
            best = i;
    return best;
}

int policy_pick_scores(double *s, int n, double temp, Rng *rng)
{
    if (temp <= 0)
        return argmax(s, n);
    softmax_pad(s, n);
    return softmax_draw(s, n, temp, rng);
}

int policy_pick(const PolicyWeights *w, const PolicyCtx *c, const Move *mv, int n, double temp, Rng *rng)
{
    if (n <= 1)
        return 0;
    double s[MOVEGEN_MAX + 3];
    policy_scores(w, c, mv, n, s);
    return policy_pick_scores(s, n, temp, rng);
}

void policy_probs(const PolicyWeights *w, const PolicyCtx *c, const Move *mv, int n, double *p)
{
    policy_scores(w, c, mv, n, p);
    double mx = p[0], sum = 0;
    for (int i = 1; i < n; i++)
        mx = p[i] > mx ? p[i] : mx;
    for (int i = 0; i < n; i++)
        sum += p[i] = exp(p[i] - mx);
    for (int i = 0; i < n; i++)
        p[i] /= sum;
}

Cards policy_pick_gift_w(const double *exch, Cards hand, int n, double temp, Rng *rng)
{
    Cards cand[128];
    double s[128 + 3];
    int k = policy_gifts(hand, n, cand);
    if (k == 0)
        return cards_weakest(hand, n);
    for (int i = 0; i < k; i++)
        s[i] = exch_score(exch, hand, cand[i]);
    return cand[policy_pick_scores(s, k, temp, rng)];
}

Cards policy_pick_gift(const PolicyWeights *w, Cards hand, int n, double temp, Rng *rng)
{
    return policy_pick_gift_w(w->exch, hand, n, temp, rng);
}

long policy_playout(const PolicyWeights *w, GameState *g, Rng *rng, double temp)
{
    Move mv[MOVEGEN_MAX];
    PolicyCtx c;
    long plies = 0;
    while (!g->over) {
        int n = state_moves(g, mv), k = 0;
        if (n > 1) {
            policy_ctx_state(&c, g);
            k = policy_pick(w, &c, mv, n, temp, rng);
        }
        if (state_apply(g, mv[k]) & EV_STALEMATE)
            state_finish_stalemate(g, rng);
        plies++;
    }
    return plies;
}

/* ---------------------------------------------------------------- weight files */

int policy_save(FILE *f, const PolicyWeights *w, const char *comment)
{
    fprintf(f, "dhm-policy 1\nlayout %016llx\n", (unsigned long long)policy_layout_hash());
    fprintf(f, "# %s\n", policy_layout());
    if (comment && *comment)
        fprintf(f, "# %s\n", comment);
    fprintf(f, "play %d\n", POLICY_NPLAY);
    for (int i = 0; i < POLICY_NPLAY; i++) {
        int off;
        const char *g = policy_play_group(i, &off);
        if (off == 0)
            fprintf(f, "%s# %s\n", i ? "\n" : "", g); /* each group starts on its own line */
        fprintf(f, "%.9g%c", w->play[i], (off + 1) % 8 == 0 ? '\n' : ' ');
    }
    fprintf(f, "\nexchange %d\n", POLICY_NEXCH);
    for (int i = 0; i < POLICY_NEXCH; i++)
        fprintf(f, "%.9g%c", w->exch[i], (i + 1) % 8 == 0 || i + 1 == POLICY_NEXCH ? '\n' : ' ');
    fprintf(f, "end\n");
    return ferror(f) ? -1 : 0;
}

int policy_parse(const char *text, const char *name, PolicyWeights *pw, char *err, size_t errsz)
{
    WText t;
    wtext_init(&t, text, name, err, errsz);
    if (wtext_magic(&t, "dhm-policy", "a dhm policy weights file") ||
        wtext_layout(&t, policy_layout_hash(), "dhm train policy"))
        return -1;
    PolicyWeights *x = malloc(sizeof *x); /* pw is written only when the whole file is good */
    if (!x) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = -1;
    if (wtext_numbers(&t, "play", POLICY_NPLAY, x->play) || wtext_numbers(&t, "exchange", POLICY_NEXCH, x->exch) ||
        wtext_end(&t))
        goto out;
    *pw = *x;
    rc = 0;
out:
    free(x);
    return rc;
}

static int parse_any(const char *text, const char *name, void *w, char *err, size_t errsz)
{
    return policy_parse(text, name, w, err, errsz);
}

int policy_load(const char *path, PolicyWeights *w, char *err, size_t errsz)
{
    return wtext_load(path, parse_any, w, err, errsz);
}

/* The built-in weights: players/policy.weights, compiled in as text (policy_embed.c). */
extern const char policy_weights_text[];
static WBuiltin g_builtin = WBUILTIN_INIT;

const PolicyWeights *policy_builtin(char *err, size_t errsz)
{
    return wtext_builtin(&g_builtin, policy_weights_text, "the built-in players/policy.weights", sizeof(PolicyWeights),
                         parse_any, err, errsz);
}

int policy_weights_option(PlayerSpec *s, PolicyWeights *w, char *err, size_t errsz)
{
    const char *path = spec_get_str(s, "weights", NULL);
    if (path) {
        char e[400];
        if (policy_load(path, w, e, sizeof e)) {
            snprintf(err, errsz, "%s: weights=%s: %s", s->kind, path, e);
            return -1;
        }
        return 0;
    }
    char e[300];
    const PolicyWeights *b = policy_builtin(e, sizeof e);
    if (!b) {
        snprintf(err, errsz, "%s: %s", s->kind, e);
        return -1;
    }
    *w = *b;
    return 0;
}

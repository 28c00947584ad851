/* movegen.h — legal-move generation and the legality check.
 *
 * The generator writes moves into a caller-provided array of at least MOVEGEN_MAX entries and
 * returns the count; it allocates nothing. Order is deterministic.
 *
 * What is generated (docs/rules.md has the reasons):
 *  - leading (empty table): every single, the lone joker, every group of 2-4 naturals, groups
 *    with the joker standing in for a suit the player does not hold, the five-card group, every
 *    sequence of >= 3 (with the joker filling one missing cell, also the slots below the 3 and
 *    above the 2). No pass: passing on an empty table is legal (the engine accepts it) but is
 *    never generated.
 *  - following: the pass first, then every meld of the table's kind and size that beats it,
 *    respecting revolution and the lock; the lone joker over any single; only the spade 3 over
 *    a lone joker.
 *  Melds in which the joker stands in for a card the player holds are legal (the server and
 *  movegen_is_legal accept them) but are not generated: they repeat a generated meld on the
 *  table while spending the joker instead of the natural.
 *
 * Bound: singles <= 53, groups <= 12 per column x 13, sequences <= one per (start, length,
 * suit) window = 4 x 91, plus a pass: 574 + MOVEGEN_SCRATCH < MOVEGEN_MAX for any hand
 * whatsoever.
 */
#ifndef DHM_MOVEGEN_H
#define DHM_MOVEGEN_H

#include "move.h"
#include "movegen_tables.h"

#define MOVEGEN_MAX 640
#define MOVEGEN_SCRATCH 4 /* see movegen() */
/* The generator's pieces below are inlined into every caller of movegen(), whatever the
 * compiler's size heuristics say about a given translation unit. */
#define MOVEGEN_INLINE __attribute__((always_inline)) static inline

/* Leading on an empty table (the same as movegen with a pass as the table). */
int movegen_lead(Cards hand, Move *out);
/* Following a meld: the pass first (the same as movegen with that table). */
int movegen_follow(Cards hand, Move t, int rev, int lock, Move *out);

/* The internals movegen() below inlines or calls; callers use movegen(). They take a table's
 * fields as numbers, never the Move itself: a Move passed by value to a function that is not
 * inlined is stored byte by byte and reloaded whole, a failed store-to-load forward each call. */
int movegen_follow_seq_from(Cards hand, int n, Cards start, Move *out);

/* Each nibble of the result holds the number of cards of that column (0..4). */
static inline Cards movegen_col_counts(Cards x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    return (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
}

/* One bit (the column's lowest, 4c) per column whose count in a movegen_col_counts word is not 0. */
static inline Cards movegen_cols_nonzero(Cards counts) { return (counts | counts >> 1 | counts >> 2) & CARDS_SUIT_LOW; }

/* Bit 4c+3 set for each column c whose count is >= n (1 <= n <= 4). */
static inline Cards movegen_cols_at_least(Cards counts, int n)
{
    return (counts + 0x1111111111111111ULL * (Cards)(8 - n)) & 0x8888888888888888ULL;
}

/* One single per card of x (naturals only); returns the end. Two a round: half the loop's
 * exits, the one branch here that no history predicts (how many cards there are).
 * often_empty (a constant): the first round runs even when x is empty (two words of scratch),
 * so that an empty x, common when following a single, costs no test of its own; when leading,
 * x is the hand and never empty, and the test is predicted while the round's extra OR is not
 * free (the first round unconditional there too: 466,000-474,000 random games/s against
 * 490,000-498,000, A/B). */
MOVEGEN_INLINE Move *movegen_put_singles(Move *p, Cards x, int often_empty)
{
    Move *end = p + cards_count(x);
    const Cards stop = 1ULL << 63; /* never a card: SINGLE_W[63] = 0 */
    if (often_empty || x)
        do {
            move_put(p, SINGLE_W[__builtin_ctzll(often_empty ? x | stop : x)]);
            x &= x - 1;
            move_put(p + 1, SINGLE_W[__builtin_ctzll(x | stop)]);
            x &= x - 1;
            p += 2;
        } while (x);
    return end;
}

/* Two Move words at once (GCC/Clang vector extension: one SSE2 register). */
typedef uint64_t MovegenWords2 __attribute__((vector_size(16)));
typedef int64_t MovegenSWords2 __attribute__((vector_size(16)));

/* Writes the four words src[0..3] + add[0..3] at p (scratch past the row's length is fine), two
 * 16-byte halves: a 32-byte store of Move words, 8-byte aligned, splits a cache line three times
 * as often (docs/rules.md). */
MOVEGEN_INLINE void movegen_copy4(Move *p, const uint64_t *src, const uint64_t *add)
{
    for (int h = 0; h < 2; h++) {
        MovegenWords2 v, a;
        memcpy(&v, src + 2 * h, sizeof v);
        memcpy(&a, add + 2 * h, sizeof a);
        v += a;
        memcpy(p + 2 * h, &v, sizeof v);
    }
}

/* The padded width of a table's rows (a multiple of 4; at most 12). */
#define MOVEGEN_ROW_WIDTH(rows) ((int)(sizeof(rows)[0] / sizeof(rows)[0][0]))

/* A column's groups: table row e with n entries, padded to `width` (4, 8 or 12, a constant);
 * add (GROUP_COL_NAT_4[c]) moves them to column c. The first four words are always copied; the
 * rest only for longer rows (a column of three or four suits), so rows of up to four cost no
 * branch. */
MOVEGEN_INLINE Move *movegen_put_groups(Move *p, const uint64_t *e, int n, const uint64_t *add, int width)
{
    _Static_assert(MOVEGEN_SCRATCH >= 3, "a row copy writes up to three words past its length");
    movegen_copy4(p, e, add);
    if (width > 4 && n > 4) {
        movegen_copy4(p + 4, e + 4, add);
        if (width > 8)
            movegen_copy4(p + 8, e + 8, add);
    }
    return p + n;
}

Move *movegen_lead_joker(Cards hand, Move *out);
Move *movegen_lead_seqs(Move *p, Cards hand);

/* Leading: the singles, the groups column by column, then the sequences (rare) out of line;
 * with the joker (about one hand in ten) everything is out of line. */
MOVEGEN_INLINE int movegen_lead_inline(Cards hand, Move *out)
{
    if (hand & CARDS_JOKER)
        return (int)(movegen_lead_joker(hand, out) - out);
    Move *p = movegen_put_singles(out, hand, 0);
    for (Cards cols = movegen_cols_at_least(movegen_col_counts(hand), 2); cols; cols &= cols - 1) {
        int c = __builtin_ctzll(cols) >> 2;
        unsigned a = (unsigned)(hand >> (4 * c)) & 15u;
        p = movegen_put_groups(p, GROUPS_NAT[a], GROUPS_NAT_N[a], GROUP_COL_NAT_4[c], MOVEGEN_ROW_WIDTH(GROUPS_NAT));
    }
    if (hand & (hand >> 4) & (hand >> 8))
        p = movegen_lead_seqs(p, hand);
    return (int)(p - out);
}

/* The natural cards that beat a single or group of column `low` (rev: revolution). */
static inline Cards movegen_range(int low, int rev) { return MOVEGEN_RANGE[rev != 0][low & 255]; }

/* Following a single, the most common position in real games. */
MOVEGEN_INLINE int movegen_follow_single(Cards hand, Move t, int rev, int lock, Move *out)
{
    /* the lock's suits, or every card: a mask, not a branch */
    const Cards x = hand & movegen_range(t.low, rev) & (cards_of_suits(t.suits) | (0 - (Cards)(lock == 0)));
    move_put(out, 0);
    Move *p = movegen_put_singles(out + 1, x, 1);
    move_put(p, MOVE_W_JOKER); /* counted only when the joker is held */
    return 1 + cards_count(x) + (int)((hand >> JOKER_BIT) & 1);
}

/* Writes four entries of a marked row (see GROUPS_FOLLOW in movegen_tables.h) at p: nat_add
 * added to the natural groups, jk_add (which clears the marker) to the joker's. */
MOVEGEN_INLINE void movegen_put_row4(Move *p, const uint64_t *e, const uint64_t *nat_add, const uint64_t *jk_add)
{
    for (int h = 0; h < 2; h++) {
        MovegenWords2 v, n, j;
        memcpy(&v, e + 2 * h, sizeof v);
        memcpy(&n, nat_add + 2 * h, sizeof n);
        memcpy(&j, jk_add + 2 * h, sizeof j);
        const MovegenWords2 jk = (MovegenWords2)((MovegenSWords2)v < 0); /* the marker: all ones */
        v += n + (jk & j);
        memcpy(p + 2 * h, &v, sizeof v);
    }
}

/* A marked row (GROUPS_FOLLOW with the joker, GROUPS_LEAD_JOKER) of len entries, padded to width
 * (8 or 12), moved to column c; returns the end. The first four entries are always written, the
 * rest only for longer rows: at most three words land past the end. */
MOVEGEN_INLINE Move *movegen_put_marked_row(Move *p, const uint64_t *e, int len, int c, int width)
{
    const uint64_t *nat_add = GROUP_COL_NAT_4[c & 15], *jk_add = GROUP_COL_JOKER_4[c & 15];
    movegen_put_row4(p, e, nat_add, jk_add);
    if (len > 4) {
        movegen_put_row4(p + 4, e + 4, nat_add, jk_add);
        if (width > 8 && len > 8)
            movegen_put_row4(p + 8, e + 8, nat_add, jk_add);
    }
    return p + len;
}

int movegen_follow_group_lock(Cards hand, int n, unsigned suits, Cards range, Move *out);

/* Following a group: the columns in range holding enough cards (the joker makes up one), then
 * one GROUPS_FOLLOW row per column, natural and joker groups in one row. Most positions have
 * no column that could answer: out after the pass. The lock, rare, is out of line. */
MOVEGEN_INLINE int movegen_follow_group(Cards hand, Move t, int rev, int lock, Move *out)
{
    /* (counts + ADD[k]) & 0x8888...: the columns holding at least the k cards a column must
     * hold (k = the size less the joker; 5 and more: none) */
    static const uint64_t ADD[8] = {0x7777777777777777ULL, 0x7777777777777777ULL, 0x6666666666666666ULL,
                                    0x5555555555555555ULL, 0x4444444444444444ULL, 0x3333333333333333ULL,
                                    0x3333333333333333ULL, 0x3333333333333333ULL};
    if (lock)
        return movegen_follow_group_lock(hand, t.n, t.suits, movegen_range(t.low, rev), out);
    const int jk = (int)((hand >> JOKER_BIT) & 1);
    const Cards nat = hand & movegen_range(t.low, rev);
    Cards cols = (movegen_col_counts(nat) + ADD[(t.n - jk) & 7]) & 0x8888888888888888ULL;
    move_put(out, 0);
    const uint64_t(*rows)[8] = GROUPS_FOLLOW[jk][(t.n - 2) & 3];
    const uint8_t *len = GROUPS_FOLLOW_N[jk][(t.n - 2) & 3];
    if (!cols)
        return 1;
    Move *p = out + 1;
    if (jk) {
        do {
            int c = __builtin_ctzll(cols) >> 2;
            unsigned a = (unsigned)(nat >> (4 * c)) & 15u;
            p = movegen_put_marked_row(p, rows[a], len[a], c, 8);
        } while (cols &= cols - 1);
    } else {
        do {
            int c = __builtin_ctzll(cols) >> 2;
            unsigned a = (unsigned)(nat >> (4 * c)) & 15u;
            p = movegen_put_groups(p, rows[a], len[a], GROUP_COL_NAT_4[c], 8);
        } while (cols &= cols - 1);
    }
    return (int)(p - out);
}

/* Following a sequence: the pass, then the sequences of its length starting at a bit of
 * `start` (the table's fields go out of line as numbers: a Move assembled in memory from its
 * bytes and reloaded whole stalls store forwarding). */
MOVEGEN_INLINE int movegen_follow_seq(Cards hand, Move t, int rev, int lock, Move *out)
{
    const int lim = t.low - t.n + 1; /* revolution: start columns < lim */
    Cards start = rev ? (lim > 0 ? cards_below_col(lim) : 0) : cards_above_col(t.low + t.n - 1);
    start &= cards_of_suits(lock ? t.suits : 15u);
    return movegen_follow_seq_from(hand, t.n, start, out);
}

/* Over a lone joker: the pass, and the spade 3 if held. */
MOVEGEN_INLINE int movegen_follow_joker(Cards hand, Move *out)
{
    move_put(out, 0);
    move_put(out + 1, SINGLE_W[COL_MIN * 4 + SUIT_S]);
    return 1 + (int)((hand >> (COL_MIN * 4 + SUIT_S)) & 1);
}

/* The legal moves of `hand` against `table` (a pass on an empty table: leading). Returns the
 * count. The generator may write up to MOVEGEN_SCRATCH scratch entries past the last move it
 * returns (never past MOVEGEN_MAX): table rows are copied four words at a time whatever their
 * length. Always inlined, so that every caller gets the dispatch and the cheap paths without
 * a call (what make bench measures is what the players run). */
MOVEGEN_INLINE int movegen(Cards hand, Move table, int rev, int lock, Move *out)
{
    /* tested in the order of how often they come (blaux5: singles 49%, groups 27%, leads 20%);
     * clang turns the tests into a jump table unless told the first is likely (5.3 -> 3.7 ns a
     * call on blaux5), GCC keeps them and is slower with the hint (random games -4%) */
#if defined(__clang__)
    if (__builtin_expect(table.type == MOVE_SINGLE, 1))
#else
    if (table.type == MOVE_SINGLE)
#endif
        return movegen_follow_single(hand, table, rev, lock, out);
    if (table.type == MOVE_GROUP)
        return movegen_follow_group(hand, table, rev, lock, out);
    if (table.type == MOVE_PASS)
        return movegen_lead_inline(hand, out);
    if (table.type == MOVE_SEQ)
        return movegen_follow_seq(hand, table, rev, lock, out);
    return movegen_follow_joker(hand, out);
}

/* Whether hand has a meld that beats t (t not a pass), lock and revolution as in movegen: the
 * same as movegen(hand, t, rev, lock, out) > 1, without writing the moves. The sure-win test
 * and the rich policy's features ask this of every meld they look at. */
MOVEGEN_INLINE int movegen_can_follow(Cards hand, Move t, int rev, int lock)
{
    if (t.type == MOVE_SINGLE)
        return ((hand & movegen_range(t.low, rev) & (cards_of_suits(t.suits) | (0 - (Cards)(lock == 0)))) |
                (hand & CARDS_JOKER)) != 0;
    if (t.type == MOVE_GROUP && !lock) {
        /* a column holding the size less the joker answers (movegen_follow_group's test; every
         * such column has a row of at least one group) */
        const int need = t.n - (int)((hand >> JOKER_BIT) & 1);
        if (need > 4)
            return 0;
        return movegen_cols_at_least(movegen_col_counts(hand & movegen_range(t.low, rev)), need > 1 ? need : 1) != 0;
    }
    Move out[MOVEGEN_MAX];
    return movegen(hand, t, rev, lock, out) > 1;
}

/* The rules as the server checks a submission: shape, ownership, kind/size/strength, lock,
 * lone joker and spade 3. A pass is always legal. */
int movegen_is_legal(Cards hand, Move table, int rev, int lock, Move m);

#endif

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

/* Leading on an empty table (the same as movegen with a pass as the table). */
int movegen_lead(Cards hand, Move *out);
/* Following a meld: the pass first (the same as movegen with that table). */
int movegen_follow(Cards hand, Move t, int rev, int lock, Move *out);

/* The internals movegen() below inlines; callers use movegen(). */
int movegen_follow_seq(Cards hand, Move t, int rev, int lock, Move *out);
int movegen_follow_group_cols(Cards hand, Move t, int lock, Cards cols, Move *out);

/* Each nibble of the result holds the number of cards of that column (0..4). */
static inline Cards movegen_col_counts(Cards x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    return (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
}

/* Bit 4c+3 set for each column c whose count is >= n (1 <= n <= 4). */
static inline Cards movegen_cols_at_least(Cards counts, int n)
{
    return (counts + 0x1111111111111111ULL * (Cards)(8 - n)) & 0x8888888888888888ULL;
}

/* One single per card of x (naturals only); returns the end. */
static inline Move *movegen_put_singles(Move *p, Cards x)
{
    for (; x; x &= x - 1)
        move_put(p++, SINGLE_W[__builtin_ctzll(x)]);
    return p;
}

/* The natural cards that beat a single or group of column `low` (rev: revolution). */
static inline Cards movegen_range(int low, int rev) { return MOVEGEN_RANGE[rev != 0][low & 15]; }

/* Following a single, the most common position in real games. */
static inline int movegen_follow_single(Cards hand, Move t, int rev, int lock, Move *out)
{
    const Cards x = hand & movegen_range(t.low, rev) & (lock ? cards_of_suits(t.suits) : ~0ULL);
    move_put(out, 0);
    Move *p = movegen_put_singles(out + 1, x);
    move_put(p, MOVE_W_JOKER); /* counted only when the joker is held */
    return (int)(p - out) + (int)((hand >> JOKER_BIT) & 1);
}

/* Following a group: most positions have no column that could answer, so that test is
 * inline and the generator proper is only called when there is something to generate. */
static inline int movegen_follow_group(Cards hand, Move t, int rev, int lock, Move *out)
{
    const int jk = (int)((hand >> JOKER_BIT) & 1);
    const int need = t.n - jk > 1 ? t.n - jk : 1; /* cards a column must hold */
    Cards cols = movegen_cols_at_least(movegen_col_counts(hand & movegen_range(t.low, rev)), need);
    move_put(out, 0);
    if (!cols || t.n > 4 + jk)
        return 1;
    return movegen_follow_group_cols(hand, t, lock, cols, out);
}

/* Over a lone joker: the pass, and the spade 3 if held. */
static inline int movegen_follow_joker(Cards hand, Move *out)
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
__attribute__((always_inline)) static inline int movegen(Cards hand, Move table, int rev, int lock, Move *out)
{
    switch (table.type) {
    case MOVE_SINGLE:
        return movegen_follow_single(hand, table, rev, lock, out);
    case MOVE_PASS:
        return movegen_lead(hand, out);
    case MOVE_GROUP:
        return movegen_follow_group(hand, table, rev, lock, out);
    case MOVE_SEQ:
        return movegen_follow_seq(hand, table, rev, lock, out);
    default:
        return movegen_follow_joker(hand, out);
    }
}

/* The rules as the server checks a submission: shape, ownership, kind/size/strength, lock,
 * lone joker and spade 3. A pass is always legal. */
int movegen_is_legal(Cards hand, Move table, int rev, int lock, Move m);

#endif

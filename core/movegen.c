/* movegen.c — bitboard move generation (see movegen.h for what is generated).
 *
 * Moves are built as 8-byte words (core/move.h) and stored with one write each; group
 * table rows are copied four words (one AVX2 register) at a time whatever their length, and
 * what lands past the returned count is scratch (MOVEGEN_SCRATCH). The dispatch and the common
 * paths (following a single or a group, the lead without the joker, the lone joker) are inline
 * in movegen.h; what is here is the rarer work: leading with the joker, sequences, a group
 * under the lock.
 *
 * Groups come from per-column tables (core/movegen_tables.h): the suits held in a column
 * index the list of groups that column can form, natural or with the joker.
 * Sequences are found for all four suits at once: with H the naturals held, the windows of
 * length k that start at bit b (= 4*col + suit) are the set bits of
 *   NAT_k = H & H>>4 & ... & H>>4(k-1)          (all k cells held)
 *   ONE_k = windows with exactly one cell missing (the joker fills it),
 * built incrementally: ONE_k = ONE_{k-1} & H>>4(k-1) | NAT_{k-1} & ~H>>4(k-1).
 * Columns 0 and 14 are never held, so a joker there comes out of the same formula.
 */
#include "movegen.h"

#define NIB_LOW 0x1111111111111111ULL

static inline Move *emit_seq_windows(Move *p, Cards nat_w, Cards one_w, Cards held, int k)
{
    const Cards run = NIB_LOW & ((1ULL << (4 * k)) - 1);
    const uint64_t base = MOVE_W_SEQ | (uint64_t)k << 8;
    for (; nat_w; nat_w &= nat_w - 1) {
        int b = __builtin_ctzll(nat_w);
        move_put(p++, base | (uint64_t)(b >> 2) << 16 | (uint64_t)(1u << (b & 3)) << 24);
    }
    for (; one_w; one_w &= one_w - 1) {
        int b = __builtin_ctzll(one_w);
        Cards miss = (run << b) & ~held;
        move_put(p++, base | (uint64_t)(b >> 2) << 16 | (uint64_t)(1u << (b & 3)) << 24 |
                          (uint64_t)(1 + __builtin_ctzll(miss)) << 32);
    }
    return p;
}

/* Sequences of length kmin..kmax whose start bit is in start. */
static inline Move *gen_seqs(Move *p, Cards nat, int jk, int kmin, int kmax, Cards start)
{
    Cards natk = nat & (nat >> 4);
    Cards onek = jk ? (((~nat & CARDS_CELLS) & (nat >> 4)) | (nat & ~(nat >> 4))) : 0;
    for (int k = 3; k <= kmax; k++) {
        Cards sh = nat >> (4 * (k - 1));
        onek = (onek & sh) | (jk ? (natk & ~sh) : 0);
        natk &= sh;
        if (!(natk | onek))
            break;
        if (k >= kmin) {
            Cards valid = ((1ULL << (4 * (16 - k))) - 1) & start; /* end column <= 14 */
            p = emit_seq_windows(p, natk & valid, onek & valid, nat, k);
        }
    }
    return p;
}

/* Sequences when leading without the joker (out of line: most hands have none). */
Move *movegen_lead_seqs(Move *p, Cards hand) { return gen_seqs(p, hand, 0, 3, 15, ~0ULL); }

/* Leading with the joker: every natural meld plus the joker's (about one hand in ten). */
Move *movegen_lead_joker(Cards hand, Move *p)
{
    const Cards nat = hand & CARDS_NATURAL;
    p = movegen_put_singles(p, nat, 0);
    move_put(p++, MOVE_W_JOKER);
    for (Cards cols = movegen_cols_at_least(movegen_col_counts(nat), 1); cols; cols &= cols - 1) {
        int c = __builtin_ctzll(cols) >> 2;
        unsigned a = (unsigned)(nat >> (4 * c)) & 15u;
        p = movegen_put_marked_row(p, GROUPS_LEAD_JOKER[a], GROUPS_LEAD_JOKER_N[a], c,
                                   MOVEGEN_ROW_WIDTH(GROUPS_LEAD_JOKER));
    }
    return gen_seqs(p, nat, 1, 3, 15, ~0ULL);
}

/* On a 64-byte boundary: the same code took 16.3 or 17.4 ns a lead (random 11-card hands)
 * depending only on where the linker happened to place it (docs/rules.md). */
__attribute__((aligned(64))) int movegen_lead(Cards hand, Move *out) { return movegen_lead_inline(hand, out); }

/* Groups of t's size and suits (the lock) from the candidate columns cols (bit 4c+3 per
 * column): at most one a column, natural or with the joker standing in for the one suit
 * missing; out[0] = pass. A five-card group never gets here: only the joker could answer it
 * and it was in the five-card group. */
int movegen_follow_group_lock(Cards hand, int n, unsigned m, Cards range, Move *out)
{
    Move *p = out + 1;
    const Cards nat = hand & range;
    const int jk = (int)((hand >> JOKER_BIT) & 1);
    Cards cols = movegen_cols_at_least(movegen_col_counts(nat), n - jk > 1 ? n - jk : 1);
    move_put(out, 0);
    for (; cols; cols &= cols - 1) {
        int c = __builtin_ctzll(cols) >> 2;
        unsigned a = (unsigned)(nat >> (4 * c)) & 15u;
        unsigned need = m & ~a;
        if (need == 0)
            *p++ = move_make(MOVE_GROUP, n, c, m, JK_NONE);
        else if (jk && !(need & (need - 1)) && n <= 4)
            *p++ = move_make(MOVE_GROUP, n, c, m, 1 + c * 4 + __builtin_ctz(need));
    }
    return (int)(p - out);
}

int movegen_follow_seq_from(Cards hand, int n, Cards start, Move *out)
{
    move_put(out, 0);
    if (!start)
        return 1;
    return (int)(gen_seqs(out + 1, hand & CARDS_NATURAL, (int)((hand >> JOKER_BIT) & 1), n, n, start) - out);
}

int movegen_follow(Cards hand, Move t, int rev, int lock, Move *out)
{
    return movegen(hand, t, rev, lock, out);
}

int movegen_is_legal(Cards hand, Move t, int rev, int lock, Move m)
{
    if (!move_valid_shape(m))
        return 0;
    if (m.type == MOVE_PASS)
        return 1;
    if (move_cards(m) & ~hand)
        return 0;
    if (t.type == MOVE_PASS)
        return 1;
    if (!move_beats(m, t, rev))
        return 0;
    if (t.type == MOVE_JOKER || m.type == MOVE_JOKER)
        return 1; /* spade 3 ignores the lock; a lone joker ignores and ends it */
    return !lock || m.suits == t.suits;
}

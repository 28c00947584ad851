/* movegen.c — bitboard move generation (see movegen.h for what is generated).
 *
 * Moves are built as 8-byte words (core/move.h) and stored with one write each; group
 * table rows are copied four words (one AVX2 register) at a time whatever their length, and
 * what lands past the returned count is scratch (MOVEGEN_SCRATCH). Dispatch and the cheap
 * paths (singles, the "can anything answer this group" test, the lone joker) are inline in
 * movegen.h; what is here is called only when there is something to generate.
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

/* Four Move words; GCC/Clang vector extension (one AVX2 register, two SSE2 registers). */
typedef uint64_t Words4 __attribute__((vector_size(32)));

/* Writes the four words src[0..3] + add at p (scratch past the row's length is fine). */
static inline void copy4(Move *p, const uint64_t *src, uint64_t add)
{
    Words4 v;
    memcpy(&v, src, sizeof v);
    v += add;
    memcpy(p, &v, sizeof v);
}

/* The padded width of a table's rows (a multiple of 4; at most 12). */
#define ROW_WIDTH(rows) ((int)(sizeof(rows)[0] / sizeof(rows)[0][0]))

/* A column's groups: table row e with n entries, padded to `width` (4, 8 or 12, a constant);
 * add moves them to the column. The first four words are always copied; the rest only for
 * longer rows (a column of three or four suits), so rows of up to four cost no branch. */
static inline Move *put_groups(Move *p, const uint64_t *e, int n, uint64_t add, int width)
{
    _Static_assert(MOVEGEN_SCRATCH >= 3, "a row copy writes up to three words past its length");
    copy4(p, e, add);
    if (width > 4 && n > 4) {
        copy4(p + 4, e + 4, add);
        if (width > 8)
            copy4(p + 8, e + 8, add);
    }
    return p + n;
}

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

static inline Move *put_five(Move *p, int c)
{
    move_put(p, MOVE_W_GROUP | (uint64_t)c << 16 | 5u << 8 | 15u << 24 | (uint64_t)JK_ROW4 << 32);
    return p + 1;
}

/* Sequences when leading without the joker (out of line: most hands have none). */
__attribute__((noinline)) static Move *lead_seqs(Move *p, Cards hand) { return gen_seqs(p, hand, 0, 3, 15, ~0ULL); }

/* Leading with the joker: every natural meld plus the joker's (about one hand in ten). */
__attribute__((noinline)) static Move *lead_with_joker(Cards hand, Move *p)
{
    const Cards nat = hand & CARDS_NATURAL;
    p = movegen_put_singles(p, nat);
    move_put(p++, MOVE_W_JOKER);
    for (Cards cols = movegen_cols_at_least(movegen_col_counts(nat), 1); cols; cols &= cols - 1) {
        int c = __builtin_ctzll(cols) >> 2;
        unsigned a = (unsigned)(nat >> (4 * c)) & 15u;
        p = put_groups(p, GROUPS_NAT[a], GROUPS_NAT_N[a], (uint64_t)c * GROUP_COL_NAT, ROW_WIDTH(GROUPS_NAT));
        p = put_groups(p, GROUPS_JOKER[a], GROUPS_JOKER_N[a], (uint64_t)c * GROUP_COL_JOKER, ROW_WIDTH(GROUPS_JOKER));
        if (a == 15u)
            p = put_five(p, c);
    }
    return gen_seqs(p, nat, 1, 3, 15, ~0ULL);
}

int movegen_lead(Cards hand, Move *out)
{
    if (hand & CARDS_JOKER)
        return (int)(lead_with_joker(hand, out) - out);
    Move *p = movegen_put_singles(out, hand);
    for (Cards cols = movegen_cols_at_least(movegen_col_counts(hand), 2); cols; cols &= cols - 1) {
        int c = __builtin_ctzll(cols) >> 2;
        unsigned a = (unsigned)(hand >> (4 * c)) & 15u;
        p = put_groups(p, GROUPS_NAT[a], GROUPS_NAT_N[a], (uint64_t)c * GROUP_COL_NAT, ROW_WIDTH(GROUPS_NAT));
    }
    if (hand & (hand >> 4) & (hand >> 8))
        p = lead_seqs(p, hand);
    return (int)(p - out);
}

/* Groups of t's size from the candidate columns cols (bit 4c+3 per column); out[0] = pass. */
int movegen_follow_group_cols(Cards hand, Move t, int lock, Cards cols, Move *out)
{
    Move *p = out + 1;
    const Cards nat = hand & CARDS_NATURAL;
    const int jk = (int)((hand >> JOKER_BIT) & 1);
    const int n = t.n;
    if (lock) {
        const unsigned m = t.suits;
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
    if (n == 5) { /* only another five-card group could follow; there is one joker */
        for (; jk && cols; cols &= cols - 1) {
            int c = __builtin_ctzll(cols) >> 2;
            if (((nat >> (4 * c)) & 15u) == 15u)
                p = put_five(p, c);
        }
        return (int)(p - out);
    }
    const uint64_t(*nat_rows)[8] = GROUPS_NAT_BY_N[n - 2];
    const uint8_t *nat_n = GROUPS_NAT_BY_N_N[n - 2];
    if (!jk) {
        for (; cols; cols &= cols - 1) {
            int c = __builtin_ctzll(cols) >> 2;
            unsigned a = (unsigned)(nat >> (4 * c)) & 15u;
            p = put_groups(p, nat_rows[a], nat_n[a], (uint64_t)c * GROUP_COL_NAT, ROW_WIDTH(nat_rows));
        }
        return (int)(p - out);
    }
    const uint64_t(*jk_rows)[4] = GROUPS_JOKER_BY_N[n - 2];
    const uint8_t *jk_n = GROUPS_JOKER_BY_N_N[n - 2];
    for (; cols; cols &= cols - 1) {
        int c = __builtin_ctzll(cols) >> 2;
        unsigned a = (unsigned)(nat >> (4 * c)) & 15u;
        p = put_groups(p, nat_rows[a], nat_n[a], (uint64_t)c * GROUP_COL_NAT, ROW_WIDTH(nat_rows));
        p = put_groups(p, jk_rows[a], jk_n[a], (uint64_t)c * GROUP_COL_JOKER, ROW_WIDTH(jk_rows));
    }
    return (int)(p - out);
}

int movegen_follow_seq(Cards hand, Move t, int rev, int lock, Move *out)
{
    const int n = t.n;
    Cards start;
    if (rev) {
        int lim = t.low - n + 1; /* start columns < lim */
        start = lim > 0 ? cards_below_col(lim) : 0;
    } else {
        start = cards_above_col(move_high(t));
    }
    if (lock)
        start &= cards_of_suits(t.suits);
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

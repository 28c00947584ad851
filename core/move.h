/* move.h — a move (pass or meld) in 8 bytes, plus the kifu notation.
 *
 * A Move is what a player puts on the table: its kind, its size n (joker included), its
 * lowest column, its suit set as seen on the table (the joker's chosen row counts), and where
 * the joker is. The cards it takes from the hand are derived (move_cards). Every Move built by
 * this module or by movegen is canonical: unused fields are zero, so two moves are equal iff
 * their 8 bytes are equal. A zero Move is a pass.
 */
#ifndef DHM_MOVE_H
#define DHM_MOVE_H

#include <stdint.h>
#include <string.h>

#include "cards.h"

enum { MOVE_PASS = 0, MOVE_SINGLE = 1, MOVE_GROUP = 2, MOVE_SEQ = 3, MOVE_JOKER = 4 };

/* Joker field: 0 = no joker; 1 + bit = the joker stands in for that table cell (bit as in
 * cards.h, columns 0..14); JK_LONE = a lone joker; JK_ROW4 = the fifth card of a five-group. */
#define JK_NONE 0
#define JK_LONE (JOKER_BIT + 1)
#define JK_ROW4 62

typedef struct __attribute__((aligned(8))) Move {
    uint8_t type;  /* MOVE_* */
    uint8_t n;     /* number of cards, joker included */
    uint8_t low;   /* lowest column (single/group: their column) */
    uint8_t suits; /* suit mask on the table */
    uint8_t jk;    /* JK_* or 1 + stand-in bit */
    uint8_t pad[3];
} Move;

#define MOVE_MAX_TEXT 24

/* Built in a register: assembling the bytes on the stack and reloading them as one word
 * stalls store forwarding on every generated move. */
static inline Move move_make(int type, int n, int low, unsigned suits, int jk)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t x = (uint64_t)(uint8_t)type | (uint64_t)(uint8_t)n << 8 | (uint64_t)(uint8_t)low << 16 |
                 (uint64_t)(uint8_t)suits << 24 | (uint64_t)(uint8_t)jk << 32;
    Move m;
    memcpy(&m, &x, sizeof m);
#else
    Move m = {(uint8_t)type, (uint8_t)n, (uint8_t)low, (uint8_t)suits, (uint8_t)jk, {0, 0, 0}};
#endif
    return m;
}
/* The same 8 bytes as one little-endian word: type | n << 8 | low << 16 | suits << 24 |
 * jk << 32. Generators build words and store them with move_put. */
#define MOVE_W_SINGLE 0x0101ULL
#define MOVE_W_GROUP 0x0002ULL
#define MOVE_W_SEQ 0x0003ULL
#define MOVE_W_JOKER (0x0104ULL | (uint64_t)JK_LONE << 32)
static inline Move move_from_word(uint64_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    Move m;
    memcpy(&m, &x, sizeof m);
    return m;
#else
    Move m = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24), (uint8_t)(x >> 32), {0, 0, 0}};
    return m;
#endif
}
static inline void move_put(Move *p, uint64_t x) { *p = move_from_word(x); }
/* A single's word from its card bit. */
static inline uint64_t move_w_single(int bit)
{
    return MOVE_W_SINGLE | (uint64_t)(bit >> 2) << 16 | (uint64_t)(1u << (bit & 3)) << 24;
}

static inline Move move_pass(void) { return move_make(MOVE_PASS, 0, 0, 0, JK_NONE); }
/* A submission that is not a meld at all (a garbage table): never legal, played as a pass. */
static inline Move move_invalid(void) { return move_make(0xFF, 0, 0, 0, JK_NONE); }
static inline Move move_lone_joker(void) { return move_make(MOVE_JOKER, 1, 0, 0, JK_LONE); }
static inline Move move_single(int bit) { return move_from_word(move_w_single(bit)); }

static inline int move_is_pass(Move m) { return m.type == MOVE_PASS; }
static inline int move_eq(Move a, Move b)
{
    uint64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return x == y;
}
static inline int move_high(Move m) { return m.type == MOVE_SEQ ? m.low + m.n - 1 : m.low; }
static inline int move_uses_joker(Move m) { return m.jk != JK_NONE; }

/* Table cells covered (naturals and the joker's stand-in cell; not row 4, not a lone joker). */
static inline Cards move_cells(Move m)
{
    int s = __builtin_ctz(m.suits | 16u) & 3;
    switch (m.type) {
    case MOVE_SINGLE:
        return 1ULL << (m.low * 4 + s);
    case MOVE_GROUP:
        return (Cards)m.suits << (m.low * 4);
    case MOVE_SEQ:
        return (CARDS_SUIT_LOW & ((1ULL << (4 * m.n)) - 1)) << (m.low * 4 + s);
    default:
        return 0;
    }
}

/* The cards the move takes from the hand (joker included). */
static inline Cards move_cards(Move m)
{
    Cards c = move_cells(m);
    if (m.jk != JK_NONE) {
        if (m.jk <= JOKER_BIT)
            c &= ~(1ULL << (m.jk - 1));
        c |= CARDS_JOKER;
    }
    return c;
}

/* An accepted meld with an 8 cuts the table: any 8 in it, also a joker standing in for an 8;
 * never a lone joker. */
static inline int move_is_eight(Move m)
{
    return (m.type == MOVE_SINGLE || m.type == MOVE_GROUP || m.type == MOVE_SEQ) && m.low <= COL_8 &&
           move_high(m) >= COL_8;
}
/* Group of >= 4 cards or sequence of >= 5 toggles revolution. */
static inline int move_is_revolution(Move m)
{
    return (m.type == MOVE_GROUP && m.n >= 4) || (m.type == MOVE_SEQ && m.n >= 5);
}

/* Is m of the same kind and size as t and stronger (rev = revolution), ignoring lock and the
 * lone-joker special cases (a lone joker beats any single; only the spade 3 beats it). */
int move_beats(Move m, Move t, int rev);

/* Checks that a Move is a well-formed, canonical meld (shape only, not ownership). */
int move_valid_shape(Move m);

/* Kifu notation (../shared/data/README.md): "p", "jk", "d-3", "chs-3", "ch-a(c)", "d-567",
 * "h-678(7)". Extensions: rank 'u' / 'o' are the joker-only slots below the 3 / above the 2
 * ("s-u34(u)", "d-a2o(o)"), and a five-card group is written "cdhsx-5(x)". */
int move_format(Move m, char *buf, size_t size);
/* Parses one move token (timing suffix "[123]" must be stripped by the caller).
 * Returns 0 and a canonical Move, or -1. */
int move_parse(const char *s, size_t len, Move *out);

#endif

/* cards.h — card sets as 64-bit bitboards.
 *
 * Layout: bit = col * 4 + suit. Columns follow the UECda table: col 1 = 3, ... 6 = 8, ...,
 * 11 = K, 12 = A, 13 = 2; columns 0 and 14 are the joker-only slots below the 3 and above
 * the 2. Suits inside a column: 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades, so a
 * higher bit is always the stronger card in the exchange order (rank first, then
 * S > H > D > C) and the joker (bit 60) is the highest bit of all.
 * Everything here is pure and allocation-free.
 */
#ifndef DHM_CARDS_H
#define DHM_CARDS_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t Cards;

enum { SUIT_C = 0, SUIT_D = 1, SUIT_H = 2, SUIT_S = 3 };

#define COL_MIN 1 /* the 3 */
#define COL_8 6
#define COL_MAX 13 /* the 2 */
#define COL_TOP 14 /* joker-only slot above the 2 */

#define CARDS_NONE 0ULL
#define CARDS_JOKER (1ULL << 60)
#define JOKER_BIT 60
#define CARDS_NATURAL 0x00FFFFFFFFFFFFF0ULL /* columns 1..13, all suits */
#define CARDS_ALL (CARDS_NATURAL | CARDS_JOKER)
#define CARDS_CELLS 0x0FFFFFFFFFFFFFFFULL /* columns 0..14: every table cell */
#define CARDS_SUIT_LOW 0x0111111111111111ULL /* one bit per column, suit 0 */
#define CARDS_D3 (1ULL << (1 * 4 + SUIT_D))
#define CARDS_S3 (1ULL << (1 * 4 + SUIT_S))
#define CARDS_COL(c) (0xFULL << ((c) * 4))

static inline int card_bit(int col, int suit) { return col * 4 + suit; }
static inline Cards card_of(int col, int suit) { return 1ULL << card_bit(col, suit); }
static inline int cards_count(Cards c) { return __builtin_popcountll(c); }
static inline int cards_lowest_bit(Cards c) { return __builtin_ctzll(c); }
static inline int cards_highest_bit(Cards c) { return 63 - __builtin_clzll(c); }
/* All cards of the given suit mask (bit s = suit s), columns 0..14. */
static inline Cards cards_of_suits(unsigned suits) { return CARDS_SUIT_LOW * (Cards)(suits & 15u); }
/* Cards of columns strictly above / strictly below col. */
static inline Cards cards_above_col(int col) { return ~((1ULL << ((col + 1) * 4)) - 1); }
static inline Cards cards_below_col(int col) { return (1ULL << (col * 4)) - 1; }

/* The n strongest cards in the exchange order (joker, then 2, A, ...; S > H > D > C). */
Cards cards_strongest(Cards c, int n);
/* The n weakest cards (3 first, clubs first; the joker last). */
Cards cards_weakest(Cards c, int n);

/* Kifu notation: "c3 d8 ht sa jo" (suit letter c d h s, rank 3..9 t j q k a 2; jo).
 * Parses whitespace-separated cards; braces are not accepted here. Returns 0 and sets *out,
 * or -1 on a bad token (duplicates are an error too). */
int cards_parse(const char *s, Cards *out);
/* Formats in ascending order, space separated ("" for the empty set). Returns the length
 * that would have been written (like snprintf). */
int cards_format(Cards c, char *buf, size_t size);
/* A readable form for the terminal: "3♣ 8♦ 10♥ A♠ JK". */
int cards_format_pretty(Cards c, char *buf, size_t size);
/* One card token ("c3", "jo") to its bit, or -1. */
int card_parse_token(const char *tok, size_t len);

extern const char RANK_CHARS[16]; /* index = column: "u3456789tjqka2o" */
extern const char SUIT_CHARS[5];  /* index = suit: "cdhs" */

#endif

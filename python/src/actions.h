/* actions.h — the fixed global action encoding of the Python environment.
 *
 * Every meld that can exist under the rules (core/move.h's canonical Moves that pass
 * move_valid_shape) and every choice of cards a rich player can give in the exchange has one
 * index, the same in every game and every build:
 *
 *   0                pass
 *   1 .. 52          singles: 1 + card index (card index = bit - 4: 3c 3d 3h 3s 4c ... 2s)
 *   53               the lone joker
 *   54 .. 196        groups of 2-4 natural cards: column 3..2, then suit set (ascending mask)
 *   197 .. 560       groups with the joker: column, suit set on the table, the joker's suit
 *   561 .. 573       five-card groups (four naturals and the joker), column 3..2
 *   574 .. 2605      sequences: suit, length 3..15, lowest column, then the natural
 *                    sequence (if any) and the joker standing in for each column in turn
 *   2606 .. 2658     exchange, one card: 2606 + card index (52 = the joker)
 *   2659 .. 4036     exchange, two cards a < b: 2659 + the pair's rank in (0,1) (0,2) ... (51,52)
 *
 * The tables are built once by actions_init() (idempotent; call it before anything else from
 * one thread) and are read-only afterwards. Nothing here allocates.
 */
#ifndef DHM_PY_ACTIONS_H
#define DHM_PY_ACTIONS_H

#include "core/move.h"

#define NCARDS 53               /* card index 0..51 = bit - 4, 52 = the joker */
#define ACT_PASS 0
#define ACT_SINGLE 1
#define ACT_JOKER 53
#define ACT_GROUP 54
#define ACT_GROUP_JOKER 197
#define ACT_GROUP5 561
#define ACT_SEQ 574
#define ACT_MELDS 2606          /* meld actions are 0 .. ACT_MELDS - 1 */
#define ACT_GIVE1 2606
#define ACT_GIVE2 2659
#define NUM_ACTIONS 4037

static inline int card_index(int bit) { return bit == JOKER_BIT ? 52 : bit - 4; }
static inline int card_bit_of(int idx) { return idx == 52 ? JOKER_BIT : idx + 4; }

int actions_init(void); /* 0, or -1 if the enumeration does not match the layout above */
/* The index of a canonical meld, or -1 for anything that is not one. */
int action_of_move(Move m);
/* The same for a meld known to be canonical (from movegen or action_move): no checks. */
int action_of_generated(Move m);
/* The meld of a meld action (0 <= a < ACT_MELDS). */
Move action_move(int a);
/* The exchange action giving `give` (one or two cards), or -1. */
int action_of_give(Cards give);
/* The cards an exchange action gives (ACT_GIVE1 <= a < NUM_ACTIONS). */
Cards action_give(int a);
/* "p", "d-3", "chs-3", "h-678(7)" (kifu notation) for melds; "give c3 ha" for the exchange. */
int action_format(int a, char *buf, size_t size);
/* The inverse of action_format; also accepts "give" followed by one or two card tokens. */
int action_parse(const char *s, int *out);

#endif

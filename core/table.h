/* table.h — the UECda protocol's 8x15 table of 32-bit cells, its card area read and written
 * (spec/uecda.md §2; net/table.h puts it on the wire). Pure: no I/O, no allocation.
 *
 * Card area rows 0-4: row 0 spades, 1 hearts, 2 diamonds, 3 clubs (so suit = 3 - row),
 * row 4 the joker row ([4][1] = 2 is a held joker; in a submission row 4 only holds the fifth
 * card of a five-card group); column = our card column (1 = 3 ... 13 = 2; 0 and 14 are the
 * joker-only slots). Cell 1 = natural card, 2 = joker. Status rows 5-7 as in §2.3.
 * A table from a peer is untrusted: the readers here validate and never assume.
 */
#ifndef DHM_TABLE_H
#define DHM_TABLE_H

#include <stdint.h>

#include "core/move.h"

#define TABLE_ROWS 8
#define TABLE_COLS 15

typedef struct Table {
    int32_t c[TABLE_ROWS][TABLE_COLS];
} Table;

/* A hand: naturals as 1 in rows 0-3, a held joker as [4][1] = 2. Rows 0-4 only. */
void table_put_hand(Table *t, Cards c);

/* A meld as it is submitted or shown on the field: naturals 1, the joker 2 in the cell it
 * stands for (row 4 of the column for a five-card group); a lone joker at [0][14]. */
void table_put_move(Table *t, Move m);
/* Decodes a submission (rows 0-4; rows 5-7 ignored): 0 and the move, or -1 when the cells do
 * not form a meld (values other than 0/1/2, two jokers, 1 in column 0/14 or row 4, a lone 2
 * in row 4, shapes that are neither single, group nor sequence). All zeros is a pass.
 * Ownership and legality are checked elsewhere. */
int table_to_move(const Table *t, Move *out);
/* The cards of a hand or exchange table (the 1 cells; a 2 anywhere = the joker): 0, or -1
 * when malformed (a value other than 0/1/2, a 1 in row 4 or column 0/14, two jokers). */
int table_get_cards(const Table *t, Cards *out);

/* Clears rows 0-4. */
void table_clear_cards(Table *t);

#endif

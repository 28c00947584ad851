/* table.c — the protocol's 8x15 card table: cards and melds in, validated melds and cards out. */
#include "core/table.h"

#include <string.h>

static inline int row_of_suit(int s) { return 3 - s; }
static inline int suit_of_row(int r) { return 3 - r; }

void table_clear_cards(Table *t) { memset(t->c, 0, sizeof t->c[0] * 5); }

void table_put_hand(Table *t, Cards c)
{
    table_clear_cards(t);
    for (Cards x = c & CARDS_NATURAL; x; x &= x - 1) {
        int b = __builtin_ctzll(x);
        t->c[row_of_suit(b & 3)][b >> 2] = 1;
    }
    if (c & CARDS_JOKER)
        t->c[4][1] = 2;
}

void table_put_move(Table *t, Move m)
{
    table_clear_cards(t);
    if (m.type == MOVE_PASS)
        return;
    if (m.type == MOVE_JOKER) {
        t->c[0][COL_TOP] = 2;
        return;
    }
    for (Cards x = move_cells(m); x; x &= x - 1) {
        int b = __builtin_ctzll(x);
        t->c[row_of_suit(b & 3)][b >> 2] = 1;
    }
    if (m.jk == JK_ROW4)
        t->c[4][m.low] = 2;
    else if (m.jk != JK_NONE)
        t->c[row_of_suit((m.jk - 1) & 3)][(m.jk - 1) >> 2] = 2;
}

int table_to_move(const Table *t, Move *out)
{
    int n = 0, jr = -1, jc = -1;
    int minr = 5, maxr = -1, minc = TABLE_COLS, maxc = -1;
    unsigned rows = 0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < TABLE_COLS; c++) {
            int32_t v = t->c[r][c];
            if (v == 0)
                continue;
            if (v == 2) {
                if (jr >= 0)
                    return -1; /* two jokers */
                jr = r;
                jc = c;
            } else if (v != 1 || r == 4 || c == 0 || c == COL_TOP) {
                return -1;
            }
            n++;
            if (r < 4)
                rows |= 1u << r;
            minr = r < minr ? r : minr;
            maxr = r > maxr ? r : maxr;
            minc = c < minc ? c : minc;
            maxc = c > maxc ? c : maxc;
        }
    Move m;
    if (n == 0) {
        m = move_pass();
    } else if (n == 1 && jr >= 0) { /* a lone joker: any cell of rows 0-3 */
        if (jr == 4)
            return -1;
        m = move_lone_joker();
    } else if (n == 1) {
        m = move_single(card_bit(minc, suit_of_row(minr)));
    } else if (minc == maxc) { /* one column: a group */
        if (minc < COL_MIN || minc > COL_MAX)
            return -1;
        unsigned suits = 0;
        for (int r = 0; r < 4; r++)
            if ((rows >> r) & 1)
                suits |= 1u << suit_of_row(r);
        if (jr == 4) { /* five-card group: four naturals and the joker in row 4 */
            if (n != 5)
                return -1;
            m = move_make(MOVE_GROUP, 5, minc, 15u, JK_ROW4);
        } else {
            m = move_make(MOVE_GROUP, n, minc, suits, jr >= 0 ? 1 + card_bit(jc, suit_of_row(jr)) : JK_NONE);
        }
    } else if (minr == maxr && minr < 4) { /* one suit: a sequence of consecutive cells */
        if (n != maxc - minc + 1 || n < 3)
            return -1;
        int s = suit_of_row(minr);
        m = move_make(MOVE_SEQ, n, minc, 1u << s, jr >= 0 ? 1 + card_bit(jc, s) : JK_NONE);
    } else {
        return -1;
    }
    if (!move_valid_shape(m))
        return -1;
    *out = m;
    return 0;
}

int table_get_cards(const Table *t, Cards *out)
{
    Cards c = 0;
    int jokers = 0;
    for (int r = 0; r < 5; r++)
        for (int col = 0; col < TABLE_COLS; col++) {
            int32_t v = t->c[r][col];
            if (v == 0)
                continue;
            if (v == 2) {
                jokers++;
                continue;
            }
            if (v != 1 || r == 4 || col == 0 || col == COL_TOP)
                return -1;
            c |= card_of(col, suit_of_row(r));
        }
    if (jokers > 1)
        return -1;
    *out = c | (jokers ? CARDS_JOKER : 0);
    return 0;
}

/* actions.c — the global action encoding (see actions.h): built once by enumerating every
 * canonical meld in a fixed order, with small direct-index tables for the reverse lookup. */
#include "actions.h"

#include <stdio.h>
#include <string.h>

static Move MOVES[ACT_MELDS + 64]; /* room for a miscount, caught by actions_init */
static int16_t GN_SLOT[16];        /* natural group: suit mask -> slot within a column (11) */
static int16_t GJ_SLOT[16][4];     /* joker group: suit mask, joker suit -> slot (28) */
static int16_t SEQ_BASE[4][15][16]; /* suit, lowest column, length -> first index, -1 none */
static int ready;

#define GN_PER_COL 11
#define GJ_PER_COL 28

static int seq_has_natural(int low, int n) { return low >= COL_MIN && low + n - 1 <= COL_MAX; }

int actions_init(void)
{
    if (ready)
        return 0;
    int a = 0;
    MOVES[a++] = move_pass();
    for (int b = 4; b < 56; b++)
        MOVES[a++] = move_single(b);
    MOVES[a++] = move_lone_joker();
    int k = 0;
    for (unsigned s = 0; s < 16; s++)
        GN_SLOT[s] = __builtin_popcount(s) >= 2 ? (int16_t)k++ : -1;
    k = 0;
    for (unsigned s = 0; s < 16; s++)
        for (int j = 0; j < 4; j++)
            GJ_SLOT[s][j] = __builtin_popcount(s) >= 2 && ((s >> j) & 1) ? (int16_t)k++ : -1;
    for (int c = COL_MIN; c <= COL_MAX; c++)
        for (unsigned s = 0; s < 16; s++)
            if (GN_SLOT[s] >= 0)
                MOVES[a++] = move_make(MOVE_GROUP, __builtin_popcount(s), c, s, JK_NONE);
    for (int c = COL_MIN; c <= COL_MAX; c++)
        for (unsigned s = 0; s < 16; s++)
            for (int j = 0; j < 4; j++)
                if (GJ_SLOT[s][j] >= 0)
                    MOVES[a++] = move_make(MOVE_GROUP, __builtin_popcount(s), c, s, 1 + card_bit(c, j));
    for (int c = COL_MIN; c <= COL_MAX; c++)
        MOVES[a++] = move_make(MOVE_GROUP, 5, c, 15, JK_ROW4);
    memset(SEQ_BASE, 0xff, sizeof SEQ_BASE);
    for (int s = 0; s < 4; s++)
        for (int n = 3; n <= 15; n++)
            for (int low = 0; low + n - 1 <= COL_TOP; low++) {
                int first = a;
                if (seq_has_natural(low, n))
                    MOVES[a++] = move_make(MOVE_SEQ, n, low, 1u << s, JK_NONE);
                for (int jc = low; jc < low + n; jc++) {
                    Move m = move_make(MOVE_SEQ, n, low, 1u << s, 1 + card_bit(jc, s));
                    if (move_valid_shape(m))
                        MOVES[a++] = m;
                }
                if (a > first)
                    SEQ_BASE[s][low][n] = (int16_t)first;
            }
    ready = a == ACT_MELDS; /* the layout in actions.h */
    return ready ? 0 : -1;
}

int action_of_generated(Move m)
{
    switch (m.type) {
    case MOVE_PASS:
        return ACT_PASS;
    case MOVE_SINGLE:
        return ACT_SINGLE + (m.low - COL_MIN) * 4 + __builtin_ctz(m.suits);
    case MOVE_GROUP:
        if (m.n == 5)
            return ACT_GROUP5 + m.low - COL_MIN;
        if (m.jk == JK_NONE)
            return ACT_GROUP + (m.low - COL_MIN) * GN_PER_COL + GN_SLOT[m.suits];
        return ACT_GROUP_JOKER + (m.low - COL_MIN) * GJ_PER_COL + GJ_SLOT[m.suits][(m.jk - 1) & 3];
    case MOVE_SEQ: {
        const int base = SEQ_BASE[__builtin_ctz(m.suits)][m.low][m.n];
        if (m.jk == JK_NONE || !seq_has_natural(m.low, m.n))
            return base;
        return base + 1 + ((m.jk - 1) >> 2) - m.low;
    }
    default:
        return ACT_JOKER;
    }
}

int action_of_move(Move m)
{
    if (m.type > MOVE_JOKER || !move_valid_shape(m))
        return -1;
    return action_of_generated(m);
}

Move action_move(int a) { return a >= 0 && a < ACT_MELDS ? MOVES[a] : move_invalid(); }

static int pair_rank(int x, int y) { return x * (2 * NCARDS - x - 1) / 2 + (y - x - 1); }

int action_of_give(Cards give)
{
    int n = cards_count(give);
    if ((give & ~CARDS_ALL) || n < 1 || n > 2)
        return -1;
    int x = card_index(cards_lowest_bit(give));
    if (n == 1)
        return ACT_GIVE1 + x;
    return ACT_GIVE2 + pair_rank(x, card_index(cards_highest_bit(give)));
}

Cards action_give(int a)
{
    if (a >= ACT_GIVE1 && a < ACT_GIVE2)
        return 1ULL << card_bit_of(a - ACT_GIVE1);
    if (a < ACT_GIVE2 || a >= NUM_ACTIONS)
        return 0;
    int r = a - ACT_GIVE2, x = 0;
    while (r >= NCARDS - 1 - x) { /* rows of the pair triangle */
        r -= NCARDS - 1 - x;
        x++;
    }
    return 1ULL << card_bit_of(x) | 1ULL << card_bit_of(x + 1 + r);
}

int action_format(int a, char *buf, size_t size)
{
    if (a >= 0 && a < ACT_MELDS)
        return move_format(MOVES[a], buf, size);
    if (a < ACT_MELDS || a >= NUM_ACTIONS)
        return snprintf(buf, size, "?");
    char cards[16];
    cards_format(action_give(a), cards, sizeof cards);
    return snprintf(buf, size, "give %s", cards);
}

int action_parse(const char *s, int *out)
{
    while (*s == ' ')
        s++;
    size_t len = strlen(s);
    while (len && s[len - 1] == ' ')
        len--;
    if (len >= 5 && !strncmp(s, "give ", 5)) {
        char buf[32];
        Cards c;
        if (len - 5 >= sizeof buf)
            return -1;
        memcpy(buf, s + 5, len - 5);
        buf[len - 5] = 0;
        if (cards_parse(buf, &c) || (*out = action_of_give(c)) < 0)
            return -1;
        return 0;
    }
    Move m;
    if (move_parse(s, len, &m))
        return -1;
    *out = action_of_move(m);
    return *out < 0 ? -1 : 0;
}

/* move.c — move comparison, shape validation and the kifu move notation. */
#include "move.h"

#include <stdio.h>

int move_beats(Move m, Move t, int rev)
{
    if (t.type == MOVE_PASS)
        return m.type != MOVE_PASS;
    if (t.type == MOVE_JOKER) /* only the lone spade 3 */
        return m.type == MOVE_SINGLE && m.low == COL_MIN && m.suits == (1u << SUIT_S);
    if (m.type == MOVE_JOKER)
        return t.type == MOVE_SINGLE;
    if (m.type != t.type || m.n != t.n)
        return 0;
    return rev ? move_high(m) < t.low : m.low > move_high(t);
}

int move_valid_shape(Move m)
{
    if (m.pad[0] || m.pad[1] || m.pad[2])
        return 0;
    int ns = __builtin_popcount(m.suits);
    int jbit = (m.jk >= 1 && m.jk <= JOKER_BIT) ? m.jk - 1 : -1;
    switch (m.type) {
    case MOVE_PASS:
        return m.n == 0 && m.low == 0 && m.suits == 0 && m.jk == JK_NONE;
    case MOVE_JOKER:
        return m.n == 1 && m.low == 0 && m.suits == 0 && m.jk == JK_LONE;
    case MOVE_SINGLE:
        return m.n == 1 && m.low >= COL_MIN && m.low <= COL_MAX && ns == 1 && m.jk == JK_NONE;
    case MOVE_GROUP:
        if (m.low < COL_MIN || m.low > COL_MAX || m.suits > 15)
            return 0;
        if (m.n == 5)
            return m.suits == 15 && m.jk == JK_ROW4;
        if (m.n < 2 || m.n > 4 || ns != m.n)
            return 0;
        return m.jk == JK_NONE || (jbit >= 0 && (jbit >> 2) == m.low && ((m.suits >> (jbit & 3)) & 1));
    case MOVE_SEQ: {
        int high = m.low + m.n - 1;
        if (m.n < 3 || ns != 1 || m.suits > 15 || high > COL_TOP)
            return 0;
        if (m.jk != JK_NONE && (jbit < 0 || !((move_cells(m) >> jbit) & 1)))
            return 0;
        if (m.low == 0 && (jbit < 0 || (jbit >> 2) != 0))
            return 0; /* the slot below the 3 only holds the joker */
        if (high == COL_TOP && (jbit < 0 || (jbit >> 2) != COL_TOP))
            return 0;
        return 1;
    }
    default:
        return 0;
    }
}

int move_format(Move m, char *buf, size_t size)
{
    char t[MOVE_MAX_TEXT];
    size_t k = 0;
    switch (m.type) {
    case MOVE_PASS:
        return snprintf(buf, size, "p");
    case MOVE_JOKER:
        return snprintf(buf, size, "jk");
    case MOVE_SINGLE:
    case MOVE_GROUP:
        for (int s = 0; s < 4; s++)
            if ((m.suits >> s) & 1)
                t[k++] = SUIT_CHARS[s];
        if (m.jk == JK_ROW4)
            t[k++] = 'x';
        t[k++] = '-';
        t[k++] = RANK_CHARS[m.low & 15];
        if (m.jk == JK_ROW4) {
            t[k++] = '(';
            t[k++] = 'x';
            t[k++] = ')';
        } else if (m.jk != JK_NONE) {
            t[k++] = '(';
            t[k++] = SUIT_CHARS[(m.jk - 1) & 3];
            t[k++] = ')';
        }
        break;
    case MOVE_SEQ:
        t[k++] = SUIT_CHARS[__builtin_ctz(m.suits | 16u) & 3];
        t[k++] = '-';
        for (int c = m.low; c <= move_high(m) && k < MOVE_MAX_TEXT - 5; c++)
            t[k++] = RANK_CHARS[c & 15];
        if (m.jk != JK_NONE) {
            t[k++] = '(';
            t[k++] = RANK_CHARS[((m.jk - 1) >> 2) & 15];
            t[k++] = ')';
        }
        break;
    default:
        return snprintf(buf, size, "?");
    }
    t[k] = 0;
    return snprintf(buf, size, "%s", t);
}

static int col_of(char ch)
{
    for (int c = 0; c <= COL_TOP; c++)
        if (RANK_CHARS[c] == ch)
            return c;
    return -1;
}

static int suit_of(char ch)
{
    for (int s = 0; s < 4; s++)
        if (SUIT_CHARS[s] == ch)
            return s;
    return -1;
}

int move_parse(const char *s, size_t len, Move *out)
{
    if (len == 1 && s[0] == 'p') {
        *out = move_pass();
        return 0;
    }
    if (len == 2 && s[0] == 'j' && s[1] == 'k') {
        *out = move_lone_joker();
        return 0;
    }
    size_t i = 0;
    unsigned suits = 0;
    int fifth = 0, nsuits = 0;
    for (; i < len && s[i] != '-'; i++) {
        int su = suit_of(s[i]);
        if (s[i] == 'x' && !fifth)
            fifth = 1;
        else if (su < 0 || ((suits >> su) & 1))
            return -1;
        else {
            suits |= 1u << su;
            nsuits++;
        }
    }
    if (i >= len || nsuits == 0)
        return -1;
    i++; /* '-' */
    int cols[16], nc = 0;
    for (; i < len && s[i] != '('; i++) {
        int c = col_of(s[i]);
        if (c < 0 || nc >= 15)
            return -1;
        cols[nc++] = c;
    }
    if (nc == 0)
        return -1;
    int jch = -1;
    if (i < len) { /* "(x)" */
        if (len - i != 3 || s[len - 1] != ')')
            return -1;
        jch = s[i + 1];
    }
    Move m;
    if (nc == 1) { /* single or group */
        int c = cols[0];
        if (fifth) {
            if (jch != 'x' || nsuits != 4)
                return -1;
            m = move_make(MOVE_GROUP, 5, c, 15, JK_ROW4);
        } else if (nsuits == 1 && jch < 0) {
            m = move_make(MOVE_SINGLE, 1, c, suits, JK_NONE);
        } else {
            int jk = JK_NONE;
            if (jch >= 0) {
                int js = suit_of((char)jch);
                if (js < 0)
                    return -1;
                jk = 1 + card_bit(c, js);
            }
            m = move_make(MOVE_GROUP, nsuits, c, suits, jk);
        }
    } else {
        if (fifth || nsuits != 1)
            return -1;
        for (int k = 1; k < nc; k++)
            if (cols[k] != cols[0] + k)
                return -1;
        int jk = JK_NONE;
        if (jch >= 0) {
            int jc = col_of((char)jch);
            if (jc < 0)
                return -1;
            jk = 1 + card_bit(jc, __builtin_ctz(suits));
        }
        m = move_make(MOVE_SEQ, nc, cols[0], suits, jk);
    }
    if (!move_valid_shape(m))
        return -1;
    *out = m;
    return 0;
}

/* cards.c — parsing and printing card sets; strongest/weakest selection for the exchange. */
#include "cards.h"

#include <stdio.h>
#include <string.h>

const char RANK_CHARS[16] = "u3456789tjqka2o";
const char SUIT_CHARS[5] = "cdhs";

Cards cards_strongest(Cards c, int n)
{
    Cards r = 0;
    while (n-- > 0 && c) {
        Cards top = 1ULL << cards_highest_bit(c);
        r |= top;
        c ^= top;
    }
    return r;
}

Cards cards_weakest(Cards c, int n)
{
    Cards r = 0;
    while (n-- > 0 && c) {
        Cards low = c & (0 - c);
        r |= low;
        c ^= low;
    }
    return r;
}

static int rank_col(char ch)
{
    const char *p = strchr(RANK_CHARS + 1, ch); /* 3..2 only: columns 1..13 */
    if (ch == 0 || p == NULL || p - RANK_CHARS > COL_MAX)
        return -1;
    return (int)(p - RANK_CHARS);
}

static int suit_index(char ch)
{
    const char *p = strchr(SUIT_CHARS, ch);
    return ch && p ? (int)(p - SUIT_CHARS) : -1;
}

int card_parse_token(const char *tok, size_t len)
{
    if (len != 2)
        return -1;
    if (tok[0] == 'j' && tok[1] == 'o')
        return JOKER_BIT;
    int s = suit_index(tok[0]), c = rank_col(tok[1]);
    if (s < 0 || c < 0)
        return -1;
    return card_bit(c, s);
}

int cards_parse(const char *s, Cards *out)
{
    Cards c = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (!*s)
            break;
        const char *start = s;
        while (*s && *s != ' ' && *s != '\t' && *s != ',')
            s++;
        int b = card_parse_token(start, (size_t)(s - start));
        if (b < 0 || (c >> b) & 1)
            return -1;
        c |= 1ULL << b;
    }
    *out = c;
    return 0;
}

/* Formats each card with tok(bit, out) into buf, space separated (snprintf semantics). */
static int format_with(Cards c, char *buf, size_t size, void (*tok)(int bit, char out[8]))
{
    size_t n = 0;
    if (size)
        buf[0] = 0;
    for (Cards x = c & CARDS_ALL; x; x &= x - 1) {
        char t[8];
        tok(cards_lowest_bit(x), t);
        int w = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s", n ? " " : "", t);
        n += (size_t)w;
    }
    return (int)n;
}

static void kifu_token(int b, char out[8])
{
    if (b == JOKER_BIT)
        snprintf(out, 8, "jo");
    else
        snprintf(out, 8, "%c%c", SUIT_CHARS[b & 3], RANK_CHARS[b >> 2]);
}

static void pretty_token(int b, char out[8])
{
    static const char *const suit_sym[4] = {"\u2663", "\u2666", "\u2665", "\u2660"};
    static const char *const rank_txt[16] = {"?", "3", "4", "5", "6", "7", "8", "9",
                                             "10", "J", "Q", "K", "A", "2", "?", "?"};
    if (b == JOKER_BIT)
        snprintf(out, 8, "JK");
    else
        snprintf(out, 8, "%s%s", rank_txt[b >> 2], suit_sym[b & 3]);
}

int cards_format(Cards c, char *buf, size_t size) { return format_with(c, buf, size, kifu_token); }

int cards_format_pretty(Cards c, char *buf, size_t size) { return format_with(c, buf, size, pretty_token); }

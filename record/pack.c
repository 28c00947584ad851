/* pack.c — packing GameRecords into bytes and back (see pack.h). */
#include "record/pack.h"

#include <string.h>

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

#define HEADER (2 + 1 + 5 + 5 + 5 + 1 + 3 * 40 + 2)

size_t pack_game(const GameRecord *rec, uint8_t *out, size_t cap)
{
    size_t need = HEADER + 8 * (size_t)rec->nplays; /* 3 + at most 5 bytes a play */
    if (need > cap)
        return 0;
    uint8_t *p = out;
    *p++ = (uint8_t)rec->number;
    *p++ = (uint8_t)(rec->number >> 8);
    *p++ = (uint8_t)rec->dealer;
    for (int i = 0; i < NPLAYERS; i++)
        *p++ = rec->seat[i];
    for (int i = 0; i < NPLAYERS; i++)
        *p++ = (uint8_t)rec->cls[i];
    for (int i = 0; i < NPLAYERS; i++)
        *p++ = (uint8_t)rec->result[i];
    *p++ = (uint8_t)rec->stalemate;
    for (int i = 0; i < NPLAYERS; i++, p += 8)
        put64(p, rec->dealt[i]);
    for (int i = 0; i < NPLAYERS; i++, p += 8)
        put64(p, rec->changed[i]);
    for (int i = 0; i < NPLAYERS; i++, p += 8)
        put64(p, rec->original[i]);
    *p++ = (uint8_t)rec->nplays;
    *p++ = (uint8_t)(rec->nplays >> 8);
    for (int k = 0; k < rec->nplays; k++) {
        Move m = rec->plays[k].move;
        uint32_t v = (uint32_t)(m.type & 7) | (uint32_t)(m.n & 15) << 3 | (uint32_t)(m.low & 15) << 7 |
                     (uint32_t)(m.suits & 15) << 11 | (uint32_t)(m.jk & 63) << 15;
        *p++ = (uint8_t)v;
        *p++ = (uint8_t)(v >> 8);
        *p++ = (uint8_t)(v >> 16);
        uint32_t t = rec->plays[k].usec;
        for (; t >= 0x80; t >>= 7)
            *p++ = (uint8_t)(t | 0x80);
        *p++ = (uint8_t)t;
    }
    return (size_t)(p - out);
}

int unpack_game(const uint8_t *in, size_t n, int format, GameRecord *rec, size_t *used)
{
    if (n < HEADER || format < 1 || format > PACK_FORMAT)
        return -1;
    const uint8_t *const end = in + n;
    const uint8_t *p = in;
    memset(rec, 0, offsetof(GameRecord, plays));
    rec->number = p[0] | p[1] << 8;
    rec->dealer = p[2];
    p += 3;
    int smask = 0;
    for (int i = 0; i < NPLAYERS; i++) {
        rec->seat[i] = *p++;
        if (rec->seat[i] >= NPLAYERS)
            return -1;
        smask |= 1 << rec->seat[i];
    }
    for (int i = 0; i < NPLAYERS; i++)
        rec->cls[i] = (int8_t)*p++;
    for (int i = 0; i < NPLAYERS; i++)
        rec->result[i] = *p++;
    rec->stalemate = *p++;
    for (int i = 0; i < NPLAYERS; i++, p += 8)
        rec->dealt[i] = get64(p);
    for (int i = 0; i < NPLAYERS; i++, p += 8)
        rec->changed[i] = get64(p);
    for (int i = 0; i < NPLAYERS; i++, p += 8)
        rec->original[i] = get64(p);
    int np = p[0] | p[1] << 8;
    p += 2;
    if (smask != 31 || rec->dealer >= NPLAYERS || np > GAME_MAX_PLAYS || (size_t)(p - in) + 3 * (size_t)np > n)
        return -1;
    for (int i = 0; i < NPLAYERS; i++) /* classes: all -1 (no exchange) or a permutation */
        if (rec->cls[i] < -1 || rec->cls[i] >= NPLAYERS || (rec->cls[i] < 0) != (rec->cls[0] < 0))
            return -1;
    Cards all = 0;
    for (int i = 0; i < NPLAYERS; i++) {
        if ((all & rec->original[i]) || (rec->original[i] & ~CARDS_ALL) || rec->result[i] >= NPLAYERS)
            return -1;
        all |= rec->original[i];
    }
    if (all != CARDS_ALL)
        return -1;
    rec->first = game_first_player(rec->original);
    GameState g; /* replay: who played each move, and that it was legal */
    state_init(&g, rec->original, rec->seat, rec->first);
    for (int k = 0; k < np; k++) {
        if (end - p < 3)
            return -1;
        uint32_t v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
        p += 3;
        uint64_t t = 0;
        if (format >= 2)
            for (int shift = 0;; shift += 7) {
                if (p >= end || shift > 28)
                    return -1;
                t |= (uint64_t)(*p & 0x7f) << shift;
                if (!(*p++ & 0x80))
                    break;
            }
        Move m = move_make(v & 7, (v >> 3) & 15, (v >> 7) & 15, (v >> 11) & 15, (v >> 15) & 63);
        if (g.over || !move_valid_shape(m) || !state_is_legal(&g, m))
            return -1;
        rec->plays[k].move = m;
        rec->plays[k].player = g.turn;
        rec->plays[k].usec = t > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)t;
        state_apply(&g, m); /* a stalemate ends the game; its random places are in result[] */
    }
    rec->nplays = np;
    if (!g.over)
        return -1;
    int placed = 0; /* result[] must be a finishing order, agreeing with who went out first */
    for (int i = 0; i < NPLAYERS; i++)
        placed |= 1 << rec->result[i];
    for (int k = 0; k < g.nout && placed == 31; k++)
        if (rec->result[g.order[k]] != k)
            placed = 0;
    if (placed != 31)
        return -1;
    *used = (size_t)(p - in);
    return 0;
}

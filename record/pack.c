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
    size_t need = HEADER + 3 * (size_t)rec->nplays;
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
    }
    return (size_t)(p - out);
}

int unpack_game(const uint8_t *in, size_t n, GameRecord *rec, size_t *used)
{
    if (n < HEADER)
        return -1;
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
    for (int k = 0; k < np; k++, p += 3) {
        uint32_t v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
        Move m = move_make(v & 7, (v >> 3) & 15, (v >> 7) & 15, (v >> 11) & 15, (v >> 15) & 63);
        if (g.over || !state_is_legal(&g, m))
            return -1;
        rec->plays[k].move = m;
        rec->plays[k].player = g.turn;
        state_apply(&g, m);
    }
    rec->nplays = np;
    if (!g.over)
        return -1;
    *used = (size_t)(p - in);
    return 0;
}

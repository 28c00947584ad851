/* gamelist.c — packed games in memory (see gamelist.h). */
#include "analysis/gamelist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/pack.h"

int gamelist_add(GameList *l, const GameRecord *rec, const char *const names[NPLAYERS], long index, long set)
{
    if (l->len + PACK_MAX_BYTES > l->cap) {
        size_t cap = l->cap ? 2 * l->cap : (size_t)1 << 20;
        uint8_t *b = realloc(l->buf, cap);
        if (!b)
            return -1;
        l->buf = b;
        l->cap = cap;
    }
    if (l->n == l->capn) {
        long c = l->capn ? 2 * l->capn : 1024;
        size_t *o = realloc(l->off, (size_t)c * sizeof *o);
        if (o)
            l->off = o;
        char(*nm)[NPLAYERS][GAMELIST_NAME] = o ? realloc(l->names, (size_t)c * sizeof *nm) : NULL;
        if (nm)
            l->names = nm;
        long *ix = nm ? realloc(l->index, (size_t)c * sizeof *ix) : NULL;
        if (ix)
            l->index = ix;
        long *st = ix ? realloc(l->set, (size_t)c * sizeof *st) : NULL;
        if (!st)
            return -1;
        l->set = st;
        l->capn = c;
    }
    l->off[l->n] = l->len;
    l->len += pack_game(rec, l->buf + l->len, l->cap - l->len);
    for (int q = 0; q < NPLAYERS; q++)
        snprintf(l->names[l->n][q], GAMELIST_NAME, "%s", names[q]);
    l->index[l->n] = index;
    l->set[l->n] = set;
    l->n++;
    return 0;
}

int gamelist_get(const GameList *l, long k, GameRecord *rec)
{
    size_t used;
    return unpack_game(l->buf + l->off[k], l->len - l->off[k], PACK_FORMAT, rec, &used);
}

void gamelist_free(GameList *l)
{
    free(l->buf);
    free(l->off);
    free(l->names);
    free(l->index);
    free(l->set);
    memset(l, 0, sizeof *l);
}

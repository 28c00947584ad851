/* results.c — results storage, name interning and the CSV loader. */
#include "rating/results.h"
#include "rating/rrng.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 127

void results_init(Results *r) { memset(r, 0, sizeof *r); }

void results_free(Results *r)
{
    for (int i = 0; i < r->nplayers; i++)
        free(r->names[i]);
    free(r->names);
    free(r->sets);
    free(r->games);
    free(r->pair);
    free(r->hash);
    memset(r, 0, sizeof *r);
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* A string -> index map by open addressing over an external key array. */
typedef struct StrMap {
    int *slot; /* -1 empty, else index */
    int cap;
} StrMap;

static int map_find(const StrMap *m, char *const *keys, const char *s, uint64_t h)
{
    if (!m->cap)
        return -1;
    for (int i = (int)(h & (uint64_t)(m->cap - 1));; i = (i + 1) & (m->cap - 1)) {
        if (m->slot[i] < 0)
            return -1 - i; /* absent: -1 - free slot */
        if (!strcmp(keys[m->slot[i]], s))
            return m->slot[i];
    }
}

static int map_grow(StrMap *m, char *const *keys, int n)
{
    int cap = m->cap ? m->cap * 2 : 64;
    int *slot = malloc((size_t)cap * sizeof *slot);
    if (!slot)
        return -1;
    for (int i = 0; i < cap; i++)
        slot[i] = -1;
    for (int k = 0; k < n; k++) {
        int i = (int)(hash_str(keys[k]) & (uint64_t)(cap - 1));
        while (slot[i] >= 0)
            i = (i + 1) & (cap - 1);
        slot[i] = k;
    }
    free(m->slot);
    m->slot = slot;
    m->cap = cap;
    return 0;
}

/* Finds or adds s in (keys, n); returns its index or -1 on allocation failure. */
static int map_intern(StrMap *m, char ***keys, int *n, int *cap, const char *s)
{
    uint64_t h = hash_str(s);
    int f = map_find(m, *keys, s, h);
    if (f >= 0)
        return f;
    if (*n + 1 > m->cap / 2) {
        if (map_grow(m, *keys, *n))
            return -1;
        f = map_find(m, *keys, s, h);
    }
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 64;
        char **k = realloc(*keys, (size_t)nc * sizeof *k);
        if (!k)
            return -1;
        *keys = k;
        *cap = nc;
    }
    char *copy = strdup(s);
    if (!copy)
        return -1;
    (*keys)[*n] = copy;
    m->slot[-1 - f] = *n;
    return (*n)++;
}

int results_player(Results *r, const char *name)
{
    StrMap m = {r->hash, r->hash_cap};
    int i = map_intern(&m, &r->names, &r->nplayers, &r->cap_players, name);
    r->hash = m.slot;
    r->hash_cap = m.cap;
    return i;
}

int results_find(const Results *r, const char *name)
{
    StrMap m = {r->hash, r->hash_cap};
    int i = map_find(&m, r->names, name, hash_str(name));
    return i >= 0 ? i : -1;
}

static int grow(void **p, long *cap, long need, size_t elem)
{
    if (need <= *cap)
        return 0;
    long nc = *cap ? *cap * 2 : 1024;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

int results_add_set(Results *r, double order, const int player[SET_PLAYERS], const double points[SET_PLAYERS])
{
    if (grow((void **)&r->sets, &r->cap_sets, r->nsets + 1, sizeof *r->sets))
        return -1;
    RSet *s = &r->sets[r->nsets];
    s->order = order;
    s->seq = r->nsets++;
    memcpy(s->player, player, sizeof s->player);
    memcpy(s->points, points, sizeof s->points);
    return 0;
}

int results_add_game(Results *r, int n, const int *player, const double *rank, const double *p)
{
    if (n < 2 || n > GAME_MAX_SEATS || grow((void **)&r->games, &r->cap_games, r->ngames + 1, sizeof *r->games))
        return -1;
    RGame *g = &r->games[r->ngames];
    g->seq = r->ngames++;
    g->n = n;
    for (int i = 0; i < n; i++) {
        g->player[i] = player[i];
        g->rank[i] = rank[i];
        g->p[i] = p ? p[i] : 0.5;
    }
    g->pair = -1;
    r->has_p |= p != NULL;
    return 0;
}

int results_add_game_pairs(Results *r, int n, const int *player, const double *rank, const double *pij)
{
    double p[GAME_MAX_SEATS];
    if (n < 2 || n > GAME_MAX_SEATS || grow((void **)&r->pair, &r->cap_pair, r->npair + (long)n * n, sizeof *r->pair))
        return -1;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                s += pij[i * n + j];
        p[i] = s / (n - 1);
    }
    if (results_add_game(r, n, player, rank, p))
        return -1;
    r->games[r->ngames - 1].pair = r->npair;
    for (int k = 0; k < n * n; k++)
        r->pair[r->npair + k] = (float)pij[k];
    r->npair += (long)n * n;
    return 0;
}

int results_add_random_sets(Results *r, int nplayers, long nsets, double step, double noise, uint64_t seed)
{
    char name[32];
    int base = r->nplayers;
    if (nplayers < SET_PLAYERS)
        return -1;
    for (int i = 0; i < nplayers; i++) {
        snprintf(name, sizeof name, "p%02d", i);
        if (results_player(r, name) < 0)
            return -1;
    }
    RRng rng = rrng_seed(seed);
    for (long k = 0; k < nsets; k++) {
        int pl[SET_PLAYERS];
        double pts[SET_PLAYERS];
        for (int i = 0; i < SET_PLAYERS; i++) {
            int again;
            do {
                pl[i] = (int)(rrng_double(&rng) * nplayers);
                again = 0;
                for (int j = 0; j < i; j++)
                    again |= pl[j] == pl[i];
            } while (again);
            pts[i] = 30000 + step * pl[i] + floor(noise * (rrng_double(&rng) - 0.5));
            pl[i] += base;
        }
        if (results_add_set(r, (double)(r->nsets), pl, pts))
            return -1;
    }
    return 0;
}

static int cmp_sets(const void *a, const void *b)
{
    const RSet *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

typedef struct NameId {
    const char *name;
    int id;
} NameId;

static int cmp_name_ids(const void *a, const void *b)
{
    return strcmp(((const NameId *)a)->name, ((const NameId *)b)->name);
}

int *results_name_places(const Results *r)
{
    const size_t n = (size_t)(r->nplayers > 0 ? r->nplayers : 1);
    int *place = malloc(n * sizeof *place);
    NameId *by_name = malloc(n * sizeof *by_name);
    if (place && by_name) {
        for (int i = 0; i < r->nplayers; i++)
            by_name[i] = (NameId){r->names[i], i};
        qsort(by_name, (size_t)r->nplayers, sizeof *by_name, cmp_name_ids);
        for (int i = 0; i < r->nplayers; i++)
            place[by_name[i].id] = i;
    } else {
        free(place);
        place = NULL;
    }
    free(by_name);
    return place;
}

void results_sort_entries(const Results *r, const int *place, RSet *s)
{
    for (int i = 1; i < SET_PLAYERS; i++) { /* insertion sort of five */
        int pl = s->player[i];
        double pt = s->points[i];
        int j = i;
        for (; j > 0 && (place ? place[s->player[j - 1]] > place[pl] : strcmp(r->names[s->player[j - 1]], r->names[pl]) > 0);
             j--) {
            s->player[j] = s->player[j - 1];
            s->points[j] = s->points[j - 1];
        }
        s->player[j] = pl;
        s->points[j] = pt;
    }
}

void results_sort_sets(Results *r)
{
    long unsorted = 0; /* sets usually come in order (a store's index order): then no sort */
    for (long k = 1; k < r->nsets && !unsorted; k++)
        unsorted = cmp_sets(&r->sets[k - 1], &r->sets[k]) > 0;
    if (unsorted)
        qsort(r->sets, (size_t)r->nsets, sizeof *r->sets, cmp_sets);
    int *place = results_name_places(r); /* NULL (no memory): the names are compared */
    for (long k = 0; k < r->nsets; k++)
        results_sort_entries(r, place, &r->sets[k]);
    free(place);
}

/* ---- CSV ---- */

typedef struct Row {
    char *f[8];
    int n;
} Row;

/* Splits one CSV line in place (double quotes, "" escapes). Returns -1 on a bad quote. */
static int split_csv(char *s, Row *row)
{
    row->n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (row->n == 8)
            return -2;
        char *out = s, *start = s;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s)
                    return -1;
                if (*s == '"') {
                    if (s[1] == '"') {
                        *out++ = '"';
                        s += 2;
                        continue;
                    }
                    s++;
                    break;
                }
                *out++ = *s++;
            }
            while (*s == ' ' || *s == '\t')
                s++;
            if (*s && *s != ',')
                return -1;
        } else {
            while (*s && *s != ',')
                out++, s++;
            while (out > start && (out[-1] == ' ' || out[-1] == '\t'))
                out--;
        }
        char sep = *s;
        *out = 0;
        row->f[row->n++] = start;
        if (sep != ',')
            return 0;
        s++;
    }
}

static int fail(char *err, size_t errsz, const char *path, long line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errsz, "%s:%ld: %s", path, line, msg);
    return -1;
}

static int parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* Pending rows of one set or game while the file is read. */
typedef struct Pending {
    long line; /* first row's line */
    double order;
    int n;
    int player[GAME_MAX_SEATS];
    double val[GAME_MAX_SEATS], p[GAME_MAX_SEATS];
} Pending;

int results_load_csv(Results *r, FILE *f, const char *path, char *err, size_t errsz)
{
    char *line = NULL;
    size_t cap = 0;
    long ln = 0;
    int kind = 0, has_p = 0; /* kind 1 = sets, 2 = games */
    StrMap ids = {NULL, 0};
    char **idkeys = NULL;
    int nids = 0, idcap = 0;
    Pending *pend = NULL;
    long npend_cap = 0;
    int npend = 0; /* pendings initialised so far (ids are numbered in order of appearance) */
    int rc = -1;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        ln++;
        if ((size_t)len != strlen(line)) {
            fail(err, errsz, path, ln, "NUL byte in line");
            goto out;
        }
        line[strcspn(line, "\r\n")] = 0;
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        Row row;
        int sr = split_csv(s, &row);
        if (sr < 0) {
            fail(err, errsz, path, ln, sr == -2 ? "too many columns" : "unbalanced quotes");
            goto out;
        }
        if (!kind) {
            if (row.n == 4 && !strcmp(row.f[0], "set") && !strcmp(row.f[1], "order") && !strcmp(row.f[2], "player") &&
                !strcmp(row.f[3], "points"))
                kind = 1;
            else if ((row.n == 3 || row.n == 4) && !strcmp(row.f[0], "game") && !strcmp(row.f[1], "player") &&
                     !strcmp(row.f[2], "rank") && (row.n == 3 || !strcmp(row.f[3], "p"))) {
                kind = 2;
                has_p = row.n == 4;
            } else {
                fail(err, errsz, path, ln, "expected the header `set,order,player,points` or `game,player,rank[,p]`");
                goto out;
            }
            continue;
        }
        int want = kind == 1 ? 4 : 3 + has_p;
        if (row.n != want) {
            fail(err, errsz, path, ln, "expected %d columns, found %d", want, row.n);
            goto out;
        }
        const char *id = row.f[0], *name = row.f[kind == 1 ? 2 : 1];
        if (!*id || !*name || strlen(name) > NAME_MAX_LEN || strlen(id) > NAME_MAX_LEN) {
            fail(err, errsz, path, ln, "empty or over-long %s", !*id ? (kind == 1 ? "set" : "game") : "player name");
            goto out;
        }
        double order = 0, val, p = 0.5;
        if (kind == 1 && parse_num(row.f[1], &order)) {
            fail(err, errsz, path, ln, "order '%s' is not a number", row.f[1]);
            goto out;
        }
        if (parse_num(row.f[kind == 1 ? 3 : 2], &val)) {
            fail(err, errsz, path, ln, "%s '%s' is not a number", kind == 1 ? "points" : "rank", row.f[kind == 1 ? 3 : 2]);
            goto out;
        }
        if (has_p && (parse_num(row.f[3], &p) || !(p > 0 && p < 1))) {
            fail(err, errsz, path, ln, "p '%s' is not a number strictly between 0 and 1", row.f[3]);
            goto out;
        }
        int k = map_intern(&ids, &idkeys, &nids, &idcap, id);
        int pl = results_player(r, name);
        if (k < 0 || pl < 0 || grow((void **)&pend, &npend_cap, nids, sizeof *pend)) {
            fail(err, errsz, path, ln, "out of memory");
            goto out;
        }
        Pending *pe = &pend[k];
        if (k == npend) {
            npend++;
            memset(pe, 0, sizeof *pe);
            pe->line = ln;
            pe->order = order;
        }
        if (kind == 1 && pe->order != order) {
            fail(err, errsz, path, ln, "set %s has two orders (%g and %g)", id, pe->order, order);
            goto out;
        }
        for (int i = 0; i < pe->n; i++)
            if (pe->player[i] == pl) {
                fail(err, errsz, path, ln, "player %s appears twice in %s %s", name, kind == 1 ? "set" : "game", id);
                goto out;
            }
        int maxn = kind == 1 ? SET_PLAYERS : GAME_MAX_SEATS;
        if (pe->n >= maxn) {
            fail(err, errsz, path, ln, "%s %s has more than %d players", kind == 1 ? "set" : "game", id, maxn);
            goto out;
        }
        pe->player[pe->n] = pl;
        pe->val[pe->n] = val;
        pe->p[pe->n] = p;
        pe->n++;
    }
    if (!kind) {
        fail(err, errsz, path, ln, "no header line: expected `set,order,player,points` or `game,player,rank[,p]`");
        goto out;
    }
    for (int k = 0; k < nids; k++) {
        Pending *pe = &pend[k];
        if (kind == 1) {
            if (pe->n != SET_PLAYERS) {
                fail(err, errsz, path, pe->line, "set %s has %d players; a set needs exactly %d", idkeys[k], pe->n,
                     SET_PLAYERS);
                goto out;
            }
            if (results_add_set(r, pe->order, pe->player, pe->val))
                goto oom;
        } else {
            if (pe->n < 2) {
                fail(err, errsz, path, pe->line, "game %s has only one player", idkeys[k]);
                goto out;
            }
            if (results_add_game(r, pe->n, pe->player, pe->val, has_p ? pe->p : NULL))
                goto oom;
        }
    }
    rc = 0;
    goto out;
oom:
    fail(err, errsz, path, ln, "out of memory");
out:
    free(line);
    for (int i = 0; i < nids; i++)
        free(idkeys[i]);
    free(idkeys);
    free(ids.slot);
    free(pend);
    return rc;
}

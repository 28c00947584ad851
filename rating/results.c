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
    RSet s;
    s.order = order;
    s.seq = r->nsets;
    memcpy(s.player, player, sizeof s.player);
    memcpy(s.points, points, sizeof s.points);
    if (r->sink) {
        int rc = r->sink->set(r->sink->ctx, r, &s);
        if (rc)
            return rc;
    } else {
        if (grow((void **)&r->sets, &r->cap_sets, r->nsets + 1, sizeof *r->sets))
            return -1;
        r->sets[r->nsets] = s;
    }
    r->nsets++;
    return 0;
}

/* One game: per-player rates p (NULL: none), and pairwise rates pij (n x n) or NULL. */
static int add_game(Results *r, int n, const int *player, const double *rank, const double *p, const double *pij)
{
    if (n < 2 || n > GAME_MAX_SEATS)
        return -1;
    RGame g;
    g.seq = r->ngames;
    g.n = n;
    for (int i = 0; i < n; i++) {
        g.player[i] = player[i];
        g.rank[i] = rank[i];
        g.p[i] = p ? p[i] : 0.5;
    }
    g.pair = -1;
    if (r->sink) {
        float pf[GAME_MAX_SEATS * GAME_MAX_SEATS];
        for (int k = 0; pij && k < n * n; k++)
            pf[k] = (float)pij[k];
        int rc = r->sink->game(r->sink->ctx, r, &g, pij ? pf : NULL);
        if (rc)
            return rc;
    } else {
        if (grow((void **)&r->games, &r->cap_games, r->ngames + 1, sizeof *r->games) ||
            (pij && grow((void **)&r->pair, &r->cap_pair, r->npair + (long)n * n, sizeof *r->pair)))
            return -1;
        if (pij) {
            g.pair = r->npair;
            for (int k = 0; k < n * n; k++)
                r->pair[r->npair + k] = (float)pij[k];
            r->npair += (long)n * n;
        }
        r->games[r->ngames] = g;
    }
    r->ngames++;
    r->has_p |= p != NULL;
    return 0;
}

int results_add_game(Results *r, int n, const int *player, const double *rank, const double *p)
{
    return add_game(r, n, player, rank, p, NULL);
}

int results_add_game_pairs(Results *r, int n, const int *player, const double *rank, const double *pij)
{
    double p[GAME_MAX_SEATS];
    if (n < 2 || n > GAME_MAX_SEATS)
        return -1;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                s += pij[i * n + j];
        p[i] = s / (n - 1);
    }
    return add_game(r, n, player, rank, p, pij);
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
    if (!r->sets)
        return; /* none, or none kept (a sink) */
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
    /* whole numbers of up to 15 digits, most of what a results file holds, without strtod:
     * exact in a double, so the same value (-0 included) */
    const char *d = s + (*s == '-');
    uint64_t u = 0;
    int nd = 0;
    for (; nd <= 15 && *d >= '0' && *d <= '9'; d++, nd++)
        u = u * 10 + (uint64_t)(*d - '0');
    if (!*d && nd >= 1 && nd <= 15) {
        *out = *s == '-' ? -(double)u : (double)u;
        return 0;
    }
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

/* Ids seen while a file streams (results_load_csv with a sink): numbers N or N.M by a bitmap
 * of the N (up to ID_BITMAP_MAX: 2 MB), M rising within one N; other ids rising in byte order. */
#define ID_BITMAP_MAX (1L << 24)
typedef struct IdTrack {
    uint64_t *seen;
    long words;
    long a, b;                     /* the previous id as N.M (M = -1: N alone); a = -1: not a number */
    char text[NAME_MAX_LEN + 1];   /* the last id that is not a number */
    int has_text;
} IdTrack;

/* "N" or "N.M" (1 to 9 digits each, N < ID_BITMAP_MAX) into *a, *b (-1 without M). */
static int id_number(const char *s, long *a, long *b)
{
    long v[2] = {0, -1};
    for (int part = 0; part < 2; part++) {
        int d = 0;
        for (v[part] = 0; isdigit((unsigned char)*s) && d < 9; s++, d++)
            v[part] = v[part] * 10 + (*s - '0');
        if (!d || (part == 0 && v[0] >= ID_BITMAP_MAX))
            return 0;
        if (!*s) {
            *a = v[0];
            *b = part ? v[1] : -1;
            return 1;
        }
        if (part || *s++ != '.')
            return 0;
    }
    return 0;
}

/* Whether id, which differs from the previous one, was never seen; remembers it. -1 without
 * memory. */
static int id_new(IdTrack *t, const char *id)
{
    long a, b;
    if (!id_number(id, &a, &b)) {
        t->a = -1;
        if (t->has_text && strcmp(id, t->text) <= 0)
            return 0;
        snprintf(t->text, sizeof t->text, "%s", id);
        t->has_text = 1;
        return 1;
    }
    if (a == t->a) { /* still the same N: its M must rise */
        int ok = b > t->b;
        t->b = b;
        return ok;
    }
    if (a / 64 >= t->words) {
        long words = t->words ? t->words : 1024;
        while (a / 64 >= words)
            words *= 2;
        uint64_t *w = realloc(t->seen, (size_t)words * sizeof *w);
        if (!w)
            return -1;
        memset(w + t->words, 0, (size_t)(words - t->words) * sizeof *w);
        t->seen = w;
        t->words = words;
    }
    uint64_t bit = 1ULL << (a % 64);
    if (t->seen[a / 64] & bit)
        return 0;
    t->seen[a / 64] |= bit;
    t->a = a;
    t->b = b;
    return 1;
}

/* The checks a finished set or game must pass, then results_add_*. Returns 0, PEND_BAD or
 * PEND_OOM with err, or the sink's RESULTS_UNORDERED (err not written). */
enum { PEND_BAD = -1, PEND_OOM = -3 };
static int pending_add(Results *r, int kind, int has_p, const Pending *pe, const char *id, const char *path, char *err,
                       size_t errsz)
{
    if (kind == 1 && pe->n != SET_PLAYERS)
        return fail(err, errsz, path, pe->line, "set %s has %d players; a set needs exactly %d", id, pe->n,
                    SET_PLAYERS);
    if (kind == 2 && pe->n < 2)
        return fail(err, errsz, path, pe->line, "game %s has only one player", id);
    int rc = kind == 1 ? results_add_set(r, pe->order, pe->player, pe->val)
                       : results_add_game(r, pe->n, pe->player, pe->val, has_p ? pe->p : NULL);
    if (rc == RESULTS_UNORDERED)
        return rc;
    if (rc) {
        fail(err, errsz, path, pe->line, "out of memory");
        return PEND_OOM;
    }
    return 0;
}

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
    /* with a sink: the one set or game being read, its id, and the first bad one (reported
     * at the end, as without a sink, unless a row has an error first) */
    const int stream = r->sink != NULL;
    Pending cur;
    char cur_id[NAME_MAX_LEN + 1] = "";
    int have_cur = 0, deferred = 0;
    IdTrack track;
    memset(&track, 0, sizeof track);
    track.a = -1;
    int rc = -1, k;
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
        Pending *pe;
        int fresh;
        if (stream) { /* a new id ends the set or game before it */
            fresh = !have_cur || strcmp(id, cur_id);
            if (fresh && have_cur && !deferred) {
                int e = pending_add(r, kind, has_p, &cur, cur_id, path, err, errsz);
                if (e == RESULTS_UNORDERED)
                    goto unordered;
                if (e == PEND_OOM)
                    goto out;
                deferred = e == PEND_BAD;
            }
            int nw = fresh ? id_new(&track, id) : 1;
            if (nw < 0)
                goto oom;
            if (!nw)
                goto unordered;
            if (fresh) {
                snprintf(cur_id, sizeof cur_id, "%s", id);
                have_cur = 1;
            }
            pe = &cur;
        } else {
            k = map_intern(&ids, &idkeys, &nids, &idcap, id);
            if (k < 0 || grow((void **)&pend, &npend_cap, nids, sizeof *pend))
                goto oom;
            pe = &pend[k];
            fresh = k == npend;
            npend += fresh;
        }
        int pl = results_player(r, name);
        if (pl < 0)
            goto oom;
        if (fresh) {
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
    if (stream) {
        if (deferred) /* err holds it */
            goto out;
        int e = have_cur ? pending_add(r, kind, has_p, &cur, cur_id, path, err, errsz) : 0;
        if (e == RESULTS_UNORDERED)
            goto unordered;
        rc = e ? -1 : 0;
        goto out;
    }
    for (k = 0; k < nids; k++)
        if (pending_add(r, kind, has_p, &pend[k], idkeys[k], path, err, errsz))
            goto out;
    rc = 0;
    goto out;
unordered:
    fail(err, errsz, path, ln, "the %s cannot be rated as they are read (rows of one apart, an id seen before, or "
                               "orders that fall); read the file whole",
         kind == 1 ? "sets" : "games");
    rc = RESULTS_UNORDERED;
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
    free(track.seen);
    return rc;
}

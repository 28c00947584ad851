/* wtext.c — reading text weight files (see wtext.h). */
#include "players/wtext.h"

#include "game/textfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wtext_init(WText *t, const char *text, const char *name, char *err, size_t errsz)
{
    t->p = text;
    t->name = name;
    t->line = 1;
    t->err = err;
    t->errsz = errsz;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int wtext_word(WText *t, char *w)
{
    for (;;) {
        while (is_blank(*t->p))
            t->line += *t->p++ == '\n';
        if (*t->p != '#')
            break;
        while (*t->p && *t->p != '\n')
            t->p++;
    }
    size_t k = 0;
    const char *start = t->p;
    while (*t->p && !is_blank(*t->p) && *t->p != '#') {
        if (k + 1 < WTEXT_WORD)
            w[k] = *t->p;
        k++;
        t->p++;
    }
    if (k >= WTEXT_WORD) { /* every word of a weights file is a number or shorter than this */
        snprintf(t->err, t->errsz, "%s:%d: '%.20s...' (%zu characters) is not a number", t->name, t->line, start, k);
        return -1;
    }
    w[k] = 0;
    return k > 0;
}

int wtext_magic(WText *t, const char *magic, const char *what)
{
    char w[WTEXT_WORD];
    int r = wtext_word(t, w);
    if (r > 0 && !strcmp(w, magic))
        r = wtext_word(t, w);
    else if (r >= 0)
        r = 0;
    if (r <= 0 || strcmp(w, "1")) {
        snprintf(t->err, t->errsz, "%s: not %s (it must start with '%s 1')", t->name, what, magic);
        return -1;
    }
    return 0;
}

int wtext_expect(WText *t, const char *want, const char *what)
{
    char w[WTEXT_WORD];
    int r = wtext_word(t, w);
    if (r < 0)
        return -1;
    if (r == 0 || strcmp(w, want)) {
        snprintf(t->err, t->errsz, "%s:%d: expected %s%s%s%s", t->name, t->line, what, r ? " (found '" : "",
                 r ? w : "", r ? "')" : ", found the end of the file (truncated)");
        return -1;
    }
    return 0;
}

/* The next word, for a value: 1, or -1 (the end of the text: "expected WHAT ... (truncated)"). */
static int value_word(WText *t, const char *what, char *w)
{
    int r = wtext_word(t, w);
    if (r == 0)
        snprintf(t->err, t->errsz, "%s:%d: expected %s, found the end of the file (truncated)", t->name, t->line, what);
    return r > 0 ? 1 : -1;
}

int wtext_long(WText *t, long lo, long hi, const char *what, long *out)
{
    char w[WTEXT_WORD], *end;
    if (value_word(t, what, w) < 0)
        return -1;
    errno = 0;
    long v = strtol(w, &end, 10);
    if (end == w || *end || errno || v < lo || v > hi) {
        snprintf(t->err, t->errsz, "%s:%d: %s: '%s' is not a whole number from %ld to %ld", t->name, t->line, what, w,
                 lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int wtext_double(WText *t, const char *what, double *out)
{
    char w[WTEXT_WORD], *end;
    if (value_word(t, what, w) < 0)
        return -1;
    errno = 0;
    double v = strtod(w, &end);
    if (end == w || *end || errno || !isfinite(v)) {
        snprintf(t->err, t->errsz, "%s:%d: '%s' is not a number", t->name, t->line, w);
        return -1;
    }
    *out = v;
    return 0;
}

int wtext_layout(WText *t, uint64_t hash, const char *retrain)
{
    char want[32], w[WTEXT_WORD];
    snprintf(want, sizeof want, "%016llx", (unsigned long long)hash);
    if (wtext_expect(t, "layout", "'layout HASH'") || value_word(t, "'layout HASH'", w) < 0)
        return -1;
    if (strcmp(w, want)) {
        snprintf(t->err, t->errsz,
                 "%s: the weights were trained for another feature layout (%s; this dhm's is %s): retrain them with %s",
                 t->name, w, want, retrain);
        return -1;
    }
    return 0;
}

int wtext_load(const char *path, WTextParse parse, void *out, char *err, size_t errsz)
{
    char *text;
    if (textfile_read(path, (size_t)64 << 20, &text, NULL, err, errsz))
        return -1;
    int rc = parse(text, path, out, err, errsz);
    free(text);
    return rc;
}

int wtext_numbers(WText *t, const char *key, int want, double *out)
{
    char what[80], w[WTEXT_WORD];
    snprintf(what, sizeof what, "'%s N'", key);
    if (wtext_expect(t, key, what))
        return -1;
    int r = wtext_word(t, w);
    if (r <= 0) {
        if (r == 0)
            snprintf(t->err, t->errsz, "%s:%d: expected %s", t->name, t->line, what);
        return -1;
    }
    char *end;
    errno = 0;
    long n = strtol(w, &end, 10);
    if (end == w || *end || errno || n < 0) {
        snprintf(t->err, t->errsz, "%s:%d: '%s %s': the count of %s weights is not a whole number", t->name, t->line,
                 key, w, key);
        return -1;
    }
    if (n != want) {
        snprintf(t->err, t->errsz, "%s:%d: %s has %ld weights, this dhm's features need %d (a file for other features)",
                 t->name, t->line, key, n, want);
        return -1;
    }
    for (int i = 0; i < want; i++) {
        const WText at = *t;
        if ((r = wtext_word(t, w)) <= 0) {
            if (r == 0)
                snprintf(t->err, t->errsz, "%s: the file ends after %d of %d %s weights (truncated)", t->name, i, want,
                         key);
            return -1;
        }
        *t = at; /* read it again as a number (the same word, its messages) */
        if (wtext_double(t, key, &out[i]))
            return -1;
    }
    return 0;
}

int wtext_end(WText *t)
{
    char w[WTEXT_WORD];
    if (wtext_expect(t, "end", "'end' (truncated, or extra numbers)"))
        return -1;
    int r = wtext_word(t, w);
    if (r < 0)
        return -1;
    if (r > 0) {
        snprintf(t->err, t->errsz, "%s:%d: text after 'end'", t->name, t->line);
        return -1;
    }
    return 0;
}

const void *wtext_builtin(WBuiltin *b, const char *text, const char *name, size_t size, WTextParse parse, char *err,
                          size_t errsz)
{
    pthread_mutex_lock(&b->lock);
    if (!b->done) {
        b->done = 1;
        b->w = malloc(size);
        if (!b->w)
            snprintf(b->err, sizeof b->err, "out of memory");
        else if (parse(text, name, b->w, b->err, sizeof b->err)) {
            free(b->w);
            b->w = NULL;
        }
    }
    void *w = b->w;
    pthread_mutex_unlock(&b->lock);
    if (!w && err)
        snprintf(err, errsz, "%s", b->err);
    return w;
}

int wtext_option(const char *path, const char *key, const void *builtin, const char *builtin_err, size_t size,
                 WTextParse parse, const void **use, void **own, char *err, size_t errsz)
{
    *own = NULL;
    *use = NULL;
    if (!path) {
        if (!builtin) {
            snprintf(err, errsz, "%s: %s (give %s=FILE)", key, builtin_err, key);
            return -1;
        }
        *use = builtin;
        return 0;
    }
    if (!(*own = malloc(size))) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    char e[400];
    if (wtext_load(path, parse, *own, e, sizeof e)) {
        snprintf(err, errsz, "%s=%s: %s", key, path, e);
        free(*own);
        *own = NULL;
        return -1;
    }
    *use = *own;
    return 0;
}

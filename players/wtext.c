/* wtext.c — reading text weight files (see wtext.h). */
#include "players/wtext.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    while (*t->p && !is_blank(*t->p) && *t->p != '#') {
        if (k + 1 >= WTEXT_WORD) {
            snprintf(t->err, t->errsz, "%s:%d: a word longer than %d characters ('%.20s...')", t->name, t->line,
                     WTEXT_WORD - 1, t->p - k);
            return -1;
        }
        w[k++] = *t->p++;
    }
    w[k] = 0;
    return k > 0;
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

int wtext_long(WText *t, long lo, long hi, const char *what, long *out)
{
    char w[WTEXT_WORD];
    int r = wtext_word(t, w);
    if (r <= 0) {
        if (r == 0)
            snprintf(t->err, t->errsz, "%s:%d: expected %s, found the end of the file (truncated)", t->name, t->line,
                     what);
        return -1;
    }
    char *end;
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
    char w[WTEXT_WORD];
    int r = wtext_word(t, w);
    if (r <= 0) {
        if (r == 0)
            snprintf(t->err, t->errsz, "%s:%d: expected %s, found the end of the file (truncated)", t->name, t->line,
                     what);
        return -1;
    }
    char *end;
    errno = 0;
    double v = strtod(w, &end);
    if (end == w || *end || errno || !isfinite(v)) {
        snprintf(t->err, t->errsz, "%s:%d: %s: '%s' is not a number", t->name, t->line, what, w);
        return -1;
    }
    *out = v;
    return 0;
}

int wtext_numbers(WText *t, const char *key, int want, double *out)
{
    char what[80];
    snprintf(what, sizeof what, "'%s N'", key);
    long n;
    if (wtext_expect(t, key, what) || wtext_long(t, 0, 100000000, key, &n))
        return -1;
    if (n != want) {
        snprintf(t->err, t->errsz, "%s:%d: %s has %ld weights, this dhm's features need %d (a file for other features)",
                 t->name, t->line, key, n, want);
        return -1;
    }
    snprintf(what, sizeof what, "%s weight", key);
    for (int i = 0; i < want; i++)
        if (wtext_double(t, what, &out[i])) {
            if (!strstr(t->err, "truncated"))
                return -1;
            snprintf(t->err, t->errsz, "%s:%d: the file ends after %d of %d %s weights (truncated)", t->name, t->line, i,
                     want, key);
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

int wtext_read_file(const char *path, size_t max, char **text, char *err, size_t errsz)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        snprintf(err, errsz, "%s: not a regular file", path);
        fclose(f);
        return -1;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = -1;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *b = realloc(buf, cap);
            if (!b) {
                snprintf(err, errsz, "out of memory");
                goto out;
            }
            buf = b;
        }
        size_t k = fread(buf + n, 1, 4096, f);
        n += k;
        if (n > max) {
            snprintf(err, errsz, "%s: larger than %zu bytes: not a weights file", path, max);
            goto out;
        }
        if (k < 4096)
            break;
    }
    if (ferror(f)) {
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
        goto out;
    }
    buf[n] = 0;
    if (strlen(buf) != n) {
        snprintf(err, errsz, "%s: holds a NUL byte: not a text file", path);
        goto out;
    }
    *text = buf;
    buf = NULL;
    rc = 0;
out:
    free(buf);
    fclose(f);
    return rc;
}

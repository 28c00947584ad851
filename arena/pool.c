/* pool.c — reading and checking pool files. */
#include "arena/pool.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "players/players.h"

void pool_free(Pool *p)
{
    free(p->e);
    free(p->text);
    memset(p, 0, sizeof *p);
}

int pool_parse(const char *text, const char *path, Pool *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->text = strdup(text);
    if (!out->text) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int cap = 0, ln = 0;
    const char *s = text;
    while (*s) {
        ln++;
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        char line[1024];
        if (len >= sizeof line) {
            snprintf(err, errsz, "%s:%d: line too long", path, ln);
            goto bad;
        }
        memcpy(line, s, len);
        line[len] = 0;
        s += len + (eol != NULL);
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        char *end = p + strlen(p);
        while (end > p && isspace((unsigned char)end[-1]))
            *--end = 0;
        if (!*p)
            continue;
        char *name = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (!*p) {
            snprintf(err, errsz, "%s:%d: '%s' has no player spec (expected NAME SPEC or NAME exec: COMMAND)", path, ln,
                     name);
            goto bad;
        }
        *p++ = 0;
        while (isspace((unsigned char)*p))
            p++;
        if (strlen(name) > 40) {
            snprintf(err, errsz, "%s:%d: player name '%s' is longer than 40 characters", path, ln, name);
            goto bad;
        }
        for (char *c = name; *c; c++)
            if (!isalnum((unsigned char)*c) && !strchr("_.-+", *c)) {
                snprintf(err, errsz, "%s:%d: player name '%s': use letters, digits and _.-+", path, ln, name);
                goto bad;
            }
        for (int i = 0; i < out->n; i++)
            if (!strcmp(out->e[i].name, name)) {
                snprintf(err, errsz, "%s:%d: duplicate player name '%s'", path, ln, name);
                goto bad;
            }
        if (out->n == cap) {
            cap = cap ? 2 * cap : 16;
            PoolEntry *ne = realloc(out->e, (size_t)cap * sizeof *ne);
            if (!ne) {
                snprintf(err, errsz, "out of memory");
                goto bad;
            }
            out->e = ne;
        }
        PoolEntry *e = &out->e[out->n];
        memset(e, 0, sizeof *e);
        snprintf(e->name, sizeof e->name, "%.40s", name); /* length checked above */
        if (!strncmp(p, "exec:", 5)) {
            p += 5;
            while (isspace((unsigned char)*p))
                p++;
            if (!*p) {
                snprintf(err, errsz, "%s:%d: '%s': exec: needs a command line", path, ln, name);
                goto bad;
            }
            e->external = 1;
        } else {
            if (strchr(p, ' ') || strchr(p, '\t')) {
                snprintf(err, errsz, "%s:%d: '%s': a player spec has no spaces ('%s')", path, ln, name, p);
                goto bad;
            }
            Player *pl;
            char e2[256];
            if (player_create(p, 0, &pl, e2, sizeof e2)) {
                snprintf(err, errsz, "%s:%d: %s", path, ln, e2);
                goto bad;
            }
            player_destroy(pl);
        }
        if (strlen(p) >= sizeof e->spec) {
            snprintf(err, errsz, "%s:%d: '%s': the player spec or command is longer than %zu characters", path, ln,
                     name, sizeof e->spec - 1);
            goto bad;
        }
        snprintf(e->spec, sizeof e->spec, "%.511s", p);
        out->n++;
    }
    if (out->n < 5) {
        snprintf(err, errsz, "%s: a tournament needs at least 5 players, the pool has %d", path, out->n);
        goto bad;
    }
    return 0;
bad:
    pool_free(out);
    return -1;
}

int pool_load(const char *path, Pool *out, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "cannot open the pool file %s", path);
        return -1;
    }
    char *text = NULL;
    size_t cap = 0, n = 0;
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) {
        if (n + k + 1 > cap) {
            cap = (n + k + 1) * 2;
            char *t = realloc(text, cap);
            if (!t) {
                free(text);
                fclose(f);
                snprintf(err, errsz, "out of memory");
                return -1;
            }
            text = t;
        }
        memcpy(text + n, buf, k);
        n += k;
    }
    fclose(f);
    if (!text || memchr(text, 0, n)) {
        free(text);
        snprintf(err, errsz, "%s: %s", path, text ? "not a text file" : "empty pool file");
        return -1;
    }
    text[n] = 0;
    int rc = pool_parse(text, path, out, err, errsz);
    free(text);
    return rc;
}

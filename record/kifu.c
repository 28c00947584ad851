/* kifu.c — streaming reader and writer of kifu text records. The reader owns a line buffer
 * (freed by kifu_reader_free); games are written into the caller's KifuGame. */
#include "record/kifu.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "game/textfile.h"

void kifu_reader_init(KifuReader *r, FILE *f, const char *path)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->path = path;
}

void kifu_reader_free(KifuReader *r)
{
    free(r->buf);
    r->buf = NULL;
}

static int fail(const KifuReader *r, char *err, size_t errsz, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errsz, "%s:%d: %s", r->path, r->line, msg);
    return -1;
}

/* Next line without surrounding white space in *s: 1, 0 at EOF, -1 (err) for a NUL byte, a line
 * over 1 MiB (no kifu line is near that: /dev/zero or a binary file) or a read error. */
static int next_line(KifuReader *r, char **s, char *err, size_t errsz)
{
    long line = r->line;
    size_t n;
    int rc = textfile_line(r->f, r->path, &line, (size_t)1 << 20, &r->buf, &r->cap, &n, err, errsz);
    if (rc <= 0)
        return rc;
    r->line = (int)line;
    while (n > 0 && isspace((unsigned char)r->buf[n - 1]))
        r->buf[--n] = 0;
    *s = r->buf;
    while (isspace((unsigned char)**s))
        ++*s;
    return 1;
}

/* Splits off the first word: returns the key, *rest points after it. */
static char *split_key(char *s, char **rest)
{
    char *k = s;
    while (*s && !isspace((unsigned char)*s))
        s++;
    if (*s)
        *s++ = 0;
    while (isspace((unsigned char)*s))
        s++;
    *rest = s;
    return k;
}

static int parse_ints5(const char *s, int lo, int hi, int out[NPLAYERS])
{
    for (int i = 0; i < NPLAYERS; i++) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < lo || v > hi)
            return -1;
        out[i] = (int)v;
        s = end;
    }
    while (isspace((unsigned char)*s))
        s++;
    return *s ? -1 : 0;
}

int kifu_parse_hands5(char *s, Cards out[NPLAYERS])
{
    for (int i = 0; i < NPLAYERS; i++) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s != '{')
            return -1;
        char *close = strchr(s, '}');
        if (!close)
            return -1;
        *close = 0;
        if (cards_parse(s + 1, &out[i]))
            return -1;
        s = close + 1;
    }
    while (isspace((unsigned char)*s))
        s++;
    return *s ? -1 : 0;
}

static int parse_plays(KifuReader *r, char *s, KifuGame *g, char *err, size_t errsz)
{
    g->nplays = 0;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        char *tok = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        size_t len = (size_t)(s - tok);
        char *br = memchr(tok, '[', len);
        size_t mlen = br ? (size_t)(br - tok) : len;
        long us = -1;
        if (br) {
            if (tok[len - 1] != ']' || len - mlen < 3)
                return fail(r, err, errsz, "bad time in play '%.*s'", (int)len, tok);
            us = 0;
            for (char *d = br + 1; d < tok + len - 1; d++) {
                if (!isdigit((unsigned char)*d) || us > 100000000000L)
                    return fail(r, err, errsz, "bad time in play '%.*s'", (int)len, tok);
                us = us * 10 + (*d - '0');
            }
        }
        if (g->nplays >= GAME_MAX_PLAYS)
            return fail(r, err, errsz, "more than %d plays in one game", GAME_MAX_PLAYS);
        if (move_parse(tok, mlen, &g->plays[g->nplays]))
            return fail(r, err, errsz, "bad move '%.*s'", (int)mlen, tok);
        g->usec[g->nplays] = us;
        g->nplays++;
    }
    return 0;
}

enum { K_GAME = 1, K_CLASS = 2, K_SEAT = 4, K_DEALT = 8, K_CHANGED = 16, K_ORIGINAL = 32, K_PLAY = 64,
       K_RESULT = 128, K_SCORE = 256 };
#define K_REQUIRED (K_GAME | K_SEAT | K_DEALT | K_ORIGINAL | K_PLAY | K_RESULT)

int kifu_next(KifuReader *r, KifuGame *g, char *err, size_t errsz)
{
    char *s;
    int rc;
    /* find the start of the next block */
    for (;;) {
        if ((rc = next_line(r, &s, err, errsz)) <= 0)
            return rc;
        if (!*s)
            continue;
        if (!strncmp(s, "player", 6) && (s[6] == 0 || isspace((unsigned char)s[6]))) {
            char *rest;
            split_key(s, &rest);
            for (int i = 0; i < NPLAYERS; i++) {
                char *name = split_key(rest, &rest);
                if (!*name)
                    return fail(r, err, errsz, "`player` line needs five names");
                snprintf(r->names[i], sizeof r->names[i], "%s", name);
            }
            r->have_names = 1;
            continue;
        }
        if (!strcmp(s, "/*"))
            break;
        return fail(r, err, errsz, "expected a `player` line or the start of a game block");
    }
    memset(g, 0, offsetof(KifuGame, plays));
    g->nplays = 0;
    for (int i = 0; i < NPLAYERS; i++)
        g->cls[i] = (int8_t)i;
    int seen = 0;
    for (;;) {
        if ((rc = next_line(r, &s, err, errsz)) < 0)
            return rc;
        if (!rc)
            return fail(r, err, errsz, "file ends inside a game block");
        if (!*s)
            continue;
        if (!strcmp(s, "*/"))
            break;
        char *rest;
        char *key = split_key(s, &rest);
        int k, v5[NPLAYERS];
        if (!strcmp(key, "game")) {
            k = K_GAME;
            char *end;
            errno = 0;
            long n = strtol(rest, &end, 10);
            if (end == rest || *end || errno || n < 0 || n > 100000000)
                return fail(r, err, errsz, "bad game number '%s'", rest);
            g->number = (int)n;
            g->line = r->line;
        } else if (!strcmp(key, "score")) {
            k = K_SCORE;
        } else if (!strcmp(key, "class")) {
            k = K_CLASS;
            if (parse_ints5(rest, 0, 4, v5))
                return fail(r, err, errsz, "`class` needs five classes 0..4");
            for (int i = 0; i < NPLAYERS; i++)
                g->cls[i] = (int8_t)v5[i];
        } else if (!strcmp(key, "seat")) {
            k = K_SEAT;
            if (parse_ints5(rest, 0, 4, v5))
                return fail(r, err, errsz, "`seat` needs five seats 0..4");
            int mask = 0;
            for (int i = 0; i < NPLAYERS; i++) {
                g->seat_of[i] = (uint8_t)v5[i];
                mask |= 1 << v5[i];
            }
            if (mask != 31)
                return fail(r, err, errsz, "`seat` is not a permutation of 0..4");
        } else if (!strcmp(key, "dealt") || !strcmp(key, "changed") || !strcmp(key, "original")) {
            k = key[0] == 'd' ? K_DEALT : key[0] == 'c' ? K_CHANGED : K_ORIGINAL;
            Cards *dst = k == K_DEALT ? g->dealt : k == K_CHANGED ? g->changed : g->original;
            if (kifu_parse_hands5(rest, dst))
                return fail(r, err, errsz, "`%s` needs five card sets like { c3 d8 jo }", key);
        } else if (!strcmp(key, "play")) {
            k = K_PLAY;
            g->play_line = r->line;
            if (parse_plays(r, rest, g, err, errsz))
                return -1;
        } else if (!strcmp(key, "result")) {
            k = K_RESULT;
            g->result_line = r->line;
            if (parse_ints5(rest, 0, 4, g->result))
                return fail(r, err, errsz, "`result` needs five classes 0..4");
        } else {
            return fail(r, err, errsz, "unknown line '%s'", key);
        }
        if (seen & k)
            return fail(r, err, errsz, "`%s` given twice in one game", key);
        seen |= k;
    }
    if ((seen & K_REQUIRED) != K_REQUIRED) {
        static const char *const names[] = {"game", "class", "seat", "dealt", "changed", "original", "play",
                                            "result"};
        for (int i = 0; i < 8; i++)
            if ((K_REQUIRED & (1 << i)) && !(seen & (1 << i)))
                return fail(r, err, errsz, "game block lacks its `%s` line", names[i]);
    }
    return 1;
}

void kifu_write_header(FILE *f, const char *const names[NPLAYERS])
{
    fprintf(f, "player");
    for (int i = 0; i < NPLAYERS; i++) {
        fputc(' ', f);
        for (const char *c = names[i]; *c; c++) /* names are single words */
            fputc(isspace((unsigned char)*c) ? '_' : *c, f);
    }
    fputc('\n', f);
}

static void write_hands(FILE *f, const char *key, const Cards h[NPLAYERS])
{
    char buf[256];
    fprintf(f, "%s", key);
    for (int i = 0; i < NPLAYERS; i++) {
        cards_format(h[i], buf, sizeof buf);
        fprintf(f, " { %s%s}", buf, *buf ? " " : "");
    }
    fprintf(f, " \n");
}

void kifu_write_game(FILE *f, const GameRecord *rec)
{
    uint8_t seat_of[NPLAYERS];
    for (int s = 0; s < NPLAYERS; s++)
        seat_of[rec->seat[s]] = (uint8_t)s;
    fprintf(f, "/* \ngame %d \nscore \nclass", rec->number);
    for (int i = 0; i < NPLAYERS; i++)
        fprintf(f, " %d", rec->cls[0] < 0 ? i : rec->cls[i]);
    fprintf(f, " \nseat");
    for (int i = 0; i < NPLAYERS; i++)
        fprintf(f, " %d", seat_of[i]);
    fprintf(f, " \n");
    write_hands(f, "dealt", rec->dealt);
    write_hands(f, "changed", rec->changed);
    write_hands(f, "original", rec->original);
    fprintf(f, "play");
    for (int i = 0; i < rec->nplays; i++) {
        char m[MOVE_MAX_TEXT];
        move_format(rec->plays[i].move, m, sizeof m);
        fprintf(f, " %s[%lu]", m, (unsigned long)rec->plays[i].usec);
    }
    fprintf(f, " \nresult");
    for (int i = 0; i < NPLAYERS; i++)
        fprintf(f, " %d", rec->result[i]);
    fprintf(f, " \n*/ \n");
}

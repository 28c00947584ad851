/* deals.c — reading and checking deal suites (deals.h). */
#include "record/deals.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/textfile.h"
#include "record/kifu.h"

int deals_check(const Cards hand[NPLAYERS], char *err, size_t errsz)
{
    Cards all = 0;
    int elevens = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        int n = cards_count(hand[p]);
        if (hand[p] & all) {
            snprintf(err, errsz, "hand %d shares a card with an earlier hand", p);
            return -1;
        }
        if (n != 10 && n != 11) {
            snprintf(err, errsz, "hand %d has %d cards (a deal gives 10 or 11)", p, n);
            return -1;
        }
        if (hand[p] & ~CARDS_ALL) {
            snprintf(err, errsz, "hand %d holds a card that does not exist", p);
            return -1;
        }
        elevens += n == 11;
        all |= hand[p];
    }
    if (all != CARDS_ALL || elevens != 3) {
        snprintf(err, errsz, "the five hands do not hold the 53 cards once each");
        return -1;
    }
    return 0;
}

static int add(DealSuite *d, long *cap, const Cards hand[NPLAYERS])
{
    if (d->n >= DEALS_MAX)
        return -1;
    if (d->n == *cap) {
        long c = *cap ? 2 * *cap : 256;
        Cards(*h)[NPLAYERS] = realloc(d->hand, (size_t)c * sizeof *h);
        if (!h)
            return -1;
        d->hand = h;
        *cap = c;
    }
    memcpy(d->hand[d->n++], hand, NPLAYERS * sizeof(Cards));
    return 0;
}

/* A kifu file: the first line that is not blank (after a UTF-8 byte order mark) is a
 * `player` line or opens a comment. */
static int looks_like_kifu(FILE *f)
{
    int c;
    while ((c = fgetc(f)) != EOF && (isspace(c) || c == 0xef || c == 0xbb || c == 0xbf))
        ;
    int k = c == 'p' || c == '/';
    rewind(f);
    return k;
}

int deals_read(FILE *f, const char *path, DealSuite *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    long cap = 0;
    int rc = 0;
    char e[256];
    if (looks_like_kifu(f)) {
        KifuReader r;
        kifu_reader_init(&r, f, path);
        KifuGame *g = malloc(sizeof *g);
        if (!g) {
            snprintf(err, errsz, "out of memory");
            rc = -1;
        }
        while (!rc) {
            int k = kifu_next(&r, g, err, errsz);
            if (k <= 0) {
                rc = k;
                break;
            }
            if (deals_check(g->dealt, e, sizeof e)) {
                snprintf(err, errsz, "%s:%d: game %d: %s", path, g->line, g->number, e);
                rc = -1;
            } else if (add(d, &cap, g->dealt)) {
                snprintf(err, errsz, "%s: out of memory (or more than %ld deals)", path, DEALS_MAX);
                rc = -1;
            }
        }
        free(g);
        kifu_reader_free(&r);
    } else {
        char *line = NULL;
        size_t lcap = 0, len;
        long ln = 0;
        while (!rc && (rc = textfile_line(f, path, &ln, DEALS_MAX_LINE, &line, &lcap, &len, err, errsz)) == 1) {
            rc = 0;
            char *s = line, *hash = strchr(line, '#');
            if (hash)
                *hash = 0; /* a comment, on its own line or after the deal */
            while (isspace((unsigned char)*s))
                s++;
            if (!*s)
                continue;
            Cards h[NPLAYERS];
            if (kifu_parse_hands5(s, h)) {
                snprintf(err, errsz, "%s:%ld: expected five { cards } groups", path, ln);
                rc = -1;
            } else if (deals_check(h, e, sizeof e)) {
                snprintf(err, errsz, "%s:%ld: %s", path, ln, e);
                rc = -1;
            } else if (add(d, &cap, h)) {
                snprintf(err, errsz, "%s: out of memory (or more than %ld deals)", path, DEALS_MAX);
                rc = -1;
            }
        }
        free(line);
    }
    if (!rc && d->n == 0) {
        snprintf(err, errsz, "%s holds no deal (no kifu game, no deal line)", path);
        rc = -1;
    }
    if (rc)
        deals_free(d);
    return rc;
}

int deals_load(const char *path, DealSuite *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    FILE *f = textfile_open(path, err, errsz);
    if (!f)
        return -1;
    int rc = deals_read(f, path, d, err, errsz);
    fclose(f);
    return rc;
}

void deals_free(DealSuite *d)
{
    free(d->hand);
    d->hand = NULL;
    d->n = 0;
}

/* deals.h — deal suites: the same dealt hands for every configuration under test. A suite is
 * read from a kifu file (each game's `dealt` hands) or from a plain list: one deal per line,
 * five `{ cards }` groups in the kifu notation (hand of player 0, 1, ... 4); '#' starts a
 * comment (a whole line, or after a deal), blank lines are ignored. Every deal is checked: five disjoint hands of 10 or 11 cards (three of
 * 11) that together hold all 53 cards. DealSuite owns its memory (deals_free). */
#ifndef DHM_DEALS_H
#define DHM_DEALS_H

#include <stddef.h>
#include <stdio.h>

#include "core/cards.h"
#include "core/state.h"

#define DEALS_MAX 10000000L

typedef struct DealSuite {
    long n;
    Cards (*hand)[NPLAYERS];
} DealSuite;

/* Longest line of a deal list (a deal is about 200 bytes; the rest may be a comment). */
#define DEALS_MAX_LINE ((size_t)1 << 20)

/* Returns 0, or -1 with "path:line: reason" in err (or why the file cannot be read: a
 * directory, a NUL byte, a line over DEALS_MAX_LINE). */
int deals_load(const char *path, DealSuite *d, char *err, size_t errsz);
/* The same from an open file (path names it in messages). */
int deals_read(FILE *f, const char *path, DealSuite *d, char *err, size_t errsz);
/* Whether five hands are a deal as above (0) or not (-1, reason in err). */
int deals_check(const Cards hand[NPLAYERS], char *err, size_t errsz);
void deals_free(DealSuite *d);

#endif

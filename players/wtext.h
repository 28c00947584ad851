/* wtext.h — reading dhm's text weight files (the policies' weights, players/policy.h and
 * players/rich.h): whole words separated by blanks, '#' comments to the end of a line, and
 * strict numbers. Every error names the file and the line. Nothing here keeps state beyond the
 * caller's WText.
 */
#ifndef DHM_WTEXT_H
#define DHM_WTEXT_H

#include <stddef.h>

#define WTEXT_WORD 64 /* longest word, its NUL included: a longer one is an error, never cut */

typedef struct WText {
    const char *p;    /* the text, NUL-terminated */
    const char *name; /* for messages: the file's path or a description */
    int line;
    char *err;
    size_t errsz;
} WText;

void wtext_init(WText *t, const char *text, const char *name, char *err, size_t errsz);
/* The next word into w (WTEXT_WORD bytes): 1, or 0 at the end of the text, or -1 (a word too
 * long: reported in err). */
int wtext_word(WText *t, char *w);
/* Expects the word `want` (else reports "expected WHAT"). 0 or -1. */
int wtext_expect(WText *t, const char *want, const char *what);
/* A whole-word integer in [lo, hi] (else reports "WHAT: 'w' is not ..."). 0 or -1. */
int wtext_long(WText *t, long lo, long hi, const char *what, long *out);
/* A whole-word finite number. 0 or -1. */
int wtext_double(WText *t, const char *what, double *out);
/* "KEY N" with N == want, then N numbers into out. 0 or -1. */
int wtext_numbers(WText *t, const char *key, int want, double *out);
/* The end: the word "end" and nothing after it. 0 or -1. */
int wtext_end(WText *t);

/* Reads a whole file as text (NUL-terminated, at most `max` bytes; refuses NUL bytes, a
 * directory, a device that never ends); *text is the caller's to free. 0 or -1. */
int wtext_read_file(const char *path, size_t max, char **text, char *err, size_t errsz);

#endif

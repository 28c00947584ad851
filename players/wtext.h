/* wtext.h — reading dhm's text weight files (the policies' weights, players/policy.h and
 * players/rich.h): whole words separated by blanks, '#' comments to the end of a line, and
 * strict numbers. A word too long to be a number is refused, never cut; a count is a whole
 * number or an error. Every error is one line naming the file and the line. Reading the file
 * itself is game/textfile.h's. Nothing here keeps state beyond the caller's WText.
 */
#ifndef DHM_WTEXT_H
#define DHM_WTEXT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

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
 * long: "'0.00000...' (70 characters) is not a number" in err). */
int wtext_word(WText *t, char *w);
/* The first line's magic: the words MAGIC and "1", else "NAME: not WHAT (it must start with
 * 'MAGIC 1')". 0 or -1. */
int wtext_magic(WText *t, const char *magic, const char *what);
/* Expects the word `want` (else reports "expected WHAT"). 0 or -1. */
int wtext_expect(WText *t, const char *want, const char *what);
/* A whole-word integer in [lo, hi] (else reports "WHAT: 'w' is not ..."). 0 or -1. */
int wtext_long(WText *t, long lo, long hi, const char *what, long *out);
/* A whole-word finite number ("'w' is not a number"; at the end: "expected WHAT"). 0 or -1. */
int wtext_double(WText *t, const char *what, double *out);
/* "KEY N" with N == want ("'KEY 12x': the count of KEY weights is not a whole number", "KEY has
 * N weights, this dhm's features need M"), then N numbers into out ("the file ends after i of N
 * KEY weights (truncated)"). 0 or -1. */
int wtext_numbers(WText *t, const char *key, int want, double *out);
/* The end: the word "end" and nothing after it. 0 or -1. */
int wtext_end(WText *t);
/* "layout HASH" with this build's hash, else "NAME: the weights were trained for another feature
 * layout (...): retrain them with RETRAIN". 0 or -1. */
int wtext_layout(WText *t, uint64_t hash, const char *retrain);

/* Reads a whole file (game/textfile.h, at most 64 MiB) and hands its text to parse(text, path,
 * out, err, errsz). 0 or -1 with the reason in err. */
typedef int (*WTextParse)(const char *text, const char *name, void *out, char *err, size_t errsz);
int wtext_load(const char *path, WTextParse parse, void *out, char *err, size_t errsz);

/* A player's weights option: with path, the file parsed by parse into a fresh block of `size`
 * bytes (*own, which the caller frees); without, `builtin` (NULL: "KEY: BUILTIN_ERR (give
 * KEY=FILE)"). *use gets the one in use. key names the option in messages ("KEY=F: why"). 0 or -1. */
int wtext_option(const char *path, const char *key, const void *builtin, const char *builtin_err, size_t size,
                 WTextParse parse, const void **use, void **own, char *err, size_t errsz);

/* Built-in weights, compiled in as text: parsed by parse into a block of `size` bytes the first
 * time they are asked for, then that same block, read-only and shared by every thread's players;
 * NULL with the reason in err when the text does not parse. One WBuiltin per weights file,
 * statically initialised with WBUILTIN_INIT. */
typedef struct WBuiltin {
    pthread_mutex_t lock;
    int done;
    void *w;
    char err[300];
} WBuiltin;
#define WBUILTIN_INIT {PTHREAD_MUTEX_INITIALIZER, 0, NULL, ""}
const void *wtext_builtin(WBuiltin *b, const char *text, const char *name, size_t size, WTextParse parse, char *err,
                          size_t errsz);

#endif

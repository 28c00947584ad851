/* fuzz_text.h — a fuzz input as the text that a reader of whole files (game/textfile.h) hands
 * to a parser: the bytes up to the first NUL (the file reader refuses NUL bytes), NUL-ended.
 * The caller frees it; NULL when out of memory. */
#ifndef DHM_FUZZ_TEXT_H
#define DHM_FUZZ_TEXT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = 0;
    }
    return text;
}

/* Whether every one of n numbers is finite (what a weights reader accepts must be). */
static inline int fuzz_all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* Whether every one of n floats is finite and within [-bound, bound] (the learned estimators'
 * readers accept no more). */
static inline int fuzz_all_within_f(const float *x, size_t n, float bound)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(x[i]) <= bound))
            return 0;
    return 1;
}

#endif

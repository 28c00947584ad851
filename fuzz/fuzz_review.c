/* fuzz_review.c — libFuzzer target for the game analyses stored with a run (`dhm view --analyze
 * --save`, read back by `dhm report`): any bytes as a stored analysis; one that is accepted packs
 * again to the very same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/review.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GameReview r;
    if (review_unpack(data, size, &r))
        return 0;
    size_t n;
    uint8_t *again = review_pack(&r, &n);
    if (!again || n != size || memcmp(again, data, size))
        __builtin_trap();
    free(again);
    review_free(&r);
    return 0;
}

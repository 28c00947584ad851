/* fuzz_deals.c — libFuzzer target for the deal-list reader (--deals FILE): any bytes as a
 * file, read as a kifu file or a plain list of deals, whichever it looks like. Nothing may
 * crash, read out of bounds or loop; every deal it accepts is a deal (deals_check). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "record/deals.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    DealSuite d;
    char err[512] = "";
    if (deals_read(f, "fuzz", &d, err, sizeof err) == 0) {
        if (d.n < 1)
            abort();
        for (long i = 0; i < d.n; i++)
            if (deals_check((const Cards *)d.hand[i], err, sizeof err))
                abort();
        deals_free(&d);
    } else if (!err[0] || d.n || d.hand) {
        abort(); /* a refusal says why and keeps nothing */
    }
    fclose(f);
    return 0;
}

/* fuzz_kifu.c — libFuzzer target for the kifu reader and the replay check: any bytes as a
 * record file; every game the reader accepts is replayed against the engine. Nothing may
 * crash, read out of bounds or loop. Built and run by `make fuzz` (clang). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "record/kifu.h"
#include "record/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    static KifuGame g;
    KifuReader r;
    kifu_reader_init(&r, f, "fuzz");
    char err[512];
    for (int n = 0; n < 64 && kifu_next(&r, &g, err, sizeof err) == 1; n++)
        replay_game(&g, "fuzz", NULL, NULL, err, sizeof err);
    kifu_reader_free(&r);
    fclose(f);
    return 0;
}

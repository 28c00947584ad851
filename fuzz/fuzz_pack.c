/* fuzz_pack.c — libFuzzer target for the packed game records of the results store
 * (`dhm records export`): any bytes as a stored blob, in both formats; every game accepted
 * replays (unpack_game checks it), packs again, and unpacks from that to the same game. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static GameRecord rec, back;
    static uint8_t again[PACK_MAX_BYTES];
    for (int format = 1; format <= PACK_FORMAT; format++)
        for (size_t off = 0, used; off < size; off += used) {
            if (unpack_game(data + off, size - off, format, &rec, &used))
                break;
            size_t n = pack_game(&rec, again, sizeof again), used2;
            if (n == 0 || unpack_game(again, n, PACK_FORMAT, &back, &used2) || used2 != n ||
                back.nplays != rec.nplays || memcmp(back.original, rec.original, sizeof rec.original) ||
                memcmp(back.result, rec.result, sizeof rec.result))
                __builtin_trap();
            for (int k = 0; k < rec.nplays; k++)
                if (!move_eq(back.plays[k].move, rec.plays[k].move) || back.plays[k].usec != rec.plays[k].usec ||
                    back.plays[k].player != rec.plays[k].player)
                    __builtin_trap();
        }
    return 0;
}

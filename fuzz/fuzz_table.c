/* fuzz_table.c — libFuzzer target for everything that decodes bytes from a UECda peer: the
 * table decoder, the submission parser (table_to_move), the card reader, and the legality
 * check of whatever they accept. Built and run by `make fuzz` (clang). */
#include <stdint.h>
#include <string.h>

#include "core/movegen.h"
#include "net/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t buf[TABLE_BYTES + 16];
    memset(buf, 0, sizeof buf);
    memcpy(buf, data, size < sizeof buf ? size : sizeof buf);
    Table t;
    table_decode(buf, &t);
    Move m;
    if (table_to_move(&t, &m) == 0) {
        if (!move_valid_shape(m))
            __builtin_trap();
        Table back; /* what we accept we can write back identically (up to the joker cell) */
        memset(&back, 0, sizeof back);
        table_put_move(&back, m);
        Move again;
        if (table_to_move(&back, &again) || !move_eq(m, again))
            __builtin_trap();
        Cards hand = 0; /* and the rules engine judges it without harm */
        memcpy(&hand, buf + TABLE_BYTES, sizeof hand);
        hand &= CARDS_ALL;
        Move table = move_pass();
        (void)movegen_is_legal(hand, table, buf[TABLE_BYTES + 8] & 1, buf[TABLE_BYTES + 9] & 1, m);
    }
    Cards c;
    (void)table_get_cards(&t, &c);
    (void)int_decode(buf);
    return 0;
}

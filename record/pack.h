/* pack.h — compact binary game records for the results store (`dhm tournament --records`):
 * about 130 bytes a game plus 4-6 bytes a play, little-endian, versioned by the store
 * (store_records_format).
 * Layout: number u16, dealer u8, seat[5] u8, cls[5] i8, result[5] u8, stalemate u8,
 * dealt[5] u64, changed[5] u64, original[5] u64, nplays u16, then each play as 3 bytes
 * (type 3 bits | n 4 | low 4 | suits 4 | joker 6), followed in format 2 by its thinking time
 * in µs as an unsigned LEB128 varint (at most 5 bytes). Format 1 (schema-1 stores written
 * before think times were kept) has no times. Who played is not stored: unpacking replays the
 * game through the engine, which also checks it; every byte is untrusted. */
#ifndef DHM_PACK_H
#define DHM_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define PACK_FORMAT 2
#define PACK_MAX_BYTES (128 + 8 * GAME_MAX_PLAYS)

/* Appends one game in PACK_FORMAT; returns the bytes written (0 when cap is too small). */
size_t pack_game(const GameRecord *rec, uint8_t *out, size_t cap);
/* Reads one game of the given format (1 or 2) from in[0..n); *used gets its size. Returns 0,
 * or -1 when the bytes are malformed or the game does not replay. */
int unpack_game(const uint8_t *in, size_t n, int format, GameRecord *rec, size_t *used);

#endif

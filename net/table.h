/* table.h — the UECda protocol 20070 messages: the 8x15 table (core/table.h: its card area,
 * read and written) as 480 bytes of big-endian 32-bit cells, and the 4-byte int (spec/uecda.md
 * §2). Every table decoded from a peer is untrusted: core/table.h's readers validate and never
 * assume.
 */
#ifndef DHM_NET_TABLE_H
#define DHM_NET_TABLE_H

#include <stdint.h>

#include "core/table.h"

#define TABLE_BYTES 480
#define PROTOCOL_VERSION 20070

/* Wire format: big-endian cells; the server sends negative values as 0. */
void table_encode(const Table *t, uint8_t out[TABLE_BYTES]);
void table_decode(const uint8_t in[TABLE_BYTES], Table *t);
void int_encode(int32_t v, uint8_t out[4]);
int32_t int_decode(const uint8_t in[4]);

#endif

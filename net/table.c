/* table.c — the UECda wire format: tables and ints as big-endian bytes. */
#include "net/table.h"

void table_encode(const Table *t, uint8_t out[TABLE_BYTES])
{
    for (int r = 0; r < TABLE_ROWS; r++)
        for (int c = 0; c < TABLE_COLS; c++) {
            uint32_t v = t->c[r][c] < 0 ? 0 : (uint32_t)t->c[r][c];
            uint8_t *p = out + 4 * (r * TABLE_COLS + c);
            p[0] = (uint8_t)(v >> 24);
            p[1] = (uint8_t)(v >> 16);
            p[2] = (uint8_t)(v >> 8);
            p[3] = (uint8_t)v;
        }
}

void table_decode(const uint8_t in[TABLE_BYTES], Table *t)
{
    for (int r = 0; r < TABLE_ROWS; r++)
        for (int c = 0; c < TABLE_COLS; c++)
            t->c[r][c] = int_decode(in + 4 * (r * TABLE_COLS + c));
}

void int_encode(int32_t v, uint8_t out[4])
{
    uint32_t u = (uint32_t)v;
    out[0] = (uint8_t)(u >> 24);
    out[1] = (uint8_t)(u >> 16);
    out[2] = (uint8_t)(u >> 8);
    out[3] = (uint8_t)u;
}

int32_t int_decode(const uint8_t in[4])
{
    return (int32_t)((uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | (uint32_t)in[3]);
}

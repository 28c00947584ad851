/* emit.h — the small pieces every printer shares: JSON strings and numbers, CSV fields,
 * numbers in fixed-width columns. Pure formatting on a FILE; nothing here knows the game. */
#ifndef DHM_EMIT_H
#define DHM_EMIT_H

#include <stdio.h>

/* A JSON string with escaping. */
void json_str(FILE *f, const char *s);
/* A JSON number (%.6g), or null for NaN and infinities. */
void json_num(FILE *f, double v);
/* A CSV field, always quoted ("" escapes a quote). */
void csv_str(FILE *f, const char *s);
/* A CSV number (%.4f), or an empty field for NaN. */
void csv_num(FILE *f, double v);
/* " %*.*f", or the width filled with "-" right-aligned for NaN. */
void col_num(FILE *f, double v, int width, int prec);

#endif

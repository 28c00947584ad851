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

/* Every --csv output is one table with one header row (pandas.read_csv and csv.DictReader
 * read it as is). An output made of several tables stacks them: a first column `table` names
 * the table each row belongs to, the header is the union of the tables' columns in order of
 * first appearance, and a row leaves the others' columns empty. CsvParts collects the tables:
 * csv_part gives a stream for the next one (its header line, then its rows); csv_parts_end
 * writes them to out, a lone table exactly as written, and frees everything. A part that is
 * itself stacked (header starting with `table`) keeps its rows' table names. */
#define CSV_MAX_PARTS 16
typedef struct CsvParts {
    FILE *out;
    int n;
    const char *name[CSV_MAX_PARTS];
    char *buf[CSV_MAX_PARTS];
    size_t len[CSV_MAX_PARTS];
    FILE *cur;
} CsvParts;
void csv_parts_begin(CsvParts *p, FILE *out);
/* The stream for the next table, named `name` (a static string); out itself when it cannot
 * be buffered. */
FILE *csv_part(CsvParts *p, const char *name);
/* Returns 0, or -1 when the parts could not be merged (they are then written one after the
 * other). */
int csv_parts_end(CsvParts *p);

#endif

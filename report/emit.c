/* emit.c — JSON, CSV and column helpers (see emit.h). */
#include "report/emit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fprintf(f, "null");
    else
        fprintf(f, "%.6g", v);
}

void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void csv_num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.4f", v);
}

void col_num(FILE *f, double v, int width, int prec)
{
    if (isnan(v))
        fprintf(f, " %*s", width, "-");
    else
        fprintf(f, " %*.*f", width, prec, v);
}

/* ---- stacked CSV tables ---- */

void csv_parts_begin(CsvParts *p, FILE *out)
{
    memset(p, 0, sizeof *p);
    p->out = out;
}

static void close_part(CsvParts *p)
{
    if (p->cur) {
        fclose(p->cur);
        p->cur = NULL;
    }
}

FILE *csv_part(CsvParts *p, const char *name)
{
    close_part(p);
    if (p->n == CSV_MAX_PARTS)
        return p->out;
    p->buf[p->n] = NULL;
    p->len[p->n] = 0;
    p->cur = open_memstream(&p->buf[p->n], &p->len[p->n]);
    if (!p->cur)
        return p->out;
    p->name[p->n++] = name;
    return p->cur;
}

#define CSV_MAX_FIELDS 64
typedef struct Span {
    const char *s;
    size_t n;
} Span;

/* One record of CSV text at *pos (quoted fields may hold commas, quotes and newlines): its
 * fields as raw text, quotes included. Returns the count, 0 at the end, -1 if too wide. */
static int csv_record(const char *text, size_t len, size_t *pos, Span *f)
{
    size_t i = *pos;
    if (i >= len)
        return 0;
    int n = 0;
    for (;;) {
        if (n == CSV_MAX_FIELDS)
            return -1;
        size_t start = i;
        int quoted = 0;
        while (i < len && (quoted || (text[i] != ',' && text[i] != '\n'))) {
            if (text[i] == '"')
                quoted = !quoted;
            i++;
        }
        f[n].s = text + start;
        f[n].n = i - start;
        n++;
        if (i >= len || text[i] == '\n') {
            *pos = i + 1;
            return n;
        }
        i++; /* ',' */
    }
}

static int span_is(Span a, const char *s) { return a.n == strlen(s) && !memcmp(a.s, s, a.n); }

static int merge_parts(CsvParts *p)
{
    Span cols[CSV_MAX_FIELDS], f[CSV_MAX_FIELDS];
    int ncols = 0;
    for (int k = 0; k < p->n; k++) { /* the union of the headers */
        size_t pos = 0;
        int n = csv_record(p->buf[k], p->len[k], &pos, f);
        if (n < 0)
            return -1;
        for (int j = 0; j < n; j++) {
            int have = span_is(f[j], "table");
            for (int c = 0; c < ncols && !have; c++)
                have = cols[c].n == f[j].n && !memcmp(cols[c].s, f[j].s, f[j].n);
            if (!have) {
                if (ncols == CSV_MAX_FIELDS)
                    return -1;
                cols[ncols++] = f[j];
            }
        }
    }
    fputs("table", p->out);
    for (int c = 0; c < ncols; c++)
        fprintf(p->out, ",%.*s", (int)cols[c].n, cols[c].s);
    fputc('\n', p->out);
    for (int k = 0; k < p->n; k++) {
        Span h[CSV_MAX_FIELDS];
        size_t pos = 0;
        int nh = csv_record(p->buf[k], p->len[k], &pos, h), n;
        int where[CSV_MAX_FIELDS]; /* the union column of each of the part's columns */
        for (int j = 0; j < nh; j++) {
            where[j] = -1;
            for (int c = 0; c < ncols; c++)
                if (cols[c].n == h[j].n && !memcmp(cols[c].s, h[j].s, h[j].n))
                    where[j] = c;
        }
        const int stacked = nh > 0 && span_is(h[0], "table");
        while ((n = csv_record(p->buf[k], p->len[k], &pos, f)) > 0) {
            if (n == 1 && f[0].n == 0)
                continue; /* a blank line */
            Span row[CSV_MAX_FIELDS];
            memset(row, 0, sizeof row);
            for (int j = 0; j < n && j < nh; j++)
                if (where[j] >= 0)
                    row[where[j]] = f[j];
            if (stacked)
                fprintf(p->out, "%.*s", (int)f[0].n, f[0].s);
            else
                fputs(p->name[k], p->out);
            for (int c = 0; c < ncols; c++)
                fprintf(p->out, ",%.*s", (int)row[c].n, row[c].s ? row[c].s : "");
            fputc('\n', p->out);
        }
    }
    return 0;
}

int csv_parts_end(CsvParts *p)
{
    close_part(p);
    int rc = 0, nonempty = 0;
    for (int k = 0; k < p->n; k++)
        nonempty += p->len[k] > 0;
    if (p->n == 1 || nonempty <= 1) {
        for (int k = 0; k < p->n; k++)
            fwrite(p->buf[k], 1, p->len[k], p->out);
    } else if ((rc = merge_parts(p)) != 0) {
        for (int k = 0; k < p->n; k++)
            fwrite(p->buf[k], 1, p->len[k], p->out);
    }
    for (int k = 0; k < p->n; k++)
        free(p->buf[k]);
    p->n = 0;
    return rc;
}

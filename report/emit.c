/* emit.c — JSON, CSV and column helpers (see emit.h). */
#include "report/emit.h"

#include <math.h>

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

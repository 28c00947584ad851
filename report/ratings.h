/* ratings.h — printing rating results for people (a table), for spreadsheets (CSV sections)
 * and for programs (JSON), from one RatingReport: what `dhm rate` and every command that ends
 * in a rating table print. Every figure says what it is: each method's uncertainty is named
 * with its kind (and level, for intervals), ratings that only a prior bounds are flagged, and
 * the header says only what was done.
 *
 * CSV is one table with one header row: the ratings; when other tables are asked for (mse,
 * crosstable, transitivity, cycles, los) they are stacked under it with a first column
 * `table` naming each row's table (report/emit.h).
 */
#ifndef DHM_REPORT_RATINGS_H
#define DHM_REPORT_RATINGS_H

#include <stdio.h>

#include "rating/eval.h"
#include "rating/methods.h"

enum { REPORT_TABLE, REPORT_CSV, REPORT_JSON };

typedef struct RatingReport {
    const Results *res;
    const H2H *h;
    const MethodResult *mr; /* nm results */
    int nm;
    int mse, cross, trans, los, top; /* what to add to the ratings */
    long left_out;                   /* sets of the store left out (not clean) */
} RatingReport;

void report_ratings(FILE *f, const RatingReport *r, int format);

/* The --history CSV: a header, then after each set (or game) one row per player it touched:
 * method, step (1-based), player, rating, uncertainty. */
void report_history_header(FILE *f);
void report_history_rows(FILE *f, const Results *res, MethodId m, long step, const int *players, int np,
                         const MethodResult *cur);

/* What a method's interval is, e.g. "95% bootstrap percentile interval (200 replicates,
 * resampling whole sets)"; "" when it has none. */
void report_interval_label(const MethodResult *m, const Results *res, char *buf, size_t n);
/* What a method's uncertainty (MethodResult.unc) is; "" when it has none. */
void report_unc_label(const MethodResult *m, const Results *res, char *buf, size_t n);

#endif

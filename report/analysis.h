/* analysis.h — printing the analyses of game records: initial-hand win rates (dhm
 * handstrength) and world samplers' accuracy (dhm estimate), as a table, CSV or JSON
 * (REPORT_TABLE, REPORT_CSV, REPORT_JSON of report/ratings.h). */
#ifndef DHM_REPORT_ANALYSIS_H
#define DHM_REPORT_ANALYSIS_H

#include <stdio.h>

#include "analysis/estimation.h"
#include "analysis/handstrength.h"
#include "report/ratings.h"

void report_hand_summary(FILE *f, const HandSummary *s, char *const *names, int fmt);

typedef struct EstAccRow {
    char desc[96];
    EstAccResult r;
} EstAccRow;
void report_est_accuracy(FILE *f, const EstAccRow *rows, int n, long worlds, uint64_t seed, int fmt);

#endif

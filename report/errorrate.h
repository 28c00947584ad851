/* errorrate.h — printing an error-rate analysis (analysis/errorrate.h): a table with every
 * figure named (the reward scale, the interval's kind and level), CSV sections, or JSON. */
#ifndef DHM_REPORT_ERRORRATE_H
#define DHM_REPORT_ERRORRATE_H

#include <stdio.h>

#include "analysis/errorrate.h"
#include "report/ratings.h"

void report_errorrate(FILE *f, const ErrResult *r, const ErrConfig *c, int format);

#endif

/* svg.h — inline SVG charts for the HTML report: self-contained markup (no script, no font or
 * file from anywhere), every text escaped, every coordinate a finite number. Each chart is an
 * <svg class="chart" id="..."> with a <title>; values that are NaN are left out (an interval
 * without bounds is drawn as its point; a series point as a gap), and a chart without data
 * says "no data" instead of drawing axes. Nothing here knows the game or the ratings.
 */
#ifndef DHM_SVG_H
#define DHM_SVG_H

#include <stdio.h>

/* Text for HTML or SVG: & < > " ' escaped; bytes below 0x20 (but tab) dropped. */
void html_esc(FILE *f, const char *s);

/* At most max "nice" tick values (1, 2 or 5 times a power of ten apart) covering [lo, hi];
 * returns their number (0 when lo or hi is not finite). */
int svg_ticks(double lo, double hi, int max, double *out);

/* One row per item: a dot at value and a bar from lo to hi (any may be NaN), on a shared x
 * axis. Items are drawn in the order given. */
void chart_intervals(FILE *f, const char *id, const char *title, const char *xlabel, int n, const char *const *labels,
                     const double *value, const double *lo, const double *hi);

/* nseries lines over npoints x values: y[s * npoints + i] (NaN = a gap). */
void chart_lines(FILE *f, const char *id, const char *title, const char *xlabel, const char *ylabel, int nseries,
                 const char *const *names, int npoints, const double *x, const double *y);

/* An n x n grid: cell (i, j) coloured by rate[i * n + j] in [0, 1] (blue 0, white 0.5, red 1;
 * NaN: grey), with count[i * n + j] written in it when the grid is small enough. */
void chart_heatmap(FILE *f, const char *id, const char *title, int n, const char *const *labels, const double *rate,
                   const double *count);

/* One bar per item split into k parts: share[i * k + j] (shares of a whole; NaN = 0). */
void chart_stacked(FILE *f, const char *id, const char *title, int n, const char *const *labels, int k,
                   const char *const *parts, const double *share);

/* One horizontal bar per item, from 0 to value (NaN: no bar). */
void chart_bars(FILE *f, const char *id, const char *title, const char *xlabel, int n, const char *const *labels,
                const double *value);

#endif

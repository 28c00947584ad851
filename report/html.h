/* html.h — the one-file HTML report of a tournament run (`dhm report`): inline SVG charts and
 * CSS, no script and nothing fetched from anywhere, readable offline and printable. Every chart
 * has its numbers in an HTML table next to it, and every uncertainty says what it is (the
 * labels of report/ratings.h). The command computes; this only prints what it is given.
 */
#ifndef DHM_REPORT_HTML_H
#define DHM_REPORT_HTML_H

#include <stdio.h>

#include "analysis/handstrength.h"
#include "analysis/worst.h"
#include "rating/eval.h"
#include "rating/methods.h"
#include "record/store.h"

/* A set that was not played cleanly, as the page lists it (the first HTML_BROKEN_MAX). */
#define HTML_BROKEN_MAX 1000
typedef struct HtmlSetStatus {
    long idx;
    char status[16], note[512];
} HtmlSetStatus;

typedef struct HtmlReport {
    const char *path;             /* the store */
    const RunInfo *run;
    char *const *specs;           /* per player (index as in res) */
    long sets_ok, sets_bad;       /* stored sets by status */
    int include_broken;
    const HtmlSetStatus *broken;  /* the first nbroken of the sets_bad sets, in index order */
    long nbroken;
    const char *no_ratings;       /* no set to rate: why (the sections made of ratings are left out) */
    const Results *res;
    const H2H *h;
    const MethodResult *mr;       /* nm methods */
    int nm;
    /* rating trajectories of one sequential method: traj_n points (after set traj_x[i]),
     * traj_y[player * traj_n + i] (NAN before a player's first set) */
    const char *traj_method;
    int traj_n;
    const double *traj_x, *traj_y;
    const long *cls;              /* per player: games in each class, cls[p * 5 + k] (0 = daifugo) */
    const HandSummary *hand;      /* NULL when the store has no initial-hand win rates */
    const StoredErrRate *err;     /* nerr rows from dhm errorrate --save */
    int nerr;
    const StoredWorst *worst;     /* from dhm view --analyze --save, or NULL (no games section) */
} HtmlReport;

/* The page's style sheet (shared with the game pages of report/view.h). */
const char *report_html_css(void);

/* Writes the page. Returns 0, or -1 on a write error. */
int report_html(FILE *f, const HtmlReport *r);

#endif

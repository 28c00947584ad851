/* standings.c — live tournament standings from the store (standings.h). */
#include "watch/standings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rating/methods.h"
#include "rating/results.h"

typedef struct Walk {
    WatchTable *t;
    Results *res;
    long seq;
    double *sq;      /* per player: sum over its sets of points^2, points*games, games^2 */
    int n, fail;
} Walk;

static int on_set(void *ctx, const StoredSet *x)
{
    Walk *k = ctx;
    WatchTable *t = k->t;
    if (!set_status_ok(x->status)) { /* left out, as dhm rate --db leaves it out */
        t->not_ok++;
        if (t->nfailed < t->max_failed) {
            WatchFailed *f = &t->failed[t->nfailed++];
            f->idx = x->idx;
            snprintf(f->status, sizeof f->status, "%s", x->status);
            snprintf(f->note, sizeof f->note, "%s", x->note);
        }
        return 0;
    }
    t->ok++;
    double pts[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++) {
        const int i = x->player[p];
        if (i < 0 || i >= k->n)
            continue;
        WatchStanding *r = &t->rows[i];
        r->sets++;
        r->games += x->games;
        r->points += x->total[p];
        k->sq[3 * i] += (double)x->total[p] * (double)x->total[p];
        k->sq[3 * i + 1] += (double)x->total[p] * x->games;
        k->sq[3 * i + 2] += (double)x->games * x->games;
        pts[p] = (double)x->total[p];
    }
    return results_add_set(k->res, (double)k->seq++, x->player, pts) ? -1 : 0;
}

int watch_standings_compute(Store *st, int n, const char *const *names, WatchTable *t, char *err, size_t errsz)
{
    Results res;
    results_init(&res);
    Walk k = {t, &res, 0, calloc((size_t)n * 3, sizeof(double)), n, 0};
    memset(t->rows, 0, (size_t)n * sizeof *t->rows);
    t->ok = t->not_ok = 0;
    t->nfailed = 0;
    int rc = k.sq ? 0 : -1;
    for (int i = 0; !rc && i < n; i++) /* player ids are the pool order, as in dhm rate --db */
        if (results_player(&res, names[i]) != i)
            rc = -1;
    if (rc)
        snprintf(err, errsz, "out of memory");
    if (!rc && store_each_set(st, 0, on_set, &k, err, errsz))
        rc = -1;
    MethodResult mr;
    memset(&mr, 0, sizeof mr);
    int rated = 0;
    if (!rc && t->ok > 0) {
        RatingParams prm;
        rating_params_default(&prm);
        results_sort_sets(&res); /* as dhm rate does (they came in order already) */
        rated = method_run(M_STS, &prm, &res, &mr, NULL, NULL, err, errsz) == 0;
    }
    for (int i = 0; !rc && i < n; i++) {
        WatchStanding *r = &t->rows[i];
        r->player = i;
        r->ppg = r->games ? (double)r->points / (double)r->games : NAN;
        r->se = NAN;
        if (r->sets >= 2) { /* the ratio estimator's SE with the sets as clusters */
            const double m = r->ppg, s = (double)r->sets;
            const double ss = k.sq[3 * i] - 2 * m * k.sq[3 * i + 1] + m * m * k.sq[3 * i + 2];
            r->se = sqrt((ss > 0 ? ss : 0) * s / (s - 1)) / (double)r->games;
        }
        r->rating = rated && r->sets ? mr.rating[i] : NAN;
        r->sigma = rated && r->sets && mr.unc ? mr.unc[i] : NAN;
    }
    if (rated)
        method_result_free(&mr);
    free(k.sq);
    results_free(&res);
    return rc;
}

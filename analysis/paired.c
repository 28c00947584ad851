/* paired.c — duplicate groups as paired units, and the GSPRT (paired.h). */
#include "analysis/paired.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

typedef struct Acc {
    int a, b, include_broken;
    GroupPair *g;
    long n, cap, incomplete;
    long cur;        /* the group being summed (-1 none) */
    int sets, bad, both;
    double diff;
    long wins, games;
} Acc;

static int flush(Acc *c)
{
    if (c->cur < 0)
        return 0;
    if (c->sets == 5 && !c->bad && c->both == 5) {
        if (c->n == c->cap) {
            long cap = c->cap ? 2 * c->cap : 256;
            GroupPair *g = realloc(c->g, (size_t)cap * sizeof *g);
            if (!g)
                return -1;
            c->g = g;
            c->cap = cap;
        }
        c->g[c->n++] = (GroupPair){c->cur, c->diff, c->games ? (double)c->wins / (double)c->games : NAN, c->games};
    } else if (c->both) {
        c->incomplete++;
    }
    c->cur = -1;
    return 0;
}

static int on_set(void *ctx, const StoredSet *x)
{
    Acc *c = ctx;
    long group = x->idx / 5;
    if (group != c->cur) {
        if (flush(c))
            return -1;
        c->cur = group;
        c->sets = c->bad = c->both = 0;
        c->diff = 0;
        c->wins = c->games = 0;
    }
    c->sets++;
    if (!c->include_broken && !set_status_ok(x->status))
        c->bad = 1;
    int pa = -1, pb = -1;
    for (int p = 0; p < NPLAYERS; p++) {
        if (x->player[p] == c->a)
            pa = p;
        if (x->player[p] == c->b)
            pb = p;
    }
    if (pa < 0 || pb < 0)
        return 0;
    c->both++;
    c->diff += (double)(x->total[pa] - x->total[pb]);
    for (int g = 0; g < x->games; g++) {
        int cls[NPLAYERS];
        unpack_classes(x->classes[g], cls);
        c->wins += cls[pa] < cls[pb];
        c->games++;
    }
    return 0;
}

int paired_groups(Store *st, int a, int b, int include_broken, GroupPair **out, long *n, long *incomplete, char *err,
                  size_t errsz)
{
    Acc c;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.b = b;
    c.include_broken = include_broken;
    c.cur = -1;
    *err = 0;
    int rc = store_each_set(st, 0, on_set, &c, err, errsz);
    if (!rc && flush(&c))
        rc = -1;
    if (rc) {
        if (!*err)
            snprintf(err, errsz, "out of memory");
        free(c.g);
        return -1;
    }
    *out = c.g;
    *n = c.n;
    *incomplete = c.incomplete;
    return 0;
}

void paired_interval(const double *x, long n, double conf, double *mean, double *sd, double *lo, double *hi)
{
    double s = 0, s2 = 0;
    for (long i = 0; i < n; i++) {
        s += x[i];
        s2 += x[i] * x[i];
    }
    *mean = n ? s / n : NAN;
    *sd = n > 1 ? sqrt(fmax(0, (s2 - n * *mean * *mean) / (n - 1))) : NAN;
    double t = n > 1 ? student_t_quantile(conf, (double)(n - 1)) : NAN;
    *lo = *mean - t * *sd / sqrt((double)n);
    *hi = *mean + t * *sd / sqrt((double)n);
}

double sprt_score_of_elo(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

double sprt_elo_of_score(double s)
{
    if (!(s > 0 && s < 1))
        return s >= 1 ? INFINITY : -INFINITY;
    return -400 * log10(1 / s - 1);
}

void sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}

/* lambda with sum w_k (v_k - s) / (1 + lambda (v_k - s)) = 0, the w_k summing to 1 (s strictly
 * inside the range of the v_k). */
static double tilt(const double *v, const double *w, int k, double s)
{
    double vmin = v[0], vmax = v[0];
    for (int i = 1; i < k; i++) {
        vmin = fmin(vmin, v[i]);
        vmax = fmax(vmax, v[i]);
    }
    double lo = -1 / (vmax - s), hi = 1 / (s - vmin); /* where every 1 + lambda (v - s) > 0 */
    lo += (hi - lo) * 1e-12;
    hi -= (hi - lo) * 1e-12;
    for (int it = 0; it < 200; it++) { /* the sum decreases in lambda */
        double mid = (lo + hi) / 2, g = 0;
        for (int i = 0; i < k; i++)
            g += w[i] * (v[i] - s) / (1 + mid * (v[i] - s));
        if (g > 0)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double sprt_llr(const double *x, long n, double s0, double s1)
{
    if (n < 2)
        return 0;
    /* the distinct scores and their shares */
    double *v = malloc((size_t)n * sizeof *v), *w = malloc((size_t)n * sizeof *w);
    if (!v || !w) {
        free(v);
        free(w);
        return 0;
    }
    int k = 0;
    double mean = 0, vmin = INFINITY, vmax = -INFINITY;
    for (long i = 0; i < n; i++) {
        mean += x[i] / n;
        vmin = fmin(vmin, x[i]);
        vmax = fmax(vmax, x[i]);
        int j = 0;
        while (j < k && fabs(v[j] - x[i]) > 1e-12)
            j++;
        if (j == k) {
            v[k] = x[i];
            w[k++] = 0;
        }
        w[j] += 1.0 / n;
    }
    double llr;
    if (s0 > vmin && s0 < vmax && s1 > vmin && s1 < vmax) {
        double l0 = tilt(v, w, k, s0), l1 = tilt(v, w, k, s1);
        llr = 0;
        for (int j = 0; j < k; j++) /* n w_j units at v_j, each ln(p1/p0) = ln((1 + l0 (v - s0)) / (1 + l1 (v - s1))) */
            llr += n * w[j] * log((1 + l0 * (v[j] - s0)) / (1 + l1 * (v[j] - s1)));
    } else {
        double var = 0;
        for (long i = 0; i < n; i++)
            var += (x[i] - mean) * (x[i] - mean) / (n - 1);
        var = fmax(var, 1e-4);
        llr = n * (s1 - s0) * (mean - (s0 + s1) / 2) / var;
    }
    free(v);
    free(w);
    return llr;
}

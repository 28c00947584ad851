/* errstudy.c — correlation and determination of n-game measures against strength (see
 * errstudy.h). */
#include "analysis/errstudy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/errorrate.h"
#include "analysis/stats.h"

double errstudy_measure(const EsPlayer *p, int m, long from, long n)
{
    double a = 0, b = 0;
    for (long g = from; g < from + n && g < p->n; g++) {
        if (m == ES_ERROR) {
            a += p->loss[g];
            b += (double)p->judged[g];
        } else {
            a += m == ES_RANK ? p->rank[g] : 6 - p->rank[g];
            b += 1;
        }
    }
    return b > 0 ? a / b : NAN;
}

void errstudy_fit(const EsPlayer *p, int np, EsFit *f)
{
    for (int m = 0; m < ES_MEASURES; m++) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        int k = 0;
        for (int i = 0; i < np; i++) {
            double x = errstudy_measure(&p[i], m, 0, p[i].n);
            if (isnan(x))
                continue;
            sx += x;
            sy += p[i].strength;
            sxx += x * x;
            sxy += x * p[i].strength;
            k++;
        }
        double den = k * sxx - sx * sx;
        f->slope[m] = k >= 2 && den != 0 ? (k * sxy - sx * sy) / den : 0;
        f->intercept[m] = k ? (sy - f->slope[m] * sx) / k : 0;
    }
}

void errstudy_row(const EsPlayer *p, int np, int n, const EsFit *f, EsRow *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    for (int m = 0; m < ES_MEASURES; m++) {
        /* eqs. 8-10: means and moments over all chunks (a player with M_p chunks weighs M_p) */
        double sx = 0, sy = 0;
        long M = 0;
        for (int i = 0; i < np; i++)
            for (long c = 0; c + n <= p[i].n; c += n) {
                double x = errstudy_measure(&p[i], m, c, n);
                if (isnan(x))
                    continue;
                sx += x;
                sy += p[i].strength;
                M++;
            }
        if (M < 2) {
            out->r[m] = out->se[m] = out->r2[m] = NAN;
            continue;
        }
        const double xa = sx / M, ya = sy / M;
        double sxy = 0, sxx = 0, syy = 0, res = 0;
        for (int i = 0; i < np; i++)
            for (long c = 0; c + n <= p[i].n; c += n) {
                double x = errstudy_measure(&p[i], m, c, n);
                if (isnan(x))
                    continue;
                double dy = p[i].strength - ya, e = p[i].strength - (f->slope[m] * x + f->intercept[m]);
                sxy += (x - xa) * dy;
                sxx += (x - xa) * (x - xa);
                syy += dy * dy;
                res += e * e;
            }
        out->chunks = M;
        out->r[m] = sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
        out->se[m] = (1 - out->r[m] * out->r[m]) / sqrt((double)M);
        out->r2[m] = syy > 0 ? 1 - res / syy : NAN;
    }
}

double errstudy_nequiv(const EsRow *rows, int nrows, double target)
{
    for (int k = 0; k < nrows; k++) {
        double a = fabs(rows[k].r[ES_ERROR]);
        if (isnan(a) || a < target)
            continue;
        if (k == 0)
            return rows[0].n;
        double b = fabs(rows[k - 1].r[ES_ERROR]), l0 = log2(rows[k - 1].n), l1 = log2(rows[k].n);
        if (isnan(b) || a <= b)
            return rows[k].n;
        return exp2(l0 + (l1 - l0) * (target - b) / (a - b));
    }
    return INFINITY;
}

void errstudy_summary(const EsRow *rows, int nseeds, int nrows, double conf, EsSummary *out)
{
    double tq = nseeds > 1 ? student_t_quantile(conf, nseeds - 1) : NAN;
    for (int k = 0; k < nrows; k++) {
        out[k].n = rows[k].n;
        out[k].seeds = nseeds;
        for (int m = 0; m < ES_MEASURES; m++) {
            double s = 0, s2 = 0;
            int c = 0;
            for (int i = 0; i < nseeds; i++) {
                double r = rows[i * nrows + k].r[m];
                if (isnan(r))
                    continue;
                s += r;
                s2 += r * r;
                c++;
            }
            out[k].mean[m] = c ? s / c : NAN;
            double var = c > 1 ? (s2 - c * out[k].mean[m] * out[k].mean[m]) / (c - 1) : NAN;
            out[k].half[m] = c > 1 ? (c == nseeds ? tq : student_t_quantile(conf, c - 1)) * sqrt(var > 0 ? var / c : 0)
                                   : NAN;
        }
    }
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double errstudy_median_interval(const double *v, int n, double *median, double *lo, double *hi)
{
    *median = *lo = *hi = NAN;
    if (n < 1)
        return 0;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return 0;
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_dbl);
    *median = n % 2 ? s[n / 2] : (isinf(s[n / 2]) ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2);
    *lo = s[0];
    *hi = s[n - 1];
    free(s);
    return 1 - 2 * pow(0.5, n);
}

int errstudy_collect(const struct ErrResult *er, double (*rating)(void *ctx, const char *name), void *ctx, long judge,
                     EsPlayer *ep, const char **names, const char **unrated, int *nunrated)
{
    int np = 0;
    *nunrated = 0;
    for (int i = 0; i < er->n; i++) {
        const ErrPlayer *p = &er->p[i];
        double r = rating(ctx, p->name);
        if (isnan(r)) {
            unrated[(*nunrated)++] = p->name;
            continue;
        }
        long n = p->ngame < judge ? p->ngame : judge;
        names[np] = p->name;
        ep[np++] = (EsPlayer){r, n, p->game_loss, p->game_judged, p->game_rank};
    }
    return np;
}

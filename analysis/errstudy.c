/* errstudy.c — correlation and determination of n-game measures against strength (see
 * errstudy.h). */
#include "analysis/errstudy.h"

#include <math.h>
#include <string.h>

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

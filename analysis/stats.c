/* stats.c — Student's t, Welch's test and the bootstrap of a ratio (stats.h). */
#include "analysis/stats.h"

#include <math.h>
#include <stdlib.h>

#include "core/rng.h"

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = fabs(d) < tiny ? tiny : d;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m, num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + num * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1 + num / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + num * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1 + num / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return h;
}

double incbeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lf = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lf) * betacf(a, b, x) / a;
    return 1 - exp(lf) * betacf(b, a, 1 - x) / b;
}

double student_t_p2(double t, double df)
{
    if (!(df > 0) || isnan(t))
        return NAN;
    return incbeta(df / 2, 0.5, df / (df + t * t));
}

double student_t_p1(double t, double df)
{
    double p2 = student_t_p2(t, df);
    return isnan(p2) ? NAN : t >= 0 ? p2 / 2 : 1 - p2 / 2;
}

/* Welch's t and its degrees of freedom; 0, or -1 without two samples a side, 1 with no variance. */
static int welch_t(double m1, double sd1, int n1, double m2, double sd2, int n2, double *t, double *df)
{
    if (n1 < 2 || n2 < 2)
        return -1;
    double v1 = sd1 * sd1 / n1, v2 = sd2 * sd2 / n2;
    if (v1 + v2 <= 0)
        return 1;
    *t = (m1 - m2) / sqrt(v1 + v2);
    *df = (v1 + v2) * (v1 + v2) / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
    return 0;
}

double welch_p(double m1, double sd1, int n1, double m2, double sd2, int n2)
{
    double t, df;
    int r = welch_t(m1, sd1, n1, m2, sd2, n2, &t, &df);
    return r < 0 ? NAN : r ? (m1 == m2 ? 1 : 0) : student_t_p2(t, df);
}

double welch_p1(double m1, double sd1, int n1, double m2, double sd2, int n2)
{
    double t, df;
    int r = welch_t(m1, sd1, n1, m2, sd2, n2, &t, &df);
    return r < 0 ? NAN : r ? (m1 > m2 ? 0 : 1) : student_t_p1(t, df);
}

double student_t_quantile(double conf, double df)
{
    if (!(df > 0) || !(conf > 0 && conf < 1))
        return NAN;
    double lo = 0, hi = 1;
    while (student_t_p2(hi, df) > 1 - conf && hi < 1e7)
        hi *= 2;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (student_t_p2(mid, df) > 1 - conf)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int stats_bootstrap_ratio(const double *num, const long *den, long n, int reps, double conf, uint64_t seed, double *lo,
                          double *hi)
{
    *lo = *hi = NAN;
    if (n < 2 || reps < 2)
        return 0;
    double *v = malloc((size_t)reps * sizeof *v);
    if (!v)
        return -1;
    Rng r = rng_seed(seed);
    int k = 0;
    for (int b = 0; b < reps; b++) {
        double l = 0;
        long d = 0;
        for (long g = 0; g < n; g++) {
            long i = (long)rng_below(&r, (uint32_t)n);
            l += num[i];
            d += den[i];
        }
        if (d)
            v[k++] = l / (double)d;
    }
    if (k >= 2) {
        qsort(v, (size_t)k, sizeof *v, cmp_double);
        double a = (1 - conf) / 2;
        *lo = v[(int)floor(a * (k - 1))];
        *hi = v[(int)ceil((1 - a) * (k - 1))];
    }
    free(v);
    return 0;
}

/* gaussian.c — normal pdf/cdf/ppf, erfcx, and TrueSkill's v/w functions in scaled form. */
#include "rating/gaussian.h"

#include <math.h>

#define SQRT2 1.41421356237309504880
#define SQRT_2_OVER_PI 0.79788456080286535588 /* sqrt(2/pi) */
#define INV_SQRT_2PI 0.39894228040143267794
#define INV_SQRT_PI 0.56418958354775628695

double gauss_pdf(double t) { return INV_SQRT_2PI * exp(-0.5 * t * t); }

double gauss_cdf(double t) { return 0.5 * erfc(-t / SQRT2); }

double gauss_erfcx(double x)
{
    if (x < 0) /* erfc(x) is in (1, 2): no underflow; past -26, exp(x^2) overflows either way */
        return x > -26.0 ? exp(x * x) * erfc(x) : INFINITY;
    if (x < 25.0)
        return exp(x * x) * erfc(x);
    /* continued fraction: erfcx(x) = 1/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))) */
    double f = x;
    for (int k = 40; k >= 1; k--)
        f = x + (k / 2.0) / f;
    return INV_SQRT_PI / f;
}

double gauss_ppf(double p)
{
    /* P. J. Acklam's rational approximation (relative error < 1.15e-9) ... */
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01,  -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    if (!(p > 0 && p < 1))
        return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
    double x, q, r;
    if (p < 0.02425) {
        q = sqrt(-2 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p > 1 - 0.02425) {
        q = sqrt(-2 * log(1 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else {
        q = p - 0.5;
        r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    /* ... refined by one Halley step against the exact CDF (to about 1e-15). */
    double e = 0.5 * erfc(-x / SQRT2) - p;
    double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

/* v_win(t) = N(t)/Φ(t) = sqrt(2/pi) / erfcx(-t/sqrt2): finite however negative t is. */
double ts_v_win(double t, double a)
{
    double x = t - a;
    return SQRT_2_OVER_PI / gauss_erfcx(-x / SQRT2);
}

void ts_vw_win(double t, double a, double *v, double *w)
{
    *v = ts_v_win(t, a);
    double x = *v * (*v + t - a);
    *w = x < 0 ? 0 : x > 1 ? 1 : x; /* 0 < w < 1 mathematically; clamp rounding */
}

double ts_w_win(double t, double a)
{
    double v, w;
    ts_vw_win(t, a, &v, &w);
    return w;
}

/* For t >= 0 with s = (t-a)/√2, u = (t+a)/√2 and q = exp(s^2 - u^2) = exp(-2ta):
 *   Φ(a-t) - Φ(-a-t) = exp(-s^2)/2 (erfcx(s) - q erfcx(u))
 *   N(-a-t) - N(a-t) = exp(-s^2)/√(2π) (q - 1)
 * The common factor exp(-s^2) cancels, so nothing underflows. v is odd, w even in t. */
static void draw_terms(double t, double a, double *num_v, double *num_w, double *den)
{
    double s = (t - a) / SQRT2, u = (t + a) / SQRT2, q = exp(-2.0 * t * a);
    *den = 0.5 * (gauss_erfcx(s) - q * gauss_erfcx(u));
    *num_v = INV_SQRT_2PI * (q - 1.0);
    *num_w = INV_SQRT_2PI * ((a - t) + (a + t) * q);
}

void ts_vw_draw(double t, double a, double *v, double *w)
{
    double nv, nw, den;
    draw_terms(fabs(t), a, &nv, &nw, &den);
    double x = nv / den, y = x * x + nw / den;
    *v = t < 0 ? -x : x;
    *w = y < 0 ? 0 : y > 1 ? 1 : y;
}

double ts_v_draw(double t, double a)
{
    double v, w;
    ts_vw_draw(t, a, &v, &w);
    return v;
}

double ts_w_draw(double t, double a)
{
    double v, w;
    ts_vw_draw(t, a, &v, &w);
    return w;
}

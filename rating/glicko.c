/* glicko.c — Glicko and Glicko-2 rating periods. */
#include "rating/glicko.h"

#include <math.h>

static const double Q = 0.0057564627324851142; /* ln 10 / 400 */

double glicko_g(double rd) { return 1.0 / sqrt(1.0 + 3.0 * Q * Q * rd * rd / (M_PI * M_PI)); }

double glicko_expected(double r, double rj, double rdj) { return 1.0 / (1.0 + pow(10.0, -glicko_g(rdj) * (r - rj) / 400.0)); }

void glicko_update(double r, double rd, int m, const double *rj, const double *rdj, const double *s, double *r_out,
                   double *rd_out)
{
    if (m == 0) {
        *r_out = r;
        *rd_out = rd;
        return;
    }
    double d2inv = 0, sum = 0;
    for (int j = 0; j < m; j++) {
        double g = glicko_g(rdj[j]), e = glicko_expected(r, rj[j], rdj[j]);
        d2inv += g * g * e * (1 - e);
        sum += g * (s[j] - e);
    }
    d2inv *= Q * Q;
    double denom = 1.0 / (rd * rd) + d2inv;
    *r_out = r + Q / denom * sum;
    *rd_out = sqrt(1.0 / denom);
}

double glicko_grow(double rd, double c, double t, double rd_max)
{
    double x = sqrt(rd * rd + c * c * t);
    return x < rd_max ? x : rd_max;
}

double glicko_win_prob(double rx, double ry, double rdy) { return 1.0 / (pow(10.0, -glicko_g(rdy) * (rx - ry) / 400.0) + 1.0); }

static double g2(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI)); }

int glicko2_update(Glicko2 *p, int m, const Glicko2 *opp, const double *s, double tau, double eps)
{
    const double mu = (p->r - 1500.0) / GLICKO2_SCALE, phi = p->rd / GLICKO2_SCALE, sigma = p->sigma;
    if (m == 0) { /* step 6 only */
        p->rd = GLICKO2_SCALE * sqrt(phi * phi + sigma * sigma);
        return 0;
    }
    double vinv = 0, sum = 0;
    for (int j = 0; j < m; j++) {
        double muj = (opp[j].r - 1500.0) / GLICKO2_SCALE, phij = opp[j].rd / GLICKO2_SCALE;
        double g = g2(phij), e = 1.0 / (1.0 + exp(-g * (mu - muj)));
        vinv += g * g * e * (1 - e);
        sum += g * (s[j] - e);
    }
    const double v = 1.0 / vinv, delta = v * sum;
    /* step 5: the volatility, Illinois regula falsi (2022 text: f(C) f(B) <= 0) */
    const double a = log(sigma * sigma), d2 = delta * delta, p2 = phi * phi;
#define F(x) (exp(x) * (d2 - p2 - v - exp(x)) / (2.0 * (p2 + v + exp(x)) * (p2 + v + exp(x))) - ((x)-a) / (tau * tau))
    double A = a, B;
    if (d2 > p2 + v) {
        B = log(d2 - p2 - v);
    } else {
        int k = 1;
        while (F(a - k * tau) < 0 && k < 1000)
            k++;
        B = a - k * tau;
    }
    double fa = F(A), fb = F(B);
    int it = 0;
    while (fabs(B - A) > eps && it < 100) {
        double C = A + (A - B) * fa / (fb - fa), fc = F(C);
        if (fc * fb <= 0) {
            A = B;
            fa = fb;
        } else {
            fa /= 2;
        }
        B = C;
        fb = fc;
        it++;
    }
#undef F
    const double sigma2 = exp(A / 2);
    const double phistar = sqrt(p2 + sigma2 * sigma2);
    const double phi2 = 1.0 / sqrt(1.0 / (phistar * phistar) + 1.0 / v);
    const double mu2 = mu + phi2 * phi2 * sum;
    p->r = GLICKO2_SCALE * mu2 + 1500.0;
    p->rd = GLICKO2_SCALE * phi2;
    p->sigma = sigma2;
    return it;
}

double glicko2_win_prob(double rx, double ry, double rdy)
{
    double mux = (rx - 1500.0) / GLICKO2_SCALE, muy = (ry - 1500.0) / GLICKO2_SCALE;
    return 1.0 / (1.0 + exp(-g2(rdy / GLICKO2_SCALE) * (mux - muy)));
}

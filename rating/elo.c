/* elo.c — Elo and the Morita multi-player, hand-corrected variant. */
#include "rating/elo.h"

#include <math.h>

double elo_expected(double ra, double rb, double f) { return 1.0 / (1.0 + pow(10.0, (rb - ra) / f)); }

double elo_update(double ra, double rb, double s, double k, double f) { return ra + k * (s - elo_expected(ra, rb, f)); }

double morita_expected(double ra, double rb, double p, int natural_log)
{
    double lo = natural_log ? log(p / (1 - p)) : log10(p / (1 - p));
    return 1.0 / (1.0 + pow(10.0, -((ra - rb) / 400.0 + lo)));
}

double morita_pair_p(double pa, double pb)
{
    double l = 0.5 * (log(pa / (1 - pa)) - log(pb / (1 - pb)));
    return 1.0 / (1.0 + exp(-l));
}

void morita_game(int n, const double *r, const double *rank, const double *p, const float *pij, double k, int natural_log,
                 double *out)
{
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            double s = rank[i] < rank[j] ? 1.0 : rank[i] > rank[j] ? 0.0 : 0.5;
            double q = pij ? (double)pij[i * n + j] : p ? morita_pair_p(p[i], p[j]) : 0.5;
            sum += r[i] + k * (s - morita_expected(r[i], r[j], q, natural_log));
        }
        out[i] = sum / (n - 1);
    }
}

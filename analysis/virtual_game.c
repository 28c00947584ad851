/* virtual_game.c — paper 002's virtual-game experiment (see virtual_game.h). */
#include "analysis/virtual_game.h"

#include <math.h>

#include "rating/elo.h"
#include "rating/methods.h"

const char *vg_dist_name(int d)
{
    static const char *const n[VG_NDIST] = {"none", "gauss", "binary"};
    return d >= 0 && d < VG_NDIST ? n[d] : "?";
}

const char *vg_method_name(int m)
{
    static const char *const n[VG_NMETHOD] = {"elo", "corrected", "corrected+noise"};
    return m >= 0 && m < VG_NMETHOD ? n[m] : "?";
}

static double normal(RRng *r)
{
    double u = rrng_double(r), v = rrng_double(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * M_PI * v);
}

static double draw_p(RRng *r, int dist)
{
    switch (dist) {
    case VG_GAUSS: {
        double p;
        do
            p = 0.5 + 0.25 * normal(r);
        while (!(p > 0 && p < 1));
        return p;
    }
    case VG_BINARY:
        return rrng_double(r) < 0.5 ? 0.1 : 0.9;
    default:
        return 0.5;
    }
}

void vg_run(const VgConfig *cfg, int dist, double *final[VG_NMETHOD])
{
    RRng rng = rrng_seed(cfg->seed * 31 + (uint64_t)dist * 7919 + (uint64_t)cfg->natural_log);
    for (int s = 0; s < cfg->sets; s++) {
        double a[VG_NMETHOD], b[VG_NMETHOD];
        for (int m = 0; m < VG_NMETHOD; m++)
            a[m] = b[m] = 1500;
        for (int g = 0; g < cfg->games; g++) {
            double p = draw_p(&rng, dist);
            double pn = p + cfg->noise * normal(&rng);
            pn = pn < 0.001 ? 0.001 : pn > 0.999 ? 0.999 : pn;
            double win = rrng_double(&rng) < morita_expected(1700, 1300, p, cfg->natural_log) ? 1.0 : 0.0;
            const double pm[VG_NMETHOD] = {0.5, p, pn};
            for (int m = 0; m < VG_NMETHOD; m++) {
                double e = morita_expected(a[m], b[m], pm[m], cfg->natural_log);
                a[m] += cfg->k * (win - e);
                b[m] -= cfg->k * (win - e);
            }
        }
        for (int m = 0; m < VG_NMETHOD; m++)
            final[m][s] = a[m];
    }
}

/* bench_rating.c — rating speed: 1,000,000 sets with STS (the goal is under 5 s on one core),
 * the other set-wise systems on the same sets, and Bradley-Terry with a bootstrap on a
 * paper-sized study (38 players, 1,008 sets). Fixed seeds. */
#include "bench.h"
#include "rating/methods.h"

int main(void)
{
    Results r;
    results_init(&r);
    results_add_random_sets(&r, 38, 1000000, 20, 600, 7);
    RatingParams p;
    rating_params_default(&p);
    char err[256];
    for (int m = M_SE; m <= M_STS; m++) {
        MethodResult out;
        double t0 = bench_now();
        method_run((MethodId)m, &p, &r, &out, NULL, NULL, err, sizeof err);
        double t = bench_now() - t0;
        char name[64];
        snprintf(name, sizeof name, "rate_1000000_sets_%s", method_name((MethodId)m));
        bench_report(name, t, "s");
        bench_keep((unsigned long)out.rating[0]);
        method_result_free(&out);
    }
    results_free(&r);

    results_init(&r);
    results_add_random_sets(&r, 38, 1008, 20, 600, 11);
    for (int m = M_BT; m <= M_PL; m++) {
        MethodResult out;
        double t0 = bench_now();
        method_run((MethodId)m, &p, &r, &out, NULL, NULL, err, sizeof err);
        double t = bench_now() - t0;
        char name[64];
        snprintf(name, sizeof name, "rate_1008_sets_38_players_%s_bootstrap_200", method_name((MethodId)m));
        bench_report(name, t, "s");
        method_result_free(&out);
    }
    results_free(&r);
    return 0;
}

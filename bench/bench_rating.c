/* bench_rating.c — rating speed: 1,000,000 sets with STS (the goal is under 5 s on one core),
 * the other set-wise systems on the same sets, and Bradley-Terry with a bootstrap on a
 * paper-sized study (38 players, 1,008 sets). Fixed seeds. */
#include "bench.h"
#include "rating/methods.h"

/* Times method m on r and reports it as `prefix` + the method's name + `suffix`. */
static void time_method(MethodId m, const RatingParams *p, const Results *r, const char *prefix, const char *suffix)
{
    MethodResult out;
    char err[256], name[96];
    double t0 = bench_now();
    method_run(m, p, r, &out, NULL, NULL, err, sizeof err);
    double t = bench_now() - t0;
    snprintf(name, sizeof name, "%s%s%s", prefix, method_name(m), suffix);
    bench_report(name, t, "s");
    bench_keep((unsigned long)out.rating[0]);
    method_result_free(&out);
}

int main(void)
{
    RatingParams p;
    rating_params_default(&p);
    Results r;
    results_init(&r);
    results_add_random_sets(&r, 38, 1000000, 20, 600, 7);
    for (int m = M_SE; m <= M_STS; m++)
        time_method((MethodId)m, &p, &r, "rate_1000000_sets_", "");
    results_free(&r);

    results_init(&r);
    results_add_random_sets(&r, 38, 1008, 20, 600, 11);
    for (int m = M_BT; m <= M_PL; m++)
        time_method((MethodId)m, &p, &r, "rate_1008_sets_38_players_", "_bootstrap_200");
    results_free(&r);
    return 0;
}

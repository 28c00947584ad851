/* fuzz_results.c — libFuzzer target for the results CSV reader (`dhm rate FILE.csv`): any
 * bytes as a file; what it accepts is sorted and rated (TrueSkill set-wise or game-wise Elo,
 * and Bradley-Terry without bootstrap), so the loader's output is also exercised. */
#include <stdint.h>
#include <stdio.h>

#include "rating/eval.h"
#include "rating/methods.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    Results r;
    results_init(&r);
    char err[512];
    if (results_load_csv(&r, f, "fuzz", err, sizeof err) == 0 && r.nplayers <= 64) {
        results_sort_sets(&r);
        RatingParams p;
        rating_params_default(&p);
        p.bootstrap = 0;
        const MethodId ms[3] = {M_STS, M_ELO_GAME, M_BT};
        for (int i = 0; i < 3; i++) {
            MethodResult m;
            if (method_run(ms[i], &p, &r, &m, NULL, NULL, err, sizeof err) == 0) {
                H2H h;
                if (h2h_build(&r, &h) == 0)
                    eval_mse(&h, &m, NULL);
                h2h_free(&h);
            }
            method_result_free(&m);
        }
    }
    results_free(&r);
    fclose(f);
    return 0;
}

/* exp_ratingstudy.c — `dhm experiment rating-study`: paper 000's design in one command. A pool
 * of dhm players of graded strength plays sets of five drawn at random; the sets are rated by
 * the set-wise method with Elo, Glicko, Glicko-2 and TrueSkill inside, averaged and sequential;
 * the paper's Table 3 (the mean squared error of the predicted head-to-head win rates), the
 * ratings with the cross table and transitivity; and, with --report, the HTML report. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena/pool.h"
#include "cli/cli.h"
#include "rating/eval.h"
#include "report/experiments.h"

static const char DEFAULT_POOL[] = "random      random\n"
                                   "simple      simple\n"
                                   "pol-t3      policy:temp=3\n"
                                   "policy      policy\n"
                                   "mc30s       mc:sims=30:playout=simple\n"
                                   "mc100s      mc:sims=100:playout=simple\n"
                                   "mc30        mc:sims=30\n"
                                   "mc100-root  mc:sims=100:bandit=ucb-root\n"
                                   "mc100       mc:sims=100\n";

static void usage(FILE *f)
{
    fprintf(f, "usage: dhm experiment rating-study [options]\n"
               "Paper 000's design: a pool of dhm players of graded strength (nine by default: random,\n"
               "simple, the policy at temperature 3 and 1, mc at two budgets with simple and policy\n"
               "playouts and two bandits) plays sets of five drawn at random; the sets are rated by the\n"
               "set-wise method with Elo (se), Glicko (sg), Glicko-2 (sg2) and TrueSkill (sts) inside, each\n"
               "with the four results of a set averaged and applied one after another (sequential).\n"
               "Prints the paper's Table 3 (the mean squared error of the predicted head-to-head win\n"
               "rates, over the pairs that met), the ratings with the cross table and transitivity, and\n"
               "with --report the HTML report of the run. The paper's scale: --sets 1008 --set-games 10000.\n\n"
               "  --pool FILE        the players (default: the nine above)\n"
               "  --sets S           sets (200)\n"
               "  --set-games G      games per set (50)\n"
               "  --db FILE          keep the store (default: a temporary file)\n"
               "  --report FILE      also write the HTML report (dhm report) of the run\n"
               "  --seed S           (1)\n"
               "  --jobs J           threads (2)\n"
               "  --csv              Table 3 as CSV instead of the tables\n"
               "  --quiet            no progress line\n");
}

int exp_rating_study(int argc, char **argv)
{
    enum { O_POOL = 1000, O_SETS, O_SETG, O_DB, O_REPORT, O_SEED, O_JOBS, O_CSV, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"pool", required_argument, 0, O_POOL},     {"sets", required_argument, 0, O_SETS},
        {"set-games", required_argument, 0, O_SETG}, {"db", required_argument, 0, O_DB},
        {"report", required_argument, 0, O_REPORT}, {"seed", required_argument, 0, O_SEED},
        {"jobs", required_argument, 0, O_JOBS},     {"csv", no_argument, 0, O_CSV},
        {"quiet", no_argument, 0, O_QUIET},         {"help", no_argument, 0, O_HELP},
        {0, 0, 0, 0}};
    const char *cmd = "experiment rating-study", *pool_path = NULL, *report = NULL;
    long sets = 200, set_games = 50, jobs = 2;
    uint64_t seed = 1;
    int csv = 0, quiet = 0, c;
    ExpStore es = {NULL, "", NULL};
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_POOL: pool_path = optarg; break;
        case O_SETS: if (cli_long(cmd, "--sets", optarg, 1, 10000000, &sets)) return 2; break;
        case O_SETG: if (cli_long(cmd, "--set-games", optarg, 1, 1000000, &set_games)) return 2; break;
        case O_DB: es.path = optarg; break;
        case O_REPORT: report = optarg; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &jobs)) return 2; break;
        case O_CSV: csv = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    char err[512];
    Pool pool;
    if (exp_pool(cmd, pool_path, DEFAULT_POOL, &pool))
        return 2;
    int rc = exp_tournament(cmd, &pool, sets, (int)set_games, seed, (int)jobs, &es, quiet);
    if (es.st)
        store_close(es.st);
    es.st = NULL;
    Results res;
    results_init(&res);
    long left = 0;
    if (!rc)
        rc = rate_load_db(cmd, es.path, 0, 0, 0, &res, &left);
    static const MethodId M[4] = {M_SE, M_SG, M_SG2, M_STS};
    double mse[2][4];
    long pairs = 0;
    H2H h;
    memset(&h, 0, sizeof h);
    if (!rc) {
        results_sort_sets(&res);
        if (h2h_build(&res, &h))
            rc = cli_error(cmd, "out of memory");
    }
    for (int seq = 0; !rc && seq < 2; seq++)
        for (int k = 0; !rc && k < 4; k++) {
            RatingParams prm;
            rating_params_default(&prm);
            prm.sequential = seq;
            MethodResult mr;
            memset(&mr, 0, sizeof mr);
            if (method_run(M[k], &prm, &res, &mr, NULL, NULL, err, sizeof err))
                rc = cli_error(cmd, "%s", err);
            else
                mse[seq][k] = eval_mse(&h, &mr, &pairs);
            method_result_free(&mr);
        }
    if (!rc) {
        const char *names[4];
        for (int k = 0; k < 4; k++)
            names[k] = method_name(M[k]);
        report_rating_study(stdout, pool.n, sets, set_games, seed, names, mse[0], mse[1], 4, pairs, csv);
        if (!csv) {
            RateOpts ro;
            rate_opts_default(&ro);
            ro.methods = "se,sg,sg2,sts";
            ro.top = pool.n;
            ro.cross = ro.trans = 1;
            ro.left_out = left;
            rc = rate_results(cmd, &res, &ro);
        }
    }
    if (!rc && report) {
        char *rargv[] = {"report", "--db", (char *)es.path, "-o", (char *)report, "--method", "se,sg,sg2,sts,bt", NULL};
        rc = cmd_report(7, rargv);
    }
    h2h_free(&h);
    results_free(&res);
    pool_free(&pool);
    exp_store_done(&es);
    return rc;
}

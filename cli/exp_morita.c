/* exp_morita.c — `dhm experiment morita`: paper 002 §5 on dhm's own pool. Nine players of
 * graded strength play sets of five drawn at random (30 games a set, 2,000 sets); every game's
 * initial-hand win rates come from perfect-information playouts (analysis/handstrength.h);
 * the same games are rated by plain game-wise Elo, the hand-corrected method, STS and BT side
 * by side (dhm rate's table), and every game-wise predictor is scored on held-out games: the
 * ratings of the first games predict each pair's order in the last ones. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/handstrength.h"
#include "arena/pool.h"
#include "cli/cli.h"
#include "rating/elo.h"
#include "report/emit.h"
#include "report/experiments.h"

/* Graded strength, weakest first. */
static const char DEFAULT_POOL[] = "random    random\n"
                                   "pol-t3    policy:temp=3\n"
                                   "simple    simple\n"
                                   "pol-t1    policy:temp=1\n"
                                   "mc30s     mc:sims=30:playout=simple\n"
                                   "policy    policy\n"
                                   "mc100s    mc:sims=100:playout=simple\n"
                                   "mc30      mc:sims=30\n"
                                   "mc100     mc:sims=100\n";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm experiment morita [options]\n"
            "Paper 002 section 5 on dhm's own pool: nine players of graded strength (random, noisy\n"
            "policies, simple, the policy, mc at two budgets with two playout policies) play sets of\n"
            "five drawn at random, with records. Every game's initial-hand win rates p_ij come from\n"
            "perfect-information playouts after the exchange (dhm handstrength). The same games are\n"
            "rated by plain game-wise Elo (elo-game), the hand-corrected method (morita), STS and BT,\n"
            "side by side; then ratings made from the first games predict each pair's order in the\n"
            "last --holdout share of games: log-loss and Brier per pair for a coin, the hands alone\n"
            "(p_ij), elo-game, morita (f_ij(p)), BT on games, and BT on games corrected by p_ij.\n\n"
            "  --pool FILE        the players (pool file format; default: the nine above)\n"
            "  --sets S           sets (2000)\n"
            "  --set-games G      games per set (30)\n"
            "  --playouts K       playouts per game for p (10000)\n"
            "  --playout P        their policy: simple (default), random or policy\n"
            "  --holdout F        share of the games held out for prediction (0.2)\n"
            "  --db FILE          keep the store here (default: a temporary file)\n"
            "  --seed S           (1)\n"
            "  --jobs J           threads (2)\n"
            "  --csv              the tables as CSV instead\n"
            "  --out FILE         write the output to FILE\n"
            "  --quiet            no progress lines\n");
}

enum { PR_COIN, PR_HAND, PR_ELO, PR_MORITA, PR_BT, PR_BT_HAND, PR_COUNT };
static const char *const PR_NAME[PR_COUNT] = {"coin (0.5)", "hands alone (p_ij)", "elo-game", "morita (f_ij(p))",
                                              "bt on games", "bt on games + p_ij"};
static const char *const PR_KEY[PR_COUNT] = {"coin", "hand", "elo-game", "morita", "bt", "bt+hand"};

typedef struct Score {
    double ll, ll2, br, br2; /* per test game: mean over its pairs; sums and squares */
    long games;
} Score;

static double clampp(double p) { return p < 1e-9 ? 1e-9 : p > 1 - 1e-9 ? 1 - 1e-9 : p; }

/* Rates the first `cut` games with elo-game, morita and BT on games and scores the predictors
 * on the rest. */
static int heldout(const char *cmd, const Results *res, long cut, Score sc[PR_COUNT])
{
    char err[512];
    Results tr;
    results_init(&tr);
    int rc = 0;
    for (int i = 0; i < res->nplayers && !rc; i++)
        rc = results_player(&tr, res->names[i]) != i;
    for (long k = 0; k < cut && !rc; k++) {
        const RGame *g = &res->games[k];
        double pij[GAME_MAX_SEATS * GAME_MAX_SEATS];
        for (int q = 0; q < g->n * g->n; q++)
            pij[q] = res->pair[g->pair + q];
        rc = results_add_game_pairs(&tr, g->n, g->player, g->rank, pij);
    }
    if (rc) {
        results_free(&tr);
        return cli_error(cmd, "out of memory");
    }
    RatingParams prm;
    rating_params_default(&prm);
    prm.bootstrap = 0;
    MethodResult m[3];
    memset(m, 0, sizeof m);
    const MethodId ids[3] = {M_ELO_GAME, M_MORITA, M_BT};
    for (int k = 0; k < 3 && !rc; k++)
        if (method_run(ids[k], &prm, &tr, &m[k], NULL, NULL, err, sizeof err))
            rc = cli_error(cmd, "%s", err);
    memset(sc, 0, PR_COUNT * sizeof *sc);
    for (long k = cut; k < res->ngames && !rc; k++) {
        const RGame *g = &res->games[k];
        double ll[PR_COUNT] = {0}, br[PR_COUNT] = {0};
        int pairs = 0;
        for (int i = 0; i < g->n; i++)
            for (int j = i + 1; j < g->n; j++) {
                if (g->rank[i] == g->rank[j])
                    continue;
                const int a = g->player[i], b = g->player[j];
                const double y = g->rank[i] < g->rank[j], p = res->pair[g->pair + i * g->n + j];
                /* a player without a training game gets the initial rating */
                double ea = m[0].count[a] ? m[0].rating[a] : prm.init, eb = m[0].count[b] ? m[0].rating[b] : prm.init;
                double ma = m[1].count[a] ? m[1].rating[a] : prm.init, mb = m[1].count[b] ? m[1].rating[b] : prm.init;
                double ba = isnan(m[2].rating[a]) ? prm.init : m[2].rating[a];
                double bb = isnan(m[2].rating[b]) ? prm.init : m[2].rating[b];
                double q[PR_COUNT] = {0.5,
                                      p,
                                      elo_expected(ea, eb, 400),
                                      morita_expected(ma, mb, p, 0),
                                      elo_expected(ba, bb, 400),
                                      morita_expected(ba, bb, p, 0)};
                for (int r = 0; r < PR_COUNT; r++) {
                    double c = clampp(q[r]);
                    ll[r] -= y ? log(c) : log(1 - c);
                    br[r] += (q[r] - y) * (q[r] - y);
                }
                pairs++;
            }
        if (!pairs)
            continue;
        for (int r = 0; r < PR_COUNT; r++) {
            double l = ll[r] / pairs, b = br[r] / pairs;
            sc[r].ll += l;
            sc[r].ll2 += l * l;
            sc[r].br += b;
            sc[r].br2 += b * b;
            sc[r].games++;
        }
    }
    for (int k = 0; k < 3; k++)
        method_result_free(&m[k]);
    results_free(&tr);
    return rc;
}

static double mean_se(double s, double s2, long n, double *se)
{
    double m = n ? s / n : NAN;
    *se = n > 1 ? sqrt(fmax(0, (s2 - n * m * m) / (n - 1)) / n) : NAN;
    return m;
}

int exp_morita(int argc, char **argv)
{
    enum { O_POOL = 1000, O_SETS, O_SETG, O_PLAYOUTS, O_PLAYOUT, O_HOLD, O_DB, O_SEED, O_JOBS, O_CSV, O_OUT, O_QUIET,
           O_HELP };
    static const struct option opts[] = {
        {"pool", required_argument, 0, O_POOL},         {"sets", required_argument, 0, O_SETS},
        {"set-games", required_argument, 0, O_SETG},    {"playouts", required_argument, 0, O_PLAYOUTS},
        {"playout", required_argument, 0, O_PLAYOUT},   {"holdout", required_argument, 0, O_HOLD},
        {"db", required_argument, 0, O_DB},             {"seed", required_argument, 0, O_SEED},
        {"jobs", required_argument, 0, O_JOBS},         {"csv", no_argument, 0, O_CSV},
        {"out", required_argument, 0, O_OUT},           {"quiet", no_argument, 0, O_QUIET},
        {"help", no_argument, 0, O_HELP},               {0, 0, 0, 0}};
    const char *cmd = "experiment morita";
    const char *pool_path = NULL, *out = NULL;
    long sets = 2000, set_games = 30, jobs = 2, playouts = 10000;
    double hold = 0.2;
    int policy = HAND_SIMPLE, csv = 0, quiet = 0, c;
    CsvParts parts;
    csv_parts_begin(&parts, stdout);
    uint64_t seed = 1;
    ExpStore es = {NULL, "", NULL};
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_POOL: pool_path = optarg; break;
        case O_SETS: if (cli_long(cmd, "--sets", optarg, 1, 10000000, &sets)) return 2; break;
        case O_SETG: if (cli_long(cmd, "--set-games", optarg, 1, 100000, &set_games)) return 2; break;
        case O_PLAYOUTS: if (cli_long(cmd, "--playouts", optarg, 1, 10000000, &playouts)) return 2; break;
        case O_PLAYOUT:
            if ((policy = hand_policy_parse(optarg)) < 0)
                return cli_fail(cmd, "--playout: simple, random or policy, not '%s'", optarg);
            break;
        case O_HOLD: if (cli_double(cmd, "--holdout", optarg, 0.01, 0.9, &hold)) return 2; break;
        case O_DB: es.path = optarg; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &jobs)) return 2; break;
        case O_CSV: csv = 1; break;
        case O_OUT: out = optarg; break;
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
    HandRun hr;
    memset(&hr, 0, sizeof hr);
    hr.hc = (HandConfig){(int)playouts, policy, 0.1, 1, NULL};
    if (policy == HAND_POLICY && !(hr.hc.w = policy_builtin(err, sizeof err))) {
        pool_free(&pool);
        return cli_error(cmd, "%s", err);
    }
    if (out && !freopen(out, "w", stdout)) {
        pool_free(&pool);
        return cli_error(cmd, "cannot write %s: %m", out);
    }
    double t0 = cli_now();
    /* 1. the games */
    int rc = exp_tournament(cmd, &pool, sets, (int)set_games, seed, (int)jobs, &es, quiet);
    double t1 = cli_now();
    /* 2. their initial-hand win rates */
    HandRunOut ho;
    memset(&ho, 0, sizeof ho);
    Progress ph;
    progress_init(&ph, "experiment morita hands:", 1, !quiet);
    hr.seed = seed;
    hr.jobs = (int)jobs;
    hr.progress = handstrength_progress;
    hr.progress_ctx = &ph;
    if (!rc && hand_run_store(es.st, &hr, &ho, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    progress_done(&ph);
    HandSummary hs;
    memset(&hs, 0, sizeof hs);
    if (!rc && hand_summary_store(es.st, pool.n, 0, &hs, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    if (es.st)
        store_close(es.st);
    es.st = NULL;
    double t2 = cli_now();
    /* 3. the same games rated four ways */
    Results res;
    results_init(&res);
    long left = 0;
    if (!rc)
        rc = rate_load_db(cmd, es.path, 0, 1, 0, &res, &left);
    if (!rc && !res.has_p)
        rc = cli_error(cmd, "the games have no initial-hand win rates");
    if (!rc) {
        char desc[64];
        hand_describe(&hr.hc, desc, sizeof desc);
        MoritaHeader mh = {pool.n, sets, set_games, seed, playouts, desc, hs.pairs > 0 ? hs.brier / hs.pairs : NAN,
                           t1 - t0, t2 - t1, ho.games_done ? 1000 * ho.cpu_s / ho.games_done : 0.0};
        report_morita_header(stdout, &mh, csv);
        RateOpts ro;
        rate_opts_default(&ro);
        if (csv) /* one CSV table: the ratings, the held-out predictions stacked under them */
            ro.out = csv_part(&parts, "ratings");
        ro.methods = "elo-game,morita,sts,bt";
        ro.top = pool.n;
        ro.csv = csv;
        ro.left_out = left;
        rc = rate_results(cmd, &res, &ro);
    }
    /* 4. prediction of held-out games */
    Score sc[PR_COUNT];
    long cut = (long)floor((1 - hold) * (double)res.ngames);
    if (!rc)
        rc = heldout(cmd, &res, cut, sc);
    if (!rc) {
        HeldoutRow rows[PR_COUNT];
        for (int r = 0; r < PR_COUNT; r++) {
            rows[r].name = PR_NAME[r];
            rows[r].key = PR_KEY[r];
            rows[r].games = sc[r].games;
            rows[r].logloss = mean_se(sc[r].ll, sc[r].ll2, sc[r].games, &rows[r].logloss_se);
            rows[r].brier = mean_se(sc[r].br, sc[r].br2, sc[r].games, &rows[r].brier_se);
        }
        report_heldout(csv ? csv_part(&parts, "heldout") : stdout, rows, PR_COUNT, res.ngames - cut, cut, hold, csv);
    }
    if (csv)
        csv_parts_end(&parts);
    hand_summary_free(&hs);
    results_free(&res);
    pool_free(&pool);
    exp_store_done(&es);
    return rc;
}

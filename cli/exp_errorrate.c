/* exp_errorrate.c — `dhm experiment errorrate`: paper 004 §5 on Daihinmin. A pool of players
 * of graded strength plays a tournament (sets of five drawn at random, with records) into a
 * store; each player's long-run strength R_p is its Bradley-Terry rating over every set; the
 * first games of every player are judged by the error rate; then, for chunks of n games, the
 * correlation and determination of the n-game error rate, mean rank and mean points against
 * R_p (analysis/errstudy.h). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/errorrate.h"
#include "analysis/errstudy.h"
#include "arena/tournament.h"
#include "cli/cli.h"
#include "report/experiments.h"

/* Graded strength, weakest first: names and specs. */
static const char DEFAULT_POOL[] = "random    random\n"
                                   "pol-t3    policy:temp=3\n"
                                   "simple    simple\n"
                                   "pol-t1    policy:temp=1\n"
                                   "mc30s     mc:sims=30:playout=simple\n"
                                   "mc100s    mc:sims=100:playout=simple\n"
                                   "policy    policy\n"
                                   "mc300s    mc:sims=300:playout=simple\n"
                                   "mc100     mc:sims=100\n"
                                   "mc1000    mc:sims=1000\n";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm experiment errorrate [options]\n"
            "Paper 004 §5 on Daihinmin: does a few games' error rate predict long-run strength better\n"
            "than their mean rank? A pool of players of graded strength (ten by default: random,\n"
            "noisy policies, simple, mc at several budgets and playouts, the policy) plays sets of five\n"
            "drawn at random, with records. R_p = each player's Bradley-Terry rating over every set\n"
            "(--games-per-player games each). The first --judge-games games of every player are judged\n"
            "(dhm errorrate); for n = 1, 2, 4, ..., 128 and --judge-games, each player's games are cut\n"
            "into chunks of n, and the tables give the correlation r of the chunks' error rate, mean\n"
            "rank and mean points with R_p (eq. 10, standard error (1 - r^2)/sqrt(M)) and the\n"
            "coefficient of determination (eq. 11) of a linear f fitted on all judged games.\n\n"
            "  --pool FILE            the players (pool file format; default: the ten above)\n"
            "  --games-per-player N   games per player for R_p (2000)\n"
            "  --set-games G          games per set (100)\n"
            "  --judge-games N        games judged per player (500)\n"
            "  --worlds W             paired worlds per judged decision (30)\n"
            "  --evaluator SPEC       the mc player that judges (mc)\n"
            "  --db FILE              keep the tournament's store here (default: a temporary file)\n"
            "  --seed S               (1)\n"
            "  --jobs J               threads (2)\n"
            "  --csv                  the tables as CSV instead\n"
            "  --out FILE             write the output to FILE\n"
            "  --quiet                no progress lines\n");
}

typedef struct Counts {
    int n;
    long *games;   /* per player: games so far */
    long want, sets_needed, sets;
    int done;
} Counts;

/* The shortest prefix of the stored sets in which every player has `want` games. */
static int count_set(void *ctx, const StoredSet *x)
{
    Counts *c = ctx;
    c->sets++;
    if (c->done)
        return 0;
    for (int p = 0; p < NPLAYERS; p++)
        c->games[x->player[p]] += x->games;
    int all = 1;
    for (int i = 0; i < c->n; i++)
        all &= c->games[i] >= c->want;
    if (all) {
        c->done = 1;
        c->sets_needed = c->sets;
    }
    return 0;
}

typedef struct SetLoad {
    Results *res;
    long seq;
} SetLoad;

static int load_set(void *ctx, const StoredSet *x)
{
    SetLoad *l = ctx;
    double pts[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        pts[p] = (double)x->total[p];
    return results_add_set(l->res, (double)l->seq++, x->player, pts);
}

static void err_progress(void *ctx, long done, long total)
{
    Progress *p = ctx;
    p->total = total;
    progress_update(p, done, " games judged");
}

int exp_errorrate(int argc, char **argv)
{
    enum { O_POOL = 1000, O_GPP, O_SETG, O_JUDGE, O_WORLDS, O_EVAL, O_DB, O_SEED, O_JOBS, O_CSV, O_OUT, O_QUIET,
           O_HELP };
    static const struct option opts[] = {
        {"pool", required_argument, 0, O_POOL},      {"games-per-player", required_argument, 0, O_GPP},
        {"set-games", required_argument, 0, O_SETG}, {"judge-games", required_argument, 0, O_JUDGE},
        {"worlds", required_argument, 0, O_WORLDS},  {"evaluator", required_argument, 0, O_EVAL},
        {"db", required_argument, 0, O_DB},          {"seed", required_argument, 0, O_SEED},
        {"jobs", required_argument, 0, O_JOBS},      {"csv", no_argument, 0, O_CSV},
        {"out", required_argument, 0, O_OUT},        {"quiet", no_argument, 0, O_QUIET},
        {"help", no_argument, 0, O_HELP},            {0, 0, 0, 0}};
    const char *cmd = "experiment errorrate";
    const char *pool_path = NULL, *db = NULL, *evaluator = "mc", *out = NULL;
    long gpp = 2000, set_games = 100, judge = 500, worlds = 30, jobs = 2;
    uint64_t seed = 1;
    int csv = 0, quiet = 0, c;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_POOL: pool_path = optarg; break;
        case O_GPP: if (cli_long(cmd, "--games-per-player", optarg, 1, 100000000, &gpp)) return 2; break;
        case O_SETG: if (cli_long(cmd, "--set-games", optarg, 1, 1000000, &set_games)) return 2; break;
        case O_JUDGE: if (cli_long(cmd, "--judge-games", optarg, 1, 1000000, &judge)) return 2; break;
        case O_WORLDS: if (cli_long(cmd, "--worlds", optarg, 1, 2048, &worlds)) return 2; break;
        case O_EVAL: evaluator = optarg; break;
        case O_DB: db = optarg; break;
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
    if (judge > gpp)
        return cli_fail(cmd, "--judge-games %ld is more than --games-per-player %ld", judge, gpp);
    char err[512];
    Pool pool;
    if (exp_pool(cmd, pool_path, DEFAULT_POOL, &pool))
        return 2;
    /* 1. the tournament */
    ExpStore es = {db, "", NULL};
    long nsets = (gpp * pool.n + NPLAYERS * set_games - 1) / (NPLAYERS * set_games);
    int rc = exp_tournament(cmd, &pool, nsets, (int)set_games, seed, (int)jobs, &es, quiet);
    Store *st = es.st;
    /* 2. R_p: Bradley-Terry over every set */
    Results res;
    results_init(&res);
    for (int i = 0; !rc && i < pool.n; i++)
        results_player(&res, pool.e[i].name);
    SetLoad sl = {&res, 0};
    if (!rc && store_each_set(st, 0, load_set, &sl, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    MethodResult bt;
    memset(&bt, 0, sizeof bt);
    RatingParams prm;
    rating_params_default(&prm);
    prm.bootstrap = 0;
    if (!rc && method_run(M_BT, &prm, &res, &bt, NULL, NULL, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    /* 3. how many of the first sets give every player its judged games */
    Counts cnt = {pool.n, calloc((size_t)pool.n, sizeof(long)), judge, 0, 0, 0};
    if (!rc && (!cnt.games || store_each_set(st, 0, count_set, &cnt, err, sizeof err)))
        rc = cli_error(cmd, "%s", cnt.games ? err : "out of memory");
    if (!rc && !cnt.done)
        cnt.sets_needed = cnt.sets; /* too few games: judge them all, fewer than asked */
    if (es.st)
        store_close(es.st);
    es.st = NULL;
    /* 4. the error rates of those games */
    ErrConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.evaluator = evaluator;
    ec.worlds = (int)worlds;
    ec.seed = seed;
    ec.jobs = (int)jobs;
    ec.max_games = cnt.sets_needed * set_games;
    ec.bootstrap = 0;
    ec.confidence = 0.95;
    Progress pe;
    progress_init(&pe, "errorrate judging:", ec.max_games, !quiet);
    ec.progress = err_progress;
    ec.progress_ctx = &pe;
    const char *dbs[1] = {es.path};
    GameSource src = {NULL, 0, dbs, 1, 0};
    ErrResult er;
    memset(&er, 0, sizeof er);
    if (!rc && errorrate_run(&ec, &src, &er, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    progress_done(&pe);
    FILE *o = out && !rc ? fopen(out, "w") : stdout;
    if (!o)
        rc = cli_error(cmd, "cannot write %s: %m", out);
    if (!rc) {
        /* 5. the tables */
        EsPlayer *ep = calloc((size_t)er.n, sizeof *ep);
        int np = 0;
        for (int i = 0; ep && i < er.n; i++) {
            int k = results_find(&res, er.p[i].name);
            if (k < 0 || isnan(bt.rating[k]))
                continue;
            long n = er.p[i].ngame < judge ? er.p[i].ngame : judge;
            ep[np++] = (EsPlayer){bt.rating[k], n, er.p[i].game_loss, er.p[i].game_judged, er.p[i].game_rank};
        }
        EsFit fit;
        errstudy_fit(ep, np, &fit);
        int ns[16], nn = 0;
        for (int n = 1; n <= 128 && n < judge; n *= 2)
            ns[nn++] = n;
        ns[nn++] = (int)judge;
        EsRow rows[16];
        for (int k = 0; k < nn; k++)
            errstudy_row(ep, np, ns[k], &fit, &rows[k]);
        const char **names = malloc((size_t)(np ? np : 1) * sizeof *names);
        for (int i = 0; names && i < np; i++)
            names[i] = er.p[i].name;
        ErrStudyReport r = {seed, np, names, ep, &fit, rows, nn, cnt.sets, set_games, gpp, judge, evaluator, worlds};
        if (names)
            report_errstudy(o, &r, csv);
        free(names);
        free(ep);
        if (out && fclose(o))
            rc = cli_error(cmd, "error writing %s", out);
    }
    errorrate_free(&er);
    method_result_free(&bt);
    results_free(&res);
    free(cnt.games);
    pool_free(&pool);
    exp_store_done(&es);
    return rc;
}

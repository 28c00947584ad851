/* exp_errorrate.c — `dhm experiment errorrate`: paper 004 §5 on Daihinmin, over several seeds.
 * For each seed a pool of players of graded strength plays one tournament (sets of five drawn at
 * random, with records) into a store. Its first sets, until every player has --judge-games
 * games, are judged by the error rate; each player's strength R_p is its Bradley-Terry rating
 * over the remaining sets only (held-out games, never judged). For chunks of n judged games the
 * correlation and determination of the n-game error rate, mean rank and mean points against R_p
 * (analysis/errstudy.h). Across seeds: the mean r with a t-interval and the n-equivalence with
 * a distribution-free interval. The evaluator's margin over the strongest judged player is
 * measured by letting it play as it judges (analysis/judge_player.h). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/errorrate.h"
#include "analysis/errstudy.h"
#include "analysis/judge_player.h"
#include "arena/tournament.h"
#include "cli/cli.h"
#include "players/players.h"
#include "report/experiments.h"

/* Graded strength, weakest first: names and specs. The strongest, mc30, is clearly weaker than
 * the default evaluator playing as it judges (docs/analysis.md: mc with 200 paired worlds scored
 * 3.48 +- 0.21 points a game against four mc30); mc at 100 or 1,000 simulations would not be
 * (the evaluator at 100 worlds scored 3.03 +- 0.19 against four mc100, and more simulations do not
 * make mc stronger: mc:sims=3000 scores 2.98 against four mc). */
static const char DEFAULT_POOL[] = "random    random\n"
                                   "simple    simple\n"
                                   "mc30s     mc:sims=30:playout=simple\n"
                                   "mc100s    mc:sims=100:playout=simple\n"
                                   "pol-t3    policy:temp=3\n"
                                   "mc300s    mc:sims=300:playout=simple\n"
                                   "policy    policy\n"
                                   "pol-t1    policy:temp=1\n"
                                   "mc30      mc:sims=30\n";

/* --narrow: six players within about 600 Elo of each other (dhm's BT ratings, docs/analysis.md). */
static const char NARROW_POOL[] = "mc100s    mc:sims=100:playout=simple\n"
                                  "pol-t3    policy:temp=3\n"
                                  "mc300s    mc:sims=300:playout=simple\n"
                                  "policy    policy\n"
                                  "pol-t1    policy:temp=1\n"
                                  "mc30      mc:sims=30\n";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm experiment errorrate [options]\n"
            "Paper 004 §5 on Daihinmin: does a few games' error rate predict long-run strength better\n"
            "than their mean rank? For each of --seeds seeds, a pool of players of graded strength (nine by\n"
            "default: random, simple, mc with simple playouts at 30, 100 and 300 simulations, the policy at\n"
            "temperature 3, 1 and its own, mc at 30 simulations: all weaker than the evaluator) plays\n"
            "one tournament of sets of five drawn at random, with records. Its first sets, until every\n"
            "player has --judge-games games, are judged (dhm errorrate). R_p = each player's Bradley-Terry\n"
            "rating over the remaining sets only (about --games-per-player held-out games each, never\n"
            "judged). For n = 1, 2, 4, ..., 128 and --judge-games, each player's judged games are cut into\n"
            "chunks of n; the tables give the correlation r of the chunks' error rate, mean rank and mean\n"
            "points with R_p (eq. 10, standard error (1 - r^2)/sqrt(M)) and the determination R^2 (eq. 11)\n"
            "of a linear f fitted on all judged games. The n-equivalence: the n at which the error rate's\n"
            "|r| reaches mean rank's |r| at --judge-games games, per seed, with its median over seeds.\n"
            "The evaluator's margin: it plays as it judges (every legal choice valued in --worlds paired\n"
            "worlds, the best played) against four copies of the strongest judged player.\n\n"
            "  --pool FILE            the players (pool file format; default: the nine above)\n"
            "  --narrow               six close players instead (mc100s, pol-t3, mc300s, policy, pol-t1, mc30)\n"
            "  --seeds K              independent replications, seeds S, S+1, ..., S+K-1 (5)\n"
            "  --seed S               the first seed (1)\n"
            "  --games-per-player N   held-out games per player for R_p (2000)\n"
            "  --set-games G          games per set (100)\n"
            "  --judge-games N        games judged per player (500)\n"
            "  --worlds W             paired worlds per judged decision (200)\n"
            "  --evaluator SPEC       the mc player that judges (mc: 1,000-simulation settings, policy\n"
            "                         playouts, sure wins, exact endgames; its sims do not matter here)\n"
            "  --margin-matches M     matches for the evaluator's margin; 0: not measured (10)\n"
            "  --margin-games G       games per margin match (100)\n"
            "  --margin-opponent NAME the pool player the margin is measured against (default: the\n"
            "                         strongest judged player by R_p at the first seed)\n"
            "  --db FILE              keep the tournament's store here (only with --seeds 1)\n"
            "  --jobs J               threads (2)\n"
            "  --csv                  the tables as CSV instead\n"
            "  --out FILE             write the output to FILE\n"
            "  --quiet                no progress lines\n");
}

typedef struct Counts {
    int n;
    long *games;   /* per player: games so far (in the judged prefix) */
    long *held;    /* per player: games after the prefix */
    long want, sets_needed, sets;
    int done;
} Counts;

/* The shortest prefix of the stored sets in which every player has `want` games; the games of
 * every player after it. */
static int count_set(void *ctx, const StoredSet *x)
{
    Counts *c = ctx;
    c->sets++;
    if (c->done) {
        for (int p = 0; p < NPLAYERS; p++)
            c->held[x->player[p]] += x->games;
        return 0;
    }
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
    long seq, skip; /* sets seen; the judged prefix, left out */
} SetLoad;

static int load_set(void *ctx, const StoredSet *x)
{
    SetLoad *l = ctx;
    if (l->seq++ < l->skip)
        return 0;
    double pts[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        pts[p] = (double)x->total[p];
    return results_add_set(l->res, (double)l->seq, x->player, pts);
}

static void err_progress(void *ctx, long done, long total)
{
    Progress *p = ctx;
    p->total = total;
    progress_update(p, done, " games judged");
}

static void margin_progress(void *ctx, long done, long total)
{
    Progress *p = ctx;
    p->total = total;
    progress_update(p, done, " games");
}

typedef struct Opts {
    const char *db, *evaluator;
    long gpp, set_games, judge, worlds, jobs;
    int quiet;
} Opts;

typedef struct Rated {
    const Results *res;
    const MethodResult *bt;
    const long *held;
} Rated;

/* R_p of a judged player: its BT rating over the held-out sets (NAN without held-out games). */
static double rated(void *ctx, const char *name)
{
    const Rated *r = ctx;
    int k = results_find(r->res, name);
    return k < 0 || r->held[k] <= 0 ? NAN : r->bt->rating[k];
}

/* One replication: tournament, held-out R_p, judging, tables. Fills s (its arrays point into
 * er, which the caller frees). Returns 0 or an exit status (the error printed). */
static int study_seed(const char *cmd, const Pool *pool, const Opts *o, uint64_t seed, int k, int nseeds,
                      ErrStudySeed *s, ErrResult *er)
{
    char err[512], what[96];
    int rc = 0;
    memset(s, 0, sizeof *s);
    s->seed = seed;
    ExpStore es = {o->db, "", NULL};
    /* enough sets for the judged prefix (random draws overshoot the mean by a quarter or so)
     * and the held-out games */
    long want = o->judge + o->judge / 4 + o->gpp;
    long nsets = (want * pool->n + NPLAYERS * o->set_games - 1) / (NPLAYERS * o->set_games);
    if (exp_tournament(cmd, pool, nsets, (int)o->set_games, seed, (int)o->jobs, &es, o->quiet))
        return 1;
    Counts cnt = {pool->n, calloc((size_t)pool->n, sizeof(long)), calloc((size_t)pool->n, sizeof(long)), o->judge,
                  0, 0, 0};
    if (!cnt.games || !cnt.held || store_each_set(es.st, 0, count_set, &cnt, err, sizeof err))
        rc = cli_error(cmd, "%s", cnt.games && cnt.held ? err : "out of memory");
    if (!rc && !cnt.done)
        rc = cli_error(cmd, "seed %llu: %ld sets did not give every player %ld games to judge (use more "
                       "--games-per-player)", (unsigned long long)seed, cnt.sets, o->judge);
    else if (!rc && cnt.sets_needed == cnt.sets)
        rc = cli_error(cmd, "seed %llu: all %ld sets were needed to judge %ld games a player, none is left for the "
                       "held-out strength (use more --games-per-player)", (unsigned long long)seed, cnt.sets, o->judge);
    /* R_p: Bradley-Terry over the held-out sets */
    Results res;
    results_init(&res);
    for (int i = 0; !rc && i < pool->n; i++)
        results_player(&res, pool->e[i].name);
    SetLoad sl = {&res, 0, cnt.sets_needed};
    if (!rc && store_each_set(es.st, 0, load_set, &sl, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    MethodResult bt;
    memset(&bt, 0, sizeof bt);
    RatingParams prm;
    rating_params_default(&prm);
    prm.bootstrap = 0;
    if (!rc && method_run(M_BT, &prm, &res, &bt, NULL, NULL, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    if (es.st)
        store_close(es.st);
    es.st = NULL;
    /* the error rates of the judged prefix */
    ErrConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.evaluator = o->evaluator;
    ec.worlds = (int)o->worlds;
    ec.seed = seed;
    ec.jobs = (int)o->jobs;
    ec.max_games = cnt.sets_needed * o->set_games;
    ec.bootstrap = 0;
    ec.confidence = 0.95;
    Progress pe;
    if (nseeds > 1)
        snprintf(what, sizeof what, "errorrate judging (seed %d of %d):", k + 1, nseeds);
    else
        snprintf(what, sizeof what, "errorrate judging:");
    progress_init(&pe, what, ec.max_games, !o->quiet);
    ec.progress = err_progress;
    ec.progress_ctx = &pe;
    const char *dbs[1] = {es.path};
    GameSource src = {NULL, 0, dbs, 1, 0};
    if (!rc && errorrate_run(&ec, &src, er, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    progress_done(&pe);
    if (!rc) {
        s->judged_sets = cnt.sets_needed;
        s->strength_sets = cnt.sets - cnt.sets_needed;
        s->heldout_min = -1;
        for (int i = 0; i < pool->n; i++) {
            if (s->heldout_min < 0 || cnt.held[i] < s->heldout_min)
                s->heldout_min = cnt.held[i];
            if (cnt.held[i] > s->heldout_max)
                s->heldout_max = cnt.held[i];
        }
        s->ep = calloc((size_t)(er->n ? er->n : 1), sizeof *s->ep);
        s->names = calloc((size_t)(er->n ? er->n : 1), sizeof *s->names);
        s->unrated = calloc((size_t)(er->n ? er->n : 1), sizeof *s->unrated);
        if (!s->ep || !s->names || !s->unrated)
            rc = cli_error(cmd, "out of memory");
    }
    if (!rc) {
        Rated rt = {&res, &bt, cnt.held};
        s->np = errstudy_collect(er, rated, &rt, o->judge, s->ep, s->names, s->unrated, &s->nunrated);
        /* names point into er; R_p was copied */
        errstudy_fit(s->ep, s->np, &s->fit);
        for (int n = 1; n <= 128 && n < o->judge; n *= 2)
            s->rows[s->nrows++].n = n;
        s->rows[s->nrows++].n = (int)o->judge;
        for (int r = 0; r < s->nrows; r++)
            errstudy_row(s->ep, s->np, s->rows[r].n, &s->fit, &s->rows[r]);
        s->target = fabs(s->rows[s->nrows - 1].r[ES_RANK]);
        s->nequiv = errstudy_nequiv(s->rows, s->nrows, s->target);
    }
    method_result_free(&bt);
    results_free(&res);
    free(cnt.games);
    free(cnt.held);
    exp_store_done(&es);
    return rc;
}

int exp_errorrate(int argc, char **argv)
{
    enum { O_POOL = 1000, O_NARROW, O_SEEDS, O_GPP, O_SETG, O_JUDGE, O_WORLDS, O_EVAL, O_MM, O_MG, O_MO, O_DB, O_SEED,
           O_JOBS, O_CSV, O_OUT, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"pool", required_argument, 0, O_POOL},          {"narrow", no_argument, 0, O_NARROW},
        {"seeds", required_argument, 0, O_SEEDS},        {"games-per-player", required_argument, 0, O_GPP},
        {"set-games", required_argument, 0, O_SETG},     {"judge-games", required_argument, 0, O_JUDGE},
        {"worlds", required_argument, 0, O_WORLDS},      {"evaluator", required_argument, 0, O_EVAL},
        {"margin-matches", required_argument, 0, O_MM},  {"margin-games", required_argument, 0, O_MG},
        {"margin-opponent", required_argument, 0, O_MO},
        {"db", required_argument, 0, O_DB},              {"seed", required_argument, 0, O_SEED},
        {"jobs", required_argument, 0, O_JOBS},          {"csv", no_argument, 0, O_CSV},
        {"out", required_argument, 0, O_OUT},            {"quiet", no_argument, 0, O_QUIET},
        {"help", no_argument, 0, O_HELP},                {0, 0, 0, 0}};
    const char *cmd = "experiment errorrate";
    const char *pool_path = NULL, *out = NULL, *mname = NULL;
    Opts o = {NULL, "mc", 2000, 100, 500, 200, 2, 0};
    long nseeds = 5, mm = 10, mg = 100;
    uint64_t seed = 1;
    int csv = 0, narrow = 0, c;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_POOL: pool_path = optarg; break;
        case O_NARROW: narrow = 1; break;
        case O_SEEDS: if (cli_long(cmd, "--seeds", optarg, 1, 1000, &nseeds)) return 2; break;
        case O_GPP: if (cli_long(cmd, "--games-per-player", optarg, 1, 100000000, &o.gpp)) return 2; break;
        case O_SETG: if (cli_long(cmd, "--set-games", optarg, 1, 1000000, &o.set_games)) return 2; break;
        case O_JUDGE: if (cli_long(cmd, "--judge-games", optarg, 1, 1000000, &o.judge)) return 2; break;
        case O_WORLDS: if (cli_long(cmd, "--worlds", optarg, 1, 2048, &o.worlds)) return 2; break;
        case O_EVAL: o.evaluator = optarg; break;
        case O_MM: if (cli_long(cmd, "--margin-matches", optarg, 0, 100000, &mm)) return 2; break;
        case O_MG: if (cli_long(cmd, "--margin-games", optarg, 1, 1000000, &mg)) return 2; break;
        case O_MO: mname = optarg; break;
        case O_DB: o.db = optarg; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &o.jobs)) return 2; break;
        case O_CSV: csv = 1; break;
        case O_OUT: out = optarg; break;
        case O_QUIET: o.quiet = 1; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    if (pool_path && narrow)
        return cli_fail(cmd, "--pool and --narrow: give one of them");
    if (o.db && nseeds > 1)
        return cli_fail(cmd, "--db keeps one tournament's store: use it with --seeds 1");
    if (mm == 1)
        return cli_fail(cmd, "--margin-matches: 0 (not measured) or at least 2 (its standard error is over matches)");
    Pool pool;
    if (exp_pool(cmd, pool_path, narrow ? NARROW_POOL : DEFAULT_POOL, &pool))
        return 2;
    const char *mspec = NULL;
    for (int i = 0; mname && i < pool.n; i++)
        if (!strcmp(pool.e[i].name, mname))
            mspec = pool.e[i].spec;
    if (mname && !mspec) {
        pool_free(&pool);
        return cli_fail(cmd, "--margin-opponent: no player named '%s' in the pool", mname);
    }
    {   /* a bad evaluator is an error before any game is played */
        char err[512];
        Player *probe;
        if (judge_player_create(o.evaluator, (int)o.worlds, 1, &probe, err, sizeof err)) {
            pool_free(&pool);
            return cli_fail(cmd, "--evaluator: %s", err);
        }
        player_destroy(probe);
    }
    ErrStudySeed *s = calloc((size_t)nseeds, sizeof *s);
    ErrResult *er = calloc((size_t)nseeds, sizeof *er);
    int rc = s && er ? 0 : cli_error(cmd, "out of memory");
    for (int k = 0; !rc && k < nseeds; k++)
        rc = study_seed(cmd, &pool, &o, seed + (uint64_t)k, k, (int)nseeds, &s[k], &er[k]);
    /* the evaluator's margin over --margin-opponent, or the strongest judged player of the first seed */
    JudgeMargin margin;
    const char *mopp = mname, *strongest = "-";
    double mopp_r = NAN;
    int measured = 0;
    int best = 0; /* the strongest judged player of the first seed */
    for (int i = 1; !rc && i < s[0].np; i++)
        if (s[0].ep[i].strength > s[0].ep[best].strength)
            best = i;
    if (!rc && s[0].np > 0)
        strongest = s[0].names[best];
    if (!rc && mm > 0 && s[0].np > 0) {
        int opp = mname ? -1 : best; /* a named opponent may be unrated */
        for (int i = 0; mname && i < s[0].np; i++)
            if (!strcmp(s[0].names[i], mname))
                opp = i;
        if (opp >= 0)
            mopp_r = s[0].ep[opp].strength;
        if (!mname) {
            mopp = s[0].names[best];
            for (int i = 0; i < pool.n; i++)
                if (!strcmp(pool.e[i].name, mopp))
                    mspec = pool.e[i].spec;
        }
        char err[512];
        Progress pm;
        progress_init(&pm, "errorrate evaluator's margin:", mm * mg, !o.quiet);
        if (!mspec)
            rc = cli_error(cmd, "no pool entry named %s", mopp);
        else if (judge_margin(o.evaluator, (int)o.worlds, mspec, (int)mm, (int)mg, seed, (int)o.jobs, margin_progress,
                              &pm, &margin, err, sizeof err))
            rc = cli_error(cmd, "%s", err);
        else
            measured = 1;
        progress_done(&pm);
    }
    FILE *f = out && !rc ? fopen(out, "w") : stdout;
    if (!f)
        rc = cli_error(cmd, "cannot write %s: %m", out);
    if (!rc) {
        int nrows = s[0].nrows;
        EsRow *all = calloc((size_t)(nseeds * nrows), sizeof *all);
        EsSummary *sum = calloc((size_t)nrows, sizeof *sum);
        double *neq = calloc((size_t)nseeds, sizeof *neq);
        if (!all || !sum || !neq)
            rc = cli_error(cmd, "out of memory");
        else {
            for (int k = 0; k < nseeds; k++) {
                memcpy(all + k * nrows, s[k].rows, (size_t)nrows * sizeof *all);
                neq[k] = s[k].nequiv;
            }
            errstudy_summary(all, (int)nseeds, nrows, 0.95, sum);
            ErrStudyReport r = {(int)nseeds, s, pool.n, pool_path ? pool_path : narrow ? "the narrow pool (--narrow)"
                                                                                     : "the default pool",
                                o.set_games, o.gpp, o.judge, o.evaluator, o.worlds,
                                measured ? &margin : NULL, mopp, mopp_r, strongest, sum, nrows, 0, 0, 0, 0};
            r.neq_cover = errstudy_median_interval(neq, (int)nseeds, &r.neq_median, &r.neq_lo, &r.neq_hi);
            report_errstudy(f, &r, csv);
        }
        free(all);
        free(sum);
        free(neq);
        if (out && fclose(f) && !rc)
            rc = cli_error(cmd, "error writing %s", out);
    }
    for (int k = 0; s && er && k < nseeds; k++) {
        free(s[k].ep);
        free(s[k].names);
        free(s[k].unrated);
        errorrate_free(&er[k]);
    }
    free(s);
    free(er);
    pool_free(&pool);
    return rc;
}

/* report.c — `dhm report`: one self-contained HTML page for a tournament store (report/html.h):
 * the run, ratings with their intervals, trajectories, head to head, classes, prediction and
 * transitivity, the initial-hand win rates and error rates stored with it, and the games analysed
 * with dhm view --analyze --save. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/html.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: dhm report --db FILE.sqlite [-o REPORT.html] [options]\n"
               "Writes one self-contained HTML page about a tournament run: the run (command, seed, version,\n"
               "dates, set statuses), ratings with their intervals drawn as error bars, the ratings'\n"
               "trajectories over the sets, the head-to-head table as a heat map, each player's classes,\n"
               "how well each method predicts the head-to-head results, transitivity errors and cycles,\n"
               "and, when the store holds them, initial-hand win rates (dhm handstrength) and error rates\n"
               "(dhm errorrate --save), and each player's costliest decisions with their games move by move\n"
               "(dhm view --analyze --save). Inline SVG and CSS only: no script, nothing fetched; every chart\n"
               "has its numbers in a table.\n\n"
               "  --db FILE          the tournament store (required)\n"
               "  -o, --out FILE     the page to write (default: the store's name with .html)\n"
               "  --method LIST      rating methods (sts,bt; 'all' for every one that applies)\n"
               "  --include-broken   also the sets that were not played cleanly\n"
               "  --order-by K       index (the scheduled order, default) or start (wall-clock start)\n"
               "  --seed S           bootstrap seed (1)\n");
}

#define TRAJ_MAX 400

typedef struct Traj {
    MethodId m;
    int n, every, nplayers;
    long steps;
    double *x, *y; /* y[p * TRAJ_MAX + i] */
} Traj;

static void on_step(void *ctx, MethodId m, long step, const int *players, int np, const MethodResult *cur)
{
    (void)players;
    (void)np;
    Traj *t = ctx;
    if (m != t->m || t->n >= TRAJ_MAX || (step + 1) % t->every != 0)
        return;
    t->x[t->n] = (double)(step + 1);
    for (int p = 0; p < t->nplayers; p++)
        t->y[(size_t)p * TRAJ_MAX + t->n] = cur->count[p] ? cur->rating[p] : NAN;
    t->n++;
}

/* The classes reached in the rated sets, and the sets not played cleanly (the first
 * HTML_BROKEN_MAX of them). */
typedef struct ClassWalk {
    long *cls;
    int include_broken;
    HtmlSetStatus *broken;
    long nbroken;
} ClassWalk;

static int count_classes(void *ctx, const StoredSet *x)
{
    ClassWalk *w = ctx;
    if (!set_status_ok(x->status) && w->nbroken < HTML_BROKEN_MAX) {
        HtmlSetStatus *b = &w->broken[w->nbroken++];
        b->idx = x->idx;
        snprintf(b->status, sizeof b->status, "%s", x->status);
        snprintf(b->note, sizeof b->note, "%s", x->note);
    }
    if (!w->include_broken && !set_status_ok(x->status))
        return 0;
    for (int g = 0; g < x->games; g++) {
        int c[NPLAYERS];
        unpack_classes(x->classes[g], c);
        for (int p = 0; p < NPLAYERS; p++)
            w->cls[(size_t)x->player[p] * 5 + c[p]]++;
    }
    return 0;
}

int cmd_report(int argc, char **argv)
{
    enum { O_DB = 1000, O_METHOD, O_BROKEN, O_ORDER, O_SEED, O_HELP };
    static const struct option opts[] = {{"db", required_argument, 0, O_DB},         {"out", required_argument, 0, 'o'},
                                         {"method", required_argument, 0, O_METHOD}, {"include-broken", no_argument, 0, O_BROKEN},
                                         {"order-by", required_argument, 0, O_ORDER}, {"seed", required_argument, 0, O_SEED},
                                         {"help", no_argument, 0, O_HELP},           {0, 0, 0, 0}};
    const char *cmd = "report", *db = NULL, *out = NULL, *methods = "sts,bt";
    int broken = 0, by_start = 0, c;
    uint64_t seed = 1;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_DB: db = optarg; break;
        case 'o': out = optarg; break;
        case O_METHOD: methods = optarg; break;
        case O_BROKEN: broken = 1; break;
        case O_ORDER: if ((by_start = cli_order_by(cmd, optarg)) < 0) return 2; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    if (!db)
        return cli_fail(cmd, "--db FILE.sqlite is required");
    char outbuf[4096];
    if (!out) {
        size_t l = strlen(db);
        const char *dot = l > 7 && !strcmp(db + l - 7, ".sqlite") ? db + l - 7 : db + l;
        snprintf(outbuf, sizeof outbuf, "%.*s.html", (int)(dot - db), db);
        out = outbuf;
    }
    char err[512];
    CliStore cs;
    if (cli_store_open(cmd, db, 0, &cs))
        return 1;
    HtmlReport hr;
    memset(&hr, 0, sizeof hr);
    hr.path = db;
    hr.run = &cs.run;
    hr.include_broken = broken;
    store_count_sets(cs.st, &hr.sets_ok, &hr.sets_bad);
    int rc = 0, ids[M_COUNT], nm = 0;
    Results res;
    results_init(&res);
    MethodResult mr[M_COUNT];
    memset(mr, 0, sizeof mr);
    H2H h;
    memset(&h, 0, sizeof h);
    Traj t;
    memset(&t, 0, sizeof t);
    HandSummary hs;
    memset(&hs, 0, sizeof hs);
    long *cls = NULL;
    StoredErrRate *errs = NULL;
    HtmlSetStatus *unclean = NULL;
    StoredWorst worst;
    memset(&worst, 0, sizeof worst);
    /* the results: sets (and games for the game-wise methods); when no set is left to rate, the
     * page is the run and its sets, and says why there are no ratings */
    char none[512];
    if (broken ? hr.sets_ok + hr.sets_bad == 0 : hr.sets_ok == 0) {
        rate_db_none(cs.st, none, sizeof none);
        hr.no_ratings = none;
        if (rate_parse_methods(cmd, methods, NULL, ids) < 0)
            rc = 2;
        for (int i = 0; i < cs.n && !rc; i++)
            if (results_player(&res, cs.names[i]) != i)
                rc = cli_error(cmd, "out of memory");
    }
    int need_games = strstr(methods, "elo-game") || strstr(methods, "morita") || strstr(methods, "all");
    long left = 0;
    if (!hr.no_ratings)
        rc = rate_load_db(cmd, db, by_start, need_games, broken, &res, &left);
    if (!rc && !hr.no_ratings) {
        results_sort_sets(&res);
        if ((nm = rate_parse_methods(cmd, methods, &res, ids)) < 0)
            rc = 2;
    }
    RatingParams prm;
    rating_params_default(&prm);
    prm.seed = seed;
    if (!rc && !(t.x = malloc(TRAJ_MAX * sizeof *t.x)))
        rc = cli_error(cmd, "out of memory");
    if (!rc && !(t.y = malloc((size_t)TRAJ_MAX * (res.nplayers ? res.nplayers : 1) * sizeof *t.y)))
        rc = cli_error(cmd, "out of memory");
    t.m = M_COUNT; /* the first sequential set-wise method rated gets its trajectory drawn */
    for (int i = 0; !rc && i < nm; i++)
        if (ids[i] == M_SE || ids[i] == M_SG || ids[i] == M_SG2 || ids[i] == M_STS) {
            t.m = (MethodId)ids[i];
            break;
        }
    t.nplayers = res.nplayers;
    t.every = res.nsets > TRAJ_MAX ? (int)((res.nsets + TRAJ_MAX - 1) / TRAJ_MAX) : 1;
    for (int i = 0; !rc && i < nm; i++) {
        char why[256];
        if (!method_applies((MethodId)ids[i], &res, why, sizeof why)) {
            rc = cli_error(cmd, "%s", why);
            break;
        }
        if (method_run((MethodId)ids[i], &prm, &res, &mr[i], on_step, &t, err, sizeof err))
            rc = cli_error(cmd, "%s", err);
    }
    if (!rc && h2h_build(&res, &h))
        rc = cli_error(cmd, "out of memory");
    /* classes reached, initial-hand win rates, error rates */
    if (!rc && (!(cls = calloc((size_t)(cs.n ? cs.n : 1) * 5, sizeof *cls)) ||
                !(unclean = malloc(HTML_BROKEN_MAX * sizeof *unclean))))
        rc = cli_error(cmd, "out of memory");
    ClassWalk cw = {cls, broken, unclean, 0};
    if (!rc && store_each_set(cs.st, 0, count_classes, &cw, err, sizeof err))
        rc = cli_error(cmd, "%s: %s", db, err);
    StoreHandInfo hi;
    if (!rc && store_hand_p_info(cs.st, &hi, err, sizeof err))
        rc = cli_error(cmd, "%s: %s", db, err);
    if (!rc && hi.sets > 0 && hand_summary_store(cs.st, cs.n, broken, &hs, err, sizeof err))
        rc = cli_error(cmd, "%s: %s", db, err);
    if (!rc && store_error_rates(cs.st, &errs, &hr.nerr, err, sizeof err))
        rc = cli_error(cmd, "%s: %s", db, err);
    if (!rc && worst_load(cs.st, cs.n, cs.names, 3, 12, &worst, err, sizeof err)) /* dhm view --analyze --save */
        rc = cli_error(cmd, "%s: %s", db, err);
    if (!rc && res.nplayers != cs.n)
        rc = cli_error(cmd, "%s: no rated sets (every set was left out or none is stored)", db);
    if (!rc) {
        hr.specs = cs.specs;
        hr.res = &res;
        hr.h = &h;
        hr.mr = mr;
        hr.nm = nm;
        hr.traj_method = t.m < M_COUNT ? method_name(t.m) : NULL;
        hr.traj_n = t.n;
        hr.traj_x = t.x;
        /* compact the trajectory rows to traj_n points each */
        for (int p = 0; p < res.nplayers; p++)
            memmove(t.y + (size_t)p * t.n, t.y + (size_t)p * TRAJ_MAX, (size_t)t.n * sizeof *t.y);
        hr.traj_y = t.y;
        hr.cls = cls;
        hr.broken = unclean;
        hr.nbroken = cw.nbroken;
        hr.hand = hi.sets > 0 ? &hs : NULL;
        hr.err = errs;
        hr.worst = &worst;
        FILE *f = fopen(out, "w");
        if (!f) {
            rc = cli_error(cmd, "cannot write %s: %m", out);
        } else {
            int bad = report_html(f, &hr);
            if (fclose(f) || bad)
                rc = cli_error(cmd, "error writing %s", out);
            else
                printf("%s\n", out);
        }
    }
    free(errs);
    worst_free(&worst);
    free(cls);
    free(unclean);
    hand_summary_free(&hs);
    free(t.x);
    free(t.y);
    h2h_free(&h);
    for (int i = 0; i < nm; i++)
        method_result_free(&mr[i]);
    results_free(&res);
    cli_store_close(&cs);
    return rc;
}

/* rate.c — `dhm rate FILE...`: ratings from results files with every method of rating/,
 * the paper-000 evaluation (MSE, cross table, transitivity, cycles), trajectories, and
 * table / CSV / JSON output. When every method asked for streams, the results are rated as
 * they are read (rating/stream.h: memory flat in the number of sets), else held in memory
 * and rated after; both print the same. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/handstrength.h"
#include "cli/cli.h"
#include "rating/eval.h"
#include "rating/stream.h"
#include "record/store.h"
#include "report/ratings.h"

/* The methods that stream (streams = 1) or that need every result at once, as "a, b, c". */
static const char *methods_that(int streams, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int m = 0; m < M_COUNT; m++)
        if (method_info((MethodId)m)->streams == streams)
            k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s", k ? ", " : "", method_name((MethodId)m));
    return buf;
}

static void usage(FILE *f)
{
    char streaming[128], whole[128];
    fprintf(f,
            "usage: dhm rate [options] FILE.csv...\n"
            "       dhm rate [options] --db FILE.sqlite\n"
            "Rates players from results: CSV with the header set,order,player,points (one row per\n"
            "player per set) and/or game,player,rank[,p] (one row per player per game), or the\n"
            "results store of dhm tournament.\n\n"
            "  --db FILE          a dhm tournament database: its sets in set-index order\n"
            "  --order-by O       with --db: index (the order sets were scheduled; default) or start\n"
            "                     (wall-clock start). elo-game/morita also read each stored game\n"
            "  --method LIST      comma-separated: %s (default sts)\n"
            "  --order avg|seq    set-wise: average the four results (default) or apply them in turn\n"
            "  --init R           initial rating (1500)\n"
            "  --k K --f F        SE: Elo K (10) and scale F (400)\n"
            "  --rd RD --c C      SG: initial RD (350), RD growth per idle set (0)\n"
            "  --sigma S --tau T  SG2: volatility (0.06) and system constant (1.0)\n"
            "  --ts-sigma S --beta B --ts-tau T --draw-prob P\n"
            "                     STS: initial sigma (500), beta (400), dynamics (5), draw prob (0)\n"
            "  --game-k K         elo-game / morita: K (16)\n"
            "  --natural-log      morita: ln instead of log10 in the hand correction\n"
            "  --prior P          bt / pl: virtual draws per pair that met (1; 0 = pure MLE)\n"
            "  --bootstrap N      bt / pl: bootstrap replicates for intervals (200; 0 = none)\n"
            "  --confidence C     interval level (0.95)\n"
            "  --anchor NAME=R    bt / pl: pin NAME at R instead of the pool mean at --init\n"
            "  --melo-k K --melo-lr-r A --melo-lr-c B --melo-epochs E   mElo (1, 16, 1, 1)\n"
            "  --seed S           seed for the bootstrap and mElo (1)\n"
            "  --mse              predicted vs observed head-to-head win rates, per method\n"
            "  --crosstable       each pair's head-to-head wins-losses(-draws)\n"
            "  --transitivity     eq. 2 check over all triples and three-way cycles\n"
            "  --los              likelihood-of-superiority matrix (bt / pl)\n"
            "  --top N            rows in the transitivity and cycle lists (10)\n"
            "  --history FILE     every player's rating after every set (or game), as CSV\n"
            "  --csv | --json     machine-readable output instead of the tables\n"
            "  --in-memory        hold every set and game in memory even when the methods stream (the\n"
            "                     same output; for checking)\n\n"
            "Memory: when every method asked for is one of %s, the\n"
            "results are rated as they are read and memory grows with the players, not the sets\n"
            "(--mse, --crosstable, --transitivity and --history work so too): from --db always, from\n"
            "CSV files when each set's (or game's) rows are together, with a new id (numbers N or N.M\n"
            "in any order, other ids rising) and orders that never fall, as dhm records sets/games\n"
            "--csv writes them; other files, and pipes, are read whole first. %s (fits over\n"
            "all results, the bootstrap) and `all` need every set or game in memory at once: about\n"
            "90 bytes a set from --db and 470 from CSV, 350 to 450 a game.\n",
            method_names(), methods_that(1, streaming, sizeof streaming), methods_that(0, whole, sizeof whole));
}

/* --history: rows go to f, or (methods that stream, all rated at once) to one temporary file
 * per method, copied into the history file method after method at the end, as rated in turn. */
typedef struct HistCtx {
    FILE *f;
    const Results *res;
    FILE *tmp[M_COUNT]; /* by method id */
} HistCtx;

static void on_step(void *ctx, MethodId m, long step, const int *players, int np, const MethodResult *cur)
{
    HistCtx *h = ctx;
    report_history_rows(h->f ? h->f : h->tmp[m], h->res, m, step, players, np, cur);
}

typedef struct DbLoad {
    Store *st;
    Results *res;
    int with_games, include_broken;
    long seq, left_out;
    long with_p, without_p; /* sets with and without initial-hand win rates (dhm handstrength) */
    HandSetP hp;
    char err[512];
} DbLoad;

/* The games of a stored set, with their pairwise initial-hand win rates when stored. */
static int db_games(DbLoad *d, const StoredSet *x)
{
    int hp = hand_set_p(d->st, x, &d->hp, d->err, sizeof d->err);
    if (hp < 0)
        return -1;
    if (hp)
        d->with_p++;
    else
        d->without_p++;
    for (int g = 0; g < x->games; g++) {
        int cls[NPLAYERS];
        double rank[NPLAYERS];
        unpack_classes(x->classes[g], cls);
        for (int p = 0; p < NPLAYERS; p++)
            rank[p] = cls[p];
        if (hp ? results_add_game_pairs(d->res, NPLAYERS, x->player, rank, d->hp.p + (size_t)g * NPLAYERS * NPLAYERS)
               : results_add_game(d->res, NPLAYERS, x->player, rank, NULL))
            return -1;
    }
    return 0;
}

static int db_set(void *ctx, const StoredSet *x)
{
    DbLoad *d = ctx;
    if (!d->include_broken && !set_status_ok(x->status)) {
        d->left_out++; /* not fully played as scheduled: never rated as if it were */
        return 0;
    }
    double pts[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        pts[p] = (double)x->total[p];
    if (results_add_set(d->res, (double)d->seq++, x->player, pts)) /* sets come in rating order */
        return -1;
    d->res->games_in_sets += x->games;
    return d->with_games ? db_games(d, x) : 0;
}

/* The sets (and, when a game-wise method asks for them, the games) of a tournament store;
 * sets that were not clean are left out unless include_broken (*left_out counts them). With a
 * sink in res, each set and game goes to it as it is read. */
int rate_load_db(const char *cmd, const char *path, int by_start, int with_games, int include_broken, Results *res,
                 long *left_out)
{
    char err[512];
    CliStore cs;
    if (cli_store_open(cmd, path, 0, &cs))
        return 1;
    int rc = 0;
    int base = res->nplayers;
    for (int i = 0; i < cs.n && !rc; i++) /* player ids are the pool order */
        if (results_player(res, cs.names[i]) != base + i)
            rc = cli_error(cmd, "%s: player %s also appears in another input", path, cs.names[i]);
    DbLoad *d = calloc(1, sizeof *d);
    if (!d) {
        cli_store_close(&cs);
        return cli_error(cmd, "out of memory");
    }
    d->st = cs.st;
    d->res = res;
    d->with_games = with_games;
    d->include_broken = include_broken;
    if (!rc && base)
        rc = cli_error(cmd, "--db cannot be combined with other results files");
    if (!rc && store_each_set(cs.st, by_start, db_set, d, err, sizeof err))
        rc = cli_error(cmd, "%s: %s", path, *err ? err : *d->err ? d->err : "out of memory");
    if (!rc && d->seq == 0) { /* every method would fail for want of results: say why there are none */
        rate_db_none(cs.st, err, sizeof err);
        rc = cli_error(cmd, "%s: %s", path, err);
    }
    if (!rc && d->with_p && d->without_p) {
        /* rates for only some sets: none are used (a partial correction would be no correction) */
        res->has_p = 0;
        for (long k = 0; res->games && k < res->ngames; k++) {
            res->games[k].pair = -1;
            for (int i = 0; i < res->games[k].n; i++)
                res->games[k].p[i] = 0.5;
        }
        fprintf(stderr, "dhm %s: %s: %ld of %ld sets have no initial-hand win rates yet (dhm handstrength --db %s "
                        "computes the rest); none are used\n",
                cmd, path, d->without_p, d->with_p + d->without_p, path);
    }
    *left_out = d->left_out;
    hand_set_p_free(&d->hp);
    free(d);
    cli_store_close(&cs);
    return rc;
}

void rate_db_none(Store *st, char *why, size_t n)
{
    long ok = 0, bad = 0;
    char by[256];
    if (store_count_sets(st, &ok, &bad) || store_count_broken(st, by, sizeof by))
        snprintf(why, n, "no set could be counted (a damaged store?)");
    else if (ok + bad == 0)
        snprintf(why, n, "no set is stored yet (the run is still going, or was stopped before its first set ended)");
    else
        snprintf(why, n,
                 "%ld sets stored, all %ld left out as broken (by status: %s); --include-broken rates them anyway",
                 ok + bad, bad, by);
}

void rate_opts_default(RateOpts *o)
{
    memset(o, 0, sizeof *o);
    rating_params_default(&o->prm);
    o->methods = "sts";
    o->top = 10;
    o->out = stdout;
}

static int has_method(const int *ids, int n, int m)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == m)
            return 1;
    return 0;
}

/* Parses the method list into ids; "all" = every method that applies to the input (res NULL:
 * the names are only checked). */
int rate_parse_methods(const char *cmd, const char *list, const Results *res, int *ids)
{
    int n = 0;
    char buf[256], why[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        if (!strcmp(t, "all")) {
            for (int m = 0; res && m < M_COUNT; m++)
                if (method_applies((MethodId)m, res, why, sizeof why) && !has_method(ids, n, m))
                    ids[n++] = m;
            continue;
        }
        int m = method_parse(t);
        if (m < 0) {
            cli_fail(cmd, "unknown method '%s' (valid: %s)", t, method_names());
            return -1;
        }
        if (!has_method(ids, n, m))
            ids[n++] = m;
    }
    if (n == 0 && res) {
        cli_fail(cmd, "--method lists no method that applies to these results (valid: %s)", method_names());
        return -1;
    }
    return n;
}

/* Options that only some methods read: a warning when none of those is rated. */
enum { G_ORDER = 1 << 0, G_ELO = 1 << 1, G_RD = 1 << 2, G_C = 1 << 3, G_G2 = 1 << 4, G_TS = 1 << 5, G_GAMEK = 1 << 6,
       G_NATLOG = 1 << 7, G_BATCH = 1 << 8, G_MELO = 1 << 9, G_SEED = 1 << 10 };
static const struct {
    unsigned bit;
    const char *opt;
    unsigned methods; /* bit m = method m reads it */
} OPT_USERS[] = {
    {G_ORDER, "--order", 1u << M_SE | 1u << M_SG | 1u << M_SG2 | 1u << M_STS},
    {G_ELO, "--k/--f", 1u << M_SE},
    {G_RD, "--rd", 1u << M_SG | 1u << M_SG2},
    {G_C, "--c", 1u << M_SG},
    {G_G2, "--sigma/--tau", 1u << M_SG2},
    {G_TS, "--ts-sigma/--beta/--ts-tau/--draw-prob", 1u << M_STS},
    {G_GAMEK, "--game-k", 1u << M_ELO_GAME | 1u << M_MORITA},
    {G_NATLOG, "--natural-log", 1u << M_MORITA},
    {G_BATCH, "--prior/--bootstrap/--confidence/--anchor", 1u << M_BT | 1u << M_PL},
    {G_MELO, "--melo-*", 1u << M_MELO},
    {G_SEED, "--seed", 1u << M_BT | 1u << M_PL | 1u << M_MELO},
};

static void warn_ignored(const char *cmd, unsigned given, const int *ids, int nm)
{
    unsigned rated = 0;
    for (int i = 0; i < nm; i++)
        rated |= 1u << ids[i];
    for (size_t k = 0; k < sizeof OPT_USERS / sizeof OPT_USERS[0]; k++) {
        if (!(given & OPT_USERS[k].bit) || (OPT_USERS[k].methods & rated))
            continue;
        char users[128] = "";
        size_t u = 0;
        for (int m = 0; m < M_COUNT; m++)
            if (OPT_USERS[k].methods >> m & 1)
                u += (size_t)snprintf(users + u, sizeof users - u, "%s%s", u ? ", " : "", method_name((MethodId)m));
        fprintf(stderr, "dhm %s: warning: %s is read only by %s, none of which is rated here; ignored\n", cmd,
                OPT_USERS[k].opt, users);
    }
}

/* Appends a method's history rows (its temporary file) to the history file. */
static int hist_copy(FILE *from, FILE *to)
{
    char buf[65536];
    size_t n;
    if (!from)
        return 0;
    rewind(from);
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            return -1;
    return ferror(from) ? -1 : 0;
}

/* Rates res and prints as the options say: with method_run on the results in memory, or
 * (rs) with what the stream rated as the results went through it, its --history rows in hs. */
static int rate_run(const char *cmd, Results *res, const RateOpts *o, RateStream *rs, const HistCtx *hs)
{
    RatingParams prm = o->prm;
    results_sort_sets(res);
    if (res->nplayers == 0)
        return cli_error(cmd, "no results to rate");
    if (o->anchor) {
        const char *eq = strchr(o->anchor, '=');
        char name[128];
        if (!eq || eq == o->anchor || (size_t)(eq - o->anchor) >= sizeof name)
            return cli_fail(cmd, "--anchor: expected NAME=RATING, got '%s'", o->anchor);
        memcpy(name, o->anchor, (size_t)(eq - o->anchor));
        name[eq - o->anchor] = 0;
        if (cli_double(cmd, "--anchor", eq + 1, -1e9, 1e9, &prm.anchor_value))
            return 2;
        prm.anchor = results_find(res, name);
        if (prm.anchor < 0)
            return cli_fail(cmd, "--anchor: no player named '%s' in the results", name);
    }
    int ids[M_COUNT];
    int nm = rate_parse_methods(cmd, o->methods, res, ids);
    if (nm < 0)
        return 2;
    warn_ignored(cmd, o->given, ids, nm);
    HistCtx hc = {NULL, res, {0}};
    if (o->history) {
        hc.f = fopen(o->history, "w");
        if (!hc.f)
            return cli_error(cmd, "cannot write %s: %m", o->history);
        report_history_header(hc.f);
    }
    MethodResult *mr = calloc((size_t)nm, sizeof *mr);
    H2H h;
    int rc = 0;
    char err[512];
    if (!mr || (rs ? rate_stream_h2h(rs, res, &h) : h2h_build(res, &h))) {
        free(mr);
        if (hc.f)
            fclose(hc.f);
        return cli_error(cmd, "out of memory");
    }
    for (int i = 0; i < nm && !rc; i++) {
        /* the stream rated the same list: ids[i] is its method i */
        if (rs ? rate_stream_result(rs, res, i, &mr[i], err, sizeof err)
               : method_run((MethodId)ids[i], &prm, res, &mr[i], hc.f ? on_step : NULL, &hc, err, sizeof err))
            rc = cli_error(cmd, "%s", err);
        else if (rs && hc.f && hist_copy(hs->tmp[ids[i]], hc.f))
            rc = cli_error(cmd, "error writing %s", o->history);
    }
    if (hc.f && fclose(hc.f) && !rc)
        rc = cli_error(cmd, "error writing %s", o->history);
    if (!rc) {
        RatingReport rep = {res, &h, mr, nm, o->mse, o->cross, o->trans, o->los, o->top, o->left_out};
        report_ratings(o->out, &rep, o->csv ? REPORT_CSV : o->json ? REPORT_JSON : REPORT_TABLE);
        if (o->left_out && (o->csv || o->json))
            fprintf(stderr, "dhm %s: %ld sets left out because they were not played cleanly (--include-broken rates "
                            "them)\n",
                    cmd, o->left_out);
    }
    for (int i = 0; i < nm; i++)
        method_result_free(&mr[i]);
    free(mr);
    h2h_free(&h);
    return rc;
}

int rate_results(const char *cmd, Results *res, const RateOpts *o) { return rate_run(cmd, res, o, NULL, NULL); }

/* The methods of a --method list when every one streams (then they can rate the results as
 * they are read), into ids, in rate_parse_methods's order; else 0. */
static int stream_methods(const char *list, int *ids)
{
    char buf[256];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int m = method_parse(t);
        if (m < 0 || !method_info((MethodId)m)->streams)
            return 0;
        if (!has_method(ids, n, m))
            ids[n++] = m;
    }
    return n;
}

/* Not an exit status: the input cannot be rated as it is read; read it whole instead. */
enum { RATE_IN_MEMORY = -1 };

/* dhm rate with methods that all stream (ids, nm): the store's sets and games, or the CSV
 * files' rows, are rated as they are read (nothing is kept but the players and the head-to-head
 * tables), with the same output as rating them in memory. RATE_IN_MEMORY, having printed
 * nothing, when the input cannot (a file that is not a regular file, a CSV whose rows are not
 * in rating order, no temporary file for --history). */
static int rate_streamed(const char *cmd, const char *dbpath, int by_start, int with_games, int broken, char **files,
                         int nfiles, const int *ids, int nm, RateOpts *o)
{
    struct stat sb;
    for (int i = 0; i < nfiles; i++)
        if (stat(files[i], &sb) || !S_ISREG(sb.st_mode)) /* errors are the in-memory path's to report */
            return RATE_IN_MEMORY;
    Results res;
    results_init(&res);
    HistCtx hc = {NULL, &res, {0}};
    int rc = 0;
    for (int i = 0; o->history && i < nm && !rc; i++)
        if (!(hc.tmp[ids[i]] = tmpfile()))
            rc = RATE_IN_MEMORY;
    RateStream *rs = rc ? NULL : rate_stream_begin(ids, nm, &o->prm, o->history ? on_step : NULL, &hc);
    if (!rc && !rs)
        rc = cli_error(cmd, "out of memory");
    if (rs)
        res.sink = rate_stream_sink(rs);
    char err[512];
    if (!rc && dbpath)
        rc = rate_load_db(cmd, dbpath, by_start, with_games, broken, &res, &o->left_out);
    for (int i = 0; !rc && i < nfiles; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f) {
            rc = cli_error(cmd, "cannot open %s: %m", files[i]);
            break;
        }
        int e = results_load_csv(&res, f, files[i], err, sizeof err);
        fclose(f);
        if (e == RESULTS_UNORDERED)
            rc = RATE_IN_MEMORY;
        else if (e)
            rc = cli_error(cmd, "%s", err);
    }
    if (!rc)
        rc = rate_run(cmd, &res, o, rs, &hc);
    for (int m = 0; m < M_COUNT; m++)
        if (hc.tmp[m])
            fclose(hc.tmp[m]);
    rate_stream_free(rs);
    results_free(&res);
    return rc;
}

int cmd_rate(int argc, char **argv)
{
    enum { O_METHOD = 1000, O_ORDER, O_INIT, O_K, O_F, O_RD, O_C, O_SIGMA, O_TAU, O_TSSIGMA, O_BETA, O_TSTAU, O_DRAW,
           O_GAMEK, O_NATLOG, O_PRIOR, O_BOOT, O_CONF, O_ANCHOR, O_MK, O_MLR, O_MLC, O_MEP, O_SEED, O_MSE, O_CROSS,
           O_TRANS, O_LOS, O_TOP, O_HIST, O_CSV, O_JSON, O_HELP, O_DB, O_ORDERBY, O_BROKEN, O_INMEM };
    static const struct option opts[] = {
        {"method", required_argument, 0, O_METHOD}, {"order", required_argument, 0, O_ORDER},
        {"init", required_argument, 0, O_INIT},     {"k", required_argument, 0, O_K},
        {"f", required_argument, 0, O_F},           {"rd", required_argument, 0, O_RD},
        {"c", required_argument, 0, O_C},           {"sigma", required_argument, 0, O_SIGMA},
        {"tau", required_argument, 0, O_TAU},       {"ts-sigma", required_argument, 0, O_TSSIGMA},
        {"beta", required_argument, 0, O_BETA},     {"ts-tau", required_argument, 0, O_TSTAU},
        {"draw-prob", required_argument, 0, O_DRAW}, {"game-k", required_argument, 0, O_GAMEK},
        {"natural-log", no_argument, 0, O_NATLOG},  {"prior", required_argument, 0, O_PRIOR},
        {"bootstrap", required_argument, 0, O_BOOT}, {"confidence", required_argument, 0, O_CONF},
        {"anchor", required_argument, 0, O_ANCHOR}, {"melo-k", required_argument, 0, O_MK},
        {"melo-lr-r", required_argument, 0, O_MLR}, {"melo-lr-c", required_argument, 0, O_MLC},
        {"melo-epochs", required_argument, 0, O_MEP}, {"seed", required_argument, 0, O_SEED},
        {"mse", no_argument, 0, O_MSE},             {"crosstable", no_argument, 0, O_CROSS},
        {"transitivity", no_argument, 0, O_TRANS},  {"los", no_argument, 0, O_LOS},
        {"top", required_argument, 0, O_TOP},       {"history", required_argument, 0, O_HIST},
        {"csv", no_argument, 0, O_CSV},             {"json", no_argument, 0, O_JSON},
        {"db", required_argument, 0, O_DB},         {"order-by", required_argument, 0, O_ORDERBY},
        {"include-broken", no_argument, 0, O_BROKEN}, {"help", no_argument, 0, O_HELP},
        {"in-memory", no_argument, 0, O_INMEM},
        {0, 0, 0, 0}};
    const char *cmd = "rate";
    const char *dbpath = NULL;
    int by_start = 0, broken = 0, in_memory = 0;
    RateOpts o;
    rate_opts_default(&o);
    RatingParams *prm = &o.prm;
    int c;
    long top = 10, lv;
    double d;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_METHOD: o.methods = optarg; break;
        case O_ORDER:
            if (strcmp(optarg, "avg") && strcmp(optarg, "seq"))
                return cli_fail(cmd, "--order: '%s' is not avg or seq", optarg);
            prm->sequential = !strcmp(optarg, "seq");
            o.given |= G_ORDER;
            break;
        case O_INIT: if (cli_double(cmd, "--init", optarg, -1e9, 1e9, &prm->init)) return 2; prm->ts.mu0 = prm->init; prm->anchor_value = prm->init; break;
        case O_K: if (cli_double(cmd, "--k", optarg, 0, 1e6, &prm->elo_k)) return 2; o.given |= G_ELO; break;
        case O_F: if (cli_double(cmd, "--f", optarg, 1e-6, 1e9, &prm->elo_f)) return 2; o.given |= G_ELO; break;
        case O_RD: if (cli_double(cmd, "--rd", optarg, 1e-6, 1e6, &d)) return 2; prm->glicko_rd = prm->g2_rd = d; o.given |= G_RD; break;
        case O_C: if (cli_double(cmd, "--c", optarg, 0, 1e6, &prm->glicko_c)) return 2; o.given |= G_C; break;
        case O_SIGMA: if (cli_double(cmd, "--sigma", optarg, 1e-9, 10, &prm->g2_sigma)) return 2; o.given |= G_G2; break;
        case O_TAU: if (cli_double(cmd, "--tau", optarg, 1e-6, 100, &prm->g2_tau)) return 2; o.given |= G_G2; break;
        case O_TSSIGMA: if (cli_double(cmd, "--ts-sigma", optarg, 1e-6, 1e9, &prm->ts.sigma0)) return 2; o.given |= G_TS; break;
        case O_BETA: if (cli_double(cmd, "--beta", optarg, 1e-6, 1e9, &prm->ts.beta)) return 2; o.given |= G_TS; break;
        case O_TSTAU: if (cli_double(cmd, "--ts-tau", optarg, 0, 1e9, &prm->ts.tau)) return 2; o.given |= G_TS; break;
        case O_DRAW: if (cli_double(cmd, "--draw-prob", optarg, 0, 0.999, &prm->ts.draw_prob)) return 2; o.given |= G_TS; break;
        case O_GAMEK: if (cli_double(cmd, "--game-k", optarg, 0, 1e6, &prm->game_k)) return 2; o.given |= G_GAMEK; break;
        case O_NATLOG: prm->natural_log = 1; o.given |= G_NATLOG; break;
        case O_PRIOR: if (cli_double(cmd, "--prior", optarg, 0, 1e6, &prm->prior)) return 2; o.given |= G_BATCH; break;
        case O_BOOT: if (cli_long(cmd, "--bootstrap", optarg, 0, 100000, &lv)) return 2; prm->bootstrap = (int)lv; o.given |= G_BATCH; break;
        case O_CONF: if (cli_double(cmd, "--confidence", optarg, 0.01, 0.9999, &prm->confidence)) return 2; o.given |= G_BATCH; break;
        case O_ANCHOR: o.anchor = optarg; o.given |= G_BATCH; break;
        case O_MK: if (cli_long(cmd, "--melo-k", optarg, 1, 32, &lv)) return 2; prm->melo_k = (int)lv; o.given |= G_MELO; break;
        case O_MLR: if (cli_double(cmd, "--melo-lr-r", optarg, 0, 1e6, &prm->melo_lr_r)) return 2; o.given |= G_MELO; break;
        case O_MLC: if (cli_double(cmd, "--melo-lr-c", optarg, 0, 1e6, &prm->melo_lr_c)) return 2; o.given |= G_MELO; break;
        case O_MEP: if (cli_long(cmd, "--melo-epochs", optarg, 1, 100000, &lv)) return 2; prm->melo_epochs = (int)lv; o.given |= G_MELO; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &prm->seed)) return 2; o.given |= G_SEED; break;
        case O_MSE: o.mse = 1; break;
        case O_CROSS: o.cross = 1; break;
        case O_TRANS: o.trans = 1; break;
        case O_LOS: o.los = 1; break;
        case O_TOP: if (cli_long(cmd, "--top", optarg, 0, 100000, &top)) return 2; break;
        case O_HIST: o.history = optarg; break;
        case O_CSV: o.csv = 1; break;
        case O_JSON: o.json = 1; break;
        case O_DB: dbpath = optarg; break;
        case O_BROKEN: broken = 1; break;
        case O_INMEM: in_memory = 1; break;
        case O_ORDERBY: if ((by_start = cli_order_by(cmd, optarg)) < 0) return 2; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (o.csv && o.json)
        return cli_fail(cmd, "--csv and --json exclude each other");
    if (optind >= argc && !dbpath)
        return cli_fail(cmd, "no results file given (try --help)");
    if (optind < argc && dbpath)
        return cli_fail(cmd, "give either results files or --db, not both");
    if ((broken || by_start) && !dbpath)
        return cli_fail(cmd, "%s is for --db", broken ? "--include-broken" : "--order-by");
    o.top = (int)top;
    int games = strstr(o.methods, "all") != NULL; /* from --db, per-game rows only when a game-wise method may be rated */
    for (int m = 0; m < M_COUNT; m++)
        games |= method_uses_games((MethodId)m) && strstr(o.methods, method_name((MethodId)m));
    int stream[M_COUNT], nstream = in_memory ? 0 : stream_methods(o.methods, stream);
    if (nstream) {
        int rc = rate_streamed(cmd, dbpath, by_start, games, broken, argv + optind, argc - optind, stream, nstream, &o);
        if (rc != RATE_IN_MEMORY)
            return rc;
        o.left_out = 0;
    }
    Results res;
    results_init(&res);
    char err[512];
    if (dbpath) {
        int rc = rate_load_db(cmd, dbpath, by_start, games, broken, &res, &o.left_out);
        if (rc) {
            results_free(&res);
            return rc;
        }
    }
    for (int i = optind; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            results_free(&res);
            return cli_error(cmd, "cannot open %s: %m", argv[i]);
        }
        int rc = results_load_csv(&res, f, argv[i], err, sizeof err);
        fclose(f);
        if (rc) {
            results_free(&res);
            return cli_error(cmd, "%s", err);
        }
    }
    int rc = rate_results(cmd, &res, &o);
    results_free(&res);
    return rc;
}

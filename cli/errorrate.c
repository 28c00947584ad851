/* errorrate.c — `dhm errorrate`: the error rate of recorded players against an evaluator
 * (analysis/errorrate.h), with intervals, the costliest decisions, CSV and JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/errorrate.h"
#include "cli/cli.h"
#include "players/mc.h"
#include "players/players.h"
#include "report/errorrate.h"

#define DEFAULT_EVALUATOR "mc"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm errorrate (--kifu FILE... | --db FILE.sqlite) [options]\n"
            "The error rate of paper 004 (eq. 7): for every decision of a judged player with at least\n"
            "two legal choices (plays, and the gifts of the daifugo and fugo), the evaluator estimates\n"
            "the value Q of every choice from that player's information set only, simulating every\n"
            "choice in the same sampled worlds with the same playout streams; loss = max Q - Q(chosen).\n"
            "Q is in reward units, (4 - class) / 4 per game: a loss of 0.25 is one class (x4 = points).\n\n"
            "  --kifu FILE        records (repeatable; also: the remaining arguments)\n"
            "  --db FILE          a tournament store made with --records (its clean sets; repeatable)\n"
            "  --include-broken   also the store's sets that were not played cleanly\n"
            "  --players LIST     judge these players only (names as in the records; default everyone)\n"
            "  --evaluator SPEC   an mc player (default %s: policy playouts, sure wins, endgames)\n"
            "  --worlds N         paired worlds per decision (100)\n"
            "  --marks N          also list the N costliest decisions (0)\n"
            "  --bootstrap N      replicates for the intervals (1000)\n"
            "  --seed S           worlds and bootstrap (1); the result does not depend on --jobs\n"
            "  --jobs J           threads (2)\n"
            "  --csv | --json     machine-readable output instead of the table\n"
            "  --save             store the results in the --db store (one store, no --kifu) for dhm report\n"
            "  --quiet            no progress line\n",
            DEFAULT_EVALUATOR);
}

static void on_progress(void *ctx, long done, long total)
{
    Progress *p = ctx;
    p->total = total;
    progress_update(p, done, " games");
}

/* The results into the store's error_rates table (what dhm report shows). */
static int save_rates(const char *cmd, const char *db, const ErrResult *r, const ErrConfig *cfg)
{
    StoredErrRate *rows = calloc((size_t)r->n, sizeof *rows);
    if (!rows)
        return cli_error(cmd, "out of memory");
    char now[40];
    store_now(now, sizeof now);
    for (int i = 0; i < r->n; i++) {
        const ErrPlayer *p = &r->p[i];
        StoredErrRate *x = &rows[i];
        snprintf(x->player, sizeof x->player, "%s", p->name);
        snprintf(x->evaluator, sizeof x->evaluator, "%s", cfg->evaluator);
        x->worlds = cfg->worlds;
        x->seed = cfg->seed;
        x->games = p->games;
        x->judged = p->judged;
        x->skipped = p->skipped;
        x->rate = p->rate;
        x->lo = p->lo;
        x->hi = p->hi;
        x->mean_rank = p->mean_rank;
        x->mean_points = p->mean_points;
        snprintf(x->made, sizeof x->made, "%s", now);
    }
    CliStore cs;
    int rc = cli_store_open(cmd, db, 1, &cs);
    char err[512];
    if (!rc && store_save_error_rates(cs.st, rows, r->n, err, sizeof err))
        rc = cli_error(cmd, "%s: %s", db, err);
    if (!rc)
        fprintf(stderr, "dhm errorrate: saved %d players' error rates into %s\n", r->n, db);
    if (cs.st)
        cli_store_close(&cs);
    free(rows);
    return rc;
}

int cmd_errorrate(int argc, char **argv)
{
    enum { O_KIFU = 1000, O_DB, O_BROKEN, O_PLAYERS, O_EVAL, O_WORLDS, O_MARKS, O_BOOT, O_SEED, O_JOBS, O_CSV, O_JSON,
           O_QUIET, O_HELP, O_SAVE };
    static const struct option opts[] = {
        {"kifu", required_argument, 0, O_KIFU},      {"db", required_argument, 0, O_DB},
        {"include-broken", no_argument, 0, O_BROKEN}, {"players", required_argument, 0, O_PLAYERS},
        {"evaluator", required_argument, 0, O_EVAL}, {"worlds", required_argument, 0, O_WORLDS},
        {"marks", required_argument, 0, O_MARKS},    {"bootstrap", required_argument, 0, O_BOOT},
        {"seed", required_argument, 0, O_SEED},      {"jobs", required_argument, 0, O_JOBS},
        {"csv", no_argument, 0, O_CSV},              {"json", no_argument, 0, O_JSON},
        {"quiet", no_argument, 0, O_QUIET},          {"help", no_argument, 0, O_HELP},
        {"save", no_argument, 0, O_SAVE},
        {0, 0, 0, 0}};
    const char *cmd = "errorrate";
    CliSources in;
    memset(&in, 0, sizeof in);
    const char *players = NULL;
    int broken = 0, csv = 0, json = 0, quiet = 0, save = 0, c;
    ErrConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.evaluator = DEFAULT_EVALUATOR;
    cfg.worlds = 100;
    cfg.seed = 1;
    cfg.jobs = 2;
    cfg.bootstrap = 1000;
    cfg.confidence = 0.95;
    long v;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_KIFU: if (cli_sources_add(cmd, &in, 0, optarg)) return 2; break;
        case O_DB: if (cli_sources_add(cmd, &in, 1, optarg)) return 2; break;
        case O_BROKEN: broken = 1; break;
        case O_PLAYERS: players = optarg; break;
        case O_EVAL: cfg.evaluator = optarg; break;
        case O_WORLDS: if (cli_long(cmd, "--worlds", optarg, 1, 2048, &v)) return 2; cfg.worlds = (int)v; break;
        case O_MARKS: if (cli_long(cmd, "--marks", optarg, 0, 1000, &v)) return 2; cfg.marks = (int)v; break;
        case O_BOOT: if (cli_long(cmd, "--bootstrap", optarg, 0, 100000, &v)) return 2; cfg.bootstrap = (int)v; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &cfg.seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &v)) return 2; cfg.jobs = (int)v; break;
        case O_CSV: csv = 1; break;
        case O_JSON: json = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_SAVE: save = 1; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (cli_sources_rest(cmd, &in, argc, argv, 1))
        return 2;
    if (csv && json)
        return cli_fail(cmd, "--csv and --json exclude each other");
    if (save && (in.ndb != 1 || in.nkifu))
        return cli_fail(cmd, "--save stores into one --db store: give exactly one --db and no records files");
    char err[512];
    Player *probe; /* check the evaluator before reading anything */
    if (player_create(cfg.evaluator, 0, &probe, err, sizeof err))
        return cli_fail(cmd, "--evaluator: %s", err);
    int is_mc = mc_is(probe);
    player_destroy(probe);
    if (!is_mc)
        return cli_fail(cmd, "--evaluator: '%s' is not an mc or search player (it must estimate values)", cfg.evaluator);
    char names[64][128];
    const char *judge[64];
    if (players) {
        int n = player_split_list(players, names, 64);
        if (n < 1)
            return cli_fail(cmd, "--players: a comma-separated list of names");
        for (int i = 0; i < n; i++)
            judge[i] = names[i];
        cfg.judge = judge;
        cfg.njudge = n;
    }
    Progress pr;
    progress_init(&pr, "errorrate:", 1, !quiet);
    cfg.progress = on_progress;
    cfg.progress_ctx = &pr;
    GameSource src = {in.kifu, in.nkifu, in.db, in.ndb, broken};
    ErrResult r;
    int rc = errorrate_run(&cfg, &src, &r, err, sizeof err);
    progress_done(&pr);
    if (rc)
        return cli_error(cmd, "%s", err);
    if (r.n == 0) {
        errorrate_free(&r);
        return cli_error(cmd, "no decisions of the named players in %ld games", r.games);
    }
    report_errorrate(stdout, &r, &cfg, csv ? REPORT_CSV : json ? REPORT_JSON : REPORT_TABLE);
    int rc2 = save ? save_rates(cmd, in.db[0], &r, &cfg) : 0;
    errorrate_free(&r);
    return rc2;
}

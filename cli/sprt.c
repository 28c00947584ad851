/* sprt.c — `dhm sprt`: does player A beat player B by at least a margin? A duplicate tournament
 * of A, B and three others plays group after group (each group: one deal sequence, the five
 * players rotated through the seats), stored in SQLite, until the GSPRT on the groups' scores
 * (analysis/paired.h) crosses a bound or the game budget runs out. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/paired.h"
#include "arena/tournament.h"
#include "cli/cli.h"
#include "players/players.h"
#include "record/deals.h"

#ifndef DHM_VERSION
#define DHM_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm sprt A B --db FILE.sqlite [options]\n"
            "       dhm sprt --resume --db FILE.sqlite [--jobs J]\n"
            "Is player A stronger than player B by at least --elo1 (H1) rather than at most --elo0 (H0)?\n"
            "A, B and three others (--others) play a duplicate tournament: in each group one deal\n"
            "sequence is played five times with the players rotated through the seats, so A and B meet\n"
            "the same hands from the same seats. A group's score is the share of its games in which A\n"
            "finished above B; under an Elo difference d its expectation is 1/(1+10^(-d/400)). After every\n"
            "few groups, the generalized SPRT (the log-likelihood ratio of the groups' scores under the\n"
            "two hypotheses, as fishtest tests game pairs; docs/sprt.md) is compared with its bounds,\n"
            "in group order, so the decision does not depend on --jobs. Every set is stored (resumable;\n"
            "dhm rate and dhm report read the store).\n\n"
            "  --db FILE          the store (required)\n"
            "  --others X,Y,Z     the three other players (simple,simple,simple)\n"
            "  --elo0 E --elo1 E  the hypotheses (0 and 30)\n"
            "  --alpha A --beta B error rates: accepting H1 when H0 holds, and H0 when H1 holds (0.05 each)\n"
            "  --games G          games per set (10): a group is 5 G games\n"
            "  --max-games N      stop without a decision after N games (20000)\n"
            "  --deals FILE       play these dealt hands (as dhm tournament --deals)\n"
            "  --seed S           (1)\n"
            "  --jobs J           worker threads (2)\n"
            "  --resume           continue the test stored in --db\n"
            "  --json             the result as JSON\n"
            "  --quiet            no progress line\n");
}

/* No decision before this many groups: with fewer, the groups' variance (which the test
 * estimates) is too uncertain for its bounds to mean what they say (simulated from recorded
 * group scores: from 10 groups on, alpha = 0.05 came out 0.082; from 20, 0.051). */
#define SPRT_MIN_GROUPS 20

typedef struct Test {
    double elo0, elo1, alpha, beta;
} Test;

typedef struct Status {
    long groups, used, games, incomplete;
    double score, lo, hi, llr, lower, upper;
    int decision; /* 0 none yet, 1 H1, -1 H0 */
} Status;

/* Reads the stored groups and runs the test in group order: stops at the first group whose
 * LLR crosses a bound (checked after every group). */
static int evaluate(Store *st, const Test *t, int games_per_set, Status *s, char *err, size_t errsz)
{
    GroupPair *g = NULL;
    long n = 0, inc = 0;
    if (paired_groups(st, 0, 1, 0, &g, &n, &inc, err, errsz))
        return -1;
    memset(s, 0, sizeof *s);
    s->groups = n;
    s->incomplete = inc;
    sprt_bounds(t->alpha, t->beta, &s->lower, &s->upper);
    const double s0 = sprt_score_of_elo(t->elo0), s1 = sprt_score_of_elo(t->elo1);
    double *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    if (!x) {
        free(g);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    long used = 0;
    for (long i = 0; i < n; i++) {
        x[i] = g[i].score;
        used = i + 1;
        s->llr = sprt_llr(x, used, s0, s1);
        if (used >= SPRT_MIN_GROUPS && (s->llr >= s->upper || s->llr <= s->lower)) {
            s->decision = s->llr >= s->upper ? 1 : -1;
            break;
        }
    }
    s->used = used;
    s->games = used * 5L * games_per_set;
    double mean, sd;
    paired_interval(x, used, 0.95, &mean, &sd, &s->lo, &s->hi);
    s->score = mean;
    s->lo = fmax(s->lo, 0); /* a score is a share */
    s->hi = fmin(s->hi, 1);
    free(x);
    free(g);
    return 0;
}

static void show(FILE *f, const Status *s, int json, const Test *t)
{
    const double e = sprt_elo_of_score(s->score), elo_lo = sprt_elo_of_score(s->lo), elo_hi = sprt_elo_of_score(s->hi);
    if (json) {
        fprintf(f, "{\"elo0\":%g,\"elo1\":%g,\"alpha\":%g,\"beta\":%g,\"groups\":%ld,\"groups_used\":%ld,\"games\":%ld,"
                   "\"score\":",
                t->elo0, t->elo1, t->alpha, t->beta, s->groups, s->used, s->games);
        json_num(f, s->score);
        fprintf(f, ",\"score_ci95\":[");
        json_num(f, s->lo);
        fputc(',', f);
        json_num(f, s->hi);
        fprintf(f, "],\"elo\":");
        json_num(f, e);
        fprintf(f, ",\"llr\":");
        json_num(f, s->llr);
        fprintf(f, ",\"bounds\":[%.4f,%.4f],\"decision\":\"%s\"}\n", s->lower, s->upper,
                s->decision > 0 ? "H1" : s->decision < 0 ? "H0" : "none");
        return;
    }
    fprintf(f, "%s after %ld groups (%ld games): score %.4f [%.4f, %.4f] (95%% t interval over groups), Elo %+.1f "
               "[%+.1f, %+.1f]; LLR %.3f, bounds [%.3f, %.3f]\n",
            s->decision > 0 ? "H1 accepted" : s->decision < 0 ? "H0 accepted" : "no decision", s->used, s->games, s->score,
            s->lo, s->hi, e, elo_lo, elo_hi, s->llr, s->lower, s->upper);
    if (s->groups > s->used)
        fprintf(f, "(%ld more groups were played in parallel past the decision; they are stored but not used)\n",
                s->groups - s->used);
    if (s->incomplete)
        fprintf(f, "(%ld groups were left out: a set not played cleanly, or not all five stored)\n", s->incomplete);
}

static volatile int g_stop;

int cmd_sprt(int argc, char **argv)
{
    enum { O_DB = 1000, O_OTHERS, O_E0, O_E1, O_ALPHA, O_BETA, O_GAMES, O_MAX, O_DEALS, O_SEED, O_JOBS, O_RESUME,
           O_JSON, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"db", required_argument, 0, O_DB},         {"others", required_argument, 0, O_OTHERS},
        {"elo0", required_argument, 0, O_E0},       {"elo1", required_argument, 0, O_E1},
        {"alpha", required_argument, 0, O_ALPHA},   {"beta", required_argument, 0, O_BETA},
        {"games", required_argument, 0, O_GAMES},   {"max-games", required_argument, 0, O_MAX},
        {"deals", required_argument, 0, O_DEALS},   {"seed", required_argument, 0, O_SEED},
        {"jobs", required_argument, 0, O_JOBS},     {"resume", no_argument, 0, O_RESUME},
        {"json", no_argument, 0, O_JSON},           {"quiet", no_argument, 0, O_QUIET},
        {"help", no_argument, 0, O_HELP},           {0, 0, 0, 0}};
    const char *cmd = "sprt", *db = NULL, *others = "simple,simple,simple", *deals_path = NULL;
    Test t = {0, 30, 0.05, 0.05};
    long games = 10, max_games = 20000, jobs = 2;
    uint64_t seed = 1;
    int resume = 0, json = 0, quiet = 0, c;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_DB: db = optarg; break;
        case O_OTHERS: others = optarg; break;
        case O_E0: if (cli_double(cmd, "--elo0", optarg, -2000, 2000, &t.elo0)) return 2; break;
        case O_E1: if (cli_double(cmd, "--elo1", optarg, -2000, 2000, &t.elo1)) return 2; break;
        case O_ALPHA: if (cli_double(cmd, "--alpha", optarg, 1e-6, 0.5, &t.alpha)) return 2; break;
        case O_BETA: if (cli_double(cmd, "--beta", optarg, 1e-6, 0.5, &t.beta)) return 2; break;
        case O_GAMES: if (cli_long(cmd, "--games", optarg, 1, 100000, &games)) return 2; break;
        case O_MAX: if (cli_long(cmd, "--max-games", optarg, 1, 1000000000, &max_games)) return 2; break;
        case O_DEALS: deals_path = optarg; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &jobs)) return 2; break;
        case O_RESUME: resume = 1; break;
        case O_JSON: json = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (!db)
        return cli_fail(cmd, "--db FILE.sqlite is required");
    if (!resume && optind + 2 != argc)
        return cli_fail(cmd, "give the two players A and B (try --help)");
    if (resume && optind != argc)
        return cli_fail(cmd, "--resume takes the players from the store; unexpected '%s'", argv[optind]);
    if (!(t.elo1 > t.elo0))
        return cli_fail(cmd, "--elo1 must be greater than --elo0");
    char err[1024];
    Pool pool;
    RunInfo run;
    memset(&run, 0, sizeof run);
    Store *st = NULL;
    int rc = 0;
    if (resume) {
        CliStore cs;
        if (cli_store_open(cmd, db, 1, &cs))
            return 1;
        st = cs.st;
        run = cs.run;
        store_free_names(cs.n, cs.names, cs.specs);
        char v[256];
        if (!store_meta_get(st, "sprt", v, sizeof v) ||
            sscanf(v, "elo0=%lf elo1=%lf alpha=%lf beta=%lf", &t.elo0, &t.elo1, &t.alpha, &t.beta) != 4)
            rc = cli_error(cmd, "%s holds no sprt test (it was not made by dhm sprt)", db);
        else if (pool_parse(run.pool_text, db, &pool, err, sizeof err))
            rc = cli_error(cmd, "the stored pool is no longer valid: %s", err);
        if (rc) {
            store_free_run(&run);
            store_close(st);
            return rc;
        }
        games = run.games;
    } else {
        char sp[3][128];
        if (player_split_list(others, sp, 3) != 3)
            return cli_fail(cmd, "--others: exactly three player specs separated by commas");
        char text[1024];
        snprintf(text, sizeof text, "a %s\nb %s\no1 %s\no2 %s\no3 %s\n", argv[optind], argv[optind + 1], sp[0], sp[1],
                 sp[2]);
        if (pool_parse(text, "(the sprt players)", &pool, err, sizeof err))
            return cli_fail(cmd, "%s", err);
        for (int i = 0; i < pool.n; i++) { /* every spec is checked before anything is written */
            Player *p;
            if (!pool.e[i].external && player_create(pool.e[i].spec, 1, &p, err, sizeof err)) {
                pool_free(&pool);
                return cli_fail(cmd, "%s", err);
            }
            if (!pool.e[i].external)
                player_destroy(p);
        }
        DealSuite suite = {0, NULL};
        if (deals_path && deals_load(deals_path, &suite, err, sizeof err)) {
            pool_free(&pool);
            return cli_fail(cmd, "--deals: %s", err);
        }
        long groups = (max_games + 5 * games - 1) / (5 * games);
        run.seed = seed;
        run.sets = 5 * groups;
        run.games = (int)games;
        run.seat_change = 3;
        run.class_reset = 100;
        snprintf(run.pairing, sizeof run.pairing, "fixed");
        run.duplicate = 1;
        run.move_timeout_ms = 10000;
        run.pool_text = strdup(pool.text);
        run.deals = suite.hand;
        run.ndeals = suite.n;
        snprintf(run.version, sizeof run.version, "%s", DHM_VERSION);
        store_now(run.started, sizeof run.started);
        size_t k = 0;
        for (int i = 0; i < argc + 1 && k + 2 < sizeof run.command; i++)
            k += (size_t)snprintf(run.command + k, sizeof run.command - k, "%s%s", i ? " " : "", i ? argv[i - 1] : "dhm");
        char meta[256];
        snprintf(meta, sizeof meta, "elo0=%.17g elo1=%.17g alpha=%.17g beta=%.17g", t.elo0, t.elo1, t.alpha, t.beta);
        if (tournament_store_create(&st, db, &pool, &run, err, sizeof err) ||
            store_meta_set(st, "sprt", meta, err, sizeof err))
            rc = cli_error(cmd, "%s", err);
        if (rc) {
            if (st)
                store_close(st);
            pool_free(&pool);
            store_free_run(&run);
            return rc;
        }
    }
    /* groups in chunks; the test is read back from the store after each */
    const long groups_max = run.sets / 5, chunk = 2 * jobs > 4 ? 2 * jobs : 4;
    char logdir[1024];
    snprintf(logdir, sizeof logdir, "%s.logs", db);
    TournamentConfig tc = {.pool = &pool, .sets = 0, .games = run.games, .seat_change = run.seat_change,
                           .class_reset = run.class_reset, .seed = run.seed, .jobs = (int)jobs, .pairing = PAIR_FIXED,
                           .duplicate = 1, .records = run.records, .move_timeout_ms = run.move_timeout_ms,
                           .connect_timeout_ms = 10000, .log_dir = logdir, .stop = &g_stop,
                           .deals = (const Cards(*)[NPLAYERS])run.deals, .ndeals = run.ndeals,
                           .python = cli_python()};
    CliCatch cc;
    cli_catch_stop(&cc, &g_stop);
    Progress pr;
    progress_init(&pr, "sprt:", groups_max, !quiet);
    Status s;
    memset(&s, 0, sizeof s);
    for (;;) {
        if (evaluate(st, &t, run.games, &s, err, sizeof err)) {
            rc = cli_error(cmd, "%s: %s", db, err);
            break;
        }
        char extra[200];
        snprintf(extra, sizeof extra, " groups, score %.3f [%.3f, %.3f], LLR %.2f in [%.2f, %.2f]", s.score, s.lo, s.hi,
                 s.llr, s.lower, s.upper);
        progress_update(&pr, s.used, extra);
        if (s.decision || s.groups >= groups_max)
            break;
        long target = (s.groups + chunk < groups_max ? s.groups + chunk : groups_max) * 5;
        tc.sets = target;
        int tr = tournament_run(&tc, st, err, sizeof err);
        if (tr == TOURNAMENT_STOPPED || g_stop) {
            progress_done(&pr);
            fprintf(stderr, "dhm sprt: stopped by signal %d; the finished sets are stored (continue with --resume "
                            "--db %s)\n",
                    g_stop ? g_stop : SIGINT, db);
            rc = 128 + (g_stop ? g_stop : SIGINT);
            break;
        }
        if (tr) {
            rc = cli_error(cmd, "%s (the sets finished so far are stored; continue with --resume)", err);
            break;
        }
    }
    progress_done(&pr);
    cli_catch_stop_end(&cc);
    if (!rc) {
        show(stdout, &s, json, &t);
        char now[40];
        store_now(now, sizeof now);
        if (s.decision || s.groups >= groups_max)
            store_finish_run(st, now);
    }
    pool_free(&pool);
    store_free_run(&run);
    store_close(st);
    return rc;
}

/* handstrength.c — `dhm handstrength`: initial-hand win rates of every stored game (paper 002
 * §5; analysis/handstrength.h), cached in the store for `dhm rate --method morita --db`. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/handstrength.h"
#include "cli/cli.h"
#include "report/analysis.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm handstrength --db FILE.sqlite [options]\n"
            "Initial-hand win rates (paper 002 section 5): for every stored game, with every hand open\n"
            "after the exchange, K playouts from the first play with one playout policy for all;\n"
            "p_ij = the share of playouts in which player i finished above player j (p_ij + p_ji = 1).\n"
            "They are stored in the database (a set at a time: an interrupted run continues where it\n"
            "stopped), and used by dhm rate --method morita --db and dhm records games --csv --p.\n"
            "Then prints what they say: each player's mean p, and how well p forecast real results.\n\n"
            "  --db FILE          a tournament store made with --records (required)\n"
            "  --playouts K       playouts per game (10000)\n"
            "  --playout P        simple (the simple choice, random with probability --eps; default),\n"
            "                     random (uniform legal moves) or policy (the learned policy)\n"
            "  --eps E            simple: share of random moves (0.1)\n"
            "  --temp T           policy: softmax temperature (1)\n"
            "  --weights FILE     policy: weights (default: the built-in ones)\n"
            "  --seed S           playouts (1); game g of set k always gets the same playouts\n"
            "  --jobs J           threads (2); the result does not depend on it\n"
            "  --include-broken   also the sets that were not played cleanly\n"
            "  --limit N          compute at most N sets in this run (the rest later)\n"
            "  --replace          drop rates stored with other settings and compute them all again\n"
            "  --csv | --json     machine-readable summary instead of the table\n"
            "  --quiet            no progress line\n");
}

void handstrength_progress(void *ctx, long done, long total, long games)
{
    Progress *p = ctx;
    char extra[64];
    p->total = total;
    snprintf(extra, sizeof extra, " sets, %ld games", games);
    progress_update(p, done, extra);
}

int cmd_handstrength(int argc, char **argv)
{
    enum { O_DB = 1000, O_PLAYOUTS, O_PLAYOUT, O_EPS, O_TEMP, O_WEIGHTS, O_SEED, O_JOBS, O_BROKEN, O_LIMIT, O_REPLACE,
           O_CSV, O_JSON, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"db", required_argument, 0, O_DB},           {"playouts", required_argument, 0, O_PLAYOUTS},
        {"playout", required_argument, 0, O_PLAYOUT}, {"eps", required_argument, 0, O_EPS},
        {"temp", required_argument, 0, O_TEMP},       {"weights", required_argument, 0, O_WEIGHTS},
        {"seed", required_argument, 0, O_SEED},       {"jobs", required_argument, 0, O_JOBS},
        {"include-broken", no_argument, 0, O_BROKEN}, {"limit", required_argument, 0, O_LIMIT},
        {"replace", no_argument, 0, O_REPLACE},       {"csv", no_argument, 0, O_CSV},
        {"json", no_argument, 0, O_JSON},             {"quiet", no_argument, 0, O_QUIET},
        {"help", no_argument, 0, O_HELP},             {0, 0, 0, 0}};
    const char *cmd = "handstrength", *db = NULL, *weights = NULL;
    int csv = 0, json = 0, quiet = 0, replace = 0, c;
    HandRun hr;
    memset(&hr, 0, sizeof hr);
    hr.hc.playouts = 10000;
    hr.hc.policy = HAND_SIMPLE;
    hr.hc.eps = 0.1;
    hr.hc.temp = 1;
    hr.seed = 1;
    hr.jobs = 2;
    long v;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_DB: db = optarg; break;
        case O_PLAYOUTS: if (cli_long(cmd, "--playouts", optarg, 1, 10000000, &v)) return 2; hr.hc.playouts = (int)v; break;
        case O_PLAYOUT:
            if ((hr.hc.policy = hand_policy_parse(optarg)) < 0)
                return cli_fail(cmd, "--playout: simple, random or policy, not '%s'", optarg);
            break;
        case O_EPS: if (cli_double(cmd, "--eps", optarg, 0, 1, &hr.hc.eps)) return 2; break;
        case O_TEMP: if (cli_double(cmd, "--temp", optarg, 0.01, 100, &hr.hc.temp)) return 2; break;
        case O_WEIGHTS: weights = optarg; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &hr.seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &v)) return 2; hr.jobs = (int)v; break;
        case O_BROKEN: hr.include_broken = 1; break;
        case O_LIMIT: if (cli_long(cmd, "--limit", optarg, 1, 1000000000, &hr.limit)) return 2; break;
        case O_REPLACE: replace = 1; break;
        case O_CSV: csv = 1; break;
        case O_JSON: json = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    if (!db)
        return cli_fail(cmd, "--db FILE.sqlite is required");
    if (csv && json)
        return cli_fail(cmd, "--csv and --json exclude each other");
    if (weights && hr.hc.policy != HAND_POLICY)
        return cli_fail(cmd, "--weights is for --playout policy");
    char err[512];
    PolicyWeights *pw = NULL;
    if (hr.hc.policy == HAND_POLICY) {
        if (weights) {
            pw = malloc(sizeof *pw);
            if (!pw || policy_load(weights, pw, err, sizeof err)) {
                free(pw);
                return cli_fail(cmd, "--weights: %s", pw ? err : "out of memory");
            }
            hr.hc.w = pw;
        } else if (!(hr.hc.w = policy_builtin(err, sizeof err))) {
            return cli_error(cmd, "%s", err);
        }
    }
    CliStore cs;
    if (cli_store_open(cmd, db, 1, &cs)) {
        free(pw);
        return 1;
    }
    int rc = 0;
    if (replace && store_hand_p_clear(cs.st, err, sizeof err))
        rc = cli_error(cmd, "%s: %s", db, err);
    volatile int stop = 0;
    HandRunOut out;
    memset(&out, 0, sizeof out);
    if (!rc) {
        Progress hp;
        progress_init(&hp, "handstrength:", 1, !quiet);
        hr.progress = handstrength_progress;
        hr.progress_ctx = &hp;
        hr.stop = &stop;
        CliCatch cc;
        cli_catch_stop(&cc, &stop);
        double t0 = cli_now();
        int r = hand_run_store(cs.st, &hr, &out, err, sizeof err);
        double secs = cli_now() - t0;
        cli_catch_stop_end(&cc);
        progress_done(&hp);
        if (r) {
            rc = cli_error(cmd, "%s: %s (the sets finished so far are stored)", db, err);
        } else if (!quiet) {
            fprintf(stderr, "dhm handstrength: %ld sets (%ld games) computed in %.1f s, %.2f ms CPU per game; %ld were stored already",
                    out.sets_done, out.games_done, secs, out.games_done ? 1000 * out.cpu_s / out.games_done : 0.0,
                    out.sets_cached);
            if (out.sets_todo)
                fprintf(stderr, "; %ld still to do (run again to continue)", out.sets_todo);
            fputc('\n', stderr);
        }
        if (!rc && stop) {
            fprintf(stderr, "dhm handstrength: stopped by signal %d; the finished sets are stored (run again to continue)\n",
                    stop);
            rc = 128 + stop;
        }
    }
    if (!rc) {
        HandSummary s;
        if (hand_summary_store(cs.st, cs.n, hr.include_broken, &s, err, sizeof err))
            rc = cli_error(cmd, "%s: %s", db, err);
        else if (s.sets == 0)
            rc = cli_error(cmd, "%s: no stored set has initial-hand win rates", db);
        else
            report_hand_summary(stdout, &s, cs.names, csv ? REPORT_CSV : json ? REPORT_JSON : REPORT_TABLE);
        hand_summary_free(&s);
    }
    cli_store_close(&cs);
    free(pw);
    return rc;
}

/* handstrength.c — `dhm handstrength`: initial-hand win rates of every stored game (paper 002
 * §5; analysis/handstrength.h), cached in the store for `dhm rate --method morita --db`. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/handstrength.h"
#include "cli/cli.h"

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

static double se_of(double sum, double sq, long n)
{
    if (n < 2)
        return NAN;
    double m = sum / n, var = (sq - n * m * m) / (n - 1);
    return var > 0 ? sqrt(var / n) : 0;
}

static void print_summary(FILE *f, const HandSummary *s, char **names, int fmt)
{
    const double coin = 0.25, brier = s->pairs > 0 ? s->brier / s->pairs : NAN;
    if (fmt == 2) {
        fprintf(f, "{\"playouts\":%d,\"playout\":", s->info.playouts);
        json_str(f, s->info.method);
        fprintf(f, ",\"seed\":%llu,\"sets\":%ld,\"games\":%ld,\"sets_missing\":%ld,\"players\":[",
                (unsigned long long)s->info.seed, s->sets, s->games, s->sets_missing);
        for (int i = 0, first = 1; i < s->nplayers; i++) {
            if (!s->games_of[i])
                continue;
            fprintf(f, "%s{\"name\":", first ? "" : ",");
            first = 0;
            json_str(f, names[i]);
            fprintf(f, ",\"games\":%ld,\"mean_p\":", s->games_of[i]);
            json_num(f, s->p_sum[i] / s->games_of[i]);
            fprintf(f, ",\"se\":");
            json_num(f, se_of(s->p_sum[i], s->p_sq[i], s->games_of[i]));
            fprintf(f, "}");
        }
        fprintf(f, "],\"by_class\":[");
        for (int c = 0; c < NPLAYERS; c++) {
            fprintf(f, "%s", c ? "," : "");
            json_num(f, s->class_n[c] ? s->class_p[c] / s->class_n[c] : NAN);
        }
        fprintf(f, "],\"calibration\":[");
        for (int b = 0; b < HAND_BINS; b++) {
            fprintf(f, "%s{\"from\":%.1f,\"to\":%.1f,\"pairs\":%ld,\"mean_p\":", b ? "," : "", (double)b / HAND_BINS,
                    (double)(b + 1) / HAND_BINS, s->bin_n[b]);
            json_num(f, s->bin_n[b] ? s->bin_p[b] / s->bin_n[b] : NAN);
            fprintf(f, ",\"observed\":");
            json_num(f, s->bin_n[b] ? s->bin_won[b] / s->bin_n[b] : NAN);
            fprintf(f, "}");
        }
        fprintf(f, "],\"brier\":");
        json_num(f, brier);
        fprintf(f, ",\"brier_coin\":0.25,\"se_kind\":\"standard error over games\"}\n");
        return;
    }
    if (fmt == 1) {
        fprintf(f, "section,name,n,value,se\n");
        for (int i = 0; i < s->nplayers; i++) {
            if (!s->games_of[i])
                continue;
            fprintf(f, "player_mean_p,");
            csv_str(f, names[i]);
            fprintf(f, ",%ld,", s->games_of[i]);
            csv_num(f, s->p_sum[i] / s->games_of[i]);
            fputc(',', f);
            csv_num(f, se_of(s->p_sum[i], s->p_sq[i], s->games_of[i]));
            fputc('\n', f);
        }
        for (int c = 0; c < NPLAYERS; c++) {
            fprintf(f, "class_mean_p,\"%d\",%ld,", c + 1, s->class_n[c]);
            csv_num(f, s->class_n[c] ? s->class_p[c] / s->class_n[c] : NAN);
            fprintf(f, ",\n");
        }
        for (int b = 0; b < HAND_BINS; b++) {
            double n = (double)s->bin_n[b], o = n ? s->bin_won[b] / n : NAN;
            fprintf(f, "calibration_p,\"%.1f-%.1f\",%ld,", (double)b / HAND_BINS, (double)(b + 1) / HAND_BINS, s->bin_n[b]);
            csv_num(f, n ? s->bin_p[b] / n : NAN);
            fprintf(f, ",\ncalibration_observed,\"%.1f-%.1f\",%ld,", (double)b / HAND_BINS, (double)(b + 1) / HAND_BINS,
                    s->bin_n[b]);
            csv_num(f, o);
            fputc(',', f);
            csv_num(f, n > 1 ? sqrt(o * (1 - o) / n) : NAN);
            fputc('\n', f);
        }
        fprintf(f, "brier,\"p_ij\",%.0f,", s->pairs);
        csv_num(f, brier);
        fprintf(f, ",\nbrier,\"coin\",%.0f,0.2500,\n", s->pairs);
        return;
    }
    fprintf(f, "initial-hand win rates: %ld games of %ld sets (%d playouts each, %s, seed %llu)", s->games, s->sets,
            s->info.playouts, s->info.method, (unsigned long long)s->info.seed);
    if (s->sets_missing)
        fprintf(f, "; %ld sets have none yet", s->sets_missing);
    fprintf(f, "\n\nmean p of each player over its games and opponents (the hands are those after the exchange,\n"
               "so players who often reach the top classes hold better ones: 0.5 only on average)\n");
    fprintf(f, "  %-24s %8s %8s %8s\n", "player", "games", "mean p", "se");
    for (int i = 0; i < s->nplayers; i++) {
        if (!s->games_of[i])
            continue;
        fprintf(f, "  %-24s %8ld", names[i], s->games_of[i]);
        col_num(f, s->p_sum[i] / s->games_of[i], 8, 4);
        col_num(f, se_of(s->p_sum[i], s->p_sq[i], s->games_of[i]), 8, 4);
        fputc('\n', f);
    }
    fprintf(f, "\nmean p by the class reached\n ");
    for (int c = 0; c < NPLAYERS; c++) {
        fprintf(f, "  %d:", c + 1);
        col_num(f, s->class_n[c] ? s->class_p[c] / s->class_n[c] : NAN, 6, 4);
    }
    fprintf(f, "\n\nforecast of each pair's real order by p_ij (ordered pairs)\n");
    fprintf(f, "  %-9s %9s %8s %9s %8s\n", "p_ij", "pairs", "mean p", "observed", "se");
    for (int b = 0; b < HAND_BINS; b++) {
        double n = (double)s->bin_n[b], o = n ? s->bin_won[b] / n : NAN;
        fprintf(f, "  %.1f-%.1f   %9ld", (double)b / HAND_BINS, (double)(b + 1) / HAND_BINS, s->bin_n[b]);
        col_num(f, n ? s->bin_p[b] / n : NAN, 8, 3);
        col_num(f, o, 9, 3);
        col_num(f, n > 1 ? sqrt(o * (1 - o) / n) : NAN, 8, 3);
        fputc('\n', f);
    }
    fprintf(f, "  Brier score %.4f (a coin: %.4f; lower is better)\n", brier, coin);
    fprintf(f, "se: standard error over games (mean p); binomial standard error (observed)\n");
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
            print_summary(stdout, &s, cs.names, csv ? 1 : json ? 2 : 0);
        hand_summary_free(&s);
    }
    cli_store_close(&cs);
    free(pw);
    return rc;
}

/* tournament.c — `dhm tournament`: many sets among a pool, in parallel, into SQLite,
 * resumable; a summary table at the end. */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/tournament.h"
#include "arena/mpi.h"
#include "cli/cli.h"
#include "record/deals.h"
#include "watch/standings.h"

#ifndef DHM_VERSION
#define DHM_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fprintf(f, "usage: dhm tournament --pool FILE --db FILE.sqlite [options]\n"
               "       dhm tournament --resume --db FILE.sqlite [--jobs J]\n"
               "Plays sets of five players drawn from a pool (a set = one match of N games), in worker\n"
               "threads, storing every finished set in one SQLite transaction; --resume finishes an\n"
               "interrupted run with results identical to an uninterrupted one.\n\n"
               "  --pool FILE        players, one per line: NAME SPEC or NAME exec: COMMAND ({host} {port} {name}\n"
               "                     {python}: $DHM_PYTHON, else the interpreter make python built the package for)\n"
               "  --db FILE          the results store (must not hold a run, unless --resume)\n"
               "  --sets S           sets to play (100; pairing all: one set per 5-subset)\n"
               "  --games N          games per set (10000)\n"
               "  --seed X           seed of the run; set k uses a seed derived from (X, k) (1)\n"
               "  --jobs J           worker threads (the number of CPUs)\n"
               "  --pairing P        random (5 of the pool per set), all (every 5-subset), fixed (exactly 5)\n"
               "  --seat-change K    new random seats at games with n mod K == 1 (3)\n"
               "  --class-reset R    classes reset every R games (100)\n"
               "  --duplicate        play each deal sequence five times, the players rotated through the\n"
               "                     five seats (--sets counts deal sequences: 5 stored sets each)\n"
               "  --records          also store every game (export with dhm records export)\n"
               "  --rank-timeout MS  MPI (build/dhm-mpi): give up on a rank silent for MS ms (no game of its set\n"
               "                     finished) and hand its set to another (with mpiexec -disable-auto-cleanup;\n"
               "                     0 = off; a rank killed takes its node's ranks with it: docs/cluster.md)\n"
               "  --shard I/N        play only the sets k with k mod N = I, with the same seeds as one run (one\n"
               "                     machine of N); dhm records merge joins the N stores into the whole run\n"
               "  --deals FILE       play the dealt hands of FILE (a kifu file, or one deal per line: five\n"
               "                     { cards } groups) instead of shuffling: set k's games take the deals from\n"
               "                     k x games on (with --duplicate, the group's), cycling; kept in the store\n"
               "  --move-timeout MS  external clients: a turn silent this long is a pass (10000; 0 = off)\n"
               "  --connect-timeout MS  external clients: how long to wait for one to connect (10000)\n"
               "  --resume           continue the run stored in --db\n"
               "  --json             the final summary as JSON\n"
               "  --quiet            no progress line\n"
               "%s"
               "With --watch the page shows the run's progress, its standings after every stored set, the sets\n"
               "not played cleanly, and links to watch each set being played (/set/K).\n",
            CLI_WATCH_HELP);
}

/* Set by SIGINT/SIGTERM (cli/ is the only place with global state): the run stops, kills its
 * clients, keeps every finished set and exits 128 + the signal. */
static volatile int g_stop;

/* The live view of --watch: the sets' feeds, and the standings read from the store. */
typedef struct TWatch {
    WatchServer *w;
    Store *st;
    int n;
    const char *const *names;
    long already, last_done;
    double last_t, cost;
    WatchTable t;
    int sent; /* failed sets already on the page (they come in index order; a set fails once) */
    long *sent_idx;
} TWatch;

static const GameHooks *tw_begin(void *ctx, long k, const int player[5])
{
    WatchFeed *f = watch_set_begin(((TWatch *)ctx)->w, k, player);
    return f ? watch_feed_hooks(f) : NULL;
}

static void tw_game(void *ctx, const GameHooks *h, const MatchResult *sofar)
{
    (void)ctx;
    watch_feed_game(h->ctx, sofar);
}

static void tw_end(void *ctx, long k, const GameHooks *h)
{
    (void)k;
    if (h)
        watch_set_end(((TWatch *)ctx)->w, h->ctx);
}

/* The standings of the stored sets, and the failed sets not yet shown. */
static void tw_standings(TWatch *tw)
{
    char err[512];
    double t0 = cli_now();
    if (watch_standings_compute(tw->st, tw->n, tw->names, &tw->t, err, sizeof err))
        return; /* the page keeps the last standings; the run goes on */
    watch_standings(tw->w, tw->t.rows, tw->n, tw->t.ok, tw->t.not_ok);
    for (int i = 0; i < tw->t.nfailed; i++) {
        int seen = 0;
        for (int j = 0; j < tw->sent && !seen; j++)
            seen = tw->sent_idx[j] == tw->t.failed[i].idx;
        if (!seen && tw->sent < tw->t.max_failed) {
            tw->sent_idx[tw->sent++] = tw->t.failed[i].idx;
            watch_set_failed(tw->w, tw->t.failed[i].idx, tw->t.failed[i].status, tw->t.failed[i].note);
        }
    }
    tw->cost = cli_now() - t0;
}

/* The end of --watch (the last frames to the viewers), and what it held. */
static void tw_close(const char *cmd, CliWatch *watch, TWatch *tw, const char **pool_names, int quiet)
{
    cli_watch_stop(cmd, watch, quiet);
    free(tw->t.rows);
    free(tw->t.failed);
    free(tw->sent_idx);
    free(pool_names);
}

typedef struct Prog {
    Progress p;
    double t0;
    long games; /* played in this run, at the last progress call */
    TWatch *tw;
} Prog;

static void on_progress(void *ctx, long done, long total, long games)
{
    Prog *pg = ctx;
    char extra[64];
    double now = cli_now(), el = now - pg->t0;
    snprintf(extra, sizeof extra, " sets, %.0f games/s", el > 0 ? (double)games / el : 0.0);
    progress_update(&pg->p, done, extra);
    pg->games = games;
    TWatch *tw = pg->tw;
    if (tw) { /* the standings when a set was stored, at most every second (and 5% of the time) */
        watch_progress(tw->w, done, total, games, el, tw->already);
        if (done != tw->last_done && now - tw->last_t >= (20 * tw->cost > 1 ? 20 * tw->cost : 1)) {
            tw->last_done = done;
            tw->last_t = now;
            tw_standings(tw);
        }
    }
}

typedef struct Summary {
    int n;
    long *sets, *games, *points, (*cls)[NPLAYERS];
    long ok, not_ok, forfeit, timeouts, client_exit, other;
    int shown;
    char broken[10][600]; /* the first sets that were not clean, for the summary */
} Summary;

static int sum_set(void *ctx, const StoredSet *x)
{
    Summary *s = ctx;
    if (!set_status_ok(x->status)) {
        s->not_ok++;
        s->forfeit += !strcmp(x->status, "forfeit");
        s->timeouts += !strcmp(x->status, "timeouts");
        s->client_exit += !strcmp(x->status, "client-exit");
        if (s->shown < 10)
            snprintf(s->broken[s->shown++], sizeof s->broken[0], "set %ld: %s: %s", x->idx, x->status, x->note);
        return 0; /* summarised and rated without it */
    }
    s->ok++;
    for (int p = 0; p < NPLAYERS; p++) {
        s->sets[x->player[p]]++;
        s->games[x->player[p]] += x->games;
        s->points[x->player[p]] += x->total[p];
    }
    for (int g = 0; g < x->games; g++) {
        int cls[NPLAYERS];
        unpack_classes(x->classes[g], cls);
        for (int p = 0; p < NPLAYERS; p++)
            s->cls[x->player[p]][cls[p]]++;
    }
    return 0;
}

/* The summary of the stored sets; *not_ok gets the number of sets that were not clean. */
static int print_summary(const char *cmd, Store *st, int n, char **names, int json, long *not_ok)
{
    Summary s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.sets = calloc((size_t)n, sizeof(long));
    s.games = calloc((size_t)n, sizeof(long));
    s.points = calloc((size_t)n, sizeof(long));
    s.cls = calloc((size_t)n, sizeof *s.cls);
    char err[512];
    int rc = 0;
    if (!s.sets || !s.games || !s.points || !s.cls)
        rc = cli_error(cmd, "out of memory");
    else if (store_each_set(st, 0, sum_set, &s, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    static const char *const cn[NPLAYERS] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"};
    s.other = s.not_ok - s.forfeit - s.timeouts - s.client_exit;
    if (!rc && json) {
        printf("{\"sets\": %ld, \"status\": {\"ok\": %ld, \"forfeit\": %ld, \"timeouts\": %ld, \"client-exit\": %ld, "
               "\"other\": %ld},\n\"not_ok\": [",
               s.ok + s.not_ok, s.ok, s.forfeit, s.timeouts, s.client_exit, s.other);
        for (int i = 0; i < s.shown; i++) {
            printf("%s", i ? ", " : "");
            json_str(stdout, s.broken[i]);
        }
        printf("],\n\"players\": [");
        for (int i = 0; i < n; i++) {
            printf("%s\n  {\"name\": ", i ? "," : "");
            json_str(stdout, names[i]);
            printf(", \"sets\": %ld, \"games\": %ld, \"points\": %ld, \"mean\": %.4f, \"classes\": [", s.sets[i],
                   s.games[i], s.points[i], s.games[i] ? (double)s.points[i] / s.games[i] : 0.0);
            for (int c = 0; c < NPLAYERS; c++)
                printf("%s%ld", c ? ", " : "", s.cls[i][c]);
            printf("]}");
        }
        printf("\n]}\n");
    } else if (!rc) {
        printf("%ld sets stored: %ld ok", s.ok + s.not_ok, s.ok);
        if (s.not_ok)
            printf(", %ld not clean (%ld forfeit, %ld timeouts, %ld client-exit%s) — left out of this summary and of "
                   "dhm rate --db (unless --include-broken)",
                   s.not_ok, s.forfeit, s.timeouts, s.client_exit, s.other ? ", others" : "");
        printf("\n");
        for (int i = 0; i < s.shown; i++)
            printf("  %s\n", s.broken[i]);
        if (s.not_ok > s.shown)
            printf("  ... (dhm records sets --db shows them all)\n");
        printf("%-24s %6s %9s %7s", "player", "sets", "games", "mean");
        for (int c = 0; c < NPLAYERS; c++)
            printf(" %9s", cn[c]);
        printf("\n");
        for (int i = 0; i < n; i++) {
            printf("%-24.24s %6ld %9ld %7.3f", names[i], s.sets[i], s.games[i],
                   s.games[i] ? (double)s.points[i] / s.games[i] : 0.0);
            for (int c = 0; c < NPLAYERS; c++)
                printf(" %9ld", s.cls[i][c]);
            printf("\n");
        }
    }
    *not_ok = s.not_ok;
    free(s.sets);
    free(s.games);
    free(s.points);
    free(s.cls);
    return rc;
}

/* With --resume: the options given must agree with the stored run. */
static int check_same(const char *cmd, const char *what, long stored, long given, int was_given)
{
    if (was_given && stored != given)
        return cli_fail(cmd, "the database holds a run with %s %ld, not %ld (a different run?)", what, stored, given);
    return 0;
}

int cmd_tournament(int argc, char **argv)
{
    enum { O_POOL = 1000, O_DB, O_SETS, O_GAMES, O_SEED, O_JOBS, O_PAIR, O_SC, O_CR, O_DUP, O_REC, O_MT, O_CT,
           O_RESUME, O_JSON, O_QUIET, O_HELP, O_DEALS, O_SHARD, O_RANKTO };
    static const struct option opts[] = {
        {"pool", required_argument, 0, O_POOL},   {"db", required_argument, 0, O_DB},
        {"sets", required_argument, 0, O_SETS},   {"games", required_argument, 0, O_GAMES},
        {"seed", required_argument, 0, O_SEED},   {"jobs", required_argument, 0, O_JOBS},
        {"pairing", required_argument, 0, O_PAIR}, {"seat-change", required_argument, 0, O_SC},
        {"class-reset", required_argument, 0, O_CR}, {"duplicate", no_argument, 0, O_DUP},
        {"records", no_argument, 0, O_REC},       {"move-timeout", required_argument, 0, O_MT},
        {"connect-timeout", required_argument, 0, O_CT}, {"resume", no_argument, 0, O_RESUME},
        {"json", no_argument, 0, O_JSON},         {"quiet", no_argument, 0, O_QUIET},
        {"deals", required_argument, 0, O_DEALS}, {"shard", required_argument, 0, O_SHARD},
        {"rank-timeout", required_argument, 0, O_RANKTO},
        CLI_WATCH_OPTS,
        {"help", no_argument, 0, O_HELP},
        {0, 0, 0, 0}};
    const char *cmd = "tournament";
    const char *pool_path = NULL, *db = NULL, *deals_path = NULL;
    int shard_i = 0, shard_n = 0;
    long rank_timeout = 0;
    long sets = 100, games = 10000, jobs = sysconf(_SC_NPROCESSORS_ONLN), sc = 3, cr = 100, mt = 10000, ct = 10000;
    uint64_t seed = 1;
    int pairing = PAIR_RANDOM, dup = 0, records = 0, resume = 0, json = 0, quiet = 0, c;
    unsigned given = 0; /* which run options were given on the command line */
    CliWatch watch = {.on = 0};
    watch_config_default(&watch.cfg);
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        if (c >= O_POOL && c <= O_MT)
            given |= 1u << (c - O_POOL);
        switch (c) {
        case O_POOL: pool_path = optarg; break;
        case O_DB: db = optarg; break;
        case O_SETS: if (cli_long(cmd, "--sets", optarg, 1, 100000000, &sets)) return 2; break;
        case O_GAMES: if (cli_long(cmd, "--games", optarg, 1, 100000000, &games)) return 2; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &jobs)) return 2; break;
        case O_PAIR:
            if (!strcmp(optarg, "random"))
                pairing = PAIR_RANDOM;
            else if (!strcmp(optarg, "all"))
                pairing = PAIR_ALL;
            else if (!strcmp(optarg, "fixed"))
                pairing = PAIR_FIXED;
            else
                return cli_fail(cmd, "--pairing: '%s' is not random, all or fixed", optarg);
            break;
        case O_SC: if (cli_long(cmd, "--seat-change", optarg, 0, 1000000, &sc)) return 2; break;
        case O_CR: if (cli_long(cmd, "--class-reset", optarg, 0, 100000000, &cr)) return 2; break;
        case O_DUP: dup = 1; break;
        case O_REC: records = 1; break;
        case O_MT: if (cli_long(cmd, "--move-timeout", optarg, 0, 86400000, &mt)) return 2; break;
        case O_CT: if (cli_long(cmd, "--connect-timeout", optarg, 100, 86400000, &ct)) return 2; break;
        case O_RESUME: resume = 1; break;
        case O_DEALS: deals_path = optarg; break;
        case O_RANKTO: if (cli_long(cmd, "--rank-timeout", optarg, 0, 86400000L * 7, &rank_timeout)) return 2; break;
        case O_SHARD: {
            char tail;
            if (sscanf(optarg, "%d/%d%c", &shard_i, &shard_n, &tail) != 2 || shard_n < 1 || shard_n > 100000 ||
                shard_i < 0 || shard_i >= shard_n)
                return cli_fail(cmd, "--shard: I/N with 0 <= I < N, e.g. 0/4, not '%s'", optarg);
            break;
        }
        case O_JSON: json = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_HELP: usage(stdout); return 0;
        default:
            if (cli_watch_opt(cmd, c, optarg, &watch))
                return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    if (!db)
        return cli_fail(cmd, "--db FILE.sqlite is required");
    char err[1024];
    Pool pool;
    Store *st = NULL;
    RunInfo run;
    memset(&run, 0, sizeof run);
    int rc = 0;
    DealSuite suite = {0, NULL};
    if (resume && deals_path)
        return cli_fail(cmd, "--deals: a resumed run plays the deals it stored when it began");
    if (deals_path && deals_load(deals_path, &suite, err, sizeof err))
        return cli_fail(cmd, "--deals: %s", err);
    if (resume) {
        CliStore cs;
        if (cli_store_open(cmd, db, 1, &cs))
            return 1;
        st = cs.st; /* keep the store and the run; drop the names */
        run = cs.run;
        if (pool_parse(run.pool_text, db, &pool, err, sizeof err)) {
            store_free_names(cs.n, cs.names, cs.specs);
            store_free_run(&run);
            store_close(st);
            return cli_error(cmd, "the stored pool is no longer valid: %s", err);
        }
        int same = pool.n == cs.n;
        for (int i = 0; same && i < pool.n; i++)
            same = !strcmp(pool.e[i].name, cs.names[i]) && !strcmp(pool.e[i].spec, cs.specs[i]);
        store_free_names(cs.n, cs.names, cs.specs);
        if (!same) {
            pool_free(&pool);
            store_free_run(&run);
            store_close(st);
            return cli_error(cmd, "damaged database %s: its players table does not match the pool it stores", db);
        }
        if (pool_path) {
            Pool p2;
            if (pool_load(pool_path, &p2, err, sizeof err)) {
                rc = cli_fail(cmd, "%s", err);
            } else {
                if (strcmp(p2.text, run.pool_text))
                    rc = cli_fail(cmd, "the database holds a run with another pool than %s (a different run?)",
                                  pool_path);
                pool_free(&p2);
            }
        }
        int stored_pair = !strcmp(run.pairing, "all") ? PAIR_ALL : !strcmp(run.pairing, "fixed") ? PAIR_FIXED : PAIR_RANDOM;
        rc = rc ? rc : check_same(cmd, "--sets", run.duplicate ? run.sets / 5 : run.sets, sets, given & (1u << (O_SETS - O_POOL)));
        rc = rc ? rc : check_same(cmd, "--games", run.games, games, given & (1u << (O_GAMES - O_POOL)));
        rc = rc ? rc : check_same(cmd, "--seed", (long)run.seed, (long)seed, given & (1u << (O_SEED - O_POOL)));
        rc = rc ? rc : check_same(cmd, "--pairing (0 random, 1 all, 2 fixed)", stored_pair, pairing, given & (1u << (O_PAIR - O_POOL)));
        rc = rc ? rc : check_same(cmd, "--seat-change", run.seat_change, sc, given & (1u << (O_SC - O_POOL)));
        rc = rc ? rc : check_same(cmd, "--class-reset", run.class_reset, cr, given & (1u << (O_CR - O_POOL)));
        rc = rc ? rc : check_same(cmd, "--duplicate", run.duplicate, dup, dup);
        rc = rc ? rc : check_same(cmd, "--records", run.records, records, records);
        if (rc) {
            pool_free(&pool);
            store_free_run(&run);
            store_close(st);
            return rc;
        }
        pairing = stored_pair;
        mt = run.move_timeout_ms;
        char sv[64];
        int si = 0, sn = 0;
        if (store_meta_get(st, "shard", sv, sizeof sv) && sscanf(sv, "%d/%d", &si, &sn) != 2)
            sn = 0;
        if (shard_n && (shard_n != sn || shard_i != si)) {
            pool_free(&pool);
            store_free_run(&run);
            store_close(st);
            return cli_fail(cmd, "--shard %d/%d: the stored run is %s", shard_i, shard_n, sn ? sv : "not a shard");
        }
        shard_i = si;
        shard_n = sn;
    } else {
        if (!pool_path)
            return cli_fail(cmd, "--pool FILE is required (or --resume)");
        if (pool_load(pool_path, &pool, err, sizeof err))
            return cli_fail(cmd, "%s", err);
        if (pairing == PAIR_FIXED && pool.n != 5) {
            pool_free(&pool);
            return cli_fail(cmd, "--pairing fixed needs exactly 5 players; %s has %d", pool_path, pool.n);
        }
        if (pairing == PAIR_ALL && !(given & (1u << (O_SETS - O_POOL)))) {
            sets = tournament_subsets(pool.n);
            if (sets > TOURNAMENT_MAX_SETS / (dup ? 5 : 1)) {
                int n = pool.n;
                pool_free(&pool);
                return cli_fail(cmd, "--pairing all with %d players is C(%d,5) = %ld sets%s, more than the %ld one run "
                                     "can hold; give --sets N (sets cycle through the 5-subsets in order)",
                                n, n, sets, dup ? " x 5 (--duplicate)" : "", TOURNAMENT_MAX_SETS);
            }
        }
        if ((dup ? 5 * sets : sets) > TOURNAMENT_MAX_SETS) {
            pool_free(&pool);
            return cli_fail(cmd, "--sets %ld%s: at most %ld stored sets per run", sets, dup ? " x 5 (--duplicate)" : "",
                            TOURNAMENT_MAX_SETS);
        }
        TournamentConfig d = {.pool = &pool, .sets = dup ? 5 * sets : sets, .games = (int)games, .seat_change = (int)sc,
                              .class_reset = (int)cr, .seed = seed, .pairing = pairing, .duplicate = dup,
                              .records = records, .move_timeout_ms = (int)mt};
        tournament_run_info(&d, DHM_VERSION, &run);
        run.pool_text = strdup(pool.text);
        run.deals = suite.hand; /* the store keeps them: a resumed run plays the same deals */
        run.ndeals = suite.n;
        suite.hand = NULL;
        size_t k = 0;
        for (int i = 0; i < argc + 1 && k + 2 < sizeof run.command; i++)
            k += (size_t)snprintf(run.command + k, sizeof run.command - k, "%s%s", i ? " " : "", i ? argv[i - 1] : "dhm");
        if (!run.pool_text || tournament_store_create(&st, db, &pool, &run, err, sizeof err))
            rc = cli_error(cmd, "%s", run.pool_text ? err : "out of memory");
        if (!rc && shard_n > 1) {
            char sv[64];
            snprintf(sv, sizeof sv, "%d/%d", shard_i, shard_n);
            if (store_meta_set(st, "shard", sv, err, sizeof err))
                rc = cli_error(cmd, "%s", err);
        }
        if (rc) {
            pool_free(&pool);
            store_free_run(&run);
            return rc;
        }
    }
    char logdir[1024];
    snprintf(logdir, sizeof logdir, "%s.logs", db);
    TournamentConfig tc = {.pool = &pool, .sets = run.sets, .games = run.games, .seat_change = run.seat_change,
                           .class_reset = run.class_reset, .seed = run.seed, .jobs = (int)jobs, .pairing = pairing,
                           .duplicate = run.duplicate, .records = run.records, .move_timeout_ms = (int)mt,
                           .connect_timeout_ms = (int)ct, .log_dir = logdir, .progress = on_progress, .stop = &g_stop,
                           .deals = (const Cards(*)[NPLAYERS])run.deals, .ndeals = run.ndeals,
                           .shard_i = shard_i, .shard_n = shard_n, .python = cli_python()};
    Prog pg;
    memset(&pg, 0, sizeof pg);
    TWatch tw;
    memset(&tw, 0, sizeof tw);
    TournamentWatch tws = {&tw, tw_begin, tw_game, tw_end};
    const char **pool_names = calloc((size_t)pool.n, sizeof *pool_names);
    for (int i = 0; pool_names && i < pool.n; i++)
        pool_names[i] = pool.e[i].name;
    if (watch.on && mpi_size() > 1)
        rc = cli_fail(cmd, "--watch: not with MPI ranks (watch a single machine's run)");
    else if (watch.on && !pool_names)
        rc = cli_error(cmd, "out of memory");
    if (!rc && watch.on && !(rc = cli_watch_start(cmd, &watch))) {
        long ok = 0, bad = 0;
        store_count_sets(st, &ok, &bad);
        tw = (TWatch){.w = watch.server, .st = st, .n = pool.n, .names = pool_names, .already = ok + bad,
                      .last_done = -1};
        tw.t.max_failed = 1000;
        tw.t.rows = calloc((size_t)pool.n, sizeof *tw.t.rows);
        tw.t.failed = calloc((size_t)tw.t.max_failed, sizeof *tw.t.failed);
        tw.sent_idx = calloc((size_t)tw.t.max_failed, sizeof *tw.sent_idx);
        if (!tw.t.rows || !tw.t.failed || !tw.sent_idx ||
            watch_tournament(watch.server, pool.n, pool_names, run.sets, run.games, (int)jobs, db))
            rc = cli_error(cmd, "--watch: out of memory");
        else {
            tc.watch = &tws;
            pg.tw = &tw;
            tw_standings(&tw); /* a resumed run's sets so far */
            watch_progress(watch.server, tw.already, run.sets, 0, 0.0, tw.already); /* the page's first figures */
        }
    }
    if (rc) {
        tw_close(cmd, &watch, &tw, pool_names, 1);
        pool_free(&pool);
        store_free_run(&run);
        store_close(st);
        return rc;
    }
    CliCatch cc;
    cli_catch_stop(&cc, &g_stop);
    progress_init(&pg.p, "tournament:", run.sets, !quiet);
    pg.t0 = cli_now();
    tc.progress_ctx = &pg;
    if (!quiet && shard_n > 1)
        fprintf(stderr, "dhm tournament: shard %d/%d of %ld sets of %d games among %d players, %ld jobs, into %s\n",
                shard_i, shard_n, run.sets, run.games, pool.n, jobs, db);
    else if (!quiet)
        fprintf(stderr, "dhm tournament: %ld sets of %d games among %d players, %ld jobs, into %s\n", run.sets,
                run.games, pool.n, jobs, db);
    int lost = 0, tr;
    if (mpi_size() > 1) {
        if (!quiet)
            fprintf(stderr, "dhm tournament: %d MPI ranks play; rank 0 stores\n", mpi_size() - 1);
        tr = tournament_run_mpi(&tc, st, rank_timeout, &lost, err, sizeof err);
    } else {
        tr = tournament_run(&tc, st, err, sizeof err);
    }
    progress_done(&pg.p);
    cli_catch_stop_end(&cc);
    if (pg.tw) { /* the last standings, and the final progress */
        long ok = 0, bad = 0;
        store_count_sets(st, &ok, &bad);
        tw_standings(&tw);
        watch_progress(watch.server, ok + bad, run.sets, pg.games, cli_now() - pg.t0, tw.already);
    }
    if (tr == TOURNAMENT_STOPPED) {
        long ok = 0, bad = 0;
        store_count_sets(st, &ok, &bad);
        fprintf(stderr, "dhm tournament: stopped by signal %d: %ld of %ld sets are stored (the sets in progress were "
                        "dropped); continue with --resume --db %s\n",
                g_stop, ok + bad, run.sets, db);
        rc = 128 + (g_stop ? g_stop : SIGINT);
    } else if (tr) {
        rc = cli_error(cmd, "%s (the sets finished so far are stored; continue with --resume)", err);
    }
    if (lost)
        fprintf(stderr, "dhm tournament: %d MPI rank%s given up on (silent past --rank-timeout)%s\n", lost,
                lost == 1 ? " was" : "s were", tr ? "" : "; other ranks played their sets");
    if (!rc) {
        char now[40];
        store_now(now, sizeof now);
        store_finish_run(st, now);
        char **names = malloc((size_t)pool.n * sizeof *names);
        for (int i = 0; names && i < pool.n; i++)
            names[i] = pool.e[i].name;
        long not_ok = 0;
        rc = names ? print_summary(cmd, st, pool.n, names, json, &not_ok) : cli_error(cmd, "out of memory");
        free(names);
        if (!rc && not_ok)
            rc = 3; /* the run is complete, but not every set was played cleanly */
    }
    tw_close(cmd, &watch, &tw, pool_names, quiet);
    pool_free(&pool);
    store_free_run(&run);
    store_close(st);
    if (lost) /* the store is complete and closed; the lost ranks would never see the job end */
        mpi_end_job(rc);
    return rc;
}

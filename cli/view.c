/* view.c — `dhm view`: recorded games for a person (the terminal, one HTML page) or a program
 * (JSON), from a kifu file or one set of a tournament store, and with --analyze the evaluator's
 * verdict on every decision (analysis/review.h). Every picked game is read and checked before
 * anything is printed, and a page goes to a temporary file renamed into place only when
 * complete, so an error never leaves a partial view that looks whole. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/gamelist.h"
#include "analysis/gamepick.h"
#include "analysis/gameview.h"
#include "analysis/review.h"
#include "cli/cli.h"
#include "players/mc.h"
#include "players/players.h"
#include "report/view.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm view [--game N | --games A-B | --index I | --indexes A-B] FILE.kifu [options]\n"
            "       dhm view --db FILE.sqlite --set K [--game N | --games A-B] [options]\n"
            "Recorded games for a person: the deal (hands sorted), the exchange (who gave what to whom), every\n"
            "trick with each play or pass and what it did (revolution, lock, 8-cut, going out), and the result.\n"
            "With --analyze, the evaluator's verdict on every decision with at least two choices, judged from\n"
            "what the player could see, as dhm errorrate judges it (same seed, same losses): the value of the\n"
            "choice made, the best choice and its value, the loss and a mark (?! doubtful from a loss of 0.04,\n"
            "? bad from 0.08, ?? very bad from 0.16, or when a certain win was passed up); per player the error\n"
            "rate with its interval, the marks and the luck. docs/analysis.md explains how to read it.\n\n"
            "  FILE.kifu            a kifu record file (dhm play --record, dhm records export, ../shared/data)\n"
            "  --db FILE --set K    or one set of a tournament store made with --records\n"
            "  --game N             the game numbered N (the record's `game N`; in a set: 0, 1, ...)\n"
            "  --games A-B          the games numbered A to B (default: every game)\n"
            "  --index I            a file's game at position I, 0-based (dhm errorrate's `game` column)\n"
            "  --indexes A-B        a file's games at positions A to B\n"
            "  --include-broken     a set not played cleanly (indices then count such sets, as dhm errorrate\n"
            "                       --include-broken does)\n"
            "  -o, --out FILE       write one self-contained HTML page (JSON with --json) instead of the terminal\n"
            "  --json               JSON (on stdout, or into --out)\n"
            "  --color WHEN         auto (a terminal, NO_COLOR unset), always or never\n"
            "  --analyze            judge every decision (CPU-heavy: about 0.5 s a game with the defaults, 2 cores)\n"
            "  --players LIST       judge these players only (names as in the records; default everyone)\n"
            "  --evaluator SPEC     an mc player (default mc)\n"
            "  --worlds N           paired worlds per decision (100)\n"
            "  --seed S             the worlds (1): the same as dhm errorrate --seed S\n"
            "  --jobs J             threads (2); the result does not depend on it\n"
            "  --alternatives       also the three best choices of every judged decision\n"
            "  --marks-at D,B,V     the losses that make a decision doubtful, bad, very bad (0.04,0.08,0.16)\n"
            "  --bootstrap N        replicates for the intervals (1000)\n"
            "  --save               store the analyses in the --db store, for dhm report's games section\n"
            "  --quiet              no progress line\n");
}

static int keep(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index, long set)
{
    GameList *l = ctx;
    return l->n >= 100000000 ? -1 : gamelist_add(l, rec, names, index, set);
}

/* "A-B" or "N" (lo = hi) with 0 <= A <= B. */
static int parse_range(const char *cmd, const char *opt, const char *val, long *lo, long *hi)
{
    char a[32];
    const char *dash = strchr(val, '-');
    if (!dash)
        return cli_long(cmd, opt, val, 0, 100000000, lo) ? -1 : (*hi = *lo, 0);
    snprintf(a, sizeof a, "%.*s", (int)(dash - val < 31 ? dash - val : 31), val);
    if (cli_long(cmd, opt, a, 0, 100000000, lo) || cli_long(cmd, opt, dash + 1, 0, 100000000, hi))
        return -1;
    if (*hi < *lo) {
        cli_fail(cmd, "%s: '%s' is not a range A-B with A <= B", opt, val);
        return -1;
    }
    return 0;
}

/* "D,B,V": three increasing losses in (0, 1]. */
static int parse_marks(const char *cmd, const char *val, double out[3])
{
    char buf[128], *save = NULL;
    snprintf(buf, sizeof buf, "%s", val);
    int k = 0;
    double v[4];
    for (char *t = strtok_r(buf, ",", &save); t && k < 4; t = strtok_r(NULL, ",", &save))
        if (cli_double(cmd, "--marks-at", t, 1e-9, 1, &v[k++]))
            return -1;
    if (k != 3 || !(v[0] < v[1] && v[1] < v[2])) {
        cli_fail(cmd, "--marks-at: '%s' is not three increasing losses D,B,V", val);
        return -1;
    }
    memcpy(out, v, 3 * sizeof *v);
    return 0;
}

static void on_progress(void *ctx, long done, long total)
{
    Progress *p = ctx;
    p->total = total;
    progress_update(p, done, " decisions");
}

/* The player numbers of game k whose names are listed (every player without a list). */
static unsigned judged_mask(const GameList *p, int k, char (*judge)[128], int njudge)
{
    unsigned mask = 0;
    for (int q = 0; q < NPLAYERS; q++) {
        int want = njudge == 0;
        for (int i = 0; i < njudge && !want; i++)
            want = !strcmp(judge[i], p->names[k][q]);
        mask |= (unsigned)want << q;
    }
    return mask;
}

static int save_reviews(const char *cmd, const char *db, const GameList *p, const GameRecord *recs, const GameReview *r,
                        const ReviewConfig *rc)
{
    StoredReview *rows = calloc((size_t)p->n, sizeof *rows);
    if (!rows)
        return cli_error(cmd, "out of memory");
    char now[40], err[512];
    store_now(now, sizeof now);
    int rcode = 0;
    for (int k = 0; k < p->n && !rcode; k++) {
        StoredReview *x = &rows[k];
        x->set = p->set[k];
        x->game = recs[k].number;
        snprintf(x->evaluator, sizeof x->evaluator, "%s", rc->evaluator);
        x->worlds = rc->worlds;
        x->seed = rc->seed;
        snprintf(x->made, sizeof x->made, "%s", now);
        if (!(x->data = review_pack(&r[k], &x->len)))
            rcode = cli_error(cmd, "out of memory");
    }
    CliStore cs;
    memset(&cs, 0, sizeof cs);
    if (!rcode)
        rcode = cli_store_open(cmd, db, 1, &cs);
    if (!rcode && store_save_reviews(cs.st, rows, p->n, err, sizeof err))
        rcode = cli_error(cmd, "%s: %s", db, err);
    if (!rcode)
        fprintf(stderr, "dhm view: saved the analyses of %ld game%s into %s\n", p->n, p->n == 1 ? "" : "s", db);
    if (cs.st)
        cli_store_close(&cs);
    for (int k = 0; k < p->n; k++)
        free(rows[k].data);
    free(rows);
    return rcode;
}

typedef struct Opts {
    GamePick pick;
    const char *out, *players;
    int json, color, analyze, alternatives, save, quiet, bootstrap;
    ReviewConfig rc;
} Opts;

/* Prints every picked game (with its review, if any) to f. Returns an exit status. */
static int render(const char *cmd, FILE *f, const Opts *o, const GameList *p, GameRecord *recs, const GameReview *rev,
                  const ReviewSummary *per_game, const ReviewSummary *all)
{
    ViewDoc d = {o->pick.kifu ? o->pick.kifu : o->pick.db, o->color, o->alternatives, o->analyze ? &o->rc : NULL,
                 o->bootstrap, 0.95};
    GameView *v = malloc(sizeof *v);
    GameRecord *one = recs ? NULL : malloc(sizeof *one);
    if (!v || (!recs && !one)) {
        free(v);
        free(one);
        return cli_error(cmd, "out of memory");
    }
    const char *names0[NPLAYERS];
    for (int q = 0; q < NPLAYERS; q++)
        names0[q] = p->names[0][q];
    if (o->json)
        view_json_begin(f, &d);
    else if (o->out)
        view_html_begin(f, &d, p->n);
    int rc = 0;
    for (int k = 0; k < p->n && !rc; k++) {
        GameRecord *rec = recs ? &recs[k] : one;
        char err[512];
        if (!recs && gamelist_get(p, k, rec)) {
            rc = cli_error(cmd, "game at index %ld: its record does not replay", p->index[k]);
            break;
        }
        if (gameview_build(rec, v, err, sizeof err)) {
            rc = cli_error(cmd, "%s", err);
            break;
        }
        const char *names[NPLAYERS];
        for (int q = 0; q < NPLAYERS; q++)
            names[q] = p->names[k][q];
        ViewGame g = {v, rev ? &rev[k] : NULL, per_game ? &per_game[(size_t)k * NPLAYERS] : NULL, names, p->index[k],
                      p->set[k]};
        if (o->json)
            view_json_game(f, &d, &g, k == 0);
        else if (o->out)
            view_html_game(f, &d, &g);
        else
            view_text_game(f, &d, &g);
    }
    if (!rc) {
        if (o->json)
            view_json_end(f, &d, all, p->n, names0);
        else if (o->out)
            view_html_end(f, &d, all, p->n, names0);
        else if (all && p->n > 1)
            view_text_summary(f, &d, all, p->n, names0);
    }
    free(v);
    free(one);
    return rc;
}

static int parse(const char *cmd, int argc, char **argv, Opts *o)
{
    enum { O_DB = 1000, O_SET, O_GAME, O_GAMES, O_INDEX, O_INDEXES, O_BROKEN, O_JSON, O_COLOR, O_ANALYZE, O_PLAYERS,
           O_EVAL, O_WORLDS, O_SEED, O_JOBS, O_ALT, O_MARKS, O_BOOT, O_SAVE, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"db", required_argument, 0, O_DB},           {"set", required_argument, 0, O_SET},
        {"game", required_argument, 0, O_GAME},       {"games", required_argument, 0, O_GAMES},
        {"index", required_argument, 0, O_INDEX},     {"indexes", required_argument, 0, O_INDEXES},
        {"include-broken", no_argument, 0, O_BROKEN}, {"out", required_argument, 0, 'o'},
        {"json", no_argument, 0, O_JSON},             {"color", required_argument, 0, O_COLOR},
        {"analyze", no_argument, 0, O_ANALYZE},       {"players", required_argument, 0, O_PLAYERS},
        {"evaluator", required_argument, 0, O_EVAL},  {"worlds", required_argument, 0, O_WORLDS},
        {"seed", required_argument, 0, O_SEED},       {"jobs", required_argument, 0, O_JOBS},
        {"alternatives", no_argument, 0, O_ALT},      {"marks-at", required_argument, 0, O_MARKS},
        {"bootstrap", required_argument, 0, O_BOOT},  {"save", no_argument, 0, O_SAVE},
        {"quiet", no_argument, 0, O_QUIET},           {"help", no_argument, 0, O_HELP},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    review_config_default(&o->rc);
    o->pick.set = -1;
    o->pick.from = o->pick.to = -1;
    o->bootstrap = 1000;
    const char *color = "auto";
    int c, nsel = 0, have_set = 0;
    long v;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_DB: o->pick.db = optarg; break;
        case O_SET: if (cli_long(cmd, "--set", optarg, 0, 100000000, &o->pick.set)) return 2; have_set = 1; break;
        case O_GAME:
        case O_INDEX:
            if (cli_long(cmd, c == O_GAME ? "--game" : "--index", optarg, 0, 100000000, &o->pick.from))
                return 2;
            o->pick.to = o->pick.from;
            o->pick.by_index = c == O_INDEX;
            nsel++;
            break;
        case O_GAMES:
        case O_INDEXES:
            if (parse_range(cmd, c == O_GAMES ? "--games" : "--indexes", optarg, &o->pick.from, &o->pick.to))
                return 2;
            o->pick.by_index = c == O_INDEXES;
            nsel++;
            break;
        case O_BROKEN: o->pick.include_broken = 1; break;
        case 'o': o->out = optarg; break;
        case O_JSON: o->json = 1; break;
        case O_COLOR: color = optarg; break;
        case O_ANALYZE: o->analyze = 1; break;
        case O_PLAYERS: o->players = optarg; break;
        case O_EVAL: o->rc.evaluator = optarg; break;
        case O_WORLDS: if (cli_long(cmd, "--worlds", optarg, 1, 2048, &v)) return 2; o->rc.worlds = (int)v; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &o->rc.seed)) return 2; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 64, &v)) return 2; o->rc.jobs = (int)v; break;
        case O_ALT: o->alternatives = 1; break;
        case O_MARKS: if (parse_marks(cmd, optarg, o->rc.mark_at)) return 2; break;
        case O_BOOT: if (cli_long(cmd, "--bootstrap", optarg, 0, 100000, &v)) return 2; o->bootstrap = (int)v; break;
        case O_SAVE: o->save = 1; break;
        case O_QUIET: o->quiet = 1; break;
        case O_HELP: usage(stdout); return -1;
        default: return 2;
        }
    }
    if (nsel > 1)
        return cli_fail(cmd, "--game, --games, --index and --indexes exclude each other");
    if (o->pick.db) {
        if (optind < argc)
            return cli_fail(cmd, "give either FILE.kifu or --db, not both ('%s')", argv[optind]);
        if (!have_set)
            return cli_fail(cmd, "--db needs --set K (the set whose games to view)");
        if (o->pick.by_index)
            return cli_fail(cmd, "--index and --indexes pick games of a kifu file; in a store use --set and --game");
    } else {
        if (optind == argc)
            return cli_fail(cmd, "give a kifu file or --db FILE.sqlite --set K (try --help)");
        if (optind + 1 < argc)
            return cli_fail(cmd, "one kifu file at a time ('%s' is one too many)", argv[optind + 1]);
        if (have_set || o->pick.include_broken)
            return cli_fail(cmd, "--set and --include-broken go with --db");
        o->pick.kifu = argv[optind];
    }
    if (!strcmp(color, "always") || !strcmp(color, "never") || !strcmp(color, "auto")) {
        const char *nc = getenv("NO_COLOR");
        o->color = !strcmp(color, "always") ||
                   (!strcmp(color, "auto") && !o->json && !o->out && isatty(STDOUT_FILENO) && !(nc && *nc));
    } else {
        return cli_fail(cmd, "--color: '%s' is not auto, always or never", color);
    }
    if (!o->analyze && (o->players || o->save || o->alternatives))
        return cli_fail(cmd, "--players, --alternatives and --save go with --analyze");
    if (o->save && !o->pick.db)
        return cli_fail(cmd, "--save stores into the --db store: view a stored set to save its analyses");
    if (o->analyze) {
        char err[512];
        Player *probe; /* the evaluator, before anything is read */
        if (player_create(o->rc.evaluator, 0, &probe, err, sizeof err))
            return cli_fail(cmd, "--evaluator: %s", err);
        int is_mc = mc_is(probe);
        player_destroy(probe);
        if (!is_mc)
            return cli_fail(cmd, "--evaluator: '%s' is not an mc or search player (it must estimate values)", o->rc.evaluator);
    }
    return 0;
}

int cmd_view(int argc, char **argv)
{
    const char *cmd = "view";
    Opts o;
    int rc = parse(cmd, argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    char judge[64][128];
    int njudge = 0;
    if (o.players && (njudge = player_split_list(o.players, judge, 64)) < 1)
        return cli_fail(cmd, "--players: a comma-separated list of names");

    GameList p;
    memset(&p, 0, sizeof p);
    char err[512];
    GameRecord *recs = NULL;
    GameReview *rev = NULL;
    ReviewSummary *per_game = NULL, all[NPLAYERS];
    FILE *f = NULL;
    char tmp[4200] = "";
    int r = gamepick_each(&o.pick, keep, &p, err, sizeof err);
    if (r) {
        rc = r < 0 && *err ? cli_error(cmd, "%s", err) : cli_error(cmd, "out of memory");
        goto out;
    }
    if (o.analyze) {
        recs = malloc((size_t)p.n * sizeof *recs);
        rev = calloc((size_t)p.n, sizeof *rev);
        per_game = calloc((size_t)p.n * NPLAYERS, sizeof *per_game);
        ReviewGame *games = malloc((size_t)p.n * sizeof *games);
        if (!recs || !rev || !per_game || !games) {
            free(games);
            rc = cli_error(cmd, "out of memory (%ld games to analyse)", p.n);
            goto out;
        }
        unsigned any = 0;
        for (int k = 0; k < p.n; k++) {
            if (gamelist_get(&p, k, &recs[k])) {
                free(games);
                rc = cli_error(cmd, "game at index %ld: its record does not replay", p.index[k]);
                goto out;
            }
            games[k].rec = &recs[k];
            games[k].index = p.index[k];
            any |= games[k].mask = judged_mask(&p, k, judge, njudge);
        }
        if (!any) {
            free(games);
            rc = cli_fail(cmd, "--players: no player of these games is named %s", o.players);
            goto out;
        }
        Progress pr;
        progress_init(&pr, "view:", 1, !o.quiet);
        o.rc.progress = on_progress;
        o.rc.progress_ctx = &pr;
        r = review_games(&o.rc, games, p.n, rev, err, sizeof err);
        progress_done(&pr);
        free(games);
        if (r) {
            rc = cli_error(cmd, "%s", err);
            goto out;
        }
        for (int k = 0; k < p.n && !r; k++)
            r = review_summarize(&rev[k], 1, o.bootstrap, 0.95, o.rc.seed, &per_game[(size_t)k * NPLAYERS]);
        if (r || review_summarize(rev, p.n, o.bootstrap, 0.95, o.rc.seed, all)) {
            rc = cli_error(cmd, "out of memory");
            goto out;
        }
        if (o.save && (rc = save_reviews(cmd, o.pick.db, &p, recs, rev, &o.rc)) != 0)
            goto out;
    }
    if (o.out) {
        snprintf(tmp, sizeof tmp, "%s.tmp-%ld", o.out, (long)getpid());
        if (!(f = fopen(tmp, "w"))) {
            rc = cli_error(cmd, "cannot write %s: %m", o.out);
            *tmp = 0;
            goto out;
        }
    }
    rc = render(cmd, f ? f : stdout, &o, &p, recs, rev, per_game, o.analyze ? all : NULL);
    if (f) {
        int bad = ferror(f);
        if (fclose(f) || bad) {
            if (!rc)
                rc = cli_error(cmd, "error writing %s", o.out);
        } else if (!rc && rename(tmp, o.out)) {
            rc = cli_error(cmd, "cannot write %s: %m", o.out);
        }
        if (!rc) {
            *tmp = 0;
            printf("%s\n", o.out);
        }
    }
out:
    if (*tmp)
        remove(tmp);
    for (int k = 0; rev && k < p.n; k++)
        review_free(&rev[k]);
    free(rev);
    free(per_game);
    free(recs);
    gamelist_free(&p);
    return rc;
}

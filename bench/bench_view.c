/* bench_view.c — `dhm view` (issue 20):
 *   - the analysis of one game: the first 5 games of a record of five players (random, simple,
 *     policy, mc:sims=30:playout=simple, simple; seed 1), each judged in full as `dhm view
 *     --analyze` does, with the default evaluator (mc), 100 paired worlds a decision and 2
 *     threads: seconds a game (mean and slowest) and decisions valued a second;
 *   - the terminal view: a 2,000-game record of the same players but the mc (seed 2; the
 *     mc is too slow to make many games, and the view does not care who played), viewed whole
 *     the way the command does it (read, replayed and checked, laid out, printed to /dev/null):
 *     games a second in-process (best of 5 runs, by the wall clock and by CPU time; goal 10,000),
 *     and the same through the command itself (`dhm view FILE > /dev/null`, best of 3, process
 *     start included). */
#include <string.h>
#include <unistd.h>

#include "analysis/gamepick.h"
#include "analysis/gameview.h"
#include "analysis/review.h"
#include "bench.h"
#include "game/match.h"
#include "players/players.h"
#include "record/kifu.h"
#include "report/view.h"

#define ANALYSED 5
#define VIEWED 2000

typedef struct Keep {
    FILE *f;
    GameRecord *recs;
    int n, max;
} Keep;

static int keep_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    Keep *k = ctx;
    kifu_write_game(k->f, rec);
    if (k->n < k->max)
        k->recs[k->n++] = *rec;
    return 0;
}

static int record(const char *const specs[NPLAYERS], int games, uint64_t seed, const char *path, GameRecord *recs, int max)
{
    static const char *const names[NPLAYERS] = {"p0", "p1", "p2", "p3", "p4"};
    char err[256];
    Player *pl[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        if (player_create(specs[p], player_seed(seed, p), &pl[p], err, sizeof err)) {
            fprintf(stderr, "bench_view: %s\n", err);
            return -1;
        }
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    kifu_write_header(f, names);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = games;
    cfg.seed = seed;
    Keep k = {f, recs, 0, max};
    GameRecord *scratch = malloc(sizeof *scratch);
    MatchResult res;
    int rc = scratch ? match_run(pl, &cfg, NULL, keep_game, &k, scratch, &res) : -1;
    free(scratch);
    fclose(f);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
    return rc;
}

/* This process's CPU time in seconds (the machine's neighbours slow the wall clock, less this). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct Sink {
    FILE *out;
    GameView *v;
    ViewDoc *d;
    long games;
} Sink;

static int show(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index, long set)
{
    Sink *s = ctx;
    char err[256];
    if (gameview_build(rec, s->v, err, sizeof err))
        return -1;
    ViewGame g = {s->v, NULL, NULL, names, index, set};
    view_text_game(s->out, s->d, &g);
    s->games++;
    return 0;
}

int main(void)
{
    static const char *const specs[NPLAYERS] = {"random", "simple", "policy", "mc:sims=30:playout=simple", "simple"};
    static const char *const fast[NPLAYERS] = {"random", "simple", "policy", "random", "simple"};
    char path[] = "/tmp/dhm-bench-view-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    GameRecord *recs = malloc(ANALYSED * sizeof *recs);
    if (!recs || record(specs, ANALYSED, 1, path, recs, ANALYSED))
        return 1;

    /* the analysis of one game, as dhm view --analyze */
    ReviewConfig rc;
    review_config_default(&rc); /* mc, 100 worlds, 2 threads */
    double worst = 0, sum = 0;
    long decisions = 0;
    for (int g = 0; g < ANALYSED; g++) {
        ReviewGame rg = {&recs[g], g, 31};
        GameReview r;
        char err[256];
        double t = bench_now();
        if (review_games(&rc, &rg, 1, &r, err, sizeof err)) {
            fprintf(stderr, "bench_view: %s\n", err);
            return 1;
        }
        t = bench_now() - t;
        sum += t;
        worst = t > worst ? t : worst;
        decisions += r.n;
        review_free(&r);
    }
    bench_report("view_analyze_seconds_per_game_mc_100_worlds_2_threads", sum / ANALYSED, "s");
    bench_report("view_analyze_slowest_game_seconds", worst, "s");
    bench_report("view_analyze_decisions_per_second", (double)decisions / sum, "decisions/s");

    /* the terminal view */
    if (record(fast, VIEWED, 2, path, NULL, 0))
        return 1;
    GamePick pick = {path, NULL, -1, 0, 0, -1, -1};
    ViewDoc d = {path, 0, 0, NULL, 1000, 0.95};
    Sink s = {fopen("/dev/null", "w"), malloc(sizeof(GameView)), &d, 0};
    double best = 0, best_cpu = 0;
    for (int run = 0; run < 5; run++) {
        char err[256];
        s.games = 0;
        double t = bench_now(), c = cpu_now();
        if (gamepick_each(&pick, show, &s, err, sizeof err)) {
            fprintf(stderr, "bench_view: %s\n", err);
            return 1;
        }
        t = bench_now() - t;
        c = cpu_now() - c;
        if (s.games / t > best)
            best = (double)s.games / t;
        if (s.games / c > best_cpu)
            best_cpu = (double)s.games / c;
    }
    bench_report("view_text_games_per_second_in_process", best, "games/s");
    bench_report("view_text_games_per_cpu_second_in_process", best_cpu, "games/s");
    const char *dhm = getenv("DHM");
    if (dhm && *dhm) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "%s view %s > /dev/null", dhm, path);
        best = 0;
        for (int run = 0; run < 3; run++) {
            double t = bench_now();
            if (system(cmd) != 0) {
                fprintf(stderr, "bench_view: %s failed\n", cmd);
                return 1;
            }
            t = bench_now() - t;
            if (VIEWED / t > best)
                best = VIEWED / t;
        }
        bench_report("view_text_games_per_second_command", best, "games/s");
    }
    fclose(s.out);
    free(s.v);
    free(recs);
    remove(path);
    return 0;
}

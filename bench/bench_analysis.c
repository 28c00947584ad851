/* bench_analysis.c — the analyses of recorded games (issue 13):
 *   - the error rate: a 100-game record of five players (random, simple, policy,
 *     mc:sims=30:playout=simple, simple; seed 1) judged in full by the default evaluator (mc)
 *     with the default 100 paired worlds a decision, on 2 threads as `dhm errorrate` runs:
 *     seconds for the record and decisions judged per second;
 *   - initial-hand win rates: 10,000 playouts (simple, eps 0.1) for one game, on one core,
 *     over the first 20 games of the same record: milliseconds per game (goal <= 30 ms). */
#include <string.h>

#include "analysis/errorrate.h"
#include "analysis/handstrength.h"
#include "bench.h"
#include "game/match.h"
#include "players/players.h"
#include "record/kifu.h"

#define GAMES 100

typedef struct Keep {
    FILE *f;
    GameRecord *recs;
    int n;
} Keep;

static int keep_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    Keep *k = ctx;
    kifu_write_game(k->f, rec);
    if (k->n < GAMES)
        k->recs[k->n++] = *rec;
    return 0;
}

int main(void)
{
    static const char *const specs[NPLAYERS] = {"random", "simple", "policy", "mc:sims=30:playout=simple", "simple"};
    static const char *const names[NPLAYERS] = {"random", "simple", "policy", "mc30s", "simple2"};
    char err[512], path[] = "/tmp/dhm-bench-analysis-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    FILE *f = fdopen(fd, "w");
    Player *pl[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        if (player_create(specs[p], player_seed(1, p), &pl[p], err, sizeof err)) {
            fprintf(stderr, "bench_analysis: %s\n", err);
            return 1;
        }
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = GAMES;
    cfg.seed = 1;
    Keep k = {f, malloc(GAMES * sizeof(GameRecord)), 0};
    GameRecord *scratch = malloc(sizeof *scratch);
    MatchResult res;
    if (!k.recs || !scratch)
        return 1;
    kifu_write_header(f, names);
    if (match_run(pl, &cfg, NULL, keep_game, &k, scratch, &res))
        return 1;
    fclose(f);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);

    /* the error rate of the whole record */
    ErrConfig ec;
    memset(&ec, 0, sizeof ec);
    ec.evaluator = "mc";
    ec.worlds = 100;
    ec.seed = 1;
    ec.jobs = 2;
    ec.bootstrap = 1000;
    ec.confidence = 0.95;
    const char *kifu[1] = {path};
    GameSource src = {kifu, 1, NULL, 0, 0};
    ErrResult er;
    double t0 = bench_now();
    if (errorrate_run(&ec, &src, &er, err, sizeof err)) {
        fprintf(stderr, "bench_analysis: %s\n", err);
        return 1;
    }
    double secs = bench_now() - t0;
    bench_report("errorrate_seconds_100_games_2_threads", secs, "s");
    bench_report("errorrate_decisions_per_second_2_threads", (double)er.judged / secs, "decisions/s");
    bench_report("errorrate_decisions_judged", (double)er.judged, "decisions");
    errorrate_free(&er);
    remove(path);

    /* initial-hand win rates, one core */
    HandConfig hc = {10000, HAND_SIMPLE, 0.1, 1, NULL};
    double best = 1e9;
    for (int run = 0; run < 3; run++) {
        double t = bench_now();
        for (int g = 0; g < 20; g++) {
            HandWins hw;
            hand_wins(&hc, &k.recs[g], hand_seed(1, 0, g), &hw);
        }
        t = (bench_now() - t) / 20;
        if (t < best)
            best = t;
    }
    bench_report("handstrength_ms_per_game_10000_playouts", best * 1000, "ms");
    free(k.recs);
    free(scratch);
    return 0;
}

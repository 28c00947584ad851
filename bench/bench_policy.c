/* bench_policy.c — the strong player's building blocks: policy playouts per second with the
 * built-in weights (the fastest public engine: 27,000-34,000 with its linear policy; goal
 * >= 100,000), the exact two-player solve on every two-player position of blaux5 (the
 * reference averages about 62 µs and 970 nodes there; goal <= 30 µs), and the sure-win test. */
#include <string.h>

#include "analysis/games.h"
#include "bench.h"
#include "game/game.h"
#include "players/endgame.h"
#include "players/policy.h"

typedef struct Playouts {
    const PolicyWeights *w;
    Rng rng;
    long plies;
} Playouts;

static long playout_batch(void *arg)
{
    Playouts *p = arg;
    for (int k = 0; k < 200; k++) {
        Cards hand[NPLAYERS];
        uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
        game_deal(seat, k % 5, &p->rng, hand);
        GameState g;
        state_init(&g, hand, seat, game_first_player(hand));
        p->plies += policy_playout(p->w, &g, &p->rng, 1.0);
    }
    return 200;
}

#define MAX_POS 4096

typedef struct Positions {
    GameState g[MAX_POS];
    int n;
} Positions;

static void collect_pos(void *ctx, const GameState *g, Move played)
{
    (void)played;
    Positions *p = ctx;
    if (p->n < MAX_POS && g->nout == 3)
        p->g[p->n++] = *g;
}

static int each_game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    (void)names;
    (void)index;
    GameState g;
    state_init(&g, rec->original, rec->seat, rec->first);
    for (int i = 0; i < rec->nplays && !g.over; i++) {
        collect_pos(ctx, &g, rec->plays[i].move);
        state_apply(&g, rec->plays[i].move);
    }
    return 0;
}

int main(void)
{
    char err[256];
    const PolicyWeights *w = policy_builtin(err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_policy: %s\n", err);
        return 1;
    }
    static Playouts p;
    p.w = w;
    p.rng = rng_seed(3);
    double rate = bench_best_rate(playout_batch, &p, 5, 0.4);
    bench_report("policy_playouts_fresh_deal_builtin_weights", rate, "playouts/s");

    const char *path = bench_shared("data/blaux5.kifu");
    if (!path) {
        printf("%-44s %12s (../shared/data/blaux5.kifu absent)\n", "endgame2_blaux5_positions", "skipped");
        return 0;
    }
    static Positions pos;
    const char *files[1] = {path};
    GameSource src = {files, 1, NULL, 0, 0};
    if (games_each(&src, each_game, &pos, err, sizeof err)) {
        fprintf(stderr, "bench_policy: %s\n", err);
        return 1;
    }
    static EndgameTT tt;
    bench_report("endgame2_blaux5_positions", pos.n, "positions");
    /* cold: the table cleared before every position (each solved on its own); warm: the
     * table kept from position to position, as a player keeps it through a game */
    static const long LIMITS[2] = {10000, 1000000};
    for (int warm = 0; warm < 2; warm++)
        for (int li = 0; li < 2; li++) {
            double best = 1e9;
            long nodes = 0, undecided = 0;
            for (int run = 0; run < 3; run++) {
                long nn = 0;
                undecided = 0;
                endgame_tt_clear(&tt);
                double t0 = bench_now();
                for (int i = 0; i < pos.n; i++) {
                    long k;
                    if (!warm)
                        endgame_tt_clear(&tt);
                    undecided += endgame_solve2(&pos.g[i], LIMITS[li], &tt, NULL, &k) < 0;
                    nn += k;
                }
                double us = (bench_now() - t0) * 1e6 / pos.n;
                if (us < best)
                    best = us;
                nodes = nn;
            }
            char name[96];
            snprintf(name, sizeof name, "endgame2_blaux5_%s_limit_%ldk", warm ? "warm" : "cold", LIMITS[li] / 1000);
            bench_report(name, best, "us/position");
            printf("%-44s %12.0f nodes/position, %ld undecided\n", "", (double)nodes / pos.n, undecided);
        }
    long claims = 0;
    double t0 = bench_now();
    for (int rep = 0; rep < 20; rep++)
        for (int i = 0; i < pos.n; i++)
            claims += endgame_sure_win_state(&pos.g[i], NULL);
    bench_report("sure_win_blaux5_two_player_positions", (bench_now() - t0) * 1e9 / (20.0 * pos.n), "ns/call");
    bench_report("sure_win_claimed", (double)claims / 20, "positions");
    return 0;
}

/* bench_policy.c — the strong player's building blocks: policy playouts per second with the
 * built-in weights (the fastest public engine: 27,000-34,000 with its linear policy; goal
 * >= 100,000), the exact two-player solve on the two-player positions of blaux5 (all 839
 * with the table kept, as FujiGokoro's book is: 8 µs and 134 nodes there; the first of each
 * game: 59 µs and 972 nodes; goals <= 4 µs and <= 30 µs), and the sure-win test.
 *
 * `bench_policy --fixed` does a fixed amount of the same work untimed, for instruction counts
 * that repeat whatever the machine's load (2,000 playouts; each endgame list solved once):
 *   valgrind --tool=callgrind build/bench/bench_policy --fixed
 *   callgrind_annotate --inclusive=yes callgrind.out.PID | grep -E 'playout_batch|fixed_solve'
 * and prints the plies played and a hash of every solve's result and node count, so two builds
 * can be checked to do the same.
 * valgrind 3.19 does not decode AVX-512: on such a CPU, measure a build without it
 * (`make O=build-cg CPUFLAGS=-march=x86-64-v3 benches`, then build-cg/bench/...). */
#include <inttypes.h>
#include <string.h>

#include "analysis/games.h"
#include "bench.h"
#include "game/game.h"
#include "players/devkit.h"
#include "players/endgame.h"
#include "players/policy.h"

typedef struct Playouts {
    const PolicyWeights *w;
    Rng rng;
    long plies, games;
} Playouts;

/* A fresh deal (the k-th of a batch: the dealer rotates), at its first play. */
static void fresh_game(Playouts *p, int k, GameState *g)
{
    Cards hand[NPLAYERS];
    uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    game_deal(seat, k % 5, &p->rng, hand);
    state_init(g, hand, seat, game_first_player(hand));
}

static __attribute__((noinline)) long playout_batch(void *arg)
{
    Playouts *p = arg;
    for (int k = 0; k < 200; k++) {
        GameState g;
        fresh_game(p, k, &g);
        p->plies += policy_playout(p->w, &g, &p->rng, 1.0);
    }
    return 200;
}

/* Whole games of five `devkit` seats (the sample client's rule; the playouts of mc:odevkit). */
static __attribute__((noinline)) long devkit_batch(void *arg)
{
    Playouts *p = arg;
    for (int k = 0; k < 200; k++) {
        GameState g;
        fresh_game(p, k, &g);
        DevkitSeen s;
        memset(&s, 0, sizeof s);
        devkit_seen_game_start(&s);
        while (!g.over) {
            Move m = devkit_choose(&s, g.hand[g.turn], g.table, g.rev, g.lock);
            if (!state_is_legal(&g, m))
                m = move_pass();
            if (state_apply(&g, m) & EV_STALEMATE)
                state_finish_stalemate(&g, &p->rng);
            devkit_seen_move(&s, m, g.table, g.rev, g.lock);
            p->plies++;
        }
        p->games++;
    }
    return 200;
}

#define MAX_POS 4096

typedef struct Positions {
    GameState g[MAX_POS];
    int n;
    int first[256], nfirst; /* the first two-player position of each game */
} Positions;

static int each_game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    (void)names;
    (void)index;
    Positions *p = ctx;
    GameState g;
    state_init(&g, rec->original, rec->seat, rec->first);
    int seen = 0;
    for (int i = 0; i < rec->nplays && !g.over; i++) {
        if (g.nout == 3 && p->n < MAX_POS) {
            if (!seen++ && p->nfirst < 256)
                p->first[p->nfirst++] = p->n;
            p->g[p->n++] = g;
        }
        state_apply(&g, rec->plays[i].move);
    }
    return 0;
}

/* Solves positions idx[0..n) (all when idx is NULL) in order, the table kept from one to the
 * next (as a player keeps it through its games) but fresh for each run; the best of `runs`. */
static void bench_solve(const char *name, const Positions *pos, const int *idx, int n, long limit, EndgameTT *tt,
                        int runs)
{
    double best = 1e9;
    long nodes = 0, undecided = 0;
    for (int run = 0; run < runs; run++) {
        long nn = 0;
        undecided = 0;
        endgame_tt_clear(tt);
        double t0 = bench_now();
        for (int i = 0; i < n; i++) {
            long k;
            undecided += endgame_solve2(&pos->g[idx ? idx[i] : i], limit, tt, NULL, &k) < 0;
            nn += k;
        }
        double us = (bench_now() - t0) * 1e6 / n;
        if (us < best)
            best = us;
        nodes = nn;
    }
    bench_report(name, best, "us/position");
    printf("%-44s %12.1f nodes/position, %ld of %d undecided\n", "", (double)nodes / n, undecided, n);
}

/* --fixed: solves positions idx[0..n) once, the table fresh; prints nodes and a hash. */
static __attribute__((noinline)) void fixed_solve(const char *name, const Positions *pos, const int *idx, int n,
                                                  EndgameTT *tt)
{
    long nodes = 0;
    uint64_t h = 0;
    endgame_tt_clear(tt);
    for (int i = 0; i < n; i++) {
        long k;
        int r = endgame_solve2(&pos->g[idx ? idx[i] : i], 100000000, tt, NULL, &k);
        nodes += k;
        h = rng_mix64(h ^ (uint64_t)(r + 2) ^ ((uint64_t)k << 8));
    }
    printf("%s: %d positions, %ld nodes; results hash %016" PRIx64 "\n", name, n, nodes, h);
}

int main(int argc, char **argv)
{
    const int fixed = argc == 2 && !strcmp(argv[1], "--fixed");
    if (argc > 1 && !fixed) {
        fprintf(stderr, "usage: bench_policy [--fixed]\n");
        return 2;
    }
    char err[256];
    const PolicyWeights *w = policy_builtin(err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_policy: %s\n", err);
        return 1;
    }
    static Playouts p;
    p.w = w;
    p.rng = rng_seed(3);
    if (fixed) {
        for (int k = 0; k < 10; k++)
            playout_batch(&p);
        printf("playout_batch: 2000 playouts, %ld plies\n", p.plies);
    } else {
        double rate = bench_best_rate(playout_batch, &p, 5, 0.4);
        bench_report("policy_playouts_fresh_deal_builtin_weights", rate, "playouts/s");
        static Playouts d;
        d.rng = rng_seed(5);
        rate = bench_best_rate(devkit_batch, &d, 5, 0.4);
        bench_report("devkit_games_fresh_deal", rate, "games/s");
        bench_report("devkit_ns_per_move", 1e9 / (rate * (double)d.plies / (double)d.games), "ns");
    }

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
    EndgameTT tt;
    if (endgame_tt_init(&tt, 20)) {
        fprintf(stderr, "bench_policy: out of memory\n");
        return 1;
    }
    if (fixed) {
        fixed_solve("fixed_solve all", &pos, NULL, pos.n, &tt);
        fixed_solve("fixed_solve first_of_each_game", &pos, pos.first, pos.nfirst, &tt);
        endgame_tt_free(&tt);
        return 0;
    }
    bench_report("endgame2_blaux5_positions", pos.n, "positions");
    bench_solve("endgame2_blaux5_all_table_kept", &pos, NULL, pos.n, 100000000, &tt, 5);
    bench_solve("endgame2_blaux5_first_of_each_game", &pos, pos.first, pos.nfirst, 100000000, &tt, 5);
    /* the playouts' limit (mc's pendgame=200): how many positions it decides */
    bench_solve("endgame2_blaux5_all_limit_200_nodes", &pos, NULL, pos.n, 200, &tt, 5);
    endgame_tt_free(&tt);
    long claims = 0;
    double t0 = bench_now();
    for (int rep = 0; rep < 20; rep++)
        for (int i = 0; i < pos.n; i++)
            claims += endgame_sure_win_state(&pos.g[i], NULL);
    bench_report("sure_win_blaux5_two_player_positions", (bench_now() - t0) * 1e9 / (20.0 * pos.n), "ns/call");
    bench_report("sure_win_claimed", (double)claims / 20, "positions");
    return 0;
}

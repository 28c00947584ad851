/* bench_core.c — the rules engine: move generation on real positions (blaux5), lead
 * generation from random 11-card hands, uniformly random full games per second (one core),
 * and a full match of five `simple` players through the Player interface.
 *
 * `bench_core --fixed` does a fixed amount of the same work without timing it, for an
 * instruction count that repeats whatever the machine's load:
 *   valgrind --tool=callgrind build/bench/bench_core --fixed
 *   callgrind_annotate --inclusive=yes callgrind.out.PID | grep -E 'movegen_batch|lead_batch|random_batch'
 * (each batch's instructions divided by the calls or games it printed), and prints a hash of
 * every generated move and every random game, so two builds can be checked to do the same.
 * valgrind 3.19 does not decode AVX-512: on such a CPU, measure a build without it
 * (`make O=build-cg CPUFLAGS=-march=x86-64-v3 benches`, then build-cg/bench/...). */
#include <string.h>
#include <inttypes.h>

#include "bench.h"
#include "game/match.h"
#include "players/players.h"
#include "record/replay.h"

typedef struct Pos {
    Cards hand;
    Move table;
    uint8_t rev, lock;
} Pos;

typedef struct PosList {
    Pos *v;
    int n, cap;
} PosList;

static void collect(void *ctx, const GameState *g, Move played)
{
    (void)played;
    PosList *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    Pos p = {g->hand[g->turn], g->table, g->rev, g->lock};
    l->v[l->n++] = p;
}

static long bench_moves; /* keeps the generated moves alive */

__attribute__((noinline)) static long movegen_batch(void *ctx)
{
    const PosList *l = ctx;
    Move mv[MOVEGEN_MAX];
    long moves = 0; /* a local sum: a global one would go through memory around every call */
    for (int i = 0; i < l->n; i++)
        moves += movegen(l->v[i].hand, l->v[i].table, l->v[i].rev, l->v[i].lock, mv);
    bench_moves += moves;
    return l->n;
}

/* The positions of every play of blaux5; 0 when the file is absent. */
static int load_blaux5(PosList *l)
{
    const char *path = bench_shared("data/blaux5.kifu");
    if (!path) {
        printf("%-44s %12s (../shared/data/blaux5.kifu absent)\n", "movegen_blaux5_positions", "skipped");
        return 0;
    }
    FILE *f = fopen(path, "r");
    KifuReader r;
    kifu_reader_init(&r, f, path);
    KifuGame *g = malloc(sizeof *g);
    char err[256];
    while (kifu_next(&r, g, err, sizeof err) == 1)
        replay_game(g, path, collect, l, err, sizeof err);
    kifu_reader_free(&r);
    fclose(f);
    free(g);
    return 1;
}

static void bench_movegen_real(void)
{
    PosList l = {0, 0, 0};
    if (!load_blaux5(&l))
        return;
    bench_moves = 0;
    double best = 1e9 / bench_best_window_rate(movegen_batch, &l, 1.5, 0.001);
    bench_report("movegen_blaux5_positions", best, "ns/call");
    Move tmp[MOVEGEN_MAX];
    long total = 0;
    for (int i = 0; i < l.n; i++)
        total += movegen(l.v[i].hand, l.v[i].table, l.v[i].rev, l.v[i].lock, tmp);
    bench_report("movegen_blaux5_moves_per_call", (double)total / (double)l.n, "moves");
    bench_keep((unsigned long)bench_moves);
    free(l.v);
}

enum { LEAD_HANDS = 4096 };

__attribute__((noinline)) static long lead_batch(void *ctx)
{
    const Cards *hands = ctx;
    Move mv[MOVEGEN_MAX];
    long moves = 0;
    for (int i = 0; i < LEAD_HANDS; i++)
        moves += movegen_lead(hands[i], mv);
    bench_moves += moves;
    return LEAD_HANDS;
}

/* 4096 random 11-card hands (seed 11). */
static void lead_hands(Cards hands[LEAD_HANDS])
{
    Rng rng = rng_seed(11);
    for (int i = 0; i < LEAD_HANDS; i++) {
        Cards deck = CARDS_ALL, h = 0;
        for (int k = 0; k < 11; k++) {
            int b = rng_pick_bit(&rng, deck);
            deck &= ~(1ULL << b);
            h |= 1ULL << b;
        }
        hands[i] = h;
    }
}

static void bench_lead_11(void)
{
    static Cards hands[LEAD_HANDS];
    lead_hands(hands);
    Move mv[MOVEGEN_MAX];
    long total = 0;
    double best = 1e9 / bench_best_window_rate(lead_batch, hands, 1.5, 0.001);
    for (int i = 0; i < LEAD_HANDS; i++)
        total += movegen_lead(hands[i], mv);
    bench_report("movegen_lead_random_11_cards", best, "ns/call");
    bench_report("movegen_lead_random_11_cards_moves", (double)total / LEAD_HANDS, "moves");
    bench_keep((unsigned long)bench_moves);
}

/* One uniformly random game: deal, the exchange (random cards from the rich), random moves. */
static int random_game(Rng *rng, int8_t cls[NPLAYERS], const uint8_t seat[NPLAYERS])
{
    Cards hand[NPLAYERS], changed[NPLAYERS] = {0};
    int dealer = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if (cls[p] == 0)
            dealer = p;
    game_deal(seat, dealer, rng, hand);
    if (cls[0] >= 0) {
        game_take_from_poor(cls, hand, changed);
        for (int c = 0; c < 2; c++) {
            int rich = 0;
            for (int p = 0; p < NPLAYERS; p++)
                if (cls[p] == c)
                    rich = p;
            Cards give = 0, left = hand[rich];
            for (int k = 0; k < 2 - c; k++) {
                int b = rng_pick_bit(rng, left);
                left &= ~(1ULL << b);
                give |= 1ULL << b;
            }
            game_give_from_rich(rich, 2 - c, give, cls, hand, changed);
        }
    }
    GameState g;
    state_init(&g, hand, seat, game_first_player(hand));
    Move mv[MOVEGEN_MAX];
    int plies = 0;
    while (!g.over) {
        int n = state_moves(&g, mv);
        if (state_apply(&g, mv[rng_below(rng, (uint32_t)n)]) & EV_STALEMATE)
            state_finish_stalemate(&g, rng);
        plies++;
    }
    int res[NPLAYERS];
    state_classes(&g, res);
    for (int p = 0; p < NPLAYERS; p++)
        cls[p] = (int8_t)res[p];
    return plies;
}

typedef struct RandomGames {
    Rng rng;
    uint8_t seat[NPLAYERS];
    int8_t cls[NPLAYERS];
    long plies, games;
    uint64_t hash; /* of every game's length and classes */
} RandomGames;

/* 1,000 more games of r's sequence. */
__attribute__((noinline)) static long random_batch(void *ctx)
{
    RandomGames *r = ctx;
    for (int i = 0; i < 1000; i++) {
        int plies = random_game(&r->rng, r->cls, r->seat);
        uint64_t x = (uint64_t)plies;
        for (int p = 0; p < NPLAYERS; p++)
            x = x << 4 | (uint64_t)r->cls[p];
        r->hash = rng_mix64(r->hash ^ x);
        r->plies += plies;
    }
    r->games += 1000;
    return 1000;
}

/* The same 10,000 games (seed 2024, ten batches of 1,000) played ROUNDS times; each batch's
 * fastest time counts. Like the best window of the move generation: identical work each
 * round, so the fastest round of a batch is the code with the core to itself, where the rate
 * of whole runs wanders with the neighbours' load by a factor of two. */
static void bench_random_games(void)
{
    enum { BATCHES = 10, ROUNDS = 40 };
    double best[BATCHES];
    RandomGames r;
    for (int round = 0; round < ROUNDS; round++) {
        r = (RandomGames){rng_seed(2024), {0, 1, 2, 3, 4}, {-1, -1, -1, -1, -1}, 0, 0, 0};
        for (int b = 0; b < BATCHES; b++) {
            double t0 = bench_now();
            random_batch(&r);
            double t = bench_now() - t0;
            if (round == 0 || t < best[b])
                best[b] = t;
        }
    }
    double total = 0;
    for (int b = 0; b < BATCHES; b++)
        total += best[b];
    bench_report("random_games_per_second_one_core", (double)r.games / total, "games/s");
    bench_report("random_games_plies_per_game", (double)r.plies / (double)r.games, "plies");
}

/* The seconds match_run takes for `games` games of five `simple` players (seed `seed`). */
static double simple_match_seconds(int games, uint64_t seed, const GameHooks *hooks)
{
    Player *pl[NPLAYERS];
    char err[128];
    for (int p = 0; p < NPLAYERS; p++)
        player_create("simple", (uint64_t)p, &pl[p], err, sizeof err);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = games;
    cfg.seed = seed;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    double t0 = bench_now();
    match_run(pl, &cfg, hooks, NULL, NULL, rec, &res);
    double t = bench_now() - t0;
    free(rec);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
    return t;
}

static void bench_simple_match(void)
{
    double t = simple_match_seconds(10000, 1, NULL);
    bench_report("match_10000_games_5_simple_in_process", t, "s");
    bench_report("match_simple_games_per_second", 10000 / t, "games/s");
}

/* The game machine under game_play, with and without a watcher (GameHooks.event counting the
 * events): the same 2,000 games of five `simple` players (deterministic, so every round does
 * identical work), played ROUNDS times each way, interleaved; each way's fastest round counts.
 * The goal (../shared/DESIGN.md §5): watching costs a match at most 5%. */
static int count_event(void *ctx, const GameEvent *e)
{
    (*(long *)ctx) += e->kind;
    return 0;
}

static void bench_machine(void)
{
    enum { GAMES = 2000, ROUNDS = 30 };
    long events = 0;
    GameHooks watch = {.ctx = &events, .event = count_event};
    double best[2] = {1e9, 1e9};
    for (int round = 0; round < ROUNDS; round++)
        for (int w = 0; w < 2; w++) {
            double t = simple_match_seconds(GAMES, 7, w ? &watch : NULL);
            if (t < best[w])
                best[w] = t;
        }
    bench_keep((unsigned long)events);
    bench_report("game_machine_games_per_second_5_simple", GAMES / best[0], "games/s");
    bench_report("game_machine_games_per_second_watched", GAMES / best[1], "games/s");
    bench_report("game_machine_watcher_cost", 100 * (best[1] / best[0] - 1), "% (goal <= 5)");
}

/* --fixed: the same work every run, untimed (for callgrind), with hashes of what was done. */
static void fixed_work(void)
{
    PosList l = {0, 0, 0};
    if (load_blaux5(&l)) {
        for (int k = 0; k < 10; k++)
            movegen_batch(&l);
        Move mv[MOVEGEN_MAX];
        uint64_t h = 0;
        for (int i = 0; i < l.n; i++) {
            int n = movegen(l.v[i].hand, l.v[i].table, l.v[i].rev, l.v[i].lock, mv);
            for (int j = 0; j < n; j++) {
                uint64_t x;
                memcpy(&x, &mv[j], sizeof x);
                h = rng_mix64(h ^ x);
            }
        }
        printf("movegen_batch: %d calls (10 x %d positions); moves hash %016" PRIx64 "\n", 10 * l.n, l.n, h);
        free(l.v);
    }
    static Cards hands[LEAD_HANDS];
    lead_hands(hands);
    lead_batch(hands);
    printf("lead_batch: %d calls\n", LEAD_HANDS);
    RandomGames r = {rng_seed(2024), {0, 1, 2, 3, 4}, {-1, -1, -1, -1, -1}, 0, 0, 0};
    for (int k = 0; k < 10; k++)
        random_batch(&r);
    printf("random_batch: %ld games, %ld plies; games hash %016" PRIx64 "\n", r.games, r.plies, r.hash);
    bench_keep((unsigned long)bench_moves);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--fixed")) {
        fixed_work();
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: bench_core [--fixed]\n");
        return 2;
    }
    bench_movegen_real();
    bench_lead_11();
    bench_random_games();
    bench_simple_match();
    bench_machine();
    return 0;
}

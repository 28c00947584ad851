/* bench_mc.c — the Monte Carlo player's speed on one core:
 *   - playouts per second with the default playout policy (simple choice, random with
 *     probability 0.1) from freshly dealt games, and with a uniformly random policy;
 *   - simulations per second as the player runs them (sample the unseen cards from an
 *     information set, apply the candidate, play out) from real mid-game positions;
 *   - decisions per second of mc:sims=1000 (only decisions it searches: forced moves and
 *     moves that empty the hand are answered at once and not counted), over a seeded match
 *     against four simple players, for ucb1-tuned (the default) and ucb-root;
 *   - the default `policy`'s time a decision with a choice (policy_ns_per_decision). */
#include <string.h>

#include "bench.h"
#include "game/match.h"
#include "players/estimate.h"
#include "players/mc.h"
#include "players/players.h"

static void deal(Rng *rng, Cards hand[NPLAYERS])
{
    static const uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    game_deal(seat, (int)rng_below(rng, NPLAYERS), rng, hand);
}

typedef struct Playouts {
    Rng rng;
    double eps;
    long plies, n;
} Playouts;

static long playout_batch(void *ctx)
{
    static const uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    Playouts *p = ctx;
    for (int i = 0; i < 1000; i++) {
        Cards hand[NPLAYERS];
        deal(&p->rng, hand);
        GameState g;
        state_init(&g, hand, seat, game_first_player(hand));
        p->plies += mc_playout(&g, &p->rng, p->eps, NULL);
    }
    p->n += 1000;
    return 1000;
}

static void bench_playouts(const char *name, double eps)
{
    Playouts p = {rng_seed(7), eps, 0, 0};
    char buf[96];
    snprintf(buf, sizeof buf, "playouts_per_second_%s", name);
    bench_report(buf, bench_best_rate(playout_batch, &p, 3, 0.7), "playouts/s");
    snprintf(buf, sizeof buf, "playouts_plies_per_game_%s", name);
    bench_report(buf, (double)p.plies / (double)p.n, "plies");
}

/* ---- a proxy that times the searched decisions of the player it wraps */

typedef struct Timing {
    Player *inner;
    Move (*play)(Player *, const InfoSet *);
    long searched;
    double secs;
} Timing;
static Timing timing;

static Move timed_play(Player *self, const InfoSet *v)
{
    Move mv[MOVEGEN_MAX];
    int n = movegen(v->hand, v->table, v->rev, v->lock, mv), searched = n > 1;
    for (int i = 0; i < n && searched; i++)
        if (mv[i].type != MOVE_PASS && move_cards(mv[i]) == v->hand)
            searched = 0;
    double t0 = bench_now();
    Move m = timing.play(self, v);
    if (searched) {
        timing.secs += bench_now() - t0;
        timing.searched++;
    }
    return m;
}

/* Simulations as the player runs them: collected information sets of player 0 in a simple
 * match, each simulated 200 times (sample, apply a legal move, play out). */
typedef struct Sims {
    long sims;
    double secs;
    Rng rng;
} Sims;
static Sims sims_acc;

static Move sim_play(Player *self, const InfoSet *v)
{
    Move mv[MOVEGEN_MAX];
    int n = movegen(v->hand, v->table, v->rev, v->lock, mv);
    int count[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        count[p] = v->ncards[p];
    double t0 = bench_now();
    for (int i = 0; i < 200; i++) {
        Cards hand[NPLAYERS];
        GameState g;
        est_sample_hands(v, count, &sims_acc.rng, hand);
        infoset_to_state(v, hand, &g);
        if (state_apply(&g, mv[i % n]) & EV_STALEMATE)
            state_finish_stalemate(&g, &sims_acc.rng);
        mc_playout(&g, &sims_acc.rng, 0.1, NULL);
    }
    sims_acc.secs += bench_now() - t0;
    sims_acc.sims += 200;
    return timing.play(self, v);
}

static void run_match(const char *spec0, Move (*wrap)(Player *, const InfoSet *), int games)
{
    Player *pl[NPLAYERS];
    char err[256];
    for (int p = 0; p < NPLAYERS; p++)
        if (player_create(p ? "simple" : spec0, (uint64_t)p + 1, &pl[p], err, sizeof err)) {
            fprintf(stderr, "bench_mc: %s\n", err);
            exit(1);
        }
    timing.inner = pl[0];
    timing.play = pl[0]->play;
    pl[0]->play = wrap;
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = games;
    cfg.seed = 5;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    match_run(pl, &cfg, NULL, NULL, NULL, rec, &res);
    free(rec);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
}

/* Decisions (and simulations, 1,000 each) per second of the player `spec` over `games` games
 * against four simple players, reported as the lines `decisions` and `sims`. */
static void bench_spec(const char *spec, int games, const char *decisions, const char *sims)
{
    memset(&timing, 0, sizeof timing);
    run_match(spec, timed_play, games);
    bench_report(decisions, (double)timing.searched / timing.secs, "decisions/s");
    bench_report(sims, 1000.0 * (double)timing.searched / timing.secs, "sims/s");
}

/* The default `policy` (the rich policy, the sure-win test, the two-player solver) per decision
 * with a choice, timed one call at a time (two clock reads in each), over 3,000 games against
 * four simple players. */
static void bench_policy_decisions(void)
{
    memset(&timing, 0, sizeof timing);
    run_match("policy", timed_play, 3000);
    bench_report("policy_ns_per_decision", 1e9 * timing.secs / (double)timing.searched, "ns");
}

static void bench_decisions(const char *bandit, const char *playout)
{
    char spec[96], d[128], m[128];
    snprintf(spec, sizeof spec, "mc:bandit=%s:sims=1000:playout=%s", bandit, playout);
    snprintf(d, sizeof d, "mc_decisions_per_second_1000_sims_%s_%s", bandit, playout);
    snprintf(m, sizeof m, "mc_simulations_per_second_in_search_%s_%s", bandit, playout);
    bench_spec(spec, 30, d, m);
}

int main(void)
{
    bench_playouts("default_policy", 0.1);
    bench_playouts("simple_policy", 0.0);
    bench_playouts("random_policy", 1.0);
    memset(&sims_acc, 0, sizeof sims_acc);
    sims_acc.rng = rng_seed(3);
    run_match("simple", sim_play, 200);
    bench_report("simulations_per_second_from_infoset", (double)sims_acc.sims / sims_acc.secs, "sims/s");
    bench_policy_decisions();
    bench_decisions("ucb1-tuned", "simple");
    bench_decisions("ucb-root", "simple");
    bench_decisions("ucb1-tuned", "policy"); /* the default player: policy playouts, prior, endgames */
    bench_spec("search", 10, "search_decisions_per_second_1000_sims", /* the search on the rich policy */
               "search_simulations_per_second_in_search");
    return 0;
}

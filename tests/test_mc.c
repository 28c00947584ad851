/* test_mc.c — the Monte Carlo player: each bandit's index on hand-made statistics (and the
 * KL-UCB values of spec/bandits.md), UCB2's epochs, Thompson's Beta draws, DESA, the world
 * sampler's guarantees over many random positions, the information-set guard, the choice
 * bandit's bookkeeping, bad specs, and strength against four `simple` players. */
#include "testutil.h"

#include "game/match.h"
#include "players/estimate.h"
#include "players/mc.h"
#include "players/players.h"

static Bandit *bandit_with(BanditKind k, int arms, const int *n, const double *sum, const double *sum2)
{
    static Bandit b;
    BanditParams p;
    bandit_params_default(&p);
    bandit_init(&b, k, &p, arms);
    for (int a = 0; a < arms; a++) {
        b.arm[a].n = n[a];
        b.arm[a].sum = sum[a];
        b.arm[a].sum2 = sum2[a];
        b.total += n[a];
    }
    return &b;
}

static void test_index_formulas(void **state)
{
    (void)state;
    /* arm 0: 10 pulls, mean 0.6, E[x^2] 0.45; arm 1: 30 pulls, mean 0.5, E[x^2] 0.3; N = 40 */
    int n[2] = {10, 30};
    double sum[2] = {6, 15}, sum2[2] = {4.5, 9};
    double L = log(40.0);
    Bandit *b = bandit_with(B_UCB1, 2, n, sum, sum2);
    NEAR(bandit_index(b, 0), 0.6 + sqrt(2 * L / 10), 1e-12);
    b = bandit_with(B_UCB1_TUNED, 2, n, sum, sum2);
    double v0 = 0.45 - 0.36 + sqrt(2 * L / 10); /* > 1/4: capped */
    NEAR(bandit_index(b, 0), 0.6 + sqrt(L / 10 * (v0 < 0.25 ? v0 : 0.25)), 1e-12);
    double v1 = 0.3 - 0.25 + sqrt(2 * L / 30);
    NEAR(bandit_index(b, 1), 0.5 + sqrt(L / 30 * (v1 < 0.25 ? v1 : 0.25)), 1e-12);
    b = bandit_with(B_UCB_ROOT, 2, n, sum, sum2);
    NEAR(bandit_index(b, 0), 0.6 + 0.7 * sqrt(sqrt(40.0) / 10), 1e-12); /* s = sqrt(N) */
    b = bandit_with(B_UCB_V, 2, n, sum, sum2);
    double e = 0.5 * L, var0 = 0.45 - 0.36;
    NEAR(bandit_index(b, 0), 0.6 + sqrt(2 * var0 * e / 10) + 2 * 3 * 1 * e / 10, 1e-12);
    b = bandit_with(B_KL_UCB, 2, n, sum, sum2);
    double q = bandit_index(b, 0);
    NEAR(10 * kl_bernoulli(0.6, q), L, 1e-7); /* on the boundary n d(x, q) = ln N */
    assert_true(q > 0.6 && q < 1);
    b = bandit_with(B_UCB2, 2, n, sum, sum2);
    b->arm[0].r = 3;
    double tau = ceil(pow(1.1, 3));
    NEAR(bandit_index(b, 0), 0.6 + sqrt(1.1 * log(M_E * 40 / tau) / (2 * tau)), 1e-12);
}

static void test_klucb_values(void **state)
{
    (void)state;
    /* SMPyBandits klucbBern doctests (spec/bandits.md; their bisection stops at about 1e-6)
     * and the exact roots (40-digit mpmath) */
    const double cases[][4] = {{0.1, 0.2, 0.378391, 0.378391548848}, {0.5, 0.2, 0.787088, 0.787088816381},
                               {0.9, 0.2, 0.994489, 0.994489489379}, {0.1, 0.4, 0.519475, 0.519475531763},
                               {0.1, 0.9, 0.734714, 0.734715064211}, {0.5, 0.4, 0.871035, 0.871036061550},
                               {0.5, 0.9, 0.956809, 0.956809892564}, {0.9, 0.4, 0.999285, 0.999285837460},
                               {0.9, 0.9, 0.999995, 0.999995218646}, {0.0, 0.5, 0.393469, 0.393469340287}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        NEAR(klucb_bound(cases[i][0], cases[i][1]), cases[i][2], 2e-6);
        NEAR(klucb_bound(cases[i][0], cases[i][1]), cases[i][3], 1e-9);
    }
    NEAR(klucb_bound(0, 0.5), 1 - exp(-0.5), 1e-15);
    NEAR(klucb_bound(1, 0.5), 1, 0);
    NEAR(kl_bernoulli(0.3, 0.3), 0, 1e-15);
}

static void test_ucb2_epochs(void **state)
{
    (void)state;
    BanditParams p;
    bandit_params_default(&p);
    p.ucb2_alpha = 0.5;
    static Bandit b;
    bandit_init(&b, B_UCB2, &p, 3);
    Rng rng = rng_seed(1);
    int last = -1, run = 0, max_run = 0;
    for (int t = 0; t < 400; t++) {
        int a = bandit_select(&b, &rng, NULL);
        if (t >= 3 && a == last)
            run++;
        else
            run = 1;
        if (run > max_run)
            max_run = run;
        last = a;
        bandit_update(&b, a, a == 2 ? 0.8 : 0.3, &rng);
    }
    assert_true(max_run >= 5);                    /* epochs grow geometrically ... */
    assert_true(b.arm[2].n > b.arm[0].n + b.arm[1].n); /* ... mostly on the best arm */
    assert_true(b.arm[2].r > b.arm[0].r);
    /* Auer's invariant: after every epoch an arm's pulls equal tau(r); empty epochs (many
     * for a small alpha) are skipped, not padded with a pull. At alpha = 0.001 the old rule
     * kept tau at 2 and turned UCB2 greedy. */
    const double alphas[] = {0.5, 0.1, 0.01, 0.001};
    for (int k = 0; k < 4; k++) {
        p.ucb2_alpha = alphas[k];
        bandit_init(&b, B_UCB2, &p, 4);
        int checked = 0;
        for (int t = 0; t < 3000; t++) {
            int a = bandit_select(&b, &rng, NULL);
            bandit_update(&b, a, rng_double(&rng) < 0.2 + 0.1 * a ? 1 : 0, &rng);
            if (b.run_left == 0 && t >= 4) { /* between epochs */
                for (int j = 0; j < 4; j++) {
                    long tau = (long)ceil(pow(1 + alphas[k], b.arm[j].r));
                    if (b.arm[j].n != tau)
                        fail_msg("alpha %g, arm %d: n = %d, tau(r = %d) = %ld", alphas[k], j, b.arm[j].n, b.arm[j].r,
                                 tau);
                }
                checked++;
            }
        }
        assert_true(checked > 20);
        int most = 0; /* it keeps exploring: every arm keeps being pulled */
        for (int j = 0; j < 4; j++)
            most = b.arm[j].n > most ? b.arm[j].n : most;
        for (int j = 0; j < 4; j++)
            assert_true(b.arm[j].n >= 10);
        assert_true(most < 3000);
    }
}

static void test_thompson_and_beta(void **state)
{
    (void)state;
    Rng rng = rng_seed(5);
    double s = 0, s2 = 0;
    const int N = 200000;
    for (int i = 0; i < N; i++) {
        double x = beta_draw(&rng, 2.5, 0.7);
        assert_true(x >= 0 && x <= 1);
        s += x;
        s2 += x * x;
    }
    double mean = s / N, var = s2 / N - mean * mean;
    NEAR(mean, 2.5 / 3.2, 0.003);
    NEAR(var, 2.5 * 0.7 / (3.2 * 3.2 * 4.2), 0.001);
    /* every bandit finds the better of two Bernoulli arms */
    for (int k = 0; k < B_NKINDS; k++) {
        BanditParams p;
        bandit_params_default(&p);
        static Bandit b;
        bandit_init(&b, (BanditKind)k, &p, 2);
        for (int t = 0; t < 3000; t++) {
            int a = bandit_select(&b, &rng, NULL);
            double r = rng_double(&rng) < (a ? 0.65 : 0.35) ? 1 : 0;
            bandit_update(&b, a, r, &rng);
        }
        if (!(b.arm[1].n > 2 * b.arm[0].n))
            fail_msg("%s pulled the worse arm %d times, the better %d", bandit_name((BanditKind)k), b.arm[0].n,
                     b.arm[1].n);
        if (k == B_THOMPSON)
            NEAR(b.arm[1].s + b.arm[1].f, b.arm[1].n, 0);
    }
}

static void test_desa(void **state)
{
    (void)state;
    double leaf[3] = {300, 100, 0}, out[3];
    int n[3] = {10, 5, 0};
    mc_desa_values(3, leaf, n, out); /* m = 30, 20, (unsimulated) */
    NEAR(out[0], 30.0 / 50, 1e-15);
    NEAR(out[1], 20.0 / 50, 1e-15);
    NEAR(out[2], 0, 0);
}

/* Positions from random games: the sampler's guarantees, seen from every player. */
typedef struct SampleCheck {
    Rng rng;
    long checked, fixed_seen;
} SampleCheck;

static void check_sampler_on(SampleCheck *c, const InfoSet *v, const GameState *truth)
{
    int count[5];
    for (int p = 0; p < 5; p++)
        count[p] = cards_count(truth->hand[p]);
    Cards h[5];
    assert_int_equal(est_sample_hands(v, count, &c->rng, h), 0);
    Cards all = v->played;
    for (int p = 0; p < 5; p++) {
        assert_int_equal(cards_count(h[p]), count[p]);
        assert_int_equal(all & h[p], 0);
        all |= h[p];
    }
    assert_true(all == CARDS_ALL);
    assert_true(h[v->me] == v->hand);
    /* what this player knows is where it is known */
    if (v->first >= 0 && v->first != v->me && !(v->played & CARDS_D3)) {
        assert_true(h[v->first] & CARDS_D3);
        c->fixed_seen++;
    }
    int cl = v->cls[v->me];
    if (cl == 0 || cl == 1 || cl >= 3) {
        int partner = -1;
        for (int p = 0; p < 5; p++)
            if (v->cls[p] == 4 - cl)
                partner = p;
        Cards known = v->given & ~v->played & ~v->hand;
        assert_true((h[partner] & known) == known);
        assert_true((truth->hand[partner] & known) == known); /* and it is true */
    }
    c->checked++;
}

typedef struct Spy {
    Player base;
    SampleCheck *check;
    const GameState *const *truth;
    Player *inner;
} Spy;

static Move spy_play(Player *self, const InfoSet *v)
{
    Spy *s = (Spy *)self;
    check_sampler_on(s->check, v, *s->truth);
    return s->inner->play(s->inner, v);
}

static Cards spy_exchange(Player *self, const InfoSet *v, int n)
{
    Spy *s = (Spy *)self;
    return s->inner->exchange(s->inner, v, n);
}

static const GameState *current_state;
static int track_turn(void *ctx, const GameState *g)
{
    (void)ctx;
    current_state = g;
    return 0;
}

static void test_sampler(void **state)
{
    (void)state;
    SampleCheck c = {rng_seed(8), 0, 0};
    Spy spies[5];
    Player *pl[5];
    char err[128];
    for (int p = 0; p < 5; p++) {
        memset(&spies[p], 0, sizeof spies[p]);
        assert_int_equal(player_create(p % 2 ? "random" : "simple", (uint64_t)p, &spies[p].inner, err, sizeof err), 0);
        spies[p].base.kind = "spy";
        spies[p].base.play = spy_play;
        spies[p].base.exchange = spy_exchange;
        spies[p].check = &c;
        spies[p].truth = &current_state;
        pl[p] = &spies[p].base;
    }
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 300;
    cfg.seed = 4;
    GameHooks hooks = {.turn = track_turn};
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    assert_int_equal(match_run(pl, &cfg, &hooks, NULL, NULL, rec, &res), 0);
    assert_true(c.checked > 10000 && c.fixed_seen > 1000);
    free(rec);
    for (int p = 0; p < 5; p++)
        player_destroy(spies[p].inner);
}

/* The information-set guard: two worlds that differ only in the opponents' hidden cards give
 * the same InfoSet, and the player decides the same in both. */
/* A peer that shows card counts no deal can meet (defect: uninitialised hands were simulated):
 * the sampler says so and still writes every hand; the player answers legally without
 * searching, for plays and for the exchange. */
static void test_impossible_counts(void **state)
{
    (void)state;
    InfoSet v;
    memset(&v, 0, sizeof v);
    v.me = 0;
    v.first = -1;
    Rng rng = rng_seed(3);
    Cards deal[5];
    uint8_t seat[5] = {0, 1, 2, 3, 4};
    game_deal(seat, 0, &rng, deal);
    v.hand = v.start_hand = deal[0];
    for (int p = 0; p < 5; p++) {
        v.seat[p] = (uint8_t)p;
        v.cls[p] = -1;
        v.ncards[p] = v.start_ncards[p] = (uint8_t)cards_count(deal[p]);
    }
    int count[5] = {11, 11, 11, 10, 10};
    Cards h[5];
    assert_int_equal(est_sample_hands(&v, count, &rng, h), 0); /* consistent: fine */
    int bad[][5] = {{11, 11, 11, 10, 12}, {11, -1, 11, 10, 10}, {11, 53, 0, 0, 0}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int p = 0; p < 5; p++)
            h[p] = 0xdeadbeefULL;
        assert_int_equal(est_sample_hands(&v, bad[k], &rng, h), -1);
        assert_true(h[0] == v.hand);
        for (int p = 1; p < 5; p++)
            assert_true(h[p] == 0);
    }
    v.ncards[4] = 12; /* the view itself is impossible */
    Player *pl;
    char err[128];
    assert_int_equal(player_create("mc:sims=50", 1, &pl, err, sizeof err), 0);
    Move m = pl->play(pl, &v);
    assert_true(movegen_is_legal(v.hand, v.table, 0, 0, m));
    assert_false(move_is_pass(m));
    v.cls[0] = 0; /* daifugo: the exchange too */
    v.cls[1] = 1;
    v.cls[2] = 2;
    v.cls[3] = 3;
    v.cls[4] = 4;
    Cards give = pl->exchange(pl, &v, 2);
    assert_int_equal(cards_count(give), 2);
    assert_true((give & ~v.hand) == 0);
    player_destroy(pl);
}

/* DESA belongs to the play search (paper 001); in the exchange it is off unless desa-exch=1. */
static void test_desa_not_in_exchange(void **state)
{
    (void)state;
    int differ = 0;
    for (int k = 0; k < 12; k++) {
        InfoSet v;
        memset(&v, 0, sizeof v);
        Rng rng = rng_seed(100 + (uint64_t)k);
        Cards deal[5];
        uint8_t seat[5] = {0, 1, 2, 3, 4};
        game_deal(seat, 0, &rng, deal);
        int8_t cls[5] = {0, 1, 2, 3, 4};
        Cards changed[5] = {0};
        game_take_from_poor(cls, deal, changed);
        v.me = 0;
        v.first = -1;
        v.hand = v.start_hand = deal[0];
        static const int taken[5] = {-2, -1, 0, 1, 2}; /* the counts shown are the dealt ones */
        for (int p = 0; p < 5; p++) {
            v.seat[p] = (uint8_t)p;
            v.cls[p] = cls[p];
            v.ncards[p] = v.start_ncards[p] = (uint8_t)(cards_count(deal[p]) + taken[p]);
        }
        Cards pick[3];
        const char *specs[3] = {"mc:sims=120", "mc:sims=120:desa=last:desa-w=5", "mc:sims=120:desa=last:desa-w=5:desa-exch=1"};
        for (int i = 0; i < 3; i++) {
            Player *pl;
            char err[128];
            assert_int_equal(player_create(specs[i], 7, &pl, err, sizeof err), 0);
            pick[i] = pl->exchange(pl, &v, 2);
            player_destroy(pl);
        }
        assert_true(pick[0] == pick[1]);
        differ += pick[0] != pick[2];
    }
    assert_true(differ > 0);
}

static void test_information_set_guard(void **state)
{
    (void)state;
    Rng rng = rng_seed(21);
    int decisions = 0, endgames = 0;
    for (int trial = 0; trial < 200; trial++) {
        Cards h[5];
        uint8_t seat[5] = {0, 1, 2, 3, 4};
        game_deal(seat, trial % 5, &rng, h);
        GameState g;
        state_init(&g, h, seat, game_first_player(h));
        int steps = (int)rng_below(&rng, 30);
        Move mv[MOVEGEN_MAX];
        for (int i = 0; i < steps && !g.over; i++)
            state_apply(&g, mv[rng_below(&rng, (uint32_t)state_moves(&g, mv))]);
        while (trial % 4 == 0 && !g.over && g.nout < 3) { /* on to a two-player endgame */
            int n = state_moves(&g, mv);
            state_apply(&g, simple_choose(mv, n, g.rev));
        }
        if (g.over)
            continue;
        /* world 2: the opponents' unplayed cards dealt again, same counts */
        GameState g2 = g;
        int me = g.turn;
        Cards pool = 0;
        for (int p = 0; p < 5; p++)
            if (p != me)
                pool |= g.hand[p];
        for (int p = 0; p < 5; p++) {
            if (p == me)
                continue;
            int k = cards_count(g.hand[p]);
            Cards take = 0;
            for (int j = 0; j < k; j++) {
                int b = rng_pick_bit(&rng, pool);
                pool &= ~(1ULL << b);
                take |= 1ULL << b;
            }
            g2.hand[p] = take;
        }
        InfoSet v1, v2;
        memset(&v1, 0, sizeof v1);
        memset(&v2, 0, sizeof v2);
        infoset_public(&v1, &g);
        infoset_public(&v2, &g2);
        v1.me = v2.me = me;
        v1.hand = v2.hand = g.hand[me];
        v1.first = v2.first = -1;
        for (int p = 0; p < 5; p++)
            v1.cls[p] = v2.cls[p] = -1;
        assert_memory_equal(&v1, &v2, sizeof v1);
        /* every player and option that reads the situation: the same decision in both worlds */
        static const char *const SPECS[] = {"mc:sims=64:playout=simple", "mc:sims=64", "mc:sims=48:stop=0.5",
                                            "mc:sims=32:crn=0:prune=0", "policy", "policy:temp=1", "policy:surewin=0:endgame=20000",
                                            "mc:sims=48:est=weights", "mc:sims=48:est=weights:order=rank-d",
                                            "mc:sims=48:est=policy:est-k=8:est-mcmc=2",
                                            "mc:sims=48:est=policy:est-k=16:est-beta=0.1:est-point=1",
                                            "mc:sims=48:pmates=all:mate-cards=54",
                                            "mc:sims=48:playout=rich:rootpol=rich:rprior=1:bandit=ucb-root:pmates=all",
                                            "mc:sims=48:est=policy:est-fresh=4:worlds=8",
                                            "mc:sims=48:est=policy:est-fresh=2:est-weights=rich:worlds=3",
                                            "search:sims=48", "search:sims=32:est=policy:est-fresh=4:worlds=8:mate-hands=1",
                                            "mc:sims=40:puct=1:rprior=0.5"};
        for (size_t k = 0; k < sizeof SPECS / sizeof SPECS[0]; k++) {
            Player *a, *b;
            char err[128];
            assert_int_equal(player_create(SPECS[k], 99, &a, err, sizeof err), 0);
            assert_int_equal(player_create(SPECS[k], 99, &b, err, sizeof err), 0);
            Move m1 = a->play(a, &v1), m2 = b->play(b, &v2);
            if (!move_eq(m1, m2))
                fail_msg("%s decided differently in two worlds of one information set", SPECS[k]);
            player_destroy(a);
            player_destroy(b);
        }
        decisions++;
        endgames += g.nout == 3;
    }
    assert_true(decisions > 150);
    assert_true(endgames > 5); /* the two-player solver's positions are among them */
}

static void test_choice_bandit_bookkeeping(void **state)
{
    (void)state;
    Player *pl[5];
    const char *specs[5] = {"mc:bandit=choice:sims=30", "simple", "simple", "simple", "simple"};
    MatchResult res;
    test_match(specs, 60, 3, pl, &res);
    long usage[MC_CHOICE_ARMS], total = 0;
    assert_int_equal(mc_choice_usage(pl[0], usage), 0);
    for (int a = 0; a < MC_CHOICE_ARMS; a++) {
        assert_true(usage[a] >= 1); /* each inner bandit tried */
        total += usage[a];
    }
    assert_int_equal(total, 60);
    assert_int_equal(mc_choice_usage(pl[1], usage), -1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pl[0]->report_json(pl[0], f);
    fclose(f);
    assert_non_null(strstr(buf, "\"per_1000_games\""));
    assert_non_null(strstr(buf, "\"ucb-root\""));
    free(buf);
    test_players_free(pl);
}

static void test_bad_specs(void **state)
{
    (void)state;
    Player *p;
    char err[256];
    assert_int_equal(player_create("mc:bandit=frob", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown bandit 'frob'"));
    assert_non_null(strstr(err, "ucb1, ucb1-tuned, ucb-root, ucb-v, thompson, kl-ucb, ucb2, choice"));
    assert_int_equal(player_create("mc:sims=0", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "sims=0"));
    assert_int_equal(player_create("mc:frob=1", 1, &p, err, sizeof err), -1);
    /* mc's options do not fit in 256 bytes: a whole sentence instead of a cut-off list */
    assert_string_equal(err, "mc: unknown option 'frob' (docs/players.md lists every option of mc)");
    char big[2048];
    assert_int_equal(player_create("mc:frob=1", 1, &p, big, sizeof big), -1);
    assert_non_null(strstr(big, "unknown option 'frob' (valid: bandit, sims"));
    assert_non_null(strstr(big, "gift-weights, odevkit, est-time, tree, tree-c, tree-key, tree-cards)"));
    assert_int_equal(player_create("mc:desa=maybe", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "none, sim, last, both"));
    assert_int_equal(player_create("mc:bandit", 1, &p, err, sizeof err), -1);
    assert_int_equal(player_create("mc:pmates=some", 1, &p, err, sizeof err), -1);
    assert_string_equal(err, "mc: pmates=some: valid are none, own, all");
    assert_int_equal(player_create("mc:rootpol=slow", 1, &p, err, sizeof err), -1);
    assert_string_equal(err, "mc: rootpol=slow: valid are fast, rich");
    assert_int_equal(player_create("mc:est=policy:est-fresh=4:est-point=1", 1, &p, err, sizeof err), -1);
    assert_string_equal(err, "est-fresh= draws every world afresh: it does not go with est-point= or est-mcmc=");
    assert_int_equal(player_create("mc:est=policy:est-fresh=65", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "est-fresh"));
    assert_int_equal(player_create("mc:worlds=-1", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "worlds=-1"));
    assert_int_equal(player_create("mc:omodel=1", 1, &p, err, sizeof err), -1);
    assert_string_equal(err, "mc: omodel=1 needs playout=rich (model= is the fast policy's)");
    assert_int_equal(player_create("search:omodel=2", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "omodel=2"));
    assert_int_equal(player_create("search:est-exch=5", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "est-exch=5"));
    assert_int_equal(player_create("search:est-proposal=table", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "est-proposal=table"));
    assert_int_equal(player_create("search:xprior=-1", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "xprior=-1"));
    char out[4096];
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:bandit=x,simple,simple,simple,simple 2>&1", dhm_bin()),
                     2);
    assert_non_null(strstr(out, "valid: ucb1"));
}

/* otemp: the other seats' playout temperature. otemp equal to ptemp plays exactly as without
 * it; another changes the playouts, and so some of the player's moves (a flatter one: the rich
 * policy is so sure of its best move that 0.05 changes few playout moves). */
static int hash_moves(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    uint64_t *h = ctx;
    for (int i = 0; i < rec->nplays; i++)
        *h = (*h ^ (uint64_t)move_cards(rec->plays[i].move) ^ ((uint64_t)rec->plays[i].player << 60)) * 0x100000001b3ULL;
    return 0;
}

/* A hash of every move of a match of `spec` against four `policy`; the players are left in pl
 * (the caller frees them) and every game's result in res. */
static uint64_t match_hash(const char *spec, int games, uint64_t seed, Player *pl[5], MatchResult *res)
{
    const char *field[5] = {spec, "policy", "policy", "policy", "policy"};
    uint64_t h = 0xcbf29ce484222325ULL;
    test_match_each(field, games, seed, pl, res, hash_moves, &h);
    return h;
}

/* A player's JSON report (malloc'd). */
static char *report_of(Player *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    p->report_json(p, f);
    fclose(f);
    return buf;
}

static void test_otemp(void **state)
{
    (void)state;
    const char *specs[3] = {"search:sims=200", "search:sims=200:otemp=1", "search:sims=200:otemp=3"};
    uint64_t h[3];
    for (int i = 0; i < 3; i++) {
        Player *pl[5];
        MatchResult res;
        h[i] = match_hash(specs[i], 6, 3, pl, &res);
        test_players_free(pl);
    }
    assert_true(h[0] == h[1]);
    assert_true(h[0] != h[2]);
    Player *p;
    char err[256];
    assert_int_equal(player_create("search:otemp=-1", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "otemp=-1"));
}

/* tree=D: the player's own next D decisions in each playout from a tree. It changes the
 * player's moves, a seed still gives the same games, the simulations pass at most D nodes on
 * average and make at most one node each, tree=1 never goes two deep, tree-cards=0 never uses it
 * (the same games as without), and its errors are one line. */
static void test_tree(void **state)
{
    (void)state;
    const char *specs[5] = {"search:sims=200", "search:sims=200:tree=4", "search:sims=200:tree=4", "search:sims=200:tree=1",
                            "search:sims=200:tree=4:tree-cards=0"};
    uint64_t h[5];
    for (int i = 0; i < 5; i++) {
        Player *pl[5];
        MatchResult res;
        h[i] = match_hash(specs[i], 12, 5, pl, &res);
        assert_int_equal(res.illegal[0], 0);
        char *buf = report_of(pl[0]);
        if (i == 0) {
            assert_null(strstr(buf, "\"tree\""));
        } else if (i == 4) {
            assert_true(test_json_num(buf, "\"searches\": ") == 0 && test_json_num(buf, "\"nodes\": ") == 0);
        } else {
            const double nodes = test_json_num(buf, "\"nodes\": ");
            const double per = test_json_num(buf, "\"nodes_per_search\": ");
            const double depth = test_json_num(buf, "\"depth_mean\": ");
            const double deep = test_json_num(buf, "\"share_two_deep\": ");
            const double sims = test_json_num(buf, "\"simulations\": "), searched = test_json_num(buf, "\"searched\": ");
            const double searches = test_json_num(buf, "\"searches\": ");
            assert_true(searches > 0 && searches <= searched);
            assert_true(nodes > 0 && nodes <= sims);
            assert_true(per > 1 && per <= 200 && fabs(per - nodes / searches) < 0.1);
            assert_true(depth >= 0.5 && depth <= (i == 3 ? 1 : 4));
            if (i == 3)
                assert_true(deep == 0);
            else
                assert_true(deep > 0);
        }
        free(buf);
        test_players_free(pl);
    }
    assert_true(h[0] != h[1]);
    assert_true(h[1] == h[2]);
    assert_true(h[4] == h[0]); /* tree-cards=0: never in use, the same games as without the tree */
    Player *p;
    char err[256];
    assert_int_equal(player_create("search:tree=33", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "tree=33"));
    assert_int_equal(player_create("mc:playout=simple:tree=2", 1, &p, err, sizeof err), -1);
    assert_string_equal(err, "mc: tree=2 needs playout=policy or rich");
    assert_int_equal(player_create("search:tree-key=2", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "tree-key=2"));
}

/* `search` is mc with the search's defaults: each default applies unless the spec gives the
 * option, the player reports itself as a Monte Carlo player, and its errors name it. */
static void test_search_defaults(void **state)
{
    (void)state;
    Player *p;
    char err[256];
    const char *cases[][2] = {{"search:sims=10", "\"bandit\": \"ucb-root\""}, {"search:sims=10:bandit=ucb1", "\"bandit\": \"ucb1\""},
                              {"mc:sims=10", "\"bandit\": \"ucb1-tuned\""}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(player_create(cases[i][0], 1, &p, err, sizeof err), 0);
        assert_true(mc_is(p));
        char *buf = report_of(p);
        if (!strstr(buf, cases[i][1]))
            fail_msg("%s: expected %s in %s", cases[i][0], cases[i][1], buf);
        free(buf);
        player_destroy(p);
    }
    assert_int_equal(player_create("policy", 1, &p, err, sizeof err), 0);
    assert_false(mc_is(p));
    player_destroy(p);
    assert_int_equal(player_create("search:frob=1", 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "search: unknown option 'frob'"));
    /* the search's own choices, one at a time, change its decisions: the defaults are in force
     * (the root's prior; the gift model's prior in the exchange) */
    Player *pl[5];
    MatchResult a, b;
    const char *s1[5] = {"search:sims=40", "policy", "policy", "policy", "policy"};
    test_match(s1, 40, 5, pl, &a);
    assert_int_equal(a.illegal[0], 0);
    test_players_free(pl);
    const char *off[] = {"search:sims=40:rprior=0", "search:sims=40:xprior=0"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        const char *s2[5] = {off[i], "policy", "policy", "policy", "policy"};
        test_match(s2, 40, 5, pl, &b);
        test_players_free(pl);
        if (!memcmp(a.points, b.points, sizeof a.points) && !memcmp(a.class_count, b.class_count, sizeof a.class_count))
            fail_msg("%s plays the same 40 games as search:sims=40", off[i]);
    }
}

/* An MC player with a modest budget beats four simple players. Against four copies of the
 * same opponent par is 3 points a game; a game's points have a standard deviation of about
 * 1.3, so the mean of 200 games has a standard error near 0.1. mc:sims=200 measured 3.8-4.4
 * over several seeds (docs/players.md); 3.5 is five standard errors above par and still well
 * below what the player does. */
static void test_mc_beats_simple(void **state)
{
    (void)state;
    Player *pl[5];
    const char *specs[5] = {"mc:sims=200", "simple", "simple", "simple", "simple"};
    MatchResult res;
    test_match(specs, 200, 11, pl, &res);
    double mean = (double)res.points[0] / 200;
    if (!(mean > 3.5))
        fail_msg("mc scored %.3f points a game against four simple players", mean);
    assert_int_equal(res.illegal[0], 0);
    test_players_free(pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_formulas),     cmocka_unit_test(test_klucb_values),
        cmocka_unit_test(test_ucb2_epochs),        cmocka_unit_test(test_thompson_and_beta),
        cmocka_unit_test(test_desa),               cmocka_unit_test(test_sampler),
        cmocka_unit_test(test_impossible_counts),     cmocka_unit_test(test_desa_not_in_exchange),
        cmocka_unit_test(test_information_set_guard), cmocka_unit_test(test_choice_bandit_bookkeeping),
        cmocka_unit_test(test_bad_specs),          cmocka_unit_test(test_otemp),          cmocka_unit_test(test_tree),          cmocka_unit_test(test_mc_beats_simple),
        cmocka_unit_test(test_search_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

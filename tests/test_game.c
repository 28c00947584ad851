/* test_game.c — dealing, the exchange (order, strongest cards, invalid-choice fallback), the
 * first player, the match schedule (seat changes, class resets, dealer), and properties over
 * 10,000 seeded random games: 53 cards conserved, 15 points a game, each class once, only
 * generated moves applied, same seed -> same games. */
#include "testutil.h"

#include <math.h>

#include "game/match.h"
#include "players/players.h"

/* ---- dealing ---- */
static void test_deal_counts(void **state)
{
    (void)state;
    Rng rng = rng_seed(1);
    uint8_t seat[5] = {3, 0, 4, 1, 2};
    for (int i = 0; i < 2000; i++) {
        int dealer = i % 5;
        Cards h[5];
        game_deal(seat, dealer, &rng, h);
        Cards all = 0;
        int ds = 0;
        for (int s = 0; s < 5; s++)
            if (seat[s] == dealer)
                ds = s;
        for (int k = 0; k < 5; k++) {
            int p = seat[(ds + k) % 5];
            assert_int_equal(cards_count(h[p]), k < 3 ? 11 : 10);
            assert_int_equal(all & h[p], 0);
            all |= h[p];
        }
        assert_true(all == CARDS_ALL);
    }
}

/* Each card lands in each seat about equally often (a uniform shuffle). */
static void test_deal_uniform(void **state)
{
    (void)state;
    Rng rng = rng_seed(2);
    uint8_t seat[5] = {0, 1, 2, 3, 4};
    static long count[64][5];
    memset(count, 0, sizeof count);
    const int N = 50000;
    for (int i = 0; i < N; i++) {
        Cards h[5];
        game_deal(seat, 0, &rng, h);
        for (int p = 0; p < 5; p++)
            for (Cards c = h[p]; c; c &= c - 1)
                count[__builtin_ctzll(c)][p]++;
    }
    for (int b = 0; b < 64; b++) {
        if (!((CARDS_ALL >> b) & 1))
            continue;
        for (int p = 0; p < 5; p++) {
            double expect = N * (p < 3 ? 11.0 : 10.0) / 53.0;
            assert_true(fabs((double)count[b][p] - expect) < 5 * sqrt(expect));
        }
    }
}

/* ---- exchange ---- */
static void test_exchange_takes_strongest_from_poor(void **state)
{
    (void)state;
    int8_t cls[5] = {2, 0, 4, 1, 3}; /* p1 daifugo, p3 fugo, p4 hinmin, p2 daihinmin */
    Cards h[5], ch[5] = {0};
    cards_parse("c3 c4 c5", &h[0]);
    cards_parse("d3 d4", &h[1]);
    cards_parse("h2 s2 jo c9", &h[2]);
    cards_parse("d5", &h[3]);
    cards_parse("ca ha h9", &h[4]);
    game_take_from_poor(cls, h, ch);
    Cards want;
    cards_parse("s2 jo", &want);
    assert_true(ch[2] == want); /* joker first, then the 2 of spades over the 2 of hearts */
    cards_parse("d3 d4 s2 jo", &want);
    assert_true(h[1] == want);
    cards_parse("ha", &want); /* A of hearts over A of clubs */
    assert_true(ch[4] == want);
    cards_parse("d5 ha", &want);
    assert_true(h[3] == want);
}

static void test_exchange_fallback(void **state)
{
    (void)state;
    int8_t cls[5] = {0, 4, 2, 1, 3};
    struct {
        const char *choice;
        const char *given;
        int bad;
    } cases[] = {
        {"c3 c4", "c3 c4", 0},       /* a valid choice */
        {"c3", "jo h2", 1},          /* one card: the server gives the daifugo's two strongest */
        {"c3 c4 c5", "jo h2", 1},    /* three cards */
        {"c3 d9", "jo h2", 1},       /* a card it does not own */
        {"jo c3", "jo c3", 0},       /* the joker may be given */
        {"", "jo h2", 1},            /* nothing */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Cards h[5] = {0}, ch[5] = {0}, choice, want;
        cards_parse("c3 c4 c5 h2 jo", &h[0]);
        cards_parse("d3", &h[1]);
        cards_parse(cases[i].choice, &choice);
        cards_parse(cases[i].given, &want);
        int bad = game_give_from_rich(0, 2, choice, cls, h, ch);
        assert_int_equal(bad, cases[i].bad);
        assert_true(ch[0] == want);
        assert_true(h[1] == (card_of(1, SUIT_D) | want));
        assert_int_equal(cards_count(h[0]), 3);
    }
}

/* A player that follows `simple` but answers the exchange from a script. */
typedef struct Scripted {
    Player base;
    Player *inner;
    Cards answer; /* what to submit in the exchange; ~0 = give the diamond 3 if held, else simple */
    Cards seen_hand_at_start;
    int exchanges;
} Scripted;

static Move scripted_play(Player *self, const InfoSet *v)
{
    Scripted *s = (Scripted *)self;
    return s->inner->play(s->inner, v);
}

static Cards scripted_exchange(Player *self, const InfoSet *v, int n)
{
    Scripted *s = (Scripted *)self;
    s->exchanges++;
    if (s->answer != ~0ULL)
        return s->answer;
    if (v->hand & CARDS_D3)
        return CARDS_D3 | cards_strongest(v->hand & ~CARDS_D3, n - 1);
    return s->inner->exchange(s->inner, v, n);
}

static void scripted_start(Player *self, const InfoSet *v)
{
    ((Scripted *)self)->seen_hand_at_start = v->hand;
}

static void scripted_init(Scripted *s, Cards answer)
{
    memset(s, 0, sizeof *s);
    char err[128];
    assert_int_equal(player_create("simple", 1, &s->inner, err, sizeof err), 0);
    s->base.kind = "scripted";
    s->base.play = scripted_play;
    s->base.exchange = scripted_exchange;
    s->base.game_start = scripted_start;
    s->answer = answer;
}

static void test_game_exchange_and_first_player(void **state)
{
    (void)state;
    Scripted sp[5];
    Player *pl[5];
    for (int p = 0; p < 5; p++) {
        scripted_init(&sp[p], ~0ULL);
        pl[p] = &sp[p].base;
    }
    GameRecord *rec = malloc(sizeof *rec);
    Rng rng = rng_seed(99);
    int d3_passed = 0;
    for (int i = 0; i < 3000; i++) {
        GameSetup su = {.number = i, .seat = {0, 1, 2, 3, 4}, .cls = {0, 1, 2, 3, 4}, .dealer = 0};
        for (int k = 0; k < 5; k++) /* rotate the classes around */
            su.cls[k] = (int8_t)((k + i) % 5);
        for (int k = 0; k < 5; k++)
            if (su.cls[k] == 0)
                su.dealer = k;
        assert_int_equal(game_play(pl, &su, &rng, NULL, rec), 0);
        int who[5];
        for (int p = 0; p < 5; p++)
            who[su.cls[p]] = p;
        /* the poor gave their strongest, as dealt */
        assert_true(rec->changed[who[4]] == cards_strongest(rec->dealt[who[4]], 2));
        assert_true(rec->changed[who[3]] == cards_strongest(rec->dealt[who[3]], 1));
        assert_int_equal(cards_count(rec->changed[who[0]]), 2);
        assert_int_equal(cards_count(rec->changed[who[1]]), 1);
        /* what each player was shown at game start: poor/heimin as dealt, rich enriched */
        assert_true(sp[who[4]].seen_hand_at_start == rec->dealt[who[4]]);
        assert_true(sp[who[3]].seen_hand_at_start == rec->dealt[who[3]]);
        assert_true(sp[who[2]].seen_hand_at_start == rec->dealt[who[2]]);
        assert_true(sp[who[0]].seen_hand_at_start == (rec->dealt[who[0]] | rec->changed[who[4]]));
        assert_true(sp[who[1]].seen_hand_at_start == (rec->dealt[who[1]] | rec->changed[who[3]]));
        /* the first player holds the diamond 3 after the exchange */
        assert_true(rec->original[rec->first] & CARDS_D3);
        if ((rec->dealt[who[0]] & CARDS_D3) && !(rec->original[who[0]] & CARDS_D3))
            d3_passed++;
        /* the daifugo dealt: its seat and the next two have 11 cards */
        assert_int_equal(cards_count(rec->dealt[who[0]]), 11);
    }
    assert_true(d3_passed > 50); /* the daifugo giving the diamond 3 away happened, and moved the lead */
    for (int p = 0; p < 5; p++)
        player_destroy(sp[p].inner);
    free(rec);
}

/* ---- the match schedule ---- */
typedef struct SchedCheck {
    GameRecord prev;
    int have_prev;
    MatchConfig cfg;
    long games;
} SchedCheck;

static int sched_on_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    SchedCheck *c = ctx;
    int n = rec->number + 1;
    int reset = c->cfg.class_reset > 0 ? (n - 1) % c->cfg.class_reset == 0 : n == 1;
    assert_int_equal(rec->cls[0] < 0, reset);
    if (!reset) {
        for (int p = 0; p < 5; p++)
            assert_int_equal(rec->cls[p], c->prev.result[p]);
        assert_int_equal(rec->cls[rec->dealer], 0); /* the previous daifugo deals */
    }
    int change = c->cfg.seat_change > 1 && n % c->cfg.seat_change == 1;
    if (c->have_prev && !change)
        assert_memory_equal(rec->seat, c->prev.seat, 5);
    if (c->cfg.seat_change == 1 || c->cfg.seat_change == 0) {
        for (int s = 0; s < 5; s++)
            assert_int_equal(rec->seat[s], s);
    }
    int mask = 0;
    for (int s = 0; s < 5; s++)
        mask |= 1 << rec->seat[s];
    assert_int_equal(mask, 31);
    long total = 0;
    for (int p = 0; p < 5; p++)
        total += sofar->points[p];
    assert_int_equal(total, 15L * sofar->games);
    memcpy(&c->prev, rec, offsetof(GameRecord, plays));
    memcpy(c->prev.result, rec->result, sizeof rec->result);
    c->have_prev = 1;
    c->games++;
    return 0;
}

static void run_schedule(int games, int k, int r)
{
    Player *pl[5];
    char err[128];
    for (int p = 0; p < 5; p++)
        assert_int_equal(player_create(p % 2 ? "random" : "simple", (uint64_t)p, &pl[p], err, sizeof err), 0);
    SchedCheck *c = calloc(1, sizeof *c);
    match_config_default(&c->cfg);
    c->cfg.games = games;
    c->cfg.seat_change = k;
    c->cfg.class_reset = r;
    c->cfg.seed = 5;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    assert_int_equal(match_run(pl, &c->cfg, NULL, sched_on_game, c, rec, &res), 0);
    assert_int_equal(c->games, games);
    int seat_changes = 0;
    (void)seat_changes;
    for (int p = 0; p < 5; p++)
        player_destroy(pl[p]);
    free(rec);
    free(c);
}

static void test_match_schedule(void **state)
{
    (void)state;
    run_schedule(250, 3, 100);
    run_schedule(50, 1, 10);
    run_schedule(50, 0, 0);
    run_schedule(40, 7, 3);
}

static void test_seats_do_change(void **state)
{
    (void)state;
    MatchConfig cfg;
    match_config_default(&cfg);
    Rng rng = rng_seed(3);
    GameSetup prev, su;
    GameRecord *rec = calloc(1, sizeof *rec);
    int changed = 0;
    for (int i = 0; i < 300; i++) {
        match_setup_game(&cfg, i, i ? &prev : NULL, i ? rec : NULL, &rng, &su);
        if (i % 3 == 0 && i && memcmp(su.seat, prev.seat, 5))
            changed++;
        if (i % 3)
            assert_memory_equal(su.seat, prev.seat, 5);
        prev = su;
    }
    assert_true(changed > 80); /* 99 reshuffles, a few land on the same order */
    free(rec);
}

/* ---- properties over many random games ---- */
typedef struct PropCtx {
    long moves, games;
    uint64_t hash;
} PropCtx;

static int prop_move(void *ctx, const GameState *before, Move m, int accepted, const GameState *after, int ev)
{
    PropCtx *c = ctx;
    (void)ev;
    assert_true(accepted);
    Move mv[MOVEGEN_MAX];
    int n = state_moves(before, mv), found = m.type == MOVE_PASS && before->table.type == MOVE_PASS;
    for (int i = 0; i < n && !found; i++)
        found = move_eq(mv[i], m);
    assert_true(found);
    Cards all = after->played;
    for (int p = 0; p < 5; p++) {
        assert_int_equal(all & after->hand[p], 0);
        all |= after->hand[p];
    }
    assert_true(all == CARDS_ALL);
    uint64_t x;
    memcpy(&x, &m, 8);
    c->hash = rng_mix64(c->hash ^ x ^ before->turn);
    c->moves++;
    return 0;
}

static int prop_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    PropCtx *c = ctx;
    (void)sofar;
    int seen = 0, pts = 0;
    for (int p = 0; p < 5; p++) {
        seen |= 1 << rec->result[p];
        pts += game_points(rec->result[p]);
    }
    assert_int_equal(seen, 31);
    assert_int_equal(pts, 15);
    c->games++;
    return 0;
}

static uint64_t run_random_match(uint64_t seed, int games, const char *kinds[5], long *moves)
{
    Player *pl[5];
    char err[128];
    for (int p = 0; p < 5; p++)
        assert_int_equal(player_create(kinds[p], player_seed(seed, p), &pl[p], err, sizeof err), 0);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = games;
    cfg.seed = seed;
    PropCtx c = {0, 0, 0};
    GameHooks hooks = {.ctx = &c, .move = prop_move};
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    assert_int_equal(match_run(pl, &cfg, &hooks, prop_game, &c, rec, &res), 0);
    assert_int_equal(c.games, games);
    long total = 0;
    for (int p = 0; p < 5; p++) {
        total += res.points[p];
        assert_int_equal(res.illegal[p], 0);
        player_destroy(pl[p]);
    }
    assert_int_equal(total, 15L * games);
    free(rec);
    if (moves)
        *moves = c.moves;
    return c.hash ^ (uint64_t)total;
}

static void test_properties_10000_games(void **state)
{
    (void)state;
    const char *randoms[5] = {"random", "random", "random", "random", "random"};
    const char *mixed[5] = {"simple", "random", "simple", "random", "simple"};
    long moves = 0, m2 = 0;
    run_random_match(11, 8000, randoms, &moves);
    run_random_match(12, 2000, mixed, &m2);
    assert_true(moves + m2 > 500000);
}

static void test_same_seed_same_games(void **state)
{
    (void)state;
    const char *mixed[5] = {"simple", "random", "simple", "random", "random"};
    uint64_t a = run_random_match(42, 300, mixed, NULL);
    uint64_t b = run_random_match(42, 300, mixed, NULL);
    uint64_t c = run_random_match(43, 300, mixed, NULL);
    assert_true(a == b);
    assert_true(a != c);
}

/* The games of a seed, pinned: every move of these matches (hashed in order with the mover)
 * as the engine played them before it was made faster (commit 09225c2). Random players pick
 * generated moves by index, so the pin covers the move order too; the fast policy (model=fast)
 * covers its scoring and shipped weights, and a third match the rich policy's (the default
 * `policy`, its endgame solve included: its pin moves with players/rich_rl.weights and the
 * policy's defaults). Both policy matches play the sure-win test's certain wins, so their pins
 * moved when it began to read the card counts and the spade 3's return (2026-11-29); the third
 * moved again when `policy` took the REINFORCE weights (players/rich_rl.weights, 2026-11-29). */
static void test_games_pinned(void **state)
{
    (void)state;
    const char *randoms[5] = {"random", "random", "random", "random", "random"};
    const char *mixed[5] = {"policy:model=fast", "simple", "random", "policy:model=fast", "simple"};
    long moves = 0, m2 = 0;
    uint64_t a = run_random_match(2026, 2000, randoms, &moves);
    uint64_t b = run_random_match(2027, 300, mixed, &m2);
    const char *rich[5] = {"policy", "simple", "random", "policy:temp=0.5", "simple"}; /* policy's built-in rich weights (players/rich_rl.weights) */
    long m3 = 0;
    uint64_t c = run_random_match(2028, 200, rich, &m3);
    assert_int_equal(moves, 243260);
    assert_int_equal(m2, 25023);
    assert_true(a == 0x7277e4900074f9daULL);
    assert_true(b == 0x97ada96fa2c91e9dULL);
    assert_int_equal(m3, 16647); /* changes when players/rich_rl.weights, players/gift.weights, the policy's defaults or the sure-win test do */
    assert_true(c == 0x3783167f4c208b05ULL);
}

static void test_simple_beats_random(void **state)
{
    (void)state;
    Player *pl[5];
    const char *kinds[5] = {"simple", "random", "random", "random", "random"};
    MatchResult res;
    test_match(kinds, 1000, 8, pl, &res);
    /* 3.0 is the mean; simple is far above the random players */
    assert_true((double)res.points[0] / 1000 > 3.8);
    test_players_free(pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deal_counts),
        cmocka_unit_test(test_deal_uniform),
        cmocka_unit_test(test_exchange_takes_strongest_from_poor),
        cmocka_unit_test(test_exchange_fallback),
        cmocka_unit_test(test_game_exchange_and_first_player),
        cmocka_unit_test(test_match_schedule),
        cmocka_unit_test(test_seats_do_change),
        cmocka_unit_test(test_properties_10000_games),
        cmocka_unit_test(test_same_seed_same_games),
        cmocka_unit_test(test_games_pinned),
        cmocka_unit_test(test_simple_beats_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

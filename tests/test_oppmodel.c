/* test_oppmodel.c — the online opponent model: the hands it makes out at a game's end are the
 * real ones (over many seeded games, every seat, with exchanges), a history that does not replay
 * is refused, and learning from four opponents who always play their first choice makes the
 * model predict them better than the policy it started from. */
#include "testutil.h"

#include "game/match.h"
#include "players/oppmodel.h"
#include "players/players.h"
#include "players/rich.h"

/* A `policy` player that, at each game's end, makes out the hands from its own view and learns. */
typedef struct Watcher {
    Player *inner;
    OppModel *om;
    OppBias *ob; /* the bias model over the rich policy, learning too when set */
    const RichWeights *rw;
    Cards made[NPLAYERS];
    int ok, learned;
} Watcher;

static Move w_play(Player *self, const InfoSet *v)
{
    Watcher *w = self->impl;
    return w->inner->play(w->inner, v);
}

static Cards w_exchange(Player *self, const InfoSet *v, int n)
{
    Watcher *w = self->impl;
    return w->inner->exchange(w->inner, v, n);
}

static void w_end(Player *self, const InfoSet *v, const int cls[NPLAYERS])
{
    (void)cls;
    Watcher *w = self->impl;
    w->ok = oppmodel_hands(v, w->made) == 0;
    w->learned = w->om ? oppmodel_learn(w->om, v) : 0;
    if (w->ob)
        assert_true(oppbias_learn(w->ob, v, w->rw, 1) >= 0 || v->nout < NPLAYERS - 1);
}

typedef struct Check {
    Watcher *w;
    long games, checked;
} Check;

static int on_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    Check *c = ctx;
    c->games++;
    if (rec->stalemate)
        return 0;
    assert_true(c->w->ok);
    for (int p = 0; p < NPLAYERS; p++)
        assert_true(c->w->made[p] == rec->original[p]);
    c->checked++;
    return 0;
}

static void run_match(const char *opp, int games, uint64_t seed, OppModel *om, Check *c, Watcher *w)
{
    char err[256];
    Player *pl[NPLAYERS];
    assert_int_equal(player_create("policy", player_seed(seed, 0), &w->inner, err, sizeof err), 0);
    w->om = om;
    Player me = {0};
    me.kind = "watcher";
    me.impl = w;
    me.play = w_play;
    me.exchange = w_exchange;
    me.game_end = w_end;
    pl[0] = &me;
    for (int p = 1; p < NPLAYERS; p++)
        assert_int_equal(player_create(opp, player_seed(seed, p), &pl[p], err, sizeof err), 0);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = games;
    cfg.seed = seed;
    static GameRecord rec;
    MatchResult res;
    c->w = w;
    assert_int_equal(match_run(pl, &cfg, NULL, on_game, c, &rec, &res), 0);
    player_destroy(w->inner);
    for (int p = 1; p < NPLAYERS; p++)
        player_destroy(pl[p]);
}

static void test_hands_made_out(void **state)
{
    (void)state;
    Check c = {0};
    Watcher w;
    memset(&w, 0, sizeof w);
    run_match("simple", 300, 3, NULL, &c, &w);
    assert_int_equal(c.games, 300);
    assert_true(c.checked >= 290); /* all but games ended by the stalemate rule */
}

static void test_history_that_does_not_replay(void **state)
{
    (void)state;
    static PolicyWeights base;
    static OppModel om;
    oppmodel_init(&om, &base, 0.02, 0);
    InfoSet v;
    memset(&v, 0, sizeof v);
    PlayRec plays[2];
    v.me = 0;
    v.plays = plays;
    v.nplays = 2;
    plays[0].player = 1;
    plays[0].move = move_single(card_bit(5, 0));
    plays[1].player = 2;
    plays[1].move = move_single(card_bit(5, 0)); /* the same card twice */
    Cards h[NPLAYERS];
    assert_int_equal(oppmodel_hands(&v, h), -1);
    assert_int_equal(oppmodel_learn(&om, &v), -1);
    assert_int_equal(om.skipped, 1);
}

static void test_learning_predicts_better(void **state)
{
    (void)state;
    char err[256];
    const PolicyWeights *base = policy_builtin(err, sizeof err);
    assert_non_null(base);
    static OppModel om, frozen;
    oppmodel_init(&om, base, 0.05, 1);
    /* the opponents draw at temperature 0.5: the policy at temperature 1 mis-states them */
    Check c = {0};
    Watcher w;
    memset(&w, 0, sizeof w);
    run_match("policy:temp=0.5", 150, 7, &om, &c, &w);
    assert_true(om.games >= 140 && om.decisions > 3000);
    /* a second match, scored by the learned model and by the untouched policy (lr 0) */
    const double first_half = om.logloss / (double)om.decisions;
    OppModel learned = om;
    learned.lr = 0;
    learned.logloss = learned.top1 = 0;
    learned.decisions = learned.games = 0;
    oppmodel_init(&frozen, base, 0, 1);
    Check c2 = {0};
    run_match("policy:temp=0.5", 60, 8, &learned, &c2, &w);
    Check c3 = {0};
    run_match("policy:temp=0.5", 60, 8, &frozen, &c3, &w);
    const double ll_learned = learned.logloss / (double)learned.decisions;
    const double ll_frozen = frozen.logloss / (double)frozen.decisions;
    print_message("log-loss: while learning %.3f; then learned %.3f, the policy itself %.3f\n", first_half, ll_learned,
                  ll_frozen);
    assert_true(ll_learned < ll_frozen - 0.05);
}

/* The bias model (mc's omodel=1) learns what sets opponents apart from the rich policy: four
 * `simple` players, who never pass when they can beat the table, get a strongly negative pass
 * bias; four `random` players, who pass as often as any other legal move, far more than the
 * rich policy does, get a positive one. Learned biases then predict a new match of
 * the same opponents better than the policy alone. */
static void bias_match(const char *opp, int games, uint64_t seed, OppBias *ob)
{
    char err[256];
    Check c = {0};
    Watcher w;
    memset(&w, 0, sizeof w);
    w.ob = ob;
    w.rw = rich_builtin(err, sizeof err);
    assert_non_null(w.rw);
    run_match(opp, games, seed, NULL, &c, &w);
}

static void test_bias_model(void **state)
{
    (void)state;
    static OppBias simple, hot, frozen;
    oppbias_init(&simple, 0.05);
    bias_match("simple", 60, 11, &simple);
    oppbias_init(&hot, 0.05);
    bias_match("random", 60, 12, &hot);
    assert_true(simple.games >= 55 && simple.decisions > 1000);
    for (int p = 1; p < NPLAYERS; p++) {
        print_message("player %d: pass bias simple %.2f, hot %.2f\n", p, simple.b[p][0], hot.b[p][0]);
        assert_true(simple.b[p][0] < -1);
        assert_true(hot.b[p][0] > 0.3);
        assert_true(simple.b[0][p % OPPBIAS_K] == 0); /* my own seat is never learned */
    }
    /* scored on a new match (lr 0): the learned biases against none */
    OppBias learned = simple;
    learned.lr = learned.decay = 0;
    learned.logloss = learned.top1 = 0;
    learned.decisions = learned.games = 0;
    oppbias_init(&frozen, 0);
    frozen.decay = 0;
    bias_match("simple", 30, 13, &learned);
    bias_match("simple", 30, 13, &frozen);
    const double ll_learned = learned.logloss / (double)learned.decisions;
    const double ll_frozen = frozen.logloss / (double)frozen.decisions;
    print_message("log-loss on simple: learned %.3f, the rich policy %.3f\n", ll_learned, ll_frozen);
    assert_true(ll_learned < ll_frozen - 0.1);
    /* the features: a pass, a lead with a pair, the last cards */
    GameState g;
    static const Cards none[NPLAYERS] = {0};
    Cards hand[NPLAYERS];
    memcpy(hand, none, sizeof hand);
    hand[0] = card_of(3, SUIT_S) | card_of(3, SUIT_H);
    for (int p = 1; p < NPLAYERS; p++)
        hand[p] = card_of(4 + p, SUIT_C);
    static const uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    state_init(&g, hand, seat, 0);
    assert_int_equal(oppbias_features(&g, move_pass()), 1u << 0);
    Move mv[MOVEGEN_MAX];
    const int n = state_moves(&g, mv);
    int pairs = 0;
    for (int i = 0; i < n; i++)
        if (mv[i].type == MOVE_GROUP) {
            pairs++;
            assert_int_equal(oppbias_features(&g, mv[i]), (1u << 1) | (1u << 9)); /* a lead group, my last cards */
        }
    assert_int_equal(pairs, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hands_made_out),
        cmocka_unit_test(test_history_that_does_not_replay),
        cmocka_unit_test(test_learning_predicts_better),
        cmocka_unit_test(test_bias_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

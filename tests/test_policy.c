/* test_policy.c — the learned policy and its training: the fast scorer equals the feature
 * definition; weight files round-trip, and stale, truncated or malformed ones are clear
 * errors; the built-in weights load; training lowers the held-out log-loss far below the
 * zero-weight model and is deterministic for a seed; `dhm train policy` end to end; the
 * policy player beats the rule-based one. */
#include "testutil.h"

#include "analysis/train.h"
#include "game/game.h"
#include "players/policy.h"
#include "analysis/teacher.h"

static void random_weights(PolicyWeights *w, uint64_t seed)
{
    Rng r = rng_seed(seed);
    for (int i = 0; i < POLICY_NPLAY; i++)
        w->play[i] = (rng_double(&r) - 0.5) * 6;
    for (int i = 0; i < POLICY_NEXCH; i++)
        w->exch[i] = (rng_double(&r) - 0.5) * 6;
}

/* Game gi of a run of fresh deals from r (the dealer's seat rotating): the hands dealt, and
 * play set up from them in g. */
static void fresh_game(Rng *r, int gi, Cards hand[5], GameState *g)
{
    uint8_t seat[5] = {0, 1, 2, 3, 4};
    game_deal(seat, gi % 5, r, hand);
    state_init(g, hand, seat, game_first_player(hand));
}

static void test_scores_match_features(void **state)
{
    (void)state;
    static PolicyWeights w;
    random_weights(&w, 5);
    Rng r = rng_seed(6);
    long moves = 0, revolutions = 0;
    for (int gi = 0; gi < 600; gi++) {
        Cards hand[5];
        GameState g;
        fresh_game(&r, gi, hand, &g);
        Move mv[MOVEGEN_MAX];
        double sc[MOVEGEN_MAX];
        while (!g.over) {
            int n = state_moves(&g, mv);
            PolicyCtx c;
            policy_ctx_state(&c, &g);
            policy_scores(&w, &c, mv, n, sc);
            for (int i = 0; i < n; i++) {
                uint16_t idx[POLICY_MAX_ACTIVE];
                int k = policy_features(&c, mv[i], idx);
                assert_true(k > 0 && k <= POLICY_MAX_ACTIVE);
                double s = 0;
                for (int j = 0; j < k; j++) {
                    assert_true(idx[j] < POLICY_NPLAY);
                    s += w.play[idx[j]];
                }
                NEAR(sc[i], s, 1e-9);
                moves++;
                revolutions += move_is_revolution(mv[i]);
            }
            if (state_apply(&g, mv[policy_pick(&w, &c, mv, n, 1.0, &r)]) & EV_STALEMATE)
                state_finish_stalemate(&g, &r);
        }
        /* the exchange features stay in range too */
        Cards gifts[128];
        int k = policy_gifts(hand[0], 2, gifts);
        for (int i = 0; i < k; i++) {
            uint16_t idx[POLICY_MAX_ACTIVE];
            int m = policy_exch_features(hand[0], gifts[i], idx);
            for (int j = 0; j < m; j++)
                assert_true(idx[j] < POLICY_NEXCH);
        }
    }
    assert_true(moves > 100000);
    if (revolutions < 50) /* the path that values the hand left in the new order */
        fail_msg("only %ld revolution moves scored", revolutions);
}

/* FNV-1a over the bits of every score policy_scores gives in n games from seed, where each
 * move is the best one under weights w or a random one. */
static uint64_t scores_fingerprint(const PolicyWeights *w, uint64_t seed, int n)
{
    uint64_t h = 1469598103934665603ULL;
    Rng r = rng_seed(seed);
    for (int gi = 0; gi < n; gi++) {
        Cards hand[5];
        GameState g;
        fresh_game(&r, gi, hand, &g);
        Move mv[MOVEGEN_MAX];
        double sc[MOVEGEN_MAX];
        while (!g.over) {
            int k = state_moves(&g, mv);
            PolicyCtx c;
            policy_ctx_state(&c, &g);
            policy_scores(w, &c, mv, k, sc);
            for (int i = 0; i < k; i++) {
                uint64_t b;
                memcpy(&b, &sc[i], sizeof b);
                h = (h ^ b) * 1099511628211ULL;
            }
            /* the best move or a random one: the games depend on the scores only (not on the
             * softmax's 2^x, which a compiler may contract into other roundings) */
            const int pick = rng_below(&r, 2) ? policy_pick(w, &c, mv, k, 0, &r) : (int)rng_below(&r, (uint32_t)k);
            if (state_apply(&g, mv[pick]) & EV_STALEMATE)
                state_finish_stalemate(&g, &r);
        }
    }
    return h;
}

/* The scores are the very same doubles as those of the scorer before issue 23 (so games with
 * the same weights replay bit for bit): a faster scorer may add the same terms in the same
 * order only. The reference fingerprints were recorded with that scorer. Random weights with
 * exact zeros of both signs (an off feature must add nothing, whatever the signs), and the
 * built-in weights when they are still the ones the fingerprint was recorded with. */
static void test_scores_bits_unchanged(void **state)
{
    enum { GAMES = 2000 };
    const uint64_t RECORDED_RANDOM = 0x8b19de9719832a6bULL, RECORDED_WEIGHTS = 0xb220b03a723fc562ULL,
                   RECORDED_BUILTIN = 0xd55513f57eb1a89cULL;
    (void)state;
    static PolicyWeights w;
    random_weights(&w, 11);
    Rng r = rng_seed(12);
    for (int i = 0; i < POLICY_NPLAY; i++) {
        const uint32_t u = rng_below(&r, 8);
        w.play[i] = u == 0 ? 0.0 : u == 1 ? -0.0 : w.play[i];
    }
    w.play[0] = -0.0; /* the weight an off feature reads (times 0) */
    const uint64_t fp = scores_fingerprint(&w, 13, GAMES);
    if (fp != RECORDED_RANDOM)
        fail_msg("random weights: scores fingerprint %016llx, recorded %016llx", (unsigned long long)fp,
                 (unsigned long long)RECORDED_RANDOM);
    char err[256];
    const PolicyWeights *b = policy_builtin(err, sizeof err);
    assert_non_null(b);
    uint64_t wh = 1469598103934665603ULL;
    for (int i = 0; i < POLICY_NPLAY; i++) {
        uint64_t x;
        memcpy(&x, &b->play[i], sizeof x);
        wh = (wh ^ x) * 1099511628211ULL;
    }
    if (wh != RECORDED_WEIGHTS) {
        printf("[   NOTE   ] the built-in weights changed (%016llx): their fingerprint not checked\n",
               (unsigned long long)wh);
        return;
    }
    const uint64_t fb = scores_fingerprint(b, 14, GAMES);
    if (fb != RECORDED_BUILTIN)
        fail_msg("built-in weights: scores fingerprint %016llx, recorded %016llx", (unsigned long long)fb,
                 (unsigned long long)RECORDED_BUILTIN);
}

/* FNV-1a over the moves policy_pick draws (softmax at temperatures 1 and 0.6) in n games of
 * self-play from seed, and over gifts drawn from each dealt hand. */
static uint64_t draws_fingerprint(const PolicyWeights *w, uint64_t seed, int n)
{
    uint64_t h = 1469598103934665603ULL;
    Rng r = rng_seed(seed);
    for (int gi = 0; gi < n; gi++) {
        Cards hand[5];
        GameState g;
        fresh_game(&r, gi, hand, &g);
        for (int p = 0; p < 2; p++)
            h = (h ^ policy_pick_gift(w, hand[p], p + 1, 1.0, &r)) * 1099511628211ULL;
        Move mv[MOVEGEN_MAX];
        while (!g.over) {
            int k = state_moves(&g, mv), pick = 0;
            if (k > 1) {
                PolicyCtx c;
                policy_ctx_state(&c, &g);
                pick = policy_pick(w, &c, mv, k, g.turn & 1 ? 0.6 : 1.0, &r);
                h = (h ^ (uint64_t)pick) * 1099511628211ULL;
            }
            if (state_apply(&g, mv[pick]) & EV_STALEMATE)
                state_finish_stalemate(&g, &r);
        }
    }
    return h;
}

/* The softmax draws are the same as before issue 23 (the weights 2^x computed four at a time
 * must be the same numbers, summed in the same order): the reference was recorded then. */
static void test_draws_unchanged(void **state)
{
    enum { GAMES = 2000 };
    const uint64_t RECORDED_RANDOM = 0x6c7c9d1fb34f8ac0ULL, RECORDED_BUILTIN = 0xab71335a1720c21aULL;
    (void)state;
    static PolicyWeights w;
    random_weights(&w, 15);
    const uint64_t fp = draws_fingerprint(&w, 16, GAMES);
    if (fp != RECORDED_RANDOM)
        fail_msg("random weights: draws fingerprint %016llx, recorded %016llx", (unsigned long long)fp,
                 (unsigned long long)RECORDED_RANDOM);
    char err[256];
    const PolicyWeights *b = policy_builtin(err, sizeof err);
    assert_non_null(b);
    const uint64_t fb = draws_fingerprint(b, 17, GAMES);
    if (fb != RECORDED_BUILTIN)
        fail_msg("built-in weights: draws fingerprint %016llx, recorded %016llx", (unsigned long long)fb,
                 (unsigned long long)RECORDED_BUILTIN);
}

/* The MELDS feature of passing (the hand as it stands) for the mover holding `hand` when the
 * cards it cannot see are exactly `unseen`; beaten and kept decoded from its index. */
static void melds_of(const char *hand, const char *unseen, int rev, int *beaten, int *kept)
{
    Cards h[NPLAYERS] = {0}, u;
    assert_int_equal(cards_parse(hand, &h[0]), 0);
    assert_int_equal(cards_parse(unseen, &u), 0);
    uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    h[1] = u; /* the others' hands: only their union matters here */
    GameState g;
    state_init(&g, h, seat, 0); /* player 0 leads */
    g.rev = rev;
    g.played = CARDS_ALL & ~h[0] & ~u; /* everything else is out of play */
    PolicyCtx c;
    policy_ctx_state(&c, &g);
    uint16_t idx[POLICY_MAX_ACTIVE];
    int k = policy_features(&c, (Move){0}, idx), found = 0;
    for (int i = 0; i < k; i++)
        if (idx[i] >= PF_MELDS && idx[i] <= PF_MELDS_END) {
            int off = idx[i] - PF_MELDS;
            *beaten = off / 4 % 6;
            *kept = off % 4;
            found++;
        }
    assert_int_equal(found, 1);
}

/* MELDS by hand: which ranks of a hand some unseen group could beat. */
static void test_melds_feature(void **state)
{
    (void)state;
    int b, k;
    /* 5-pair and 9 beaten by the kings; the 2 and the king single are not, the 8s never */
    melds_of("s5 h5 c9 d2 h8 s8 sk", "ck dk c7", 0, &b, &k);
    assert_int_equal(b, 2);
    assert_int_equal(k, 3);
    /* an unseen joker beats every single, and with the lone king answers the 5-pair... */
    melds_of("s5 h5 c9 d2 h8 s8 sk", "ck c7 jo", 0, &b, &k);
    assert_int_equal(b, 4);
    assert_int_equal(k, 1);
    /* ...but not a natural triple with a lone natural */
    melds_of("s6 h6 d6", "cq jo", 0, &b, &k);
    assert_int_equal(b, 0);
    assert_int_equal(k, 1);
    melds_of("s6 h6 d6", "cq dq jo", 0, &b, &k);
    assert_int_equal(b, 1);
    /* in a revolution the weak cards answer: the 4s beat the 5-pair, the 7 every single */
    melds_of("s5 h5 c9 d2 h8 s8 sk", "c4 d4 c7", 1, &b, &k);
    assert_int_equal(b, 4);
    assert_int_equal(k, 1);
    melds_of("s5 h5 c9 d2 h8 s8 sk", "c3 d3", 1, &b, &k); /* 3s are the strongest: every rank, 8s aside */
    assert_int_equal(b, 4);
    assert_int_equal(k, 1);
    melds_of("s3 c9", "c4 d4 c7", 1, &b, &k); /* the 3 stands */
    assert_int_equal(b, 1);
    assert_int_equal(k, 1);
}

static void test_weight_files(void **state)
{
    (void)state;
    char dir[64], path[128], err[512];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    static PolicyWeights w, back;
    random_weights(&w, 7);
    snprintf(path, sizeof path, "%s/w.txt", dir);
    FILE *f = fopen(path, "w");
    assert_int_equal(policy_save(f, &w, "a test"), 0);
    fclose(f);
    assert_int_equal(policy_load(path, &back, err, sizeof err), 0);
    for (int i = 0; i < POLICY_NPLAY; i++)
        NEAR(back.play[i], w.play[i], 1e-8 * (1 + fabs(w.play[i])));
    for (int i = 0; i < POLICY_NEXCH; i++)
        NEAR(back.exch[i], w.exch[i], 1e-8 * (1 + fabs(w.exch[i])));
    const char *text = slurp_file(path);
    static char buf[1 << 17];
    /* another feature layout */
    snprintf(buf, sizeof buf, "%s", text);
    char *l = strstr(buf, "layout ");
    assert_non_null(l);
    l[7] = l[7] == '0' ? '1' : '0';
    assert_int_equal(policy_parse(buf, "stale", &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "another feature layout"));
    assert_non_null(strstr(err, "dhm train policy"));
    /* truncated anywhere in the numbers */
    size_t len = strlen(text);
    for (size_t cut = len / 3; cut < len - 4; cut += len / 7) {
        snprintf(buf, sizeof buf, "%.*s", (int)cut, text);
        assert_int_equal(policy_parse(buf, "cut", &back, err, sizeof err), -1);
        if (!strstr(err, "truncated") && !strstr(err, "expected"))
            fail_msg("a file cut at %zu: '%s'", cut, err);
    }
    /* a damaged number, text after the end, not a weights file, no file */
    snprintf(buf, sizeof buf, "%s", text);
    char *num = strstr(strstr(buf, "play "), "\n") + 1;
    while (*num == '#')
        num = strchr(num, '\n') + 1;
    num[0] = 'x';
    assert_int_equal(policy_parse(buf, "bad", &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "is not a number"));
    assert_true(strlen(text) + 6 < sizeof buf);
    memcpy(buf, text, strlen(text));
    memcpy(buf + strlen(text), " 1.5\n", 6); /* text after the end */
    assert_int_equal(policy_parse(buf, "extra", &back, err, sizeof err), -1);
    assert_int_equal(policy_parse("hello\n", "junk", &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a dhm policy weights file"));
    snprintf(path, sizeof path, "%s/missing.txt", dir);
    assert_int_equal(policy_load(path, &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open"));
    /* the built-in weights fit this build, and players refuse a bad file with its reason */
    assert_non_null(policy_builtin(err, sizeof err));
    Player *p;
    char spec[256];
    snprintf(spec, sizeof spec, "policy:weights=%s", path);
    assert_int_equal(player_create(spec, 1, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open"));
    char out[4096];
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:weights=%s,simple,simple,simple,simple 2>&1",
                             dhm_bin(), path),
                     2);
    assert_non_null(strstr(out, "weights="));
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* Decisions of five `simple` players: a rule the policy can learn almost exactly. */
typedef struct Gather {
    TrainData *d;
    uint64_t seed;
    long games;
} Gather;

static int gather(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    Gather *g = ctx;
    (void)sofar;
    return train_add_game(g->d, rec, 0x1f, train_held_out(g->seed, g->games++, 0.2));
}

static void fit_simple(uint64_t seed, PolicyWeights *w, TrainData *d)
{
    train_data_init(d);
    Player *pl[5];
    char err[128];
    for (int p = 0; p < 5; p++)
        assert_int_equal(player_create("simple", (uint64_t)p, &pl[p], err, sizeof err), 0);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 300;
    Gather g = {d, seed, 0};
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    assert_int_equal(match_run(pl, &cfg, NULL, gather, &g, rec, &res), 0);
    free(rec);
    for (int p = 0; p < 5; p++)
        player_destroy(pl[p]);
    TrainOpts o;
    train_opts_default(&o);
    o.epochs = 150;
    o.jobs = 2;
    memset(w, 0, sizeof *w);
    assert_int_equal(train_fit(d, &o, w), 0);
}

static void test_training(void **state)
{
    (void)state;
    static PolicyWeights w1, w2, w3, zero;
    TrainData d1, d2, d3;
    fit_simple(3, &w1, &d1);
    assert_true(d1.play.n > 5000 && d1.exch.n > 200);
    TrainEval z, t;
    train_eval(&d1, &zero, 0, 1, &z);
    train_eval(&d1, &w1, 0, 1, &t);
    assert_true(t.n > 1000);
    NEAR(z.logloss, z.chance_logloss, 1e-9); /* zero weights: every move equally likely */
    if (!(t.logloss < 0.5 * z.logloss && t.top1 > 0.85))
        fail_msg("held-out log-loss %.4f (zero weights %.4f), top-1 %.3f", t.logloss, z.logloss, t.top1);
    train_eval(&d1, &zero, 1, 1, &z);
    train_eval(&d1, &w1, 1, 1, &t);
    assert_true(t.logloss < 0.5 * z.logloss); /* the exchange model learns `simple`'s gifts */
    /* the same seed: the same weights, bit for bit; another seed: another held-out split */
    fit_simple(3, &w2, &d2);
    assert_memory_equal(&w1, &w2, sizeof w1);
    fit_simple(4, &w3, &d3);
    assert_memory_not_equal(&w1, &w3, sizeof w1);
    train_data_free(&d1);
    train_data_free(&d2);
    train_data_free(&d3);
}

static void test_cli_train_and_strength(void **state)
{
    (void)state;
    char dir[64], out[1 << 14];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players simple,simple,simple,simple,simple --games 200 --seed 2 "
                                              "--record %s/s.kifu --quiet >/dev/null",
                             dhm_bin(), dir),
                     0);
    assert_int_equal(run_cmd(out, sizeof out, "%s train policy --kifu %s/s.kifu -o %s/w.txt --epochs 60 --quiet", dhm_bin(),
                             dir, dir),
                     0);
    assert_non_null(strstr(out, "held-out plays"));
    assert_non_null(strstr(out, "zero weights"));
    char b[1 << 14];
    snprintf(b, sizeof b, "%s/w.txt", dir);
    char *a = strdup(slurp_file(b)); /* slurp_file's buffer is reused below */
    assert_non_null(a);
    assert_int_equal(run_cmd(out, sizeof out, "%s train policy --kifu %s/s.kifu -o %s/w2.txt --epochs 60 --quiet",
                             dhm_bin(), dir, dir),
                     0);
    snprintf(b, sizeof b, "%s/w2.txt", dir);
    const char *w2 = slurp_file(b);
    assert_string_equal(strstr(a, "\nplay "), strstr(w2, "\nplay ")); /* deterministic */
    free(a);
    /* bad input: one line, non-zero */
    assert_int_equal(run_cmd(out, sizeof out, "%s train policy -o %s/x.txt 2>&1", dhm_bin(), dir), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s train policy --kifu %s/missing.kifu -o %s/x.txt 2>&1", dhm_bin(), dir, dir),
                     1);
    assert_non_null(strstr(out, "cannot open"));
    assert_int_equal(run_cmd(out, sizeof out, "%s train frob 2>&1", dhm_bin()), 2);
    /* the shipped policy alone beats four rule-based players clearly */
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy,simple,simple,simple,simple --games 400 --seed 5 "
                                              "--json --quiet",
                             dhm_bin()),
                     0);
    const char *t = strstr(out, "\"mean\": ");
    assert_non_null(t);
    double mean = atof(t + 8);
    if (mean < 3.8)
        fail_msg("policy scored %.3f points per game against four simple players", mean);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* The teacher's data: every decision with a choice valued; targets are probabilities; the same
 * data whatever the threads; and fitting them lowers their cross-entropy. */
static void test_teacher_targets(void **state)
{
    (void)state;
    char err[256];
    const PolicyWeights *base = policy_builtin(err, sizeof err);
    assert_non_null(base);
    TeacherOpts o;
    teacher_opts_default(&o);
    o.games = 6;
    o.worlds = 8;
    o.teacher = "mc:sims=50";
    o.holdout = 0;
    o.seed = 4;
    TrainData a, b;
    train_data_init(&a);
    train_data_init(&b);
    o.jobs = 1;
    assert_int_equal(teacher_data(&a, base, &o, err, sizeof err), 0);
    o.jobs = 2;
    assert_int_equal(teacher_data(&b, base, &o, err, sizeof err), 0);
    assert_true(a.play.n > 100 && a.games == 6);
    assert_true(a.play.len == b.play.len && a.play.n == b.play.n && a.exch.n == b.exch.n);
    assert_memory_equal(a.play.buf, b.play.buf, a.play.len * sizeof *a.play.buf);
    for (long t = 0; t < a.play.n; t++) { /* soft decisions whose targets sum to one */
        const uint32_t *p = a.play.buf + a.play.off[t];
        assert_int_equal(p[1], 0xFFFF);
        long sum = 0;
        for (uint32_t i = 0; i < p[0]; i++)
            sum += p[2 + i];
        assert_true(labs(sum - 65535) <= (long)p[0]);
    }
    static PolicyWeights w;
    w = *base;
    TrainEval before, after;
    train_eval(&a, &w, 0, -1, &before);
    TrainOpts fo;
    train_opts_default(&fo);
    fo.epochs = 40;
    for (long t = 0; t < a.play.n; t++) /* fit every decision: none is held out here */
        assert_int_equal(a.play.held[t], 0);
    assert_int_equal(train_fit(&a, &fo, &w), 0);
    train_eval(&a, &w, 0, -1, &after);
    assert_true(after.logloss < before.logloss - 0.05);
    /* a bad teacher is a clear error */
    o.teacher = "simple";
    assert_int_equal(teacher_data(&b, base, &o, err, sizeof err), -1);
    train_data_free(&a);
    train_data_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scores_match_features),
        cmocka_unit_test(test_scores_bits_unchanged),
        cmocka_unit_test(test_draws_unchanged),
        cmocka_unit_test(test_melds_feature),
        cmocka_unit_test(test_weight_files),
        cmocka_unit_test(test_training),
        cmocka_unit_test(test_cli_train_and_strength),
        cmocka_unit_test(test_teacher_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_gift.c — the gift model (players/gift.h): its features are deterministic, distinct and in
 * range over many hands, and the scores are the sums of their weights; weight files round-trip,
 * bad ones are refused with one line naming the file, and the built-in weights load; the
 * `policy` player gives a legal gift, the model's first (gift=exch: the exchange weights', as
 * before); mc plays legally with either exchange model; and, with the teacher corpus present,
 * the built-in model agrees with KleinBlauw's gifts in field B more often than the rich policy's
 * exchange weights did. */
#include "testutil.h"

#include "core/movegen.h"
#include "game/match.h"
#include "players/gift.h"
#include "players/players.h"
#include "players/policy.h"
#include "players/rich.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A random hand of n cards (the joker among them). */
static Cards random_hand(Rng *r, int n)
{
    Cards h = 0;
    while (cards_count(h) < n) {
        const int b = (int)rng_below(r, 54);
        h |= b == 53 ? CARDS_JOKER : 1ULL << (4 + b);
    }
    return h;
}

static void test_features_in_range(void **state)
{
    (void)state;
    static GiftWeights w;
    Rng r = rng_seed(11);
    for (int i = 0; i < GIFT_N; i++)
        w.w[i] = rng_double(&r) - 0.5;
    long gifts = 0;
    for (int t = 0; t < 3000; t++) {
        /* mostly hands of the exchange (10 to 13 cards), some of 2 to 16 (the fewest-melds
         * count, rich_min_melds, searches runs: a hand of many runs costs exponential time) */
        const int size = t % 5 ? 10 + (int)rng_below(&r, 4) : 2 + (int)rng_below(&r, 15);
        const Cards hand = random_hand(&r, size);
        for (int n = 1; n <= 2; n++) {
            Cards cand[GIFT_MAX_CANDS];
            double s[GIFT_MAX_CANDS];
            const int k = policy_gifts(hand, n, cand);
            assert_true(k > 0 && k <= GIFT_MAX_CANDS);
            gift_scores(&w, hand, cand, k, s);
            for (int i = 0; i < k; i++, gifts++) {
                uint32_t a[GIFT_MAX_ACTIVE], b[GIFT_MAX_ACTIVE];
                const int m = gift_features(hand, cand[i], a);
                assert_true(m > 0 && m <= GIFT_MAX_ACTIVE);
                assert_int_equal(gift_features(hand, cand[i], b), m); /* deterministic */
                assert_memory_equal(a, b, (size_t)m * sizeof *a);
                double sum = 0;
                for (int j = 0; j < m; j++) {
                    assert_true(a[j] < GIFT_N);
                    sum += w.w[a[j]];
                }
                NEAR(s[i], sum, 1e-9);
                /* every feature 0 or 1, but for the runs of the hand left, counted once a suit
                 * (two suits with runs over the same ranks: that run's index twice) */
                qsort(a, (size_t)m, sizeof *a, cmp_u32);
                for (int j = 1; j < m; j++)
                    assert_true(a[j] > a[j - 1] || a[j] < GF_HAND + 30);
            }
        }
    }
    assert_true(gifts > 100000);
    /* a few features by hand: a pair of 5s given from 5 5 5 6 7 (clubs 5-6-7 a run) */
    Cards hand, give;
    assert_int_equal(cards_parse("c5 d5 h5 c6 c7 s9 jo", &hand), 0);
    assert_int_equal(cards_parse("d5 h5", &give), 0);
    uint32_t f[GIFT_MAX_ACTIVE];
    const int m = gift_features(hand, give, f);
    int two = 0, ban = 0, top = 0;
    for (int j = 0; j < m; j++) {
        two += f[j] == GF_TWO;                  /* two cards of one rank */
        ban += f[j] >= GF_BAN && f[j] <= GF_BAN_END;
        top += f[j] == GF_TOP + 14;             /* the joker kept: the strongest */
    }
    assert_int_equal(two, 1);
    assert_int_equal(ban, 0);
    assert_int_equal(top, 1);
    assert_int_equal(cards_parse("s3 jo", &give), 0); /* the joker given: a rule a strong program keeps */
    hand |= give;
    int jk = 0;
    for (int j = 0, k = gift_features(hand, give, f); j < k; j++)
        jk += f[j] == GF_BAN + 2;
    assert_int_equal(jk, 1);
}

static void test_weight_files(void **state)
{
    (void)state;
    static GiftWeights w, x;
    Rng r = rng_seed(5);
    for (int i = 0; i < 2000; i++)
        w.w[rng_below(&r, GIFT_N)] = (rng_double(&r) - 0.5) * 8;
    char path[] = "/tmp/dhm-gift-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(gift_save(f, &w, "a test"), 0);
    fclose(f);
    char err[512];
    assert_int_equal(gift_load(path, &x, err, sizeof err), 0);
    for (int i = 0; i < GIFT_N; i++)
        NEAR(x.w[i], w.w[i], 1e-8 * (1 + fabs(w.w[i])));
    unlink(path);
    assert_non_null(gift_builtin(err, sizeof err));
    /* bad files: one line naming the file (and the line) and what is wrong; nothing written */
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)gift_layout_hash());
    static const struct {
        const char *text, *want;
    } BAD[] = {
        {"dhm-rich 1\n", "x: not a dhm gift model weights file (it must start with 'dhm-gift 1')"},
        {"dhm-gift 1\nlayout 0123456789abcdef\n", "another feature layout"},
        {"dhm-gift 1\nlayout %s\ngift 12 0\n", "gift has 12 weights"},
        {"dhm-gift 1\nlayout %s\ngift %d 2\n7 1.5\n3 2\n", "x:5: index 3 out of order (after 7)"},
        {"dhm-gift 1\nlayout %s\ngift %d 1\n99999999 1\n", "is not a whole number from 0 to"},
        {"dhm-gift 1\nlayout %s\ngift %d 1\n7 x1\n", "x:4: 'x1' is not a number"},
        {"dhm-gift 1\nlayout %s\ngift %d 2\n7 1\n", "x:5: expected a weight's index, found the end of the file (truncated)"},
        {"dhm-gift 1\nlayout %s\ngift %d 0\nend\nmore\n", "x:5: text after 'end'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, BAD[i].text, hash, GIFT_N);
        x.w[0] = 42;
        assert_int_equal(gift_parse(text, "x", &x, err, sizeof err), -1);
        if (!strstr(err, BAD[i].want) || strncmp(err, "x", 1))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, BAD[i].want);
        assert_null(strchr(err, '\n'));
        NEAR(x.w[0], 42, 0); /* a refused file changes nothing */
    }
    assert_int_equal(gift_load("/nonexistent/g.weights", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/g.weights"));
    /* through a player's option: the option, the file and the reason on one line */
    char out[4096], bad[] = "/tmp/dhm-gift-XXXXXX";
    fd = mkstemp(bad);
    assert_true(fd >= 0);
    assert_true(write(fd, "dhm-gift 1\nlayout 0123456789abcdef\n", 35) == 35);
    close(fd);
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy:gift-weights=%s,simple,simple,simple,simple "
                                              "--games 1 2>&1", dhm_bin(), bad),
                     2);
    assert_non_null(strstr(out, "policy: gift-weights="));
    assert_non_null(strstr(out, bad));
    assert_non_null(strstr(out, "another feature layout"));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:sims=10:xmodel=gift:gift-weights=%s,simple,simple,"
                                              "simple,simple --games 1 2>&1", dhm_bin(), bad),
                     2);
    assert_non_null(strstr(out, "mc: gift-weights="));
    unlink(bad);
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy:gift=any,simple,simple,simple,simple --games 1 "
                                              "2>&1", dhm_bin()),
                     2);
    assert_non_null(strstr(out, "gift=any: valid are model, exch"));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:xmodel=any,simple,simple,simple,simple --games 1 "
                                              "2>&1", dhm_bin()),
                     2);
    assert_non_null(strstr(out, "xmodel=any: valid are gift, fast"));
}

/* The policy player's gift: legal, and the gift model's first choice (the exchange weights' with
 * gift=exch, as before the gift model). */
static void test_policy_player_gift(void **state)
{
    (void)state;
    char err[512];
    Player *p, *q;
    assert_int_equal(player_create("policy", 1, &p, err, sizeof err), 0);
    assert_int_equal(player_create("policy:gift=exch", 1, &q, err, sizeof err), 0);
    const GiftWeights *gw = gift_builtin(err, sizeof err);
    const RichWeights *rw = rich_rl_builtin(err, sizeof err); /* the policy player's rich weights */
    assert_non_null(gw);
    assert_non_null(rw);
    Rng r = rng_seed(21);
    int differ = 0;
    for (int t = 0; t < 2000; t++) {
        InfoSet v;
        memset(&v, 0, sizeof v);
        const int n = 1 + t % 2;
        v.me = 0;
        for (int i = 0; i < NPLAYERS; i++)
            v.cls[i] = (int8_t)i;
        v.cls[0] = (int8_t)(2 - n); /* 0 the daifugo (gives 2), 1 the fugo (gives 1) */
        v.cls[2 - n] = 0;
        v.hand = v.start_hand = random_hand(&r, 11 + n);
        const Cards g = p->exchange(p, &v, n), h = q->exchange(q, &v, n);
        assert_int_equal(cards_count(g), n);
        assert_true((g & ~v.hand) == 0);
        assert_true(g == gift_pick(gw, v.hand, n, 0, NULL));
        Cards cand[GIFT_MAX_CANDS];
        double s[GIFT_MAX_CANDS];
        const int k = policy_gifts(v.hand, n, cand);
        gift_scores(gw, v.hand, cand, k, s);
        double best = s[0];
        for (int i = 1; i < k; i++)
            best = s[i] > best ? s[i] : best;
        double tot = 0;
        for (int i = 0; i < k; i++) { /* nothing scores above it */
            if (cand[i] == g)
                assert_true(s[i] == best);
            const double lp = gift_logprob(gw, v.hand, cand[i]); /* a distribution, in the scores' order */
            assert_true(lp <= 0);
            assert_true((lp >= gift_logprob(gw, v.hand, g)) == (s[i] >= best));
            tot += exp(lp);
        }
        NEAR(tot, 1, 1e-9);
        assert_true(gift_logprob(gw, v.hand, g | (~v.hand & (0 - ~v.hand))) == -INFINITY); /* not a gift of hand */
        assert_true(gift_logprob(gw, v.hand, 0) == -INFINITY);
        assert_true(h == policy_pick_gift_w(rw->exch, v.hand, n, 0, NULL));
        differ += g != h;
    }
    assert_true(differ > 100); /* the two models are not the same */
    player_destroy(p);
    player_destroy(q);
}

/* xprior=C: the gift model's scores as pseudo-counts in the exchange's search. With a prior
 * that outweighs the simulations, the search gives the gift model's first gift; without it,
 * the simulations choose, and they often choose otherwise. Seat 0's gifts are watched over
 * real matches against four `random` (classes carry, so it gives in most games). */
static Cards (*g_inner_exchange)(Player *, const InfoSet *, int);
static const GiftWeights *g_gw;
static long g_gifts, g_model_gifts;

static Cards watch_exchange(Player *self, const InfoSet *v, int n)
{
    const Cards c = g_inner_exchange(self, v, n);
    g_gifts++;
    g_model_gifts += c == gift_pick(g_gw, v->hand, n, 0, NULL);
    return c;
}

static void watched_match(const char *spec)
{
    char err[512];
    Player *pl[NPLAYERS];
    assert_int_equal(player_create(spec, 1, &pl[0], err, sizeof err), 0);
    for (int p = 1; p < NPLAYERS; p++)
        assert_int_equal(player_create("random", (uint64_t)p + 1, &pl[p], err, sizeof err), 0);
    g_inner_exchange = pl[0]->exchange;
    pl[0]->exchange = watch_exchange;
    g_gifts = g_model_gifts = 0;
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 24;
    cfg.seed = 7;
    MatchResult res;
    GameRecord *rec = malloc(sizeof *rec);
    assert_non_null(rec);
    assert_int_equal(match_run(pl, &cfg, NULL, NULL, NULL, rec, &res), 0);
    free(rec);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
}

static void test_mc_exchange_prior(void **state)
{
    (void)state;
    char err[512];
    g_gw = gift_builtin(err, sizeof err);
    assert_non_null(g_gw);
    watched_match("mc:sims=24:rootpol=rich:xprior=1000");
    assert_true(g_gifts >= 5);
    assert_int_equal(g_model_gifts, g_gifts);
    watched_match("mc:sims=24:rootpol=rich");
    assert_true(g_gifts >= 5);
    assert_true(g_model_gifts < g_gifts);
}

/* mc's exchange with either model plays legal games (every game has the exchange). */
static void test_mc_exchange_models(void **state)
{
    (void)state;
    char out[8192];
    assert_int_equal(run_cmd(out, sizeof out,
                             "%s play --players mc:sims=30:rootpol=rich,mc:sims=30:rootpol=rich:xmodel=fast,"
                             "mc:sims=30:xmodel=gift,policy,policy:gift=exch --games 6 --independent --seed 3 --json "
                             "2>&1",
                             dhm_bin()),
                     0);
    assert_null(strstr(out, "\"illegal\": 1"));
    assert_non_null(strstr(out, "\"illegal\": 0"));
}

/* With the teacher corpus: the built-in gift model against KleinBlauw's gifts in field B (never
 * fitted on), next to the rich policy's exchange weights. */
static void test_teacher_agreement(void **state)
{
    (void)state;
    const char *b0 = shared_file("data/teacher/B-000.kifu.xz");
    if (!b0) {
        print_message("skipped: no ../shared/data/teacher (the teacher corpus; DHM_SHARED names another place)\n");
        skip();
    }
    char dir[256], out[16384];
    test_tmpdir(dir, sizeof dir);
    const char *root = getenv("DHM_SHARED");
    assert_int_equal(run_cmd(out, sizeof out,
                             "for i in 000 001 002 003 004 005; do xz -dc %s/data/teacher/B-$i.kifu.xz > %s/B-$i.kifu "
                             "|| exit 1; done; %s train policy --model gift --players KleinBlau --init players/gift.weights "
                             "--epochs 0 --quiet --json -o %s/g.weights --kifu %s/B-000.kifu $(for i in 000 001 002 003 "
                             "004 005; do echo --test-kifu %s/B-$i.kifu; done) 2>&1",
                             root && *root ? root : "../shared", dir, dhm_bin(), dir, dir, dir),
                     0);
    const char *base = strstr(out, "\"test gifts, baseline\""), *model = strstr(out, "\"test gifts, gift model\"");
    assert_non_null(base);
    assert_non_null(model);
    double tb = atof(strstr(base, "\"top1\": ") + 8), tm = atof(strstr(model, "\"top1\": ") + 8);
    print_message("field B, KleinBlauw's gifts: top-1 %.3f (the rich policy's exchange weights %.3f)\n", tm, tb);
    assert_true(tm >= 0.6);
    assert_true(tm > tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_in_range), cmocka_unit_test(test_weight_files),
        cmocka_unit_test(test_policy_player_gift), cmocka_unit_test(test_mc_exchange_prior),
        cmocka_unit_test(test_mc_exchange_models),
        cmocka_unit_test(test_teacher_agreement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

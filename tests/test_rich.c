/* test_rich.c — the rich policy (players/rich.h) and PUCT: features stay in range and do not
 * depend on how the suits are named (but for the lock's which-card-is-higher test, which
 * compares cards); the fewest-melds count equals a brute-force search; weight files
 * round-trip and bad ones are one-line errors; the hidden layer's term, file section and
 * REINFORCE gradient (against finite differences); a model trained on the decisions of a hidden
 * rich policy picks its moves (the capacity the model claims, in miniature); the policy
 * player plays the rich model legally and the same way for a seed; PUCT follows its prior. */
#include "testutil.h"

#include "analysis/train.h"
#include "game/game.h"
#include "game/match.h"
#include "players/bandit.h"
#include "players/policy.h"
#include "players/rich.h"

/* ---- positions */

static void fresh_game(Rng *r, int gi, GameState *g)
{
    uint8_t seat[5] = {0, 1, 2, 3, 4};
    Cards hand[5];
    game_deal(seat, gi % 5, r, hand);
    state_init(g, hand, seat, game_first_player(hand));
}

/* A random legal move (passes less often, so that games go somewhere). */
static Move random_move(GameState *g, Rng *r, Move *mv, int *n)
{
    *n = state_moves(g, mv);
    int i = (int)rng_below(r, (uint32_t)*n);
    if (mv[i].type == MOVE_PASS && *n > 1 && rng_below(r, 2))
        i = 1 + (int)rng_below(r, (uint32_t)(*n - 1));
    return mv[i];
}

static void apply(GameState *g, Move m, Rng *r)
{
    if (state_apply(g, m) & EV_STALEMATE)
        state_finish_stalemate(g, r);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* ---- features in range */

static void test_features_in_range(void **state)
{
    (void)state;
    Rng r = rng_seed(3);
    long moves = 0;
    int8_t cls[5] = {0, 1, 2, 3, 4};
    for (int gi = 0; gi < 300; gi++) {
        GameState g;
        fresh_game(&r, gi, &g);
        Move mv[MOVEGEN_MAX];
        int n;
        while (!g.over) {
            Move m = random_move(&g, &r, mv, &n);
            RichCtx c;
            rich_ctx_state(&c, &g, gi % 2 ? cls : NULL);
            c.nmoves = n;
            for (int i = 0; i < n; i++) {
                uint32_t idx[RICH_MAX_ACTIVE];
                int k = rich_features(&c, mv[i], idx);
                assert_true(k > 0 && k <= RICH_MAX_ACTIVE);
                qsort(idx, (size_t)k, sizeof idx[0], cmp_u32);
                for (int j = 0; j < k; j++) {
                    assert_true(idx[j] < RICH_NPLAY);
                    assert_true(j == 0 || idx[j] != idx[j - 1]); /* each feature once */
                }
                moves++;
            }
            apply(&g, m, &r);
        }
    }
    assert_true(moves > 30000);
}

/* ---- suit symmetry */

static Cards perm_cards(Cards c, const int p[4])
{
    Cards o = c & CARDS_JOKER;
    for (Cards x = c & ~CARDS_JOKER; x; x &= x - 1) {
        int b = cards_lowest_bit(x);
        o |= 1ULL << ((b & ~3) | p[b & 3]);
    }
    return o;
}

static unsigned perm_suits(unsigned s, const int p[4])
{
    unsigned o = 0;
    for (int k = 0; k < 4; k++)
        if ((s >> k) & 1)
            o |= 1u << p[k];
    return o;
}

static Move perm_move(Move m, const int p[4])
{
    Move o = m;
    o.suits = (uint8_t)perm_suits(m.suits, p);
    if (m.jk != JK_NONE && m.jk <= JOKER_BIT) {
        int b = m.jk - 1;
        o.jk = (uint8_t)(1 + ((b & ~3) | p[b & 3]));
    }
    return o;
}

/* The sorted features of m without those of the lock's effect and of the 8-cut with weak cards
 * left (LOCKFX compares cards by their place in the deck order, EIGHTW masks its rank counts
 * with card bits, as the list it follows does: renaming the suits changes both). */
static int features_but_lock(const RichCtx *c, Move m, uint32_t *idx)
{
    uint32_t all[RICH_MAX_ACTIVE];
    int k = rich_features(c, m, all), n = 0;
    for (int j = 0; j < k; j++)
        if ((all[j] < RF_LOCKFX || all[j] > RF_LOCKFX_END) && all[j] != RF_EIGHTW)
            idx[n++] = all[j];
    qsort(idx, (size_t)n, sizeof idx[0], cmp_u32);
    return n;
}

static void test_suit_symmetry(void **state)
{
    (void)state;
    Rng r = rng_seed(11);
    long checked = 0;
    for (int gi = 0; gi < 150; gi++) {
        GameState g;
        fresh_game(&r, gi, &g);
        Move mv[MOVEGEN_MAX];
        int n;
        while (!g.over) {
            Move m = random_move(&g, &r, mv, &n);
            int p[4] = {0, 1, 2, 3}; /* the spades stay: the spade 3 has rules of its own */
            for (int i = 2; i > 0; i--) {
                int j = (int)rng_below(&r, (uint32_t)(i + 1)), t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
            GameState h = g;
            for (int q = 0; q < 5; q++)
                h.hand[q] = perm_cards(g.hand[q], p);
            h.played = perm_cards(g.played, p);
            h.table = perm_move(g.table, p);
            RichCtx c, d;
            rich_ctx_state(&c, &g, NULL);
            rich_ctx_state(&d, &h, NULL);
            c.nmoves = d.nmoves = n;
            for (int i = 0; i < n; i++) {
                uint32_t a[RICH_MAX_ACTIVE], b[RICH_MAX_ACTIVE];
                int ka = features_but_lock(&c, mv[i], a), kb = features_but_lock(&d, perm_move(mv[i], p), b);
                if (ka != kb || memcmp(a, b, (size_t)ka * sizeof a[0])) {
                    int off;
                    for (int j = 0; j < (ka > kb ? ka : kb); j++)
                        if (j >= ka || j >= kb || a[j] != b[j]) {
                            const char *ga = j < ka ? rich_play_group((int)a[j], &off) : "-";
                            const char *gb = j < kb ? rich_play_group((int)b[j], &off) : "-";
                            fail_msg("move %d of a position: features differ after renaming the suits (%s / %s)", i, ga, gb);
                        }
                }
                checked++;
            }
            apply(&g, m, &r);
        }
    }
    assert_true(checked > 10000);
}

/* ---- suit patterns: the classes of two suit sets under renaming the suits */

static void test_orbits(void **state)
{
    (void)state;
    int seen[RICH_ORBITS] = {0};
    static const int PERM[24][4] = {
        {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1}, {1, 0, 2, 3}, {1, 0, 3, 2},
        {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0}, {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0},
        {2, 3, 0, 1}, {2, 3, 1, 0}, {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
    for (unsigned m = 0; m < 16; m++)
        for (unsigned a = 0; a < 16; a++) {
            const int o = rich_orbit(m, a);
            assert_true(o >= 0 && o < RICH_ORBITS);
            seen[o] = 1;
            for (unsigned m2 = 0; m2 < 16; m2++) /* same class exactly when some renaming maps one to the other */
                for (unsigned a2 = 0; a2 < 16; a2++) {
                    int same = 0;
                    for (int k = 0; k < 24 && !same; k++)
                        same = perm_suits(m, PERM[k]) == m2 && perm_suits(a, PERM[k]) == a2;
                    assert_int_equal(same, rich_orbit(m2, a2) == o);
                }
        }
    for (int o = 0; o < RICH_ORBITS; o++)
        assert_true(seen[o]);
}

/* ---- fewest melds, against a brute force */

/* Every run of >= 3 cells of one suit in c (at most one cell the joker, cells 0..14), as card
 * sets (the joker included when it fills a cell). */
static int all_runs(Cards c, Cards *out)
{
    int n = 0, jk = (c & CARDS_JOKER) != 0;
    for (int s = 0; s < 4; s++)
        for (int a = 0; a <= 12; a++)
            for (int e = a + 2; e <= 14; e++) {
                Cards run = 0;
                int miss = 0;
                for (int x = a; x <= e; x++) {
                    Cards cell = card_of(x, s) & CARDS_NATURAL;
                    if (c & cell)
                        run |= cell;
                    else
                        miss++;
                }
                if (miss <= jk && cards_count(run) >= 2)
                    out[n++] = run | (miss ? CARDS_JOKER : 0);
            }
    return n;
}

static int ranks_of(Cards c)
{
    int k = 0;
    for (int col = COL_MIN; col <= COL_MAX; col++)
        k += (c & CARDS_COL(col)) != 0;
    return k;
}

/* The fewest melds by trying every set of disjoint runs. */
static int brute_melds(Cards c, const Cards *runs, int nruns, int from)
{
    int best = ranks_of(c);
    for (int i = from; i < nruns; i++)
        if ((runs[i] & c) == runs[i]) {
            int v = 1 + brute_melds(c & ~runs[i], runs, nruns, i + 1);
            best = v < best ? v : best;
        }
    return best;
}

static void test_min_melds(void **state)
{
    (void)state;
    Rng r = rng_seed(21);
    int with_runs = 0;
    for (int t = 0; t < 20000; t++) {
        /* a hand of 3..9 cards from a few suits and ranks, so that runs are common; one in
         * four of 6..14 cards from all four suits, as dealt hands are */
        Cards c = 0;
        const int wide = t % 4 == 0;
        int n = wide ? 6 + (int)rng_below(&r, 9) : 3 + (int)rng_below(&r, 7);
        while (cards_count(c) < n) {
            int col = 1 + (int)rng_below(&r, 13), s = (int)rng_below(&r, wide ? 4 : 2);
            c |= rng_below(&r, 12) ? card_of(col, s) : CARDS_JOKER;
        }
        Cards runs[512];
        int k = all_runs(c, runs);
        with_runs += k > 0;
        assert_int_equal(rich_min_melds(c), brute_melds(c, runs, k, 0));
    }
    assert_true(with_runs > 5000);
    /* by hand: three of a kind and a run of the joker with two cards above the 2 */
    Cards c;
    assert_int_equal(cards_parse("c3 d3 h3", &c), 0);
    assert_int_equal(rich_min_melds(c), 1);
    assert_int_equal(cards_parse("sa s2 jo c5", &c), 0); /* A-2-joker, and the 5 */
    assert_int_equal(rich_min_melds(c), 2);
    assert_int_equal(cards_parse("jo", &c), 0); /* the joker alone joins nothing: no meld */
    assert_int_equal(rich_min_melds(c), 0);
}

/* ---- weight files */

/* A weights text the reader refuses, with one line that says `want`. */
static void expect_refused(const char *text, const char *want)
{
    static RichWeights x;
    char err[512];
    assert_int_equal(rich_parse(text, "x", &x, err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("'%s' does not say '%s'", err, want);
    assert_null(strchr(err, '\n'));
}

static void test_weight_files(void **state)
{
    (void)state;
    static RichWeights w, x;
    memset(&w, 0, sizeof w);
    Rng r = rng_seed(5);
    for (int i = 0; i < 3000; i++)
        w.play[rng_below(&r, RICH_NPLAY)] = (rng_double(&r) - 0.5) * 8;
    for (int i = 0; i < POLICY_NEXCH; i++)
        w.exch[i] = rng_double(&r) - 0.5;
    char path[] = "/tmp/dhm-rich-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(rich_save(f, &w, "a test"), 0);
    fclose(f);
    char err[512];
    assert_int_equal(rich_load(path, &x, err, sizeof err), 0);
    for (int i = 0; i < RICH_NPLAY; i++)
        NEAR(x.play[i], w.play[i], 1e-8 * (1 + fabs(w.play[i])));
    for (int i = 0; i < POLICY_NEXCH; i++)
        NEAR(x.exch[i], w.exch[i], 1e-8);
    unlink(path);
    /* bad files: the message names the file (and the line) and what is wrong */
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)rich_layout_hash());
    static const struct {
        const char *text, *want;
    } BAD[] = {
        {"dhm-policy 1\n", "x: not a dhm rich policy weights file (it must start with 'dhm-rich 1')"},
        {"dhm-rich 1\nlayout 0123456789abcdef\n", "another feature layout"},
        {"dhm-rich 1\nlayout %s\nplay 12 0\n", "play has 12 weights"},
        {"dhm-rich 1\nlayout %s\nplay %d 2\n7 1.5\n3 2\n", "x:5: index 3 out of order (after 7)"},
        {"dhm-rich 1\nlayout %s\nplay %d 1\n99999999 1\n", "is not a whole number from 0 to"},
        {"dhm-rich 1\nlayout %s\nplay %d 1\n7 x1\n", "x:4: 'x1' is not a number"},
        {"dhm-rich 1\nlayout %s\nplay %d 1\n7 1\n", "truncated"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, BAD[i].text, hash, RICH_NPLAY);
        expect_refused(text, BAD[i].want);
    }
}

/* ---- the hidden layer: its term, its file section, and REINFORCE's gradient through it */

static void random_net(RichWeights *w, Rng *r, int nh)
{
    memset(w, 0, sizeof *w);
    for (int i = 0; i < RF_MCG; i++)
        w->play[i] = (rng_double(r) - 0.5) * 2;
    rich_net_init(w, nh, 77);
    for (int u = 0; u < nh; u++) { /* outputs and biases of both signs, so that some units are off */
        rich_net_out(w->net)[u] = (rng_double(r) - 0.5) * 2;
        rich_net_bias(w->net)[u] = (rng_double(r) - 0.5) * 0.6;
    }
}

/* A position of a random game after `plays` random moves with at least two candidates; its
 * candidates' features in the recorded layout (k, then k indices) into buf. */
static int candidate_buf(Rng *r, int plays, uint32_t *buf, int *nmoves)
{
    GameState g;
    Move mv[MOVEGEN_MAX];
    int n;
    for (;;) {
        fresh_game(r, (int)rng_below(r, 5), &g);
        for (int i = 0; i < plays && !g.over; i++)
            apply(&g, random_move(&g, r, mv, &n), r);
        if (!g.over && (n = state_moves(&g, mv)) > 1)
            break;
    }
    RichCtx c;
    rich_ctx_state(&c, &g, NULL);
    c.nmoves = n;
    int len = 0;
    for (int i = 0; i < n; i++) {
        int k = rich_features(&c, mv[i], buf + len + 1);
        buf[len] = (uint32_t)k;
        len += 1 + k;
    }
    *nmoves = n;
    return len;
}

static double logp_chosen(const RichWeights *w, const uint32_t *p, int n, int chosen, double temp)
{
    double sc[MOVEGEN_MAX], mx = -INFINITY, z = 0;
    for (int i = 0; i < n; i++) {
        int k = (int)*p++;
        double v = 0;
        for (int j = 0; j < k; j++)
            v += w->play[p[j]];
        sc[i] = (v + rich_net_term(w, p, k, NULL)) / temp;
        mx = sc[i] > mx ? sc[i] : mx;
        p += k;
    }
    for (int i = 0; i < n; i++)
        z += exp(sc[i] - mx);
    return sc[chosen] - mx - log(z);
}

static void test_hidden_layer(void **state)
{
    (void)state;
    static RichWeights w, x;
    static uint32_t buf[MOVEGEN_MAX * (1 + RICH_MAX_ACTIVE)];
    static double gw[RICH_NPLAY], gnet[RICH_NNET];
    Rng r = rng_seed(21);
    random_net(&w, &r, 6);
    /* the scores: w . phi plus out . max(0, bias + the inputs of the active small features) */
    long on = 0, off = 0;
    for (int t = 0; t < 200; t++) {
        int n, len = candidate_buf(&r, (int)rng_below(&r, 40), buf, &n);
        (void)len;
        const uint32_t *p = buf;
        for (int i = 0; i < n; i++) {
            int k = (int)*p++;
            double h[RICH_HID_MAX], want = 0;
            for (int u = 0; u < 6; u++) {
                h[u] = rich_net_bias(w.net)[u];
                for (int j = 0; j < k; j++)
                    if (p[j] < RF_MCG)
                        h[u] += rich_net_in(w.net, p[j])[u];
                want += rich_net_out(w.net)[u] * (h[u] > 0 ? h[u] : 0);
                on += h[u] > 0;
                off += h[u] <= 0;
            }
            NEAR(rich_net_term(&w, p, k, NULL), want, 1e-12);
            p += k;
        }
    }
    assert_true(on > 1000 && off > 1000); /* both sides of max(0, .) are met */
    /* the gradient against finite differences of -adv log pi(chosen) */
    const double temp = 0.5, adv = 1.3, eps = 1e-6;
    int checked = 0;
    for (int t = 0; t < 40; t++) {
        int n;
        candidate_buf(&r, (int)rng_below(&r, 40), buf, &n);
        const int chosen = (int)rng_below(&r, (uint32_t)n);
        memset(gw, 0, sizeof gw);
        memset(gnet, 0, sizeof gnet);
        train_rl_decision_grad(w.play, &w, buf, n, chosen, temp, adv, gw, gnet);
        /* every weight the candidates touch: the play weights of their features, the hidden layer's */
        uint32_t feat[MOVEGEN_MAX * RICH_MAX_ACTIVE];
        int nf = 0;
        const uint32_t *p = buf;
        for (int i = 0; i < n; i++) {
            int k = (int)*p++;
            for (int j = 0; j < k && nf < 64; j++)
                feat[nf++] = p[j];
            p += k;
        }
        for (int f = 0; f < nf + 6 + 6 + 4; f++) {
            double *at, *g;
            if (f < nf) {
                at = &w.play[feat[f]], g = &gw[feat[f]];
            } else if (f < nf + 6) {
                at = &rich_net_out(w.net)[f - nf], g = &rich_net_out(gnet)[f - nf];
            } else if (f < nf + 12) {
                at = &rich_net_bias(w.net)[f - nf - 6], g = &rich_net_bias(gnet)[f - nf - 6];
            } else {
                uint32_t i = feat[(f - nf - 12) * 7 % nf];
                if (i >= RF_MCG)
                    continue;
                at = &rich_net_in(w.net, i)[f % 6], g = &rich_net_in(gnet, i)[f % 6];
            }
            const double keep = *at;
            *at = keep + eps;
            double up = -adv * logp_chosen(&w, buf, n, chosen, temp);
            *at = keep - eps;
            double down = -adv * logp_chosen(&w, buf, n, chosen, temp);
            *at = keep;
            double num = (up - down) / (2 * eps);
            if (fabs(num - *g) > 1e-5 * (1 + fabs(num)))
                fail_msg("position %d weight %d: gradient %.9g, finite differences %.9g", t, f, *g, num);
            checked++;
        }
    }
    assert_true(checked > 1000);
    /* the file: the hidden section round-trips; bad ones are one-line errors */
    char path[] = "/tmp/dhm-rich-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(rich_save(f, &w, NULL), 0);
    fclose(f);
    char err[512];
    assert_int_equal(rich_load(path, &x, err, sizeof err), 0);
    unlink(path);
    assert_int_equal(x.nhid, 6);
    for (int i = 0; i < RICH_NNET; i++)
        NEAR(x.net[i], w.net[i], 1e-8 * (1 + fabs(w.net[i])));
    char hash[32], text[512];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)rich_layout_hash());
    static const struct {
        const char *tail, *want;
    } BAD[] = {
        {"hidden 65 %d\n", "the hidden layer's units: '65' is not a whole number from 1 to 64"},
        {"hidden 2 12\n", "the hidden layer's features: '12'"},
        {"hidden 2 %d\n0.1 0.1\n1 x\n", "'x' is not a number"},
        {"hidden 2 %d\n0.1 0.1\n1 1\n", "expected a hidden-layer weight, found the end of the file (truncated)"},
        {"hidden 1 %d\n", "truncated"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char tail[64];
        snprintf(tail, sizeof tail, BAD[i].tail, RF_MCG);
        int len = snprintf(text, sizeof text, "dhm-rich 1\nlayout %s\nplay %d 0\nexchange %d\n", hash, RICH_NPLAY,
                           POLICY_NEXCH);
        for (int e = 0; e < POLICY_NEXCH; e++)
            len += snprintf(text + len, sizeof text - (size_t)len, "0 ");
        snprintf(text + len, sizeof text - (size_t)len, "\n%s", tail);
        expect_refused(text, BAD[i].want);
    }
}

/* dhm train policy --hidden: REINFORCE writes a hidden layer that has learnt, the same for any
 * --jobs, and the policy player plays it; bad uses are one-line errors. */
static void test_hidden_reinforce_cli(void **state)
{
    (void)state;
    char dir[256], out[4096];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    test_train_jobs_alike(dir, "--model rich --rl-games 3000 --rl-vs-simple 1 --rl-rule devkit --rl-batch 256 "
                               "--rl-lr 0.01 --hidden 4 --seed 3", "h");
    static RichWeights w;
    char err[512], path[600];
    snprintf(path, sizeof path, "%s/h1.w", dir);
    assert_int_equal(rich_load(path, &w, err, sizeof err), 0);
    assert_int_equal(w.nhid, 4);
    int moved = 0;
    for (int u = 0; u < 4; u++)
        moved += rich_net_out(w.net)[u] != 0; /* the outputs start at zero and learn */
    assert_int_equal(moved, 4);
    assert_int_equal(run_cmd(out, sizeof out,
                             "%s play --players policy:devkit=0:weights=%s,devkit,devkit,devkit,devkit --games 20 "
                             "--seed 4 --json 2>&1 | grep '\"illegal\"'",
                             dhm_bin(), path),
                     0);
    assert_null(strstr(out, "\"illegal\": 1"));
    static const struct {
        const char *args, *want;
    } BAD[] = {
        {"--model rich --kifu /dev/null --batch 8", "--batch goes with --model rich and weights with a hidden"},
        {"--model fast --rl-games 10 --hidden 4", "--hidden goes with --model rich"},
        {"--model rich --rl-games 10 --hidden 65", "--hidden"},
        {"--model rich --rl-games 10 --hidden 2 --init %s", "have a hidden layer already (4 units)"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char args[700];
        snprintf(args, sizeof args, BAD[i].args, path);
        test_train_refused(dir, args, BAD[i].want);
    }
    assert_int_equal(run_cmd(out, sizeof out, "rm -rf %s", dir), 0);
}

/* ---- capacity in miniature: learn a hidden rich policy from its decisions */

/* Games of `teacher` in every seat, by its first choice, into d (every tenth held out). */
static void teacher_games(const RichWeights *teacher, Rng r, int games, TrainData *d)
{
    train_data_init(d);
    d->rich = 1;
    static GameRecord rec;
    for (int gi = 0; gi < games; gi++) {
        memset(&rec, 0, sizeof rec);
        GameState g;
        fresh_game(&r, gi, &g);
        memcpy(rec.original, g.hand, sizeof rec.original);
        for (int s = 0; s < 5; s++)
            rec.seat[s] = g.seat[s];
        rec.first = g.turn;
        for (int p = 0; p < 5; p++)
            rec.cls[p] = -1;
        Move mv[MOVEGEN_MAX];
        double sc[MOVEGEN_MAX + 3];
        while (!g.over && rec.nplays < GAME_MAX_PLAYS) {
            int n = state_moves(&g, mv);
            RichCtx c;
            rich_ctx_state(&c, &g, rec.cls);
            rich_scores(teacher, &c, mv, n, sc);
            Move m = mv[policy_pick_scores(sc, n, 0, &r)];
            rec.plays[rec.nplays++].move = m;
            apply(&g, m, &r);
        }
        assert_int_equal(train_add_game(d, &rec, 31, gi % 10 == 0), 0);
    }
}

static void test_learns_a_rich_policy(void **state)
{
    (void)state;
    static RichWeights teacher, w;
    memset(&teacher, 0, sizeof teacher);
    memset(&w, 0, sizeof w);
    Rng r = rng_seed(8);
    for (int i = 0; i < RF_MCG; i++) /* every small group, and a share of the pattern tables */
        teacher.play[i] = (rng_double(&r) - 0.5) * 4;
    for (int i = 0; i < 20000; i++)
        teacher.play[RF_MCG + rng_below(&r, RICH_NPLAY - RF_MCG)] = (rng_double(&r) - 0.5) * 4;
    TrainData d;
    teacher_games(&teacher, r, 1500, &d);
    TrainOpts o;
    train_opts_default(&o);
    o.epochs = 150;
    o.lr = 0.1;
    o.l2 = 1e-6;
    o.jobs = 2;
    assert_int_equal(train_fit_rich(&d, &o, &w), 0);
    TrainEval t;
    train_eval_set(&d.play, w.play, 1, ~0u, &t);
    assert_true(t.n > 5000);
    if (t.top1 < 0.9)
        fail_msg("held-out agreement with the hidden policy %.3f over %ld decisions, want >= 0.9", t.top1, t.n);
    train_data_free(&d);
}

/* The same with a hidden layer: a student with the teacher's linear part and a fresh layer (its
 * outputs zero) learns the teacher's layer from its decisions by minibatch Adam, the same
 * weights for any number of threads. */
static void test_learns_a_hidden_layer(void **state)
{
    (void)state;
    static RichWeights teacher, w, w1;
    Rng r = rng_seed(12);
    random_net(&teacher, &r, 6);
    for (int u = 0; u < 6; u++) /* a layer that decides many moves */
        rich_net_out(teacher.net)[u] *= 6;
    TrainData d;
    teacher_games(&teacher, r, 800, &d);
    memcpy(w.play, teacher.play, sizeof w.play);
    rich_net_init(&w, 6, 5);
    TrainEval before, after;
    train_eval_rich(&d.play, &w, 1, ~0u, &before);
    TrainOpts o;
    train_opts_default(&o);
    o.epochs = 8;
    o.lr = 0.01;
    o.l2 = 0;
    o.batch = 64;
    o.seed = 3;
    o.jobs = 2;
    w1 = w;
    assert_int_equal(train_fit_rich(&d, &o, &w), 0);
    train_eval_rich(&d.play, &w, 1, ~0u, &after);
    assert_true(after.n > 3000);
    if (before.top1 > 0.85 || after.top1 < before.top1 + 0.08)
        fail_msg("held-out agreement with the teacher's layer: %.3f before, %.3f after; want <= 0.85 before and "
                 "0.08 more after", before.top1, after.top1);
    o.jobs = 1;
    assert_int_equal(train_fit_rich(&d, &o, &w1), 0);
    assert_memory_equal(w1.play, w.play, sizeof w.play);
    assert_memory_equal(w1.net, w.net, sizeof w.net);
    train_data_free(&d);
}

/* ---- the policy player with the rich model */

static void test_policy_player_rich(void **state)
{
    (void)state;
    static RichWeights w;
    memset(&w, 0, sizeof w);
    Rng r = rng_seed(9);
    for (int i = 0; i < RF_MCG; i++)
        w.play[i] = (rng_double(&r) - 0.5) * 4;
    char path[] = "/tmp/dhm-rich-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(rich_save(f, &w, NULL), 0);
    fclose(f);
    char out[2][4096];
    for (int k = 0; k < 2; k++) /* the file says it is a rich model; the same games for a seed */
        assert_int_equal(run_cmd(out[k], sizeof out[k],
                                 "%s play --players policy:weights=%s,simple,simple,random,policy --games 30 "
                                 "--seed 4 --json 2>&1 | grep '\"player\"'",
                                 dhm_bin(), path),
                         0);
    assert_string_equal(out[0], out[1]);
    assert_non_null(strstr(out[0], "\"illegal\": 0"));
    assert_int_equal(run_cmd(out[0], sizeof out[0],
                             "%s play --players mc:sims=40:puct=1.5:prior-weights=%s,simple,simple,simple,simple "
                             "--games 6 --seed 2 --json 2>&1",
                             dhm_bin(), path),
                     0);
    assert_non_null(strstr(out[0], "\"illegal\": 0"));
    assert_int_equal(run_cmd(out[0], sizeof out[0], "%s play --players policy:model=slow,simple,simple,simple,simple --games 1 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(out[0], "model=slow: valid are fast, rich"));
    assert_int_equal(run_cmd(out[0], sizeof out[0],
                             "%s play --players mc:puct=1:prior-weights=/nonexistent,simple,simple,simple,simple --games 1 2>&1", dhm_bin()),
                     2);
    assert_non_null(strstr(out[0], "prior-weights=/nonexistent: cannot open /nonexistent"));
    unlink(path);
}

/* policy:pass=B lowers the pass's score by B: player 0 passes where it could play most with
 * pass=-100, less with the plain policy, never with pass=100. */
static int count_passes(void *ctx, const GameState *before, Move m, int accepted, const GameState *after, int ev)
{
    (void)after;
    (void)ev;
    Move mv[MOVEGEN_MAX];
    if (before->turn == 0 && accepted && m.type == MOVE_PASS &&
        movegen(before->hand[0], before->table, before->rev, before->lock, mv) > 1)
        ++*(long *)ctx; /* a pass where it could play */
    return 0;
}

static void test_policy_pass_option(void **state)
{
    (void)state;
    static const char *const SPEC[3] = {"policy:pass=-100", "policy", "policy:pass=100"};
    long passes[3] = {0, 0, 0};
    GameRecord *rec = malloc(sizeof *rec);
    assert_non_null(rec);
    for (int k = 0; k < 3; k++) {
        MatchConfig cfg;
        match_config_default(&cfg);
        cfg.games = 60;
        cfg.seed = 5;
        Player *pl[NPLAYERS];
        char err[256];
        for (int p = 0; p < NPLAYERS; p++)
            assert_int_equal(player_create(p ? "simple" : SPEC[k], player_seed(5, p), &pl[p], err, sizeof err), 0);
        GameHooks hooks = {.ctx = &passes[k], .move = count_passes};
        MatchResult res;
        assert_int_equal(match_run(pl, &cfg, &hooks, NULL, NULL, rec, &res), 0);
        for (int p = 0; p < NPLAYERS; p++)
            player_destroy(pl[p]);
    }
    free(rec);
    assert_true(passes[0] > passes[1]);
    assert_true(passes[1] > passes[2]);
    assert_true(passes[2] == 0);
    char out[512];
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy:pass=x,simple,simple,simple,simple --games 1 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(out, "pass"));
}

/* ---- PUCT */

static void test_puct_follows_prior(void **state)
{
    (void)state;
    static Bandit b;
    BanditParams p;
    bandit_params_default(&p);
    p.puct_c = 1.5;
    double prior[3] = {0.8, 0.15, 0.05};
    Rng r = rng_seed(1);
    bandit_init(&b, B_PUCT, &p, 3);
    b.prior = prior;
    assert_int_equal(bandit_select(&b, &r, NULL), 0); /* nothing pulled: the likeliest first */
    for (int i = 0; i < 400; i++) { /* equal rewards: pulls follow the prior */
        int a = bandit_select(&b, &r, NULL);
        bandit_update(&b, a, 0.5, &r);
    }
    assert_true(b.arm[0].n > b.arm[1].n && b.arm[1].n > b.arm[2].n);
    assert_true(b.arm[2].n >= 1);
    /* a better arm the prior dislikes still wins the pulls once tried */
    bandit_init(&b, B_PUCT, &p, 3);
    b.prior = prior;
    for (int i = 0; i < 3000; i++) {
        int a = bandit_select(&b, &r, NULL);
        bandit_update(&b, a, a == 2 ? 0.9 : 0.3, &r);
    }
    assert_true(b.arm[2].n > b.arm[0].n && b.arm[2].n > b.arm[1].n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_in_range),  cmocka_unit_test(test_suit_symmetry),
        cmocka_unit_test(test_orbits),             cmocka_unit_test(test_min_melds),
        cmocka_unit_test(test_weight_files),       cmocka_unit_test(test_hidden_layer),
        cmocka_unit_test(test_hidden_reinforce_cli),
        cmocka_unit_test(test_learns_a_rich_policy), cmocka_unit_test(test_learns_a_hidden_layer),
        cmocka_unit_test(test_policy_player_rich),
        cmocka_unit_test(test_policy_pass_option), cmocka_unit_test(test_puct_follows_prior),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

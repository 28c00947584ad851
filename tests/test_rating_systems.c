/* test_rating_systems.c — the rating systems against the reference numbers of
 * ../shared/spec/rating.md §1, each at the tolerance given there: the published value with
 * its published tolerance, and the exact value with a tight one. */
#include "testutil.h"

#include <math.h>

#include "rating/elo.h"
#include "rating/gaussian.h"
#include "rating/glicko.h"
#include "rating/trueskill.h"


static void test_gaussian(void **state)
{
    (void)state;
    NEAR(gauss_ppf(0.55), 0.12566134685507403421, 1e-14);
    NEAR(gauss_ppf(0.975), 1.959963984540054, 1e-12);
    NEAR(gauss_ppf(1e-10), -6.361340902404056, 1e-9);
    for (double p = 0.001; p < 1; p += 0.0137)
        NEAR(gauss_cdf(gauss_ppf(p)), p, 1e-14);
    for (double x = -5; x < 26; x += 0.37)
        NEAR(gauss_erfcx(x) / (exp(x * x) * erfc(x)), 1.0, 1e-12);
    NEAR(gauss_erfcx(30.0) * 30.0 * sqrt(M_PI), 1.0 - 1.0 / 1800 + 3.0 / (4 * 810000.0) - 15.0 / (8 * 729e6) + 105.0 / (16 * 6561e8), 1e-12);
    /* the spec's values at the 1v1 defaults: alpha = eps/c */
    double al = 0.0561952149787802135;
    NEAR(ts_v_win(0, al), 0.834000382947789531, 1e-12);
    NEAR(ts_w_win(0, al), 0.64868980794492353, 1e-12);
    NEAR(ts_v_draw(0, al), 0, 1e-15);
    NEAR(ts_w_draw(0, al), 0.998947809086553983, 1e-10);
    /* far in the tail nothing underflows: v -> -t, w -> 1 */
    double v = ts_v_win(-60, 0);
    assert_true(isfinite(v) && fabs(v - 60.0166) < 0.001);
    assert_true(ts_w_win(-60, 0) > 0.99 && ts_w_win(-60, 0) <= 1);
    assert_true(isfinite(ts_v_draw(50, 0.5)) && isfinite(ts_w_draw(-50, 0.5)));
    /* draw functions against the direct formula where it is accurate */
    for (double t = -3; t <= 3; t += 0.25) {
        double a = 0.7;
        double den = gauss_cdf(a - t) - gauss_cdf(-a - t);
        NEAR(ts_v_draw(t, a), (gauss_pdf(-a - t) - gauss_pdf(a - t)) / den, 1e-10);
        double vd = (gauss_pdf(-a - t) - gauss_pdf(a - t)) / den;
        NEAR(ts_w_draw(t, a), vd * vd + ((a - t) * gauss_pdf(a - t) + (a + t) * gauss_pdf(a + t)) / den, 1e-10);
    }
}

static void test_elo(void **state)
{
    (void)state;
    NEAR(elo_expected(1700, 1500, 400), 0.7597469266, 1e-10);
    NEAR(elo_update(1700, 1500, 1, 16, 400), 1703.844049, 1e-6);
    NEAR(elo_update(1700, 1500, 0, 16, 400), 1687.844049, 1e-6);
    NEAR(elo_update(1700, 1500, 0.5, 16, 400), 1695.844049, 1e-6);
    NEAR(elo_update(1500, 1700, 0, 16, 400), 1496.155951, 1e-6);
    NEAR(elo_update(1700, 1500, 1, 10, 400), 1702.402531, 1e-6);
    NEAR(elo_update(1700, 1500, 0.5, 10, 400), 1697.402531, 1e-6);
    NEAR(elo_update(1700, 1500, 0, 10, 400), 1692.402531, 1e-6);
    /* FIDE calculator (Moserware tests, tolerance 0.1) */
    NEAR(elo_update(1200, 1200, 1, 15, 400), 1207.5, 0.1);
    NEAR(elo_update(1200, 1200, 0, 15, 400), 1192.5, 0.1);
    NEAR(elo_update(2600, 2500, 1, 10, 400), 2603.6, 0.1);
    NEAR(elo_update(2500, 2600, 1, 10, 400), 2506.4, 0.1);
    NEAR(elo_update(1200, 1500, 1, 25, 400), 1221.25, 0.1);
    NEAR(elo_update(1200, 1500, 0.5, 25, 400), 1208.7255, 1e-3);
}

static void test_morita(void **state)
{
    (void)state;
    /* the paper's worked examples (it rounds e to 0.76 and f to 0.26) */
    double e = morita_expected(1700, 1500, 0.5, 0);
    NEAR(e, elo_expected(1700, 1500, 400), 1e-12);
    NEAR(1700 + 16 * (1 - 0.76), 1703.84, 1e-9);
    NEAR(1700 + 16 * (1 - e), 1703.84, 0.01);
    NEAR(1700 + 16 * (0 - e), 1687.84, 0.01);
    double f = morita_expected(1700, 1500, 0.1, 0);
    NEAR(f, 0.26, 0.005);
    NEAR(1700 + 16 * (0 - f), 1695.84, 0.1);
    /* f(p) = p at equal ratings */
    for (double p = 0.05; p < 1; p += 0.1)
        NEAR(morita_expected(1600, 1600, p, 0), p, 1e-12);
    /* a 1500 player with e = 0.64, 0.47, 0.33, 0.30 against four others, finishing first */
    double es[4] = {0.64, 0.47, 0.33, 0.30}, r[5] = {1500}, rank[5] = {1, 2, 3, 4, 5}, out[5];
    for (int j = 0; j < 4; j++)
        r[j + 1] = 1500 + 400 * log10(1 / es[j] - 1);
    morita_game(5, r, rank, NULL, NULL, 16, 0, out);
    NEAR(out[0], 1509.04, 1e-9);
    /* per-player p: the pair rate is p itself when the other's is 1 - p */
    NEAR(morita_pair_p(0.8, 0.2), 0.8, 1e-12);
    NEAR(morita_pair_p(0.3, 0.3), 0.5, 1e-12);
    double p2[2] = {0.1, 0.9}, r2[2] = {1700, 1500}, rk2[2] = {2, 1}, o2[2];
    morita_game(2, r2, rk2, p2, NULL, 16, 0, o2);
    NEAR(o2[0], 1700 - 16 * f, 1e-9);
}

static void test_glicko1(void **state)
{
    (void)state;
    double rj[3] = {1400, 1550, 1700}, rdj[3] = {30, 100, 300}, s[3] = {1, 0, 0}, r, rd;
    NEAR(glicko_g(30), 0.9954980061, 1e-10);
    NEAR(glicko_g(300), 0.7242354637, 1e-10);
    NEAR(glicko_expected(1500, 1400, 30), 0.6394677360, 1e-10);
    glicko_update(1500, 200, 3, rj, rdj, s, &r, &rd);
    NEAR(r, 1464, 0.5);
    NEAR(rd, 151.4, 0.05);
    NEAR(r, 1464.1064627569112, 1e-6);
    NEAR(rd, 151.39890244796933, 1e-6);
    NEAR(glicko_grow(50, 34.64101615, 100, 350), 350, 1e-4);
    NEAR(glicko_grow(340, 34.64, 5, 350), sqrt(340.0 * 340 + 34.64 * 34.64 * 5), 1e-9);
    NEAR(glicko_grow(340, 34.64, 10, 350), 350, 1e-12);
    /* expected score with both RDs (FICS help page): E = 0.376 for 1400/80 vs 1500/150 */
    NEAR(glicko_expected(1400, 1500, sqrt(80.0 * 80 + 150.0 * 150)), 0.3759876557, 1e-9);
}

static void test_glicko2(void **state)
{
    (void)state;
    Glicko2 p = {1500, 200, 0.06};
    Glicko2 o[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double s[3] = {1, 0, 0};
    int it = glicko2_update(&p, 3, o, s, 0.5, 1e-6);
    assert_true(it > 0 && it < 100);
    NEAR(p.r, 1464.06, 0.01);
    NEAR(p.rd, 151.52, 0.01);
    NEAR(p.sigma, 0.05999, 1e-5);
    NEAR(p.r, 1464.0506705393013, 1e-6);
    NEAR(p.rd, 151.51652412385727, 1e-6);
    NEAR(p.sigma, 0.059995984286488495, 1e-8);
    Glicko2 idle = {1500, 200, 0.06};
    glicko2_update(&idle, 0, NULL, NULL, 0.5, 1e-6);
    NEAR(idle.rd, 200.27141669877065, 1e-9);
    /* an exactly balanced period (f(C) = 0 can occur): terminates under the cap */
    Glicko2 q = {1500, 350, 0.06}, qo = {1500, 350, 0.06};
    double half = 0.5;
    assert_true(glicko2_update(&q, 1, &qo, &half, 1.0, 1e-6) < 100);
    NEAR(q.r, 1500, 1e-9);
}

static TsRating R(double mu, double sigma) { return (TsRating){mu, sigma}; }

static void check_ffa(int n, const double *mu, const double *sigma, double tol, const TsEnv *env)
{
    TsRating in[16] = {{0, 0}}, out[16];
    int sizes[16] = {0};
    double ranks[16] = {0};
    for (int i = 0; i < n; i++) {
        in[i] = R(env->mu0, env->sigma0);
        sizes[i] = 1;
        ranks[i] = i;
    }
    assert_true(ts_rate(env, n, sizes, in, NULL, ranks, out) >= 1);
    for (int i = 0; i < n; i++) {
        NEAR(out[i].mu, mu[i], tol);
        NEAR(out[i].sigma, sigma[i], tol);
    }
}

static void test_trueskill_two_sides(void **state)
{
    (void)state;
    TsEnv env;
    ts_env_default(&env);
    NEAR(ts_draw_margin(&env, 2), 0.740466587452147392, 1e-12);
    NEAR(ts_draw_margin(&env, 3), 0.906882655418849083, 1e-12);
    NEAR(ts_draw_margin(&env, 8), 1.48093317490429478, 1e-12);
    TsRating a = R(25, 25.0 / 3), b = R(25, 25.0 / 3);
    ts_rate_1v1(&env, &a, &b, 0);
    NEAR(a.mu, 29.39583201999924, 1e-5); /* published (approximate erfc) */
    NEAR(a.mu, 29.395831692991511, 1e-9);
    NEAR(a.sigma, 7.171475807009220, 1e-9);
    NEAR(b.mu, 20.604168307008486, 1e-9);
    a = R(25, 25.0 / 3), b = R(25, 25.0 / 3);
    ts_rate_1v1(&env, &a, &b, 1);
    NEAR(a.mu, 25.0, 1e-12);
    NEAR(a.sigma, 6.457515683245051, 1e-9);
    NEAR(a.sigma, 6.4575196623173081, 1e-5);
    /* the factor graph with two teams equals the closed form */
    TsRating in[2] = {R(25, 25.0 / 3), R(25, 25.0 / 3)}, out[2];
    int sz[2] = {1, 1};
    double rk[2] = {0, 1};
    ts_rate(&env, 2, sz, in, NULL, rk, out);
    NEAR(out[0].mu, 29.395831692991511, 1e-9);
    NEAR(out[1].sigma, 7.171475807009220, 1e-9);
    TsRating q2[2] = {R(25, 25.0 / 3), R(25, 25.0 / 3)};
    NEAR(ts_quality(&env, 2, sz, q2, NULL), 0.4472135955, 1e-9);
    /* 2v2 */
    TsRating t4[4] = {R(25, 25.0 / 3), R(25, 25.0 / 3), R(25, 25.0 / 3), R(25, 25.0 / 3)}, o4[4];
    int s22[2] = {2, 2};
    ts_rate(&env, 2, s22, t4, NULL, rk, o4);
    NEAR(o4[0].mu, 28.108322399069, 1e-9);
    NEAR(o4[1].sigma, 7.774363451094, 1e-9);
    NEAR(o4[3].mu, 21.891677600931, 1e-9);
    double tie[2] = {0, 0};
    ts_rate(&env, 2, s22, t4, NULL, tie, o4);
    NEAR(o4[2].mu, 25, 1e-9);
    NEAR(o4[2].sigma, 7.454894287924, 1e-9);
    /* 1v2 */
    int s12[2] = {1, 2};
    TsRating t3[3] = {R(25, 25.0 / 3), R(25, 25.0 / 3), R(25, 25.0 / 3)}, o3[3];
    ts_rate(&env, 2, s12, t3, NULL, rk, o3);
    NEAR(o3[0].mu, 33.730671148996, 1e-9);
    NEAR(o3[0].sigma, 7.317365362867, 1e-9);
    NEAR(o3[2].mu, 16.269328851004, 1e-9);
    NEAR(ts_quality(&env, 2, s12, t3, NULL), 0.134698146453, 1e-9);
    ts_rate(&env, 2, s12, t3, NULL, tie, o3);
    NEAR(o3[0].mu, 31.660, 2e-3);
    NEAR(o3[0].sigma, 7.138, 2e-3);
    /* 1v3, 1v7, 4v4 (published, 3 decimals) */
    int s13[2] = {1, 3}, s17[2] = {1, 7}, s44[2] = {4, 4};
    TsRating t8[8], o8[8];
    for (int i = 0; i < 8; i++)
        t8[i] = R(25, 25.0 / 3);
    ts_rate(&env, 2, s13, t8, NULL, rk, o8);
    NEAR(o8[0].mu, 36.337, 2e-3);
    NEAR(o8[0].sigma, 7.527, 2e-3);
    NEAR(o8[1].mu, 13.663, 2e-3);
    ts_rate(&env, 2, s13, t8, NULL, tie, o8);
    NEAR(o8[0].mu, 34.990, 2e-3);
    NEAR(o8[0].sigma, 7.455, 2e-3);
    ts_rate(&env, 2, s17, t8, NULL, rk, o8);
    NEAR(o8[0].mu, 40.582, 2e-3);
    NEAR(o8[0].sigma, 7.917, 2e-3);
    NEAR(o8[7].mu, 9.418, 2e-3);
    ts_rate(&env, 2, s44, t8, NULL, rk, o8);
    NEAR(o8[0].mu, 27.198, 2e-3);
    NEAR(o8[0].sigma, 8.059, 2e-3);
    NEAR(o8[5].mu, 22.802, 2e-3);
    NEAR(ts_quality(&env, 2, s44, t8, NULL), 0.447, 5e-4);
    /* draw probability 0.5 and 0 */
    TsEnv e5 = env;
    e5.draw_prob = 0.5;
    a = R(25, 25.0 / 3), b = R(25, 25.0 / 3);
    ts_rate_1v1(&e5, &a, &b, 0);
    NEAR(a.mu, 30.267, 1e-3);
    NEAR(a.sigma, 7.077, 1e-3);
    e5.draw_prob = 0;
    a = R(25, 25.0 / 3), b = R(25, 25.0 / 3);
    ts_rate_1v1(&e5, &a, &b, 0);
    NEAR(a.mu, 29.205473106814, 1e-6);
    NEAR(a.sigma, 7.194816551481, 1e-6);
    /* upsets and unbalanced teams (Moserware, tolerance 0.085; we hold them to 2e-3) */
    TsRating u2[2] = {R(25, 25.0 / 3), R(50, 12.5)}, uo[2];
    ts_rate(&env, 2, sz, u2, NULL, tie, uo);
    NEAR(uo[0].mu, 31.662, 2e-3);
    NEAR(uo[0].sigma, 7.137, 2e-3);
    NEAR(uo[1].mu, 35.010, 2e-3);
    NEAR(uo[1].sigma, 7.910, 2e-3);
    NEAR(ts_quality(&env, 2, sz, u2, NULL), 0.110, 5e-4);
    TsRating up[4] = {R(20, 8), R(25, 6), R(35, 7), R(40, 5)}, upo[4];
    ts_rate(&env, 2, s22, up, NULL, rk, upo);
    NEAR(upo[0].mu, 29.698, 2e-3);
    NEAR(upo[0].sigma, 7.008, 2e-3);
    NEAR(upo[1].mu, 30.455, 2e-3);
    NEAR(upo[1].sigma, 5.594, 2e-3);
    NEAR(upo[2].mu, 27.575, 2e-3);
    NEAR(upo[2].sigma, 6.346, 2e-3);
    NEAR(upo[3].mu, 36.211, 2e-3);
    NEAR(upo[3].sigma, 4.768, 2e-3);
    NEAR(ts_quality(&env, 2, s22, up, NULL), 0.084, 5e-4);
    TsRating ub[4] = {R(15, 8), R(20, 6), R(25, 4), R(30, 3)}, ubo[4];
    ts_rate(&env, 2, s22, ub, NULL, tie, ubo);
    NEAR(ubo[0].mu, 21.570, 2e-3);
    NEAR(ubo[0].sigma, 6.556, 2e-3);
    NEAR(ubo[1].mu, 23.696, 2e-3);
    NEAR(ubo[1].sigma, 5.418, 2e-3);
    NEAR(ubo[2].mu, 23.357, 2e-3);
    NEAR(ubo[2].sigma, 3.833, 2e-3);
    NEAR(ubo[3].mu, 29.075, 2e-3);
    NEAR(ubo[3].sigma, 2.931, 2e-3);
    NEAR(ts_quality(&env, 2, s22, ub, NULL), 0.214, 5e-4);
    int s32[2] = {3, 2};
    TsRating t32[5] = {R(28, 7), R(27, 6), R(26, 5), R(30, 4), R(31, 3)}, o32[5];
    ts_rate(&env, 2, s32, t32, NULL, rk, o32);
    double w32[10] = {28.658, 6.770, 27.484, 5.856, 26.336, 4.917, 29.785, 3.958, 30.879, 2.983};
    for (int i = 0; i < 5; i++) {
        NEAR(o32[i].mu, w32[2 * i], 2e-3);
        NEAR(o32[i].sigma, w32[2 * i + 1], 2e-3);
    }
    NEAR(ts_quality(&env, 2, s32, t32, NULL), 0.254, 5e-4);
    double rk10[2] = {1, 0};
    ts_rate(&env, 2, s32, t32, NULL, rk10, o32);
    double w32b[10] = {21.840, 6.314, 22.474, 5.575, 22.857, 4.757, 32.012, 3.877, 32.132, 2.949};
    for (int i = 0; i < 5; i++) {
        NEAR(o32[i].mu, w32b[2 * i], 2e-3);
        NEAR(o32[i].sigma, w32b[2 * i + 1], 2e-3);
    }
    TsRating t12[3] = {R(40, 6), R(20, 7), R(25, 8)};
    ts_rate(&env, 2, s12, t12, NULL, rk, o3);
    NEAR(o3[0].mu, 42.744, 2e-3);
    NEAR(o3[0].sigma, 5.602, 2e-3);
    NEAR(o3[1].mu, 16.266, 2e-3);
    NEAR(o3[1].sigma, 6.359, 2e-3);
    NEAR(o3[2].mu, 20.123, 2e-3);
    NEAR(o3[2].sigma, 7.028, 2e-3);
    NEAR(ts_quality(&env, 2, s12, t12, NULL), 0.478, 5e-4);
    /* chess environment (Moserware; exact value differs from the published one by 4.8e-4) */
    TsEnv ch = {1200, 400, 200, 4, 0.03};
    a = R(1301.0007, 42.9232), b = R(1188.7560, 42.5570);
    ts_rate_1v1(&ch, &a, &b, 0);
    NEAR(a.mu, 1304.7820836053318, 1e-3);
    NEAR(a.mu, 1304.7815992431, 1e-6);
    NEAR(a.sigma, 42.8436074802, 1e-6);
    NEAR(b.mu, 1185.0387861040, 1e-6);
    NEAR(b.sigma, 42.4856958349, 1e-6);
}

static void test_trueskill_multi(void **state)
{
    (void)state;
    TsEnv env;
    ts_env_default(&env);
    double m3[3] = {31.675352419172, 25.000000000004, 18.324647580824}, s3[3] = {6.655985377621, 6.207896641224, 6.655985377622};
    check_ffa(3, m3, s3, 1e-3, &env);
    double m4[4] = {33.206680894984, 27.401455157345, 22.598544842687, 16.793319105009};
    double s4[4] = {6.348109386292, 5.787162809665, 5.787162809662, 6.348109386299};
    check_ffa(4, m4, s4, 1e-4, &env); /* exact erfc (mpmath backend) */
    double m5[5] = {34.363, 29.058, 25.000, 20.942, 15.637}, s5[5] = {6.136, 5.536, 5.420, 5.536, 6.136};
    check_ffa(5, m5, s5, 2e-3, &env);
    double m8[8] = {36.771, 32.242, 29.074, 26.322, 23.678, 20.926, 17.758, 13.229};
    double s8[8] = {5.749, 5.133, 4.943, 4.874, 4.874, 4.943, 5.133, 5.749};
    check_ffa(8, m8, s8, 2e-3, &env);
    double m16[2] = {40.53945776946920, 9.46054223053080}, s16[2] = {5.27581643889050, 5.27581643889032};
    TsRating in[16], out[16];
    int sizes[16];
    double ranks[16];
    for (int i = 0; i < 16; i++) {
        in[i] = R(25, 25.0 / 3);
        sizes[i] = 1;
        ranks[i] = i;
    }
    ts_rate(&env, 16, sizes, in, NULL, ranks, out);
    NEAR(out[0].mu, m16[0], 2e-3);
    NEAR(out[15].mu, m16[1], 2e-3);
    NEAR(out[0].sigma, s16[0], 2e-3);
    NEAR(out[15].sigma, s16[1], 2e-3);
    /* ties */
    double tie3[3] = {0, 0, 0};
    ts_rate(&env, 3, sizes, in, NULL, tie3, out);
    NEAR(out[0].mu, 25, 1e-3);
    NEAR(out[0].sigma, 5.698, 2e-3);
    NEAR(out[1].sigma, 5.695, 2e-3);
    double tie8[8] = {0};
    ts_rate(&env, 8, sizes, in, NULL, tie8, out);
    double st8[8] = {4.592, 4.583, 4.576, 4.573, 4.573, 4.576, 4.583, 4.592};
    for (int i = 0; i < 8; i++) {
        NEAR(out[i].mu, 25, 2e-3);
        NEAR(out[i].sigma, st8[i], 2e-3);
    }
    /* an 8-player upset: the favourites finish last */
    TsRating u8[8] = {R(10, 8), R(15, 7), R(20, 6), R(25, 5), R(30, 4), R(35, 3), R(40, 2), R(45, 1)};
    ts_rate(&env, 8, sizes, u8, NULL, ranks, out);
    double wu[16] = {35.135, 4.506, 32.585, 4.037, 31.329, 3.756, 30.984, 3.453,
                     31.751, 3.064, 34.051, 2.541, 38.263, 1.849, 44.118, 0.983};
    for (int i = 0; i < 8; i++) {
        NEAR(out[i].mu, wu[2 * i], 2e-3);
        NEAR(out[i].sigma, wu[2 * i + 1], 2e-3);
    }
    /* p_draw = 0, 4 FFA */
    TsEnv e0 = env;
    e0.draw_prob = 0;
    double m40[4] = {32.678106625718, 27.216745185070, 22.783254814984, 17.321893374269};
    double s40[4] = {6.409080198707, 5.827451454116, 5.827451454111, 6.409080198715};
    check_ffa(4, m40, s40, 2e-4, &e0);
    /* multiple teams: 2v4v2 with teams 2 and 3 drawn */
    TsRating mt[8] = {R(40, 4), R(45, 3), R(20, 7), R(19, 6), R(30, 9), R(10, 4), R(50, 5), R(30, 2)}, mo[8];
    int msz[3] = {2, 4, 2};
    double mrk[3] = {0, 1, 1};
    ts_rate(&env, 3, msz, mt, NULL, mrk, mo);
    double wm[16] = {40.876849177316, 3.839527589355, 45.493394092398, 2.933671613522, 19.608650920845, 6.396044310524,
                     18.712463514891, 5.624556429623, 29.353112227811, 7.673456361987, 9.872175198037, 3.891408425995,
                     48.829832201455, 4.590018525151, 29.812500188903, 1.976314792713};
    for (int i = 0; i < 8; i++) {
        NEAR(mo[i].mu, wm[2 * i], 2e-3);
        NEAR(mo[i].sigma, wm[2 * i + 1], 2e-3);
    }
    NEAR(ts_quality(&env, 3, msz, mt, NULL), 0.367, 5e-4);
    /* partial play */
    int s12[2] = {1, 2};
    double rk[2] = {0, 1};
    TsRating p3[3] = {R(25, 25.0 / 3), R(25, 25.0 / 3), R(25, 25.0 / 3)}, po[3];
    double wh[3] = {0.5, 0.5, 0.5};
    ts_rate(&env, 2, s12, p3, wh, rk, po);
    NEAR(po[0].mu, 33.939, 2e-3);
    NEAR(po[0].sigma, 7.312, 2e-3);
    NEAR(po[1].mu, 16.061, 2e-3);
    double w01[3] = {1, 0, 1};
    ts_rate(&env, 2, s12, p3, w01, rk, po);
    NEAR(po[0].mu, 29.440, 2e-3);
    NEAR(po[0].sigma, 7.166, 2e-3);
    NEAR(po[1].mu, 25.000, 2e-3);
    NEAR(po[1].sigma, 8.333, 2e-3);
    NEAR(po[2].mu, 20.560, 2e-3);
    double w051[3] = {1, 0.5, 1};
    ts_rate(&env, 2, s12, p3, w051, rk, po);
    NEAR(po[0].mu, 32.417, 2e-3);
    NEAR(po[0].sigma, 7.056, 2e-3);
    NEAR(po[1].mu, 21.291, 2e-3);
    NEAR(po[1].sigma, 8.033, 2e-3);
    NEAR(po[2].mu, 17.583, 2e-3);
    int q3[3] = {1, 2, 1};
    TsRating q4[4] = {R(25, 25.0 / 3), R(25, 25.0 / 3), R(25, 25.0 / 3), R(25, 25.0 / 3)};
    double qw[4] = {1, 0.25, 0.75, 1}, qw2[4] = {1, 0.8, 0.9, 1};
    NEAR(ts_quality(&env, 3, q3, q4, qw), 0.2, 5e-4);
    NEAR(ts_quality(&env, 3, q3, q4, qw2), 0.0809, 5e-4);
    /* Extreme upsets stay finite (sublee issue #5). Reference: the closed form evaluated with
     * 40-digit mpmath (-273.0599022 / 2.6827815, -75.8475772 / 2.0798930), and Microsoft's
     * calculator (-273.092 / 2.683, -75.830 / 2.080) within 0.05. The spec's "sublee with
     * mpmath" figures (-273.361, and 415.298 for 0 vs 1000) do not agree with the exact
     * closed form under any of default / tau = 0 / draw probability 0; see docs/rating.md. */
    TsRating x[2] = {R(-323.263, 2.965), R(-48.441, 2.190)}, xo[2];
    int s11[2] = {1, 1};
    ts_rate(&env, 2, s11, x, NULL, rk, xo);
    NEAR(xo[0].mu, -273.0599022, 1e-6);
    NEAR(xo[0].sigma, 2.6827815, 1e-6);
    NEAR(xo[1].mu, -75.8475772, 1e-6);
    NEAR(xo[1].sigma, 2.0798930, 1e-6);
    NEAR(xo[0].mu, -273.092, 0.05);
    NEAR(xo[1].mu, -75.830, 0.05);
    NEAR(xo[0].sigma, 2.683, 0.001);
    TsRating y[2] = {R(0, 25.0 / 3), R(1000, 25.0 / 3)}, yo[2];
    ts_rate(&env, 2, s11, y, NULL, rk, yo);
    NEAR(yo[0].mu, 400.37357, 1e-4);
    NEAR(yo[0].sigma, 6.4556246, 1e-6);
    NEAR(yo[1].mu, 599.62643, 1e-4);
    TsRating z1 = y[0], z2 = y[1];
    ts_rate_1v1(&env, &z1, &z2, 0);
    NEAR(z1.mu, yo[0].mu, 1e-9);
    /* a tie needs a draw probability */
    double t2[2] = {0, 0};
    assert_int_equal(ts_rate(&e0, 2, s11, y, NULL, t2, yo), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gaussian),        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_morita),          cmocka_unit_test(test_glicko1),
        cmocka_unit_test(test_glicko2),         cmocka_unit_test(test_trueskill_two_sides),
        cmocka_unit_test(test_trueskill_multi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sprt.c — duplicate groups, deal suites and the sequential test: the GSPRT's LLR against
 * hand-computed values; its error rates simulated from recorded group scores (500 runs each:
 * with A = B it accepts H1 in at most alpha + 2 points of the runs, with a clear difference in
 * at least 1 - beta); a real `mc` vs `random` test stops for H1 within a few hundred games; an
 * interrupted test resumes to the same decision; deal suites give every configuration the same
 * hands, and blaux5's deals reproduce its dealt hands exactly; bad deal files are one line. */
#include "testutil.h"

#include "analysis/paired.h"
#include "analysis/stats.h"
#include "record/deals.h"
#include "record/store.h"

static void test_llr_by_hand(void **state)
{
    (void)state;
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    NEAR(hi, log(19.0), 1e-12);
    NEAR(lo, -log(19.0), 1e-12);
    sprt_bounds(0.05, 0.10, &lo, &hi);
    NEAR(hi, log(0.90 / 0.05), 1e-12);
    NEAR(lo, log(0.10 / 0.95), 1e-12);
    NEAR(sprt_score_of_elo(0), 0.5, 1e-15);
    NEAR(sprt_score_of_elo(400), 10.0 / 11.0, 1e-12);
    NEAR(sprt_elo_of_score(10.0 / 11.0), 400, 1e-9);
    /* two values: the tilted distributions put s on 1 and 1 - s on 0, so with one 0 and two 1s
     * LLR = ln(0.4 / 0.5) + 2 ln(0.6 / 0.5) */
    double x3[3] = {0, 1, 1};
    NEAR(sprt_llr(x3, 3, 0.5, 0.6), log(0.4 / 0.5) + 2 * log(0.6 / 0.5), 1e-9);
    /* H0 and H1 swapped: the LLR changes sign */
    NEAR(sprt_llr(x3, 3, 0.6, 0.5), -(log(0.4 / 0.5) + 2 * log(0.6 / 0.5)), 1e-9);
    /* three values symmetric about s0: lambda(s0) = 0 (the empirical distribution itself); the
     * tilted one for s1 has mean s1 and sums to 1 */
    double x[3] = {0.2, 0.5, 0.8};
    double l = sprt_llr(x, 3, 0.5, 0.6);
    assert_true(l < 0 && l > -1); /* the mean (0.5) is H0's */
    /* outside the range of the scores: the normal approximation N (s1 - s0)(mean - mid) / var */
    double y[2] = {0.7, 0.8};
    NEAR(sprt_llr(y, 2, 0.5, 0.6), 2 * 0.1 * (0.75 - 0.55) / 0.005, 1e-9);
    /* the 95% t interval of 1, 2, 3: mean 2 +- t(0.975, 2) / sqrt(3) */
    double z[3] = {1, 2, 3}, mean, sd, ilo, ihi;
    paired_interval(z, 3, 0.95, &mean, &sd, &ilo, &ihi);
    NEAR(mean, 2, 1e-12);
    NEAR(sd, 1, 1e-12);
    NEAR(ihi - mean, 4.302652729911275 / sqrt(3), 1e-6);
    NEAR(student_t_quantile(0.95, 10), 2.228138851986, 1e-6);
}

/* One simulated test: units drawn from pool (shifted to mean m), decided as dhm sprt does (no
 * decision before 20 units; the LLR checked after every other unit here). Returns 1 H1, -1 H0, 0 none. */
static int simulate(const double *pool, int npool, double shift, double s0, double s1, Rng *r, double *buf, int max)
{
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    for (int n = 1; n <= max; n++) {
        double v = pool[rng_below(r, (uint32_t)npool)] + shift;
        buf[n - 1] = v < 0 ? 0 : v > 1 ? 1 : v;
        if (n < 20 || n % 2)
            continue;
        double llr = sprt_llr(buf, n, s0, s1);
        if (llr >= hi)
            return 1;
        if (llr <= lo)
            return -1;
    }
    return 0;
}

static void test_error_rates_simulated(void **state)
{
    (void)state;
    /* recorded group scores: random against random in a duplicate run (four games a set) */
    char dir[64], out[4096];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    char path[256];
    snprintf(path, sizeof path, "%s/pool", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "a random\nb random\no1 simple\no2 simple\no3 simple\n");
    fclose(f);
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --pool %s/pool --pairing fixed --duplicate --sets 120 "
                                              "--games 4 --db %s/r.sqlite --quiet 2>&1", dhm_bin(), dir, dir), 0);
    char db[256], err[256];
    snprintf(db, sizeof db, "%s/r.sqlite", dir);
    Store *st;
    assert_int_equal(store_open(&st, db, 0, err, sizeof err), 0);
    GroupPair *g;
    long n, inc;
    assert_int_equal(paired_groups(st, 0, 1, 0, &g, &n, &inc, err, sizeof err), 0);
    store_close(st);
    assert_int_equal(n, 120);
    assert_int_equal(inc, 0);
    double pool[120], mean = 0;
    for (long i = 0; i < n; i++) {
        assert_int_equal(g[i].games, 20);
        pool[i] = g[i].score;
        mean += pool[i] / n;
    }
    free(g);
    const double s0 = sprt_score_of_elo(0), s1 = sprt_score_of_elo(40);
    static double buf[3000];
    Rng r = rng_seed(5);
    int h1_null = 0, h1_alt = 0, none = 0;
    const int RUNS = 500;
    for (int k = 0; k < RUNS; k++) { /* A = B: the scores centred on s0 */
        int d = simulate(pool, (int)n, s0 - mean, s0, s1, &r, buf, 3000);
        h1_null += d == 1;
        none += d == 0;
    }
    for (int k = 0; k < RUNS; k++) /* a clear difference: centred on s(60 Elo) */
        h1_alt += simulate(pool, (int)n, sprt_score_of_elo(60) - mean, s0, s1, &r, buf, 3000) == 1;
    if (!(h1_null <= (0.05 + 0.02) * RUNS))
        fail_msg("with A = B, H1 accepted in %d of %d runs", h1_null, RUNS);
    if (!(h1_alt >= (1 - 0.05) * RUNS))
        fail_msg("with a 60 Elo difference, H1 accepted in only %d of %d runs", h1_alt, RUNS);
    assert_true(none < RUNS / 20);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* Waits until the store at db holds every set of the first group (sets 0-4, as dhm records
 * sets lists them), polling; returns 1 then, or 0 when the process ended first (it is left for
 * proc_wait to reap). Fails the test after timeout_s seconds. */
static int wait_first_group(const Proc *pr, const char *D, const char *db, int timeout_s)
{
    static char out[1 << 16];
    for (long i = 0; i < (long)timeout_s * 20; i++) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)pr->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pr->pid)
            return 0;
        struct stat sb;
        if (stat(db, &sb) == 0 && run_cmd(out, sizeof out, "%s records sets --db %s --csv 2>/dev/null", D, db) == 0) {
            int seen[5] = {0}, n = 0;
            for (const char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
                long set = atol(l + 1);
                if (set >= 0 && set < 5 && !seen[set]) {
                    seen[set] = 1;
                    n++;
                }
            }
            if (n == 5)
                return 1;
        }
        usleep(50000);
    }
    fail_msg("no finished group in %s after %d s", db, timeout_s);
    return 0;
}

static void test_real_runs(void **state)
{
    (void)state;
    char dir[64], out[1 << 14], a[4096], b[4096];
    const char *D = dhm_bin();
    assert_non_null(test_tmpdir(dir, sizeof dir));
    /* mc against random: H1 within a few hundred games */
    assert_int_equal(run_cmd(out, sizeof out, "%s sprt mc:sims=30:playout=simple random --db %s/m.sqlite --games 4 "
                                              "--elo0 0 --elo1 50 --json --quiet", D, dir), 0);
    assert_non_null(strstr(out, "\"decision\":\"H1\""));
    long games = 0;
    const char *p = strstr(out, "\"games\":");
    assert_non_null(p);
    games = atol(p + 8);
    assert_true(games > 0 && games <= 400);
    /* the store is an ordinary tournament store */
    assert_int_equal(run_cmd(out, sizeof out, "%s records pairs --db %s/m.sqlite --csv", D, dir), 0);
    assert_non_null(strstr(out, "\"a\",\"b\","));
    /* interrupted, then resumed: the same decision as one run */
    assert_int_equal(run_cmd(a, sizeof a, "%s sprt simple:x=1 random --db %s/one.sqlite --games 2 --quiet 2>&1", D, dir), 2);
    assert_int_equal(run_cmd(a, sizeof a, "%s sprt policy simple --db %s/one.sqlite --games 2 --elo0 0 --elo1 40 "
                                          "--max-games 600 --quiet --jobs 1", D, dir), 0);
    Proc pr;
    proc_start(&pr, NULL, NULL, "%s sprt policy simple --db %s/two.sqlite --games 2 --elo0 0 --elo1 40 --max-games 600 "
                                "--quiet --jobs 2", D, dir);
    /* interrupted once the store holds a finished group (a real condition, not a delay: under
     * ASan on a loaded machine a fixed delay can end before the store exists) */
    char db[128];
    snprintf(db, sizeof db, "%s/two.sqlite", dir);
    if (wait_first_group(&pr, D, db, 300))
        kill(pr.pid, SIGTERM);
    int st = proc_wait(&pr, 60);
    assert_true(st == 0 || st == 128 + SIGTERM); /* it may have finished first */
    assert_int_equal(run_cmd(b, sizeof b, "%s sprt --resume --db %s/two.sqlite --quiet", D, dir), 0);
    /* the decision line (the first) is the same; only "played past the decision" may differ */
    *strchr(a, '\n') = 0;
    *strchr(b, '\n') = 0;
    assert_string_equal(a, b);
    /* bad input */
    assert_int_equal(run_cmd(out, sizeof out, "%s sprt simple 2>&1", D), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s sprt simple random --db %s/x.sqlite --elo0 10 --elo1 5 2>&1", D, dir), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s sprt --resume --db %s/none.sqlite 2>&1", D, dir), 1);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* Every game's dealt hands, as text lines, from a kifu file. */
static int dealt_lines(const char *path, char (*out)[256], int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f))
        if (!strncmp(line, "dealt", 5))
            snprintf(out[n++], 256, "%.255s", line);
    fclose(f);
    return n;
}

static void test_deal_suites(void **state)
{
    (void)state;
    char dir[64], out[4096];
    const char *D = dhm_bin();
    assert_non_null(test_tmpdir(dir, sizeof dir));
    /* a plain deal list, two configurations: the same hands game for game */
    char path[256];
    snprintf(path, sizeof path, "%s/deals.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    Rng r = rng_seed(3);
    fprintf(f, "# three deals\n\n");
    for (int k = 0; k < 3; k++) {
        Cards h[NPLAYERS];
        const uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
        game_deal(seat, k, &r, h);
        for (int p = 0; p < NPLAYERS; p++) {
            char txt[200];
            cards_format(h[p], txt, sizeof txt);
            fprintf(f, "{ %s } ", txt);
        }
        fprintf(f, "\n");
    }
    fclose(f);
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players simple,random,policy,simple,random --games 7 --deals %s "
                                              "--record %s/a.kifu --seed 1 2>&1", D, path, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players random,random,random,mc:sims=10,simple --games 7 --deals "
                                              "%s --record %s/b.kifu --seed 99 2>&1", D, path, dir), 0);
    static char la[100][256], lb[100][256];
    char pa[256], pb[256];
    snprintf(pa, sizeof pa, "%s/a.kifu", dir);
    snprintf(pb, sizeof pb, "%s/b.kifu", dir);
    assert_int_equal(dealt_lines(pa, la, 100), 7);
    assert_int_equal(dealt_lines(pb, lb, 100), 7);
    for (int i = 0; i < 7; i++)
        assert_string_equal(la[i], lb[i]);
    assert_string_equal(la[0], la[3]); /* three deals, cycling */
    assert_string_equal(la[2], la[5]);
    assert_string_not_equal(la[0], la[1]);
    /* a tournament keeps its deals in the store: a resumed run plays them too */
    snprintf(path, sizeof path, "%s/pool", dir);
    f = fopen(path, "w");
    fprintf(f, "p1 simple\np2 random\np3 simple\np4 random\np5 simple\n");
    fclose(f);
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --pool %s/pool --sets 4 --games 3 --deals %s/deals.txt "
                                              "--records --db %s/t.sqlite --quiet --jobs 2 2>&1", D, dir, dir, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s records export --db %s/t.sqlite --set 2 --out %s/s2.kifu", D, dir, dir),
                     0);
    static char ls[10][256];
    snprintf(pa, sizeof pa, "%s/s2.kifu", dir);
    assert_int_equal(dealt_lines(pa, ls, 10), 3);
    assert_string_equal(ls[0], la[0]); /* set 2 starts at deal 2 x 3 = 6, i.e. deal 0 */
    assert_string_equal(ls[1], la[1]);
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --resume --db %s/t.sqlite --deals %s/deals.txt 2>&1", D, dir,
                             dir), 2);
    /* blaux5: its dealt hands, exactly */
    const char *blaux = shared_file("data/blaux5.kifu");
    if (blaux) {
        assert_int_equal(run_cmd(out, sizeof out, "%s play --players simple,simple,simple,simple,simple --games 100 "
                                                  "--deals %s --record %s/x.kifu 2>&1", D, blaux, dir), 0);
        static char lx[100][256], lo[100][256];
        snprintf(pa, sizeof pa, "%s/x.kifu", dir);
        assert_int_equal(dealt_lines(blaux, lo, 100), 100);
        assert_int_equal(dealt_lines(pa, lx, 100), 100);
        for (int i = 0; i < 100; i++)
            assert_string_equal(lo[i], lx[i]);
    } else {
        print_message("[  SKIPPED ] blaux5 deals: ../shared/data/blaux5.kifu is absent\n");
    }
    /* bad files: one line each */
    static const char *const BAD[] = {"{ c3 } { d3 } { h3 } { s3 } { c4 }\n", "{ c3 c4 }\n", "nonsense\n"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/bad%d.txt", dir, i);
        f = fopen(path, "w");
        fputs(BAD[i], f);
        fclose(f);
        assert_int_equal(run_cmd(out, sizeof out, "%s play --players simple,simple,simple,simple,simple --games 1 "
                                                  "--deals %s 2>&1", D, path), 2);
        assert_non_null(strstr(out, "bad"));
        assert_null(strchr(strchr(out, '\n') + 1, '\n')); /* one line */
    }
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llr_by_hand),
        cmocka_unit_test(test_error_rates_simulated),
        cmocka_unit_test(test_real_runs),
        cmocka_unit_test(test_deal_suites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

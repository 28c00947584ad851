/* test_rating_stream.c — rating results as they are read (rating/stream.h) gives what rating
 * them in memory gives: the same ratings, bounds, head-to-head tables, MSE, transitivity,
 * cycles and history, byte for byte in every output format, for every method that streams,
 * from sets and from games; the CSV loader with a sink keeps nothing, reports the same errors
 * and says when a file cannot stream; and `dhm rate` prints the same with and without
 * --in-memory. */
#include "testutil.h"

#include "rating/stream.h"
#include "report/ratings.h"

/* ---- inputs: CSV text ---- */

/* n distinct players below avail, in random order. */
static void draw_players(RRng *rng, int *pl, int n, int avail)
{
    int idx[32];
    for (int i = 0; i < avail; i++)
        idx[i] = i;
    for (int i = 0; i < n; i++) { /* the first n of a shuffle */
        int j = i + (int)(rrng_double(rng) * (avail - i)), t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        pl[i] = idx[i];
    }
}

/* Sets among up to 30 players who appear as the file goes on (the tables grow), with ties in
 * points (draws) and in order (file order breaks them), ids new but not rising (the bitmap),
 * rows of a set in random order; "top" beats everyone it meets and "last" loses to everyone, so two
 * ratings are unbounded; "bottom" loses to everyone but draws with p07, which binds it. */
static char *sets_csv(int nsets, uint64_t seed)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    RRng rng = rrng_seed(seed);
    fprintf(f, "set,order,player,points\n");
    for (int k = 0; k < nsets; k++) {
        int avail = 7 + k / 12 < 30 ? 7 + k / 12 : 30, pl[5], with5, with9;
        do { /* bottom and last never meet */
            draw_players(&rng, pl, 5, avail);
            with5 = with9 = 0;
            for (int i = 0; i < 5; i++) {
                with5 |= pl[i] == 5;
                with9 |= pl[i] == 9;
            }
        } while (with5 && with9);
        for (int i = 0; i < 5; i++) {
            int x = pl[i];
            const char *name = x == 3 ? "top" : x == 5 ? "bottom" : x == 9 ? "last" : NULL;
            long pts = x == 3 ? 9000 : x == 5 || (x == 7 && with5) ? 0 : x == 9 ? -5 : 1000 + 10 * x + (long)(rrng_double(&rng) * 40);
            fprintf(f, "%d,%d,", (k * 7919) % 100003, k / 3);
            if (name)
                fprintf(f, "%s", name);
            else
                fprintf(f, "\"p%02d, %c\"", x, 'a' + x % 3);
            fprintf(f, ",%ld\n", pts);
        }
    }
    fclose(f);
    return buf;
}

/* Games of 2 to 6 players, ids SET.GAME, ranks with ties, and (with_p) the p column. */
static char *games_csv(int ngames, int with_p, uint64_t seed)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    RRng rng = rrng_seed(seed);
    fprintf(f, "game,player,rank%s\n", with_p ? ",p" : "");
    for (int k = 0; k < ngames; k++) {
        int n = 2 + k % 5, avail = 6 + k / 20 < 25 ? 6 + k / 20 : 25, pl[6];
        draw_players(&rng, pl, n, avail);
        for (int i = 0; i < n; i++) {
            fprintf(f, "%d.%d,g%02d,%d", k / 10, k % 10, pl[i], (int)(rrng_double(&rng) * (n - 1) + pl[i] % 2));
            if (with_p)
                fprintf(f, ",%.4f", 0.05 + 0.9 * rrng_double(&rng));
            fputc('\n', f);
        }
    }
    fclose(f);
    return buf;
}

static int load_text(Results *r, const char *text, char *err, size_t errsz)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = results_load_csv(r, f, "t.csv", err, errsz);
    fclose(f);
    return rc;
}

/* ---- what rating prints ---- */

typedef struct Hist {
    const Results *res;
    FILE *f[M_COUNT];
    char *buf[M_COUNT];
    size_t len[M_COUNT];
} Hist;

static void hist_open(Hist *h, const Results *res)
{
    memset(h, 0, sizeof *h);
    h->res = res;
    for (int m = 0; m < M_COUNT; m++)
        h->f[m] = open_memstream(&h->buf[m], &h->len[m]);
}

static void hist_close(Hist *h)
{
    for (int m = 0; m < M_COUNT; m++)
        fclose(h->f[m]);
}

static void hist_free(Hist *h)
{
    for (int m = 0; m < M_COUNT; m++)
        free(h->buf[m]);
}

static void on_step(void *ctx, MethodId m, long step, const int *players, int np, const MethodResult *cur)
{
    Hist *h = ctx;
    report_history_rows(h->f[m], h->res, m, step, players, np, cur);
}

/* Everything rating prints: the ratings with --mse --crosstable --transitivity --los --top 5
 * in each format, or the method's error. */
typedef struct Printed {
    char *text[3];
    char err[256];
    int failed, rated; /* methods rated before the one that failed */
} Printed;

static void print_all(const Results *res, const H2H *h, const MethodResult *mr, int nm, Printed *out)
{
    for (int fmt = 0; fmt < 3; fmt++) {
        size_t len;
        FILE *f = open_memstream(&out->text[fmt], &len);
        RatingReport rep = {res, h, mr, nm, 1, 1, 1, 1, 5, 0};
        report_ratings(f, &rep, fmt == 0 ? REPORT_TABLE : fmt == 1 ? REPORT_CSV : REPORT_JSON);
        fclose(f);
    }
}

/* Loads the texts and rates them with methods ids: in memory (stream = 0, as dhm rate
 * --in-memory) or as they are read (stream = 1). */
static void rate_texts(const char *const *texts, int ntexts, const int *ids, int nm, const RatingParams *p, int stream,
                       Printed *out, Hist *hist)
{
    memset(out, 0, sizeof *out);
    Results res;
    results_init(&res);
    hist_open(hist, &res);
    RateStream *rs = NULL;
    if (stream) {
        rs = rate_stream_begin(ids, nm, p, on_step, hist);
        assert_non_null(rs);
        res.sink = rate_stream_sink(rs);
    }
    char err[256];
    for (int t = 0; t < ntexts; t++)
        if (load_text(&res, texts[t], err, sizeof err))
            fail_msg("load: %s", err);
    if (stream) /* nothing kept but the players */
        assert_true(res.sets == NULL && res.games == NULL && res.pair == NULL && (res.nsets > 0 || res.ngames > 0));
    results_sort_sets(&res);
    H2H h;
    assert_int_equal(stream ? rate_stream_h2h(rs, &res, &h) : h2h_build(&res, &h), 0);
    MethodResult mr[M_COUNT];
    memset(mr, 0, sizeof mr);
    int i = 0;
    for (; i < nm; i++) {
        int e = stream ? rate_stream_result(rs, &res, i, &mr[i], out->err, sizeof out->err)
                       : method_run((MethodId)ids[i], p, &res, &mr[i], on_step, hist, out->err, sizeof out->err);
        if (e) {
            out->failed = 1;
            break;
        }
    }
    out->rated = i;
    hist_close(hist);
    if (!out->failed)
        print_all(&res, &h, mr, nm, out);
    for (int k = 0; k < nm; k++)
        method_result_free(&mr[k]);
    h2h_free(&h);
    rate_stream_free(rs);
    results_free(&res);
}

static void expect_same(const char *const *texts, int ntexts, const int *ids, int nm, const RatingParams *p)
{
    Printed a, b;
    Hist ha, hb;
    rate_texts(texts, ntexts, ids, nm, p, 0, &a, &ha);
    rate_texts(texts, ntexts, ids, nm, p, 1, &b, &hb);
    assert_int_equal(a.failed, b.failed);
    assert_string_equal(a.err, b.err);
    for (int fmt = 0; fmt < 3 && !a.failed; fmt++) {
        assert_non_null(a.text[fmt]);
        assert_true(strlen(a.text[fmt]) > 200);
        assert_string_equal(a.text[fmt], b.text[fmt]);
    }
    assert_int_equal(a.rated, b.rated);
    for (int i = 0; i < a.rated; i++) { /* dhm rate writes the history of these */
        int m = ids[i];
        assert_true(ha.len[m] > 1000);
        assert_int_equal(ha.len[m], hb.len[m]);
        assert_memory_equal(ha.buf[m], hb.buf[m], ha.len[m]);
    }
    for (int fmt = 0; fmt < 3; fmt++) {
        free(a.text[fmt]);
        free(b.text[fmt]);
    }
    hist_free(&ha);
    hist_free(&hb);
}

/* Every method that streams, alone and together, both set-wise orders: sets, games with and
 * without p, and both at once. */
static void test_stream_equals_memory(void **state)
{
    (void)state;
    char *sets = sets_csv(700, 1), *games_p = games_csv(600, 1, 2), *games = games_csv(300, 0, 3);
    const char *only_sets[] = {sets}, *only_games[] = {games_p}, *both[] = {sets, games_p}, *plain[] = {games};
    const int setwise[] = {M_SE, M_SG, M_SG2, M_STS}, gamewise[] = {M_ELO_GAME, M_MORITA},
              all[] = {M_STS, M_MORITA, M_SE, M_ELO_GAME, M_SG2, M_SG};
    for (int seq = 0; seq < 2; seq++) {
        RatingParams p;
        rating_params_default(&p);
        p.sequential = seq;
        p.glicko_c = 20 * seq; /* RD growth between sets */
        for (int m = 0; m < 4; m++)
            expect_same(only_sets, 1, &setwise[m], 1, &p);
        expect_same(only_sets, 1, setwise, 4, &p);
        expect_same(only_games, 1, gamewise, 2, &p);
        expect_same(both, 2, all, 6, &p);
    }
    RatingParams p;
    rating_params_default(&p);
    p.natural_log = 1;
    expect_same(only_games, 1, &gamewise[1], 1, &p);
    expect_same(plain, 1, &gamewise[0], 1, &p);
    /* a method that does not apply fails with the same reason: morita without p, sts on games */
    expect_same(plain, 1, gamewise, 2, &p);
    expect_same(only_games, 1, setwise, 4, &p);
    /* the unbounded players are flagged the same way */
    Printed out;
    Hist h;
    rate_texts(only_sets, 1, &setwise[3], 1, &p, 1, &out, &h);
    const char *top = strstr(out.text[2], "\"ratings\": [\n  {\"player\": \"top\"");
    assert_non_null(top);
    assert_non_null(strstr(top, "\"bound\": \"unbounded-above\""));
    const char *last = strstr(out.text[2], "{\"player\": \"last\"");
    assert_non_null(last);
    assert_non_null(strstr(last, "\"bound\": \"unbounded-below\""));
    const char *bottom = strstr(out.text[2], "{\"player\": \"bottom\"");
    assert_non_null(bottom);
    assert_true(strstr(bottom, "\"bound\": \"data\"") < strstr(bottom, "}"));
    for (int fmt = 0; fmt < 3; fmt++)
        free(out.text[fmt]);
    hist_free(&h);
    free(sets);
    free(games_p);
    free(games);
}

/* ---- the CSV loader with a sink ---- */

/* Loads text in memory and through a stream: the same outcome, the same error. Returns the
 * stream's status (RESULTS_UNORDERED when the file cannot stream). */
static int load_both(const char *text, int want_ok)
{
    char err_mem[512] = "", err_str[512] = "";
    Results a, b;
    results_init(&a);
    results_init(&b);
    int ids[1] = {M_STS};
    RatingParams p;
    rating_params_default(&p);
    RateStream *rs = rate_stream_begin(ids, 1, &p, NULL, NULL);
    b.sink = rate_stream_sink(rs);
    int ra = load_text(&a, text, err_mem, sizeof err_mem), rb = load_text(&b, text, err_str, sizeof err_str);
    if ((ra == 0) != want_ok)
        fail_msg("in memory: %d (%s) for %s", ra, err_mem, text);
    if (rb != RESULTS_UNORDERED) {
        assert_int_equal(ra, rb);
        assert_string_equal(err_mem, err_str);
        assert_int_equal(a.nplayers, b.nplayers);
        assert_int_equal(a.nsets, b.nsets);
        assert_int_equal(a.ngames, b.ngames);
    } else
        assert_non_null(strstr(err_str, "cannot be rated as they are read"));
    rate_stream_free(rs);
    results_free(&a);
    results_free(&b);
    return rb;
}

#define SET5(id, ord) id "," ord ",A,5\n" id "," ord ",B,4\n" id "," ord ",C,3\n" id "," ord ",D,2\n" id "," ord ",E,1\n"
#define HEAD "set,order,player,points\n"

static void test_stream_csv(void **state)
{
    (void)state;
    /* ids: numbers new in any order, N.M with M rising, other ids rising: streams */
    assert_int_equal(load_both(HEAD SET5("5", "1") SET5("3", "1") SET5("9", "2") SET5("0", "2"), 1), 0);
    assert_int_equal(load_both(HEAD SET5("s1", "1") SET5("s2", "1") SET5("t", "3"), 1), 0);
    assert_int_equal(load_both(HEAD SET5("3.0", "1") SET5("3.1", "1") SET5("2.5", "1") SET5("2.50", "1"), 1), 0);
    assert_int_equal(load_both("game,player,rank\n1.0,A,1\n1.0,B,2\n1.1,A,2\n1.1,C,1\n0.9,B,1\n0.9,C,1\n", 1), 0);
    /* a set's rows apart, an id seen before, ids falling, orders falling: cannot stream */
    assert_int_equal(load_both(HEAD "1,1,A,5\n2,2,X,1\n1,1,B,4\n2,2,Y,2\n1,1,C,3\n2,2,Z,3\n1,1,D,2\n2,2,V,4\n1,1,E,1\n"
                                    "2,2,W,5\n",
                               1),
                     RESULTS_UNORDERED);
    assert_int_equal(load_both(HEAD SET5("3", "1") SET5("x", "1") SET5("3", "1"), 0), RESULTS_UNORDERED);
    assert_int_equal(load_both(HEAD SET5("b", "1") SET5("a", "1"), 1), RESULTS_UNORDERED);
    assert_int_equal(load_both(HEAD SET5("3.1", "1") SET5("3.0", "1"), 1), RESULTS_UNORDERED);
    assert_int_equal(load_both(HEAD SET5("1", "2") SET5("2", "1"), 1), RESULTS_UNORDERED);
    assert_int_equal(load_both(HEAD SET5("1", "2") SET5("007", "3") SET5("7", "3"), 1), RESULTS_UNORDERED);
    /* a set that looked short but is completed later: in memory it is whole */
    assert_int_equal(load_both(HEAD "1,1,A,5\n1,1,B,4\n1,1,C,3\n1,1,D,2\n" SET5("2", "1") "1,1,E,1\n", 1),
                     RESULTS_UNORDERED);
    /* every error is the one reading it in memory gives: row errors first, then the first
     * set or game that is incomplete */
    const char *bad[] = {
        "",
        "a,b,c\n",
        HEAD "1,1,A,5\n1,1,B\n",
        HEAD "1,1,A,five\n",
        HEAD "1,x,A,5\n",
        HEAD "1,1,A,5\n1,1,A,6\n",
        HEAD "1,1,A,5\n1,1,B,5\n1,1,C,5\n1,1,D,5\n",
        HEAD "1,1,A,5\n1,1,B,5\n1,1,C,5\n1,1,D,5\n" SET5("2", "1"),
        HEAD "1,1,A,5\n1,1,B,5\n1,1,C,5\n1,1,D,5\n" SET5("2", "1") "3,1,A,x\n",
        HEAD "1,1,A,5\n1,1,B,5\n1,1,C,5\n1,1,D,5\n" SET5("2", "0"),
        HEAD SET5("1", "1") "2,1,A,1\n2,1,B,1\n" SET5("3", "1") "4,1,A,1\n",
        HEAD "1,1,A,1\n1,1,B,1\n1,1,C,1\n1,1,D,1\n1,1,E,1\n1,1,F,1\n",
        HEAD "1,1,A,1\n1,2,B,1\n",
        "game,player,rank,p\n1,A,1,1.5\n",
        "game,player,rank\n1,A,1\n2,A,1\n2,B,2\n",
        "game,player,rank\n1,\"A,1\n",
        "game,player,rank\n1,,1\n",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        assert_int_equal(load_both(bad[k], 0), -1);
}

/* Numbers read with or without strtod are the same numbers. */
static void test_numbers(void **state)
{
    (void)state;
    Results r;
    results_init(&r);
    char err[256];
    assert_int_equal(load_text(&r,
                               HEAD "1,-0,A,-5\n1,-0,B,123456789012345\n1,-0,C,1234567890123456\n1,-0,D,-0\n"
                                    "1,-0,E,+7\n2,007,A,1e3\n2,007,B,-12.5\n2,007,C,0.1\n2,007,D,99999999999999999999\n"
                                    "2,007,E,-\n",
                               err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "t.csv:11: points '-' is not a number"));
    results_free(&r);
    results_init(&r);
    assert_int_equal(load_text(&r,
                               HEAD "1,-0,A,-5\n1,-0,B,123456789012345\n1,-0,C,1234567890123456\n1,-0,D,-0\n"
                                    "1,-0,E,+7\n2,007,A,1e3\n2,007,B,-12.5\n2,007,C,0.1\n2,007,D,99999999999999999999\n"
                                    "2,007,E,0010\n",
                               err, sizeof err),
                     0);
    const double want[2][5] = {{-5, 123456789012345.0, 1234567890123456.0, -0.0, 7},
                               {1000, -12.5, 0.1, 99999999999999999999.0, 10}};
    for (int k = 0; k < 2; k++) {
        assert_true(r.sets[k].order == (k ? 7 : 0));
        for (int i = 0; i < 5; i++)
            assert_memory_equal(&r.sets[k].points[i], &want[k][i], sizeof(double));
    }
    assert_true(signbit(r.sets[0].order) && signbit(r.sets[0].points[3]));
    results_free(&r);
}

/* ---- dhm rate ---- */

static void test_cli_streamed(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    char *sets = sets_csv(400, 7), *games = games_csv(300, 1, 8);
    char path[3][128];
    const char *texts[3] = {sets, games, NULL};
    /* the third file: the sets' rows in reverse (ids falling: read whole) */
    size_t n = strlen(sets);
    char *rev = malloc(n + 1), *w = rev;
    const char *body = strchr(sets, '\n') + 1;
    w += sprintf(w, "set,order,player,points\n");
    for (const char *e = sets + n; e > body;) {
        const char *s = e - 1;
        while (s > body && s[-1] != '\n')
            s--;
        memcpy(w, s, (size_t)(e - s));
        w += e - s;
        e = s;
    }
    *w = 0;
    texts[2] = rev;
    for (int i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/%d.csv", dir, i);
        FILE *f = fopen(path[i], "w");
        assert_non_null(f);
        fputs(texts[i], f);
        fclose(f);
    }
    static char a[1 << 17], b[1 << 17];
    const char *cases[][2] = {
        {"0", "--method se,sg,sg2,sts --mse --crosstable --transitivity"},
        {"0", "--method sts --order seq --csv --mse --crosstable --transitivity --top 3"},
        {"0", "--method sg,se --json --mse --crosstable --transitivity --los"},
        {"1", "--method elo-game,morita --mse --crosstable --transitivity --json"},
        {"2", "--method sts,se --mse --crosstable --transitivity --csv"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *file = path[cases[k][0][0] - '0'];
        assert_int_equal(run_cmd(a, sizeof a, "%s rate %s %s --history %s/ha.csv", dhm_bin(), file, cases[k][1], dir), 0);
        assert_int_equal(run_cmd(b, sizeof b, "%s rate %s %s --history %s/hb.csv --in-memory", dhm_bin(), file,
                                 cases[k][1], dir),
                         0);
        assert_true(strlen(a) > 300);
        assert_string_equal(a, b);
        assert_int_equal(run_cmd(a, sizeof a, "cmp %s/ha.csv %s/hb.csv && wc -l < %s/ha.csv", dir, dir, dir), 0);
        assert_true(atol(a) > 1000);
    }
    /* sets and games together, and a method that does not apply: the same error, and no
     * history file written */
    assert_int_equal(run_cmd(a, sizeof a, "%s rate %s %s --method sts,morita,sg --transitivity", dhm_bin(), path[0],
                             path[1]),
                     0);
    assert_int_equal(run_cmd(b, sizeof b, "%s rate %s %s --method sts,morita,sg --transitivity --in-memory", dhm_bin(),
                             path[0], path[1]),
                     0);
    assert_string_equal(a, b);
    assert_int_equal(run_cmd(a, sizeof a, "%s rate %s --method sts,morita --history %s/hc.csv 2>&1; test -e %s/hc.csv",
                             dhm_bin(), path[0], dir, dir),
                     0);
    assert_non_null(strstr(a, "needs per-game results"));
    assert_int_equal(run_cmd(b, sizeof b, "%s rate %s --method sts,morita --history %s/hd.csv --in-memory 2>&1",
                             dhm_bin(), path[0], dir),
                     1);
    assert_string_equal(a, b);
    assert_int_equal(run_cmd(a, sizeof a, "cmp %s/hc.csv %s/hd.csv", dir, dir), 0);
    free(sets);
    free(games);
    free(rev);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_equals_memory),
        cmocka_unit_test(test_stream_csv),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_cli_streamed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

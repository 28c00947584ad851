/* test_kifu.c — the kifu reader and writer, and replay: the real blaux5 games replay with
 * their recorded results; broken copies give "file:line: reason" and never crash; records
 * written by a match read back and replay cleanly. */
#include "testutil.h"

#include "game/match.h"
#include "players/players.h"
#include "record/replay.h"

/* Reads every game of a text; returns the number of games that replayed cleanly, or -1 when
 * the reader or replay reported a problem (message in err). */
static int replay_text(const char *text, size_t len, char *err, size_t errsz, int *games_out)
{
    FILE *f = fmemopen((void *)text, len, "r");
    assert_non_null(f);
    KifuReader r;
    kifu_reader_init(&r, f, "mem.kifu");
    KifuGame *g = malloc(sizeof *g);
    int rc, games = 0, bad = 0;
    err[0] = 0;
    while ((rc = kifu_next(&r, g, err, errsz)) == 1) {
        games++;
        if (replay_game(g, "mem.kifu", NULL, NULL, err, errsz)) {
            bad = 1;
            break;
        }
    }
    kifu_reader_free(&r);
    fclose(f);
    free(g);
    if (games_out)
        *games_out = games;
    return rc < 0 || bad ? -1 : games;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = 0;
    *len = got;
    return buf;
}

static void test_blaux5_replays(void **state)
{
    (void)state;
    const char *path = shared_file("data/blaux5.kifu");
    if (!path)
        skip();
    size_t len;
    char *text = slurp(path, &len);
    char err[512];
    int games;
    int ok = replay_text(text, len, err, sizeof err, &games);
    if (ok < 0)
        fail_msg("%s", err);
    assert_int_equal(ok, 100);
    free(text);
}

/* Replaces the first occurrence of `from` after offset `at` with `to`; returns a new text. */
static char *edit(const char *text, const char *from, const char *to, size_t *len)
{
    const char *p = strstr(text, from);
    assert_non_null(p);
    size_t a = (size_t)(p - text), fl = strlen(from), tl = strlen(to), n = strlen(text);
    char *out = malloc(n - fl + tl + 1);
    memcpy(out, text, a);
    memcpy(out + a, to, tl);
    memcpy(out + a + tl, p + fl, n - a - fl + 1);
    *len = n - fl + tl;
    return out;
}

static void expect_problem(const char *text, const char *from, const char *to, const char *want_line,
                           const char *want_msg)
{
    size_t len;
    char *t = edit(text, from, to, &len);
    char err[512];
    int rc = replay_text(t, len, err, sizeof err, NULL);
    if (rc >= 0)
        fail_msg("edit '%s' -> '%s' was not reported", from, to);
    if (!strstr(err, want_line) || !strstr(err, want_msg))
        fail_msg("edit '%s' -> '%s': got '%s', want '%s' and '%s'", from, to, err, want_line, want_msg);
    free(t);
}

static void test_broken_copies(void **state)
{
    (void)state;
    const char *path = shared_file("data/blaux5.kifu");
    if (!path)
        skip();
    size_t len;
    char *text = slurp(path, &len);
    /* game 0: lines 2..12; its play line is line 10, result line 11 */
    expect_problem(text, "play d-3[269244] d-4[439146]", "play d-3[269244] d-3[439146]", "mem.kifu:10:",
                   "not legal");
    expect_problem(text, "play d-3[269244] d-4[439146]", "play d-3[269244] zz-4[439146]", "mem.kifu:10:",
                   "bad move 'zz-4'");
    expect_problem(text, "result 1 0 4 2 3", "result 0 1 4 2 3", "mem.kifu:11:", "finished with class");
    expect_problem(text, "result 1 0 4 2 3", "result 1 0 4 2", "mem.kifu:11:", "five classes");
    expect_problem(text, "seat 4 2 0 1 3", "seat 4 2 0 1 1", "mem.kifu:6:", "permutation");
    expect_problem(text, "dealt { s7 d8", "dealt { s7 s7 d8", "mem.kifu:7:", "five card sets");
    expect_problem(text, "dealt { s7 d8", "dealt { d3 d8", "mem.kifu:", "two players");
    expect_problem(text, "dealt { s7 d8 s8", "dealt { d8 s8", "mem.kifu:", "53 cards");
    expect_problem(text, "game 0 \n", "game x \n", "mem.kifu:3:", "bad game number");
    expect_problem(text, "score \n", "scor \n", "mem.kifu:4:", "unknown line");
    expect_problem(text, "s-9[81] \nresult", "\nresult", "mem.kifu:10:", "end before the game is over");
    expect_problem(text, "s-9[81] \nresult", "s-9[81] p[1] \nresult", "mem.kifu:10:", "already over");
    expect_problem(text, "d-3[269244]", "d-3[26x9244]", "mem.kifu:10:", "bad time");
    /* game 1 exchange: the daihinmin (player 2) must give its two strongest (ha d2) */
    expect_problem(text, "changed { h3 } { d4 h6 } { ha d2 }", "changed { h3 } { d4 h6 } { ca d2 }", "mem.kifu:",
                   "strongest");
    /* truncated inside a block */
    char err[512];
    int rc = replay_text(text, 2000, err, sizeof err, NULL);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, "mem.kifu:"));
    free(text);
}

/* Random damage: truncations, byte flips, deleted lines. Never a crash; errors well formed. */
static void test_fuzzed_copies_never_crash(void **state)
{
    (void)state;
    const char *path = shared_file("data/blaux5.kifu");
    if (!path)
        skip();
    size_t len;
    char *text = slurp(path, &len);
    Rng rng = rng_seed(4);
    int reported = 0;
    for (int i = 0; i < 400; i++) {
        char *t = malloc(len + 1);
        memcpy(t, text, len + 1);
        size_t n = len;
        int kind = i % 4;
        if (kind == 0) {
            n = rng_below(&rng, (uint32_t)len);
        } else if (kind == 1) {
            for (int k = 0; k < 3; k++)
                t[rng_below(&rng, (uint32_t)len)] = (char)(rng_below(&rng, 256));
        } else if (kind == 2) {
            size_t a = rng_below(&rng, (uint32_t)len), b = a + rng_below(&rng, 200);
            if (b > len)
                b = len;
            memmove(t + a, t + b, len - b + 1);
            n = len - (b - a);
        } else {
            size_t a = rng_below(&rng, (uint32_t)len);
            t[a] = ' ';
        }
        char err[512];
        int games;
        if (replay_text(t, n, err, sizeof err, &games) < 0) {
            reported++;
            assert_non_null(strstr(err, "mem.kifu:"));
        }
        free(t);
    }
    assert_true(reported > 200);
    free(text);
}

static int write_game(void *ctx, const GameRecord *r, const MatchResult *sofar)
{
    (void)sofar;
    kifu_write_game(ctx, r);
    return 0;
}

/* Records written from a match (with class resets and exchanges) read back and replay cleanly. */
static void test_write_read_roundtrip(void **state)
{
    (void)state;
    Player *pl[5];
    char err[256];
    const char *kinds[5] = {"simple", "random", "simple", "random", "random"};
    for (int p = 0; p < 5; p++)
        assert_int_equal(player_create(kinds[p], player_seed(3, p), &pl[p], err, sizeof err), 0);
    char *buf = NULL;
    size_t blen = 0;
    FILE *out = open_memstream(&buf, &blen);
    const char *names[5] = {"a", "b", "c", "d", "e"};
    kifu_write_header(out, names);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 250;
    cfg.seed = 3;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    assert_int_equal(match_run(pl, &cfg, NULL, write_game, out, rec, &res), 0);
    fclose(out);
    int games;
    int ok = replay_text(buf, blen, err, sizeof err, &games);
    if (ok < 0)
        fail_msg("%s", err);
    assert_int_equal(ok, 250);
    free(buf);
    free(rec);
    for (int p = 0; p < 5; p++)
        player_destroy(pl[p]);
}

static void test_cli_replay(void **state)
{
    (void)state;
    char out[8192], dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    /* a served-style record from dhm play replays cleanly */
    assert_int_equal(run_cmd(out, sizeof out, "%s play --games 30 --seed 9 --record %s/m.kifu --quiet", dhm_bin(), dir),
                     0);
    assert_int_equal(run_cmd(out, sizeof out, "%s replay --quiet %s/m.kifu", dhm_bin(), dir), 0);
    assert_non_null(strstr(out, "30 games"));
    /* a truncated copy: file, line and reason, non-zero exit */
    assert_int_equal(run_cmd(NULL, 0, "head -c 1500 %s/m.kifu > %s/t.kifu", dir, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s replay --quiet %s/t.kifu", dhm_bin(), dir), 1);
    assert_non_null(strstr(out, "t.kifu:"));
    assert_int_equal(run_cmd(out, sizeof out, "%s replay %s/missing.kifu 2>&1", dhm_bin(), dir), 1);
    assert_non_null(strstr(out, "cannot open"));
    assert_int_equal(run_cmd(out, sizeof out, "%s replay 2>&1", dhm_bin()), 2);
    assert_int_equal(run_cmd(out, sizeof out, "head -c 3000 /dev/urandom > %s/r.kifu; %s replay %s/r.kifu 2>&1",
                             dir, dhm_bin(), dir),
                     1);
    /* records carry each move's thinking time: an mc player thinks, so its [µs] are not 0 */
    assert_int_equal(run_cmd(out, sizeof out,
                             "%s play --players mc:sims=300,simple,simple,simple,simple --games 3 --record %s/mc.kifu "
                             "--quiet",
                             dhm_bin(), dir),
                     0);
    char path[128];
    snprintf(path, sizeof path, "%s/mc.kifu", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    KifuReader r;
    kifu_reader_init(&r, f, path);
    KifuGame *g = malloc(sizeof *g);
    long most = 0, games = 0;
    char err[256];
    while (kifu_next(&r, g, err, sizeof err) == 1) {
        games++;
        for (int i = 0; i < g->nplays; i++)
            most = g->usec[i] > most ? g->usec[i] : most;
    }
    kifu_reader_free(&r);
    fclose(f);
    free(g);
    assert_int_equal(games, 3);
    assert_true(most >= 100); /* 300 simulations take far more than 100 µs */
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blaux5_replays),
        cmocka_unit_test(test_broken_copies),
        cmocka_unit_test(test_fuzzed_copies_never_crash),
        cmocka_unit_test(test_write_read_roundtrip),
        cmocka_unit_test(test_cli_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_kifu.c — the kifu reader and writer, and replay: the real blaux5 games replay with
 * their recorded results; broken copies give "file:line: reason" and never crash; records
 * written by a match read back and replay cleanly. */
#include "testutil.h"

#include <math.h>

#include "analysis/diverge.h"
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

/* Keeps the second game of a match (one with the exchange) in ctx. */
static int keep_second(void *ctx, const GameRecord *r, const MatchResult *sofar)
{
    if (sofar->games == 2)
        memcpy(ctx, r, sizeof *r);
    return 0;
}

/* diverge_game: where two records of one deal first differ, who made it, and the points. */
static void test_diverge_game(void **state)
{
    (void)state;
    const char *specs[5] = {"simple", "random", "simple", "random", "random"};
    Player *pl[5];
    MatchResult res;
    GameRecord *a = calloc(1, sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    test_match_each(specs, 3, 11, pl, &res, keep_second, a);
    test_players_free(pl);
    assert_true(a->nplays > 10);
    assert_true(a->cls[0] >= 0); /* the second game had an exchange */
    DivGame g;
    char err[128];
    DivTotals *t = calloc(1, sizeof *t);
    assert_non_null(t);
    for (int me = 0; me < NPLAYERS; me++) {
        assert_int_equal(diverge_game(a, a, me, &g, err, sizeof err), 0);
        assert_int_equal(g.kind, DIV_NEVER);
        assert_int_equal(g.ply, -1);
        assert_int_equal(g.cls, a->cls[me]);
        assert_int_equal(g.a, 5 - a->result[me]);
        assert_int_equal(g.b, g.a);
        /* a different play at every ply in turn: found there, with the mover and its cards */
        for (int k = 0; k < a->nplays; k++) {
            memcpy(b, a, sizeof *b);
            b->plays[k].move = move_eq(a->plays[k].move, move_pass()) ? a->plays[k + 1 < a->nplays ? k + 1 : 0].move
                                                                       : move_pass();
            b->result[me] = (a->result[me] + 1) % NPLAYERS;
            if (move_eq(b->plays[k].move, a->plays[k].move))
                continue;
            assert_int_equal(diverge_game(a, b, me, &g, err, sizeof err), 0);
            assert_int_equal(g.kind, a->plays[k].player == me ? DIV_PLAY_ME : DIV_PLAY_OTHER);
            assert_int_equal(g.ply, k);
            assert_int_equal(g.by, a->plays[k].player);
            Cards left = a->original[me];
            for (int i = 0; i < k; i++)
                if (a->plays[i].player == me)
                    left &= ~move_cards(a->plays[i].move);
            assert_int_equal(g.cards_left, cards_count(left));
            assert_int_equal(g.b, 5 - b->result[me]);
            diverge_add(t, &g);
        }
        /* one game stops early (a stalemate's end): parted at the first play it lacks */
        memcpy(b, a, sizeof *b);
        b->nplays = a->nplays - 1;
        assert_int_equal(diverge_game(a, b, me, &g, err, sizeof err), 0);
        assert_int_equal(g.ply, a->nplays - 1);
        assert_int_equal(g.kind, a->plays[a->nplays - 1].player == me ? DIV_PLAY_ME : DIV_PLAY_OTHER);
        /* its own gift, then only another's */
        const int other = (me + 2) % NPLAYERS;
        memcpy(b, a, sizeof *b);
        b->changed[other] ^= 1;
        assert_int_equal(diverge_game(a, b, me, &g, err, sizeof err), 0);
        assert_int_equal(g.kind, DIV_GIFT_OTHER);
        assert_int_equal(g.by, other);
        b->changed[me] ^= 1;
        assert_int_equal(diverge_game(a, b, me, &g, err, sizeof err), 0);
        assert_int_equal(g.kind, DIV_GIFT_ME);
        assert_int_equal(g.by, me);
        assert_int_equal(g.cards_left, cards_count(a->dealt[me]));
        diverge_add(t, &g);
        /* another deal, seat or starting class: refused */
        memcpy(b, a, sizeof *b);
        b->dealt[me] ^= 3;
        assert_int_equal(diverge_game(a, b, me, &g, err, sizeof err), -1);
        assert_non_null(strstr(err, "not one deal"));
        memcpy(b, a, sizeof *b);
        b->cls[me] = (int8_t)((a->cls[me] + 1) % NPLAYERS);
        assert_int_equal(diverge_game(a, b, me, &g, err, sizeof err), -1);
    }
    /* the parts add up to the whole; each kind's mean is its games' */
    double sum = 0;
    long n = 0;
    for (int k = 0; k < DIV_NKINDS; k++) {
        double part, se;
        diverge_part(t, k, &part, &se);
        sum += part;
        n += t->kind[k].n;
        if (t->kind[k].n)
            assert_true(fabs(part - t->kind[k].d / (double)t->games) < 1e-12);
    }
    assert_int_equal(n, t->games);
    /* the games parted at its own play, by its cards then: every one of them in one bin */
    long in_bins = 0;
    for (int k = 0; k < DIV_NLEFT; k++)
        in_bins += t->left[k].n;
    assert_int_equal(in_bins, t->kind[DIV_PLAY_ME].n);
    const int bin_of[14] = {3, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0};
    for (int c = 1; c < 14; c++)
        assert_int_equal(div_left_bin(c), bin_of[c]);
    assert_true(t->kind[DIV_PLAY_ME].n > 0 && t->kind[DIV_PLAY_OTHER].n > 0 && t->kind[DIV_GIFT_ME].n == NPLAYERS);
    assert_true(fabs(sum - div_mean(&t->all)) < 1e-12);
    assert_true(div_se(&t->all) > 0);
    free(t);
    free(a);
    free(b);
}

/* The number of "key": in a JSON text, after the text `after` (NULL: the start). */
static double json_num(const char *json, const char *after, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    return test_json_num(after ? strstr(json, after) : json, k);
}

/* dhm records diverge on two runs of dhm play --independent with one seed: its B - A is the
 * difference of the two runs' means, its parts add up to it, and records of other deals,
 * or of fewer games, are refused in one line. */
static void test_cli_diverge(void **state)
{
    (void)state;
    static char out[1 << 16];
    char dir[64], pa[1024], pb[1024];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    const char *play = "%s play --players %s,simple,simple,random,random --independent --games 60 --seed %d "
                       "--record %s/%s.kifu --json --quiet";
    assert_int_equal(run_cmd(pa, sizeof pa, play, dhm_bin(), "policy", 21, dir, "a"), 0);
    assert_int_equal(run_cmd(pb, sizeof pb, play, dhm_bin(), "simple", 21, dir, "b"), 0);
    assert_int_equal(run_cmd(NULL, 0, play, dhm_bin(), "simple", 22, dir, "c"), 0);
    assert_int_equal(run_cmd(NULL, 0,
                             "%s play --players simple,simple,simple,random,random --independent --games 30 --seed 21 "
                             "--record %s/d.kifu --quiet",
                             dhm_bin(), dir),
                     0);
    const double ma = json_num(pa, NULL, "mean"), mb = json_num(pb, NULL, "mean");
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/b.kifu --json", dhm_bin(), dir, dir), 0);
    assert_true(fabs(json_num(out, "\"all\"", "b_minus_a") - (mb - ma)) < 1e-3);
    assert_int_equal((int)json_num(out, NULL, "games"), 60);
    double parts = 0;
    const char *kinds[] = {"never", "gift-me", "gift-other", "play-me", "play-other"};
    for (int k = 0; k < 5; k++) {
        char at[64];
        snprintf(at, sizeof at, "\"where\": \"%s\"", kinds[k]);
        parts += json_num(out, at, "part_of_all");
    }
    assert_true(fabs(parts - (mb - ma)) < 5e-3);
    /* policy and simple choose differently: some games part at player 0's own decisions */
    assert_true(json_num(out, "\"where\": \"play-me\"", "games") + json_num(out, "\"where\": \"gift-me\"", "games") >
                10);
    /* a run against itself never parts */
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/a.kifu --json", dhm_bin(), dir, dir), 0);
    assert_int_equal((int)json_num(out, "\"where\": \"never\"", "games"), 60);
    /* the table and the CSV */
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/b.kifu", dhm_bin(), dir, dir), 0);
    assert_non_null(strstr(out, "at its own play"));
    assert_non_null(strstr(out, "7-10 cards"));
    assert_non_null(strstr(out, "(policy)"));
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/b.kifu --player 3 --csv | wc -l",
                             dhm_bin(), dir, dir),
                     0);
    assert_int_equal(atoi(out), 61);
    /* refused, in one line */
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/c.kifu 2>&1", dhm_bin(), dir, dir), 1);
    assert_non_null(strstr(out, "not one deal"));
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/d.kifu 2>&1", dhm_bin(), dir, dir), 1);
    assert_non_null(strstr(out, "more games"));
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu 2>&1", dhm_bin(), dir), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/b.kifu --player 5 2>&1", dhm_bin(), dir,
                             dir),
                     2);
    assert_int_equal(run_cmd(out, sizeof out, "%s records diverge %s/a.kifu %s/nothing.kifu 2>&1", dhm_bin(), dir,
                             dir),
                     1);
    assert_non_null(strstr(out, "cannot read"));
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
        cmocka_unit_test(test_diverge_game),
        cmocka_unit_test(test_cli_diverge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

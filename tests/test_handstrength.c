/* test_handstrength.c — initial-hand win rates (analysis/handstrength, dhm handstrength) and
 * their use (dhm rate --method morita --db, dhm records games --csv --p): p_ij + p_ji = 1; a
 * hand with the joker, the 2s and the aces beats random hands of the rest (p > 0.5), whatever
 * the playout policy; fixed seed -> identical counts; the store caches the rates set
 * by set, an interrupted (--limit) run continues to the same result as one run, whatever
 * --jobs; other settings are refused unless --replace; a damaged row is a clear error;
 * morita needs rates for every set. */
#include "testutil.h"

#include <sqlite3.h>

#include "analysis/handstrength.h"

/* hand[0] = joker, the four 2s, the four aces and two kings; the rest dealt at random to the
 * others (11, 11, 10, 10 cards... after player 0's 11: 42 cards for four players). */
static void strong_deal(Rng *r, Cards hand[NPLAYERS])
{
    Cards h0 = CARDS_JOKER | CARDS_COL(COL_MAX) | CARDS_COL(COL_MAX - 1) | card_of(COL_MAX - 2, 0) | card_of(COL_MAX - 2, 1);
    Cards rest = CARDS_ALL & ~h0;
    int cards[64], n = 0;
    for (int b = 0; b < 64; b++)
        if ((rest >> b) & 1)
            cards[n++] = b;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)(i + 1)), t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    memset(hand, 0, NPLAYERS * sizeof *hand);
    hand[0] = h0;
    for (int k = 0; k < n; k++)
        hand[1 + k % 4] |= 1ULL << cards[k];
}

static void check_matrix(const HandWins *hw, int k)
{
    double p[NPLAYERS * NPLAYERS];
    hand_matrix(hw, k, p);
    double total = 0;
    for (int i = 0; i < NPLAYERS; i++)
        for (int j = 0; j < NPLAYERS; j++) {
            assert_true(p[i * NPLAYERS + j] >= 0 && p[i * NPLAYERS + j] <= 1);
            if (i != j) {
                assert_true(fabs(p[i * NPLAYERS + j] + p[j * NPLAYERS + i] - 1.0) < 1e-12);
                assert_true(p[i * NPLAYERS + j] > 0 && p[i * NPLAYERS + j] < 1);
                total += p[i * NPLAYERS + j];
            }
        }
    /* every playout orders all ten pairs */
    assert_true(fabs(total - 10) < 1e-9);
}

static void test_strong_hands(void **state)
{
    (void)state;
    char err[256];
    const PolicyWeights *w = policy_builtin(err, sizeof err);
    assert_non_null(w);
    const uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    Rng r = rng_seed(11);
    for (int pol = HAND_SIMPLE; pol <= HAND_POLICY; pol++) {
        HandConfig c = {400, pol, 0.1, 1, w};
        for (int deal = 0; deal < 5; deal++) {
            Cards hand[NPLAYERS];
            strong_deal(&r, hand);
            HandWins hw;
            hand_wins_from(&c, hand, seat, game_first_player(hand), 7 + (uint64_t)deal, &hw);
            check_matrix(&hw, c.playouts);
            double p[NPLAYERS * NPLAYERS];
            hand_matrix(&hw, c.playouts, p);
            for (int j = 1; j < NPLAYERS; j++) {
                /* random play squanders even this hand more often; the others rarely lose it */
                assert_true(p[0 * NPLAYERS + j] > (pol == HAND_RANDOM ? 0.6 : 0.8));
                assert_true(p[j * NPLAYERS + 0] < 0.5);
            }
        }
    }
}

static void test_deterministic_for_the_seed(void **state)
{
    (void)state;
    HandConfig c = {300, HAND_SIMPLE, 0.1, 1, NULL};
    const uint8_t seat[NPLAYERS] = {3, 1, 4, 0, 2};
    Rng r = rng_seed(5);
    Cards hand[NPLAYERS];
    game_deal(seat, 0, &r, hand);
    HandWins a, b, d;
    hand_wins_from(&c, hand, seat, game_first_player(hand), 99, &a);
    hand_wins_from(&c, hand, seat, game_first_player(hand), 99, &b);
    hand_wins_from(&c, hand, seat, game_first_player(hand), 100, &d);
    assert_memory_equal(&a, &b, sizeof a);
    assert_memory_not_equal(&a, &d, sizeof a); /* 300 eps-random playouts: another seed differs somewhere */
    check_matrix(&a, c.playouts);
    assert_int_equal(hand_seed(1, 2, 3), hand_seed(1, 2, 3));
    assert_true(hand_seed(1, 2, 3) != hand_seed(1, 3, 2));
}

/* The p column of `records games --csv --p`: for every game, the five p average to 0.5 (the
 * mean over opponents of p_ij, summed over players, counts each pair once each way). */
static void check_p_column(const char *csv)
{
    const char *line = strchr(csv, '\n');
    assert_non_null(line);
    char game[32] = "", prev[32] = "";
    double sum = 0;
    int n = 0, games = 0;
    for (line++; *line; line = strchr(line, '\n') + 1) {
        char name[64];
        int rank;
        double p;
        if (line[0] == '#') {
            if (!strchr(line, '\n'))
                break;
            continue;
        }
        assert_int_equal(sscanf(line, "%31[^,],\"%63[^\"]\",%d,%lf", game, name, &rank, &p), 4);
        assert_true(p > 0 && p < 1);
        if (strcmp(game, prev)) {
            if (n)
                assert_true(n == 5 && fabs(sum / 5 - 0.5) < 1e-5);
            snprintf(prev, sizeof prev, "%s", game);
            sum = 0;
            n = 0;
            games++;
        }
        sum += p;
        n++;
        if (!strchr(line, '\n'))
            break;
    }
    assert_true(n == 5 && fabs(sum / 5 - 0.5) < 1e-5);
    assert_true(games >= 10);
}

static void test_store_and_cli(void **state)
{
    (void)state;
    char dir[64], out[1 << 15], a[1 << 15], b[1 << 15];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    const char *D = dhm_bin();
    char path[256];
    snprintf(path, sizeof path, "%s/pool", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "r1 random\ns1 simple\ns2 simple\nr2 random\ns3 simple\nr3 random\n");
    fclose(f);
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --pool %s/pool --sets 4 --games 5 --records --db %s/t.sqlite "
                                              "--quiet --jobs 2 2>&1", D, dir, dir), 0);
    assert_int_equal(run_cmd(NULL, 0, "cp %s/t.sqlite %s/u.sqlite", dir, dir), 0);
    /* before: morita has nothing to correct with */
    assert_int_equal(run_cmd(out, sizeof out, "%s rate --db %s/t.sqlite --method morita 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "handstrength"));
    /* an interrupted run: one set now, the rest later */
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/t.sqlite --playouts 200 --limit 1 --jobs 1 "
                                              "--csv 2>&1", D, dir), 0);
    assert_non_null(strstr(out, "3 still to do"));
    /* rates for some sets only: not used */
    assert_int_equal(run_cmd(out, sizeof out, "%s rate --db %s/t.sqlite --method morita 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "3 of 4 sets have no initial-hand win rates"));
    assert_int_equal(run_cmd(a, sizeof a, "%s rate --db %s/t.sqlite --method elo-game,morita --in-memory 2>&1", D, dir), 1);
    assert_string_equal(a, out); /* the same rated as read (elo-game rated, morita refused) */
    assert_int_equal(run_cmd(a, sizeof a, "%s handstrength --db %s/t.sqlite --playouts 200 --jobs 2 --quiet --csv", D, dir), 0);
    /* the same in one run with one thread */
    assert_int_equal(run_cmd(b, sizeof b, "%s handstrength --db %s/u.sqlite --playouts 200 --jobs 1 --quiet --csv", D, dir), 0);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "calibration_observed"));
    /* again: everything cached */
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/t.sqlite --playouts 200 --csv 2>&1 >/dev/null", D, dir), 0);
    assert_non_null(strstr(out, "0 sets (0 games) computed"));
    assert_non_null(strstr(out, "4 were stored already"));
    /* other settings: refused, then replaced */
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/u.sqlite --playouts 300 --quiet 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "--replace"));
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/u.sqlite --playouts 300 --replace --quiet --csv", D, dir), 0);
    assert_string_not_equal(out, a);
    /* the p column; each game's five p average to 0.5 */
    assert_int_equal(run_cmd(out, sizeof out, "%s records games --db %s/t.sqlite --csv --p", D, dir), 0);
    assert_true(!strncmp(out, "game,player,rank,p\n", 19));
    check_p_column(out);
    /* morita now rates, and differs from plain game-wise Elo */
    assert_int_equal(run_cmd(out, sizeof out, "%s rate --db %s/t.sqlite --method elo-game,morita --csv 2>&1", D, dir), 0);
    assert_non_null(strstr(out, "morita"));
    double eg = 0, mo = 0;
    char *l = strstr(out, "\"s1\"");
    assert_non_null(l);
    /* rating rows: method,player,rating,...: find s1's two ratings */
    for (char *s = out; (s = strstr(s, "\"s1\"")) != NULL; s++) {
        char *bol = s;
        while (bol > out && bol[-1] != '\n')
            bol--;
        double v;
        if (!strncmp(bol, "elo-game,", 9) && sscanf(s + 5, "%lf", &v) == 1)
            eg = v;
        if (!strncmp(bol, "morita,", 7) && sscanf(s + 5, "%lf", &v) == 1)
            mo = v;
    }
    assert_true(eg != 0 && mo != 0 && eg != mo);
    /* the games rated as they are read give what rating them in memory gives, history too */
    assert_int_equal(run_cmd(a, sizeof a, "%s rate --db %s/t.sqlite --method morita,elo-game --mse --crosstable "
                                          "--history %s/h1.csv", D, dir, dir), 0);
    assert_int_equal(run_cmd(b, sizeof b, "%s rate --db %s/t.sqlite --method morita,elo-game --mse --crosstable "
                                          "--history %s/h2.csv --in-memory", D, dir, dir), 0);
    assert_string_equal(a, b);
    assert_int_equal(run_cmd(a, sizeof a, "cmp %s/h1.csv %s/h2.csv && wc -l < %s/h1.csv", dir, dir, dir), 0);
    assert_int_equal(atol(a), 1 + 2 * 4 * 5 * 5); /* header, 2 methods x 20 games x 5 players */
    /* records games --p without rates: one line */
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --pool %s/pool --sets 1 --games 2 --records --db %s/v.sqlite "
                                              "--quiet 2>&1", D, dir, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s records games --db %s/v.sqlite --csv --p 2>&1 >/dev/null", D, dir), 1);
    assert_non_null(strstr(out, "no initial-hand win rates"));
    /* a damaged row */
    sqlite3 *db;
    char dbpath[256];
    snprintf(dbpath, sizeof dbpath, "%s/t.sqlite", dir);
    assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE hand_p SET wins = x'0102' WHERE set_idx = 2", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(run_cmd(out, sizeof out, "%s rate --db %s/t.sqlite --method morita 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "damaged database: set 2"));
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/t.sqlite --playouts 200 --quiet 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "damaged database: set 2"));
    /* bad input */
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength 2>&1", D), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/t.sqlite --playout best 2>&1", D, dir), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/missing.sqlite 2>&1", D, dir), 1);
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --help", D), 0);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strong_hands),
        cmocka_unit_test(test_deterministic_for_the_seed),
        cmocka_unit_test(test_store_and_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

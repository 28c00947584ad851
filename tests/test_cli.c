/* test_cli.c — the command line as a user meets it: --help on every command, one-line
 * errors with a non-zero exit for bad input, JSON next to the table, same seed -> same
 * output, and make demo's one line a step. */
#include "testutil.h"

static char out[1 << 16];

/* Every command answers --help with a usage text and exit 0. */
static void test_help_everywhere(void **state)
{
    (void)state;
    assert_int_equal(run_cmd(out, sizeof out, "%s --help", dhm_bin()), 0);
    assert_non_null(strstr(out, "usage: dhm"));
    /* the command list printed by --help is the list we check */
    const char *p = strstr(out, "commands:");
    assert_non_null(p);
    int n = 0;
    char name[32];
    for (p = strchr(p, '\n') + 1; sscanf(p, " %31s", name) == 1 && *p == ' '; p = strchr(p, '\n') + 1) {
        char o2[4096];
        char o3[4096], o4[4096];
        assert_int_equal(run_cmd(o2, sizeof o2, "%s %s --help", dhm_bin(), name), 0);
        if (!strstr(o2, "usage: dhm"))
            fail_msg("dhm %s --help does not print a usage line", name);
        /* -h and `dhm help CMD` say the same */
        assert_int_equal(run_cmd(o3, sizeof o3, "%s %s -h", dhm_bin(), name), 0);
        assert_int_equal(run_cmd(o4, sizeof o4, "%s help %s", dhm_bin(), name), 0);
        if (strcmp(o2, o3) || strcmp(o2, o4))
            fail_msg("dhm %s: --help, -h and dhm help %s differ", name, name);
        n++;
    }
    assert_true(n >= 2);
    /* and every experiment */
    assert_int_equal(run_cmd(out, sizeof out, "%s experiment --help", dhm_bin()), 0);
    assert_non_null(p = strstr(out, "experiments:"));
    n = 0;
    for (p = strchr(p, '\n') + 1; sscanf(p, " %31s", name) == 1 && *p == ' '; p = strchr(p, '\n') + 1) {
        char o2[4096];
        char o3[4096];
        assert_int_equal(run_cmd(o2, sizeof o2, "%s experiment %s --help", dhm_bin(), name), 0);
        if (!strstr(o2, "usage: dhm experiment"))
            fail_msg("dhm experiment %s --help does not print a usage line", name);
        assert_int_equal(run_cmd(o3, sizeof o3, "%s help experiment %s", dhm_bin(), name), 0);
        assert_string_equal(o2, o3);
        n++;
    }
    assert_true(n >= 4);
    assert_int_equal(run_cmd(out, sizeof out, "%s frobnicate 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(out, "unknown command"));
}

/* One line, naming the problem, exit status 2. */
static void expect_usage_error(const char *args, const char *needle)
{
    int rc = run_cmd(out, sizeof out, "%s %s 2>&1", dhm_bin(), args);
    if (rc != 2 || !strstr(out, needle))
        fail_msg("dhm %s: exit %d, output '%s' (want 2 and '%s')", args, rc, out, needle);
    int lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    if (lines != 1)
        fail_msg("dhm %s: %d lines of error output: '%s'", args, lines, out);
}

static void test_play_bad_input(void **state)
{
    (void)state;
    expect_usage_error("play --players simple,simple", "exactly five");
    expect_usage_error("play --players simple,simple,simple,simple,frob", "unknown player kind 'frob'");
    expect_usage_error("play --players simple,simple,simple,simple,random:x=1", "unknown option 'x'");
    expect_usage_error("play --players simple,simple,simple,simple,random:x", "expected key=value");
    expect_usage_error("play --games 0", "--games");
    expect_usage_error("play --games lots", "--games");
    expect_usage_error("play --seed -3", "--seed");
    expect_usage_error("play --seat-change -1", "--seat-change");
    expect_usage_error("play extra", "unexpected argument");
    int rc = run_cmd(out, sizeof out, "%s play --games 5 --record /nonexistent/dir/x.kifu 2>&1", dhm_bin());
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "cannot write"));
}

static void test_play_json_and_determinism(void **state)
{
    (void)state;
    char a[8192], b[8192];
    assert_int_equal(run_cmd(a, sizeof a, "%s play --games 300 --seed 7 --json --quiet", dhm_bin()), 0);
    assert_int_equal(run_cmd(b, sizeof b, "%s play --games 300 --seed 7 --json --quiet", dhm_bin()), 0);
    /* identical apart from the timing field */
    char *ta = strstr(a, "\"seconds\""), *tb = strstr(b, "\"seconds\"");
    assert_non_null(ta);
    assert_non_null(tb);
    assert_memory_equal(a, b, (size_t)(ta - a));
    assert_string_equal(strstr(ta, "\"stalemates\""), strstr(tb, "\"stalemates\""));
    assert_non_null(strstr(a, "\"games\": 300"));
    /* totals add up to 15 points a game */
    long sum = 0;
    for (const char *p = strstr(a, "\"total\": "); p; p = strstr(p + 1, "\"total\": "))
        sum += atol(p + 9);
    assert_int_equal(sum, 4500);
    /* a different seed gives different games */
    assert_int_equal(run_cmd(b, sizeof b, "%s play --games 300 --seed 8 --json --quiet", dhm_bin()), 0);
    assert_string_not_equal(strstr(a, "\"players\""), strstr(b, "\"players\""));
}

/* The `class`, `seat` and `dealt` lines of every game of a kifu file, in order, into buf. */
static void starts_of(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    size_t k = 0;
    buf[0] = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "class ", 6) || !strncmp(line, "seat ", 5) || !strncmp(line, "dealt ", 6))
            k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s", line);
    fclose(f);
    assert_true(k > 0 && k < size);
}

/* --independent: every game starts alike (hands, seats, classes) whoever plays, and its classes
 * are drawn, not the last game's finishing order; with --class-reset 1, no classes at all. */
static void test_independent_games(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    static const char *const PLAYERS[2] = {"random,simple,random,simple,random", "policy,policy,simple,mc:sims=20,random"};
    for (int k = 0; k < 2; k++)
        assert_int_equal(run_cmd(NULL, 0, "%s play --players %s --games 60 --seed 5 --independent --record %s/i%d.kifu "
                                          "--quiet >/dev/null 2>&1",
                                 dhm_bin(), PLAYERS[k], dir, k),
                         0);
    static char a[1 << 17], b[1 << 17];
    char path[128];
    snprintf(path, sizeof path, "%s/i0.kifu", dir);
    starts_of(path, a, sizeof a);
    snprintf(path, sizeof path, "%s/i1.kifu", dir);
    starts_of(path, b, sizeof b);
    assert_string_equal(a, b);
    /* every game has the exchange (a match's first game has none), and the classes are drawn:
     * not the previous game's finishing order */
    char dealt0[2048];
    snprintf(path, sizeof path, "%s/i0.kifu", dir);
    assert_int_equal(run_cmd(dealt0, sizeof dealt0, "grep -c '^changed { } { } { } { } { }' %s", path), 1);
    assert_string_equal(dealt0, "0\n");
    assert_int_equal(run_cmd(NULL, 0, "%s play --players %s --games 60 --seed 5 --record %s/m.kifu --quiet >/dev/null 2>&1",
                             dhm_bin(), PLAYERS[0], dir),
                     0);
    snprintf(path, sizeof path, "%s/m.kifu", dir);
    starts_of(path, b, sizeof b);
    assert_string_not_equal(a, b);
    char line[256], result[256] = "";
    int follows = 0, games = 0;
    snprintf(path, sizeof path, "%s/i0.kifu", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "class ", 6)) {
            follows += *result && !strcmp(line + 6, result + 7);
            games++;
        } else if (!strncmp(line, "result ", 7)) {
            memcpy(result, line, sizeof result);
        }
    }
    fclose(f);
    assert_int_equal(games, 60);
    assert_true(follows < 10); /* a random class order repeats the last result 1 time in 120 */
    /* with --class-reset 1 every game is a first game: no exchange in any, and the same seats
     * and hands as with the classes */
    assert_int_equal(run_cmd(NULL, 0, "%s play --players %s --games 60 --seed 5 --independent --class-reset 1 --record "
                                      "%s/n.kifu --quiet >/dev/null 2>&1",
                             dhm_bin(), PLAYERS[0], dir),
                     0);
    snprintf(path, sizeof path, "%s/n.kifu", dir);
    assert_int_equal(run_cmd(dealt0, sizeof dealt0, "grep -c '^changed { } { } { } { } { }' %s", path), 0);
    assert_string_equal(dealt0, "60\n");
    char cmp[256];
    assert_int_equal(run_cmd(cmp, sizeof cmp, "cd %s && grep -E '^(seat|dealt) ' n.kifu > n.starts && grep -E '^(seat|dealt) ' "
                                              "i0.kifu > i0.starts && cmp n.starts i0.starts && wc -l < n.starts",
                             dir),
                     0);
    assert_string_equal(cmp, "120\n");
    /* --class0: player 0 starts every game as the daihinmin, and two runs with one seed still
     * start every game alike whoever plays */
    for (int k = 0; k < 2; k++)
        assert_int_equal(run_cmd(NULL, 0, "%s play --players %s --games 60 --seed 5 --independent --class0 daihinmin "
                                          "--record %s/c%d.kifu --quiet >/dev/null 2>&1",
                                 dhm_bin(), PLAYERS[k], dir, k),
                         0);
    snprintf(path, sizeof path, "%s/c0.kifu", dir);
    starts_of(path, a, sizeof a);
    snprintf(path, sizeof path, "%s/c1.kifu", dir);
    starts_of(path, b, sizeof b);
    assert_string_equal(a, b);
    assert_int_equal(run_cmd(cmp, sizeof cmp, "grep -c '^class 4 ' %s", path), 0);
    assert_string_equal(cmp, "60\n");
    assert_int_equal(run_cmd(cmp, sizeof cmp, "grep '^class ' %s | sort | uniq | wc -l", path), 0);
    assert_true(atoi(cmp) > 10); /* the others' classes still drawn */
    assert_int_equal(run_cmd(cmp, sizeof cmp, "%s play --class0 daihinmin --games 2 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(cmp, "--class0 needs --independent"));
    assert_int_equal(run_cmd(cmp, sizeof cmp, "%s play --independent --class0 king --games 2 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(cmp, "--class0: 'king'"));
    /* dhm serve takes it too (player 0: the first of --seats), and starts the games as play does */
    assert_int_equal(run_cmd(NULL, 0, "%s serve --port 0 --seats %s --games 60 --seed 5 --independent --class0 4 "
                                      "--record %s/s.kifu --quiet >/dev/null 2>&1",
                             dhm_bin(), PLAYERS[0], dir),
                     0);
    snprintf(path, sizeof path, "%s/s.kifu", dir);
    starts_of(path, b, sizeof b);
    assert_string_equal(a, b);
    assert_int_equal(run_cmd(cmp, sizeof cmp, "grep -c '^class 4 ' %s", path), 0);
    assert_string_equal(cmp, "60\n");
    assert_int_equal(run_cmd(cmp, sizeof cmp, "%s serve --class0 fugo --games 2 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(cmp, "dhm serve: --class0 needs --independent"));
    assert_int_equal(run_cmd(cmp, sizeof cmp, "%s serve --independent --class0 5 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(cmp, "dhm serve: --class0: '5'"));
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* Output that cannot be written is an error (exit 1 and a message), not a silent success with
 * a truncated table: stdout on a full disk. */
static void test_write_errors(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK)) {
        skip();
        return;
    }
    char dir[64], dhm[4096];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    assert_non_null(realpath(dhm_bin(), dhm));
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && printf 'a simple\\nb simple\\nc random\\nd random\\ne random\\n' "
                                              "> p.txt && %s tournament --pool p.txt --sets 3 --games 20 --records --db t.sqlite "
                                              "--quiet >/dev/null",
                             dir, dhm),
                     0);
    const char *cmds[] = {"records export --db t.sqlite --set 1", "rate --db t.sqlite --csv", "rate --db t.sqlite --json",
                          "records sets --db t.sqlite --csv", "play --games 300 --json --quiet",
                          "experiment virtual-game --sets 3 --games 10"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        int rc = run_cmd(out, sizeof out, "cd %s && %s %s 2>&1 >/dev/full", dir, dhm, cmds[i]);
        if (rc != 1 || !strstr(out, "error writing standard output"))
            fail_msg("dhm %s > /dev/full: exit %d, '%s'", cmds[i], rc, out);
    }
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* The lines of s, split in place (up to max); their count. */
static int split_lines(char *s, char **lines, int max)
{
    int n = 0;
    for (char *p = s; *p && n < max; n++) {
        lines[n] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            return n + 1;
        *nl = 0;
        p = nl + 1;
    }
    return n;
}

/* make demo prints one line a step (building, tournament, ratings, report); V=1 shows the real
 * commands, the compiler's too, and their output; an error prints in full. A small demo, built
 * in a copy of the build directory (the plain build's binary is linked again there, as make demo
 * does after a change) and writing nothing in the tree. */
static void test_demo_lines(void **state)
{
    (void)state;
    if (access("Makefile", R_OK) || access("tools/demo.sh", R_OK)) { /* not run from the repository */
        skip();
        return;
    }
    char dir[64], bdir[1024], o[128], d[128], want[512], *lines[64];
    snprintf(bdir, sizeof bdir, "%s", dhm_bin());
    char *slash = strrchr(bdir, '/');
    if (!slash) {
        skip();
        return;
    }
    *slash = 0;
    assert_non_null(test_tmpdir(dir, sizeof dir));
    snprintf(o, sizeof o, "%s/o", dir);
    snprintf(d, sizeof d, "%s/d", dir);
    assert_int_equal(run_cmd(out, sizeof out, "mkdir %s && cp -pR %s/obj %s/libdhm.a %s/dhm %s/ 2>&1", o, bdir, bdir, bdir, o),
                     0);
    /* only the plain build can be linked again with the Makefile's default flags */
    const int relink = !strcmp(bdir, "build");
    const char *make = "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS DHM_DEMO_SETS=3 DHM_DEMO_GAMES=6 make";
    if (relink)
        assert_int_equal(run_cmd(NULL, 0, "rm %s/dhm", o), 0);
    int rc = run_cmd(out, sizeof out, "%s demo O=%s DHM_DEMO_DIR=%s 2>&1", make, o, d);
    if (rc != 0)
        fail_msg("make demo: exit %d: %s", rc, out);
    int n = split_lines(out, lines, 64);
    if (n != 4)
        fail_msg("make demo printed %d lines, want 4 (one a step)", n);
    snprintf(want, sizeof want, "== building %s/dhm (V=1 shows the compiler commands)", o);
    assert_string_equal(lines[0], want);
    snprintf(want, sizeof want, "== tournament: 3 sets of 6 games (5 of 7 players a set): %s/demo.sqlite, %s/tournament.txt",
             d, d);
    assert_string_equal(lines[1], want);
    snprintf(want, sizeof want, "== ratings: %s/ratings.txt (set-wise TrueSkill, best first: ", d);
    assert_memory_equal(lines[2], want, strlen(want));
    static const char *const NAMES[] = {"mc100", "mc30s", "policy", "simple1", "simple2", "random1", "random2"};
    for (int i = 0; i < 7; i++)
        assert_non_null(strstr(lines[2] + strlen(want), NAMES[i]));
    snprintf(want, sizeof want, "== report: %s/report.html (open it in a browser)", d);
    assert_string_equal(lines[3], want);
    /* what the lines name is there */
    char f[256];
    snprintf(f, sizeof f, "%s/tournament.txt", d);
    assert_non_null(strstr(slurp_file(f), "3 sets stored: 3 ok"));
    snprintf(f, sizeof f, "%s/ratings.txt", d);
    assert_non_null(strstr(slurp_file(f), "mean squared error"));
    snprintf(f, sizeof f, "%s/report.html", d);
    assert_non_null(strstr(slurp_file(f), "</html>"));
    /* V=1: the commands as run (the link too, when it is redone) and their output */
    if (relink)
        assert_int_equal(run_cmd(NULL, 0, "rm %s/dhm", o), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s demo O=%s DHM_DEMO_DIR=%s V=1 2>&1", make, o, d), 0);
    snprintf(want, sizeof want, "-o %s/dhm ", o);
    if (relink && !strstr(out, want))
        fail_msg("make demo V=1 does not show the link command: %s", out);
    snprintf(want, sizeof want, "+ %s/dhm tournament --pool %s/pool.txt --sets 3 --games 6", o, d);
    assert_non_null(strstr(out, want));
    snprintf(want, sizeof want, "+ %s/dhm report --db %s/demo.sqlite", o, d);
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "3 sets stored: 3 ok"));
    assert_non_null(strstr(out, "mean squared error"));
    /* a step that fails: its error in full, and the demo stops there */
    rc = run_cmd(out, sizeof out, "%s demo O=%s DHM_DEMO_DIR=%s DHM_DEMO_SETS=0 2>&1", make, o, d);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(out, "dhm tournament: --sets: '0' is not an integer"));
    assert_non_null(strstr(out, "make demo: this step failed (exit 2)"));
    assert_null(strstr(out, "== ratings"));
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* Counts are said unambiguously (issue 24): the rating table of a store says how many sets and
 * how many games in all, never "N sets of <all the games> games"; virtual-game's help names the
 * rows its own output marks "not reproduced". */
static void test_count_labels(void **state)
{
    (void)state;
    static char o[1 << 14];
    assert_int_equal(run_cmd(o, sizeof o, "%s experiment rating-study --sets 6 --set-games 5 --quiet", dhm_bin()), 0);
    assert_non_null(strstr(o, "6 sets of 5 games"));      /* the study's header: per set */
    assert_non_null(strstr(o, "\n6 sets (30 games in all), 9 players\n")); /* the rating table's */
    assert_null(strstr(o, "6 sets of 30 games"));
    assert_int_equal(run_cmd(o, sizeof o, "%s experiment virtual-game --help", dhm_bin()), 0);
    assert_null(strstr(o, "reproduces the paper's"));
    static char h[1 << 14];
    memcpy(h, o, sizeof h);
    assert_int_equal(run_cmd(o, sizeof o, "%s experiment virtual-game --log e 2>/dev/null", dhm_bin()), 0);
    /* every ln row the run marks is one the help names, and the help's count is the run's */
    static const char *const marked[][2] = {{"none     corrected+noise", "none with noise"},
                                            {"binary   elo ", "binary plain"},
                                            {"binary   corrected+noise", "binary with noise"}};
    int n = 0;
    for (const char *l = o; (l = strstr(l, "not reproduced")); l++)
        n++;
    assert_int_equal(n, 3 + 1); /* three rows and the closing line */
    for (int i = 0; i < 3; i++) {
        const char *row = strstr(o, marked[i][0]);
        assert_non_null(row);
        const char *eol = strchr(row, '\n');
        assert_true(strstr(row, "not reproduced") && strstr(row, "not reproduced") < eol);
        assert_non_null(strstr(h, marked[i][1]));
    }
}

/* tools/doc_tables.sh: every experiment has a job; --quick runs the named jobs end to end and
 * each output states the commit, the command and the seeds; a failing job fails the script. */
static void test_doc_tables(void **state)
{
    (void)state;
    static char o[1 << 15], l[1 << 14];
    assert_int_equal(run_cmd(l, sizeof l, "sh tools/doc_tables.sh --list"), 0);
    assert_int_equal(run_cmd(o, sizeof o, "%s experiment --help", dhm_bin()), 0);
    const char *p = strstr(o, "experiments:");
    assert_non_null(p);
    char name[32];
    int n = 0;
    for (p = strchr(p, '\n') + 1; sscanf(p, " %31s", name) == 1 && *p == ' '; p = strchr(p, '\n') + 1, n++) {
        char n1[64], n2[64];
        snprintf(n1, sizeof n1, "experiment %s ", name);
        snprintf(n2, sizeof n2, "experiment %s\n", name);
        if (!strstr(l, n1) && !strstr(l, n2))
            fail_msg("tools/doc_tables.sh has no job running dhm experiment %s", name);
    }
    assert_true(n >= 9);
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    assert_int_equal(run_cmd(o, sizeof o, "DHM=%s sh tools/doc_tables.sh --quick --out %s virtual-game ninja 2>&1",
                             dhm_bin(), dir),
                     0);
    char path[128];
    snprintf(path, sizeof path, "%s/virtual-game.txt", dir);
    const char *v = slurp_file(path);
    assert_non_null(v);
    assert_non_null(strstr(v, "# commit "));
    assert_non_null(strstr(v, "# command: $DHM experiment virtual-game --sets 20 --games 100\n"));
    assert_non_null(strstr(v, "# seeds: 1\n"));
    assert_non_null(strstr(v, "exit status 0\n"));
    assert_non_null(strstr(v, "virtual game (paper 002"));
    snprintf(path, sizeof path, "%s/README.md", dir);
    const char *r = slurp_file(path);
    assert_non_null(r);
    assert_non_null(strstr(r, "| ninja | docs/players.md | 1 | ok |"));
    assert_null(strstr(r, "| bandits |")); /* only the jobs named */
    /* a failing job: exit 1, FAILED in the index, its error in its file */
    assert_int_equal(run_cmd(o, sizeof o, "DHM=/bin/false sh tools/doc_tables.sh --quick --out %s virtual-game 2>&1",
                             dir),
                     1);
    r = slurp_file(path);
    assert_non_null(strstr(r, "| virtual-game | docs/rating.md | 1 | FAILED (exit 1) |"));
    assert_int_equal(run_cmd(o, sizeof o, "sh tools/doc_tables.sh --quick frob 2>&1"), 2);
    assert_non_null(strstr(o, "no job named 'frob'"));
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_everywhere),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test(test_play_bad_input),
        cmocka_unit_test(test_play_json_and_determinism),
        cmocka_unit_test(test_independent_games),
        cmocka_unit_test(test_demo_lines),
        cmocka_unit_test(test_count_labels),
        cmocka_unit_test(test_doc_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ladder.c — bench/ladder.sh's plumbing, with `dhm connect` processes standing in for the
 * external UECda clients (make check never needs the real ones): without clients it skips with
 * a message and exit 0; a field whose client is missing, or a bad option, is a one-line error
 * with exit 2; every client lands in its own seat and every game is counted (a served mixed
 * field of stand-ins equals `dhm play` with the same seed, seat for seat, and so do its points
 * by the class each seat started a game in); a client's non-zero
 * exit status makes the field "not clean" and the script exit 3; --pool reports kept runs as one. */
#include "testutil.h"

static char out[1 << 16];
static char dhm[4096];

static const char *const VARS[] = {"DHM_LADDER_KLEINBLAUW", "DHM_LADDER_BLAUWEREGEN", "DHM_LADDER_DEVKIT",
                                   "DHM_LADDER_OTHER", "DHM_LADDER_OTHER_NAME"};

static void clear_clients(void)
{
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++)
        unsetenv(VARS[i]);
}

/* A stand-in client: a dhm player joining on the port the script fills in. */
static void stand_in(const char *var, const char *player, int seed)
{
    char cmd[4600];
    snprintf(cmd, sizeof cmd, "%s connect --host {host} --port {port} --player %s --seed %d --quiet", dhm, player, seed);
    setenv(var, cmd, 1);
}

static int setup(void **state)
{
    (void)state;
    if (!realpath(dhm_bin(), dhm))
        return -1;
    setenv("DHM", dhm, 1);
    return 0;
}

static void test_skips_without_clients(void **state)
{
    (void)state;
    clear_clients();
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/ladder.sh 2>&1"), 0);
    assert_non_null(strstr(out, "skipped"));
    assert_non_null(strstr(out, "DHM_LADDER_KLEINBLAUW"));
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/ladder.sh --help"), 0);
    assert_non_null(strstr(out, "usage: bench/ladder.sh"));
}

/* One line naming the problem, exit 2. */
static void expect_error(const char *args, const char *needle)
{
    int rc = run_cmd(out, sizeof out, "sh bench/ladder.sh %s 2>&1", args);
    int lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    if (rc != 2 || !strstr(out, needle) || lines != 1)
        fail_msg("ladder.sh %s: exit %d, output '%s' (want 2, one line, '%s')", args, rc, out, needle);
}

static void test_bad_input(void **state)
{
    (void)state;
    clear_clients();
    expect_error("-f kleinblauw", "needs DHM_LADDER_KLEINBLAUW");
    expect_error("-f mixed", "DHM_LADDER_BLAUWEREGEN");
    stand_in("DHM_LADDER_KLEINBLAUW", "simple", 1);
    expect_error("-f kleinblauw -g 0", "--games");
    expect_error("-f kleinblauw -g many", "--games");
    expect_error("-f frob", "unknown field 'frob'");
    expect_error("-f dhm+kleinblauw", "unknown field");
    expect_error("--frob", "unknown option '--frob'");
    expect_error("--server tndhms", "--server must be dhm or official");
    expect_error("--server official", "DHM_LADDER_SERVER");
    expect_error("-g", "needs a value");
    clear_clients();
}

/* The values of one JSON key, in order. */
static int json_numbers(const char *json, const char *key, double *v, int max)
{
    int n = 0;
    size_t k = strlen(key);
    for (const char *p = strstr(json, key); p && n < max; p = strstr(p + k, key))
        v[n++] = atof(p + k);
    return n;
}

/* The mixed field with five different stand-ins: each seat's points per game equal dhm play's
 * for the same players and seed, so no client took another's seat and no game was lost; the
 * CSV written next to it has a row per seat and one for the server. */
/* The next JSON array after key in a seat's row: five numbers, null on the diagonal (seat i),
 * read into v. Returns where the array ended. */
static const char *seat_row(const char *a, const char *key, int i, double v[5])
{
    assert_non_null(a = strstr(a, key));
    a += strlen(key);
    for (int j = 0; j < 5; j++) {
        char *end = (char *)a + 4; /* "null" */
        v[j] = i == j ? 0 : strtod(a, &end);
        a = end + 2;
    }
    return a;
}

static void test_mixed_field_equals_play(void **state)
{
    (void)state;
    clear_clients();
    stand_in("DHM_LADDER_BLAUWEREGEN", "random", 3);
    stand_in("DHM_LADDER_KLEINBLAUW", "policy", 3);
    stand_in("DHM_LADDER_DEVKIT", "random", 3);
    stand_in("DHM_LADDER_OTHER", "simple", 3);
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    int rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p simple -f mixed --mixed-games 40 -s 3 -b 8 --json --out %s/r --keep %s/k 2>/dev/null",
                     dir, dir);
    if (rc != 0)
        fail_msg("ladder.sh: exit %d, '%s'", rc, out);
    assert_non_null(strstr(out, "\"field\": \"mixed\""));
    assert_non_null(strstr(out, "\"games\": 40"));
    assert_non_null(strstr(out, "\"clean\": true"));
    assert_non_null(strstr(out, "\"blocks\": 5"));
    double got[8], cpu[8], ex[8];
    assert_int_equal(json_numbers(out, "\"points_per_game\": ", got, 8), 5);
    assert_int_equal(json_numbers(out, "\"exit_status\": ", ex, 8), 6); /* the server and five seats */
    for (int i = 0; i < 6; i++)
        assert_true(ex[i] == 0);
    assert_int_equal(json_numbers(out, "\"cpu_s_per_game\": ", cpu, 8), 6);
    for (int i = 0; i < 6; i++)
        assert_true(cpu[i] >= 0);

    char play[8192];
    assert_int_equal(run_cmd(play, sizeof play, "%s play --players simple,random,policy,random,simple --games 40 --seed 3 --json --quiet",
                             dhm),
                     0);
    double want[8];
    assert_int_equal(json_numbers(play, "\"mean\": ", want, 8), 5);
    double sum = 0;
    for (int i = 0; i < 5; i++) {
        NEAR(got[i], want[i], 1e-4);
        sum += got[i];
    }
    NEAR(sum, 15, 1e-3);

    /* points by the class each seat started the game in: 40 match games, one class reset (game
     * 1), then each seat starts in the class it finished the game before in. So seat i's starts
     * in classes are its finishes in the first 39 games (dhm play's "classes", daifugo first, of
     * the same match cut at 39 games), and the means add up to its points. */
    assert_int_equal(run_cmd(play, sizeof play, "%s play --players simple,random,policy,random,simple --games 39 --seed 3 --json --quiet",
                             dhm),
                     0);
    const char *b = out, *fc = play;
    int ncls[5] = {0};
    for (int i = 0; i < 5; i++) {
        double n[6], fin[5], pts = 0;
        int games = 0;
        assert_non_null(b = strstr(b, "\"by_start_class\": {"));
        b += 10;
        assert_int_equal(sscanf(strstr(b, "\"games\": ["), "\"games\": [%lf, %lf, %lf, %lf, %lf, %lf]", &n[0], &n[1], &n[2], &n[3],
                                &n[4], &n[5]),
                         6);
        const char *pp = strstr(b, "\"mean_points\": [") + strlen("\"mean_points\": [");
        assert_non_null(fc = strstr(fc, "\"classes\": ["));
        fc += strlen("\"classes\": [");
        assert_int_equal(sscanf(fc, "%lf, %lf, %lf, %lf, %lf]", &fin[0], &fin[1], &fin[2], &fin[3], &fin[4]), 5);
        for (int k = 0; k < 6; k++) {
            char *end = (char *)pp + 4;
            if (n[k] == 0)
                assert_true(strncmp(pp, "null", 4) == 0);
            else
                pts += n[k] * strtod(pp, &end);
            pp = end + 2;
            games += (int)n[k];
            if (k < 5) {
                assert_true(fin[k] == n[k]);
                ncls[k] += (int)n[k];
            }
        }
        assert_int_equal(games, 40);
        assert_true(n[5] == 1);
        NEAR(pts / 40, got[i], 1e-3);
    }
    for (int k = 0; k < 5; k++)
        assert_int_equal(ncls[k], 39);

    /* the files next to it: the CSV's header, five seats and the server */
    char path[128];
    snprintf(path, sizeof path, "%s/r.csv", dir);
    const char *csv = slurp_file(path);
    assert_true(strncmp(csv, "field,server,seed,games,", 24) == 0);
    int lines = 0;
    for (const char *c = csv; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 7);
    assert_non_null(strstr(csv, "mixed,dhm,3,40,"));
    snprintf(path, sizeof path, "%s/r.json", dir);
    assert_non_null(strstr(slurp_file(path), "\"finished_above\": [null, "));

    /* the points each seat is ahead of each other, game by game: the difference of the two
     * means, and its SE over the 5 blocks of 8 games, recomputed here from the kept classes */
    snprintf(path, sizeof path, "%s/k/mixed/classes.txt", dir);
    const char *cls = slurp_file(path);
    int c[40][5], off = 0;
    for (int g = 0; g < 40; g++)
        for (int i = 0; i < 5; i++) {
            int n = 0;
            assert_int_equal(sscanf(cls + off, "%d%n", &c[g][i], &n), 1);
            off += n;
        }
    double ah[25], se[25];
    const char *a = out;
    for (int i = 0; i < 5; i++) {
        a = seat_row(a, "\"ahead\": [", i, ah + 5 * i);
        a = seat_row(a, "\"se_ahead\": [", i, se + 5 * i);
    }
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            if (i == j)
                continue;
            double bm[5] = {0}, m = 0, v = 0;
            for (int g = 0; g < 40; g++)
                bm[g / 8] += (c[g][j] - c[g][i]) / 8.0;
            for (int k = 0; k < 5; k++)
                m += bm[k] / 5;
            for (int k = 0; k < 5; k++)
                v += (bm[k] - m) * (bm[k] - m) / 4;
            NEAR(ah[5 * i + j], got[i] - got[j], 2e-4);
            NEAR(ah[5 * i + j], m, 2e-4);
            NEAR(se[5 * i + j], sqrt(v / 5), 2e-4);
        }
    assert_true(se[1] > 0); /* the two seats differ in some block */
    run_cmd(NULL, 0, "rm -rf %s", dir);
    clear_clients();
}

/* Two fields in one run: each is reported whole, in the table, the CSV and the JSON (the report
 * loops over the fields and over the classes inside them). */
static void test_two_fields(void **state)
{
    (void)state;
    clear_clients();
    stand_in("DHM_LADDER_KLEINBLAUW", "policy", 3);
    stand_in("DHM_LADDER_DEVKIT", "simple", 3);
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    int rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p random -f kleinblauw,devkit -g 20 -s 3 --out %s/r 2>/dev/null", dir);
    if (rc != 0 || !strstr(out, "field kleinblauw: 20 games") || !strstr(out, "field devkit: 20 games"))
        fail_msg("ladder.sh, two fields: exit %d, '%s'", rc, out);
    int tables = 0;
    for (const char *p = out; (p = strstr(p, "by the class the seat started")); p++)
        tables++;
    assert_int_equal(tables, 2);
    char path[128];
    snprintf(path, sizeof path, "%s/r.json", dir);
    const char *json = slurp_file(path);
    int seats = 0;
    for (const char *p = json; (p = strstr(p, "\"by_start_class\": {")); p++)
        seats++;
    assert_int_equal(seats, 10);
    assert_non_null(strstr(json, "\"field\": \"devkit\""));
    snprintf(path, sizeof path, "%s/r.csv", dir);
    const char *csv = slurp_file(path);
    assert_non_null(strstr(csv, "\ndevkit,dhm,3,20,"));
    assert_non_null(strstr(csv, "\nkleinblauw,dhm,3,20,"));
    run_cmd(NULL, 0, "rm -rf %s", dir);
    clear_clients();
}

/* A client that plays the whole match but exits 7: the field is reported, not clean, with the
 * seat named, and the script exits 3. */
static void test_client_exit_status_is_checked(void **state)
{
    (void)state;
    clear_clients();
    char cmd[4600];
    snprintf(cmd, sizeof cmd, "sh -c '%s connect --port \"$0\" --player random --quiet; exit 7' {port}", dhm);
    setenv("DHM_LADDER_DEVKIT", cmd, 1);
    int rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p simple -f devkit -g 12 2>&1");
    if (rc != 3 || !strstr(out, "NOT CLEAN") || !strstr(out, "exited 7"))
        fail_msg("ladder.sh with a client exiting 7: exit %d, '%s' (want 3, NOT CLEAN, exited 7)", rc, out);
    assert_non_null(strstr(out, "field devkit: 12 games"));
    clear_clients();
}

/* --versus: both runs start every game alike (dhm serve --independent, one seed), so a
 * deterministic player against itself differs by exactly 0 with a paired SE of 0, while the
 * unpaired SE is not 0; simple against random gains, with and without the exchange
 * (--no-exchange: every game a first game, said in the JSON). */
static void test_versus_is_paired(void **state)
{
    (void)state;
    clear_clients();
    stand_in("DHM_LADDER_KLEINBLAUW", "simple", 3);
    double v[4];
    for (int nx = 0; nx < 2; nx++) {
        int rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p simple -q simple -f kleinblauw -g 30 -s 3 --json%s 2>/dev/null",
                         nx ? " --no-exchange" : "");
        if (rc != 0)
            fail_msg("ladder.sh --versus: exit %d, '%s'", rc, out);
        assert_non_null(strstr(out, nx ? "\"exchange\": false" : "\"exchange\": true"));
        assert_int_equal(json_numbers(out, "\"games\": ", v, 4), 1);
        assert_true(v[0] == 30);
        assert_int_equal(json_numbers(out, "\"difference\": ", v, 4), 1);
        assert_true(v[0] == 0);
        assert_int_equal(json_numbers(out, "\"se_difference\": ", v, 4), 1);
        assert_true(v[0] == 0);
        assert_int_equal(json_numbers(out, "\"se_unpaired\": ", v, 4), 1);
        assert_true(v[0] > 0.1);
        char dir[64];
        assert_non_null(test_tmpdir(dir, sizeof dir));
        rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p simple -q random -f kleinblauw -g 60 -s 3 --keep %s/k%s 2>/dev/null",
                     dir, nx ? " --no-exchange" : "");
        if (rc != 0 || !strstr(out, "paired, field kleinblauw: 60 games, every game started alike for both") ||
            !strstr(out, nx ? "(independent games, no exchange, seed as above)" : "(independent games, seed as above)"))
            fail_msg("ladder.sh --versus: exit %d, '%s'", rc, out);
        const char *d = strstr(out, "A - B = +");
        assert_non_null(d); /* simple is better than random by far */
        assert_true(atof(d + 8) > 0.5);
        for (int run = 0; run < 2; run++) { /* games without an exchange: all of them, or (independent) none */
            char n[64];
            assert_int_equal(run_cmd(n, sizeof n, "grep -c '^changed { } { } { } { } { }' '%s/k/kleinblauw:%c/games.kifu'",
                                     dir, "AB"[run]),
                             nx ? 0 : 1);
            assert_int_equal(atoi(n), nx ? 60 : 0);
        }
        run_cmd(NULL, 0, "rm -rf %s", dir);
    }
    /* a field of dhm players whose specs hold colons of their own (in-process seats) */
    int rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p simple -q simple -f dhm+simple+policy:model=fast+simple+random "
                                      "-g 20 -s 3 --local 2>/dev/null");
    if (rc != 0 || !strstr(out, "paired, field dhm+simple+policy:model=fast+simple+random: 20 games") ||
        !strstr(out, "A - B = +0.000 +- 0.000"))
        fail_msg("ladder.sh --versus, a field with colons: exit %d, '%s'", rc, out);
    /* --class0: seat 0 starts every game of both runs as the daihinmin, said in the output */
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p simple -q random -f kleinblauw -g 30 -s 3 --class0 daihinmin --keep %s/k "
                                  "2>/dev/null", dir);
    if (rc != 0 || !strstr(out, "(independent games, seat 0 in class daihinmin, seed as above)"))
        fail_msg("ladder.sh --class0: exit %d, '%s'", rc, out);
    for (int run = 0; run < 2; run++) {
        char n[64];
        assert_int_equal(run_cmd(n, sizeof n, "grep -c '^class 4 ' '%s/k/kleinblauw:%c/games.kifu'", dir, "AB"[run]), 0);
        assert_int_equal(atoi(n), 30);
    }
    run_cmd(NULL, 0, "rm -rf %s", dir);
    rc = run_cmd(out, sizeof out, "sh bench/ladder.sh -p simple -f kleinblauw -g 20 -s 3 --class0 1 --json 2>/dev/null");
    if (rc != 0 || !strstr(out, "\"class0\": \"1\"") || !strstr(out, "\"by_start_class\": null"))
        fail_msg("ladder.sh --class0 --json: exit %d, '%s'", rc, out); /* independent games: no start classes */
    expect_error("-f kleinblauw --class0 king", "--class0 must be 0-4");
    expect_error("-f kleinblauw --class0 4 --no-exchange", "--class0 needs the exchange");
    setenv("DHM_LADDER_SERVER", "/bin/true", 1);
    expect_error("-f kleinblauw --class0 4 --server official", "--class0 needs --server dhm");
    expect_error("-f kleinblauw --no-exchange --server official", "--no-exchange needs --server dhm");
    unsetenv("DHM_LADDER_SERVER");
    clear_clients();
}

/* --pool: one kept run re-reported is its own JSON, byte for byte; two runs pooled are their
 * games together (points the mean of the two, blocks of each run apart, seeds joined); paired
 * runs pool pair by pair; runs of other players or another format, a directory given twice and
 * play options are one-line errors. */
static void test_pool(void **state)
{
    (void)state;
    clear_clients();
    stand_in("DHM_LADDER_KLEINBLAUW", "simple", 3);
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    static char one[1 << 15], two[1 << 15];
    double p1[8], p2[8], pp[8], v[8];
    assert_int_equal(run_cmd(one, sizeof one, "sh bench/ladder.sh -p random -f kleinblauw -g 20 -s 3 --json --keep %s/k1 2>/dev/null", dir), 0);
    assert_int_equal(run_cmd(two, sizeof two, "sh bench/ladder.sh -p random -f kleinblauw -g 20 -s 4 --json --keep %s/k2 2>/dev/null", dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/ladder.sh --pool %s/k1 --json", dir), 0);
    assert_string_equal(out, one);
    assert_int_equal(json_numbers(one, "\"points_per_game\": ", p1, 8), 5);
    assert_int_equal(json_numbers(two, "\"points_per_game\": ", p2, 8), 5);
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/ladder.sh --pool %s/k1 %s/k2 --json -b 8", dir, dir), 0);
    assert_non_null(strstr(out, "\"seed\": \"3+4\", \"games\": 40,"));
    assert_non_null(strstr(out, "\"blocks\": 4,")); /* 2 + 2 blocks of 8: none spans the two runs */
    assert_int_equal(json_numbers(out, "\"points_per_game\": ", pp, 8), 5);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(pp[i] - (p1[i] + p2[i]) / 2) < 1e-4);
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/ladder.sh --pool %s/k1 %s/k2", dir, dir), 0);
    if (!strstr(out, "pooled: 2 kept runs under ") || !strstr(out, "field kleinblauw: 40 games on dhm serve (seed 3+4)"))
        fail_msg("ladder.sh --pool, the table: '%s'", out);
    /* a run that was not clean makes the pool not clean (exit 3), its problem tagged with its seed */
    assert_int_equal(run_cmd(NULL, 0, "sed -i 's/\tyes\t\t/\tno\tserver exited 1\t/' %s/k2/kleinblauw/seats.tsv", dir), 0);
    int rc = run_cmd(out, sizeof out, "sh bench/ladder.sh --pool %s/k2 %s/k1", dir, dir); /* the first run tagged too */
    if (rc != 3 || !strstr(out, "NOT CLEAN: seed 4: server exited 1"))
        fail_msg("ladder.sh --pool, a run not clean: exit %d, '%s'", rc, out);
    /* paired runs: the pooled difference is the two runs' mean (as many games in each) */
    double d[2];
    for (int r = 0; r < 2; r++) {
        assert_int_equal(run_cmd(one, sizeof one, "sh bench/ladder.sh -p simple -q random -f kleinblauw -g 20 -s %d --json --keep %s/v%d "
                                                  "2>/dev/null", 5 + r, dir, r), 0);
        assert_int_equal(json_numbers(one, "\"difference\": ", v, 8), 1);
        d[r] = v[0];
    }
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/ladder.sh --pool %s/v0 %s/v1 --json", dir, dir), 0);
    assert_int_equal(json_numbers(out, "\"games\": ", v, 8), 1);
    assert_true(v[0] == 40);
    assert_int_equal(json_numbers(out, "\"difference\": ", v, 8), 1);
    assert_true(fabs(v[0] - (d[0] + d[1]) / 2) < 1e-4);
    assert_int_equal(run_cmd(NULL, 0, "sh bench/ladder.sh -p simple -f kleinblauw -g 10 -s 3 --keep %s/k3 >/dev/null 2>&1", dir), 0);
    char args[256];
    snprintf(args, sizeof args, "--pool %s/k1 %s/k3", dir, dir);
    expect_error(args, "seat 0: dhm random in one run and dhm simple in another");
    snprintf(args, sizeof args, "--pool %s/k1 %s/v0", dir, dir);
    expect_error(args, "was played in another format");
    snprintf(args, sizeof args, "--pool %s/k1 %s/k1/", dir, dir);
    expect_error(args, "is given twice");
    snprintf(args, sizeof args, "--pool %s/k1 -g 10", dir);
    expect_error(args, "-g does not go with it");
    expect_error("--pool /nonexistent/dir", "is not a directory");
    expect_error("--pool", "needs the directories");
    run_cmd(NULL, 0, "rm -rf %s", dir);
    clear_clients();
}

/* bench/paired.sh: a player against itself on the same games differs by exactly 0 (paired SE 0);
 * two different players' points equal the same games played by `dhm play --independent` (one
 * piece, seed S); the points files of --keep pair up; --match reports batch means; bad options
 * exit 2 with the usage line. */
static void test_paired_script(void **state)
{
    (void)state;
    char dir[] = "/tmp/dhm_paired_XXXXXX";
    assert_non_null(mkdtemp(dir));
    int rc = run_cmd(out, sizeof out, "sh bench/paired.sh -g 40 -s 5 -o simple policy policy 2>&1");
    if (rc != 0 || !strstr(out, "paired in-process: 40 independent games, seat 0 against 4 x simple") ||
        !strstr(out, "A - B = +0.000 +- 0.000"))
        fail_msg("paired.sh, a player against itself: exit %d, '%s'", rc, out);
    rc = run_cmd(out, sizeof out, "sh bench/paired.sh -g 40 -s 5 -o simple --keep %s --csv policy random 2>&1", dir);
    if (rc != 0 || !strstr(out, "a,b,opponent,format,games,a_mean"))
        fail_msg("paired.sh --csv: exit %d, '%s'", rc, out);
    double am = 0, bm = 0;
    const char *row = strstr(out, "\"policy\",\"random\",\"simple\",independent,40,");
    assert_non_null(row);
    assert_int_equal(sscanf(row, "\"policy\",\"random\",\"simple\",independent,40,%lf,%*f,%lf", &am, &bm), 2);
    /* the same games through dhm play: seat 0's total / 40 */
    char play[1 << 14];
    assert_int_equal(run_cmd(play, sizeof play, "%s play --players policy,simple,simple,simple,simple --games 40 --seed 5 "
                                                "--independent --json --quiet", dhm), 0);
    const char *t = strstr(play, "\"total\": ");
    assert_non_null(t);
    assert_true(fabs(atof(t + 9) / 40 - am) < 1e-9);
    char n[64];
    assert_int_equal(run_cmd(n, sizeof n, "cat %s/policy.points %s/random.points | wc -l", dir, dir), 0);
    assert_int_equal(atoi(n), 80);
    rc = run_cmd(out, sizeof out, "sh bench/paired.sh -g 40 -s 5 -o simple --match policy random 2>&1");
    if (rc != 0 || !strstr(out, "40 games in matches (classes carry over)") || !strstr(out, "SE over 4 blocks of 10 games"))
        fail_msg("paired.sh --match: exit %d, '%s'", rc, out);
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/paired.sh -g x policy random 2>&1"), 2);
    assert_non_null(strstr(out, "whole numbers"));
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/paired.sh policy 2>&1"), 2);
    assert_non_null(strstr(out, "usage: "));
    assert_int_equal(run_cmd(out, sizeof out, "sh bench/paired.sh -g 4 policy mc:frob=1 2>&1"), 1);
    assert_non_null(strstr(out, "unknown option 'frob'"));
    (void)bm;
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skips_without_clients),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_mixed_field_equals_play),
        cmocka_unit_test(test_two_fields),
        cmocka_unit_test(test_client_exit_status_is_checked),
        cmocka_unit_test(test_versus_is_paired),
        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_paired_script),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

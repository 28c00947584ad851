/* test_tournament.c — `dhm tournament` and its store: results independent of --jobs,
 * --resume after SIGKILL ending identical to an uninterrupted run, sets with external
 * clients (a dhm connect child; one that exits at once; one that hangs), a run whose every
 * set is broken (what rate and report say then), duplicate seating, records export and
 * replay, dhm rate --db, and bad input that never harms stored data.
 * Run with --hang-client PORT, this binary is itself a UECda client that greets and then
 * never moves (for the hanging-client case). */
#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/socket.h>

#include "net/io.h"
#include "record/pack.h"
#include "record/store.h"

static char dir[64];
/* Marks in the command lines of this run's own test clients, so that other test runs on the
 * machine (with theirs) are never mistaken for them: "hang-PID", and "sleep 313.PID". */
static char hang_tag[32], sleep_tag[32];
static char self[1024];

static void path(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

static void write_file(const char *name, const char *text)
{
    char p[256];
    path(p, sizeof p, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The stored games of a records blob with the thinking times zeroed (times are measured, so
 * they differ from run to run; everything else must not), as hex. */
static void games_hex(const void *blob, int len, char *out, size_t cap)
{
    GameRecord *rec = malloc(sizeof *rec);
    /* pack_game wants room for its worst case (8 bytes a play); a stored play takes at least 4 */
    const size_t cap_again = 2 * (size_t)len + 1024;
    uint8_t *again = malloc(cap_again);
    size_t off = 0, k = 0, n = 0;
    assert_non_null(rec);
    assert_non_null(again);
    while (off < (size_t)len) {
        size_t used;
        assert_int_equal(unpack_game((const uint8_t *)blob + off, (size_t)len - off, PACK_FORMAT, rec, &used), 0);
        off += used;
        for (int i = 0; i < rec->nplays; i++)
            rec->plays[i].usec = 0;
        size_t w = pack_game(rec, again + k, cap_again - k);
        assert_true(w > 0);
        k += w;
    }
    for (size_t i = 0; i < k && n + 3 < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%02X", again[i]);
    free(rec);
    free(again);
}

/* Every stored row, in key order, without the timestamp columns (and game records without
 * their measured thinking times). */
static char *dump(const char *db)
{
    static const char *const q[] = {
        "SELECT command IS NOT NULL, seed, sets, games, seat_change, class_reset, pairing, duplicate, records, pool FROM runs",
        "SELECT * FROM players ORDER BY id",
        "SELECT idx, seed, status, note, games, dup_group, rotation FROM sets ORDER BY idx",
        "SELECT * FROM set_players ORDER BY set_idx, player_no",
        "SELECT set_idx, hex(classes) FROM set_games ORDER BY set_idx",
        "SELECT set_idx, data FROM records ORDER BY set_idx"};
    sqlite3 *h;
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    size_t cap = 1 << 20, n = 0;
    char *out = malloc(cap), *hex = malloc(1 << 22);
    out[0] = 0;
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(h, q[i], -1, &st, NULL), SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW)
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const char *t;
                if (sqlite3_column_type(st, c) == SQLITE_BLOB) {
                    games_hex(sqlite3_column_blob(st, c), sqlite3_column_bytes(st, c), hex, 1 << 22);
                    t = hex;
                } else {
                    t = (const char *)sqlite3_column_text(st, c);
                }
                size_t l = t ? strlen(t) : 4;
                if (n + l + 2 >= cap) {
                    cap = 2 * (n + l + 2);
                    out = realloc(out, cap);
                }
                n += (size_t)sprintf(out + n, "%s%c", t ? t : "NULL", c + 1 == sqlite3_column_count(st) ? '\n' : '|');
            }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    free(hex);
    return out;
}

/* Fails, showing the first line that differs (dumps are long), unless got equals want. */
static void same_dump(const char *what, const char *got, const char *want)
{
    if (!strcmp(got, want))
        return;
    const char *a = got, *b = want;
    long line = 1;
    for (; *a && *a == *b; a++, b++)
        line += *a == '\n';
    long col = 0;
    while (a > got && a[-1] != '\n' && col < 60)
        a--, b--, col++;
    fail_msg("%s: the stored rows differ at dump line %ld%s:\n  %.200s\nwant\n  %.200s", what, line,
             col == 60 ? " (from 60 characters before the first difference)" : "", a, b);
}

static long count_sets(const char *db)
{
    sqlite3 *h;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(h); /* a handle is allocated even when opening fails */
        return -1;
    }
    sqlite3_busy_timeout(h, 2000);
    sqlite3_stmt *st;
    long n = -1;
    if (sqlite3_prepare_v2(h, "SELECT count(*) FROM sets", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return n;
}

static const char *POOL = "# six built-in players\n"
                          "s1 simple\ns2 simple\nr1 random\nr2 random\nr3 random\nr4 random\n";

static void test_jobs_do_not_change_results(void **state)
{
    (void)state;
    char pool[512];
    snprintf(pool, sizeof pool, "%sm1 mc:bandit=ucb-v:sims=8\n", POOL); /* a Monte Carlo player too */
    write_file("pool.txt", pool);
    char out[8192];
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool pool.txt --sets 24 --games 200 --seed 9 "
                                              "--jobs 1 --db j1.sqlite --records --quiet",
                             dir, dhm_bin()),
                     0);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool pool.txt --sets 24 --games 200 --seed 9 "
                                              "--jobs 2 --db j2.sqlite --records --quiet",
                             dir, dhm_bin()),
                     0);
    char a[256], b[256];
    path(a, sizeof a, "j1.sqlite");
    path(b, sizeof b, "j2.sqlite");
    char *da = dump(a), *db = dump(b);
    same_dump("--jobs 2 against --jobs 1", db, da);
    assert_int_equal(count_sets(a), 24);
    free(da);
    free(db);
    /* the summary adds up: 24 sets x 200 games x 15 points */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s rate --db j1.sqlite --method se,sts --json", dir, dhm_bin()), 0);
    assert_non_null(strstr(out, "\"sets\": 24"));
    /* a stored set exports as kifu that replays */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records export --db j2.sqlite --set 7 --out s7.kifu && %s replay "
                                              "--quiet s7.kifu",
                             dir, dhm_bin(), dhm_bin()),
                     0);
    assert_non_null(strstr(out, "200 games"));
}

static void test_resume_after_kill(void **state)
{
    (void)state;
    write_file("pool.txt", POOL);
    char out[8192], db[256], ref[256];
    path(db, sizeof db, "k.sqlite");
    path(ref, sizeof ref, "ref.sqlite");
    const char *args = "--pool pool.txt --sets 60 --games 2000 --seed 4 --jobs 2 --quiet";
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament %s --db ref.sqlite", dir, dhm_bin(), args), 0);
    pid_t pid = fork();
    if (pid == 0) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "cd %s && exec %s tournament %s --db k.sqlite > /dev/null 2>&1", dir, dhm_bin(), args);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    long n = 0;
    for (int i = 0; i < 2000 && n < 5; i++) { /* wait for a few sets, then kill -9 mid-run */
        usleep(5000);
        n = count_sets(db);
    }
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    long stored = count_sets(db);
    assert_true(stored >= 5 && stored < 60);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --resume --db k.sqlite --jobs 1 --quiet", dir,
                             dhm_bin()),
                     0);
    char *a = dump(db), *b = dump(ref);
    same_dump("resumed after kill -9", a, b);
    free(a);
    free(b);
    /* resuming a finished run plays nothing and changes nothing */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --resume --db k.sqlite --quiet", dir, dhm_bin()),
                     0);
    assert_int_equal(count_sets(db), 60);
}

/* /proc/PID/WHAT into buf (at most cap - 1 bytes, then a NUL); its length. */
static size_t proc_file(int pid, const char *what, char *buf, size_t cap)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/%d/%s", pid, what);
    FILE *f = fopen(p, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return n;
}

/* A process's command line, its arguments joined by spaces. */
static void proc_cmdline(int pid, char *buf, size_t cap)
{
    size_t n = proc_file(pid, "cmdline", buf, cap);
    for (size_t i = 0; i < n; i++)
        if (!buf[i])
            buf[i] = ' ';
}

/* Whether a process (not a zombie, not this test) whose command line contains `needle` is
 * alive. */
static int process_alive(const char *needle)
{
    DIR *d = opendir("/proc");
    int found = 0;
    struct dirent *e;
    while (d && !found && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || pid == (int)getpid())
            continue;
        char buf[4096], st[512];
        proc_file(pid, "stat", st, sizeof st);
        const char *rp = strrchr(st, ')');
        if (!rp || rp[1] != ' ' || rp[2] == 'Z')
            continue;
        proc_cmdline(pid, buf, sizeof buf);
        found = strstr(buf, needle) != NULL;
    }
    if (d)
        closedir(d);
    return found;
}

static void test_external_clients(void **state)
{
    (void)state;
    char pool[4096], out[16384], db[256];
    /* clean external clients: a dhm connect child, and one whose shell leaves a grandchild
     * running (killed with the client's process group after the set) */
    snprintf(pool, sizeof pool,
             "ext exec: %s connect --host {host} --port {port} --player simple --name {name} --quiet\n"
             "leaky exec: %s & exec %s connect --host {host} --port {port} --player random --quiet >/dev/null\n"
             "s1 simple\ns2 simple\nr1 random\n",
             dhm_bin(), sleep_tag, dhm_bin());
    write_file("cpool.txt", pool);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool cpool.txt --pairing fixed --sets 3 --games 6 "
                                              "--seed 2 --jobs 2 --db c.sqlite --quiet",
                             dir, dhm_bin()),
                     0);
    assert_non_null(strstr(out, "3 sets stored: 3 ok\n"));
    assert_false(process_alive(sleep_tag));
    /* quiet clients and a quiet server leave no empty logs behind (issue 39: 80 files for 40 sets,
     * half of them empty) */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && find c.sqlite.logs -type f | sort", dir), 0);
    assert_null(strstr(out, "leaky.log")); /* it wrote nothing */
    assert_non_null(strstr(out, "c.sqlite.logs/set-2-ext.log\nc.sqlite.logs/set-2.log\n"));
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && find c.sqlite.logs -type f -empty | wc -l", dir), 0);
    assert_int_equal(atoi(out), 0);
    /* a client that plays every game, then exits 7: played, but not clean */
    snprintf(pool, sizeof pool,
             "exit7 exec: %s connect --host {host} --port {port} --player simple --quiet; exit 7\n"
             "s1 simple\ns2 simple\nr1 random\nr2 random\n",
             dhm_bin());
    write_file("epool.txt", pool);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool epool.txt --pairing fixed --sets 2 --games 4 "
                                              "--seed 2 --db e.sqlite --quiet",
                             dir, dhm_bin()),
                     3);
    assert_non_null(strstr(out, "2 not clean (0 forfeit, 0 timeouts, 2 client-exit)"));
    assert_non_null(strstr(out, "exit7 exited with status 7"));
    /* clients that never connect or never move: forfeits and timeouts, exit 3, left out of the
     * ratings unless asked for */
    snprintf(pool, sizeof pool,
             "ext exec: %s connect --host {host} --port {port} --player simple --name {name} --quiet\n"
             "gone exec: %s --quit-client {port}\n"
             "hang exec: %s --hang-client {port} %s\n"
             "s1 simple\ns2 simple\nr1 random\nr2 random\n",
             dhm_bin(), self, self, hang_tag);
    write_file("xpool.txt", pool);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool xpool.txt --sets 8 --games 4 --seed 2 "
                                              "--jobs 2 --move-timeout 20 --connect-timeout 3000 --db x.sqlite --quiet",
                             dir, dhm_bin()),
                     3);
    assert_non_null(strstr(out, "gone disconnected during the set"));
    assert_false(process_alive(hang_tag));
    path(db, sizeof db, "x.sqlite");
    sqlite3 *h;
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h,
                                        "SELECT s.idx, s.status, s.note, p.name, sp.forfeit, sp.timeouts, sp.total FROM sets s"
                                        " JOIN set_players sp ON sp.set_idx = s.idx JOIN players p ON p.id = sp.player_id"
                                        " ORDER BY s.idx, sp.player_no",
                                        -1, &st, NULL),
                     SQLITE_OK);
    int saw_ext = 0, saw_gone = 0, saw_hang = 0, rows = 0;
    long total = 0, ok_sets = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *status = (const char *)sqlite3_column_text(st, 1), *note = (const char *)sqlite3_column_text(st, 2);
        const char *name = (const char *)sqlite3_column_text(st, 3);
        int forfeit = sqlite3_column_int(st, 4), timeouts = sqlite3_column_int(st, 5);
        rows++;
        total += sqlite3_column_int(st, 6);
        ok_sets += !strcmp(status, "ok");
        if (!strcmp(name, "ext")) { /* a dhm connect child plays the set normally */
            saw_ext++;
            assert_int_equal(forfeit, 0);
        } else if (!strcmp(name, "gone")) { /* greets, then quits: a forfeit, the set is marked */
            saw_gone++;
            assert_int_equal(forfeit, 1);
            assert_string_equal(status, "forfeit");
            assert_non_null(strstr(note, "gone disconnected during the set"));
        } else if (!strcmp(name, "hang")) { /* greets, then never moves */
            saw_hang++;
            assert_true(timeouts > 0);
            assert_true(!strcmp(status, "timeouts") || !strcmp(status, "forfeit"));
            assert_non_null(strstr(note, "hang:"));
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    assert_int_equal(rows, 8 * 5);
    assert_int_equal(total, 8L * 4 * 15);
    assert_true(saw_ext > 0 && saw_gone > 0 && saw_hang > 0);
    ok_sets /= 5;
    /* records sets shows each status; rate --db leaves the broken sets out and says so */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records sets --db x.sqlite", dir, dhm_bin()), 0);
    assert_non_null(strstr(out, " forfeit "));
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s rate --db x.sqlite --method bt --include-broken --json", dir,
                             dhm_bin()),
                     0);
    assert_non_null(strstr(out, "\"sets\": 8,"));
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s rate --db x.sqlite --method bt 2>&1", dir, dhm_bin()),
                     ok_sets ? 0 : 1);
    if (ok_sets)
        assert_non_null(strstr(out, "sets left out because they were not played cleanly"));
}

/* A run whose every set is broken (a client that greets and quits): dhm rate says so, for every
 * method, by status and naming --include-broken; dhm report shows the run and each set's
 * status and note, and no ratings. */
static void test_all_sets_broken(void **state)
{
    (void)state;
    char out[16384], want[512], html[256], pool[2048];
    snprintf(pool, sizeof pool, "a simple\nb simple\nc random\nd random\ne1 exec: %s --quit-client {port}\n", self);
    write_file("bpool.txt", pool);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool bpool.txt --pairing fixed --sets 3 --games 4 "
                                              "--seed 3 --db b.sqlite --quiet",
                             dir, dhm_bin()),
                     3);
    assert_non_null(strstr(out, "3 not clean (3 forfeit, 0 timeouts, 0 client-exit)"));
    snprintf(want, sizeof want, "dhm rate: b.sqlite: 3 sets stored, all 3 left out as broken (by status: 3 forfeit); "
                                "--include-broken rates them anyway\n");
    static const char *const METHODS[] = {"se", "sg", "sg2", "sts", "elo-game", "morita", "bt", "pl", "melo",
                                          "all", "sts,bt", "elo-game,morita"};
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++) {
        int rc = run_cmd(out, sizeof out, "cd %s && %s rate --db b.sqlite --method %s 2>&1", dir, dhm_bin(), METHODS[i]);
        if (rc != 1 || strcmp(out, want))
            fail_msg("rate --method %s: exit %d, '%s' (want 1 and '%s')", METHODS[i], rc, out, want);
    }
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s rate --db b.sqlite --order-by start --csv 2>&1", dir, dhm_bin()), 1);
    assert_string_equal(out, want);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s rate --db b.sqlite --include-broken --method bt --json", dir,
                             dhm_bin()),
                     0);
    assert_non_null(strstr(out, "\"sets\": 3,"));
    /* the report: the run, each set's status and note, no ratings */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s report --db b.sqlite -o b.html 2>&1", dir, dhm_bin()), 0);
    path(html, sizeof html, "b.html");
    const char *page = slurp_file(html);
    assert_non_null(strstr(page, "<h2 id=\"run\">"));
    assert_non_null(strstr(page, "tournament --pool bpool.txt --pairing fixed --sets 3"));
    assert_non_null(strstr(page, "<b>No ratings</b>: 3 sets stored, all 3 left out as broken (by status: 3 forfeit); "
                                 "--include-broken rates them anyway."));
    for (int k = 0; k < 3; k++) {
        char row[256];
        snprintf(row, sizeof row,
                 "<tr><td>%d</td><td class=\"l\">forfeit</td><td class=\"l\">e1 disconnected during the set</td></tr>", k);
        if (!strstr(page, row))
            fail_msg("the report lacks set %d's status and note: %s", k, row);
    }
    assert_null(strstr(page, "id=\"ratings\""));
    assert_null(strstr(page, "href=\"#ratings\""));
    assert_null(strstr(page, "<svg"));
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s report --db b.sqlite --method frob -o b.html 2>&1", dir,
                             dhm_bin()),
                     2);
    /* with --include-broken they are rated, and still listed */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s report --db b.sqlite --include-broken -o b.html", dir, dhm_bin()),
                     0);
    page = slurp_file(html);
    assert_non_null(strstr(page, "id=\"ratings\""));
    assert_non_null(strstr(page, "Rated here too (--include-broken)."));
    assert_non_null(strstr(page, "e1 disconnected during the set"));
}

/* SIGTERM mid-run: the clients' process groups are killed, nothing half-played is stored,
 * the exit status says so, and --resume finishes the run. A second writer is refused. */
static void test_stop_and_second_writer(void **state)
{
    (void)state;
    char pool[2048], out[8192], db[256], o[256], e[256];
    snprintf(pool, sizeof pool, "hang exec: %s --hang-client {port} %s\ns1 simple\ns2 simple\nr1 random\nr2 random\n",
             self, hang_tag);
    write_file("hpool.txt", pool);
    path(db, sizeof db, "h.sqlite");
    path(o, sizeof o, "h.out");
    path(e, sizeof e, "h.err");
    Proc p;
    proc_start(&p, o, e, "%s tournament --pool %s/hpool.txt --pairing fixed --sets 2 --games 3 --move-timeout 0 --db %s",
               dhm_bin(), dir, db);
    for (int i = 0; i < 500 && !process_alive(hang_tag); i++)
        usleep(10000);
    assert_true(process_alive(hang_tag));
    /* a second writer is refused at once, and harms nothing */
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --resume --db %s 2>&1", dhm_bin(), db), 1);
    assert_non_null(strstr(out, "is being written by another dhm process"));
    kill(p.pid, SIGTERM);
    assert_int_equal(proc_wait(&p, 20), 128 + SIGTERM);
    assert_non_null(strstr(slurp_file(e), "stopped by signal 15: 0 of 2 sets are stored"));
    /* nothing to rate yet: said, for rate and report alike */
    assert_int_equal(run_cmd(out, sizeof out, "%s rate --db %s 2>&1", dhm_bin(), db), 1);
    assert_non_null(strstr(out, "h.sqlite: no set is stored yet"));
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s report --db h.sqlite -o h.html 2>&1", dir, dhm_bin()), 0);
    path(o, sizeof o, "h.html");
    assert_non_null(strstr(slurp_file(o), "<b>No ratings</b>: no set is stored yet"));
    assert_false(process_alive(hang_tag));
    assert_int_equal(count_sets(db), 0);
}

/* A damaged store is a clear one-line error everywhere, never a crash. */
static void corrupt(const char *src, const char *dst, const char *sql)
{
    char out[1024];
    assert_int_equal(run_cmd(out, sizeof out, "cp %s %s", src, dst), 0);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(dst, &h), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_close(h);
}

static void test_damaged_store(void **state)
{
    (void)state;
    write_file("pool.txt", POOL);
    char out[8192], good[256], bad[256];
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool pool.txt --sets 6 --games 20 --seed 3 "
                                              "--records --db good.sqlite --quiet",
                             dir, dhm_bin()),
                     0);
    path(good, sizeof good, "good.sqlite");
    path(bad, sizeof bad, "bad.sqlite");
    static const struct {
        const char *sql, *want;
    } cases[] = {
        {"UPDATE set_players SET player_id = 99 WHERE set_idx = 1 AND player_no = 2", "is not a player of the run"},
        {"UPDATE set_players SET player_id = -5 WHERE set_idx = 2 AND player_no = 0", "is not a player of the run"},
        {"UPDATE set_players SET player_id = (SELECT player_id FROM set_players WHERE set_idx = 1 AND player_no = 1)"
         " WHERE set_idx = 1 AND player_no = 0",
         "appears twice"},
        {"DELETE FROM players WHERE id = 3", "players table"},
        {"UPDATE set_games SET classes = X'FFFF' || substr(classes, 3) WHERE set_idx = 0", "is not a finishing order"},
        {"UPDATE set_games SET classes = substr(classes, 1, 5) WHERE set_idx = 0", "holds 20 games (5 class codes)"},
        {"UPDATE set_players SET total = total + 1 WHERE set_idx = 3 AND player_no = 4", "is not the"},
        {"DELETE FROM set_players WHERE set_idx = 4 AND player_no = 3", "is incomplete"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        corrupt(good, bad, cases[k].sql);
        const char *cmds[] = {"rate --db %s", "records sets --db %s", "records sets --csv --db %s",
                              "tournament --resume --db %s --quiet"};
        for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
            char args[512];
            snprintf(args, sizeof args, cmds[c], bad);
            int rc = run_cmd(out, sizeof out, "%s %s 2>&1", dhm_bin(), args);
            if (rc != 1 || !strstr(out, cases[k].want) || !strstr(out, "damaged database"))
                fail_msg("%s after '%s': exit %d: %s", args, cases[k].sql, rc, out);
        }
    }
    /* a stored game that does not replay */
    corrupt(good, bad, "UPDATE records SET data = substr(data, 1, 150) || X'FFFFFFFFFFFF' || substr(data, 157) WHERE set_idx = 2");
    assert_int_equal(run_cmd(out, sizeof out, "%s records export --db %s --set 2 2>&1 >/dev/null", dhm_bin(), bad), 1);
    assert_non_null(strstr(out, "damaged database"));
    /* records sets --csv and games --csv are dhm rate's inputs: rating them equals rate --db */
    char a[16384], b[16384];
    assert_int_equal(run_cmd(a, sizeof a, "cd %s && %s rate --db good.sqlite --method sts,bt,melo --csv", dir, dhm_bin()),
                     0);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records sets --db good.sqlite --csv > sets.csv && %s rate "
                                               "sets.csv --method sts,bt,melo --csv",
                             dir, dhm_bin(), dhm_bin()),
                     0);
    snprintf(b, sizeof b, "%s", out);
    assert_string_equal(a, b);
    /* (the store also has the sets, so its head-to-head columns count sets: compare the ratings) */
    assert_int_equal(run_cmd(a, sizeof a, "cd %s && %s rate --db good.sqlite --method elo-game --csv | cut -d, -f1-4", dir,
                             dhm_bin()),
                     0);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records games --db good.sqlite --csv > games.csv && %s rate "
                                               "games.csv --method elo-game --csv | cut -d, -f1-4",
                             dir, dhm_bin(), dhm_bin()),
                     0);
    assert_string_equal(a, out);
}

static void test_duplicate_seats(void **state)
{
    (void)state;
    write_file("pool.txt", POOL);
    char out[8192], db[256];
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool pool.txt --sets 2 --games 30 --class-reset 10 "
                                              "--seed 5 --duplicate --records --db d.sqlite --quiet",
                             dir, dhm_bin()),
                     0);
    path(db, sizeof db, "d.sqlite");
    assert_int_equal(count_sets(db), 10);
    Store *s;
    char err[256];
    assert_int_equal(store_open(&s, db, 0, err, sizeof err), 0);
    GameRecord *rec = malloc(sizeof *rec);
    for (int g = 0; g < 2; g++) {
        int seen[30][5][8] = {{{0}}}; /* [game][seat][pool player] */
        Cards first_deal[30][5];
        for (int r = 0; r < 5; r++) {
            uint8_t *data;
            size_t len;
            int player[5];
            assert_int_equal(store_set_records(s, 5 * g + r, &data, &len, player, err, sizeof err), 0);
            size_t off = 0;
            for (int k = 0; k < 30; k++) {
                size_t used;
                assert_int_equal(unpack_game(data + off, len - off, store_records_format(s), rec, &used), 0);
                off += used;
                for (int seat = 0; seat < 5; seat++)
                    seen[k][seat][player[rec->seat[seat]]]++;
                if (rec->cls[0] < 0) { /* a class period's first game: the same hands, seat by seat */
                    for (int seat = 0; seat < 5; seat++) {
                        Cards h = rec->dealt[rec->seat[seat]];
                        if (r == 0)
                            first_deal[k][seat] = h;
                        else
                            assert_true(first_deal[k][seat] == h);
                    }
                }
            }
            free(data);
        }
        for (int k = 0; k < 30; k++) /* each player in each seat of each deal exactly once */
            for (int seat = 0; seat < 5; seat++) {
                int players = 0;
                for (int p = 0; p < 8; p++) {
                    assert_true(seen[k][seat][p] <= 1);
                    players += seen[k][seat][p];
                }
                assert_int_equal(players, 5);
            }
    }
    free(rec);
    store_close(s);
}

static void expect_error(const char *args, int code, const char *want)
{
    char out[4096];
    int rc = run_cmd(out, sizeof out, "cd %s && %s tournament %s 2>&1", dir, dhm_bin(), args);
    if (rc != code || !strstr(out, want))
        fail_msg("tournament %s: exit %d '%s', want %d and '%s'", args, rc, out, code, want);
    int lines = 0;
    for (char *c = out; *c; c++)
        lines += *c == '\n';
    if (lines != 1)
        fail_msg("tournament %s: %d lines: '%s'", args, lines, out);
}

static void test_bad_input(void **state)
{
    (void)state;
    write_file("pool.txt", POOL);
    write_file("frob.txt", "a simple\nb random\nc frob\nd simple\ne simple\n");
    write_file("dup.txt", "a simple\nb random\na random\nd simple\ne simple\n");
    write_file("few.txt", "a simple\nb random\n");
    write_file("sp.txt", "a simple x\nb random\nc random\nd simple\ne simple\n");
    expect_error("--pool frob.txt --db f.sqlite", 2, "frob.txt:3: unknown player kind 'frob'");
    expect_error("--pool dup.txt --db f.sqlite", 2, "dup.txt:3: duplicate player name 'a'");
    expect_error("--pool few.txt --db f.sqlite", 2, "needs at least 5 players, the pool has 2");
    expect_error("--pool sp.txt --db f.sqlite", 2, "no spaces");
    expect_error("--pool missing.txt --db f.sqlite", 2, "cannot open the pool file");
    expect_error("--pool pool.txt", 2, "--db FILE.sqlite is required");
    expect_error("--pool pool.txt --db /nonexistent/dir/x.sqlite", 1, "x.sqlite");
    expect_error("--pool pool.txt --pairing fixed --db f.sqlite", 2, "needs exactly 5 players");
    /* --pairing all over a big pool: refused before anything is created */
    char big[8192];
    size_t k = 0;
    for (int i = 0; i < 130; i++)
        k += (size_t)snprintf(big + k, sizeof big - k, "p%03d random\n", i);
    write_file("big.txt", big);
    expect_error("--pool big.txt --pairing all --db big.sqlite", 2, "C(130,5) = 286243776 sets");
    char bigdb[256];
    path(bigdb, sizeof bigdb, "big.sqlite");
    assert_int_equal(access(bigdb, F_OK), -1);
    expect_error("--pool pool.txt --sets 30000000 --duplicate --db f.sqlite", 2, "at most 100000000 stored sets");
    /* a stored run is never overwritten, and --resume checks that it is the same run */
    char out[4096];
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool pool.txt --sets 3 --games 50 --seed 1 "
                                              "--db keep.sqlite --quiet",
                             dir, dhm_bin()),
                     0);
    char db[256];
    path(db, sizeof db, "keep.sqlite");
    char *before = dump(db);
    expect_error("--pool pool.txt --sets 3 --games 50 --db keep.sqlite", 1, "already holds a tournament run");
    expect_error("--resume --db keep.sqlite --seed 2", 2, "holds a run with --seed 1, not 2");
    expect_error("--resume --db keep.sqlite --games 60", 2, "holds a run with --games 50, not 60");
    write_file("other.txt", "x simple\ny random\nz random\nw simple\nv simple\n");
    expect_error("--resume --db keep.sqlite --pool other.txt", 2, "another pool");
    write_file("junk.sqlite", "this is not a database at all, just text that is long enough to look like a file\n");
    expect_error("--resume --db junk.sqlite", 1, "junk.sqlite");
    expect_error("--pool pool.txt --db junk.sqlite", 1, "junk.sqlite");
    /* an empty file (a run killed before its first write): --resume says so, a new run uses it */
    write_file("empty.sqlite", "");
    expect_error("--resume --db empty.sqlite", 1, "empty.sqlite holds no run yet");
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool pool.txt --sets 1 --games 5 "
                                              "--db empty.sqlite --quiet",
                             dir, dhm_bin()),
                     0);
    char *after = dump(db);
    same_dump("keep.sqlite after bad commands", after, before);
    free(before);
    free(after);
}

/* ---- beyond one machine: shards and MPI ranks ---- */

static const char *CPOOL = "s1 simple\ns2 simple\nr1 random\nr2 random\nr3 random\nm1 mc:sims=6\n";
#define CARGS "--pool cpool6.txt --sets 40 --games 300 --seed 11 --records --quiet"
/* --rank-timeout of the silent- and dead-rank runs: long enough that a live rank finishes a game
 * within it on a loaded machine (1,000 ms gave every rank up once, at load average 8 on 2 cores) */
#define RANK_TIMEOUT "4000"

/* The reference: the run on one machine, its dump and its ratings (CSV). */
static void cluster_reference(char **dump_out, char *rate_out, size_t rate_sz)
{
    write_file("cpool6.txt", CPOOL);
    char out[4096], db[256];
    path(db, sizeof db, "one.sqlite");
    if (access(db, F_OK) != 0)
        assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament " CARGS " --db one.sqlite", dir, dhm_bin()), 0);
    *dump_out = dump(db);
    assert_int_equal(run_cmd(rate_out, rate_sz, "cd %s && %s rate --db one.sqlite --method se,sts,bt --csv", dir, dhm_bin()),
                     0);
}

/* Asserts that a store holds exactly the reference run: every row and the ratings. */
static void assert_same_run(const char *name, const char *ref_dump, const char *ref_rate)
{
    char db[256], rate[16384];
    path(db, sizeof db, name);
    assert_int_equal(count_sets(db), 40);
    char *d = dump(db);
    same_dump(name, d, ref_dump);
    free(d);
    assert_int_equal(run_cmd(rate, sizeof rate, "cd %s && %s rate --db %s --method se,sts,bt --csv", dir, dhm_bin(), name),
                     0);
    assert_string_equal(rate, ref_rate);
}

static void test_shards_merge(void **state)
{
    (void)state;
    char *ref, ref_rate[16384], out[4096];
    cluster_reference(&ref, ref_rate, sizeof ref_rate);
    for (int i = 0; i < 4; i++)
        assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament " CARGS " --shard %d/4 --db sh%d.sqlite", dir,
                                 dhm_bin(), i, i),
                         0);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records merge all.sqlite sh2.sqlite sh0.sqlite sh3.sqlite sh1.sqlite",
                             dir, dhm_bin()),
                     0);
    assert_non_null(strstr(out, "merged 4 shards into all.sqlite: 40 of the run's 40 sets"));
    assert_same_run("all.sqlite", ref, ref_rate);
    /* methods that stream rate the sets and games as they are read: the same output, history
     * and all, as with every set in memory */
    static char streamed[32768], whole[32768];
    const char *opts[] = {"--method se,sg,sg2,sts --order seq --csv --mse --crosstable --transitivity",
                          "--method sts,elo-game --mse --crosstable --transitivity --json",
                          "--method elo-game,sg --order-by start --mse"};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(run_cmd(streamed, sizeof streamed, "cd %s && %s rate --db all.sqlite %s --history h1.csv", dir,
                                 dhm_bin(), opts[k]),
                         0);
        assert_int_equal(run_cmd(whole, sizeof whole, "cd %s && %s rate --db all.sqlite %s --history h2.csv --in-memory",
                                 dir, dhm_bin(), opts[k]),
                         0);
        assert_true(strlen(streamed) > 500);
        assert_string_equal(streamed, whole);
        assert_int_equal(run_cmd(whole, sizeof whole, "cd %s && cmp h1.csv h2.csv && wc -l < h1.csv", dir), 0);
        assert_true(atol(whole) > 200);
    }
    /* a shard killed mid-run merges into an unfinished run that --resume completes */
    char kdb[256];
    path(kdb, sizeof kdb, "shk1.sqlite");
    Proc p;
    assert_int_equal(chdir(dir), 0); /* the process is started without a shell: relative paths from here */
    proc_start(&p, "/dev/null", "/dev/null", "%s tournament " CARGS " --shard 1/4 --jobs 1 --db shk1.sqlite", dhm_bin());
    for (int i = 0; i < 4000 && count_sets(kdb) < 2; i++)
        usleep(2000);
    kill(p.pid, SIGKILL);
    assert_int_equal(proc_wait(&p, 10), 128 + SIGKILL);
    long stored = count_sets(kdb);
    assert_true(stored >= 2 && stored < 10);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records merge part.sqlite sh0.sqlite shk1.sqlite sh2.sqlite sh3.sqlite",
                             dir, dhm_bin()),
                     0);
    assert_non_null(strstr(out, "the run is not finished"));
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --resume --db part.sqlite --quiet", dir, dhm_bin()), 0);
    assert_same_run("part.sqlite", ref, ref_rate);
    /* bad merges: clear errors, no output left behind, nothing overwritten */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --pool cpool6.txt --sets 40 --games 300 --seed 12 "
                                              "--records --quiet --shard 1/4 --db other1.sqlite",
                             dir, dhm_bin()),
                     0);
    static const struct {
        const char *args, *msg;
    } bad[] = {
        {"nomerge.sqlite sh0.sqlite sh1.sqlite sh1.sqlite sh2.sqlite sh3.sqlite", "shard 1/4 is given twice"},
        {"nomerge.sqlite sh0.sqlite sh1.sqlite sh3.sqlite", "shard 2/4 is missing"},
        {"nomerge.sqlite sh0.sqlite other1.sqlite sh2.sqlite sh3.sqlite", "shards of different runs (its seed differs)"},
        {"nomerge.sqlite one.sqlite", "one.sqlite is not a shard"},
        {"nomerge.sqlite sh0.sqlite nothere.sqlite", "nothere.sqlite"},
        {"all.sqlite sh0.sqlite sh1.sqlite sh2.sqlite sh3.sqlite", "all.sqlite exists: merging never overwrites"},
    };
    char all[256], bad_db[256];
    path(all, sizeof all, "all.sqlite");
    path(bad_db, sizeof bad_db, "nomerge.sqlite");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records merge %s 2>&1", dir, dhm_bin(), bad[i].args), 1);
        if (!strstr(out, bad[i].msg))
            fail_msg("merge %s: got '%s', want '%s'", bad[i].args, out, bad[i].msg);
        assert_int_equal(access(bad_db, F_OK), -1);
    }
    assert_same_run("all.sqlite", ref, ref_rate);
    free(ref);
}

/* build/dhm-mpi (env DHM_MPI, set by make check when MPICH is installed) and mpiexec; the
 * tests skip without them, unless DHM_REQUIRE_MPI is set (CI). */
static const char *mpi_bin(void)
{
    const char *b = getenv("DHM_MPI");
    char out[256];
    if (b && *b && access(b, X_OK) == 0 && run_cmd(out, sizeof out, "command -v mpiexec") == 0)
        return b;
    if (getenv("DHM_REQUIRE_MPI"))
        fail_msg("DHM_REQUIRE_MPI is set but DHM_MPI (%s) or mpiexec is missing", b ? b : "unset");
    return NULL;
}

/* The pid of MPI rank `rank` of the job whose command line contains `needle` (-1: none). */
static int rank_pid(const char *needle, int rank)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int found = -1;
    char want[32];
    snprintf(want, sizeof want, "PMI_RANK=%d", rank);
    while (d && found < 0 && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid <= 0)
            continue;
        char buf[8192];
        proc_cmdline(pid, buf, sizeof buf);
        if (!strstr(buf, needle) || strncmp(buf, "mpiexec", 7) == 0 || !strstr(buf, "dhm-mpi"))
            continue;
        size_t n = proc_file(pid, "environ", buf, sizeof buf);
        for (size_t i = 0; i < n;) {
            if (!strcmp(buf + i, want))
                found = pid;
            i += strlen(buf + i) + 1;
        }
    }
    if (d)
        closedir(d);
    return found;
}

/* The pid of rank `rank` of the job writing store `name` (in dir), once it has stored three
 * sets: the moment to kill or stop it mid-run. */
static int rank_mid_run(const char *name, int rank)
{
    char db[256];
    path(db, sizeof db, name);
    int pid = -1;
    for (int i = 0; i < 4000 && (pid < 0 || count_sets(db) < 3); i++) {
        usleep(2000);
        if (pid < 0)
            pid = rank_pid(name, rank);
    }
    assert_true(pid > 0);
    return pid;
}

static void test_mpi_ranks(void **state)
{
    (void)state;
    const char *mpi = mpi_bin();
    if (!mpi) {
        skip();
        return;
    }
    char *ref, ref_rate[16384], out[8192];
    cluster_reference(&ref, ref_rate, sizeof ref_rate);
    /* three ranks (two play) on this machine: the same store as one process */
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && mpiexec -n 3 %s tournament " CARGS " --db mpi3.sqlite 2>&1", dir, mpi),
                     0);
    assert_same_run("mpi3.sqlite", ref, ref_rate);
    /* kill -9 one rank mid-run: mpiexec ends the job and fails; --resume (another number of
     * ranks) finishes it with the same results */
    char db[256];
    path(db, sizeof db, "mpik.sqlite");
    Proc p;
    assert_int_equal(chdir(dir), 0); /* the process is started without a shell: relative paths from here */
    proc_start(&p, "/dev/null", "/dev/null", "mpiexec -n 3 %s tournament " CARGS " --db mpik.sqlite", mpi);
    int victim = rank_mid_run("mpik.sqlite", 2);
    kill(victim, SIGKILL);
    assert_int_not_equal(proc_wait(&p, 60), 0);
    long stored = count_sets(db);
    assert_true(stored >= 3 && stored < 40);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && mpiexec -n 2 %s tournament --resume --db mpik.sqlite --quiet 2>&1",
                             dir, mpi),
                     0);
    assert_same_run("mpik.sqlite", ref, ref_rate);
    /* a rank that goes silent (SIGSTOP) under --rank-timeout: reported, its set played by
     * another rank, the run completes with the same results */
    char err_path[256];
    path(err_path, sizeof err_path, "mpis.err");
    proc_start(&p, "/dev/null", err_path,
               "mpiexec -disable-auto-cleanup -n 4 %s tournament " CARGS " --rank-timeout " RANK_TIMEOUT " --db mpis.sqlite", mpi);
    victim = rank_mid_run("mpis.sqlite", 2);
    kill(victim, SIGSTOP);
    int rc = proc_wait(&p, 120);
    kill(victim, SIGKILL); /* if it is still there */
    const char *err = slurp_file(err_path);
    if (rc != 0)
        fail_msg("mpiexec exited %d: %s", rc, err);
    assert_non_null(strstr(err, "rank 2 has been silent for " RANK_TIMEOUT " ms"));
    assert_non_null(strstr(err, "1 MPI rank was given up on"));
    assert_same_run("mpis.sqlite", ref, ref_rate);
    free(ref);
}

/* Runs `mpiexec -disable-auto-cleanup OPTS dhm-mpi tournament CARGS --rank-timeout RANK_TIMEOUT` into
 * NAME.sqlite (stderr to NAME.err, in *err) and kills rank 2 with SIGKILL once three sets are
 * stored; with stop0, rank 0 is stopped from 1.5 s before the kill to 0.3 s after it. Returns
 * mpiexec's exit status. */
static int kill_rank2(const char *mpi, const char *opts, const char *name, int stop0, const char **err)
{
    char db[64], err_path[256];
    snprintf(db, sizeof db, "%s.sqlite", name);
    path(err_path, sizeof err_path, name);
    strcat(err_path, ".err");
    assert_int_equal(chdir(dir), 0); /* the process is started without a shell: relative paths from here */
    Proc p;
    proc_start(&p, "/dev/null", err_path,
               "mpiexec -disable-auto-cleanup %s %s tournament " CARGS " --rank-timeout " RANK_TIMEOUT " --db %s", opts, mpi, db);
    int victim = rank_mid_run(db, 2), rank0 = stop0 ? rank_pid(db, 0) : 0;
    if (stop0) {
        assert_true(rank0 > 0);
        kill(rank0, SIGSTOP);
        usleep(1500000);
    }
    kill(victim, SIGKILL);
    if (stop0) {
        usleep(300000);
        kill(rank0, SIGCONT);
    }
    int rc = proc_wait(&p, 120);
    *err = slurp_file(err_path);
    return rc;
}

/* Whether mpiexec ended the job itself (status 255, "assert (!closed) failed": hydra's proxy on
 * the lost node was left holding a PMI answer for a dead rank, failed to hand it over and exited;
 * seen once in CI). Then rank 0 is ended with it, maybe before it could speak or finish: the test
 * waits for rank 0 to be gone, and --resume (with one process) plays what is left. */
static int hydra_ended(int rc, const char *err, const char *name)
{
    if (rc != 255 || !strstr(err, "assert (!closed) failed"))
        return 0;
    fprintf(stderr, "note: %s: mpiexec ended the job itself (hydra's assertion); --resume finishes it\n", name);
    for (int i = 0; i < 600 && rank_pid(name, 0) > 0; i++) /* 60 s: an orphaned rank 0 gives its ranks up and ends */
        usleep(100000);
    assert_true(rank_pid(name, 0) < 0);
    char out[8192];
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --resume --db %s --quiet 2>&1", dir, dhm_bin(), name),
                     0);
    return 1;
}

/* A rank that dies (kill -9), as docs/cluster.md tells it. MPICH's process manager (hydra)
 * kills every other rank it started on the dead rank's node, -disable-auto-cleanup or not: on
 * one node that is the whole job, and --resume completes it. Ranks on other nodes go on
 * under -disable-auto-cleanup: rank 0 gives the dead ranks up after --rank-timeout and their
 * sets go to the others. Nodes are stood for here by hydra proxies of their own (-launcher
 * fork, one loopback address a node). Every store ends equal to the single-process run. */
static void test_mpi_dead_rank(void **state)
{
    (void)state;
    const char *mpi = mpi_bin();
    if (!mpi) {
        skip();
        return;
    }
    char *ref, ref_rate[16384], out[8192], db[256];
    cluster_reference(&ref, ref_rate, sizeof ref_rate);
    /* one node (the repro): the job ends, the finished sets stay, --resume finishes */
    const char *err;
    assert_int_not_equal(kill_rank2(mpi, "-n 3", "mpid1", 0, &err), 0);
    path(db, sizeof db, "mpid1.sqlite");
    long stored = count_sets(db);
    assert_true(stored >= 3 && stored < 40);
    assert_int_equal(run_cmd(out, sizeof out, "cd %s && mpiexec -n 3 %s tournament --resume --db mpid1.sqlite --quiet 2>&1",
                             dir, mpi),
                     0);
    assert_same_run("mpid1.sqlite", ref, ref_rate);
    /* three nodes, a rank each: the dead rank's set goes to the other, the run completes. Rank
     * 0 is stopped around the kill, so that rank 2 dies while it hands a finished set over (it
     * waits for rank 0 to take it): a result sent as one message then took rank 0 down too
     * (MPICH's UCX transport reading from the dead process) */
    int rc = kill_rank2(mpi, "-launcher fork -hosts 127.0.0.1:1,127.0.0.2:1,127.0.0.3:1 -n 3", "mpid3", 1, &err);
    if (!hydra_ended(rc, err, "mpid3.sqlite") &&
        (rc != 0 || !strstr(err, "dhm: rank 2 has been silent for " RANK_TIMEOUT " ms") ||
         !strstr(err, "1 MPI rank was given up on")))
        fail_msg("mpiexec exited %d: %s", rc, err);
    assert_same_run("mpid3.sqlite", ref, ref_rate);
    /* two nodes, both playing ranks on the second: both die with it; rank 0 says how many
     * sets were not played (status 1), --resume plays them */
    rc = kill_rank2(mpi, "-launcher fork -hosts 127.0.0.1:1,127.0.0.2:2 -n 3", "mpid2", 0, &err);
    if (!hydra_ended(rc, err, "mpid2.sqlite")) {
        if (rc != 1 || !strstr(err, "sets were not played (every rank was given up on); --resume plays them") ||
            !strstr(err, "2 MPI ranks were given up on"))
            fail_msg("mpiexec exited %d: %s", rc, err);
        assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s tournament --resume --db mpid2.sqlite --quiet 2>&1", dir,
                                 dhm_bin()),
                         0);
    }
    assert_same_run("mpid2.sqlite", ref, ref_rate);
    free(ref);
}

/* Connects to the server at port and greets it as the client named name; the socket or -1. */
static int greet(int port, char name)
{
    char err[128];
    int fd = net_connect("127.0.0.1", port, err, sizeof err);
    if (fd < 0)
        return -1;
    Table t;
    memset(&t, 0, sizeof t);
    t.c[0][0] = 20070;
    t.c[1][0] = name;
    net_send_table(fd, &t);
    return fd;
}

/* A client that greets and then never answers (for the hanging-client case). */
static int hang_client(int port)
{
    int fd = greet(port, 'h');
    if (fd < 0)
        return 1;
    uint8_t buf[4096];
    while (recv(fd, buf, sizeof buf, 0) > 0) /* reads everything, answers nothing */
        ;
    return 0;
}

/* A client that greets, takes its seat and quits (for a forfeit after a connection). */
static int quit_client(int port)
{
    int fd = greet(port, 'q');
    if (fd < 0)
        return 1;
    int32_t me;
    recv(fd, &me, sizeof me, MSG_WAITALL);
    close(fd);
    return 0;
}

/* An exec: client that never connects in its first set (it cannot start, or starts and never
 * connects) stops the run at once, whatever the jobs: exit 1, its log file named with the
 * log's last line, nothing of the set stored; with a client that connects in its first set,
 * later failures are forfeits (test_external_clients). {python} is the interpreter given by
 * DHM_PYTHON. */
static void test_client_never_connects_stops(void **state)
{
    (void)state;
    char out[8192], log[512];
    write_file("npool.txt", "a simple\nb simple\nc random\nd random\n"
                            "broken exec: {python} -c 'print(\"starting\")' && echo \"no module named 'dhm'\" >&2 && exit 1\n");
    for (int jobs = 1; jobs <= 2; jobs++) {
        run_cmd(NULL, 0, "cd %s && rm -rf n.sqlite n.sqlite.logs", dir);
        assert_int_equal(run_cmd(out, sizeof out, "cd %s && DHM_PYTHON=/bin/echo %s tournament --pool npool.txt "
                                                  "--pairing fixed --sets 20 --games 4 --jobs %d --db n.sqlite --quiet 2>&1",
                                 dir, dhm_bin(), jobs),
                         1);
        int started = 0; /* the client was started in at most one set per job, not in all 20 */
        DIR *d = opendir(strcat(strcpy(log, dir), "/n.sqlite.logs"));
        for (struct dirent *de; d && (de = readdir(d));)
            started += strstr(de->d_name, "-broken.log") != NULL;
        if (d)
            closedir(d);
        assert_true(started >= 1 && started <= jobs);
        assert_non_null(strstr(out, "broken (exec:) did not connect in set "));
        assert_non_null(strstr(out, "its first in this run, so the run stops; its log is n.sqlite.logs/set-"));
        assert_non_null(strstr(out, "(last line: \"no module named 'dhm'\")"));
        const char *name = strstr(out, "n.sqlite.logs/set-");
        assert_non_null(name);
        snprintf(log, sizeof log, "%s/%.*s", dir, (int)strcspn(name, " "), name);
        const char *text = slurp_file(log);
        assert_non_null(text); /* {python} was DHM_PYTHON: /bin/echo printed its arguments */
        assert_non_null(strstr(text, "-c print(\"starting\")"));
        assert_int_equal(run_cmd(out, sizeof out, "cd %s && %s records sets --db n.sqlite", dir, dhm_bin()), 0);
        assert_null(strstr(out, "forfeit"));
    }
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--hang-client")) /* PORT [TAG: names the run, ignored] */
        return hang_client(atoi(argv[2]));
    if (argc >= 3 && !strcmp(argv[1], "--quit-client"))
        return quit_client(atoi(argv[2]));
    snprintf(hang_tag, sizeof hang_tag, "hang-%d", (int)getpid());
    snprintf(sleep_tag, sizeof sleep_tag, "sleep 313.%d", (int)getpid());
    if (!realpath(argv[0], self))
        snprintf(self, sizeof self, "%s", argv[0]);
    assert_non_null(test_tmpdir(dir, sizeof dir));
    static char abs_dhm[1024];
    if (realpath(dhm_bin(), abs_dhm))
        setenv("DHM", abs_dhm, 1);
    static char abs_mpi[1024];
    if (getenv("DHM_MPI") && realpath(getenv("DHM_MPI"), abs_mpi))
        setenv("DHM_MPI", abs_mpi, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_do_not_change_results), cmocka_unit_test(test_resume_after_kill),
        cmocka_unit_test(test_external_clients),          cmocka_unit_test(test_all_sets_broken),
        cmocka_unit_test(test_client_never_connects_stops),
        cmocka_unit_test(test_stop_and_second_writer),
        cmocka_unit_test(test_damaged_store),             cmocka_unit_test(test_duplicate_seats),
        cmocka_unit_test(test_bad_input),                 cmocka_unit_test(test_shards_merge),
        cmocka_unit_test(test_mpi_ranks),                 cmocka_unit_test(test_mpi_dead_rank),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    run_cmd(NULL, 0, "rm -rf %s", dir);
    return rc;
}

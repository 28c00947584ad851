/* testutil.h — shared helpers for the cmocka tests: locating ../shared (skipped when absent),
 * running the dhm binary, small parsers. Header-only so each test stays one file. */
#ifndef DHM_TESTUTIL_H
#define DHM_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "game/match.h"
#include "players/players.h"

/* Fails with both values when |x - want| > tol. */
#define NEAR(x, want, tol)                                                                                         \
    do {                                                                                                           \
        double _x = (x), _w = (want);                                                                              \
        if (!(fabs(_x - _w) <= (tol)))                                                                             \
            fail_msg("%s = %.12f, want %.12f (tolerance %g)", #x, _x, _w, (double)(tol));                          \
    } while (0)

/* Path of a file under the shared folder (env DHM_SHARED, else ../shared), or NULL when it is
 * absent (tests then report "skipped", as on a user's machine). */
static inline const char *shared_file(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("DHM_SHARED");
    snprintf(buf, sizeof buf, "%s/%s", root && *root ? root : "../shared", rel);
    struct stat st;
    return stat(buf, &st) == 0 ? buf : NULL;
}

/* The dhm binary under test (env DHM, set by make check). */
static inline const char *dhm_bin(void)
{
    const char *b = getenv("DHM");
    return b && *b ? b : "build/dhm";
}

/* Runs a shell command, capturing stdout+stderr into out (may be NULL). Returns exit status. */
static inline int run_cmd(char *out, size_t outsz, const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = 0;
    if (out && outsz)
        out[0] = 0;
    char tmp[4096];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, p)) > 0)
        if (out && n + 1 < outsz) {
            size_t c = k < outsz - 1 - n ? k : outsz - 1 - n;
            memcpy(out + n, tmp, c);
            n += c;
            out[n] = 0;
        }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A child process the test starts itself and waits for itself: `sh -c "exec COMMAND"`, so
 * the pid is the command's own and its exit status (or the signal that killed it) is seen,
 * never a shell's. stdout and stderr go to files (out/err, may be "/dev/null"). */
typedef struct Proc {
    pid_t pid;
    int status; /* after proc_wait: exit code, 128 + signal, or -2 when it had to be killed */
} Proc;

static inline void proc_start(Proc *p, const char *out, const char *err, const char *fmt, ...)
{
    char cmd[8192], full[8400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "exec %s", cmd);
    fflush(NULL);
    p->status = -1;
    p->pid = fork();
    if (p->pid == 0) {
        if (!freopen(out ? out : "/dev/null", "w", stdout) || !freopen(err ? err : "/dev/null", "w", stderr))
            _exit(126);
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    if (p->pid < 0)
        fail_msg("fork failed");
}

/* Waits at most timeout_s for the process (then kills it: status -2). Returns the status. */
static inline int proc_wait(Proc *p, int timeout_s)
{
    int st;
    for (long i = 0; i < (long)timeout_s * 100; i++) {
        pid_t r = waitpid(p->pid, &st, WNOHANG);
        if (r == p->pid) {
            p->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
            return p->status;
        }
        usleep(10000);
    }
    kill(p->pid, SIGKILL);
    waitpid(p->pid, &st, 0);
    p->status = -2;
    return p->status;
}

/* The whole of a file (malloc'd, NUL-terminated; *len its size, may be NULL), or NULL. */
static inline char *read_all(const char *path, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t k;
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) {
            cap *= 2;
            b = realloc(b, cap);
        }
    }
    fclose(f);
    b[n] = 0;
    if (len)
        *len = n;
    return b;
}

/* The whole of a small file (static buffer, NUL-terminated; "" when missing). */
static inline const char *slurp_file(const char *path)
{
    static char buf[1 << 17];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
    return buf;
}

/* One field of CSV text at *p (quoted or not; "" inside quotes is a quote), unquoted into
 * out. Advances *p past the field and its separator; returns the separator (',', '\n' or 0). */
static inline int csv_next_field(const char **p, char *out, size_t n)
{
    const char *s = *p;
    size_t k = 0;
    int quoted = 0;
    for (; *s && (quoted || (*s != ',' && *s != '\n')); s++) {
        if (*s == '"') {
            if (quoted && s[1] == '"')
                s++;
            else {
                quoted = !quoted;
                continue;
            }
        }
        if (k + 1 < n)
            out[k++] = *s;
    }
    out[k] = 0;
    int sep = *s;
    *p = sep ? s + 1 : s;
    return sep;
}

#define CSV_TEST_COLS 64
/* The rows of a one-table CSV output (header row first) that match `where`, a list
 * "col=value,col=value" (e.g. "table=players,seed=1,player=random"): calls f on each with the
 * row's fields by column. Returns the number of matching rows; fails the test on a header
 * without a column that `where` names. */
typedef struct CsvRow {
    int n;
    char name[CSV_TEST_COLS][48];
    char val[CSV_TEST_COLS][96];
} CsvRow;

static inline int csv_rows_where(const char *csv, const char *where, void (*f)(const CsvRow *, void *), void *ctx)
{
    static CsvRow r;
    const char *p = csv;
    char tmp[96];
    int sep;
    r.n = 0;
    do { /* the header (columns past CSV_TEST_COLS are read and dropped) */
        sep = csv_next_field(&p, r.n < CSV_TEST_COLS ? r.name[r.n] : tmp, sizeof r.name[0]);
        r.n += r.n < CSV_TEST_COLS;
    } while (sep == ',');
    int wc[16], nw = 0;
    char wv[16][96];
    for (const char *w = where; *w && nw < 16; nw++) {
        char cond[160];
        csv_next_field(&w, cond, sizeof cond);
        char *eq = strchr(cond, '=');
        if (!eq)
            fail_msg("csv_rows_where: bad condition %s", cond);
        *eq = 0;
        wc[nw] = -1;
        for (int c = 0; c < r.n; c++)
            if (!strcmp(r.name[c], cond))
                wc[nw] = c;
        if (wc[nw] < 0)
            fail_msg("csv_rows_where: no column %s in the header", cond);
        snprintf(wv[nw], sizeof wv[nw], "%s", eq + 1);
    }
    int found = 0;
    while (*p) {
        int c = 0;
        do {
            sep = csv_next_field(&p, c < CSV_TEST_COLS ? r.val[c] : tmp, sizeof tmp);
            c++;
        } while (sep == ',');
        for (; c < r.n; c++)
            r.val[c][0] = 0;
        int ok = 1;
        for (int i = 0; i < nw && ok; i++)
            ok = !strcmp(r.val[wc[i]], wv[i]);
        if (ok) {
            found++;
            if (f)
                f(&r, ctx);
        }
    }
    return found;
}

/* The number in column col of the one row matching `where` (see csv_rows_where), or NAN when
 * no row or several rows match, or the cell is empty. */
typedef struct CsvCell {
    const char *col;
    double v;
} CsvCell;

static inline void csv_cell_take(const CsvRow *r, void *ctx)
{
    CsvCell *c = ctx;
    c->v = NAN;
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->name[i], c->col) && r->val[i][0])
            c->v = atof(r->val[i]);
}

static inline double csv_cell(const char *csv, const char *where, const char *col)
{
    CsvCell c = {col, NAN};
    return csv_rows_where(csv, where, csv_cell_take, &c) == 1 ? c.v : NAN;
}

/* The number right after `key` (e.g. "\"nodes\": ") in a JSON text; the test fails when the key
 * is not there. */
static inline double test_json_num(const char *buf, const char *key)
{
    const char *q = buf ? strstr(buf, key) : NULL;
    if (!q)
        fail_msg("no %s in %s", key, buf ? buf : "(nothing)");
    return atof(q + strlen(key));
}

/* A fresh temporary directory for a test (removed by the caller with rm -rf if wanted). */
static inline const char *test_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/dhm-test-XXXXXX");
    return mkdtemp(buf);
}

/* `dhm train policy ARGS --quiet --jobs J -o DIR/NAMEJ.w` for J = 1 and 2 must succeed and write
 * the same weights: DIR/NAME1.t and DIR/NAME2.t, each file without its "# made by" line (which
 * names --jobs), are equal. */
static inline void test_train_jobs_alike(const char *dir, const char *args, const char *name)
{
    char out[4096];
    for (int j = 1; j <= 2; j++)
        assert_int_equal(run_cmd(out, sizeof out, "%s train policy %s --quiet --jobs %d -o %s/%s%d.w 2>&1", dhm_bin(),
                                 args, j, dir, name, j),
                         0);
    assert_int_equal(run_cmd(out, sizeof out,
                             "cd %s && grep -v '^# made by' %s1.w > %s1.t && grep -v '^# made by' %s2.w > %s2.t && "
                             "cmp %s1.t %s2.t 2>&1",
                             dir, name, name, name, name, name, name),
                     0);
}

/* dhm train policy ARGS -o DIR/x.w is refused: exit status 2 and one line that says want. */
static inline void test_train_refused(const char *dir, const char *args, const char *want)
{
    char out[4096];
    assert_int_equal(run_cmd(out, sizeof out, "%s train policy %s -o %s/x.w 2>&1", dhm_bin(), args, dir), 2);
    if (!strstr(out, want) || strchr(out, '\n') != strrchr(out, '\n'))
        fail_msg("'%s': '%s' is not one line saying '%s'", args, out, want);
}

/* Plays a match in-process among five player specs, each player seeded as every match
 * seeds it, calling on_game (may be NULL) with every finished game's record. The players come
 * back in pl so that tests can ask them about the match; free them with test_players_free. */
static inline void test_match_each(const char *const specs[5], int games, uint64_t seed, Player *pl[5],
                                   MatchResult *res, MatchGameFn on_game, void *ctx)
{
    char err[256];
    for (int p = 0; p < 5; p++)
        if (player_create(specs[p], player_seed(seed, p), &pl[p], err, sizeof err))
            fail_msg("%s: %s", specs[p], err);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = games;
    cfg.seed = seed;
    GameRecord *rec = malloc(sizeof *rec);
    assert_non_null(rec);
    assert_int_equal(match_run(pl, &cfg, NULL, on_game, ctx, rec, res), 0);
    free(rec);
}

/* The same, on_game (test_match_each) called with every finished game's record. */
static inline void test_match(const char *const specs[5], int games, uint64_t seed, Player *pl[5], MatchResult *res)
{
    test_match_each(specs, games, seed, pl, res, NULL, NULL);
}

static inline void test_players_free(Player *pl[5])
{
    for (int p = 0; p < 5; p++)
        player_destroy(pl[p]);
}

#endif

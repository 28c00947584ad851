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

/* A fresh temporary directory for a test (removed by the caller with rm -rf if wanted). */
static inline const char *test_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/dhm-test-XXXXXX");
    return mkdtemp(buf);
}

/* Plays a match in-process among five player specs, each player seeded as every match
 * seeds it. The players come back in pl so that tests can ask them about the match; free
 * them with test_players_free. */
static inline void test_match(const char *const specs[5], int games, uint64_t seed, Player *pl[5], MatchResult *res)
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
    assert_int_equal(match_run(pl, &cfg, NULL, NULL, NULL, rec, res), 0);
    free(rec);
}

static inline void test_players_free(Player *pl[5])
{
    for (int p = 0; p < 5; p++)
        player_destroy(pl[p]);
}

#endif

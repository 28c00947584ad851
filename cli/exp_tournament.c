/* exp_tournament.c — the tournament step of experiments that need many stored games
 * (experiment errorrate, experiment morita): sets drawn at random from a pool, with records,
 * into a store the user names or a temporary one. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/tournament.h"
#include "cli/cli.h"

int exp_pool(const char *cmd, const char *path, const char *default_text, Pool *pool)
{
    char err[512];
    if (path ? pool_load(path, pool, err, sizeof err) : pool_parse(default_text, "(default pool)", pool, err, sizeof err))
        return cli_fail(cmd, "%s", err);
    return 0;
}

static void tour_progress(void *ctx, long done, long total, long games)
{
    (void)games;
    Progress *p = ctx;
    p->total = total;
    progress_update(p, done, " sets");
}

int exp_tournament(const char *cmd, const Pool *pool, long sets, int games, uint64_t seed, int jobs, ExpStore *es,
                   int quiet)
{
    char err[512];
    es->st = NULL;
    es->tmp[0] = 0;
    if (!es->path) {
        snprintf(es->tmp, sizeof es->tmp, "/tmp/dhm-exp-XXXXXX");
        int fd = mkstemp(es->tmp);
        if (fd < 0) {
            es->tmp[0] = 0;
            return cli_error(cmd, "cannot make a temporary store");
        }
        close(fd);
        unlink(es->tmp);
        es->path = es->tmp;
    }
    RunInfo run;
    memset(&run, 0, sizeof run);
    run.seed = seed;
    run.sets = sets;
    run.games = games;
    run.seat_change = 3;
    run.class_reset = 100;
    snprintf(run.pairing, sizeof run.pairing, "random");
    run.records = 1;
    run.pool_text = pool->text;
    snprintf(run.command, sizeof run.command, "dhm %s (seed %llu)", cmd, (unsigned long long)seed);
    store_now(run.started, sizeof run.started);
    int rc = 0;
    if (tournament_store_create(&es->st, es->path, pool, &run, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    char logdir[1024], what[128];
    snprintf(logdir, sizeof logdir, "%s.logs", es->path);
    snprintf(what, sizeof what, "%s tournament:", cmd);
    Progress pr;
    progress_init(&pr, what, sets, !quiet);
    TournamentConfig tc = {.pool = pool, .sets = sets, .games = games, .seat_change = 3, .class_reset = 100,
                           .seed = seed, .jobs = jobs, .pairing = PAIR_RANDOM, .records = 1,
                           .move_timeout_ms = 10000, .connect_timeout_ms = 10000, .log_dir = logdir,
                           .progress = tour_progress, .progress_ctx = &pr, .python = cli_python()};
    if (!rc && tournament_run(&tc, es->st, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    progress_done(&pr);
    if (rc && es->st) {
        store_close(es->st);
        es->st = NULL;
    }
    return rc;
}

void exp_store_done(ExpStore *es)
{
    if (es->st)
        store_close(es->st);
    es->st = NULL;
    if (*es->tmp) {
        char p2[128];
        unlink(es->tmp);
        snprintf(p2, sizeof p2, "%s-wal", es->tmp);
        unlink(p2);
        snprintf(p2, sizeof p2, "%s-shm", es->tmp);
        unlink(p2);
        es->tmp[0] = 0;
    }
}

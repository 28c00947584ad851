/* runner.c — matches in worker threads (see runner.h). */
#include "analysis/runner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/workers.h"
#include "players/players.h"

typedef struct Pool {
    MatchJob *jobs;
    int n, next;
    long games, total; /* games finished over all jobs, and all games */
    pthread_mutex_t mu;
    void (*progress)(void *ctx, long done, long total);
    void *ctx;
} Pool;

typedef struct Ctx {
    Pool *pool;
    MatchJob *job;
    Player *const *pl;
} Ctx;

static int on_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    Ctx *c = ctx;
    if (c->job->on_game)
        c->job->on_game(c->job, rec, sofar, c->pl);
    __atomic_add_fetch(&c->pool->games, 1, __ATOMIC_RELAXED);
    return 0;
}

static void run_one(Pool *pool, MatchJob *j, GameRecord *rec)
{
    Player *pl[NPLAYERS] = {0};
    for (int p = 0; p < NPLAYERS && !j->failed; p++)
        if (j->create ? j->create(j, p, player_seed(j->cfg.seed, p), &pl[p], j->err, sizeof j->err)
                      : player_create(j->spec[p], player_seed(j->cfg.seed, p), &pl[p], j->err, sizeof j->err))
            j->failed = 1;
    if (!j->failed) {
        Ctx c = {pool, j, pl};
        match_run(pl, &j->cfg, NULL, on_game, &c, rec, &j->res);
    }
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
}

static void *worker(void *arg)
{
    Pool *pool = arg;
    GameRecord *rec = malloc(sizeof *rec);
    for (;;) {
        int k = workers_next(&pool->mu, &pool->next, pool->n);
        if (k < 0)
            break;
        if (rec)
            run_one(pool, &pool->jobs[k], rec);
        else {
            pool->jobs[k].failed = 1;
            snprintf(pool->jobs[k].err, sizeof pool->jobs[k].err, "out of memory");
        }
    }
    free(rec);
    return NULL;
}

static void tick(void *arg)
{
    Pool *pool = arg;
    if (pool->progress)
        pool->progress(pool->ctx, __atomic_load_n(&pool->games, __ATOMIC_RELAXED), pool->total);
}

int run_matches(MatchJob *jobs, int n, int threads, void (*progress)(void *ctx, long done, long total), void *ctx)
{
    Pool pool = {jobs, n, 0, 0, 0, PTHREAD_MUTEX_INITIALIZER, progress, ctx};
    for (int i = 0; i < n; i++)
        pool.total += jobs[i].cfg.games;
    workers_run(threads < n ? threads : n, worker, &pool, tick);
    pthread_mutex_destroy(&pool.mu);
    int failed = 0;
    for (int i = 0; i < n; i++)
        failed |= jobs[i].failed;
    return failed ? -1 : 0;
}

int match_winners(const MatchResult *r, int winners[NPLAYERS])
{
    long best = r->points[0];
    for (int p = 1; p < NPLAYERS; p++)
        if (r->points[p] > best)
            best = r->points[p];
    int k = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        winners[p] = r->points[p] == best;
        k += winners[p];
    }
    return k;
}

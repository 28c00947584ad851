/* test_workers.c — the worker pool kept between jobs (game/workers.h): in thousands of short
 * jobs, every piece of every job is done exactly once, by whichever thread claims it first; a
 * helper is always handed the job it was woken for, and one that comes late claims nothing of
 * the next; the pool ends cleanly; a pool of one, or none, has the caller do it all. */
#include "testutil.h"

#include <sched.h>
#include <stdatomic.h>

#include "game/workers.h"

enum { PIECES = 64, JOBS = 3000 };

typedef struct Job {
    long job;                       /* the job in progress */
    _Atomic uint64_t claim;         /* job << 32 | next piece */
    atomic_int finished;
    atomic_int done[PIECES];        /* times each piece was done in this job */
    atomic_long by_helpers;         /* pieces done by threads other than the caller, in all */
    atomic_int wrong_job;           /* a piece claimed by a call for another job (never) */
} Job;

static int claim(Job *j, long job)
{
    uint64_t cur = atomic_load(&j->claim);
    for (;;) {
        int b = (int)(cur & 0xffffffffu);
        if ((long)(cur >> 32) != job || b >= PIECES)
            return -1;
        if (atomic_compare_exchange_weak(&j->claim, &cur, cur + 1))
            return b;
    }
}

static void work(void *arg, int k, long job)
{
    Job *j = arg;
    for (int b; (b = claim(j, job)) >= 0;) {
        if (job != j->job)
            atomic_fetch_add(&j->wrong_job, 1);
        atomic_fetch_add(&j->done[b], 1);
        if (k)
            atomic_fetch_add(&j->by_helpers, 1);
        atomic_fetch_add(&j->finished, 1);
    }
    while (k == 0 && atomic_load(&j->finished) < PIECES)
        sched_yield();
}

/* j must outlive the pool: a helper that woke late may still be looking at it. */
static void run_jobs(WorkerPool *pool, Job *j, long *helpers)
{
    for (long job = 1; job <= JOBS; job++) {
        j->job = job;
        atomic_store(&j->finished, 0);
        for (int b = 0; b < PIECES; b++)
            atomic_store(&j->done[b], 0);
        atomic_store(&j->claim, (uint64_t)job << 32);
        workers_pool_run(pool, work, j, job);
        for (int b = 0; b < PIECES; b++)
            assert_int_equal(atomic_load(&j->done[b]), 1);
    }
    assert_int_equal(atomic_load(&j->wrong_job), 0);
    *helpers = atomic_load(&j->by_helpers);
}

static void test_every_piece_once(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++) {
        WorkerPool *pool = workers_pool_new(n);
        Job *j = calloc(1, sizeof *j);
        assert_non_null(pool);
        assert_int_equal(workers_pool_size(pool), n);
        long helpers;
        run_jobs(pool, j, &helpers);
        if (n == 1)
            assert_int_equal(helpers, 0);
        workers_pool_free(pool); /* joins the helpers: then j may go */
        free(j);
    }
    Job *j = calloc(1, sizeof *j);
    long helpers;
    run_jobs(NULL, j, &helpers); /* no pool: the caller does it all */
    free(j);
    assert_int_equal(helpers, 0);
    assert_int_equal(workers_pool_size(NULL), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_piece_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

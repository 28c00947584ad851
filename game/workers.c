/* workers.c — worker threads watched from the calling thread (see workers.h). */
#include "game/workers.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define WORKERS_MAX 256

typedef struct Crew {
    void *(*fn)(void *);
    void *arg;
    int running;
    pthread_mutex_t mu;
    pthread_cond_t finished;
} Crew;

static void *crew_member(void *p)
{
    Crew *c = p;
    c->fn(c->arg);
    pthread_mutex_lock(&c->mu);
    if (--c->running == 0)
        pthread_cond_signal(&c->finished);
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

void workers_run(int n, void *(*fn)(void *arg), void *arg, void (*tick)(void *arg))
{
    Crew crew = {fn, arg, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
    pthread_t th[WORKERS_MAX];
    int started = 0;
    n = n < 1 ? 1 : n > WORKERS_MAX ? WORKERS_MAX : n;
    pthread_mutex_lock(&crew.mu); /* workers cannot finish before the count is complete */
    for (int i = 0; i < n; i++)
        if (pthread_create(&th[started], NULL, crew_member, &crew) == 0)
            crew.running = ++started;
    if (!started) {
        pthread_mutex_unlock(&crew.mu);
        fn(arg);
    } else {
        while (crew.running > 0) {
            pthread_mutex_unlock(&crew.mu);
            if (tick)
                tick(arg);
            pthread_mutex_lock(&crew.mu);
            if (crew.running > 0) { /* wake at the last worker's end, or in 200 ms */
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 200000000;
                if (ts.tv_nsec >= 1000000000) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&crew.finished, &crew.mu, &ts);
            }
        }
        pthread_mutex_unlock(&crew.mu);
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_cond_destroy(&crew.finished);
    pthread_mutex_destroy(&crew.mu);
    if (tick)
        tick(arg);
}

int workers_next(pthread_mutex_t *mu, int *next, int n)
{
    pthread_mutex_lock(mu);
    int k = *next < n ? (*next)++ : -1;
    pthread_mutex_unlock(mu);
    return k;
}

struct WorkerPool {
    int n;                        /* threads, the caller included */
    pthread_t th[WORKERS_MAX];
    pthread_mutex_t mu;
    pthread_cond_t go;
    long job;                     /* the job in progress (the caller's number) */
    int quit;
    WorkerJobFn fn;
    void *arg;
};

typedef struct PoolSeat {
    WorkerPool *pool;
    int k;
} PoolSeat;

static void *pool_member(void *p)
{
    PoolSeat *seat = p;
    WorkerPool *pool = seat->pool;
    const int k = seat->k;
    free(seat);
    pthread_mutex_lock(&pool->mu);
    long seen = pool->job;
    for (;;) {
        while (!pool->quit && pool->job == seen)
            pthread_cond_wait(&pool->go, &pool->mu);
        if (pool->quit)
            break;
        /* the job, its function and argument, as one: a later job may be posted meanwhile */
        seen = pool->job;
        WorkerJobFn fn = pool->fn;
        void *arg = pool->arg;
        pthread_mutex_unlock(&pool->mu);
        fn(arg, k, seen);
        pthread_mutex_lock(&pool->mu);
    }
    pthread_mutex_unlock(&pool->mu);
    return NULL;
}

WorkerPool *workers_pool_new(int n)
{
    n = n < 1 ? 1 : n > WORKERS_MAX ? WORKERS_MAX : n;
    WorkerPool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pthread_mutex_init(&pool->mu, NULL);
    pthread_cond_init(&pool->go, NULL);
    pool->n = 1;
    for (int k = 1; k < n; k++) {
        PoolSeat *seat = malloc(sizeof *seat);
        if (!seat)
            break;
        *seat = (PoolSeat){pool, k};
        if (pthread_create(&pool->th[k], NULL, pool_member, seat)) {
            free(seat);
            break;
        }
        pool->n++;
    }
    if (pool->n < n && pool->n == 1) {
        workers_pool_free(pool);
        return NULL;
    }
    return pool;
}

void workers_pool_run(WorkerPool *pool, WorkerJobFn fn, void *arg, long job)
{
    if (pool && pool->n > 1) {
        pthread_mutex_lock(&pool->mu);
        pool->fn = fn;
        pool->arg = arg;
        pool->job = job;
        pthread_cond_broadcast(&pool->go);
        pthread_mutex_unlock(&pool->mu);
    }
    fn(arg, 0, job);
}

int workers_pool_size(const WorkerPool *pool) { return pool ? pool->n : 1; }

void workers_pool_free(WorkerPool *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->mu);
    pool->quit = 1;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->mu);
    for (int k = 1; k < pool->n; k++)
        pthread_join(pool->th[k], NULL);
    pthread_cond_destroy(&pool->go);
    pthread_mutex_destroy(&pool->mu);
    free(pool);
}

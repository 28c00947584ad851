/* workers.h — worker threads over one function, watched from the calling thread: what
 * tournaments (arena/) and experiments (analysis/) share. The workers take their own jobs
 * from whatever arg holds; results must not depend on which thread ran what. */
#ifndef DHM_WORKERS_H
#define DHM_WORKERS_H

#include <pthread.h>

/* Runs fn(arg) in n threads (clamped to 1..256). Meanwhile, from the calling thread, calls
 * tick(arg) (may be NULL) every 200 ms, and once more after every worker has returned. When
 * no thread can be started, the calling thread runs fn(arg) itself. Returns after all workers
 * have returned. */
void workers_run(int n, void *(*fn)(void *arg), void *arg, void (*tick)(void *arg));

/* A worker's next job index: *next (then advanced) when it is below n, else -1; under mu. */
int workers_next(pthread_mutex_t *mu, int *next, int n);

/* A crew kept for repeated short jobs (a vectorised environment's steps): n - 1 threads wait
 * between jobs, so a job costs a wake-up, not a thread start. workers_pool_run(pool, fn, arg)
 * runs fn(arg, k) for k = 1 .. n-1 in the pool's threads and k = 0 in the caller, and returns
 * when all have returned. Not for several callers at once. workers_pool_new returns NULL when
 * no thread can be started (the caller then runs fn(arg, 0) itself: pool NULL or n = 1 does). */
typedef struct WorkerPool WorkerPool;
WorkerPool *workers_pool_new(int n);
void workers_pool_run(WorkerPool *pool, void (*fn)(void *arg, int k), void *arg);
int workers_pool_size(const WorkerPool *pool); /* 1 for NULL */
void workers_pool_free(WorkerPool *pool);

#endif

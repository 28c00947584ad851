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
 * between jobs, so a job costs a wake-up, not a thread start. workers_pool_run(pool, fn, arg,
 * job) wakes the pool's threads to call fn(arg, k, job) (k = 1 .. n-1), calls fn(arg, 0, job)
 * itself, and returns when the caller's call returns: the helpers join in when they get a CPU,
 * and the caller never waits for one that does not. So fn shares its work out itself (the
 * callers claim pieces) and the caller's call waits until every claimed piece is done; job (a
 * number the caller increases with every job) lets a helper that wakes late see that the job it
 * was woken for is over and claim nothing of the next; arg must stay valid until
 * workers_pool_free, since such a helper may still look at it. One caller at a time. workers_pool_new
 * returns NULL when no thread can be started (then, as with n = 1, the caller does it all). */
typedef struct WorkerPool WorkerPool;
typedef void (*WorkerJobFn)(void *arg, int k, long job);
WorkerPool *workers_pool_new(int n);
void workers_pool_run(WorkerPool *pool, WorkerJobFn fn, void *arg, long job);
int workers_pool_size(const WorkerPool *pool); /* 1 for NULL */
void workers_pool_free(WorkerPool *pool);

#endif

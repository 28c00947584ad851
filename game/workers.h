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

#endif

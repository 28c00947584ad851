/* workers.c — worker threads watched from the calling thread (see workers.h). */
#include "game/workers.h"

#include <pthread.h>
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

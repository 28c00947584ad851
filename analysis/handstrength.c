/* handstrength.c — initial-hand win rates by perfect-information playouts (handstrength.h). */
#include "analysis/handstrength.h"

#include <stdio.h>
#include <string.h>

#include "players/mc.h"

const uint8_t HAND_PAIR_I[HAND_PAIRS] = {0, 0, 0, 0, 1, 1, 1, 2, 2, 3};
const uint8_t HAND_PAIR_J[HAND_PAIRS] = {1, 2, 3, 4, 2, 3, 4, 3, 4, 4};

static const char *const NAMES[] = {"simple", "random", "policy"};

const char *hand_policy_name(int policy) { return policy >= 0 && policy < 3 ? NAMES[policy] : "?"; }

int hand_policy_parse(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, NAMES[i]))
            return i;
    return -1;
}

void hand_describe(const HandConfig *c, char *buf, size_t size)
{
    if (c->policy == HAND_SIMPLE)
        snprintf(buf, size, "simple eps=%g", c->eps);
    else if (c->policy == HAND_POLICY)
        snprintf(buf, size, "policy temp=%g", c->temp);
    else
        snprintf(buf, size, "random");
}

uint64_t hand_seed(uint64_t seed, long set, int game) { return rng_derive(seed ^ 0x68616e64u, (uint64_t)set, (uint64_t)game); }

void hand_wins_from(const HandConfig *c, const Cards hand[NPLAYERS], const uint8_t seat[NPLAYERS], int first,
                    uint64_t seed, HandWins *out)
{
    GameState start;
    state_init(&start, hand, seat, first);
    Rng rng = rng_seed(seed);
    uint32_t above[NPLAYERS][NPLAYERS];
    memset(above, 0, sizeof above);
    for (int k = 0; k < c->playouts; k++) {
        GameState g = start;
        if (c->policy == HAND_POLICY)
            policy_playout(c->w, &g, &rng, c->temp);
        else
            mc_playout(&g, &rng, c->policy == HAND_RANDOM ? 1.0 : c->eps, NULL);
        /* order[] holds all five when the game is over (stalemates are completed by the
         * playouts); position r finished above every later one */
        for (int r = 0; r < NPLAYERS; r++)
            for (int s = r + 1; s < NPLAYERS; s++)
                above[g.order[r]][g.order[s]]++;
    }
    for (int k = 0; k < HAND_PAIRS; k++)
        out->w[k] = above[HAND_PAIR_I[k]][HAND_PAIR_J[k]];
}

void hand_wins(const HandConfig *c, const GameRecord *rec, uint64_t seed, HandWins *out)
{
    hand_wins_from(c, rec->original, rec->seat, rec->first, seed, out);
}

void hand_matrix(const HandWins *hw, int playouts, double p[NPLAYERS * NPLAYERS])
{
    for (int i = 0; i < NPLAYERS * NPLAYERS; i++)
        p[i] = 0.5;
    for (int k = 0; k < HAND_PAIRS; k++) {
        double v = playouts > 0 ? ((double)hw->w[k] + 0.5) / (playouts + 1.0) : 0.5;
        p[HAND_PAIR_I[k] * NPLAYERS + HAND_PAIR_J[k]] = v;
        p[HAND_PAIR_J[k] * NPLAYERS + HAND_PAIR_I[k]] = 1 - v;
    }
}

/* ---- over a tournament store ---- */

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "game/workers.h"
#include "record/pack.h"

_Static_assert(HAND_PAIRS == STORE_HAND_PAIRS, "the store keeps the pairs of analysis/handstrength.h");

typedef struct HandWork {
    Store *st;
    const HandRun *c;
    StoreHandInfo info;
    int games, format;
    long *todo, ntodo, next, done, games_done;
    double cpu;
    int failed;
    char err[512];
    pthread_mutex_t mu;
} HandWork;

typedef struct HandList {
    HandWork *w;
    long cached, cap;
    HandSetP b;
} HandList;

static int list_set(void *ctx, const StoredSet *x)
{
    HandList *l = ctx;
    HandWork *w = l->w;
    if (!w->c->include_broken && !set_status_ok(x->status))
        return 0;
    int r = hand_set_p(w->st, x, &l->b, w->err, sizeof w->err);
    if (r < 0)
        return -1;
    if (r == 1) {
        l->cached++;
        return 0;
    }
    if (w->ntodo == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        long *t = realloc(w->todo, (size_t)l->cap * sizeof *t);
        if (!t)
            return -1;
        w->todo = t;
    }
    w->todo[w->ntodo++] = x->idx;
    return 0;
}

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(HandWork *w, const char *msg)
{
    pthread_mutex_lock(&w->mu);
    if (!w->failed)
        snprintf(w->err, sizeof w->err, "%s", msg);
    w->failed = 1;
    pthread_mutex_unlock(&w->mu);
}

static void *hand_worker(void *arg)
{
    HandWork *w = arg;
    GameRecord *rec = malloc(sizeof *rec);
    uint32_t *wins = NULL;
    char err[512];
    if (!rec) {
        fail(w, "out of memory");
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&w->mu);
        int stop = w->failed || (w->c->stop && *w->c->stop);
        long k = stop || w->next >= w->ntodo ? -1 : w->next++;
        pthread_mutex_unlock(&w->mu);
        if (k < 0)
            break;
        long idx = w->todo[k];
        uint8_t *data = NULL;
        size_t len = 0;
        int player[NPLAYERS];
        if (store_set_records(w->st, idx, &data, &len, player, err, sizeof err)) {
            fail(w, err);
            break;
        }
        double t0 = thread_cpu();
        int n = 0, bad = 0;
        for (size_t off = 0; off < len && !bad; n++) {
            size_t used;
            uint32_t *nw = realloc(wins, (size_t)(n + 1) * STORE_HAND_PAIRS * sizeof *wins);
            if (!nw || unpack_game(data + off, len - off, w->format, rec, &used)) {
                snprintf(err, sizeof err, nw ? "damaged database: set %ld: a stored game is damaged at byte %zu" : "out of memory",
                         idx, off);
                bad = 1;
                if (nw)
                    wins = nw;
                break;
            }
            wins = nw;
            off += used;
            HandWins hw;
            hand_wins(&w->c->hc, rec, hand_seed(w->c->seed, idx, n), &hw);
            memcpy(wins + (size_t)n * STORE_HAND_PAIRS, hw.w, sizeof hw.w);
        }
        free(data);
        double t1 = thread_cpu();
        if (!bad && n != w->games) {
            snprintf(err, sizeof err, "damaged database: set %ld holds %d game records, not %d", idx, n, w->games);
            bad = 1;
        }
        if (bad || store_save_hand_p(w->st, idx, &w->info, n, wins, err, sizeof err)) {
            fail(w, err);
            break;
        }
        pthread_mutex_lock(&w->mu);
        w->done++;
        w->games_done += n;
        w->cpu += t1 - t0;
        pthread_mutex_unlock(&w->mu);
    }
    free(wins);
    free(rec);
    return NULL;
}

static void hand_tick(void *arg)
{
    HandWork *w = arg;
    pthread_mutex_lock(&w->mu);
    long d = w->done, g = w->games_done;
    pthread_mutex_unlock(&w->mu);
    if (w->c->progress)
        w->c->progress(w->c->progress_ctx, d, w->ntodo, g);
}

int hand_run_store(Store *st, const HandRun *c, HandRunOut *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    HandWork w;
    memset(&w, 0, sizeof w);
    w.st = st;
    w.c = c;
    w.format = store_records_format(st);
    StoreHandInfo have;
    if (store_hand_p_info(st, &have, err, errsz))
        return -1;
    w.info.playouts = c->hc.playouts;
    hand_describe(&c->hc, w.info.method, sizeof w.info.method);
    w.info.seed = c->seed;
    if (have.sets && (have.playouts != w.info.playouts || strcmp(have.method, w.info.method) || have.seed != c->seed)) {
        snprintf(err, errsz,
                 "the store already holds rates for %ld sets made with %d playouts, %s, seed %llu; give the same "
                 "settings to continue, or --replace to recompute them all",
                 have.sets, have.playouts, have.method, (unsigned long long)have.seed);
        return -1;
    }
    RunInfo run;
    int np;
    char **names, **specs;
    if (store_load_run(st, &run, &np, &names, &specs, err, errsz))
        return -1;
    w.games = run.games;
    int records = run.records;
    store_free_run(&run);
    store_free_names(np, names, specs);
    if (!records) {
        snprintf(err, errsz, "the store holds no game records (run the tournament with --records)");
        return -1;
    }
    HandList l = {&w, 0, 0, {0}};
    int rc = -1;
    int lr = store_each_set(st, 0, list_set, &l, err, errsz);
    hand_set_p_free(&l.b);
    if (lr) {
        if (!*err)
            snprintf(err, errsz, "%s", *w.err ? w.err : "out of memory");
        goto done;
    }
    out->sets_cached = l.cached;
    long total = w.ntodo;
    if (c->limit > 0 && w.ntodo > c->limit)
        w.ntodo = c->limit;
    pthread_mutex_init(&w.mu, NULL);
    workers_run(c->jobs, hand_worker, &w, hand_tick);
    pthread_mutex_destroy(&w.mu);
    out->sets_done = w.done;
    out->games_done = w.games_done;
    out->sets_todo = total - w.done;
    out->cpu_s = w.cpu;
    if (w.failed) {
        snprintf(err, errsz, "%s", w.err);
        goto done;
    }
    rc = 0;
done:
    free(w.todo);
    return rc;
}

int hand_set_p(Store *st, const StoredSet *x, HandSetP *b, char *err, size_t errsz)
{
    if (x->games > b->cap) {
        uint32_t *w = realloc(b->wins, (size_t)x->games * STORE_HAND_PAIRS * sizeof *w);
        if (w)
            b->wins = w;
        double *p = w ? realloc(b->p, (size_t)x->games * NPLAYERS * NPLAYERS * sizeof *p) : NULL;
        if (!p) {
            snprintf(err, errsz, "out of memory");
            return -1;
        }
        b->p = p;
        b->cap = x->games;
    }
    int r = store_hand_p(st, x->idx, x->games, b->wins, &b->playouts, err, errsz);
    for (int g = 0; r == 1 && g < x->games; g++) {
        HandWins hw;
        memcpy(hw.w, b->wins + (size_t)g * STORE_HAND_PAIRS, sizeof hw.w);
        hand_matrix(&hw, b->playouts, b->p + (size_t)g * NPLAYERS * NPLAYERS);
    }
    return r;
}

void hand_set_p_free(HandSetP *b)
{
    free(b->p);
    free(b->wins);
    memset(b, 0, sizeof *b);
}

typedef struct SumWalk {
    Store *st;
    HandSummary *s;
    int include_broken;
    HandSetP b;
    char *err;
    size_t errsz;
} SumWalk;

static int sum_set(void *ctx, const StoredSet *x)
{
    SumWalk *w = ctx;
    HandSummary *s = w->s;
    if (!w->include_broken && !set_status_ok(x->status))
        return 0;
    int r = hand_set_p(w->st, x, &w->b, w->err, w->errsz);
    if (r <= 0) {
        s->sets_missing += r == 0;
        return r;
    }
    s->sets++;
    for (int g = 0; g < x->games; g++) {
        const double *p = w->b.p + (size_t)g * NPLAYERS * NPLAYERS;
        int cls[NPLAYERS];
        unpack_classes(x->classes[g], cls);
        s->games++;
        for (int i = 0; i < NPLAYERS; i++) {
            double m = 0;
            for (int j = 0; j < NPLAYERS; j++) {
                if (j == i)
                    continue;
                double q = p[i * NPLAYERS + j], won = cls[i] < cls[j];
                m += q / (NPLAYERS - 1);
                int b = (int)(q * HAND_BINS);
                b = b < 0 ? 0 : b >= HAND_BINS ? HAND_BINS - 1 : b;
                s->bin_n[b]++;
                s->bin_p[b] += q;
                s->bin_won[b] += won;
                s->brier += (q - won) * (q - won);
                s->pairs++;
            }
            int pl = x->player[i];
            s->p_sum[pl] += m;
            s->p_sq[pl] += m * m;
            s->games_of[pl]++;
            s->class_p[cls[i]] += m;
            s->class_n[cls[i]]++;
        }
    }
    return 0;
}

int hand_summary_store(Store *st, int nplayers, int include_broken, HandSummary *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (store_hand_p_info(st, &out->info, err, errsz))
        return -1;
    out->nplayers = nplayers;
    out->p_sum = calloc((size_t)nplayers, sizeof *out->p_sum);
    out->p_sq = calloc((size_t)nplayers, sizeof *out->p_sq);
    out->games_of = calloc((size_t)nplayers, sizeof *out->games_of);
    if (!out->p_sum || !out->p_sq || !out->games_of) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    *err = 0;
    SumWalk w = {st, out, include_broken, {0}, err, errsz};
    int rc = store_each_set(st, 0, sum_set, &w, err, errsz);
    hand_set_p_free(&w.b);
    if (rc && !*err)
        snprintf(err, errsz, "out of memory");
    return rc ? -1 : 0;
}

void hand_summary_free(HandSummary *s)
{
    free(s->p_sum);
    free(s->p_sq);
    free(s->games_of);
    memset(s, 0, sizeof *s);
}

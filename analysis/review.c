/* review.c — judging every decision of some games (see review.h). The games go in chunks: the
 * decisions of a chunk are collected with their information sets (analysis/decisions.h), valued
 * by worker threads that each own an evaluator (one decision at a time, so even one game uses
 * every thread), then put together in game order, so nothing depends on the threads. */
#include "analysis/review.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decisions.h"
#include "analysis/judge.h"
#include "analysis/stats.h"
#include "game/workers.h"
#include "players/endgame.h"
#include "players/mc.h"
#include "players/players.h"

#define CHUNK_GAMES 16
#define MAX_EVALUATORS 64

const char *review_mark_name(int mark)
{
    static const char *const N[MARK_KINDS] = {"", "doubtful", "bad", "very bad"};
    return mark > 0 && mark < MARK_KINDS ? N[mark] : "";
}

const char *review_mark_symbol(int mark)
{
    static const char *const S[MARK_KINDS] = {"", "?!", "?", "??"};
    return mark > 0 && mark < MARK_KINDS ? S[mark] : "";
}

void review_config_default(ReviewConfig *c)
{
    memset(c, 0, sizeof *c);
    c->evaluator = "mc";
    c->worlds = 100;
    c->seed = 1;
    c->jobs = 2;
    c->mark_at[0] = REVIEW_DOUBTFUL;
    c->mark_at[1] = REVIEW_BAD;
    c->mark_at[2] = REVIEW_VERY_BAD;
}

int review_mark(const double mark_at[3], double loss, int sure)
{
    if (sure && loss >= mark_at[0])
        return MARK_VERY_BAD;
    return loss >= mark_at[2] ? MARK_VERY_BAD : loss >= mark_at[1] ? MARK_BAD : loss >= mark_at[0] ? MARK_DOUBTFUL : MARK_NONE;
}

/* ---- the decisions of a chunk of games ---- */

typedef struct Task {
    int game;          /* in the chunk */
    InfoSet v;         /* the maker's view (plays point into the game's record) */
    int exchange, ncards, ply;
    Move played;
    Cards given;
} Task;

typedef struct TaskOut {
    int n, chosen_ok, sure;
    ReviewChoice chosen, best, top[REVIEW_TOP];
    int ntop;
} TaskOut;

typedef struct Collect {
    Task *t;
    long n, cap;
    int game;
    unsigned mask;
} Collect;

static int collect(void *ctx, const Decision *d)
{
    Collect *c = ctx;
    if (!((c->mask >> d->v->me) & 1))
        return 0;
    if (c->n == c->cap) {
        long cap = c->cap ? 2 * c->cap : 256;
        Task *t = realloc(c->t, (size_t)cap * sizeof *t);
        if (!t)
            return -1;
        c->t = t;
        c->cap = cap;
    }
    Task *t = &c->t[c->n++];
    t->game = c->game;
    t->v = *d->v;
    t->exchange = d->exchange;
    t->ncards = d->ncards;
    t->ply = d->ply;
    t->played = d->played;
    t->given = d->given;
    return 0;
}

static int count_one(void *ctx, const Decision *d)
{
    Collect *c = ctx;
    c->n += (c->mask >> d->v->me) & 1;
    return 0;
}

typedef struct Work {
    const ReviewConfig *c;
    Player **ev;
    int nev, next_ev;
    const ReviewGame *games; /* the chunk's */
    const Task *t;
    TaskOut *out;
    int n, next;
    long done_before, done, total;
    int failed;
    pthread_mutex_t mu;
} Work;

static ReviewChoice choice_of(const Judged *j, int i, int exchange)
{
    ReviewChoice c;
    memset(&c, 0, sizeof c);
    if (exchange)
        c.gift = j->gifts[i];
    else
        c.move = j->mv[i];
    c.q = j->q[i];
    return c;
}

static int value_task(Player *ev, const ReviewConfig *c, const ReviewGame *g, const Task *t, TaskOut *o)
{
    Decision d = {&t->v, t->exchange, t->ncards, t->played, t->given, t->ply, NULL};
    Judged j;
    memset(o, 0, sizeof *o);
    if (judge_values(ev, &d, g->index, c->seed, c->worlds, &j))
        return -1;
    o->n = j.n;
    if (j.n < 2 || j.chosen < 0)
        return 0;
    o->chosen_ok = 1;
    o->chosen = choice_of(&j, j.chosen, t->exchange);
    o->best = choice_of(&j, j.best, t->exchange);
    /* the best few, best first; ties in the order of the choices (as `best`) */
    int used[REVIEW_TOP];
    for (o->ntop = 0; o->ntop < REVIEW_TOP && o->ntop < j.n; o->ntop++) {
        int k = -1;
        for (int i = 0; i < j.n; i++) {
            int taken = 0;
            for (int u = 0; u < o->ntop; u++)
                taken |= used[u] == i;
            if (!taken && (k < 0 || j.q[i] > j.q[k]))
                k = i;
        }
        used[o->ntop] = k;
        o->top[o->ntop] = choice_of(&j, k, t->exchange);
    }
    if (!t->exchange) {
        o->sure = endgame_sure_win_view(&t->v, NULL);
    }
    return 0;
}

static void *worker(void *arg)
{
    Work *w = arg;
    pthread_mutex_lock(&w->mu);
    Player *ev = w->next_ev < w->nev ? w->ev[w->next_ev++] : NULL;
    pthread_mutex_unlock(&w->mu);
    if (!ev)
        return NULL;
    int k;
    while ((k = workers_next(&w->mu, &w->next, w->n)) >= 0) {
        const Task *t = &w->t[k];
        int bad = value_task(ev, w->c, &w->games[t->game], t, &w->out[k]);
        pthread_mutex_lock(&w->mu);
        w->done++;
        if (bad) {
            w->failed = 1;
            w->next = w->n; /* the others stop too */
        }
        pthread_mutex_unlock(&w->mu);
    }
    return NULL;
}

static void tick(void *arg)
{
    Work *w = arg;
    pthread_mutex_lock(&w->mu);
    long d = w->done_before + w->done;
    pthread_mutex_unlock(&w->mu);
    if (w->c->progress)
        w->c->progress(w->c->progress_ctx, d, w->total);
}

/* The chunk's valued decisions into the games' reviews, in game order. */
static int assemble(const ReviewConfig *c, Player *ev, const ReviewGame *g, const Task *t, const TaskOut *o, long nt,
                    GameReview *r)
{
    r->index = g->index;
    r->judged_mask = g->mask;
    memcpy(r->mark_at, c->mark_at, sizeof r->mark_at);
    r->average = 0;
    for (int k = 0; k < NPLAYERS; k++)
        r->average += mc_reward(ev, k) / NPLAYERS;
    double before[NPLAYERS]; /* each player's value after its previous judged decision */
    for (int p = 0; p < NPLAYERS; p++) {
        before[p] = r->average;
        r->result[p] = mc_reward(ev, g->rec->result[p]);
    }
    long judged = 0;
    for (long i = 0; i < nt; i++)
        judged += o[i].chosen_ok;
    r->d = calloc((size_t)(judged ? judged : 1), sizeof *r->d);
    if (!r->d)
        return -1;
    for (long i = 0; i < nt; i++) {
        const int p = t[i].v.me;
        if (o[i].n < 2) {
            r->skipped[p]++;
            continue;
        }
        if (!o[i].chosen_ok)
            continue;
        ReviewDecision *d = &r->d[r->n++];
        d->ply = t[i].ply;
        d->player = p;
        d->exchange = t[i].exchange;
        d->nchoices = o[i].n;
        d->chosen = o[i].chosen;
        d->best = o[i].best;
        d->ntop = o[i].ntop;
        memcpy(d->top, o[i].top, sizeof d->top);
        d->loss = d->best.q - d->chosen.q;
        d->sure = o[i].sure;
        d->mark = review_mark(c->mark_at, d->loss, d->sure);
        d->luck = d->best.q - before[p];
        before[p] = d->chosen.q;
        r->judged[p]++;
        r->loss[p] += d->loss;
        r->marks[p][d->mark]++;
        r->luck[p] += d->luck;
    }
    for (int p = 0; p < NPLAYERS; p++)
        if ((g->mask >> p) & 1)
            r->luck[p] += r->result[p] - before[p];
    return 0;
}

int review_games(const ReviewConfig *c, const ReviewGame *games, int n, GameReview *out, char *err, size_t errsz)
{
    memset(out, 0, (size_t)n * sizeof *out);
    Work w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.nev = c->jobs < 1 ? 1 : c->jobs > MAX_EVALUATORS ? MAX_EVALUATORS : c->jobs;
    Player *ev[MAX_EVALUATORS] = {0};
    w.ev = ev;
    Collect col = {NULL, 0, 0, 0, 0};
    TaskOut *o = NULL;
    int rc = -1;
    for (int i = 0; i < w.nev; i++) {
        if (player_create(c->evaluator, 0, &ev[i], err, errsz))
            goto done;
        if (!mc_is(ev[i])) {
            snprintf(err, errsz, "the evaluator must be an mc or search player, not '%s'", c->evaluator);
            goto done;
        }
    }
    for (int g = 0; g < n; g++) { /* how many decisions, for the progress line */
        Collect count = {NULL, 0, 0, 0, games[g].mask};
        decisions_each(games[g].rec, count_one, &count);
        w.total += count.n;
    }
    pthread_mutex_init(&w.mu, NULL);
    for (int g0 = 0; g0 < n; g0 += CHUNK_GAMES) {
        const int ng = n - g0 < CHUNK_GAMES ? n - g0 : CHUNK_GAMES;
        long first[CHUNK_GAMES + 1];
        col.n = 0;
        for (int g = 0; g < ng; g++) {
            first[g] = col.n;
            col.game = g;
            col.mask = games[g0 + g].mask;
            if (decisions_each(games[g0 + g].rec, collect, &col)) {
                snprintf(err, errsz, "out of memory");
                goto unlock;
            }
        }
        first[ng] = col.n;
        free(o);
        if (!(o = malloc((size_t)(col.n ? col.n : 1) * sizeof *o))) {
            snprintf(err, errsz, "out of memory");
            goto unlock;
        }
        w.games = games + g0;
        w.t = col.t;
        w.out = o;
        w.n = (int)col.n;
        w.next = 0;
        w.next_ev = 0;
        workers_run(w.nev, worker, &w, tick);
        if (w.failed) {
            snprintf(err, errsz, "game %d: a position the evaluator cannot deal", games[g0].rec->number);
            goto unlock;
        }
        w.done_before += w.done;
        w.done = 0;
        for (int g = 0; g < ng; g++)
            if (assemble(c, ev[0], &games[g0 + g], col.t + first[g], o + first[g], first[g + 1] - first[g],
                         &out[g0 + g])) {
                snprintf(err, errsz, "out of memory");
                goto unlock;
            }
    }
    rc = 0;
unlock:
    pthread_mutex_destroy(&w.mu);
done:
    for (int i = 0; i < w.nev; i++)
        player_destroy(ev[i]);
    free(col.t);
    free(o);
    return rc;
}

void review_free(GameReview *r)
{
    free(r->d);
    r->d = NULL;
    r->n = 0;
}

/* ---- sums per player ---- */

int review_summarize(const GameReview *r, int n, int reps, double conf, uint64_t seed, ReviewSummary out[NPLAYERS])
{
    memset(out, 0, NPLAYERS * sizeof *out);
    int rc = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        ReviewSummary *s = &out[p];
        s->over_games = n > 1;
        for (int g = 0; g < n; g++) {
            if (!((r[g].judged_mask >> p) & 1))
                continue;
            s->games++;
            s->judged += r[g].judged[p];
            s->skipped += r[g].skipped[p];
            s->loss += r[g].loss[p];
            for (int k = 0; k < MARK_KINDS; k++)
                s->marks[k] += r[g].marks[p][k];
            s->luck += r[g].luck[p];
            s->result += r[g].result[p];
            s->average += r[g].average;
        }
        s->rate = s->judged ? s->loss / (double)s->judged : NAN;
        s->lo = s->hi = NAN;
        /* the units resampled: the player's games, or the decisions of the one game */
        long units = s->over_games ? s->games : s->judged, k = 0;
        double *num = malloc((size_t)(units ? units : 1) * sizeof *num);
        long *den = malloc((size_t)(units ? units : 1) * sizeof *den);
        if (!num || !den) {
            rc = -1;
        } else {
            for (int g = 0; g < n; g++) {
                if (!((r[g].judged_mask >> p) & 1))
                    continue;
                if (s->over_games) {
                    num[k] = r[g].loss[p];
                    den[k++] = r[g].judged[p];
                } else {
                    for (int i = 0; i < r[g].n; i++)
                        if (r[g].d[i].player == p) {
                            num[k] = r[g].d[i].loss;
                            den[k++] = 1;
                        }
                }
            }
            if (stats_bootstrap_ratio(num, den, k, reps, conf, rng_derive(seed, 0x76696577, (uint64_t)p), &s->lo, &s->hi))
                rc = -1;
        }
        free(num);
        free(den);
    }
    return rc;
}

/* ---- as bytes ---- */

typedef struct Buf {
    uint8_t *p;
    size_t n, cap;
    int bad;
} Buf;

static void put(Buf *b, uint64_t v, int bytes)
{
    if (b->bad)
        return;
    if (b->n + (size_t)bytes > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->bad = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    for (int i = 0; i < bytes; i++)
        b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

static void put_f(Buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put(b, u, 8);
}

static void put_choice(Buf *b, const ReviewChoice *c)
{
    uint64_t m;
    memcpy(&m, &c->move, sizeof m);
    put(b, m, 8);
    put(b, c->gift, 8);
    put_f(b, c->q);
}

#define PACK_MAGIC 0x52564844u /* "DHVR" */
#define PACK_VERSION 1

uint8_t *review_pack(const GameReview *r, size_t *len)
{
    Buf b = {NULL, 0, 0, 0};
    put(&b, PACK_MAGIC, 4);
    put(&b, PACK_VERSION, 1);
    put(&b, (uint64_t)r->index, 8);
    put(&b, r->judged_mask, 1);
    put_f(&b, r->average);
    for (int k = 0; k < 3; k++)
        put_f(&b, r->mark_at[k]);
    for (int p = 0; p < NPLAYERS; p++) {
        put(&b, (uint64_t)r->judged[p], 4);
        put(&b, (uint64_t)r->skipped[p], 4);
        put_f(&b, r->loss[p]);
        for (int k = 0; k < MARK_KINDS; k++)
            put(&b, (uint64_t)r->marks[p][k], 4);
        put_f(&b, r->luck[p]);
        put_f(&b, r->result[p]);
    }
    put(&b, (uint64_t)r->n, 4);
    for (int i = 0; i < r->n; i++) {
        const ReviewDecision *d = &r->d[i];
        put(&b, (uint64_t)(uint16_t)(int16_t)d->ply, 2);
        put(&b, (uint64_t)d->player, 1);
        put(&b, (uint64_t)d->exchange, 1);
        put(&b, (uint64_t)d->nchoices, 2);
        put(&b, (uint64_t)d->mark, 1);
        put(&b, (uint64_t)d->sure, 1);
        put_f(&b, d->loss);
        put_f(&b, d->luck);
        put_choice(&b, &d->chosen);
        put_choice(&b, &d->best);
        put(&b, (uint64_t)d->ntop, 1);
        for (int k = 0; k < d->ntop; k++)
            put_choice(&b, &d->top[k]);
    }
    if (b.bad) {
        free(b.p);
        return NULL;
    }
    *len = b.n;
    return b.p;
}

typedef struct In {
    const uint8_t *p;
    size_t n, at;
    int bad;
} In;

static uint64_t get(In *in, int bytes)
{
    if (in->bad || in->n - in->at < (size_t)bytes) {
        in->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)in->p[in->at++] << (8 * i);
    return v;
}

/* A finite number in [lo, hi], else the input is bad. */
static double get_f(In *in, double lo, double hi)
{
    uint64_t u = get(in, 8);
    double v;
    memcpy(&v, &u, sizeof v);
    if (!(v >= lo && v <= hi))
        in->bad = 1;
    return v;
}

static void get_choice(In *in, int exchange, ReviewChoice *c)
{
    uint64_t m = get(in, 8);
    c->move = move_from_word(m);
    c->gift = get(in, 8);
    c->q = get_f(in, 0, 1);
    if (exchange ? (m != 0 || !c->gift || (c->gift & ~CARDS_ALL) || cards_count(c->gift) > 2)
                 : (c->gift || !move_valid_shape(c->move)))
        in->bad = 1;
}

int review_unpack(const uint8_t *buf, size_t len, GameReview *r)
{
    memset(r, 0, sizeof *r);
    In in = {buf, len, 0, 0};
    if (get(&in, 4) != PACK_MAGIC || get(&in, 1) != PACK_VERSION)
        return -1;
    r->index = (long)get(&in, 8);
    r->judged_mask = (unsigned)get(&in, 1);
    r->average = get_f(&in, 0, 1);
    for (int k = 0; k < 3; k++)
        r->mark_at[k] = get_f(&in, 0, 1);
    for (int p = 0; p < NPLAYERS; p++) {
        r->judged[p] = (long)get(&in, 4);
        r->skipped[p] = (long)get(&in, 4);
        r->loss[p] = get_f(&in, 0, GAME_MAX_PLAYS);
        for (int k = 0; k < MARK_KINDS; k++)
            r->marks[p][k] = (long)get(&in, 4);
        r->luck[p] = get_f(&in, -GAME_MAX_PLAYS, GAME_MAX_PLAYS);
        r->result[p] = get_f(&in, 0, 1);
    }
    uint64_t n = get(&in, 4);
    if (in.bad || r->index < 0 || r->judged_mask > 31 || n > GAME_MAX_PLAYS + 2 ||
        !(r->mark_at[0] < r->mark_at[1] && r->mark_at[1] < r->mark_at[2]) ||
        n * 60 > len - in.at) /* a decision takes at least 60 bytes: no huge allocation from a short input */
        return -1;
    r->d = calloc((size_t)(n ? n : 1), sizeof *r->d);
    if (!r->d)
        return -1;
    long judged[NPLAYERS] = {0};
    for (uint64_t i = 0; i < n && !in.bad; i++) {
        ReviewDecision *d = &r->d[r->n++];
        d->ply = (int16_t)(uint16_t)get(&in, 2);
        d->player = (int)get(&in, 1);
        d->exchange = (int)get(&in, 1);
        d->nchoices = (int)get(&in, 2);
        d->mark = (int)get(&in, 1);
        d->sure = (int)get(&in, 1);
        d->loss = get_f(&in, 0, 1);
        d->luck = get_f(&in, -1, 1);
        if (d->player >= NPLAYERS || d->exchange > 1 || d->nchoices < 2 || d->nchoices > JUDGE_MAX ||
            d->mark >= MARK_KINDS || d->sure > 1 || (d->exchange ? d->ply != -1 : d->ply < 0))
            in.bad = 1;
        get_choice(&in, d->exchange, &d->chosen);
        get_choice(&in, d->exchange, &d->best);
        d->ntop = (int)get(&in, 1);
        if (d->ntop < 1 || d->ntop > REVIEW_TOP || d->ntop > d->nchoices)
            in.bad = 1;
        for (int k = 0; k < d->ntop && !in.bad; k++)
            get_choice(&in, d->exchange, &d->top[k]);
        if (!in.bad && (fabs(d->best.q - d->chosen.q - d->loss) > 1e-9 || d->best.q != d->top[0].q ||
                        d->mark != review_mark(r->mark_at, d->loss, d->sure)))
            in.bad = 1;
        if (!in.bad)
            judged[d->player]++;
    }
    for (int p = 0; p < NPLAYERS && !in.bad; p++)
        if (judged[p] != r->judged[p] || (judged[p] && !((r->judged_mask >> p) & 1)))
            in.bad = 1;
    if (in.bad || in.at != len) {
        review_free(r);
        return -1;
    }
    return 0;
}

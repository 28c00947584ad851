/* feed.c — a watched match's steps into a bounded ring, whole games at a time (feed.h). */
#include "watch/feed.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Room a game needs: every play it can have, the deal, four gifts, the start, five places,
 * the end; and a few records more for BEGIN and OVER, which are never refused. */
#define GAME_RECS (GAME_MAX_PLAYS + 12)
#define RESERVE 4

WatchFeed *watch_feed_new(int delay_ms, int always)
{
    WatchFeed *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->ring = malloc(WATCH_RING * sizeof *f->ring);
    if (!f->ring) {
        free(f);
        return NULL;
    }
    pthread_mutex_init(&f->mu, NULL);
    f->delay_ms = delay_ms;
    f->gap_ms = WATCH_GAP_MS;
    f->always = always;
    atomic_init(&f->viewers, 0);
    atomic_init(&f->dropped, 0);
    atomic_init(&f->played, 0);
    f->hooks = (GameHooks){.ctx = f, .event = watch_feed_event};
    return f;
}

void watch_feed_free(WatchFeed *f)
{
    if (!f)
        return;
    pthread_mutex_destroy(&f->mu);
    free(f->ring);
    free(f);
}

/* Copies r into the ring if at least `need` records are free after it. Returns 1 if it did. */
static int push(WatchFeed *f, const WatchRec *r, unsigned long need)
{
    int ok = 0;
    pthread_mutex_lock(&f->mu);
    if (WATCH_RING - (f->head - f->tail) >= need + 1) {
        f->ring[f->head % WATCH_RING] = *r;
        f->head++;
        ok = 1;
    }
    pthread_mutex_unlock(&f->mu);
    if (!ok)
        atomic_fetch_add_explicit(&f->dropped, 1, memory_order_relaxed);
    return ok;
}

/* A new game may be recorded when the whole of it fits and, without a delay, when the reader
 * has taken the last game recorded (it drains five times a second) and the last one began at
 * least gap_ms ago: no page shows more, and every viewer is spared the bytes. */
static int admit(WatchFeed *f)
{
    if (!f->always && atomic_load_explicit(&f->viewers, memory_order_relaxed) == 0)
        return 0;
    double now = 0;
    if (f->delay_ms == 0 && (now = game_clock_ms()) - f->last_admit_ms < f->gap_ms)
        return 0;
    pthread_mutex_lock(&f->mu);
    const unsigned long used = f->head - f->tail;
    const int ok = WATCH_RING - used >= GAME_RECS + RESERVE && (f->delay_ms > 0 || f->tail >= f->mark);
    pthread_mutex_unlock(&f->mu);
    if (ok)
        f->last_admit_ms = now;
    return ok;
}

static void switch_event(WatchFeed *f)
{
    const int on = f->always || atomic_load_explicit(&f->viewers, memory_order_relaxed) > 0;
    f->hooks.event = on ? watch_feed_event : NULL;
}

void watch_feed_begin(WatchFeed *f, long set, const int who[NPLAYERS])
{
    memset(f->totals, 0, sizeof f->totals);
    f->done = 0;
    atomic_store(&f->played, 0);
    f->admitted = 0;
    f->skipped = 0;
    f->last_end_ms = 0;
    f->last_admit_ms = -1e9;
    switch_event(f);
    pthread_mutex_lock(&f->mu);
    f->mark = f->head;
    pthread_mutex_unlock(&f->mu);
    WatchRec r;
    memset(&r, 0, sizeof r);
    r.kind = WREC_BEGIN;
    r.set = set;
    if (who)
        memcpy(r.who, who, sizeof r.who);
    r.ms = game_clock_ms();
    push(f, &r, 0);
}

void watch_feed_game(WatchFeed *f, const MatchResult *sofar)
{
    memcpy(f->totals, sofar->points, sizeof f->totals);
    f->done = sofar->games;
    atomic_store(&f->played, sofar->games);
    if (f->tally)
        atomic_fetch_add(f->tally, 1);
    switch_event(f);
}

void watch_feed_over(WatchFeed *f)
{
    WatchRec r;
    memset(&r, 0, sizeof r);
    r.kind = WREC_OVER;
    r.done = f->done;
    memcpy(r.totals, f->totals, sizeof r.totals);
    r.ms = game_clock_ms();
    push(f, &r, 0);
}

static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int watch_feed_event(void *ctx, const GameEvent *e)
{
    WatchFeed *f = ctx;
    WatchRec r;
    if (e->kind == GAME_EV_END) {
        memset(&r, 0, sizeof r);
        for (int p = 0; p < NPLAYERS; p++)
            f->totals[p] += game_points(e->rec->result[p]);
        f->done++;
        const double now = game_clock_ms();
        /* the viewers have left (the hook goes off after this game): the totals at most ten times
         * a second */
        if (!f->admitted && !f->always && atomic_load_explicit(&f->viewers, memory_order_relaxed) == 0 &&
            now - f->last_end_ms < 100)
            return 0;
        f->last_end_ms = now;
        r.kind = WREC_END;
        r.number = e->rec->number;
        r.shown = (int8_t)f->admitted;
        r.stalemate = (int8_t)e->rec->stalemate;
        for (int p = 0; p < NPLAYERS; p++)
            r.result[p] = (int8_t)e->rec->result[p];
        memcpy(r.hand, e->hand, sizeof r.hand);
        r.st = *e->state;
        memcpy(r.totals, f->totals, sizeof r.totals);
        r.done = f->done;
        r.ms = now;
        if (!f->admitted)
            f->skipped++;
        if (push(f, &r, RESERVE / 2) && f->admitted)
            f->mark = f->head; /* the next game waits until the reader has taken this one */
        f->admitted = 0;
        return 0;
    }
    if (e->kind == GAME_EV_DEAL)
        f->admitted = admit(f);
    if (!f->admitted)
        return 0;
    memset(&r, 0, sizeof r);
    r.kind = (uint8_t)(e->kind == GAME_EV_DEAL ? WREC_DEAL : e->kind == GAME_EV_EXCHANGE ? WREC_XCHG
                       : e->kind == GAME_EV_START ? WREC_START : e->kind == GAME_EV_PLAY ? WREC_PLAY : WREC_OUT);
    r.player = (int8_t)e->player;
    r.to = (int8_t)e->to;
    r.accepted = (uint8_t)e->accepted;
    r.flags = e->flags;
    r.number = e->rec->number;
    r.cards = e->cards;
    r.move = e->move;
    memcpy(r.hand, e->hand, sizeof r.hand);
    if (e->state)
        r.st = *e->state;
    memcpy(r.seat, e->rec->seat, sizeof r.seat);
    memcpy(r.cls, e->rec->cls, sizeof r.cls);
    r.dealer = (int8_t)e->rec->dealer;
    r.first = (int8_t)e->rec->first;
    if (e->kind == GAME_EV_PLAY && e->rec->nplays > 0)
        r.usec = e->rec->plays[e->rec->nplays - 1].usec;
    push(f, &r, RESERVE); /* room for the whole game was there at its deal */
    if (e->kind == GAME_EV_PLAY && f->delay_ms > 0)
        pause_ms(f->delay_ms);
    return 0;
}

int watch_feed_drain(WatchFeed *f, WatchRec *out, int max)
{
    pthread_mutex_lock(&f->mu);
    int n = 0;
    while (n < max && f->tail < f->head)
        out[n++] = f->ring[f->tail++ % WATCH_RING];
    pthread_mutex_unlock(&f->mu);
    return n;
}

/* feed.h — the game thread's side of a live view (dhm serve --watch, dhm tournament --watch).
 *
 * A WatchFeed is the GameHooks.event of one match: it copies each step of the game into a
 * bounded ring of fixed-size records that the watch server's own thread drains (watch.c).
 * The game never waits for it: the ring is taken under a mutex held for one copy, nothing
 * blocks, and when the reader is behind the feed leaves whole games out rather than half of
 * one. A game is admitted at its deal when the ring has room for every event a game can have
 * and, without a per-move delay, when the reader has taken the game recorded before it and that
 * one began at least WATCH_GAP_MS before (so a fast match is sampled
 * about as often as the reader drains: the page shows the latest game rather than falling
 * behind); every admitted game is complete, every other one still sends its result and the
 * running totals (WREC_END with shown = 0). With delay_ms > 0 each recorded move is followed
 * by a sleep of that long in the game's thread (the match is slowed on purpose, to be watched).
 * Memory: the ring belongs to the feed (watch_feed_new / watch_feed_free).
 */
#ifndef DHM_WATCH_FEED_H
#define DHM_WATCH_FEED_H

#include <pthread.h>
#include <stdatomic.h>

#include "game/match.h"

enum { WREC_BEGIN = 1, WREC_DEAL, WREC_XCHG, WREC_START, WREC_PLAY, WREC_OUT, WREC_END, WREC_OVER };

/* One step of a watched match, copied out of a GameEvent (every field the page may show). */
typedef struct WatchRec {
    uint8_t kind;          /* WREC_* */
    int8_t player, to;     /* as GameEvent; OUT: to = the place */
    uint8_t accepted;
    int flags;             /* PLAY: EV_* */
    int number;            /* the game (index in the match) */
    long set;              /* BEGIN: the set (-1: a served match) */
    int who[NPLAYERS];     /* BEGIN: the set's players (pool indices), by player number */
    Cards cards;           /* XCHG: given; PLAY: played */
    Move move;             /* PLAY: as applied */
    uint32_t usec;         /* PLAY: thinking time when the match is timed */
    Cards hand[NPLAYERS];  /* the hands now */
    GameState st;          /* START, PLAY, OUT, END: the state after */
    uint8_t seat[NPLAYERS];
    int8_t cls[NPLAYERS];  /* DEAL: classes before the game (-1: no exchange) */
    int8_t dealer, first, stalemate, shown;
    int8_t result[NPLAYERS];
    long totals[NPLAYERS]; /* END: points so far in the match */
    long done;             /* END: games finished */
    double ms;             /* END: game_clock_ms() */
} WatchRec;

#define WATCH_RING 2048 /* records; a game has at most GAME_MAX_PLAYS + 12 */
#define WATCH_GAP_MS 100 /* without a delay, at most ten games a second are recorded in full */

typedef struct WatchFeed {
    pthread_mutex_t mu;
    WatchRec *ring;
    unsigned long head, tail; /* written, read (head - tail <= WATCH_RING) */
    unsigned long mark;       /* head after the last recorded game (the game thread writes it) */
    /* the game thread's own */
    int admitted;             /* the game in play is recorded */
    int delay_ms;
    int gap_ms;               /* WATCH_GAP_MS (a test sets 0 to record every game it drains) */
    int always;               /* record games with nobody watching (a served match: a viewer who
                               * joins sees the game in play) */
    long totals[NPLAYERS], done;
    double last_end_ms, last_admit_ms;
    long skipped;             /* games left out (only their results sent) */
    atomic_int viewers;       /* set by the reader: viewers of this feed right now */
    atomic_long played;       /* games of the match played so far (watch_feed_game), for any thread */
    atomic_long *tally;       /* if set, one more for every game played (a tournament's count) */
    atomic_long dropped;      /* records that found the ring full (never part of a game) */
    GameHooks hooks;          /* {.ctx = the feed, .event = watch_feed_event} */
} WatchFeed;

WatchFeed *watch_feed_new(int delay_ms, int always);
void watch_feed_free(WatchFeed *f);
/* The hooks to give match_run / a server (ServerConfig.watch) for this feed. */
static inline const GameHooks *watch_feed_hooks(WatchFeed *f) { return &f->hooks; }
/* A match begins on this feed (set: its index, -1 for a served match; who: its players' pool
 * indices, may be NULL): the totals restart. From the thread that plays it, before its first game. */
void watch_feed_begin(WatchFeed *f, long set, const int who[NPLAYERS]);
/* The match is over (or abandoned); from the same thread, after its last game. */
void watch_feed_over(WatchFeed *f);
/* After each game, from the thread that plays the match (a tournament's set): the totals so
 * far and the games played (counted as they are played, watched or not), and the event hook
 * turned on for the next game only while someone watches (a feed that is not `always` costs an
 * unwatched match one call a game). */
void watch_feed_game(WatchFeed *f, const MatchResult *sofar);
/* GameHooks.event. Always returns 0: a view never stops a game. */
int watch_feed_event(void *ctx, const GameEvent *e);
/* The reader: moves up to max records out of the ring into out. Returns how many. */
int watch_feed_drain(WatchFeed *f, WatchRec *out, int max);

#endif

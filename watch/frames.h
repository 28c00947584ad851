/* frames.h — what a live view sends: one channel per watched match (or the tournament), the
 * match's model kept from its WatchRecs and every step formatted once as a JSON frame of
 * Server-Sent Events ("data: {...}\n\n"), for every viewer of the channel to read.
 *
 * A channel keeps (a) a ring of the bytes of its frames (viewers read it from their own
 * positions; whoever falls more than half of it behind starts again from a fresh snapshot),
 * and (b) what a viewer who joins now is sent first: a hello frame made from the model as it
 * was at the deal of the latest recorded game (names, standings, the chart, games per second),
 * the last RECENT_GAMES games shown in full (one "game" frame each), then every frame since that
 * deal (the game, and the results of the games played after it), then the other kept frames (a
 * tournament's failed sets). So a viewer joining in the middle of a game sees it from its deal,
 * the results it is sent follow the hello's count one by one (never a game twice or one left
 * out, whenever it joins), and the page is built by the same code either way.
 * Cards, moves and what a play did are the words of `dhm view` (report/viewfmt.h). Every
 * string is JSON-escaped, with <, > and & as \u escapes. Hands (and the cards given in the
 * exchange) are left out when hands is 0. Not thread-safe: watch.c holds its lock.
 */
#ifndef DHM_WATCH_FRAMES_H
#define DHM_WATCH_FRAMES_H

#include <stdint.h>

#include "watch/feed.h"

/* A growing string (JSON being built). oom: a failed allocation (the text is then cut). */
typedef struct Sb {
    char *s;
    size_t n, cap;
    int oom;
} Sb;
void sb_put(Sb *b, const char *s, size_t n);
void sb_printf(Sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_json(Sb *b, const char *s); /* a JSON string literal, quotes included */
void sb_free(Sb *b);

#define CHART_MAX 240
#define RECENT_GAMES 20 /* games shown in full that every joiner gets ("game" frames) */
#define GAME_KEEP_MAX (256u << 10) /* bytes of frames kept since the latest recorded deal */

enum { CHAN_MATCH = 0, CHAN_TOURNAMENT = 1 };

typedef struct WatchChan {
    int kind;              /* CHAN_MATCH or CHAN_TOURNAMENT */
    char *log;             /* ring of frame bytes */
    size_t cap;
    uint64_t w;            /* bytes ever written */
    Sb game;               /* every frame since the latest recorded game's deal (that game, then
                            * the ends of the games after it); a tournament's channel: its hello */
    Sb keep;               /* frames every joining viewer gets after the game (failed sets) */
    Sb prog, stand;        /* tournament: the latest progress and standings frames */
    uint64_t epoch;        /* a new match on this channel: viewers of the old one end */
    uint64_t epoch_w;      /* w when it began */
    int over;              /* the match is over: viewers end once they have read the log */
    int active;            /* a match (or set) is on this channel */
    int viewers;
    long set;              /* the set on this channel (-1: a served match) */
    /* the match */
    int hands, delay_ms, games, limit;
    char names[NPLAYERS][64];
    long totals[NPLAYERS], done, skipped;
    double t0_ms, last_ms;
    int chart_n, chart_step;
    long chart[CHART_MAX][1 + NPLAYERS]; /* games done, then the five totals */
    /* the standings at the deal of the game in `game` (what a joiner's hello says) */
    long base_done, base_skipped, base_totals[NPLAYERS];
    double base_ms;
    /* the last games shown in full, as "game" frames (JSON), oldest at recent_at */
    Sb recent[RECENT_GAMES];
    int nrecent, recent_at;
    Sb plays;              /* the plays of the game being recorded, for its "game" frame */
    /* the game being recorded */
    int number, ply, recording;
    GameState prev;        /* the state before the next play */
    Cards hand[NPLAYERS];
} WatchChan;

int chan_init(WatchChan *c, int kind, size_t cap);
void chan_free(WatchChan *c);
/* A new match on the channel: viewers of the one before end; the model restarts. */
void chan_reset(WatchChan *c, long set, const char *const names[NPLAYERS], int games);
/* One record of the channel's feed: the model follows it and its frames go out. */
void chan_apply(WatchChan *c, const WatchRec *r);
/* Appends one frame (the JSON of one message); keep_game: also to the game kept for joiners. */
void chan_frame(WatchChan *c, const Sb *json, int keep_game);
/* One frame's bytes ("data: JSON" and a blank line) onto out. */
void chan_put_frame(Sb *out, const Sb *json);
/* The hello frame's JSON (a match channel): the match, the standings, the chart, now. */
void chan_hello(const WatchChan *c, Sb *out);
/* What a viewer joining now is sent first. */
void chan_snapshot(const WatchChan *c, Sb *out);
/* "tick": viewers, games per second, games left out (from the watch thread once a second). */
void chan_tick(WatchChan *c, long dropped);

#endif

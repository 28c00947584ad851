/* watch.h — the live view of dhm serve --watch and dhm tournament --watch: a small read-only
 * web server (GNU libmicrohttpd, docs/watch.md says why) that serves one self-contained page
 * and a Server-Sent Events stream of the match as it is played.
 *
 * Threads: the matches run in their own threads and only write into their WatchFeed's ring
 * (feed.h), never waiting; the watch thread drains the rings five times a second (with a delay, once a move; the end wakes it at once) and formats the frames
 * once (frames.h); libmicrohttpd runs a thread per connection, and a viewer's thread copies
 * frames out of its channel. A viewer that falls behind starts again from a fresh snapshot; one
 * that stops reading is closed after the idle timeout; neither ever slows a match.
 * Safety: GET and HEAD only (anything else: 405), nothing a viewer sends reaches a match;
 * loopback unless an address is given; at most max_viewers streams at once (the next one is
 * answered 503 with the reason); requests larger than libmicrohttpd's 32 KB memory limit are
 * refused by it (414/431), idle or slow connections closed after timeout_s; the page sets a
 * Content-Security-Policy that lets it fetch nothing but its own stream.
 * A WatchServer owns its threads, channels and feeds (watch_stop frees everything).
 */
#ifndef DHM_WATCH_H
#define DHM_WATCH_H

#include <stddef.h>
#include <stdio.h>

#include "watch/feed.h"

typedef struct WatchConfig {
    char addr[64];    /* "127.0.0.1" */
    int port;         /* 0: any free port */
    int hands;        /* show every hand to spectators (1) */
    int delay_ms;     /* per recorded move (0) */
    int max_viewers;  /* streams at once (32) */
    int timeout_s;    /* idle connections are closed after this (10) */
} WatchConfig;

void watch_config_default(WatchConfig *c);
/* "[ADDR:]PORT" ("8080", "0.0.0.0:8080", "[::1]:8080") into c->addr and c->port. */
int watch_parse_addr(const char *s, WatchConfig *c, char *err, size_t errsz);

typedef struct WatchServer WatchServer;

/* Starts the web server and the watch thread. */
int watch_start(WatchServer **out, const WatchConfig *cfg, char *err, size_t errsz);
int watch_port(const WatchServer *w);
/* "http://127.0.0.1:8080/" */
void watch_url(const WatchServer *w, char *buf, size_t n);

/* A served match of `games` games: its feed (record with it: watch_feed_hooks). Viewers may
 * connect at once (the page waits for the first game); watch_match_begin when the players are
 * known (names by player number), just before the first game. */
WatchFeed *watch_match(WatchServer *w, int games);
void watch_match_begin(WatchServer *w, const char *const names[NPLAYERS]);

/* A tournament: its pool's names (copied) and the run's shape; sets are watched at /set/K. */
int watch_tournament(WatchServer *w, int n, const char *const *names, long sets, int games, int jobs,
                     const char *db);
/* From a worker thread: set k begins with these pool players (by player number); the feed to
 * record it with (NULL: none free). watch_set_end when it is over, stored or not. */
WatchFeed *watch_set_begin(WatchServer *w, long k, const int player[NPLAYERS]);
void watch_set_end(WatchServer *w, WatchFeed *f);
/* From the main thread: the run's progress (sets done of total, games played, seconds since
 * the start, sets stored before this run began). */
void watch_progress(WatchServer *w, long done, long total, long games, double secs, long already);

typedef struct WatchStanding {
    int player;       /* pool index */
    long sets, games, points;
    double ppg, se;   /* points per game; its standard error (sets as clusters; NAN: < 2 sets) */
    double rating, sigma; /* dhm rate's default method (sts): rating and TrueSkill sigma (NAN: none) */
} WatchStanding;
/* The standings after another set (rows in any order), and the counts of clean and other sets. */
void watch_standings(WatchServer *w, const WatchStanding *rows, int n, long ok, long not_ok);
/* A set that was not played cleanly, or failed: shown in the list of failed sets. */
void watch_set_failed(WatchServer *w, long k, const char *status, const char *note);

/* Everything is over: viewers get the last frames and their streams end. */
void watch_finish(WatchServer *w);

/* Stops the server (viewers still reading get the last frames first, 2 s at most) and frees
 * everything; with a log, one line of what the view did (name: the command, for the line). */
void watch_stop(WatchServer *w, FILE *log, const char *name);

#endif

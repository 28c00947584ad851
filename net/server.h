/* server.h — a UECda game server (protocol 20070) that any existing client can join, driven by
 * the game/ engine. Seats are remote clients or built-in players in-process.
 *
 * Behaviour is that of spec/uecda.md §2 and §4, with these documented differences:
 *  - only a lone spade 3 may be played on a lone joker (core/ rules);
 *  - a client that sends no hello within 2 s, or a protocol version other than 20070, is
 *    dropped with a log line and the seat is offered again (the official server falls back
 *    to the 2006 protocol, or hangs);
 *  - a client that stops reading for write_timeout_ms is treated as disconnected (the
 *    official server would block); a disconnected client passes for the rest of the match,
 *    as on the official server;
 *  - with move_timeout_ms > 0 a silent client's turn becomes a pass (off by default, like
 *    the official server, which then waits forever).
 * A Server owns its sockets and players (server_close). No global state: several servers
 * may run in one process, one per thread.
 */
#ifndef DHM_SERVER_H
#define DHM_SERVER_H

#include <stdio.h>

#include "game/match.h"

typedef struct ServerConfig {
    const char *bind; /* "127.0.0.1" */
    int port;         /* 42485; 0 = any free port */
    MatchConfig match;
    char seats[NPLAYERS][128]; /* "remote" or a player spec */
    int move_timeout_ms;       /* 0 = wait forever */
    int hello_timeout_ms;      /* 2000 */
    int write_timeout_ms;      /* 10000 */
    int wait_ms;               /* for all clients to connect; 0 = forever */
    FILE *log;                 /* log lines (NULL = none) */
    const GameHooks *watch;    /* a watcher of the match (its event hook; NULL = none) */
} ServerConfig;

typedef struct Server Server;

void server_config_default(ServerConfig *c);
/* Creates players for the in-process seats and starts listening. */
int server_open(Server **out, const ServerConfig *cfg, char *err, size_t errsz);
int server_port(const Server *s);
/* Accepts and greets one client per remote seat, in connection order (cfg.wait_ms for all),
 * then stops listening. */
int server_accept_clients(Server *s, char *err, size_t errsz);
/* The same for one seat (wait_ms <= 0: forever): clients with a bad or no hello are dropped
 * and the seat is offered again. */
int server_accept_seat(Server *s, int p, int wait_ms, char *err, size_t errsz);
/* A remote seat whose client never came: it passes for the whole match. */
void server_forfeit_seat(Server *s, int p);
void server_stop_listening(Server *s);
/* A watcher of the match from now on (its event hook; NULL = none): ServerConfig.watch. */
void server_set_watch(Server *s, const GameHooks *watch);
/* Plays the match (hooks may be NULL). rec is scratch space for one game. */
int server_run_match(Server *s, MatchGameFn on_game, void *ctx, GameRecord *rec, MatchResult *res);
void server_close(Server *s);

const char *server_player_name(const Server *s, int p);
Player *server_player(const Server *s, int p);
/* Per remote seat: turns turned into passes by the move timeout, garbage submissions,
 * whether the client disconnected. */
long server_timeouts(const Server *s, int p);
long server_garbage(const Server *s, int p);
int server_disconnected(const Server *s, int p);

#endif

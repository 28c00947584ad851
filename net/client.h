/* client.h — one of our Players as a UECda client (protocol 20070) of any server.
 *
 * The client keeps its own view of the game from the tables it receives: its hand from the
 * hand tables, the moves of everyone from the field broadcasts (a player whose card count
 * fell played the meld shown; otherwise it passed), and the public state by replaying those
 * moves through core/state. The Player is handed an InfoSet built exactly as the in-process
 * engine builds it, so a served match and the same match played in-process agree move for
 * move. Every byte from the server is validated: a malformed or unexpected message ends the
 * client with a protocol error, never a crash.
 */
#ifndef DHM_CLIENT_H
#define DHM_CLIENT_H

#include <stdint.h>
#include <stdio.h>

#include "game/player.h"

typedef struct ClientConfig {
    const char *host;
    int port;
    const char *name;   /* sent in the hello (the server keeps 9 characters) */
    const char *spec;   /* player spec, e.g. "simple" */
    uint64_t seed;      /* the player gets player_seed(seed, its player number) */
    int timeout_ms;     /* for each message from the server; 0 = wait forever */
    FILE *log;          /* per-game lines (NULL = none) */
    Player *player;     /* when not NULL: this player instead of spec (the caller's: never destroyed) */
    const int *stop;    /* when not NULL and set after one of the player's decisions: the client
                         * ends at once with an error (the player could not go on) */
} ClientConfig;

typedef struct ClientResult {
    int me;
    int games;
    long points[NPLAYERS];                /* as this client saw the finishing orders */
    long class_count[NPLAYERS][NPLAYERS]; /* [player][class] */
    Player *player;                       /* still alive for its report; client_result_free (NULL
                                           * with ClientConfig.player) */
} ClientResult;

/* Connects, plays until the server ends the match (end flag 2). Returns 0, or -1 with a
 * one-line reason in err (cannot connect, refused, protocol error, the server went away). */
int client_run(const ClientConfig *cfg, ClientResult *res, char *err, size_t errsz);
void client_result_free(ClientResult *res);

#endif

/* player.h — the Player interface and the information set a player decides from.
 *
 * One interface serves every transport: an in-process AI, a remote UECda client seen by our
 * server, and one of our AIs driven by a remote server. It is declared here, in game/, because
 * game/ calls it and arrows only point down; the AIs themselves live in players/.
 *
 * A player sees only an InfoSet: its own hand, the public history, and what the exchange told
 * it. The InfoSet holds exactly what a UECda client can know from the tables it receives
 * (spec/uecda.md §2), so a player decides the same in-process and over the network. In
 * particular the daifugo and fugo are not told which cards they received (the server shows
 * them only the enriched hand), while the hinmin and daihinmin see what was taken and given.
 */
#ifndef DHM_PLAYER_H
#define DHM_PLAYER_H

#include <stdio.h>

#include "core/state.h"

/* Upper bound on moves in one game: <= 53 plays, and at most 19 passes between two plays
 * before the stalemate rule ends the game. */
#define GAME_MAX_PLAYS 1100

typedef struct PlayRec {
    Move move;
    uint8_t player;
    uint32_t usec; /* thinking time in microseconds when the match times moves, else 0 */
} PlayRec;

typedef struct InfoSet {
    int me;                          /* my player number 0..4 */
    int game;                        /* game number in the match, 0-based */
    Cards hand;                      /* my cards now */
    Cards start_hand;                /* as shown at game start: as dealt, or after receiving (rich) */
    Cards given;                     /* cards I gave (rich: my choice; poor: taken by the server) */
    Cards received;                  /* cards I received when known (poor only), else 0 */
    int8_t cls[NPLAYERS];            /* classes at game start; all -1 in a class period's first game */
    uint8_t seat[NPLAYERS];          /* seat[s] = player at seat s */
    uint8_t start_ncards[NPLAYERS];  /* cards held after the exchange */
    uint8_t ncards[NPLAYERS];        /* cards held now */
    int first;                       /* who led the game (the diamond-3 holder after the exchange) */
    /* public state, as GameState */
    Move table;
    uint8_t turn, owner, passed, out, nout, rev, lock, npass;
    uint8_t order[NPLAYERS];
    Cards played;                    /* every card played this game */
    const PlayRec *plays;            /* the public history of this game */
    int nplays;
} InfoSet;

typedef struct Player Player;
struct Player {
    const char *kind; /* "random", "simple", ... (static string) */
    char name[32];    /* display name */
    void *impl;
    /* Called at every game start, for every player (info: the start view). Optional. */
    void (*game_start)(Player *self, const InfoSet *info);
    /* The daifugo (n = 2) or fugo (n = 1) chooses the cards to give. An invalid answer means
     * the server gives away the player's own strongest cards. */
    Cards (*exchange)(Player *self, const InfoSet *info, int n);
    /* The player to move chooses a move; an illegal one is applied as a pass. */
    Move (*play)(Player *self, const InfoSet *info);
    /* After every move of anyone (info is this player's view after the move). Optional. */
    void (*observe)(Player *self, const InfoSet *info, int who, Move m);
    /* At the end of each game, with the classes reached. Optional. */
    void (*game_end)(Player *self, const InfoSet *info, const int cls[NPLAYERS]);
    /* Experiments only: the true hands of everyone, before each of this player's decisions
     * (exchange and play). Called by the in-process engine (game/game.c) only; no network path
     * ever calls it. Optional; players that read hidden cards through it must say so
     * (reads_hidden), and dhm connect / dhm serve refuse them. */
    void (*oracle)(Player *self, const Cards hand[NPLAYERS]);
    int reads_hidden;
    /* The player reads the others' thinking times (PlayRec.usec): the in-process engine times
     * every move of a game it plays in. */
    int wants_times;
    /* Prints a JSON object with the player's end-of-match statistics, or nothing. Optional. */
    void (*report_json)(Player *self, FILE *out);
    void (*destroy)(Player *self);
};

/* Fills the public part of an InfoSet from a game state (the caller fills the rest). */
void infoset_public(InfoSet *v, const GameState *g);
/* The inverse, for simulations: a game state with the public part of v and the given hands
 * (the caller's guesses for everyone but v->me). */
void infoset_to_state(const InfoSet *v, const Cards hand[NPLAYERS], GameState *g);

#endif

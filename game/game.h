/* game.h — one game of Daihinmin: dealing, the exchange, the play loop, the result.
 *
 * Rules: ../shared/spec/uecda.md §3.1 (dealing from the dealer's seat, the diamond-3 holder
 * leads), §3.4 (exchange order and the invalid-choice fallback), §3.5–3.7 via core/state.
 * Hooks let a caller (the UECda server, a recorder, a display) see every step in protocol
 * order without the game knowing about sockets. The caller owns the GameRecord.
 */
#ifndef DHM_GAME_H
#define DHM_GAME_H

#include "game/player.h"

/* Monotonic time in milliseconds (for time budgets, timeouts and timings). */
double game_clock_ms(void);

typedef struct GameSetup {
    int number;               /* game number in the match, 0-based */
    int timed;                /* measure each move's thinking time (PlayRec.usec) */
    uint8_t seat[NPLAYERS];   /* seat[s] = player at seat s */
    int8_t cls[NPLAYERS];     /* classes from the previous game; all -1 = none (no exchange) */
    int dealer;               /* player who receives the first card */
    const Cards *deal;        /* a deal suite's hands by player number (NPLAYERS), played instead of
                               * a shuffle; NULL = shuffle */
} GameSetup;

typedef struct GameRecord {
    int number;
    uint8_t seat[NPLAYERS];
    int8_t cls[NPLAYERS];
    int dealer;
    Cards dealt[NPLAYERS];    /* hands as dealt */
    Cards changed[NPLAYERS];  /* cards each player gave in the exchange */
    Cards original[NPLAYERS]; /* hands after the exchange */
    int first;                /* who led (diamond-3 holder after the exchange) */
    int nplays;
    PlayRec plays[GAME_MAX_PLAYS];
    int illegal[NPLAYERS];    /* submissions refused (played as a pass) */
    int bad_exchange[NPLAYERS]; /* invalid exchange choices (fallback applied) */
    int result[NPLAYERS];     /* classes reached, 0 = daifugo */
    int stalemate;            /* ended by 20 consecutive passes */
} GameRecord;

/* Optional observers; any pointer may be NULL. A hook returning non-zero aborts the game
 * (game_play returns that value). */
typedef struct GameHooks {
    void *ctx;
    /* After dealing and after the server took the poor players' strongest cards, before the
     * rich choose: view[p] is what player p is shown at game start. */
    int (*start)(void *ctx, const GameRecord *rec, const InfoSet view[NPLAYERS]);
    /* Before the player to move is asked. */
    int (*turn)(void *ctx, const GameState *g);
    /* After a move: the state before it, what was submitted, whether it was legal, and the
     * state after (already cleared if the move cleared the table). */
    int (*move)(void *ctx, const GameState *before, Move submitted, int accepted, const GameState *after, int ev);
} GameHooks;

/* Plays one game. rng drives dealing and the stalemate ranks. Returns 0, or a hook's value. */
int game_play(Player *const pl[NPLAYERS], const GameSetup *setup, Rng *rng, const GameHooks *hooks, GameRecord *rec);

/* Dealing: a uniform shuffle dealt one card at a time around the seats, starting at the
 * dealer's seat (that seat and the next two get 11 cards). */
void game_deal(const uint8_t seat[NPLAYERS], int dealer, Rng *rng, Cards hand[NPLAYERS]);

/* The exchange given the classes (cls[p] 0..4) and the rich players' choices; choice[p] is
 * what player p submitted (ignored for others). Fills changed[] and updates hand[].
 * Returns a bit mask of the rich players whose choice was invalid. The split into
 * game_take_from_poor / game_give_from_rich follows the protocol's order. */
void game_take_from_poor(const int8_t cls[NPLAYERS], Cards hand[NPLAYERS], Cards changed[NPLAYERS]);
int game_give_from_rich(int rich, int n, Cards choice, const int8_t cls[NPLAYERS], Cards hand[NPLAYERS],
                        Cards changed[NPLAYERS]);

/* The player holding the diamond 3. */
int game_first_player(const Cards hand[NPLAYERS]);

/* The player of class c (0 = daifugo .. 4 = daihinmin), or -1. */
int game_player_of_class(const int8_t cls[NPLAYERS], int c);

/* The start of game_play: the record's header, the deal (su->deal or a shuffle from rng),
 * and the poor players' strongest cards taken (hand: the hands after that). Returns whether
 * the game has an exchange. */
int game_begin(const GameSetup *su, Rng *rng, GameRecord *rec, Cards hand[NPLAYERS]);

/* What each player is shown at game start, after the server took the poor players' cards
 * (hand: the hands at that moment; rec: number, dealt, changed so far), as game_play shows
 * it; and what the exchange then tells them (rec->original and rec->first set): the poor's
 * received cards, who leads, the counts after the exchange. Used by every engine that steps
 * a game itself, so that all of them show a player the same information set. */
void game_start_views(const GameSetup *su, const GameRecord *rec, const Cards hand[NPLAYERS],
                      InfoSet view[NPLAYERS]);
void game_play_views(const GameSetup *su, const GameRecord *rec, InfoSet view[NPLAYERS]);

/* Points for a class: 5/4/3/2/1. */
static inline int game_points(int cls) { return 5 - cls; }

#endif

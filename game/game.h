/* game.h — one game of Daihinmin: dealing, the exchange, play, the result, as one game
 * machine stepped a decision at a time (GameMachine) that every driver uses.
 *
 * Rules: ../shared/spec/uecda.md §3.1 (dealing from the dealer's seat, the diamond-3 holder
 * leads), §3.4 (exchange order and the invalid-choice fallback), §3.5–3.7 via core/state.
 * Hooks let a caller (the UECda server, a recorder, a live view) see every step without the
 * game knowing about sockets. The caller owns the GameRecord.
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

/* What a watcher sees (GameHooks.event): one event per step of the game, in order.
 *
 *   GAME_EV_DEAL      the cards are dealt (rec->dealt; hand: the hands as dealt)
 *   GAME_EV_EXCHANGE  cards change hands in the exchange: the poor's strongest taken by the
 *                     server (right after the deal), then the daifugo's and the fugo's gifts
 *                     (player gives `cards` to `to`; accepted 0: an invalid choice, replaced
 *                     by the giver's strongest cards); hand: the hands after it
 *   GAME_EV_START     play begins: rec->original, rec->first; state: the table, who leads
 *   GAME_EV_PLAY      a play or a pass by `player` (move; accepted 0: an illegal submission,
 *                     applied as a pass; flags: state_apply's EV_* flags); state: after the
 *                     move (the table, who passed, revolution, lock, the turn)
 *   GAME_EV_OUT       `player` went out, in place `to` (0 = first out); after a stalemate
 *                     the remaining places follow one event each
 *   GAME_EV_END       the game is over: rec->result, rec->stalemate; state: the last state
 *
 * Pointers are valid during the call only. rec is the game so far (plays included). */
enum { GAME_EV_DEAL = 1, GAME_EV_EXCHANGE, GAME_EV_START, GAME_EV_PLAY, GAME_EV_OUT, GAME_EV_END };

typedef struct GameEvent {
    int kind;               /* GAME_EV_* */
    int player;             /* EXCHANGE: the giver; PLAY: the mover; OUT: who went out; else -1 */
    int to;                 /* EXCHANGE: the receiver; OUT: the place; else -1 */
    Cards cards;            /* EXCHANGE: the cards given; PLAY: the cards played (0: a pass) */
    Move move;              /* PLAY: the move applied */
    int accepted;           /* EXCHANGE, PLAY: 1, or 0 when the submission was refused */
    int flags;              /* PLAY: EV_* flags */
    const Cards *hand;      /* the five hands now, by player number */
    const GameState *state; /* START, PLAY, OUT, END: the game in play; NULL before play */
    const GameRecord *rec;
} GameEvent;

/* Optional observers; any pointer may be NULL. A hook returning non-zero aborts the game
 * (game_play and the GameMachine calls return that value). start, turn and move follow the
 * UECda server's protocol order (net/server.c); event is the watcher's stream (a live view, a
 * logger): every GameEvent above. Without hooks a game costs nothing extra. */
typedef struct GameHooks {
    void *ctx;
    /* After dealing and after the server took the poor players' strongest cards, before the
     * rich choose: view[p] is what player p is shown at game start. */
    int (*start)(void *ctx, const GameRecord *rec, const InfoSet view[NPLAYERS]);
    /* Before the player to move is asked. */
    int (*turn)(void *ctx, const GameState *g);
    /* After a move: the state before it, the move applied (a pass when the submission was
     * illegal), whether the submission was legal, and the state after (already cleared if the
     * move cleared the table). */
    int (*move)(void *ctx, const GameState *before, Move applied, int accepted, const GameState *after, int ev);
    /* Every step of the game (GameEvent). */
    int (*event)(void *ctx, const GameEvent *e);
} GameHooks;

/* ---- the game machine: one game stepped one decision at a time ----
 *
 * Every driver plays its games through this machine: game_play (every seat a Player called
 * back), the Python environment (actions pushed in from outside, built-in opponents as Players
 * on the other seats), the UECda server (remote clients adapted to Players). A seat with a
 * Player is decided by game_run; a seat without one waits for the caller's game_give /
 * game_move. The machine calls every Player's game_start, observe and game_end at the points
 * game_play always has, and the hooks at theirs, so any mix of seats plays the same game.
 *
 *   GameMachine m;
 *   game_begin(&m, players, &setup, &rng, hooks, &rec);   // deal, the poor's cards taken
 *   while (game_run(&m) == 0 && m.phase != GAME_OVER)     // Players decide
 *       m.phase == GAME_EXCHANGE ? game_give(&m, my_gift(game_view(&m, m.actor), m.give_n))
 *                                : game_move(&m, my_move(game_view(&m, m.actor)), 0);
 *   // rec.result: the classes reached
 *
 * The machine is plain memory (840 bytes) and allocates nothing; the record (about 18 KB)
 * is the caller's and must outlive the game, as must the Players and the hooks. */
enum { GAME_EXCHANGE = 1, GAME_PLAY = 2, GAME_OVER = 3 };

typedef struct GameMachine {
    int phase;                 /* GAME_EXCHANGE, GAME_PLAY or GAME_OVER */
    int actor;                 /* who decides now (not GAME_OVER) */
    int give_n;                /* GAME_EXCHANGE: cards the actor gives (2 daifugo, 1 fugo) */
    GameSetup su;
    Rng rng;                   /* the game's stream (after the deal): the stalemate ranks */
    GameRecord *rec;           /* the caller's */
    const GameHooks *hooks;    /* NULL: none */
    Player *pl[NPLAYERS];      /* the Player deciding for each seat; NULL: the caller decides */
    GameState g;               /* the game in play (from GAME_PLAY on) */
    Cards hand[NPLAYERS];      /* the hands during the exchange */
    Cards played_by[NPLAYERS]; /* the cards each player played this game */
    unsigned observers;        /* bit p: pl[p] has an observe callback */
    InfoSet view[NPLAYERS];    /* what each player sees (game_view) */
} GameMachine;

/* Starts a game: the record's header, the deal (su->deal or a shuffle drawn from *rng; the
 * machine keeps its own copy of the stream), the poor's strongest cards taken, the start hook,
 * every Player's game_start; stops at the first decision. pl may be NULL (no Players).
 * Returns 0, or a hook's non-zero value. */
int game_begin(GameMachine *m, Player *const pl[NPLAYERS], const GameSetup *su, const Rng *rng,
               const GameHooks *hooks, GameRecord *rec);
/* Lets the Players decide while the actor has one (oracle, exchange or play, timed when the
 * setup says so). Returns 0 when the game is over or a seat without a Player must decide, or
 * a hook's non-zero value. */
int game_run(GameMachine *m);
/* The actor's exchange (GAME_EXCHANGE): the cards it gives. An invalid choice gives its
 * strongest cards instead and counts in rec->bad_exchange. Returns 0 or a hook's value. */
int game_give(GameMachine *m, Cards choice);
/* The actor's play (GAME_PLAY); usec: its thinking time for the record (0: untimed). An illegal
 * move is applied as a pass and counts in rec->illegal. Returns 0 or a hook's value. */
int game_move(GameMachine *m, Move mv, uint32_t usec);
/* Player p's information set now: the start view and what p gave during the exchange, the
 * public state and p's hand from then on. */
const InfoSet *game_view(GameMachine *m, int p);
/* A copy of src playing on into rec (src's record copied there), with no Players and no
 * hooks: for search (a perfect-information copy of the game). */
void game_copy(GameMachine *dst, const GameMachine *src, GameRecord *rec);

/* Plays one game with a Player on every seat (game_begin, then game_run to the end). rng
 * drives dealing and the stalemate ranks and is advanced as they used it. Returns 0, or a
 * hook's value. */
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

/* Points for a class: 5/4/3/2/1. */
static inline int game_points(int cls) { return 5 - cls; }

#endif

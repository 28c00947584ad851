/* devkit.h — the organisers' sample client's decisions (players/devkit.c), on dhm's state, for
 * the `devkit` player and for programs that play it without a Player (training, playouts).
 *
 * The client reads every move's field broadcast into a few numbers that persist between turns
 * (one of them between games). Every seat sees the same broadcasts, so one DevkitSeen serves
 * every devkit seat of a game: devkit_seen_game_start() at a game's start, devkit_seen_move()
 * after every move of anyone (m as applied, a pass for a rejected one; then the table, revolution
 * and lock after the move, the table empty when it was cleared), devkit_choose() for the seat to
 * move: its move, or move_invalid() for an answer that is no meld (a server plays both that and
 * an illegal meld as a pass).
 */
#ifndef DHM_DEVKIT_H
#define DHM_DEVKIT_H

#include <stdio.h>

#include "core/move.h"
#include "game/player.h"

typedef struct DevkitSeen {
    int ord;      /* the table's strength: its column (a sequence: its top, bottom in a revolution) */
    int qty;      /* cards on the table (0: none) */
    int sequence; /* the table is a sequence (never reset, not even between games) */
    int suit[5];  /* rows of the protocol table on the table */
    int rev, lock, onset, joker;
    Move cur;     /* the meld the server's field shows (until the table is cleared) */
} DevkitSeen;

void devkit_seen_game_start(DevkitSeen *s);
void devkit_seen_move(DevkitSeen *s, Move m, Move table, int rev, int lock);
Move devkit_choose(DevkitSeen *s, Cards hand, Move table, int rev, int lock);
/* Its gift: its n lowest cards (of equal rank: spades, hearts, diamonds, clubs). */
Cards devkit_gift(Cards hand, int n);

/* Which opponents play the sample client, found from their past games (mc:odevkit=auto,
 * policy:devkit=auto). Every card of a game ends up played or in the last hand, so after a game
 * each opponent's hand after the exchange is known and its every decision can be checked
 * against the client's. An opponent whose checked decisions (at least 30) all but 1% agree is
 * named. With cap > 0 an opponent is checked over its first cap decisions only (or until it
 * has missed more than 1% of cap), and with all set the checks stop once one opponent can no
 * longer be named; games then cost nothing to check. Games ended by a stalemate are skipped. */
typedef struct DevkitFinder {
    DevkitSeen seen, start;          /* what the client has read so far; at this game's start */
    long dec[NPLAYERS], miss[NPLAYERS]; /* each opponent's decisions checked, and missed */
    long cap;                        /* 0: every decision of every game */
    int all;                         /* only a table of nothing but the client matters */
    unsigned mask;                   /* the opponents named */
    int done;                        /* no more checks: the mask is final, and observe is free */
} DevkitFinder;

void devkit_finder_init(DevkitFinder *f, long cap, int all);
void devkit_finder_game_start(DevkitFinder *f);
void devkit_finder_observe(DevkitFinder *f, const InfoSet *v, Move m);
/* After game v: checks it, and returns the opponents named (f->mask). */
unsigned devkit_finder_game_end(DevkitFinder *f, const InfoSet *v);
/* Writes `, "KEY": [the players in mask]` and, with f, `, "KEY_checked": [[decisions, missed] of
 * each player]` (a player's report_json). */
void devkit_finder_json(FILE *out, const char *key, unsigned mask, const DevkitFinder *f);

#endif

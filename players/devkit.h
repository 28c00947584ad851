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

#include "core/move.h"

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

#endif

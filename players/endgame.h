/* endgame.h — certain wins and exact endgames, for the Monte Carlo player's root and playouts.
 *
 * endgame_sure_win: a fast sufficient test that the player to move goes out before every
 * other player still holding cards, whatever the others hold among the cards it cannot see
 * (all of them may sit in one hand). It looks for a chain of melds that nobody can beat (or
 * that cut the table: 8s, the spade 3 on a lone joker), played one after another from the
 * lead, the last one emptying the hand; when following, the first meld must also beat the
 * table. "No" means only that no such chain was found.
 *
 * endgame_solve2: exact minimax when exactly two players still hold cards and both hands are
 * known (in a sampled world, or at the real table, where the last opponent holds every card
 * the player cannot see): who of the two goes out first. Alpha-beta on a binary outcome with
 * a transposition table, sure wins as leaves, and a node limit.
 * Both read only the GameState they are given; the caller owns the scratch table.
 */
#ifndef DHM_ENDGAME_H
#define DHM_ENDGAME_H

#include <stdint.h>

#include "core/state.h"

/* Whether the mover (hand, facing table in order rev under lock) is certain to go out next
 * when the others hold some of `others`, none more than maxc cards nor fewer than minc, and
 * those who may still answer the table (they have not passed since the last clear) none more
 * than maxc_awake: a meld of more cards than anyone who may answer it holds is unanswerable,
 * and a single that only the joker answers is as good while the mover keeps the spade 3 and
 * nobody can go out with the joker alone (minc >= 2). *first (may be NULL) gets the move to
 * start with. */
int endgame_sure_win(Cards hand, Move table, int rev, int lock, Cards others, int maxc_awake, int maxc, int minc,
                     Move *first);
/* The same from a player's view (its unseen cards, the others' counts, who has passed). */
struct InfoSet;
int endgame_sure_win_view(const struct InfoSet *v, Move *first);
/* The same for g->turn in a game state, the others' cards being every hand but its own. */
int endgame_sure_win_state(const GameState *g, Move *first);
/* The same with every hand known (a sampled world): a meld counts as unbeatable when no single
 * opponent's hand can beat it, so it finds every chain the test above finds, and more. */
int endgame_sure_win_hands(const GameState *g, Move *first);

/* Exact results of lead positions already solved (a position's result never changes, so
 * entries stay valid from call to call). 16 bytes an entry, 2^bits entries. */
typedef struct EndgameTT {
    uint64_t *e;
    uint32_t bits, gen;
} EndgameTT;

/* Allocates a table of 2^bits entries (ENDGAME_TT_BITS: the players' default). 0 or -1. */
#define ENDGAME_TT_BITS 18
int endgame_tt_init(EndgameTT *tt, int bits);
void endgame_tt_free(EndgameTT *tt);

/* Exact result for g->turn when exactly two players still hold cards: 1 it goes out first,
 * 0 the other does, -1 undecided within max_nodes (or when two more passes would end the game
 * by the stalemate rule's lot). *best (may be NULL) gets a winning move
 * when the result is 1. *nodes (may be NULL) gets the positions searched. tt may be NULL
 * (no table; or one not initialised, zeroed). */
int endgame_solve2(const GameState *g, long max_nodes, EndgameTT *tt, Move *best, long *nodes);

/* endgame_solve2 at the real table, from the mover's view (game/player.h): when two players
 * remain, the last opponent holds every card the mover cannot see, the only world there is.
 * -1 when two players do not remain (or the cards do not add up). */
int endgame_solve_view(const struct InfoSet *v, long max_nodes, EndgameTT *tt, Move *best);

/* Forgets every entry (cheaply: by generation). */
void endgame_tt_clear(EndgameTT *tt);

/* Plain minimax without shortcuts or table, for tests (exponential: small positions only). */
int endgame_brute2(const GameState *g);

#endif

/* replay.h — checks a recorded game against the engine: the deal (a partition of the 53
 * cards, 11 cards at the dealer's seat and the next two), the exchange (the poor gave their
 * strongest cards, the rich gave cards they held, the hands after it add up), the first
 * player (the diamond-3 holder), every play (legal for the player to move), and the result
 * (the game ends exactly with the last play and the classes match).
 */
#ifndef DHM_REPLAY_H
#define DHM_REPLAY_H

#include "record/kifu.h"

/* Called before each recorded play with the position and the recorded move. */
typedef void (*ReplayPositionFn)(void *ctx, const GameState *g, Move played);

/* Returns 0 if the game is consistent, else -1 with "path:line: game N: reason" in err.
 * Stops at the first problem. on_position may be NULL. */
int replay_game(const KifuGame *kg, const char *path, ReplayPositionFn on_position, void *ctx, char *err,
                size_t errsz);

/* A checked kifu game as a GameRecord (the form the store keeps): seats, classes (all -1
 * when no exchange took place), hands, who played each move, times, result. Returns 0, or -1
 * with the replay's reason. */
int kifu_to_record(const KifuGame *kg, const char *path, GameRecord *rec, char *err, size_t errsz);

#endif

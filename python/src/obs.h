/* obs.h — the observation of the Python environment: one player's information set
 * (game/player.h's InfoSet, nothing else) as a flat int8 vector with a fixed layout.
 *
 * Seats are relative to the observer: k = 0 is the observer, k = 1 the next player in play
 * order, ... k = 4 the one before. A card block holds 53 entries in card index order
 * (actions.h: 3c 3d 3h 3s 4c ... 2s, then the joker), 1 where the card is in the set.
 *
 *   offset  size  name          meaning
 *   0       53    hand          my cards now
 *   53      265   played        5 card blocks: the cards seat k played this game
 *   318     60    table_cells   the table's meld as cells: 4 * column + suit, columns 0..14
 *                               (0 and 14 are the joker-only slots below the 3 and above
 *                               the 2); the joker's stand-in cell is included
 *   378     1     table_joker   1 if the meld on the table uses the joker
 *   379     5     table_kind    one-hot: empty, single, group, sequence, lone joker
 *   384     1     table_size    cards in the meld on the table (0 when empty)
 *   385     5     table_owner   one-hot seat of who played it (all 0 when the table is empty)
 *   390     5     ncards        cards each seat holds
 *   395     5     passed        1 if seat k passed since the table was last cleared
 *   400     5     finished      place + 1 in which seat k went out (0 = still playing)
 *   405     5     classes       seat k's class at game start (0 = daifugo .. 4 = daihinmin),
 *                               -1 in a class period's first game (no exchange)
 *   410     1     revolution    1 while a revolution is in effect
 *   411     1     lock          1 while the suit lock is in effect
 *   412     1     npass         consecutive passes (20 end the game)
 *   413     5     turn          one-hot seat of the player to act
 *   418     1     exchange      cards I must give now (2 daifugo, 1 fugo; 0 when playing)
 *   419     53    given         cards I gave in the exchange (the poor: what was taken)
 *   472     53    received      cards I received, when known (the poor only)
 *   525                         total (OBS_SIZE)
 */
#ifndef DHM_PY_OBS_H
#define DHM_PY_OBS_H

#include <stdint.h>

#include "game/player.h"

#define OBS_HAND 0
#define OBS_PLAYED 53
#define OBS_TABLE_CELLS 318
#define OBS_TABLE_JOKER 378
#define OBS_TABLE_KIND 379
#define OBS_TABLE_SIZE 384
#define OBS_TABLE_OWNER 385
#define OBS_NCARDS 390
#define OBS_PASSED 395
#define OBS_FINISHED 400
#define OBS_CLASSES 405
#define OBS_REV 410
#define OBS_LOCK 411
#define OBS_NPASS 412
#define OBS_TURN 413
#define OBS_EXCHANGE 418
#define OBS_GIVEN 419
#define OBS_RECEIVED 472
#define OBS_SIZE 525

/* The layout as (name, offset, size) rows, for the Python side. */
typedef struct ObsField {
    const char *name;
    int offset, size;
} ObsField;
extern const ObsField OBS_FIELDS[];
extern const int OBS_NFIELDS;

/* The cards each player played this game, from the public history of v. */
void obs_played_by(const InfoSet *v, Cards played_by[NPLAYERS]);
/* Writes v as an observation (OBS_SIZE bytes). give_n: cards v->me must give now (0 when
 * playing); played_by: the cards each player played this game (obs_played_by, or kept up to
 * date by the caller). */
void obs_encode(const InfoSet *v, int give_n, const Cards played_by[NPLAYERS], int8_t *out);
/* A card set as 53 bytes of 0/1 in card index order. */
void obs_cards(Cards c, int8_t *out);

#endif

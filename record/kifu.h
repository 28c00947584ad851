/* kifu.h — game records in the UECda/FujiGokoro kifu text format (../shared/data/README.md).
 *
 * A file is a `player` line with five names, then one block per game inside a C-style comment:
 * `game N`, `score`, `class c0..c4`, `seat s0..s4` (the seat of each player), `dealt`,
 * `changed`, `original` (five `{ cards }` each), `play` (moves, each optionally followed by
 * `[µs]`), `result r0..r4`. The reader streams games one at a time and treats every byte as
 * untrusted: any problem is reported as "path:line: reason".
 * The writer produces the same format from a GameRecord (notation extensions in core/move.h).
 */
#ifndef DHM_KIFU_H
#define DHM_KIFU_H

#include <stdio.h>

#include "game/game.h"

typedef struct KifuGame {
    int number;
    int line;                      /* line of the `game` line */
    int play_line;                 /* line of the `play` line */
    int result_line;               /* line of the `result` line */
    int8_t cls[NPLAYERS];          /* as written (a placeholder when no exchange took place) */
    uint8_t seat_of[NPLAYERS];     /* seat of each player */
    Cards dealt[NPLAYERS], changed[NPLAYERS], original[NPLAYERS];
    int nplays;
    Move plays[GAME_MAX_PLAYS];
    long usec[GAME_MAX_PLAYS];     /* thinking time, -1 when absent */
    int result[NPLAYERS];
} KifuGame;

typedef struct KifuReader {
    FILE *f;
    const char *path;
    int line;
    char *buf;
    size_t cap;
    char names[NPLAYERS][64];
    int have_names;
} KifuReader;

void kifu_reader_init(KifuReader *r, FILE *f, const char *path);
void kifu_reader_free(KifuReader *r);
/* Reads the next game: 1 = a game, 0 = end of file, -1 = error (message in err). */
int kifu_next(KifuReader *r, KifuGame *g, char *err, size_t errsz);

/* Five `{ cards }` groups (the dealt/changed/original syntax) into out; s is modified.
 * Returns 0 or -1. */
int kifu_parse_hands5(char *s, Cards out[NPLAYERS]);

/* Writing. */
void kifu_write_header(FILE *f, const char *const names[NPLAYERS]);
/* Each play is written with its thinking time in µs (PlayRec.usec; 0 when not timed). */
void kifu_write_game(FILE *f, const GameRecord *rec);

#endif

/* gameview.h — a recorded game laid out for a person (`dhm view`): the exchange as gifts from
 * one player to another, and the plays grouped into tricks (a trick runs from a lead on an
 * empty table to the clear), each play with the table it faced (the meld, revolution, lock),
 * what it did (8-cut, revolution, lock, clear, going out and the place reached) and the cards
 * its player held after it. The finishing order and classes are the record's. Built by
 * replaying the record through the engine, so a view never shows a play the rules refuse.
 * GameView is plain data owned by the caller (about 40 KB); it points at the record it was
 * built from, which must outlive it.
 */
#ifndef DHM_GAMEVIEW_H
#define DHM_GAMEVIEW_H

#include <stddef.h>

#include "game/game.h"

typedef struct ViewPlay {
    int ply;         /* index in the record, 0-based (as dhm errorrate's marks) */
    int trick;       /* index of its trick */
    uint8_t player;
    uint8_t lead;    /* the table was empty: the player led */
    uint8_t rev;     /* a revolution was in effect before the play */
    uint8_t lock;    /* a suit lock was in effect before the play */
    Move move;
    Move table;      /* the meld it faced (a pass when leading) */
    int ev;          /* EV_* flags of core/state.h: clear, finish, over, stalemate, revolution, lock */
    uint8_t eight;   /* a meld with an 8 that cut the table */
    int8_t place;    /* its player went out with it: the place reached (0 = first), else -1 */
    uint8_t left;    /* cards its player held after it */
} ViewPlay;

typedef struct ViewTrick {
    int first, n;    /* plays[first .. first + n) */
    int leader;
    int cleared;     /* ended by a clear (else by the end of the game) */
} ViewTrick;

typedef struct ViewGift {
    int from, to;
    Cards cards;
    int chosen;      /* 1: the rich player's choice; 0: taken by the rules (the poor's strongest) */
} ViewGift;

typedef struct GameView {
    const GameRecord *rec;
    int exchange;           /* an exchange took place (classes from the previous game) */
    int ngifts;
    ViewGift gifts[4];      /* the poor's cards first (daihinmin, hinmin), then the rich's choices */
    int nplays, ntricks;
    ViewPlay plays[GAME_MAX_PLAYS];
    ViewTrick tricks[GAME_MAX_PLAYS];
    int order[NPLAYERS];    /* finishing order: order[k] = the player of class k */
    int points[NPLAYERS];   /* 5 for the daifugo .. 1 for the daihinmin */
} GameView;

/* Lays out rec. Returns 0, or -1 with a one-line reason when the record does not replay. */
int gameview_build(const GameRecord *rec, GameView *v, char *err, size_t errsz);

/* The class names: daifugo, fugo, heimin, hinmin, daihinmin. */
const char *gameview_class_name(int cls);

#endif

/* diverge.h — where two players' games on the same deals part, and what each parting is worth.
 *
 * Two runs of `dhm play --independent` with one seed deal game i alike (hands, seats, classes),
 * so game i of run A and game i of run B differ only through what the players chose. Played
 * move for move, the two records are identical up to a first difference: a gift in the
 * exchange, or a play. Who made it, and the points player `me` scored in each record, say where
 * one player gains on the other: at its gift, at its play, or through another seat that
 * answered differently afterwards (a random draw, or a reply to a different table).
 */
#ifndef DHM_DIVERGE_H
#define DHM_DIVERGE_H

#include "game/game.h"

/* Where a pair of games parted. */
enum {
    DIV_NEVER,       /* identical games */
    DIV_GIFT_ME,     /* the exchange: `me` gave other cards */
    DIV_GIFT_OTHER,  /* the exchange: only other players' gifts differ */
    DIV_PLAY_ME,     /* the first different play is `me`'s */
    DIV_PLAY_OTHER,  /* the first different play is another player's */
    DIV_NKINDS
};

typedef struct DivGame {
    int kind;       /* DIV_* */
    int ply;        /* the index of the first different play (-1: none, or the exchange) */
    int by;         /* who made it (-1 for DIV_NEVER; for a gift: `me`, else the first other giver) */
    int cards_left; /* `me`'s cards in hand just before it (-1 for DIV_NEVER) */
    int cls;        /* `me`'s class at the start of the game (-1: no exchange: a first game) */
    int a, b;       /* `me`'s points in each record: 5 - the class reached */
} DivGame;

/* Compares game records a and b of one deal for player me (0..4). Returns 0, or -1 when they
 * are not one deal (dealt hands, seats or starting classes differ), with the reason in err. */
int diverge_game(const GameRecord *a, const GameRecord *b, int me, DivGame *out, char *err, size_t errsz);

/* Sums over games for the table: games, A's and B's points, and the parts of the B - A mean. */
typedef struct DivSum {
    long n;
    double a, b, d, d2;
} DivSum;

/* Bins of the cards in hand when the games parted at `me`'s play: 11 or more, 7-10, 4-6, 1-3. */
enum { DIV_NLEFT = 4 };
int div_left_bin(int cards_left);
extern const char *const DIV_LEFT_NAME[DIV_NLEFT];

typedef struct DivTotals {
    long games;
    DivSum all, kind[DIV_NKINDS], cls[NPLAYERS + 1]; /* cls[5]: first games (no exchange) */
    DivSum left[DIV_NLEFT]; /* DIV_PLAY_ME games by `me`'s cards then (div_left_bin) */
    /* each kind's share of the overall mean difference: sums of d and d^2 of d·[kind] */
    double part_d[DIV_NKINDS], part_d2[DIV_NKINDS];
} DivTotals;

void diverge_add(DivTotals *t, const DivGame *g);
/* Mean of B - A and its standard error over the sum's games (0 with fewer than 2). */
double div_mean(const DivSum *s);
double div_se(const DivSum *s);
/* Kind k's part of the overall mean difference (its games' differences summed over all games)
 * and that part's standard error over all games. */
void diverge_part(const DivTotals *t, int k, double *part, double *se);

extern const char *const DIV_KIND_NAME[DIV_NKINDS]; /* never, gift-me, gift-other, play-me, play-other */

#endif

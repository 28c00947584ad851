/* viewfmt.h — what the three printers of report/view.h share: cards and moves as display tokens
 * (rank and suit symbol, red for diamonds and hearts, the joker and the card it stands for),
 * what a play did in words, and walking a game's judged decisions alongside its plays.
 * Internal to report/view*.c; nothing here allocates.
 */
#ifndef DHM_REPORT_VIEWFMT_H
#define DHM_REPORT_VIEWFMT_H

#include <stddef.h>

#include "report/view.h"

typedef struct CardTok {
    char s[16];   /* "10♥", "JK"; a joker standing in: "JK" with `as` set */
    char as[16];  /* the card the joker stands for ("7♥"), "u"/"o" for the slot below the 3 / above
                   * the 2 at the ends of a sequence (the kifu's ranks), or "" */
    int cols, as_cols; /* their display columns */
    size_t len;        /* strlen(s) */
    int red;      /* diamonds and hearts (and a joker standing in for one) */
    int joker;
} CardTok;

/* A card set as tokens, weakest first (out: 53 entries). */
int viewfmt_cards(Cards c, CardTok *out);
/* A move as tokens (out: VIEWFMT_MOVE_MAX entries: a sequence may run through every rank and the
 * joker's slots); a pass is no token. */
#define VIEWFMT_MOVE_MAX 16
int viewfmt_move(Move m, CardTok *out);
/* A move as plain text: "8♥ 8♠", "JK(7♥) 8♥", "JK(u) 3♥ 4♥", "pass". */
void viewfmt_move_text(Move m, char *buf, size_t size);
/* A gift or card set as plain text ("2♠ JK"); "" when empty. */
void viewfmt_cards_text(Cards c, char *buf, size_t size);
/* A review choice (a play or a gift) as plain text. */
void viewfmt_choice_text(const ReviewChoice *c, int exchange, char *buf, size_t size);
/* The kifu notation of a choice ("h-8", "s2 jo"). */
void viewfmt_choice_kifu(const ReviewChoice *c, int exchange, char *buf, size_t size);

/* What a play did, in words, comma separated ("8-cut", "revolution", "lock ♥♠",
 * "out 1st (daifugo)", "cleared", "stalemate: 20 passes"); "" when nothing. */
void viewfmt_notes(const ViewPlay *p, char *buf, size_t size);
/* The suits of a mask as symbols ("♥♠"). */
void viewfmt_suits(unsigned suits, char *buf, size_t size);
/* "1st", "2nd", ... */
const char *viewfmt_ordinal(int place);

/* Walks the judged decisions with the plays: the decision of ply (-1: the gift of player
 * `giver`), or NULL. Decisions are in game order, so a cursor moves forward only. */
typedef struct DecisionCursor {
    const GameReview *r;
    int at;
} DecisionCursor;
const ReviewDecision *viewfmt_decision(DecisionCursor *c, int ply, int giver);

#endif

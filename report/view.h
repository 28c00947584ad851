/* view.h — recorded games printed for people and programs (`dhm view`): a terminal view (80
 * columns, colour only when asked), one self-contained HTML page (inline CSS, the cards drawn
 * as cards, no script, nothing fetched) and JSON. Each shows the deal, the exchange, every
 * trick with its plays and what they did, and the result; with a review (analysis/review.h)
 * the evaluator's verdict on every judged decision and each player's error rate, marks and
 * luck. The caller computes (analysis/gameview.h, analysis/review.h); this only prints.
 */
#ifndef DHM_REPORT_VIEW_H
#define DHM_REPORT_VIEW_H

#include <stdio.h>

#include "analysis/gameview.h"
#include "analysis/review.h"
#include "analysis/worst.h"

/* One game to print. */
typedef struct ViewGame {
    const GameView *view;
    const GameReview *review;   /* NULL: not analysed */
    const ReviewSummary *summary; /* with a review: the game's five players (review_summarize) */
    const char *const *names;   /* the five players' names by number */
    long index;                 /* the game's index in its source */
    long set;                   /* its set in a store, or -1 */
} ViewGame;

/* What every game of one output shares. */
typedef struct ViewDoc {
    const char *source;         /* the kifu file or the store */
    int color;                  /* terminal colours (ANSI) */
    int alternatives;           /* print the best choices of every judged decision */
    const ReviewConfig *rc;     /* the analysis settings, or NULL */
    int bootstrap;              /* replicates of the intervals */
    double confidence;
} ViewDoc;

/* The terminal view of one game. */
void view_text_game(FILE *f, const ViewDoc *d, const ViewGame *g);
/* The per-player summary over the reviewed games (names: player numbers' names). */
void view_text_summary(FILE *f, const ViewDoc *d, const ReviewSummary s[NPLAYERS], int ngames,
                       const char *const *names);

/* JSON: a document {"source", settings, "games": [...], "summary"}; begin, one call per game,
 * end (summary may be NULL). */
void view_json_begin(FILE *f, const ViewDoc *d);
void view_json_game(FILE *f, const ViewDoc *d, const ViewGame *g, int first);
void view_json_end(FILE *f, const ViewDoc *d, const ReviewSummary *s, int ngames, const char *const *names);

/* HTML: a whole page (begin, games, end), or a game as a section of another page (the report)
 * whose <head> includes view_html_css(). The section's id is game-S-N for game N of set S of a
 * store, game-I for the game at index I of a file. */
void view_html_begin(FILE *f, const ViewDoc *d, int ngames);
void view_html_game(FILE *f, const ViewDoc *d, const ViewGame *g);
void view_html_end(FILE *f, const ViewDoc *d, const ReviewSummary *s, int ngames, const char *const *names);
const char *view_html_css(void);
/* The games section of dhm report: each player's costliest stored decisions (player_names: the
 * run's players) linked to their games, which follow as sections. */
void view_html_worst(FILE *f, const char *store, const StoredWorst *w, const char *const *player_names);

#endif

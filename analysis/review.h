/* review.h — the evaluator's verdict on every decision of recorded games (`dhm view --analyze`),
 * in the manner of a backgammon analyser: for each decision of a judged player with at least
 * two legal choices (plays, and the gifts of the daifugo and fugo), the value of the choice made,
 * the best choice and its value, the loss, a mark at fixed thresholds, the best few choices, and
 * the player's luck. Values come from analysis/judge.h, the function `dhm errorrate` judges
 * with, seeded by the game's index in its source: the same seed gives the same losses there and
 * here. Q and the loss are in the evaluator's reward units ((4 - class) / 4 by default: 0.25 is
 * one class).
 *
 * Marks: doubtful (?!) at a loss of REVIEW_DOUBTFUL or more, bad (?) at REVIEW_BAD, very bad
 * (??) at REVIEW_VERY_BAD (docs/analysis.md says how they were chosen); a decision where the
 * player was certain to go out next (players/endgame.h's sure-win test on the cards it could not
 * see) and chose a move worth at least the doubtful loss less is very bad whatever the loss.
 *
 * Luck: the change in the player's value over the events it did not choose. Its value before a
 * judged decision is the best choice's Q, after it the chosen one's; before the game it is the
 * average result (the mean reward over the five classes), after the game its reward. A
 * decision's luck is the change from the player's previous judged decision (or from the
 * average) to this one; the game's last piece runs to the result. So, per player and game,
 * result - average = luck - sum of losses, exactly.
 *
 * Deterministic for the seed whatever the number of threads. GameReview owns its decisions
 * (review_free).
 */
#ifndef DHM_REVIEW_H
#define DHM_REVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define REVIEW_DOUBTFUL 0.04
#define REVIEW_BAD 0.08
#define REVIEW_VERY_BAD 0.16
#define REVIEW_TOP 3

enum { MARK_NONE = 0, MARK_DOUBTFUL = 1, MARK_BAD = 2, MARK_VERY_BAD = 3, MARK_KINDS = 4 };

/* "", "doubtful", "bad", "very bad"; and the symbols "", "?!", "?", "??". */
const char *review_mark_name(int mark);
const char *review_mark_symbol(int mark);

typedef struct ReviewChoice {
    Move move;       /* a play */
    Cards gift;      /* a gift */
    double q;
} ReviewChoice;

typedef struct ReviewDecision {
    int ply;         /* the play's index in the record; -1: a gift */
    int player;
    int exchange;    /* a gift */
    int nchoices;    /* legal choices (>= 2) */
    ReviewChoice chosen, best;
    int ntop;
    ReviewChoice top[REVIEW_TOP]; /* the highest values, best first */
    double loss;     /* best.q - chosen.q */
    int mark;        /* MARK_* */
    int sure;        /* the player was certain to go out next */
    double luck;     /* the change in the player's value since its previous judged decision */
} ReviewDecision;

typedef struct GameReview {
    long index;      /* the game's index in its source */
    int n;
    ReviewDecision *d;        /* the judged decisions in game order (gifts first) */
    unsigned judged_mask;     /* the player numbers judged */
    long judged[NPLAYERS], skipped[NPLAYERS];
    double loss[NPLAYERS];
    long marks[NPLAYERS][MARK_KINDS];
    double luck[NPLAYERS];    /* the sum of the decisions' luck and the last piece (to the result) */
    double result[NPLAYERS];  /* the reward of the class reached */
    double average;           /* the mean reward over the five classes */
    double mark_at[3];        /* the marks' thresholds it was made with */
} GameReview;

typedef struct ReviewConfig {
    const char *evaluator;   /* an mc spec */
    int worlds;              /* paired worlds per decision (100) */
    uint64_t seed;
    int jobs;
    double mark_at[3];       /* doubtful, bad, very bad */
    /* from the calling thread, now and then: decisions valued so far of total */
    void (*progress)(void *ctx, long done, long total);
    void *progress_ctx;
} ReviewConfig;

void review_config_default(ReviewConfig *c);

/* One game to judge: the record, its index in its source, the player numbers to judge. */
typedef struct ReviewGame {
    const GameRecord *rec;
    long index;
    unsigned mask;
} ReviewGame;

/* Judges n games into out[0..n) (each freed with review_free, also on failure). Returns 0, or
 * -1 with a one-line reason. */
int review_games(const ReviewConfig *c, const ReviewGame *games, int n, GameReview *out, char *err, size_t errsz);
void review_free(GameReview *r);

/* The mark of a loss (sure: a certain win was there to keep). */
int review_mark(const double mark_at[3], double loss, int sure);

/* Per player number over some reviewed games. */
typedef struct ReviewSummary {
    long games, judged, skipped;
    double loss, rate;       /* rate = loss / judged (NAN without judged decisions) */
    double lo, hi;           /* the rate's bootstrap percentile interval (NAN when it cannot be made) */
    int over_games;          /* the interval resamples games (1) or, for one game, decisions (0) */
    long marks[MARK_KINDS];
    double luck, result, average; /* sums over the games */
} ReviewSummary;

/* Sums n reviews per player number; the intervals at level conf from reps replicates. Returns
 * 0, or -1 when out of memory. */
int review_summarize(const GameReview *r, int n, int reps, double conf, uint64_t seed, ReviewSummary out[NPLAYERS]);

/* A review as bytes (for the store) and back. review_pack returns a malloc'd buffer (NULL when
 * out of memory); review_unpack treats the bytes as untrusted: -1 when they are malformed. */
uint8_t *review_pack(const GameReview *r, size_t *len);
int review_unpack(const uint8_t *buf, size_t len, GameReview *r);

#endif

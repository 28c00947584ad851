/* judge.h — one recorded decision judged against an evaluator: the value Q of every legal
 * choice (every play, or every gift of the rich), estimated from the decision maker's
 * information set only, in the same sampled worlds with the same playout streams (paired), and
 * which choice was made and which is best. `dhm errorrate` (analysis/errorrate.c) and `dhm view
 * --analyze` (analysis/review.c) both judge through this one function, so they give the same
 * values and the same losses for the same seed. The seeds: a play's worlds come from
 * (seed, the game's index in its source, ply + 2), a gift's from (seed, index, the giver is the
 * daifugo). Nothing here allocates; Judged is plain data (about 8 KB).
 */
#ifndef DHM_JUDGE_H
#define DHM_JUDGE_H

#include "analysis/decisions.h"

#define JUDGE_MAX (MOVEGEN_MAX + 1) /* choices of one decision: moves (+ a legal one not generated) or gifts */

typedef struct Judged {
    int n;          /* legal choices; fewer than 2: nothing was judged (q not filled) */
    int chosen;     /* index of the recorded choice; -1: it is not a choice of the hand (a broken record) */
    int best;       /* index of the first choice with the highest Q */
    Move mv[JUDGE_MAX];      /* plays */
    Cards gifts[JUDGE_MAX];  /* gifts */
    double q[JUDGE_MAX];     /* in reward units (the evaluator's reward mapping) */
} Judged;

/* Fills j for decision d of the game with this index in its source. Returns 0 (j->n < 2 or
 * j->chosen < 0: not judged), or -1 when the evaluator (an mc player) cannot value it. */
int judge_values(Player *evaluator, const Decision *d, long index, uint64_t seed, int worlds, Judged *j);

/* The evaluator's own choice at v, for a player that plays by it (analysis/judge_player.h):
 * every play, or with ncards > 0 every gift of ncards cards, valued as above in worlds drawn
 * from one draw of rng (none when there is a single choice). Fills j (chosen = -1; best = -1
 * when there is no choice) and returns 0, or -1 when the evaluator cannot value them. */
int judge_best(Player *evaluator, const InfoSet *v, int ncards, Rng *rng, int worlds, Judged *j);

/* q[best] - q[chosen] of a judged decision. */
static inline double judge_loss(const Judged *j) { return j->q[j->best] - j->q[j->chosen]; }

#endif

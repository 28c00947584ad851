/* gift.h — the gift model: which cards a rich player gives in the exchange (1 for the fugo, 2
 * for the daifugo), as a linear softmax over binary features of a candidate gift given the hand,
 * with the capacity to hold the 2017 champion's change policy (docs/strength.md, "The gift
 * model"). Its groups follow the shape of that program's published change-policy feature list,
 * written anew in dhm's terms:
 *   hand     the hand the gift leaves, cut into runs and groups as the rich policy cuts the hand
 *            a move leaves (rich_hand_parts), and what it keeps: the diamond 3, the spade 3 and
 *            the joker, its two strongest and two weakest ranks
 *   given    each given rank against every rank of the hand (and the joker column), before and
 *            after the gift: the pattern of the two ranks' suit sets up to a renaming of the
 *            suits (rich_orbit; against the joker column, the cards of the given rank)
 *   pair     two given cards of one rank, of one suit and adjacent ranks, or one rank apart
 *   rules    a given 8, 2, joker or diamond 3, the spade 3 given while the joker is kept, an A
 *            given when the hand left cannot make a revolution (cards a strong program never or
 *            seldom gives: large negative weights once fitted)
 *   class    by the giver's class (fugo, daifugo): each given card's rank x the cards of its rank
 *            in the hand x whether it lies in a run of three of one suit; the fewest melds after
 *            minus before (rich_min_melds); the hand left's average rank
 * P(g | hand) = exp(w . phi(g, hand)) / sum over the possible gifts g' of exp(w . phi(g', hand)).
 * Weights files are text (gift_save), versioned by a hash of this layout; the built-in weights
 * (players/gift.weights, made by tools/train_gift.sh) are compiled into dhm. Nothing here
 * allocates in the scoring path; GiftWeights is plain data (about 110 KB).
 */
#ifndef DHM_GIFT_H
#define DHM_GIFT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cards.h"
#include "core/rng.h"

#define GIFT_ORBITS 35 /* = RICH_ORBITS: pairs of suit sets up to renaming the suits */

#define GIFT_GROUPS(X)                                                                                             \
    X(HAND, 83)              /* the hand left, cut into runs and groups (rich_hand_parts) */                    \
    X(KEEP, 4)               /* kept: the diamond 3; the spade 3 and the joker; the spade 3 alone; the joker alone */ \
    X(TOP, 15 + 14)          /* the hand left's strongest rank (the joker 14), then its next natural rank (0: none) */ \
    X(LOW, 14 + 14)          /* its weakest natural rank, then the next (0: none) */                            \
    X(TWO, 3)                /* two given: of one rank; one suit, adjacent ranks; one suit, one rank between */  \
    X(BAN, 5)                /* given: an 8; a 2; the joker; the diamond 3; the spade 3 with the joker kept */    \
    X(NOREV, 1)              /* an A given, and the hand left cannot make a revolution */                        \
    X(GIVE, 2 * 13 * 4 * 2)  /* [fugo, daifugo][given rank][its cards in the hand 1..4][in a 3-run of one suit] */ \
    X(MELDS, 2 * 5)          /* [fugo, daifugo][fewest melds after - before, -2..+2] */                         \
    X(AVG, 2 * 16)           /* [fugo, daifugo][average rank of the hand left, rounded down] */                 \
    X(RB, 13 * 14 * GIFT_ORBITS) /* [given rank][rank of the hand, or the joker column][pattern], before */     \
    X(RA, 13 * 14 * GIFT_ORBITS) /* the same in the hand left */

#define GIFT_GROUP_ENUM(name, size) GF_##name, GF_##name##_END = GF_##name + (size)-1,
enum { GIFT_GROUPS(GIFT_GROUP_ENUM) GIFT_N };
#undef GIFT_GROUP_ENUM

#define GIFT_MAX_ACTIVE 128 /* active features of one gift, at most */
#define GIFT_MAX_CANDS 128  /* gifts of one decision, at most (policy_gifts' bound) */

typedef struct GiftWeights {
    double w[GIFT_N];
} GiftWeights;

/* The feature layout as text, its hash (which versions weight files), and the group of feature i. */
const char *gift_layout(void);
uint64_t gift_layout_hash(void);
const char *gift_group(int i, int *offset);

/* The active features of giving `give` (1 or 2 cards of hand) from `hand`: indices into
 * GiftWeights.w in [0, GIFT_N), each once but for the runs of HAND (a run over the same ranks in
 * two suits is listed twice, as the rich policy's HAND counts it); returns their number
 * (<= GIFT_MAX_ACTIVE). */
int gift_features(Cards hand, Cards give, uint32_t *idx);
/* w . phi of each of k candidate gifts from hand (the same numbers as summing gift_features). */
void gift_scores(const GiftWeights *w, Cards hand, const Cards *cand, int k, double *score);
/* The gift of n cards from hand the model ranks first (temp = 0; the first of equals in
 * policy_gifts' order), or a draw from its softmax at temperature temp. */
Cards gift_pick(const GiftWeights *w, Cards hand, int n, double temp, Rng *rng);

/* log P(give | hand) under the model at temperature 1 (give: 1 or 2 cards of hand, the rich
 * player's hand after receiving); -INFINITY when give is not a possible gift of hand. */
double gift_logprob(const GiftWeights *w, Cards hand, Cards give);

/* Weights: the built-in ones (or NULL with the reason), from a file or text, to a file. A file
 * for another layout, truncated or malformed, is refused with one line naming it. */
const GiftWeights *gift_builtin(char *err, size_t errsz);
int gift_load(const char *path, GiftWeights *w, char *err, size_t errsz);
int gift_parse(const char *text, const char *name, GiftWeights *w, char *err, size_t errsz);
int gift_save(FILE *f, const GiftWeights *w, const char *comment);
/* A player's gift weights: those of FILE (path; read into *own, which the caller frees) or, with
 * path NULL, the built-in ones, into *use. key names the option in messages. 0 or -1. */
int gift_weights_option(const char *path, const char *key, const GiftWeights **use, GiftWeights **own, char *err,
                        size_t errsz);

#endif

/* policy.h — dhm's learned policy: a linear softmax over binary features of a candidate move
 * in its situation (plays), and of a candidate gift (the exchange), with weights trained by
 * `dhm train policy` (analysis/train.c) from dhm's own games.
 *
 * P(m | s) = exp(w . phi(m, s) / T) / sum over legal m' of exp(w . phi(m', s) / T).
 * phi only reads what the player to move knows: its hand, the cards played, the table,
 * revolution and lock, everyone's card counts. The features (docs/players.md lists them):
 *   shape    the move itself: leading or following x kind (pass, single, group of 2..5,
 *            sequence of 3, 4, 5, 6+, lone joker) x strength in the current order
 *   after    the hand it leaves: for each rank, how many cards of it remain (x strength),
 *            the joker, and how many distinct ranks remain (a proxy for plays to empty)
 *   break    a group split (cards of the rank left behind), a sequence broken, the joker
 *            spent in a meld, the strongest card spent (x phase)
 *   effect   8-cut (x cards left), revolution (x how weak the hand is), lock made, the
 *            move cannot be beaten by any unseen cards, how far it beats the table
 *   context  the opponent closest to finishing (x the move's strength), passing (x phase x
 *            what lies on the table; x whether everyone else has passed and how close the
 *            meld's owner is to finishing), the cards kept that nobody can beat, how many
 *            unseen cards could answer the move, going out
 * The exchange model scores a gift by each given card's strength and multiplicity in the
 * hand, sequences it breaks, and the hand it leaves.
 * Weights files are text (policy_save), versioned by a hash of the feature layout: a file made
 * for other features, or truncated, is refused with a clear error. The built-in weights
 * (players/policy.weights, made by the command in the README) are compiled into dhm.
 * Nothing here allocates in the hot path; PolicyWeights is plain data.
 */
#ifndef DHM_POLICY_H
#define DHM_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/player.h"

/* Feature groups of the play model: name, size. */
#define POLICY_PLAY_GROUPS(X)                                                                                      \
    X(SHAPE, 2 * 6 * 11 * 16) /* [lead][phase][kind][strength]: the move, by the cards the mover holds */          \
    X(AFTER, 14 * 4)       /* [strength 1..13, joker=14][count 1..4] of the hand left */                         \
    X(BREAK, 2 * 3)        /* [lead][cards of the rank left behind: 1, 2, 3] */                                  \
    X(SEQBRK, 2)           /* [lead] a card of a 3+ sequence used outside a sequence */                          \
    X(JOKERUSE, 2)         /* [lead] the joker inside a meld */                                                  \
    X(STRONGEST, 6)        /* [phase] the strongest natural card or the joker spent */                           \
    X(EIGHT, 5)            /* [cards left: 0, 1, 2, 3-4, 5+] an 8-cut */                                         \
    X(REV, 3)              /* [hand: mostly strong, even, mostly weak] a revolution */                           \
    X(LOCK, 1)             /* the move locks the suits */                                                        \
    X(UNBEAT, 2 * 4)       /* [lead][single, group, sequence, joker] no unseen cards can beat it */              \
    X(GAP, 4 * 4)          /* [single, group, sequence, joker][1, 2, 3, 4+] strength above the table */          \
    X(THREAT, 2 * 4 * 5)   /* [lead][closest opponent: 1, 2, 3-4, 5+ cards][move strength class, pass] */       \
    X(PASS, 6 * 4)         /* [phase][table: single, group, sequence, joker] */                                  \
    X(PASSX, 2 * 4)        /* a pass: [every other player still in passed][the meld's owner: 1, 2, 3-4, 5+] */   \
    X(BEATERS, 2 * 5)      /* [single, group][unseen answers: 0, 1, 2, 3-5, 6+] */                               \
    X(PLAN, 2 * 11 * 4)    /* [lead][ranks left 0..10+ (0: none)][control cards left 0..3+]: finishing */          \
    X(RUNS, 2 * 4)         /* [lead][cards left in 3+ runs of one suit: 0, 3, 4-5, 6+] */                        \
    X(MELDS, 2 * 6 * 4)    /* [lead][ranks left some unseen group beats 0..5+][ranks none beats 0..3+] */

#define POLICY_EXCH_GROUPS(X)                                                                                      \
    X(XCARD, 15)       /* [strength 1..13, joker=14] of a given card */                                          \
    X(XMULT, 4 * 4)    /* [cards of its rank in the hand 1..4][strength class] */                                \
    X(XSEQ, 1)         /* a given card in a 3+ sequence of the hand */                                           \
    X(XPAIR, 1)        /* two given cards of one rank */                                                         \
    X(XAFTER, 14 * 4)  /* the hand left, as AFTER (normal order) */                                              \
    X(XCOLS, 11)       /* distinct ranks left */

#define POLICY_GROUP_ENUM(name, size) PF_##name, PF_##name##_END = PF_##name + (size)-1,
enum { POLICY_PLAY_GROUPS(POLICY_GROUP_ENUM) POLICY_NPLAY };
enum { POLICY_EXCH_GROUPS(POLICY_GROUP_ENUM) POLICY_NEXCH };
#undef POLICY_GROUP_ENUM

#define POLICY_MAX_ACTIVE 48 /* active features of one move or gift, at most */

typedef struct PolicyWeights {
    double play[POLICY_NPLAY];
    double exch[POLICY_NEXCH];
} PolicyWeights;

/* The feature layout as text ("name:size ..."), and its hash, which versions weight files. */
const char *policy_layout(void);
uint64_t policy_layout_hash(void);
/* Name of the group holding play feature i (for printing weights). */
const char *policy_play_group(int i, int *offset);

/* The built-in weights (trained by dhm itself; see the README), or NULL with the reason when
 * they do not fit this build's features. */
const PolicyWeights *policy_builtin(char *err, size_t errsz);
/* Reads weights from a file or text; refuses another layout, a truncated or malformed file. */
int policy_load(const char *path, PolicyWeights *w, char *err, size_t errsz);
int policy_parse(const char *text, const char *name, PolicyWeights *w, char *err, size_t errsz);
/* Writes weights as text (comment: a line saying how they were made, may be NULL). */
int policy_save(FILE *f, const PolicyWeights *w, const char *comment);

/* The situation of a play decision, from the mover's view. */
typedef struct PolicyCtx {
    Cards hand, unseen; /* unseen: every card the mover cannot see (the others' hands) */
    Move table;
    int rev, lock, lead;
    int ncards, phase;      /* cards in hand; phase bucket of it */
    int oppmin;             /* class of the fewest cards any other player still in holds */
    int top;                /* strength of the strongest natural in hand (0 if none) */
    int ncols;              /* distinct ranks in hand (+1 for the joker) */
    Cards counts;           /* nibble c = cards of column c in hand (movegen_col_counts) */
    Cards seqable;          /* cards of the hand in a 3+ run of one suit */
    Cards beat[5];          /* beat[n]: the columns (bit 4c+3) where the unseen hold >= n cards */
    Cards control;          /* naturals of the hand stronger than every unseen natural */
    Cards beatable;         /* nibble c: the most cards of column c that the unseen cards could beat as a
                               group, 0..5 (a lone joker beats any single; never the 8s: they cut) */
    int mbeat, mkeep;       /* the hand's ranks (naturals) that can be beaten as they stand, and that not */
    int others_passed;      /* following: every player still in but the mover and the owner passed */
    int owner_class;        /* following: count class of the meld owner's cards */
} PolicyCtx;

/* From a game state, for g->turn (reads only its hand and public facts). */
void policy_ctx_state(PolicyCtx *c, const GameState *g);
/* From an information set (the player's own decision). */
void policy_ctx_info(PolicyCtx *c, const InfoSet *v);

/* The active features of move m (indices into PolicyWeights.play); returns their number. */
int policy_features(const PolicyCtx *c, Move m, uint16_t *idx);
/* w . phi for every move (the same numbers as summing policy_features, computed faster). */
void policy_scores(const PolicyWeights *w, const PolicyCtx *c, const Move *mv, int n, double *score);

/* The exchange: features of giving `give` (1 or 2 cards) from `hand`, and its score. */
int policy_exch_features(Cards hand, Cards give, uint16_t *idx);
double policy_exch_score(const PolicyWeights *w, Cards hand, Cards give);
/* Every n-card gift from hand (n = 1, 2) into out (<= 128); returns the count. */
int policy_gifts(Cards hand, int n, Cards *out);

/* The move to play: the best (temp = 0) or a draw from the softmax at temperature temp. */
int policy_pick(const PolicyWeights *w, const PolicyCtx *c, const Move *mv, int n, double temp, Rng *rng);
/* Probabilities of the moves at temperature 1 (sums to 1). */
void policy_probs(const PolicyWeights *w, const PolicyCtx *c, const Move *mv, int n, double *p);
/* The gift: the best or a draw at temperature temp. */
Cards policy_pick_gift(const PolicyWeights *w, Cards hand, int n, double temp, Rng *rng);
/* The same by an exchange weight array (PolicyWeights.exch, or RichWeights.exch). */
Cards policy_pick_gift_w(const double *exch, Cards hand, int n, double temp, Rng *rng);
/* The index of the best of n scores (temp = 0: the first of equals) or a draw from their softmax
 * at temperature temp; s needs 3 spare entries and is changed. */
int policy_pick_scores(double *s, int n, double temp, Rng *rng);

/* Plays g to its end with the policy for every player (softmax at temperature temp). Returns
 * the number of moves. */
long policy_playout(const PolicyWeights *w, GameState *g, Rng *rng, double temp);

/* The weights a player spec names (weights=FILE), or the built-in ones; shared by `policy` and
 * `mc`. Returns 0, or -1 with the reason in err. */
struct PlayerSpec;
int policy_weights_option(struct PlayerSpec *s, PolicyWeights *w, char *err, size_t errsz);

#endif

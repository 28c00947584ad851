/* rich.h — the rich policy: a linear softmax over many binary features of a move in its
 * situation, with the capacity to hold a strong program's policy (docs/strength.md).
 *
 * P(m | s) = exp(w . phi(m, s)) / sum over legal m' of exp(w . phi(m', s)), with w . phi plus a
 * hidden layer's term for weights that have one (RichWeights.nhid, below).
 * phi reads only what the player to move knows: its hand, the cards nobody has shown (the
 * others' hands as one set), the table, revolution and lock, who passed, who is out, everyone's
 * card count, the seats and the classes. Its groups (RICH_PLAY_GROUPS below) follow the shape of
 * the published feature list of the 2017 champion's policy (its playPolicy.hpp), written anew:
 *   hand     the hand a move leaves, cut into runs (by their lowest rank, 5+, 4, 3 cards) and
 *            groups (by rank and size) and the joker, by situation (leading, following,
 *            facing one's own meld) and the order after the move
 *   pattern  the move against every rank of the hand it leaves (MC) and of the unseen cards
 *            (MO): [order][move's rank or a lone joker][locks or not][the other rank or the
 *            joker][how the move's suits meet that rank's suits, up to a renaming of suits]
 *            (sequences: [order][lowest rank][3, 4, 5+ cards][rank][suit pattern])
 *   move     size when leading, the lock it makes and whether it can keep the table, the
 *            revolution by class, the 8-cut by cards left, the spade 3 and the joker, the
 *            hand's average rank and fewest melds before and after, breaking a group to beat
 *            the table, playing one's weakest rank, emptying the hand
 *   pass     by phase, whether passing keeps the lead anyway, how far the meld's owner sits,
 *            how many players can still answer and how many cards the owner has left
 * Real-valued quantities are one-hot over small ranges (or buckets), so every feature is 0/1.
 * RichWeights.exch scores gifts by the fast policy's exchange features (players/policy.h), as
 * before the gift model (players/gift.h), which the policy player now uses by default.
 * Weights files are text (rich_save), versioned by a hash of this layout. Nothing here
 * allocates; RichWeights is plain data (about 1 MB: allocate it).
 */
#ifndef DHM_RICH_H
#define DHM_RICH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/player.h"
#include "players/policy.h"

#define RICH_ORBITS 35 /* pairs of suit sets up to renaming the suits */
#define RICH_ORBITS1 10 /* (one suit, a suit set) pairs, as seq patterns index them */

#define RICH_PLAY_GROUPS(X)                                                                                        \
    X(HAND, 3 * 2 * 83)        /* [lead, follow, own meld][order after][5-runs 9, 4-runs 10, 3-runs 11, rank x size 52, joker] */ \
    X(S3JK, 3)                 /* the hand left: spade 3 and joker; spade 3 and the joker unseen; the joker and the spade 3 unseen */ \
    X(RANKAVG, 64)             /* cards x log(average rank after / before), buckets of 1/4 from -8 */ \
    X(PARTY, 2 * 8)            /* [lead][fewest melds after - before, -3..+4] */                   \
    X(GAPJK, 1)                /* the hand left holds the joker and two cards of a suit one rank apart */ \
    X(QTY, 4)                  /* leading: 1, 2, 3, 4+ cards */                                    \
    X(LOCKFX, 3)               /* a lock made: by a single we can answer, by a single we cannot, by a group */ \
    X(SAMEQ, 3 * 8)            /* leading a group/single: [plain, with the joker, its size - 1][ranks held of that size 0..7+] */ \
    X(REVCLS, 5)               /* a revolution from the normal order, by the mover's class among those still in */ \
    X(PASSPH, 3)               /* a pass: cards left in all hands > 30, > 15, else */              \
    X(PASSDOM, 2)              /* a pass that keeps the lead anyway; and not facing one's own meld */ \
    X(PASSDIST, 5)             /* a pass: how far the meld's owner sits */                         \
    X(PASSAWAKE, 4 * 8)        /* a pass: [players still able to answer - 2][owner's cards 1..8+] */ \
    X(S3ONJK, 2)               /* the spade 3 on a lone joker: [it keeps the lead anyway] */       \
    X(JKVS3, 3)                /* a lone joker: we hold the spade 3; nobody can answer it; it may be answered */ \
    X(SEQ, 1 + 16)             /* leading a sequence; by cards in hand */                          \
    X(GRBRK, 3)                /* following: a group broken to play: an 8-cut; the strongest rank, joker unseen / not */ \
    X(DOMPD, 1)                /* a move nobody can beat when passing would keep the lead */       \
    X(EIGHTW, 1)               /* leading an 8-cut with weak cards left and no revolution */      \
    X(EIGHTQ, 16)              /* an 8-cut: cards left 0..15 */                                    \
    X(MINRANK, 2)              /* the move's rank is the hand's weakest [order] */                 \
    X(FINAL, 1)                /* the move empties the hand */                                     \
    X(KIND, 5 + 12)            /* leading: [joker in it, 8-cut, group, sequence, revolution]; following [single, group, sequence table][pass, the lone joker as the only answer, the joker, 8-cut] */ \
    X(MCG, 2 * 14 * 2 * 14 * RICH_ORBITS)  /* move (single, group, lone joker) x the hand left */ \
    X(MCS, 2 * 13 * 3 * 14 * RICH_ORBITS1) /* sequence x the hand left */                          \
    X(MOG, 2 * 14 * 2 * 14 * RICH_ORBITS)  /* move x the unseen cards */                           \
    X(MOS, 2 * 13 * 3 * 14 * RICH_ORBITS1) /* sequence x the unseen cards */

#define RICH_GROUP_ENUM(name, size) RF_##name, RF_##name##_END = RF_##name + (size)-1,
enum { RICH_PLAY_GROUPS(RICH_GROUP_ENUM) RICH_NPLAY };
#undef RICH_GROUP_ENUM

#define RICH_MAX_ACTIVE 96 /* active features of one move, at most */

/* The hidden layer (optional; RichWeights.nhid units, 0: none): over the features below the
 * pattern groups (RICH_NSMALL of them: hand, move, pass), it adds
 *   sum over units h of out[h] * max(0, bias[h] + sum over active small features i of in[i][h])
 * to w . phi, so that the situation's features can meet one another (docs/strength.md §9). */
#define RICH_NSMALL RF_MCG
#define RICH_HID_MAX 64
#define RICH_NNET (2 * RICH_HID_MAX + RICH_NSMALL * RICH_HID_MAX) /* bias, out, in: RichWeights.net */

typedef struct RichWeights {
    double play[RICH_NPLAY];
    double exch[POLICY_NEXCH];
    int nhid;              /* hidden units, 0..RICH_HID_MAX */
    double net[RICH_NNET]; /* bias[RICH_HID_MAX], out[RICH_HID_MAX], in[RICH_NSMALL][RICH_HID_MAX] */
} RichWeights;

/* The hidden layer's parts in RichWeights.net (or a gradient laid out the same); as strchr, the
 * pointer keeps the caller's constness. */
static inline double *rich_net_bias(const double *net) { return (double *)net; }
static inline double *rich_net_out(const double *net) { return (double *)net + RICH_HID_MAX; }
static inline double *rich_net_in(const double *net, uint32_t i)
{
    return (double *)net + 2 * RICH_HID_MAX + (size_t)i * RICH_HID_MAX;
}
/* The hidden layer's term for a move with the k active features idx; hid (RICH_HID_MAX) gets the
 * units' inputs before max(0, .) when not NULL. 0 without a hidden layer. */
double rich_net_term(const RichWeights *w, const uint32_t *idx, int k, double *hid);
/* A hidden layer of n units, drawn from seed: inputs N(0, 0.1^2), biases 0.1, outputs 0, so that
 * the scores are those of the linear part until the outputs learn. */
void rich_net_init(RichWeights *w, int n, uint64_t seed);

const char *rich_layout(void);
uint64_t rich_layout_hash(void);
const char *rich_play_group(int i, int *offset);

/* The situation of a play decision, from the mover's view. */
typedef struct RichCtx {
    Cards hand, unseen;
    Move table;
    int rev, lock, lead;
    int ncards;          /* cards in hand */
    int nrem;            /* cards in every hand */
    int nawake;          /* players still in who have not passed since the table cleared (the mover too) */
    int own_meld;        /* following one's own meld: everyone else passed */
    int last_awake;      /* nobody else can answer any more (own meld, or the owner went out) */
    int pass_dom;        /* passing keeps the lead: own meld, or the mover leads after a clear and nobody can beat the table */
    int dist;            /* following: 1 + players still in between the owner and the mover + the owner if still in */
    int owner_cards;     /* following: cards of the meld's owner (0: it went out) */
    int rel_class;       /* the mover's class among players still in, 0..4 (no classes: 2) */
    int nmoves;          /* legal moves (rich_scores sets it; rich_features reads it) */
    int minmelds;        /* fewest melds the hand can be played in */
    Cards hand_counts;   /* one bit per rank of the hand, at 4 x rank + cards of it - 1 */
    double rank_avg;     /* average rank of the hand's ranks in the current order (joker 14) */
    int low_col, high_col; /* the columns of the hand's weakest and strongest card (the joker: 15) */
} RichCtx;

/* The public facts a RichCtx is built from (the mover's view). */
typedef struct RichView {
    Cards hand, played;
    Move table;
    int rev, lock, me, owner, passed, out;
    int ncards[NPLAYERS];
    uint8_t seat[NPLAYERS]; /* seat[s] = player at seat s */
    int8_t cls[NPLAYERS];   /* classes at game start, -1 = none */
} RichView;

void rich_ctx(RichCtx *c, const RichView *v);
/* For g->turn (reads its hand and public facts only); cls may be NULL (no classes). */
void rich_ctx_state(RichCtx *c, const GameState *g, const int8_t cls[NPLAYERS]);
void rich_ctx_info(RichCtx *c, const InfoSet *v);

/* The active features of move m (indices into RichWeights.play); returns their number. Set
 * c->nmoves to the number of legal moves first (rich_scores does). */
int rich_features(const RichCtx *c, Move m, uint32_t *idx);
/* w . phi (and the hidden layer's term) for every move. */
void rich_scores(const RichWeights *w, RichCtx *c, const Move *mv, int n, double *score);

/* The class of a pair of suit sets (m, a) under renaming the suits, 0..RICH_ORBITS-1 (tests). */
int rich_orbit(unsigned m, unsigned a);
/* The fewest melds the cards can be played in: a run of one suit (the joker may fill one cell,
 * also below the 3 or above the 2) is one meld, every rank left is one; the joker left over
 * joins a rank and counts nothing. */
int rich_min_melds(Cards c);

/* The cards c cut into runs and groups as the HAND group cuts the hand a move leaves: indices
 * 0..RICH_HAND_PARTS-1 (5-runs by lowest rank 0..8, 4-runs 9..18, 3-runs 19..29, rank x size
 * 26 + 4 x rank + size - 1, the joker 82); returns their number (at most 32). The gift model
 * (players/gift.h) reads the hand a gift leaves this way. */
#define RICH_HAND_PARTS 83
int rich_hand_parts(Cards c, uint32_t *idx);
/* Whether cards c could make a revolution: four of a rank (the joker counts) or a run of five of
 * one suit (the joker may fill a cell). */
int rich_can_revolt(Cards c);
/* The average rank (column, the joker 14) of the distinct ranks of c in the normal order; 0 for none. */
double rich_rank_avg(Cards c);

/* Weights: the built-in ones (or NULL with the reason), from a file or text, to a file. */
const RichWeights *rich_builtin(char *err, size_t errsz);
/* The `policy` player's built-in weights: players/rich_rl.weights, the imitation above improved
 * by REINFORCE (tools/train_rich_rl.sh; docs/strength.md). The searches keep rich_builtin(),
 * whose play is the imitation of KleinBlauw's. */
const RichWeights *rich_rl_builtin(char *err, size_t errsz);
/* The `policy` player's weights against a table of four sample clients (policy:devkit=auto):
 * players/rich_dk.weights, rich_rl_builtin()'s improved by REINFORCE against them alone, with a hidden
 * layer of 64 units (tools/train_rich_dk.sh). */
const RichWeights *rich_dk_builtin(char *err, size_t errsz);
int rich_load(const char *path, RichWeights *w, char *err, size_t errsz);
int rich_parse(const char *text, const char *name, RichWeights *w, char *err, size_t errsz);
int rich_save(FILE *f, const RichWeights *w, const char *comment);
/* A player's rich weights: those of FILE (path; read into *own, which the caller frees) or, with
 * path NULL, the built-in ones, into *use. key names the option in messages ("mc: prior-weights":
 * "mc: prior-weights=F: why"). 0 or -1. */
int rich_weights_option(const char *path, const char *key, const RichWeights **use, RichWeights **own, char *err,
                        size_t errsz);
/* The same; with path NULL, the built-in weights `builtin` names: the imitation (rich_builtin),
 * the `policy` player's (rich_rl_builtin) or those against the sample clients (rich_dk_builtin). */
enum { RICH_IMITATION, RICH_RL, RICH_DK };
int rich_weights_option_rl(const char *path, int builtin, const char *key, const RichWeights **use, RichWeights **own,
                           char *err, size_t errsz);
/* Whether a weights file is for the rich policy (1; it starts with "dhm-rich") or not (0), or -1
 * with the reason when it cannot be read. */
int rich_file_kind(const char *path, char *err, size_t errsz);

#endif

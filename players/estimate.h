/* estimate.h — opponent-hand estimation for the Monte Carlo player (paper 003): what a player
 * knows for certain about the hidden cards, and world samplers that deal the hidden cards
 * consistently with it.
 *
 * Hard constraints (EstKnown), from the information set alone: every opponent gets exactly its
 * card count; no card in my hand or already played; the cards I gave in the exchange (rich) or
 * that were taken from me (poor) are with my exchange partner until played; the diamond 3,
 * until played, is with the player who led; and the exchange rules of paper 003 §3.1: the
 * server takes the poor players' strongest cards, so the daihinmin holds neither the joker nor
 * the spade 2 and the hinmin not the joker (unless their rich partner gave them back: a rule
 * that is certain for that partner and assumed by everyone else). Passes prove nothing under
 * the UECda rules (a player may always pass), so they are not constraints. When the counts
 * cannot be met with a piece of knowledge (a peer showed something impossible), that piece is
 * dropped, so a world is always dealt.
 *
 * Samplers:
 *   uniform   every world meeting the constraints equally likely;
 *   weights   the snowl-style weight table: log-weights per (opponent, card column) from the
 *             opponent's class and every play and pass it made this game (est_table, with a
 *             model learned by `dhm train estimation`), dealt card by card in a fixed order
 *             (order=suit-a|suit-d|rank-a|rank-d|random; the joker and the spade 2 first), each
 *             card to an opponent with room for it with probability proportional to
 *             weight x room;
 *   policy    dhm's own: K candidate worlds from the weight table, each weighted by how likely the
 *             learned policy (players/policy.h) makes every play and pass the opponents made this
 *             game from the hands that world gives them (replayed from the first play), tempered
 *             by beta; worlds are drawn from the candidates in proportion to those weights
 *             (sampling-importance-resampling). K and beta: est-k= (64), est-beta= (0.5).
 *             With est-fresh=M every world is drawn afresh instead: M new candidates from the
 *             weight table, one of them picked in proportion to its weight, so that worlds never
 *             collapse onto a shared pool (the 2017 champion's way, with M = 32). est-weights=rich
 *             scores the plays with the built-in rich policy (players/rich.h); est-exch=1..4
 *             also weights them by the exchange (est_exchange_loglik); est-proposal=uniform
 *             deals the candidates uniformly (with est-fresh and est-exch, a rich player's poor
 *             partner only below the exchange's bound) instead of from the weight table;
 *   net       the learned estimator (players/estnet.h): for each hidden card, the network's
 *             probability of each opponent holding it (allowed holders only); dealt card by card
 *             in random order (the joker and the spade 2 first), each card to an opponent with
 *             room in proportion to p(card, opponent) / room at the start x room now. With
 *             est-point=1 every world is the point estimate: the world placing the most cards
 *             right in expectation (est_assign_world). est-model=FILE: a model of one's own
 *             (tools/train_estnet.sh). With
 *             est-seq=1 the sequence model instead (players/estseq.h: the feature model plus
 *             a GRU over the game's history; est-model=FILE then names one of
 *             tools/train_estseq.sh's files); the GRU state is kept per viewer between
 *             decisions (EstSampler.seqc). est-temp=T divides the logits by T (1);
 *   oracle    experiments only (paper 003 §3.2): the known cards, then d = floor(m p) of the m
 *             undetermined cards placed with their true holders (all-w/all-s: the weakest or
 *             strongest overall; each-w/each-s: per opponent by the quota method, weakest or
 *             strongest of its cards), the rest by the weight table in random order. It reads
 *             the true hands (est_set_truth): never available over the network.
 */
#ifndef DHM_ESTIMATE_H
#define DHM_ESTIMATE_H

#include <stdio.h>

#include "game/player.h"
#include "players/policy.h"

struct RichWeights;
struct EstNet;

enum { EST_UNIFORM, EST_WEIGHTS, EST_ORACLE, EST_POLICY, EST_NET, EST_KINDS };
enum { ORDER_SUIT_A, ORDER_SUIT_D, ORDER_RANK_A, ORDER_RANK_D, ORDER_RANDOM, ORDER_KINDS };
enum { ORACLE_ALL_W, ORACLE_ALL_S, ORACLE_EACH_W, ORACLE_EACH_S, ORACLE_KINDS };

const char *est_kind_name(int k);
int est_kind_parse(const char *s); /* -1 if unknown */
const char *est_order_name(int o);
int est_order_parse(const char *s);
const char *est_oracle_name(int m);
int est_oracle_parse(const char *s);

/* ---- what is certain ---- */

typedef struct EstKnown {
    int me;
    Cards deal;               /* the cards to deal: hidden and not fixed */
    Cards fixed[NPLAYERS];    /* hidden cards known to be in p's hand */
    Cards forbid[NPLAYERS];   /* cards p cannot hold */
    int room[NPLAYERS];       /* cards still to deal to p (0 for me) */
} EstKnown;

/* From the information set and the card counts (count[me] is ignored). Returns 0, or -1 when
 * the counts do not add up to the hidden cards (no world exists). */
int est_known(const InfoSet *v, const int count[NPLAYERS], EstKnown *k);
/* Whether a world meets every constraint of k (tests). */
int est_world_ok(const EstKnown *k, const Cards hand[NPLAYERS]);
/* The world that places the most cards right in expectation under chance[p][c] (the chance
 * that opponent p holds card bit c), every constraint of k met where a world can meet them
 * (hand[k->me] untouched): the exact assignment. Returns 0, or -1 when k's rooms do not add
 * up to its cards to deal. */
int est_assign_world(const double (*chance)[64], const EstKnown *k, Cards hand[NPLAYERS]);

/* ---- the weight table ---- */

#define EST_BINS 14    /* card bins: columns 3 .. 2 (0..12), joker (13) */
#define EST_CLASSES 6  /* the holder's class at game start: unknown, daifugo .. daihinmin */
#define EST_REL 9      /* a card's relation to a meld: joker, <= -3, -2, -1, same, +1, +2, >= +3 columns, an 8 */
#define EST_EVENTS 27  /* plays: lead/follow x single/group/sequence x cards held <= 3, 4-7, 8+ (18);
                        * passes on a single/group/sequence x the same sizes (9) */
#define EST_NPARAM (EST_CLASSES * EST_BINS + EST_EVENTS * EST_REL)

typedef struct EstModel {
    double prior[EST_CLASSES][EST_BINS];
    double ev[EST_EVENTS][EST_REL];
} EstModel;

/* The events of one opponent this game, read from the public history. */
#define EST_MAX_EVENTS 64
typedef struct EstEvent {
    uint8_t bucket; /* 0..26 */
    uint8_t ref;    /* strength of the meld's top card (1..13; 14 = a lone joker) */
    uint8_t rev;    /* revolution in effect at the time */
} EstEvent;
typedef struct EstFeatures {
    int cls[NPLAYERS]; /* 0 unknown, 1 + class */
    int nev[NPLAYERS];
    EstEvent ev[NPLAYERS][EST_MAX_EVENTS];
} EstFeatures;

/* Replays v's public history (no hidden card is read). */
void est_features(const InfoSet *v, EstFeatures *f);
/* The relation of card bin b to an event (0..EST_REL-1). */
int est_rel(int b, const EstEvent *e);
/* lw[p][b] = prior + the events' terms: the log-weight of opponent p holding a card of bin b. */
void est_table(const EstModel *m, const EstFeatures *f, double lw[NPLAYERS][EST_BINS]);
static inline int est_bin(int bit) { return bit >= JOKER_BIT ? 13 : (bit >> 2) - 1; }
/* The strength of a meld's top card in the direction of play (1..13; 14 a lone joker). */
int est_meld_strength(Move m, int rev);

/* The built-in model (players/est.weights, made by tools/train_estimation.sh), or NULL with the
 * reason. */
const EstModel *est_builtin(char *err, size_t errsz);
int est_model_load(const char *path, EstModel *m, char *err, size_t errsz);
int est_model_parse(const char *text, const char *name, EstModel *m, char *err, size_t errsz);
int est_model_save(FILE *f, const EstModel *m, const char *comment);

/* ---- sampling ---- */

/* The opponents' thinking times (est-time=1). A searching program answers at once when it has
 * nothing to think about: it passes at once when nothing in its hand beats the table, where it
 * thinks when it has a choice. The walk over recorded games (dhm estimate), or the player itself
 * (mc:est-time=1), learns for each opponent how long its passes took with and without a play in
 * hand from the games already over, where every hand is known, and a world is weighted by how
 * likely it makes the times of this game's passes (est_history_loglik_dk). A player that passes as fast either way (a policy client) is learnt
 * to tell nothing. */
#define EST_TBINS 4
static inline int est_time_bin(uint32_t us) { return us < 1000 ? 0 : us < 3000 ? 1 : us < 10000 ? 2 : 3; }
typedef struct EstTiming {
    double lp[NPLAYERS][2][EST_TBINS]; /* log P(time bin | no play (0) or a play (1) in hand) of each player's passes */
} EstTiming;
/* Counts of one player's timed passes: n[had a play][bin]. */
typedef struct EstTimeCounts {
    long n[2][EST_TBINS];
} EstTimeCounts;
/* Adds the timed passes of a finished game (its true hands and plays) to per-player counts. */
struct GameRecord;
void est_time_count(const struct GameRecord *rec, EstTimeCounts c[NPLAYERS]);
/* The same from the hands after the exchange (start), the seats, who led and the plays. */
void est_time_count_plays(const Cards start[NPLAYERS], const uint8_t seat[NPLAYERS], int first, const PlayRec *plays,
                          int nplays, EstTimeCounts c[NPLAYERS]);
/* The log-probabilities from counts (add-0.5 smoothing: a player never seen is neutral). */
void est_time_model(const EstTimeCounts *c, double lp[2][EST_TBINS]);

#define EST_MAX_POOL 16384 /* candidates (est-k); memory for them is taken as a sampler needs it */
#define EST_MAX_FRESH 64
typedef struct EstSampler {
    int kind, order, oracle;
    double p;                       /* oracle: base accuracy ratio */
    double w[NPLAYERS][EST_BINS];   /* weights (exp of est_table), or all 1 */
    int percard;                    /* net: the weights are per card, in wc */
    float wc[64][4];                /* net: weight of card bit for the j-th opponent (ascending numbers) */
    float prob[64][NPLAYERS];       /* net: the network's chance of each holder (after est_prepare) */
    struct EstSeqCache *seqc;       /* net with seq=1: the GRU state kept between decisions (owned) */
    const Cards *truth;             /* oracle: the true hands (NPLAYERS), else NULL */
    int npool, cap;                 /* policy: candidate worlds and their cumulative weights (room for cap) */
    Cards (*pool)[NPLAYERS];
    double *cum, *ll;               /* ... and their log-weights */
    int fresh;                      /* policy with est-fresh=M: M fresh proposals per world */
    double beta;                    /* ... each weighted by exp(beta x its log-likelihood) */
    int exch;                       /* ... and by how likely the exchange made it (est_exchange_loglik's mode; 0 off) */
    int time;                       /* ... and by the opponents' times of passes (est-time=1, with timing) */
    int uprop;                      /* ... the proposals uniform worlds, not the weight table's */
    int nprop;                      /* ... the proposals dealt by the learned estimator (its chances in wc) */
    const InfoSet *v;               /* ... whose plays are scored (set by est_prepare; must outlive the draws) */
    const PolicyWeights *pw;
    const struct RichWeights *rw;
    unsigned dkmask;                /* ... these players' plays scored by the sample client's rule instead */
    const struct DevkitSeen *dkstart; /* ... what that client had read at the game's start (set by the caller) */
    const EstTiming *timing;        /* ... with est-time=1: the opponents' times of passes (set by the caller; NULL: none) */
} EstSampler;

struct EstOptions;
/* Prepares the sampler for a decision: the weights from the model and v (weights, oracle,
 * policy), or flat; for policy, the candidate worlds (rng: their stream). */
void est_prepare(EstSampler *s, const struct EstOptions *o, const InfoSet *v, const EstKnown *k, Rng *rng);
void est_sampler_free(EstSampler *s);
/* The log-likelihood of the opponents' plays this game under the policy (the rich one when rw
 * is not NULL, else w), if their hands now are hand[] (exported for tests). */
double est_history_loglik(const InfoSet *v, const Cards hand[NPLAYERS], const PolicyWeights *w,
                          const struct RichWeights *rw);
/* The same, with the plays of the players in dkmask scored by the sample client's rule
 * (players/devkit.h; dk: what it had read at the game's start): log 1 where the rule makes the
 * recorded play, log EST_DEVKIT_MISS where it does not. */
#define EST_DEVKIT_MISS 1e-4
double est_history_loglik_dk(const InfoSet *v, const Cards hand[NPLAYERS], const PolicyWeights *w,
                             const struct RichWeights *rw, unsigned dkmask, const struct DevkitSeen *dk);
/* The log of how likely the exchange made these hands (hand[]: now), up to a constant. mode 2:
 * the number of ways the server's taking of the poor's strongest cards fits them (exact for the
 * rich player's own pair; for a pair it is not in, the gift is assumed not to be the poor's
 * strongest with chance 0.9). mode 1: the certain part only: whether the rich player's own pair
 * fits at all (log 1 or log 0.001). Modes 3 and 4: modes 1 and 2, and for a poor player the
 * log-chance of the gift it got under the built-in gift model (players/gift.h) from its rich
 * partner's hand then (its cards now, those it played, and the gift).
 * 0 in a class period's first game. */
double est_exchange_loglik(const InfoSet *v, const Cards hand[NPLAYERS], int mode);
/* The point estimate (point=1): from the prepared, weighted candidates, each dealt card's
 * chance of being in each opponent's hand; then the world with the highest expected accuracy
 * under those chances (the sum over the dealt cards of the chance of the holder it names),
 * found exactly by est_assign_world (the best candidate should that fail). Leaves it as the
 * only candidate, so every world drawn afterwards is this one (exported for tests). */
void est_point(EstSampler *s, const EstKnown *k);
/* Deals one world: hand[me] = my hand (taken from k: the caller sets it), every opponent its
 * fixed cards plus dealt ones. hand[k->me] is left as the caller put it. */
void est_sample(const EstSampler *s, const EstKnown *k, Rng *rng, Cards hand[NPLAYERS]);

/* ---- options ---- */

typedef struct EstOptions {
    int kind, order, oracle;
    double p;
    const EstModel *model; /* the built-in one, or own */
    EstModel *own;         /* loaded from est-model=FILE (est_options_free) */
    int k;                 /* policy: candidates (64) */
    double beta;           /* policy: tempering of the likelihood (0.5) */
    int mcmc;              /* policy: Metropolis swaps per candidate after resampling (0) */
    int point;             /* policy: every world the one best guess (1), not a draw (0) */
    int fresh;             /* policy: est-fresh=M draws each world from M fresh proposals (0: one pool) */
    int exch;              /* policy: est-exch=1..4 also weights each candidate by the exchange's likelihood (est_exchange_loglik) */
    int time;              /* policy: est-time=1 also weights each candidate by the opponents' times of passes (EstTiming) */
    int uprop;             /* policy: est-proposal=uniform: the candidates uniform worlds (with est-fresh,
                            * est-exch and a rich player, its partner's kept cards below the cards it was shown) */
    const PolicyWeights *pw; /* policy: the built-in weights, or ownw */
    PolicyWeights *ownw;
    const struct RichWeights *rw; /* policy with a rich weights file (est-weights=FILE): its model */
    struct RichWeights *ownr;
    const struct EstNet *net; /* net: the built-in network, or ownnet (est-model=FILE) */
    struct EstNet *ownnet;
    const struct EstSeq *seq; /* net with seq=1: the sequence model (players/estseq.h), or ownseq */
    struct EstSeq *ownseq;
    double temp;              /* net: the logits divided by this temperature (1) */
} EstOptions;
struct PlayerSpec;
/* Reads, from a player spec, est=uniform|weights|oracle (kind_key: the key naming the sampler;
 * NULL = the spec's kind names it), order=, method=, p= and model=FILE (mc: est-model=FILE),
 * est-k= and est-beta= (policy; "k" and "beta" in dhm estimate's form) with their defaults
 * (uniform; random; all-w; 0; 64; 0.5). Checks combinations (method and p only with oracle).
 * Returns 0 or -1 with the reason. */
int est_options(struct PlayerSpec *s, const char *kind_key, const char *model_key, int def_kind, EstOptions *o,
                char *err, size_t errsz);
/* The same from "KIND[:key=value...]" (dhm estimate --est). */
int est_options_parse(const char *text, EstOptions *o, char *err, size_t errsz);
void est_options_free(EstOptions *o);
/* A sampler with these options (weights still to be prepared per decision). */
void est_sampler_init(EstSampler *s, const EstOptions *o);
/* "weights order=random", "oracle method=all-w p=0.4", ... */
void est_options_describe(const EstOptions *o, char *buf, size_t size);

/* A uniform world without a sampler: Samples the cards v->me cannot see into the opponents' hands: exactly count[p] cards for
 * each opponent p, never a card in v->hand or already played, and the known ones where they
 * are known — the cards this player gave in the exchange (rich) are in its partner's hand,
 * the cards taken from it (poor) in the rich partner's hand unless handed back, and the
 * diamond 3, until played, with the player who led the game. hand[v->me] = v->hand.
 * Returns 0, or -1 when the counts cannot be met (negative, or not adding up to the unseen
 * cards); every hand is written either way (opponents' hands empty on -1). */
int est_sample_hands(const InfoSet *v, const int count[NPLAYERS], Rng *rng, Cards hand[NPLAYERS]);

/* How many of the opponents' cards (known ones included) a world gives to their true holder,
 * out of how many. */
void est_accuracy(const Cards world[NPLAYERS], const Cards truth[NPLAYERS], int me, long *right, long *total);

#endif

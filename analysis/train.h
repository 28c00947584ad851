/* train.h — fitting the policy (players/policy.h) to recorded decisions: maximum likelihood of
 * the recorded choices under a conditional logit over the legal moves (or the possible gifts),
 * with an L2 penalty, by full-batch Adam. Decisions come from GameRecords (analysis/games.h):
 * every play of a chosen player with at least two legal moves, and every gift of a rich one.
 * Deterministic: the result depends on the data, the options and the seed (which decides the
 * held-out games), never on the number of threads (gradients are summed in a fixed order of
 * fixed chunks). TrainData owns its memory (train_data_free).
 */
#ifndef DHM_TRAIN_H
#define DHM_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "players/endgame.h"
#include "players/gift.h"
#include "players/policy.h"
#include "players/rich.h"

/* Decisions of one model, packed: for each, its number of candidates n, the chosen index (or
 * 0xFFFF then n target probabilities in 1/65535ths: a soft decision), then n lists (count,
 * feature indices). */
typedef struct DecisionSet {
    uint32_t *buf;
    size_t len, cap;
    size_t *off;       /* start of each decision in buf */
    uint8_t *held;     /* 1 = held out */
    uint8_t *kind;     /* with TrainData.tag_wins: TRAIN_WIN_* of each decision (else NULL) */
    unsigned skip_kinds; /* the fit leaves out decisions of kind k when bit k is set */
    long n, capn, capkind;
} DecisionSet;

/* What a certain-win search says of a decision's position (TrainData.tag_wins). */
enum {
    TRAIN_WIN_NONE = 0,    /* no certain win found, more than two players left */
    TRAIN_WIN_SURE = 1,    /* endgame_sure_win: a chain of unanswerable melds empties the hand */
    TRAIN_WIN_SOLVED = 2,  /* two players left: the exact solve says the mover wins */
    TRAIN_LOSS_SOLVED = 3, /* two players left: the exact solve says the mover loses */
    TRAIN_UNDECIDED = 4,   /* two players left: undecided within the solver's budget */
    TRAIN_KINDS = 5
};

typedef struct TrainData {
    DecisionSet play, exch;
    DecisionSet gift;   /* with gift_model: the gifts again, with the gift model's features */
    int rich;           /* play decisions with the rich policy's features (players/rich.h) */
    int gift_model;     /* the gifts only (no plays), in exch and in gift (players/gift.h) */
    int tag_wins;       /* tag play decisions with TRAIN_WIN_* (play.kind) */
    EndgameTT tt;       /* the solver's table for tag_wins */
    long games, held_games;
    long forced;        /* plays with one legal move (not decisions) */
    long unknown;       /* recorded moves the generator does not produce (skipped) */
} TrainData;

void train_data_init(TrainData *d);
void train_data_free(TrainData *d);
/* Adds the decisions of the players p with (mask >> p) & 1 in one game; held: whether the game
 * is held out. Returns 0 or -1 (out of memory). */
int train_add_game(TrainData *d, const GameRecord *rec, unsigned mask, int held);
/* Decisions with target probabilities over the candidates (soft labels: a teacher's values, not
 * one recorded choice); fitted by cross-entropy, evaluated against the likeliest target.
 * Decisions with fewer than two candidates are not added. 0 or -1 (out of memory). */
int train_add_play_soft(TrainData *d, const PolicyCtx *c, const Move *mv, int n, const double *target, int held);
int train_add_gift_soft(TrainData *d, Cards hand, const Cards *gifts, int n, const double *target, int held);
/* Appends every decision of src to d, in order. 0 or -1. */
int train_data_append(TrainData *d, const TrainData *src);
/* Whether game `index` is held out, for a held-out share and seed. */
int train_held_out(uint64_t seed, long index, double share);

typedef struct TrainOpts {
    int epochs;      /* 300 */
    double lr;       /* Adam step, 0.05 */
    double l2;       /* penalty per weight, 1e-4 (times the mean log-likelihood's scale) */
    int jobs;
    /* rich weights with a hidden layer: Adam on minibatches of `batch` decisions (0: 256), epochs
     * = passes over the training decisions, their order drawn from seed */
    int batch;
    uint64_t seed;
    /* called every few epochs from the calling thread (may be NULL) */
    void (*progress)(void *ctx, int epoch, int epochs, double train_loss, double held_loss);
    void *progress_ctx;
} TrainOpts;

void train_opts_default(TrainOpts *o);

/* Fits the play model (and the exchange model) starting from w; w receives the result. */
int train_fit(const TrainData *d, const TrainOpts *o, PolicyWeights *w);

typedef struct TrainEval {
    long n;            /* decisions */
    double top1;       /* share where the model's first choice is the recorded one */
    double top1_ties;  /* the same, a tie for first among k moves counting 1/k (a random tie-break's mean) */
    double logloss;    /* mean -ln P(recorded) */
    double chance_top1, chance_logloss; /* a uniform choice: mean 1/n and mean ln n */
    double zero_top1;  /* the zero-weight model (ties to the first candidate) */
} TrainEval;

/* The rich policy (players/rich.h; TrainData.rich): its play model and the exchange model. With
 * a hidden layer (w->nhid > 0) the play weights and the layer are fitted together by minibatch
 * Adam (TrainOpts.batch, .seed; the result does not depend on jobs); the exchange as before. */
int train_fit_rich(const TrainData *d, const TrainOpts *o, RichWeights *w);
/* The gift model (players/gift.h; TrainData.gift_model) on the decisions in d->gift. */
int train_fit_gift(const TrainData *d, const TrainOpts *o, GiftWeights *w);
/* Evaluates weights w on one set's decisions: held-out (held = 1), training (0) or all (-1),
 * of the kinds with bit kind of `kinds` set (when the set is tagged: TrainData.tag_wins). */
void train_eval_set(const DecisionSet *s, const double *w, int held, unsigned kinds, TrainEval *out);
/* The same for the rich policy's play decisions, its hidden layer included when w has one. */
void train_eval_rich(const DecisionSet *s, const RichWeights *w, int held, unsigned kinds, TrainEval *out);
/* Evaluates weights on the held-out (held = 1) or training (held = 0) decisions of one model
 * (exch = 0 plays, 1 gifts); held = -1: all of them. */
void train_eval(const TrainData *d, const PolicyWeights *w, int exch, int held, TrainEval *out);

/* Full-batch Adam (b1 0.9, b2 0.999): `epochs` steps on f's mean loss plus l2/2 |w|^2. f writes
 * the gradient of its mean loss into grad and returns the loss. every (may be NULL) is called
 * after each step with the epoch number and the loss. Returns 0 or -1 (out of memory). */
typedef double (*LossGradFn)(void *ctx, const double *w, double *grad);
int adam_fit(double *w, int nw, int epochs, double lr, double l2, LossGradFn f, void *ctx,
             void (*every)(void *ctx, int epoch, double loss), void *every_ctx);

/* ---- policy gradient: REINFORCE on the game's result ---- */

#define RL_LEAGUE_MAX 16

typedef struct RlOpts {
    long games;     /* games to play (200000) */
    int batch;      /* games per update (512) */
    double lr;      /* Adam step (0.003) */
    double temp;    /* the learner's sampling temperature (1) */
    double vs_simple; /* share of games with one learner among four rule-based players (0.5) */
    int rule_devkit;  /* those players: `simple` (0) or `devkit`, the organisers' sample client (1) */
    double vs_league; /* share of games with one learner among four league players (0): each seat a
                       * member of `league` drawn at random, playing its first choice; the rest of the
                       * games are self-play, every seat a learner */
    const PolicyWeights *league[RL_LEAGUE_MAX];      /* member i: league[i] (fast) or rich_league[i] */
    const RichWeights *rich_league[RL_LEAGUE_MAX];
    int nleague;
    int reward_match; /* the reward of a class: its points (0), or its value over the rest of a class
                       * period (1: players/mc.h mc_match_values, in points from 1 to 5) */
    int learner_class; /* -1 (default): the learner's class in a game with the exchange is drawn
                        * at random; 0-4: always that one (self-play games keep drawing) */
    int repeat;       /* 1 (default): every game its own deal; K > 1: each deal (seats, classes, kind
                       * of game, hands) is played K times in a row with the learners' own draws, and
                       * a learner's baseline is its mean reward in the deal's other K - 1 plays
                       * (leave-one-out), not the batch's mean; the batch is a multiple of K */
    uint64_t seed;
    int jobs;
    /* after every update, from the calling thread (may be NULL) */
    void (*progress)(void *ctx, long games, long total, double mean_vs_simple, double mean_vs_league,
                     double mean_self);
    void *progress_ctx;
} RlOpts;

void rl_opts_default(RlOpts *o);

/* What REINFORCE's game `index` deals before anyone decides (with o->repeat = K, games
 * K*j .. K*j + K - 1 are dealt alike): the kind of game, the learner(s), each other seat's league
 * member (-1: none), seats, classes (all -1 in a game without the exchange) and the hands before
 * the exchange. *play is where the game's own draws start. */
enum { RL_SIMPLE, RL_LEAGUE, RL_SELF, RL_KINDS };
typedef struct RlDeal {
    int kind, learner, learner_mask, exchange;
    int member[NPLAYERS];
    uint8_t seat[NPLAYERS];
    int8_t cls[NPLAYERS];
    Cards hand[NPLAYERS];
} RlDeal;
void train_rl_deal(const RlOpts *o, long index, RlDeal *d, Rng *play);
/* Improves w by REINFORCE: each learner decision's log-probability is pushed up or down by
 * (its reward in that game - a baseline: the batch's mean for that kind of game, or with
 * repeat > 1 its mean in the other plays of the same deal), for plays and gifts. Deterministic for the
 * seed, whatever jobs is. */
int train_reinforce(const RlOpts *o, PolicyWeights *w);
/* The same for the rich policy (players/rich.h), its hidden layer too when w has one. */
int train_reinforce_rich(const RlOpts *o, RichWeights *w);
/* One recorded decision's part of REINFORCE's gradient: the gradient of -adv log pi(chosen) at
 * temperature temp, where pi is the softmax over the n candidates listed at p (each: k, then its
 * k feature indices) of w . phi, plus net's hidden-layer term when net has one (it reads the
 * candidates' features below RICH_NSMALL). Adds into gw (as w) and gnet (as net->net); returns
 * the position after the candidates. */
const uint32_t *train_rl_decision_grad(const double *w, const RichWeights *net, const uint32_t *p, int n, int chosen,
                                       double temp, double adv, double *gw, double *gnet);

#endif

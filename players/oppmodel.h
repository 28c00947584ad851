/* oppmodel.h — an online model of how the other players play: the policy's weights, corrected
 * after every finished game by gradient steps on the likelihood of the moves each opponent made
 * (the mc option model=1, docs/players.md). At the end of a game every hand is known from the
 * cards played (the last player holds the rest), so each opponent decision can be replayed with
 * the features it was made from. The Monte Carlo player's playouts then move each opponent by
 * its own model: playouts closer to how the opponents really play.
 * Reads only what the player saw (its view at the game's end). Plain data; no allocation.
 */
#ifndef DHM_OPPMODEL_H
#define DHM_OPPMODEL_H

#include "game/player.h"
#include "players/policy.h"

typedef struct OppModel {
    PolicyWeights w[NPLAYERS]; /* the model of each player (slot 0 for everyone when shared) */
    double lr;                 /* gradient step per decision */
    int shared;                /* one model for every opponent */
    long decisions, games, skipped;
    double logloss, top1; /* sums over the decisions learned from, each before its step: how well
                           * the model predicted the move made (prequential) */
} OppModel;

/* Starts every model at `base`. */
void oppmodel_init(OppModel *m, const PolicyWeights *base, double lr, int shared);
/* Learns from the game that v (player v->me's view after its last move) ended. Returns the
 * number of opponent decisions learned from, or -1 when the hands cannot be made out (a game
 * ended by the stalemate rule with several hands left, or a history that does not replay). */
int oppmodel_learn(OppModel *m, const InfoSet *v);
/* The hands everyone held when play began, made out from v (player v->me's view at the game's
 * end): the cards each played, and the one opponent with cards left holds the rest. 0, or -1
 * when they cannot be made out. */
int oppmodel_hands(const InfoSet *v, Cards hand[NPLAYERS]);
/* The weights that model player p. */
static inline const PolicyWeights *oppmodel_weights(const OppModel *m, int p) { return &m->w[m->shared ? 0 : p]; }

/* ---- the bias model over the rich policy (mc's omodel=1) ----
 * The champion's way of modelling its opponents: a few behaviours, each with a per-opponent
 * bias added to the policy's score of every move that shows it, learned online from every
 * finished game. The behaviours (oppbias_features): a pass when it could play; a lead with a
 * group, with a sequence; playing the joker; a revolution; following a single, a group, a
 * sequence; a meld whose top card is an ace or a 2 (in the current order); a move that plays
 * the mover's last cards. */
#define OPPBIAS_K 10
typedef struct OppBias {
    double b[NPLAYERS][OPPBIAS_K]; /* each player's biases (0: the policy as it is) */
    double lr, decay;              /* gradient step per decision; shrinkage toward 0 per game */
    long decisions, games, skipped;
    double logloss, top1;          /* prequential, as OppModel's */
} OppBias;

struct RichWeights;
void oppbias_init(OppBias *m, double lr);
/* The behaviours of move m in state g: a bit per feature. */
unsigned oppbias_features(const GameState *g, Move m);
/* Adds player p's biases to the scores of mv[0..n) in state g. */
void oppbias_add(const OppBias *m, int p, const GameState *g, const Move *mv, int n, double *score);
/* Learns from the game that v ended (as oppmodel_learn), with the rich policy's scores (at
 * temperature temp) under the biases. Returns the opponent decisions learned from, or -1. */
int oppbias_learn(OppBias *m, const InfoSet *v, const struct RichWeights *rw, double temp);

#endif

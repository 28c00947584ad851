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

#endif

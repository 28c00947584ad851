/* mc.h — the Monte Carlo player `mc` (players/mc.c) and what its tests and experiments need.
 *
 * Spec: mc[:bandit=B][:sims=N][:ms=T][:desa=sim|last|both][:key=value...] — see
 * docs/players.md or `dhm play --help`. The player decides plays and the rich players'
 * exchanges by simulation: each simulation samples the unseen cards into the opponents'
 * hands consistently with the information set, plays the game out with a fast policy and
 * scores the final class; a root bandit chooses which candidate to simulate next.
 */
#ifndef DHM_MC_H
#define DHM_MC_H

#include "game/player.h"
#include "players/bandit.h"


/* Whether p is a Monte Carlo player: `mc`, or `search` (mc with the defaults of the search
 * built on the rich policy: players/mc.c SEARCH_DEFAULTS, docs/players.md). */
int mc_is(const Player *p);

/* The fast playout policy: the simple choice, or a uniformly random legal move with
 * probability eps. Plays the game in g to its end and returns the number of decisions. */
long mc_playout(GameState *g, Rng *rng, double eps, long *legal_sum);

/* reward=match: the value of finishing each class (0 = daifugo) in a match with games_left
 * games left in the class period (this one included): the points of this game and of the
 * later ones, whose classes follow from this one by the class transitions of dhm's self-play
 * (the exchange makes a daifugo likely to stay on top); scaled from 1 (daifugo) to 0. */
#define MC_CLASS_PERIOD 100
void mc_match_values(int games_left, double v[NPLAYERS]);

/* The stop rule's estimate (mc option stop=C): the expected loss, in reward units, of choosing
 * the arm with the best mean now rather than the truly best one, summed over the other arms
 * under normal approximations of their means; INFINITY until every pulled arm has two pulls.
 * The search stops when it falls below C per 1000 simulations times the next batch. */
double mc_expected_loss(const Bandit *b);

/* Values of every candidate from an information set alone, for judging decisions (the error
 * rate): each of the n moves (or gifts) is simulated in the same `worlds` worlds sampled from v
 * and with the same playout streams (common random numbers, seeded by seed), with this mc
 * player's playout policy and settings; q[i] is the mean reward (in [0, 1], the player's
 * reward mapping). Returns 0, or -1 when p is not an mc player or v cannot be dealt. */
int mc_action_values(Player *p, const InfoSet *v, const Move *mv, int n, int worlds, uint64_t seed, double *q);
int mc_gift_values(Player *p, const InfoSet *v, const Cards *gifts, int n, int worlds, uint64_t seed, double *q);

/* The reward of finishing in class cls (0 = daifugo) under this mc player's reward mapping (what
 * mc_action_values' q are in); NAN when p is not an mc player. */
double mc_reward(const Player *p, int cls);

/* The accuracy of the worlds an mc player with acc=1 sampled so far (players/estimate.h):
 * cards given to their true holder, of how many; 0 when p is not such a player. */
int mc_est_accuracy(const Player *p, long *right, long *total);

/* DESA (paper 001 Algorithm 2): m_i = leaf_sum_i / n_i, DESA_i = m_i / sum_j m_j (0 for
 * candidates not simulated). leaf_sum_i adds up, over candidate i's playouts, the number of
 * legal moves of every player to move. */
void mc_desa_values(int k, const double *leaf_sum, const int *n, double *out);

/* The choice bandit's inner bandits (paper 001 §6.1): UCB-root, UCB1-Tuned, Thompson, UCB-V,
 * KL-UCB. */
#define MC_CHOICE_ARMS 5
extern const BanditKind MC_CHOICE_KINDS[MC_CHOICE_ARMS];
/* How many finished games used each inner bandit (an mc:bandit=choice player), else -1. */
int mc_choice_usage(const Player *p, long usage[MC_CHOICE_ARMS]);

#endif

/* bandit.h — root bandits for Monte Carlo move selection (../shared/spec/bandits.md): UCB1,
 * UCB1-Tuned, UCB-root, UCB-V, Thompson sampling, KL-UCB, UCB2. Rewards are in [0, 1].
 * A Bandit is plain data over at most BANDIT_MAX_ARMS arms, allocated by the caller; every
 * random draw takes an explicit Rng. Unpulled arms are pulled first, in order.
 *
 *   ucb1        x + sqrt(2 ln N / n)
 *   ucb1-tuned  x + sqrt((ln N / n) min(1/4, V)), V = mean(x^2) - x^2 + sqrt(2 ln N / n)
 *   ucb-root    x + c sqrt(s / n), s = sqrt(N) (N = pulls so far), c = 0.7
 *   ucb-v       x + sqrt(2 V E / n) + c 3 b E / n, E = zeta ln N (zeta 0.5, c 2, b 1)
 *   thompson    argmax of draws from Beta(S + 1, F + 1), S and F by the Bernoulli trick
 *   kl-ucb      max { q : n d(x, q) <= ln N + c ln ln N } (c = 0), Bernoulli KL, by bisection
 *   puct        q + c P sqrt(N + 1) / (1 + n): P the arm's prior probability (Bandit.prior, set
 *               by the caller), q its mean, or for an arm not yet pulled the mean of every pull
 *               so far (0.5 before the first); no arm is pulled first by rule (AlphaZero's root
 *               selection, with the parent's mean as first-play value)
 *   ucb2        epochs tau(r) = ceil((1 + alpha)^r): the chosen arm is pulled
 *               tau(r+1) - tau(r) times in a row, empty epochs (tau(r+1) = tau(r))
 *               skipped, so that n = tau(r) after every epoch; bonus
 *               sqrt((1 + alpha) ln(e N / tau(r)) / (2 tau(r)))
 */
#ifndef DHM_BANDIT_H
#define DHM_BANDIT_H

#include "core/rng.h"

#define BANDIT_MAX_ARMS 640

typedef enum { B_UCB1, B_UCB1_TUNED, B_UCB_ROOT, B_UCB_V, B_THOMPSON, B_KL_UCB, B_UCB2, B_NKINDS,
               B_PUCT = B_NKINDS /* needs a prior: not among the names a user picks */ } BanditKind;

typedef struct BanditParams {
    double root_c;            /* UCB-root c (0.7) */
    double v_zeta, v_c, v_b;  /* UCB-V (0.5, 2, 1) */
    double kl_c;              /* KL-UCB c (0) */
    double ucb2_alpha;        /* UCB2 alpha (0.1) */
    double puct_c;            /* PUCT c (1) */
} BanditParams;

typedef struct Arm {
    int n;               /* pulls */
    double sum, sum2;    /* rewards and their squares */
    double s, f;         /* Thompson: successes and failures */
    int r;               /* UCB2 epoch */
} Arm;

typedef struct Bandit {
    BanditKind kind;
    BanditParams p;
    int k;          /* arms */
    long total;     /* pulls so far */
    int run_arm;    /* UCB2: arm of the epoch in progress, -1 = none */
    int run_left;   /* UCB2: pulls left in it */
    double sum;     /* of every reward so far (PUCT's first-play value) */
    const double *prior; /* PUCT: each arm's prior probability (the caller's memory) */
    Arm arm[BANDIT_MAX_ARMS];
} Bandit;

void bandit_params_default(BanditParams *p);
void bandit_init(Bandit *b, BanditKind kind, const BanditParams *p, int arms);
/* Chooses the next arm. bonus (may be NULL) is added to each arm's index (DESA). */
int bandit_select(Bandit *b, Rng *rng, const double *bonus);
void bandit_update(Bandit *b, int arm, double reward, Rng *rng);
static inline double bandit_mean(const Bandit *b, int a) { return b->arm[a].n ? b->arm[a].sum / b->arm[a].n : 0; }

/* The index of an arm as the kind defines it (pulled arms; Thompson is random and has none). */
double bandit_index(const Bandit *b, int a);
const char *bandit_name(BanditKind k);
int bandit_parse(const char *name); /* -1 if unknown */
const char *bandit_names(void);    /* "ucb1, ucb1-tuned, ..., ucb2, " (each followed by ", ") */

/* Building blocks, exposed for tests. */
double kl_bernoulli(double p, double q);
/* The KL-UCB bound: max q in [p, 1] with d(p, q) <= delta. */
double klucb_bound(double p, double delta);
/* A draw from Beta(a, b), a, b > 0 (Marsaglia-Tsang gamma variates). */
double beta_draw(Rng *rng, double a, double b);
double gamma_draw(Rng *rng, double shape);
double normal_draw(Rng *rng);

#endif

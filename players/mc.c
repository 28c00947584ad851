/* mc.c — the Monte Carlo player: root bandits over the legal moves (or, for the daifugo and
 * fugo, over the cards to give), simulations in sampled worlds with a playout policy, DESA
 * (paper 001 Algorithm 2) and the choice bandit (paper 001 Algorithm 1, "Ninja").
 *
 * With playout=policy (the default) the playouts follow the learned policy (players/policy.h),
 * the policy orders and prunes the root's candidates (a move or gift far less likely than the
 * best is not searched), the arms share their sampled worlds (common random numbers: the j-th
 * simulation of every arm uses world j and playout stream j), a certain win (players/
 * endgame.h) is played at once, a two-player endgame is solved exactly at the root and in
 * playouts, a playout stops as soon as this player's class is known, and the search may stop
 * early when the expected gain of more simulations is worth less than their cost. With
 * playout=simple every one of these is off unless asked for, and the player is the one of
 * paper 001 as dhm first had it (kept for comparisons).
 *
 * Options (defaults; docs/players.md): bandit=ucb1-tuned (ucb1 ucb1-tuned ucb-root ucb-v
 * thompson kl-ucb ucb2 choice), sims=1000, ms=0 (a time budget per decision in milliseconds
 * instead of sims), final=mean|count, reward=linear|top, eps=0.1 (simple playouts' randomness),
 * desa=none|sim|last|both, desa-w=0.1, desa-exch=0, c=0.7 (UCB-root), zeta=0.5, vc=2, b=1
 * (UCB-V), klc=0 (KL-UCB), alpha=0.1 (UCB2); playout=policy|simple, weights=FILE, ptemp=1,
 * otemp=0 (the other seats' playout temperature; 0: ptemp),
 * prune=0.02, xtop=12, crn=1, surewin=1, endgame=20000, pendgame=200, stop=0 (the last seven:
 * policy defaults; simple: prune=0 xtop=0 crn=0 surewin=0 endgame=0 pendgame=0).
 * xmodel=gift|fast: the model that orders and prunes (xtop) the candidate gifts and gives the
 * other rich player's gift in the exchange search: the gift model (players/gift.h; the default
 * when the rich policy is in use: puct, rprior, rootpol=rich or playout=rich) or the fast
 * policy's exchange weights (the default otherwise, and the only choice before);
 * gift-weights=FILE (the gift model's weights; default: built in); xprior=C: that model's scores as
 * pseudo-counts of the gifts searched, as rprior does for plays (0: none).
 * odevkit=0|1|auto: opponents play the organisers' sample client's rule (players/devkit.h) in
 * the playouts and their plays weigh the likelihood worlds by it: every opponent (1), or those
 * whose decisions in past games matched it (auto, `search`'s default; docs/players.md); 0: none.
 * tree=D: this player's own next D decisions in each playout from a tree over its information
 * sets there (PUCT with the rich policy as prior; tree-c=1, tree-key=0|1, tree-cards=53).
 * The player reads only its InfoSet; its RNG stream comes from its seed.
 */
#include "players/mc.h"

#include "players/estimate.h"
#include "players/oppmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game.h"
#include "players/devkit.h"
#include "players/endgame.h"
#include "players/gift.h"
#include "players/players.h"
#include "players/policy.h"
#include "players/rich.h"

const BanditKind MC_CHOICE_KINDS[MC_CHOICE_ARMS] = {B_UCB_ROOT, B_UCB1_TUNED, B_THOMPSON, B_UCB_V, B_KL_UCB};

enum { DESA_NONE = 0, DESA_SIM = 1, DESA_LAST = 2 };
enum { PLAYOUT_SIMPLE = 0, PLAYOUT_POLICY = 1, PLAYOUT_RICH = 2 };
enum { REWARD_LINEAR, REWARD_TOP, REWARD_MATCH };
enum { PMATES_NONE, PMATES_OWN, PMATES_ALL }; /* who plays a certain win in the playouts */

/* How classes follow one another from game to game within a class period: P[c][c'] that a
 * player of class c this game is of class c' in the next. Measured on 20,000 games of `policy`
 * self-play; `tools/class_values.sh 20000 1` measures it again (each entry within 0.006 of
 * these). The reward=match values below follow from it. */
static const double CLASS_TRANSITION[NPLAYERS][NPLAYERS] = {
    {0.528, 0.271, 0.114, 0.052, 0.034}, {0.299, 0.341, 0.189, 0.105, 0.066}, {0.102, 0.190, 0.277, 0.234, 0.197},
    {0.039, 0.112, 0.231, 0.313, 0.305}, {0.032, 0.086, 0.188, 0.295, 0.398},
};

void mc_match_values(int games_left, double v[NPLAYERS])
{
    double x[NPLAYERS] = {0};
    for (int h = 0; h < games_left; h++) { /* x[c]: points from this game on, given class c now */
        double y[NPLAYERS];
        for (int c = 0; c < NPLAYERS; c++) {
            double sum = 0, total = 0; /* each row scaled to sum to 1 (it is rounded) */
            for (int d = 0; d < NPLAYERS; d++) {
                sum += CLASS_TRANSITION[c][d] * x[d];
                total += CLASS_TRANSITION[c][d];
            }
            y[c] = NPLAYERS - 1 - c + sum / total;
        }
        memcpy(x, y, sizeof x);
    }
    for (int c = 0; c < NPLAYERS; c++) /* scaled to 1 (daifugo) .. 0 (daihinmin) */
        v[c] = (x[c] - x[NPLAYERS - 1]) / (x[0] - x[NPLAYERS - 1]);
}

_Static_assert(BANDIT_MAX_ARMS >= MOVEGEN_MAX, "every legal move must fit in the root bandit");

#define WORLDS 2048 /* worlds kept per decision for common random numbers */
#define TREE_DEPTH_MAX 32 /* tree=D: at most this many of my later decisions */
#define TREE_ARMS 16      /* ... candidates of a node, the rich policy's likeliest */
#define TREE_NODES 16384  /* ... nodes a decision (a power of two; filled to 3/4 at most) */

/* A node of the tree over my own later decisions (tree=D): the public state at one of my turns
 * in a playout, with my hand (everything I know there, so every world that reaches it gives
 * the same legal moves and the same choice), its candidates and their statistics. */
typedef struct TNode {
    uint64_t key;
    uint32_t gen; /* valid when it is the tree's generation */
    int k, n;     /* candidates; simulations through the node */
    Move mv[TREE_ARMS];
    float prior[TREE_ARMS], sum[TREE_ARMS];
    int na[TREE_ARMS];
} TNode;

typedef struct InnerArm { /* the choice bandit's statistics of one inner bandit */
    double alpha, beta; /* Beta distribution, updated by the squared game reward */
    long n;             /* games played with it */
    double sum, sum2;   /* of the squared rewards (for UCB-V's variance) */
} InnerArm;

typedef struct Mc {
    BanditKind kind; /* in use for the current game */
    int choice;
    BanditParams bp;
    long sims;
    long ms;
    int final_count, reward, desa;   /* reward: REWARD_* */
    double rv[NPLAYERS];             /* the reward of each class this game (0 = daifugo) */
    long desa_exch; /* apply DESA to the exchange search too (off: paper 001 does not) */
    double desa_w, eps;
    int playout;                  /* PLAYOUT_* */
    double ptemp, prune, stop;    /* policy playout temperature; root pruning; stop rule's cost */
    double psharp;                /* psharp=a: rich playout scores s - a (max - s)^2 */
    double otemp;                 /* the opponents' playout temperature (0: ptemp) */
    long xtop, crn, surewin, endgame, pendgame;
    int pmates;                   /* PMATES_*: whose certain wins the playouts look for */
    long mate_cards;              /* ... in hands of at most this many cards */
    long nworlds;                 /* worlds=N: distinct worlds a decision, then reused (0: every one new) */
    long mate_hands;              /* mate-hands=1: the playouts' certain wins read each hand apart */
    long odevkit;                 /* odevkit=1|auto (2): opponents play the sample client's rule in the playouts */
    unsigned devkit_mask;         /* ... which: every opponent (1), or those found to play it (auto) */
    DevkitFinder dkf;             /* what that client has read from the table; auto: which play it */
    Rng rng;
    InnerArm inner[MC_CHOICE_ARMS];
    long games;
    int current; /* index into MC_CHOICE_KINDS for this game */
    Bandit bandit;
    Move moves[MOVEGEN_MAX];
    int arm_move[MOVEGEN_MAX];    /* the candidate (move or gift index) of each arm */
    double leaf[BANDIT_MAX_ARMS], bonus[BANDIT_MAX_ARMS]; /* DESA: legal-move sums, bonuses */
    int narm[BANDIT_MAX_ARMS];                            /* DESA: simulations per candidate */
    uint64_t dseed;               /* this decision's seed (worlds and playout streams) */
    double cpu;                   /* CPU seconds spent deciding (this thread's clock) */
    long decisions, searched, sims_done; /* decisions asked, decisions searched, simulations */
    Cards world[WORLDS][NPLAYERS];
    uint8_t have_world[WORLDS];
    PolicyWeights w;
    double puct;                  /* puct=C: the root bandit is PUCT with the rich policy as prior */
    double prior_temp;
    RichWeights *prior_own;       /* prior-weights=FILE (else the built-in rich weights) */
    const RichWeights *prior_w;
    const GiftWeights *gift;      /* xmodel=gift: the exchange's gifts by the gift model */
    GiftWeights *gift_own;        /* gift-weights=FILE (else the built-in gift weights) */
    double prior[BANDIT_MAX_ARMS];
    double rscore[MOVEGEN_MAX + 3]; /* the rich policy's score of every legal move (this decision) */
    long rootpol;                 /* rootpol=rich (1): the root's candidates by the rich policy */
    double rprior;                /* rprior=C: the rich policy as C * 4 (k - 1)^0.6 pseudo-counts */
    double xprior;                /* xprior=C: the same for the exchange's gifts, from the gift model's scores */
    int nprior;                   /* this decision's pseudo-counts per arm */
    double rmean[BANDIT_MAX_ARMS]; /* ... and their means (the rich score scaled to [0, 1]) */
    int8_t cls[NPLAYERS];         /* this game's classes (the rich policy reads them) */
    long model;                   /* model=1: playouts move opponents by the online model */
    double model_lr;
    OppModel om;
    long omodel;                  /* omodel=1: rich playouts move opponents with their learned biases */
    double omodel_lr;
    OppBias ob;
    EndgameTT tt;
    EstOptions eo;                /* the world sampler (players/estimate.h) */
    EstSampler es;
    EstKnown ek;                  /* this decision's certain knowledge */
    EstTimeCounts tcount[NPLAYERS]; /* est-time=1: each player's timed passes in the games over */
    EstTiming tm;                 /* ... and what they say (est_time_model) */
    long time_games, time_skipped; /* games learnt from; games whose hands could not be made out */
    long tree;                    /* tree=D: my next D decisions in a playout searched in a tree (0: off) */
    double tree_c;                /* ... PUCT's constant there */
    long tree_coarse;             /* ... tree-key=hand (1): a node is my hand and the table's meld only */
    long tree_cards;              /* ... only when the opponents hold at most this many cards in all */
    TNode *tnode;                 /* ... its nodes (TREE_NODES, open addressing), valid in this generation */
    uint32_t tgen;                /* ... this decision's generation */
    int tlive, tused;             /* ... searching a play now; nodes made this decision */
    int tin, npath;               /* this simulation: still inside the tree; nodes passed */
    long tsearches, tnodes, tpassed, tdeep, tsims; /* ... searches with it, nodes made, nodes passed, simulations past two, simulations */
    TNode *path[TREE_DEPTH_MAX];
    int path_arm[TREE_DEPTH_MAX];
    Cards truth[NPLAYERS];        /* the true hands, when the engine shows them (est=oracle, acc=1) */
    int have_truth, acc;
    long acc_right, acc_total, acc_worlds; /* accuracy of the worlds sampled (truth known) */
} Mc;

/* ---------------------------------------------------------------- sampling worlds */

static int partner_of(const int8_t cls[NPLAYERS], int me)
{
    int want = 4 - cls[me];
    for (int p = 0; p < NPLAYERS; p++)
        if (cls[p] == want)
            return p;
    return -1;
}

/* ---------------------------------------------------------------- playouts */

long mc_playout(GameState *g, Rng *rng, double eps, long *legal_sum)
{
    Move mv[MOVEGEN_MAX];
    long plies = 0, legal = 0;
    const uint32_t threshold = (uint32_t)(eps * 4294967295.0);
    while (!g->over) {
        int n = state_moves(g, mv);
        legal += n;
        Move m = (uint32_t)(rng_next(rng) >> 32) < threshold ? mv[rng_below(rng, (uint32_t)n)]
                                                              : simple_choose(mv, n, g->rev);
        if (state_apply(g, m) & EV_STALEMATE)
            state_finish_stalemate(g, rng);
        plies++;
    }
    if (legal_sum)
        *legal_sum += legal;
    return plies;
}

static double reward_of(const Mc *mc, int cls) { return mc->rv[cls]; }

/* The rewards of the classes for game `game` of the match (reward=match: the games left in
 * its class period of MC_CLASS_PERIOD). */
static void set_rewards(Mc *mc, int game)
{
    for (int c = 0; c < NPLAYERS; c++)
        mc->rv[c] = mc->reward == REWARD_TOP ? (c == 0) : (4 - c) / 4.0;
    if (mc->reward == REWARD_MATCH)
        mc_match_values(MC_CLASS_PERIOD - (game >= 0 ? game % MC_CLASS_PERIOD : 0), mc->rv);
}

static int class_of(const GameState *g, int p)
{
    for (int k = 0; k < g->nout; k++)
        if (g->order[k] == p)
            return k;
    return NPLAYERS - 1;
}

/* Ends a game in which p goes out next: p gets the next class (the rest is of no interest). */
static void finish_next(GameState *g, int p)
{
    g->order[g->nout++] = (uint8_t)p;
    g->out |= (uint8_t)(1u << p);
    g->over = 1;
}

/* Whether this player's class is already known (the reward of the playout is decided). */
static int decided(const Mc *mc, const GameState *g, int me)
{
    return ((g->out >> me) & 1) || (mc->reward == REWARD_TOP && g->nout > 0);
}

/* ---------------------------------------------------------------- the tree over my later decisions */

/* The public state at my turn in a playout, with my hand: the key of its node. Every world that
 * reaches it shows the same (the cards played, the counts and the table are public), so a node
 * is one of my information sets there. */
static uint64_t tree_key(const GameState *g, int coarse)
{
    uint64_t t, c = 0, h = rng_mix64(g->hand[g->turn] ^ 0x7472656500000000ULL /* "tree" */);
    memcpy(&t, &g->table, sizeof t);
    h = rng_mix64(h ^ t);
    if (coarse) /* tree-key=hand: my hand and what I must beat, the rest of the table left out */
        return rng_mix64(h ^ ((uint64_t)g->rev | (uint64_t)g->lock << 8));
    h = rng_mix64(h ^ g->played);
    for (int p = 0; p < NPLAYERS; p++)
        c = c << 12 | (uint64_t)cards_count(g->hand[p]) << 6 | g->order[p];
    h = rng_mix64(h ^ c);
    return rng_mix64(h ^ ((uint64_t)g->turn | (uint64_t)g->owner << 8 | (uint64_t)g->passed << 16 |
                          (uint64_t)g->out << 24 | (uint64_t)g->rev << 32 | (uint64_t)g->lock << 40 |
                          (uint64_t)g->npass << 48 | (uint64_t)g->nout << 56));
}

/* A new node for my turn at g (n legal moves mv): the rich policy's likeliest TREE_ARMS moves,
 * without those below `prune` of the best one's probability, their probabilities as PUCT's prior. */
static void tree_node_init(Mc *mc, TNode *t, uint64_t key, const GameState *g, const Move *mv, int n)
{
    double sc[MOVEGEN_MAX + 3], kept[TREE_ARMS], mx = -INFINITY, z = 0;
    RichCtx rc;
    rich_ctx_state(&rc, g, mc->cls);
    rich_scores(mc->prior_w, &rc, mv, n, sc);
    for (int i = 0; i < n; i++)
        mx = sc[i] > mx ? sc[i] : mx;
    const double lowest = mx + log(mc->prune > 0 ? mc->prune : 1e-300);
    memset(t, 0, sizeof *t);
    t->key = key;
    t->gen = mc->tgen;
    for (int i = 0; i < n; i++) { /* insertion by descending score, the best TREE_ARMS kept */
        if (sc[i] < lowest || (t->k == TREE_ARMS && sc[i] <= kept[TREE_ARMS - 1]))
            continue;
        int j = t->k < TREE_ARMS ? t->k++ : TREE_ARMS - 1;
        for (; j > 0 && kept[j - 1] < sc[i]; j--) {
            t->mv[j] = t->mv[j - 1];
            kept[j] = kept[j - 1];
        }
        t->mv[j] = mv[i];
        kept[j] = sc[i];
    }
    for (int a = 0; a < t->k; a++)
        z += exp(kept[a] - mx);
    for (int a = 0; a < t->k; a++)
        t->prior[a] = (float)(exp(kept[a] - mx) / z);
}

/* tree=D: my move at g from the tree, as an index into the n legal moves mv; -1 once this
 * simulation has left the tree (below a node it made, deeper than D, or the tree full). The
 * first node a simulation meets outside the tree is made, chosen from and left. */
static int tree_pick(Mc *mc, const GameState *g, const Move *mv, int n)
{
    if (!mc->tin || mc->npath >= mc->tree) {
        mc->tin = 0;
        return -1;
    }
    const uint64_t key = tree_key(g, mc->tree_coarse);
    TNode *t;
    for (size_t i = key & (TREE_NODES - 1);; i = (i + 1) & (TREE_NODES - 1)) {
        t = &mc->tnode[i];
        if (t->gen != mc->tgen || t->key == key)
            break;
    }
    if (t->gen != mc->tgen) {
        if (mc->tused >= TREE_NODES / 4 * 3) {
            mc->tin = 0;
            return -1;
        }
        tree_node_init(mc, t, key, g, mv, n);
        mc->tused++;
        mc->tnodes++;
        mc->tin = 0;
    }
    int best = 0;
    double bv = -INFINITY, fpu = 0.5, sq = sqrt((double)t->n); /* fpu: the node's mean (0.5 before any) */
    if (t->n) {
        fpu = 0;
        for (int a = 0; a < t->k; a++)
            fpu += t->sum[a] / t->n;
    }
    for (int a = 0; a < t->k; a++) {
        double q = t->na[a] ? t->sum[a] / t->na[a] : fpu;
        double v = q + mc->tree_c * t->prior[a] * sq / (1 + t->na[a]);
        if (v > bv || (v == bv && t->prior[a] > t->prior[best])) {
            bv = v;
            best = a;
        }
    }
    mc->path[mc->npath] = t;
    mc->path_arm[mc->npath++] = best;
    for (int i = 0; i < n; i++)
        if (!memcmp(&mv[i], &t->mv[best], sizeof mv[i]))
            return i;
    return -1; /* not reached: a node's moves are legal wherever its key is met */
}

/* The reward of this simulation to every node it passed. */
static void tree_update(Mc *mc, double r)
{
    mc->tpassed += mc->npath;
    mc->tdeep += mc->npath >= 2;
    mc->tsims++;
    for (int i = 0; i < mc->npath; i++) {
        TNode *t = mc->path[i];
        t->n++;
        t->na[mc->path_arm[i]]++;
        t->sum[mc->path_arm[i]] += (float)r;
    }
    mc->npath = 0;
}

/* A policy playout from g for player `me`, stopping as soon as me's class is known: me goes
 * out, me has a certain win (it goes out next), or two players remain and the exact solver
 * decides which of them goes out first. */
static void policy_playout_for(Mc *mc, GameState *g, Rng *rng, int me, long *legal, DevkitSeen *dk)
{
    Move mv[MOVEGEN_MAX];
    PolicyCtx c;
    while (!g->over && !decided(mc, g, me)) {
        const int p = g->turn;
        if (dk && ((mc->devkit_mask >> p) & 1)) { /* odevkit: it answers as the sample client does */
            Move m = devkit_choose(dk, g->hand[p], g->table, g->rev, g->lock);
            if (legal)
                *legal += state_moves(g, mv);
            if (!state_is_legal(g, m))
                m = move_pass();
            if (state_apply(g, m) & EV_STALEMATE)
                state_finish_stalemate(g, rng);
            devkit_seen_move(dk, m, g->table, g->rev, g->lock);
            continue;
        }
        if ((p == me ? mc->pmates >= PMATES_OWN : mc->pmates == PMATES_ALL) && cards_count(g->hand[p]) <= mc->mate_cards) {
            Move first;
            if (mc->mate_hands ? endgame_sure_win_hands(g, &first) : endgame_sure_win_state(g, &first)) {
                if (p == me) { /* me goes out next: its class is known */
                    finish_next(g, me);
                    break;
                }
                if (state_apply(g, first) & EV_STALEMATE) /* an opponent plays its chain, as it would */
                    state_finish_stalemate(g, rng);
                if (dk)
                    devkit_seen_move(dk, first, g->table, g->rev, g->lock);
                continue;
            }
        }
        if (mc->pendgame > 0 && g->nout == NPLAYERS - 2 && !dk) {
            int r = endgame_solve2(g, mc->pendgame, &mc->tt, NULL, NULL);
            if (r >= 0) {
                int other = 0;
                while (other == p || ((g->out >> other) & 1))
                    other++;
                finish_next(g, r ? p : other);
                break;
            }
        }
        int n = state_moves(g, mv), k = mc->tlive && p == me && n > 1 ? tree_pick(mc, g, mv, n) : -1;
        const double temp = p != me && mc->otemp > 0 ? mc->otemp : mc->ptemp;
        if (legal)
            *legal += n;
        if (k >= 0) {
            /* my move from the tree over my later decisions (tree=D) */
        } else if ((k = 0), n > 1 && mc->playout == PLAYOUT_RICH) {
            RichCtx rc;
            double sc[MOVEGEN_MAX + 3];
            rich_ctx_state(&rc, g, mc->cls);
            rich_scores(mc->prior_w, &rc, mv, n, sc);
            if (mc->psharp > 0) { /* s - a (max - s)^2: unlikely moves much less likely */
                double mx = sc[0];
                for (int i = 1; i < n; i++)
                    mx = sc[i] > mx ? sc[i] : mx;
                for (int i = 0; i < n; i++)
                    sc[i] -= mc->psharp * (mx - sc[i]) * (mx - sc[i]);
            }
            if (mc->omodel && p != me)
                oppbias_add(&mc->ob, p, g, mv, n, sc);
            k = policy_pick_scores(sc, n, temp, rng);
        } else if (n > 1) {
            policy_ctx_state(&c, g);
            const PolicyWeights *w = mc->model && p != me ? oppmodel_weights(&mc->om, p) : &mc->w;
            k = policy_pick(w, &c, mv, n, temp, rng);
        }
        if (state_apply(g, mv[k]) & EV_STALEMATE)
            state_finish_stalemate(g, rng);
        if (dk)
            devkit_seen_move(dk, mv[k], g->table, g->rev, g->lock);
    }
}

/* Plays g out for `me` with the configured policy; returns me's reward. dk: with odevkit, what
 * the sample client has read from the table at g (updated as the playout goes). */
static double playout(Mc *mc, GameState *g, Rng *rng, int me, long *legal, DevkitSeen *dk)
{
    if (mc->playout != PLAYOUT_SIMPLE)
        policy_playout_for(mc, g, rng, me, legal, mc->devkit_mask ? dk : NULL);
    else
        mc_playout(g, rng, mc->eps, legal);
    return reward_of(mc, class_of(g, me));
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mc_desa_values(int k, const double *leaf_sum, const int *n, double *out)
{
    double total = 0;
    for (int a = 0; a < k; a++)
        total += n[a] ? leaf_sum[a] / n[a] : 0;
    for (int a = 0; a < k; a++)
        out[a] = total > 0 && n[a] ? leaf_sum[a] / n[a] / total : 0;
}

static void desa_values(const Mc *mc, int k, double *out) { mc_desa_values(k, mc->leaf, mc->narm, out); }

/* ---------------------------------------------------------------- the search */

/* Simulation j of arm `arm` (with common random numbers, every arm's j-th simulation uses
 * world j and playout stream j); returns the reward. */
typedef double (*SimFn)(Mc *mc, void *ctx, int arm, long j, long *legal);

/* The stream of simulation j (common random numbers), or the player's own stream. */
static Rng sim_rng(Mc *mc, long j, uint64_t what)
{
    if (mc->crn)
        return rng_seed(rng_derive(mc->dseed, what, (uint64_t)j));
    return rng_seed(rng_next(&mc->rng));
}

/* The expected loss of choosing the best mean now: over the other arms, the expected amount
 * by which each is truly better, under normal approximations of the means (in reward units).
 * The stop rule compares it with the value of the simulations more search would cost. */
double mc_expected_loss(const Bandit *b)
{
    int best = -1;
    for (int a = 0; a < b->k; a++)
        if (b->arm[a].n >= 2 && (best < 0 || bandit_mean(b, a) > bandit_mean(b, best)))
            best = a;
    if (best < 0)
        return INFINITY;
    const Arm *x = &b->arm[best];
    double mb = bandit_mean(b, best), vb = x->sum2 / x->n - mb * mb;
    vb = (vb > 1e-4 ? vb : 1e-4) / x->n;
    double loss = 0;
    for (int a = 0; a < b->k; a++) {
        const Arm *y = &b->arm[a];
        if (a == best || y->n == 0)
            continue;
        if (y->n < 2)
            return INFINITY;
        double m = bandit_mean(b, a), v = y->sum2 / y->n - m * m;
        v = (v > 1e-4 ? v : 1e-4) / y->n;
        double se = sqrt(vb + v), d = (mb - m) / se;
        loss += se * (exp(-0.5 * d * d) / sqrt(2 * M_PI) - d * 0.5 * erfc(d / M_SQRT2));
    }
    return loss;
}

/* Runs the bandit over k candidates. desa: the DESA variant for this search (DESA_* bits). */
static double sim_play(Mc *mc, void *ctx, int arm, long j, long *legal);

/* The prior as pseudo-counts (rprior, xprior = c): each of the k candidates' score (sc, by
 * move index) scaled to [0, 1] over the candidates, as c * 4 (k - 1)^0.6 simulations of that
 * mean (the 2017 champion's prior); none when c = 0. */
static void pseudo_counts(Mc *mc, int k, const double *sc, double c)
{
    mc->nprior = 0;
    if (c <= 0)
        return;
    double lo = INFINITY, hi = -INFINITY;
    for (int a = 0; a < k; a++) {
        double x = sc[mc->arm_move[a]];
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    for (int a = 0; a < k; a++)
        mc->rmean[a] = hi > lo ? (sc[mc->arm_move[a]] - lo) / (hi - lo) : 0.5;
    mc->nprior = (int)lround(c * 4 * pow(k - 1, 0.6));
}

static int search(Mc *mc, int k, SimFn sim, void *ctx, int desa)
{
    const int puct = mc->puct > 0 && sim == sim_play;
    const int np = mc->nprior; /* pseudo-counts of each arm (rprior, xprior; set by pseudo_counts) */
    bandit_init(&mc->bandit, puct ? B_PUCT : mc->kind, &mc->bp, k);
    if (puct)
        mc->bandit.prior = mc->prior;
    for (int a = 0; np > 0 && a < k; a++) { /* np pulls of mean rmean[a]: a Beta(np r, np (1 - r)) */
        Arm *x = &mc->bandit.arm[a];
        x->n = np;
        x->sum = x->sum2 = np * mc->rmean[a];
        x->s = np * mc->rmean[a];
        x->f = np - x->s;
    }
    memset(mc->leaf, 0, (size_t)k * sizeof mc->leaf[0]);
    memset(mc->narm, 0, (size_t)k * sizeof mc->narm[0]);
    memset(mc->bonus, 0, (size_t)k * sizeof mc->bonus[0]);
    if (mc->crn) {
        mc->dseed = rng_next(&mc->rng);
        memset(mc->have_world, 0, sizeof mc->have_world);
    }
    const double t0 = mc->ms > 0 ? game_clock_ms() : 0;
    for (long i = 0;; i++) {
        if (mc->ms > 0) {
            if (i >= k && (i & 15) == 0 && game_clock_ms() - t0 >= (double)mc->ms)
                break;
        } else if (i >= mc->sims) {
            break;
        }
        /* stop when more simulations are worth less than they cost (stop = reward per 1000) */
        if (mc->stop > 0 && i >= 4L * k && (i & 63) == 0 && mc_expected_loss(&mc->bandit) < mc->stop * 64 / 1000)
            break;
        int a = bandit_select(&mc->bandit, &mc->rng, desa & DESA_SIM ? mc->bonus : NULL);
        long legal = 0;
        double r = sim(mc, ctx, a, mc->bandit.arm[a].n - np, &legal);
        mc->leaf[a] += (double)legal;
        mc->narm[a]++;
        mc->sims_done++;
        bandit_update(&mc->bandit, a, r, &mc->rng);
        if (desa & DESA_SIM) {
            desa_values(mc, k, mc->bonus);
            for (int j = 0; j < k; j++)
                mc->bonus[j] *= mc->desa_w;
        }
    }
    double dv[BANDIT_MAX_ARMS];
    if (desa & DESA_LAST)
        desa_values(mc, k, dv);
    mc->searched++;
    int best = 0;
    double bv = -INFINITY;
    for (int a = 0; a < k; a++) {
        const Arm *x = &mc->bandit.arm[a];
        double v = mc->final_count || puct ? (double)x->n : bandit_mean(&mc->bandit, a);
        if (desa & DESA_LAST)
            v += mc->desa_w * dv[a];
        if (v > bv || (v == bv && x->n > mc->bandit.arm[best].n) ||
            (np > 0 && v == bv && x->n == mc->bandit.arm[best].n && mc->rmean[a] > mc->rmean[best])) {
            bv = v;
            best = a;
        }
    }
    return best;
}

/* Prepares this decision's world sampler: the certain knowledge for these counts, and the
 * sampler's table (or candidates). -1 when no world can be dealt: a peer that shows impossible
 * counts gets the simple rule instead of a search over worlds that cannot exist. The uniform
 * and weights samplers draw nothing here; the policy sampler's candidates come from a stream
 * of their own. */
static int prepare_worlds(Mc *mc, const InfoSet *v, const int count[NPLAYERS])
{
    if (est_known(v, count, &mc->ek))
        return -1;
    Rng r = rng_seed(rng_derive(mc->rng.s, 0x65737469 /* "esti" */, (uint64_t)v->nplays));
    mc->es.dkmask = mc->devkit_mask; /* odevkit: those players' plays weigh the worlds by its rule */
    mc->es.dkstart = &mc->dkf.start;
    mc->es.timing = &mc->tm;
    est_prepare(&mc->es, &mc->eo, v, &mc->ek, &r);
    mc->es.truth = mc->have_truth && mc->eo.kind == EST_ORACLE ? mc->truth : NULL;
    return 0;
}

/* A world from the prepared sampler; its accuracy is counted when the truth is known. */
static void deal_world(Mc *mc, const InfoSet *v, Rng *r, Cards hand[NPLAYERS])
{
    hand[v->me] = v->hand;
    est_sample(&mc->es, &mc->ek, r, hand);
    if (mc->have_truth && mc->acc) {
        est_accuracy(hand, mc->truth, v->me, &mc->acc_right, &mc->acc_total);
        mc->acc_worlds++;
    }
}

/* World j of this decision (shared by every arm with common random numbers; the first WORLDS are
 * kept, later ones dealt anew). With worlds=N, simulation j >= N reuses one of the first N
 * worlds, drawn from (decision, j). */
static int world(Mc *mc, const InfoSet *v, long j, Cards hand[NPLAYERS])
{
    if (mc->crn && mc->nworlds > 0 && j >= mc->nworlds)
        j = (long)(rng_derive(mc->dseed, 0x7265757365 /* "reuse" */, (uint64_t)j) % (uint64_t)mc->nworlds);
    if (!mc->crn || j >= WORLDS) {
        Rng r = mc->crn ? sim_rng(mc, j, 0x776f726c64) : mc->rng;
        deal_world(mc, v, &r, hand);
        if (!mc->crn)
            mc->rng = r;
        return 0;
    }
    if (!mc->have_world[j]) {
        Rng r = sim_rng(mc, j, 0x776f726c64 /* "world" */);
        deal_world(mc, v, &r, mc->world[j]);
        mc->have_world[j] = 1;
    }
    memcpy(hand, mc->world[j], sizeof mc->world[j]);
    return 0;
}

/* ---------------------------------------------------------------- plays */

typedef struct PlayCtx {
    const InfoSet *v;
    int count[NPLAYERS];
} PlayCtx;

static double sim_play(Mc *mc, void *ctx, int arm, long j, long *legal)
{
    PlayCtx *c = ctx;
    Cards hand[NPLAYERS];
    GameState g;
    if (world(mc, c->v, j, hand))
        return 0;
    infoset_to_state(c->v, hand, &g);
    Rng r = mc->crn ? sim_rng(mc, j, 0x706c6179 /* "play" */) : mc->rng;
    const Move m = mc->moves[mc->arm_move[arm]];
    if (state_apply(&g, m) & EV_STALEMATE)
        state_finish_stalemate(&g, &r);
    DevkitSeen dk; /* odevkit: what the sample client has read, this move included */
    if (mc->devkit_mask) {
        dk = mc->dkf.seen;
        devkit_seen_move(&dk, m, g.table, g.rev, g.lock);
    }
    mc->tin = 1;
    mc->npath = 0;
    double reward = playout(mc, &g, &r, c->v->me, legal, &dk);
    if (mc->tlive)
        tree_update(mc, reward);
    if (!mc->crn)
        mc->rng = r;
    return reward;
}

/* Candidates in policy order, without those the policy finds far less likely than the best
 * (prune: the least share of the best's probability kept; at least two kept). Returns k. */
static int policy_candidates(Mc *mc, const InfoSet *v, int n)
{
    double p[MOVEGEN_MAX];
    if (mc->rootpol) { /* the rich policy's probabilities (its scores are kept for the prior) */
        double mx = -INFINITY, z = 0;
        for (int i = 0; i < n; i++)
            mx = mc->rscore[i] > mx ? mc->rscore[i] : mx;
        for (int i = 0; i < n; i++)
            z += p[i] = exp(mc->rscore[i] - mx);
        for (int i = 0; i < n; i++)
            p[i] /= z;
    } else {
        PolicyCtx c;
        policy_ctx_info(&c, v);
        policy_probs(&mc->w, &c, mc->moves, n, p);
    }
    int k = 0;
    double mx = 0;
    for (int i = 0; i < n; i++)
        mx = p[i] > mx ? p[i] : mx;
    for (int i = 0; i < n; i++) { /* insertion by descending probability */
        int j = k++;
        for (; j > 0 && p[mc->arm_move[j - 1]] < p[i]; j--)
            mc->arm_move[j] = mc->arm_move[j - 1];
        mc->arm_move[j] = i;
    }
    int keep = k;
    while (keep > 2 && p[mc->arm_move[keep - 1]] < mc->prune * mx)
        keep--;
    return keep;
}

/* The rich policy's probabilities (at prior-temp) of the k candidates, renormalised over them:
 * PUCT's prior (search() hands it to the bandit). */
static void set_prior(Mc *mc, int k)
{
    const double *sc = mc->rscore;
    double mx = -INFINITY, z = 0;
    for (int a = 0; a < k; a++)
        mx = sc[mc->arm_move[a]] > mx ? sc[mc->arm_move[a]] : mx;
    for (int a = 0; a < k; a++)
        z += mc->prior[a] = exp((sc[mc->arm_move[a]] - mx) / mc->prior_temp);
    for (int a = 0; a < k; a++)
        mc->prior[a] /= z;
}

static Move decide_play(Mc *mc, const InfoSet *v);

static Move mc_play(Player *self, const InfoSet *v)
{
    Mc *mc = self->impl;
    const double t0 = cpu_now();
    Move m = decide_play(mc, v);
    mc->cpu += cpu_now() - t0;
    mc->decisions++;
    return m;
}

static Move decide_play(Mc *mc, const InfoSet *v)
{
    memcpy(mc->cls, v->cls, sizeof mc->cls);
    int n = movegen(v->hand, v->table, v->rev, v->lock, mc->moves);
    if (n == 0)
        return move_pass();
    if (n == 1)
        return mc->moves[0]; /* forced */
    for (int i = 0; i < n; i++)
        if (mc->moves[i].type != MOVE_PASS && move_cards(mc->moves[i]) == v->hand)
            return mc->moves[i]; /* goes out: nothing to search */
    PlayCtx c = {v, {0}};
    for (int p = 0; p < NPLAYERS; p++)
        c.count[p] = v->ncards[p];
    if (prepare_worlds(mc, v, c.count)) /* what the server shows cannot be dealt */
        return simple_choose(mc->moves, n, v->rev);
    Move m;
    if (mc->surewin && endgame_sure_win_view(v, &m))
        return m; /* a chain nobody can break: no need to search */
    if (mc->endgame > 0 && endgame_solve_view(v, mc->endgame, &mc->tt, &m) == 1)
        return m; /* one opponent left: its hand is known */
    if (mc->puct > 0 || mc->rootpol || mc->rprior > 0) { /* the rich policy's scores of every move */
        RichCtx rc;
        rich_ctx_info(&rc, v);
        rich_scores(mc->prior_w, &rc, mc->moves, n, mc->rscore);
    }
    int k = n;
    if (mc->prune > 0)
        k = policy_candidates(mc, v, n);
    else
        for (int i = 0; i < n; i++)
            mc->arm_move[i] = i;
    if (mc->puct > 0)
        set_prior(mc, k);
    pseudo_counts(mc, k, mc->rscore, mc->rprior);
    if (mc->tree > 0 && ++mc->tgen == 0) { /* a new tree for this decision (every old node is stale) */
        memset(mc->tnode, 0, TREE_NODES * sizeof *mc->tnode);
        mc->tgen = 1;
    }
    mc->tused = 0;
    int hidden = 0; /* the cards the opponents hold in all */
    for (int p = 0; p < NPLAYERS; p++)
        hidden += p != v->me ? v->ncards[p] : 0;
    mc->tlive = mc->tree > 0 && hidden <= mc->tree_cards;
    mc->tsearches += mc->tlive;
    const int best = search(mc, k, sim_play, &c, mc->desa);
    mc->tlive = 0;
    return mc->moves[mc->arm_move[best]];
}

/* ---------------------------------------------------------------- exchange */

typedef struct ExchCtx {
    const InfoSet *v;
    int n;
    Cards cand[128];
    int count[NPLAYERS];
    int partner, other_rich, other_poor;
} ExchCtx;

static int exch_setup(Mc *mc, const InfoSet *v, ExchCtx *c);

static double sim_exchange(Mc *mc, void *ctx, int arm, long j, long *legal)
{
    ExchCtx *c = ctx;
    const InfoSet *v = c->v;
    Cards hand[NPLAYERS];
    if (world(mc, v, j, hand))
        return 0;
    const Cards give = c->cand[mc->arm_move[arm]];
    hand[v->me] &= ~give;
    hand[c->partner] |= give;
    if (c->other_rich >= 0 && c->other_poor >= 0) { /* the fugo still gives */
        Cards g1 = (mc->devkit_mask >> c->other_rich) & 1 ? devkit_gift(hand[c->other_rich], 1)
                   : mc->gift                     ? gift_pick(mc->gift, hand[c->other_rich], 1, 0, NULL)
                   : mc->playout != PLAYOUT_SIMPLE ? policy_pick_gift(&mc->w, hand[c->other_rich], 1, 0, NULL)
                                                   : cards_weakest(hand[c->other_rich], 1);
        hand[c->other_rich] &= ~g1;
        hand[c->other_poor] |= g1;
    }
    GameState g;
    state_init(&g, hand, v->seat, game_first_player(hand));
    Rng r = mc->crn ? sim_rng(mc, j, 0x65786368 /* "exch" */) : mc->rng;
    DevkitSeen dk;
    if (mc->devkit_mask) {
        dk = mc->dkf.seen;
        devkit_seen_game_start(&dk);
    }
    double reward = playout(mc, &g, &r, v->me, legal, &dk);
    if (!mc->crn)
        mc->rng = r;
    return reward;
}

static Cards decide_exchange(Mc *mc, const InfoSet *v, int n);

static Cards mc_exchange(Player *self, const InfoSet *v, int n)
{
    Mc *mc = self->impl;
    const double t0 = cpu_now();
    Cards c = decide_exchange(mc, v, n);
    mc->cpu += cpu_now() - t0;
    mc->decisions++;
    return c;
}

static Cards decide_exchange(Mc *mc, const InfoSet *v, int n)
{
    ExchCtx c;
    memset(&c, 0, sizeof c);
    memcpy(mc->cls, v->cls, sizeof mc->cls);
    c.v = v;
    c.n = n;
    int k = policy_gifts(v->hand, n, c.cand);
    if (k == 0)
        return cards_weakest(v->hand, n);
    if (exch_setup(mc, v, &c))
        return cards_weakest(v->hand, n);
    for (int i = 0; i < k; i++)
        mc->arm_move[i] = i;
    double sc[128];
    if ((mc->xtop > 0 && k > mc->xtop) || mc->xprior > 0) {
        if (mc->gift)
            gift_scores(mc->gift, v->hand, c.cand, k, sc);
        else
            for (int i = 0; i < k; i++)
                sc[i] = policy_exch_score(&mc->w, v->hand, c.cand[i]);
    }
    if (mc->xtop > 0 && k > mc->xtop) { /* the policy's (or the gift model's) best gifts only */
        for (int i = 1; i < k; i++) {
            int a = mc->arm_move[i], j = i;
            for (; j > 0 && sc[mc->arm_move[j - 1]] < sc[a]; j--)
                mc->arm_move[j] = mc->arm_move[j - 1];
            mc->arm_move[j] = a;
        }
        k = (int)mc->xtop;
    }
    pseudo_counts(mc, k, sc, mc->xprior); /* xprior: the gift model's (or policy's) scores as pseudo-counts */
    /* paper 001 applies DESA to plays only; desa-exch=1 extends it to the exchange */
    return c.cand[mc->arm_move[search(mc, k, sim_exchange, &c, mc->desa_exch ? mc->desa : 0)]];
}

/* ---------------------------------------------------------------- values of every candidate */

/* The exchange context of a rich player's gift (shared by the search and the evaluation). */
static int exch_setup(Mc *mc, const InfoSet *v, ExchCtx *c)
{
    const int me = v->me, mycls = v->cls[me];
    c->partner = partner_of(v->cls, me);
    c->other_rich = c->other_poor = -1;
    for (int p = 0; p < NPLAYERS; p++) { /* the hands' sizes right now */
        int d = v->ncards[p], cl = v->cls[p];
        c->count[p] = cl == 4 ? d - 2 + (mycls == 1 ? 2 : 0) : cl == 3 ? d - 1 : cl == 1 ? d + 1 : d;
        if (cl == 1 && mycls == 0)
            c->other_rich = p;
        if (cl == 3 && mycls == 0)
            c->other_poor = p;
    }
    c->count[me] = cards_count(v->hand);
    return c->partner >= 0 && prepare_worlds(mc, v, c->count) == 0 ? 0 : -1;
}

/* Runs `worlds` paired simulations of each of k arms (world j and stream j shared). */
static void paired_values(Mc *mc, int k, SimFn sim, void *ctx, int worlds, uint64_t seed, double *q)
{
    const long crn = mc->crn;
    mc->crn = 1;
    mc->dseed = seed;
    /* the endgame table solves more within its node limit when warm: start cold, so the values
     * depend on (v, seed) only, never on what was evaluated before */
    endgame_tt_clear(&mc->tt);
    memset(mc->have_world, 0, sizeof mc->have_world);
    for (int a = 0; a < k; a++) {
        mc->arm_move[a] = a;
        double sum = 0;
        for (int j = 0; j < worlds; j++) {
            long legal = 0;
            sum += sim(mc, ctx, a, j, &legal);
        }
        q[a] = worlds > 0 ? sum / worlds : 0;
    }
    mc->crn = crn;
}

int mc_action_values(Player *p, const InfoSet *v, const Move *mv, int n, int worlds, uint64_t seed, double *q)
{
    if (!mc_is(p) || n > MOVEGEN_MAX)
        return -1;
    Mc *mc = p->impl;
    PlayCtx c = {v, {0}};
    memcpy(mc->cls, v->cls, sizeof mc->cls);
    for (int i = 0; i < NPLAYERS; i++)
        c.count[i] = v->ncards[i];
    if (prepare_worlds(mc, v, c.count))
        return -1;
    memcpy(mc->moves, mv, (size_t)n * sizeof *mv);
    paired_values(mc, n, sim_play, &c, worlds, seed, q);
    return 0;
}

int mc_gift_values(Player *p, const InfoSet *v, const Cards *gifts, int n, int worlds, uint64_t seed, double *q)
{
    if (!mc_is(p) || n > 128)
        return -1;
    Mc *mc = p->impl;
    ExchCtx c;
    memset(&c, 0, sizeof c);
    memcpy(mc->cls, v->cls, sizeof mc->cls);
    c.v = v;
    memcpy(c.cand, gifts, (size_t)n * sizeof *gifts);
    if (exch_setup(mc, v, &c))
        return -1;
    paired_values(mc, n, sim_exchange, &c, worlds, seed, q);
    return 0;
}

/* ---------------------------------------------------------------- the choice bandit */

/* UCB-V over the inner bandits: Beta mean, the variance of the squared rewards (paper 001
 * §6.1: zeta 0.5, c 2, b 1); untried inner bandits first. */
static int choose_inner(const Mc *mc)
{
    int best = 0;
    double bv = -INFINITY;
    double t = (double)(mc->games > 1 ? mc->games : 1);
    for (int a = 0; a < MC_CHOICE_ARMS; a++) {
        const InnerArm *x = &mc->inner[a];
        if (!x->n)
            return a;
        double mean = x->alpha / (x->alpha + x->beta), m = x->sum / x->n, var = x->sum2 / x->n - m * m;
        double e = mc->bp.v_zeta * log(t);
        double v = mean + sqrt(2 * (var > 0 ? var : 0) * e / x->n) + mc->bp.v_c * 3 * mc->bp.v_b * e / x->n;
        if (v > bv) {
            bv = v;
            best = a;
        }
    }
    return best;
}

static void mc_observe(Player *self, const InfoSet *v, int who, Move m)
{
    (void)who;
    Mc *mc = self->impl;
    devkit_finder_observe(&mc->dkf, v, m);
}

static void mc_game_start(Player *self, const InfoSet *v)
{
    Mc *mc = self->impl;
    devkit_finder_game_start(&mc->dkf);
    if (mc->odevkit == 1)
        mc->devkit_mask = 31u & ~(1u << v->me);
    set_rewards(mc, v->game);
    if (!mc->choice)
        return;
    mc->current = choose_inner(mc);
    mc->kind = MC_CHOICE_KINDS[mc->current];
}

/* est-time=1: the passes of the game v ended, with the hands made out from its plays, added to
 * each player's counts, and the time model read anew from them. */
static void learn_times(Mc *mc, const InfoSet *v)
{
    Cards hand[NPLAYERS]; /* the hands the game started from (after the exchange) */
    if (oppmodel_hands(v, hand)) {
        mc->time_skipped++;
        return;
    }
    est_time_count_plays(hand, v->seat, v->first, v->plays, v->nplays, mc->tcount);
    for (int p = 0; p < NPLAYERS; p++)
        est_time_model(&mc->tcount[p], mc->tm.lp[p]);
    mc->time_games++;
}

static void mc_game_end(Player *self, const InfoSet *v, const int cls[NPLAYERS])
{
    Mc *mc = self->impl;
    mc->games++;
    if (mc->odevkit == 2)
        mc->devkit_mask = devkit_finder_game_end(&mc->dkf, v);
    if (mc->eo.time)
        learn_times(mc, v);
    if (mc->model)
        oppmodel_learn(&mc->om, v);
    if (mc->omodel)
        oppbias_learn(&mc->ob, v, mc->prior_w, mc->ptemp);
    if (!mc->choice)
        return;
    double r = reward_of(mc, cls[v->me]), r2 = r * r;
    InnerArm *x = &mc->inner[mc->current];
    x->alpha += r2;
    x->beta += 1 - r2;
    x->n++;
    x->sum += r2;
    x->sum2 += r2 * r2;
}

int mc_choice_usage(const Player *p, long usage[MC_CHOICE_ARMS])
{
    if (!mc_is(p) || !p->impl || !((const Mc *)p->impl)->choice)
        return -1;
    const Mc *mc = p->impl;
    for (int a = 0; a < MC_CHOICE_ARMS; a++)
        usage[a] = mc->inner[a].n;
    return 0;
}

/* ", NAME": {games, skipped, decisions, and the prequential top-1 and log-loss per decision}
 * of an online opponent model, its object left open for what follows. */
static void report_learner(FILE *out, const char *name, long games, long skipped, long decisions, double top1,
                           double logloss)
{
    const double d = decisions ? (double)decisions : 1.0;
    fprintf(out, ", \"%s\": {\"games\": %ld, \"skipped\": %ld, \"decisions\": %ld, \"top1\": %.4f, \"logloss\": %.4f",
            name, games, skipped, decisions, top1 / d, logloss / d);
}

static void mc_report(Player *self, FILE *out)
{
    Mc *mc = self->impl;
    const double g = mc->games ? (double)mc->games : 1.0;
    fprintf(out, "{\"bandit\": \"%s\", \"games\": %ld, \"cpu_seconds\": %.3f, \"cpu_ms_per_game\": %.2f, "
                 "\"decisions\": %ld, \"searched\": %ld, \"simulations\": %ld",
            mc->choice ? "choice" : bandit_name(mc->kind), mc->games, mc->cpu, 1000 * mc->cpu / g, mc->decisions,
            mc->searched, mc->sims_done);
    char est[96];
    est_options_describe(&mc->eo, est, sizeof est);
    fprintf(out, ", \"est\": \"%s\"", est);
    if (mc->acc_worlds)
        fprintf(out, ", \"est_worlds\": %ld, \"est_accuracy\": %.5f", mc->acc_worlds,
                (double)mc->acc_right / (double)(mc->acc_total ? mc->acc_total : 1));
    if (mc->eo.time) { /* each player's timed passes: [without a play, with one], by time bin */
        fprintf(out, ", \"est_time\": {\"games\": %ld, \"skipped\": %ld, \"passes\": [", mc->time_games,
                mc->time_skipped);
        for (int p = 0; p < NPLAYERS; p++)
            for (int h = 0; h < 2; h++)
                for (int b = 0; b < EST_TBINS; b++)
                    fprintf(out, "%s%s%ld%s%s", p && !h && !b ? ", " : "", !h && !b ? "[[" : !b ? ", [" : ", ",
                            mc->tcount[p].n[h][b], b == EST_TBINS - 1 ? "]" : "", h && b == EST_TBINS - 1 ? "]" : "");
        fprintf(out, "]}");
    }
    if (mc->tree) /* the tree over my later decisions: nodes a search, nodes a simulation passed */
        fprintf(out, ", \"tree\": {\"searches\": %ld, \"nodes\": %ld, \"nodes_per_search\": %.1f, \"depth_mean\": %.3f, \"share_two_deep\": %.4f}",
                mc->tsearches, mc->tnodes, (double)mc->tnodes / (double)(mc->tsearches ? mc->tsearches : 1),
                (double)mc->tpassed / (double)(mc->tsims ? mc->tsims : 1), (double)mc->tdeep / (double)(mc->tsims ? mc->tsims : 1));
    if (mc->odevkit) /* which players it plays as the sample client, and (auto) each one's checks */
        devkit_finder_json(out, "odevkit", mc->devkit_mask, mc->odevkit == 2 ? &mc->dkf : NULL);
    if (mc->model) {
        report_learner(out, "model", mc->om.games, mc->om.skipped, mc->om.decisions, mc->om.top1, mc->om.logloss);
        fprintf(out, "}");
    }
    if (mc->omodel) {
        report_learner(out, "omodel", mc->ob.games, mc->ob.skipped, mc->ob.decisions, mc->ob.top1, mc->ob.logloss);
        fprintf(out, ", \"bias\": [");
        for (int p = 0; p < NPLAYERS; p++) {
            fprintf(out, "%s[", p ? ", " : "");
            for (int k = 0; k < OPPBIAS_K; k++)
                fprintf(out, "%s%.4f", k ? ", " : "", mc->ob.b[p][k]);
            fprintf(out, "]");
        }
        fprintf(out, "]}");
    }
    if (!mc->choice) {
        fprintf(out, "}");
        return;
    }
    fprintf(out, ", \"inner\": [");
    for (int a = 0; a < MC_CHOICE_ARMS; a++) {
        const InnerArm *x = &mc->inner[a];
        fprintf(out, "%s{\"bandit\": \"%s\", \"games\": %ld, \"per_1000_games\": %.1f, \"mean_reward2\": %.4f}",
                a ? ", " : "", bandit_name(MC_CHOICE_KINDS[a]), x->n,
                mc->games ? 1000.0 * (double)x->n / (double)mc->games : 0.0, x->n ? x->sum / x->n : 0.0);
    }
    fprintf(out, "]}");
}

/* Everything an Mc holds, and the Mc (any field still zero is fine: creation's late errors). */
static void mc_free(Mc *mc)
{
    est_sampler_free(&mc->es);
    est_options_free(&mc->eo);
    endgame_tt_free(&mc->tt);
    free(mc->tnode);
    free(mc->prior_own);
    free(mc->gift_own);
    free(mc);
}

static void mc_destroy(Player *self) { mc_free(self->impl); }

int mc_est_accuracy(const Player *p, long *right, long *total)
{
    if (!mc_is(p) || !p->impl)
        return 0;
    const Mc *mc = p->impl;
    *right = mc->acc_right;
    *total = mc->acc_total;
    return mc->acc_worlds > 0;
}

double mc_reward(const Player *p, int cls)
{
    if (!mc_is(p) || !p->impl || cls < 0 || cls >= NPLAYERS)
        return NAN;
    return reward_of(p->impl, cls);
}

static void mc_oracle(Player *self, const Cards hand[NPLAYERS])
{
    Mc *mc = self->impl;
    memcpy(mc->truth, hand, sizeof mc->truth);
    mc->have_truth = 1;
}

/* xmodel= and gift-weights=: the gift model into mc->gift (by default when the rich policy is in
 * use, mc->prior_w), or none (the fast policy's exchange weights). 0 or -1. */
static int xmodel_option(Mc *mc, const char *xmodel, const char *path, char *err, size_t errsz)
{
    if (!xmodel)
        xmodel = mc->prior_w ? "gift" : "fast";
    if (strcmp(xmodel, "gift") && strcmp(xmodel, "fast")) {
        snprintf(err, errsz, "mc: xmodel=%s: valid are gift, fast", xmodel);
        return -1;
    }
    if (!strcmp(xmodel, "fast")) {
        if (path) {
            snprintf(err, errsz, "mc: gift-weights=%s needs xmodel=gift", path);
            return -1;
        }
        return 0;
    }
    return gift_weights_option(path, "mc: gift-weights", &mc->gift, &mc->gift_own, err, errsz);
}

int mc_is(const Player *p) { return p && p->kind && (!strcmp(p->kind, "mc") || !strcmp(p->kind, "search")); }

/* The `search` player's defaults (mc options; any given in the spec wins; a spec that names its
 * own world sampler, est=, gets none of the sampler's defaults, the est- options). */
static const char *const SEARCH_DEFAULTS[][2] = {
    {"playout", "rich"}, {"pmates", "all"},   {"rootpol", "rich"},    {"rprior", "1"},
    {"bandit", "ucb-root"}, {"est", "policy"}, {"est-fresh", "16"}, {"worlds", "128"},
    {"odevkit", "auto"}, {"xprior", "1"},
};

static int spec_has(const PlayerSpec *s, const char *key)
{
    for (int j = 0; j < s->nopts; j++)
        if (!strcmp(s->opt[j].key, key))
            return 1;
    return 0;
}

int search_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    const int own_est = spec_has(s, "est");
    for (size_t i = 0; i < sizeof SEARCH_DEFAULTS / sizeof SEARCH_DEFAULTS[0]; i++) {
        const char *key = SEARCH_DEFAULTS[i][0];
        if (spec_has(s, key) || (own_est && !strncmp(key, "est", 3)))
            continue;
        if (s->nopts >= SPEC_MAX_OPTS) {
            snprintf(err, errsz, "search: too many options (at most %d with the defaults it adds)", SPEC_MAX_OPTS);
            return -1;
        }
        snprintf(s->opt[s->nopts].key, sizeof s->opt[0].key, "%s", SEARCH_DEFAULTS[i][0]);
        snprintf(s->opt[s->nopts].val, sizeof s->opt[0].val, "%s", SEARCH_DEFAULTS[i][1]);
        s->opt[s->nopts++].used = 0;
    }
    return mc_player_create(s, seed, p, err, errsz);
}

int mc_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    Mc *mc = calloc(1, sizeof *mc);
    if (!mc) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    bandit_params_default(&mc->bp);
    long acc = 0;
    const char *bn = spec_get_str(s, "bandit", "ucb1-tuned");
    int k = bandit_parse(bn);
    if (k < 0 && strcmp(bn, "choice")) {
        snprintf(err, errsz, "mc: unknown bandit '%s' (valid: %schoice)", bn, bandit_names());
        free(mc);
        return -1;
    }
    mc->choice = k < 0;
    mc->kind = mc->choice ? MC_CHOICE_KINDS[0] : (BanditKind)k;
    const char *final = spec_get_str(s, "final", "mean"), *reward = spec_get_str(s, "reward", "linear");
    const char *desa = spec_get_str(s, "desa", "none");
    int bad = 0;
    if (strcmp(final, "mean") && strcmp(final, "count"))
        bad = snprintf(err, errsz, "mc: final=%s: valid are mean, count", final);
    else if (strcmp(reward, "linear") && strcmp(reward, "top") && strcmp(reward, "match"))
        bad = snprintf(err, errsz, "mc: reward=%s: valid are linear, top, match", reward);
    else if (strcmp(desa, "none") && strcmp(desa, "sim") && strcmp(desa, "last") && strcmp(desa, "both"))
        bad = snprintf(err, errsz, "mc: desa=%s: valid are none, sim, last, both", desa);
    mc->final_count = !strcmp(final, "count");
    mc->reward = !strcmp(reward, "top") ? REWARD_TOP : !strcmp(reward, "match") ? REWARD_MATCH : REWARD_LINEAR;
    set_rewards(mc, 0);
    mc->desa = !strcmp(desa, "sim") ? DESA_SIM : !strcmp(desa, "last") ? DESA_LAST : !strcmp(desa, "both") ? 3 : 0;
    const char *pl = spec_get_str(s, "playout", "policy");
    if (!bad && strcmp(pl, "policy") && strcmp(pl, "simple") && strcmp(pl, "rich"))
        bad = snprintf(err, errsz, "mc: playout=%s: valid are policy, simple, rich", pl);
    mc->playout = !strcmp(pl, "simple") ? PLAYOUT_SIMPLE : !strcmp(pl, "rich") ? PLAYOUT_RICH : PLAYOUT_POLICY;
    const int pol = mc->playout != PLAYOUT_SIMPLE; /* the new features' defaults follow the playout */
    const char *prior_path = spec_get_str(s, "prior-weights", NULL);
    const char *pm = spec_get_str(s, "pmates", NULL), *rootpol = spec_get_str(s, "rootpol", "fast");
    const char *odk = spec_get_str(s, "odevkit", "0");
    const char *xmodel = spec_get_str(s, "xmodel", NULL), *gift_path = spec_get_str(s, "gift-weights", NULL);
    if (bad || spec_get_int(s, "sims", 1, 100000000, 1000, &mc->sims, err, errsz) ||
        spec_get_double(s, "ptemp", 0.01, 100, 1, &mc->ptemp, err, errsz) ||
        spec_get_double(s, "prune", 0, 1, pol ? 0.02 : 0, &mc->prune, err, errsz) ||
        spec_get_int(s, "xtop", 0, 128, pol ? 12 : 0, &mc->xtop, err, errsz) ||
        spec_get_int(s, "crn", 0, 1, pol, &mc->crn, err, errsz) ||
        spec_get_int(s, "surewin", 0, 1, pol, &mc->surewin, err, errsz) ||
        spec_get_int(s, "endgame", 0, 100000000, pol ? 20000 : 0, &mc->endgame, err, errsz) ||
        spec_get_int(s, "pendgame", 0, 100000000, pol ? 200 : 0, &mc->pendgame, err, errsz) ||
        spec_get_int(s, "mate-cards", 1, 54, 6, &mc->mate_cards, err, errsz) ||
        spec_get_double(s, "rprior", 0, 1000, 0, &mc->rprior, err, errsz) ||
        spec_get_double(s, "xprior", 0, 1000, 0, &mc->xprior, err, errsz) ||
        spec_get_double(s, "psharp", 0, 100, 0, &mc->psharp, err, errsz) ||
        spec_get_double(s, "otemp", 0, 100, 0, &mc->otemp, err, errsz) ||
        spec_get_int(s, "worlds", 0, WORLDS, 0, &mc->nworlds, err, errsz) ||
        spec_get_int(s, "mate-hands", 0, 1, 0, &mc->mate_hands, err, errsz) ||
        spec_get_double(s, "stop", 0, 1000, 0, &mc->stop, err, errsz) ||
        (pol && policy_weights_option(s, &mc->w, err, errsz)) ||
        spec_get_int(s, "ms", 0, 3600000, 0, &mc->ms, err, errsz) ||
        spec_get_double(s, "desa-w", 0, 100, 0.1, &mc->desa_w, err, errsz) ||
        spec_get_int(s, "desa-exch", 0, 1, 0, &mc->desa_exch, err, errsz) ||
        spec_get_double(s, "eps", 0, 1, 0.1, &mc->eps, err, errsz) ||
        spec_get_double(s, "c", 0, 100, 0.7, &mc->bp.root_c, err, errsz) ||
        spec_get_double(s, "zeta", 0, 100, 0.5, &mc->bp.v_zeta, err, errsz) ||
        spec_get_double(s, "vc", 0, 100, 2, &mc->bp.v_c, err, errsz) ||
        spec_get_double(s, "b", 0, 100, 1, &mc->bp.v_b, err, errsz) ||
        spec_get_double(s, "klc", 0, 100, 0, &mc->bp.kl_c, err, errsz) ||
        spec_get_double(s, "alpha", 1e-6, 10, 0.1, &mc->bp.ucb2_alpha, err, errsz) ||
        spec_get_int(s, "acc", 0, 1, 0, &acc, err, errsz) ||
        spec_get_int(s, "model", 0, 2, 0, &mc->model, err, errsz) ||
        spec_get_double(s, "puct", 0, 100, 0, &mc->puct, err, errsz) ||
        spec_get_double(s, "prior-temp", 0.01, 100, 1, &mc->prior_temp, err, errsz) ||
        spec_get_double(s, "model-lr", 0, 10, 0.02, &mc->model_lr, err, errsz) ||
        spec_get_int(s, "omodel", 0, 1, 0, &mc->omodel, err, errsz) ||
        spec_get_double(s, "omodel-lr", 0, 10, 0.05, &mc->omodel_lr, err, errsz) ||
        spec_get_int(s, "tree", 0, TREE_DEPTH_MAX, 0, &mc->tree, err, errsz) ||
        spec_get_double(s, "tree-c", 0, 100, 1, &mc->tree_c, err, errsz) ||
        spec_get_int(s, "tree-key", 0, 1, 0, &mc->tree_coarse, err, errsz) ||
        spec_get_int(s, "tree-cards", 0, 53, 53, &mc->tree_cards, err, errsz) ||
        est_options(s, "est", "est-model", EST_UNIFORM, &mc->eo, err, errsz) ||
        spec_check_unused(s,
                          "bandit, sims, ms, final, reward, eps, desa, desa-w, desa-exch, c, zeta, vc, b, klc, alpha, "
                          "playout, weights, ptemp, prune, xtop, crn, surewin, endgame, pendgame, stop, est, order, "
                          "method, p, est-model, est-k, est-beta, est-weights, est-mcmc, est-point, est-fresh, est-exch, est-proposal, est-seq, est-temp, acc, model, model-lr, omodel, omodel-lr, "
                          "puct, prior-temp, prior-weights, pmates, mate-cards, rootpol, rprior, xprior, worlds, psharp, otemp, mate-hands, "
                          "xmodel, gift-weights, odevkit, est-time, tree, tree-c, tree-key, tree-cards",
                          err, errsz)) {
        est_options_free(&mc->eo);
        free(mc);
        return -1;
    }
    mc->acc = (int)acc;
    if (strcmp(odk, "0") && strcmp(odk, "1") && strcmp(odk, "auto")) {
        snprintf(err, errsz, "mc: odevkit=%s: valid are 0, 1, auto", odk);
        est_options_free(&mc->eo);
        free(mc);
        return -1;
    }
    mc->odevkit = !strcmp(odk, "auto") ? 2 : atoi(odk);
    if (!pm)
        pm = mc->surewin ? "own" : "none";
    if (strcmp(pm, "none") && strcmp(pm, "own") && strcmp(pm, "all")) {
        snprintf(err, errsz, "mc: pmates=%s: valid are none, own, all", pm);
        est_options_free(&mc->eo);
        free(mc);
        return -1;
    }
    mc->pmates = !strcmp(pm, "all") ? PMATES_ALL : !strcmp(pm, "own") ? PMATES_OWN : PMATES_NONE;
    if (strcmp(rootpol, "fast") && strcmp(rootpol, "rich")) {
        snprintf(err, errsz, "mc: rootpol=%s: valid are fast, rich", rootpol);
        est_options_free(&mc->eo);
        free(mc);
        return -1;
    }
    mc->rootpol = !strcmp(rootpol, "rich");
    mc->bp.puct_c = mc->puct;
    if ((mc->puct > 0 || mc->playout == PLAYOUT_RICH || mc->rootpol || mc->rprior > 0 || mc->tree > 0) &&
        rich_weights_option(prior_path, "mc: prior-weights", &mc->prior_w, &mc->prior_own, err, errsz)) {
        est_options_free(&mc->eo);
        free(mc);
        return -1;
    }
    if (xmodel_option(mc, xmodel, gift_path, err, errsz)) {
        est_options_free(&mc->eo);
        free(mc->prior_own);
        free(mc);
        return -1;
    }
    est_sampler_init(&mc->es, &mc->eo);
    for (int a = 0; a < MC_CHOICE_ARMS; a++)
        mc->inner[a].alpha = mc->inner[a].beta = 1;
    if (!pol && (mc->prune > 0 || mc->xtop > 0 || mc->xprior > 0)) { /* the policy's gifts and prior need its weights */
        if (policy_weights_option(s, &mc->w, err, errsz)) {
            free(mc);
            return -1;
        }
    }
    if (mc->model && mc->playout != PLAYOUT_POLICY) {
        snprintf(err, errsz, "mc: model=%ld needs playout=policy", mc->model);
        est_options_free(&mc->eo);
        free(mc);
        return -1;
    }
    if (mc->model) /* 1: a model of each opponent; 2: one model of them all */
        oppmodel_init(&mc->om, &mc->w, mc->model_lr, mc->model == 2);
    if (mc->omodel && mc->playout != PLAYOUT_RICH) {
        snprintf(err, errsz, "mc: omodel=1 needs playout=rich (model= is the fast policy's)");
        est_options_free(&mc->eo);
        free(mc);
        return -1;
    }
    if (mc->omodel)
        oppbias_init(&mc->ob, mc->omodel_lr);
    if (mc->tree > 0 && (mc->playout == PLAYOUT_SIMPLE || !(mc->tnode = calloc(TREE_NODES, sizeof *mc->tnode)))) {
        if (mc->playout == PLAYOUT_SIMPLE)
            snprintf(err, errsz, "mc: tree=%ld needs playout=policy or rich", mc->tree);
        else
            snprintf(err, errsz, "mc: out of memory");
        mc_free(mc);
        return -1;
    }
    if ((mc->endgame > 0 || mc->pendgame > 0) && endgame_tt_init(&mc->tt, ENDGAME_TT_BITS)) {
        snprintf(err, errsz, "mc: out of memory");
        mc_free(mc);
        return -1;
    }
    mc->rng = rng_seed(seed);
    devkit_finder_init(&mc->dkf, 0, 0);
    p->impl = mc;
    p->play = mc_play;
    p->exchange = mc_exchange;
    p->game_start = mc_game_start;
    p->game_end = mc_game_end;
    if (mc->odevkit)
        p->observe = mc_observe;
    p->report_json = mc_report;
    p->destroy = mc_destroy;
    if (mc->eo.kind == EST_ORACLE || mc->acc) /* the engine shows the true hands to this player */
        p->oracle = mc_oracle;
    p->reads_hidden = mc->eo.kind == EST_ORACLE;
    p->wants_times = mc->eo.time; /* the engine times every move for it */
    return 0;
}

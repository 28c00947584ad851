/* mc.c — the Monte Carlo player: root bandits over the legal moves (or, for the daifugo and
 * fugo, over the cards to give), simulations in sampled worlds with a fast playout policy,
 * DESA (paper 001 Algorithm 2) and the choice bandit (paper 001 Algorithm 1, "Ninja").
 *
 * Options (defaults): bandit=ucb1-tuned (ucb1 ucb1-tuned ucb-root ucb-v thompson kl-ucb ucb2
 * choice), sims=1000, ms=0 (a time budget per decision in milliseconds instead of sims),
 * final=mean|count, reward=linear|top, eps=0.1 (playout randomness), desa=none|sim|last|both,
 * desa-w=0.1, desa-exch=0 (1: DESA in the exchange search too; paper 001 uses it for plays
 * only), c=0.7 (UCB-root), zeta=0.5, vc=2, b=1 (UCB-V), klc=0 (KL-UCB), alpha=0.1 (UCB2).
 * The player reads only its InfoSet; its RNG stream comes from its seed.
 */
#include "players/mc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game.h"
#include "players/players.h"

const BanditKind MC_CHOICE_KINDS[MC_CHOICE_ARMS] = {B_UCB_ROOT, B_UCB1_TUNED, B_THOMPSON, B_UCB_V, B_KL_UCB};

enum { DESA_NONE = 0, DESA_SIM = 1, DESA_LAST = 2 };

_Static_assert(BANDIT_MAX_ARMS >= MOVEGEN_MAX, "every legal move must fit in the root bandit");

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
    int final_count, reward_top, desa;
    long desa_exch; /* apply DESA to the exchange search too (off: paper 001 does not) */
    double desa_w, eps;
    Rng rng;
    InnerArm inner[MC_CHOICE_ARMS];
    long games;
    int current; /* index into MC_CHOICE_KINDS for this game */
    Bandit bandit;
    Move moves[MOVEGEN_MAX];
    double leaf[BANDIT_MAX_ARMS], bonus[BANDIT_MAX_ARMS]; /* DESA: legal-move sums, bonuses */
    int narm[BANDIT_MAX_ARMS];                            /* DESA: simulations per candidate */
} Mc;

/* ---------------------------------------------------------------- sampling worlds */

/* k cards drawn uniformly from `from` (k <= its size). */
static Cards draw_cards(Cards from, int k, Rng *rng)
{
    int bits[64], n = 0;
    for (Cards x = from; x; x &= x - 1)
        bits[n++] = __builtin_ctzll(x);
    Cards out = 0;
    for (int i = 0; i < k && i < n; i++) {
        int j = i + (int)rng_below(rng, (uint32_t)(n - i));
        int t = bits[i];
        bits[i] = bits[j];
        bits[j] = t;
        out |= 1ULL << bits[i];
    }
    return out;
}

static int partner_of(const int8_t cls[NPLAYERS], int me)
{
    int want = 4 - cls[me];
    for (int p = 0; p < NPLAYERS; p++)
        if (cls[p] == want)
            return p;
    return -1;
}

int mc_sample_hands(const InfoSet *v, const int count[NPLAYERS], Rng *rng, Cards hand[NPLAYERS])
{
    const int me = v->me;
    Cards fixed[NPLAYERS] = {0};
    Cards unseen = CARDS_ALL & ~v->hand & ~v->played;
    int c = v->cls[me];
    if (c >= 0 && c != 2) {
        int partner = partner_of(v->cls, me);
        if (partner >= 0)
            fixed[partner] |= v->given & unseen; /* rich: what I gave; poor: what was taken */
    }
    if (v->first >= 0 && v->first != me && (unseen & CARDS_D3))
        fixed[v->first] |= CARDS_D3;
    /* Every hand is written whatever happens; -1 says the counts could not all be met. */
    for (int p = 0; p < NPLAYERS; p++)
        hand[p] = p == me ? v->hand : 0;
    int need = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if (p != me) {
            if (count[p] < 0 || count[p] > 53)
                return -1;
            need += count[p];
        }
    if (need != cards_count(unseen))
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        int ok = 1;
        Cards rest = unseen;
        for (int p = 0; p < NPLAYERS; p++)
            if (p != me) {
                if (pass == 1)
                    fixed[p] = 0; /* inconsistent knowledge: fall back to a uniform deal */
                if (cards_count(fixed[p]) > count[p])
                    ok = 0;
                rest &= ~fixed[p];
            }
        if (!ok)
            continue;
        for (int p = 0; p < NPLAYERS; p++) {
            if (p == me)
                continue;
            Cards add = draw_cards(rest, count[p] - cards_count(fixed[p]), rng);
            hand[p] = fixed[p] | add;
            rest &= ~add;
        }
        return 0;
    }
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

static double reward_of(const Mc *mc, int cls) { return mc->reward_top ? (cls == 0) : (4 - cls) / 4.0; }

static int class_of(const GameState *g, int p)
{
    for (int k = 0; k < NPLAYERS; k++)
        if (g->order[k] == p)
            return k;
    return NPLAYERS - 1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
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

/* Runs the bandit over k candidates; sim(ctx, arm, legal) returns a reward. */
typedef double (*SimFn)(Mc *mc, void *ctx, int arm, long *legal);

/* desa: the DESA variant for this search (DESA_* bits; 0 = none). */
static int search(Mc *mc, int k, SimFn sim, void *ctx, int desa)
{
    bandit_init(&mc->bandit, mc->kind, &mc->bp, k);
    memset(mc->leaf, 0, (size_t)k * sizeof mc->leaf[0]);
    memset(mc->narm, 0, (size_t)k * sizeof mc->narm[0]);
    memset(mc->bonus, 0, (size_t)k * sizeof mc->bonus[0]);
    const double t0 = mc->ms > 0 ? now_ms() : 0;
    for (long i = 0;; i++) {
        if (mc->ms > 0) {
            if (i >= k && (i & 15) == 0 && now_ms() - t0 >= (double)mc->ms)
                break;
        } else if (i >= mc->sims) {
            break;
        }
        int a = bandit_select(&mc->bandit, &mc->rng, desa & DESA_SIM ? mc->bonus : NULL);
        long legal = 0;
        double r = sim(mc, ctx, a, &legal);
        mc->leaf[a] += (double)legal;
        mc->narm[a]++;
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
    int best = 0;
    double bv = -INFINITY;
    for (int a = 0; a < k; a++) {
        const Arm *x = &mc->bandit.arm[a];
        double v = mc->final_count ? (double)x->n : bandit_mean(&mc->bandit, a);
        if (desa & DESA_LAST)
            v += mc->desa_w * dv[a];
        if (v > bv || (v == bv && x->n > mc->bandit.arm[best].n)) {
            bv = v;
            best = a;
        }
    }
    return best;
}

/* Whether worlds consistent with v and these counts exist (a copy of the RNG is used, so the
 * player's stream is not consumed). A peer that shows impossible counts gets the simple rule
 * instead of a search over worlds that cannot be dealt. */
static int worlds_exist(const InfoSet *v, const int count[NPLAYERS], Rng rng)
{
    Cards hand[NPLAYERS];
    return mc_sample_hands(v, count, &rng, hand) == 0;
}

/* ---------------------------------------------------------------- plays */

typedef struct PlayCtx {
    const InfoSet *v;
    int count[NPLAYERS];
} PlayCtx;

static double sim_play(Mc *mc, void *ctx, int arm, long *legal)
{
    PlayCtx *c = ctx;
    Cards hand[NPLAYERS];
    GameState g;
    if (mc_sample_hands(c->v, c->count, &mc->rng, hand))
        return 0; /* not reached: mc_play checked that worlds can be dealt */
    infoset_to_state(c->v, hand, &g);
    if (state_apply(&g, mc->moves[arm]) & EV_STALEMATE)
        state_finish_stalemate(&g, &mc->rng);
    mc_playout(&g, &mc->rng, mc->eps, legal);
    return reward_of(mc, class_of(&g, c->v->me));
}

static Move mc_play(Player *self, const InfoSet *v)
{
    Mc *mc = self->impl;
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
    if (!worlds_exist(v, c.count, mc->rng)) /* what the server shows cannot be dealt */
        return simple_choose(mc->moves, n, v->rev);
    return mc->moves[search(mc, n, sim_play, &c, mc->desa)];
}

/* ---------------------------------------------------------------- exchange */

typedef struct ExchCtx {
    const InfoSet *v;
    int n;
    Cards cand[128];
    int count[NPLAYERS];
    int partner, other_rich, other_poor;
} ExchCtx;

static double sim_exchange(Mc *mc, void *ctx, int arm, long *legal)
{
    ExchCtx *c = ctx;
    const InfoSet *v = c->v;
    Cards hand[NPLAYERS];
    if (mc_sample_hands(v, c->count, &mc->rng, hand))
        return 0; /* not reached: mc_exchange checked that worlds can be dealt */
    hand[v->me] &= ~c->cand[arm];
    hand[c->partner] |= c->cand[arm];
    if (c->other_rich >= 0 && c->other_poor >= 0) { /* the fugo still gives: its weakest card */
        Cards give = cards_weakest(hand[c->other_rich], 1);
        hand[c->other_rich] &= ~give;
        hand[c->other_poor] |= give;
    }
    GameState g;
    state_init(&g, hand, v->seat, game_first_player(hand));
    mc_playout(&g, &mc->rng, mc->eps, legal);
    return reward_of(mc, class_of(&g, v->me));
}

static Cards mc_exchange(Player *self, const InfoSet *v, int n)
{
    Mc *mc = self->impl;
    ExchCtx c;
    memset(&c, 0, sizeof c);
    c.v = v;
    c.n = n;
    int k = 0;
    for (Cards a = v->hand; a && k < 128; a &= a - 1) { /* every n-card subset of the hand */
        Cards ca = a & (0 - a);
        if (n == 1) {
            c.cand[k++] = ca;
            continue;
        }
        for (Cards b = a & (a - 1); b && k < 128; b &= b - 1)
            c.cand[k++] = ca | (b & (0 - b));
    }
    if (k == 0)
        return cards_weakest(v->hand, n);
    const int me = v->me, mycls = v->cls[me];
    c.partner = partner_of(v->cls, me);
    c.other_rich = c.other_poor = -1;
    for (int p = 0; p < NPLAYERS; p++) { /* the hands' sizes right now */
        int d = v->ncards[p], cl = v->cls[p];
        c.count[p] = cl == 4 ? d - 2 + (mycls == 1 ? 2 : 0) : cl == 3 ? d - 1 : cl == 1 ? d + 1 : d;
        if (cl == 1 && mycls == 0)
            c.other_rich = p;
        if (cl == 3 && mycls == 0)
            c.other_poor = p;
    }
    c.count[me] = cards_count(v->hand);
    if (c.partner < 0 || !worlds_exist(v, c.count, mc->rng))
        return cards_weakest(v->hand, n);
    /* paper 001 applies DESA to plays only; desa-exch=1 extends it to the exchange */
    return c.cand[search(mc, k, sim_exchange, &c, mc->desa_exch ? mc->desa : 0)];
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

static void mc_game_start(Player *self, const InfoSet *v)
{
    (void)v;
    Mc *mc = self->impl;
    if (!mc->choice)
        return;
    mc->current = choose_inner(mc);
    mc->kind = MC_CHOICE_KINDS[mc->current];
}

static void mc_game_end(Player *self, const InfoSet *v, const int cls[NPLAYERS])
{
    Mc *mc = self->impl;
    mc->games++;
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
    if (!p || !p->kind || strcmp(p->kind, "mc") || !p->impl || !((const Mc *)p->impl)->choice)
        return -1;
    const Mc *mc = p->impl;
    for (int a = 0; a < MC_CHOICE_ARMS; a++)
        usage[a] = mc->inner[a].n;
    return 0;
}

static void mc_report(Player *self, FILE *out)
{
    Mc *mc = self->impl;
    if (!mc->choice) {
        fprintf(out, "{\"bandit\": \"%s\", \"games\": %ld}", bandit_name(mc->kind), mc->games);
        return;
    }
    fprintf(out, "{\"bandit\": \"choice\", \"games\": %ld, \"inner\": [", mc->games);
    for (int a = 0; a < MC_CHOICE_ARMS; a++) {
        const InnerArm *x = &mc->inner[a];
        fprintf(out, "%s{\"bandit\": \"%s\", \"games\": %ld, \"per_1000_games\": %.1f, \"mean_reward2\": %.4f}",
                a ? ", " : "", bandit_name(MC_CHOICE_KINDS[a]), x->n,
                mc->games ? 1000.0 * (double)x->n / (double)mc->games : 0.0, x->n ? x->sum / x->n : 0.0);
    }
    fprintf(out, "]}");
}

static void mc_destroy(Player *self) { free(self->impl); }

int mc_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    Mc *mc = calloc(1, sizeof *mc);
    if (!mc) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    bandit_params_default(&mc->bp);
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
    else if (strcmp(reward, "linear") && strcmp(reward, "top"))
        bad = snprintf(err, errsz, "mc: reward=%s: valid are linear, top", reward);
    else if (strcmp(desa, "none") && strcmp(desa, "sim") && strcmp(desa, "last") && strcmp(desa, "both"))
        bad = snprintf(err, errsz, "mc: desa=%s: valid are none, sim, last, both", desa);
    mc->final_count = !strcmp(final, "count");
    mc->reward_top = !strcmp(reward, "top");
    mc->desa = !strcmp(desa, "sim") ? DESA_SIM : !strcmp(desa, "last") ? DESA_LAST : !strcmp(desa, "both") ? 3 : 0;
    if (bad || spec_get_int(s, "sims", 1, 100000000, 1000, &mc->sims, err, errsz) ||
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
        spec_check_unused(s, "bandit, sims, ms, final, reward, eps, desa, desa-w, desa-exch, c, zeta, vc, b, klc, alpha",
                          err, errsz)) {
        free(mc);
        return -1;
    }
    for (int a = 0; a < MC_CHOICE_ARMS; a++)
        mc->inner[a].alpha = mc->inner[a].beta = 1;
    mc->rng = rng_seed(seed);
    p->impl = mc;
    p->play = mc_play;
    p->exchange = mc_exchange;
    p->game_start = mc_game_start;
    p->game_end = mc_game_end;
    p->report_json = mc_report;
    p->destroy = mc_destroy;
    return 0;
}

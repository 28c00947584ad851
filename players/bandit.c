/* bandit.c — the root bandits (see bandit.h for the formulas). */
#include "players/bandit.h"

#include <math.h>
#include <string.h>

/* One list gives both the table and the "valid: ..." text. */
#define BANDIT_NAMES(X) X("ucb1") X("ucb1-tuned") X("ucb-root") X("ucb-v") X("thompson") X("kl-ucb") X("ucb2")
#define NAME_ITEM(s) s,
#define NAME_JOIN(s) s ", "
static const char *const NAMES[B_NKINDS] = {BANDIT_NAMES(NAME_ITEM)};

const char *bandit_names(void) { return BANDIT_NAMES(NAME_JOIN); }

const char *bandit_name(BanditKind k) { return (unsigned)k < B_NKINDS ? NAMES[k] : k == B_PUCT ? "puct" : "?"; }

int bandit_parse(const char *name)
{
    for (int i = 0; i < B_NKINDS; i++)
        if (!strcmp(name, NAMES[i]))
            return i;
    return -1;
}

void bandit_params_default(BanditParams *p)
{
    p->root_c = 0.7;
    p->v_zeta = 0.5;
    p->v_c = 2.0;
    p->v_b = 1.0;
    p->kl_c = 0.0;
    p->ucb2_alpha = 0.1;
    p->puct_c = 1.0;
}

void bandit_init(Bandit *b, BanditKind kind, const BanditParams *p, int arms)
{
    b->kind = kind;
    b->p = *p;
    b->k = arms > BANDIT_MAX_ARMS ? BANDIT_MAX_ARMS : arms;
    b->total = 0;
    b->run_arm = -1;
    b->run_left = 0;
    b->sum = 0;
    b->prior = NULL;
    memset(b->arm, 0, (size_t)b->k * sizeof b->arm[0]);
}

double kl_bernoulli(double p, double q)
{
    const double e = 1e-15;
    p = p < e ? e : p > 1 - e ? 1 - e : p;
    q = q < e ? e : q > 1 - e ? 1 - e : q;
    return p * log(p / q) + (1 - p) * log((1 - p) / (1 - q));
}

double klucb_bound(double p, double delta)
{
    if (delta <= 0)
        return p;
    if (p >= 1)
        return 1;
    if (p <= 0)
        return 1 - exp(-delta); /* exact when p = 0 */
    /* Newton on f(q) = d(p, q) - delta, f'(q) = (q - p) / (q (1 - q)), from the Pinsker bound
     * p + sqrt(delta / 2), which lies above the root: f is convex and increasing on [p, 1), so
     * the iterates decrease monotonically to it. */
    double q = p + sqrt(delta / 2);
    if (q >= 1 - 1e-12)
        q = 1 - 1e-12;
    for (int i = 0; i < 40; i++) {
        double f = kl_bernoulli(p, q) - delta;
        if (f <= 1e-13)
            break;
        double step = f * q * (1 - q) / (q - p);
        double nq = q - step;
        if (!(nq > p))
            break;
        q = nq;
        if (step < 1e-12)
            break;
    }
    if (kl_bernoulli(p, q) > delta + 1e-9) { /* safeguard: bisection on [p, q] */
        double lo = p, hi = q;
        for (int i = 0; i < 60; i++) {
            double mid = 0.5 * (lo + hi);
            if (kl_bernoulli(p, mid) > delta)
                hi = mid;
            else
                lo = mid;
        }
        q = lo;
    }
    return q;
}

static long ucb2_tau(double alpha, int r) { return (long)ceil(pow(1 + alpha, r)); }

/* The epoch after r that is not empty: the smallest r2 > r with tau(r2) > tau(r). Epochs with
 * tau(r + 1) = tau(r) (many, for a small alpha) are skipped, so that an arm's pulls equal
 * tau(r) after every epoch (Auer et al. 2002; ../shared/spec/bandits.md, corrected). Found
 * from ln tau(r) / ln(1 + alpha) rather than by stepping: at alpha = 0.001 thousands of epochs
 * can be empty in a row. */
static int ucb2_next_epoch(double alpha, int r)
{
    const long t = ucb2_tau(alpha, r);
    int r2 = (int)floor(log((double)t) / log1p(alpha));
    if (r2 <= r)
        r2 = r + 1;
    while (r2 > r + 1 && ucb2_tau(alpha, r2 - 1) > t) /* rounding: step back to the first */
        r2--;
    while (ucb2_tau(alpha, r2) <= t)
        r2++;
    return r2;
}

/* What an index needs from N (the pulls so far), computed once per selection, not per arm. */
typedef struct Totals {
    double N, lnN, sqrtN, lnlnN;
} Totals;

static Totals totals_of(const Bandit *b)
{
    Totals t;
    t.N = b->total > 1 ? (double)b->total : 1.0;
    t.lnN = log(t.N);
    t.sqrtN = sqrt(t.N);
    t.lnlnN = t.lnN > 1 ? log(t.lnN) : 0;
    return t;
}

static double index_of(const Bandit *b, int a, const Totals *t)
{
    const Arm *x = &b->arm[a];
    const double n = x->n, mean = x->sum / n;
    switch (b->kind) {
    case B_UCB1:
        return mean + sqrt(2 * t->lnN / n);
    case B_UCB1_TUNED: {
        double v = x->sum2 / n - mean * mean + sqrt(2 * t->lnN / n);
        return mean + sqrt(t->lnN / n * (v < 0.25 ? v : 0.25));
    }
    case B_UCB_ROOT:
        return mean + b->p.root_c * sqrt(t->sqrtN / n);
    case B_UCB_V: {
        double var = x->sum2 / n - mean * mean, e = b->p.v_zeta * t->lnN;
        if (var < 0)
            var = 0;
        return mean + sqrt(2 * var * e / n) + b->p.v_c * 3 * b->p.v_b * e / n;
    }
    case B_KL_UCB:
        return klucb_bound(mean, (t->lnN + b->p.kl_c * t->lnlnN) / n);
    case B_UCB2: {
        double tau = (double)ucb2_tau(b->p.ucb2_alpha, x->r);
        double l = 1 + t->lnN - log(tau); /* ln(e N / tau) */
        return mean + sqrt((1 + b->p.ucb2_alpha) * (l > 0 ? l : 0) / (2 * tau));
    }
    default:
        return mean;
    }
}

double bandit_index(const Bandit *b, int a)
{
    Totals t = totals_of(b);
    return index_of(b, a, &t);
}

/* PUCT (see bandit.h): ties to the first arm. */
static int puct_select(const Bandit *b, const double *bonus)
{
    const double fpu = b->total ? b->sum / (double)b->total : 0.5, s = b->p.puct_c * sqrt((double)b->total + 1);
    int best = 0;
    double bv = -INFINITY;
    for (int a = 0; a < b->k; a++) {
        const Arm *x = &b->arm[a];
        double v = (x->n ? x->sum / x->n : fpu) + s * b->prior[a] / (1 + x->n);
        if (bonus)
            v += bonus[a];
        if (v > bv) {
            bv = v;
            best = a;
        }
    }
    return best;
}

int bandit_select(Bandit *b, Rng *rng, const double *bonus)
{
    if (b->kind == B_PUCT && b->prior)
        return puct_select(b, bonus);
    for (int a = 0; a < b->k; a++)
        if (!b->arm[a].n)
            return a;
    if (b->kind == B_UCB2 && b->run_left > 0)
        return b->run_arm;
    int best = 0;
    double bv = -INFINITY;
    const Totals t = totals_of(b);
    for (int a = 0; a < b->k; a++) {
        double v = b->kind == B_THOMPSON ? beta_draw(rng, b->arm[a].s + 1, b->arm[a].f + 1) : index_of(b, a, &t);
        if (bonus)
            v += bonus[a];
        if (v > bv) {
            bv = v;
            best = a;
        }
    }
    if (b->kind == B_UCB2) { /* start the arm's next non-empty epoch */
        Arm *x = &b->arm[best];
        int r2 = ucb2_next_epoch(b->p.ucb2_alpha, x->r);
        b->run_arm = best;
        b->run_left = (int)(ucb2_tau(b->p.ucb2_alpha, r2) - ucb2_tau(b->p.ucb2_alpha, x->r));
        x->r = r2;
    }
    return best;
}

void bandit_update(Bandit *b, int a, double reward, Rng *rng)
{
    Arm *x = &b->arm[a];
    x->n++;
    x->sum += reward;
    x->sum2 += reward * reward;
    b->total++;
    b->sum += reward;
    if (b->kind == B_THOMPSON) { /* Bernoulli trick (Agrawal & Goyal, Algorithm 2) */
        double r = rng_double(rng) < reward ? 1.0 : 0.0;
        x->s += r;
        x->f += 1 - r;
    }
    if (b->kind == B_UCB2 && b->run_arm == a && b->run_left > 0)
        b->run_left--;
}

double normal_draw(Rng *rng)
{
    double u = rng_double(rng), v = rng_double(rng);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * M_PI * v);
}

double gamma_draw(Rng *rng, double shape)
{
    if (shape < 1) { /* boost: G(a) = G(a + 1) U^(1/a) */
        double u = rng_double(rng);
        return gamma_draw(rng, shape + 1) * pow(u > 0 ? u : 1e-300, 1.0 / shape);
    }
    double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9 * d);
    for (;;) {
        double x, v;
        do {
            x = normal_draw(rng);
            v = 1 + c * x;
        } while (v <= 0);
        v = v * v * v;
        double u = rng_double(rng);
        if (u < 1 - 0.0331 * x * x * x * x || log(u > 0 ? u : 1e-300) < 0.5 * x * x + d * (1 - v + log(v)))
            return d * v;
    }
}

double beta_draw(Rng *rng, double a, double b)
{
    double x = gamma_draw(rng, a), y = gamma_draw(rng, b);
    return x + y > 0 ? x / (x + y) : 0.5;
}

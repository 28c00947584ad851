/* train.c — decisions from records and the conditional-logit fit (see train.h). */
#include "analysis/train.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "game/workers.h"
#include "players/devkit.h"
#include "players/mc.h"
#include "players/endgame.h"
#include "players/players.h"
#include "players/gift.h"
#include "players/rich.h"

void train_data_init(TrainData *d) { memset(d, 0, sizeof *d); }

static void set_free(DecisionSet *s)
{
    free(s->buf);
    free(s->off);
    free(s->held);
    free(s->kind);
}

void train_data_free(TrainData *d)
{
    set_free(&d->play);
    set_free(&d->exch);
    set_free(&d->gift);
    endgame_tt_free(&d->tt);
    memset(d, 0, sizeof *d);
}

int train_held_out(uint64_t seed, long index, double share)
{
    return (double)(rng_derive(seed, 0x68656c64 /* "held" */, (uint64_t)index) >> 11) * (1.0 / 9007199254740992.0) <
           share;
}

static int set_reserve(DecisionSet *s, size_t words)
{
    if (s->len + words > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : (size_t)1 << 20;
        while (cap < s->len + words)
            cap *= 2;
        uint32_t *b = realloc(s->buf, cap * sizeof *b);
        if (!b)
            return -1;
        s->buf = b;
        s->cap = cap;
    }
    if (s->n == s->capn) {
        long c = s->capn ? 2 * s->capn : 4096;
        size_t *o = realloc(s->off, (size_t)c * sizeof *o);
        uint8_t *h = o ? realloc(s->held, (size_t)c) : NULL;
        if (o)
            s->off = o;
        if (!h)
            return -1;
        s->held = h;
        s->capn = c;
    }
    return 0;
}

/* Appends a decision: candidates' features via fn(arg, i, idx) -> count. A soft decision
 * (target != NULL) has chosen = TRAIN_SOFT followed by the n target probabilities, each
 * in 1/65535ths. */
#define TRAIN_SOFT 0xFFFF
#define TRAIN_MAX_ACTIVE (RICH_MAX_ACTIVE > GIFT_MAX_ACTIVE ? RICH_MAX_ACTIVE : GIFT_MAX_ACTIVE)
static int add_decision_t(DecisionSet *s, int n, int chosen, const double *target, int held,
                          int (*fn)(const void *arg, int i, uint32_t *idx), const void *arg)
{
    if (set_reserve(s, 2 + (size_t)n * (2 + TRAIN_MAX_ACTIVE)))
        return -1;
    s->off[s->n] = s->len;
    s->held[s->n] = (uint8_t)held;
    s->n++;
    s->buf[s->len++] = (uint32_t)n;
    s->buf[s->len++] = (uint32_t)(target ? TRAIN_SOFT : chosen);
    for (int i = 0; target && i < n; i++)
        s->buf[s->len++] = (uint32_t)lrint(target[i] * 65535.0);
    for (int i = 0; i < n; i++) {
        uint32_t *k = &s->buf[s->len++];
        *k = (uint32_t)fn(arg, i, &s->buf[s->len]);
        s->len += *k;
    }
    return 0;
}

static int add_decision(DecisionSet *s, int n, int chosen, int held, int (*fn)(const void *arg, int i, uint32_t *idx),
                        const void *arg)
{
    return add_decision_t(s, n, chosen, NULL, held, fn, arg);
}

typedef struct PlayArg {
    const PolicyCtx *c;
    const Move *mv;
} PlayArg;

/* The fast policy's features (16-bit indices) widened into idx. */
static int widen(int k, const uint16_t *from, uint32_t *idx)
{
    for (int j = 0; j < k; j++)
        idx[j] = from[j];
    return k;
}

static int play_feats(const void *arg, int i, uint32_t *idx)
{
    const PlayArg *a = arg;
    uint16_t f[POLICY_MAX_ACTIVE];
    return widen(policy_features(a->c, a->mv[i], f), f, idx);
}

typedef struct ExchArg {
    Cards hand;
    const Cards *gift;
} ExchArg;

static int exch_feats(const void *arg, int i, uint32_t *idx)
{
    const ExchArg *a = arg;
    uint16_t f[POLICY_MAX_ACTIVE];
    return widen(policy_exch_features(a->hand, a->gift[i], f), f, idx);
}

static int gift_feats(const void *arg, int i, uint32_t *idx)
{
    const ExchArg *a = arg;
    return gift_features(a->hand, a->gift[i], idx);
}

typedef struct RichArg {
    const RichCtx *c;
    const Move *mv;
} RichArg;

static int rich_feats(const void *arg, int i, uint32_t *idx)
{
    const RichArg *a = arg;
    return rich_features(a->c, a->mv[i], idx);
}

/* Room in s->kind for every decision s has room for. 0 or -1. */
static int kind_reserve(DecisionSet *s)
{
    if (s->kind && s->capkind >= s->capn)
        return 0;
    uint8_t *k = realloc(s->kind, (size_t)s->capn);
    if (!k)
        return -1;
    s->kind = k;
    s->capkind = s->capn;
    return 0;
}

/* The kind of the last play decision added (TRAIN_WIN_*): whether the mover can be certain to
 * win from its position (the sure-win test), or, with two players left, what the exact solve
 * says (the other holds every card the mover cannot see). */
static int tag_last(TrainData *d, const GameState *g)
{
    DecisionSet *s = &d->play;
    if (!d->tt.e && endgame_tt_init(&d->tt, 16))
        return -1;
    if (kind_reserve(s))
        return -1;
    int kind = TRAIN_WIN_NONE;
    if (endgame_sure_win_state(g, NULL))
        kind = TRAIN_WIN_SURE;
    else if (NPLAYERS - __builtin_popcount(g->out) == 2) {
        int r = endgame_solve2(g, 200000, &d->tt, NULL, NULL);
        kind = r == 1 ? TRAIN_WIN_SOLVED : r == 0 ? TRAIN_LOSS_SOLVED : TRAIN_UNDECIDED;
    }
    s->kind[s->n - 1] = (uint8_t)kind;
    return 0;
}

int train_add_game(TrainData *d, const GameRecord *rec, unsigned mask, int held)
{
    d->games++;
    d->held_games += held;
    if (rec->cls[0] >= 0) /* the gifts of the daifugo and the fugo */
        for (int p = 0; p < NPLAYERS; p++) {
            int c = rec->cls[p];
            if ((c != 0 && c != 1) || !((mask >> p) & 1))
                continue;
            Cards hand = rec->original[p] | rec->changed[p], gift[128];
            int n = policy_gifts(hand, 2 - c, gift), chosen = -1;
            for (int i = 0; i < n; i++)
                if (gift[i] == rec->changed[p])
                    chosen = i;
            if (n < 2 || chosen < 0)
                continue;
            ExchArg a = {hand, gift};
            if (add_decision(&d->exch, n, chosen, held, exch_feats, &a) ||
                (d->gift_model && add_decision(&d->gift, n, chosen, held, gift_feats, &a)))
                return -1;
        }
    if (d->gift_model) /* the gifts only */
        return 0;
    GameState g;
    state_init(&g, rec->original, rec->seat, rec->first);
    Move mv[MOVEGEN_MAX];
    for (int i = 0; i < rec->nplays && !g.over; i++) {
        const Move played = rec->plays[i].move;
        const int p = g.turn;
        if ((mask >> p) & 1) {
            int n = state_moves(&g, mv), chosen = -1;
            for (int k = 0; k < n; k++)
                if (move_eq(mv[k], played))
                    chosen = k;
            if (n < 2)
                d->forced++;
            else if (chosen < 0)
                d->unknown++; /* e.g. a joker standing in for a card its player holds */
            else {
                int rc;
                if (d->rich) {
                    RichCtx c;
                    rich_ctx_state(&c, &g, rec->cls);
                    c.nmoves = n;
                    RichArg a = {&c, mv};
                    rc = add_decision(&d->play, n, chosen, held, rich_feats, &a);
                } else {
                    PolicyCtx c;
                    policy_ctx_state(&c, &g);
                    PlayArg a = {&c, mv};
                    rc = add_decision(&d->play, n, chosen, held, play_feats, &a);
                }
                if (rc || (d->tag_wins && tag_last(d, &g)))
                    return -1;
            }
        }
        Rng none = rng_seed(0); /* a stalemate ends the game here; its random places are unused */
        if (state_apply(&g, played) & EV_STALEMATE)
            state_finish_stalemate(&g, &none);
    }
    return 0;
}

int train_add_play_soft(TrainData *d, const PolicyCtx *c, const Move *mv, int n, const double *target, int held)
{
    PlayArg a = {c, mv};
    return n < 2 ? 0 : add_decision_t(&d->play, n, 0, target, held, play_feats, &a);
}

int train_add_gift_soft(TrainData *d, Cards hand, const Cards *gifts, int n, const double *target, int held)
{
    ExchArg a = {hand, gifts};
    return n < 2 ? 0 : add_decision_t(&d->exch, n, 0, target, held, exch_feats, &a);
}

static int set_append(DecisionSet *s, const DecisionSet *src)
{
    for (long t = 0; t < src->n; t++) {
        const size_t start = src->off[t], end = t + 1 < src->n ? src->off[t + 1] : src->len;
        if (set_reserve(s, end - start))
            return -1;
        if (src->kind && kind_reserve(s))
            return -1;
        s->off[s->n] = s->len;
        s->held[s->n] = src->held[t];
        if (src->kind)
            s->kind[s->n] = src->kind[t];
        s->n++;
        memcpy(s->buf + s->len, src->buf + start, (end - start) * sizeof *s->buf);
        s->len += end - start;
    }
    return 0;
}

int train_data_append(TrainData *d, const TrainData *src)
{
    if (set_append(&d->play, &src->play) || set_append(&d->exch, &src->exch) || set_append(&d->gift, &src->gift))
        return -1;
    d->games += src->games;
    d->held_games += src->held_games;
    d->forced += src->forced;
    d->unknown += src->unknown;
    return 0;
}

/* The decision at p (its n and chosen read): the target probabilities of a soft one into tgt
 * (and p past them), else a one at the chosen candidate. Returns the index of the most likely
 * target. */
static int read_target(const uint32_t **p, int n, int chosen, double *tgt)
{
    if (chosen != TRAIN_SOFT) {
        for (int i = 0; i < n; i++)
            tgt[i] = i == chosen;
        return chosen;
    }
    int best = 0;
    for (int i = 0; i < n; i++) {
        tgt[i] = (*p)[i] / 65535.0;
        best = tgt[i] > tgt[best] ? i : best;
    }
    *p += n;
    return best;
}

void train_opts_default(TrainOpts *o)
{
    memset(o, 0, sizeof *o);
    o->epochs = 300;
    o->lr = 0.05;
    o->l2 = 1e-4;
    o->jobs = 1;
}

/* ---- loss and gradient over a chunk of decisions ---- */

/* Adds the gradient of the cross-entropy -sum target log P (for a recorded choice: -log
 * P(chosen)) over decisions [lo, hi) with held == want to grad; returns the summed loss; *count
 * gets the decisions used. */
/* The gradient of -adv sum_i t_i log pi(i) over one decision's n candidates at p, where t is tgt
 * (NULL: a one at `chosen`) and pi the softmax at temperature temp of w . phi plus net's
 * hidden-layer term; added into gw and gnet (gw NULL: none). *loss (may be NULL) gets
 * -sum_i t_i log pi(i). Returns the position after the candidates. */
static const uint32_t *decision_grad(const double *w, const RichWeights *net, const uint32_t *p, int n, int chosen,
                                     const double *tgt, double temp, double adv, double *gw, double *gnet,
                                     double *loss)
{
    double sc[MOVEGEN_MAX];
    const int nh = net ? net->nhid : 0;
    const uint32_t *start = p;
    double mx = -INFINITY;
    for (int i = 0; i < n; i++) {
        int k = *p++;
        double v = 0;
        for (int j = 0; j < k; j++)
            v += w[p[j]];
        if (nh)
            v += rich_net_term(net, p, k, NULL);
        p += k;
        sc[i] = v / temp;
        mx = sc[i] > mx ? sc[i] : mx;
    }
    const uint32_t *end = p;
    double z = 0;
    for (int i = 0; i < n; i++)
        z += sc[i] = exp(sc[i] - mx);
    if (loss) {
        *loss = 0;
        for (int i = 0; i < n; i++) {
            const double t = tgt ? tgt[i] : i == chosen;
            if (t > 0)
                *loss -= t * log(sc[i] / z);
        }
    }
    if (!gw)
        return end;
    p = start;
    for (int i = 0; i < n; i++) {
        int k = *p++;
        const double t = tgt ? tgt[i] : i == chosen;
        double d = -adv * (t - sc[i] / z) / temp;
        for (int j = 0; j < k; j++)
            gw[p[j]] += d;
        if (nh) { /* back through out[u] * max(0, h[u]), h found again (cheaper than keeping it) */
            const double *out = rich_net_out(net->net);
            double h[RICH_HID_MAX], dh[RICH_HID_MAX];
            rich_net_term(net, p, k, h);
            for (int u = 0; u < nh; u++) {
                rich_net_out(gnet)[u] += d * (h[u] > 0 ? h[u] : 0);
                dh[u] = h[u] > 0 ? d * out[u] : 0;
                rich_net_bias(gnet)[u] += dh[u];
            }
            for (int j = 0; j < k; j++)
                if (p[j] < RICH_NSMALL) {
                    double *gi = rich_net_in(gnet, p[j]);
                    for (int u = 0; u < nh; u++)
                        gi[u] += dh[u];
                }
        }
        p += k;
    }
    return p;
}

static double chunk_grad(const DecisionSet *s, const double *w, long lo, long hi, int want, double *grad, long *count)
{
    double loss = 0, tgt[MOVEGEN_MAX], l;
    long used = 0;
    for (long t = lo; t < hi; t++) {
        if (want >= 0 && s->held[t] != want)
            continue;
        if (s->kind && ((s->skip_kinds >> s->kind[t]) & 1))
            continue;
        const uint32_t *p = s->buf + s->off[t];
        int n = p[0], chosen = p[1];
        p += 2;
        read_target(&p, n, chosen, tgt);
        decision_grad(w, NULL, p, n, chosen, tgt, 1, 1, grad, NULL, &l);
        loss += l;
        used++;
    }
    *count = used;
    return loss;
}

#define CHUNKS 32 /* fixed: the sum order never depends on the number of threads */

typedef struct Fit {
    const DecisionSet *s;
    const double *w;
    int nw, want;
    double *grad;   /* CHUNKS x nw */
    double loss[CHUNKS];
    long count[CHUNKS];
    int next;
    pthread_mutex_t mu;
} Fit;

static void *fit_worker(void *arg)
{
    Fit *f = arg;
    for (;;) {
        int c = workers_next(&f->mu, &f->next, CHUNKS);
        if (c < 0)
            break;
        long lo = f->s->n * c / CHUNKS, hi = f->s->n * (c + 1) / CHUNKS;
        double *g = f->grad ? f->grad + (size_t)c * f->nw : NULL;
        if (g)
            memset(g, 0, (size_t)f->nw * sizeof *g);
        f->loss[c] = chunk_grad(f->s, f->w, lo, hi, f->want, g, &f->count[c]);
    }
    return NULL;
}

/* Mean loss over the decisions with held == want (-1: all), and its gradient (may be NULL). */
static double loss_grad(const DecisionSet *s, const double *w, int nw, int want, int jobs, double *grad, double *tmp)
{
    Fit f;
    memset(&f, 0, sizeof f);
    f.s = s;
    f.w = w;
    f.nw = nw;
    f.want = want;
    f.grad = grad ? tmp : NULL;
    pthread_mutex_init(&f.mu, NULL);
    workers_run(jobs, fit_worker, &f, NULL);
    pthread_mutex_destroy(&f.mu);
    double loss = 0;
    long n = 0;
    for (int c = 0; c < CHUNKS; c++) {
        loss += f.loss[c];
        n += f.count[c];
    }
    if (grad) {
        memset(grad, 0, (size_t)nw * sizeof *grad);
        for (int c = 0; c < CHUNKS; c++)
            for (int i = 0; i < nw; i++)
                grad[i] += tmp[(size_t)c * nw + i];
        for (int i = 0; i < nw; i++)
            grad[i] /= n > 0 ? (double)n : 1.0;
    }
    return n > 0 ? loss / (double)n : 0;
}

int adam_fit(double *w, int nw, int epochs, double lr, double l2, LossGradFn f, void *ctx,
             void (*every)(void *ctx, int epoch, double loss), void *every_ctx)
{
    double *g = malloc((size_t)nw * sizeof *g), *m = calloc((size_t)nw, sizeof *m), *v = calloc((size_t)nw, sizeof *v);
    int rc = g && m && v ? 0 : -1;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double p1 = 1, p2 = 1;
    for (int e = 1; !rc && e <= epochs; e++) {
        double loss = f(ctx, w, g);
        for (int i = 0; i < nw; i++)
            g[i] += l2 * w[i];
        p1 *= b1;
        p2 *= b2;
        for (int i = 0; i < nw; i++) {
            m[i] = b1 * m[i] + (1 - b1) * g[i];
            v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
            w[i] -= lr * (m[i] / (1 - p1)) / (sqrt(v[i] / (1 - p2)) + eps);
        }
        if (every)
            every(every_ctx, e, loss);
    }
    free(g);
    free(m);
    free(v);
    return rc;
}

typedef struct FitCtx {
    const DecisionSet *s;
    int nw, jobs, report;
    double *tmp;
    const TrainOpts *o;
    const double *w;
} FitCtx;

static double fit_loss_grad(void *ctx, const double *w, double *grad)
{
    FitCtx *c = ctx;
    c->w = w;
    return loss_grad(c->s, w, c->nw, 0, c->jobs, grad, c->tmp);
}

static void fit_every(void *ctx, int e, double loss)
{
    FitCtx *c = ctx;
    if (c->report && c->o->progress && (e % 10 == 0 || e == c->o->epochs))
        c->o->progress(c->o->progress_ctx, e, c->o->epochs, loss, loss_grad(c->s, c->w, c->nw, 1, c->jobs, NULL, c->tmp));
}

static int fit_model(const DecisionSet *s, double *w, int nw, const TrainOpts *o, int report)
{
    if (s->n == 0)
        return 0;
    FitCtx c = {s, nw, o->jobs, report, malloc((size_t)CHUNKS * nw * sizeof(double)), o, w};
    int rc = c.tmp ? adam_fit(w, nw, o->epochs, o->lr, o->l2, fit_loss_grad, &c, fit_every, &c) : -1;
    free(c.tmp);
    return rc;
}

int train_fit(const TrainData *d, const TrainOpts *o, PolicyWeights *w)
{
    if (fit_model(&d->play, w->play, POLICY_NPLAY, o, 1))
        return -1;
    return fit_model(&d->exch, w->exch, POLICY_NEXCH, o, 0);
}

/* ---- minibatch Adam for weights with a hidden layer ---- */

/* One Adam step (b1 0.9, b2 0.999) on n weights w with gradient g and moments m, v; p1, p2 are
 * b1 and b2 to the power of the step's number. */
static void adam_step(double *w, const double *g, double *m, double *v, int n, double lr, double p1, double p2)
{
    for (int i = 0; i < n; i++) {
        m[i] = 0.9 * m[i] + 0.1 * g[i];
        v[i] = 0.999 * v[i] + 0.001 * g[i] * g[i];
        w[i] -= lr * (m[i] / (1 - p1)) / (sqrt(v[i] / (1 - p2)) + 1e-8);
    }
}

#define NET_SLICES 2 /* fixed: a minibatch's gradient is summed in the same order for any --jobs */

typedef struct NetFit {
    const DecisionSet *s;
    const RichWeights *w;
    const long *order;   /* the minibatch's decisions */
    int n;
    double *grad;        /* NET_SLICES x (RICH_NPLAY + RICH_NNET) */
    double loss[NET_SLICES];
    int next;
    pthread_mutex_t mu;
} NetFit;

static void *net_worker(void *arg)
{
    NetFit *f = arg;
    double tgt[MOVEGEN_MAX];
    for (;;) {
        int c = workers_next(&f->mu, &f->next, NET_SLICES);
        if (c < 0)
            break;
        double *g = f->grad + (size_t)c * (RICH_NPLAY + RICH_NNET), loss = 0, l;
        memset(g, 0, (RICH_NPLAY + RICH_NNET) * sizeof *g);
        for (int i = f->n * c / NET_SLICES; i < f->n * (c + 1) / NET_SLICES; i++) {
            const uint32_t *p = f->s->buf + f->s->off[f->order[i]];
            int n = (int)p[0], chosen = (int)p[1];
            p += 2;
            const int soft = chosen == TRAIN_SOFT;
            read_target(&p, n, chosen, tgt);
            decision_grad(f->w->play, f->w, p, n, chosen, soft ? tgt : NULL, 1, 1, g, g + RICH_NPLAY, &l);
            loss += l;
        }
        f->loss[c] = loss;
    }
    return NULL;
}

/* Fits the play weights and the hidden layer of w (which has one) to the training decisions of
 * s by Adam on minibatches of o->batch decisions, o->epochs passes, the order drawn from o->seed
 * every pass. */
static int fit_net(const DecisionSet *s, RichWeights *w, const TrainOpts *o)
{
    const int nw = RICH_NPLAY + RICH_NNET, nb = o->batch > 0 ? o->batch : 256;
    long nt = 0;
    long *order = malloc((size_t)(s->n > 0 ? s->n : 1) * sizeof *order);
    double *grad = malloc((size_t)NET_SLICES * nw * sizeof *grad), *g = malloc((size_t)nw * sizeof *g);
    double *m = calloc((size_t)nw, sizeof *m), *v = calloc((size_t)nw, sizeof *v);
    int rc = -1;
    if (!order || !grad || !g || !m || !v)
        goto out;
    for (long t = 0; t < s->n; t++)
        if (!s->held[t] && !(s->kind && ((s->skip_kinds >> s->kind[t]) & 1)))
            order[nt++] = t;
    double p1 = 1, p2 = 1;
    for (int e = 1; e <= o->epochs && nt > 0; e++) {
        Rng r = rng_seed(rng_derive(o->seed, 0x6e6574666974ull, (uint64_t)e));
        for (long i = nt - 1; i > 0; i--) {
            const long j = (long)rng_below(&r, (uint32_t)(i + 1)), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        double sum = 0;
        for (long at = 0; at < nt; at += nb) {
            NetFit f;
            memset(&f, 0, sizeof f);
            f.s = s;
            f.w = w;
            f.order = order + at;
            f.n = (int)(nt - at < nb ? nt - at : nb);
            f.grad = grad;
            pthread_mutex_init(&f.mu, NULL);
            workers_run(o->jobs, net_worker, &f, NULL);
            pthread_mutex_destroy(&f.mu);
            p1 *= 0.9;
            p2 *= 0.999;
            for (int i = 0; i < nw; i++) {
                g[i] = o->l2 * (i < RICH_NPLAY ? w->play[i] : w->net[i - RICH_NPLAY]);
                for (int c = 0; c < NET_SLICES; c++)
                    g[i] += grad[(size_t)c * nw + i] / f.n;
            }
            adam_step(w->play, g, m, v, RICH_NPLAY, o->lr, p1, p2);
            adam_step(w->net, g + RICH_NPLAY, m + RICH_NPLAY, v + RICH_NPLAY, RICH_NNET, o->lr, p1, p2);
            for (int c = 0; c < NET_SLICES; c++)
                sum += f.loss[c];
        }
        if (o->progress) {
            TrainEval h;
            train_eval_rich(s, w, 1, ~s->skip_kinds, &h);
            o->progress(o->progress_ctx, e, o->epochs, sum / (double)nt, h.n ? h.logloss : NAN);
        }
    }
    rc = 0;
out:
    free(order);
    free(grad);
    free(g);
    free(m);
    free(v);
    return rc;
}

int train_fit_rich(const TrainData *d, const TrainOpts *o, RichWeights *w)
{
    if (w->nhid > 0 ? fit_net(&d->play, w, o) : fit_model(&d->play, w->play, RICH_NPLAY, o, 1))
        return -1;
    return fit_model(&d->exch, w->exch, POLICY_NEXCH, o, 0);
}

int train_fit_gift(const TrainData *d, const TrainOpts *o, GiftWeights *w)
{
    return fit_model(&d->gift, w->w, GIFT_N, o, 1);
}

static void eval_set(const DecisionSet *s, const double *w, const RichWeights *net, int held, unsigned kinds,
                     TrainEval *out)
{
    const int nh = net ? net->nhid : 0;
    memset(out, 0, sizeof *out);
    double sc[1024], tgt[1024];
    for (long t = 0; t < s->n; t++) {
        if (held >= 0 && s->held[t] != held)
            continue;
        if (s->kind && !((kinds >> s->kind[t]) & 1))
            continue;
        const uint32_t *p = s->buf + s->off[t];
        int n = p[0], chosen = p[1], best = 0;
        p += 2;
        chosen = read_target(&p, n, chosen, tgt); /* a soft decision: its likeliest target */
        double mx = -INFINITY;
        for (int i = 0; i < n && i < 1024; i++) {
            int k = *p++;
            double v = 0;
            for (int j = 0; j < k; j++)
                v += w[p[j]];
            if (nh)
                v += rich_net_term(net, p, k, NULL);
            p += k;
            sc[i] = v;
            if (v > mx) {
                mx = v;
                best = i;
            }
        }
        double z = 0;
        int ties = 0;
        for (int i = 0; i < n; i++) {
            z += exp(sc[i] - mx);
            ties += sc[i] == mx;
        }
        out->n++;
        out->top1 += best == chosen;
        out->top1_ties += sc[chosen] == mx ? 1.0 / ties : 0;
        for (int i = 0; i < n; i++)
            if (tgt[i] > 0)
                out->logloss -= tgt[i] * (sc[i] - mx - log(z));
        out->chance_top1 += 1.0 / n;
        out->chance_logloss += log((double)n);
        out->zero_top1 += chosen == 0;
    }
    if (out->n) {
        out->top1 /= (double)out->n;
        out->top1_ties /= (double)out->n;
        out->logloss /= (double)out->n;
        out->chance_top1 /= (double)out->n;
        out->chance_logloss /= (double)out->n;
        out->zero_top1 /= (double)out->n;
    }
}

void train_eval_set(const DecisionSet *s, const double *w, int held, unsigned kinds, TrainEval *out)
{
    eval_set(s, w, NULL, held, kinds, out);
}

void train_eval_rich(const DecisionSet *s, const RichWeights *w, int held, unsigned kinds, TrainEval *out)
{
    eval_set(s, w->play, w, held, kinds, out);
}

void train_eval(const TrainData *d, const PolicyWeights *pw, int exch, int held, TrainEval *out)
{
    train_eval_set(exch ? &d->exch : &d->play, exch ? pw->exch : pw->play, held, ~0u, out);
}

/* ---------------------------------------------------------------- REINFORCE */

void rl_opts_default(RlOpts *o)
{
    memset(o, 0, sizeof *o);
    o->games = 200000;
    o->batch = 512;
    o->lr = 0.003;
    o->temp = 1;
    o->vs_simple = 0.5;
    o->seed = 1;
    o->jobs = 1;
    o->learner_class = -1;
    o->repeat = 1;
}

/* One game's learner decisions, features listed: (model, n, chosen, then n x (k, idx...)),
 * with the learner's seat and its class at the end. */
typedef struct RlGame {
    uint32_t *buf;
    size_t len, cap;
    int learner_mask;
    int cls[NPLAYERS];
    int kind; /* RL_SIMPLE, RL_LEAGUE, RL_SELF */
    double base[NPLAYERS]; /* each learner's baseline */
} RlGame;

static int rl_push(RlGame *g, size_t words)
{
    if (g->len + words <= g->cap)
        return 0;
    size_t cap = g->cap ? 2 * g->cap : 8192;
    while (cap < g->len + words)
        cap *= 2;
    uint32_t *b = realloc(g->buf, cap * sizeof *b);
    if (!b)
        return -1;
    g->buf = b;
    g->cap = cap;
    return 0;
}

/* Records a decision of player p (model 0 plays, 1 gifts). */
static int rl_record(RlGame *g, int p, int model, int n, int chosen, int (*fn)(const void *arg, int i, uint32_t *idx),
                     const void *arg)
{
    if (rl_push(g, 4 + (size_t)n * (1 + RICH_MAX_ACTIVE)))
        return -1;
    g->buf[g->len++] = (uint32_t)p;
    g->buf[g->len++] = (uint32_t)model;
    g->buf[g->len++] = (uint32_t)n;
    g->buf[g->len++] = (uint32_t)chosen;
    for (int i = 0; i < n; i++) {
        uint32_t *k = &g->buf[g->len++];
        *k = (uint32_t)fn(arg, i, &g->buf[g->len]);
        g->len += *k;
    }
    return 0;
}

/* The model learning by REINFORCE: the fast policy or the rich one (exactly one is set). */
typedef struct RlModel {
    const PolicyWeights *fast;
    const RichWeights *rich;
} RlModel;

static const double *rl_exch(RlModel m) { return m.rich ? m.rich->exch : m.fast->exch; }

static double gift_score(const double *exch, Cards hand, Cards give)
{
    uint32_t idx[POLICY_MAX_ACTIVE];
    ExchArg a = {hand, &give};
    int k = exch_feats(&a, 0, idx);
    double s = 0;
    for (int i = 0; i < k; i++)
        s += exch[idx[i]];
    return s;
}

/* The move of a league member (its first choice) or of the learner (a draw at temp, recorded). */
static int rl_pick(RlModel m, const GameState *g, const int8_t cls[NPLAYERS], const Move *mv, int n, double temp,
                   Rng *r, RlGame *rec)
{
    int k;
    if (m.rich) { /* as the policy player: a certain win first (the rich policy learns the rest) */
        Move sure;
        if (endgame_sure_win_state(g, &sure))
            for (k = 0; k < n; k++)
                if (move_eq(mv[k], sure))
                    return k;
        RichCtx c;
        double sc[MOVEGEN_MAX + 3];
        rich_ctx_state(&c, g, cls);
        rich_scores(m.rich, &c, mv, n, sc);
        k = policy_pick_scores(sc, n, temp, r);
        RichArg a = {&c, mv};
        if (rec && rl_record(rec, g->turn, 0, n, k, rich_feats, &a))
            return -1;
        return k;
    }
    PolicyCtx c;
    policy_ctx_state(&c, g);
    k = policy_pick(m.fast, &c, mv, n, temp, r);
    PlayArg a = {&c, mv};
    if (rec && rl_record(rec, g->turn, 0, n, k, play_feats, &a))
        return -1;
    return k;
}

/* The plays of each deal (o->repeat; below 1 counts as 1). */
static int rl_repeat(const RlOpts *o) { return o->repeat > 1 ? o->repeat : 1; }

void train_rl_deal(const RlOpts *o, long index, RlDeal *d, Rng *play)
{
    const int repeat = rl_repeat(o);
    Rng r = rng_seed(rng_derive(o->seed, 0x726c, (uint64_t)(index / repeat)));
    const double kind_draw = rng_double(&r);
    d->kind = kind_draw < o->vs_simple                                  ? RL_SIMPLE
              : kind_draw < o->vs_simple + o->vs_league && o->nleague ? RL_LEAGUE
                                                                      : RL_SELF;
    d->learner = (int)rng_below(&r, NPLAYERS);
    d->learner_mask = d->kind == RL_SELF ? 31 : 1 << d->learner;
    for (int p = 0; p < NPLAYERS; p++)
        d->member[p] = d->kind == RL_LEAGUE && p != d->learner ? (int)rng_below(&r, (uint32_t)o->nleague) : -1;
    uint8_t *seat = d->seat;
    for (int i = 0; i < NPLAYERS; i++)
        seat[i] = (uint8_t)i;
    for (int i = NPLAYERS - 1; i > 0; i--) {
        int j = (int)rng_below(&r, (uint32_t)(i + 1));
        uint8_t t = seat[i];
        seat[i] = seat[j];
        seat[j] = t;
    }
    int8_t *cls = d->cls;
    d->exchange = rng_below(&r, 5) != 0; /* most games of a match have an exchange */
    int dealer = (int)rng_below(&r, NPLAYERS);
    if (d->exchange) {
        for (int s = 0; s < NPLAYERS; s++)
            cls[seat[s]] = (int8_t)s; /* classes in a random order of players */
        for (int i = NPLAYERS - 1; i > 0; i--) {
            int j = (int)rng_below(&r, (uint32_t)(i + 1));
            int8_t t = cls[i];
            cls[i] = cls[j];
            cls[j] = t;
        }
        if (o->learner_class >= 0 && d->kind != RL_SELF)
            for (int p = 0; p < NPLAYERS; p++)
                if (cls[p] == o->learner_class) { /* swap: the learner takes that class */
                    cls[p] = cls[d->learner];
                    cls[d->learner] = (int8_t)o->learner_class;
                    break;
                }
        for (int p = 0; p < NPLAYERS; p++)
            if (cls[p] == 0)
                dealer = p;
    } else {
        for (int p = 0; p < NPLAYERS; p++)
            cls[p] = -1;
    }
    game_deal(seat, dealer, &r, d->hand);
    /* the deal is shared by its plays; the draws from here are this play's own */
    *play = repeat > 1 ? rng_seed(rng_derive(o->seed, 0x7270, (uint64_t)index)) : r;
}

/* Plays game `index`: learners sample from w at temp; rule-based opponents (`simple` or
 * `devkit`) play their rule. */
static int rl_play(const RlOpts *o, RlModel w, long index, RlGame *out)
{
    RlDeal d;
    Rng r;
    train_rl_deal(o, index, &d, &r);
    out->len = 0;
    out->kind = d.kind;
    out->learner_mask = d.learner_mask;
    RlModel opp[NPLAYERS] = {{NULL, NULL}}; /* a league game: each other seat's weights */
    for (int p = 0; p < NPLAYERS; p++)
        if (d.member[p] >= 0) {
            opp[p].fast = o->league[d.member[p]];
            opp[p].rich = o->rich_league[d.member[p]];
        }
    int8_t *cls = d.cls;
    const int exchange = d.exchange;
    Cards *hand = d.hand, changed[NPLAYERS] = {0};
    if (exchange) {
        game_take_from_poor(cls, hand, changed);
        for (int c = 0; c < 2; c++) {
            int rich = 0;
            while (cls[rich] != c)
                rich++;
            Cards give;
            if ((out->learner_mask >> rich) & 1) {
                Cards gift[128];
                double sc[128];
                int n = policy_gifts(hand[rich], 2 - c, gift);
                for (int i = 0; i < n; i++)
                    sc[i] = gift_score(rl_exch(w), hand[rich], gift[i]) / o->temp;
                double mx = sc[0], z = 0;
                for (int i = 1; i < n; i++)
                    mx = sc[i] > mx ? sc[i] : mx;
                for (int i = 0; i < n; i++)
                    z += sc[i] = exp(sc[i] - mx);
                double u = rng_double(&r) * z;
                int k = 0;
                while (k < n - 1 && (u -= sc[k]) >= 0)
                    k++;
                give = gift[k];
                ExchArg a = {hand[rich], gift};
                if (n > 1 && rl_record(out, rich, 1, n, k, exch_feats, &a))
                    return -1;
            } else if (opp[rich].fast || opp[rich].rich) {
                give = policy_pick_gift_w(rl_exch(opp[rich]), hand[rich], 2 - c, 0, &r);
            } else {
                give = o->rule_devkit ? devkit_gift(hand[rich], 2 - c) : cards_weakest(hand[rich], 2 - c);
            }
            game_give_from_rich(rich, 2 - c, give, cls, hand, changed);
        }
    }
    GameState g;
    state_init(&g, hand, d.seat, game_first_player(hand));
    Move mv[MOVEGEN_MAX];
    DevkitSeen dk;
    devkit_seen_game_start(&dk);
    while (!g.over) {
        const int p = g.turn;
        int n = state_moves(&g, mv), k = 0;
        if (n > 1) {
            if ((out->learner_mask >> p) & 1) {
                if ((k = rl_pick(w, &g, cls, mv, n, o->temp, &r, out)) < 0)
                    return -1;
            } else if (opp[p].fast || opp[p].rich) {
                k = rl_pick(opp[p], &g, cls, mv, n, 0, &r, NULL);
            } else {
                Move m = o->rule_devkit ? devkit_choose(&dk, g.hand[p], g.table, g.rev, g.lock)
                                        : simple_choose(mv, n, g.rev);
                for (k = 0; k < n && !move_eq(mv[k], m); k++)
                    ;
                if (k == n) { /* not a legal move: the server plays a pass */
                    for (k = 0; k < n && mv[k].type != MOVE_PASS; k++)
                        ;
                    k = k < n ? k : 0;
                }
            }
        }
        const Move played = mv[k];
        if (state_apply(&g, played) & EV_STALEMATE)
            state_finish_stalemate(&g, &r);
        if (o->rule_devkit)
            devkit_seen_move(&dk, played, g.table, g.rev, g.lock);
    }
    state_classes(&g, out->cls);
    return 0;
}

typedef struct RlBatch {
    const RlOpts *o;
    RlModel w;
    int nplay, nw;    /* play weights, and play + exchange (+ hidden layer) weights */
    long first;       /* index of the batch's first game */
    int n;            /* games in the batch */
    RlGame *games;
    int phase;        /* 0 play, 1 gradient */
    double base[RL_KINDS]; /* the batch's mean reward of each kind of game (what the progress shows) */
    double rv[NPLAYERS];   /* the reward of each class */
    double *grad;     /* CHUNKS x nw */
    int next, failed;
    pthread_mutex_t mu;
} RlBatch;

const uint32_t *train_rl_decision_grad(const double *w, const RichWeights *net, const uint32_t *p, int n, int chosen,
                                       double temp, double adv, double *gw, double *gnet)
{
    return decision_grad(w, net, p, n, chosen, NULL, temp, adv, gw, gnet, NULL);
}

/* The gradient of -(advantage) log pi(chosen) over one game's recorded decisions. */
static void rl_game_grad(const RlBatch *b, const RlGame *g, double *grad)
{
    const RichWeights *rw = b->w.rich;
    for (size_t at = 0; at < g->len;) {
        const uint32_t *p = g->buf + at;
        int who = p[0], model = p[1], n = p[2], chosen = p[3];
        const double *w = model ? rl_exch(b->w) : rw ? rw->play : b->w.fast->play;
        const double adv = b->rv[g->cls[who]] - g->base[who];
        p = train_rl_decision_grad(w, model ? NULL : rw, p + 4, n, chosen, b->o->temp, adv,
                                   grad + (model ? b->nplay : 0), grad + b->nplay + POLICY_NEXCH);
        at = (size_t)(p - g->buf);
    }
}

/* Each learner's baseline in each game: its kind's mean in the batch, or, with repeated deals,
 * the learner's mean reward in the deal's other plays (games first + i with equal (first + i) /
 * repeat) within the batch (a batch that is a multiple of repeat starts a deal; a deal played
 * once in the batch keeps the kind's mean). */
static void rl_baselines(RlBatch *b, int repeat)
{
    for (int i = 0; i < b->n; i++) {
        RlGame *g = &b->games[i];
        const int at = i - (int)((b->first + i) % repeat), lo = at > 0 ? at : 0;
        const int hi = at + repeat < b->n ? at + repeat : b->n;
        for (int p = 0; p < NPLAYERS; p++) {
            double s = 0;
            for (int j = lo; j < hi; j++)
                if (j != i)
                    s += b->rv[b->games[j].cls[p]];
            g->base[p] = hi - lo > 1 ? s / (hi - lo - 1) : b->base[g->kind];
        }
    }
}

static void *rl_worker(void *arg)
{
    RlBatch *b = arg;
    for (;;) {
        int c = workers_next(&b->mu, &b->next, CHUNKS);
        if (c < 0)
            break;
        int lo = b->n * c / CHUNKS, hi = b->n * (c + 1) / CHUNKS;
        if (b->phase == 0) {
            for (int i = lo; i < hi; i++)
                if (rl_play(b->o, b->w, b->first + i, &b->games[i])) {
                    pthread_mutex_lock(&b->mu);
                    b->failed = 1;
                    pthread_mutex_unlock(&b->mu);
                }
        } else {
            double *g = b->grad + (size_t)c * b->nw;
            memset(g, 0, (size_t)b->nw * sizeof *g);
            for (int i = lo; i < hi; i++)
                rl_game_grad(b, &b->games[i], g);
        }
    }
    return NULL;
}

/* REINFORCE on the play weights `play` (nplay of them), the exchange weights `exch` and the
 * hidden layer `net` (nnet weights, 0 for none) of the model w (whose arrays they are). */
static int reinforce(const RlOpts *o, RlModel w, double *play, int nplay, double *exch, double *net, int nnet)
{
    const int nb = o->batch > 0 ? o->batch : 512, RL_NW = nplay + POLICY_NEXCH + nnet;
    RlGame *games = calloc((size_t)nb, sizeof *games);
    double *grad = malloc((size_t)CHUNKS * RL_NW * sizeof *grad), *g = malloc(RL_NW * sizeof *g);
    double *m = calloc(RL_NW, sizeof *m), *v = calloc(RL_NW, sizeof *v);
    int rc = -1;
    if (!games || !grad || !g || !m || !v)
        goto out;
    double p1 = 1, p2 = 1;
    for (long first = 0; first < o->games; first += nb) {
        RlBatch b;
        memset(&b, 0, sizeof b);
        b.o = o;
        b.w = w;
        b.nplay = nplay;
        b.nw = RL_NW;
        b.first = first;
        b.n = (int)(o->games - first < nb ? o->games - first : nb);
        b.games = games;
        b.grad = grad;
        pthread_mutex_init(&b.mu, NULL);
        workers_run(o->jobs, rl_worker, &b, NULL); /* play */
        if (b.failed) {
            pthread_mutex_destroy(&b.mu);
            goto out;
        }
        for (int c = 0; c < NPLAYERS; c++)
            b.rv[c] = 5 - c;
        if (o->reward_match) {
            mc_match_values(MC_CLASS_PERIOD, b.rv);
            for (int c = 0; c < NPLAYERS; c++)
                b.rv[c] = 1 + 4 * b.rv[c];
        }
        double sum[RL_KINDS] = {0};
        long cnt[RL_KINDS] = {0};
        for (int i = 0; i < b.n; i++)
            for (int p = 0; p < NPLAYERS; p++)
                if ((games[i].learner_mask >> p) & 1) {
                    sum[games[i].kind] += b.rv[games[i].cls[p]];
                    cnt[games[i].kind]++;
                }
        for (int k = 0; k < RL_KINDS; k++)
            b.base[k] = cnt[k] ? sum[k] / (double)cnt[k] : 0;
        /* self-play: every class is taken once a game, so the mean is exact */
        b.base[RL_SELF] = (b.rv[0] + b.rv[1] + b.rv[2] + b.rv[3] + b.rv[4]) / NPLAYERS;
        rl_baselines(&b, rl_repeat(o));
        b.phase = 1;
        b.next = 0;
        workers_run(o->jobs, rl_worker, &b, NULL); /* gradients, summed in chunk order */
        pthread_mutex_destroy(&b.mu);
        memset(g, 0, (size_t)RL_NW * sizeof *g);
        for (int c = 0; c < CHUNKS; c++)
            for (int i = 0; i < RL_NW; i++)
                g[i] += grad[(size_t)c * RL_NW + i];
        const long decided = cnt[RL_SIMPLE] + cnt[RL_LEAGUE] + cnt[RL_SELF];
        const double scale = 1.0 / (double)(decided > 0 ? decided : 1);
        p1 *= 0.9;
        p2 *= 0.999;
        for (int i = 0; i < RL_NW; i++) /* play, exchange and hidden-layer weights, as one vector */
            g[i] *= scale;
        adam_step(play, g, m, v, nplay, o->lr, p1, p2);
        adam_step(exch, g + nplay, m + nplay, v + nplay, POLICY_NEXCH, o->lr, p1, p2);
        if (nnet)
            adam_step(net, g + nplay + POLICY_NEXCH, m + nplay + POLICY_NEXCH, v + nplay + POLICY_NEXCH, nnet, o->lr,
                      p1, p2);
        if (o->progress)
            o->progress(o->progress_ctx, first + b.n, o->games, cnt[RL_SIMPLE] ? b.base[RL_SIMPLE] : NAN,
                        cnt[RL_LEAGUE] ? b.base[RL_LEAGUE] : NAN, cnt[RL_SELF] ? b.base[RL_SELF] : NAN);
    }
    rc = 0;
out:
    for (int i = 0; games && i < nb; i++)
        free(games[i].buf);
    free(games);
    free(grad);
    free(g);
    free(m);
    free(v);
    return rc;
}

int train_reinforce(const RlOpts *o, PolicyWeights *pw)
{
    RlModel w = {pw, NULL};
    return reinforce(o, w, pw->play, POLICY_NPLAY, pw->exch, NULL, 0);
}

int train_reinforce_rich(const RlOpts *o, RichWeights *rw)
{
    RlModel w = {NULL, rw};
    return reinforce(o, w, rw->play, RICH_NPLAY, rw->exch, rw->net, rw->nhid > 0 ? RICH_NNET : 0);
}

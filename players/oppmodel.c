/* oppmodel.c — the online opponent model (see oppmodel.h). */
#include "players/oppmodel.h"

#include "players/rich.h"

#include <math.h>
#include <string.h>

void oppmodel_init(OppModel *m, const PolicyWeights *base, double lr, int shared)
{
    for (int p = 0; p < NPLAYERS; p++)
        m->w[p] = *base;
    m->lr = lr;
    m->shared = shared;
    m->decisions = m->games = m->skipped = 0;
    m->logloss = m->top1 = 0;
}

int oppmodel_hands(const InfoSet *v, Cards hand[NPLAYERS])
{
    Cards all = v->hand;
    for (int p = 0; p < NPLAYERS; p++)
        hand[p] = p == v->me ? v->hand : 0;
    for (int i = 0; i < v->nplays; i++) {
        const Move mv = v->plays[i].move;
        if (mv.type == MOVE_PASS || v->plays[i].player >= NPLAYERS)
            continue;
        const Cards c = move_cards(mv);
        if (c & all)
            return -1;
        hand[v->plays[i].player] |= c;
        all |= c;
    }
    const Cards rest = CARDS_ALL & ~all;
    int holder = -1;
    for (int p = 0; p < NPLAYERS; p++) {
        const int short_by = v->start_ncards[p] - cards_count(hand[p]);
        if (short_by < 0)
            return -1;
        if (short_by > 0) {
            if (holder >= 0 || p == v->me)
                return -1;
            holder = p;
        }
    }
    if (holder >= 0)
        hand[holder] |= rest;
    else if (rest)
        return -1;
    for (int p = 0; p < NPLAYERS; p++)
        if (cards_count(hand[p]) != v->start_ncards[p])
            return -1;
    return 0;
}

/* One gradient step of the log-likelihood of choice k among mv[0..n) for the mover of g. */
static void learn_decision(OppModel *m, PolicyWeights *w, const GameState *g, const Move *mv, int n, int k)
{
    const double lr = m->lr;
    PolicyCtx c;
    policy_ctx_state(&c, g);
    double p[MOVEGEN_MAX];
    policy_probs(w, &c, mv, n, p);
    int best = 0;
    for (int j = 1; j < n; j++)
        best = p[j] > p[best] ? j : best;
    m->top1 += best == k;
    m->logloss -= log(p[k] > 1e-300 ? p[k] : 1e-300);
    uint16_t idx[POLICY_MAX_ACTIVE];
    for (int j = 0; j < n; j++) {
        const double d = lr * ((j == k) - p[j]);
        const int f = policy_features(&c, mv[j], idx);
        for (int i = 0; i < f; i++)
            w->play[idx[i]] += d;
    }
}

/* Replays the game v ended and calls fn for every opponent decision among two or more moves
 * (mv[k] the move made by `player`). Returns the number of calls, or -1 (and counts it in
 * *skipped) when the hands cannot be made out or the history does not replay. */
typedef void (*ReplayFn)(void *ctx, const GameState *g, const Move *mv, int n, int k, int player);
static int replay_opponents(const InfoSet *v, long *skipped, ReplayFn fn, void *ctx)
{
    Cards hand[NPLAYERS];
    if (oppmodel_hands(v, hand)) {
        (*skipped)++;
        return -1;
    }
    GameState g;
    state_init(&g, hand, v->seat, v->first);
    Move mv[MOVEGEN_MAX];
    int learned = 0;
    for (int i = 0; i < v->nplays && !g.over; i++) {
        const PlayRec *r = &v->plays[i];
        if (r->player != g.turn || !state_is_legal(&g, r->move)) { /* not the history we think */
            (*skipped)++;
            return -1;
        }
        if (r->player != v->me) {
            const int n = state_moves(&g, mv);
            int k = 0;
            while (k < n && !move_eq(mv[k], r->move))
                k++;
            if (n > 1 && k < n) { /* a move not generated (a joker for a card held) teaches nothing */
                fn(ctx, &g, mv, n, k, r->player);
                learned++;
            }
        }
        if (state_apply(&g, r->move) & EV_STALEMATE)
            break;
    }
    return learned;
}

static void model_decision(void *ctx, const GameState *g, const Move *mv, int n, int k, int player)
{
    OppModel *m = ctx;
    learn_decision(m, &m->w[m->shared ? 0 : player], g, mv, n, k);
}

int oppmodel_learn(OppModel *m, const InfoSet *v)
{
    const int learned = replay_opponents(v, &m->skipped, model_decision, m);
    if (learned < 0)
        return -1;
    m->decisions += learned;
    m->games++;
    return learned;
}

/* ---------------------------------------------------------------- the bias model */

enum {
    OB_PASS,      /* a pass when it could play */
    OB_LEAD_GROUP,
    OB_LEAD_SEQ,
    OB_JOKER,     /* the joker played (alone or in a meld) */
    OB_REVOLUTION,
    OB_FOLLOW_SINGLE,
    OB_FOLLOW_GROUP,
    OB_FOLLOW_SEQ,
    OB_TOP,       /* the meld's top card an ace or a 2 in the current order */
    OB_LAST,      /* the mover's last cards */
};

void oppbias_init(OppBias *m, double lr)
{
    memset(m, 0, sizeof *m);
    m->lr = lr;
    m->decay = 0.002;
}

unsigned oppbias_features(const GameState *g, Move m)
{
    if (m.type == MOVE_PASS)
        return 1u << OB_PASS; /* only ever scored among two or more moves: it could play */
    unsigned f = 0;
    const int lead = g->table.type == MOVE_PASS;
    if (lead) {
        if (m.type == MOVE_GROUP)
            f |= 1u << OB_LEAD_GROUP;
        else if (m.type == MOVE_SEQ)
            f |= 1u << OB_LEAD_SEQ;
    } else {
        f |= 1u << (g->table.type == MOVE_GROUP ? OB_FOLLOW_GROUP : g->table.type == MOVE_SEQ ? OB_FOLLOW_SEQ
                                                                                               : OB_FOLLOW_SINGLE);
    }
    if (move_uses_joker(m))
        f |= 1u << OB_JOKER;
    if (move_is_revolution(m))
        f |= 1u << OB_REVOLUTION;
    if (m.type != MOVE_JOKER) {
        const int hi = g->rev ? m.low : move_high(m); /* the meld's strongest column in this order */
        if (g->rev ? hi <= 2 : hi >= COL_MAX - 1)
            f |= 1u << OB_TOP;
    }
    if (move_cards(m) == g->hand[g->turn])
        f |= 1u << OB_LAST;
    return f;
}

void oppbias_add(const OppBias *m, int p, const GameState *g, const Move *mv, int n, double *score)
{
    const double *b = m->b[p];
    for (int i = 0; i < n; i++) {
        unsigned f = oppbias_features(g, mv[i]);
        while (f) {
            score[i] += b[__builtin_ctz(f)];
            f &= f - 1;
        }
    }
}

typedef struct BiasCtx {
    OppBias *m;
    const RichWeights *rw;
    double temp;
    const int8_t *cls;
} BiasCtx;

static void bias_decision(void *ctx, const GameState *g, const Move *mv, int n, int k, int player)
{
    const BiasCtx *x = ctx;
    OppBias *m = x->m;
    double sc[MOVEGEN_MAX + 3], pr[MOVEGEN_MAX];
    unsigned ft[MOVEGEN_MAX];
    RichCtx c;
    rich_ctx_state(&c, g, x->cls);
    rich_scores(x->rw, &c, mv, n, sc);
    oppbias_add(m, player, g, mv, n, sc);
    double mx = sc[0], z = 0;
    for (int j = 1; j < n; j++)
        mx = sc[j] > mx ? sc[j] : mx;
    for (int j = 0; j < n; j++)
        z += pr[j] = exp((sc[j] - mx) / x->temp);
    int best = 0;
    for (int j = 0; j < n; j++) {
        pr[j] /= z;
        best = pr[j] > pr[best] ? j : best;
        ft[j] = oppbias_features(g, mv[j]);
    }
    m->top1 += best == k;
    m->logloss -= log(pr[k] > 1e-300 ? pr[k] : 1e-300);
    double *b = m->b[player];
    for (int j = 0; j < n; j++) { /* d log p(k) / d b = (phi(k) - E[phi]) / temp */
        const double d = m->lr * ((j == k) - pr[j]) / x->temp;
        for (unsigned f = ft[j]; f; f &= f - 1)
            b[__builtin_ctz(f)] += d;
    }
}

int oppbias_learn(OppBias *m, const InfoSet *v, const RichWeights *rw, double temp)
{
    for (int p = 0; p < NPLAYERS; p++) /* shrink toward the policy as it is */
        for (int k = 0; k < OPPBIAS_K; k++)
            m->b[p][k] *= 1 - m->decay;
    BiasCtx x = {m, rw, temp, v->cls};
    const int learned = replay_opponents(v, &m->skipped, bias_decision, &x);
    if (learned < 0)
        return -1;
    m->decisions += learned;
    m->games++;
    return learned;
}

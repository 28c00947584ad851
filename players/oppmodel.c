/* oppmodel.c — the online opponent model (see oppmodel.h). */
#include "players/oppmodel.h"

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

int oppmodel_learn(OppModel *m, const InfoSet *v)
{
    Cards hand[NPLAYERS];
    if (oppmodel_hands(v, hand)) {
        m->skipped++;
        return -1;
    }
    GameState g;
    state_init(&g, hand, v->seat, v->first);
    Move mv[MOVEGEN_MAX];
    int learned = 0;
    for (int i = 0; i < v->nplays && !g.over; i++) {
        const PlayRec *r = &v->plays[i];
        if (r->player != g.turn || !state_is_legal(&g, r->move)) { /* not the history we think */
            m->skipped++;
            return -1;
        }
        if (r->player != v->me) {
            const int n = state_moves(&g, mv);
            int k = 0;
            while (k < n && !move_eq(mv[k], r->move))
                k++;
            if (n > 1 && k < n) { /* a move not generated (a joker for a card held) teaches nothing */
                learn_decision(m, &m->w[m->shared ? 0 : r->player], &g, mv, n, k);
                learned++;
            }
        }
        if (state_apply(&g, r->move) & EV_STALEMATE)
            break;
    }
    m->decisions += learned;
    m->games++;
    return learned;
}

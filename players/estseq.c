/* estseq.c — the learned hand estimator's sequence model (estseq.h): events, GRU, model files. */
#include "players/estseq.h"
#include "players/estimate.h"
#include "players/wtext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- events */

enum { /* event feature offsets */
    S_ACT = 0,          /* actor (5) x what it did (9) */
    S_STR = 45,         /* actor (5) x pass/play (2) x strength (15) */
    S_TAB = 195,        /* the table answered: kind (4) x strength (15) */
    S_N = 255,          /* actor (5) x the meld's size 1..8+ (8) */
    S_LEFT = 295,       /* actor (5) x its cards left after the move (16) */
    S_REV = 375, S_LOCK = 376, S_CLEAR = 377,
    S_END = 378
};
_Static_assert(S_END == ESTSEQ_S, "event layout");

static int clip(int x, int hi) { return x < 0 ? 0 : x > hi ? hi : x; }
static int kind3(Move m) { return m.type == MOVE_GROUP ? 1 : m.type == MOVE_SEQ ? 2 : 0; }

int estseq_events(const InfoSet *v, int from, EstSeqEv *ev, int max)
{
    if (v->first < 0 || v->first >= NPLAYERS)
        return 0;
    int ms = 0;
    for (int s = 0; s < NPLAYERS; s++)
        if (v->seat[s] == v->me)
            ms = s;
    int actor[NPLAYERS]; /* player -> 0 (me) .. 4 (opponent 3 + 1) */
    for (int s = 0; s < NPLAYERS; s++)
        actor[v->seat[s]] = (s - ms + NPLAYERS) % NPLAYERS;
    static const Cards none[NPLAYERS] = {0};
    GameState g;
    state_init(&g, none, v->seat, v->first);
    int left[NPLAYERS], n = 0;
    for (int p = 0; p < NPLAYERS; p++)
        left[p] = v->start_ncards[p];
    for (int i = 0; i < v->nplays && !g.over; i++) {
        const Move m = v->plays[i].move;
        const int p = g.turn;
        if (p != v->plays[i].player)
            break;
        const Move t = g.table;
        if (m.type != MOVE_PASS)
            left[p] -= m.n;
        const int fl = state_apply_ex(&g, m, m.type != MOVE_PASS && left[p] <= 0);
        if (i >= from && n < max) {
            EstSeqEv *e = &ev[n++];
            memset(e, 0, sizeof *e);
            const int a = actor[p], pass = m.type == MOVE_PASS, tk = t.type == MOVE_PASS ? 0 : 1 + kind3(t);
            const int act = pass ? kind3(t) : (tk ? 6 : 3) + kind3(m);
            const int str = pass ? (tk ? est_meld_strength(t, g.rev) : 0) : est_meld_strength(m, g.rev);
            e->idx[e->n++] = (uint16_t)(S_ACT + a * 9 + act);
            e->idx[e->n++] = (uint16_t)(S_STR + (a * 2 + pass) * 15 + clip(str, 14));
            e->idx[e->n++] = (uint16_t)(S_TAB + tk * 15 + (tk ? clip(est_meld_strength(t, g.rev), 14) : 0));
            if (!pass)
                e->idx[e->n++] = (uint16_t)(S_N + a * 8 + clip(m.n, 8) - 1);
            e->idx[e->n++] = (uint16_t)(S_LEFT + a * 16 + clip(left[p], 15));
            if (g.rev)
                e->idx[e->n++] = S_REV;
            if (g.lock)
                e->idx[e->n++] = S_LOCK;
            if (fl & EV_CLEAR)
                e->idx[e->n++] = S_CLEAR;
            e->cards = pass ? 0 : move_cards(m);
        }
        if (fl & EV_STALEMATE)
            break;
    }
    return n;
}

/* ---------------------------------------------------------------- inference */

/* e^x (x clamped to [-87, 87]) as 2^n times a polynomial on [-ln 2 / 2, ln 2 / 2]: relative
 * error below 2e-7, and branch-free, so that the loops over the gates below are vectorised
 * (libm's expf and tanhf are not, and took half of a step's time). */
static inline float exp_approx(float x)
{
    x = x < -87.0f ? -87.0f : x;
    x = x > 87.0f ? 87.0f : x;
    const int32_t ni = (int32_t)(x * 1.44269504f + 128.5f) - 128; /* round(x / ln 2): the argument is positive */
    const float n = (float)ni;
    const float r = x - n * 0.693145752f - n * 1.42860682e-6f; /* ln 2 in two parts (Cody and Waite) */
    float q = 1.0f / 720;
    q = q * r + 1.0f / 120;
    q = q * r + 1.0f / 24;
    q = q * r + 1.0f / 6;
    q = q * r + 0.5f;
    q = q * r + 1.0f;
    q = q * r + 1.0f;
    union { int32_t i; float f; } scale = {(ni + 127) * (1 << 23)};
    return q * scale.f;
}

void estseq_step(const EstSeq *m, const EstSeqEv *e, float h[ESTSEQ_GH])
{
    float gi[ESTSEQ_G3], gh[ESTSEQ_G3], rz[2 * ESTSEQ_GH];
    memcpy(gi, m->sb, sizeof gi);
    for (int i = 0; i < e->n; i++) {
        const float *row = m->si[e->idx[i]];
        for (int k = 0; k < ESTSEQ_G3; k++)
            gi[k] += row[k];
    }
    for (Cards x = e->cards; x; x &= x - 1) {
        const float *row = m->sc[estnet_card(cards_lowest_bit(x))];
        for (int k = 0; k < ESTSEQ_G3; k++)
            gi[k] += row[k];
    }
    memcpy(gh, m->hb, sizeof gh);
    for (int j = 0; j < ESTSEQ_GH; j++) {
        const float hj = h[j];
        const float *row = m->hh[j];
        for (int k = 0; k < ESTSEQ_G3; k++)
            gh[k] += hj * row[k];
    }
    for (int k = 0; k < 2 * ESTSEQ_GH; k++) /* r, z: sigmoids */
        rz[k] = 1.0f / (1.0f + exp_approx(-(gi[k] + gh[k])));
    for (int k = 0; k < ESTSEQ_GH; k++) { /* n = tanh(a) = 2 sigmoid(2a) - 1 */
        const float a = gi[2 * ESTSEQ_GH + k] + rz[k] * gh[2 * ESTSEQ_GH + k];
        const float nn = 2.0f / (1.0f + exp_approx(-2.0f * a)) - 1.0f, z = rz[ESTSEQ_GH + k];
        h[k] = (1 - z) * nn + z * h[k];
    }
}

void estseq_forward(const EstSeq *m, const EstNetFeat *f, const float h[ESTSEQ_GH], float logit[ESTNET_OUT])
{
    float extra[ESTNET_H] = {0};
    for (int j = 0; j < ESTSEQ_GH; j++) {
        const float hj = h[j];
        const float *row = m->ws[j];
        for (int k = 0; k < ESTNET_H; k++)
            extra[k] += hj * row[k];
    }
    estnet_forward_add(&m->net, f, extra, logit);
}

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static uint64_t game_key(const InfoSet *v)
{
    uint64_t h = mix(0x1234567ULL, (uint64_t)(v->first + 1));
    for (int p = 0; p < NPLAYERS; p++)
        h = mix(h, (uint64_t)v->seat[p] << 8 | v->start_ncards[p]);
    return h;
}

static uint64_t play_key(uint64_t h, const PlayRec *r)
{
    const Move m = r->move;
    return mix(h, (uint64_t)m.type | (uint64_t)m.n << 8 | (uint64_t)m.low << 16 | (uint64_t)m.suits << 24 |
                      (uint64_t)m.jk << 32 | (uint64_t)r->player << 40);
}

void estseq_logits(const EstSeq *m, EstSeqCache *c, const InfoSet *v, const EstNetFeat *f, float logit[ESTNET_OUT])
{
    float h[ESTSEQ_GH] = {0};
    int from = 0;
    uint64_t key = game_key(v);
    const int me = v->me >= 0 && v->me < NPLAYERS ? v->me : 0;
    if (c && c->slot[me].valid && c->slot[me].nplays <= v->nplays) {
        uint64_t k = key;
        for (int i = 0; i < c->slot[me].nplays; i++)
            k = play_key(k, &v->plays[i]);
        if (k == c->slot[me].key) {
            from = c->slot[me].nplays;
            memcpy(h, c->slot[me].h, sizeof h);
            key = k;
        }
    }
    if (c) {
        if (from)
            c->warm++;
        else
            c->cold++;
    }
    if (!from) /* cold: the key over no plays yet */
        key = game_key(v);
    EstSeqEv ev[64];
    for (int at = from;;) { /* the new events, 64 at a time */
        const int n = estseq_events(v, at, ev, 64);
        for (int i = 0; i < n; i++)
            estseq_step(m, &ev[i], h);
        if (n < 64)
            break;
        /* the play after the 64th event: events are one per play from `at` on */
        at += 64;
    }
    if (c) {
        for (int i = from; i < v->nplays; i++)
            key = play_key(key, &v->plays[i]);
        c->slot[me].valid = 1;
        c->slot[me].nplays = v->nplays;
        c->slot[me].key = key;
        memcpy(c->slot[me].h, h, sizeof h);
    }
    estseq_forward(m, f, h, logit);
}

/* ---------------------------------------------------------------- model files */

#define ESTSEQ_MAGIC "dhm estseq 1"

int estseq_parse(const char *text, const char *name, EstSeq *m, char *err, size_t errsz)
{
    EstNetReader r = {text, name, 0, err, errsz};
    char shape[96];
    snprintf(shape, sizeof shape, "shape %d %d %d %d %d %d %d", ESTNET_G, ESTNET_O, ESTNET_E, ESTNET_H, ESTNET_OUT,
             ESTSEQ_S, ESTSEQ_GH);
    if (estnet_read_head(&r, ESTSEQ_MAGIC, "estseq", shape) || estnet_read_body(&r, &m->net) ||
        estnet_read_tensor(&r, "si", ESTSEQ_S, ESTSEQ_G3, &m->si[0][0]) ||
        estnet_read_tensor(&r, "sc", 53, ESTSEQ_G3, &m->sc[0][0]) || estnet_read_tensor(&r, "sb", 1, ESTSEQ_G3, m->sb) ||
        estnet_read_tensor(&r, "hh", ESTSEQ_GH, ESTSEQ_G3, &m->hh[0][0]) ||
        estnet_read_tensor(&r, "hb", 1, ESTSEQ_G3, m->hb) ||
        estnet_read_tensor(&r, "ws", ESTSEQ_GH, ESTNET_H, &m->ws[0][0]) || estnet_read_end(&r))
        return -1;
    return 0;
}

static int parse_any(const char *text, const char *name, void *out, char *err, size_t errsz)
{
    return estseq_parse(text, name, out, err, errsz);
}

int estseq_load(const char *path, EstSeq *m, char *err, size_t errsz)
{
    return wtext_load(path, parse_any, m, err, errsz);
}

extern const char estseq_weights_text[];
static WBuiltin g_builtin = WBUILTIN_INIT;

const EstSeq *estseq_builtin(char *err, size_t errsz)
{
    return wtext_builtin(&g_builtin, estseq_weights_text, "the built-in players/estseq.weights", sizeof(EstSeq),
                         parse_any, err, errsz);
}

int estseq_option(const char *path, const char *key, const EstSeq **use, EstSeq **own, char *err, size_t errsz)
{
    char e[400] = "";
    const void *u;
    void *o;
    int rc = wtext_option(path, key, path ? NULL : estseq_builtin(e, sizeof e), e, sizeof(EstSeq), parse_any, &u, &o,
                          err, errsz);
    *use = u;
    *own = o;
    return rc;
}

/* ---------------------------------------------------------------- training records */

static uint8_t *put(uint8_t *q, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++)
        *q++ = (uint8_t)(x >> (8 * i));
    return q;
}

void estseq_row_event(uint32_t seq, const EstSeqEv *e, uint8_t out[ESTSEQ_ROW])
{
    memset(out, 0, ESTSEQ_ROW);
    uint8_t *q = put(out, seq, 4);
    for (int i = 0; i < ESTSEQ_EW; i++)
        q = put(q, i < e->n ? e->idx[i] : ESTSEQ_S, 2);
    uint64_t bits = 0;
    for (Cards x = e->cards; x; x &= x - 1)
        bits |= 1ULL << estnet_card(cards_lowest_bit(x));
    put(q, bits, 8);
}

void estseq_row_decision(uint32_t seq, int step, uint8_t out[ESTSEQ_ROW])
{
    memset(out, 0, ESTSEQ_ROW);
    uint8_t *q = put(out, seq | 1u << 31, 4);
    put(q, (uint64_t)step, 2);
}

/* estnet.c — the learned hand estimator's features, forward pass and model files (estnet.h). */
#include "players/estnet.h"
#include "players/wtext.h"

#include "players/estimate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- features */

enum { /* global feature offsets */
    G_HAND = 0, G_CLASS = 53, G_REV = 59, G_PLIES = 60, G_TABLE = 76, G_TOP = 80, G_LOCK = 95, G_OUT = 96,
    G_END = 101
};
enum { /* per-opponent feature offsets */
    O_SEAT = 0, O_CLASS = 4, O_NOW = 10, O_START = 26, O_PASSED = 42, O_OUT = 43, O_PARTNER = 44, O_EVENT = 45,
    O_PLAYED = O_EVENT + EST_EVENTS * 15, O_END = O_PLAYED + 53
};
_Static_assert(G_END == ESTNET_G && O_END == ESTNET_O, "feature layout");

static void add_g(EstNetFeat *f, int i)
{
    if (f->ng < ESTNET_GW)
        f->g[f->ng++] = (uint16_t)i;
    else
        f->truncated++;
}

static void add_o(EstNetFeat *f, int j, int i)
{
    for (int k = 0; k < f->no[j]; k++)
        if (f->o[j][k] == i) {
            if (f->ow[j][k] < 255)
                f->ow[j][k]++;
            return;
        }
    if (f->no[j] < ESTNET_OW) {
        f->o[j][f->no[j]] = (uint16_t)i;
        f->ow[j][f->no[j]++] = 1;
    } else {
        f->truncated++;
    }
}

static int clip(int x, int hi) { return x < 0 ? 0 : x > hi ? hi : x; }

void estnet_features(const InfoSet *v, EstNetFeat *f)
{
    memset(f, 0, sizeof *f);
    const int me = v->me;
    int ms = 0;
    for (int s = 0; s < NPLAYERS; s++)
        if (v->seat[s] == me)
            ms = s;
    int rel[NPLAYERS];
    for (int j = 0; j < 4; j++) {
        f->opp[j] = v->seat[(ms + 1 + j) % NPLAYERS];
        rel[f->opp[j]] = j;
    }
    rel[me] = -1;
    for (Cards x = v->hand; x; x &= x - 1)
        add_g(f, G_HAND + estnet_card(cards_lowest_bit(x)));
    add_g(f, G_CLASS + (v->cls[me] >= 0 && v->cls[me] < NPLAYERS ? 1 + v->cls[me] : 0));
    if (v->rev)
        add_g(f, G_REV);
    add_g(f, G_PLIES + clip(v->nplays / 8, 15));
    const int tk = v->table.type == MOVE_PASS ? 0 : v->table.type == MOVE_GROUP ? 2 : v->table.type == MOVE_SEQ ? 3 : 1;
    add_g(f, G_TABLE + tk);
    add_g(f, G_TOP + (tk ? est_meld_strength(v->table, v->rev) : 0));
    if (v->lock)
        add_g(f, G_LOCK);
    add_g(f, G_OUT + clip(v->nout, 4));

    EstFeatures ef;
    est_features(v, &ef);
    const int mc = v->cls[me];
    const int partner_cls = mc >= 0 && mc != 2 ? 4 - mc : -9;
    for (int j = 0; j < 4; j++) {
        const int p = f->opp[j];
        add_o(f, j, O_SEAT + j);
        add_o(f, j, O_CLASS + ef.cls[p]);
        add_o(f, j, O_NOW + clip(v->ncards[p], 15));
        add_o(f, j, O_START + clip(v->start_ncards[p], 15));
        if ((v->passed >> p) & 1)
            add_o(f, j, O_PASSED);
        if ((v->out >> p) & 1)
            add_o(f, j, O_OUT);
        if (v->cls[p] == partner_cls)
            add_o(f, j, O_PARTNER);
        for (int e = 0; e < ef.nev[p]; e++)
            add_o(f, j, O_EVENT + ef.ev[p][e].bucket * 15 + clip(ef.ev[p][e].ref, 14));
    }
    for (int i = 0; i < v->nplays; i++) {
        const int p = v->plays[i].player;
        if (p >= NPLAYERS || p == me || v->plays[i].move.type == MOVE_PASS)
            continue;
        for (Cards x = move_cards(v->plays[i].move); x; x &= x - 1)
            add_o(f, rel[p], O_PLAYED + estnet_card(cards_lowest_bit(x)));
    }
}

/* ---------------------------------------------------------------- inference */

static void embed(const float (*w)[ESTNET_E], const float *b, const uint16_t *idx, const uint8_t *cnt, int n,
                  float *out)
{
    float acc[ESTNET_E];
    memcpy(acc, b, sizeof acc);
    for (int i = 0; i < n; i++) {
        const float *row = w[idx[i]], c = cnt ? (float)cnt[i] : 1.0f;
        for (int e = 0; e < ESTNET_E; e++)
            acc[e] += c * row[e];
    }
    for (int e = 0; e < ESTNET_E; e++)
        out[e] = acc[e] > 0 ? acc[e] : 0;
}

void estnet_forward(const EstNet *n, const EstNetFeat *f, float logit[ESTNET_OUT])
{
    estnet_forward_add(n, f, NULL, logit);
}

void estnet_forward_add(const EstNet *n, const EstNetFeat *f, const float *extra, float logit[ESTNET_OUT])
{
    float x[5 * ESTNET_E], h[ESTNET_H];
    embed((const float (*)[ESTNET_E])n->wg, n->bg, f->g, NULL, f->ng, x);
    for (int j = 0; j < 4; j++)
        embed((const float (*)[ESTNET_E])n->wo, n->bo, f->o[j], f->ow[j], f->no[j], x + (1 + j) * ESTNET_E);
    memcpy(h, n->b1, sizeof h);
    if (extra)
        for (int k = 0; k < ESTNET_H; k++)
            h[k] += extra[k];
    for (int i = 0; i < 5 * ESTNET_E; i++) {
        const float xi = x[i];
        if (xi == 0)
            continue;
        const float *row = n->w1[i];
        for (int k = 0; k < ESTNET_H; k++)
            h[k] += xi * row[k];
    }
    memcpy(logit, n->b2, sizeof(float) * ESTNET_OUT);
    for (int k = 0; k < ESTNET_H; k++) {
        const float hk = h[k];
        if (hk <= 0)
            continue; /* ReLU */
        const float *row = n->w2[k];
        for (int o = 0; o < ESTNET_OUT; o++)
            logit[o] += hk * row[o];
    }
}

/* ---------------------------------------------------------------- model files */

#define ESTNET_MAGIC "dhm estnet 1"

/* The next line that is not blank or a comment, trimmed, as p..e; 0 at the end. */
int estnet_next_line(EstNetReader *r, const char **p, const char **e)
{
    while (*r->s) {
        r->line++;
        const char *end = strchr(r->s, '\n');
        const char *a = r->s, *b = end ? end : r->s + strlen(r->s);
        r->s = end ? end + 1 : b;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        while (a < b && isspace((unsigned char)*a))
            a++;
        if (a == b || *a == '#')
            continue;
        *p = a;
        *e = b;
        return 1;
    }
    return 0;
}

int estnet_read_tensor(EstNetReader *r, const char *tname, int rows, int cols, float *out)
{
    const char *p, *e;
    char want[64];
    snprintf(want, sizeof want, "%s %d %d", tname, rows, cols);
    if (!estnet_next_line(r, &p, &e)) {
        snprintf(r->err, r->errsz, "%s: truncated: no tensor '%s'", r->name, want);
        return -1;
    }
    if ((size_t)(e - p) != strlen(want) || memcmp(p, want, strlen(want))) {
        snprintf(r->err, r->errsz, "%s:%d: expected '%s', found '%.*s'", r->name, r->line, want,
                 (int)(e - p > 40 ? 40 : e - p), p);
        return -1;
    }
    for (int i = 0; i < rows; i++) {
        if (!estnet_next_line(r, &p, &e)) {
            snprintf(r->err, r->errsz, "%s: truncated: tensor %s has %d of its %d rows", r->name, tname, i, rows);
            return -1;
        }
        for (int c = 0; c < cols; c++) {
            while (p < e && isspace((unsigned char)*p))
                p++;
            char *q;
            errno = 0;
            double x = p < e ? strtod(p, &q) : 0;
            if (p == e || q == p || q > e || (q < e && !isspace((unsigned char)*q)) || errno || !isfinite(x) ||
                fabs(x) > 1e4) {
                snprintf(r->err, r->errsz, "%s:%d: %s row %d: number %d of %d missing or invalid", r->name, r->line,
                         tname, i, c + 1, cols);
                return -1;
            }
            out[(size_t)i * cols + c] = (float)x;
            p = q;
        }
        while (p < e && isspace((unsigned char)*p))
            p++;
        if (p < e) {
            snprintf(r->err, r->errsz, "%s:%d: %s row %d has more than %d numbers", r->name, r->line, tname, i, cols);
            return -1;
        }
    }
    return 0;
}

int estnet_read_body(EstNetReader *r, EstNet *n)
{
    return estnet_read_tensor(r, "wg", ESTNET_G, ESTNET_E, &n->wg[0][0]) || estnet_read_tensor(r, "bg", 1, ESTNET_E, n->bg) ||
                   estnet_read_tensor(r, "wo", ESTNET_O, ESTNET_E, &n->wo[0][0]) ||
                   estnet_read_tensor(r, "bo", 1, ESTNET_E, n->bo) ||
                   estnet_read_tensor(r, "w1", 5 * ESTNET_E, ESTNET_H, &n->w1[0][0]) ||
                   estnet_read_tensor(r, "b1", 1, ESTNET_H, n->b1) ||
                   estnet_read_tensor(r, "w2", ESTNET_H, ESTNET_OUT, &n->w2[0][0]) ||
                   estnet_read_tensor(r, "b2", 1, ESTNET_OUT, n->b2)
               ? -1
               : 0;
}

int estnet_read_head(EstNetReader *r, const char *magic, const char *kind, const char *shape)
{
    const char *p, *e;
    if (!estnet_next_line(r, &p, &e) || (size_t)(e - p) != strlen(magic) || memcmp(p, magic, strlen(magic))) {
        snprintf(r->err, r->errsz, "%s: not a dhm %s model (its first line must be '%s')", r->name, kind, magic);
        return -1;
    }
    if (!estnet_next_line(r, &p, &e) || (size_t)(e - p) != strlen(shape) || memcmp(p, shape, strlen(shape))) {
        snprintf(r->err, r->errsz, "%s:%d: shape mismatch: this dhm needs '%s'", r->name, r->line, shape);
        return -1;
    }
    return 0;
}

int estnet_read_end(EstNetReader *r)
{
    const char *p, *e;
    if (estnet_next_line(r, &p, &e)) {
        snprintf(r->err, r->errsz, "%s:%d: unexpected line after the last tensor", r->name, r->line);
        return -1;
    }
    return 0;
}

int estnet_parse(const char *text, const char *name, EstNet *n, char *err, size_t errsz)
{
    EstNetReader r = {text, name, 0, err, errsz};
    char shape[80];
    snprintf(shape, sizeof shape, "shape %d %d %d %d %d", ESTNET_G, ESTNET_O, ESTNET_E, ESTNET_H, ESTNET_OUT);
    if (estnet_read_head(&r, ESTNET_MAGIC, "estnet", shape) || estnet_read_body(&r, n) || estnet_read_end(&r))
        return -1;
    return 0;
}

static int parse_any(const char *text, const char *name, void *out, char *err, size_t errsz)
{
    return estnet_parse(text, name, out, err, errsz);
}

int estnet_load(const char *path, EstNet *n, char *err, size_t errsz)
{
    return wtext_load(path, parse_any, n, err, errsz);
}

/* The built-in model: players/estnet.weights, compiled in as text (estnet_embed.c). */
extern const char estnet_weights_text[];
static WBuiltin g_builtin = WBUILTIN_INIT;

const EstNet *estnet_builtin(char *err, size_t errsz)
{
    return wtext_builtin(&g_builtin, estnet_weights_text, "the built-in players/estnet.weights", sizeof(EstNet),
                         parse_any, err, errsz);
}

int estnet_option(const char *path, const char *key, const EstNet **use, EstNet **own, char *err, size_t errsz)
{
    char e[400] = "";
    const void *u;
    void *o;
    int rc = wtext_option(path, key, path ? NULL : estnet_builtin(e, sizeof e), e, sizeof(EstNet), parse_any, &u, &o,
                          err, errsz);
    *use = u;
    *own = o;
    return rc;
}

/* ---------------------------------------------------------------- training records */

static uint8_t *put16(uint8_t *q, unsigned x)
{
    q[0] = (uint8_t)(x & 255);
    q[1] = (uint8_t)(x >> 8);
    return q + 2;
}

void estnet_record(const EstNetFeat *f, uint32_t game, const uint8_t card[53], uint8_t out[ESTNET_REC_SIZE])
{
    uint8_t *q = out;
    for (int i = 0; i < 4; i++)
        *q++ = (uint8_t)(game >> (8 * i));
    for (int i = 0; i < ESTNET_GW; i++) /* padding: index G (a row of zeros in training) */
        q = put16(q, i < f->ng ? f->g[i] : ESTNET_G);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < ESTNET_OW; i++)
            q = put16(q, i < f->no[j] ? f->o[j][i] : ESTNET_O);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < ESTNET_OW; i++)
            *q++ = i < f->no[j] ? f->ow[j][i] : 0;
    memcpy(q, card, 53);
}

/* methods.c — the method table, the set-wise method (SE, SG, SG2, STS; paper 000 Procedures
 * 1-2) and the game-wise Elo of paper 002. Batch methods are in batch.c, mElo in melo.c.
 *
 * Set-wise: each set gives every pair of its five players a result by total points (a draw
 * counts as half a win). Averaged: each pair is rated with the inner two-player system from
 * the ratings before the set; each player's new rating is the mean of its four results (each
 * parameter averaged separately). A draw's result is the mean of the results after a win and
 * after a loss. Sequential: the ten pairs are applied one after another.
 */
#include "rating/methods.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rating/elo.h"
#include "rating/eval.h"
#include "rating/glicko.h"
#include "rating/melo.h"

/* The method table: one row per method, in MethodId order. */
static const MethodInfo METHODS[M_COUNT] = {
    {"se", NEED_SETS, 1, 1, "set-wise method (paper 000), Elo inside", NULL, NULL},
    {"sg", NEED_SETS, 1, 1, "set-wise method (paper 000), Glicko inside", "RD",
     "Glicko rating deviation: 1 SD of the rating's normal posterior (not a confidence interval)"},
    {"sg2", NEED_SETS, 1, 1, "set-wise method (paper 000), Glicko-2 inside", "RD",
     "Glicko-2 rating deviation: 1 SD of the rating's normal posterior (not a confidence interval)"},
    {"sts", NEED_SETS, 1, 1, "set-wise method (paper 000), TrueSkill inside", "sigma",
     "TrueSkill sigma: 1 SD of the skill's normal posterior (not a confidence interval)"},
    {"elo-game", NEED_GAMES, 0, 1, "game-wise multi-player Elo (paper 002)", NULL, NULL},
    {"morita", NEED_GAMES | NEED_P, 0, 1, "game-wise Elo corrected by initial-hand win rates (paper 002)", NULL, NULL},
    {"bt", NEED_SETS_OR_GAMES, 0, 0, "Bradley-Terry, maximum likelihood on the pairs of each set (or game)", "SE",
     "standard error"},
    {"pl", NEED_SETS_OR_GAMES, 0, 0, "Plackett-Luce, maximum likelihood on each set's (or game's) order", "SE",
     "bootstrap standard deviation, resampling whole sets (or games)"},
    {"melo", NEED_SETS, 0, 0, "multidimensional Elo (mElo2, Balduzzi et al. 2018) on the pairs of each set", NULL, NULL},
};

const MethodInfo *method_info(MethodId m) { return &METHODS[(unsigned)m < M_COUNT ? m : 0]; }

const char *method_name(MethodId m) { return (unsigned)m < M_COUNT ? METHODS[m].name : "?"; }

int method_parse(const char *name)
{
    for (int i = 0; i < M_COUNT; i++)
        if (!strcmp(name, METHODS[i].name))
            return i;
    return -1;
}

const char *method_names(void)
{
    static char buf[256]; /* written once from the table; the same text every call */
    if (!buf[0]) {
        size_t k = 0;
        for (int i = 0; i < M_COUNT; i++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s, ", METHODS[i].name);
        snprintf(buf + k, sizeof buf - k, "all");
    }
    return buf;
}

int method_uses_games(MethodId m) { return (METHODS[m].needs & NEED_SETS_OR_GAMES) == NEED_GAMES; }

int method_applies(MethodId m, const Results *res, char *why, size_t whysz)
{
    const int need = METHODS[m].needs;
    if ((need & NEED_SETS_OR_GAMES) == NEED_SETS && res->nsets == 0) {
        snprintf(why, whysz, "method %s needs per-set results (a CSV with the header set,order,player,points, or --db)",
                 METHODS[m].name);
        return 0;
    }
    if ((need & NEED_SETS_OR_GAMES) == NEED_GAMES && res->ngames == 0) {
        snprintf(why, whysz, "method %s needs per-game results (a CSV with the header game,player,rank[,p], or --db)",
                 METHODS[m].name);
        return 0;
    }
    if ((need & NEED_SETS_OR_GAMES) == NEED_SETS_OR_GAMES && res->nsets == 0 && res->ngames == 0) {
        snprintf(why, whysz, "method %s needs set or game results", METHODS[m].name);
        return 0;
    }
    if ((need & NEED_P) && !res->has_p) {
        snprintf(why, whysz,
                 "method %s needs initial-hand win rates for every game (the p column of game,player,rank,p, or a "
                 "store after dhm handstrength --db FILE); without them it is elo-game",
                 METHODS[m].name);
        return 0;
    }
    return 1;
}

void rating_params_default(RatingParams *p)
{
    memset(p, 0, sizeof *p);
    p->init = 1500;
    p->elo_k = 10;
    p->elo_f = 400;
    p->glicko_rd = 350;
    p->glicko_c = 0;
    p->glicko_rd_max = 350;
    p->g2_rd = 350;
    p->g2_sigma = 0.06;
    p->g2_tau = 1.0;
    p->g2_eps = 1e-6;
    p->ts.mu0 = 1500;
    p->ts.sigma0 = 1500.0 / 3.0;
    p->ts.beta = 400;
    p->ts.tau = 5;
    p->ts.draw_prob = 0;
    p->game_k = 16;
    p->natural_log = 0;
    p->prior = 1.0;
    p->bootstrap = 200;
    p->confidence = 0.95;
    p->seed = 1;
    p->anchor = -1;
    p->anchor_value = 1500;
    p->melo_k = 1;
    p->melo_lr_r = 16;
    p->melo_lr_c = 1;
    p->melo_epochs = 1;
}

void method_result_free(MethodResult *r)
{
    free(r->rating);
    free(r->unc);
    free(r->lo);
    free(r->hi);
    free(r->aux);
    free(r->count);
    free(r->cov);
    free(r->boot);
    free(r->bound);
    memset(r, 0, sizeof *r);
}

static int alloc_result(MethodResult *r, MethodId m, const RatingParams *p, int n, int aux_per_player)
{
    memset(r, 0, sizeof *r);
    r->id = m;
    r->n = n;
    r->p = *p;
    size_t sz = (size_t)(n > 0 ? n : 1);
    r->rating = malloc(sz * sizeof *r->rating);
    r->unc = malloc(sz * sizeof *r->unc);
    r->lo = malloc(sz * sizeof *r->lo);
    r->hi = malloc(sz * sizeof *r->hi);
    r->aux = calloc(sz * (size_t)(aux_per_player > 0 ? aux_per_player : 1), sizeof *r->aux);
    r->count = calloc(sz, sizeof *r->count);
    r->bound = calloc(sz, sizeof *r->bound);
    if (!r->rating || !r->unc || !r->lo || !r->hi || !r->aux || !r->count || !r->bound)
        return -1;
    for (int i = 0; i < n; i++)
        r->rating[i] = r->unc[i] = r->lo[i] = r->hi[i] = NAN;
    return 0;
}

/* realloc of an array of n0 elements of size sz to n1 > n0, the new ones zero; -1 (p kept)
 * without memory. */
static int grow_zero(void **p, size_t sz, int n0, int n1)
{
    char *q = realloc(*p, (size_t)n1 * sz);
    if (!q)
        return -1;
    memset(q + (size_t)n0 * sz, 0, (size_t)(n1 - n0) * sz);
    *p = q;
    return 0;
}

/* Room for players n0..n1-1 in a result with one aux value per player, as alloc_result
 * leaves them (no rating, never counted). */
static int result_grow(MethodResult *r, int n0, int n1)
{
    if (grow_zero((void **)&r->rating, sizeof *r->rating, n0, n1) || grow_zero((void **)&r->unc, sizeof *r->unc, n0, n1) ||
        grow_zero((void **)&r->lo, sizeof *r->lo, n0, n1) || grow_zero((void **)&r->hi, sizeof *r->hi, n0, n1) ||
        grow_zero((void **)&r->aux, sizeof *r->aux, n0, n1) || grow_zero((void **)&r->count, sizeof *r->count, n0, n1) ||
        grow_zero((void **)&r->bound, sizeof *r->bound, n0, n1))
        return -1;
    for (int i = n0; i < n1; i++)
        r->rating[i] = r->unc[i] = r->lo[i] = r->hi[i] = NAN;
    return 0;
}

/* ---- the inner two-player systems: one rating = (r, u, v) ---- */
typedef struct R3 {
    double r, u, v;
} R3;

/* New ratings of a and b after a scored s (0 or 1) against b. */
static void rate_pair(MethodId m, const RatingParams *p, R3 a, R3 b, double s, R3 *na, R3 *nb)
{
    *na = a;
    *nb = b;
    switch (m) {
    case M_SE:
        na->r = elo_update(a.r, b.r, s, p->elo_k, p->elo_f);
        nb->r = elo_update(b.r, a.r, 1 - s, p->elo_k, p->elo_f);
        break;
    case M_SG: {
        double sa = s, sb = 1 - s;
        glicko_update(a.r, a.u, 1, &b.r, &b.u, &sa, &na->r, &na->u);
        glicko_update(b.r, b.u, 1, &a.r, &a.u, &sb, &nb->r, &nb->u);
        break;
    }
    case M_SG2: {
        Glicko2 ga = {a.r, a.u, a.v}, gb = {b.r, b.u, b.v}, oa = ga, ob = gb;
        double sa = s, sb = 1 - s;
        glicko2_update(&ga, 1, &ob, &sa, p->g2_tau, p->g2_eps);
        glicko2_update(&gb, 1, &oa, &sb, p->g2_tau, p->g2_eps);
        *na = (R3){ga.r, ga.rd, ga.sigma};
        *nb = (R3){gb.r, gb.rd, gb.sigma};
        break;
    }
    case M_STS: {
        TsRating ta = {a.r, a.u}, tb = {b.r, b.u};
        if (s > 0.5)
            ts_rate_1v1(&p->ts, &ta, &tb, 0);
        else
            ts_rate_1v1(&p->ts, &tb, &ta, 0);
        *na = (R3){ta.mu, ta.sigma, 0};
        *nb = (R3){tb.mu, tb.sigma, 0};
        break;
    }
    default:
        break;
    }
}

/* A result s in {0, 1/2, 1}; a draw is the mean of the win and loss results. */
static void rate_result(MethodId m, const RatingParams *p, R3 a, R3 b, double s, R3 *na, R3 *nb)
{
    if (s != 0.5) {
        rate_pair(m, p, a, b, s, na, nb);
        return;
    }
    R3 wa, wb, la, lb;
    rate_pair(m, p, a, b, 1, &wa, &wb);
    rate_pair(m, p, a, b, 0, &la, &lb);
    *na = (R3){(wa.r + la.r) / 2, (wa.u + la.u) / 2, (wa.v + la.v) / 2};
    *nb = (R3){(wb.r + lb.r) / 2, (wb.u + lb.u) / 2, (wb.v + lb.v) / 2};
}

static R3 initial(MethodId m, const RatingParams *p)
{
    switch (m) {
    case M_SG:
        return (R3){p->init, p->glicko_rd, 0};
    case M_SG2:
        return (R3){p->init, p->g2_rd, p->g2_sigma};
    case M_STS:
        return (R3){p->ts.mu0, p->ts.sigma0, 0};
    default:
        return (R3){p->init, NAN, 0};
    }
}

/* The state of a method that streams: every player's current rating, and for the set-wise
 * methods the step of its last set. Arrays hold cap players and grow as players appear. */
struct MethodStream {
    MethodId m;
    RatingParams p;
    int cap;
    long k;     /* sets (set-wise) or games (game-wise) rated */
    R3 *cur;    /* set-wise: (r, u, v) of every player */
    long *last; /* set-wise: step of the player's last set, -1 before its first */
    MethodResult out;
};

void method_stream_abandon(MethodStream *r)
{
    if (!r)
        return;
    free(r->cur);
    free(r->last);
    method_result_free(&r->out);
    free(r);
}

static int stream_grow(MethodStream *r, int nplayers)
{
    if (nplayers <= r->cap)
        return 0;
    int cap = r->cap > 0 ? r->cap : 8;
    while (cap < nplayers)
        cap *= 2;
    if (result_grow(&r->out, r->cap, cap) || grow_zero((void **)&r->cur, sizeof *r->cur, r->cap, cap) ||
        grow_zero((void **)&r->last, sizeof *r->last, r->cap, cap))
        return -1;
    for (int i = r->cap; i < cap; i++)
        r->last[i] = -1;
    r->cap = cap;
    return 0;
}

MethodStream *method_stream_begin(MethodId m, const RatingParams *p, int nplayers)
{
    if ((unsigned)m >= M_COUNT || !METHODS[m].streams)
        return NULL;
    MethodStream *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->m = m;
    r->p = *p;
    r->out.id = m;
    r->out.p = *p;
    if (stream_grow(r, nplayers > 0 ? nplayers : 1)) {
        method_stream_abandon(r);
        return NULL;
    }
    return r;
}

int method_stream_set(MethodStream *r, int nplayers, const RSet *s, RatingStepFn cb, void *ctx)
{
    if (!METHODS[r->m].setwise)
        return 0;
    if (stream_grow(r, nplayers))
        return -1;
    const MethodId m = r->m;
    const RatingParams *p = &r->p;
    R3 *cur = r->cur;
    MethodResult *out = &r->out;
    const long k = r->k++;
    R3 before[SET_PLAYERS], sum[SET_PLAYERS];
    for (int i = 0; i < SET_PLAYERS; i++) {
        int pl = s->player[i];
        if (r->last[pl] < 0)
            cur[pl] = initial(m, p);
        else if (m == M_SG && p->glicko_c > 0)
            cur[pl].u = glicko_grow(cur[pl].u, p->glicko_c, (double)(k - r->last[pl]), p->glicko_rd_max);
        r->last[pl] = k;
        before[i] = cur[pl];
        sum[i] = (R3){0, 0, 0};
    }
    for (int i = 0; i < SET_PLAYERS; i++)
        for (int j = i + 1; j < SET_PLAYERS; j++) {
            double sc = set_score(s->points[i], s->points[j]);
            R3 na, nb;
            if (p->sequential) {
                rate_result(m, p, cur[s->player[i]], cur[s->player[j]], sc, &na, &nb);
                cur[s->player[i]] = na;
                cur[s->player[j]] = nb;
            } else {
                rate_result(m, p, before[i], before[j], sc, &na, &nb);
                sum[i] = (R3){sum[i].r + na.r, sum[i].u + na.u, sum[i].v + na.v};
                sum[j] = (R3){sum[j].r + nb.r, sum[j].u + nb.u, sum[j].v + nb.v};
            }
        }
    for (int i = 0; i < SET_PLAYERS; i++) {
        int pl = s->player[i];
        if (!p->sequential)
            cur[pl] = (R3){sum[i].r / 4, sum[i].u / 4, sum[i].v / 4};
        out->rating[pl] = cur[pl].r;
        out->unc[pl] = cur[pl].u;
        out->aux[pl] = cur[pl].v;
        out->count[pl]++;
    }
    if (cb)
        cb(ctx, m, k, s->player, SET_PLAYERS, out);
    return 0;
}

int method_stream_game(MethodStream *r, int nplayers, const RGame *g, const float *pair, RatingStepFn cb, void *ctx)
{
    if (METHODS[r->m].setwise)
        return 0;
    if (stream_grow(r, nplayers))
        return -1;
    const RatingParams *p = &r->p;
    MethodResult *out = &r->out;
    double rt[GAME_MAX_SEATS], nr[GAME_MAX_SEATS];
    for (int i = 0; i < g->n; i++)
        rt[i] = out->count[g->player[i]] ? out->rating[g->player[i]] : p->init;
    const int hand = r->m == M_MORITA;
    morita_game(g->n, rt, g->rank, hand ? g->p : NULL, hand ? pair : NULL, p->game_k, p->natural_log, nr);
    for (int i = 0; i < g->n; i++) {
        out->rating[g->player[i]] = nr[i];
        out->count[g->player[i]]++;
    }
    if (cb)
        cb(ctx, r->m, r->k, g->player, g->n, out);
    r->k++;
    return 0;
}

/* Moves the result for nplayers players out of r (which is then freed); -1 without memory. */
static int stream_take(MethodStream *r, int nplayers, MethodResult *out)
{
    int rc = stream_grow(r, nplayers);
    if (!rc) {
        *out = r->out;
        out->n = nplayers;
        memset(&r->out, 0, sizeof r->out);
    }
    method_stream_abandon(r);
    return rc;
}

static void bounds_h2h(const H2H *h, MethodResult *out);

int method_stream_end(MethodStream *r, const Results *res, const H2H *h, MethodResult *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    const int sets = METHODS[r->m].setwise;
    const long fed = sets ? res->nsets : res->ngames;
    if (r->k != fed || h->n != res->nplayers) {
        snprintf(err, errsz, "%s: fed %ld %s, the results hold %ld (of %d players; table of %d)", method_name(r->m),
                 r->k, sets ? "sets" : "games", fed, res->nplayers, h->n);
        method_stream_abandon(r);
        return -1;
    }
    if (!method_applies(r->m, res, err, errsz)) {
        method_stream_abandon(r);
        return -1;
    }
    if (stream_take(r, res->nplayers, out)) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    bounds_h2h(h, out);
    return 0;
}

/* method_run for a method that streams: the same steps, over the sets or games in memory. */
static int stream_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, RatingStepFn cb,
                      void *ctx)
{
    MethodStream *r = method_stream_begin(m, p, res->nplayers);
    if (!r)
        return -1;
    int rc = 0;
    if (METHODS[m].setwise)
        for (long k = 0; k < res->nsets && !rc; k++)
            rc = method_stream_set(r, res->nplayers, &res->sets[k], cb, ctx);
    else
        for (long k = 0; k < res->ngames && !rc; k++) {
            const RGame *g = &res->games[k];
            rc = method_stream_game(r, res->nplayers, g, g->pair >= 0 ? res->pair + g->pair : NULL, cb, ctx);
        }
    if (rc) {
        method_stream_abandon(r);
        return -1;
    }
    return stream_take(r, res->nplayers, out);
}

/* ---- what bounds each rating: strongly connected components of "scored against" ---- */

#define BOUND_MAX_PLAYERS 2048

typedef struct Graph {
    int n;
    size_t words;      /* 64-bit words per row */
    uint64_t *out, *in; /* out[x] has y when x scored against y; in[y] has x */
    uint8_t *active;   /* players who took part in anything */
} Graph;

static void graph_free(Graph *g)
{
    free(g->out);
    free(g->in);
    free(g->active);
}

/* An empty graph of n players; -1 (nothing held) without memory. */
static int graph_alloc(Graph *g, int n)
{
    g->n = n;
    g->words = (size_t)(n + 63) / 64;
    g->out = calloc((size_t)n * g->words, sizeof *g->out);
    g->in = calloc((size_t)n * g->words, sizeof *g->in);
    g->active = calloc((size_t)n, 1);
    if (g->out && g->in && g->active)
        return 0;
    graph_free(g);
    return -1;
}

static void graph_edge(Graph *g, int x, int y)
{
    g->out[(size_t)x * g->words + (size_t)y / 64] |= 1ULL << (y % 64);
    g->in[(size_t)y * g->words + (size_t)x / 64] |= 1ULL << (x % 64);
}

/* Iterative DFS over rows (out or in), visiting unvisited nodes; appends finish order. */
static void dfs(const Graph *g, const uint64_t *rows, int start, uint8_t *seen, int *stack, int *order, int *norder,
                int *comp, int label)
{
    int top = 0;
    stack[top++] = start;
    seen[start] = 1;
    if (comp)
        comp[start] = label;
    while (top) {
        int v = stack[top - 1], next = -1;
        const uint64_t *row = rows + (size_t)v * g->words;
        for (size_t w = 0; w < g->words && next < 0; w++) {
            uint64_t bits = row[w];
            while (bits) {
                int u = (int)(w * 64) + __builtin_ctzll(bits);
                bits &= bits - 1;
                if (!seen[u]) {
                    next = u;
                    break;
                }
            }
        }
        if (next >= 0) {
            seen[next] = 1;
            if (comp)
                comp[next] = label;
            stack[top++] = next;
        } else {
            top--;
            if (order)
                order[(*norder)++] = v;
        }
    }
}

/* Fills out->bound from the comparison graph. Kosaraju: components of the graph; a component
 * nobody outside ever scored against is BOUND_ABOVE, one that never scored against an
 * outsider BOUND_BELOW. */
static void graph_bounds(const Graph *g, MethodResult *out)
{
    const int n = g->n;
    const uint8_t *active = g->active;
    uint8_t *seen = calloc((size_t)n, 1);
    int *stack = malloc((size_t)n * sizeof *stack), *order = malloc((size_t)n * sizeof *order);
    int *comp = malloc((size_t)n * sizeof *comp);
    if (!seen || !stack || !order || !comp)
        goto out;
    int norder = 0, ncomp = 0;
    for (int v = 0; v < n; v++)
        if (active[v] && !seen[v])
            dfs(g, g->out, v, seen, stack, order, &norder, NULL, 0);
    memset(seen, 0, (size_t)n);
    for (int i = norder - 1; i >= 0; i--)
        if (!seen[order[i]])
            dfs(g, g->in, order[i], seen, stack, NULL, NULL, comp, ncomp++);
    if (ncomp <= 1)
        goto out;
    int *has_in = calloc((size_t)ncomp, sizeof *has_in), *has_out = calloc((size_t)ncomp, sizeof *has_out);
    if (has_in && has_out) {
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++)
                if (active[x] && active[y] && comp[x] != comp[y] &&
                    (g->out[(size_t)x * g->words + (size_t)y / 64] >> (y % 64) & 1)) {
                    has_out[comp[x]] = 1;
                    has_in[comp[y]] = 1;
                }
        for (int x = 0; x < n; x++) {
            if (!active[x])
                continue;
            int c = comp[x];
            out->bound[x] = !has_in[c] ? BOUND_ABOVE : !has_out[c] ? BOUND_BELOW : BOUND_DATA;
            out->unbounded += out->bound[x] != BOUND_DATA;
        }
    }
    free(has_in);
    free(has_out);
out:
    free(seen);
    free(stack);
    free(order);
    free(comp);
}

/* Bounds from the comparisons the method rated (sets, or games when use_sets = 0). */
static void compute_bounds(const Results *res, int use_sets, MethodResult *out)
{
    const int n = res->nplayers;
    out->unbounded = 0;
    Graph g;
    if (n < 2 || n > BOUND_MAX_PLAYERS || graph_alloc(&g, n))
        return;
    long units = use_sets ? res->nsets : res->ngames;
    for (long k = 0; k < units; k++) {
        int m = use_sets ? SET_PLAYERS : res->games[k].n;
        const int *pl = use_sets ? res->sets[k].player : res->games[k].player;
        for (int i = 0; i < m; i++) {
            g.active[pl[i]] = 1;
            for (int j = 0; j < m; j++) {
                if (i == j)
                    continue;
                double sc = use_sets ? set_score(res->sets[k].points[i], res->sets[k].points[j])
                                     : set_score(-res->games[k].rank[i], -res->games[k].rank[j]);
                if (sc > 0)
                    graph_edge(&g, pl[i], pl[j]);
            }
        }
    }
    graph_bounds(&g, out);
    graph_free(&g);
}

/* The same from a head-to-head table of those comparisons: x scored against y when it won or
 * drew a meeting; a player took part when it has a set (or game). */
static void bounds_h2h(const H2H *h, MethodResult *out)
{
    const int n = h->n;
    out->unbounded = 0;
    Graph g;
    if (n < 2 || n > BOUND_MAX_PLAYERS || graph_alloc(&g, n))
        return;
    for (int x = 0; x < n; x++) {
        g.active[x] = h->sets[x] > 0;
        for (int y = 0; y < n; y++)
            if (h->wins[(size_t)x * n + y] > 0 || h->draws[(size_t)x * n + y] > 0)
                graph_edge(&g, x, y);
    }
    graph_bounds(&g, out);
    graph_free(&g);
}

typedef struct MeloStep {
    RatingStepFn cb;
    void *ctx;
    const MethodResult *out;
} MeloStep;

static void melo_step(void *ctx, long k, const int *players, int np)
{
    MeloStep *m = ctx;
    m->cb(m->ctx, M_MELO, k, players, np, m->out);
}

int method_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, RatingStepFn cb, void *ctx,
               char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)m >= M_COUNT) {
        snprintf(err, errsz, "unknown method");
        return -1;
    }
    if (!method_applies(m, res, err, errsz))
        return -1;
    int rc = 0;
    if (METHODS[m].streams)
        rc = stream_run(m, p, res, out, cb, ctx);
    else if (alloc_result(out, m, p, res->nplayers, m == M_MELO ? 2 * p->melo_k : 1))
        rc = -1;
    else if (m == M_MELO) {
        MeloParams mp = {p->melo_k, p->melo_lr_r, p->melo_lr_c, p->melo_epochs, p->init, p->seed};
        MeloStep st = {cb, ctx, out};
        melo_fit(&mp, res, out->rating, out->aux, out->count, cb ? melo_step : NULL, &st);
    } else if (batch_run(m, p, res, out, err, errsz))
        return -1;
    if (rc) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int use_sets = (METHODS[m].needs & NEED_SETS_OR_GAMES) == NEED_SETS ||
                   ((METHODS[m].needs & NEED_SETS_OR_GAMES) == NEED_SETS_OR_GAMES && res->nsets > 0);
    compute_bounds(res, use_sets, out);
    return 0;
}

/* Glickman's expected outcome between two rated players uses both deviations. */
static double combined_rd(double a, double b) { return sqrt(a * a + b * b); }

double method_win_prob(const MethodResult *r, int x, int y)
{
    const double rx = r->rating[x], ry = r->rating[y];
    switch (r->id) {
    case M_SE:
        return elo_expected(rx, ry, r->p.elo_f);
    case M_SG:
        return glicko_win_prob(rx, ry, combined_rd(r->unc[x], r->unc[y]));
    case M_SG2:
        return glicko2_win_prob(rx, ry, combined_rd(r->unc[x], r->unc[y]));
    case M_STS:
        return ts_win_prob(&r->p.ts, (TsRating){rx, r->unc[x]}, (TsRating){ry, r->unc[y]});
    case M_MELO: {
        int k2 = 2 * r->p.melo_k;
        return melo_prob(k2, MELO_ELO_SCALE, rx, ry, r->aux + (size_t)x * k2, r->aux + (size_t)y * k2);
    }
    default: /* elo-game, morita, bt, pl: Elo scale */
        return elo_expected(rx, ry, 400);
    }
}

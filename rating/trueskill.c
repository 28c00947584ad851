/* trueskill.c — TrueSkill updates: closed form for two sides, EP on the factor graph for more.
 *
 * Gaussians are kept in natural parameters (pi = 1/sigma^2, tau = mu/sigma^2). Every
 * factor remembers the last message it sent to each variable; a variable's marginal is the
 * product of its incoming messages, and a factor's "cavity" is the marginal divided by its
 * own message. Schedule as sublee/trueskill and Moserware: priors, likelihoods and team sums
 * down once; then sweeps over the team differences and their truncations until the largest
 * change is <= 1e-4 (at most 10 sweeps); then everything back up to the skills.
 */
#include "rating/trueskill.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rating/gaussian.h"
#include "rating/linalg.h"

void ts_env_default(TsEnv *e)
{
    e->mu0 = 25.0;
    e->sigma0 = 25.0 / 3.0;
    e->beta = e->sigma0 / 2.0;
    e->tau = e->sigma0 / 100.0;
    e->draw_prob = 0.1;
}

double ts_draw_margin(const TsEnv *e, int n)
{
    if (e->draw_prob <= 0)
        return 0;
    return gauss_ppf((e->draw_prob + 1.0) / 2.0) * sqrt((double)n) * e->beta;
}

double ts_win_prob(const TsEnv *e, TsRating x, TsRating y)
{
    return gauss_cdf((x.mu - y.mu) / sqrt(2 * e->beta * e->beta + x.sigma * x.sigma + y.sigma * y.sigma));
}

void ts_rate_1v1(const TsEnv *e, TsRating *a, TsRating *b, int drawn)
{
    double va = a->sigma * a->sigma + e->tau * e->tau, vb = b->sigma * b->sigma + e->tau * e->tau;
    double c2 = 2 * e->beta * e->beta + va + vb, c = sqrt(c2);
    double t = (a->mu - b->mu) / c, al = ts_draw_margin(e, 2) / c;
    double v, w;
    (drawn ? ts_vw_draw : ts_vw_win)(t, al, &v, &w);
    a->mu += va / c * v;
    b->mu -= vb / c * v;
    a->sigma = sqrt(va * (1 - va / c2 * w));
    b->sigma = sqrt(vb * (1 - vb / c2 * w));
}

/* ---- Gaussian messages ---- */
typedef struct G {
    double pi, tau;
} G;

static inline G gdiv(G a, G b) { return (G){a.pi - b.pi, a.tau - b.tau}; }
static inline G gmul(G a, G b) { return (G){a.pi + b.pi, a.tau + b.tau}; }

/* Replaces the message a factor sent to a variable; returns the change (for convergence). */
static double send(G *marg, G *msg, G m)
{
    G old = *marg;
    *marg = gmul(gdiv(*marg, *msg), m);
    *msg = m;
    double dt = fabs(marg->tau - old.tau), dp = sqrt(fabs(marg->pi - old.pi));
    return dt > dp ? dt : dp;
}

/* Message to y from y = sum c_j x_j given the cavities of the x_j. */
static G weighted_sum(int n, const double *c, const G *cav)
{
    double s_var = 0, s_mean = 0;
    for (int j = 0; j < n; j++) {
        if (cav[j].pi <= 0)
            return (G){0, 0};
        s_var += c[j] * c[j] / cav[j].pi;
        s_mean += c[j] * cav[j].tau / cav[j].pi;
    }
    double pi = 1.0 / s_var;
    return (G){pi, pi * s_mean};
}

typedef struct Graph {
    int n, k;
    const int *start, *size; /* team k: players start[k] .. start[k]+size[k]-1 (sorted order) */
    double *w;               /* weight per player (sorted order) */
    G *skill, *prior_msg, *like_s;
    G *perf, *like_p, *sum_p;
    G *team, *sum_t, *dl, *dr; /* dl[k]: from diff k (team k on the left); dr[k]: from diff k-1 */
    G *diff, *diff_d, *trunc;
    double *eps;
    int *draw;
} Graph;

/* Team sum down: t_k = sum w_i p_i. */
static void team_down(Graph *g, int k, double *cbuf, G *gbuf)
{
    int s = g->start[k];
    for (int i = 0; i < g->size[k]; i++) {
        cbuf[i] = g->w[s + i];
        gbuf[i] = gdiv(g->perf[s + i], g->sum_p[s + i]);
    }
    send(&g->team[k], &g->sum_t[k], weighted_sum(g->size[k], cbuf, gbuf));
}

/* Team sum up to player i of team k: p_i = t/w_i - sum_{j != i} (w_j / w_i) p_j. */
static void team_up(Graph *g, int k, int i, double *cbuf, G *gbuf)
{
    int s = g->start[k], m = 0;
    double wi = g->w[s + i];
    cbuf[m] = 1.0 / wi;
    gbuf[m++] = gdiv(g->team[k], g->sum_t[k]);
    for (int j = 0; j < g->size[k]; j++)
        if (j != i) {
            cbuf[m] = -g->w[s + j] / wi;
            gbuf[m++] = gdiv(g->perf[s + j], g->sum_p[s + j]);
        }
    send(&g->perf[s + i], &g->sum_p[s + i], weighted_sum(m, cbuf, gbuf));
}

/* Difference k: d_k = t_k - t_{k+1}. */
static void diff_down(Graph *g, int k)
{
    double c[2] = {1, -1};
    G cav[2] = {gdiv(g->team[k], g->dl[k]), gdiv(g->team[k + 1], g->dr[k + 1])};
    send(&g->diff[k], &g->diff_d[k], weighted_sum(2, c, cav));
}

static void diff_up(Graph *g, int k, int to_left)
{
    double c[2] = {1, 1};
    G cav[2];
    if (to_left) { /* t_k = d_k + t_{k+1} */
        cav[0] = gdiv(g->diff[k], g->diff_d[k]);
        cav[1] = gdiv(g->team[k + 1], g->dr[k + 1]);
        send(&g->team[k], &g->dl[k], weighted_sum(2, c, cav));
    } else { /* t_{k+1} = t_k - d_k */
        c[1] = -1;
        cav[0] = gdiv(g->team[k], g->dl[k]);
        cav[1] = gdiv(g->diff[k], g->diff_d[k]);
        send(&g->team[k + 1], &g->dr[k + 1], weighted_sum(2, c, cav));
    }
}

static double trunc_update(Graph *g, int k)
{
    G cav = gdiv(g->diff[k], g->trunc[k]);
    double sp = sqrt(cav.pi), t = cav.tau / sp, a = g->eps[k] * sp;
    double v, w;
    (g->draw[k] ? ts_vw_draw : ts_vw_win)(t, a, &v, &w);
    if (w >= 1.0)
        w = 1.0 - 1e-12;
    G marg = {cav.pi / (1 - w), (cav.tau + sp * v) / (1 - w)};
    return send(&g->diff[k], &g->trunc[k], gdiv(marg, cav));
}

int ts_rate(const TsEnv *e, int nteams, const int *team_size, const TsRating *in, const double *weights,
            const double *ranks, TsRating *out)
{
    if (nteams < 2)
        return -1;
    int n = 0;
    for (int t = 0; t < nteams; t++) {
        if (team_size[t] < 1)
            return -1;
        n += team_size[t];
    }
    /* teams sorted by rank (stable) */
    int *order = malloc((size_t)nteams * sizeof *order), *tstart_in = malloc((size_t)nteams * sizeof *order);
    int *start = malloc((size_t)nteams * sizeof *start), *size = malloc((size_t)nteams * sizeof *size);
    int *pmap = malloc((size_t)n * sizeof *pmap);
    Graph g;
    memset(&g, 0, sizeof g);
    size_t ng = (size_t)(6 * n + 7 * nteams + 8); /* 6 per player, 7 per team (+1 for dr) */
    G *pool = calloc(ng, sizeof *pool);
    g.w = malloc((size_t)n * sizeof *g.w);
    g.eps = calloc((size_t)nteams, sizeof *g.eps);
    g.draw = calloc((size_t)nteams, sizeof *g.draw);
    int rc = -1;
    if (!order || !tstart_in || !start || !size || !pmap || !pool || !g.w || !g.eps || !g.draw)
        goto done;
    for (int t = 0, s = 0; t < nteams; s += team_size[t], t++) {
        order[t] = t;
        tstart_in[t] = s;
    }
    for (int i = 1; i < nteams; i++) /* insertion sort: stable */
        for (int j = i; j > 0 && ranks[order[j]] < ranks[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (int k = 0, s = 0; k < nteams; k++) {
        start[k] = s;
        size[k] = team_size[order[k]];
        for (int i = 0; i < size[k]; i++) {
            pmap[s + i] = tstart_in[order[k]] + i;
            double wt = weights ? weights[pmap[s + i]] : 1.0;
            g.w[s + i] = wt < 1e-4 ? 1e-4 : wt; /* sublee's floor: keeps the sums solvable */
        }
        s += size[k];
    }
    for (int k = 0; k + 1 < nteams; k++) {
        g.draw[k] = ranks[order[k]] == ranks[order[k + 1]];
        g.eps[k] = ts_draw_margin(e, size[k] + size[k + 1]);
        if (g.draw[k] && g.eps[k] <= 0)
            goto done; /* a tie needs a draw probability > 0 */
    }
    g.n = n;
    g.k = nteams;
    g.start = start;
    g.size = size;
    G *p = pool;
    g.skill = p, p += n;
    g.prior_msg = p, p += n;
    g.like_s = p, p += n;
    g.perf = p, p += n;
    g.like_p = p, p += n;
    g.sum_p = p, p += n;
    g.team = p, p += nteams;
    g.sum_t = p, p += nteams;
    g.dl = p, p += nteams;
    g.dr = p, p += nteams + 1;
    g.diff = p, p += nteams;
    g.diff_d = p, p += nteams;
    g.trunc = p;

    double *cbuf = malloc((size_t)(n + 1) * sizeof *cbuf);
    G *gbuf = malloc((size_t)(n + 1) * sizeof *gbuf);
    if (!cbuf || !gbuf) {
        free(cbuf);
        free(gbuf);
        goto done;
    }
    const double b2 = e->beta * e->beta;
    for (int i = 0; i < n; i++) { /* priors and likelihoods down */
        const TsRating *r = &in[pmap[i]];
        double var = r->sigma * r->sigma + e->tau * e->tau;
        send(&g.skill[i], &g.prior_msg[i], (G){1.0 / var, r->mu / var});
        G cav = gdiv(g.skill[i], g.like_s[i]);
        double a = 1.0 / (1.0 + b2 * cav.pi);
        send(&g.perf[i], &g.like_p[i], (G){a * cav.pi, a * cav.tau});
    }
    for (int k = 0; k < nteams; k++)
        team_down(&g, k, cbuf, gbuf);
    int sweeps = 0;
    if (nteams == 2) {
        diff_down(&g, 0);
        trunc_update(&g, 0);
        sweeps = 1;
    } else {
        for (sweeps = 1; sweeps <= 10; sweeps++) {
            double delta = 0;
            for (int k = 0; k + 2 < nteams; k++) {
                diff_down(&g, k);
                double d = trunc_update(&g, k);
                delta = d > delta ? d : delta;
                diff_up(&g, k, 0);
            }
            for (int k = nteams - 2; k >= 1; k--) {
                diff_down(&g, k);
                double d = trunc_update(&g, k);
                delta = d > delta ? d : delta;
                diff_up(&g, k, 1);
            }
            if (delta <= 1e-4)
                break;
        }
        if (sweeps > 10)
            sweeps = 10;
    }
    diff_up(&g, 0, 1);
    diff_up(&g, nteams - 2, 0);
    for (int k = 0; k < nteams; k++)
        for (int i = 0; i < size[k]; i++)
            team_up(&g, k, i, cbuf, gbuf);
    for (int i = 0; i < n; i++) { /* likelihoods up */
        G cav = gdiv(g.perf[i], g.like_p[i]);
        double a = 1.0 / (1.0 + b2 * cav.pi);
        send(&g.skill[i], &g.like_s[i], (G){a * cav.pi, a * cav.tau});
        out[pmap[i]].mu = g.skill[i].tau / g.skill[i].pi;
        out[pmap[i]].sigma = sqrt(1.0 / g.skill[i].pi);
    }
    free(cbuf);
    free(gbuf);
    rc = sweeps;
done:
    free(order);
    free(tstart_in);
    free(start);
    free(size);
    free(pmap);
    free(pool);
    free(g.w);
    free(g.eps);
    free(g.draw);
    return rc;
}

double ts_quality(const TsEnv *e, int nteams, const int *team_size, const TsRating *in, const double *weights)
{
    int n = 0, m = nteams - 1;
    for (int t = 0; t < nteams; t++)
        n += team_size[t];
    /* A (n x m): A[i][k] = w_i for a player of team k, -w_i for a player of team k+1 */
    double *A = calloc((size_t)n * (size_t)m, sizeof *A);
    double *P = calloc((size_t)m * (size_t)m, sizeof *P), *Q = calloc((size_t)m * (size_t)m, sizeof *Q);
    double *amu = calloc((size_t)m, sizeof *amu), *x = calloc((size_t)m, sizeof *x), *zero = calloc((size_t)m, sizeof *zero);
    double q = 0;
    if (A && P && Q && amu && x && zero) {
        for (int t = 0, s = 0; t < nteams; s += team_size[t], t++)
            for (int i = 0; i < team_size[t]; i++) {
                double wt = weights ? weights[s + i] : 1.0;
                if (t < m)
                    A[(s + i) * m + t] = wt;
                if (t > 0)
                    A[(s + i) * m + t - 1] = -wt;
            }
        const double b2 = e->beta * e->beta;
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < m; c++) {
                double ata = 0, atsa = 0;
                for (int i = 0; i < n; i++) {
                    ata += A[i * m + r] * A[i * m + c];
                    atsa += A[i * m + r] * in[i].sigma * in[i].sigma * A[i * m + c];
                }
                P[r * m + c] = b2 * ata;        /* beta^2 A^T A */
                Q[r * m + c] = b2 * ata + atsa; /* beta^2 A^T A + A^T Sigma A */
            }
            for (int i = 0; i < n; i++)
                amu[r] += A[i * m + r] * in[i].mu;
        }
        memcpy(x, amu, (size_t)m * sizeof *x);
        double det_p = linalg_solve(m, P, zero);
        double det_q = linalg_solve(m, Q, x); /* x = Q^{-1} A^T mu */
        double quad = 0;
        for (int r = 0; r < m; r++)
            quad += amu[r] * x[r];
        q = sqrt(det_p / det_q) * exp(-0.5 * quad);
    }
    free(A);
    free(P);
    free(Q);
    free(amu);
    free(x);
    free(zero);
    return q;
}

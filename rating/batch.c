/* batch.c — batch ratings by maximum likelihood: Bradley-Terry on pairwise results (Newton's
 * method; the Hessian is a weighted graph Laplacian, whose pseudo-inverse is also the
 * covariance of the ratings) and Plackett-Luce on finishing orders (Hunter's MM algorithm).
 *
 * Observations are whole sets (ranked by total points) or, without sets, whole games
 * (ranked by finishing rank). A prior of `prior` virtual draws is added to every pair that
 * met, so perfect scores stay finite (bayeselo's idea; --prior 0 gives the pure MLE).
 * Players must form one connected pool, as ordo requires; otherwise the groups are named.
 * Ratings are on the Elo scale (s = 400/ln 10), with the pool mean at `init` or the anchor
 * player at its value. The bootstrap resamples whole observations with a seeded RNG.
 * Ties in PL: Breslow's approximation (tied players are chosen from the same remaining set).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rating/gaussian.h"
#include "rating/linalg.h"
#include "rating/methods.h"

#define ELO_S 173.71779276130072 /* 400 / ln 10 */

typedef struct Obs {
    int n;
    int player[GAME_MAX_SEATS]; /* sorted best first */
    double rank[GAME_MAX_SEATS];
} Obs;

typedef struct Batch {
    int n;         /* players in the results */
    long nobs;
    Obs *obs;
    const RatingParams *p;
} Batch;

static int cmp_rank(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static int build_obs(const Results *res, Batch *b)
{
    int use_sets = res->nsets > 0;
    b->nobs = use_sets ? res->nsets : res->ngames;
    b->obs = malloc((size_t)(b->nobs > 0 ? b->nobs : 1) * sizeof *b->obs);
    if (!b->obs)
        return -1;
    for (long k = 0; k < b->nobs; k++) {
        Obs *o = &b->obs[k];
        double tmp[GAME_MAX_SEATS][2];
        if (use_sets) {
            o->n = SET_PLAYERS;
            for (int i = 0; i < SET_PLAYERS; i++) {
                tmp[i][0] = -res->sets[k].points[i];
                tmp[i][1] = res->sets[k].player[i];
            }
        } else {
            o->n = res->games[k].n;
            for (int i = 0; i < o->n; i++) {
                tmp[i][0] = res->games[k].rank[i];
                tmp[i][1] = res->games[k].player[i];
            }
        }
        qsort(tmp, (size_t)o->n, sizeof tmp[0], cmp_rank);
        for (int i = 0; i < o->n; i++) {
            o->rank[i] = tmp[i][0];
            o->player[i] = (int)tmp[i][1];
        }
    }
    return 0;
}

/* ---- pair statistics ---- */

typedef struct Pairs {
    int m;          /* active players */
    int *idx;       /* compact index per player, -1 if inactive */
    int *player;    /* player per compact index */
    double *W, *N;  /* m x m: score of i against j, games of i against j (prior included) */
} Pairs;

static void pairs_free(Pairs *q)
{
    free(q->idx);
    free(q->player);
    free(q->W);
    free(q->N);
    memset(q, 0, sizeof *q);
}

/* weights[k] = how many times observation k is used (bootstrap), NULL = once each. */
static int pairs_build(const Batch *b, const int *weights, Pairs *q)
{
    memset(q, 0, sizeof *q);
    q->idx = malloc((size_t)b->n * sizeof *q->idx);
    q->player = malloc((size_t)b->n * sizeof *q->player);
    if (!q->idx || !q->player)
        return -1;
    for (int i = 0; i < b->n; i++)
        q->idx[i] = -1;
    for (long k = 0; k < b->nobs; k++) {
        if (weights && !weights[k])
            continue;
        for (int i = 0; i < b->obs[k].n; i++) {
            int pl = b->obs[k].player[i];
            if (q->idx[pl] < 0) {
                q->idx[pl] = q->m;
                q->player[q->m++] = pl;
            }
        }
    }
    size_t mm = (size_t)q->m * (size_t)q->m;
    q->W = calloc(mm ? mm : 1, sizeof *q->W);
    q->N = calloc(mm ? mm : 1, sizeof *q->N);
    if (!q->W || !q->N)
        return -1;
    for (long k = 0; k < b->nobs; k++) {
        int w = weights ? weights[k] : 1;
        if (!w)
            continue;
        const Obs *o = &b->obs[k];
        for (int i = 0; i < o->n; i++)
            for (int j = i + 1; j < o->n; j++) {
                int a = q->idx[o->player[i]], c = q->idx[o->player[j]];
                double s = o->rank[i] < o->rank[j] ? 1.0 : 0.5; /* sorted: i is not below j */
                q->W[a * q->m + c] += w * s;
                q->W[c * q->m + a] += w * (1 - s);
                q->N[a * q->m + c] += w;
                q->N[c * q->m + a] += w;
            }
    }
    return 0;
}

/* Adds the prior to every pair that met; returns the number of connected groups and fills
 * group[] (compact index -> group id). */
static int pairs_prior_and_groups(Pairs *q, double prior, int *group)
{
    int m = q->m;
    for (int i = 0; i < m; i++)
        group[i] = i;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            if (i != j && q->N[i * m + j] > 0) {
                int a = i, c = j; /* union by walking to roots */
                while (group[a] != a)
                    a = group[a];
                while (group[c] != c)
                    c = group[c];
                if (a != c)
                    group[a > c ? a : c] = a < c ? a : c;
            }
    for (int i = 0; i < m; i++) {
        int r = i;
        while (group[r] != r)
            r = group[r];
        group[i] = r;
    }
    int ng = 0;
    for (int i = 0; i < m; i++)
        ng += group[i] == i;
    if (prior > 0)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++)
                if (i != j && q->N[i * m + j] > 0) {
                    q->W[i * m + j] += prior / 2;
                    q->N[i * m + j] += prior;
                }
    return ng;
}

static void groups_message(const Batch *b, const Pairs *q, const int *group, const Results *res, char *err,
                           size_t errsz)
{
    (void)b;
    size_t k = (size_t)snprintf(err, errsz, "the players form disconnected groups (ratings between them are undefined):");
    for (int g = 0; g < q->m && k < errsz; g++) {
        if (group[g] != g)
            continue;
        k += (size_t)snprintf(err + k, errsz - k, " {");
        int first = 1, shown = 0;
        for (int i = 0; i < q->m && k < errsz; i++)
            if (group[i] == g) {
                if (shown++ < 4)
                    k += (size_t)snprintf(err + k, errsz - k, "%s%s", first ? "" : ", ", res->names[q->player[i]]);
                first = 0;
            }
        if (shown > 4 && k < errsz)
            k += (size_t)snprintf(err + k, errsz - k, ", +%d", shown - 4);
        if (k < errsz)
            k += (size_t)snprintf(err + k, errsz - k, "}");
    }
}

/* ---- Bradley-Terry by Newton's method ---- */

static double bt_loglik(const Pairs *q, const double *x)
{
    double l = 0;
    for (int i = 0; i < q->m; i++)
        for (int j = 0; j < q->m; j++)
            if (q->W[i * q->m + j] > 0)
                l -= q->W[i * q->m + j] * log1p(exp(-(x[i] - x[j])));
    return l;
}

/* Fits x (natural units, sum zero). cov (m x m, may be NULL) receives the covariance.
 * Returns 0, or -1 if the fit does not converge (a perfect score without a prior). */
static int bt_fit(const Pairs *q, double *x, double *cov)
{
    const int m = q->m;
    double *L = malloc((size_t)m * m * sizeof *L), *g = malloc((size_t)m * sizeof *g);
    double *d = malloc((size_t)m * sizeof *d), *xn = malloc((size_t)m * sizeof *xn);
    int rc = -1;
    if (!L || !g || !d || !xn)
        goto out;
    for (int it = 0; it < 200; it++) {
        for (int i = 0; i < m; i++) {
            g[i] = 0;
            double diag = 0;
            for (int j = 0; j < m; j++) {
                L[i * m + j] = 0;
                double nij = q->N[i * m + j];
                if (j == i || nij == 0)
                    continue;
                double pij = 1.0 / (1.0 + exp(-(x[i] - x[j])));
                g[i] += q->W[i * m + j] - nij * pij;
                L[i * m + j] = -nij * pij * (1 - pij);
                diag += nij * pij * (1 - pij);
            }
            L[i * m + i] = diag;
        }
        for (int i = 0; i < m * m; i++)
            L[i] += 1.0 / m; /* + J/m: the sum-zero constraint */
        if (linalg_invert(m, L))
            goto out;
        double step = 0;
        for (int i = 0; i < m; i++) {
            d[i] = 0;
            for (int j = 0; j < m; j++)
                d[i] += L[i * m + j] * g[j];
            step = fabs(d[i]) > step ? fabs(d[i]) : step;
        }
        if (cov && step < 1e-9) { /* converged: (L + J/m)^{-1} - J/m is the covariance */
            for (int i = 0; i < m * m; i++)
                cov[i] = L[i] - 1.0 / m;
            rc = 0;
            goto out;
        }
        /* damped while far from the optimum; near it Newton steps are always good (and the
         * likelihood difference is below rounding) */
        double l0 = step > 1e-3 ? bt_loglik(q, x) : 0, t = 1.0;
        for (int h = 0; h < 40; h++, t /= 2) {
            for (int i = 0; i < m; i++)
                xn[i] = x[i] + t * d[i];
            if (step <= 1e-3 || bt_loglik(q, xn) >= l0 - 1e-12 * fabs(l0))
                break;
        }
        memcpy(x, xn, (size_t)m * sizeof *x);
        if (!cov && step < 1e-9) {
            rc = 0;
            goto out;
        }
        for (int i = 0; i < m; i++)
            if (fabs(x[i]) > 60)
                goto out; /* diverging: a perfect score with no prior */
    }
out:
    free(L);
    free(g);
    free(d);
    free(xn);
    return rc;
}

/* ---- Plackett-Luce by MM (Hunter 2004) ---- */

static int pl_fit(const Batch *b, const int *weights, const Pairs *q, double prior, double *x)
{
    const int m = q->m;
    double *gam = malloc((size_t)m * sizeof *gam), *wins = calloc((size_t)m, sizeof *wins);
    double *den = malloc((size_t)m * sizeof *den);
    int rc = -1;
    if (!gam || !wins || !den)
        goto out;
    for (int i = 0; i < m; i++)
        gam[i] = exp(x[i]);
    /* choices: each position not in the final tie group */
    for (long k = 0; k < b->nobs; k++) {
        int w = weights ? weights[k] : 1;
        const Obs *o = &b->obs[k];
        if (!w)
            continue;
        int last = o->n - 1;
        while (last > 0 && o->rank[last - 1] == o->rank[o->n - 1])
            last--;
        for (int t = 0; t < last; t++)
            wins[q->idx[o->player[t]]] += w;
    }
    if (prior > 0)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++)
                if (i != j && q->N[i * m + j] > 0) /* N already includes the prior: met pairs */
                    wins[i] += prior / 2;
    for (int it = 0; it < 20000; it++) {
        for (int i = 0; i < m; i++)
            den[i] = 0;
        for (long k = 0; k < b->nobs; k++) {
            int w = weights ? weights[k] : 1;
            const Obs *o = &b->obs[k];
            if (!w)
                continue;
            double suffix[GAME_MAX_SEATS + 1];
            suffix[o->n] = 0;
            for (int t = o->n - 1; t >= 0; t--)
                suffix[t] = suffix[t + 1] + gam[q->idx[o->player[t]]];
            int last = o->n - 1;
            while (last > 0 && o->rank[last - 1] == o->rank[o->n - 1])
                last--;
            for (int t = 0; t < last;) { /* a tie group [t, e) chooses g times from suffix[t] */
                int e = t + 1;
                while (e < last && o->rank[e] == o->rank[t])
                    e++;
                double add = w * (double)(e - t) / suffix[t];
                for (int u = t; u < o->n; u++)
                    den[q->idx[o->player[u]]] += add;
                t = e;
            }
        }
        if (prior > 0)
            for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++)
                    if (i != j && q->N[i * m + j] > 0)
                        den[i] += prior / (gam[i] + gam[j]);
        double change = 0, lsum = 0;
        for (int i = 0; i < m; i++) {
            double ng = wins[i] > 0 ? wins[i] / den[i] : gam[i] * 1e-3;
            double c = fabs(log(ng) - log(gam[i]));
            change = c > change ? c : change;
            gam[i] = ng;
            lsum += log(ng);
        }
        for (int i = 0; i < m; i++) /* geometric mean 1 */
            gam[i] = exp(log(gam[i]) - lsum / m);
        if (change < 1e-10) {
            rc = 0;
            break;
        }
    }
    for (int i = 0; i < m; i++) {
        x[i] = log(gam[i]);
        if (fabs(x[i]) > 60)
            rc = -1;
    }
out:
    free(gam);
    free(wins);
    free(den);
    return rc;
}

/* The cluster-robust covariance of a Bradley-Terry fit (x, natural units; cm the model-based
 * covariance (L + J/m)^-1 - J/m, replaced in place): the ten pairs of a five-player set share
 * one deal sequence and are not independent, so the information matrix alone understates the
 * spread. Sandwich estimator with clusters = observations: cm (sum_o g_o g_o^T) cm, g_o the
 * score residuals of observation o (the prior's pseudo-pairs are fixed, not sampled). */
static int sandwich(const Batch *b, const Pairs *q, const double *x, double *cm)
{
    const int m = q->m;
    double *M = calloc((size_t)m * m, sizeof *M), *T = malloc((size_t)m * m * sizeof *T);
    if (!M || !T) {
        free(M);
        free(T);
        return -1;
    }
    for (long k = 0; k < b->nobs; k++) {
        const Obs *o = &b->obs[k];
        double g[GAME_MAX_SEATS] = {0};
        int ix[GAME_MAX_SEATS];
        for (int i = 0; i < o->n; i++)
            ix[i] = q->idx[o->player[i]];
        for (int i = 0; i < o->n; i++)
            for (int j = i + 1; j < o->n; j++) {
                double sc = o->rank[i] < o->rank[j] ? 1.0 : 0.5; /* sorted: i is not below j */
                double pr = 1.0 / (1.0 + exp(-(x[ix[i]] - x[ix[j]])));
                g[i] += sc - pr;
                g[j] -= sc - pr;
            }
        for (int i = 0; i < o->n; i++)
            for (int j = 0; j < o->n; j++)
                M[(size_t)ix[i] * m + ix[j]] += g[i] * g[j];
    }
    for (int i = 0; i < m; i++) /* T = cm M */
        for (int j = 0; j < m; j++) {
            double t = 0;
            for (int k = 0; k < m; k++)
                t += cm[(size_t)i * m + k] * M[(size_t)k * m + j];
            T[(size_t)i * m + j] = t;
        }
    for (int i = 0; i < m; i++) /* cm = T cm (cm is symmetric) */
        for (int j = 0; j < m; j++) {
            double t = 0;
            for (int k = 0; k < m; k++)
                t += T[(size_t)i * m + k] * cm[(size_t)k * m + j];
            M[(size_t)i * m + j] = t;
        }
    memcpy(cm, M, (size_t)m * m * sizeof *cm);
    free(M);
    free(T);
    return 0;
}

/* One fit on the observations selected by weights; ratings (Elo scale, per player) in out
 * (NAN for absent players); cov (per player, n x n) when asked. */
static int fit_once(MethodId m, const Batch *b, const int *weights, const double *warm, double *out, double *cov,
                    int robust, char *err, size_t errsz, const Results *res)
{
    const RatingParams *p = b->p;
    Pairs q;
    int rc = -1;
    int *group = NULL;
    double *x = NULL, *cm = NULL;
    if (pairs_build(b, weights, &q))
        goto out;
    group = malloc((size_t)(q.m > 0 ? q.m : 1) * sizeof *group);
    x = calloc((size_t)(q.m > 0 ? q.m : 1), sizeof *x);
    if (!group || !x)
        goto out;
    if (q.m < 2) {
        snprintf(err, errsz, "fewer than two players to rate");
        goto out;
    }
    if (pairs_prior_and_groups(&q, p->prior, group) > 1) {
        groups_message(b, &q, group, res, err, errsz);
        goto out;
    }
    if (warm)
        for (int i = 0; i < q.m; i++)
            x[i] = isnan(warm[q.player[i]]) ? 0 : (warm[q.player[i]] - p->init) / ELO_S;
    if (cov && m == M_BT)
        cm = malloc((size_t)q.m * q.m * sizeof *cm);
    int fr = m == M_BT ? bt_fit(&q, x, cm) : pl_fit(b, weights, &q, p->prior, x);
    if (fr) {
        snprintf(err, errsz, "the %s fit does not converge: a player won or lost every comparison (use --prior > 0)",
                 m == M_BT ? "Bradley-Terry" : "Plackett-Luce");
        goto out;
    }
    if (cm && robust && sandwich(b, &q, x, cm)) {
        snprintf(err, errsz, "out of memory");
        goto out;
    }
    /* place: pool mean at init, or the anchor at its value */
    double mean = 0;
    for (int i = 0; i < q.m; i++)
        mean += x[i];
    mean /= q.m;
    double shift = p->init - ELO_S * mean;
    if (p->anchor >= 0 && q.idx[p->anchor] >= 0)
        shift = p->anchor_value - ELO_S * x[q.idx[p->anchor]];
    for (int i = 0; i < b->n; i++)
        out[i] = q.idx[i] >= 0 ? ELO_S * x[q.idx[i]] + shift : NAN;
    if (cov && cm)
        for (int i = 0; i < b->n; i++)
            for (int j = 0; j < b->n; j++)
                cov[(size_t)i * b->n + j] =
                    q.idx[i] >= 0 && q.idx[j] >= 0 ? ELO_S * ELO_S * cm[q.idx[i] * q.m + q.idx[j]] : NAN;
    rc = 0;
out:
    pairs_free(&q);
    free(group);
    free(x);
    free(cm);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int batch_run(MethodId m, const RatingParams *p, const Results *res, MethodResult *out, char *err, size_t errsz)
{
    Batch b = {res->nplayers, 0, NULL, p};
    const int n = res->nplayers;
    int rc = -1;
    int *weights = NULL;
    double *col = NULL;
    if (build_obs(res, &b))
        goto oom;
    if (m == M_BT && !(out->cov = malloc((size_t)n * n * sizeof *out->cov)))
        goto oom;
    for (long k = 0; k < b.nobs; k++)
        out->robust |= b.obs[k].n > 2; /* observations of more than one pair */
    if (fit_once(m, &b, NULL, NULL, out->rating, out->cov, out->robust, err, errsz, res))
        goto out;
    for (long k = 0; k < b.nobs; k++)
        for (int i = 0; i < b.obs[k].n; i++)
            out->count[b.obs[k].player[i]]++;
    if (m == M_BT) /* standard errors, relative to the anchor when there is one */
        for (int i = 0; i < n; i++) {
            double v = out->cov[(size_t)i * n + i];
            if (p->anchor >= 0)
                v += out->cov[(size_t)p->anchor * n + p->anchor] - 2 * out->cov[(size_t)i * n + p->anchor];
            out->unc[i] = isnan(out->rating[i]) ? NAN : sqrt(v > 0 ? v : 0);
        }
    if (p->bootstrap > 0 && b.nobs > 1) {
        weights = malloc((size_t)b.nobs * sizeof *weights);
        out->boot = malloc((size_t)p->bootstrap * n * sizeof *out->boot);
        col = malloc((size_t)p->bootstrap * sizeof *col);
        if (!weights || !out->boot || !col)
            goto oom;
        RRng rng = rrng_seed(p->seed ^ 0xb007ULL);
        char e2[256];
        for (int r = 0; r < p->bootstrap; r++) {
            memset(weights, 0, (size_t)b.nobs * sizeof *weights);
            for (long k = 0; k < b.nobs; k++)
                weights[(long)(rrng_double(&rng) * (double)b.nobs)]++;
            double *row = out->boot + (size_t)out->nboot * n;
            if (fit_once(m, &b, weights, out->rating, row, NULL, 0, e2, sizeof e2, res) == 0)
                out->nboot++; /* replicates that fall apart into groups are skipped */
        }
        double a = (1 - p->confidence) / 2;
        for (int i = 0; i < n; i++) {
            int c = 0;
            double s = 0, s2 = 0;
            for (int r = 0; r < out->nboot; r++) {
                double v = out->boot[(size_t)r * n + i];
                if (!isnan(v)) {
                    col[c++] = v;
                    s += v;
                    s2 += v * v;
                }
            }
            if (c < 2)
                continue;
            qsort(col, (size_t)c, sizeof *col, cmp_double);
            out->lo[i] = col[(int)floor(a * (c - 1))];
            out->hi[i] = col[(int)ceil((1 - a) * (c - 1))];
            if (m == M_PL)
                out->unc[i] = sqrt((s2 - s * s / c) / (c - 1));
        }
    }
    rc = 0;
    goto out;
oom:
    snprintf(err, errsz, "out of memory");
out:
    free(b.obs);
    free(weights);
    free(col);
    return rc;
}

double method_los(const MethodResult *r, int x, int y)
{
    if (r->cov) {
        size_t n = (size_t)r->n;
        double v = r->cov[x * n + x] + r->cov[y * n + y] - 2 * r->cov[x * n + y];
        if (!(v > 0))
            return NAN;
        return gauss_cdf((r->rating[x] - r->rating[y]) / sqrt(v));
    }
    if (r->boot && r->nboot > 0) {
        int c = 0, w = 0;
        for (int k = 0; k < r->nboot; k++) {
            double a = r->boot[(size_t)k * r->n + x], b = r->boot[(size_t)k * r->n + y];
            if (isnan(a) || isnan(b))
                continue;
            c++;
            w += a > b;
        }
        return c ? (double)w / c : NAN;
    }
    return NAN;
}

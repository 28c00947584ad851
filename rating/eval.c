/* eval.c — head-to-head tables and the paper-000 evaluation of ratings. */
#include "rating/eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int h2h_init(H2H *h, int n)
{
    size_t nn = (size_t)(n > 0 ? n : 1) * (size_t)(n > 0 ? n : 1);
    memset(h, 0, sizeof *h);
    h->n = n;
    h->wins = calloc(nn, sizeof *h->wins);
    h->draws = calloc(nn, sizeof *h->draws);
    h->games = calloc(nn, sizeof *h->games);
    h->sets = calloc((size_t)(n > 0 ? n : 1), sizeof *h->sets);
    return h->wins && h->draws && h->games && h->sets ? 0 : -1;
}

/* One meeting of m players: i scored s_ij = score(i, j) against j. */
static void h2h_add(H2H *h, int m, const int *pl, const double *key)
{
    const size_t n = (size_t)h->n;
    for (int i = 0; i < m; i++) {
        h->sets[pl[i]]++;
        for (int j = 0; j < m; j++) {
            if (i == j)
                continue;
            double s = set_score(key[i], key[j]);
            size_t ij = (size_t)pl[i] * n + (size_t)pl[j];
            h->games[ij] += 1;
            h->wins[ij] += s == 1.0;
            h->draws[ij] += s == 0.5;
        }
    }
}

void h2h_add_set(H2H *h, const RSet *s) { h2h_add(h, SET_PLAYERS, s->player, s->points); }

void h2h_add_game(H2H *h, const RGame *g)
{
    double key[GAME_MAX_SEATS]; /* a lower rank scores */
    for (int i = 0; i < g->n; i++)
        key[i] = -g->rank[i];
    h2h_add(h, g->n, g->player, key);
}

int h2h_resize(H2H *h, int n)
{
    H2H t;
    if (h2h_init(&t, n)) {
        h2h_free(&t);
        return -1;
    }
    int m = h->n < n ? h->n : n;
    for (int i = 0; i < m; i++) {
        t.sets[i] = h->sets[i];
        for (int j = 0; j < m; j++) {
            t.wins[(size_t)i * n + j] = h->wins[(size_t)i * h->n + j];
            t.draws[(size_t)i * n + j] = h->draws[(size_t)i * h->n + j];
            t.games[(size_t)i * n + j] = h->games[(size_t)i * h->n + j];
        }
    }
    h2h_free(h);
    *h = t;
    return 0;
}

int h2h_build(const Results *res, H2H *h)
{
    if (h2h_init(h, res->nplayers))
        return -1;
    if (res->nsets > 0)
        for (long k = 0; k < res->nsets; k++)
            h2h_add_set(h, &res->sets[k]);
    else
        for (long k = 0; k < res->ngames; k++)
            h2h_add_game(h, &res->games[k]);
    return 0;
}

void h2h_free(H2H *h)
{
    free(h->wins);
    free(h->draws);
    free(h->games);
    free(h->sets);
    memset(h, 0, sizeof *h);
}

double h2h_rate(const H2H *h, int i, int j)
{
    size_t ij = (size_t)i * h->n + j;
    return h->games[ij] > 0 ? (h->wins[ij] + 0.5 * h->draws[ij]) / h->games[ij] : NAN;
}

double h2h_total_rate(const H2H *h, int i)
{
    double w = 0, g = 0;
    for (int j = 0; j < h->n; j++) {
        size_t ij = (size_t)i * h->n + j;
        w += h->wins[ij] + 0.5 * h->draws[ij];
        g += h->games[ij];
    }
    return g > 0 ? w / g : NAN;
}

double eval_mse(const H2H *h, const MethodResult *r, long *pairs)
{
    double sum = 0;
    long c = 0;
    for (int i = 0; i < h->n; i++)
        for (int j = i + 1; j < h->n; j++) {
            double obs = h2h_rate(h, i, j);
            if (isnan(obs) || isnan(r->rating[i]) || isnan(r->rating[j]))
                continue;
            double d = method_win_prob(r, i, j) - obs;
            sum += d * d;
            c++;
        }
    if (pairs)
        *pairs = c;
    return c ? sum / c : NAN;
}

double eval_transitive_prediction(double wab, double wbc)
{
    double den = 2 * wab * wbc - wab - wbc + 1;
    return den != 0 ? wab * wbc / den : NAN;
}

static int cmp_err(const void *a, const void *b)
{
    const TransErr *x = a, *y = b;
    double ex = fabs(x->pred - x->obs), ey = fabs(y->pred - y->obs);
    return (ex < ey) - (ex > ey);
}

int eval_transitivity(const H2H *h, TransErr *out, int max, long *ntriples, long *over60)
{
    int kept = 0;
    long total = 0, big = 0;
    for (int a = 0; a < h->n; a++)
        for (int b = 0; b < h->n; b++) {
            if (b == a)
                continue;
            double wab = h2h_rate(h, a, b);
            if (isnan(wab))
                continue;
            for (int c = 0; c < h->n; c++) {
                if (c == a || c == b)
                    continue;
                double wbc = h2h_rate(h, b, c), wac = h2h_rate(h, a, c);
                if (isnan(wbc) || isnan(wac))
                    continue;
                double pred = eval_transitive_prediction(wab, wbc);
                if (isnan(pred))
                    continue;
                total++;
                big += fabs(pred - wac) >= 0.6 - 1e-12; /* "60 points or more" (paper 000 §5) */
                TransErr e = {a, b, c, pred, wac};
                if (kept < max) {
                    out[kept++] = e;
                    qsort(out, (size_t)kept, sizeof *out, cmp_err);
                } else if (max > 0 && fabs(pred - wac) > fabs(out[max - 1].pred - out[max - 1].obs)) {
                    out[max - 1] = e;
                    qsort(out, (size_t)kept, sizeof *out, cmp_err);
                }
            }
        }
    if (ntriples)
        *ntriples = total;
    if (over60)
        *over60 = big;
    return kept;
}

int eval_cycles(const H2H *h, int (*out)[3], int max, long *total)
{
    int kept = 0;
    long c = 0;
    for (int a = 0; a < h->n; a++)
        for (int b = a + 1; b < h->n; b++)
            for (int d = a + 1; d < h->n; d++) {
                if (d == b)
                    continue;
                /* a -> b -> d -> a, with a the smallest index: each cycle found once */
                double ab = h2h_rate(h, a, b), bd = h2h_rate(h, b, d), da = h2h_rate(h, d, a);
                if (ab > 0.5 && bd > 0.5 && da > 0.5) {
                    c++;
                    if (kept < max) {
                        out[kept][0] = a;
                        out[kept][1] = b;
                        out[kept][2] = d;
                        kept++;
                    }
                }
            }
    if (total)
        *total = c;
    return kept;
}

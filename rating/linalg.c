/* linalg.c — LU factorisation with partial pivoting, and what is built on it. */
#include "rating/linalg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Factorises a in place (unit-lower L below the diagonal, U on and above); piv[i] is the
 * original row now at i. Returns the determinant, 0 when singular. */
static double lu(int m, double *a, int *piv)
{
    double det = 1;
    for (int i = 0; i < m; i++)
        piv[i] = i;
    for (int c = 0; c < m; c++) {
        int best = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(a[r * m + c]) > fabs(a[best * m + c]))
                best = r;
        if (fabs(a[best * m + c]) < 1e-300)
            return 0;
        if (best != c) {
            for (int j = 0; j < m; j++) {
                double t = a[c * m + j];
                a[c * m + j] = a[best * m + j];
                a[best * m + j] = t;
            }
            int t = piv[c];
            piv[c] = piv[best];
            piv[best] = t;
            det = -det;
        }
        det *= a[c * m + c];
        for (int r = c + 1; r < m; r++) {
            double f = a[r * m + c] /= a[c * m + c];
            for (int j = c + 1; j < m; j++)
                a[r * m + j] -= f * a[c * m + j];
        }
    }
    return det;
}

/* Solves with the factorisation; b (original row order) is overwritten by x. */
static void lu_solve(int m, const double *a, const int *piv, double *b, double *tmp)
{
    for (int i = 0; i < m; i++)
        tmp[i] = b[piv[i]];
    for (int i = 0; i < m; i++)
        for (int j = 0; j < i; j++)
            tmp[i] -= a[i * m + j] * tmp[j];
    for (int i = m - 1; i >= 0; i--) {
        for (int j = i + 1; j < m; j++)
            tmp[i] -= a[i * m + j] * tmp[j];
        tmp[i] /= a[i * m + i];
    }
    memcpy(b, tmp, (size_t)m * sizeof *b);
}

double linalg_solve(int m, double *a, double *b)
{
    int *piv = malloc((size_t)m * sizeof *piv);
    double *tmp = malloc((size_t)m * sizeof *tmp);
    double det = 0;
    if (piv && tmp && (det = lu(m, a, piv)) != 0)
        lu_solve(m, a, piv, b, tmp);
    free(piv);
    free(tmp);
    return det;
}

int linalg_invert(int m, double *a)
{
    int *piv = malloc((size_t)m * sizeof *piv);
    double *f = malloc((size_t)m * m * sizeof *f), *col = malloc((size_t)m * sizeof *col);
    double *tmp = malloc((size_t)m * sizeof *tmp);
    int rc = -1;
    if (piv && f && col && tmp) {
        memcpy(f, a, (size_t)m * m * sizeof *f);
        if (lu(m, f, piv) != 0) {
            for (int c = 0; c < m; c++) {
                for (int r = 0; r < m; r++)
                    col[r] = r == c;
                lu_solve(m, f, piv, col, tmp);
                for (int r = 0; r < m; r++)
                    a[r * m + c] = col[r];
            }
            rc = 0;
        }
    }
    free(piv);
    free(f);
    free(col);
    free(tmp);
    return rc;
}

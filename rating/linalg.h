/* linalg.h — the small dense linear algebra rating/ needs: LU with partial pivoting for a
 * determinant and a solve (TrueSkill's match quality) and an inverse (Bradley-Terry). Matrices
 * are row major, m x m, owned by the caller. */
#ifndef DHM_LINALG_H
#define DHM_LINALG_H

/* Solves a x = b in place (x left in b; a destroyed). Returns det(a), 0 when singular. */
double linalg_solve(int m, double *a, double *b);
/* Replaces a by its inverse. Returns 0, or -1 when singular or out of memory. */
int linalg_invert(int m, double *a);

#endif

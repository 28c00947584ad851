/* mark_noise.c — how large a loss the evaluator's noise alone gives, the measurement behind the
 * thresholds of `dhm view --analyze`'s marks (docs/analysis.md). Every play with at least two
 * choices of the first N games of a kifu file is valued twice, as dhm view values it
 * (analysis/judge.h), with two independent seeds A and B; the "noise loss" is what the move best
 * under B loses under A. A truly best move would lose nothing; what it loses is what the worlds
 * alone make of it. Prints its distribution and the share at or above each threshold.
 *
 *   make && cc -O2 -std=c11 -D_DEFAULT_SOURCE -I. tools/mark_noise.c build/libdhm.a \
 *       -lsqlite3 -lpthread -lm -o build/mark_noise
 *   build/mark_noise FILE.kifu [WORLDS=100] [GAMES=20] [EVALUATOR=mc]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/games.h"
#include "analysis/judge.h"
#include "players/players.h"

typedef struct Noise {
    Player *ev;
    int worlds;
    long games, index;
    double *loss;
    long n, cap;
} Noise;

static int one(void *ctx, const Decision *d)
{
    Noise *z = ctx;
    static Judged a, b;
    if (d->exchange)
        return 0;
    if (judge_values(z->ev, d, z->index, 1, z->worlds, &a) || judge_values(z->ev, d, z->index, 2, z->worlds, &b))
        return -1;
    if (a.n < 2 || a.chosen < 0)
        return 0;
    if (z->n == z->cap) {
        z->cap = z->cap ? 2 * z->cap : 1024;
        z->loss = realloc(z->loss, (size_t)z->cap * sizeof *z->loss);
        if (!z->loss)
            return -1;
    }
    z->loss[z->n++] = a.q[a.best] - a.q[b.best];
    return 0;
}

static int game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    Noise *z = ctx;
    (void)names;
    if (index >= z->games)
        return 1;
    z->index = index;
    return decisions_each(rec, one, z);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: mark_noise FILE.kifu [WORLDS=100] [GAMES=20] [EVALUATOR=mc]\n");
        return 2;
    }
    char err[512];
    Noise z;
    memset(&z, 0, sizeof z);
    z.worlds = argc > 2 ? atoi(argv[2]) : 100;
    z.games = argc > 3 ? atol(argv[3]) : 20;
    if (player_create(argc > 4 ? argv[4] : "mc", 0, &z.ev, err, sizeof err)) {
        fprintf(stderr, "mark_noise: %s\n", err);
        return 2;
    }
    const char *files[1] = {argv[1]};
    GameSource src = {files, 1, NULL, 0, 0};
    if (games_each(&src, game, &z, err, sizeof err) < 0 || !z.n) {
        fprintf(stderr, "mark_noise: %s\n", z.n ? err : "no decision with two choices");
        return 1;
    }
    qsort(z.loss, (size_t)z.n, sizeof *z.loss, cmp);
    printf("%ld plays with two choices or more, %d worlds: noise loss median %.4f, 95%% %.4f, 99%% %.4f, largest %.4f\n",
           z.n, z.worlds, z.loss[z.n / 2], z.loss[z.n * 95 / 100], z.loss[z.n * 99 / 100], z.loss[z.n - 1]);
    static const double T[3] = {0.04, 0.08, 0.16};
    for (int t = 0; t < 3; t++) {
        long k = 0;
        for (long i = 0; i < z.n; i++)
            k += z.loss[i] >= T[t] - 1e-12;
        printf("share with a noise loss >= %.2f: %.4f (%ld)\n", T[t], (double)k / (double)z.n, k);
    }
    player_destroy(z.ev);
    free(z.loss);
    return 0;
}

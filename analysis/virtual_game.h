/* virtual_game.h — the virtual two-player game of paper 002 §4: does hand correction recover
 * the true rating when initial positions are unequal?
 *
 * Two players with true ratings 1700 and 1300 (400 apart, mean 1500). Each game draws an
 * initial-position win rate p for the strong player (none: 0.5; gauss: N(0.5, 0.25) redrawn
 * until inside (0, 1); binary: 0.1 or 0.9), and the strong player wins with probability
 * f(p) = 1/(1 + 10^-((1700-1300)/400 + log(p/(1-p)))). Each set starts both players at 1500 and
 * rates its games one by one (K = 16) by plain Elo, by the corrected method with the true p,
 * and by the corrected method with p + N(0, noise) (clamped into [0.001, 0.999]).
 * The result is the strong player's rating after each set.
 */
#ifndef DHM_VIRTUAL_GAME_H
#define DHM_VIRTUAL_GAME_H

#include <stdint.h>

enum { VG_NONE, VG_GAUSS, VG_BINARY, VG_NDIST };
enum { VG_PLAIN, VG_CORRECTED, VG_NOISY, VG_NMETHOD };

typedef struct VgConfig {
    int sets, games;
    double k, noise;
    int natural_log; /* log in f: ln (what reproduces the paper's figures) or log10 (its formula) */
    uint64_t seed;
} VgConfig;

/* Runs one distribution: final[m][s] = the strong player's rating after set s by method m
 * (arrays of cfg->sets doubles, allocated by the caller). */
void vg_run(const VgConfig *cfg, int dist, double *final[VG_NMETHOD]);

const char *vg_dist_name(int d);
const char *vg_method_name(int m);

#endif

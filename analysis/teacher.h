/* teacher.h — decisions labelled by a search: self-play games of the policy in which every
 * decision with a choice (plays, and the gifts of the daifugo and the fugo) is valued by a
 * Monte Carlo teacher from the decider's information set (mc_action_values: every candidate
 * simulated in the same sampled worlds), and the candidates' values become target
 * probabilities softmax(value / tau) for `dhm train policy` (expert iteration: the policy is
 * fitted to what the search makes of its own positions). Deterministic for the seed, whatever
 * the number of threads (each game has its own streams; games are appended in order).
 */
#ifndef DHM_TEACHER_H
#define DHM_TEACHER_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/train.h"

typedef struct TeacherOpts {
    long games;          /* self-play games (each one game with random seats and classes) */
    const char *teacher; /* the mc player spec whose values are the targets ("mc") */
    int worlds;          /* worlds per decision (64) */
    double tau;          /* the targets' temperature over the values, in reward units (0.05) */
    double temp;         /* the students' sampling temperature in the games (1) */
    double holdout;      /* share of games held out (0.1) */
    uint64_t seed;
    int jobs;
    void (*progress)(void *ctx, long games, long total);
    void *progress_ctx;
} TeacherOpts;

void teacher_opts_default(TeacherOpts *o);
/* Plays o->games games among five students moving by w (at o->temp) and adds every decision
 * with a choice, valued by the teacher, to d. 0, or -1 with the reason in err. */
int teacher_data(TrainData *d, const PolicyWeights *w, const TeacherOpts *o, char *err, size_t errsz);

#endif

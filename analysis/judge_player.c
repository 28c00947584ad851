/* judge_player.c — the error-rate evaluator playing by its own values (see judge_player.h). */
#include "analysis/judge_player.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/judge.h"
#include "analysis/runner.h"
#include "analysis/stats.h"
#include "players/mc.h"
#include "players/players.h"

typedef struct Judge {
    Player *mc; /* the evaluator, owned */
    int worlds;
    Rng rng;
    Judged jd; /* the last decision's values (scratch) */
} Judge;

static Move judge_play(Player *self, const InfoSet *v)
{
    Judge *j = self->impl;
    Judged *jd = &j->jd;
    if (judge_best(j->mc, v, 0, &j->rng, j->worlds, jd) || jd->best < 0)
        return jd->n > 0 ? jd->mv[0] : move_pass();
    return jd->mv[jd->best];
}

static Cards judge_exchange(Player *self, const InfoSet *v, int ncards)
{
    Judge *j = self->impl;
    Judged *jd = &j->jd;
    if (judge_best(j->mc, v, ncards, &j->rng, j->worlds, jd) || jd->best < 0)
        return jd->n > 0 ? jd->gifts[0] : 0;
    return jd->gifts[jd->best];
}

static void judge_game_start(Player *self, const InfoSet *v)
{
    Judge *j = self->impl;
    if (j->mc->game_start)
        j->mc->game_start(j->mc, v);
}

static void judge_observe(Player *self, const InfoSet *v, int who, Move m)
{
    Judge *j = self->impl;
    if (j->mc->observe)
        j->mc->observe(j->mc, v, who, m);
}

static void judge_game_end(Player *self, const InfoSet *v, const int cls[NPLAYERS])
{
    Judge *j = self->impl;
    if (j->mc->game_end)
        j->mc->game_end(j->mc, v, cls);
}

static void judge_destroy(Player *self)
{
    Judge *j = self->impl;
    if (j)
        player_destroy(j->mc);
    free(j);
    self->impl = NULL;
}

int judge_player_create(const char *evaluator, int worlds, uint64_t seed, Player **out, char *err, size_t errsz)
{
    *out = NULL;
    Player *mc, *p;
    if (player_create(evaluator, seed, &mc, err, errsz))
        return -1;
    if (!mc_is(mc) || mc->reads_hidden) {
        player_destroy(mc);
        return snprintf(err, errsz, "the evaluator must be an mc or search player that reads no hidden cards, not '%s'",
                        evaluator), -1;
    }
    Judge *j = calloc(1, sizeof *j);
    p = calloc(1, sizeof *p);
    if (!j || !p) {
        free(j);
        free(p);
        player_destroy(mc);
        return snprintf(err, errsz, "out of memory"), -1;
    }
    *j = (Judge){.mc = mc, .worlds = worlds, .rng = rng_seed(rng_derive(seed, 0x6a756467 /* "judg" */, 0))};
    p->kind = "judge";
    snprintf(p->name, sizeof p->name, "judge(%.20s)", evaluator);
    p->impl = j;
    p->play = judge_play;
    p->exchange = judge_exchange;
    p->game_start = judge_game_start;
    p->observe = judge_observe;
    p->game_end = judge_game_end;
    p->destroy = judge_destroy;
    *out = p;
    return 0;
}

/* ---- the margin: the judge against four copies of one player ---- */

typedef struct MarginArgs {
    const char *evaluator;
    int worlds;
} MarginArgs;

static int margin_create(MatchJob *job, int seat, uint64_t seed, Player **out, char *err, size_t errsz)
{
    const MarginArgs *a = job->ctx;
    if (seat == 0)
        return judge_player_create(a->evaluator, a->worlds, seed, out, err, errsz);
    return player_create(job->spec[seat], seed, out, err, errsz);
}

int judge_margin(const char *evaluator, int worlds, const char *opponent, int matches, int games, uint64_t seed,
                 int jobs, void (*progress)(void *ctx, long done, long total), void *ctx, JudgeMargin *out, char *err,
                 size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (matches < 2 || games < 1)
        return snprintf(err, errsz, "the margin needs at least 2 matches of 1 game"), -1;
    Player *probe;
    if (judge_player_create(evaluator, worlds, 1, &probe, err, errsz))
        return -1;
    player_destroy(probe);
    if (player_create(opponent, 1, &probe, err, errsz))
        return -1;
    player_destroy(probe);
    MatchJob *job = calloc((size_t)matches, sizeof *job);
    if (!job)
        return snprintf(err, errsz, "out of memory"), -1;
    MarginArgs a = {evaluator, worlds};
    for (int m = 0; m < matches; m++) {
        snprintf(job[m].spec[0], sizeof job[m].spec[0], "judge");
        for (int p = 1; p < NPLAYERS; p++)
            snprintf(job[m].spec[p], sizeof job[m].spec[p], "%s", opponent);
        match_config_default(&job[m].cfg);
        job[m].cfg.games = games;
        job[m].cfg.seed = rng_derive(seed, 0x6d617267 /* "marg" */, (uint64_t)m);
        job[m].create = margin_create;
        job[m].ctx = &a;
    }
    if (run_matches(job, matches, jobs, progress, ctx)) {
        for (int m = 0; m < matches; m++)
            if (job[m].failed) {
                snprintf(err, errsz, "%s", job[m].err);
                break;
            }
        free(job);
        return -1;
    }
    double s = 0, s2 = 0, o = 0;
    for (int m = 0; m < matches; m++) {
        double x = (double)job[m].res.points[0] / job[m].res.games;
        s += x;
        s2 += x * x;
        for (int p = 1; p < NPLAYERS; p++)
            o += (double)job[m].res.points[p] / job[m].res.games / 4;
    }
    out->matches = matches;
    out->games = games;
    out->ppg = s / matches;
    out->opp_ppg = o / matches;
    double var = (s2 - matches * out->ppg * out->ppg) / (matches - 1);
    out->se = sqrt(var > 0 ? var / matches : 0);
    out->p_one = out->se > 0 ? student_t_p1((out->ppg - 3) / out->se, matches - 1) : (out->ppg > 3 ? 0 : 1);
    free(job);
    return 0;
}

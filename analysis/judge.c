/* judge.c — valuing every choice of one decision (see judge.h). */
#include "analysis/judge.h"

#include "players/mc.h"
#include "players/policy.h"

/* j->q valued for j->n >= 2 choices in worlds drawn from wseed, and j->best. Returns 0 or -1. */
static int value_choices(Player *evaluator, const InfoSet *v, int exchange, uint64_t wseed, int worlds, Judged *j)
{
    int rc = exchange ? mc_gift_values(evaluator, v, j->gifts, j->n, worlds, wseed, j->q)
                      : mc_action_values(evaluator, v, j->mv, j->n, worlds, wseed, j->q);
    if (rc)
        return -1;
    j->best = 0;
    for (int i = 1; i < j->n; i++)
        if (j->q[i] > j->q[j->best])
            j->best = i;
    return 0;
}

int judge_values(Player *evaluator, const Decision *d, long index, uint64_t seed, int worlds, Judged *j)
{
    const InfoSet *v = d->v;
    j->chosen = j->best = -1;
    if (d->exchange) {
        j->n = policy_gifts(v->hand, d->ncards, j->gifts);
        for (int i = 0; i < j->n; i++)
            if (j->gifts[i] == d->given)
                j->chosen = i;
        if (j->n < 2 || j->chosen < 0)
            return 0;
        return value_choices(evaluator, v, 1, rng_derive(seed, (uint64_t)index, v->cls[v->me] == 0), worlds, j);
    }
    j->n = movegen(v->hand, v->table, v->rev, v->lock, j->mv);
    for (int i = 0; i < j->n; i++)
        if (move_eq(j->mv[i], d->played))
            j->chosen = i;
    if (j->chosen < 0 && movegen_is_legal(v->hand, v->table, v->rev, v->lock, d->played))
        j->mv[j->chosen = j->n++] = d->played; /* legal but not generated (a pass on the lead, a joker for a held card) */
    if (j->n < 2 || j->chosen < 0)
        return 0;
    return value_choices(evaluator, v, 0, rng_derive(seed, (uint64_t)index, (uint64_t)d->ply + 2), worlds, j);
}

int judge_best(Player *evaluator, const InfoSet *v, int ncards, Rng *rng, int worlds, Judged *j)
{
    j->chosen = -1;
    j->n = ncards > 0 ? policy_gifts(v->hand, ncards, j->gifts) : movegen(v->hand, v->table, v->rev, v->lock, j->mv);
    j->best = j->n > 0 ? 0 : -1;
    if (j->n < 2)
        return 0;
    return value_choices(evaluator, v, ncards > 0, rng_next(rng), worlds, j);
}

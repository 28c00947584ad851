/* judge.c — valuing every choice of one decision (see judge.h). */
#include "analysis/judge.h"

#include "players/mc.h"
#include "players/policy.h"

int judge_values(Player *evaluator, const Decision *d, long index, uint64_t seed, int worlds, Judged *j)
{
    const InfoSet *v = d->v;
    int rc;
    j->chosen = j->best = -1;
    if (d->exchange) {
        j->n = policy_gifts(v->hand, d->ncards, j->gifts);
        for (int i = 0; i < j->n; i++)
            if (j->gifts[i] == d->given)
                j->chosen = i;
        if (j->n < 2 || j->chosen < 0)
            return 0;
        rc = mc_gift_values(evaluator, v, j->gifts, j->n, worlds, rng_derive(seed, (uint64_t)index, v->cls[v->me] == 0),
                            j->q);
    } else {
        j->n = movegen(v->hand, v->table, v->rev, v->lock, j->mv);
        for (int i = 0; i < j->n; i++)
            if (move_eq(j->mv[i], d->played))
                j->chosen = i;
        if (j->chosen < 0 && movegen_is_legal(v->hand, v->table, v->rev, v->lock, d->played))
            j->mv[j->chosen = j->n++] = d->played; /* legal but not generated (a pass on the lead, a joker for a held card) */
        if (j->n < 2 || j->chosen < 0)
            return 0;
        rc = mc_action_values(evaluator, v, j->mv, j->n, worlds,
                              rng_derive(seed, (uint64_t)index, (uint64_t)d->ply + 2), j->q);
    }
    if (rc)
        return -1;
    j->best = 0;
    for (int i = 1; i < j->n; i++)
        if (j->q[i] > j->q[j->best])
            j->best = i;
    return 0;
}

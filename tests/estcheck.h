/* estcheck.h — checks shared by the estimation tests (test_estimate.c, test_estnet.c,
 * test_estseq.c): what a view knows for certain, and a learned sampler's chances. */
#ifndef DHM_TESTS_ESTCHECK_H
#define DHM_TESTS_ESTCHECK_H

#include "testutil.h"

#include "players/estimate.h"

/* What v's player knows for certain, with the card counts now. */
static inline void known_now(const InfoSet *v, int count[NPLAYERS], EstKnown *k)
{
    for (int p = 0; p < NPLAYERS; p++)
        count[p] = v->ncards[p];
    assert_int_equal(est_known(v, count, k), 0);
}

/* Prepares a sampler of o (est=net, with or without seq=1) for v and checks its chances: for
 * every card to deal, a distribution over the holders allowed (never me, a full hand or a
 * forbidden holder). Returns the number of cards checked. */
static inline long check_chances(const EstOptions *o, const InfoSet *v)
{
    int count[NPLAYERS];
    EstKnown k;
    known_now(v, count, &k);
    EstSampler s;
    est_sampler_init(&s, o);
    Rng r = rng_seed(5);
    est_prepare(&s, o, v, &k, &r);
    long checked = 0;
    for (Cards x = k.deal; x; x &= x - 1) {
        const int c = cards_lowest_bit(x);
        double sum = 0;
        for (int p = 0; p < NPLAYERS; p++) {
            const double pr = s.prob[c][p];
            assert_true(pr >= 0 && pr <= 1);
            if (p == v->me || k.room[p] <= 0 || ((k.forbid[p] >> c) & 1))
                assert_true(pr == 0);
            sum += pr;
        }
        NEAR(sum, 1, 1e-5);
        checked++;
    }
    est_sampler_free(&s);
    return checked;
}

#endif

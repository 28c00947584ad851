/* random.c — the `random` player: uniform among the generated legal moves (the pass included
 * when following), random exchange cards. Its RNG stream comes from the seed it is given. */
#include <stdlib.h>

#include "players/players.h"

typedef struct RandomImpl {
    Rng rng;
    Move moves[MOVEGEN_MAX];
} RandomImpl;

static Move random_play(Player *self, const InfoSet *v)
{
    RandomImpl *r = self->impl;
    int n = movegen(v->hand, v->table, v->rev, v->lock, r->moves);
    if (n == 0)
        return move_pass();
    return r->moves[rng_below(&r->rng, (uint32_t)n)];
}

static Cards random_exchange(Player *self, const InfoSet *v, int n)
{
    RandomImpl *r = self->impl;
    Cards left = v->hand, give = 0;
    for (int i = 0; i < n && left; i++) {
        int b = rng_pick_bit(&r->rng, left);
        give |= 1ULL << b;
        left &= ~(1ULL << b);
    }
    return give;
}

static void random_destroy(Player *self) { free(self->impl); }

int random_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    if (spec_check_unused(s, "", err, errsz))
        return -1;
    RandomImpl *r = malloc(sizeof *r);
    if (!r)
        return -1;
    r->rng = rng_seed(seed);
    p->impl = r;
    p->play = random_play;
    p->exchange = random_exchange;
    p->destroy = random_destroy;
    return 0;
}

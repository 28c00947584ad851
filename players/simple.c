/* simple.c — the `simple` player, in the spirit of the organisers' sample client:
 *  - leading: the weakest meld, taking as many cards of that rank as one meld allows
 *    (a sequence or group before a single of the same lowest card), without the joker
 *    whenever a natural meld exists;
 *  - following: the weakest meld that beats the table, natural before joker; otherwise pass;
 *  - exchange: give away the weakest cards.
 * "Weakest" follows revolution. Deterministic: it uses no randomness.
 */
#include <stdlib.h>

#include "players/players.h"

typedef struct SimpleImpl {
    Move moves[MOVEGEN_MAX];
} SimpleImpl;

static Move simple_play(Player *self, const InfoSet *v)
{
    SimpleImpl *s = self->impl;
    int n = movegen(v->hand, v->table, v->rev, v->lock, s->moves);
    return simple_choose(s->moves, n, v->rev);
}

static Cards simple_exchange(Player *self, const InfoSet *v, int n)
{
    (void)self;
    return cards_weakest(v->hand, n);
}

static void simple_destroy(Player *self) { free(self->impl); }

int simple_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    (void)seed;
    if (spec_check_unused(s, "", err, errsz))
        return -1;
    SimpleImpl *impl = malloc(sizeof *impl);
    if (!impl)
        return -1;
    p->impl = impl;
    p->play = simple_play;
    p->exchange = simple_exchange;
    p->destroy = simple_destroy;
    return 0;
}

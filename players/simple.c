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

/* Lower key = preferred: joker use last, then weakest lowest card, then more cards. */
static long simple_key(Move m, int rev)
{
    int strength = m.type == MOVE_JOKER ? 20 : col_strength(rev ? move_high(m) : m.low, rev);
    return (long)move_uses_joker(m) * 100000 + strength * 100 + (20 - m.n);
}

static Move simple_play(Player *self, const InfoSet *v)
{
    SimpleImpl *s = self->impl;
    int n = movegen(v->hand, v->table, v->rev, v->lock, s->moves);
    Move best = move_pass();
    long best_key = 0;
    for (int i = 0; i < n; i++) {
        Move m = s->moves[i];
        if (m.type == MOVE_PASS)
            continue;
        long k = simple_key(m, v->rev);
        if (best.type == MOVE_PASS || k < best_key) {
            best = m;
            best_key = k;
        }
    }
    return best;
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

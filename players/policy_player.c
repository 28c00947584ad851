/* policy_player.c — the `policy` player: the learned policy alone, no search. Plays the move
 * the policy ranks first (temp=0, the default) or draws from its softmax at temp=T; gives the
 * gift the exchange model ranks first (or draws). Options: weights=FILE (default: the built-in
 * weights), temp=T. Reads only its InfoSet; its RNG stream comes from its seed. */
#include <stdlib.h>

#include "players/players.h"
#include "players/policy.h"

typedef struct PolicyPlayer {
    PolicyWeights w;
    double temp;
    Rng rng;
    Move moves[MOVEGEN_MAX];
} PolicyPlayer;

static Move pp_play(Player *self, const InfoSet *v)
{
    PolicyPlayer *p = self->impl;
    int n = movegen(v->hand, v->table, v->rev, v->lock, p->moves);
    if (n <= 1)
        return n ? p->moves[0] : move_pass();
    PolicyCtx c;
    policy_ctx_info(&c, v);
    return p->moves[policy_pick(&p->w, &c, p->moves, n, p->temp, &p->rng)];
}

static Cards pp_exchange(Player *self, const InfoSet *v, int n)
{
    PolicyPlayer *p = self->impl;
    return policy_pick_gift(&p->w, v->hand, n, p->temp, &p->rng);
}

static void pp_destroy(Player *self) { free(self->impl); }

/* The weights a spec names (weights=FILE) or the built-in ones; shared by policy and mc. */
int policy_weights_option(PlayerSpec *s, PolicyWeights *w, char *err, size_t errsz)
{
    const char *path = spec_get_str(s, "weights", NULL);
    if (path) {
        char e[400];
        if (policy_load(path, w, e, sizeof e)) {
            snprintf(err, errsz, "%s: weights=%s: %s", s->kind, path, e);
            return -1;
        }
        return 0;
    }
    char e[300];
    const PolicyWeights *b = policy_builtin(e, sizeof e);
    if (!b) {
        snprintf(err, errsz, "%s: %s", s->kind, e);
        return -1;
    }
    *w = *b;
    return 0;
}

int policy_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    PolicyPlayer *pp = malloc(sizeof *pp);
    if (!pp) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (policy_weights_option(s, &pp->w, err, errsz) ||
        spec_get_double(s, "temp", 0, 100, 0, &pp->temp, err, errsz) ||
        spec_check_unused(s, "weights, temp", err, errsz)) {
        free(pp);
        return -1;
    }
    pp->rng = rng_seed(seed);
    p->impl = pp;
    p->play = pp_play;
    p->exchange = pp_exchange;
    p->destroy = pp_destroy;
    return 0;
}

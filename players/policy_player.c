/* policy_player.c — the `policy` player: the learned policy, no sampling of hidden hands. Plays
 * the move the policy ranks first (temp=0, the default) or draws from its softmax at temp=T;
 * gives the gift the exchange model ranks first (or draws). Two exact shortcuts come first
 * (both read only what the player sees): surewin=1 (default) plays a chain of melds nobody can
 * break when there is one (endgame_sure_win), and endgame=N (default 0: off) solves the
 * two-player ending exactly within N nodes, where the last opponent's hand is every unseen
 * card. Options: weights=FILE (default: the built-in weights), temp=T, surewin=0|1, endgame=N.
 * Reads only its InfoSet; its RNG stream comes from its seed. */
#include <stdlib.h>

#include "players/endgame.h"
#include "players/estimate.h"
#include "players/players.h"
#include "players/policy.h"

typedef struct PolicyPlayer {
    PolicyWeights w;
    double temp;
    long surewin, endgame;
    EndgameTT tt; /* only with endgame > 0 */
    Rng rng;
    Move moves[MOVEGEN_MAX];
} PolicyPlayer;

static Move pp_play(Player *self, const InfoSet *v)
{
    PolicyPlayer *p = self->impl;
    int n = movegen(v->hand, v->table, v->rev, v->lock, p->moves);
    if (n <= 1)
        return n ? p->moves[0] : move_pass();
    Move m;
    if (p->surewin && endgame_sure_win(v->hand, v->table, v->rev, v->lock, CARDS_ALL & ~v->hand & ~v->played, &m))
        return m;
    if (p->endgame > 0 && v->nout == NPLAYERS - 2) { /* one opponent left: it holds every unseen card */
        Cards hand[NPLAYERS];
        int count[NPLAYERS];
        for (int q = 0; q < NPLAYERS; q++)
            count[q] = v->ncards[q];
        Rng r = p->rng; /* the only world there is: any draw gives it */
        GameState g;
        if (est_sample_hands(v, count, &r, hand) == 0) {
            infoset_to_state(v, hand, &g);
            if (endgame_solve2(&g, p->endgame, &p->tt, &m, NULL) == 1)
                return m;
        }
    }
    PolicyCtx c;
    policy_ctx_info(&c, v);
    return p->moves[policy_pick(&p->w, &c, p->moves, n, p->temp, &p->rng)];
}

static Cards pp_exchange(Player *self, const InfoSet *v, int n)
{
    PolicyPlayer *p = self->impl;
    return policy_pick_gift(&p->w, v->hand, n, p->temp, &p->rng);
}

static void pp_destroy(Player *self)
{
    PolicyPlayer *p = self->impl;
    endgame_tt_free(&p->tt);
    free(p);
}

int policy_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    PolicyPlayer *pp = calloc(1, sizeof *pp);
    if (!pp) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (policy_weights_option(s, &pp->w, err, errsz) ||
        spec_get_double(s, "temp", 0, 100, 0, &pp->temp, err, errsz) ||
        spec_get_int(s, "surewin", 0, 1, 1, &pp->surewin, err, errsz) ||
        spec_get_int(s, "endgame", 0, 100000000, 0, &pp->endgame, err, errsz) ||
        spec_check_unused(s, "weights, temp, surewin, endgame", err, errsz)) {
        free(pp);
        return -1;
    }
    if (pp->endgame > 0 && endgame_tt_init(&pp->tt, ENDGAME_TT_BITS)) {
        snprintf(err, errsz, "out of memory");
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

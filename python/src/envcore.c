/* envcore.c — a game stepped one decision at a time (see envcore.h); the order of every
 * step follows game_play in game/game.c. */
#include "envcore.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "obs.h"
#include "players/mc.h"
#include "players/policy.h"

void env_init(DhmEnv *e, int single, int games, int seat_change, int class_reset, uint64_t seed)
{
    memset(e, 0, offsetof(DhmEnv, rec));
    e->single = single;
    match_config_default(&e->cfg);
    e->cfg.games = single ? 1 : games;
    e->cfg.seat_change = seat_change;
    e->cfg.class_reset = class_reset;
    e->base_seed = seed;
    e->episode = -1;
    e->last_serial = -1;
    e->m.phase = GAME_OVER;
}

/* The legal actions of the decision the machine waits for. */
static void legal_now(DhmEnv *e)
{
    GameMachine *m = &e->m;
    e->nlegal = 0;
    if (m->phase == GAME_PLAY) {
        Move mv[MOVEGEN_MAX];
        const int n = state_moves(&m->g, mv);
        for (int i = 0; i < n; i++)
            e->legal[i] = (uint16_t)action_of_generated(mv[i]);
        e->nlegal = n;
    } else if (m->phase == GAME_EXCHANGE) {
        const Cards h = m->hand[m->actor];
        for (Cards x = h; x; x &= x - 1) {
            const Cards a = x & -x;
            if (m->give_n == 1)
                e->legal[e->nlegal++] = (uint16_t)action_of_give(a);
            else
                for (Cards y = x & (x - 1); y; y &= y - 1)
                    e->legal[e->nlegal++] = (uint16_t)action_of_give(a | (y & -y));
        }
    }
}

static int advance(DhmEnv *e, float reward[NPLAYERS]);

/* The setup of game e->game in the schedule (match_run's order of RNG use), and the game
 * started up to its first decision. */
static void start_game(DhmEnv *e)
{
    GameSetup prev = e->su;
    Rng rng = match_game_rng(e->cfg.seed, e->game);
    match_setup_game(&e->cfg, e->game, e->have_prev ? &prev : NULL, e->have_prev ? &e->rec : NULL, &rng, &e->su);
    if (e->given) {
        memcpy(e->su.seat, e->deal_seat, sizeof e->su.seat);
        memcpy(e->su.cls, e->deal_cls, sizeof e->su.cls);
        e->su.deal = e->deal;
        for (int p = 0; p < NPLAYERS; p++)
            if (e->deal_cls[p] == 0)
                e->su.dealer = p;
        e->given = 0;
    }
    game_begin(&e->m, e->pl, &e->su, &rng, NULL, &e->rec);
    memcpy(e->start_view, e->m.view, sizeof e->start_view);
    e->serial++;
}

static int check_deal(const EnvDeal *d, char *err, size_t errsz)
{
    Cards all = 0;
    int seats = 0, cls = 0, none = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        if ((d->hand[p] & all) || (d->hand[p] & ~CARDS_ALL)) {
            snprintf(err, errsz, "deal: a card is dealt twice, or is not a card");
            return -1;
        }
        if (cards_count(d->hand[p]) < 1 || cards_count(d->hand[p]) > 11) {
            snprintf(err, errsz, "deal: player %d holds %d cards (1 to 11 allowed)", p, cards_count(d->hand[p]));
            return -1;
        }
        all |= d->hand[p];
        if (d->seat[p] >= NPLAYERS) {
            snprintf(err, errsz, "seats: %d is not a player number", d->seat[p]);
            return -1;
        }
        seats |= 1 << d->seat[p];
        if (d->cls[p] < 0)
            none++;
        else if (d->cls[p] < NPLAYERS)
            cls |= 1 << d->cls[p];
    }
    if (all != CARDS_ALL) {
        snprintf(err, errsz, "deal: the hands do not hold all 53 cards");
        return -1;
    }
    if (seats != 31) {
        snprintf(err, errsz, "seats: not a permutation of the players 0..4");
        return -1;
    }
    if (none != NPLAYERS && cls != 31) {
        snprintf(err, errsz, "classes: all -1 (no exchange) or a permutation of 0..4");
        return -1;
    }
    return 0;
}

int env_reset(DhmEnv *e, int reseed, uint64_t seed, const EnvDeal *d, char *err, size_t errsz)
{
    if (d && check_deal(d, err, errsz))
        return -1;
    if (reseed || e->episode < 0) {
        if (reseed)
            e->base_seed = seed;
        e->episode = 0;
        e->game = 0;
        e->have_prev = 0;
    } else {
        e->episode++;
        if (e->single) { /* the next game of the schedule */
            e->game++;
        } else { /* a new match */
            e->game = 0;
            e->have_prev = 0;
        }
    }
    e->cfg.seed = e->single || e->episode == 0 ? e->base_seed : rng_derive(e->base_seed, 0x65706973, (uint64_t)e->episode);
    e->games_done = 0;
    if (d) {
        memcpy(e->deal, d->hand, sizeof e->deal);
        memcpy(e->deal_seat, d->seat, sizeof e->deal_seat);
        memcpy(e->deal_cls, d->cls, sizeof e->deal_cls);
        e->given = 1;
    }
    start_game(e);
    float scratch[NPLAYERS] = {0}; /* no game ends before a seat without a player acts */
    advance(e, scratch);
    return 0;
}

int env_is_legal(const DhmEnv *e, int a)
{
    if (e->m.phase == GAME_OVER)
        return 0;
    for (int i = 0; i < e->nlegal; i++)
        if (e->legal[i] == a)
            return 1;
    return 0;
}

static int end_game(DhmEnv *e, float reward[NPLAYERS])
{
    GameRecord *rec = &e->rec;
    for (int p = 0; p < NPLAYERS; p++) {
        reward[p] += (float)(game_points(rec->result[p]) - 3);
        e->last_result[p] = rec->result[p];
    }
    e->last_serial = e->serial;
    e->games_done++;
    e->have_prev = 1;
    if (e->games_done >= e->cfg.games)
        return STEP_GAME_OVER | STEP_EPISODE_OVER;
    e->game++;
    start_game(e);
    return STEP_GAME_OVER;
}

/* The players decide until a seat without one must, or the episode ends. */
static int advance(DhmEnv *e, float reward[NPLAYERS])
{
    int flags = 0;
    for (;;) {
        game_run(&e->m);
        if (e->m.phase != GAME_OVER)
            break;
        flags |= end_game(e, reward);
        if (flags & STEP_EPISODE_OVER)
            break;
    }
    legal_now(e);
    return flags;
}

int env_step(DhmEnv *e, int a, float reward[NPLAYERS])
{
    GameMachine *m = &e->m;
    if (m->phase == GAME_OVER)
        return ENV_NOT_RUNNING;
    if (!env_is_legal(e, a))
        return ENV_ILLEGAL;
    if (m->phase == GAME_EXCHANGE)
        game_give(m, action_give(a));
    else
        game_move(m, action_move(a), 0);
    return advance(e, reward);
}

void env_copy(DhmEnv *dst, const DhmEnv *src)
{
    memcpy(dst, src, offsetof(DhmEnv, rec));
    game_copy(&dst->m, &src->m, &dst->rec);
    for (int p = 0; p < NPLAYERS; p++) {
        dst->pl[p] = NULL;
        dst->start_view[p].plays = dst->rec.plays;
    }
    if (src->su.deal == src->deal)
        dst->su.deal = dst->deal;
    if (src->m.su.deal == src->deal)
        dst->m.su.deal = dst->deal;
}

const InfoSet *env_view(DhmEnv *e, int p) { return game_view(&e->m, p); }

void env_observe(DhmEnv *e, int p, int8_t *out)
{
    obs_encode(env_view(e, p), env_give_n(e, p), e->m.played_by, out);
}

void env_shuffle_hidden(DhmEnv *e, int keep, uint64_t seed)
{
    Cards *h = e->m.phase == GAME_EXCHANGE ? e->m.hand : e->m.g.hand;
    Rng rng = rng_seed(seed);
    Cards pool = 0;
    int count[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++) {
        count[p] = cards_count(h[p]);
        if (p != keep)
            pool |= h[p];
    }
    for (int p = 0; p < NPLAYERS; p++) {
        if (p == keep)
            continue;
        h[p] = 0;
        for (int k = 0; k < count[p]; k++) {
            int b = rng_pick_bit(&rng, pool);
            h[p] |= 1ULL << b;
            pool &= ~(1ULL << b);
        }
    }
    legal_now(e);
}

void env_set_world(DhmEnv *e, const Cards hand[NPLAYERS], int keep)
{
    GameMachine *m = &e->m;
    GameRecord *rec = &e->rec;
    const int8_t *cls = m->su.cls;
    const int partner = cls[0] >= 0 ? game_player_of_class(cls, 4 - cls[keep]) : -1;
    for (int q = 0; q < NPLAYERS; q++) {
        m->g.hand[q] = hand[q];
        if (q == keep)
            continue;
        /* what q gave stays only where keep saw it: a poor player is shown its rich partner's gift */
        const int known = q == partner && cls[keep] >= 3;
        rec->original[q] = rec->dealt[q] = hand[q] | m->played_by[q];
        if (!known)
            rec->changed[q] = 0;
        InfoSet *v = &m->view[q];
        v->start_hand = rec->original[q];
        v->given = rec->changed[q];
        v->received = 0;
    }
    memcpy(m->hand, m->g.hand, sizeof m->hand);
    legal_now(e);
}

int env_playout(const DhmEnv *e, int policy, double eps, uint64_t seed, const void *weights, int cls[NPLAYERS])
{
    const GameMachine *m = &e->m;
    if (m->phase == GAME_EXCHANGE)
        return -1;
    if (m->phase == GAME_OVER) {
        memcpy(cls, e->last_result, sizeof e->last_result);
        return 0;
    }
    GameState g = m->g;
    Rng rng = rng_seed(seed);
    if (policy)
        policy_playout(weights, &g, &rng, eps);
    else
        mc_playout(&g, &rng, eps, NULL);
    state_classes(&g, cls);
    return 0;
}

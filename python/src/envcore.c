/* envcore.c — a game stepped one decision at a time (see envcore.h); the order of every
 * step follows game_play in game/game.c. */
#include "envcore.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "obs.h"

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
    e->phase = PH_OVER;
}

static void legal_exchange(DhmEnv *e)
{
    const Cards h = e->hand[e->actor];
    e->nlegal = 0;
    for (Cards x = h; x; x &= x - 1) {
        const Cards a = x & -x;
        if (e->give_n == 1)
            e->legal[e->nlegal++] = (uint16_t)action_of_give(a);
        else
            for (Cards y = x & (x - 1); y; y &= y - 1)
                e->legal[e->nlegal++] = (uint16_t)action_of_give(a | (y & -y));
    }
}

static void legal_play(DhmEnv *e)
{
    Move mv[MOVEGEN_MAX];
    const int n = state_moves(&e->g, mv);
    for (int i = 0; i < n; i++)
        e->legal[i] = (uint16_t)action_of_generated(mv[i]);
    e->nlegal = n;
    e->actor = e->g.turn;
}

/* The next rich player to give, from class c on; 0 when the exchange is over. */
static int next_giver(DhmEnv *e, int c)
{
    for (; c < 2; c++) { /* daifugo first, then fugo */
        int rich = game_player_of_class(e->su.cls, c);
        if (rich >= 0) {
            e->actor = rich;
            e->give_n = 2 - c;
            legal_exchange(e);
            return 1;
        }
    }
    return 0;
}

static void start_play(DhmEnv *e)
{
    GameRecord *rec = &e->rec;
    memcpy(rec->original, e->hand, sizeof rec->original);
    rec->first = game_first_player(e->hand);
    state_init(&e->g, e->hand, e->su.seat, rec->first);
    game_play_views(&e->su, rec, e->view);
    e->phase = PH_PLAY;
    e->give_n = 0;
    legal_play(e);
}

/* game_play up to the first decision. */
static void start_game(DhmEnv *e)
{
    GameRecord *rec = &e->rec;
    const GameSetup *su = &e->su;
    const int classes = game_begin(su, &e->rng, rec, e->hand);
    game_start_views(su, rec, e->hand, e->view);
    memcpy(e->start_view, e->view, sizeof e->view);
    memset(e->played_by, 0, sizeof e->played_by);
    e->serial++;
    e->phase = PH_EXCHANGE;
    if (!classes || !next_giver(e, 0))
        start_play(e);
}

/* The setup of game e->game in the schedule (match_run's order of RNG use). */
static void setup_game(DhmEnv *e)
{
    GameSetup prev = e->su;
    e->rng = match_game_rng(e->cfg.seed, e->game);
    match_setup_game(&e->cfg, e->game, e->have_prev ? &prev : NULL, e->have_prev ? &e->rec : NULL, &e->rng, &e->su);
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
    setup_game(e);
    if (d) {
        memcpy(e->deal, d->hand, sizeof e->deal);
        memcpy(e->su.seat, d->seat, sizeof e->su.seat);
        memcpy(e->su.cls, d->cls, sizeof e->su.cls);
        e->su.deal = e->deal;
        for (int p = 0; p < NPLAYERS; p++)
            if (d->cls[p] == 0)
                e->su.dealer = p;
    }
    start_game(e);
    return 0;
}

int env_is_legal(const DhmEnv *e, int a)
{
    if (e->phase == PH_OVER)
        return 0;
    for (int i = 0; i < e->nlegal; i++)
        if (e->legal[i] == a)
            return 1;
    return 0;
}

static int end_game(DhmEnv *e, float reward[NPLAYERS])
{
    GameRecord *rec = &e->rec;
    state_classes(&e->g, rec->result);
    for (int p = 0; p < NPLAYERS; p++) {
        reward[p] += (float)(game_points(rec->result[p]) - 3);
        e->last_result[p] = rec->result[p];
    }
    e->last_serial = e->serial;
    e->games_done++;
    e->have_prev = 1;
    if (e->games_done >= e->cfg.games) {
        e->phase = PH_OVER;
        e->nlegal = 0;
        return STEP_GAME_OVER | STEP_EPISODE_OVER;
    }
    e->game++;
    setup_game(e);
    start_game(e);
    return STEP_GAME_OVER;
}

int env_step(DhmEnv *e, int a, float reward[NPLAYERS])
{
    if (e->phase == PH_OVER)
        return ENV_NOT_RUNNING;
    if (!env_is_legal(e, a))
        return ENV_ILLEGAL;
    GameRecord *rec = &e->rec;
    if (e->phase == PH_EXCHANGE) {
        const int rich = e->actor, c = e->su.cls[rich];
        rec->bad_exchange[rich] =
            game_give_from_rich(rich, e->give_n, action_give(a), e->su.cls, e->hand, rec->changed);
        e->view[rich].given = rec->changed[rich];
        if (!next_giver(e, c + 1))
            start_play(e);
        return 0;
    }
    const int p = e->g.turn;
    const Move m = action_move(a);
    const int ev = state_apply(&e->g, m);
    if (rec->nplays < GAME_MAX_PLAYS) {
        rec->plays[rec->nplays].move = m;
        rec->plays[rec->nplays].player = (uint8_t)p;
        rec->plays[rec->nplays].usec = 0;
        rec->nplays++;
    }
    e->played_by[p] |= move_cards(m);
    if (ev & EV_STALEMATE) {
        state_finish_stalemate(&e->g, &e->rng);
        rec->stalemate = 1;
    }
    if (e->g.over)
        return end_game(e, reward);
    legal_play(e);
    return 0;
}

const InfoSet *env_view(DhmEnv *e, int p)
{
    InfoSet *v = &e->view[p];
    if (e->phase == PH_EXCHANGE)
        return v; /* the start view, and what p gave */
    infoset_public(v, &e->g);
    v->hand = e->g.hand[p];
    v->plays = e->rec.plays;
    v->nplays = e->rec.nplays;
    return v;
}

void env_observe(DhmEnv *e, int p, int8_t *out)
{
    obs_encode(env_view(e, p), env_give_n(e, p), e->played_by, out);
}

void env_shuffle_hidden(DhmEnv *e, int keep, uint64_t seed)
{
    Cards *h = e->phase == PH_EXCHANGE ? e->hand : e->g.hand;
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
    if (e->phase == PH_PLAY)
        legal_play(e);
    else if (e->phase == PH_EXCHANGE)
        legal_exchange(e);
}

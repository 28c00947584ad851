/* game.c — one game: deal, exchange, play loop, result. */
#include "game/game.h"

#include <stddef.h>
#include <string.h>
#include <time.h>

double game_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
}

static long long now_us(void) { return (long long)(game_clock_ms() * 1000); }

void infoset_public(InfoSet *v, const GameState *g)
{
    v->table = g->table;
    v->turn = g->turn;
    v->owner = g->owner;
    v->passed = g->passed;
    v->out = g->out;
    v->nout = g->nout;
    v->rev = g->rev;
    v->lock = g->lock;
    v->npass = g->npass;
    v->played = g->played;
    for (int p = 0; p < NPLAYERS; p++) {
        v->ncards[p] = (uint8_t)cards_count(g->hand[p]);
        v->order[p] = g->order[p];
        v->seat[p] = g->seat[p];
    }
}

void infoset_to_state(const InfoSet *v, const Cards hand[NPLAYERS], GameState *g)
{
    state_init(g, hand, v->seat, v->turn);
    g->played = v->played;
    g->table = v->table;
    g->owner = v->owner;
    g->passed = v->passed;
    g->out = v->out;
    g->nout = v->nout;
    g->rev = v->rev;
    g->lock = v->lock;
    g->npass = v->npass;
    memcpy(g->order, v->order, sizeof g->order);
}

/* Card k of the shuffle: swaps a uniformly drawn card of deck[k..52] into place k. */
static inline Cards deal_draw(uint8_t deck[53], int k, Rng *rng)
{
    int j = k + (int)rng_below(rng, (uint32_t)(53 - k));
    uint8_t c = deck[j];
    deck[j] = deck[k];
    return 1ULL << c;
}

void game_deal(const uint8_t seat[NPLAYERS], int dealer, Rng *rng, Cards hand[NPLAYERS])
{
    /* A Fisher-Yates shuffle of the 53 cards, dealt one at a time around the seats starting
     * at the dealer's seat: card k goes to seat (dealer seat + k) mod 5, that is to the k mod 5-th
     * hand counted from the dealer's (five cards a round, the hands in registers). */
    static const uint8_t DECK[53] = {4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                     22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                                     40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, JOKER_BIT};
    _Static_assert(NPLAYERS == 5, "five cards a round");
    uint8_t deck[53];
    memcpy(deck, DECK, sizeof deck);
    int ds = 0;
    for (int s = 0; s < NPLAYERS; s++)
        if (seat[s] == dealer)
            ds = s;
    Cards h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0;
    int k = 0;
    for (; k < 50; k += 5) {
        h0 |= deal_draw(deck, k, rng);
        h1 |= deal_draw(deck, k + 1, rng);
        h2 |= deal_draw(deck, k + 2, rng);
        h3 |= deal_draw(deck, k + 3, rng);
        h4 |= deal_draw(deck, k + 4, rng);
    }
    h0 |= deal_draw(deck, k, rng);
    h1 |= deal_draw(deck, k + 1, rng);
    h2 |= deal_draw(deck, k + 2, rng);
    const Cards h[NPLAYERS] = {h0, h1, h2, h3, h4};
    for (int i = 0; i < NPLAYERS; i++)
        hand[seat[(ds + i) % NPLAYERS]] = h[i];
}

int game_player_of_class(const int8_t cls[NPLAYERS], int c)
{
    for (int p = 0; p < NPLAYERS; p++)
        if (cls[p] == c)
            return p;
    return -1;
}

void game_take_from_poor(const int8_t cls[NPLAYERS], Cards hand[NPLAYERS], Cards changed[NPLAYERS])
{
    for (int k = 0; k < 2; k++) { /* daihinmin -> daifugo (2), then hinmin -> fugo (1) */
        int poor = game_player_of_class(cls, 4 - k), rich = game_player_of_class(cls, k);
        if (poor < 0 || rich < 0)
            continue;
        Cards take = cards_strongest(hand[poor], 2 - k);
        hand[poor] &= ~take;
        hand[rich] |= take;
        changed[poor] = take;
    }
}

int game_give_from_rich(int rich, int n, Cards choice, const int8_t cls[NPLAYERS], Cards hand[NPLAYERS],
                        Cards changed[NPLAYERS])
{
    int poor = game_player_of_class(cls, 4 - cls[rich]);
    int bad = cards_count(choice) != n || (choice & ~hand[rich]) != 0;
    if (bad)
        choice = cards_strongest(hand[rich], n);
    hand[rich] &= ~choice;
    hand[poor] |= choice;
    changed[rich] = choice;
    return bad;
}

int game_first_player(const Cards hand[NPLAYERS])
{
    for (int p = 0; p < NPLAYERS; p++)
        if (hand[p] & CARDS_D3)
            return p;
    return 0;
}

typedef struct Views {
    InfoSet v[NPLAYERS];
} Views;

static void view_refresh(InfoSet *v, const GameState *g, const GameRecord *rec)
{
    infoset_public(v, g);
    v->hand = g->hand[v->me];
    v->plays = rec->plays;
    v->nplays = rec->nplays;
}

int game_begin(const GameSetup *su, Rng *rng, GameRecord *rec, Cards hand[NPLAYERS])
{
    memset(rec, 0, offsetof(GameRecord, plays));
    memset(rec->illegal, 0, sizeof rec->illegal);
    memset(rec->bad_exchange, 0, sizeof rec->bad_exchange);
    rec->stalemate = 0;
    rec->number = su->number;
    rec->dealer = su->dealer;
    memcpy(rec->seat, su->seat, sizeof rec->seat);
    memcpy(rec->cls, su->cls, sizeof rec->cls);
    if (su->deal)
        memcpy(hand, su->deal, NPLAYERS * sizeof *hand);
    else
        game_deal(su->seat, su->dealer, rng, hand);
    memcpy(rec->dealt, hand, sizeof rec->dealt);
    const int classes = su->cls[0] >= 0;
    if (classes)
        game_take_from_poor(su->cls, hand, rec->changed);
    return classes;
}

void game_start_views(const GameSetup *su, const GameRecord *rec, const Cards hand[NPLAYERS],
                      InfoSet view[NPLAYERS])
{
    /* As the server shows them: card counts as dealt; the poor and the heimin see their hand
     * as dealt, the rich their hand after receiving. */
    const int classes = su->cls[0] >= 0;
    GameState g;
    memset(view, 0, NPLAYERS * sizeof *view);
    state_init(&g, rec->dealt, su->seat, 0);
    for (int p = 0; p < NPLAYERS; p++) {
        InfoSet *v = &view[p];
        v->me = p;
        v->game = su->number;
        v->given = classes && su->cls[p] >= 3 ? rec->changed[p] : 0;
        memcpy(v->cls, su->cls, sizeof v->cls);
        view_refresh(v, &g, rec);
        v->start_hand = v->hand = classes && su->cls[p] <= 1 ? hand[p] : rec->dealt[p];
        v->first = -1;
        memcpy(v->start_ncards, v->ncards, sizeof v->ncards);
    }
}

void game_play_views(const GameSetup *su, const GameRecord *rec, InfoSet view[NPLAYERS])
{
    for (int p = 0; p < NPLAYERS; p++) {
        if (su->cls[0] >= 0 && su->cls[p] >= 3)
            view[p].received = rec->original[p] & ~rec->dealt[p];
        view[p].first = rec->first;
        for (int q = 0; q < NPLAYERS; q++)
            view[p].start_ncards[q] = (uint8_t)cards_count(rec->original[q]);
    }
}

int game_play(Player *const pl[NPLAYERS], const GameSetup *su, Rng *rng, const GameHooks *hooks, GameRecord *rec)
{
    static const GameHooks none = {0};
    if (!hooks)
        hooks = &none;
    Cards hand[NPLAYERS];
    const int classes = game_begin(su, rng, rec, hand);

    Views views;
    GameState g;
    game_start_views(su, rec, hand, views.v);
    int rc;
    if (hooks->start && (rc = hooks->start(hooks->ctx, rec, views.v)) != 0)
        return rc;
    for (int p = 0; p < NPLAYERS; p++)
        if (pl[p]->game_start)
            pl[p]->game_start(pl[p], &views.v[p]);

    if (classes) {
        for (int c = 0; c < 2; c++) { /* daifugo first, then fugo */
            int rich = game_player_of_class(su->cls, c);
            if (rich < 0)
                continue;
            if (pl[rich]->oracle)
                pl[rich]->oracle(pl[rich], hand);
            Cards choice = pl[rich]->exchange(pl[rich], &views.v[rich], 2 - c);
            rec->bad_exchange[rich] = game_give_from_rich(rich, 2 - c, choice, su->cls, hand, rec->changed);
            views.v[rich].given = rec->changed[rich];
        }
    }
    memcpy(rec->original, hand, sizeof hand);
    rec->first = game_first_player(hand);
    state_init(&g, hand, su->seat, rec->first);
    game_play_views(su, rec, views.v);

    while (!g.over) {
        const int p = g.turn;
        if (hooks->turn && (rc = hooks->turn(hooks->ctx, &g)) != 0)
            return rc;
        InfoSet *v = &views.v[p];
        view_refresh(v, &g, rec);
        if (pl[p]->oracle)
            pl[p]->oracle(pl[p], g.hand);
        const long long t0 = su->timed ? now_us() : 0;
        Move m = pl[p]->play(pl[p], v);
        const long long spent = su->timed ? now_us() - t0 : 0;
        int accepted = state_is_legal(&g, m);
        if (!accepted) {
            rec->illegal[p]++;
            m = move_pass();
        }
        GameState before = g;
        int ev = state_apply(&g, m);
        if (rec->nplays < GAME_MAX_PLAYS) {
            rec->plays[rec->nplays].move = m;
            rec->plays[rec->nplays].player = (uint8_t)p;
            rec->plays[rec->nplays].usec = spent > 0xFFFFFFFFLL ? 0xFFFFFFFFu : (uint32_t)spent;
            rec->nplays++;
        }
        if (ev & EV_STALEMATE) {
            state_finish_stalemate(&g, rng);
            rec->stalemate = 1;
        }
        if (hooks->move && (rc = hooks->move(hooks->ctx, &before, m, accepted, &g, ev)) != 0)
            return rc;
        for (int q = 0; q < NPLAYERS; q++)
            if (pl[q]->observe) {
                view_refresh(&views.v[q], &g, rec);
                pl[q]->observe(pl[q], &views.v[q], p, m);
            }
    }
    state_classes(&g, rec->result);
    for (int q = 0; q < NPLAYERS; q++)
        if (pl[q]->game_end) {
            view_refresh(&views.v[q], &g, rec);
            pl[q]->game_end(pl[q], &views.v[q], rec->result);
        }
    return 0;
}

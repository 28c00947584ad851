/* game.c — one game: the deal, the exchange, play, the result, as the game machine of
 * game.h (GameMachine) that game_play and every other driver step. */
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

static void view_refresh(InfoSet *v, const GameState *g, const GameRecord *rec)
{
    infoset_public(v, g);
    v->hand = g->hand[v->me];
    v->plays = rec->plays;
    v->nplays = rec->nplays;
}

/* The record's header, the deal (su->deal or a shuffle from rng), and the poor players'
 * strongest cards taken (hand: the hands after that). Returns whether the game has an
 * exchange. */
static int deal_and_take(const GameSetup *su, Rng *rng, GameRecord *rec, Cards hand[NPLAYERS])
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

/* What each player is shown at game start, after the server took the poor players' cards
 * (hand: the hands at that moment): card counts as dealt; the poor and the heimin see their
 * hand as dealt, the rich their hand after receiving. */
static void start_views(const GameSetup *su, const GameRecord *rec, const Cards hand[NPLAYERS],
                        InfoSet view[NPLAYERS])
{
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

/* What the exchange then tells them (rec->original and rec->first set): the poor's received
 * cards, who leads, the counts after the exchange. */
static void play_views(const GameSetup *su, const GameRecord *rec, InfoSet view[NPLAYERS])
{
    for (int p = 0; p < NPLAYERS; p++) {
        if (su->cls[0] >= 0 && su->cls[p] >= 3)
            view[p].received = rec->original[p] & ~rec->dealt[p];
        view[p].first = rec->first;
        for (int q = 0; q < NPLAYERS; q++)
            view[p].start_ncards[q] = (uint8_t)cards_count(rec->original[q]);
    }
}

/* ---- the game machine ---- */

/* An event to the watcher, if there is one (the callers test m->hooks first). */
static int emit(const GameMachine *m, int kind, int player, int to, Cards cards, const GameState *g)
{
    if (!m->hooks->event)
        return 0;
    GameEvent e = {kind, player, to, cards, move_pass(), 1, 0, g ? g->hand : m->hand, g, m->rec};
    return m->hooks->event(m->hooks->ctx, &e);
}

/* The next rich player to give, from class c on: sets the decision and returns 1; 0 when
 * the exchange is over. */
static int next_giver(GameMachine *m, int c)
{
    for (; c < 2; c++) { /* daifugo first, then fugo */
        int rich = game_player_of_class(m->su.cls, c);
        if (rich >= 0) {
            m->actor = rich;
            m->give_n = 2 - c;
            return 1;
        }
    }
    return 0;
}

/* The end of the exchange (or a game without one): play begins. */
static int start_play(GameMachine *m)
{
    GameRecord *rec = m->rec;
    memcpy(rec->original, m->hand, sizeof rec->original);
    rec->first = game_first_player(m->hand);
    state_init(&m->g, m->hand, m->su.seat, rec->first);
    play_views(&m->su, rec, m->view);
    m->phase = GAME_PLAY;
    m->give_n = 0;
    m->actor = m->g.turn;
    int rc;
    if (m->hooks && ((rc = emit(m, GAME_EV_START, -1, -1, 0, &m->g)) != 0 ||
                     (m->hooks->turn && (rc = m->hooks->turn(m->hooks->ctx, &m->g)) != 0)))
        return rc;
    return 0;
}

int game_begin(GameMachine *m, Player *const pl[NPLAYERS], const GameSetup *su, const Rng *rng,
               const GameHooks *hooks, GameRecord *rec)
{
    m->su = *su;
    m->rng = *rng;
    m->rec = rec;
    m->hooks = hooks;
    m->observers = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        m->pl[p] = pl ? pl[p] : NULL;
        m->played_by[p] = 0;
        if (m->pl[p] && m->pl[p]->observe)
            m->observers |= 1u << p;
        if (m->pl[p] && m->pl[p]->wants_times)
            m->su.timed = 1;
    }
    const int classes = deal_and_take(su, &m->rng, rec, m->hand);
    start_views(su, rec, m->hand, m->view);
    m->phase = GAME_EXCHANGE;
    m->give_n = 0;
    int rc;
    if (hooks) {
        GameEvent e = {GAME_EV_DEAL, -1, -1, 0, move_pass(), 1, 0, rec->dealt, NULL, rec};
        if (hooks->event && (rc = hooks->event(hooks->ctx, &e)) != 0)
            return rc;
        for (int k = 0; classes && k < 2; k++) { /* as game_take_from_poor took them */
            int poor = game_player_of_class(su->cls, 4 - k);
            if ((rc = emit(m, GAME_EV_EXCHANGE, poor, game_player_of_class(su->cls, k), rec->changed[poor], NULL)))
                return rc;
        }
        if (hooks->start && (rc = hooks->start(hooks->ctx, rec, m->view)) != 0)
            return rc;
    }
    for (int p = 0; p < NPLAYERS; p++)
        if (m->pl[p] && m->pl[p]->game_start)
            m->pl[p]->game_start(m->pl[p], &m->view[p]);
    if (classes && next_giver(m, 0))
        return 0;
    return start_play(m);
}

int game_give(GameMachine *m, Cards choice)
{
    GameRecord *rec = m->rec;
    const int rich = m->actor, c = m->su.cls[rich];
    rec->bad_exchange[rich] = game_give_from_rich(rich, m->give_n, choice, m->su.cls, m->hand, rec->changed);
    m->view[rich].given = rec->changed[rich];
    int rc;
    if (m->hooks && m->hooks->event) {
        GameEvent e = {GAME_EV_EXCHANGE, rich, game_player_of_class(m->su.cls, 4 - c), rec->changed[rich],
                       move_pass(), !rec->bad_exchange[rich], 0, m->hand, NULL, rec};
        if ((rc = m->hooks->event(m->hooks->ctx, &e)) != 0)
            return rc;
    }
    if (next_giver(m, c + 1))
        return 0;
    return start_play(m);
}

/* After the last move: the classes, the Players' game_end, the END event. */
static int end_game(GameMachine *m)
{
    GameRecord *rec = m->rec;
    m->phase = GAME_OVER;
    state_classes(&m->g, rec->result);
    for (int q = 0; q < NPLAYERS; q++)
        if (m->pl[q] && m->pl[q]->game_end) {
            view_refresh(&m->view[q], &m->g, rec);
            m->pl[q]->game_end(m->pl[q], &m->view[q], rec->result);
        }
    return m->hooks ? emit(m, GAME_EV_END, -1, -1, 0, &m->g) : 0;
}

/* The hooks after a move by p (mv: as applied, a pass for a refused submission; before: the
 * state before it when there is a move hook; nout: players out before it): move, then the PLAY
 * event and one OUT event per player out. */
static int moved(GameMachine *m, const GameState *before, int p, int nout, Move mv, int accepted, int ev)
{
    const GameHooks *h = m->hooks;
    int rc;
    if (h->move && (rc = h->move(h->ctx, before, mv, accepted, &m->g, ev)) != 0)
        return rc;
    if (!h->event)
        return 0;
    GameEvent e = {GAME_EV_PLAY, p, -1, move_cards(mv), mv, accepted, ev, m->g.hand, &m->g, m->rec};
    if ((rc = h->event(h->ctx, &e)) != 0)
        return rc;
    for (int k = nout; k < m->g.nout; k++)
        if ((rc = emit(m, GAME_EV_OUT, m->g.order[k], k, 0, &m->g)) != 0)
            return rc;
    return 0;
}

/* game_move, inlined into game_run (the hot loop of every match). */
static inline int step_move(GameMachine *m, Move mv, uint32_t usec)
{
    GameRecord *rec = m->rec;
    GameState *g = &m->g;
    const int p = g->turn;
    const int accepted = state_is_legal(g, mv);
    if (!accepted) {
        rec->illegal[p]++;
        mv = move_pass();
    }
    GameState before;
    const int nout = g->nout;
    const Cards held = g->hand[p];
    if (m->hooks && m->hooks->move)
        before = *g;
    int ev = state_apply(g, mv);
    if (rec->nplays < GAME_MAX_PLAYS) {
        rec->plays[rec->nplays].move = mv;
        rec->plays[rec->nplays].player = (uint8_t)p;
        rec->plays[rec->nplays].usec = usec;
        rec->nplays++;
    }
    m->played_by[p] |= held & ~g->hand[p];
    if (ev & EV_STALEMATE) {
        state_finish_stalemate(g, &m->rng);
        rec->stalemate = 1;
    }
    int rc;
    if (m->hooks && (rc = moved(m, &before, p, nout, mv, accepted, ev)) != 0)
        return rc;
    for (unsigned obs = m->observers; obs; obs &= obs - 1) {
        const int q = __builtin_ctz(obs);
        view_refresh(&m->view[q], g, rec);
        m->pl[q]->observe(m->pl[q], &m->view[q], p, mv);
    }
    if (g->over)
        return end_game(m);
    m->actor = g->turn;
    if (m->hooks && m->hooks->turn && (rc = m->hooks->turn(m->hooks->ctx, g)) != 0)
        return rc;
    return 0;
}

int game_move(GameMachine *m, Move mv, uint32_t usec) { return step_move(m, mv, usec); }

const InfoSet *game_view(GameMachine *m, int p)
{
    InfoSet *v = &m->view[p];
    if (m->phase != GAME_EXCHANGE)
        view_refresh(v, &m->g, m->rec);
    return v;
}

int game_run(GameMachine *m)
{
    int rc = 0;
    while (rc == 0 && m->phase != GAME_OVER) {
        const int p = m->actor;
        Player *pl = m->pl[p];
        if (!pl)
            return 0;
        if (m->phase == GAME_EXCHANGE) {
            if (pl->oracle)
                pl->oracle(pl, m->hand);
            rc = game_give(m, pl->exchange(pl, &m->view[p], m->give_n));
            continue;
        }
        InfoSet *v = &m->view[p];
        view_refresh(v, &m->g, m->rec);
        if (pl->oracle)
            pl->oracle(pl, m->g.hand);
        const long long t0 = m->su.timed ? now_us() : 0;
        const Move mv = pl->play(pl, v);
        const long long spent = m->su.timed ? now_us() - t0 : 0;
        /* timed: at least 1 µs (0 stands for untimed) */
        rc = step_move(m, mv, !m->su.timed ? 0 : spent < 1 ? 1 : spent > 0xFFFFFFFFLL ? 0xFFFFFFFFu : (uint32_t)spent);
    }
    return rc;
}

void game_copy(GameMachine *dst, const GameMachine *src, GameRecord *rec)
{
    *dst = *src;
    memcpy(rec, src->rec, offsetof(GameRecord, plays) + (size_t)src->rec->nplays * sizeof rec->plays[0]);
    memcpy(rec->illegal, src->rec->illegal, sizeof *rec - offsetof(GameRecord, illegal));
    dst->rec = rec;
    dst->hooks = NULL;
    dst->observers = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        dst->pl[p] = NULL;
        dst->view[p].plays = rec->plays;
    }
}

int game_play(Player *const pl[NPLAYERS], const GameSetup *su, Rng *rng, const GameHooks *hooks, GameRecord *rec)
{
    GameMachine m;
    int rc = game_begin(&m, pl, su, rng, hooks, rec);
    if (!rc)
        rc = game_run(&m);
    *rng = m.rng;
    return rc;
}

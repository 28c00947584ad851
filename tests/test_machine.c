/* test_machine.c — the game machine (game/game.h, GameMachine): every driver plays the same
 * game through it. Over many seeded games with exchanges: a game stepped from outside with
 * the Players asked by the test equals game_play's, move for move, and so does any mix of
 * seats decided by Players and from outside; a copy (game_copy) played on with the same
 * moves ends as the original; the watcher's events (GameHooks.event) come in order and agree
 * with the record (deal, exchange, start, every play and pass with its state, each player out,
 * the end), watching changes no game, and a watcher's non-zero return stops the game. */
#include "testutil.h"

enum { GAMES = 300 };

/* The schedule of a match (seat changes, class periods of 10 games so that most games have
 * an exchange), game by game: fills su and the game's rng for game i given the previous one. */
typedef struct Sched {
    MatchConfig cfg;
    GameSetup su, prev;
    GameRecord *prev_rec;
} Sched;

static Rng sched_next(Sched *s, int i)
{
    Rng rng = match_game_rng(s->cfg.seed, i);
    match_setup_game(&s->cfg, i, i ? &s->prev : NULL, i ? s->prev_rec : NULL, &rng, &s->su);
    return rng;
}

static void sched_init(Sched *s, uint64_t seed)
{
    match_config_default(&s->cfg);
    s->cfg.seed = seed;
    s->cfg.class_reset = 10;
    s->prev_rec = calloc(1, sizeof *s->prev_rec);
}

static void sched_done(Sched *s, const GameRecord *rec)
{
    s->prev = s->su;
    memcpy(s->prev_rec, rec, sizeof *rec);
}

static void players_make(Player *pl[5], const char *const specs[5], uint64_t seed)
{
    char err[256];
    for (int p = 0; p < 5; p++)
        assert_int_equal(player_create(specs[p], player_seed(seed, p), &pl[p], err, sizeof err), 0);
}

static void records_equal(const GameRecord *a, const GameRecord *b)
{
    assert_int_equal(a->nplays, b->nplays);
    assert_memory_equal(a->dealt, b->dealt, sizeof a->dealt);
    assert_memory_equal(a->changed, b->changed, sizeof a->changed);
    assert_memory_equal(a->original, b->original, sizeof a->original);
    assert_int_equal(a->first, b->first);
    for (int i = 0; i < a->nplays; i++) {
        assert_true(move_eq(a->plays[i].move, b->plays[i].move));
        assert_int_equal(a->plays[i].player, b->plays[i].player);
    }
    assert_memory_equal(a->result, b->result, sizeof a->result);
    assert_int_equal(a->stalemate, b->stalemate);
}

/* Plays game su with the machine, the Players of the seats in `outside` asked by this
 * function instead of by game_run (as a Python environment or a server asks them). */
static void play_mixed(Player *pl[5], int outside, const GameSetup *su, Rng rng, GameRecord *rec)
{
    Player *inside[5];
    for (int p = 0; p < 5; p++)
        inside[p] = (outside >> p) & 1 ? NULL : pl[p];
    GameMachine m;
    assert_int_equal(game_begin(&m, inside, su, &rng, NULL, rec), 0);
    /* the outside seats' game_start, as the machine calls it for its own */
    for (int p = 0; p < 5; p++)
        if (((outside >> p) & 1) && pl[p]->game_start)
            pl[p]->game_start(pl[p], game_view(&m, p));
    long steps = 0;
    while (game_run(&m) == 0 && m.phase != GAME_OVER) {
        const int p = m.actor;
        assert_true((outside >> p) & 1);
        Player *me = pl[p];
        if (m.phase == GAME_EXCHANGE) {
            assert_int_equal(game_give(&m, me->exchange(me, game_view(&m, p), m.give_n)), 0);
        } else {
            Move mv = me->play(me, game_view(&m, p));
            assert_int_equal(game_move(&m, mv, 0), 0);
        }
        assert_true(++steps < 5000);
    }
    assert_int_equal(m.phase, GAME_OVER);
}

/* Seats decided inside and outside the machine, in every pattern: the same games. Players
 * without observe/game_end hooks (random, simple, policy) decide from their InfoSet only, so
 * the Players of the reference match and of the mixed one decide alike. */
static void test_mixed_seats_same_games(void **state)
{
    (void)state;
    const char *const specs[5] = {"policy", "simple", "random", "policy", "simple"};
    Player *ref[5], *mix[5];
    players_make(ref, specs, 7);
    players_make(mix, specs, 7);
    Sched a, b;
    sched_init(&a, 7);
    sched_init(&b, 7);
    GameRecord *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    int exchanges = 0;
    for (int i = 0; i < GAMES; i++) {
        Rng r1 = sched_next(&a, i), r2 = sched_next(&b, i);
        assert_int_equal(game_play(ref, &a.su, &r1, NULL, ra), 0);
        play_mixed(mix, (i * 7) % 32, &b.su, r2, rb);
        records_equal(ra, rb);
        exchanges += ra->cls[0] >= 0;
        sched_done(&a, ra);
        sched_done(&b, rb);
    }
    assert_true(exchanges > GAMES / 2);
    for (int p = 0; p < 5; p++) {
        player_destroy(ref[p]);
        player_destroy(mix[p]);
    }
    free(ra);
    free(rb);
    free(a.prev_rec);
    free(b.prev_rec);
}

/* A copy taken at a random decision and played on with the same moves ends as the original;
 * the original is not disturbed by the copy. */
static void test_copy_plays_on_alike(void **state)
{
    (void)state;
    const char *const specs[5] = {"simple", "random", "policy", "random", "simple"};
    Player *pl[5];
    players_make(pl, specs, 11);
    Sched s;
    sched_init(&s, 11);
    GameRecord *ra = malloc(sizeof *ra), *rc = malloc(sizeof *rc);
    Rng pick = rng_seed(5);
    for (int i = 0; i < GAMES; i++) {
        Rng rng = sched_next(&s, i);
        GameMachine m, c;
        assert_int_equal(game_begin(&m, NULL, &s.su, &rng, NULL, ra), 0);
        int at = (int)rng_below(&pick, 60), k = 0, copied = 0;
        while (m.phase != GAME_OVER) {
            if (k++ == at) {
                game_copy(&c, &m, rc);
                copied = 1;
            }
            Player *me = pl[m.actor];
            Cards give = 0;
            Move mv = move_pass();
            if (m.phase == GAME_EXCHANGE)
                give = me->exchange(me, game_view(&m, m.actor), m.give_n);
            else
                mv = me->play(me, game_view(&m, m.actor));
            if (copied) { /* the copy waits for the same decision and is shown the same */
                assert_int_equal(c.phase, m.phase);
                assert_int_equal(c.actor, m.actor);
                assert_memory_equal(game_view(&c, c.actor), game_view(&m, m.actor), offsetof(InfoSet, plays));
                assert_int_equal(m.phase == GAME_EXCHANGE ? game_give(&c, give) : game_move(&c, mv, 0), 0);
            }
            assert_int_equal(m.phase == GAME_EXCHANGE ? game_give(&m, give) : game_move(&m, mv, 0), 0);
        }
        if (copied) {
            assert_int_equal(c.phase, GAME_OVER);
            records_equal(ra, rc);
        }
        sched_done(&s, ra);
    }
    for (int p = 0; p < 5; p++)
        player_destroy(pl[p]);
    free(ra);
    free(rc);
    free(s.prev_rec);
}

/* ---- the watcher ---- */
typedef struct Watch {
    int last;            /* kind of the previous event */
    int exchanges, plays, outs, ends, starts;
    int place_of[5];
    Cards played;
    uint64_t hash;
    long events, stop_at; /* stop_at: the event whose hook returns 42 (-1: never) */
} Watch;

static int watch_event(void *ctx, const GameEvent *e)
{
    Watch *w = ctx;
    const GameRecord *rec = e->rec;
    Cards all = 0;
    for (int p = 0; p < 5; p++) {
        assert_int_equal(all & e->hand[p], 0);
        all |= e->hand[p];
    }
    switch (e->kind) {
    case GAME_EV_DEAL:
        assert_true(w->last == 0 || w->last == GAME_EV_END);
        assert_true(all == CARDS_ALL);
        assert_memory_equal(e->hand, rec->dealt, sizeof rec->dealt);
        assert_null(e->state);
        w->exchanges = w->plays = w->outs = w->starts = 0;
        w->played = 0;
        for (int p = 0; p < 5; p++)
            w->place_of[p] = -1;
        break;
    case GAME_EV_EXCHANGE: /* the poor's cards taken first, then the rich's gifts */
        assert_true(w->last == GAME_EV_DEAL || w->last == GAME_EV_EXCHANGE);
        assert_true(all == CARDS_ALL);
        assert_true(rec->cls[0] >= 0);
        assert_int_equal(rec->cls[e->player] + rec->cls[e->to], 4);
        assert_int_equal(cards_count(e->cards), w->exchanges < 2 ? (rec->cls[e->player] == 4 ? 2 : 1)
                                                                 : (rec->cls[e->player] == 0 ? 2 : 1));
        assert_int_equal(rec->cls[e->player] >= 3, w->exchanges < 2);
        assert_true((e->hand[e->to] & e->cards) == e->cards);
        assert_true(rec->changed[e->player] == e->cards);
        w->exchanges++;
        break;
    case GAME_EV_START:
        assert_int_equal(w->exchanges, rec->cls[0] >= 0 ? 4 : 0);
        assert_non_null(e->state);
        assert_memory_equal(e->state->hand, rec->original, sizeof rec->original);
        assert_int_equal(e->state->turn, rec->first);
        assert_true(e->state->hand[rec->first] & CARDS_D3);
        w->starts++;
        break;
    case GAME_EV_PLAY:
        assert_true(w->last == GAME_EV_START || w->last == GAME_EV_PLAY || w->last == GAME_EV_OUT);
        assert_int_equal(rec->nplays, ++w->plays);
        assert_true(move_eq(rec->plays[rec->nplays - 1].move, e->move));
        assert_int_equal(rec->plays[rec->nplays - 1].player, e->player);
        assert_true(e->cards == move_cards(e->move));
        assert_int_equal(e->accepted, 1);
        w->played |= e->cards;
        assert_true(e->state->played == w->played);
        assert_true((all | e->state->played) == CARDS_ALL);
        if (e->move.type != MOVE_PASS && !(e->flags & EV_CLEAR))
            assert_true(move_eq(e->state->table, e->move));
        {
            uint64_t x;
            memcpy(&x, &e->move, 8);
            w->hash = rng_mix64(w->hash ^ x ^ (uint64_t)e->player);
        }
        break;
    case GAME_EV_OUT:
        assert_true(w->last == GAME_EV_PLAY || w->last == GAME_EV_OUT);
        assert_int_equal(e->to, w->outs);
        assert_int_equal(w->place_of[e->player], -1);
        assert_int_equal(e->state->order[e->to], e->player);
        w->place_of[e->player] = w->outs++;
        break;
    case GAME_EV_END:
        assert_int_equal(w->outs, 5);
        assert_int_equal(w->starts, 1);
        assert_int_equal(w->plays, rec->nplays);
        for (int p = 0; p < 5; p++)
            assert_int_equal(rec->result[p], w->place_of[p]);
        w->ends++;
        break;
    default:
        fail_msg("unknown event kind %d", e->kind);
    }
    w->last = e->kind;
    return ++w->events == w->stop_at ? 42 : 0;
}

typedef struct Hashed {
    uint64_t hash;
} Hashed;

static int hash_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    Hashed *h = ctx;
    (void)sofar;
    for (int i = 0; i < rec->nplays; i++) {
        uint64_t x;
        memcpy(&x, &rec->plays[i].move, 8);
        h->hash = rng_mix64(h->hash ^ x ^ rec->plays[i].player);
    }
    return 0;
}

static void test_events_agree_with_the_record(void **state)
{
    (void)state;
    const char *const specs[5] = {"random", "simple", "random", "policy", "random"};
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 1000;
    cfg.class_reset = 10;
    cfg.seed = 3;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult plain, watched;
    Player *pl[5];
    Hashed h1 = {0}, h2 = {0};
    players_make(pl, specs, 3);
    assert_int_equal(match_run(pl, &cfg, NULL, hash_game, &h1, rec, &plain), 0);
    test_players_free(pl);
    Watch w;
    memset(&w, 0, sizeof w);
    w.stop_at = -1;
    GameHooks hooks = {.ctx = &w, .event = watch_event};
    players_make(pl, specs, 3);
    assert_int_equal(match_run(pl, &cfg, &hooks, hash_game, &h2, rec, &watched), 0);
    test_players_free(pl);
    assert_int_equal(w.ends, 1000);
    assert_true(h1.hash == h2.hash); /* watching changes nothing */
    assert_memory_equal(plain.points, watched.points, sizeof plain.points);
    free(rec);
}

/* A watcher's non-zero return stops the game at once, with that value, wherever it comes. */
static void test_event_stops_the_game(void **state)
{
    (void)state;
    const char *const specs[5] = {"simple", "simple", "random", "random", "simple"};
    Player *pl[5];
    players_make(pl, specs, 9);
    GameRecord *rec = malloc(sizeof *rec);
    GameSetup su = {.number = 1, .seat = {0, 1, 2, 3, 4}, .cls = {2, 0, 4, 1, 3}, .dealer = 1};
    for (long stop = 1; stop < 40; stop += 3) {
        Watch w;
        memset(&w, 0, sizeof w);
        w.stop_at = stop;
        GameHooks hooks = {.ctx = &w, .event = watch_event};
        Rng rng = rng_seed((uint64_t)stop);
        assert_int_equal(game_play(pl, &su, &rng, &hooks, rec), 42);
        assert_int_equal(w.events, stop);
    }
    test_players_free(pl);
    free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_seats_same_games),
        cmocka_unit_test(test_copy_plays_on_alike),
        cmocka_unit_test(test_events_agree_with_the_record),
        cmocka_unit_test(test_event_stops_the_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

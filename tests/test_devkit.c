/* test_devkit.c — the `devkit` player (players/devkit.c): the organisers' sample client's
 * decisions as data-driven cases, its answers over many seeded games, and, with the teacher
 * corpus, every decision the real client made in its recorded matches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/rng.h"
#include "core/state.h"
#include "game/game.h"
#include "analysis/decisions.h"
#include "analysis/train.h"
#include "players/devkit.h"
#include "players/estimate.h"
#include "players/players.h"
#include "record/kifu.h"
#include "record/replay.h"
#include "testutil.h"

static Cards cards_of(const char *s)
{
    Cards c;
    assert_int_equal(cards_parse(s, &c), 0);
    return c;
}

static Move move_of(const char *s)
{
    Move m;
    if (!strcmp(s, "p"))
        return move_pass();
    assert_int_equal(move_parse(s, strlen(s), &m), 0);
    return m;
}

/* One decision: the hand, the trick so far (melds in order, "p" for a pass; the revolution
 * and lock follow from them), and the client's answer in kifu notation ("p": a pass). */
typedef struct Case {
    const char *what, *hand, *trick[4], *expect;
    int rev; /* a revolution from earlier in the game */
} Case;

static const Case CASES[] = {
    {"lead: the longest sequence before any group", "c3 d3 h5 h6 h7 h8 s9 st sj ca", {0}, "h-5678", 0},
    {"lead: the lowest of the longest sequences", "c4 c5 c6 s7 s8 s9 d3 ck", {0}, "c-456", 0},
    {"lead: the largest group before pairs", "c3 d3 c5 d5 h5 s9 ck", {0}, "cdh-5", 0},
    {"lead: the lowest single when nothing else", "d4 h6 c8 st sk", {0}, "d-4", 0},
    {"lead: the joker makes a card a pair", "d4 h6 c8 st sk jo", {0}, "ds-4(s)", 0},
    {"lead: the joker fills a sequence's gap", "h4 h5 h7 c9 jo", {0}, "h-4567(6)", 0},
    {"lead in a revolution: the highest single", "d4 h6 c8 st sk", {0}, "s-k", 1},
    {"lead in a revolution: the highest group", "c4 d4 c9 h9 sk", {0}, "ch-9", 1},
    {"follow a single: the lowest loose card above it", "c3 d3 c6 h9 sq", {"d-5"}, "c-6", 0},
    {"follow a single: a pair is not split", "c6 d6 sq", {"d-5"}, "s-q", 0},
    {"follow a single: cards of a sequence are kept", "h7 h8 h9 s2", {"d-5"}, "s-2", 0},
    {"follow a single: the joker when no loose card beats it", "c6 d6 jo", {"d-5"}, "jk", 0},
    {"follow a single: nothing loose, no joker: pass", "c6 d6 h7 h8 h9", {"d-5"}, "p", 0},
    {"follow a pair: the lowest pair above", "c4 d4 c7 h7 s9 d9", {"cd-5"}, "ch-7", 0},
    {"follow a pair: a triple is not split", "c7 h7 s7 d9", {"cd-5"}, "p", 0},
    {"follow a pair: the joker with a single card", "c7 h7 s7 d9 jo", {"cd-5"}, "ds-9(s)", 0},
    {"follow a sequence: the lowest run of exactly its length (the top of a longer one)", "s4 s5 s6 d8 d9 dt dj",
     {"c-345"}, "d-9tj", 0},
    {"follow a single in a revolution: the highest loose card below", "c3 h4 c9 sk", {"d-t"}, "c-9", 1},
    {"follow a locked single: only the locked suit", "c6 h7 d8", {"d-4", "d-5"}, "d-8", 0},
};

/* Plays the case's trick on a state where the player to move holds the case's hand. */
static void run_case(const Case *c)
{
    Cards hand[NPLAYERS] = {0};
    hand[0] = cards_of(c->hand);
    /* the other players hold the rest, spread so that every seat has cards */
    Cards rest = CARDS_ALL & ~hand[0];
    for (int p = 1; rest; p = p % 4 + 1) {
        Cards low = rest & -rest;
        hand[p] |= low;
        rest &= ~low;
    }
    uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    int ntrick = 0;
    while (ntrick < 4 && c->trick[ntrick])
        ntrick++;
    /* the trick's melds come from the seats before player 0 */
    GameState g;
    const int first = (NPLAYERS - ntrick) % NPLAYERS;
    for (int i = 0; i < ntrick; i++) {
        Move m = move_of(c->trick[i]);
        hand[(first + i) % NPLAYERS] |= move_cards(m);
        for (int p = 0; p < NPLAYERS; p++)
            if (p != (first + i) % NPLAYERS)
                hand[p] &= ~move_cards(m);
    }
    state_init(&g, hand, seat, first);
    g.rev = (uint8_t)c->rev;
    DevkitSeen s;
    memset(&s, 0, sizeof s);
    devkit_seen_game_start(&s);
    for (int i = 0; i < ntrick; i++) {
        Move m = move_of(c->trick[i]);
        assert_true(state_is_legal(&g, m));
        state_apply(&g, m);
        devkit_seen_move(&s, m, g.table, g.rev, g.lock);
    }
    assert_int_equal(g.turn, 0);
    Move got = devkit_choose(&s, g.hand[0], g.table, g.rev, g.lock);
    if (!state_is_legal(&g, got))
        got = move_pass();
    char a[MOVE_MAX_TEXT], b[MOVE_MAX_TEXT];
    move_format(got, a, sizeof a);
    move_format(move_of(c->expect), b, sizeof b);
    if (strcmp(a, b))
        print_message("%s: got %s, expected %s\n", c->what, a, b);
    assert_string_equal(a, b);
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        run_case(&CASES[i]);
}

static void test_gift(void **state)
{
    (void)state;
    assert_true(devkit_gift(cards_of("c3 s3 h4 jo s2"), 2) == cards_of("c3 s3"));
    assert_true(devkit_gift(cards_of("c3 s3 h4 jo s2"), 1) == cards_of("s3"));
    assert_true(devkit_gift(cards_of("jo s2"), 1) == cards_of("s2"));
}

/* Over 2,000 seeded games of five devkit seats on the engine: every answer is a meld of its
 * own cards, or no meld at all; the few it makes that the rules refuse (a quirk of the client:
 * a joker-filled sequence read below the table) are rare; every game ends. */
static void test_games(void **state)
{
    (void)state;
    long answers = 0, refused = 0;
    for (int game = 0; game < 2000; game++) {
        Rng r = rng_seed((uint64_t)game + 1);
        uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
        Cards hand[NPLAYERS];
        game_deal(seat, game % NPLAYERS, &r, hand);
        GameState g;
        state_init(&g, hand, seat, game_first_player(hand));
        DevkitSeen s;
        memset(&s, 0, sizeof s);
        devkit_seen_game_start(&s);
        int moves = 0;
        while (!g.over) {
            assert_true(++moves < 1000);
            Move m = devkit_choose(&s, g.hand[g.turn], g.table, g.rev, g.lock);
            answers++;
            if (m.type != 0xFF && m.type != MOVE_PASS)
                assert_true((move_cards(m) & ~g.hand[g.turn]) == 0);
            if (!state_is_legal(&g, m)) {
                refused += m.type != MOVE_PASS;
                m = move_pass();
            }
            if (state_apply(&g, m) & EV_STALEMATE)
                state_finish_stalemate(&g, &r);
            devkit_seen_move(&s, m, g.table, g.rev, g.lock);
        }
    }
    print_message("2,000 games: %ld answers, %ld refused\n", answers, refused);
    assert_true(answers > 50000);
    assert_true(refused * 1000 < answers);
}

/* FNV-1a over a 64-bit word. */
static uint64_t fnv(uint64_t h, uint64_t x)
{
    for (int k = 0; k < 8; k++, x >>= 8)
        h = (h ^ (x & 0xFF)) * 0x100000001b3ULL;
    return h;
}

static uint64_t fnv_move(uint64_t h, Move m)
{
    uint64_t x;
    memcpy(&x, &m, sizeof x);
    return fnv(h, x);
}

static uint64_t fnv_seen(uint64_t h, const DevkitSeen *s)
{
    h = fnv(h, (uint64_t)(s->ord + 16 * s->qty + 256 * s->sequence + 512 * s->rev + 1024 * s->lock + 2048 * s->onset +
                          4096 * s->joker));
    for (int i = 0; i < 5; i++)
        h = fnv(h, (uint64_t)s->suit[i]);
    return fnv_move(h, s->cur);
}

/* The client's every decision and reading, pinned: over 300 seeded games in which a share of
 * the moves is drawn at random (so that revolutions, locks and jokers come up), each seat's
 * answer (with its hand, with the joker added, without it) at every state and the reading of
 * every legal move; then 200,000 random states (any numbers read from the field, any hand).
 * The hash is the one the cell-by-cell reading of the client gave (the version checked
 * against the real client's recorded plays, before the bit-mask one replaced it): a change
 * in any decision or reading changes it. */
static void test_decisions_pinned(void **state)
{
    (void)state;
    uint64_t h = 0xcbf29ce484222325ULL;
    long n = 0;
    DevkitSeen s;
    memset(&s, 0, sizeof s); /* the sequence flag persists from game to game, as the client's */
    for (int game = 0; game < 300; game++) {
        Rng r = rng_seed((uint64_t)game * 7 + 11);
        uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
        Cards hand[NPLAYERS];
        game_deal(seat, game % NPLAYERS, &r, hand);
        GameState g;
        state_init(&g, hand, seat, game_first_player(hand));
        devkit_seen_game_start(&s);
        while (!g.over) {
            for (int p = 0; p < NPLAYERS; p++) {
                const Cards hs[3] = {g.hand[p], g.hand[p] | CARDS_JOKER, g.hand[p] & ~CARDS_JOKER};
                for (int k = 0; k < 3; k++, n++) {
                    DevkitSeen a = s;
                    h = fnv_seen(fnv_move(h, devkit_choose(&a, hs[k], g.table, g.rev, g.lock)), &a);
                }
            }
            Move mv[MOVEGEN_MAX];
            const int nm = state_moves(&g, mv);
            for (int k = 0; k < nm; k++, n++) {
                DevkitSeen a = s;
                devkit_seen_move(&a, mv[k], mv[k].type == MOVE_PASS ? g.table : mv[k], g.rev ^ (k & 1), (k >> 1) & 1);
                h = fnv_seen(h, &a);
            }
            Move m = devkit_choose(&s, g.hand[g.turn], g.table, g.rev, g.lock);
            if (game % 4 && (int)(rng_next(&r) % 4) < game % 4)
                m = mv[rng_next(&r) % (uint64_t)nm];
            if (!state_is_legal(&g, m))
                m = move_pass();
            if (state_apply(&g, m) & EV_STALEMATE)
                state_finish_stalemate(&g, &r);
            devkit_seen_move(&s, m, g.table, g.rev, g.lock);
        }
    }
    Rng r = rng_seed(99);
    for (long k = 0; k < 200000; k++, n++) {
        DevkitSeen a;
        memset(&a, 0, sizeof a);
        a.ord = (int)(rng_next(&r) % 16);
        a.qty = (int)(rng_next(&r) % 7);
        a.sequence = (int)(rng_next(&r) % 2);
        for (int i = 0; i < 5; i++)
            a.suit[i] = (int)(rng_next(&r) % 2);
        a.cur = move_pass();
        Cards hand = rng_next(&r) & rng_next(&r) & (CARDS_NATURAL | CARDS_JOKER);
        if (k % 3 == 0)
            hand |= rng_next(&r) & CARDS_NATURAL;
        const Move table = rng_next(&r) % 4 ? move_single(card_bit(1 + (int)(rng_next(&r) % 13), 0)) : move_pass();
        const int rev = (int)(rng_next(&r) % 2), lock = (int)(rng_next(&r) % 2);
        h = fnv_seen(fnv_move(h, devkit_choose(&a, hand, table, rev, lock)), &a);
    }
    print_message("%ld decisions and readings, hash %016llx\n", n, (unsigned long long)h);
    assert_true(n > 500000);
    assert_true(h == 0x08515523ef18873eULL);
}

/* In-process matches: two runs with one seed play the same games; a spec option is an error. */
static void test_matches(void **state)
{
    (void)state;
    char a[4096], b[4096];
    assert_int_equal(run_cmd(a, sizeof a, "%s play --players devkit,random,devkit,simple,devkit --games 1000 --seed 5 --json 2>&1",
                             dhm_bin()),
                     0);
    assert_int_equal(run_cmd(b, sizeof b, "%s play --players devkit,random,devkit,simple,devkit --games 1000 --seed 5 --json 2>&1",
                             dhm_bin()),
                     0);
    assert_non_null(strstr(a, "\"spec\": \"devkit\""));
    /* the wall-clock time differs: compare the points only */
    assert_non_null(strstr(a, "\"players\""));
    assert_string_equal(strstr(a, "\"players\""), strstr(b, "\"players\""));
    assert_int_not_equal(run_cmd(a, sizeof a, "%s play --players devkit:x=1,simple,simple,simple,simple --games 1 2>&1", dhm_bin()), 0);
    assert_non_null(strstr(a, "devkit"));
}

/* Each player's "total" in a `dhm play --json` summary, in seat order, as one string. */
static void json_totals(char *dst, size_t n, const char *json)
{
    size_t k = 0;
    dst[0] = 0;
    for (const char *t = strstr(json, "\"total\": "); t && k + 16 < n; t = strstr(t + 1, "\"total\": "))
        k += (size_t)snprintf(dst + k, n - k, "%ld ", strtol(t + 9, NULL, 10));
}

/* search (odevkit=auto by default) finds the devkit seats among others by checking every
 * decision after each game, and plays them by the client's rule; at a table without them it
 * plays the games of odevkit=0; a bad value is a one-line error. */
static void test_mc_odevkit(void **state)
{
    (void)state;
    char out[8192], a[256], b[256];
    for (int off = 0; off < 2; off++) { /* no sample client at the table: the same games */
        assert_int_equal(run_cmd(out, sizeof out,
                                 "%s play --players search:sims=60%s,policy,simple,mc:sims=30,policy --games 8 --seed 5 "
                                 "--json 2>&1",
                                 dhm_bin(), off ? ":odevkit=0" : ""),
                         0);
        assert_int_equal(!strstr(out, "\"odevkit\": []"), off); /* auto by default, and it found none */
        json_totals(off ? b : a, sizeof a, out);
    }
    assert_true(strlen(a) >= 10);
    assert_string_equal(a, b);
    assert_int_equal(run_cmd(out, sizeof out,
                             "%s play --players search:sims=60,devkit,policy,devkit,simple --games 6 --seed 3 "
                             "--json 2>&1",
                             dhm_bin()),
                     0);
    const char *o = strstr(out, "\"odevkit\": [");
    assert_non_null(o);
    assert_int_equal(strncmp(o, "\"odevkit\": [1, 3]", 17), 0);
    /* the devkit seats never missed; the others did */
    const char *c = strstr(out, "\"odevkit_checked\": [");
    assert_non_null(c);
    long d[NPLAYERS], m[NPLAYERS];
    assert_int_equal(sscanf(c, "\"odevkit_checked\": [[%ld, %ld], [%ld, %ld], [%ld, %ld], [%ld, %ld], [%ld, %ld]]", &d[0],
                            &m[0], &d[1], &m[1], &d[2], &m[2], &d[3], &m[3], &d[4], &m[4]),
                     10);
    assert_true(d[1] >= 30 && m[1] == 0 && d[3] >= 30 && m[3] == 0);
    assert_true(m[2] > 0 && m[4] > 0);
    /* odevkit=1: every opponent, from the first game */
    assert_int_equal(run_cmd(out, sizeof out,
                             "%s play --players mc:odevkit=1:sims=60,devkit,devkit,devkit,devkit --games 2 --seed 3 --json 2>&1",
                             dhm_bin()),
                     0);
    assert_non_null(strstr(out, "\"odevkit\": [1, 2, 3, 4]"));
    assert_int_not_equal(run_cmd(out, sizeof out, "%s play --players mc:odevkit=2,simple,simple,simple,simple --games 1 2>&1",
                                 dhm_bin()),
                         0);
    assert_non_null(strstr(out, "odevkit=2: valid are 0, 1, auto"));
}

/* policy:devkit=auto plays by its weights against the sample clients once all four opponents are
 * found to play it, checks each one's first 300 decisions only, and stops checking once an
 * opponent cannot be the client; bad values are one-line errors. */
static void test_policy_devkit(void **state)
{
    (void)state;
    char out[8192];
    long d[NPLAYERS], m[NPLAYERS], games, dk;
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy,devkit,devkit,devkit,devkit --games 60 --seed 3 --json 2>&1",
                             dhm_bin()),
                     0);
    const char *c = strstr(out, "\"stats\": {");
    assert_non_null(c);
    assert_int_equal(sscanf(c, "\"stats\": {\"games\": %ld, \"devkit_games\": %ld, \"devkit\": [1, 2, 3, 4], \"devkit_checked\": [[%ld, %ld], "
                               "[%ld, %ld], [%ld, %ld], [%ld, %ld], [%ld, %ld]]",
                            &games, &dk, &d[0], &m[0], &d[1], &m[1], &d[2], &m[2], &d[3], &m[3], &d[4], &m[4]),
                     12);
    assert_int_equal(games, 60);
    assert_true(dk >= 50 && dk <= 58); /* found after a few games */
    assert_int_equal(d[0], 0);
    for (int p = 1; p < NPLAYERS; p++) /* 300 and then no more: one game past the cap at most */
        assert_true(d[p] >= 300 && d[p] < 400 && m[p] == 0);
    /* one other player: never the weights against the clients, and that player's checks stop
     * after its fourth miss */
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy,devkit,simple,devkit,devkit --games 60 --seed 3 --json 2>&1",
                             dhm_bin()),
                     0);
    c = strstr(out, "\"stats\": {");
    assert_non_null(c);
    assert_int_equal(sscanf(c, "\"stats\": {\"games\": %ld, \"devkit_games\": %ld, \"devkit\": [1, 3, 4], \"devkit_checked\": [[%ld, %ld], "
                               "[%ld, %ld], [%ld, %ld], [%ld, %ld], [%ld, %ld]]",
                            &games, &dk, &d[0], &m[0], &d[1], &m[1], &d[2], &m[2], &d[3], &m[3], &d[4], &m[4]),
                     12);
    assert_int_equal(dk, 0);
    assert_true(m[2] > 3 && d[2] < 100);
    assert_true(d[1] < 300 && d[1] >= 30); /* the checks stopped with the other player's */
    /* weights=FILE: those weights everywhere unless devkit= says otherwise */
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy:weights=players/rich.weights,devkit,devkit,devkit,devkit "
                                              "--games 10 --json 2>&1",
                             dhm_bin()),
                     0);
    assert_non_null(strstr(out, "\"mean\""));
    assert_null(strstr(out, "devkit_games"));
    /* devkit=1: from the first game */
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy:devkit=1,simple,simple,simple,simple --games 5 --json 2>&1",
                             dhm_bin()),
                     0);
    assert_non_null(strstr(out, "\"games\": 5, \"devkit_games\": 5}"));
    const char *bad[][2] = {{"policy:devkit=2", "devkit=2: valid are 0, 1, auto"},
                            {"policy:model=fast:devkit=1", "devkit=1 needs the rich model"},
                            {"policy:devkit=0:devkit-weights=x", "devkit-weights=x needs devkit=1 or auto"},
                            {"policy:devkit-weights=/nonexistent", "/nonexistent"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(run_cmd(out, sizeof out, "%s play --players %s,simple,simple,simple,simple --games 1 2>&1", dhm_bin(),
                                 bad[i][0]),
                         2);
        assert_non_null(strstr(out, bad[i][1]));
        assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1); /* one line */
    }
}

/* The real client's every decision in the teacher corpus's field B (recorded on dhm serve, the
 * client built from its public source): the same move, and the same gifts. */
typedef struct Follow {
    int me;
    DevkitSeen s;
    long plays, same_plays;
} Follow;

static void on_position(void *ctx, const GameState *g, Move played)
{
    Follow *f = ctx;
    if (g->turn == f->me) {
        Move m = devkit_choose(&f->s, g->hand[f->me], g->table, g->rev, g->lock);
        if (!state_is_legal(g, m))
            m = move_pass();
        f->plays++;
        f->same_plays += move_eq(m, played);
    }
    GameState a = *g;
    state_apply(&a, played);
    devkit_seen_move(&f->s, played, a.table, a.rev, a.lock);
}

static void test_teacher_records(void **state)
{
    (void)state;
    const char *b0 = shared_file("data/teacher/B-000.kifu.xz");
    if (!b0) {
        print_message("skipped: no ../shared/data/teacher (the teacher corpus; DHM_SHARED names another place)\n");
        skip();
    }
    const char *root = getenv("DHM_SHARED");
    long plays = 0, same = 0, gifts = 0, same_gifts = 0;
    for (int k = 0; k < 21; k++) {
        char cmd[512], err[256];
        snprintf(cmd, sizeof cmd, "xz -dc %s/data/teacher/B-%03d.kifu.xz", root && *root ? root : "../shared", k);
        FILE *f = popen(cmd, "r");
        assert_non_null(f);
        KifuReader r;
        kifu_reader_init(&r, f, cmd);
        static KifuGame kg;
        Follow fo;
        memset(&fo, 0, sizeof fo);
        fo.me = -1;
        int rc;
        while ((rc = kifu_next(&r, &kg, err, sizeof err)) == 1) {
            if (fo.me < 0)
                for (int p = 0; p < NPLAYERS; p++)
                    if (!strncmp(r.names[p], "devkit", 6))
                        fo.me = p;
            assert_true(fo.me >= 0);
            devkit_seen_game_start(&fo.s);
            assert_int_equal(replay_game(&kg, cmd, on_position, &fo, err, sizeof err), 0);
            const int c = kg.cls[fo.me];
            if (kg.changed[fo.me] && (c == 0 || c == 1)) { /* it gave cards as daifugo or fugo */
                gifts++;
                same_gifts += devkit_gift(kg.original[fo.me] | kg.changed[fo.me], 2 - c) == kg.changed[fo.me];
            }
        }
        assert_int_equal(rc, 0);
        kifu_reader_free(&r);
        assert_int_equal(pclose(f), 0);
        plays += fo.plays;
        same += fo.same_plays;
    }
    print_message("field B: the real client's %ld plays, %ld the same; %ld gifts, %ld the same\n", plays, same, gifts,
                  same_gifts);
    assert_true(plays > 10000);
    assert_int_equal(same, plays);
    assert_true(gifts > 100);
    assert_int_equal(same_gifts, gifts);
}

/* The worlds' likelihood with devkit seats (est_history_loglik_dk): in recorded games of
 * `policy` against four devkits, the true hands make every devkit play (log 1 = 0), while a world
 * with the lowest cards of two of them swapped often does not (about half of them: a swap of cards
 * that no decision so far has turned on changes nothing). */
typedef struct LikCheck {
    DevkitSeen start;
    const PolicyWeights *pw;
    long decisions, swapped, refused;
} LikCheck;

static int on_lik(void *ctx, const Decision *d)
{
    LikCheck *c = ctx;
    if (d->exchange || d->v->me != 0)
        return 0;
    Cards h[NPLAYERS];
    memcpy(h, d->truth->hand, sizeof h);
    assert_true(est_history_loglik_dk(d->v, h, c->pw, NULL, 0x1e, &c->start) == 0);
    c->decisions++;
    for (int p = 1; p < NPLAYERS; p++)
        for (int q = p + 1; q < NPLAYERS; q++) {
            const Cards a = h[p] & CARDS_NATURAL, b = h[q] & CARDS_NATURAL;
            if (!a || !b)
                continue;
            const Cards x = a & -a, y = b & -b;
            Cards w[NPLAYERS];
            memcpy(w, h, sizeof w);
            w[p] ^= x | y;
            w[q] ^= x | y;
            const double ll = est_history_loglik_dk(d->v, w, c->pw, NULL, 0x1e, &c->start);
            c->swapped++;
            c->refused += ll < 0;
            return 0;
        }
    return 0;
}

static void test_devkit_likelihood(void **state)
{
    (void)state;
    char dir[256], out[4096], path[300], err[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/d.kifu", dir);
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players policy,devkit,devkit,devkit,devkit --games 40 --seed 4 "
                                              "--record %s --quiet 2>&1",
                             dhm_bin(), path),
                     0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    KifuReader r;
    kifu_reader_init(&r, f, path);
    static KifuGame kg;
    static GameRecord rec;
    LikCheck c;
    memset(&c, 0, sizeof c);
    c.pw = policy_builtin(err, sizeof err);
    assert_non_null(c.pw);
    Follow fo; /* the match's broadcasts, game after game (no decisions checked: me = -1) */
    memset(&fo, 0, sizeof fo);
    fo.me = -1;
    while (kifu_next(&r, &kg, err, sizeof err) == 1) {
        devkit_seen_game_start(&fo.s);
        c.start = fo.s;
        assert_int_equal(kifu_to_record(&kg, path, &rec, err, sizeof err), 0);
        assert_int_equal(decisions_each(&rec, on_lik, &c), 0);
        assert_int_equal(replay_game(&kg, path, on_position, &fo, err, sizeof err), 0);
    }
    kifu_reader_free(&r);
    fclose(f);
    print_message("%ld decisions; a card swapped between two devkits: %ld of %ld worlds refused\n", c.decisions,
                  c.refused, c.swapped);
    assert_true(c.decisions > 300);
    assert_true(c.refused * 4 > c.swapped);
}

/* 30,000 games of REINFORCE with the options opt (the rest as test_rl_against_devkit's) write
 * DIR/NAME.w, whose weights differ from DIR/rl1.t's. */
static void rl_differs(const char *dir, const char *opt, const char *name)
{
    char out[4096];
    assert_int_equal(run_cmd(out, sizeof out,
                             "%s train policy --model fast --rl-games 30000 --rl-vs-simple 1 %s --rl-lr 0.02 --rl-batch 256 "
                             "--seed 1 --jobs 1 --quiet -o %s/%s.w 2>&1",
                             dhm_bin(), opt, dir, name),
                     0);
    assert_int_not_equal(
        run_cmd(out, sizeof out, "cd %s && grep -v '^# made by' %s.w > %s.t && cmp -s rl1.t %s.t 2>&1", dir, name, name, name), 0);
}

/* REINFORCE against four devkits (dhm train policy --rl-rule devkit): deterministic for the seed
 * whatever the threads, and the policy it makes from zero weights beats the uniform random
 * player against them by far. */
static void test_rl_against_devkit(void **state)
{
    (void)state;
    char dir[256], out[8192];
    test_tmpdir(dir, sizeof dir);
    test_train_jobs_alike(dir, "--model fast --rl-games 30000 --rl-vs-simple 1 --rl-rule devkit --rl-lr 0.02 "
                               "--rl-batch 256 --seed 1", "rl");
    /* the rule matters: against simple the same seed makes other weights; so does --rl-class
     * (the learner always the daifugo) */
    rl_differs(dir, "--rl-rule simple", "rls");
    rl_differs(dir, "--rl-rule devkit --rl-class 0", "rlc");
    /* each deal played four times, the baseline the deal's other plays: other weights, the
     * same whatever the threads */
    rl_differs(dir, "--rl-rule devkit --rl-repeat 4", "rlr");
    test_train_jobs_alike(dir, "--model fast --rl-games 30000 --rl-vs-simple 1 --rl-rule devkit --rl-lr 0.02 "
                               "--rl-batch 256 --seed 1 --rl-repeat 4", "rp");
    static const struct {
        const char *args, *want;
    } BAD[] = {
        {"--model fast --rl-games 10 --rl-repeat 3", "--rl-batch (512) must be a multiple of it"},
        {"--model fast --rl-games 10 --rl-batch 100 --rl-repeat 8", "--rl-batch (100) must be a multiple of it"},
        {"--model fast --rl-games 10 --rl-repeat 65", "--rl-repeat"},
        {"--model fast --kifu /dev/null --rl-repeat 2", "--rl-repeat goes with --rl-games N"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++)
        test_train_refused(dir, BAD[i].args, BAD[i].want);
    test_train_refused(dir, "--model fast --rl-games 10 --rl-class 5", "--rl-class");
    double mean[2];
    const char *specs[2] = {"policy:model=fast:surewin=0:weights=%s/rl1.w", "random"};
    for (int k = 0; k < 2; k++) {
        char spec[512];
        snprintf(spec, sizeof spec, specs[k], dir);
        assert_int_equal(run_cmd(out, sizeof out, "%s play --players %s,devkit,devkit,devkit,devkit --games 2000 "
                                                  "--independent --seed 9 --json 2>&1",
                                 dhm_bin(), spec),
                         0);
        const char *m = strstr(out, "\"mean\": ");
        assert_non_null(m);
        mean[k] = atof(m + 8);
    }
    print_message("against four devkits: the trained policy %.3f, random %.3f\n", mean[0], mean[1]);
    assert_true(mean[0] > mean[1] + 0.5);
}

/* REINFORCE's deals with --rl-repeat K: games K*j .. K*j + K - 1 are dealt alike (kind of game,
 * learner, league members, seats, classes, hands) and draw their own moves; the next deal is
 * another; with K = 1 every game is its own deal. */
static void test_rl_repeat_deals(void **state)
{
    (void)state;
    static PolicyWeights league[2];
    for (int repeat = 1; repeat <= 4; repeat += 3)
        for (int form = 0; form < 3; form++) { /* against devkits, a league, self-play */
            RlOpts o;
            rl_opts_default(&o);
            o.repeat = repeat;
            o.seed = 21;
            o.vs_simple = form == 0 ? 1 : 0;
            o.vs_league = form == 1 ? 1 : 0;
            o.league[0] = &league[0];
            o.league[1] = &league[1];
            o.nleague = 2;
            o.learner_class = form == 2 ? -1 : 1;
            int plays_alike = 0, exch = 0;
            for (long j = 0; j < 200; j++) {
                RlDeal d[4];
                Rng r[4];
                memset(d, 0, sizeof d); /* padding alike, for memcmp */
                for (int k = 0; k < repeat; k++)
                    train_rl_deal(&o, j * repeat + k, &d[k], &r[k]);
                RlDeal next;
                Rng rn;
                train_rl_deal(&o, (j + 1) * repeat, &next, &rn);
                assert_int_equal(d[0].kind, form == 0 ? 0 : form == 1 ? 1 : 2);
                assert_int_not_equal(memcmp(d[0].hand, next.hand, sizeof next.hand), 0);
                Cards all = 0;
                for (int p = 0; p < NPLAYERS; p++) {
                    assert_int_equal(all & d[0].hand[p], 0);
                    all |= d[0].hand[p];
                    assert_true(form != 1 || p == d[0].learner || d[0].member[p] >= 0);
                }
                assert_true(all == CARDS_ALL);
                exch += d[0].exchange;
                if (d[0].exchange && form != 2)
                    assert_int_equal(d[0].cls[d[0].learner], 1);
                for (int k = 1; k < repeat; k++) {
                    assert_memory_equal(&d[k], &d[0], sizeof d[0]);
                    plays_alike += rng_next(&r[k]) == rng_next(&r[0]);
                }
            }
            assert_int_equal(plays_alike, 0);
            assert_in_range(exch, 140, 180); /* 4 games in 5 have the exchange */
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_gift),
        cmocka_unit_test(test_games),
        cmocka_unit_test(test_decisions_pinned),
        cmocka_unit_test(test_matches),
        cmocka_unit_test(test_mc_odevkit),
        cmocka_unit_test(test_policy_devkit),
        cmocka_unit_test(test_devkit_likelihood),
        cmocka_unit_test(test_rl_repeat_deals),
        cmocka_unit_test(test_rl_against_devkit),
        cmocka_unit_test(test_teacher_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

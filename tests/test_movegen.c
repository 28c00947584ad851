/* test_movegen.c — cards and move notation, and the generator checked against the rules:
 * for positions from thousands of seeded random games, the generated moves must be exactly
 * the legal melds (brute force over every meld shape) minus the documented omissions
 * (passing on an empty table; the joker standing in for a card the player holds), without
 * duplicates; movegen_can_follow agrees with the list's length. Also every play of the real
 * blaux5 games must be generated. */
#include "testutil.h"

#include "game/game.h"
#include "record/replay.h"

static Move *all_shapes;
static int nshapes;

/* Every canonical meld there is. */
static void build_shapes(void)
{
    all_shapes = malloc(20000 * sizeof *all_shapes);
    int n = 0;
    all_shapes[n++] = move_pass();
    all_shapes[n++] = move_lone_joker();
    for (int b = 4; b < 56; b++)
        all_shapes[n++] = move_single(b);
    for (int c = 1; c <= 13; c++) {
        for (unsigned m = 1; m < 16; m++) {
            int k = __builtin_popcount(m);
            if (k < 2)
                continue;
            all_shapes[n++] = move_make(MOVE_GROUP, k, c, m, JK_NONE);
            for (int s = 0; s < 4; s++)
                if ((m >> s) & 1)
                    all_shapes[n++] = move_make(MOVE_GROUP, k, c, m, 1 + c * 4 + s);
        }
        all_shapes[n++] = move_make(MOVE_GROUP, 5, c, 15, JK_ROW4);
    }
    for (int s = 0; s < 4; s++)
        for (int lo = 0; lo <= 12; lo++)
            for (int k = 3; lo + k - 1 <= 14; k++) {
                int hi = lo + k - 1;
                if (lo >= 1 && hi <= 13)
                    all_shapes[n++] = move_make(MOVE_SEQ, k, lo, 1u << s, JK_NONE);
                for (int c = lo; c <= hi; c++) {
                    Move m = move_make(MOVE_SEQ, k, lo, 1u << s, 1 + c * 4 + s);
                    if (move_valid_shape(m))
                        all_shapes[n++] = m;
                }
            }
    nshapes = n;
}

static int in_list(const Move *mv, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (move_eq(mv[i], m))
            return 1;
    return 0;
}

/* Compares the generator with brute force for one position; returns mismatches. */
static int check_position(Cards hand, Move table, int rev, int lock)
{
    Move gen[MOVEGEN_MAX];
    memset(gen, 0xA5, sizeof gen);
    int n = movegen(hand, table, rev, lock, gen);
    assert_true(n + MOVEGEN_SCRATCH <= MOVEGEN_MAX);
    int bad = 0;
    /* the test without the list says what the list says */
    if (table.type != MOVE_PASS && movegen_can_follow(hand, table, rev, lock) != (n > 1)) {
        print_error("movegen_can_follow %d with %d moves\n", movegen_can_follow(hand, table, rev, lock), n);
        bad++;
    }
    /* scratch writes stay within MOVEGEN_SCRATCH entries past the count */
    for (int i = n + MOVEGEN_SCRATCH; i < MOVEGEN_MAX; i++) {
        uint64_t w;
        memcpy(&w, &gen[i], sizeof w);
        if (w != 0xA5A5A5A5A5A5A5A5ULL)
            bad++;
    }
    for (int i = 0; i < n; i++) {
        if (!move_valid_shape(gen[i]) || !movegen_is_legal(hand, table, rev, lock, gen[i]))
            bad++;
        for (int j = 0; j < i; j++)
            if (move_eq(gen[i], gen[j]))
                bad++;
    }
    for (int i = 0; i < nshapes; i++) {
        Move m = all_shapes[i];
        int legal = movegen_is_legal(hand, table, rev, lock, m);
        int omitted = (m.type == MOVE_PASS && table.type == MOVE_PASS) ||
                      (m.jk >= 1 && m.jk <= JOKER_BIT && ((hand >> (m.jk - 1)) & 1));
        int want = legal && !omitted;
        if (want != in_list(gen, n, m)) {
            char t[32], h[256];
            move_format(m, t, sizeof t);
            cards_format(hand, h, sizeof h);
            print_error("mismatch for %s (legal %d) with hand {%s}\n", t, legal, h);
            bad++;
        }
    }
    return bad;
}

static void test_generator_equals_rules_on_random_games(void **state)
{
    (void)state;
    Rng rng = rng_seed(12345);
    long positions = 0;
    int bad = 0;
    for (int game = 0; game < 300 && !bad; game++) {
        Cards hand[5];
        uint8_t seat[5] = {0, 1, 2, 3, 4};
        game_deal(seat, game % 5, &rng, hand);
        GameState g;
        state_init(&g, hand, seat, game_first_player(hand));
        while (!g.over) {
            bad += check_position(g.hand[g.turn], g.table, g.rev, g.lock);
            positions++;
            Move mv[MOVEGEN_MAX];
            int n = state_moves(&g, mv);
            state_apply(&g, mv[rng_below(&rng, (uint32_t)n)]);
        }
    }
    assert_int_equal(bad, 0);
    assert_true(positions > 10000);
}

static void test_generator_equals_rules_on_random_tables(void **state)
{
    (void)state;
    Rng rng = rng_seed(777);
    int bad = 0;
    for (int i = 0; i < 3000 && !bad; i++) {
        /* a random hand of 1..20 cards, maybe with the joker, against a random legal meld */
        Cards deck = CARDS_ALL, hand = 0;
        int k = 1 + (int)rng_below(&rng, 20);
        for (int j = 0; j < k; j++) {
            int b = rng_pick_bit(&rng, deck);
            deck &= ~(1ULL << b);
            hand |= 1ULL << b;
        }
        Move table = all_shapes[1 + rng_below(&rng, (uint32_t)nshapes - 1)];
        if (move_cards(table) & hand)
            continue;
        bad += check_position(hand, table, (int)rng_below(&rng, 2), (int)rng_below(&rng, 2));
        bad += check_position(hand, move_pass(), (int)rng_below(&rng, 2), 0);
    }
    assert_int_equal(bad, 0);
}

/* ---- the order of the generated moves, pinned ----
 * Players pick a move by its index, so the order is part of every seeded game: a faster
 * generator must give the same moves in the same order. The hashes below were taken from the
 * generator as it was before it was made faster (commit 09225c2); a change of order, of a move
 * or of the count fails here even where the brute-force comparison (a set) would not. */

/* Folds a generated list into h, in order. */
static uint64_t hash_moves(uint64_t h, const Move *mv, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t x;
        memcpy(&x, &mv[i], sizeof x);
        h = rng_mix64(h ^ x);
    }
    return rng_mix64(h ^ (uint64_t)n);
}

static void test_move_order_pinned(void **state)
{
    (void)state;
    Move mv[MOVEGEN_MAX];
    /* every position of 2,000 seeded random games */
    Rng rng = rng_seed(2026);
    uint64_t h = 0;
    long positions = 0;
    for (int game = 0; game < 2000; game++) {
        Cards hand[5];
        uint8_t seat[5] = {0, 1, 2, 3, 4};
        game_deal(seat, game % 5, &rng, hand);
        GameState g;
        state_init(&g, hand, seat, game_first_player(hand));
        while (!g.over) {
            int n = state_moves(&g, mv);
            h = hash_moves(h, mv, n);
            positions++;
            if (state_apply(&g, mv[rng_below(&rng, (uint32_t)n)]) & EV_STALEMATE)
                state_finish_stalemate(&g, &rng);
        }
    }
    assert_int_equal(positions, 243181);
    assert_true(h == 0xda23bdb50aaa1a9cULL);
    /* random hands against every kind of table, locked or not, revolution as any non-zero int */
    Rng r2 = rng_seed(4242);
    uint64_t h2 = 0;
    int tables = 0;
    for (int i = 0; i < 60000; i++) {
        Cards deck = CARDS_ALL, hand = 0;
        int k = 1 + (int)rng_below(&r2, 20);
        for (int j = 0; j < k; j++) {
            int b = rng_pick_bit(&r2, deck);
            deck &= ~(1ULL << b);
            hand |= 1ULL << b;
        }
        Move table = all_shapes[rng_below(&r2, (uint32_t)nshapes)];
        if (move_cards(table) & hand)
            continue;
        int rev = (int)rng_below(&r2, 3) * 2, lock = table.type != MOVE_PASS && rng_below(&r2, 3) == 0;
        h2 = hash_moves(h2, mv, movegen(hand, table, rev, lock, mv));
        tables++;
    }
    assert_int_equal(tables, 21893);
    assert_true(h2 == 0x5289300525f6b637ULL);
}

static void test_full_deck_bound(void **state)
{
    (void)state;
    Move mv[MOVEGEN_MAX];
    int n = movegen_lead(CARDS_ALL, mv);
    assert_true(n < MOVEGEN_MAX);
    assert_int_equal(check_position(CARDS_ALL, move_pass(), 0, 0), 0);
    /* all naturals minus one card per column with the joker: many joker groups */
    Cards h = CARDS_JOKER;
    for (int c = 1; c <= 13; c++)
        h |= card_of(c, 0) | card_of(c, 1);
    assert_int_equal(check_position(h, move_pass(), 0, 0), 0);
}

static void test_notation_roundtrip(void **state)
{
    (void)state;
    for (int i = 0; i < nshapes; i++) {
        char t[MOVE_MAX_TEXT];
        Move m = all_shapes[i], back;
        assert_true(move_valid_shape(m));
        move_format(m, t, sizeof t);
        assert_int_equal(move_parse(t, strlen(t), &back), 0);
        assert_true(move_eq(m, back));
    }
    static const char *const bad[] = {"", "x", "c-", "-3", "c-3(", "cc-3", "c-35", "cd-3(h)", "c-2345",
                                      "c-345(9)", "c-34", "cdhs-5(x)", "cdhsx-5", "jo", "c-u", "c-o", "cq-u"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Move m;
        assert_int_not_equal(move_parse(bad[i], strlen(bad[i]), &m), 0);
    }
}

static void test_cards_notation(void **state)
{
    (void)state;
    Cards c;
    assert_int_equal(cards_parse("c3 d8 ht sa jo", &c), 0);
    assert_true(c == (card_of(1, SUIT_C) | card_of(6, SUIT_D) | card_of(8, SUIT_H) | card_of(12, SUIT_S) | CARDS_JOKER));
    char buf[256];
    cards_format(c, buf, sizeof buf);
    assert_string_equal(buf, "c3 d8 ht sa jo");
    cards_format_pretty(c, buf, sizeof buf);
    assert_string_equal(buf, "3\u2663 8\u2666 10\u2665 A\u2660 JK");
    assert_int_not_equal(cards_parse("c3 c3", &c), 0);
    assert_int_not_equal(cards_parse("c1", &c), 0);
    assert_int_not_equal(cards_parse("x3", &c), 0);
    assert_int_not_equal(cards_parse("c33", &c), 0);
    cards_format(CARDS_ALL, buf, sizeof buf);
    assert_int_equal(cards_parse(buf, &c), 0);
    assert_true(c == CARDS_ALL);
    assert_int_equal(cards_count(CARDS_ALL), 53);
}

static void test_strongest_order(void **state)
{
    (void)state;
    Cards h, want;
    cards_parse("c2 h2 sa jo d3", &h);
    cards_parse("h2 jo", &want);
    assert_true(cards_strongest(h, 2) == want);
    cards_parse("c2 h2 sa d3", &h);
    cards_parse("h2 c2", &want);
    assert_true(cards_strongest(h, 2) == want);
    cards_parse("d3 s3 c4", &h);
    cards_parse("s3", &want);
    assert_true(cards_strongest(cards_strongest(h, 2) & ~card_of(2, SUIT_C), 1) == want);
    cards_parse("d3 c3 jo", &h);
    cards_parse("c3 d3", &want);
    assert_true(cards_weakest(h, 2) == want);
}

typedef struct GenCheck {
    long positions, generated;
} GenCheck;

static void on_position(void *ctx, const GameState *g, Move played)
{
    GenCheck *c = ctx;
    Move mv[MOVEGEN_MAX];
    int n = state_moves(g, mv);
    c->positions++;
    c->generated += in_list(mv, n, played) || (played.type == MOVE_PASS && g->table.type == MOVE_PASS);
}

static void test_blaux5_plays_are_generated(void **state)
{
    (void)state;
    const char *path = shared_file("data/blaux5.kifu");
    if (!path)
        skip();
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    KifuReader r;
    kifu_reader_init(&r, f, path);
    KifuGame *g = malloc(sizeof *g);
    char err[512];
    GenCheck c = {0, 0};
    int games = 0, rc;
    while ((rc = kifu_next(&r, g, err, sizeof err)) == 1) {
        games++;
        if (replay_game(g, path, on_position, &c, err, sizeof err))
            fail_msg("%s", err);
    }
    assert_int_equal(rc, 0);
    assert_int_equal(games, 100);
    assert_int_equal(c.positions, 7856);
    assert_int_equal(c.generated, c.positions);
    free(g);
    kifu_reader_free(&r);
    fclose(f);
}

int main(void)
{
    build_shapes();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cards_notation),
        cmocka_unit_test(test_strongest_order),
        cmocka_unit_test(test_notation_roundtrip),
        cmocka_unit_test(test_full_deck_bound),
        cmocka_unit_test(test_generator_equals_rules_on_random_games),
        cmocka_unit_test(test_generator_equals_rules_on_random_tables),
        cmocka_unit_test(test_move_order_pinned),
        cmocka_unit_test(test_blaux5_plays_are_generated),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(all_shapes);
    return rc;
}

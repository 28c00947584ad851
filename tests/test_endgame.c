/* test_endgame.c — players/endgame: the exact two-player solver against plain minimax on
 * thousands of random small positions (with and without its table, and within node limits),
 * and the sure-win test, whose every claim must survive an exhaustive search in which the
 * other players (two of them, with every split of the unseen cards tried) play against it. */
#include "testutil.h"

#include "players/endgame.h"

/* A random position with the players in `in` holding cards (the others out): hands of 1..max
 * cards from a shuffled deck, maybe a meld on the table (from cards nobody holds), maybe a
 * revolution and a lock. */
static void random_position(Rng *r, int in_mask, int max, GameState *g)
{
    int bits[53], n = 0;
    for (int b = 4; b < 56; b++)
        bits[n++] = b;
    bits[n++] = JOKER_BIT;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)(i + 1)), t = bits[i];
        bits[i] = bits[j];
        bits[j] = t;
    }
    Cards hand[NPLAYERS] = {0};
    int k = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if ((in_mask >> p) & 1) {
            int c = 1 + (int)rng_below(r, (uint32_t)max);
            while (c--)
                hand[p] |= 1ULL << bits[k++];
        }
    uint8_t seat[NPLAYERS] = {0, 1, 2, 3, 4};
    int first = 0;
    while (!((in_mask >> first) & 1))
        first++;
    state_init(g, hand, seat, first);
    g->out = 0;
    g->nout = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if (!((in_mask >> p) & 1)) {
            g->out |= (uint8_t)(1 << p);
            g->order[g->nout++] = (uint8_t)p;
        }
    int players[NPLAYERS], np = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if ((in_mask >> p) & 1)
            players[np++] = p;
    g->turn = (uint8_t)players[rng_below(r, (uint32_t)np)];
    g->rev = rng_below(r, 4) == 0;
    if (rng_below(r, 2)) { /* a meld on the table, owned by another player still in */
        Cards pool = 0;
        for (int i = k; i < 53; i++)
            pool |= 1ULL << bits[i];
        Move mv[MOVEGEN_MAX];
        int m = movegen_lead(pool, mv);
        if (m > 0) {
            g->table = mv[rng_below(r, (uint32_t)m)];
            int owner;
            do
                owner = players[rng_below(r, (uint32_t)np)];
            while (owner == g->turn && np > 1);
            g->owner = (uint8_t)owner;
            g->lock = g->table.type != MOVE_JOKER && rng_below(r, 3) == 0;
        }
    }
}

static void test_solver_matches_minimax(void **state)
{
    (void)state;
    Rng r = rng_seed(11);
    static EndgameTT tt;
    memset(&tt, 0, sizeof tt);
    long positions = 0, wins = 0, undecided = 0, total_nodes = 0;
    for (int t = 0; t < 12000; t++) {
        GameState g;
        random_position(&r, 0x3, 5, &g); /* players 0 and 1 */
        int want = endgame_brute2(&g);
        Move best;
        long nodes;
        int got = endgame_solve2(&g, 1000000, &tt, &best, &nodes);
        if (got != want)
            fail_msg("position %d: solver %d, minimax %d", t, got, want);
        int notable = endgame_solve2(&g, 1000000, NULL, NULL, NULL);
        assert_int_equal(notable, want);
        if (got == 1) { /* the move it names wins */
            assert_true(state_is_legal(&g, best));
            GameState c = g;
            int ev = state_apply(&c, best);
            int r2 = c.over ? (ev & EV_FINISH) != 0 : c.turn == g.turn ? endgame_brute2(&c) : !endgame_brute2(&c);
            assert_int_equal(r2, 1);
        }
        if (endgame_solve2(&g, 3, &tt, NULL, NULL) < 0) /* a tiny limit: undecided, never wrong */
            undecided++;
        else
            assert_int_equal(endgame_solve2(&g, 3, &tt, NULL, NULL), want);
        positions++;
        wins += want;
        total_nodes += nodes;
    }
    assert_true(positions >= 10000);
    assert_true(wins > positions / 5 && wins < positions * 4 / 5); /* both outcomes well represented */
    assert_true(undecided > 0);
    assert_true(total_nodes >= positions); /* every solve visits at least its root */
}

/* Exhaustive adversarial search: does `me` go out before every other player, whatever they
 * play? (me chooses; the others choose against it.) */
static int me_first(const GameState *g, int me, int depth)
{
    if (depth > 60)
        return 0;
    Move mv[MOVEGEN_MAX];
    int n = state_moves(g, mv);
    int mine = g->turn == me;
    for (int i = 0; i < n; i++) {
        GameState c = *g;
        int ev = state_apply(&c, mv[i]);
        int r;
        if (ev & EV_FINISH)
            r = mine; /* whoever went out first decides it */
        else if (c.over)
            r = 0;
        else
            r = me_first(&c, me, depth + 1);
        if (mine && r)
            return 1;
        if (!mine && !r)
            return 0;
    }
    return !mine;
}

static void test_sure_win_is_sound(void **state)
{
    (void)state;
    Rng r = rng_seed(12);
    long claims = 0, checked = 0;
    for (int t = 0; t < 6000; t++) {
        GameState g;
        random_position(&r, 0x7, 4, &g); /* players 0, 1, 2 */
        const int me = g.turn;
        Move first;
        if (!endgame_sure_win_state(&g, &first))
            continue;
        claims++;
        assert_true(state_is_legal(&g, first));
        /* the claim holds for any holder of the others' cards: try several splits */
        Cards others = 0;
        int ops[2], no = 0, sizes[2];
        for (int p = 0; p < 3; p++)
            if (p != me) {
                others |= g.hand[p];
                sizes[no] = cards_count(g.hand[p]);
                ops[no++] = p;
            }
        for (int split = 0; split < 4; split++) {
            GameState h = g;
            Cards rest = others;
            for (int k = 0; k < 2; k++) {
                int want = k == 0 ? (split == 0 ? sizes[0] : 1 + (int)rng_below(&r, (uint32_t)cards_count(others) - 1))
                                  : 99;
                Cards got = 0;
                while (want-- > 0 && rest) {
                    int b = rng_pick_bit(&r, rest);
                    got |= 1ULL << b;
                    rest &= ~(1ULL << b);
                }
                h.hand[ops[k]] = got;
            }
            if (!h.hand[ops[0]] || !h.hand[ops[1]])
                continue;
            if (!me_first(&h, me, 0)) {
                char a[128];
                cards_format(g.hand[me], a, sizeof a);
                fail_msg("sure win claimed for { %s } but the others beat it", a);
            }
            GameState after = h; /* and the first move it names keeps the win */
            state_apply(&after, first);
            if (after.hand[me])
                assert_true(me_first(&after, me, 0));
            checked++;
        }
    }
    assert_true(claims > 300);
    assert_true(checked > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver_matches_minimax),
        cmocka_unit_test(test_sure_win_is_sound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

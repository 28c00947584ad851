/* test_table.c — the UECda 8x15 table codec: byte order, column mapping, every meld shape
 * round-trips, and malformed submissions are refused (spec/uecda.md §2.3, §2.5, §3.8). */
#include "testutil.h"

#include "core/state.h"
#include "net/table.h"

static void test_wire_format(void **state)
{
    (void)state;
    Table t;
    memset(&t, 0, sizeof t);
    t.c[0][0] = 20070;
    t.c[7][14] = -5; /* negatives go out as 0 */
    t.c[3][2] = 0x01020304;
    uint8_t b[TABLE_BYTES];
    table_encode(&t, b);
    assert_int_equal(b[0], 0x00);
    assert_int_equal(b[2], 0x4e); /* 20070 = 0x4e66, big-endian */
    assert_int_equal(b[3], 0x66);
    size_t off = 4 * (3 * 15 + 2);
    assert_int_equal(b[off], 1);
    assert_int_equal(b[off + 3], 4);
    assert_int_equal(b[TABLE_BYTES - 1], 0);
    Table u;
    table_decode(b, &u);
    assert_int_equal(u.c[0][0], 20070);
    assert_int_equal(u.c[3][2], 0x01020304);
    assert_int_equal(u.c[7][14], 0);
    uint8_t ib[4];
    int_encode(9, ib);
    assert_int_equal(ib[3], 9);
    assert_int_equal(int_decode(ib), 9);
    int_encode(-1, ib);
    assert_int_equal(int_decode(ib), -1);
}

static void test_column_mapping(void **state)
{
    (void)state;
    Table t;
    memset(&t, 0, sizeof t);
    Cards c;
    cards_parse("s3 h8 d2 ca jo", &c);
    table_put_hand(&t, c);
    assert_int_equal(t.c[0][1], 1);  /* spade 3: row 0, column 1 */
    assert_int_equal(t.c[1][6], 1);  /* heart 8: row 1, column 6 */
    assert_int_equal(t.c[2][13], 1); /* diamond 2: row 2, column 13 */
    assert_int_equal(t.c[3][12], 1); /* club A: row 3, column 12 */
    assert_int_equal(t.c[4][1], 2);  /* the held joker */
    Cards back;
    assert_int_equal(table_get_cards(&t, &back), 0);
    assert_true(back == c);
}

static void test_every_meld_round_trips(void **state)
{
    (void)state;
    /* all moves a full deck can make, through the table and back */
    Move mv[2 * MOVEGEN_MAX];
    int n = movegen_lead(CARDS_ALL, mv);
    Cards h = CARDS_JOKER;
    for (int col = 1; col <= 13; col++)
        h |= card_of(col, SUIT_C) | card_of(col, SUIT_H);
    n += movegen_lead(h, mv + n);
    int seen_five = 0, seen_edge = 0;
    for (int i = 0; i < n; i++) {
        Table t;
        memset(&t, 0, sizeof t);
        table_put_move(&t, mv[i]);
        Move back;
        assert_int_equal(table_to_move(&t, &back), 0);
        if (!move_eq(back, mv[i])) {
            char a[32], b[32];
            move_format(mv[i], a, sizeof a);
            move_format(back, b, sizeof b);
            fail_msg("%s came back as %s", a, b);
        }
        seen_five |= mv[i].jk == JK_ROW4;
        seen_edge |= mv[i].type == MOVE_SEQ && (mv[i].low == 0 || move_high(mv[i]) == COL_TOP);
    }
    assert_true(seen_five && seen_edge);
    Table z;
    memset(&z, 0, sizeof z);
    Move p;
    assert_int_equal(table_to_move(&z, &p), 0);
    assert_true(p.type == MOVE_PASS);
}

static int decode_cells(const char *cells, Move *m)
{
    /* "r,c,v r,c,v ..." */
    Table t;
    memset(&t, 0, sizeof t);
    int r, c, v, k;
    const char *s = cells;
    while (sscanf(s, "%d,%d,%d%n", &r, &c, &v, &k) == 3) {
        t.c[r][c] = v;
        s += k;
    }
    return table_to_move(&t, m);
}

static void test_submissions(void **state)
{
    (void)state;
    Move m;
    /* a lone joker anywhere in rows 0-3, also column 6 (no 8-cut: it is a lone joker) */
    assert_int_equal(decode_cells("0,0,2", &m), 0);
    assert_true(m.type == MOVE_JOKER);
    assert_int_equal(decode_cells("2,6,2", &m), 0);
    assert_true(m.type == MOVE_JOKER && !move_is_eight(m));
    /* ... but not in row 4 */
    assert_int_equal(decode_cells("4,1,2", &m), -1);
    /* the joker in a group is the suit of its row; in a sequence it may sit at 0 or 14 */
    assert_int_equal(decode_cells("0,3,1 3,3,2", &m), 0);
    assert_true(m.type == MOVE_GROUP && m.n == 2 && m.suits == ((1u << SUIT_S) | (1u << SUIT_C)));
    assert_int_equal(decode_cells("1,0,2 1,1,1 1,2,1", &m), 0);
    assert_true(m.type == MOVE_SEQ && m.low == 0 && m.n == 3);
    assert_int_equal(decode_cells("2,12,1 2,13,1 2,14,2", &m), 0);
    assert_true(m.type == MOVE_SEQ && move_high(m) == COL_TOP);
    /* five-card group: four naturals and the joker in row 4 of the column */
    assert_int_equal(decode_cells("0,5,1 1,5,1 2,5,1 3,5,1 4,5,2", &m), 0);
    assert_true(m.n == 5 && m.jk == JK_ROW4 && move_is_revolution(m));
    /* refused: values other than 0/1/2, two jokers, 1 in column 0/14 or row 4, a row-4 joker
     * with fewer than four naturals, 2-3 wrap-around, two-card sequences, mixed shapes */
    const char *bad[] = {"0,3,3",  "0,3,-1",          "0,3,2 1,3,2",       "0,0,1",       "0,14,1",
                         "4,3,1",  "0,5,1 1,5,1 4,5,2", "0,13,1 0,1,1 0,2,1", "0,3,1 0,4,1", "0,3,1 1,4,1",
                         "0,3,1 0,5,1 0,6,1", "0,3,1 1,3,1 1,4,1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (decode_cells(bad[i], &m) != -1)
            fail_msg("accepted '%s'", bad[i]);
    /* rows 5-7 of a submission are ignored */
    assert_int_equal(decode_cells("0,3,1 5,0,77 7,7,-3", &m), 0);
    assert_true(m.type == MOVE_SINGLE);
}

static void test_random_tables_never_crash(void **state)
{
    (void)state;
    Rng r = rng_seed(3);
    int accepted = 0;
    for (int i = 0; i < 200000; i++) {
        Table t;
        memset(&t, 0, sizeof t);
        int k = (int)rng_below(&r, 6);
        for (int j = 0; j < k; j++)
            t.c[rng_below(&r, 5)][rng_below(&r, 15)] = (int32_t)rng_below(&r, 4) - (rng_below(&r, 8) == 0 ? 2 : 0);
        Move m;
        Cards c;
        if (table_to_move(&t, &m) == 0) {
            accepted++;
            assert_true(move_valid_shape(m));
        }
        (void)table_get_cards(&t, &c);
    }
    assert_true(accepted > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wire_format),       cmocka_unit_test(test_column_mapping),
        cmocka_unit_test(test_every_meld_round_trips), cmocka_unit_test(test_submissions),
        cmocka_unit_test(test_random_tables_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

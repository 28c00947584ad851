/* test_net.c — `dhm serve` as a real process, driven by scripted clients (threads here) that
 * send exact tables and check exact replies: the scenarios of spec/uecda.md §4 a client can
 * observe, robustness against disconnecting, garbage, silent and slow peers, and the
 * end-to-end match with five `dhm connect` clients against the same match in-process.
 * Servers listen on 127.0.0.1 on a free port; every wait is bounded. */
#include "testutil.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>

#include "core/state.h"
#include "net/io.h"

/* ---------------------------------------------------------------- the server process */
typedef struct Srv {
    Proc proc;
    int port;
    char dir[64], out[128], err[128];
} Srv;

static void srv_start(Srv *s, const char *args)
{
    assert_non_null(test_tmpdir(s->dir, sizeof s->dir));
    snprintf(s->out, sizeof s->out, "%s/out", s->dir);
    snprintf(s->err, sizeof s->err, "%s/err", s->dir);
    proc_start(&s->proc, s->out, s->err, "%s serve --port 0 %s", dhm_bin(), args);
    s->port = 0;
    for (int i = 0; i < 500 && !s->port; i++) { /* up to 5 s */
        const char *l = strstr(slurp_file(s->err), "listening on 127.0.0.1:");
        if (l)
            s->port = atoi(l + strlen("listening on 127.0.0.1:"));
        else
            usleep(10000);
    }
    assert_true(s->port > 0);
}

/* Waits for the server to exit (at most timeout_s, then kills it); returns its exit status. */
static int srv_wait(Srv *s, int timeout_s) { return proc_wait(&s->proc, timeout_s); }

static const char *slurp(const char *path) { return slurp_file(path); }

/* ---------------------------------------------------------------- scripted clients */
enum { P_PASS, P_SIMPLE, P_PROBE, P_DISCONNECT, P_GARBAGE, P_SPLIT, P_SILENT, P_BADEXCH };

typedef struct TC {
    int port, mode;
    char name[32];
    int me, fd;
    volatile int greeted;
    pthread_t th;
    char fail[512];
    /* observations */
    int games, flags[64], turns_in_game[64];
    int my_turns, probes[6], replies_checked;
    int exch_checked[8];
    int eight_cuts_checked, finished_tables;
    uint8_t seats[64][5];
    long points;
    int cls_seen[64];
} TC;

#define CHECK(tc, cond, ...)                                                                                       \
    do {                                                                                                           \
        if (!(cond) && !(tc)->fail[0])                                                                             \
            snprintf((tc)->fail, sizeof (tc)->fail, __VA_ARGS__);                                                  \
    } while (0)

static int rd_table(TC *tc, Table *t) { return net_recv_table(tc->fd, t, 20000); }
static int rd_int(TC *tc, int32_t *v) { return net_recv_int(tc->fd, v, 20000); }

static void send_cells(TC *tc, const Table *t, int split)
{
    if (!split) {
        net_send_table(tc->fd, t);
        return;
    }
    uint8_t b[TABLE_BYTES];
    table_encode(t, b);
    for (int off = 0; off < TABLE_BYTES; off += 96) { /* five small writes */
        net_write(tc->fd, b + off, 96);
        usleep(200);
    }
}

/* The simplest good move: the weakest generated non-pass move, or a pass. */
static Move pick(Cards hand, Move table, int rev, int lock)
{
    Move mv[MOVEGEN_MAX];
    int n = movegen(hand, table, rev, lock, mv);
    for (int i = 0; i < n; i++)
        if (mv[i].type != MOVE_PASS && !move_uses_joker(mv[i]))
            return mv[i];
    for (int i = 0; i < n; i++)
        if (mv[i].type != MOVE_PASS)
            return mv[i];
    return move_pass();
}

static void *client_main(void *arg)
{
    TC *tc = arg;
    char err[256];
    tc->fd = net_connect("127.0.0.1", tc->port, err, sizeof err);
    if (tc->fd < 0) {
        snprintf(tc->fail, sizeof tc->fail, "connect: %s", err);
        tc->greeted = 1;
        return NULL;
    }
    Table t;
    memset(&t, 0, sizeof t);
    t.c[0][0] = 20070;
    for (int i = 0; tc->name[i]; i++)
        t.c[1][i] = tc->name[i];
    net_send_table(tc->fd, &t);
    int32_t me;
    if (rd_int(tc, &me)) {
        snprintf(tc->fail, sizeof tc->fail, "no player number");
        tc->greeted = 1;
        return NULL;
    }
    tc->me = me;
    tc->greeted = 1;
    if (tc->mode == P_DISCONNECT) {
        close(tc->fd);
        return NULL;
    }
    Rng rng = rng_seed((uint64_t)me + 99);
    uint8_t prev_seat[5] = {0};
    for (int g = 0; g < 64; g++) {
        Table st, h, f;
        if (rd_table(tc, &st)) {
            CHECK(tc, 0, "game %d: no start table", g);
            break;
        }
        tc->games = g + 1;
        CHECK(tc, st.c[5][0] == 1 && st.c[5][3] == 6, "game %d: start table [5][0]=%d [5][3]=%d", g, st.c[5][0],
              st.c[5][3]);
        Cards start;
        CHECK(tc, table_get_cards(&st, &start) == 0, "bad start hand");
        int rank = st.c[6][5 + tc->me], allzero = 1;
        for (int p = 0; p < 5; p++) {
            allzero &= st.c[6][5 + p] == 0;
            tc->seats[g][p] = (uint8_t)st.c[6][10 + p];
        }
        int want_x = allzero ? 0 : rank == 0 ? 2 : rank == 1 ? 1 : 0;
        CHECK(tc, st.c[5][1] == want_x, "game %d: [5][1] = %d for rank %d", g, st.c[5][1], rank);
        if (g == 0)
            CHECK(tc, allzero, "game 1: ranks not all 0");
        /* dealt counts: 11 at the dealer's seat and the next two (the daifugo after game 1) */
        int ds = -1;
        for (int s = 0; s < 5; s++) {
            int ok = 1;
            for (int k = 0; k < 5; k++)
                ok &= st.c[6][st.c[6][10 + (s + k) % 5]] == (k < 3 ? 11 : 10);
            if (ok)
                ds = s;
        }
        CHECK(tc, ds >= 0, "game %d: dealt counts are not 11/11/11/10/10 around the seats", g);
        if (!allzero && ds >= 0)
            CHECK(tc, st.c[6][5 + st.c[6][10 + ds]] == 0, "game %d: the deal did not start at the daifugo", g);
        /* what each class is shown: the rich their hand after receiving */
        int got = rank == 0 && !allzero ? 2 : rank == 1 && !allzero ? 1 : 0;
        CHECK(tc, cards_count(start) == st.c[6][tc->me] + got, "game %d: start hand of %d cards, rank %d, dealt %d", g,
              cards_count(start), rank, st.c[6][tc->me]);
        if (g % 3 != 0)
            CHECK(tc, !memcmp(prev_seat, tc->seats[g], 5), "game %d: seats changed outside games 1, 4, 7...", g + 1);
        memcpy(prev_seat, tc->seats[g], 5);
        Cards sent = 0;
        int xvariant = -1, n = st.c[5][1];
        if (n > 0) {
            sent = cards_weakest(start, n);
            if (tc->mode == P_BADEXCH) {
                xvariant = (int)rng_below(&rng, 4);
                Cards notmine = CARDS_ALL & ~start & CARDS_NATURAL;
                if (xvariant == 0) /* one card too few */
                    sent = cards_weakest(start, n - 1);
                else if (xvariant == 1) /* one too many */
                    sent = cards_weakest(start, n + 1);
                else if (xvariant == 2) /* a card it does not own */
                    sent = cards_weakest(start, n - 1) | (notmine & (0 - notmine));
                else if (start & CARDS_JOKER) /* the joker, correctly */
                    sent = CARDS_JOKER | cards_weakest(start, n - 1);
                else
                    xvariant = 4;
            }
            Table x;
            memset(&x, 0, sizeof x);
            table_put_hand(&x, sent);
            net_send_table(tc->fd, &x);
        }
        int first = 1, turns = 0, flag = 0;
        Move field = move_pass();
        int last_mover = -1, pending_cut = 0;
        while (!flag) {
            if (rd_table(tc, &h)) {
                CHECK(tc, 0, "game %d: connection lost", g);
                goto done;
            }
            turns++;
            Cards hand;
            CHECK(tc, h.c[5][0] == 0 && table_get_cards(&h, &hand) == 0, "bad hand table");
            int turn = h.c[5][3];
            if (first) {
                first = 0;
                CHECK(tc, !!(hand & CARDS_D3) == (turn == tc->me), "game %d: the diamond-3 holder does not lead", g);
                if (rank >= 3 && !allzero) /* (the daifugo may hand a taken card back) */
                    CHECK(tc, !((start & ~hand) & ~cards_strongest(start, rank == 4 ? 2 : 1)) &&
                                  cards_count(hand) == cards_count(start),
                          "game %d: the server did not take my strongest cards", g);
                if (n > 0) {
                    int valid = cards_count(sent) == n && !(sent & ~start);
                    Cards gave = start & ~hand;
                    CHECK(tc, gave == (valid ? sent : cards_strongest(start, n)),
                          "game %d: exchange variant %d: gave the wrong cards", g, xvariant);
                    if (xvariant >= 0)
                        tc->exch_checked[xvariant]++;
                }
            }
            if (pending_cut) { /* the hand table after a cut shows the clear */
                CHECK(tc, h.c[5][4] == 1, "game %d: no clear after an 8-cut", g);
                if (st.c[6][last_mover] > 0 && h.c[6][last_mover] > 0)
                    CHECK(tc, turn == last_mover, "game %d: after an 8-cut player %d should lead, not %d", g,
                          last_mover, turn);
                tc->eight_cuts_checked++;
                pending_cut = 0;
            }
            if (h.c[6][tc->me] == 0)
                tc->finished_tables++;
            if (h.c[5][2] == 1 && turn == tc->me) {
                tc->my_turns++;
                Move table = h.c[5][4] ? move_pass() : field;
                Move m = pick(hand, table, h.c[5][6], h.c[5][7]);
                Table mt;
                memset(&mt, 0, sizeof mt);
                int expect = -1;
                if (tc->mode == P_PASS || tc->mode == P_SILENT) {
                    expect = h.c[5][4] ? 9 : 8;
                    if (tc->mode == P_SILENT) { /* never answers: the move timeout passes for us */
                        int32_t reply;
                        if (rd_int(tc, &reply))
                            goto done;
                        CHECK(tc, reply == expect, "silent: reply %d, expected %d", reply, expect);
                        goto skip_send;
                    }
                } else if (tc->mode == P_GARBAGE) {
                    mt.c[rng_below(&rng, 5)][rng_below(&rng, 15)] = 3 + (int32_t)rng_below(&rng, 100);
                    expect = 8;
                } else if (tc->mode == P_PROBE) {
                    int k = tc->my_turns % 6;
                    Cards notmine = CARDS_ALL & ~hand & CARDS_NATURAL;
                    switch (k) {
                    case 0: /* pass: 9 on an empty table, 8 otherwise */
                        expect = h.c[5][4] ? 9 : 8;
                        break;
                    case 1: /* a card not owned: 8, a pass */
                        table_put_move(&mt, move_single(__builtin_ctzll(notmine)));
                        expect = 8;
                        break;
                    case 2: /* two jokers */
                        mt.c[0][3] = 2;
                        mt.c[1][3] = 2;
                        expect = 8;
                        break;
                    case 3: /* a lone joker in row 4 */
                        mt.c[4][1] = 2;
                        expect = 8;
                        break;
                    default: /* a legal move: 9 (or a pass) */
                        table_put_move(&mt, m);
                        expect = m.type != MOVE_PASS || h.c[5][4] ? 9 : 8;
                    }
                    tc->probes[k]++;
                } else {
                    table_put_move(&mt, m);
                    expect = m.type != MOVE_PASS || h.c[5][4] ? 9 : 8;
                }
                send_cells(tc, &mt, tc->mode == P_SPLIT);
                int32_t reply;
                if (rd_int(tc, &reply)) {
                    CHECK(tc, 0, "no reply");
                    goto done;
                }
                CHECK(tc, reply == expect, "game %d: reply %d, expected %d (mode %d, probe %d)", g, reply, expect,
                      tc->mode, tc->my_turns % 6);
                tc->replies_checked++;
            }
        skip_send:
            if (rd_table(tc, &f) || rd_int(tc, &flag)) {
                CHECK(tc, 0, "game %d: no broadcast", g);
                goto done;
            }
            CHECK(tc, f.c[5][3] == turn && f.c[5][2] == 0, "broadcast [5][3] = %d, turn %d", f.c[5][3], turn);
            CHECK(tc, flag >= 0 && flag <= 2, "end flag %d", flag);
            Move fm;
            if (f.c[6][turn] < h.c[6][turn]) { /* a play: the field shows it, before any clear */
                CHECK(tc, table_to_move(&f, &fm) == 0 && fm.type != MOVE_PASS, "game %d: field shows no meld", g);
                CHECK(tc, f.c[5][4] == 0, "game %d: [5][4] set right after a play", g);
                field = fm;
                if (move_is_eight(fm) && !flag) {
                    pending_cut = 1;
                    last_mover = turn;
                }
            }
        }
        tc->flags[g] = flag;
        tc->turns_in_game[g] = turns;
        if (flag == 2)
            break;
    }
done:
    close(tc->fd);
    return NULL;
}

static void start_clients(TC *tc, int n, int port, const int *modes, const char *const *names)
{
    for (int i = 0; i < n; i++) {
        memset(&tc[i], 0, sizeof tc[i]);
        tc[i].port = port;
        tc[i].mode = modes[i];
        snprintf(tc[i].name, sizeof tc[i].name, "%s", names ? names[i] : "tc");
        pthread_create(&tc[i].th, NULL, client_main, &tc[i]);
        for (int w = 0; w < 500 && !tc[i].greeted; w++) /* connect in order: player i */
            usleep(10000);
        assert_true(tc[i].greeted);
    }
}

static void join_clients(TC *tc, int n)
{
    for (int i = 0; i < n; i++) {
        pthread_join(tc[i].th, NULL);
        if (tc[i].fail[0])
            fail_msg("client %d (mode %d): %s", i, tc[i].mode, tc[i].fail);
    }
}

static long json_long(const char *json, const char *key, int nth)
{
    const char *p = json;
    for (int i = 0; i <= nth; i++) {
        p = strstr(p, key);
        if (!p)
            return -1;
        p += strlen(key);
    }
    return atol(p);
}

/* ---------------------------------------------------------------- tests */

static void test_stalemate_and_handshake(void **state)
{
    (void)state;
    Srv s;
    srv_start(&s, "--games 3 --json");
    TC tc[5];
    int modes[5] = {P_PASS, P_PASS, P_PASS, P_PASS, P_PASS};
    const char *names[5] = {"abcdefghijklm", "b", "c", "d", "e"};
    start_clients(tc, 5, s.port, modes, names);
    join_clients(tc, 5);
    assert_int_equal(srv_wait(&s, 30), 0);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(tc[i].me, i); /* connection order */
        assert_int_equal(tc[i].games, 3);
        for (int g = 0; g < 3; g++) {
            assert_int_equal(tc[i].turns_in_game[g], 20); /* ended by the 20-pass rule */
            assert_int_equal(tc[i].flags[g], g < 2 ? 1 : 2);
        }
    }
    const char *out = slurp(s.out);
    assert_non_null(strstr(out, "\"spec\": \"abcdefghi\""));  /* the first 9 characters */
    assert_null(strstr(out, "\"spec\": \"abcdefghij"));
    assert_int_equal(json_long(out, "\"stalemates\": ", 0), 3);
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

static void test_protocol_observables(void **state)
{
    (void)state;
    Srv s;
    srv_start(&s, "--games 24 --seed 3 --json");
    TC tc[5];
    int modes[5] = {P_SIMPLE, P_PROBE, P_SIMPLE, P_BADEXCH, P_SIMPLE};
    start_clients(tc, 5, s.port, modes, NULL);
    join_clients(tc, 5);
    assert_int_equal(srv_wait(&s, 60), 0);
    int cuts = 0, fin = 0;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(tc[i].games, 24);
        cuts += tc[i].eight_cuts_checked;
        fin += tc[i].finished_tables;
        for (int g = 0; g < 24; g++) {
            int m = 0;
            for (int p = 0; p < 5; p++)
                m |= 1 << tc[i].seats[g][p];
            assert_int_equal(m, 31);
        }
    }
    assert_true(cuts > 5); /* 8-cuts seen and checked */
    assert_true(fin > 20); /* finished players kept receiving the tables */
    for (int k = 0; k < 6; k++)
        assert_true(tc[1].probes[k] > 0);
    int xs = 0;
    for (int v = 0; v < 3; v++)
        xs += tc[3].exch_checked[v] > 0;
    assert_true(xs >= 2); /* several invalid exchange variants met the fallback */
    const char *out = slurp(s.out);
    long total = 0;
    for (int p = 0; p < 5; p++)
        total += json_long(out, "\"total\": ", p);
    assert_int_equal(total, 24 * 15);
    assert_true(json_long(out, "\"illegal\": ", 1) > 0); /* the probe's refused submissions */
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

static void test_disconnect_passes_forever(void **state)
{
    (void)state;
    Srv s;
    srv_start(&s, "--games 10 --seed 4 --json");
    TC tc[5];
    int modes[5] = {P_SIMPLE, P_DISCONNECT, P_SIMPLE, P_SIMPLE, P_SIMPLE};
    start_clients(tc, 5, s.port, modes, NULL);
    join_clients(tc, 5);
    assert_int_equal(srv_wait(&s, 30), 0);
    const char *out = slurp(s.out);
    /* player 1 finished last (daihinmin) in every game */
    const char *p1 = strstr(out, "{\"player\": 1");
    assert_non_null(p1);
    assert_non_null(strstr(p1, "\"classes\": [0, 0, 0, 0, 10]"));
    assert_non_null(strstr(slurp(s.err), "player 1"));
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

static void test_garbage_and_framing(void **state)
{
    (void)state;
    Srv s;
    srv_start(&s, "--games 8 --seed 5 --json");
    TC tc[5];
    int modes[5] = {P_GARBAGE, P_SPLIT, P_SIMPLE, P_SPLIT, P_SIMPLE};
    start_clients(tc, 5, s.port, modes, NULL);
    join_clients(tc, 5);
    assert_int_equal(srv_wait(&s, 60), 0);
    assert_true(tc[1].replies_checked > 20 && tc[3].replies_checked > 20); /* small writes worked */
    const char *out = slurp(s.out);
    assert_non_null(strstr(strstr(out, "{\"player\": 0"), "\"classes\": [0, 0, 0, 0, 8]"));
    assert_true(json_long(out, "\"illegal\": ", 0) > 20);
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

static void test_silent_client_and_bad_handshakes(void **state)
{
    (void)state;
    Srv s;
    srv_start(&s, "--games 2 --move-timeout 150 --seed 6 --json");
    /* a peer that says nothing, and one speaking another protocol: both dropped, seat 0 again */
    char err[256];
    int silent = net_connect("127.0.0.1", s.port, err, sizeof err);
    assert_true(silent >= 0);
    usleep(2300000);
    int old = net_connect("127.0.0.1", s.port, err, sizeof err);
    assert_true(old >= 0);
    Table t;
    memset(&t, 0, sizeof t);
    t.c[0][0] = 20060;
    net_send_table(old, &t);
    int32_t v;
    assert_int_not_equal(net_recv_int(old, &v, 3000), 0); /* no player number */
    close(old);
    close(silent);
    TC tc[5];
    int modes[5] = {P_SILENT, P_SIMPLE, P_SIMPLE, P_SIMPLE, P_SIMPLE};
    start_clients(tc, 5, s.port, modes, NULL);
    /* a sixth connection is refused */
    usleep(100000);
    int sixth = net_connect("127.0.0.1", s.port, err, sizeof err);
    if (sixth >= 0) { /* accepted by the kernel backlog at most: then reset without a number */
        net_send_table(sixth, &t);
        assert_int_not_equal(net_recv_int(sixth, &v, 2000), 0);
        close(sixth);
    }
    join_clients(tc, 5);
    assert_int_equal(tc[0].me, 0);
    assert_int_equal(srv_wait(&s, 60), 0);
    const char *e = slurp(s.err);
    assert_non_null(strstr(e, "sent no hello within 2000 ms: dropped; seat 0 offered again"));
    assert_non_null(strstr(e, "speaks protocol 20060, not 20070: dropped; seat 0 offered again"));
    assert_non_null(strstr(e, "player 0 (tc) sent no move within 150 ms: played as a pass"));
    const char *out = slurp(s.out);
    assert_non_null(strstr(strstr(out, "{\"player\": 0"), "\"classes\": [0, 0, 0, 0, 2]"));
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

static void test_port_in_use_and_bad_input(void **state)
{
    (void)state;
    Srv s;
    srv_start(&s, "--games 1 --wait 5000");
    char out[4096];
    assert_int_equal(run_cmd(out, sizeof out, "%s serve --port %d 2>&1", dhm_bin(), s.port), 1);
    assert_non_null(strstr(out, "is in use"));
    assert_int_equal(srv_wait(&s, 20), 1); /* nobody came: it gives up after --wait */
    assert_non_null(strstr(slurp(s.err), "only 0 of 5 clients connected"));
    assert_int_equal(run_cmd(out, sizeof out, "%s serve --seats simple,frob,remote,remote,remote 2>&1", dhm_bin()), 1);
    assert_non_null(strstr(out, "unknown player kind 'frob'"));
    assert_int_equal(run_cmd(out, sizeof out, "%s serve --seats simple,remote 2>&1", dhm_bin()), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s connect --port 1 --player simple 2>&1", dhm_bin()), 1);
    assert_non_null(strstr(out, "cannot connect"));
    assert_int_equal(run_cmd(out, sizeof out, "%s connect --player frob 2>&1", dhm_bin()), 2);
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

/* A garbage server: the client reports a protocol error and exits non-zero, no crash. */
static void *garbage_server(void *arg)
{
    int lfd = *(int *)arg;
    int fd = net_accept(lfd, 5000, NULL, 0);
    if (fd >= 0) {
        Table t;
        net_recv_table(fd, &t, 2000);
        net_send_int(fd, 2);
        memset(&t, 0, sizeof t);
        t.c[5][0] = 1;
        t.c[5][3] = 6;
        t.c[0][3] = 77; /* not a card value */
        net_send_table(fd, &t);
        usleep(200000);
        close(fd);
    }
    return NULL;
}

static void test_client_against_garbage(void **state)
{
    (void)state;
    char err[256], out[4096];
    int port;
    int lfd = net_listen("127.0.0.1", 0, &port, err, sizeof err);
    assert_true(lfd >= 0);
    pthread_t th;
    pthread_create(&th, NULL, garbage_server, &lfd);
    int rc = run_cmd(out, sizeof out, "%s connect --port %d --player simple --quiet 2>&1", dhm_bin(), port);
    pthread_join(th, NULL);
    close(lfd);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "protocol error"));
}

/* Starts `dhm connect` clients, one after the other so they take the server's free seats in
 * this order; their stdout goes to DIR/cI.out, stderr to DIR/cI.err. */
static void connect_clients(Proc *procs, const char *dir, int port, const char *const *specs, int n, int seed,
                            const char *extra)
{
    for (int i = 0; i < n; i++) {
        char o[256], e[256];
        snprintf(o, sizeof o, "%s/c%d.out", dir, i);
        snprintf(e, sizeof e, "%s/c%d.err", dir, i);
        proc_start(&procs[i], o, e, "%s connect --port %d --player %s --seed %d --name c%d %s", dhm_bin(), port,
                   specs[i], seed, i, extra);
        /* seats go in connection order: wait until the server has seated this client (its log in
         * dir/err says "player P: cI"), since a slow start (ASan, a loaded machine) could let the
         * next client connect first */
        char seated[64], log[256];
        snprintf(seated, sizeof seated, ": c%d from ", i);
        snprintf(log, sizeof log, "%s/err", dir);
        for (int t = 0; t < 1000 && !strstr(slurp_file(log), seated); t++)
            usleep(10000);
    }
}

/* Each client's own exit status must be 0: a crash at the end of the match is a failure. */
static void wait_clients(Proc *procs, const char *dir, int n)
{
    for (int i = 0; i < n; i++) {
        int st = proc_wait(&procs[i], 120);
        if (st != 0) {
            char e[256];
            snprintf(e, sizeof e, "%s/c%d.err", dir, i);
            fail_msg("dhm connect client %d exited with status %d: %s", i, st, slurp(e));
        }
    }
}

/* The five totals of the match table that `dhm play`, `serve` and `connect` print:
 * rows "N   NAME(28 columns) TOTAL MEAN ..." after the "#   player" header. */
static void table_totals(const char *out, long totals[5])
{
    const char *h = strstr(out, "\n#   player");
    if (!h && !strncmp(out, "#   player", 10))
        h = out - 1;
    assert_non_null(h);
    const char *l = strchr(h + 1, '\n');
    for (int p = 0; p < 5; p++) {
        assert_non_null(l);
        l++;
        assert_int_equal(atoi(l), p);
        assert_true(strlen(l) > 33);
        totals[p] = strtol(l + 33, NULL, 10);
        l = strchr(l, '\n');
    }
}

/* dhm serve + five dhm connect (random, simple, mc, the choice bandit): every client exits 0
 * and prints the server's totals, and the match equals the same match in-process. */
static void test_end_to_end(void **state)
{
    (void)state;
    Srv s;
    char rec[160], out[1 << 14];
    snprintf(rec, sizeof rec, "/tmp/dhm-e2e-%d.kifu", (int)getpid());
    char args[256];
    snprintf(args, sizeof args, "--games 60 --seed 7 --json --record %s", rec);
    srv_start(&s, args);
    const char *specs[5] = {"random", "simple", "mc:sims=30", "mc:bandit=choice:sims=20", "simple"};
    Proc cl[5];
    connect_clients(cl, s.dir, s.port, specs, 5, 7, "");
    wait_clients(cl, s.dir, 5);
    assert_int_equal(srv_wait(&s, 120), 0);
    char served[1 << 14];
    snprintf(served, sizeof served, "%s", slurp(s.out));
    long total = 0;
    for (int p = 0; p < 5; p++)
        total += json_long(served, "\"total\": ", p);
    assert_int_equal(total, 60 * 15);
    for (int i = 0; i < 5; i++) { /* what each client printed is what the server counted */
        char o[256];
        long t[5];
        snprintf(o, sizeof o, "%s/c%d.out", s.dir, i);
        table_totals(slurp(o), t);
        for (int p = 0; p < 5; p++)
            assert_int_equal(t[p], json_long(served, "\"total\": ", p));
    }
    assert_int_equal(run_cmd(out, sizeof out, "%s replay --quiet %s", dhm_bin(), rec), 0);
    assert_non_null(strstr(out, "60 games"));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players %s,%s,%s,%s,%s --games 60 --seed 7 --json --quiet",
                             dhm_bin(), specs[0], specs[1], specs[2], specs[3], specs[4]),
                     0);
    for (int p = 0; p < 5; p++)
        assert_int_equal(json_long(served, "\"total\": ", p), json_long(out, "\"total\": ", p));
    unlink(rec);
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

/* Monte Carlo players behind `dhm connect` and in `dhm serve` seats decide exactly as in
 * process: a client rebuilds from the tables the same information set the engine gives (the
 * exchange included), and each player's RNG stream depends only on (seed, player number). */
static void test_mc_players_over_the_network(void **state)
{
    (void)state;
    Srv s;
    char out[1 << 14];
    srv_start(&s, "--games 40 --seed 9 --json --seats mc:sims=30,remote,simple,remote,simple");
    const char *remote[2] = {"mc:bandit=ucb-root:sims=30:desa=last", "mc:bandit=choice:sims=20"};
    Proc cl[2];
    connect_clients(cl, s.dir, s.port, remote, 2, 9, "--json");
    wait_clients(cl, s.dir, 2);
    assert_int_equal(srv_wait(&s, 120), 0);
    char served[1 << 14];
    snprintf(served, sizeof served, "%s", slurp(s.out));
    assert_int_equal(run_cmd(out, sizeof out,
                             "%s play --players mc:sims=30,%s,simple,%s,simple --games 40 --seed 9 --json --quiet",
                             dhm_bin(), remote[0], remote[1]),
                     0);
    for (int p = 0; p < 5; p++)
        assert_int_equal(json_long(served, "\"total\": ", p), json_long(out, "\"total\": ", p));
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

/* The sum of the pass counts in a player's "est_time" report (mc:est-time=1), or -1. */
static long est_time_passes(const char *json, long *games)
{
    const char *q = strstr(json, "\"est_time\": {\"games\": ");
    if (!q)
        return -1;
    *games = strtol(q + strlen("\"est_time\": {\"games\": "), NULL, 10);
    if (!(q = strstr(q, "\"passes\": [")))
        return -1;
    const char *end = strstr(q, "]]]}");
    long sum = 0;
    for (q += strlen("\"passes\": ["); end && q < end; q++)
        if (*q >= '0' && *q <= '9') {
            char *e;
            sum += strtol(q, &e, 10);
            q = e - 1;
        }
    return end ? sum : -1;
}

/* mc:est-time=1 learns its opponents' times of passes both as a seat of dhm serve (the engine
 * times every move) and behind dhm connect, where the client times each player from the turn's
 * table to the field broadcast: both count every pass of the same games. */
static void test_times_over_the_network(void **state)
{
    (void)state;
    Srv s;
    srv_start(&s, "--games 8 --seed 10 --json --seats mc:est=policy:est-time=1:sims=20,remote,simple,policy,simple");
    const char *remote[1] = {"mc:est=policy:est-time=1:sims=20"};
    Proc cl[1];
    connect_clients(cl, s.dir, s.port, remote, 1, 10, "--json");
    wait_clients(cl, s.dir, 1);
    assert_int_equal(srv_wait(&s, 120), 0);
    char served[1 << 14], o[256];
    snprintf(served, sizeof served, "%s", slurp(s.out));
    snprintf(o, sizeof o, "%s/c0.out", s.dir);
    long g_seat = 0, g_client = 0;
    const long seat = est_time_passes(served, &g_seat), client = est_time_passes(slurp(o), &g_client);
    if (seat < 50 || client != seat || g_seat != g_client || g_seat < 6)
        fail_msg("passes counted: %ld in %ld games in the server's seat, %ld in %ld behind dhm connect", seat, g_seat,
                 client, g_client);
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stalemate_and_handshake),
        cmocka_unit_test(test_protocol_observables),
        cmocka_unit_test(test_disconnect_passes_forever),
        cmocka_unit_test(test_garbage_and_framing),
        cmocka_unit_test(test_silent_client_and_bad_handshakes),
        cmocka_unit_test(test_port_in_use_and_bad_input),
        cmocka_unit_test(test_client_against_garbage),
        cmocka_unit_test(test_end_to_end),
        cmocka_unit_test(test_mc_players_over_the_network),
        cmocka_unit_test(test_times_over_the_network),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

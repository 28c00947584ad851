/* test_watch.c — the live view (watch/, dhm serve --watch, dhm tournament --watch):
 *   - the feed and the frames: every recorded game's frames carry the record's moves, in order,
 *     with dhm view's words; hidden hands stay hidden; a feed nobody drains never changes or
 *     stops a match (the same results as unwatched), whole games are left out, never half;
 *   - dhm serve --watch with five dhm connect clients, the page in headless Chromium from the
 *     start and a second one joining mid-match: the moves each page shows are the kifu
 *     record's, in order, game by game; a raw viewer joining mid-game gets that game from its deal;
 *   - the same with a real external UECda client in three seats (DHM_UECDA_CLIENT names its
 *     binary, which takes -h HOST -p PORT -n NAME; skipped when unset);
 *   - hostile viewers (100 connect/disconnect cycles, a 1 MB request, a 1 MB body, garbage, a
 *     slowloris client, 32 streams and a refused 33rd): the match ends with the record it has
 *     without --watch;
 *   - dhm tournament --watch in Chromium during a run: the standings it ends with are those of
 *     dhm rate --db and of the tournament's summary; a set being played can be watched.
 * Chromium tests are skipped when there is no chromium on PATH. */
#include "testutil.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include "record/kifu.h"
#include "report/viewfmt.h"
#include "watch/frames.h"
#include "watch/watch.h"

/* ---- helpers ---- */

#ifdef __has_feature
#define HAS_ASAN_CLANG __has_feature(address_sanitizer)
#else
#define HAS_ASAN_CLANG 0
#endif

static int have_chromium(void) { return run_cmd(NULL, 0, "command -v chromium >/dev/null 2>&1") == 0; }

static int tcp_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
        if (k <= 0)
            return -1;
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Reads from fd into out (NUL-terminated) until it closes, `stop` appears, or ms pass. */
static size_t read_until(int fd, char *out, size_t cap, const char *stop, int ms)
{
    size_t n = 0;
    double end = game_clock_ms() + ms;
    out[0] = 0;
    while (n + 1 < cap) {
        int left = (int)(end - game_clock_ms());
        struct pollfd p = {fd, POLLIN, 0};
        if (left <= 0 || poll(&p, 1, left) <= 0)
            break;
        ssize_t k = recv(fd, out + n, cap - 1 - n, 0);
        if (k <= 0)
            break;
        n += (size_t)k;
        out[n] = 0;
        if (stop && strstr(out, stop))
            break;
    }
    return n;
}

/* One request, the whole answer (the connection closed by the server, or ms). */
static size_t http(int port, const char *req, size_t reqlen, char *out, size_t cap, int ms)
{
    int fd = tcp_connect(port);
    if (fd < 0)
        return 0;
    send_all(fd, req, reqlen);
    size_t n = read_until(fd, out, cap, NULL, ms);
    close(fd);
    return n;
}

/* A raw viewer: GET path, its stream read into out until `stop` appears (or ms pass); it leaves. */
static void stream_read(int port, const char *path, char *out, size_t cap, const char *stop, int ms)
{
    int fd = tcp_connect(port);
    assert_true(fd >= 0);
    char req[256];
    const int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
    send_all(fd, req, (size_t)n);
    read_until(fd, out, cap, stop, ms);
    close(fd);
}

/* The number after key in the text of file path (waiting up to ms for it to appear), or 0. */
static int wait_number(const char *path, const char *key, int ms)
{
    for (int t = 0; t < ms; t += 20) {
        const char *s = slurp_file(path), *p = strstr(s, key);
        if (p)
            return atoi(p + strlen(key));
        usleep(20000);
    }
    return 0;
}

static int wait_text(const char *path, const char *text, int ms)
{
    for (int t = 0; t < ms; t += 20) {
        if (strstr(slurp_file(path), text))
            return 1;
        usleep(20000);
    }
    return 0;
}

/* A game as a page or a stream shows it: its number and each move's text (dhm view's words). */
typedef struct Shown {
    int g, n;
    char mv[GAME_MAX_PLAYS][40];
} Shown;

/* The kifu file's games: the moves as dhm view writes them. */
static int kifu_games(const char *path, Shown *out, int max)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    KifuReader r;
    kifu_reader_init(&r, f, path);
    KifuGame *g = malloc(sizeof *g);
    char err[256];
    int n = 0, rc;
    while (n < max && (rc = kifu_next(&r, g, err, sizeof err)) == 1) {
        out[n].g = g->number;
        out[n].n = g->nplays;
        for (int i = 0; i < g->nplays; i++)
            viewfmt_move_text(g->plays[i], out[n].mv[i], sizeof out[n].mv[i]);
        n++;
    }
    free(g);
    kifu_reader_free(&r);
    fclose(f);
    return n;
}

/* The cards of one .mv span of the page as text: "8♥ JK(7♥)" or "pass". */
static const char *dom_move(const char *p, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = 0;
    if (!strncmp(p, "<span class=\"ps\">pass</span>", 28)) {
        snprintf(out, cap, "pass");
        return p + 28;
    }
    while (!strncmp(p, "<span class=\"cd", 15)) {
        p = strchr(p, '>') + 1;
        const char *e = strchr(p, '<');
        k += (size_t)snprintf(out + k, cap - k, "%s%.*s", k ? " " : "", (int)(e - p), p);
        p = e;
        if (!strncmp(p, "<small>", 7)) {
            p += 7;
            e = strstr(p, "</small>");
            k += (size_t)snprintf(out + k, cap - k, "(%.*s)", (int)(e - p), p);
            p = e + 8;
        }
        p += strlen("</span>");
    }
    return p;
}

/* The page's recent games (newest first in the page; returned oldest first). */
static int dom_games(const char *dom, Shown *out, int max)
{
    int n = 0;
    for (const char *p = strstr(dom, "<details class=\"gm\" data-g=\""); p && n < max;
         p = strstr(p + 1, "<details class=\"gm\" data-g=\"")) {
        if (p[28] < '0' || p[28] > '9')
            continue; /* the page's script, not a game */
        Shown *s = &out[n++];
        s->g = atoi(p + 28);
        s->n = 0;
        const char *end = strstr(p, "</details>");
        for (const char *m = strstr(p, "<span class=\"mv\""); m && m < end && s->n < GAME_MAX_PLAYS;
             m = strstr(m + 1, "<span class=\"mv\"")) {
            const char *who = strstr(m, "<span class=\"who\">");
            const char *after = strstr(who, "</span></span>"); /* the who span ends with the player's */
            dom_move(after + strlen("</span></span>"), s->mv[s->n++], sizeof s->mv[0]);
        }
    }
    for (int i = 0; i < n / 2; i++) { /* oldest first */
        Shown t;
        memcpy(&t, &out[i], sizeof t);
        memcpy(&out[i], &out[n - 1 - i], sizeof t);
        memcpy(&out[n - 1 - i], &t, sizeof t);
    }
    return n;
}

/* Every game shown equals the record's game of the same number, move by move. */
static void same_moves(const Shown *shown, int n, const Shown *rec, int nrec, const char *who)
{
    for (int i = 0; i < n; i++) {
        const Shown *k = NULL;
        for (int j = 0; j < nrec; j++)
            if (rec[j].g == shown[i].g)
                k = &rec[j];
        if (!k)
            fail_msg("%s shows game %d, which the record does not have", who, shown[i].g);
        if (shown[i].n != k->n)
            fail_msg("%s: game %d has %d moves, the record %d", who, shown[i].g, shown[i].n, k->n);
        for (int m = 0; m < k->n; m++)
            if (strcmp(shown[i].mv[m], k->mv[m]))
                fail_msg("%s: game %d move %d is '%s', the record's '%s'", who, shown[i].g, m, shown[i].mv[m], k->mv[m]);
    }
}

/* The "m" of every play frame of game g in an event stream (from its deal on). */
static int stream_game(const char *s, int g, Shown *out)
{
    char deal[48];
    snprintf(deal, sizeof deal, "\"t\":\"deal\",\"g\":%d,", g);
    const char *p = strstr(s, deal);
    out->g = g;
    out->n = 0;
    if (!p)
        return 0;
    for (p = strstr(p, "data: "); p; p = strstr(p + 1, "data: ")) {
        if (!strncmp(p, "data: {\"t\":\"end\"", 16) ||
            (!strncmp(p, "data: {\"t\":\"deal\"", 17) && strncmp(p + 6 + 1, deal, strlen(deal))))
            break;
        const char *m = !strncmp(p, "data: {\"t\":\"play\"", 17) ? strstr(p, "\"m\":\"") : NULL;
        if (m) {
            m += 5;
            const char *e = strchr(m, '"');
            snprintf(out->mv[out->n++], sizeof out->mv[0], "%.*s", (int)(e - m), m);
        }
    }
    return 1;
}

/* ---- the feed and the frames, in-process ---- */

/* A viewer joining at some moment: the log position then, and the count of the last result its
 * snapshot told (the hello's, or its last end frame's). */
typedef struct Join {
    uint64_t w;
    long last;
} Join;

typedef struct Drain {
    WatchFeed *f;
    WatchChan ch;
    WatchRec *buf;
    Shown *games, *recs; /* drained: the frames' moves and the record's, per game */
    int *nplays;         /* per game */
    int ngames, drain;
    Join *joins;         /* joins: a viewer joins after every record applied (drained after every third game) */
    int njoins, maxjoins;
} Drain;

/* The number after "key": in the frame at p (up to its blank line), or -1. */
static long frame_long(const char *p, const char *key)
{
    const char *end = strstr(p, "\n\n"), *k = strstr(p, key);
    return k && (!end || k < end) ? atol(k + strlen(key)) : -1;
}

/* The results a stream tells, in order, from `last` on: every end frame must count one game more
 * than the one before (a hello, first in a snapshot, sets the count). Returns the last count. */
static long ends_follow(const char *s, long last, const char *who)
{
    for (const char *p = strstr(s, "data: {"); p; p = strstr(p + 1, "data: {")) {
        if (!strncmp(p, "data: {\"t\":\"hello\"", 18)) {
            if (p != s)
                fail_msg("%s: a hello in the middle", who);
            last = frame_long(p, "\"done\":");
        } else if (!strncmp(p, "data: {\"t\":\"end\"", 16)) {
            const long done = frame_long(p, "\"done\":");
            if (done != last + 1)
                fail_msg("%s: a result saying %ld games done after %ld", who, done, last);
            last = done;
        }
    }
    return last;
}

/* A viewer joins now: its snapshot's results follow its hello one by one; what it reads next
 * (the log from here) is checked at the end (joins_check). */
static void join_now(Drain *d)
{
    Sb snap = {0};
    chan_snapshot(&d->ch, &snap);
    assert_non_null(snap.s);
    assert_true(!strncmp(snap.s, "data: {\"t\":\"hello\"", 18));
    const long hello = frame_long(snap.s, "\"done\":");
    /* the hello's chart ends at or before its count */
    const char *ch = strstr(snap.s, "\"chart\":["), *lastpt = NULL;
    for (const char *q = strchr(ch, '[') + 1; (q = strchr(q, '[')) && q < strstr(ch, "]]") + 2; q++)
        lastpt = q;
    if (lastpt && atol(lastpt + 1) > hello)
        fail_msg("a hello saying %ld games done with a chart point at %ld", hello, atol(lastpt + 1));
    assert_true(d->njoins < d->maxjoins);
    d->joins[d->njoins++] = (Join){d->ch.w, ends_follow(snap.s, hello, "a joiner's snapshot")};
    sb_free(&snap);
}

/* After the match: for every joiner, the first result in the log after it joined is the one after
 * its snapshot's last, and the log's results follow one another to the last game. */
static void joins_check(Drain *d, long games)
{
    assert_true(d->ch.w < d->ch.cap); /* the log never wrapped: it is all there */
    char *log = malloc(d->ch.w + 1);
    memcpy(log, d->ch.log, d->ch.w);
    log[d->ch.w] = 0;
    int nend = 0;
    for (const char *p = strstr(log, "data: {\"t\":\"end\""); p; p = strstr(p + 1, "data: {\"t\":\"end\""))
        nend++;
    assert_int_equal(nend, games); /* every game's result went out */
    uint64_t *pos = malloc((size_t)nend * sizeof *pos);
    long *done = malloc((size_t)nend * sizeof *done);
    int k = 0;
    for (const char *p = strstr(log, "data: {\"t\":\"end\""); p; p = strstr(p + 1, "data: {\"t\":\"end\"")) {
        pos[k] = (uint64_t)(p - log);
        done[k] = frame_long(p, "\"done\":");
        assert_int_equal(done[k], k + 1);
        k++;
    }
    int e = 0;
    for (int j = 0; j < d->njoins; j++) {
        while (e < nend && pos[e] < d->joins[j].w)
            e++;
        const long next = e < nend ? done[e] : games + 1;
        if (next != d->joins[j].last + 1)
            fail_msg("a viewer joining at byte %llu was told %ld games done, then the result of game %ld",
                     (unsigned long long)d->joins[j].w, d->joins[j].last, next);
    }
    free(pos);
    free(done);
    free(log);
}

static void drain_now(Drain *d)
{
    int n;
    while ((n = watch_feed_drain(d->f, d->buf, WATCH_RING)) > 0)
        for (int i = 0; i < n; i++)
            chan_apply(&d->ch, &d->buf[i]);
}

static int after_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    Drain *d = ctx;
    d->nplays[d->ngames] = rec->nplays;
    if (d->joins && rec->number % 3 == 2) /* a record at a time, a viewer joining after each */
        while (watch_feed_drain(d->f, d->buf, 1) == 1) {
            chan_apply(&d->ch, &d->buf[0]);
            join_now(d);
        }
    if (d->drain) {
        Shown *k = &d->recs[d->ngames];
        k->g = rec->number;
        k->n = rec->nplays;
        for (int i = 0; i < rec->nplays; i++)
            viewfmt_move_text(rec->plays[i].move, k->mv[i], sizeof k->mv[i]);
        drain_now(d);
        /* the game kept for joiners is this game's frames: its moves are the record's */
        assert_true(stream_game(d->ch.game.s ? d->ch.game.s : "", rec->number, &d->games[d->ngames]));
    }
    d->ngames++;
    return 0;
}

/* A match of simple and random players, watched (drain: the reader takes everything after each
 * game; else nobody reads; maxjoins > 0: the reader takes a record at a time after every third
 * game, a viewer joining after each), or not at all (watched = 0). */
static void play_watched_joins(Drain *d, int games, int watched, int drain, int hands, int maxjoins, MatchResult *res)
{
    Player *pl[NPLAYERS];
    const char *kinds[NPLAYERS] = {"simple", "random", "simple", "random", "simple"};
    char err[256];
    for (int p = 0; p < NPLAYERS; p++)
        assert_int_equal(player_create(kinds[p], player_seed(7, p), &pl[p], err, sizeof err), 0);
    MatchConfig mc;
    match_config_default(&mc);
    mc.games = games;
    mc.seed = 7;
    GameRecord *rec = malloc(sizeof *rec);
    memset(d, 0, sizeof *d);
    d->drain = drain;
    d->nplays = calloc((size_t)games, sizeof *d->nplays);
    if (drain) {
        d->games = calloc((size_t)games, sizeof *d->games);
        d->recs = calloc((size_t)games, sizeof *d->recs);
    }
    d->buf = malloc(WATCH_RING * sizeof *d->buf);
    if (maxjoins) {
        d->joins = calloc((size_t)maxjoins, sizeof *d->joins);
        d->maxjoins = maxjoins;
    }
    assert_int_equal(chan_init(&d->ch, CHAN_MATCH, 8 << 20), 0);
    const char *names[NPLAYERS] = {"a<b>", "b\"q", "c&d", "d", "e"};
    chan_reset(&d->ch, -1, names, games);
    d->ch.hands = hands;
    d->f = watch_feed_new(0, 1);
    d->f->gap_ms = 0; /* every game the reader has room for, not ten a second */
    watch_feed_begin(d->f, -1, NULL);
    assert_int_equal(match_run(pl, &mc, watched ? watch_feed_hooks(d->f) : NULL, after_game, d, rec, res), 0);
    watch_feed_over(d->f);
    drain_now(d);
    free(rec);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
}

static void play_watched(Drain *d, int games, int watched, int drain, int hands, MatchResult *res)
{
    play_watched_joins(d, games, watched, drain, hands, 0, res);
}

static void drain_free(Drain *d)
{
    free(d->joins);
    chan_free(&d->ch);
    watch_feed_free(d->f);
    free(d->buf);
    free(d->games);
    free(d->recs);
    free(d->nplays);
}

static void test_frames_follow_the_record(void **state)
{
    (void)state;
    Drain d;
    MatchResult res, plain;
    play_watched(&d, 40, 1, 1, 1, &res);
    same_moves(d.games, d.ngames, d.recs, d.ngames, "the frames"); /* every game recorded in full */
    for (int g = 0; g < d.ngames; g++)
        assert_int_equal(d.games[g].n, d.nplays[g]);
    assert_int_equal(d.ch.done, 40);
    assert_int_equal(d.ch.skipped, 0);
    for (int p = 0; p < NPLAYERS; p++)
        assert_int_equal(d.ch.totals[p], res.points[p]);
    /* a joiner's snapshot: hello with the escaped names and the standings, the last game, over */
    Sb snap = {0};
    chan_snapshot(&d.ch, &snap);
    assert_non_null(strstr(snap.s, "\"names\":[\"a\\u003cb\\u003e\",\"b\\\"q\",\"c\\u0026d\",\"d\",\"e\"]"));
    assert_null(strstr(snap.s, "<b>"));
    assert_non_null(strstr(snap.s, "\"t\":\"deal\",\"g\":39,"));
    assert_non_null(strstr(snap.s, "data: {\"t\":\"over\""));
    assert_non_null(strstr(snap.s, "\"hands\":["));
    /* and the last RECENT_GAMES games shown, oldest first, each move the record's, by ply */
    int k = 0;
    for (const char *p = strstr(snap.s, "data: {\"t\":\"game\","); p; p = strstr(p + 1, "data: {\"t\":\"game\",")) {
        const int g = (int)frame_long(p, "\"g\":");
        assert_int_equal(g, 40 - RECENT_GAMES + k);
        const char *end = strstr(p, "\n\n");
        int ply = 0;
        for (const char *m = strstr(p, "{\"i\":"); m && m < end; m = strstr(m + 1, "{\"i\":"), ply++) {
            assert_int_equal(atoi(m + 5), ply);
            const char *t = strstr(m, "\"m\":\"") + 5;
            char mv[64];
            snprintf(mv, sizeof mv, "%.*s", (int)(strchr(t, '"') - t), t);
            assert_string_equal(mv, d.recs[g].mv[ply]);
        }
        assert_int_equal(ply, d.recs[g].n);
        k++;
    }
    assert_int_equal(k, RECENT_GAMES);
    sb_free(&snap);
    drain_free(&d);
    /* watching changed nothing */
    play_watched(&d, 40, 0, 0, 1, &plain);
    assert_memory_equal(plain.points, res.points, sizeof res.points);
    drain_free(&d);
}

/* A viewer joining at any moment (after any record the view applies: in the middle of a game
 * shown in full, after it, between the results of games not shown) is told a count in its hello
 * and then every result after it, one by one, to the last game: the standings never step back
 * and no game is missing (it was: a hello saying 49 games, then a replay of game 47 saying 48,
 * and game 48's result never came). */
static void test_joiners_see_every_result_once(void **state)
{
    (void)state;
    Drain d;
    MatchResult res;
    play_watched_joins(&d, 60, 1, 0, 1, 20000, &res);
    assert_true(d.njoins > 500);
    assert_true(d.ch.skipped > 20 && d.ch.skipped < 50); /* games shown in full and games not */
    joins_check(&d, 60);
    drain_free(&d);
}

static void test_hidden_hands(void **state)
{
    (void)state;
    Drain d;
    MatchResult res;
    play_watched(&d, 6, 1, 1, 0, &res);
    Sb snap = {0};
    chan_snapshot(&d.ch, &snap);
    assert_null(strstr(snap.s, "\"hands\":["));
    assert_non_null(strstr(snap.s, "\"hands\":0,"));
    assert_null(strstr(snap.s, "\"h\":"));
    assert_null(strstr(snap.s, "\"c\":"));       /* no exchanged cards */
    assert_non_null(strstr(snap.s, "\"n\":["));  /* the counts are public */
    assert_non_null(strstr(snap.s, "\"t\":\"play\""));
    sb_free(&snap);
    drain_free(&d);
}

static void test_undrained_feed_never_stops_a_match(void **state)
{
    (void)state;
    Drain d, plain;
    MatchResult res, res0;
    play_watched(&d, 3000, 1, 0, 1, &res); /* nobody reads: the ring fills, games are left out */
    play_watched(&plain, 3000, 0, 0, 1, &res0);
    assert_memory_equal(res.points, res0.points, sizeof res.points);
    assert_memory_equal(d.nplays, plain.nplays, 3000 * sizeof *d.nplays);
    /* the first game went in whole; every later one was left out whole (its result, then drops) */
    Shown *g0 = malloc(sizeof *g0);
    assert_true(stream_game(d.ch.game.s ? d.ch.game.s : "", 0, g0));
    assert_int_equal(g0->n, d.nplays[0]);
    free(g0);
    assert_null(strstr(d.ch.game.s, "\"t\":\"deal\",\"g\":1,"));
    assert_true(atomic_load(&d.f->dropped) > 0);
    assert_int_equal(d.f->skipped, 2999);
    drain_free(&d);
    drain_free(&plain);
}

/* ---- dhm serve --watch ---- */

typedef struct Served {
    char dir[64], err[128], out[128], kifu[128];
    Proc srv, cl[NPLAYERS];
    int port, wport;
} Served;

/* dhm serve --watch 0 with extra options, its two ports read from its log. */
static void serve_start(Served *s, const char *opts)
{
    assert_non_null(test_tmpdir(s->dir, sizeof s->dir));
    snprintf(s->err, sizeof s->err, "%s/serve.err", s->dir);
    snprintf(s->out, sizeof s->out, "%s/serve.out", s->dir);
    snprintf(s->kifu, sizeof s->kifu, "%s/match.kifu", s->dir);
    proc_start(&s->srv, s->out, s->err, "%s serve --port 0 --record %s --wait 60000 %s", dhm_bin(), s->kifu, opts);
    s->port = wait_number(s->err, "listening on 127.0.0.1:", 10000);
    s->wport = wait_number(s->err, "watch live at http://127.0.0.1:", 10000);
    assert_true(s->port > 0);
    assert_true(s->wport > 0);
}

/* Client i: dhm connect simple, or (ext) the external client. */
static void client_start(Served *s, int i, const char *ext)
{
    char log[128];
    snprintf(log, sizeof log, "%s/client%d.log", s->dir, i);
    if (ext)
        proc_start(&s->cl[i], log, log, "%s -h 127.0.0.1 -p %d -n ext%d", ext, s->port, i);
    else
        proc_start(&s->cl[i], log, log, "%s connect --port %d --player simple --name '%s%d' --quiet", dhm_bin(), s->port,
                   i == 1 ? "d<b>" : "dhm", i);
    char seated[32];
    snprintf(seated, sizeof seated, "player %d: ", i);
    assert_true(wait_text(s->err, seated, 30000)); /* connection order = player numbers */
}

static void serve_wait(Served *s)
{
    assert_int_equal(proc_wait(&s->srv, 300), 0);
    for (int i = 0; i < NPLAYERS; i++)
        assert_int_equal(proc_wait(&s->cl[i], 60), 0);
}

static void chromium_start(Proc *p, const char *dir, const char *name, int port, const char *path)
{
    char out[160], err[160];
    snprintf(out, sizeof out, "%s/%s.html", dir, name);
    snprintf(err, sizeof err, "%s/%s.log", dir, name);
    proc_start(p, out, err,
               "timeout 240 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 "
               "--virtual-time-budget=600000 --user-data-dir=%s/%s.profile --dump-dom 'http://127.0.0.1:%d%s'",
               dir, name, port, path);
}

/* The page's DOM after its stream ended, checked: no console error, the end seen. */
static char *chromium_dom(Proc *p, const char *dir, const char *name)
{
    assert_int_equal(proc_wait(p, 300), 0);
    char path[160];
    snprintf(path, sizeof path, "%s/%s.log", dir, name);
    const char *log = slurp_file(path);
    if (strstr(log, "CONSOLE"))
        fail_msg("%s: the page logged: %.1500s", name, strstr(log, "CONSOLE"));
    snprintf(path, sizeof path, "%s/%s.html", dir, name);
    size_t n;
    char *dom = read_all(path, &n);
    assert_non_null(dom);
    return dom;
}

/* What a spectator follows, on a page whose match is over (last: the record's last game): the
 * newest move marked, and only it (the game's last ply); the thinking times shown; the
 * standings ranked by points, above the game. */
static void check_following(const char *dom, const Shown *last, const char *who)
{
    const char *game = strstr(dom, "<div id=\"game\">");
    assert_non_null(game);
    const char *mark = strstr(game, "<span class=\"mv last\" data-i=\"");
    if (!mark)
        fail_msg("%s: no move marked as the newest", who);
    assert_int_equal(atoi(mark + strlen("<span class=\"mv last\" data-i=\"")), last->n - 1);
    assert_null(strstr(mark + 10, "class=\"mv last\"")); /* one mark */
    char want[64];
    snprintf(want, sizeof want, "<h2>Game %d ", last->g);
    assert_non_null(strstr(game, want));
    assert_non_null(strstr(game, "<span class=\"tt\">")); /* thinking times (the match is timed: --record) */
    const char *st = strstr(dom, "<table id=\"standings\">");
    assert_non_null(st);
    assert_true(st < game); /* where a spectator looks first */
    long prev = 1L << 40;
    int rows = 0;
    for (const char *r = strstr(st, "<tr data-p=\""); r && r < game; r = strstr(r + 1, "<tr data-p=\"")) {
        const char *pts = strstr(strstr(r, "<td class=\"l\">"), "</td><td>") + 9; /* after the player */
        long v = atol(pts);
        if (v > prev)
            fail_msg("%s: the standings are not ranked by points (%ld after %ld)", who, v, prev);
        prev = v;
        rows++;
    }
    assert_int_equal(rows, NPLAYERS);
}

/* Serve a match with the page open from the start and a second one joining in the middle. */
static void page_equals_record(const char *ext, int nexternal)
{
    Served s;
    serve_start(&s, "--games 10 --seed 3 --watch 0 --watch-delay 20");
    Proc a, b, c;
    chromium_start(&a, s.dir, "first", s.wport, "/");
    /* a viewer that pauses at once and then steps 5 times (?pause=0&step=5): the deal, then the
     * first four moves of game 0; it holds back the rest while the match goes on to its end */
    chromium_start(&c, s.dir, "paused", s.wport, "/?pause=0&step=5");
    usleep(300000);
    for (int i = 0; i < NPLAYERS; i++)
        client_start(&s, i, i < nexternal ? ext : NULL);
    /* a raw viewer in the middle of game 4 (game 3 just ended; a game lasts > 0.5 s at 20 ms a move) */
    assert_true(wait_text(s.err, "game 3:", 120000));
    usleep(200000);
    static char ev[1 << 20];
    stream_read(s.wport, "/events", ev, sizeof ev, "\"t\":\"end\",\"g\":4,", 60000);
    chromium_start(&b, s.dir, "joiner", s.wport, "/");
    serve_wait(&s);
    static Shown rec[16], pa[60], pb[60], raw;
    int nrec = kifu_games(s.kifu, rec, 16);
    assert_int_equal(nrec, 10);
    /* the raw viewer: hello, then game 4 from its deal (it joined after), every move */
    assert_true(!strncmp(ev, "HTTP/1.1 200", 12));
    assert_true(strstr(ev, "\"t\":\"hello\"") < strstr(ev, "\"t\":\"deal\",\"g\":4,"));
    assert_null(strstr(ev, "\"t\":\"deal\",\"g\":3,"));
    assert_true(stream_game(ev, 4, &raw));
    same_moves(&raw, 1, rec, nrec, "the raw viewer");
    /* the page open from the start shows all ten games, each as recorded */
    char *dom = chromium_dom(&a, s.dir, "first");
    assert_non_null(strstr(dom, "data-state=\"over\""));
    if (nexternal < 2) { /* player 1 is a dhm client named d<b>1 */
        assert_non_null(strstr(dom, "d&lt;b&gt;1"));
        assert_null(strstr(dom, "d<b>1")); /* the name as text, never as markup */
    } else {
        assert_non_null(strstr(dom, "ext0")); /* the external clients' own names */
    }
    int n = dom_games(dom, pa, 60);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; i++)
        assert_int_equal(pa[i].g, i);
    same_moves(pa, n, rec, nrec, "the page");
    check_following(dom, &rec[nrec - 1], "the page");
    free(dom);
    /* the one that joined later: the games before it joined too (the server keeps the recent
     * games for every viewer), each whole */
    dom = chromium_dom(&b, s.dir, "joiner");
    assert_non_null(strstr(dom, "data-state=\"over\""));
    n = dom_games(dom, pb, 60);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; i++)
        assert_int_equal(pb[i].g, i);
    same_moves(pb, n, rec, nrec, "the joining page");
    check_following(dom, &rec[nrec - 1], "the joining page");
    free(dom);
    dom = chromium_dom(&c, s.dir, "paused");
    assert_non_null(strstr(dom, "data-paused=\"1\""));
    if (!strstr(dom, "data-plays=\"4\""))
        fail_msg("paused page: %.600s", strstr(dom, "<body"));
    assert_null(strstr(dom, "data-state=\"over\"")); /* the end is among what it holds */
    assert_null(strstr(dom, "data-held=\"0\""));
    assert_non_null(strstr(dom, "held back; the match goes on"));
    /* what it shows: the games the server kept for it, whole (when Chromium connected after the
     * first games), and the game it paused in with four moves, the newest the record's fourth */
    n = dom_games(dom, pb, 60);
    same_moves(pb, n, rec, nrec, "the paused page");
    const char *cur = strstr(dom, "<div id=\"game\"><h2>Game ");
    assert_non_null(cur);
    Shown now = {.g = atoi(cur + strlen("<div id=\"game\"><h2>Game ")), .n = 4};
    assert_true(now.g >= 0 && now.g < nrec && now.g == n); /* the game after those kept */
    check_following(dom, &now, "the paused page");
    const char *mk = strstr(cur, "<span class=\"mv last\"");
    char mvtext[40];
    dom_move(strstr(strstr(mk, "<span class=\"who\">"), "</span></span>") + strlen("</span></span>"), mvtext,
             sizeof mvtext);
    assert_string_equal(mvtext, rec[now.g].mv[3]);
    free(dom);
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

static void test_serve_page_in_chromium(void **state)
{
    (void)state;
    if (!have_chromium())
        skip();
    page_equals_record(NULL, 0);
}

static void test_serve_page_external_clients(void **state)
{
    (void)state;
    const char *ext = getenv("DHM_UECDA_CLIENT");
    if (!ext || !*ext || access(ext, X_OK) || !have_chromium()) {
        print_message("skipped: DHM_UECDA_CLIENT does not name an executable UECda client (or no chromium)\n");
        skip();
    }
    page_equals_record(ext, 3);
}

/* The kifu without the thinking times. */
static char *kifu_untimed(const char *path)
{
    size_t n;
    char *s = read_all(path, &n), *o = s;
    assert_non_null(s);
    for (const char *p = s; *p; p++) {
        if (*p == '[') {
            while (*p && *p != ']')
                p++;
            continue;
        }
        *o++ = *p;
    }
    *o = 0;
    return s;
}

static void test_hostile_viewers(void **state)
{
    (void)state;
    Served s;
    serve_start(&s, "--games 150 --seed 5 --watch 0 --watch-timeout 2 --watch-delay 1");
    for (int i = 0; i < NPLAYERS; i++)
        client_start(&s, i, NULL);
    static char buf[1 << 16];
    /* ?for=MS: a stream that ends by itself (the final chunk) after MS */
    double t0 = game_clock_ms();
    const char *forq = "GET /events?for=300 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    http(s.wport, forq, strlen(forq), buf, sizeof buf, 10000);
    if (strncmp(buf, "HTTP/1.1 200", 12))
        fail_msg("?for=300: %.300s", buf);
    assert_non_null(strstr(buf, "data: {\"t\":\"hello\""));
    assert_non_null(strstr(buf, "\r\n0\r\n\r\n"));
    assert_true(game_clock_ms() - t0 < 8000);
    /* 100 viewers that connect and leave, half of them before their first byte */
    for (int i = 0; i < 100; i++) {
        int fd = tcp_connect(s.wport);
        assert_true(fd >= 0);
        if (i % 2) {
            const char *req = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n";
            send_all(fd, req, strlen(req));
            read_until(fd, buf, 4096, "data: ", 2000);
        }
        close(fd);
    }
    /* a request of 1 MB: a header line that never fits */
    size_t big = 1 << 20;
    char *req = malloc(big + 64);
    int k = snprintf(req, 64, "GET / HTTP/1.1\r\nX-Junk: ");
    memset(req + k, 'a', big);
    memcpy(req + k + big, "\r\n\r\n", 4);
    size_t got = http(s.wport, req, (size_t)k + big + 4, buf, sizeof buf, 5000);
    assert_true(got == 0 || !strncmp(buf, "HTTP/1.1 4", 10)); /* refused (or cut) */
    /* a body of 1 MB: not read, refused */
    k = snprintf(req, 64, "POST /events HTTP/1.1\r\nContent-Length: %zu\r\n\r\n", big);
    memset(req + k, 'b', big);
    http(s.wport, req, (size_t)k + big, buf, sizeof buf, 5000);
    assert_true(!strncmp(buf, "HTTP/1.1 405", 12));
    free(req);
    http(s.wport, "BLAH / HTTP/1.1\r\n\r\n", 19, buf, sizeof buf, 5000);
    assert_true(!strncmp(buf, "HTTP/1.1 405", 12));
    got = http(s.wport, "\x01\x02 garbage\r\n\r\n", 14, buf, sizeof buf, 5000);
    assert_true(got == 0 || !strncmp(buf, "HTTP/1.1 4", 10)); /* closed, or an error */
    http(s.wport, "GET /nothing/<script> HTTP/1.1\r\n\r\n", 35, buf, sizeof buf, 5000);
    assert_true(!strncmp(buf, "HTTP/1.1 404", 12));
    assert_null(strstr(buf, "<script>"));
    /* a slowloris: one byte of its request every 200 ms; closed by the idle timeout once it stops */
    int slow = tcp_connect(s.wport);
    assert_true(slow >= 0);
    const char *part = "GET / HTTP/1.1\r\nX-A: b";
    for (size_t i = 0; i < strlen(part); i++) {
        send_all(slow, part + i, 1);
        usleep(100000);
    }
    /* 32 viewers, one of which never reads; the 33rd is refused with the reason */
    int v[32];
    for (int i = 0; i < 32; i++) {
        v[i] = tcp_connect(s.wport);
        assert_true(v[i] >= 0);
        const char *r = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n";
        send_all(v[i], r, strlen(r));
        if (i)
            read_until(v[i], buf, 4096, "data: ", 5000);
    }
    http(s.wport, "GET /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 53, buf, sizeof buf, 5000);
    assert_true(!strncmp(buf, "HTTP/1.1 503", 12));
    assert_non_null(strstr(buf, "32 viewers are watching"));
    /* the page itself is still served, and the stalled slowloris was closed */
    http(s.wport, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 46, buf, sizeof buf, 5000);
    assert_true(!strncmp(buf, "HTTP/1.1 200", 12));
    assert_non_null(strstr(buf, "Content-Security-Policy: default-src 'none'"));
    read_until(slow, buf, sizeof buf, NULL, 4000);
    char c;
    assert_true(recv(slow, &c, 1, MSG_DONTWAIT) == 0 || errno != EAGAIN); /* closed, not waiting */
    close(slow);
    for (int i = 0; i < 32; i++)
        close(v[i]);
    serve_wait(&s);
    /* the same match without --watch: the same record */
    Served p;
    assert_non_null(test_tmpdir(p.dir, sizeof p.dir));
    snprintf(p.err, sizeof p.err, "%s/serve.err", p.dir);
    snprintf(p.kifu, sizeof p.kifu, "%s/match.kifu", p.dir);
    proc_start(&p.srv, "/dev/null", p.err, "%s serve --port 0 --record %s --wait 60000 --games 150 --seed 5", dhm_bin(),
               p.kifu);
    p.port = wait_number(p.err, "listening on 127.0.0.1:", 10000);
    for (int i = 0; i < NPLAYERS; i++)
        client_start(&p, i, NULL);
    serve_wait(&p);
    char *a = kifu_untimed(s.kifu), *b = kifu_untimed(p.kifu);
    assert_string_equal(a, b);
    free(a);
    free(b);
    const char *log = slurp_file(s.err);
    const char *w = strstr(log, "viewers at most at once, ");
    if (!w || atoi(w + strlen("viewers at most at once, ")) < 1) /* viewers that left may count a moment longer */
        fail_msg("no refusal counted: %s", strstr(log, "watch:") ? strstr(log, "watch:") : log);
    /* the bad requests, truthfully: the 1 MB header (431, answered by libmicrohttpd itself), the
     * POST and BLAH (405), the garbage (400, libmicrohttpd) and the unknown path (404); the
     * refusal (503) is not one of them */
    const char *bad = strstr(log, "restarts of viewers that fell behind, ");
    assert_non_null(bad);
    long nbad = -1, large = -1;
    assert_int_equal(sscanf(bad + strlen("restarts of viewers that fell behind, "), "%ld bad requests (%ld too large)",
                            &nbad, &large),
                     2);
    if (nbad != 5 || large != 1)
        fail_msg("%ld bad requests (%ld too large) counted, not 5 (1): %s", nbad, large, strstr(log, "watch:"));
    run_cmd(NULL, 0, "rm -rf %s %s", s.dir, p.dir);
}

/* The body of a chunked HTTP response (in place; from its headers on), NUL-terminated. */
static char *dechunk(char *s)
{
    char *p = strstr(s, "\r\n\r\n"), *o;
    assert_non_null(p);
    p += 4;
    o = p;
    char *body = p;
    for (;;) {
        char *e;
        long n = strtol(p, &e, 16);
        if (e == p || strncmp(e, "\r\n", 2) || n <= 0 || (size_t)n > strlen(e + 2))
            break;
        memmove(o, e + 2, (size_t)n);
        o += n;
        p = e + 2 + n + 2;
    }
    *o = 0;
    return body;
}

/* One read from a viewer's stream into buf (len so far, cap its size): returns 1 when the stream
 * ended (closed, *fd set to -1), else 0. */
static int viewer_read(int *fd, char *buf, size_t *len, size_t cap)
{
    ssize_t k = recv(*fd, buf + *len, cap - 1 - *len, 0);
    if (k <= 0) {
        close(*fd);
        *fd = -1;
        return 1;
    }
    *len += (size_t)k;
    buf[*len] = 0;
    assert_true(*len < cap - 1);
    return 0;
}

/* dhm serve --watch without a delay: raw viewers joining at a dozen moments each get a hello and
 * then every result after its count, one by one, to the last game; and the server exits at
 * once after the last game (it took 0.05-0.24 s: its watch thread slept out its 200 ms). */
static void test_serve_late_joiners_and_exit(void **state)
{
    (void)state;
    enum { GAMES = 300, VIEWERS = 12, CAP = 4 << 20 };
    Served s;
    serve_start(&s, "--games 300 --seed 6 --watch 0");
    for (int i = 0; i < NPLAYERS; i++)
        client_start(&s, i, NULL);
    int fd[VIEWERS], nv = 0, open_fds = 0;
    static char buf[VIEWERS][CAP];
    size_t len[VIEWERS] = {0};
    const double t0 = game_clock_ms();
    double t_last = 0, t_exit = 0, next_join = t0 + 100;
    int st = -1;
    while (!t_exit || open_fds > 0) {
        const double now = game_clock_ms();
        if (!t_exit && nv < VIEWERS && now >= next_join) { /* a viewer joins every 120 ms */
            fd[nv] = tcp_connect(s.wport);
            if (fd[nv] >= 0) {
                const char *req = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n";
                send_all(fd[nv], req, strlen(req));
                nv++;
                open_fds++;
            }
            next_join = now + 120;
        }
        struct pollfd pf[VIEWERS];
        for (int i = 0; i < nv; i++)
            pf[i] = (struct pollfd){fd[i], POLLIN, 0};
        poll(pf, (nfds_t)nv, 1);
        for (int i = 0; i < nv; i++) {
            if (fd[i] < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            open_fds -= viewer_read(&fd[i], buf[i], &len[i], CAP);
        }
        if (!t_last && strstr(slurp_file(s.err), "game 299:"))
            t_last = game_clock_ms();
        int ws;
        if (!t_exit && waitpid(s.srv.pid, &ws, WNOHANG) == s.srv.pid) {
            t_exit = game_clock_ms();
            st = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
        }
        assert_true(now - t0 < 120000);
        if (t_exit) /* the streams ended with the server: what is left is read to its end. A poll
                     * from before the exit cannot say a stream is drained: the last frames may
                     * have come after it (CI lost 4 of 300 results that way). */
            for (int i = 0; i < nv; i++) {
                while (fd[i] >= 0) {
                    struct pollfd one = {fd[i], POLLIN, 0};
                    assert_true(poll(&one, 1, 5000) == 1); /* the server is gone: EOF is due */
                    open_fds -= viewer_read(&fd[i], buf[i], &len[i], CAP);
                }
            }
    }
    assert_int_equal(st, 0);
    for (int i = 0; i < NPLAYERS; i++)
        assert_int_equal(proc_wait(&s.cl[i], 60), 0);
    assert_true(t_last > 0);
#if defined(__SANITIZE_ADDRESS__) || HAS_ASAN_CLANG
    const double most = 2000; /* LeakSanitizer's check at exit alone takes ~0.5 s */
#else
    const double most = 100;
#endif
    if (t_exit - t_last > most)
        fail_msg("dhm serve --watch exited %.0f ms after its last game (at most %.0f)", t_exit - t_last, most);
    print_message("dhm serve --watch exited %.1f ms after its last game\n", t_exit - t_last);
    assert_true(nv >= 8);
    long hellos[VIEWERS];
    int distinct = 0;
    for (int i = 0; i < nv; i++) {
        assert_true(!strncmp(buf[i], "HTTP/1.1 200", 12));
        const char *body = dechunk(buf[i]);
        if (strncmp(body, "data: {\"t\":\"hello\"", 18))
            fail_msg("viewer %d: no hello first: %.300s", i, body);
        hellos[i] = frame_long(body, "\"done\":");
        char who[32];
        snprintf(who, sizeof who, "viewer %d", i);
        assert_int_equal(ends_follow(body, hellos[i], who), GAMES);
        assert_non_null(strstr(body, "data: {\"t\":\"over\""));
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= hellos[j] == hellos[i];
        distinct += !seen;
    }
    assert_true(distinct >= 4); /* they joined at different moments of the match */
    const char *log = slurp_file(s.err);
    assert_non_null(strstr(log, "restarts of viewers that fell behind"));
    run_cmd(NULL, 0, "rm -rf %s", s.dir);
}

static void test_bad_watch_options(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(run_cmd(out, sizeof out, "%s serve --watch nowhere:80 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(out, "--watch: 'nowhere' is not a numeric IPv4 or IPv6 address"));
    assert_int_equal(run_cmd(out, sizeof out, "%s serve --watch 70000 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(out, "not a port"));
    assert_int_equal(run_cmd(out, sizeof out, "%s serve --watch 0 --watch-hands maybe 2>&1", dhm_bin()), 2);
    assert_non_null(strstr(out, "--watch-hands: yes or no"));
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --db x.sqlite --watch 0 --watch-delay -1 2>&1", dhm_bin()), 2);
    /* a port in use: a clear error, nothing played */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(fd, 1), 0);
    socklen_t len = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &len);
    assert_int_equal(run_cmd(out, sizeof out, "%s serve --port 0 --watch %d 2>&1", dhm_bin(), ntohs(a.sin_port)), 1);
    assert_non_null(strstr(out, "--watch: cannot serve the watch page"));
    close(fd);
}

/* ---- dhm tournament --watch ---- */

static int count_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)rec;
    watch_feed_game(ctx, sofar); /* as a tournament's worker does after every game */
    return 0;
}

/* The tournament page counts games as they are played: with a set of 50 games played and none
 * stored, the progress says 50 games (it said 0 until the first set was stored, over 4 minutes
 * into a run of 1,000-game sets), and the set in play says 50 of its games (it said 0 unless
 * someone watched the set). */
static void test_tournament_counts_games(void **state)
{
    (void)state;
    WatchConfig cfg;
    watch_config_default(&cfg);
    WatchServer *w;
    char err[256];
    assert_int_equal(watch_start(&w, &cfg, err, sizeof err), 0);
    const char *names[5] = {"alpha", "beta", "gamma", "delta", "eps"};
    assert_int_equal(watch_tournament(w, 5, names, 3, 50, 1, "t.sqlite"), 0);
    watch_progress(w, 0, 3, 0, 0.0, 0); /* the start: no set stored */
    const int who[NPLAYERS] = {0, 1, 2, 3, 4};
    WatchFeed *f = watch_set_begin(w, 0, who);
    assert_non_null(f);
    Player *pl[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        assert_int_equal(player_create(p % 2 ? "random" : "simple", player_seed(3, p), &pl[p], err, sizeof err), 0);
    MatchConfig mc;
    match_config_default(&mc);
    mc.games = 50;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    assert_int_equal(match_run(pl, &mc, watch_feed_hooks(f), count_game, f, rec, &res), 0);
    free(rec);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
    /* the set is not over (not stored): a viewer of the run is told its games within a second */
    static char ev[1 << 16];
    stream_read(watch_port(w), "/events", ev, sizeof ev, "\"total\":3,\"games\":50,", 3000);
    if (!strstr(ev, "{\"t\":\"prog\",\"done\":0,\"total\":3,\"games\":50,"))
        fail_msg("no progress frame counting 50 games before a set is stored: %.2000s", ev);
    assert_non_null(strstr(ev, "\"running\":[{\"k\":0,\"done\":50,"));
    watch_set_end(w, f);
    watch_finish(w);
    watch_stop(w, NULL, NULL);
}

static void test_tournament_page(void **state)
{
    (void)state;
    if (!have_chromium())
        skip();
    char dir[64], pool[128], db[128], err[128], out[128];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    snprintf(pool, sizeof pool, "%s/pool.txt", dir);
    snprintf(db, sizeof db, "%s/t.sqlite", dir);
    snprintf(err, sizeof err, "%s/t.err", dir);
    snprintf(out, sizeof out, "%s/t.out", dir);
    FILE *f = fopen(pool, "w");
    /* zeta is an external client (dhm connect, a moment late): its sets are served, and slow
     * enough for the browser to start while the run goes on */
    char abs[4096];
    assert_non_null(realpath(dhm_bin(), abs));
    fprintf(f, "alpha simple\nbeta simple\ngamma random\ndelta random\neps simple\n"
               "zeta exec: sh -c 'sleep 0.3; exec %s connect --host {host} --port {port} --player random --name {name} "
               "--quiet'\n",
            abs);
    fclose(f);
    Proc t, br;
    proc_start(&t, out, err, "%s tournament --pool %s --db %s --sets 10 --games 400 --jobs 2 --seed 4 --watch 0",
               dhm_bin(), pool, db);
    int wport = wait_number(err, "watch live at http://127.0.0.1:", 20000);
    assert_true(wport > 0);
    chromium_start(&br, dir, "tour", wport, "/");
    /* a raw viewer of the progress: a set being played, then that set's own stream */
    static char ev[1 << 18], set[1 << 18];
    stream_read(wport, "/events", ev, sizeof ev, "\"running\":[{\"k\":", 30000);
    const char *r = strstr(ev, "\"running\":[{\"k\":");
    assert_non_null(r);
    long k = atol(r + 16);
    char path[256];
    snprintf(path, sizeof path, "/events?set=%ld", k);
    stream_read(wport, path, set, sizeof set, "\"t\":\"play\"", 30000);
    char want[64];
    snprintf(want, sizeof want, "\"mode\":\"set\",\"set\":%ld,", k);
    if (!strstr(set, want) && !strstr(set, "is not being played now")) /* it may just have ended */
        fail_msg("set %ld's stream: %.500s", k, set);
    int n = snprintf(path, sizeof path, "GET /set/%ld HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", k);
    http(wport, path, (size_t)n, set, sizeof set, 5000);
    assert_true(!strncmp(set, "HTTP/1.1 200", 12));
    assert_int_equal(proc_wait(&t, 300), 0);
    char *dom = chromium_dom(&br, dir, "tour");
    assert_non_null(strstr(dom, "data-state=\"over\""));
    assert_non_null(strstr(dom, "data-live=\"1\"")); /* it saw the run in progress */
    /* the progress bar as Chromium drew it (fill width / inner width / percent): full at the end,
     * in proportion part-way (it stayed empty: a <div> in a <p> was moved out of the bar) */
    double fill, width, pc;
    const char *bar = strstr(dom, "data-bar=\"");
    assert_non_null(bar);
    assert_int_equal(sscanf(bar + 10, "%lf/%lf/%lf", &fill, &width, &pc), 3);
    if (pc != 100 || width < 100 || fabs(fill - width) > 1)
        fail_msg("the progress bar at the end: %.0f px of %.0f filled at %.1f%%", fill, width, pc);
    bar = strstr(dom, "data-bar-part=\"");
    assert_non_null(bar);
    assert_int_equal(sscanf(bar + 15, "%lf/%lf/%lf", &fill, &width, &pc), 3);
    if (!(pc > 0 && pc < 100) || fill < 1 || fabs(fill - width * pc / 100) > 1.5)
        fail_msg("the progress bar part-way: %.1f px of %.0f filled at %.1f%%", fill, width, pc);
    /* the standings: as dhm rate --db rates the store, and as the summary's means */
    static char rate[1 << 16], sum[1 << 17];
    assert_int_equal(run_cmd(rate, sizeof rate, "%s rate --db %s", dhm_bin(), db), 0);
    snprintf(sum, sizeof sum, "%s", slurp_file(out));
    const char *names[6] = {"alpha", "beta", "gamma", "delta", "eps", "zeta"};
    for (int i = 0; i < 6; i++) {
        /* dhm rate's table row: "   1  alpha     1997.9^    251.9      12     81.2" */
        char key[64], rating[32], sigma[32];
        snprintf(key, sizeof key, "  %s ", names[i]);
        const char *line = strstr(rate, key);
        assert_non_null(line);
        assert_int_equal(sscanf(line + strlen(key), "%31s %31s", rating, sigma), 2);
        rating[strcspn(rating, "^v")] = 0;
        snprintf(key, sizeof key, "<td class=\"l\">%s</td>", names[i]);
        const char *row = strstr(dom, key);
        assert_non_null(row);
        long sets, games;
        double ppg, se, rt, sg;
        assert_int_equal(sscanf(row + strlen(key), "<td>%ld</td><td>%ld</td><td>%lf</td><td>%lf</td><td>%lf</td><td>%lf",
                                &sets, &games, &ppg, &se, &rt, &sg),
                         6);
        char a[32];
        snprintf(a, sizeof a, "%.1f", rt);
        assert_string_equal(a, rating);
        snprintf(a, sizeof a, "%.1f", sg);
        assert_string_equal(a, sigma);
        snprintf(key, sizeof key, "\n%-24.24s %6ld %9ld %7.3f", names[i], sets, games, ppg);
        if (!strstr(sum, key))
            fail_msg("the summary has no row '%s':\n%s", key + 1, sum);
        assert_true(se > 0 && se < 0.5);
    }
    free(dom);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_follow_the_record),
        cmocka_unit_test(test_joiners_see_every_result_once),
        cmocka_unit_test(test_hidden_hands),
        cmocka_unit_test(test_undrained_feed_never_stops_a_match),
        cmocka_unit_test(test_bad_watch_options),
        cmocka_unit_test(test_serve_page_in_chromium),
        cmocka_unit_test(test_serve_page_external_clients),
        cmocka_unit_test(test_serve_late_joiners_and_exit),
        cmocka_unit_test(test_hostile_viewers),
        cmocka_unit_test(test_tournament_counts_games),
        cmocka_unit_test(test_tournament_page),
    };
    if (getenv("DHM_TEST_FILTER")) /* e.g. DHM_TEST_FILTER='*chromium*': only those */
        cmocka_set_test_filter(getenv("DHM_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}

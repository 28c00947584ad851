/* server.c — the UECda server: handshake, remote seats as Players, and game hooks that send
 * every table in the order of spec/uecda.md §2.4:
 *   game start: each player's start table ([5][0]=1, [5][1] cards to give, [5][3]=6);
 *   exchange: the daifugo's table is read, then the fugo's (in Player.exchange);
 *   each turn: hand tables to all five, the current player's table, the reply 9/8 to it,
 *   the field table to all five (before any clear, [5][3] = the mover), then the int
 *   0 / 1 (game over) / 2 (match over) to all five.
 */
#include "net/server.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/io.h"
#include "players/players.h"

struct Server {
    ServerConfig cfg;
    int lfd, port;
    int fd[NPLAYERS];
    int remote[NPLAYERS], alive[NPLAYERS], stale[NPLAYERS];
    char name[NPLAYERS][32];
    Player *pl[NPLAYERS];
    long timeouts[NPLAYERS], garbage[NPLAYERS];
    int game;              /* index of the game in play */
    int ranks[NPLAYERS];   /* row 6 [5..9]: start ranks, overwritten as players finish */
    Table field;           /* rows 0-4: the meld on the table as submitted; row 7: the echo */
    Table sub;             /* the current remote submission */
    int have_sub;
    uint8_t out[NPLAYERS][2048]; /* bytes queued per client, flushed before we wait on anyone */
    size_t outn[NPLAYERS];
};

typedef struct RemoteSeat {
    Server *s;
    int p;
} RemoteSeat;

static void logf_(Server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(Server *s, const char *fmt, ...)
{
    if (!s->cfg.log)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(s->cfg.log, "dhm serve: ");
    vfprintf(s->cfg.log, fmt, ap);
    fputc('\n', s->cfg.log);
    fflush(s->cfg.log);
    va_end(ap);
}

void server_config_default(ServerConfig *c)
{
    memset(c, 0, sizeof *c);
    c->bind = "127.0.0.1";
    c->port = 42485;
    match_config_default(&c->match);
    for (int p = 0; p < NPLAYERS; p++)
        snprintf(c->seats[p], sizeof c->seats[p], "remote");
    c->hello_timeout_ms = 2000;
    c->write_timeout_ms = 10000;
}

static void drop(Server *s, int p, const char *why)
{
    if (!s->alive[p])
        return;
    logf_(s, "player %d (%s) %s: it passes for the rest of the match", p, s->name[p], why);
    s->alive[p] = 0;
    shutdown(s->fd[p], SHUT_RDWR);
}

/* Output is queued per client and flushed once per turn (and before any read), so a client
 * gets the field broadcast, the end flag and the next hand table in one write: the message
 * order on the wire is unchanged, every table leaves whole in a single send, and the
 * clients wake up half as often. */
static void flush(Server *s, int p)
{
    if (s->outn[p] && s->alive[p] && net_write(s->fd[p], s->out[p], s->outn[p]))
        drop(s, p, "disconnected (or stopped reading)");
    s->outn[p] = 0;
}

static void flush_all(Server *s)
{
    for (int p = 0; p < NPLAYERS; p++)
        if (s->remote[p])
            flush(s, p);
}

static void queue(Server *s, int p, const void *buf, size_t n)
{
    if (!s->remote[p] || !s->alive[p])
        return;
    if (s->outn[p] + n > sizeof s->out[p])
        flush(s, p);
    memcpy(s->out[p] + s->outn[p], buf, n);
    s->outn[p] += n;
}

static void queue_table(Server *s, int p, const Table *t)
{
    uint8_t buf[TABLE_BYTES];
    table_encode(t, buf);
    queue(s, p, buf, sizeof buf);
}

/* Discards bytes a client sent late, after its turn had timed out. */
static void drain(Server *s, int p)
{
    char buf[512];
    while (s->alive[p] && recv(s->fd[p], buf, sizeof buf, MSG_DONTWAIT) > 0)
        ;
    s->stale[p] = 0;
}

static int read_table(Server *s, int p, Table *t, const char *what)
{
    int rc = net_recv_table(s->fd[p], t, s->cfg.move_timeout_ms > 0 ? s->cfg.move_timeout_ms : -1);
    if (rc == NET_TIMEOUT) {
        s->timeouts[p]++;
        s->stale[p] = 1;
        logf_(s, "player %d (%s) sent no %s within %d ms: played as a pass", p, s->name[p], what,
              s->cfg.move_timeout_ms);
    } else if (rc) {
        drop(s, p, "disconnected");
    }
    return rc;
}

static Move remote_play(Player *self, const InfoSet *v)
{
    (void)v;
    RemoteSeat *r = self->impl;
    Server *s = r->s;
    s->have_sub = 0;
    if (!s->alive[r->p])
        return move_pass(); /* the official server reads zeros: a pass */
    Table t;
    if (read_table(s, r->p, &t, "move"))
        return move_pass();
    s->sub = t;
    s->have_sub = 1;
    Move m;
    if (table_to_move(&t, &m)) {
        s->garbage[r->p]++;
        return move_invalid();
    }
    return m;
}

static Cards remote_exchange(Player *self, const InfoSet *v, int n)
{
    (void)v;
    (void)n;
    RemoteSeat *r = self->impl;
    Server *s = r->s;
    Table t;
    Cards c;
    if (!s->alive[r->p] || read_table(s, r->p, &t, "exchange") || table_get_cards(&t, &c))
        return 0; /* invalid: the server gives the player's strongest cards */
    return c;
}

static void remote_destroy(Player *self) { free(self->impl); }

/* Row 6: card counts, ranks, seat order. */
static void put_row6(const Server *s, Table *t, const uint8_t ncards[NPLAYERS], const uint8_t seat[NPLAYERS])
{
    for (int p = 0; p < NPLAYERS; p++) {
        t->c[6][p] = ncards[p];
        t->c[6][5 + p] = s->ranks[p];
        t->c[6][10 + p] = seat[p];
    }
}

static void counts_of(const GameState *g, uint8_t n[NPLAYERS])
{
    for (int p = 0; p < NPLAYERS; p++)
        n[p] = (uint8_t)cards_count(g->hand[p]);
}

static int hook_start(void *ctx, const GameRecord *rec, const InfoSet view[NPLAYERS])
{
    Server *s = ctx;
    const int classes = rec->cls[0] >= 0;
    s->game = rec->number;
    memset(&s->field, 0, sizeof s->field);
    for (int p = 0; p < NPLAYERS; p++)
        s->ranks[p] = classes ? rec->cls[p] : 0;
    for (int p = 0; p < NPLAYERS; p++) {
        if (!s->remote[p])
            continue;
        Table t;
        memset(&t, 0, sizeof t);
        table_put_hand(&t, view[p].hand);
        t.c[5][0] = 1;
        t.c[5][1] = classes ? (rec->cls[p] == 0 ? 2 : rec->cls[p] == 1 ? 1 : 0) : 0;
        t.c[5][3] = 6;
        put_row6(s, &t, view[p].ncards, rec->seat);
        queue_table(s, p, &t);
    }
    flush_all(s); /* before the daifugo's exchange is read */
    return 0;
}

static int hook_turn(void *ctx, const GameState *g)
{
    Server *s = ctx;
    uint8_t n[NPLAYERS];
    counts_of(g, n);
    if (s->stale[g->turn])
        drain(s, g->turn);
    for (int p = 0; p < NPLAYERS; p++) {
        if (!s->remote[p])
            continue;
        Table t;
        memset(&t, 0, sizeof t);
        table_put_hand(&t, g->hand[p]);
        t.c[5][2] = p == g->turn;
        t.c[5][3] = g->turn;
        t.c[5][4] = g->table.type == MOVE_PASS;
        t.c[5][6] = g->rev;
        t.c[5][7] = g->lock;
        put_row6(s, &t, n, g->seat);
        queue_table(s, p, &t);
    }
    flush_all(s); /* before the current player is read */
    return 0;
}

static int hook_move(void *ctx, const GameState *before, Move m, int accepted, const GameState *after, int ev)
{
    Server *s = ctx;
    const int p = before->turn;
    const int play = accepted && m.type != MOVE_PASS;
    const int32_t reply = play || (accepted && before->table.type == MOVE_PASS) ? 9 : 8;
    if (play) { /* the field shows the meld as it was submitted, and echoes its row 7 */
        if (s->remote[p] && s->have_sub) {
            memcpy(s->field.c, s->sub.c, sizeof s->field.c[0] * 5);
            memcpy(s->field.c[7], s->sub.c[7], sizeof s->field.c[7]);
        } else {
            table_put_move(&s->field, m);
            memset(s->field.c[7], 0, sizeof s->field.c[7]);
        }
    }
    for (int k = before->nout; k < after->nout; k++)
        s->ranks[after->order[k]] = k;
    /* the broadcast shows the state after the move and before any clear */
    int lock = before->lock;
    if (play)
        lock = m.type == MOVE_JOKER ? 0
                                    : before->lock || (before->table.type != MOVE_PASS && m.suits == before->table.suits);
    Table t = s->field;
    memset(t.c[5], 0, sizeof t.c[5]);
    t.c[5][3] = p;
    t.c[5][4] = !play && before->table.type == MOVE_PASS;
    t.c[5][6] = after->rev;
    t.c[5][7] = lock;
    uint8_t n[NPLAYERS];
    counts_of(after, n);
    put_row6(s, &t, n, after->seat);
    /* the mover: reply, field, end flag; everyone else: field, end flag */
    const int32_t flag = after->over ? (s->game + 1 >= s->cfg.match.games ? 2 : 1) : 0;
    uint8_t buf[4 + TABLE_BYTES + 4];
    int_encode(reply, buf);
    table_encode(&t, buf + 4);
    int_encode(flag, buf + 4 + TABLE_BYTES);
    for (int q = 0; q < NPLAYERS; q++)
        queue(s, q, q == p ? buf : buf + 4, q == p ? sizeof buf : sizeof buf - 4);
    if (ev & EV_CLEAR)
        table_clear_cards(&s->field);
    return 0;
}

int server_open(Server **out, const ServerConfig *cfg, char *err, size_t errsz)
{
    Server *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    s->cfg = *cfg;
    s->lfd = -1;
    for (int p = 0; p < NPLAYERS; p++) {
        s->fd[p] = -1;
        s->remote[p] = !strcmp(cfg->seats[p], "remote");
        if (s->remote[p]) {
            RemoteSeat *r = malloc(sizeof *r);
            s->pl[p] = calloc(1, sizeof *s->pl[p]);
            if (!r || !s->pl[p]) {
                free(r);
                snprintf(err, errsz, "out of memory");
                server_close(s);
                return -1;
            }
            *r = (RemoteSeat){s, p};
            s->pl[p]->kind = "remote";
            s->pl[p]->impl = r;
            s->pl[p]->play = remote_play;
            s->pl[p]->exchange = remote_exchange;
            s->pl[p]->destroy = remote_destroy;
        } else {
            char e[256];
            if (player_create(cfg->seats[p], player_seed(cfg->match.seed, p), &s->pl[p], e, sizeof e) ||
                (s->pl[p]->reads_hidden &&
                 snprintf(e, sizeof e, "%s reads the other players' hidden cards (an experiments-only option): not in "
                                       "a server",
                          cfg->seats[p]))) {
                snprintf(err, errsz, "seat %d: %s", p, e);
                server_close(s);
                return -1;
            }
            snprintf(s->name[p], sizeof s->name[p], "%.31s", cfg->seats[p]); /* display name */
            s->alive[p] = 1;
        }
    }
    s->lfd = net_listen(cfg->bind, cfg->port, &s->port, err, errsz);
    if (s->lfd < 0) {
        server_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

int server_port(const Server *s) { return s->port; }

int server_accept_seat(Server *s, int p, int wait_ms, char *err, size_t errsz)
{
    long long waited = 0;
    while (!s->alive[p]) {
        char peer[64] = "?";
        int left = wait_ms > 0 ? wait_ms - (int)waited : -1;
        if (wait_ms > 0 && left <= 0) {
            snprintf(err, errsz, "no client connected for seat %d within %d ms", p, wait_ms);
            return -1;
        }
        long long t0 = net_now_ms();
        int fd = net_accept(s->lfd, left, peer, sizeof peer);
        if (fd == NET_TIMEOUT) {
            waited = wait_ms; /* the next round sees no time left */
            continue;
        }
        if (fd < 0) {
            snprintf(err, errsz, "accept failed: %s", strerror(errno));
            return -1;
        }
        net_tune(fd, s->cfg.write_timeout_ms);
        Table hello;
        int rc = net_recv_table(fd, &hello, s->cfg.hello_timeout_ms);
        if (rc == 0 && hello.c[0][0] == PROTOCOL_VERSION) {
            char *nm = s->name[p];
            int k = 0;
            for (; k < 9 && hello.c[1][k] != 0; k++)
                nm[k] = hello.c[1][k] > 32 && hello.c[1][k] < 127 ? (char)hello.c[1][k] : '_';
            nm[k] = 0;
            if (!k)
                snprintf(nm, sizeof s->name[p], "player%d", p);
            if (net_send_int(fd, p) == 0) {
                s->fd[p] = fd;
                s->alive[p] = 1;
                logf_(s, "player %d: %s from %s", p, nm, peer);
                return 0;
            }
            logf_(s, "%s closed during the handshake; seat %d offered again", peer, p);
        } else if (rc == NET_TIMEOUT) {
            logf_(s, "%s sent no hello within %d ms: dropped; seat %d offered again", peer, s->cfg.hello_timeout_ms, p);
        } else if (rc == 0) {
            logf_(s, "%s speaks protocol %d, not %d: dropped; seat %d offered again", peer, hello.c[0][0],
                  PROTOCOL_VERSION, p);
        } else {
            logf_(s, "%s closed during the handshake; seat %d offered again", peer, p);
        }
        close(fd);
        waited += net_now_ms() - t0;
    }
    return 0;
}

void server_forfeit_seat(Server *s, int p)
{
    snprintf(s->name[p], sizeof s->name[p], "absent%d", p);
    s->alive[p] = 0; /* passes for the whole match */
    logf_(s, "seat %d: no client; it passes for the whole match", p);
}

void server_stop_listening(Server *s)
{
    if (s->lfd >= 0)
        close(s->lfd); /* a sixth connection is refused */
    s->lfd = -1;
}

int server_accept_clients(Server *s, char *err, size_t errsz)
{
    int need = 0, got = 0;
    for (int p = 0; p < NPLAYERS; p++)
        need += s->remote[p];
    const long long t0 = net_now_ms();
    for (int p = 0; p < NPLAYERS; p++) {
        if (!s->remote[p])
            continue;
        int wait = -1;
        if (s->cfg.wait_ms > 0) {
            wait = s->cfg.wait_ms - (int)(net_now_ms() - t0);
            if (wait <= 0)
                wait = 1;
        }
        if (server_accept_seat(s, p, wait, err, errsz)) {
            snprintf(err, errsz, "only %d of %d clients connected within %d ms", got, need, s->cfg.wait_ms);
            return -1;
        }
        got++;
    }
    server_stop_listening(s);
    return 0;
}

void server_set_watch(Server *s, const GameHooks *watch) { s->cfg.watch = watch; }

/* The watcher's event hook (a live view), behind the server's own hooks. */
static int hook_event(void *ctx, const GameEvent *e)
{
    const Server *s = ctx;
    int (*ev)(void *, const GameEvent *) = s->cfg.watch->event; /* the watcher may turn it off between games */
    return ev ? ev(s->cfg.watch->ctx, e) : 0;
}

int server_run_match(Server *s, MatchGameFn on_game, void *ctx, GameRecord *rec, MatchResult *res)
{
    GameHooks hooks = {.ctx = s, .start = hook_start, .turn = hook_turn, .move = hook_move,
                       .event = s->cfg.watch ? hook_event : NULL};
    int rc = match_run(s->pl, &s->cfg.match, &hooks, on_game, ctx, rec, res);
    flush_all(s); /* the last broadcast and the end flag 2 */
    for (int p = 0; p < NPLAYERS; p++)
        if (s->fd[p] >= 0) {
            close(s->fd[p]);
            s->fd[p] = -1;
        }
    return rc;
}

void server_close(Server *s)
{
    if (!s)
        return;
    for (int p = 0; p < NPLAYERS; p++) {
        if (s->fd[p] >= 0)
            close(s->fd[p]);
        player_destroy(s->pl[p]);
    }
    if (s->lfd >= 0)
        close(s->lfd);
    free(s);
}

const char *server_player_name(const Server *s, int p) { return s->name[p]; }
Player *server_player(const Server *s, int p) { return s->pl[p]; }
long server_timeouts(const Server *s, int p) { return s->timeouts[p]; }
long server_garbage(const Server *s, int p) { return s->garbage[p]; }
int server_disconnected(const Server *s, int p) { return s->remote[p] && !s->alive[p]; }

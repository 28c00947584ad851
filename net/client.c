/* client.c — a UECda client driving one of our Players (see client.h). */
#include "net/client.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "net/io.h"
#include "players/players.h"

typedef struct Client {
    const ClientConfig *cfg;
    int fd;
    NetBuf in;
    int me;
    Player *pl;
    char *err;
    size_t errsz;
    /* the game in play */
    GameState g;          /* public state mirror: only our own hand is real */
    InfoSet view;
    PlayRec plays[GAME_MAX_PLAYS];
    uint8_t ncards[NPLAYERS];
} Client;

static int fail(Client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(Client *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errsz, fmt, ap);
    va_end(ap);
    return -1;
}

static int recv_table(Client *c, Table *t)
{
    uint8_t buf[TABLE_BYTES];
    int rc = netbuf_read(&c->in, buf, sizeof buf, c->cfg->timeout_ms > 0 ? c->cfg->timeout_ms : -1);
    if (rc == 0)
        table_decode(buf, t);
    if (rc == NET_TIMEOUT)
        return fail(c, "the server sent nothing for %d ms", c->cfg->timeout_ms);
    if (rc)
        return fail(c, "the server closed the connection before the end of the match");
    return 0;
}

static int recv_int(Client *c, int32_t *v)
{
    uint8_t buf[4];
    int rc = netbuf_read(&c->in, buf, sizeof buf, c->cfg->timeout_ms > 0 ? c->cfg->timeout_ms : -1);
    if (rc == 0)
        *v = int_decode(buf);
    if (rc == NET_TIMEOUT)
        return fail(c, "the server sent nothing for %d ms", c->cfg->timeout_ms);
    if (rc)
        return fail(c, "the server closed the connection before the end of the match");
    return 0;
}

/* Row 6 of any status table: counts, and the seat order (validated). */
static int read_row6(Client *c, const Table *t, uint8_t ncards[NPLAYERS], uint8_t seat[NPLAYERS])
{
    int mask = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        int32_t n = t->c[6][p], s = t->c[6][10 + p];
        if (n < 0 || n > 53 || s < 0 || s >= NPLAYERS)
            return fail(c, "protocol error: bad card count or seat in row 6");
        ncards[p] = (uint8_t)n;
        seat[p] = (uint8_t)s;
        mask |= 1 << s;
    }
    if (mask != 31)
        return fail(c, "protocol error: the seat order is not a permutation");
    return 0;
}

/* The InfoSet for a decision: the public state of the mirror, our hand, the counts the
 * server showed. */
static void refresh_view(Client *c)
{
    infoset_public(&c->view, &c->g);
    memcpy(c->view.ncards, c->ncards, sizeof c->ncards);
    c->view.hand = c->g.hand[c->me];
    c->view.plays = c->plays;
}

static int play_game(Client *c, const Table *start, int *match_over)
{
    Table t;
    Cards hand;
    uint8_t seat[NPLAYERS];
    if (table_get_cards(start, &hand) || read_row6(c, start, c->ncards, seat))
        return fail(c, "protocol error: malformed game-start table");
    int ranks[NPLAYERS], rank_mask = 0, all_zero = 1;
    for (int p = 0; p < NPLAYERS; p++) {
        ranks[p] = start->c[6][5 + p];
        if (ranks[p] < 0 || ranks[p] >= NPLAYERS)
            return fail(c, "protocol error: bad rank in the game-start table");
        rank_mask |= 1 << ranks[p];
        all_zero &= ranks[p] == 0;
    }
    if (!all_zero && rank_mask != 31)
        return fail(c, "protocol error: the ranks are not a permutation");
    /* the start view, as game/game.c builds it */
    Cards none[NPLAYERS] = {0};
    state_init(&c->g, none, seat, 0);
    c->g.hand[c->me] = hand;
    InfoSet *v = &c->view;
    int game = v->game;
    memset(v, 0, sizeof *v);
    v->me = c->me;
    v->game = game;
    for (int p = 0; p < NPLAYERS; p++)
        v->cls[p] = (int8_t)(all_zero ? -1 : ranks[p]);
    refresh_view(c);
    v->nplays = 0;
    v->start_hand = hand;
    v->first = -1;
    memcpy(v->start_ncards, c->ncards, sizeof c->ncards);
    const int mycls = v->cls[c->me];
    if (mycls >= 3) /* the server takes the poor's strongest cards: known at once */
        v->given = cards_strongest(hand, mycls == 4 ? 2 : 1);
    if (c->pl->game_start)
        c->pl->game_start(c->pl, v);
    int32_t nx = start->c[5][1];
    if (nx > 0 && nx < 100) {
        if (nx > 2)
            return fail(c, "protocol error: asked to give %d cards", nx);
        Cards give = c->pl->exchange(c->pl, v, nx);
        if (c->cfg->stop && *c->cfg->stop)
            return fail(c, "the player stopped");
        memset(&t, 0, sizeof t);
        table_put_hand(&t, give);
        if (net_send_table(c->fd, &t))
            return fail(c, "the server closed the connection during the exchange");
    }

    int first_turn = 1;
    for (;;) {
        if (recv_table(c, &t))
            return -1;
        /* the server sends every client the turn's table before it reads the player to move, so
         * the time until the field broadcast is that player's thinking time (and the network's) */
        const double t0 = game_clock_ms();
        if (t.c[5][0] != 0)
            return fail(c, "protocol error: a game-start table in the middle of a game");
        int32_t turn = t.c[5][3];
        if (turn < 0 || turn >= NPLAYERS || table_get_cards(&t, &hand) || read_row6(c, &t, c->ncards, seat))
            return fail(c, "protocol error: malformed hand table");
        if (first_turn) { /* the exchange is over: what it did, and who leads */
            first_turn = 0;
            if (mycls >= 0 && mycls <= 1)
                v->given = v->start_hand & ~hand;
            else if (mycls >= 3)
                v->received = hand & ~v->start_hand;
            v->first = turn;
            memcpy(v->start_ncards, c->ncards, sizeof c->ncards);
            state_init(&c->g, none, seat, turn);
        }
        c->g.hand[c->me] = hand;
        if (c->g.turn != turn) /* should never happen: follow the server */
            c->g.turn = (uint8_t)turn;
        if (t.c[5][2] == 1 && turn == c->me) {
            refresh_view(c);
            Move m = c->pl->play(c->pl, v);
            if (c->cfg->stop && *c->cfg->stop)
                return fail(c, "the player stopped");
            Table mt;
            memset(&mt, 0, sizeof mt);
            table_put_move(&mt, m);
            int32_t reply;
            if (net_send_table(c->fd, &mt))
                return fail(c, "the server closed the connection");
            if (recv_int(c, &reply))
                return -1;
        }
        /* the field broadcast: who acted and what lies on the table */
        if (recv_table(c, &t))
            return -1;
        uint8_t after[NPLAYERS];
        if (t.c[5][3] != turn || read_row6(c, &t, after, seat))
            return fail(c, "protocol error: malformed field table");
        Move m = move_pass();
        if (after[turn] < c->ncards[turn] && table_to_move(&t, &m))
            return fail(c, "protocol error: the field shows no meld after a play");
        if (m.type != MOVE_PASS && cards_count(move_cards(m)) != c->ncards[turn] - after[turn])
            return fail(c, "protocol error: the meld does not match the card counts");
        state_apply_ex(&c->g, m, m.type != MOVE_PASS && after[turn] == 0);
        if (v->nplays < GAME_MAX_PLAYS) {
            c->plays[v->nplays].move = m;
            c->plays[v->nplays].player = (uint8_t)turn;
            const double us = (game_clock_ms() - t0) * 1000;
            c->plays[v->nplays].usec = us < 1 ? 1 : us > 4e9 ? 4000000000u : (uint32_t)us;
            v->nplays++;
        }
        memcpy(c->ncards, after, sizeof after);
        if (c->pl->observe) {
            refresh_view(c);
            c->pl->observe(c->pl, v, turn, m);
        }
        int32_t flag = 0;
        if (recv_int(c, &flag))
            return -1;
        if (flag == 0)
            continue;
        if (flag != 1 && flag != 2)
            return fail(c, "protocol error: end flag %d", flag);
        *match_over = flag == 2;
        return 0;
    }
}

int client_run(const ClientConfig *cfg, ClientResult *res, char *err, size_t errsz)
{
    memset(res, 0, sizeof *res);
    Client *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    c->cfg = cfg;
    c->err = err;
    c->errsz = errsz;
    int rc = -1;
    c->fd = net_connect(cfg->host, cfg->port, err, errsz);
    if (c->fd < 0)
        goto out;
    netbuf_init(&c->in, c->fd);
    Table t;
    memset(&t, 0, sizeof t);
    t.c[0][0] = PROTOCOL_VERSION;
    for (int i = 0; cfg->name[i] && i < 14; i++)
        t.c[1][i] = (unsigned char)cfg->name[i];
    int32_t me = -1;
    if (net_send_table(c->fd, &t) || recv_int(c, &me)) {
        snprintf(err, errsz, "the server at %s:%d did not accept us (no player number)", cfg->host, cfg->port);
        goto out;
    }
    if (me < 0 || me >= NPLAYERS) {
        fail(c, "protocol error: player number %d", me);
        goto out;
    }
    c->me = me;
    res->me = me;
    if (cfg->player)
        c->pl = cfg->player;
    else if (player_create(cfg->spec, player_seed(cfg->seed, me), &c->pl, err, errsz))
        goto out;
    if (c->pl->reads_hidden) {
        snprintf(err, errsz, "%s reads the other players' hidden cards (an experiments-only option): never over the "
                             "network",
                 cfg->spec);
        goto out;
    }
    for (int over = 0; !over;) {
        if (recv_table(c, &t))
            goto out;
        if (t.c[5][0] != 1 || t.c[5][3] != 6) {
            fail(c, "protocol error: expected a game-start table");
            goto out;
        }
        if (play_game(c, &t, &over))
            goto out;
        /* the classes as this client saw them (a stalemate's random places are not sent) */
        int cls[NPLAYERS], seen = 0;
        for (int k = 0; k < c->g.nout; k++) {
            cls[c->g.order[k]] = k;
            seen |= 1 << c->g.order[k];
        }
        for (int s = 0, k = c->g.nout; s < NPLAYERS; s++)
            if (!((seen >> c->g.seat[s]) & 1))
                cls[c->g.seat[s]] = k++;
        for (int p = 0; p < NPLAYERS; p++) {
            res->points[p] += 5 - cls[p];
            res->class_count[p][cls[p]]++;
        }
        if (c->pl->game_end) {
            refresh_view(c);
            c->pl->game_end(c->pl, &c->view, cls);
        }
        if (cfg->log)
            fprintf(cfg->log, "game %d: classes %d %d %d %d %d\n", c->view.game, cls[0], cls[1], cls[2], cls[3], cls[4]);
        res->games++;
        c->view.game++;
    }
    rc = 0;
out:
    if (c->fd >= 0)
        close(c->fd);
    res->player = cfg->player ? NULL : c->pl;
    free(c);
    return rc;
}

void client_result_free(ClientResult *res)
{
    player_destroy(res->player);
    res->player = NULL;
}

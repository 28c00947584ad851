/* frames.c — a watched match as JSON frames, and what a joining viewer gets (frames.h). */
#include "watch/frames.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gameview.h"
#include "report/viewfmt.h"

#ifndef DHM_VERSION
#define DHM_VERSION "unknown"
#endif

/* ---- strings ---- */

static int sb_grow(Sb *b, size_t more)
{
    if (b->oom)
        return -1;
    if (b->n + more + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

void sb_put(Sb *b, const char *s, size_t n)
{
    if (sb_grow(b, n))
        return;
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

void sb_printf(Sb *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k < sizeof tmp) {
        sb_put(b, tmp, (size_t)k);
        return;
    }
    if (sb_grow(b, (size_t)k))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

void sb_json(Sb *b, const char *s)
{
    sb_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *lit = NULL;
        char u[8];
        switch (*p) {
        case '"': lit = "\\\""; break;
        case '\\': lit = "\\\\"; break;
        case '\n': lit = "\\n"; break;
        case '\t': lit = "\\t"; break;
        case '\r': lit = "\\r"; break;
        default:
            if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f) {
                snprintf(u, sizeof u, "\\u%04x", *p);
                lit = u;
            }
        }
        if (lit)
            sb_put(b, lit, strlen(lit));
        else
            sb_put(b, (const char *)p, 1);
    }
    sb_put(b, "\"", 1);
}

void sb_free(Sb *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

static void sb_cards(Sb *b, Cards c)
{
    char t[512];
    viewfmt_cards_text(c, t, sizeof t);
    sb_json(b, t);
}

static void sb_longs(Sb *b, const char *key, const long *v, int n)
{
    sb_printf(b, ",\"%s\":[", key);
    for (int i = 0; i < n; i++)
        sb_printf(b, "%s%ld", i ? "," : "", v[i]);
    sb_put(b, "]", 1);
}

static void sb_counts(Sb *b, const Cards hand[NPLAYERS])
{
    long n[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        n[p] = cards_count(hand[p]);
    sb_longs(b, "n", n, NPLAYERS);
}

static void sb_hands(Sb *b, const WatchChan *c, const Cards hand[NPLAYERS])
{
    sb_counts(b, hand);
    if (!c->hands)
        return;
    sb_put(b, ",\"hands\":[", 10);
    for (int p = 0; p < NPLAYERS; p++) {
        if (p)
            sb_put(b, ",", 1);
        sb_cards(b, hand[p]);
    }
    sb_put(b, "]", 1);
}

/* ---- the channel ---- */

int chan_init(WatchChan *c, int kind, size_t cap)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->cap = cap;
    c->log = malloc(cap);
    c->set = -1;
    c->chart_step = 1;
    return c->log ? 0 : -1;
}

void chan_free(WatchChan *c)
{
    free(c->log);
    sb_free(&c->game);
    sb_free(&c->keep);
    sb_free(&c->prog);
    sb_free(&c->stand);
    sb_free(&c->plays);
    for (int i = 0; i < RECENT_GAMES; i++)
        sb_free(&c->recent[i]);
}

void chan_frame(WatchChan *c, const Sb *json, int keep_game)
{
    if (json->oom || !json->n)
        return;
    const char *parts[3] = {"data: ", json->s, "\n\n"};
    const size_t lens[3] = {6, json->n, 2};
    for (int i = 0; i < 3; i++) {
        size_t off = 0;
        while (off < lens[i]) {
            size_t at = (size_t)(c->w % c->cap), k = c->cap - at;
            if (k > lens[i] - off)
                k = lens[i] - off;
            memcpy(c->log + at, parts[i] + off, k);
            off += k;
            c->w += k;
        }
        if (keep_game)
            sb_put(&c->game, parts[i], lens[i]);
    }
}

void chan_reset(WatchChan *c, long set, const char *const names[NPLAYERS], int games)
{
    c->epoch++;
    c->epoch_w = c->w;
    c->over = 0;
    c->active = 1;
    c->set = set;
    c->games = games;
    for (int p = 0; p < NPLAYERS; p++)
        snprintf(c->names[p], sizeof c->names[p], "%s", names ? names[p] : "");
    memset(c->totals, 0, sizeof c->totals);
    c->done = c->skipped = 0;
    c->t0_ms = c->last_ms = 0;
    c->chart_n = 0;
    c->chart_step = 1;
    c->recording = 0;
    c->game.n = 0;
    c->keep.n = 0;
    c->plays.n = 0;
    c->nrecent = c->recent_at = 0;
}

static void chart_add(WatchChan *c)
{
    if (c->done % c->chart_step)
        return;
    if (c->chart_n == CHART_MAX) { /* keep every other point: twice the step */
        for (int i = 0; 2 * i + 1 < CHART_MAX; i++)
            memcpy(c->chart[i], c->chart[2 * i + 1], sizeof c->chart[0]);
        c->chart_n = CHART_MAX / 2;
        c->chart_step *= 2;
        if (c->done % c->chart_step)
            return;
    }
    c->chart[c->chart_n][0] = c->done;
    memcpy(&c->chart[c->chart_n][1], c->totals, sizeof c->totals);
    c->chart_n++;
}

/* The standings as of some moment: now, or the deal of the game kept for joiners. */
typedef struct Stand {
    long done, skipped;
    const long *totals;
    double ms;
} Stand;

static Stand stand_now(const WatchChan *c) { return (Stand){c->done, c->skipped, c->totals, c->last_ms}; }

/* Games per second from the match's start to that moment (0 before the first game ends). */
static double stand_gps(const WatchChan *c, const Stand *s)
{
    const double t = (s->ms - c->t0_ms) / 1000;
    return s->done > 0 && t > 0 ? (double)s->done / t : 0.0;
}

static void stand_fields(Sb *b, const WatchChan *c, const Stand *s)
{
    sb_printf(b, ",\"done\":%ld,\"skipped\":%ld,\"gps\":%.1f", s->done, s->skipped, stand_gps(c, s));
    sb_longs(b, "tot", s->totals, NPLAYERS);
}

static void standings_fields(Sb *b, const WatchChan *c)
{
    const Stand s = stand_now(c);
    stand_fields(b, c, &s);
}

static void over_frame(const WatchChan *c, Sb *b)
{
    sb_put(b, "{\"t\":\"over\"", 11);
    if (c->kind == CHAN_MATCH)
        standings_fields(b, c);
    sb_put(b, "}", 1);
}

static void hello_at(const WatchChan *c, const Stand *s, Sb *h)
{
    sb_printf(h, "{\"t\":\"hello\",\"mode\":\"%s\",\"set\":%ld,\"games\":%d,\"hands\":%d,\"delay\":%d,\"limit\":%d,"
                 "\"active\":%d,\"version\":",
              c->set >= 0 ? "set" : "serve", c->set, c->games, c->hands, c->delay_ms, c->limit, c->active);
    sb_json(h, DHM_VERSION);
    sb_printf(h, ",\"viewers\":%d", c->viewers);
    sb_put(h, ",\"names\":[", 10);
    for (int p = 0; p < NPLAYERS; p++) {
        if (p)
            sb_put(h, ",", 1);
        sb_json(h, c->names[p]);
    }
    sb_put(h, "]", 1);
    stand_fields(h, c, s);
    sb_printf(h, ",\"step\":%d,\"chart\":[", c->chart_step);
    for (int i = 0; i < c->chart_n && c->chart[i][0] <= s->done; i++) { /* the points up to then */
        sb_printf(h, "%s[%ld", i ? "," : "", c->chart[i][0]);
        for (int p = 0; p < NPLAYERS; p++)
            sb_printf(h, ",%ld", c->chart[i][1 + p]);
        sb_put(h, "]", 1);
    }
    sb_put(h, "]}", 2);
}

void chan_hello(const WatchChan *c, Sb *h)
{
    const Stand s = stand_now(c);
    hello_at(c, &s, h);
}

void chan_put_frame(Sb *out, const Sb *json)
{
    if (json->oom || !json->n)
        return;
    sb_put(out, "data: ", 6);
    sb_put(out, json->s, json->n);
    sb_put(out, "\n\n", 2);
}

void chan_snapshot(const WatchChan *c, Sb *out)
{
    if (c->kind == CHAN_MATCH) {
        /* the standings as they were when the kept frames begin: the results in them follow */
        const Stand s = c->game.n ? (Stand){c->base_done, c->base_skipped, c->base_totals, c->base_ms} : stand_now(c);
        Sb h = {0};
        hello_at(c, &s, &h);
        chan_put_frame(out, &h);
        sb_free(&h);
        for (int i = 0; i < c->nrecent; i++) /* the last games shown in full, oldest first */
            chan_put_frame(out, &c->recent[(c->recent_at + i) % RECENT_GAMES]);
    }
    if (c->game.n)
        sb_put(out, c->game.s, c->game.n);
    if (c->prog.n)
        sb_put(out, c->prog.s, c->prog.n);
    if (c->stand.n)
        sb_put(out, c->stand.s, c->stand.n);
    if (c->keep.n)
        sb_put(out, c->keep.s, c->keep.n);
    if (c->over) {
        Sb o = {0};
        over_frame(c, &o);
        chan_put_frame(out, &o);
        sb_free(&o);
    }
}

void chan_tick(WatchChan *c, long dropped)
{
    Sb b = {0};
    sb_printf(&b, "{\"t\":\"tick\",\"viewers\":%d,\"dropped\":%ld", c->viewers, dropped);
    if (c->kind == CHAN_MATCH)
        standings_fields(&b, c);
    sb_put(&b, "}", 1);
    chan_frame(c, &b, 0);
    sb_free(&b);
}

/* What play r did, in dhm view's words (the places of a stalemate's remaining players come
 * with their OUT records). */
static void play_notes(const WatchChan *c, const WatchRec *r, char *buf, size_t size)
{
    ViewPlay p;
    memset(&p, 0, sizeof p);
    p.ply = c->ply;
    p.player = (uint8_t)r->player;
    p.lead = c->prev.table.type == MOVE_PASS;
    p.rev = c->prev.rev;
    p.lock = c->prev.lock;
    p.move = r->move;
    p.table = c->prev.table;
    p.ev = r->flags;
    p.eight = (r->flags & EV_CLEAR) && move_is_eight(r->move);
    p.place = -1;
    if (r->flags & EV_FINISH)
        for (int k = 0; k < r->st.nout; k++)
            if (r->st.order[k] == r->player)
                p.place = (int8_t)k;
    viewfmt_notes(&p, buf, size);
    if (!r->accepted) {
        size_t k = strlen(buf);
        snprintf(buf + k, size - k, "%srefused: played as a pass", k ? ", " : "");
    }
}

/* One play of the game being recorded, for its "game" frame (m: the move's text). */
static void recent_play(WatchChan *c, const WatchRec *r, const char *m, const char *notes)
{
    Sb *b = &c->plays;
    sb_printf(b, "%s{\"i\":%d,\"p\":%d,\"ok\":%d,\"f\":%d,\"lead\":%d,\"m\":", b->n ? "," : "", c->ply, r->player,
              r->accepted, r->flags, c->prev.table.type == MOVE_PASS);
    sb_json(b, m);
    sb_put(b, ",\"note\":", 8);
    sb_json(b, notes);
    if (r->usec)
        sb_printf(b, ",\"us\":%lu", (unsigned long)r->usec);
    sb_put(b, "}", 1);
}

/* A game shown in full has ended: its "game" frame replaces the oldest of the recent games. */
static void recent_game(WatchChan *c, const WatchRec *r)
{
    if (c->plays.oom)
        return;
    Sb *g;
    if (c->nrecent < RECENT_GAMES) {
        g = &c->recent[(c->recent_at + c->nrecent++) % RECENT_GAMES];
    } else {
        g = &c->recent[c->recent_at];
        c->recent_at = (c->recent_at + 1) % RECENT_GAMES;
    }
    g->n = 0;
    sb_printf(g, "{\"t\":\"game\",\"g\":%d,\"stale\":%d,\"res\":[%d,%d,%d,%d,%d],\"plays\":[", r->number, r->stalemate,
              r->result[0], r->result[1], r->result[2], r->result[3], r->result[4]);
    sb_put(g, c->plays.s ? c->plays.s : "", c->plays.n);
    sb_put(g, "]}", 2);
    if (g->oom)
        sb_free(g); /* an empty entry, never sent */
}

void chan_apply(WatchChan *c, const WatchRec *r)
{
    Sb b = {0};
    char t[512];
    switch (r->kind) {
    case WREC_BEGIN:
        c->t0_ms = c->last_ms = r->ms;
        return;
    case WREC_DEAL:
        c->game.n = 0; /* the joiners' game is this one from now, told from the standings now */
        c->base_done = c->done;
        c->base_skipped = c->skipped;
        memcpy(c->base_totals, c->totals, sizeof c->totals);
        c->base_ms = c->last_ms;
        if (c->plays.oom)
            sb_free(&c->plays);
        c->plays.n = 0;
        c->recording = 1;
        c->number = r->number;
        c->ply = 0;
        memcpy(c->hand, r->hand, sizeof c->hand);
        sb_printf(&b, "{\"t\":\"deal\",\"g\":%d,\"dealer\":%d,\"seat\":[%d,%d,%d,%d,%d],\"cls\":[%d,%d,%d,%d,%d]",
                  r->number, r->dealer, r->seat[0], r->seat[1], r->seat[2], r->seat[3], r->seat[4], r->cls[0],
                  r->cls[1], r->cls[2], r->cls[3], r->cls[4]);
        sb_hands(&b, c, r->hand);
        break;
    case WREC_XCHG:
        if (!c->recording)
            return;
        sb_printf(&b, "{\"t\":\"xchg\",\"from\":%d,\"to\":%d,\"k\":%d,\"ok\":%d", r->player, r->to,
                  cards_count(r->cards), r->accepted);
        if (c->hands) {
            sb_put(&b, ",\"c\":", 5);
            sb_cards(&b, r->cards);
        }
        sb_hands(&b, c, r->hand);
        break;
    case WREC_START:
        if (!c->recording)
            return;
        c->prev = r->st;
        sb_printf(&b, "{\"t\":\"start\",\"g\":%d,\"first\":%d,\"turn\":%d", r->number, r->first, r->st.turn);
        sb_hands(&b, c, r->hand);
        break;
    case WREC_PLAY: {
        if (!c->recording)
            return;
        char notes[256];
        play_notes(c, r, notes, sizeof notes);
        viewfmt_move_text(r->move, t, sizeof t);
        sb_printf(&b, "{\"t\":\"play\",\"i\":%d,\"p\":%d,\"ok\":%d,\"f\":%d,\"lead\":%d,\"m\":", c->ply, r->player,
                  r->accepted, r->flags, c->prev.table.type == MOVE_PASS);
        sb_json(&b, t);
        sb_put(&b, ",\"note\":", 8);
        sb_json(&b, notes);
        recent_play(c, r, t, notes);
        viewfmt_move_text(r->st.table, t, sizeof t);
        sb_printf(&b, ",\"own\":%d,\"turn\":%d,\"rev\":%d,\"lock\":%d,\"passed\":%d,\"over\":%d,\"tb\":", r->st.owner,
                  r->st.turn, r->st.rev, r->st.lock, r->st.passed, r->st.over);
        sb_json(&b, r->st.table.type == MOVE_PASS ? "" : t);
        if (r->usec)
            sb_printf(&b, ",\"us\":%lu", (unsigned long)r->usec);
        sb_counts(&b, r->hand);
        if (c->hands) { /* only the mover's hand changed */
            sb_put(&b, ",\"h\":", 5);
            sb_cards(&b, r->hand[(int)r->player]);
        }
        c->prev = r->st;
        c->ply++;
        break;
    }
    case WREC_OUT:
        if (!c->recording)
            return;
        sb_printf(&b, "{\"t\":\"out\",\"p\":%d,\"place\":%d", r->player, r->to);
        break;
    case WREC_END: {
        const int shown = r->shown && c->recording && r->number == c->number;
        memcpy(c->totals, r->totals, sizeof c->totals);
        c->done = r->done;
        c->last_ms = r->ms;
        c->skipped += !shown;
        chart_add(c);
        sb_printf(&b, "{\"t\":\"end\",\"g\":%d,\"shown\":%d,\"stale\":%d,\"res\":[%d,%d,%d,%d,%d]", r->number, shown,
                  r->stalemate, r->result[0], r->result[1], r->result[2], r->result[3], r->result[4]);
        standings_fields(&b, c);
        if (shown)
            sb_hands(&b, c, r->hand);
        sb_put(&b, "}", 1);
        if (!shown && c->game.n + b.n + 8 > GAME_KEEP_MAX)
            c->game.n = 0; /* too many results since the kept game: joiners get the standings now */
        chan_frame(c, &b, shown || c->game.n > 0); /* a joiner gets every result after its hello */
        if (shown)
            recent_game(c, r);
        c->recording = 0;
        sb_free(&b);
        return;
    }
    case WREC_OVER:
        memcpy(c->totals, r->totals, sizeof c->totals);
        c->done = r->done;
        if (r->ms > c->last_ms && c->done == 0)
            c->last_ms = r->ms;
        c->over = 1;
        c->recording = 0;
        over_frame(c, &b);
        chan_frame(c, &b, 0);
        sb_free(&b);
        return;
    default:
        return;
    }
    sb_put(&b, "}", 1);
    chan_frame(c, &b, 1);
    sb_free(&b);
}

/* watch.c — the live view's web server: the watch thread, the channels, the viewers, and
 * libmicrohttpd's request handler (watch.h). One mutex (w->mu) guards every channel and the
 * counts; the matches never take it (they write only into their feeds). */
#include "watch/watch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "watch/frames.h"
#include "watch/page.h"

#ifndef DHM_VERSION
#define DHM_VERSION "unknown"
#endif

#define LOG_BYTES (512u << 10) /* each channel's ring of frames; a viewer more than half behind resyncs */
#define MAX_SLOTS 256

typedef struct Slot {
    WatchFeed *feed;
    WatchChan ch;
    int busy;              /* a worker holds it */
} Slot;

struct WatchServer {
    WatchConfig cfg;
    struct MHD_Daemon *d;
    int port;
    pthread_mutex_t mu;
    pthread_mutex_t drain_mu; /* one drainer at a time: records are applied in order */
    pthread_cond_t cv;     /* new frames, or stopping */
    pthread_cond_t wake;   /* the watch thread's sleep and watch_stop's wait end early (CLOCK_MONOTONIC) */
    pthread_t thread;
    int thread_up, stopping, finished;
    int tournament;
    /* a served match: slot 0; a tournament: one slot per job, plus the tournament's channel */
    Slot slot[MAX_SLOTS];
    int nslots;
    WatchChan tch;
    char **names;          /* the pool's names (tournament) */
    int npool;
    long sets;
    int games, jobs;
    WatchRec *buf;         /* the watch thread's batch */
    /* a tournament's progress: the last watch_progress, and the games counted as they are played */
    long p_done, p_total, p_games, p_already;
    double t0, t_prog;     /* the run's start (now_s); the last progress frame */
    long prog_played;      /* `played` in the last progress frame */
    atomic_long played;    /* games played in this run, by every set's feed, as they end */
    /* counts */
    int viewers, peak;
    long streams, refused, resyncs, bad, too_large;
    double t_tick;
};

typedef struct Viewer {
    WatchServer *w;
    WatchChan *c;
    uint64_t epoch, r;
    Sb pend;               /* a snapshot being sent */
    size_t off;
    int started;
    double until;          /* ?for=MS: the stream ends then (0: never) */
} Viewer;

void watch_config_default(WatchConfig *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->addr, sizeof c->addr, "127.0.0.1");
    c->port = 0;
    c->hands = 1;
    c->max_viewers = 32;
    c->timeout_s = 10;
}

int watch_parse_addr(const char *s, WatchConfig *c, char *err, size_t errsz)
{
    const char *colon = strrchr(s, ':'), *port = s;
    char addr[64] = "127.0.0.1";
    if (colon) {
        size_t n = (size_t)(colon - s);
        const char *a = s;
        if (n >= 2 && s[0] == '[' && s[n - 1] == ']') { /* [::1]:8080 */
            a = s + 1;
            n -= 2;
        }
        if (n == 0 || n >= sizeof addr) {
            snprintf(err, errsz, "'%s' is not [ADDR:]PORT", s);
            return -1;
        }
        memcpy(addr, a, n);
        addr[n] = 0;
        port = colon + 1;
        unsigned char tmp[sizeof(struct in6_addr)];
        if (inet_pton(AF_INET, addr, tmp) != 1 && inet_pton(AF_INET6, addr, tmp) != 1) {
            snprintf(err, errsz, "'%s' is not a numeric IPv4 or IPv6 address", addr);
            return -1;
        }
    }
    char *end;
    errno = 0;
    long p = strtol(port, &end, 10);
    if (!*port || *end || errno || p < 0 || p > 65535) {
        snprintf(err, errsz, "'%s' is not a port (0 to 65535) in [ADDR:]PORT", port);
        return -1;
    }
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    c->port = (int)p;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits on w->wake (w->mu held) for at most ms, or until it is signalled. */
static void wait_wake(WatchServer *w, long ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&w->wake, &w->mu, &ts);
}

static void prog_frame(WatchServer *w);

/* ---- the watch thread ---- */

static void begin_channel(WatchServer *w, Slot *s, const WatchRec *r)
{
    const char *nm[NPLAYERS];
    char fallback[NPLAYERS][24];
    for (int p = 0; p < NPLAYERS; p++) {
        int i = r->who[p];
        snprintf(fallback[p], sizeof fallback[p], "player%d", p);
        nm[p] = w->tournament && w->names && i >= 0 && i < w->npool ? w->names[i] : fallback[p];
    }
    if (w->tournament)
        chan_reset(&s->ch, r->set, nm, w->games);
    /* a served match's channel was set up by watch_match */
}

static int drain_slot(WatchServer *w, Slot *s)
{
    int n, any = 0;
    pthread_mutex_lock(&w->drain_mu);
    while ((n = watch_feed_drain(s->feed, w->buf, WATCH_RING)) > 0) {
        pthread_mutex_lock(&w->mu);
        for (int i = 0; i < n; i++) {
            if (w->buf[i].kind == WREC_BEGIN)
                begin_channel(w, s, &w->buf[i]);
            chan_apply(&s->ch, &w->buf[i]);
        }
        pthread_mutex_unlock(&w->mu);
        any = 1;
    }
    pthread_mutex_unlock(&w->drain_mu);
    return any;
}

static void *watch_thread(void *arg)
{
    WatchServer *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        const int stop = w->stopping;
        int nslots = w->nslots;
        pthread_mutex_unlock(&w->mu);
        int any = 0;
        for (int i = 0; i < nslots; i++)
            if (w->slot[i].feed)
                any |= drain_slot(w, &w->slot[i]);
        pthread_mutex_lock(&w->mu);
        const double t = now_s();
        if (t - w->t_tick >= 1.0) { /* viewers and speed once a second, to whoever watches */
            w->t_tick = t;
            for (int i = 0; i < nslots; i++)
                if (w->slot[i].ch.viewers && w->slot[i].ch.active) {
                    chan_tick(&w->slot[i].ch, atomic_load(&w->slot[i].feed->dropped));
                    any = 1;
                }
        }
        for (int i = 0; i < nslots; i++)
            if (w->slot[i].feed)
                atomic_store(&w->slot[i].feed->viewers, w->slot[i].ch.viewers);
        /* a tournament's games as they are played, twice a second at most (sets are stored later) */
        if (w->tournament && !w->finished && t - w->t_prog >= 0.5 && atomic_load(&w->played) != w->prog_played) {
            prog_frame(w);
            any = 1;
        }
        if (any)
            pthread_cond_broadcast(&w->cv);
        /* five batches a second (a fast match is sampled anyway); with a delay, one every move
         * (20 ms at least), so that people see each move: few wake-ups beside the match (every
         * viewer's thread wakes for each batch) */
        const int d = w->cfg.delay_ms;
        const long period_ms = w->viewers && d > 0 && d < 200 ? (d < 20 ? 20 : d) : 200;
        if (!stop && !w->stopping) /* watch_stop wakes it at once */
            wait_wake(w, period_ms);
        pthread_mutex_unlock(&w->mu);
        if (stop)
            break;
    }
    return NULL;
}

/* ---- viewers ---- */

/* The viewer's next bytes of the channel's ring, up to position `upto` (at most max). */
static ssize_t copy_out(const WatchChan *c, Viewer *v, uint64_t upto, char *buf, size_t max)
{
    size_t at = (size_t)(v->r % c->cap), k = (size_t)(upto - v->r);
    if (k > c->cap - at)
        k = c->cap - at;
    if (k > max)
        k = max;
    memcpy(buf, c->log + at, k);
    v->r += k;
    return (ssize_t)k;
}

static ssize_t viewer_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Viewer *v = cls;
    WatchServer *w = v->w;
    WatchChan *c = v->c;
    ssize_t out = MHD_CONTENT_READER_END_OF_STREAM;
    pthread_mutex_lock(&w->mu);
    for (int waited = 0;;) {
        if (v->off < v->pend.n) {
            size_t k = v->pend.n - v->off < max ? v->pend.n - v->off : max;
            memcpy(buf, v->pend.s + v->off, k);
            v->off += k;
            if (v->off == v->pend.n)
                v->pend.n = v->off = 0;
            out = (ssize_t)k;
            break;
        }
        if (w->stopping || (v->until > 0 && now_s() >= v->until))
            break;
        if (v->epoch != c->epoch) { /* another set on this channel now: the old one's last frames, then the end */
            if (v->r >= c->epoch_w || c->w - v->r > c->cap / 2)
                break;
            out = copy_out(c, v, c->epoch_w, buf, max);
            break;
        }
        if (!v->started || c->w - v->r > c->cap / 2) {
            w->resyncs += v->started;
            v->pend.n = v->off = 0;
            if (v->started) /* a cut frame is dropped by the page; a blank line ends it */
                sb_put(&v->pend, "\n\n", 2);
            chan_snapshot(c, &v->pend);
            v->r = c->w;
            v->started = 1;
            continue;
        }
        if (c->w > v->r) {
            out = copy_out(c, v, c->w, buf, max);
            break;
        }
        if (c->over || w->finished)
            break;
        if (waited) { /* a comment line keeps the connection alive (and shows a dead one) */
            memcpy(buf, ":\n\n", 3);
            out = 3;
            break;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&w->cv, &w->mu, &ts);
        waited = 1;
    }
    pthread_mutex_unlock(&w->mu);
    return out;
}

static void viewer_free(void *cls)
{
    Viewer *v = cls;
    WatchServer *w = v->w;
    pthread_mutex_lock(&w->mu);
    v->c->viewers--;
    w->viewers--;
    pthread_cond_broadcast(&w->wake); /* watch_stop may be waiting for the last one */
    pthread_mutex_unlock(&w->mu);
    sb_free(&v->pend);
    free(v);
}

/* ---- requests ---- */

static enum MHD_Result send_response(struct MHD_Connection *con, unsigned status, struct MHD_Response *r,
                                     const char *type)
{
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                            "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
                            "frame-ancestors 'none'");
    enum MHD_Result ok = MHD_queue_response(con, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply(WatchServer *w, struct MHD_Connection *con, unsigned status, const char *type,
                             const char *body)
{
    if (status >= 400 && status < 500) { /* the 503s are counted as refusals where they are made */
        pthread_mutex_lock(&w->mu);
        w->bad++;
        pthread_mutex_unlock(&w->mu);
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    if (r && status == 405)
        MHD_add_response_header(r, "Allow", "GET, HEAD");
    if (r && status == 503)
        MHD_add_response_header(r, "Retry-After", "10");
    return send_response(con, status, r, type);
}

/* The number in /set/K, ?set=K or ?for=MS, or -1. */
static long parse_set(const char *s)
{
    if (!s || !*s || strlen(s) > 12)
        return -1;
    long k = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        k = k * 10 + (*p - '0');
    }
    return k;
}

static enum MHD_Result events(WatchServer *w, struct MHD_Connection *con)
{
    const char *q = MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, "set");
    const char *fq = MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, "for");
    const long for_ms = parse_set(fq); /* a stream of at most MS (a screenshot, a script) */
    char msg[256];
    pthread_mutex_lock(&w->mu);
    WatchChan *c = NULL;
    if (!w->tournament) {
        c = w->nslots ? &w->slot[0].ch : NULL;
    } else if (!q) {
        c = &w->tch;
    } else {
        long k = parse_set(q);
        for (int i = 0; k >= 0 && i < w->nslots; i++)
            if (w->slot[i].ch.active && w->slot[i].ch.set == k)
                c = &w->slot[i].ch;
        if (!c) {
            pthread_mutex_unlock(&w->mu);
            snprintf(msg, sizeof msg, "dhm watch: set %s is not being played now\n", k >= 0 ? q : "?");
            return reply(w, con, 404, "text/plain; charset=utf-8", msg);
        }
    }
    if (!c || w->viewers >= w->cfg.max_viewers) {
        w->refused += c != NULL; /* "nothing to watch yet" is neither a refusal nor a bad request */
        pthread_mutex_unlock(&w->mu);
        snprintf(msg, sizeof msg, "dhm watch: %d viewers are watching, the most this server allows; try again later\n",
                 w->cfg.max_viewers);
        return reply(w, con, 503, "text/plain; charset=utf-8", c ? msg : "dhm watch: nothing to watch yet\n");
    }
    Viewer *v = calloc(1, sizeof *v);
    if (!v) {
        pthread_mutex_unlock(&w->mu);
        return MHD_NO;
    }
    v->w = w;
    v->c = c;
    v->epoch = c->epoch;
    v->until = for_ms > 0 ? now_s() + (double)for_ms / 1000 : 0;
    c->viewers++;
    w->viewers++;
    w->streams++;
    if (w->viewers > w->peak)
        w->peak = w->viewers;
    pthread_mutex_unlock(&w->mu);
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024, viewer_read, v, viewer_free);
    if (!r) {
        viewer_free(v);
        return MHD_NO;
    }
    return send_response(con, MHD_HTTP_OK, r, "text/event-stream; charset=utf-8");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    (void)con_cls;
    WatchServer *w = cls;
    pthread_mutex_lock(&w->mu);
    const int tournament = w->tournament;
    pthread_mutex_unlock(&w->mu);
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return reply(w, con, 405, "text/plain; charset=utf-8", "dhm watch: a read-only view: GET only\n");
    if (!strcmp(url, "/"))
        return reply(w, con, 200, "text/html; charset=utf-8", tournament ? watch_page_tournament() : watch_page_match());
    if (tournament && !strncmp(url, "/set/", 5) && parse_set(url + 5) >= 0)
        return reply(w, con, 200, "text/html; charset=utf-8", watch_page_match());
    if (!strcmp(url, "/events"))
        return events(w, con);
    if (!strcmp(url, "/status.json")) {
        char js[256];
        pthread_mutex_lock(&w->mu);
        snprintf(js, sizeof js, "{\"viewers\": %d, \"limit\": %d, \"mode\": \"%s\", \"finished\": %d}\n", w->viewers,
                 w->cfg.max_viewers, w->tournament ? "tournament" : "serve", w->finished);
        pthread_mutex_unlock(&w->mu);
        return reply(w, con, 200, "application/json", js);
    }
    return reply(w, con, 404, "text/plain; charset=utf-8", "dhm watch: no such page (try /)\n");
}

/* libmicrohttpd answers some requests itself and closes the connection: a request line or
 * headers over its memory (414, 431), a malformed request (400). It says so only in its log:
 * every such answer is one "Error processing request (HTTP response code is %u ..." message,
 * the status its first argument (the same words since 0.9.x). Counted here; the rest of its log
 * (a client that went away...) is not printed. */
static void on_log(void *cls, const char *fmt, va_list ap)
{
    WatchServer *w = cls;
    if (!strstr(fmt, "HTTP response code is %u"))
        return;
    va_list aq;
    va_copy(aq, ap);
    const unsigned st = va_arg(aq, unsigned);
    va_end(aq);
    if (st < 400 || st >= 500)
        return;
    pthread_mutex_lock(&w->mu);
    w->bad++;
    w->too_large += st == 413 || st == 414 || st == 431;
    pthread_mutex_unlock(&w->mu);
}

/* ---- the server ---- */

int watch_start(WatchServer **out, const WatchConfig *cfg, char *err, size_t errsz)
{
    *out = NULL;
    WatchServer *w = calloc(1, sizeof *w);
    if (!w || !(w->buf = malloc(WATCH_RING * sizeof *w->buf))) {
        free(w);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    w->cfg = *cfg;
    pthread_mutex_init(&w->mu, NULL);
    pthread_mutex_init(&w->drain_mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    atomic_init(&w->played, 0);
    struct sockaddr_in a4;
    struct sockaddr_in6 a6;
    memset(&a4, 0, sizeof a4);
    memset(&a6, 0, sizeof a6);
    struct sockaddr *sa;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (inet_pton(AF_INET, cfg->addr, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons((uint16_t)cfg->port);
        sa = (struct sockaddr *)&a4;
    } else if (inet_pton(AF_INET6, cfg->addr, &a6.sin6_addr) == 1) {
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons((uint16_t)cfg->port);
        sa = (struct sockaddr *)&a6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(err, errsz, "'%s' is not a numeric address", cfg->addr);
        watch_stop(w, NULL, NULL);
        return -1;
    }
    w->d = MHD_start_daemon(flags | MHD_USE_ERROR_LOG, (uint16_t)cfg->port, NULL, NULL, on_request, w,
                            MHD_OPTION_EXTERNAL_LOGGER, on_log, w, MHD_OPTION_SOCK_ADDR, sa,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)(cfg->max_viewers + 32),
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->timeout_s,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
                            MHD_OPTION_THREAD_STACK_SIZE, (size_t)(256 * 1024), MHD_OPTION_END);
    if (!w->d) {
        snprintf(err, errsz, "cannot serve the watch page on %s:%d (%s)", cfg->addr, cfg->port,
                 errno ? strerror(errno) : "address in use?");
        watch_stop(w, NULL, NULL);
        return -1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(w->d, MHD_DAEMON_INFO_BIND_PORT);
    w->port = info ? info->port : cfg->port;
    w->t_tick = now_s();
    if (pthread_create(&w->thread, NULL, watch_thread, w)) {
        snprintf(err, errsz, "cannot start the watch thread");
        watch_stop(w, NULL, NULL);
        return -1;
    }
    w->thread_up = 1;
    *out = w;
    return 0;
}

int watch_port(const WatchServer *w) { return w->port; }

void watch_url(const WatchServer *w, char *buf, size_t n)
{
    const int v6 = strchr(w->cfg.addr, ':') != NULL;
    snprintf(buf, n, "http://%s%s%s:%d/", v6 ? "[" : "", w->cfg.addr, v6 ? "]" : "", w->port);
}

/* A slot with its feed and channel; under w->mu. */
static int slot_init(WatchServer *w, Slot *s, int always)
{
    if (chan_init(&s->ch, CHAN_MATCH, LOG_BYTES) || !(s->feed = watch_feed_new(w->cfg.delay_ms, always))) {
        chan_free(&s->ch);
        return -1;
    }
    s->feed->tally = &w->played;
    s->ch.hands = w->cfg.hands;
    s->ch.delay_ms = w->cfg.delay_ms;
    s->ch.limit = w->cfg.max_viewers;
    return 0;
}

WatchFeed *watch_match(WatchServer *w, int games)
{
    pthread_mutex_lock(&w->mu);
    Slot *s = &w->slot[0];
    WatchFeed *f = NULL;
    if (w->nslots == 0 && !w->tournament && slot_init(w, s, 1) == 0) {
        chan_reset(&s->ch, -1, NULL, games);
        w->nslots = 1;
        f = s->feed;
    }
    pthread_mutex_unlock(&w->mu);
    return f;
}

void watch_match_begin(WatchServer *w, const char *const names[NPLAYERS])
{
    pthread_mutex_lock(&w->mu);
    WatchFeed *f = w->nslots && !w->tournament ? w->slot[0].feed : NULL;
    if (f) {
        WatchChan *c = &w->slot[0].ch;
        for (int p = 0; p < NPLAYERS; p++)
            snprintf(c->names[p], sizeof c->names[p], "%s", names[p]);
        Sb b = {0};
        chan_hello(c, &b); /* viewers already here learn the names */
        chan_frame(c, &b, 0);
        sb_free(&b);
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    if (f)
        watch_feed_begin(f, -1, NULL);
}

static void tframe(WatchServer *w, Sb *b, Sb *into)
{
    if (into) { /* the latest of its kind, for joiners */
        into->n = 0;
        chan_put_frame(into, b);
    }
    chan_frame(&w->tch, b, 0);
    pthread_cond_broadcast(&w->cv);
}

int watch_tournament(WatchServer *w, int n, const char *const *names, long sets, int games, int jobs, const char *db)
{
    pthread_mutex_lock(&w->mu);
    int rc = -1;
    if (w->nslots || w->tournament || chan_init(&w->tch, CHAN_TOURNAMENT, LOG_BYTES))
        goto out;
    w->tournament = 1;
    w->tch.active = 1;
    w->names = calloc((size_t)n, sizeof *w->names);
    if (!w->names)
        goto out;
    w->npool = n;
    for (int i = 0; i < n; i++)
        if (!(w->names[i] = strdup(names[i])))
            goto out;
    w->sets = sets;
    w->games = games;
    w->p_total = sets;
    w->t0 = now_s();
    w->jobs = jobs < 1 ? 1 : jobs > MAX_SLOTS ? MAX_SLOTS : jobs;
    for (int i = 0; i < w->jobs; i++) {
        if (slot_init(w, &w->slot[i], 0))
            goto out;
        w->nslots = i + 1;
    }
    Sb b = {0};
    sb_printf(&b, "{\"t\":\"thello\",\"sets\":%ld,\"games\":%d,\"jobs\":%d,\"limit\":%d,\"hands\":%d,\"db\":", sets, games,
              w->jobs, w->cfg.max_viewers, w->cfg.hands);
    sb_json(&b, db ? db : "");
    sb_put(&b, ",\"version\":", 11);
    sb_json(&b, DHM_VERSION);
    sb_put(&b, ",\"names\":[", 10);
    for (int i = 0; i < n; i++) {
        if (i)
            sb_put(&b, ",", 1);
        sb_json(&b, names[i]);
    }
    sb_put(&b, "]}", 2);
    tframe(w, &b, &w->tch.game); /* the hello: first for every joiner */
    sb_free(&b);
    rc = 0;
out:
    pthread_mutex_unlock(&w->mu);
    return rc;
}

WatchFeed *watch_set_begin(WatchServer *w, long k, const int player[NPLAYERS])
{
    WatchFeed *f = NULL;
    pthread_mutex_lock(&w->mu);
    for (int i = 0; w->tournament && i < w->nslots && !f; i++)
        if (!w->slot[i].busy) {
            w->slot[i].busy = 1;
            f = w->slot[i].feed;
        }
    pthread_mutex_unlock(&w->mu);
    if (f)
        watch_feed_begin(f, k, player);
    return f;
}

void watch_set_end(WatchServer *w, WatchFeed *f)
{
    if (!f)
        return;
    watch_feed_over(f);
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < w->nslots; i++)
        if (w->slot[i].feed == f)
            w->slot[i].busy = 0;
    pthread_mutex_unlock(&w->mu);
}

/* The progress frame (under w->mu): sets stored, and the games counted as they are played, so
 * that it says something before the first set is stored; the sets in play with their games. */
static void prog_frame(WatchServer *w)
{
    const long played = atomic_load(&w->played), games = played > w->p_games ? played : w->p_games;
    const double secs = now_s() - w->t0, gps = secs > 0 ? (double)games / secs : 0.0;
    /* the games still to play: the run's sets times their games (a set that fails early ends
     * sooner), less those played */
    const double left = (double)(w->p_total - w->p_already) * w->games - (double)games;
    const double eta = w->p_done >= w->p_total ? 0 : gps > 0 ? (left > 0 ? left : 0) / gps : -1;
    Sb b = {0};
    sb_printf(&b, "{\"t\":\"prog\",\"done\":%ld,\"total\":%ld,\"games\":%ld,\"secs\":%.1f,\"gps\":%.1f,\"eta\":%.0f,"
                  "\"viewers\":%d,\"running\":[",
              w->p_done, w->p_total, games, secs, gps, eta, w->viewers);
    int first = 1;
    for (int i = 0; i < w->nslots; i++) {
        const WatchChan *c = &w->slot[i].ch;
        if (!c->active || c->over || !w->slot[i].busy)
            continue;
        sb_printf(&b, "%s{\"k\":%ld,\"done\":%ld,\"names\":[", first ? "" : ",", c->set,
                  atomic_load(&w->slot[i].feed->played));
        for (int p = 0; p < NPLAYERS; p++) {
            if (p)
                sb_put(&b, ",", 1);
            sb_json(&b, c->names[p]);
        }
        sb_put(&b, "]}", 2);
        first = 0;
    }
    sb_put(&b, "]}", 2);
    tframe(w, &b, &w->tch.prog);
    sb_free(&b);
    w->t_prog = now_s();
    w->prog_played = played;
}

void watch_progress(WatchServer *w, long done, long total, long games, double secs, long already)
{
    pthread_mutex_lock(&w->mu);
    if (w->tournament) {
        w->p_done = done;
        w->p_total = total;
        w->p_games = games;
        w->p_already = already;
        w->t0 = now_s() - secs;
        prog_frame(w);
    }
    pthread_mutex_unlock(&w->mu);
}

static void num_or_null(Sb *b, const char *key, double v, int prec)
{
    if (isfinite(v))
        sb_printf(b, ",\"%s\":%.*f", key, prec, v);
    else
        sb_printf(b, ",\"%s\":null", key);
}

void watch_standings(WatchServer *w, const WatchStanding *rows, int n, long ok, long not_ok)
{
    Sb b = {0};
    sb_printf(&b, "{\"t\":\"stand\",\"ok\":%ld,\"bad\":%ld,\"rows\":[", ok, not_ok);
    for (int i = 0; i < n; i++) {
        const WatchStanding *r = &rows[i];
        sb_printf(&b, "%s{\"p\":%d,\"sets\":%ld,\"games\":%ld,\"points\":%ld", i ? "," : "", r->player, r->sets,
                  r->games, r->points);
        num_or_null(&b, "ppg", r->ppg, 6);
        num_or_null(&b, "se", r->se, 6);
        num_or_null(&b, "rating", r->rating, 6); /* the page rounds once, as dhm rate prints */
        num_or_null(&b, "sigma", r->sigma, 6);
        sb_put(&b, "}", 1);
    }
    sb_put(&b, "]}", 2);
    pthread_mutex_lock(&w->mu);
    if (w->tournament)
        tframe(w, &b, &w->tch.stand);
    pthread_mutex_unlock(&w->mu);
    sb_free(&b);
}

void watch_set_failed(WatchServer *w, long k, const char *status, const char *note)
{
    Sb b = {0};
    sb_printf(&b, "{\"t\":\"fail\",\"k\":%ld,\"status\":", k);
    sb_json(&b, status);
    sb_put(&b, ",\"note\":", 8);
    sb_json(&b, note);
    sb_put(&b, "}", 1);
    pthread_mutex_lock(&w->mu);
    if (w->tournament) {
        if (w->tch.keep.n < (256u << 10)) /* joiners get the failed sets too (the first ~1000) */
            chan_put_frame(&w->tch.keep, &b);
        tframe(w, &b, NULL);
    }
    pthread_mutex_unlock(&w->mu);
    sb_free(&b);
}

void watch_finish(WatchServer *w)
{
    /* the last records first: the matches have ended, so their feeds are complete */
    for (int i = 0; i < w->nslots; i++)
        if (w->slot[i].feed)
            drain_slot(w, &w->slot[i]);
    pthread_mutex_lock(&w->mu);
    if (w->tournament && !w->tch.over) {
        w->tch.over = 1;
        Sb b = {0};
        sb_printf(&b, "{\"t\":\"over\"}");
        chan_frame(&w->tch, &b, 0);
        sb_free(&b);
    }
    w->finished = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void watch_stop(WatchServer *w, FILE *log, const char *name)
{
    if (!w)
        return;
    /* the viewers still reading get the last frames first (2 s at most): their streams end by
     * themselves once they have read everything */
    pthread_mutex_lock(&w->mu);
    w->finished = 1;
    pthread_cond_broadcast(&w->cv);
    for (double end = now_s() + 2; w->viewers > 0 && now_s() < end;)
        wait_wake(w, 100); /* the last viewer to leave wakes it */
    w->stopping = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_cond_broadcast(&w->wake); /* the watch thread ends now, not after its sleep */
    long dropped = 0;
    for (int i = 0; i < w->nslots; i++)
        dropped += atomic_load(&w->slot[i].feed->dropped);
    if (log)
        fprintf(log, "dhm %s: watch: %ld streams, %d viewers at most at once, %ld refused (the limit), %ld restarts of "
                     "viewers that fell behind, %ld bad requests (%ld too large), %ld records dropped\n",
                name, w->streams, w->peak, w->refused, w->resyncs, w->bad, w->too_large, dropped);
    pthread_mutex_unlock(&w->mu);
    if (w->thread_up)
        pthread_join(w->thread, NULL);
    if (w->d)
        MHD_stop_daemon(w->d); /* ends every viewer's stream and joins the connections' threads */
    for (int i = 0; i < w->nslots; i++) {
        chan_free(&w->slot[i].ch);
        watch_feed_free(w->slot[i].feed);
    }
    if (w->tournament)
        chan_free(&w->tch);
    for (int i = 0; w->names && i < w->npool; i++)
        free(w->names[i]);
    free(w->names);
    free(w->buf);
    pthread_cond_destroy(&w->cv);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mu);
    pthread_mutex_destroy(&w->drain_mu);
    free(w);
}

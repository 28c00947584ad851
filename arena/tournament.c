/* tournament.c — scheduling, worker threads, in-process and served sets (see tournament.h). */
#include "arena/tournament.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rng.h"
#include "game/match.h"
#include "game/workers.h"
#include "net/server.h"
#include "players/players.h"
#include "record/pack.h"

extern char **environ;

static long binom(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    long r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

long tournament_subsets(int n) { return binom(n, 5); }

/* The idx-th 5-subset of 0..n-1 in lexicographic order. */
static void unrank_subset(int n, long idx, int out[5])
{
    int x = 0;
    for (int j = 0; j < 5; j++) {
        for (;; x++) {
            long count = binom(n - 1 - x, 4 - j);
            if (idx < count)
                break;
            idx -= count;
        }
        out[j] = x++;
    }
}

void tournament_schedule(const TournamentConfig *c, long k, int players[5], uint64_t *seed, long *group,
                         int *rotation)
{
    long g = c->duplicate ? k / 5 : k;
    int r = c->duplicate ? (int)(k % 5) : 0;
    int base[5];
    if (c->pairing == PAIR_FIXED) {
        for (int i = 0; i < 5; i++)
            base[i] = i;
    } else if (c->pairing == PAIR_ALL) {
        unrank_subset(c->pool->n, g % tournament_subsets(c->pool->n), base);
    } else { /* five distinct players drawn uniformly */
        Rng rng = rng_seed(rng_derive(c->seed, 0x70616972 /* "pair" */, (uint64_t)g));
        int idx[256], n = c->pool->n < 256 ? c->pool->n : 256;
        for (int i = 0; i < n; i++)
            idx[i] = i;
        for (int i = 0; i < 5; i++) {
            int j = i + (int)rng_below(&rng, (uint32_t)(n - i));
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
            base[i] = idx[i];
        }
    }
    for (int p = 0; p < 5; p++) /* duplicate: player number p plays base player p + r */
        players[p] = base[(p + r) % 5];
    *seed = rng_derive(c->seed, 0x736574 /* "set" */, (uint64_t)g);
    *group = c->duplicate ? g : -1;
    *rotation = r;
}

/* ---- one set ---- */

static void note_add(SetResult *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(SetResult *r, const char *fmt, ...)
{
    size_t n = strlen(r->note);
    if (n + 3 >= sizeof r->note)
        return;
    if (n)
        n += (size_t)snprintf(r->note + n, sizeof r->note - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->note + n, sizeof r->note - n, fmt, ap);
    va_end(ap);
}

typedef struct SetBuf {
    uint8_t *classes;
    uint8_t *rec;
    size_t rec_len, rec_cap;
    int want_records, oom;
    const volatile int *stop;
    void (*game_done)(void *ctx);
    void *game_ctx;
    const TournamentWatch *watch; /* and the set's hooks, while a watched set is played */
    const GameHooks *hooks;
} SetBuf;

static int on_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    SetBuf *b = ctx;
    if (b->stop && *b->stop)
        return TOURNAMENT_STOPPED; /* abandon the set: it will not be stored */
    if (b->hooks)
        b->watch->game(b->watch->ctx, b->hooks, sofar);
    b->classes[sofar->games - 1] = pack_classes(rec->result);
    if (b->want_records) {
        if (b->rec_len + PACK_MAX_BYTES > b->rec_cap) {
            size_t cap = b->rec_cap ? 2 * b->rec_cap : 1 << 16;
            uint8_t *n = realloc(b->rec, cap);
            if (!n) {
                b->oom = 1;
                return -1;
            }
            b->rec = n;
            b->rec_cap = cap;
        }
        b->rec_len += pack_game(rec, b->rec + b->rec_len, b->rec_cap - b->rec_len);
    }
    if (b->game_done)
        b->game_done(b->game_ctx);
    return 0;
}

/* The client process groups alive right now, so that a stop can kill them all; and which
 * pool entries' clients have connected at least once in this run. */
typedef struct Kids {
    pthread_mutex_t mu;
    pid_t pid[1280]; /* 0 = free slot */
    uint8_t *connected; /* by pool index */
} Kids;

static int kids_ever_connected(Kids *k, int entry, int now)
{
    pthread_mutex_lock(&k->mu);
    if (now)
        k->connected[entry] = 1;
    int ever = k->connected[entry];
    pthread_mutex_unlock(&k->mu);
    return ever;
}

/* The last non-empty line of a client's log, made printable and short (it is the client's
 * output: untrusted). */
/* A log nothing was written to is removed (a set that went well leaves no empty files). */
static void drop_if_empty(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
        unlink(path);
}

static void log_last_line(const char *path, char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    char buf[4096];
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    long from = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
    size_t got = size >= 0 && fseek(f, from, SEEK_SET) == 0 ? fread(buf, 1, sizeof buf - 1, f) : 0;
    fclose(f);
    while (got && (buf[got - 1] == '\n' || buf[got - 1] == '\r' || buf[got - 1] == ' '))
        got--;
    size_t start = got;
    while (start && buf[start - 1] != '\n')
        start--;
    size_t k = 0;
    for (size_t i = start; i < got && k + 4 < n; i++)
        out[k++] = buf[i] >= 32 && buf[i] < 127 ? buf[i] : '?';
    if (k + 4 >= n && start + k < got)
        k += (size_t)snprintf(out + k, n - k, "...");
    out[k] = 0;
}

static void kids_add(Kids *k, pid_t pid)
{
    pthread_mutex_lock(&k->mu);
    for (size_t i = 0; i < sizeof k->pid / sizeof k->pid[0]; i++)
        if (!k->pid[i]) {
            k->pid[i] = pid;
            break;
        }
    pthread_mutex_unlock(&k->mu);
}

static void kids_remove(Kids *k, pid_t pid)
{
    pthread_mutex_lock(&k->mu);
    for (size_t i = 0; i < sizeof k->pid / sizeof k->pid[0]; i++)
        if (k->pid[i] == pid)
            k->pid[i] = 0;
    pthread_mutex_unlock(&k->mu);
}

static void kids_kill_all(Kids *k)
{
    pthread_mutex_lock(&k->mu);
    for (size_t i = 0; i < sizeof k->pid / sizeof k->pid[0]; i++)
        if (k->pid[i])
            kill(-k->pid[i], SIGKILL); /* the whole group: the shell and whatever it started */
    pthread_mutex_unlock(&k->mu);
}

/* Starts an external client: /bin/sh -c COMMAND with {host}, {port}, {name} and {python}
 * filled in, stdout and stderr to the log file, in a process group of its own (pgid = pid). */
static pid_t spawn_client(const char *tpl, int port, const char *name, const char *python, const char *logpath)
{
    char cmd[2048];
    size_t k = 0;
    for (const char *t = tpl; *t && k + 64 < sizeof cmd;) {
        if (!strncmp(t, "{python}", 8)) { /* quoted for the shell */
            cmd[k++] = '\'';
            for (const char *q = python ? python : "python3"; *q && k + 70 < sizeof cmd; q++)
                k += (size_t)snprintf(cmd + k, sizeof cmd - k, *q == '\'' ? "'\\''" : "%c", *q);
            cmd[k++] = '\'';
            t += 8;
            continue;
        }
        if (!strncmp(t, "{host}", 6)) {
            k += (size_t)snprintf(cmd + k, sizeof cmd - k, "127.0.0.1");
            t += 6;
        } else if (!strncmp(t, "{port}", 6)) {
            k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%d", port);
            t += 6;
        } else if (!strncmp(t, "{name}", 6)) {
            k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s", name);
            t += 6;
        } else {
            cmd[k++] = *t++;
        }
    }
    cmd[k] = 0;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, logpath, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGINT);
    sigaddset(&dflt, SIGTERM);
    sigaddset(&dflt, SIGPIPE);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &dflt); /* not our handlers, not our ignored SIGPIPE */
    char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    return rc ? -1 : pid;
}

/* Waits up to ms for a client to end by itself, then kills its whole process group and
 * collects it. Returns what happened: 0 = exited 0; > 0 = exit status; 1000 + signal = died
 * of a signal; 2000 = had to be killed. The group is killed in every case (a client's own
 * children never outlive its set); the leader is reaped only after that, so its pid (the
 * group id) cannot be reused in between. */
static int reap(pid_t pid, int ms)
{
    siginfo_t si;
    int ended = 0;
    for (int t = 0; t <= ms; t += 20) {
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
            ended = 1;
            break;
        }
        if (t < ms)
            usleep(20000);
    }
    kill(-pid, SIGKILL);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!ended)
        return 2000;
    if (WIFSIGNALED(st))
        return 1000 + WTERMSIG(st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 2000;
}

static int play_served(const TournamentConfig *c, Kids *kids, SetResult *r, const MatchConfig *mc, SetBuf *buf,
                       GameRecord *rec, MatchResult *res, const GameHooks *watch, char *err, size_t errsz)
{
    char logpath[1024];
    mkdir(c->log_dir, 0755);
    snprintf(logpath, sizeof logpath, "%s/set-%ld.log", c->log_dir, r->idx);
    FILE *log = fopen(logpath, "a");
    ServerConfig sc;
    server_config_default(&sc);
    sc.port = 0;
    sc.match = *mc;
    sc.move_timeout_ms = c->move_timeout_ms;
    sc.log = log;
    sc.watch = watch;
    for (int p = 0; p < NPLAYERS; p++) {
        const PoolEntry *e = &c->pool->e[r->player[p]];
        snprintf(sc.seats[p], sizeof sc.seats[p], "%.127s", e->external ? "remote" : e->spec);
    }
    Server *s;
    if (server_open(&s, &sc, err, errsz)) {
        if (log)
            fclose(log);
        return -1;
    }
    pid_t pid[NPLAYERS];
    int absent[NPLAYERS] = {0}, exited_early[NPLAYERS] = {0};
    for (int p = 0; p < NPLAYERS; p++) {
        pid[p] = -1;
        const PoolEntry *e = &c->pool->e[r->player[p]];
        if (!e->external)
            continue;
        char clog[1024];
        snprintf(clog, sizeof clog, "%s/set-%ld-%s.log", c->log_dir, r->idx, e->name);
        pid[p] = spawn_client(e->spec, server_port(s), e->name, c->python, clog);
        if (pid[p] > 0)
            kids_add(kids, pid[p]);
        int connected = 0;
        for (int waited = 0; pid[p] > 0 && waited < c->connect_timeout_ms && !(c->stop && *c->stop);
             waited += 100) {
            char e2[256];
            if (server_accept_seat(s, p, 100, e2, sizeof e2) == 0) {
                connected = 1;
                break;
            }
            siginfo_t si;
            memset(&si, 0, sizeof si);
            if (waitid(P_PID, (id_t)pid[p], &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid[p]) {
                exited_early[p] = 1; /* ended without connecting */
                break;
            }
        }
        if (!connected && !(c->stop && *c->stop) && !kids_ever_connected(kids, r->player[p], 0)) {
            /* its first set: a client that cannot start would forfeit every set of the run */
            char last[240];
            if (pid[p] > 0)
                reap(pid[p], 0);
            log_last_line(clog, last, sizeof last);
            snprintf(err, errsz,
                     "%s (exec:) did not connect in set %ld, its first in this run, so the run stops; its log is %s%s%s%s",
                     e->name, r->idx, clog, last[0] ? " (last line: \"" : " (empty)", last, last[0] ? "\")" : "");
            if (pid[p] > 0)
                kids_remove(kids, pid[p]);
            for (int q = 0; q < p; q++)
                if (pid[q] > 0) {
                    reap(pid[q], 0);
                    kids_remove(kids, pid[q]);
                }
            server_close(s);
            if (log)
                fclose(log);
            return -1;
        }
        if (connected)
            kids_ever_connected(kids, r->player[p], 1);
        if (!connected) {
            server_forfeit_seat(s, p);
            absent[p] = 1;
            note_add(r, "%s never connected", e->name);
        }
    }
    server_stop_listening(s);
    int rc = server_run_match(s, on_game, buf, rec, res);
    for (int p = 0; p < NPLAYERS; p++) {
        const char *name = c->pool->e[r->player[p]].name;
        if (pid[p] > 0) {
            int how = reap(pid[p], exited_early[p] || absent[p] ? 0 : 5000);
            kids_remove(kids, pid[p]);
            r->exit_status[p] = how;
            if (how >= 2000)
                note_add(r, "%s did not exit within 5 s of the end; killed", name);
            else if (how > 1000)
                note_add(r, "%s died of signal %d", name, how - 1000);
            else if (how > 0)
                note_add(r, "%s exited with status %d", name, how);
        } else if (c->pool->e[r->player[p]].external) {
            note_add(r, "%s could not be started", name);
            r->exit_status[p] = 127;
        }
        r->timeouts[p] = server_timeouts(s, p);
        if (!absent[p] && server_disconnected(s, p)) {
            absent[p] = 1;
            note_add(r, "%s disconnected during the set", name);
        }
        r->forfeit[p] = absent[p];
        if (r->timeouts[p])
            note_add(r, "%s: %ld moves timed out", name, r->timeouts[p]);
    }
    server_close(s);
    if (log)
        fclose(log);
    drop_if_empty(logpath);
    for (int p = 0; p < NPLAYERS; p++)
        if (c->pool->e[r->player[p]].external) {
            char clog[1024];
            snprintf(clog, sizeof clog, "%s/set-%ld-%s.log", c->log_dir, r->idx, c->pool->e[r->player[p]].name);
            drop_if_empty(clog);
        }
    if (rc == TOURNAMENT_STOPPED)
        return rc;
    if (rc)
        snprintf(err, errsz, "set %ld: the match failed", r->idx);
    return rc;
}

/* Plays set k. Returns 0 (r filled), TOURNAMENT_STOPPED (abandoned: not to be stored), or -1. */
static int play_set(const TournamentConfig *c, Kids *kids, long k, SetResult *r, SetBuf *buf, GameRecord *rec,
                    char *err, size_t errsz)
{
    memset(r, 0, sizeof *r);
    r->idx = k;
    tournament_schedule(c, k, r->player, &r->seed, &r->dup_group, &r->rotation);
    store_now(r->started, sizeof r->started);
    MatchConfig mc = {.games = c->games, .seat_change = c->seat_change, .class_reset = c->class_reset, .seed = r->seed,
                      .timed = c->records, .deals = c->deals, .ndeals = c->ndeals,
                      .deal_offset = (c->duplicate ? k / 5 : k) * (long)c->games};
    MatchResult res;
    buf->rec_len = 0;
    buf->oom = 0;
    int external = 0;
    for (int p = 0; p < NPLAYERS; p++)
        external |= c->pool->e[r->player[p]].external;
    int rc;
    const GameHooks *watch = c->watch ? c->watch->set_begin(c->watch->ctx, k, r->player) : NULL;
    buf->watch = c->watch;
    buf->hooks = watch;
    if (external) {
        rc = play_served(c, kids, r, &mc, buf, rec, &res, watch, err, errsz);
    } else {
        Player *pl[NPLAYERS] = {0};
        rc = 0;
        for (int p = 0; p < NPLAYERS && !rc; p++)
            rc = player_create(c->pool->e[r->player[p]].spec, player_seed(r->seed, p), &pl[p], err, errsz) ? -1 : 0;
        if (!rc)
            rc = match_run(pl, &mc, watch, on_game, buf, rec, &res);
        for (int p = 0; p < NPLAYERS; p++)
            player_destroy(pl[p]);
    }
    buf->hooks = NULL;
    if (c->watch)
        c->watch->set_end(c->watch->ctx, k, watch);
    if (buf->oom) {
        snprintf(err, errsz, "out of memory for the records of set %ld", k);
        return -1;
    }
    if (rc == TOURNAMENT_STOPPED)
        return rc;
    if (rc)
        return -1;
    r->games = res.games;
    long forfeits = 0, timeouts = 0, exits = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        r->total[p] = res.points[p];
        r->illegal[p] = res.illegal[p];
        memcpy(r->cls[p], res.class_count[p], sizeof r->cls[p]);
        forfeits += r->forfeit[p];
        timeouts += r->timeouts[p];
        exits += r->exit_status[p] != 0;
    }
    snprintf(r->status, sizeof r->status, "%s",
             forfeits ? "forfeit" : timeouts ? "timeouts" : exits ? "client-exit" : SET_STATUS_OK);
    r->classes = buf->classes;
    r->records = c->records ? buf->rec : NULL;
    r->records_len = buf->rec_len;
    store_now(r->finished, sizeof r->finished);
    return 0;
}

/* ---- workers ---- */

typedef struct Shared {
    const TournamentConfig *c;
    Store *store;
    uint8_t *done; /* bitmap of stored sets */
    long next;     /* sets below next are taken */
    pthread_mutex_t mu;
    long finished, games, already, total;
    int failed, stopped;
    char err[512];
    Kids kids;
} Shared;

static int is_done(const uint8_t *bits, long k) { return (bits[k >> 3] >> (k & 7)) & 1; }

static void *worker(void *arg)
{
    Shared *sh = arg;
    SetBuf buf = {malloc((size_t)sh->c->games), NULL, 0, 0, sh->c->records, 0, sh->c->stop, sh->c->game_done,
                  sh->c->game_ctx, NULL, NULL};
    GameRecord *rec = malloc(sizeof *rec);
    char err[512];
    if (!buf.classes || !rec) {
        pthread_mutex_lock(&sh->mu);
        sh->failed = 1;
        snprintf(sh->err, sizeof sh->err, "out of memory");
        pthread_mutex_unlock(&sh->mu);
    }
    for (;;) {
        pthread_mutex_lock(&sh->mu);
        while (sh->next < sh->c->sets && is_done(sh->done, sh->next))
            sh->next++;
        if (sh->c->stop && *sh->c->stop)
            sh->stopped = 1;
        if (sh->failed || sh->stopped || sh->next >= sh->c->sets) {
            pthread_mutex_unlock(&sh->mu);
            break;
        }
        long k = sh->next++;
        pthread_mutex_unlock(&sh->mu);
        SetResult r;
        int rc = play_set(sh->c, &sh->kids, k, &r, &buf, rec, err, sizeof err);
        if (rc == 0)
            rc = store_save_set(sh->store, &r, err, sizeof err);
        pthread_mutex_lock(&sh->mu);
        if (rc == TOURNAMENT_STOPPED) {
            sh->stopped = 1;
        } else if (rc) {
            if (!sh->failed)
                snprintf(sh->err, sizeof sh->err, "%s", err);
            sh->failed = 1;
        } else {
            sh->finished++;
            sh->games += r.games;
        }
        pthread_mutex_unlock(&sh->mu);
    }
    free(buf.classes);
    free(buf.rec);
    free(rec);
    return NULL;
}

static void tick(void *arg)
{
    Shared *sh = arg;
    if (sh->c->stop && *sh->c->stop)
        kids_kill_all(&sh->kids); /* the sets in progress end at once and are not stored */
    pthread_mutex_lock(&sh->mu);
    long d = sh->finished, g = sh->games;
    pthread_mutex_unlock(&sh->mu);
    if (sh->c->progress)
        sh->c->progress(sh->c->progress_ctx, sh->already + d, sh->total, g);
}

int tournament_run(const TournamentConfig *c, Store *store, char *err, size_t errsz)
{
    Shared *sh = calloc(1, sizeof *sh);
    if (!sh) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    sh->c = c;
    sh->store = store;
    if (c->sets < 0 || c->sets > TOURNAMENT_MAX_SETS) {
        free(sh);
        snprintf(err, errsz, "%ld sets: at most %ld sets per run", c->sets, TOURNAMENT_MAX_SETS);
        return -1;
    }
    size_t nbytes = (size_t)(c->sets + 7) / 8 + 1;
    sh->done = calloc(nbytes, 1);
    if (!sh->done || store_done_sets(store, sh->done, c->sets)) {
        free(sh->done);
        free(sh);
        snprintf(err, errsz, "cannot read the stored sets");
        return -1;
    }
    long pending = 0;
    for (long k = 0; k < c->sets; k++) {
        if (!tournament_in_shard(c, k)) { /* another shard's: never taken */
            sh->done[k >> 3] |= (uint8_t)(1u << (k & 7));
            continue;
        }
        sh->total++;
        if (is_done(sh->done, k))
            sh->already++;
        else
            pending++;
    }
    sh->kids.connected = calloc((size_t)c->pool->n, 1);
    if (!sh->kids.connected) {
        free(sh->done);
        free(sh);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    pthread_mutex_init(&sh->mu, NULL);
    pthread_mutex_init(&sh->kids.mu, NULL);
    if (pending > 0)
        workers_run(c->jobs < pending ? c->jobs : (int)pending, worker, sh, tick);
    else
        tick(sh);
    kids_kill_all(&sh->kids); /* nothing should be left; make sure */
    pthread_mutex_destroy(&sh->kids.mu);
    free(sh->kids.connected);
    pthread_mutex_destroy(&sh->mu);
    int rc = 0;
    if (sh->failed) {
        snprintf(err, errsz, "%s", sh->err);
        rc = -1;
    } else if (sh->stopped || (c->stop && *c->stop)) {
        rc = TOURNAMENT_STOPPED;
    }
    free(sh->done);
    free(sh);
    return rc;
}

void tournament_run_info(const TournamentConfig *c, const char *version, RunInfo *run)
{
    run->seed = c->seed;
    run->sets = c->sets;
    run->games = c->games;
    run->seat_change = c->seat_change;
    run->class_reset = c->class_reset;
    snprintf(run->pairing, sizeof run->pairing, "%s",
             c->pairing == PAIR_ALL ? "all" : c->pairing == PAIR_FIXED ? "fixed" : "random");
    run->duplicate = c->duplicate;
    run->records = c->records;
    run->move_timeout_ms = c->move_timeout_ms;
    snprintf(run->version, sizeof run->version, "%s", version);
    store_now(run->started, sizeof run->started);
}

int tournament_store_create(Store **st, const char *db, const Pool *pool, const RunInfo *run, char *err, size_t errsz)
{
    char **names = malloc((size_t)pool->n * sizeof *names), **specs = malloc((size_t)pool->n * sizeof *specs);
    int rc = names && specs ? 0 : -1;
    for (int i = 0; !rc && i < pool->n; i++) {
        names[i] = pool->e[i].name;
        specs[i] = pool->e[i].spec;
    }
    if (rc)
        snprintf(err, errsz, "out of memory");
    else
        rc = store_create(st, db, run, pool->n, names, specs, err, errsz);
    free(names);
    free(specs);
    return rc;
}

/* ---- one set at a time, for other schedulers (MPI ranks) ---- */

struct TournamentWork {
    const TournamentConfig *c;
    Kids kids;
    SetBuf buf;
    GameRecord *rec;
};

TournamentWork *tournament_work_new(const TournamentConfig *c)
{
    TournamentWork *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->c = c;
    pthread_mutex_init(&w->kids.mu, NULL);
    w->buf = (SetBuf){malloc((size_t)c->games), NULL, 0, 0, c->records, 0, c->stop, c->game_done, c->game_ctx, NULL, NULL};
    w->rec = malloc(sizeof *w->rec);
    w->kids.connected = calloc((size_t)c->pool->n, 1);
    if (!w->buf.classes || !w->rec || !w->kids.connected) {
        tournament_work_free(w);
        return NULL;
    }
    return w;
}

int tournament_work_play(TournamentWork *w, long k, SetResult *r, char *err, size_t errsz)
{
    return play_set(w->c, &w->kids, k, r, &w->buf, w->rec, err, errsz);
}

void tournament_work_free(TournamentWork *w)
{
    if (!w)
        return;
    kids_kill_all(&w->kids);
    pthread_mutex_destroy(&w->kids.mu);
    free(w->kids.connected);
    free(w->buf.classes);
    free(w->buf.rec);
    free(w->rec);
    free(w);
}

/* ---- a set result as bytes (what an MPI rank sends back) ---- */

typedef struct PackHead {
    int64_t idx, dup_group, records_len;
    uint64_t seed;
    int32_t games, rotation;
    int32_t player[NPLAYERS], forfeit[NPLAYERS], exit_status[NPLAYERS];
    int64_t total[NPLAYERS], cls[NPLAYERS][NPLAYERS], timeouts[NPLAYERS], illegal[NPLAYERS];
    char started[40], finished[40], status[16], note[512];
} PackHead;

size_t set_result_size(const SetResult *r) { return sizeof(PackHead) + (size_t)r->games + r->records_len; }

void set_result_pack(const SetResult *r, uint8_t *out)
{
    PackHead h;
    memset(&h, 0, sizeof h);
    h.idx = r->idx;
    h.dup_group = r->dup_group;
    h.records_len = r->records ? (int64_t)r->records_len : -1;
    h.seed = r->seed;
    h.games = r->games;
    h.rotation = r->rotation;
    for (int p = 0; p < NPLAYERS; p++) {
        h.player[p] = r->player[p];
        h.forfeit[p] = r->forfeit[p];
        h.exit_status[p] = r->exit_status[p];
        h.total[p] = r->total[p];
        h.timeouts[p] = r->timeouts[p];
        h.illegal[p] = r->illegal[p];
        for (int c = 0; c < NPLAYERS; c++)
            h.cls[p][c] = r->cls[p][c];
    }
    memcpy(h.started, r->started, sizeof h.started);
    memcpy(h.finished, r->finished, sizeof h.finished);
    memcpy(h.status, r->status, sizeof h.status);
    memcpy(h.note, r->note, sizeof h.note);
    memcpy(out, &h, sizeof h);
    memcpy(out + sizeof h, r->classes, (size_t)r->games);
    if (r->records && r->records_len)
        memcpy(out + sizeof h + (size_t)r->games, r->records, r->records_len);
}

int set_result_unpack(const uint8_t *in, size_t n, SetResult *r)
{
    PackHead h;
    if (n < sizeof h)
        return -1;
    memcpy(&h, in, sizeof h);
    size_t rl = h.records_len < 0 ? 0 : (size_t)h.records_len;
    if (h.games < 0 || h.games > 100000000 || n != sizeof h + (size_t)h.games + rl)
        return -1;
    memset(r, 0, sizeof *r);
    r->idx = (long)h.idx;
    r->dup_group = (long)h.dup_group;
    r->seed = h.seed;
    r->games = h.games;
    r->rotation = h.rotation;
    for (int p = 0; p < NPLAYERS; p++) {
        r->player[p] = h.player[p];
        r->forfeit[p] = h.forfeit[p];
        r->exit_status[p] = h.exit_status[p];
        r->total[p] = (long)h.total[p];
        r->timeouts[p] = (long)h.timeouts[p];
        r->illegal[p] = (long)h.illegal[p];
        for (int c = 0; c < NPLAYERS; c++)
            r->cls[p][c] = (long)h.cls[p][c];
    }
    memcpy(r->started, h.started, sizeof r->started);
    memcpy(r->finished, h.finished, sizeof r->finished);
    memcpy(r->status, h.status, sizeof r->status);
    memcpy(r->note, h.note, sizeof r->note);
    r->started[sizeof r->started - 1] = r->finished[sizeof r->finished - 1] = 0;
    r->status[sizeof r->status - 1] = r->note[sizeof r->note - 1] = 0;
    r->classes = in + sizeof h;
    r->records = h.records_len < 0 ? NULL : in + sizeof h + (size_t)h.games;
    r->records_len = rl;
    return 0;
}

/* mpi.c — tournaments across MPI ranks (mpi.h). Compiled to stubs without DHM_MPI. */
#include "arena/mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DHM_MPI

int mpi_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}
void mpi_finish(void) {}
int mpi_size(void) { return 1; }
void mpi_end_job(int status) { (void)status; }
int mpi_worker_main(void) { return 0; }
int tournament_run_mpi(const TournamentConfig *c, Store *st, long rank_timeout_ms, int *lost, char *err, size_t errsz)
{
    (void)c;
    (void)st;
    (void)rank_timeout_ms;
    *lost = 0;
    snprintf(err, errsz, "this dhm was built without MPI (make MPI=1 builds build/dhm-mpi)");
    return -1;
}

#else

#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include "game/game.h"

enum { TAG_READY = 1, TAG_RESULT, TAG_WORK, TAG_DONE, TAG_FAIL, TAG_ALIVE };
enum { JOB_QUIT = 0, JOB_TOURNAMENT = 1 };

static int g_rank, g_size = 1;

int mpi_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    /* errors come back as codes, so a dead rank does not take rank 0 with it (with
     * mpiexec -disable-auto-cleanup) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    signal(SIGPIPE, SIG_IGN); /* a dead rank's socket: an error code, not the end of this rank */
    return g_rank;
}

int mpi_size(void) { return g_size; }

void mpi_end_job(int status)
{
    fflush(NULL);
    MPI_Abort(MPI_COMM_WORLD, status);
}

/* ---- the job: a tournament's settings as bytes ---- */

typedef struct JobHead {
    int32_t kind;
    int64_t sets, ndeals;
    uint64_t seed;
    int32_t games, seat_change, class_reset, jobs, pairing, duplicate, records, move_timeout_ms, connect_timeout_ms;
    int32_t shard_i, shard_n;
    int32_t alive_ms; /* a playing rank says it is alive at most this often (0: never) */
    int64_t pool_len, logdir_len;
} JobHead;

static void broadcast(uint8_t **buf, int64_t *len)
{
    MPI_Bcast(len, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (g_rank != 0 && !(*buf = malloc((size_t)(*len > 0 ? *len : 1)))) {
        fprintf(stderr, "dhm: rank %d: out of memory for the job\n", g_rank);
        mpi_end_job(1);
    }
    MPI_Bcast(*buf, (int)*len, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void mpi_finish(void)
{
    if (g_rank == 0 && g_size > 1) { /* the workers wait for a job: there is none */
        JobHead h;
        memset(&h, 0, sizeof h);
        h.kind = JOB_QUIT;
        uint8_t *b = (uint8_t *)&h;
        int64_t len = sizeof h;
        broadcast(&b, &len);
    }
    MPI_Finalize();
}

/* A set's result travels to rank 0 in pieces of at most RESULT_PIECE bytes, the first led by
 * the result's length. Each piece is a small message that MPI sends eagerly: the transport
 * delivers it whole, and rank 0 never reads a piece out of the memory of the rank that sent it.
 * (A result sent as one large message is read that way, and when the sender dies first,
 * MPICH's UCX transport ends rank 0 too.) */
enum { RESULT_PIECE = 4000 };
#define RESULT_MAX ((int64_t)1 << 31)

/* ---- a worker rank ---- */

static void send_result(const uint8_t *out, size_t n)
{
    uint8_t piece[RESULT_PIECE];
    const int64_t total = (int64_t)n;
    size_t off = 0;
    memcpy(piece, &total, sizeof total);
    size_t head = sizeof total;
    do {
        size_t k = n - off < RESULT_PIECE - head ? n - off : RESULT_PIECE - head;
        memcpy(piece + head, out + off, k);
        MPI_Send(piece, (int)(head + k), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
        off += k;
        head = 0;
    } while (off < n);
}

/* The sign of life a playing rank sends rank 0 after a game, at most every alive_ms: rank 0
 * then knows that the rank still plays, however long its set takes. */
typedef struct Alive {
    int64_t set;
    double last;
    int alive_ms;
} Alive;

static void alive(void *ctx)
{
    Alive *a = ctx;
    const double t = game_clock_ms();
    if (t - a->last < a->alive_ms)
        return;
    a->last = t;
    MPI_Send(&a->set, 1, MPI_INT64_T, 0, TAG_ALIVE, MPI_COMM_WORLD);
}

static int serve_job(const uint8_t *b, int64_t len)
{
    JobHead h;
    memcpy(&h, b, sizeof h);
    if ((int64_t)sizeof h + h.pool_len + h.logdir_len + h.ndeals * NPLAYERS * 8 != len)
        return -1;
    const char *pool_text = (const char *)b + sizeof h, *logdir = pool_text + h.pool_len;
    char *pt = strndup(pool_text, (size_t)h.pool_len), *ld = strndup(logdir, (size_t)h.logdir_len);
    Cards(*deals)[NPLAYERS] = h.ndeals ? malloc((size_t)h.ndeals * sizeof *deals) : NULL;
    if (deals)
        memcpy(deals, logdir + h.logdir_len, (size_t)h.ndeals * sizeof *deals);
    Pool pool;
    char err[512];
    Alive al = {-1, 0, h.alive_ms};
    int rc = pool_parse(pt, "(the run's pool)", &pool, err, sizeof err);
    TournamentConfig c = {.pool = &pool, .sets = h.sets, .games = h.games, .seat_change = h.seat_change,
                          .class_reset = h.class_reset, .seed = h.seed, .jobs = 1, .pairing = h.pairing,
                          .duplicate = h.duplicate, .records = h.records, .move_timeout_ms = h.move_timeout_ms,
                          .connect_timeout_ms = h.connect_timeout_ms, .log_dir = ld,
                          .deals = (const Cards(*)[NPLAYERS])deals, .ndeals = h.ndeals, .shard_i = h.shard_i,
                          .shard_n = h.shard_n,
                          .game_done = h.alive_ms > 0 ? alive : NULL,
                          .game_ctx = &al};
    TournamentWork *w = rc ? NULL : tournament_work_new(&c);
    if (!w && !rc)
        snprintf(err, sizeof err, "rank %d: out of memory", g_rank);
    if (!w)
        MPI_Send(err, (int)strlen(err) + 1, MPI_CHAR, 0, TAG_FAIL, MPI_COMM_WORLD);
    else
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
    uint8_t *out = NULL;
    size_t cap = 0;
    for (;;) {
        int64_t k;
        MPI_Status stt;
        if (MPI_Recv(&k, 1, MPI_INT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &stt) != MPI_SUCCESS || stt.MPI_TAG == TAG_DONE)
            break;
        SetResult r;
        al.set = k;
        al.last = game_clock_ms();
        int pr = w ? tournament_work_play(w, (long)k, &r, err, sizeof err) : -1;
        if (pr) {
            if (pr == TOURNAMENT_STOPPED)
                snprintf(err, sizeof err, "rank %d: set %lld abandoned", g_rank, (long long)k);
            MPI_Send(err, (int)strlen(err) + 1, MPI_CHAR, 0, TAG_FAIL, MPI_COMM_WORLD);
            continue;
        }
        size_t n = set_result_size(&r);
        if (n > cap) {
            uint8_t *o = realloc(out, n);
            if (!o) {
                snprintf(err, sizeof err, "rank %d: out of memory", g_rank);
                MPI_Send(err, (int)strlen(err) + 1, MPI_CHAR, 0, TAG_FAIL, MPI_COMM_WORLD);
                continue;
            }
            out = o;
            cap = n;
        }
        set_result_pack(&r, out);
        send_result(out, n);
    }
    free(out);
    tournament_work_free(w);
    if (!rc)
        pool_free(&pool);
    free(pt);
    free(ld);
    free(deals);
    return 0;
}

int mpi_worker_main(void)
{
    for (;;) {
        uint8_t *b = NULL;
        int64_t len = 0;
        broadcast(&b, &len);
        JobHead h;
        if (len < (int64_t)sizeof h) {
            free(b);
            return 1;
        }
        memcpy(&h, b, sizeof h);
        if (h.kind == JOB_QUIT) {
            free(b);
            MPI_Finalize();
            return 0;
        }
        serve_job(b, len);
        free(b);
    }
}

/* ---- rank 0 ---- */

/* A result arriving from one rank, piece by piece. */
typedef struct Part {
    uint8_t *b;
    size_t len, want; /* want = 0: no result begun */
} Part;

/* Adds a piece: 1 when the result is whole (in p->b, p->len), 0 when more are to come, -1 for a
 * piece that does not fit (a damaged message) or no memory. */
static int take_piece(Part *p, const uint8_t *d, size_t m)
{
    if (p->want == 0) { /* the first piece: the length, then the start */
        int64_t total;
        if (m < sizeof total)
            return -1;
        memcpy(&total, d, sizeof total);
        d += sizeof total;
        m -= sizeof total;
        uint8_t *b = total > 0 && total <= RESULT_MAX ? realloc(p->b, (size_t)total) : NULL;
        if (!b)
            return -1;
        p->b = b;
        p->want = (size_t)total;
        p->len = 0;
    }
    if (m > p->want - p->len)
        return -1;
    memcpy(p->b + p->len, d, m);
    p->len += m;
    if (p->len < p->want)
        return 0;
    p->want = 0;
    return 1;
}

static int is_set(const uint8_t *bits, long k) { return (bits[k >> 3] >> (k & 7)) & 1; }

/* Rank 0's schedule: the sets still to play in order (pending[head..npend)), the set each rank
 * has out (out_set, -1 for none) and since when, the ranks given up on (gone) and the ranks
 * waiting for a set that a silent rank may still give back (parked). */
typedef struct Sched {
    const TournamentConfig *c;
    long rank_timeout_ms;
    uint8_t *done;
    long *pending, npend, head;
    long *out_set;
    double *out_at;
    char *gone, *parked, *closed; /* closed: told that there is no more work */
    Part *part;                   /* each rank's result in transit */
    int open, failed;
} Sched;

static int sched_stopping(const Sched *s) { return s->failed || (s->c->stop && *s->c->stop); }

static int sched_out(const Sched *s)
{
    int n = 0;
    for (int r = 1; r < g_size; r++)
        n += s->out_set[r] >= 0;
    return n;
}

static void sched_done(Sched *s, int q)
{
    int64_t none = -1;
    MPI_Send(&none, 1, MPI_INT64_T, q, TAG_DONE, MPI_COMM_WORLD);
    s->closed[q] = 1;
    s->open--;
}

/* Rank q is free: its next set; or, while sets are out with ranks that may yet be given up on,
 * it waits to take one over; or its part is over. */
static void sched_hand_out(Sched *s, int q)
{
    while (s->head < s->npend && is_set(s->done, s->pending[s->head]))
        s->head++;
    if (!sched_stopping(s) && s->head < s->npend) {
        int64_t k = s->pending[s->head++];
        s->out_set[q] = (long)k;
        s->out_at[q] = game_clock_ms();
        MPI_Send(&k, 1, MPI_INT64_T, q, TAG_WORK, MPI_COMM_WORLD);
    } else if (!sched_stopping(s) && s->rank_timeout_ms > 0 && sched_out(s) > 0)
        s->parked[q] = 1;
    else
        sched_done(s, q);
}

/* Waiting ranks get the sets given back, or are released once nothing is out. */
static void sched_release(Sched *s)
{
    for (int q = 1; q < g_size; q++)
        if (s->parked[q] && (s->head < s->npend || sched_stopping(s) || sched_out(s) == 0)) {
            s->parked[q] = 0;
            sched_hand_out(s, q);
        }
}

/* Ranks silent for longer than the timeout (no game of their set finished, no result) are
 * given up on; their sets go back to the head of the queue and to waiting ranks. Called when
 * no message is waiting; the time rank 0 itself spent away from the messages (a long commit)
 * is not counted as anyone's silence (tournament_run_mpi moves out_at). */
static void sched_check(Sched *s, double t, int *lost)
{
    for (int r = 1; r < g_size; r++)
        if (s->rank_timeout_ms > 0 && !s->gone[r] && s->out_set[r] >= 0 && t - s->out_at[r] > (double)s->rank_timeout_ms) {
            fprintf(stderr,
                    "dhm: rank %d has been silent for %ld ms (no game of set %ld finished): given up; its set goes to "
                    "another rank\n",
                    r, s->rank_timeout_ms, s->out_set[r]);
            s->gone[r] = 1;
            (*lost)++;
            if (!is_set(s->done, s->out_set[r]) && s->head > 0) /* taken from pending: put it back */
                s->pending[--s->head] = s->out_set[r];
            s->out_set[r] = -1;
            s->open--;
        }
    sched_release(s);
}

int tournament_run_mpi(const TournamentConfig *c, Store *st, long rank_timeout_ms, int *lost, char *err, size_t errsz)
{
    *lost = 0;
    /* the job */
    const char *pool_text = c->pool->text, *logdir = c->log_dir ? c->log_dir : "";
    /* playing ranks say they are alive four times per timeout (at most once a second) */
    const long alive_ms = rank_timeout_ms <= 0  ? 0
                          : rank_timeout_ms < 4    ? 1
                          : rank_timeout_ms > 4000 ? 1000
                                                   : rank_timeout_ms / 4;
    JobHead h = {JOB_TOURNAMENT,     c->sets,        c->ndeals,          c->seed,           c->games, c->seat_change,
                 c->class_reset,     1,              c->pairing,         c->duplicate,      c->records,
                 c->move_timeout_ms, c->connect_timeout_ms, c->shard_i, c->shard_n, (int32_t)alive_ms,
                 (int64_t)strlen(pool_text), (int64_t)strlen(logdir)};
    int64_t len = (int64_t)sizeof h + h.pool_len + h.logdir_len + h.ndeals * NPLAYERS * 8;
    uint8_t *job = malloc((size_t)len);
    Sched s = {.c = c,
               .rank_timeout_ms = rank_timeout_ms,
               .done = calloc((size_t)(c->sets + 7) / 8 + 1, 1),
               .pending = malloc((size_t)(c->sets > 0 ? c->sets : 1) * sizeof(long)),
               .out_set = malloc((size_t)g_size * sizeof(long)),
               .out_at = malloc((size_t)g_size * sizeof(double)),
               .gone = calloc((size_t)g_size, 1),
               .parked = calloc((size_t)g_size, 1),
               .closed = calloc((size_t)g_size, 1),
               .part = calloc((size_t)g_size, sizeof(Part)),
               .open = g_size - 1};
    uint8_t *msg = NULL;
    int rc = -1, sent = 0;
    if (!job || !s.done || !s.pending || !s.out_set || !s.out_at || !s.gone || !s.parked || !s.closed || !s.part) {
        snprintf(err, errsz, "out of memory");
        goto end;
    }
    memcpy(job, &h, sizeof h);
    memcpy(job + sizeof h, pool_text, (size_t)h.pool_len);
    memcpy(job + sizeof h + h.pool_len, logdir, (size_t)h.logdir_len);
    if (h.ndeals)
        memcpy(job + sizeof h + h.pool_len + h.logdir_len, c->deals, (size_t)h.ndeals * NPLAYERS * 8);
    broadcast(&job, &len);
    sent = 1;
    /* the sets still to play, in order */
    if (store_done_sets(st, s.done, c->sets)) {
        snprintf(err, errsz, "cannot read the stored sets");
        goto end;
    }
    long total = 0, already = 0, finished = 0, games = 0;
    for (long k = 0; k < c->sets; k++) {
        if (!tournament_in_shard(c, k))
            continue;
        total++;
        if (is_set(s.done, k))
            already++;
        else
            s.pending[s.npend++] = k;
    }
    for (int r = 0; r < g_size; r++)
        s.out_set[r] = -1;
    double last_tick = 0, last_loop = game_clock_ms();
    while (s.open > 0) {
        int flag = 0;
        MPI_Status stt;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &stt);
        const double t = game_clock_ms();
        if (t - last_loop > 100) /* rank 0 was away (a slow commit, a stopped process): no rank's silence */
            for (int r = 1; r < g_size; r++)
                s.out_at[r] += t - last_loop;
        last_loop = t;
        if (c->progress && t - last_tick > 200) {
            c->progress(c->progress_ctx, already + finished, total, games);
            last_tick = t;
        }
        if (!flag) {
            sched_check(&s, t, lost);
            usleep(500);
            continue;
        }
        int n = 0;
        MPI_Get_count(&stt, MPI_BYTE, &n);
        uint8_t *nb = realloc(msg, (size_t)(n > 0 ? n : 1));
        if (!nb) {
            snprintf(err, errsz, "out of memory");
            goto end;
        }
        msg = nb;
        const int src = stt.MPI_SOURCE;
        MPI_Recv(msg, n, MPI_BYTE, src, stt.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (stt.MPI_TAG == TAG_ALIVE) { /* a game of its set finished: the rank is not silent */
            int64_t k = -1;
            if (n == (int)sizeof k)
                memcpy(&k, msg, sizeof k);
            if (!s.gone[src] && s.out_set[src] == k)
                s.out_at[src] = game_clock_ms();
            continue;
        }
        if (stt.MPI_TAG == TAG_RESULT) {
            const int whole = take_piece(&s.part[src], msg, (size_t)n);
            if (whole == 0)
                continue; /* more pieces to come */
            SetResult r;
            if (whole < 0 || set_result_unpack(s.part[src].b, s.part[src].len, &r) || r.idx < 0 || r.idx >= c->sets) {
                snprintf(err, errsz, "rank %d sent a damaged set result", src);
                s.failed = 1;
            } else if (!is_set(s.done, r.idx)) { /* a late answer for a set already replayed is dropped */
                char e[512];
                if (store_save_set(st, &r, e, sizeof e)) {
                    snprintf(err, errsz, "%s", e);
                    s.failed = 1;
                } else {
                    s.done[r.idx >> 3] |= (uint8_t)(1u << (r.idx & 7));
                    finished++;
                    games += r.games;
                }
            }
        } else if (stt.MPI_TAG == TAG_FAIL) {
            msg[n > 0 ? n - 1 : 0] = 0;
            snprintf(err, errsz, "%s", n > 0 ? (char *)msg : "a rank failed");
            s.failed = 1;
        }
        if (s.gone[src])
            continue; /* given up on: it was already told nothing more */
        s.out_set[src] = -1;
        sched_hand_out(&s, src);
        sched_release(&s);
    }
    if (c->progress)
        c->progress(c->progress_ctx, already + finished, total, games);
    if (!s.failed && !(c->stop && *c->stop) && already + finished < total) {
        snprintf(err, errsz, "%ld of %ld sets were not played (every rank was given up on); --resume plays them",
                 total - already - finished, total);
        s.failed = 1;
    }
    rc = s.failed ? -1 : c->stop && *c->stop ? TOURNAMENT_STOPPED : 0;
end:
    if (sent && rc == -1 && s.closed) /* an error here: the ranks still waiting for work are let go */
        for (int r = 1; r < g_size; r++)
            if (!s.closed[r] && !s.gone[r])
                sched_done(&s, r);
    free(job);
    free(s.done);
    free(s.pending);
    free(s.out_set);
    free(s.out_at);
    free(s.gone);
    free(s.parked);
    free(s.closed);
    for (int r = 0; s.part && r < g_size; r++)
        free(s.part[r].b);
    free(s.part);
    free(msg);
    return rc;
}

#endif
